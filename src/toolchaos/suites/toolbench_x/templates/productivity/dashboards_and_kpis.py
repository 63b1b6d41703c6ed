"""Dashboards and KPIs: monthly values from the analytics backends, period-over-period change."""

from __future__ import annotations

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, Subtopic, TemplateContext, listing, ref
from toolchaos.suites.toolbench_x.templates.productivity._helpers import (
    DATA,
    KPI_SOURCES,
    combined,
    one_per,
)

ADDITIVE = ("users", "signups", "usd", "tickets")


def _periods(ctx: TemplateContext) -> list[str]:
    periods: list[str] = ctx.world.kpi_periods()  # type: ignore[attr-defined]
    return periods


def _tool(ctx: TemplateContext) -> tuple[str, str, str, str, bool]:
    """A KPI backend, its KPI and month parameters, its name, and whether the request names it."""
    tool, named = ctx.choose_source(KPI_SOURCES)
    kpi_param, period_param, words = KPI_SOURCES[tool]
    return tool, kpi_param, period_param, words, named


def baseline_value(ctx: TemplateContext) -> Draft:
    """Sequential: find a KPI -> its change vs k months back -> the baseline month's value."""
    kpi = ctx.pick("kpis")
    periods = _periods(ctx)
    period = ctx.rng.choice(periods[4:])
    back = ctx.rng.choice([1, 2, 3])
    tool, kpi_param, period_param, words, named = _tool(ctx)
    prompt = ctx.say_source(
        named,
        "We compare '{kpi}' for {period} against {months} earlier. What was the "
        "KPI's value in that comparison month, according to {source}?",
        "For the {kpi} KPI: take {period}, go back {months} for the baseline, and "
        "give me the baseline month's value from {source}.",
        kpi=kpi.name,
        period=period,
        back=back,
        months=f"{back} month{'s' if back != 1 else ''}",
        source=words,
    )
    steps = [
        RefStep(tool="list_kpis", args={"query": kpi.name}),
        RefStep(
            tool="kpi_change",
            args={"kpi": ref(0, "results", 0, "kpi_id"), "period": period, "periods_back": back},
        ),
        RefStep(
            tool=tool,
            args={kpi_param: ref(1, "kpi_id"), period_param: ref(1, "baseline_period")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "value"]], round=2))


