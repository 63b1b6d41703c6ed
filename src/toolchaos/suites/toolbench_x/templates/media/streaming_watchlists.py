"""Streaming catalogue and watchlists: series, seasons, binge time and the user's watchlist."""

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
from toolchaos.suites.toolbench_x.templates.media._helpers import (
    listed,
    rating_ask,
    title_finds,
    unique_top,
)

_PACES = (
    (45, "45 minutes a day"),
    (60, "an hour a day"),
    (90, "an hour and a half each day"),
    (120, "two hours a day"),
    (150, "two and a half hours a night"),
    (180, "three hours a day"),
)
_BINGE_ASKS = {
    "finish_date": "On what date would I finish?",
    "total_runtime_min": "How many minutes of viewing is that in total?",
}


def watchlist_binge(ctx: TemplateContext) -> Draft:
    """Sequential: watchlist series -> the series -> binge time at a daily pace."""
    priority = ctx.rng.choice(["high", "normal", "low"])
    listed = ctx.read("list_watchlist", kind="series", priority=priority)["results"]
    if not listed:
        raise NoFit(f"no {priority}-priority series")
    minutes, pace = ctx.rng.choice(_PACES)
    ask = ctx.rng.choice(sorted(_BINGE_ASKS))
    start = ctx.rng.randint(0, 4)
    args: dict[str, Any] = {"series": ref(1, "series_id"), "minutes_per_day": minutes}
    start_words = "starting today"
    if start:
        args["start_date"] = ctx.day(start)
        start_words = f"starting {when(ctx.day(start))}"
    prompt = ctx.say(
        "Take the oldest {priority}-priority series on my watchlist. If I watch {pace}, "
        "{start}, how does the whole show work out? " + _BINGE_ASKS[ask],
        "I want to binge the first series I added to my watchlist at {priority} priority, "
        "{pace}, {start}. " + _BINGE_ASKS[ask],
        priority=priority,
        pace=pace,
        start=start_words,
    )
    steps = [
        RefStep(tool="list_watchlist", args={"kind": "series", "priority": priority}),
        RefStep(tool="get_series", args={"series": ref(0, "results", 0, "item_id")}),
        RefStep(tool="compute_binge_time", args=args),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, ask]]))


def season_binge_from_search(ctx: TemplateContext) -> Draft:
    """Sequential: search the series -> its episodes of a season -> binge from the premiere."""
    show = ctx.pick("series")
    if not title_finds(ctx, show.title, show.series_id):
        raise NoFit("title is not found first")
    season = ctx.rng.randint(1, show.seasons)
    minutes, pace = ctx.rng.choice(_PACES)
    prompt = ctx.say(
        "Suppose I had started season {season} of {title} the day it premiered, watching "
        "{pace}. On what date would I have finished that season?",
        "Season {season} of {title}: starting on its first episode's air date and "
        "watching {pace}, when would I have watched the final episode?",
        season=season,
        title=show.title,
        pace=pace,
    )
    steps = [
        RefStep(tool="search_catalog", args={"query": show.title, "kind": "series"}),
        RefStep(
            tool="list_episodes",
            args={"series": ref(0, "results", 0, "item_id"), "season": season},
        ),
        RefStep(
            tool="compute_binge_time",
            args={
                "series": ref(1, "series_id"),
                "season": season,
                "minutes_per_day": minutes,
                "start_date": ref(1, "results", 0, "air_date"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "finish_date"]]))


def watchlist_finale(ctx: TemplateContext) -> Draft:
    """Sequential: watchlist -> a series on it -> its latest season -> its first or last episode."""
    entries = ctx.read("list_watchlist")["results"]
    series = [
        (i, e)
        for i, e in enumerate(entries)
        if e["kind"] == "series"
        and sum(x["kind"] == "series" and x["priority"] == e["priority"] for x in entries) == 1
    ]
    if not series:
        raise NoFit("no series on the watchlist")
    i, entry = ctx.rng.choice(series)
    show = ctx.read("get_series", series=entry["item_id"])
    episodes = ctx.read("list_episodes", series=entry["item_id"], season=show["seasons"])
    which, index = ctx.rng.choice(
        [
            ("last", len(episodes["results"]) - 1),
            ("first", 0),
            ("final", len(episodes["results"]) - 1),
        ]
    )
    field, words = ctx.rng.choice(
        [("runtime_min", "how long is it, in minutes"), ("title", "what is it called")]
    )
    prompt = ctx.say(
        "The series on my watchlist with {prio} priority: the {which} episode of its latest "
        "season, {words}?",
        "Take the {prio}-priority series from my watchlist and find the {which} episode of "
        "its most recent season. {Words}?",
        prio=entry["priority"],
        which=which,
        words=words,
        Words=words[0].upper() + words[1:],
    )
    steps = [
        RefStep(tool="list_watchlist", args={}),
        RefStep(tool="get_series", args={"series": ref(0, "results", i, "item_id")}),
        RefStep(
            tool="list_episodes",
            args={"series": ref(1, "series_id"), "season": ref(1, "seasons")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "results", index, field]]))


