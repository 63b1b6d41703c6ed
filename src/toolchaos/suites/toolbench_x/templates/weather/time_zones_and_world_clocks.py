"""Weather subtopic "time zones and world clocks": local times, offsets, calls across zones."""

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
from toolchaos.suites.toolbench_x.templates.weather._helpers import (
    _plain,
    _query,
    _saved,
    _spoken,
    _sun_on_clock,
    _unique_poi,
)


def _clock(ctx: TemplateContext, first: int = 6, last: int = 22) -> str:
    return f"{ctx.rng.randint(first, last):02d}:{ctx.rng.choice([0, 15, 30, 45]):02d}"


def _other_zone(ctx: TemplateContext, location_id: str) -> Any:
    """A plainly named place in another time zone than ``location_id``."""
    offset = ctx.world.table("locations")[location_id].utc_offset_hours
    return ctx.pick("locations", lambda loc: _plain(ctx, loc) and loc.utc_offset_hours != offset)


def sunrise_at_home_elsewhere(ctx: TemplateContext) -> Draft:
    """Sequential: saved city -> its sunrise on a day -> that moment in another city's clock."""
    saved = _saved(ctx, "location")
    other = _other_zone(ctx, saved.location_id)
    day = ctx.day(ctx.rng.randint(0, 6))
    moment = ctx.rng.choice(["sunrise", "sunset"])
    verb = {"sunrise": "comes up", "sunset": "goes down"}[moment]
    prompt = ctx.say(
        "When the sun {verb} at my saved place '{label}' on {day}, what time is it on the "
        "clock in {other}?",
        "My family at '{label}' (a saved place) want to video-call me at their "
        + moment
        + " on {day}. What's the local time in {other} then?",
        "Take the " + moment + " time on {day} at the city saved as '{label}' and tell me "
        "what the clocks in {other} show at that moment.",
        label=saved.label,
        day=when(day),
        other=other.name,
        verb=verb,
    )
    steps = [
        RefStep(tool="list_saved_places", args={"label_contains": saved.label}),
        RefStep(
            tool="get_sun_times",
            args={"location": ref(0, "results", 0, "location_id"), "date": day},
        ),
        _sun_on_clock(1, moment, other.name),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "local_time"]]))


def spot_sun_on_my_clock(ctx: TemplateContext) -> Draft:
    """Sequential: saved spot -> its place of interest -> sun times in its city -> my clock.

    A saved place of interest knows only its point of interest; the city (and so the sun
    times and the time zone) comes from the point of interest.
    """
    saved = _saved(ctx, "poi")
    poi = ctx.world.table("pois")[saved.poi_id]
    other = _other_zone(ctx, poi.location_id)
    day = ctx.day(ctx.rng.randint(0, 6))
    moment = ctx.rng.choice(["sunrise", "sunset"])
    verb = {"sunrise": "rises", "sunset": "sets"}[moment]
    prompt = ctx.say(
        "When the sun {verb} on {day} over my saved spot '{label}', what time is it in {other}?",
        "I'll be at the place I saved as '{label}' on {day} and want to call {other} at "
        + moment
        + ". What will the clock in {other} say?",
        label=saved.label,
        day=when(day),
        other=other.name,
        verb=verb,
    )
    steps = [
        RefStep(tool="list_saved_places", args={"label_contains": saved.label}),
        RefStep(tool="get_point_of_interest", args={"poi_id": ref(0, "results", 0, "poi_id")}),
        RefStep(tool="get_sun_times", args={"location": ref(1, "location_id"), "date": day}),
        _sun_on_clock(2, moment, other.name),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, "local_time"]]))


def closing_time_abroad(ctx: TemplateContext) -> Draft:
    """Sequential: find a place of interest -> its hours -> closing time on another clock."""
    poi = _unique_poi(ctx)
    other = _other_zone(ctx, poi.location_id)
    day = ctx.day(ctx.rng.randint(0, 6))
    which = ctx.rng.choice(["opens_at", "closes_at"])
    verb = {"opens_at": "opens", "closes_at": "closes"}[which]
    prompt = ctx.say(
        "I'm booking online from {other}. The {poi} {verb} at what time on {day}, in my "
        "{other} time?",
        "What time will it be in {other} when the {poi} {verb} on {day}?",
        "Convert the moment the {poi} {verb} on {day} into {other} local time for me.",
        poi=poi.name,
        verb=verb,
        day=when(day),
        other=other.name,
    )
    steps = [
        RefStep(tool="list_points_of_interest", args={"name_contains": poi.name}),
        RefStep(tool="get_point_of_interest", args={"poi_id": ref(0, "results", 0, "poi_id")}),
        RefStep(
            tool="convert_time",
            args={
                "time": ref(1, which),
                "date": day,
                "from_location": ref(1, "location_id"),
                "to_location": other.name,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "local_time"]]))


