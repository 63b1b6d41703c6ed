"""Mobile plan and usage: data used by each line, projections to the cycle's end, top-ups."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
    when,
)
from toolchaos.suites.toolbench_x.templates.communication._helpers import line_owners

_METHODS = {
    "cycle_average": "my average over the whole cycle so far",
    "last_week": "the average of the last seven days",
}
_PROJECTED = {
    "projected_gb": ("how many GB", 2),
    "projected_overage_usd": ("how much overage, in dollars,", 2),
}


def _line(ctx: TemplateContext) -> tuple[int, Any]:
    lines = line_owners(ctx)
    j = ctx.rng.randrange(len(lines))
    return j, lines[j]


def projection_for_line(ctx: TemplateContext) -> Draft:
    """Sequential: the plan's lines -> one line's usage -> its projection to cycle end."""
    j, line = _line(ctx)
    method = ctx.rng.choice(sorted(_METHODS))
    field = ctx.rng.choice(sorted(_PROJECTED))
    words, digits = _PROJECTED[field]
    prompt = ctx.say(
        "On our family plan, {owner}'s line: {words} will it have used by the end of this "
        "billing cycle, projecting from {method}?",
        "Check {owner}'s phone line on my plan and project to the end of the cycle using "
        "{method}: {words} will that come to?",
        "Projecting from {method}, {words} will {owner}'s line end the billing cycle at?",
        owner=line.owner,
        words=words,
        method=_METHODS[method],
    )
    steps = [
        RefStep(tool="get_plan", args={}),
        RefStep(tool="get_usage_summary", args={"line": ref(0, "lines", j, "line_id")}),
        RefStep(tool="project_data_usage", args={"line": ref(1, "line_id"), "method": method}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=digits))


def top_up_recommended(ctx: TemplateContext) -> Draft:
    """Sequential, writes: the plan's lines -> a line's projection -> buy the top-up (-> usage).

    A longer variant reads the line's usage back and reports its new allowance or what is
    left of it.
    """
    j, line = _line(ctx)
    method = ctx.rng.choice(sorted(_METHODS))
    projected = ctx.read("project_data_usage", line=line.line_id, method=method)
    if projected["recommended_addon"] is None:
        raise NoFit("no overage projected")
    readout = ctx.rng.choice([None, "total_data_gb", "data_remaining_gb"])
    ask = {
        None: "",
        "total_data_gb": " Then tell me the line's total data allowance this cycle, in GB.",
        "data_remaining_gb": " Then tell me how many GB the line has left this cycle.",
    }[readout]
    prompt = ctx.say(
        "{owner}'s line looks like it will run out of data. Project it to the end of the "
        "cycle from {method} and buy the smallest top-up that covers the shortfall.{ask}",
        "Please make sure {owner} doesn't pay overage this cycle: project their data use "
        "(based on {method}) and purchase the top-up the projection recommends for their "
        "line.{ask}",
        owner=line.owner,
        method=_METHODS[method],
        ask=ask,
    )
    steps = [
        RefStep(tool="get_plan", args={}),
        RefStep(
            tool="project_data_usage",
            args={"line": ref(0, "lines", j, "line_id"), "method": method},
        ),
        RefStep(
            tool="buy_data_addon",
            args={"line": ref(1, "line_id"), "addon_code": ref(1, "recommended_addon")},
        ),
    ]
    if readout is None:
        return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)
    steps.append(RefStep(tool="get_usage_summary", args={"line": ref(2, "line_id")}))
    answer = AnswerSpec(op="value", refs=[[3, readout]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def projected_across_lines(ctx: TemplateContext) -> Draft:
    """Parallel: projections for k lines; total overage or highest projection."""
    k = ctx.count(3, len(line_owners(ctx)))
    lines = ctx.rng.sample(line_owners(ctx), k)
    method = ctx.rng.choice(sorted(_METHODS))
    field, op, question = ctx.rng.choice(
        [
            ("projected_overage_usd", "sum", "how much overage would they pay in total, "
             "in dollars"),
            ("projected_gb", "max", "what's the highest projected data total among them, in "
             "GB"),
            ("projected_gb", "sum", "how many GB will they use together by cycle end"),
        ]
    )  # fmt: skip
    prompt = ctx.say(
        "Project data use to the end of the billing cycle for {all}, using {method}: {question}?",
        "Using {method} as the basis, {question}? The lines are {all}.",
        all=listing([f"{x.owner}'s" for x in lines]),
        method=_METHODS[method],
        question=question,
    )
    steps = [
        RefStep(tool="project_data_usage", args={"line": x.owner, "method": method}) for x in lines
    ]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, field] for i in range(k)], round=2))


def used_so_far_across_lines(ctx: TemplateContext) -> Draft:
    """Parallel: this cycle's usage for k lines; total or most of one measure."""
    k = ctx.count(3, len(line_owners(ctx)))
    lines = ctx.rng.sample(line_owners(ctx), k)
    field, op, question = ctx.rng.choice(
        [
            ("data_used_gb", "sum", "how many GB of data have they used between them"),
            ("data_used_gb", "max", "what's the most data any one of them has used, in GB"),
            ("minutes_used", "sum", "how many call minutes have they used in total"),
            ("data_remaining_gb", "min", "what's the least data left on any of them, in GB"),
        ]
    )
    prompt = ctx.say(
        "So far this billing cycle, for the lines of {all}: {question}?",
        "Usage check on my family plan ({all}): {question}?",
        all=listing([x.owner for x in lines]),
        question=question,
    )
    steps = [RefStep(tool="get_usage_summary", args={"line": x.owner}) for x in lines]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, field] for i in range(k)], round=2))


