"""TV schedules: listings by channel and day, recordings, and what is worth watching."""

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
)

_EVENINGS = ("18:00", "19:30", "21:00")
_PACES = ((60, "an hour a day"), (90, "ninety minutes a day"), (120, "two hours a day"))


def record_film_airing(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the film -> its airings -> record the first one."""
    aired = {b.item_id for b in ctx.rows("broadcasts") if b.item_id}
    film = ctx.pick("films", lambda f: f.film_id in aired)
    found = ctx.read("list_broadcasts", title_contains=film.title)["results"]
    if any(r["item_id"] != film.film_id for r in found):
        raise NoFit("the title matches other programmes")
    recorded = {r.broadcast_id for r in ctx.rows("recordings")}
    if found[0]["broadcast_id"] in recorded:
        raise NoFit("already recorded")
    padding = ctx.rng.choice([0, 5, 10, 15])
    extra = f" with {padding} minutes of padding at the end" if padding else ""
    prompt = ctx.say(
        "Record the next time the film {title} is on TV{extra}.",
        "Can you set my recorder for the first upcoming broadcast of {title}{extra}?",
        "{title} is coming up on TV at some point; record its earliest airing{extra}.",
        title=film.title,
        extra=extra,
    )
    args: dict[str, Any] = {"broadcast_id": ref(1, "results", 0, "broadcast_id")}
    if padding:
        args["padding_min"] = padding
    steps = [
        RefStep(tool="search_catalog", args={"query": film.title, "kind": "film"}),
        RefStep(tool="list_broadcasts", args={"title_contains": ref(0, "results", 0, "title")}),
        RefStep(tool="schedule_recording", args=args),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def drama_tonight_binge(ctx: TemplateContext) -> Draft:
    """Sequential: drama listing tonight -> the series -> binge finish date."""
    channel = next(c for c in ctx.rows("channels") if c.name == "Drama Central")
    when_day = ctx.day(ctx.rng.randint(0, 2))
    after = ctx.rng.choice(_EVENINGS)
    shows = ctx.read("list_broadcasts", channel=channel.name, date=when_day, starts_after=after)
    if not shows["results"]:
        raise NoFit("nothing on")
    minutes, pace = ctx.rng.choice(_PACES)
    prompt = ctx.say(
        "Whatever series Drama Central shows first after {after} on {day}, I want to "
        "watch the whole thing from the start at {pace}, beginning that day. When would I "
        "finish?",
        "The first Drama Central programme from {after} on {day} got me curious. If I "
        "binge the full series at {pace} starting on {day}, what's my finish date?",
        after=after,
        day=when(when_day),
        pace=pace,
    )
    steps = [
        RefStep(
            tool="list_broadcasts",
            args={"channel": channel.name, "date": when_day, "starts_after": after},
        ),
        RefStep(tool="get_series", args={"series": ref(0, "results", 0, "item_id")}),
        RefStep(
            tool="compute_binge_time",
            args={
                "series": ref(1, "series_id"),
                "minutes_per_day": minutes,
                "start_date": when_day,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "finish_date"]]))


def recorded_film_rating(ctx: TemplateContext) -> Draft:
    """Sequential: my recordings -> one's listing -> the rating of what it records."""
    recs = ctx.read("list_recordings")["results"]
    usable = []
    for i, r in enumerate(recs):
        found = ctx.read("list_broadcasts", title_contains=r["title"], date=r["date"])["results"]
        same_day = [b for b in recs if b["date"] == r["date"]]
        if found and found[0]["item_id"] and len(same_day) == 1:
            usable.append((i, r))
    if not usable:
        raise NoFit("no recording of a rated title")
    i, rec = ctx.rng.choice(usable)
    ask = rating_ask(ctx, "value")
    prompt = ask.say(
        ctx,
        "I've set a recording for {day}. How is the programme it records rated on {source}? "
        "Its {words}, please.",
        "Whatever I'm recording on {day}: look it up in the listings and give me its "
        "{source} {words}.",
        day=when(rec["date"]),
        **ask.phrases(),
    )
    before = [
        RefStep(tool="list_recordings", args={}),
        RefStep(
            tool="list_broadcasts",
            args={
                "title_contains": ref(0, "results", i, "title"),
                "date": ref(0, "results", i, "date"),
            },
        ),
    ]
    return ask.draft(prompt, before, [ref(1, "results", 0, "item_id")])


def longest_programme_at(ctx: TemplateContext) -> Draft:
    """Parallel: three to six channels' first programme from a time; longest or shortest."""
    channels = ctx.sample("channels", ctx.count(3, 6))
    when_day = ctx.day(ctx.rng.randint(0, 2))
    after = ctx.rng.choice(("12:00", "15:00", *_EVENINGS))
    values = []
    for c in channels:
        found = ctx.read("list_broadcasts", channel=c.name, date=when_day, starts_after=after)
        if not found["results"]:
            raise NoFit("a channel is off air")
        values.append(found["results"][0]["duration_min"])
    op = ctx.rng.choice(["max", "min"])
    prompt = ctx.say(
        "On {day}, from {after}: the first programme on each of {names}. How many "
        "minutes does the {word} of them run?",
        "Flicking between {names} at {after} on {day} - what's the {word} running "
        "time (minutes) of what comes on first?",
        day=when(when_day),
        after=after,
        names=listing([c.name for c in channels]),
        word={"max": "longest", "min": "shortest"}[op],
    )
    steps = [
        RefStep(
            tool="list_broadcasts",
            args={"channel": c.name, "date": when_day, "starts_after": after},
        )
        for c in channels
    ]
    refs = [[i, "results", 0, "duration_min"] for i in range(len(channels))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def films_on_tv_rating(ctx: TemplateContext) -> Draft:
    """Parallel: ratings of three to six films that air this week; best or worst."""
    aired = sorted({b.item_id for b in ctx.rows("broadcasts") if b.genre == "film"})
    if len(aired) < 3:
        raise NoFit("too few films on air")
    picked = ctx.rng.sample(aired, ctx.count(3, min(6, len(aired))))
    films = [ctx.world.table("films")[f] for f in picked]
    ask = rating_ask(ctx)
    ask.require_unique(ctx, [f.film_id for f in films])
    prompt = ask.say(
        ctx,
        "Cinemax Classic is showing {names} over the next few days. What's the "
        "{word} {source} {words} among them?",
        "TV movie picks: {names}. Which is rated {word} on {source}? Just its {words}.",
        names=listing([f.title for f in films]),
        **ask.phrases(),
    )
    return ask.draft(prompt, [], [f.title for f in films])


def movie_night_ratings(ctx: TemplateContext) -> Draft:
    """Mixture: films on Cinemax Classic on a day -> rating of each -> best or worst."""
    when_day = ctx.day(ctx.rng.randint(0, 2))
    after = ctx.rng.choice(("09:00", "12:00", "15:00", "18:00"))
    filters = {"channel": "Cinemax Classic", "date": when_day, "starts_after": after}
    shows = ctx.read("list_broadcasts", **filters)["results"]
    if not 2 <= len(shows) <= 6:
        raise NoFit("need two to six films")
    ask = rating_ask(ctx)
    prompt = ask.say(
        ctx,
        "Cinemax Classic on {day} from {after}: look up each film on {source}. What's the "
        "{word} {words}?",
        "Which film on Cinemax Classic after {after} on {day} rates {word} on {source}? "
        "Give me its {words}.",
        day=when(when_day),
        after=after,
        **ask.phrases("best", "worst"),
    )
    listing = RefStep(tool="list_broadcasts", args=filters)
    return ask.draft(prompt, [listing], listed(len(shows), "item_id"))


SUBTOPIC = Subtopic(
    name="tv schedules",
    templates={
        "sequential": [record_film_airing, drama_tonight_binge, recorded_film_rating],
        "parallel": [longest_programme_at, films_on_tv_rating],
        "mixture": [movie_night_ratings],
    },
)