def furthest_ahead(ctx: TemplateContext) -> Draft:
    """Parallel: look up three to seven places; the time zone furthest ahead of (or behind) UTC."""
    places = ctx.sample("locations", ctx.count(3, 7))
    offsets = [p.utc_offset_hours for p in places]
    op = ctx.rng.choice(["argmax", "argmin"])
    pick = max(offsets) if op == "argmax" else min(offsets)
    if offsets.count(pick) != 1:
        raise NoFit("no single extreme offset")
    words = {"argmax": "furthest ahead", "argmin": "furthest behind"}[op]
    prompt = ctx.say(
        "Which of {names} has its clocks {words} of UTC? Give me its time zone "
        "name (like Region/City).",
        "I keep {n} world clocks: {names}. What is the time zone identifier of "
        "the one {words} relative to UTC?",
        "Of {names}, find the city whose time zone is {words} of UTC and tell me that zone's name.",
        names=listing([_spoken(ctx, p) for p in places]),
        n=len(places),
        words=words,
    )
    steps = [RefStep(tool="search_locations", args={"query": _query(ctx, p)}) for p in places]
    refs = [[i, "results", 0, "utc_offset_hours"] for i in range(len(places))]
    labels = [ref(i, "results", 0, "timezone") for i in range(len(places))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, labels=labels))


def biggest_time_gap(ctx: TemplateContext) -> Draft:
    """Parallel: convert one moment from home to three to seven cities; the largest gap."""
    places = ctx.sample("locations", 1 + ctx.count(3, 7), lambda loc: _plain(ctx, loc))
    home, others = places[0], places[1:]
    gaps = [o.utc_offset_hours - home.utc_offset_hours for o in others]
    op = ctx.rng.choice(["max", "min"])
    best = max(gaps) if op == "max" else min(gaps)
    if best == 0 or gaps.count(best) != 1:
        raise NoFit("no clear gap")
    words = {"max": "furthest ahead of", "min": "furthest behind"}[op]
    day = ctx.day(ctx.rng.randint(0, 6))
    clock = _clock(ctx)
    prompt = ctx.say(
        "It's {clock} on {day} in {home}. Of {names}, how many hours is the city "
        "{words} {home} away from my time (use a minus sign if behind)?",
        "Working from {home} ({clock}, {day}) with colleagues in {names}: what is "
        "the offset in hours of whichever city is {words} me? Negative means behind.",
        home=home.name,
        clock=clock,
        day=when(day),
        words=words,
        names=listing([o.name for o in others]),
    )
    steps = [
        RefStep(
            tool="convert_time",
            args={"time": clock, "date": day, "from_location": home.name, "to_location": o.name},
        )
        for o in others
    ]
    refs = [[i, "offset_difference_hours"] for i in range(len(others))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def call_between_searched(ctx: TemplateContext) -> Draft:
    """Mixture: search two places (shared names qualified) -> one clock time converted."""
    shared = ctx.pick("locations", lambda loc: not _plain(ctx, loc))
    other = ctx.pick(
        "locations",
        lambda loc: loc.name != shared.name and loc.utc_offset_hours != shared.utc_offset_hours,
    )
    places = [shared, other] if ctx.rng.random() < 0.5 else [other, shared]
    day = ctx.day(ctx.rng.randint(0, 6))
    clock = _clock(ctx)
    ask = ctx.rng.choice(["local_time", "local_date"])
    question = {"local_time": "what time is it", "local_date": "what date is it"}[ask]
    prompt = ctx.say(
        "If I call from {a} at {clock} on {day}, " + question + " for the person in {b}?",
        "My meeting is at {clock} {a} time on {day}. For the attendee in {b}, "
        + question
        + " then?",
        a=_spoken(ctx, places[0]),
        b=_spoken(ctx, places[1]),
        clock=clock,
        day=when(day),
    )
    steps = [RefStep(tool="search_locations", args={"query": _query(ctx, p)}) for p in places]
    steps.append(
        RefStep(
            tool="convert_time",
            args={
                "time": clock,
                "date": day,
                "from_location": ref(0, "results", 0, "location_id"),
                "to_location": ref(1, "results", 0, "location_id"),
            },
        )
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, ask]]))


def saved_cities_clock_gap(ctx: TemplateContext) -> Draft:
    """Mixture: list saved cities -> one moment converted to each -> largest gap."""
    listing = ctx.read("list_saved_places", kind="location")["results"]
    saved_ids = {r["location_id"] for r in listing}
    home = ctx.pick("locations", lambda loc: _plain(ctx, loc) and loc.location_id not in saved_ids)
    op = ctx.rng.choice(["max", "min"])
    words = {"max": "furthest ahead of", "min": "furthest behind"}[op]
    day = ctx.day(ctx.rng.randint(0, 6))
    clock = _clock(ctx)
    prompt = ctx.say(
        "At {clock} on {day} here in {home}, which of my saved cities is {words} me, and "
        "by how many hours? Just the hours (negative if behind).",
        "I'm in {home}. Convert {clock} on {day} to each of my saved cities and tell me the "
        "hour difference of the one {words} {home} (minus for behind).",
        clock=clock,
        day=when(day),
        home=home.name,
        words=words,
    )
    steps = [RefStep(tool="list_saved_places", args={"kind": "location"})]
    steps += [
        RefStep(
            tool="convert_time",
            args={
                "time": clock,
                "date": day,
                "from_location": home.name,
                "to_location": ref(0, "results", i, "location_id"),
            },
        )
        for i in range(len(listing))
    ]
    refs = [[1 + i, "offset_difference_hours"] for i in range(len(listing))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


SUBTOPIC = Subtopic(
    name="time zones and world clocks",
    templates={
        "sequential": [sunrise_at_home_elsewhere, closing_time_abroad, spot_sun_on_my_clock],
        "parallel": [furthest_ahead, biggest_time_gap],
        "mixture": [call_between_searched, saved_cities_clock_gap],
    },
)
