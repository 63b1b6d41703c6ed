"""A/B experiments: visitors, conversions and rates per variant, lift and significance."""

from __future__ import annotations

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
)
from toolchaos.suites.toolbench_x.templates.productivity._helpers import (
    DATA,
    combined,
    one_per,
)

STAT_TOOLS = {
    "get_variant_stats": ("variant", "the experiment platform"),
    "get_variant_stats_analytics": ("arm", "product analytics"),
    "get_variant_stats_warehouse": ("variant", "the warehouse tables"),
}
FIELDS = {
    "visitors": "visitors",
    "conversions": "conversions",
    "conversion_rate_pct": "conversion rate (%)",
}


def _tool(ctx: TemplateContext) -> tuple[str, str, str, bool]:
    """A stats source, its variant parameter, its name, and whether the request names it."""
    tool, named = ctx.choose_source(STAT_TOOLS)
    param, words = STAT_TOOLS[tool]
    return tool, param, words, named


def treatment_counts(ctx: TemplateContext) -> Draft:
    """Sequential: find an experiment -> lift of its first treatment -> that arm's counts."""
    exp = ctx.pick("experiments")
    tool, param, words, named = _tool(ctx)
    field = ctx.rng.choice(sorted(FIELDS))
    prompt = ctx.say_source(
        named,
        "For the '{exp}' experiment, check the lift of its first treatment variant over "
        "control, then give me that variant's {f} according to {source}.",
        "'{exp}': compare the first non-control variant with control; what {f} does {source} "
        "report for that variant?",
        exp=exp.name,
        f=FIELDS[field],
        source=words,
    )
    steps = [
        RefStep(tool="list_experiments", args={"query": exp.name}),
        RefStep(
            tool="experiment_lift",
            args={
                "experiment": ref(0, "results", 0, "experiment_id"),
                "variant": ref(0, "results", 0, "variants", 1),
            },
        ),
        RefStep(tool=tool, args={"experiment": ref(1, "experiment_id"), param: ref(1, "variant")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def lift_of_searched(ctx: TemplateContext) -> Draft:
    """Sequential: find an experiment -> control stats -> lift of the last variant."""
    exp = ctx.pick("experiments")
    field = ctx.rng.choice(["lift_pct", "absolute_diff_pp", "p_value", "z_score"])
    words = {
        "lift_pct": "relative lift (%)",
        "absolute_diff_pp": "difference in percentage points",
        "p_value": "p-value",
        "z_score": "z-score",
    }[field]
    variant = exp.variants[-1]
    prompt = ctx.say(
        "In '{exp}', start from the control group's numbers and then tell me the {w} of "
        "'{v}' against control.",
        "Experiment '{exp}': what {w} does the '{v}' variant show versus control?",
        exp=exp.name,
        w=words,
        v=variant,
    )
    steps = [
        RefStep(tool="list_experiments", args={"query": exp.name}),
        RefStep(
            tool="get_variant_stats",
            args={"experiment": ref(0, "results", 0, "experiment_id"), "variant": "control"},
        ),
        RefStep(
            tool="experiment_lift",
            args={
                "experiment": ref(1, "experiment_id"),
                "variant": variant,
                "baseline": ref(1, "variant"),
            },
        ),
    ]
    return Draft(
        prompt,
        steps,
        AnswerSpec(op="value", refs=[[2, field]], round=4 if field == "p_value" else 2),
    )


def controls_compared(ctx: TemplateContext) -> Draft:
    """Parallel: the control arm of three to seven experiments; sum of visitors or best rate."""
    exps = ctx.sample("experiments", ctx.count(3, 7))
    tool, param, words, named = _tool(ctx)
    field, op, question = ctx.rng.choice(
        [
            ("visitors", "sum", "how many control visitors are there in total"),
            ("conversions", "sum", "how many control conversions in total"),
            ("conversion_rate_pct", "max", "what's the highest control conversion rate (%)"),
            ("conversion_rate_pct", "min", "what's the lowest control conversion rate (%)"),
        ]
    )
    prompt = ctx.say_source(
        named,
        "Baseline check on {names} using {source}: {q}?",
        "Looking only at the control groups of {names} ({source}), {q}?",
        names=listing([e.name for e in exps], "'"),
        source=words,
        q=question,
    )
    steps = one_per(tool, "experiment", [e.name for e in exps], **{param: "control"})
    return Draft(prompt, steps, combined(op, field, range(len(exps))))


def lifts_compared(ctx: TemplateContext) -> Draft:
    """Parallel: the lift of the first treatment in three to seven experiments; best or worst."""
    exps = ctx.sample("experiments", ctx.count(3, 7))
    op = ctx.rng.choice(["max", "min"])
    field = ctx.rng.choice(["lift_pct", "absolute_diff_pp"])
    words = {"lift_pct": "relative lift (%)", "absolute_diff_pp": "gain in percentage points"}[
        field
    ]
    prompt = ctx.say(
        "For {names}, compare each one's first treatment against control. What's the {w} {f}?",
        "First treatment versus control in {names}: give me the {w} {f} among them.",
        names=listing([e.name for e in exps], "'"),
        w={"max": "best", "min": "worst"}[op],
        f=words,
    )
    steps = [
        RefStep(tool="experiment_lift", args={"experiment": e.name, "variant": e.variants[1]})
        for e in exps
    ]
    return Draft(prompt, steps, combined(op, field, range(len(exps))))


def all_arms(ctx: TemplateContext) -> Draft:
    """Mixture: find an experiment -> every variant's counts -> total or best rate."""
    exp = ctx.pick("experiments")
    tool, param, words, named = _tool(ctx)
    field, op, question = ctx.rng.choice(
        [
            ("visitors", "sum", "how many visitors has it had across all variants"),
            ("conversions", "sum", "how many conversions in total across every variant"),
            ("conversion_rate_pct", "max", "what's the best conversion rate (%) of any variant"),
        ]
    )
    prompt = ctx.say_source(
        named,
        "Experiment '{exp}', according to {source}: {q}?",
        "Pull every variant of '{exp}' from {source}. {q}?",
        exp=exp.name,
        source=words,
        q=question,
    )
    steps = [RefStep(tool="list_experiments", args={"query": exp.name})]
    steps += [
        RefStep(
            tool=tool,
            args={
                "experiment": ref(0, "results", 0, "experiment_id"),
                param: ref(0, "results", 0, "variants", i),
            },
        )
        for i in range(len(exp.variants))
    ]
    return Draft(prompt, steps, combined(op, field, range(1, 1 + len(exp.variants))))


def running_controls(ctx: TemplateContext) -> Draft:
    """Mixture: list experiments by status -> each one's control counts -> aggregate."""
    status = ctx.rng.choice(["running", "completed"])
    listed = ctx.rows("experiments", lambda e: e.status == status)
    if not 2 <= len(listed) <= 7:
        raise NoFit("too few or too many experiments")
    tool, param, words, named = _tool(ctx)
    field, op, question = ctx.rng.choice(
        [
            ("visitors", "sum", "the total number of control-group visitors"),
            ("conversion_rate_pct", "max", "the highest control conversion rate (%)"),
            ("conversion_rate_pct", "min", "the lowest control conversion rate (%)"),
        ]
    )
    prompt = ctx.say_source(
        named,
        "Across all {status} experiments, what is {q}, according to {source}?",
        "Take every {status} A/B test and read its control group from {source}. I need {q}.",
        status=status,
        q=question,
        source=words,
    )
    steps = [RefStep(tool="list_experiments", args={"status": status})]
    found = [ref(0, "results", i, "experiment_id") for i in range(len(listed))]
    steps += one_per(tool, "experiment", found, **{param: "control"})
    return Draft(prompt, steps, combined(op, field, range(1, 1 + len(listed))))


SUBTOPIC = Subtopic(
    name="a/b experiments",
    topic=DATA,
    templates={
        "sequential": [treatment_counts, lift_of_searched],
        "parallel": [controls_compared, lifts_compared],
        "mixture": [all_arms, running_controls],
    },
)
