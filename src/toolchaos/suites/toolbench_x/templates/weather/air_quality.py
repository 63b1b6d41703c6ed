"""Weather subtopic "air quality": readings from three networks and AQI alerts."""

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
    _watched,
)

AQ_SOURCES = {
    "get_air_quality": "the official monitoring network",
    "get_air_quality_sensors": "the PurpleSky community sensors",
    "get_air_quality_satellite": "the satellite estimate",
}
AQ_FIELDS = {"pm25_ugm3": "PM2.5 concentration", "aqi": "AQI"}


def _op_words(ctx: TemplateContext, field: str) -> tuple[str, str]:
    """A min or max question about an air-quality field: (op, words)."""
    op = ctx.rng.choice(["max", "min"])
    words = {
        ("max", "pm25_ugm3"): "the highest PM2.5 concentration",
        ("min", "pm25_ugm3"): "the lowest PM2.5 concentration",
        ("max", "aqi"): "the worst (highest) AQI",
        ("min", "aqi"): "the best (lowest) AQI",
    }[(op, field)]
    return op, words


def _digits(field: str) -> int | None:
    return None if field == "aqi" else 1


def air_at_saved_spot(ctx: TemplateContext) -> Draft:
    """Sequential: saved spot -> its place of interest -> that city's air quality."""
    saved = _saved(ctx, "poi")
    tool, named = ctx.choose_source(AQ_SOURCES)
    field = ctx.rng.choice(sorted(AQ_FIELDS))
    prompt = ctx.say(
        *(
            (
                "What's the current {what} around my saved spot '{label}', according to {source}?",
                "Before I head to '{label}' (it's in my saved places), check the {what} in "
                "that city using {source}.",
                "My saved place '{label}': how's the air there right now? I need the {what} "
                "from {source}.",
            )
            if named
            else (
                "What's the current {what} around my saved spot '{label}'?",
                "Before I head to '{label}' (it's in my saved places), check the {what} in "
                "that city.",
                "My saved place '{label}': how's the air there right now? I need the {what}.",
            )
        ),
        what=AQ_FIELDS[field],
        label=saved.label,
        source=AQ_SOURCES[tool],
    )
    steps = [
        RefStep(tool="list_saved_places", args={"label_contains": saved.label}),
        RefStep(tool="get_point_of_interest", args={"poi_id": ref(0, "results", 0, "poi_id")}),
        RefStep(tool=tool, args={"location": ref(1, "location_id")}),
    ]
    answer = AnswerSpec(op="value", refs=[[2, field]], round=_digits(field))
    return Draft(prompt, steps, answer)