def change_from_cache(ctx: TemplateContext) -> Draft:
    """Sequential: dashboard KPI -> its cached value for a month -> change vs a baseline."""
    kpi = ctx.pick("kpis")
    periods = _periods(ctx)
    period = ctx.rng.choice(periods[3:])
    back = ctx.rng.choice([1, 3])
    field = ctx.rng.choice(["change_pct", "change"])
    words = {"change_pct": "percentage change", "change": "absolute change (in the KPI's unit)"}[
        field
    ]
    prompt = ctx.say(
        "On the {dash} dashboard, look up '{kpi}' for {period} in the BI cache, then give me "
        "its {w} versus {months} before.",
        "{kpi} ({dash} dashboard): what's the {w} from {months} earlier to {period}?",
        dash=kpi.dashboard,
        kpi=kpi.name,
        period=period,
        back=back,
        months=f"{back} month{'s' if back != 1 else ''}",
        w=words,
    )
    steps = [
        RefStep(tool="list_kpis", args={"query": kpi.name, "dashboard": kpi.dashboard}),
        RefStep(
            tool="get_kpi_value_bi", args={"kpi": ref(0, "results", 0, "kpi_id"), "period": period}
        ),
        RefStep(
            tool="kpi_change",
            args={"kpi": ref(1, "kpi_id"), "period": ref(1, "period"), "periods_back": back},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def quarter_of_a_kpi(ctx: TemplateContext) -> Draft:
    """Parallel: a KPI in three months from one backend; sum for counts, max or min otherwise."""
    kpi = ctx.pick("kpis")
    periods = _periods(ctx)
    start = ctx.rng.randint(0, len(periods) - 3)
    months = periods[start : start + 3]
    tool, kpi_param, period_param, words, named = _tool(ctx)
    if kpi.unit in ADDITIVE and ctx.rng.random() < 0.6:
        op, question = "sum", "what's the total over those three months"
    else:
        op = ctx.rng.choice(["max", "min"])
        question = {
            "max": "what was its best monthly value",
            "min": "what was its lowest monthly value",
        }[op]
        if not kpi.higher_is_better and op == "max":
            question = "what was its highest monthly value"
    prompt = ctx.say_source(
        named,
        "For '{kpi}', pull {m1}, {m2} and {m3} from {source}: {q}?",
        "Quarter view of the {kpi} KPI ({m1} to {m3}) using {source}. {q}?",
        kpi=kpi.name,
        m1=months[0],
        m2=months[1],
        m3=months[2],
        source=words,
        q=question,
    )
    steps = [RefStep(tool=tool, args={kpi_param: kpi.name, period_param: m}) for m in months]
    return Draft(prompt, steps, combined(op, "value", range(3)))


def dashboard_percentages(ctx: TemplateContext) -> Draft:
    """Parallel: three to six percentage KPIs in one month; the highest or lowest."""
    rates = ctx.rows("kpis", lambda k: k.unit == "percent")
    kpis = ctx.sample("kpis", ctx.count(3, min(6, len(rates))), lambda k: k.unit == "percent")
    month = ctx.rng.choice(_periods(ctx))
    op = ctx.rng.choice(["max", "min"])
    tool, kpi_param, period_param, words, named = _tool(ctx)
    prompt = ctx.say_source(
        named,
        "In {month}, what's the {w} percentage among {quoted} ({source})?",
        "Compare {n} rate KPIs for {month} from {source}: {names}. Give the {w} value.",
        month=month,
        w={"max": "highest", "min": "lowest"}[op],
        quoted=listing([k.name for k in kpis], "'"),
        names=listing([k.name for k in kpis]),
        n=len(kpis),
        source=words,
    )
    steps = one_per(tool, kpi_param, [k.name for k in kpis], **{period_param: month})
    return Draft(prompt, steps, combined(op, "value", range(len(kpis))))


def months_of_one_kpi(ctx: TemplateContext) -> Draft:
    """Mixture: find a KPI -> its value for two to five months -> sum, max or min."""
    kpi = ctx.pick("kpis")
    periods = _periods(ctx)
    months = sorted(ctx.rng.sample(periods, ctx.count(2, min(5, len(periods)))))
    tool, kpi_param, period_param, words, named = _tool(ctx)
    op = "sum" if kpi.unit in ADDITIVE else ctx.rng.choice(["max", "min"])
    question = {"sum": "their total", "max": "the highest of them", "min": "the lowest of them"}[op]
    prompt = ctx.say_source(
        named,
        "Look up the '{kpi}' KPI and read its values for {months} from {source}. Give me {q}.",
        "{kpi}: values in {months} ({source}) - what's {q}?",
        kpi=kpi.name,
        months=listing(months),
        source=words,
        q=question,
    )
    steps = [RefStep(tool="list_kpis", args={"query": kpi.name})]
    steps += [
        RefStep(tool=tool, args={kpi_param: ref(0, "results", 0, "kpi_id"), period_param: m})
        for m in months
    ]
    return Draft(prompt, steps, combined(op, "value", range(1, 1 + len(months))))


def latest_vs_change(ctx: TemplateContext) -> Draft:
    """Mixture: find a KPI -> its latest value and its change (fan-out) -> the latest value."""
    kpi = ctx.pick("kpis")
    back = ctx.rng.choice([1, 2, 6])
    tool, kpi_param, _, words, named = _tool(ctx)
    prompt = ctx.say_source(
        named,
        "Where does '{kpi}' stand for the last full month according to {source}? (I'll also "
        "want the change over {months}, but first the current value.)",
        "Give me last month's value of the {kpi} KPI from {source}; check its {back}-month "
        "change too.",
        kpi=kpi.name,
        back=back,
        months=f"{back} month{'s' if back != 1 else ''}",
        source=words,
    )
    steps = [
        RefStep(tool="list_kpis", args={"query": kpi.name}),
        RefStep(tool=tool, args={kpi_param: ref(0, "results", 0, "kpi_id")}),
        RefStep(
            tool="kpi_change", args={"kpi": ref(0, "results", 0, "kpi_id"), "periods_back": back}
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[1, "value"]], round=2))


SUBTOPIC = Subtopic(
    name="dashboards and kpis",
    topic=DATA,
    templates={
        "sequential": [baseline_value, change_from_cache],
        "parallel": [quarter_of_a_kpi, dashboard_percentages],
        "mixture": [months_of_one_kpi, latest_vs_change],
    },
)
