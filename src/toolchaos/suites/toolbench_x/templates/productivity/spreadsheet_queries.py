"""Spreadsheet queries: filters, group-bys and percentiles over shared datasets."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.domains.productivity import data
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
    KPI_SOURCES,
    combined,
)


def _queries(dataset: Any, metric: str, agg: str, wheres: list[str]) -> list[RefStep]:
    """One query_dataset step per filter, all over the same dataset, metric and aggregate."""
    return [
        RefStep(
            tool="query_dataset",
            args={"dataset": dataset, "metric": metric, "agg": agg, "where": where},
        )
        for where in wheres
    ]


def best_month_company_revenue(ctx: TemplateContext) -> Draft:
    """Sequential: sales dataset -> a region's months by revenue -> that month's company KPI."""
    region = ctx.rng.choice(data.SALES_REGIONS)
    channel = ctx.rng.choice([None, *data.SALES_CHANNELS])
    where = f"region = {region}" + (f"; channel = {channel}" if channel else "")
    order = ctx.rng.choice(["value_desc", "value_asc"])
    tool = ctx.unnamed_source(KPI_SOURCES, share=1.0) or "get_kpi_value"
    kpi_param, period_param, _ = KPI_SOURCES[tool]
    words = {"value_desc": "best", "value_asc": "weakest"}[order]
    scope = f"{region} ({channel} channel)" if channel else region
    prompt = ctx.say(
        "In the regional sales data, find {scope}'s {w} month by revenue. What was the "
        "company-wide gross sales revenue KPI for that month?",
        "Which month was {w} for {scope} in revenue? Then look up that month's '{kpi}' KPI "
        "on the dashboard and give me its value.",
        scope=scope,
        w=words,
        kpi=data.GROSS_REVENUE_KPI,
    )
    steps = [
        RefStep(tool="list_datasets", args={"query": "sales"}),
        RefStep(
            tool="group_dataset",
            args={
                "dataset": ref(0, "results", 0, "dataset_id"),
                "metric": "revenue_usd",
                "group_by": "month",
                "where": where,
                "sort": order,
            },
        ),
        RefStep(
            tool=tool,
            args={kpi_param: data.GROSS_REVENUE_KPI, period_param: ref(1, "results", 0, "group")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "value"]], round=2))


def slice_percentile(ctx: TemplateContext) -> Draft:
    """Sequential: find a dataset -> a median over a slice -> a percentile over the same slice."""
    name, metric, where, words = ctx.rng.choice(
        [
            (
                "traffic",
                "sessions",
                f"source = {ctx.rng.choice(data.TRAFFIC_SOURCES)}",
                "daily sessions",
            ),
            (
                "traffic",
                "signups",
                f"source = {ctx.rng.choice(data.TRAFFIC_SOURCES)}",
                "daily signups",
            ),
            (
                "tickets",
                "first_response_min",
                f"team = {ctx.rng.choice(data.TICKET_TEAMS)}",
                "weekly first-response minutes",
            ),
            (
                "sales",
                "orders",
                f"region = {ctx.rng.choice(data.SALES_REGIONS)}",
                "monthly orders per channel",
            ),
        ]
    )
    pct = ctx.rng.choice([75, 90, 95, 10, 25])
    prompt = ctx.say(
        "Using the {name} dataset, filtered to {where}: first check the median of {words}, "
        "then tell me the {pct}th percentile for the same rows.",
        "For rows with {where} in the {name} data, I want the {pct}th percentile of {words} "
        "(look at the median first for context).",
        name=name,
        where=where,
        words=words,
        pct=pct,
    )
    steps = [
        RefStep(tool="list_datasets", args={"query": name}),
        RefStep(
            tool="query_dataset",
            args={
                "dataset": ref(0, "results", 0, "dataset_id"),
                "metric": metric,
                "agg": "median",
                "where": where,
            },
        ),
        RefStep(
            tool="dataset_percentile",
            args={
                "dataset": ref(1, "dataset_id"),
                "metric": ref(1, "metric"),
                "percentile": pct,
                "where": ref(1, "where"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "value"]], round=2))


def regions_compared(ctx: TemplateContext) -> Draft:
    """Parallel: one filtered aggregate for three or four regions; max, min or sum."""
    regions = ctx.rng.sample(data.SALES_REGIONS, ctx.count(3, len(data.SALES_REGIONS)))
    metric = ctx.rng.choice(["revenue_usd", "orders", "units"])
    since = ctx.rng.choice(["2025-09", "2025-10", "2025-11", "2025-12"])
    op = ctx.rng.choice(["max", "min", "sum"])
    question = {"max": "the highest total", "min": "the lowest total", "sum": "the combined total"}[
        op
    ]
    prompt = ctx.say(
        "From the Regional sales dataset: total {metric} since {since} (month >= {since}) for "
        "{regions}. Give me {q}.",
        "Sum {metric} per region from {since} on, for {regions}, in Regional sales. What is {q}?",
        metric={"revenue_usd": "revenue (USD)"}.get(metric, metric),
        since=since,
        regions=listing(regions),
        q=question,
    )
    wheres = [f"region = {r}; month >= {since}" for r in regions]
    steps = _queries("Regional sales", metric, "sum", wheres)
    return Draft(prompt, steps, combined(op, "value", range(len(regions))))


def source_percentiles(ctx: TemplateContext) -> Draft:
    """Parallel: a percentile of daily traffic for three to five sources; max or min."""
    sources = ctx.rng.sample(data.TRAFFIC_SOURCES, ctx.count(3, len(data.TRAFFIC_SOURCES)))
    metric = ctx.rng.choice(["sessions", "pageviews", "signups"])
    pct = ctx.rng.choice([50, 75, 90])
    op = ctx.rng.choice(["max", "min"])
    words = {"max": "highest", "min": "lowest"}[op]
    prompt = ctx.say(
        "In Web traffic, compute the {pct}th percentile of daily {metric} for each of "
        "{sources}. Which value is the {w}? Give the number.",
        "Daily {metric}, {pct}th percentile, per acquisition source ({sources}) in the "
        "Web traffic dataset: tell me the {w} of them.",
        pct=pct,
        metric=metric,
        sources=listing(sources),
        w=words,
    )
    steps = [
        RefStep(
            tool="dataset_percentile",
            args={
                "dataset": "Web traffic",
                "metric": metric,
                "percentile": pct,
                "where": f"source = {s}",
            },
        )
        for s in sources
    ]
    return Draft(prompt, steps, combined(op, "value", range(len(sources))))


def traffic_by_source(ctx: TemplateContext) -> Draft:
    """Mixture: find the traffic dataset -> one aggregate per source -> combine."""
    sources = sorted(ctx.rng.sample(data.TRAFFIC_SOURCES, ctx.count(2, 5)))
    metric = ctx.rng.choice(["signups", "sessions"])
    agg = ctx.rng.choice(["sum", "avg"])
    op = "sum" if agg == "sum" else "max"
    question = {
        "sum": "total {metric} over the period, summed across those sources",
        "avg": "average daily {metric}; give the highest average among those sources",
    }[agg].format(metric=metric)
    prompt = ctx.say(
        "From the web traffic dataset, for the sources {names}: {q}.",
        "Web traffic check on {names}. I need the {q}.",
        names=listing(sources),
        q=question,
    )
    steps = [RefStep(tool="list_datasets", args={"query": "traffic"})]
    found = ref(0, "results", 0, "dataset_id")
    steps += _queries(found, metric, agg, [f"source = {s}" for s in sources])
    return Draft(prompt, steps, combined(op, "value", range(1, 1 + len(sources))))


def ticket_teams(ctx: TemplateContext) -> Draft:
    """Mixture: find the tickets dataset -> per-team aggregate since a week -> max or min."""
    listing = ctx.read("list_datasets", query="tickets")["results"]
    if not listing:
        raise NoFit("no tickets dataset")
    weeks = sorted(
        {r.dims["week"] for r in ctx.rows("dataset_rows", lambda r: r.dataset_id == "DS-TICKETS")}
    )
    since = ctx.rng.choice(weeks[:8])
    metric, agg, words = ctx.rng.choice(
        [
            ("tickets", "sum", "total tickets"),
            ("first_response_min", "avg", "average first-response time (minutes)"),
            ("csat_pct", "avg", "average CSAT (%)"),
        ]
    )
    op = ctx.rng.choice(["max", "min"])
    teams = list(data.TICKET_TEAMS)
    prompt = ctx.say(
        "Support tickets data, weeks from {since} on: for each team ({teams}) compute the "
        "{w}. What's the {o} of the three?",
        "Per support team ({teams}), since week {since}: {w}. Report the {o} value.",
        since=since,
        teams=", ".join(teams),
        w=words,
        o={"max": "highest", "min": "lowest"}[op],
    )
    steps = [RefStep(tool="list_datasets", args={"query": "tickets"})]
    found = ref(0, "results", 0, "dataset_id")
    steps += _queries(found, metric, agg, [f"team = {t}; week >= {since}" for t in teams])
    return Draft(prompt, steps, combined(op, "value", range(1, 4)))


SUBTOPIC = Subtopic(
    name="spreadsheet queries",
    topic=DATA,
    templates={
        "sequential": [best_month_company_revenue, slice_percentile],
        "parallel": [regions_compared, source_percentiles],
        "mixture": [traffic_by_source, ticket_teams],
    },
)