def aqi_alert_at_saved_city(ctx: TemplateContext) -> Draft:
    """Sequential, writes: saved city -> official air quality -> AQI alert at today's level."""
    saved = _saved(ctx, "location")
    if _watched(ctx, saved.location_id, "aqi", "above"):
        raise NoFit("an AQI alert already watches that place")
    end = ctx.day(ctx.rng.randint(3, 12))
    prompt = ctx.say(
        "Set an air-quality alert for my saved place '{label}' from today through {end}: "
        "it should fire if the official AQI climbs above where it is right now.",
        "For '{label}' in my saved places: alert me until {end} whenever the official AQI "
        "is worse than its current reading.",
        label=saved.label,
        end=when(end),
    )
    steps = [
        RefStep(tool="list_saved_places", args={"label_contains": saved.label}),
        RefStep(tool="get_air_quality", args={"location": ref(0, "results", 0, "location_id")}),
        RefStep(
            tool="create_weather_alert",
            args={
                "location": ref(1, "location_id"),
                "metric": "aqi",
                "comparison": "above",
                "threshold": ref(1, "aqi"),
                "start_date": ctx.day(0),
                "end_date": end,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def reset_aqi_alert(ctx: TemplateContext) -> Draft:
    """Sequential, writes: alert -> official AQI at its place -> threshold set to it."""
    alert = ctx.pick("alerts", lambda a: a.metric == "aqi" and a.status != "expired")
    reading = ctx.read("get_air_quality", location=alert.location_id)
    if float(reading["aqi"]) == alert.threshold:
        raise NoFit("the threshold already equals the reading")
    paused = alert.status == "paused"
    tail = " and switch it back on" if paused else ""
    prompt = ctx.say(
        "My air-quality alert {alert} needs recalibrating: set its threshold to the "
        "official AQI at that place right now{tail}.",
        "Take the current official AQI reading where alert {alert} is watching and make "
        "that the alert's new threshold{tail}.",
        "Please update alert {alert}: threshold = today's official AQI for its location{tail}.",
        alert=alert.alert_id,
        tail=tail,
    )
    update: dict[str, Any] = {"alert_id": ref(0, "alert_id"), "threshold": ref(1, "aqi")}
    if paused:
        update["status"] = "active"
    steps = [
        RefStep(tool="get_weather_alert", args={"alert_id": alert.alert_id}),
        RefStep(tool="get_air_quality", args={"location": ref(0, "location_id")}),
        RefStep(tool="update_weather_alert", args=update),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def air_across_cities(ctx: TemplateContext) -> Draft:
    """Parallel: one network's reading in three to seven cities; min or max of a field."""
    tool, named = ctx.choose_source(AQ_SOURCES)
    field = ctx.rng.choice(sorted(AQ_FIELDS))
    op, words = _op_words(ctx, field)
    places = ctx.sample("locations", ctx.count(3, 7), lambda loc: _plain(ctx, loc))
    prompt = ctx.say(
        *(
            (
                "Using {source}, what's {words} right now among {names}?",
                "Compare the current air in {names} by {source} and give me {words}.",
                "Of {names}, what's {words} reading according to {source}? Just the number, "
                "please.",
            )
            if named
            else (
                "What's {words} right now among {names}?",
                "Compare the current air in {names} and give me {words}.",
                "Of {names}, what's {words} reading right now? Just the number, please.",
            )
        ),
        source=AQ_SOURCES[tool],
        words=words,
        names=listing([loc.name for loc in places]),
    )
    steps = [RefStep(tool=tool, args={"location": loc.name}) for loc in places]
    refs = [[i, field] for i in range(len(places))]
    answer = AnswerSpec(op=op, refs=refs, round=_digits(field))
    return Draft(prompt, steps, answer)


def worst_case_three_networks(ctx: TemplateContext) -> Draft:
    """Parallel: one city, all three air-quality networks; the worst-case reading."""
    loc = ctx.pick("locations", lambda loc: _plain(ctx, loc))
    field = ctx.rng.choice(sorted(AQ_FIELDS))
    prompt = ctx.say(
        "Check {place}'s air with all three networks (official monitors, community "
        "sensors and the satellite estimate) and give me the worst-case {what}.",
        "I'm asthmatic and visiting {place}. Query every air-quality source you have and "
        "tell me the highest {what} any of them reports.",
        place=loc.name,
        what=AQ_FIELDS[field],
    )
    steps = [RefStep(tool=tool, args={"location": loc.name}) for tool in sorted(AQ_SOURCES)]
    answer = AnswerSpec(op="max", refs=[[i, field] for i in range(3)], round=_digits(field))
    return Draft(prompt, steps, answer)


def air_of_two_searched_cities(ctx: TemplateContext) -> Draft:
    """Mixture: search two to five places (shared names qualified) -> official air of each."""
    shared = ctx.pick("locations", lambda loc: not _plain(ctx, loc))
    others = ctx.sample(
        "locations", ctx.count(1, 4), lambda loc: loc.location_id != shared.location_id
    )
    places = [shared, *others]
    ctx.rng.shuffle(places)
    k = len(places)
    field = ctx.rng.choice(sorted(AQ_FIELDS))
    op, words = _op_words(ctx, field)
    tool = ctx.unnamed_source(AQ_SOURCES) or "get_air_quality"
    prompt = ctx.say(
        *(
            (
                "Between {names}, what's {words} from the official monitors right now?",
                "I'm comparing air quality for a move: {versus}. Give me {words} of those "
                "official readings.",
            )
            if tool == "get_air_quality"
            else (
                "Between {names}, what's {words} right now?",
                "I'm comparing air quality for a move: {versus}. Give me {words} of their "
                "current readings.",
            )
        ),
        names=listing([_spoken(ctx, p) for p in places]),
        versus=" versus ".join(_spoken(ctx, p) for p in places),
        words=words,
    )
    steps = [RefStep(tool="search_locations", args={"query": _query(ctx, p)}) for p in places]
    steps += [
        RefStep(tool=tool, args={"location": ref(i, "results", 0, "location_id")}) for i in range(k)
    ]
    answer = AnswerSpec(op=op, refs=[[k + i, field] for i in range(k)], round=_digits(field))
    return Draft(prompt, steps, answer)


def air_at_alert_places(ctx: TemplateContext) -> Draft:
    """Mixture: list alerts in a status (enum) -> official air at each alert's place."""
    status = ctx.rng.choice(["active", "paused"])
    listing = ctx.read("list_weather_alerts", status=status)["results"]
    if len({r["location_id"] for r in listing}) < 2:
        raise NoFit(f"fewer than two places with {status} alerts")
    field = ctx.rng.choice(sorted(AQ_FIELDS))
    op, words = _op_words(ctx, field)
    tool = ctx.unnamed_source(AQ_SOURCES) or "get_air_quality"
    prompt = ctx.say(
        *(
            (
                "For every place where I have {a_status} weather alert, look up the official "
                "air quality. What's {words} among them?",
                "Across the locations of my {status} alerts, what is {words} reported by the "
                "official monitors?",
            )
            if tool == "get_air_quality"
            else (
                "For every place where I have {a_status} weather alert, look up the air "
                "quality now. What's {words} among them?",
                "Across the locations of my {status} alerts, what is {words} right now?",
            )
        ),
        status=status,
        a_status={"active": "an active", "paused": "a paused"}[status],
        words=words,
    )
    steps = [RefStep(tool="list_weather_alerts", args={"status": status})]
    steps += [
        RefStep(tool=tool, args={"location": ref(0, "results", i, "location_id")})
        for i in range(len(listing))
    ]
    refs = [[1 + i, field] for i in range(len(listing))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=_digits(field)))


def air_at_saved_cities(ctx: TemplateContext) -> Draft:
    """Mixture: list saved cities -> one network's reading for each -> min or max."""
    listing = ctx.read("list_saved_places", kind="location")["results"]
    tool, named = ctx.choose_source(["get_air_quality_sensors", "get_air_quality_satellite"])
    field = ctx.rng.choice(sorted(AQ_FIELDS))
    op, words = _op_words(ctx, field)
    prompt = ctx.say(
        *(
            (
                "Across all my saved cities, what's {words} according to {source}?",
                "Check the air at each city in my saved places using {source}; give me {words}.",
            )
            if named
            else (
                "Across all my saved cities, what's {words} right now?",
                "Check the air at each city in my saved places; give me {words}.",
            )
        ),
        words=words,
        source=AQ_SOURCES[tool],
    )
    steps = [RefStep(tool="list_saved_places", args={"kind": "location"})]
    steps += [
        RefStep(tool=tool, args={"location": ref(0, "results", i, "location_id")})
        for i in range(len(listing))
    ]
    refs = [[1 + i, field] for i in range(len(listing))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=_digits(field)))


def unnamed_air(ctx: TemplateContext) -> tuple[str, str, str, str]:
    """An air-quality read for a request naming no source: (tool, field, op, words).

    The tool is a source the docs do not call authoritative; every source agrees in the
    clean world, so the request can leave it open.
    """
    tool = ctx.unnamed_source(AQ_SOURCES, share=1.0) or "get_air_quality_sensors"
    field = ctx.rng.choice(sorted(AQ_FIELDS))
    op, words = _op_words(ctx, field)
    return tool, field, op, words


def air_reads(
    prompt: str, tool: str, locations: list[Any], field: str, op: str, before: list[RefStep]
) -> Draft:
    """The steps ``before``, then ``tool`` at each location; ``op`` of ``field``."""
    steps = [*before, *(RefStep(tool=tool, args={"location": loc}) for loc in locations)]
    refs = [[len(before) + i, field] for i in range(len(locations))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=_digits(field)))


SUBTOPIC = Subtopic(
    name="air quality",
    templates={
        "sequential": [air_at_saved_spot, aqi_alert_at_saved_city, reset_aqi_alert],
        "parallel": [air_across_cities, worst_case_three_networks],
        "mixture": [air_of_two_searched_cities, air_at_alert_places, air_at_saved_cities],
    },
)