def whole_family_usage(ctx: TemplateContext) -> Draft:
    """Mixture: the plan -> usage of every line -> total or extreme."""
    n = len(line_owners(ctx))
    field, op, question = ctx.rng.choice(
        [
            ("data_used_gb", "sum", "How much data has the whole family used this cycle, in GB?"),
            ("data_used_gb", "max", "What's the most data any single line has used, in GB?"),
            ("sms_used", "sum", "How many texts have all our lines sent this cycle?"),
            ("minutes_used", "max", "What's the highest call-minute count on any one line?"),
            ("data_remaining_gb", "sum", "How many GB are left across all lines together?"),
        ]
    )
    prompt = ctx.say(
        "Go through every line on my mobile plan. " + question,
        "For all the phones on our family plan this billing cycle: " + question,
    )
    steps = [RefStep(tool="get_plan", args={})]
    steps += [
        RefStep(tool="get_usage_summary", args={"line": ref(0, "lines", j, "line_id")})
        for j in range(n)
    ]
    refs = [[1 + j, field] for j in range(n)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def daily_usage_two_lines(ctx: TemplateContext) -> Draft:
    """Mixture: the plan -> daily usage of two lines over a few days -> total or peak."""
    lines = line_owners(ctx)
    j1, j2 = sorted(ctx.rng.sample(range(len(lines)), 2))
    days = sorted({u.date for u in ctx.rows("daily_usage")})
    start = ctx.rng.randrange(0, len(days) - 2)
    length = ctx.rng.randint(2, 3)
    window = days[start : start + length]
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "How many MB did the two lines use in total over those days?",
        "max": "What was the biggest single-day data use, in MB, on either line?",
    }[op]
    prompt = ctx.say(
        "Look at {a}'s and {b}'s lines from {d1} to {d2}. " + question,
        "Daily data for {a} and {b}, {d1} through {d2}: " + question,
        a=lines[j1].owner,
        b=lines[j2].owner,
        d1=when(window[0]),
        d2=when(window[-1]),
    )
    steps = [RefStep(tool="get_plan", args={})]
    steps += [
        RefStep(
            tool="list_daily_usage",
            args={
                "line": ref(0, "lines", j, "line_id"),
                "from_date": window[0],
                "to_date": window[-1],
            },
        )
        for j in (j1, j2)
    ]
    refs = [[1 + k, "results", i, "data_mb"] for k in range(2) for i in range(len(window))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


SUBTOPIC = Subtopic(
    name="mobile plan and usage",
    templates={
        "sequential": [projection_for_line, top_up_recommended],
        "parallel": [projected_across_lines, used_so_far_across_lines],
        "mixture": [whole_family_usage, daily_usage_two_lines],
    },
)