def three_series_runtime(ctx: TemplateContext) -> Draft:
    """Parallel: three to seven series; total, longest or shortest runtime."""
    shows = ctx.sample("series", ctx.count(3, 7))
    op = ctx.rng.choice(["sum", "max", "min"])
    question = {
        "sum": "How many minutes would it take to watch all of them from start to finish?",
        "max": "Which is the biggest time commitment? Give me its total runtime in minutes.",
        "min": "Which is the quickest to get through? Its total runtime in minutes, please.",
    }[op]
    if op != "sum":
        values = [ctx.read("get_series", series=s.series_id)["total_runtime_min"] for s in shows]
        unique_top(values, op)
    prompt = ctx.say(
        "I'm weighing {names}. " + question,
        "Streaming plans: {names}. " + question,
        names=listing([s.title for s in shows]),
    )
    steps = [RefStep(tool="get_series", args={"series": s.title}) for s in shows]
    refs = [[i, "total_runtime_min"] for i in range(len(shows))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def best_rated_on_service(ctx: TemplateContext) -> Draft:
    """Parallel: one aggregator's rating for three to five series of one service; the best."""
    service = ctx.pick("services")
    shows = ctx.sample("series", ctx.count(3, 5), lambda s: s.service_id == service.service_id)
    ask = rating_ask(ctx, "max")
    ask.require_unique(ctx, [s.series_id for s in shows])
    prompt = ask.say(
        ctx,
        "I only have {service}. Between {names}, what's the best {source} {words}?",
        "On {service} I'm choosing among {names}. Which scores highest on "
        "{source}? Give me that {words}.",
        service=service.name,
        names=listing([s.title for s in shows]),
        **ask.phrases(),
    )
    return ask.draft(prompt, [], [s.title for s in shows])


def watchlist_total_runtime(ctx: TemplateContext) -> Draft:
    """Mixture: list watchlist series -> each series -> total or longest runtime."""
    listed = ctx.read("list_watchlist", kind="series")["results"]
    if len(listed) < 2:
        raise NoFit("fewer than two series on the watchlist")
    op = ctx.rng.choice(["sum", "max", "min"])
    question = {
        "sum": "how many minutes of TV is that altogether",
        "max": "what's the total runtime of the longest one, in minutes",
        "min": "what's the total runtime of the shortest one, in minutes",
    }[op]
    if op != "sum":
        values = [ctx.read("get_series", series=r["item_id"])["total_runtime_min"] for r in listed]
        unique_top(values, op)
    prompt = ctx.say(
        "Look at every series on my watchlist: " + question + "?",
        "For all the shows (series, not films) on my watchlist, " + question + "?",
    )
    steps = [RefStep(tool="list_watchlist", args={"kind": "series"})]
    steps += [
        RefStep(tool="get_series", args={"series": ref(0, "results", i, "item_id")})
        for i in range(len(listed))
    ]
    refs = [[1 + i, "total_runtime_min"] for i in range(len(listed))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def watchlist_ratings(ctx: TemplateContext) -> Draft:
    """Mixture: watchlist entries of a kind -> one aggregator's rating of each -> best/worst."""
    kind = ctx.rng.choice(["film", "series"])
    listed_now = ctx.read("list_watchlist", kind=kind)["results"]
    if len(listed_now) < 2:
        raise NoFit("too few entries")
    ask = rating_ask(ctx)
    prompt = ask.say(
        ctx,
        "Rank the {plural} on my watchlist by their {source} {words}. What's the {word} figure?",
        "Of the {plural} I've put on my watchlist, which has the {word} {source} "
        "{words}? Just the number.",
        plural={"film": "films", "series": "series"}[kind],
        **ask.phrases(),
    )
    listing = RefStep(tool="list_watchlist", args={"kind": kind})
    return ask.draft(prompt, [listing], listed(len(listed_now), "item_id"))


SUBTOPIC = Subtopic(
    name="streaming catalogue and watchlists",
    templates={
        "sequential": [watchlist_binge, season_binge_from_search, watchlist_finale],
        "parallel": [three_series_runtime, best_rated_on_service],
        "mixture": [watchlist_total_runtime, watchlist_ratings],
    },
)
