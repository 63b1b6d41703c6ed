"""Weather subtopics: forecasts and trip weather, air quality, places and distances.

Each template picks places, days and saved records from the seeded world and writes the
request a traveller or a planner would make; the answer comes from replaying the path,
never from here. Templates read the world through READ tools (``_read``) only to choose
entities that make a well-posed task (a unique warmest day, a non-zero rain total, a
flight that lands on another date), never to write the answer.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep, ToolKind
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref

TOPIC = "location and environment"
DOMAIN = "weather"
AQ_SOURCES = {
    "get_air_quality": "the official monitoring network",
    "get_air_quality_sensors": "the PurpleSky community sensors",
    "get_air_quality_satellite": "the satellite estimate",
}
AQ_FIELDS = {"pm25_ugm3": "PM2.5 concentration", "aqi": "AQI"}


# -- helpers -------------------------------------------------------------------------------


def _read(ctx: TemplateContext, tool: str, **args: Any) -> Any:
    """Run a READ tool on the template's world, to choose entities that fit."""
    found = ctx.domain.tools[tool]
    if found.kind is not ToolKind.READ:
        raise ValueError(f"templates may only read, and {tool} writes")
    return found(ctx.world, **args)


def _name_count(ctx: TemplateContext, name: str) -> int:
    return sum(loc.name == name for loc in ctx.rows("locations"))


def _plain(ctx: TemplateContext, loc: Any) -> bool:
    """Whether a bare name finds exactly this place (the name is shared by no other)."""
    if _name_count(ctx, loc.name) != 1:
        return False
    found = _read(ctx, "search_locations", query=loc.name)
    return bool(found["total"] == 1 and found["results"][0]["location_id"] == loc.location_id)


def _plain_places(ctx: TemplateContext) -> list[Any]:
    return [loc for loc in ctx.rows("locations") if _plain(ctx, loc)]


def _spoken(ctx: TemplateContext, loc: Any) -> str:
    """How a person names the place: the bare name, or the name and region if shared."""
    return loc.name if _plain(ctx, loc) else f"{loc.name}, {loc.region_name}"


def _query(ctx: TemplateContext, loc: Any) -> str:
    """A search_locations query whose first result is ``loc``."""
    query = loc.name if _plain(ctx, loc) else f"{loc.name}, {loc.region}"
    found = _read(ctx, "search_locations", query=query)
    if found["results"][0]["location_id"] != loc.location_id:
        raise NoFit(f"search for {query!r} does not find {loc.location_id} first")
    return query


def _day(ctx: TemplateContext, offset: int) -> str:
    return (ctx.world.now().date() + timedelta(days=offset)).isoformat()


def _when(iso: str) -> str:
    """A date as people write it in a request: weekday and ISO date."""
    return f"{date.fromisoformat(iso):%A} {iso}"


def _saved(ctx: TemplateContext, kind: str) -> Any:
    """A saved place of ``kind`` whose label finds it first in list_saved_places."""
    saved = ctx.pick("saved_places", lambda s: s.kind == kind)
    found = _read(ctx, "list_saved_places", label_contains=saved.label)
    if found["results"][0]["saved_id"] != saved.saved_id:
        raise NoFit(f"label {saved.label!r} is not specific")
    return saved


def _watched(ctx: TemplateContext, location_id: str, metric: str, comparison: str) -> bool:
    """Whether an active alert already watches this metric at this place (a 409)."""
    return any(
        a.location_id == location_id
        and a.status == "active"
        and (a.metric, a.comparison) == (metric, comparison)
        for a in ctx.rows("alerts")
    )


def _unique_poi(ctx: TemplateContext, where: Any = None) -> Any:
    poi = ctx.pick("pois", where)
    found = _read(ctx, "list_points_of_interest", name_contains=poi.name)
    if found["total"] != 1:
        raise NoFit(f"{poi.name!r} is not a unique name")
    return poi


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


# -- forecasts and trip weather --------------------------------------------------------------


def sunset_on_warmest_day(ctx: TemplateContext) -> Draft:
    """Sequential: search the place -> 3-day forecast (default) -> sunset on the warmest day."""
    loc = ctx.pick("locations")
    query = _query(ctx, loc)
    forecast = _read(ctx, "get_forecast", location=loc.location_id)
    highs = [d["temp_high_c"] for d in forecast["days"]]
    if highs.count(max(highs)) > 1:
        raise NoFit("no single warmest day")
    warmest = highs.index(max(highs))
    prompt = ctx.say(
        "Which of the next three days will be warmest in {place}? I want to catch the "
        "sunset that day, so what time does the sun go down there?",
        "I'm in {place} from today for three days. On the warmest of them, when is sunset "
        "(local time)?",
        "Planning an evening walk in {place}: find the warmest day in the 3-day forecast "
        "and tell me the local sunset time on that day.",
        place=_spoken(ctx, loc),
    )
    steps = [
        RefStep(tool="search_locations", args={"query": query}),
        RefStep(tool="get_forecast", args={"location": ref(0, "results", 0, "location_id")}),
        RefStep(
            tool="get_sun_times",
            args={"location": ref(1, "location_id"), "date": ref(1, "days", warmest, "date")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "sunset_local"]]))


_WEEK_RULES = (
    ("wind_kph", "above", "windier than today's forecast wind"),
    ("temp_high_c", "above", "warmer than today's forecast high"),
    ("temp_low_c", "below", "colder at night than tonight's forecast low"),
)


def week_alert_for_saved_place(ctx: TemplateContext) -> Draft:
    """Sequential, writes: saved place -> 7-day forecast -> alert at today's value."""
    saved = _saved(ctx, "location")
    metric, comparison, words = ctx.rng.choice(_WEEK_RULES)
    if _watched(ctx, saved.location_id, metric, comparison):
        raise NoFit("an alert already watches that")
    prompt = ctx.say(
        "For my saved place '{label}', set up an alert from tomorrow through the last day "
        "of the 7-day forecast that goes off whenever it is {words}.",
        "Alert me about my place '{label}': any day from tomorrow to the end of the 7-day "
        "forecast that is {words}.",
        "Please subscribe me to an alert at '{label}' (one of my saved places) covering "
        "tomorrow until the end of this week's 7-day forecast, for days {words}.",
        label=saved.label,
        words=words,
    )
    steps = [
        RefStep(tool="list_saved_places", args={"label_contains": saved.label}),
        RefStep(
            tool="get_forecast",
            args={"location": ref(0, "results", 0, "location_id"), "days": 7},
        ),
        RefStep(
            tool="create_weather_alert",
            args={
                "location": ref(1, "location_id"),
                "metric": metric,
                "comparison": comparison,
                "threshold": ref(1, "days", 0, metric),
                "start_date": ref(1, "days", 1, "date"),
                "end_date": ref(1, "days", 6, "date"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


_TRIP_LABELS = (
    "Ski weekend",
    "Family visit",
    "Marathon trip",
    "Client visit",
    "Reunion",
    "Spring break",
    "Photo trip",
)
_TRIP_RULES = (
    ("temp_low_c", "below", "the overnight low drops below {t} °C", -15, 25),
    ("precip_mm", "above", "more than {t} mm of rain is forecast", 1, 30),
    ("wind_kph", "above", "the wind is forecast above {t} km/h", 5, 60),
)


def save_city_then_alert(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: search the city -> save it -> alert on the saved place."""
    saved_ids = {s.location_id for s in ctx.rows("saved_places")}
    loc = ctx.pick("locations", lambda loc: loc.location_id not in saved_ids)
    query = _query(ctx, loc)
    taken = {s.label.casefold() for s in ctx.rows("saved_places")}
    label = ctx.rng.choice([t for t in _TRIP_LABELS if t.casefold() not in taken])
    metric, comparison, words, low, high = ctx.rng.choice(_TRIP_RULES)
    if _watched(ctx, loc.location_id, metric, comparison):
        raise NoFit("an alert already watches that")
    start = ctx.rng.randint(1, 3)
    end = start + ctx.rng.randint(2, 3)
    values = [
        _read(ctx, "get_day_forecast", location=loc.location_id, date=_day(ctx, d))[metric]
        for d in range(start, end + 1)
    ]
    threshold = min(high, max(low, round(sorted(values)[len(values) // 2])))
    prompt = ctx.say(
        "Save {place} to my places as '{label}', then set an alert there from {d1} to {d2} "
        "for any day when " + words + ".",
        "I'm going to {place}. Add it to my saved places under '{label}' and alert me if "
        + words
        + " on any day between {d1} and {d2}.",
        place=_spoken(ctx, loc),
        label=label,
        d1=_when(_day(ctx, start)),
        d2=_when(_day(ctx, end)),
        t=threshold,
    )
    steps = [
        RefStep(tool="search_locations", args={"query": query}),
        RefStep(
            tool="save_place",
            args={"location": ref(0, "results", 0, "location_id"), "label": label},
        ),
        RefStep(
            tool="create_weather_alert",
            args={
                "location": ref(1, "location_id"),
                "metric": metric,
                "comparison": comparison,
                "threshold": threshold,
                "start_date": _day(ctx, start),
                "end_date": _day(ctx, end),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def _rain(ctx: TemplateContext, location_id: str, day: str) -> float:
    found: float = _read(ctx, "get_day_forecast", location=location_id, date=day)["precip_mm"]
    return found


def trip_total_rain(ctx: TemplateContext) -> Draft:
    """Parallel: three stops on three days; total forecast rain."""
    first = ctx.rng.randint(0, 4)
    days = [_day(ctx, first + i) for i in range(3)]
    stops: list[Any] = []
    for i, day in enumerate(days):
        # the first two stops are wet, so the total is a measured sum, not a lone zero
        pool = [
            loc
            for loc in _plain_places(ctx)
            if loc not in stops and (i == 2 or _rain(ctx, loc.location_id, day) > 0)
        ]
        if not pool:
            raise NoFit(f"no wet stop on {day}")
        stops.append(ctx.rng.choice(pool))
    prompt = ctx.say(
        "Road trip plan: {a} on {d1}, {b} on {d2}, then {c} on {d3}. How much rain is "
        "forecast in total across those three stops, in mm?",
        "I'll be in {a} on {d1}, {b} on {d2} and {c} on {d3}. Add up the forecast "
        "precipitation for each place on its day for me (millimetres).",
        "Total rainfall check for my tour ({a} {d1}, {b} {d2}, {c} {d3}): what's the sum "
        "of the daily precipitation forecasts?",
        a=stops[0].name,
        b=stops[1].name,
        c=stops[2].name,
        d1=_when(days[0]),
        d2=_when(days[1]),
        d3=_when(days[2]),
    )
    steps = [
        RefStep(tool="get_day_forecast", args={"location": loc.name, "date": day})
        for loc, day in zip(stops, days, strict=True)
    ]
    answer = AnswerSpec(op="sum", refs=[[i, "precip_mm"] for i in range(3)], round=1)
    return Draft(prompt, steps, answer)


def windiest_date(ctx: TemplateContext) -> Draft:
    """Parallel: three 3-day forecasts (default length); the date of the strongest wind."""
    places = ctx.sample("locations", 3, lambda loc: _plain(ctx, loc))
    winds: list[tuple[float, int, int]] = []
    for i, loc in enumerate(places):
        for k, day in enumerate(_read(ctx, "get_forecast", location=loc.name)["days"]):
            winds.append((day["wind_kph"], i, k))
    best = max(w for w, _, _ in winds)
    top = [(i, k) for w, i, k in winds if w == best]
    if len(top) != 1:
        raise NoFit("no single windiest day")
    prompt = ctx.say(
        "We're flying kites at one of {a}, {b} or {c} in the next three days. On which date "
        "is the strongest wind forecast at any of them?",
        "Looking at the 3-day forecasts for {a}, {b} and {c}: which date has the single "
        "windiest forecast?",
        "Which day over the next three has the highest forecast wind speed anywhere among "
        "{a}, {b} and {c}? Give me the date.",
        a=places[0].name,
        b=places[1].name,
        c=places[2].name,
    )
    steps = [RefStep(tool="get_forecast", args={"location": loc.name}) for loc in places]
    refs = [[i, "days", k, "wind_kph"] for _, i, k in winds]
    labels = [ref(i, "days", k, "date") for _, i, k in winds]
    return Draft(prompt, steps, AnswerSpec(op="argmax", refs=refs, labels=labels))


_DAY_EXTREMES = (
    ("temp_low_c", "min", "lowest overnight temperature (°C)"),
    ("wind_kph", "max", "strongest wind (km/h)"),
    ("temp_high_c", "max", "highest daytime temperature (°C)"),
    ("precip_mm", "max", "heaviest rainfall (mm)"),
)


def extreme_on_a_day(ctx: TemplateContext) -> Draft:
    """Parallel: three places on one day; the min or max of one forecast field."""
    day = _day(ctx, ctx.rng.randint(1, 6))
    field, op, words = ctx.rng.choice(_DAY_EXTREMES)
    places = ctx.sample("locations", 3, lambda loc: _plain(ctx, loc))
    values = [_read(ctx, "get_day_forecast", location=loc.name, date=day)[field] for loc in places]
    if field == "precip_mm" and max(values) == 0:
        raise NoFit("no rain anywhere")
    prompt = ctx.say(
        "On {day}, what's the {words} forecast across {a}, {b} and {c}?",
        "Compare {a}, {b} and {c} for {day}: give me the {words} among their forecasts.",
        "For {day}, check the forecasts of {a}, {b} and {c} and tell me the {words}.",
        day=_when(day),
        words=words,
        a=places[0].name,
        b=places[1].name,
        c=places[2].name,
    )
    steps = [
        RefStep(tool="get_day_forecast", args={"location": loc.name, "date": day}) for loc in places
    ]
    answer = AnswerSpec(op=op, refs=[[i, field] for i in range(3)], round=1)
    return Draft(prompt, steps, answer)


_SAVED_DAY = (
    ("precip_mm", "sum", "how much rain is forecast in total across them"),
    ("wind_kph", "max", "what's the strongest wind forecast at any of them"),
    ("temp_low_c", "min", "what's the coldest overnight low forecast among them"),
    ("temp_high_c", "max", "what's the warmest daytime high forecast among them"),
)


def saved_cities_on_a_day(ctx: TemplateContext) -> Draft:
    """Mixture: list saved cities (enum filter) -> one day's forecast for each -> aggregate."""
    listing = _read(ctx, "list_saved_places", kind="location")["results"]
    day = _day(ctx, ctx.rng.randint(0, 6))
    field, op, question = ctx.rng.choice(_SAVED_DAY)
    values = [
        _read(ctx, "get_day_forecast", location=r["location_id"], date=day)[field] for r in listing
    ]
    if field == "precip_mm" and sum(values) == 0:
        raise NoFit("no rain at any saved city")
    prompt = ctx.say(
        "Thinking of all the cities in my saved places (not the single spots): {question} "
        "on {day}?",
        "Go through my saved cities for {day}: {question}?",
        "For {day}, check every saved city of mine; {question}?",
        question=question,
        day=_when(day),
    )
    steps = [RefStep(tool="list_saved_places", args={"kind": "location"})]
    steps += [
        RefStep(
            tool="get_day_forecast",
            args={"location": ref(0, "results", i, "location_id"), "date": day},
        )
        for i in range(len(listing))
    ]
    answer = AnswerSpec(op=op, refs=[[1 + i, field] for i in range(len(listing))], round=1)
    return Draft(prompt, steps, answer)


_VISIT_FIELDS = (
    ("wind_kph", "max", "What's the strongest wind I'll face on those two days"),
    ("precip_mm", "sum", "How much rain is forecast in total for those two visits"),
    ("temp_high_c", "max", "What's the warmer of the two daytime highs"),
)


def two_visits(ctx: TemplateContext) -> Draft:
    """Mixture: find two places of interest -> each city's forecast on its visit day."""
    first = _unique_poi(ctx)
    second = _unique_poi(ctx, lambda p: p.location_id != first.location_id)
    d1 = ctx.rng.randint(0, 4)
    d2 = d1 + ctx.rng.randint(1, 2)
    days = [_day(ctx, d1), _day(ctx, d2)]
    field, op, question = ctx.rng.choice(_VISIT_FIELDS)
    values = [
        _read(ctx, "get_day_forecast", location=p.location_id, date=d)[field]
        for p, d in zip((first, second), days, strict=True)
    ]
    if field == "precip_mm" and sum(values) == 0:
        raise NoFit("no rain on either visit")
    prompt = ctx.say(
        "I'm visiting the {p1} on {d1} and the {p2} on {d2}. {question}?",
        "Two outings: {p1} ({d1}) and {p2} ({d2}). {question}, going by each city's forecast?",
        p1=first.name,
        p2=second.name,
        d1=_when(days[0]),
        d2=_when(days[1]),
        question=question,
    )
    steps = [
        RefStep(tool="list_points_of_interest", args={"name_contains": p.name})
        for p in (first, second)
    ]
    steps += [
        RefStep(
            tool="get_day_forecast",
            args={"location": ref(i, "results", 0, "location_id"), "date": days[i]},
        )
        for i in range(2)
    ]
    answer = AnswerSpec(op=op, refs=[[2, field], [3, field]], round=1)
    return Draft(prompt, steps, answer)


def rain_totals_two_cities(ctx: TemplateContext) -> Draft:
    """Mixture: search two places -> rain total over a date range for each -> combine."""
    start = ctx.rng.randint(0, 3)
    d1, d2 = _day(ctx, start), _day(ctx, start + ctx.rng.randint(2, 3))

    def wet(loc: Any) -> bool:
        args = {"location_id": loc.location_id, "from_date": d1, "to_date": d2}
        return bool(_read(ctx, "precipitation_total", **args)["total_precip_mm"] > 0)

    # a dry place would make the question trivial
    places = ctx.sample("locations", 2, wet)
    queries = [_query(ctx, loc) for loc in places]
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "What's the combined forecast rain for the two, in mm?",
        "max": "How much rain (mm) is forecast for whichever of the two is wetter?",
    }[op]
    prompt = ctx.say(
        "I'm deciding between {a} and {b} for {d1} through {d2}. " + question,
        "Rain totals from {d1} to {d2} (inclusive) for {a} and {b}, please. " + question,
        a=_spoken(ctx, places[0]),
        b=_spoken(ctx, places[1]),
        d1=_when(d1),
        d2=_when(d2),
    )
    steps = [RefStep(tool="search_locations", args={"query": q}) for q in queries]
    steps += [
        RefStep(
            tool="precipitation_total",
            args={
                "location_id": ref(i, "results", 0, "location_id"),
                "from_date": d1,
                "to_date": d2,
            },
        )
        for i in range(2)
    ]
    answer = AnswerSpec(op=op, refs=[[2, "total_precip_mm"], [3, "total_precip_mm"]], round=1)
    return Draft(prompt, steps, answer)


# -- air quality -----------------------------------------------------------------------------


def air_at_saved_spot(ctx: TemplateContext) -> Draft:
    """Sequential: saved spot -> its place of interest -> that city's air quality."""
    saved = _saved(ctx, "poi")
    tool = ctx.rng.choice(sorted(AQ_SOURCES))
    field = ctx.rng.choice(sorted(AQ_FIELDS))
    prompt = ctx.say(
        "What's the current {what} around my saved spot '{label}', according to {source}?",
        "Before I head to '{label}' (it's in my saved places), check the {what} in that "
        "city using {source}.",
        "My saved place '{label}': how's the air there right now? I need the {what} from {source}.",
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
    end = _day(ctx, ctx.rng.randint(3, 12))
    prompt = ctx.say(
        "Set an air-quality alert for my saved place '{label}' from today through {end}: "
        "it should fire if the official AQI climbs above where it is right now.",
        "For '{label}' in my saved places: alert me until {end} whenever the official AQI "
        "is worse than its current reading.",
        label=saved.label,
        end=_when(end),
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
                "start_date": _day(ctx, 0),
                "end_date": end,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def reset_aqi_alert(ctx: TemplateContext) -> Draft:
    """Sequential, writes: alert -> official AQI at its place -> threshold set to it."""
    alert = ctx.pick("alerts", lambda a: a.metric == "aqi" and a.status != "expired")
    reading = _read(ctx, "get_air_quality", location=alert.location_id)
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
    """Parallel: one network's reading in three cities; min or max of a field."""
    tool = ctx.rng.choice(sorted(AQ_SOURCES))
    field = ctx.rng.choice(sorted(AQ_FIELDS))
    op, words = _op_words(ctx, field)
    places = ctx.sample("locations", 3, lambda loc: _plain(ctx, loc))
    prompt = ctx.say(
        "Using {source}, what's {words} right now among {a}, {b} and {c}?",
        "Compare the current air in {a}, {b} and {c} by {source} and give me {words}.",
        "Of {a}, {b} and {c}, what's {words} reading according to {source}? Just the "
        "number, please.",
        source=AQ_SOURCES[tool],
        words=words,
        a=places[0].name,
        b=places[1].name,
        c=places[2].name,
    )
    steps = [RefStep(tool=tool, args={"location": loc.name}) for loc in places]
    answer = AnswerSpec(op=op, refs=[[i, field] for i in range(3)], round=_digits(field))
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
    """Mixture: search two places (shared names qualified) -> official air of each."""
    shared = ctx.pick("locations", lambda loc: not _plain(ctx, loc))
    other = ctx.pick("locations", lambda loc: loc.location_id != shared.location_id)
    places = [shared, other] if ctx.rng.random() < 0.5 else [other, shared]
    field = ctx.rng.choice(sorted(AQ_FIELDS))
    op, words = _op_words(ctx, field)
    prompt = ctx.say(
        "Between {a} and {b}, what's {words} from the official monitors right now?",
        "I'm comparing air quality for a move: {a} versus {b}. Give me {words} of the two "
        "official readings.",
        a=_spoken(ctx, places[0]),
        b=_spoken(ctx, places[1]),
        words=words,
    )
    steps = [RefStep(tool="search_locations", args={"query": _query(ctx, p)}) for p in places]
    steps += [
        RefStep(tool="get_air_quality", args={"location": ref(i, "results", 0, "location_id")})
        for i in range(2)
    ]
    answer = AnswerSpec(op=op, refs=[[2, field], [3, field]], round=_digits(field))
    return Draft(prompt, steps, answer)


def air_at_alert_places(ctx: TemplateContext) -> Draft:
    """Mixture: list alerts in a status (enum) -> official air at each alert's place."""
    status = ctx.rng.choice(["active", "paused"])
    listing = _read(ctx, "list_weather_alerts", status=status)["results"]
    if len({r["location_id"] for r in listing}) < 2:
        raise NoFit(f"fewer than two places with {status} alerts")
    field = ctx.rng.choice(sorted(AQ_FIELDS))
    op, words = _op_words(ctx, field)
    prompt = ctx.say(
        "For every place where I have {a_status} weather alert, look up the official air "
        "quality. What's {words} among them?",
        "Across the locations of my {status} alerts, what is {words} reported by the "
        "official monitors?",
        status=status,
        a_status={"active": "an active", "paused": "a paused"}[status],
        words=words,
    )
    steps = [RefStep(tool="list_weather_alerts", args={"status": status})]
    steps += [
        RefStep(tool="get_air_quality", args={"location": ref(0, "results", i, "location_id")})
        for i in range(len(listing))
    ]
    refs = [[1 + i, field] for i in range(len(listing))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=_digits(field)))


def air_at_saved_cities(ctx: TemplateContext) -> Draft:
    """Mixture: list saved cities -> one network's reading for each -> min or max."""
    listing = _read(ctx, "list_saved_places", kind="location")["results"]
    tool = ctx.rng.choice(["get_air_quality_sensors", "get_air_quality_satellite"])
    field = ctx.rng.choice(sorted(AQ_FIELDS))
    op, words = _op_words(ctx, field)
    prompt = ctx.say(
        "Across all my saved cities, what's {words} according to {source}?",
        "Check the air at each city in my saved places using {source}; give me {words}.",
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


# -- places and distances ---------------------------------------------------------------------


def landing_day(ctx: TemplateContext) -> Draft:
    """Sequential: search origin -> convert departure + flight time -> forecast on landing."""
    origin = ctx.pick("locations")
    dest = ctx.pick(
        "locations",
        lambda loc: _plain(ctx, loc) and loc.utc_offset_hours > origin.utc_offset_hours + 2,
    )
    query = _query(ctx, origin)
    depart = _day(ctx, ctx.rng.randint(0, 3))
    clock = f"{ctx.rng.randint(17, 23):02d}:{ctx.rng.choice([0, 15, 30, 45]):02d}"
    minutes = ctx.rng.randint(5, 15) * 60 + ctx.rng.choice([0, 15, 30, 45])
    landed = _read(
        ctx,
        "convert_time",
        time=clock,
        date=depart,
        from_location=origin.location_id,
        to_location=dest.location_id,
        add_minutes=minutes,
    )
    if landed["local_date"] == depart or landed["local_date"] > _day(ctx, 6):
        raise NoFit("the flight must land on another day within the forecast")
    ask = ctx.rng.choice(["date", "temp_high_c", "temp_low_c"])
    question = {
        "date": "What will the local date be when I land, and what's the forecast there that day?",
        "temp_high_c": "What's the forecast high in {dest} on the local day I land?",
        "temp_low_c": "What low temperature is forecast in {dest} for the local day I arrive?",
    }[ask]
    prompt = ctx.say(
        "My flight leaves {origin} at {clock} local time on {day} and takes {h} h {m} min "
        "to {dest}. " + question,
        "Flying {origin} -> {dest}: departure {day} at {clock} (local), {h}h{m:02d} in the "
        "air. " + question,
        origin=_spoken(ctx, origin),
        dest=dest.name,
        clock=clock,
        day=_when(depart),
        h=minutes // 60,
        m=minutes % 60,
    )
    steps = [
        RefStep(tool="search_locations", args={"query": query}),
        RefStep(
            tool="convert_time",
            args={
                "time": clock,
                "date": depart,
                "from_location": ref(0, "results", 0, "location_id"),
                "to_location": dest.name,
                "add_minutes": minutes,
            },
        ),
        RefStep(
            tool="get_day_forecast",
            args={"location": ref(1, "to_location_id"), "date": ref(1, "local_date")},
        ),
    ]
    if ask == "date":
        answer = AnswerSpec(op="value", refs=[[1, "local_date"]])
    else:
        answer = AnswerSpec(op="value", refs=[[2, ask]], round=1)
    return Draft(prompt, steps, answer)


def spot_distance(ctx: TemplateContext) -> Draft:
    """Sequential: saved spot -> its place of interest -> distance from its city to another."""
    saved = _saved(ctx, "poi")
    poi = ctx.world.table("pois")[saved.poi_id]
    other = ctx.pick(
        "locations", lambda loc: _plain(ctx, loc) and loc.location_id != poi.location_id
    )
    prompt = ctx.say(
        "How far, as the crow flies, is the city with my saved spot '{label}' from {other}? "
        "In km, please.",
        "My saved place '{label}' is somewhere I go often. What's the straight-line "
        "distance in kilometres from that city to {other}?",
        "Distance check: from the city where '{label}' (a saved spot) is, to {other}, in km.",
        label=saved.label,
        other=other.name,
    )
    steps = [
        RefStep(tool="list_saved_places", args={"label_contains": saved.label}),
        RefStep(tool="get_point_of_interest", args={"poi_id": ref(0, "results", 0, "poi_id")}),
        RefStep(
            tool="compute_distance",
            args={"from_location": ref(1, "location_id"), "to_location": other.name},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "distance_km"]], round=1))


def nearest_of_three(ctx: TemplateContext) -> Draft:
    """Parallel: distances from one city to three others; the nearest or farthest."""
    places = ctx.sample("locations", 4, lambda loc: _plain(ctx, loc))
    home, others = places[0], places[1:]
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "nearest", "max": "farthest"}[op]
    prompt = ctx.say(
        "From {home}, how far away is the {words} of {a}, {b} and {c}? Straight-line km.",
        "I live in {home}. Of {a}, {b} and {c}, what's the distance to the {words} one, in "
        "kilometres?",
        home=home.name,
        words=words,
        a=others[0].name,
        b=others[1].name,
        c=others[2].name,
    )
    steps = [
        RefStep(tool="compute_distance", args={"from_location": home.name, "to_location": o.name})
        for o in others
    ]
    answer = AnswerSpec(op=op, refs=[[i, "distance_km"] for i in range(3)], round=1)
    return Draft(prompt, steps, answer)


def highest_city(ctx: TemplateContext) -> Draft:
    """Parallel: look up three places; the highest elevation among them."""
    places = ctx.sample("locations", 3)
    if max(p.elevation_m for p in places) < 100:
        raise NoFit("all three are at sea level")
    queries = [_query(ctx, p) for p in places]
    prompt = ctx.say(
        "Which sits highest above sea level: {a}, {b} or {c}? Tell me its elevation in metres.",
        "I get altitude sickness. Of {a}, {b} and {c}, what is the highest elevation (m)?",
        a=_spoken(ctx, places[0]),
        b=_spoken(ctx, places[1]),
        c=_spoken(ctx, places[2]),
    )
    steps = [RefStep(tool="search_locations", args={"query": q}) for q in queries]
    answer = AnswerSpec(op="max", refs=[[i, "results", 0, "elevation_m"] for i in range(3)])
    return Draft(prompt, steps, answer)


def daylight_comparison(ctx: TemplateContext) -> Draft:
    """Parallel: sun times for three places on one day; the longest or shortest daylight."""
    day = _day(ctx, ctx.rng.randint(0, 6))
    places = ctx.sample("locations", 3, lambda loc: _plain(ctx, loc))
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "shortest", "max": "longest"}[op]
    prompt = ctx.say(
        "On {day}, which of {a}, {b} and {c} gets the {words} daylight? Give me the number "
        "of hours.",
        "How many hours of daylight does the place with the {words} day have on {day}, "
        "among {a}, {b} and {c}?",
        day=_when(day),
        words=words,
        a=places[0].name,
        b=places[1].name,
        c=places[2].name,
    )
    steps = [RefStep(tool="get_sun_times", args={"location": p.name, "date": day}) for p in places]
    answer = AnswerSpec(op=op, refs=[[i, "daylight_hours"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def opening_in_my_time(ctx: TemplateContext) -> Draft:
    """Mixture: find a place of interest and a saved city -> its opening time there."""
    saved = _saved(ctx, "location")
    home = ctx.world.table("locations")[saved.location_id]
    poi = _unique_poi(
        ctx,
        lambda p: (
            ctx.world.table("locations")[p.location_id].utc_offset_hours != home.utc_offset_hours
        ),
    )
    day = _day(ctx, ctx.rng.randint(0, 6))
    prompt = ctx.say(
        "When the {poi} opens on {day}, what time is it at my saved place '{label}'?",
        "I want to call the {poi} the moment it opens on {day}. What time will that be "
        "where my '{label}' place is?",
        "Convert the {poi}'s opening time on {day} into local time at '{label}' (one of "
        "my saved places).",
        poi=poi.name,
        day=_when(day),
        label=saved.label,
    )
    steps = [
        RefStep(tool="list_points_of_interest", args={"name_contains": poi.name}),
        RefStep(tool="list_saved_places", args={"label_contains": saved.label}),
        RefStep(
            tool="convert_time",
            args={
                "time": ref(0, "results", 0, "opens_at"),
                "date": day,
                "from_location": ref(0, "results", 0, "location_id"),
                "to_location": ref(1, "results", 0, "location_id"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "local_time"]]))


def distance_between_searched(ctx: TemplateContext) -> Draft:
    """Mixture: search two places (shared names qualified) -> distance between them."""
    shared = ctx.pick("locations", lambda loc: not _plain(ctx, loc))
    other = ctx.pick("locations", lambda loc: loc.name != shared.name)
    places = [shared, other] if ctx.rng.random() < 0.5 else [other, shared]
    prompt = ctx.say(
        "How far is {a} from {b}, in a straight line (km)?",
        "What's the great-circle distance between {a} and {b} in kilometres?",
        "Flying distance estimate: {a} to {b}, as the crow flies, in km?",
        a=_spoken(ctx, places[0]),
        b=_spoken(ctx, places[1]),
    )
    steps = [RefStep(tool="search_locations", args={"query": _query(ctx, p)}) for p in places]
    steps.append(
        RefStep(
            tool="compute_distance",
            args={
                "from_location": ref(0, "results", 0, "location_id"),
                "to_location": ref(1, "results", 0, "location_id"),
            },
        )
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "distance_km"]], round=1))


def saved_cities_from(ctx: TemplateContext) -> Draft:
    """Mixture: list saved cities -> distance from a given city to each -> min or max."""
    listing = _read(ctx, "list_saved_places", kind="location")["results"]
    saved_ids = {r["location_id"] for r in listing}
    origin = ctx.pick(
        "locations", lambda loc: _plain(ctx, loc) and loc.location_id not in saved_ids
    )
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "closest", "max": "farthest"}[op]
    prompt = ctx.say(
        "I'm in {origin}. How far away is the {words} of my saved cities (straight line, km)?",
        "From {origin}, what's the distance in km to whichever of my saved cities is {words}?",
        origin=origin.name,
        words=words,
    )
    steps = [RefStep(tool="list_saved_places", args={"kind": "location"})]
    steps += [
        RefStep(
            tool="compute_distance",
            args={
                "from_location": origin.name,
                "to_location": ref(0, "results", i, "location_id"),
            },
        )
        for i in range(len(listing))
    ]
    refs = [[1 + i, "distance_km"] for i in range(len(listing))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


SUBTOPICS = [
    Subtopic(
        name="forecasts and trip weather",
        topic=TOPIC,
        domain=DOMAIN,
        templates={
            "sequential": [sunset_on_warmest_day, week_alert_for_saved_place, save_city_then_alert],
            "parallel": [trip_total_rain, windiest_date, extreme_on_a_day],
            "mixture": [saved_cities_on_a_day, two_visits, rain_totals_two_cities],
        },
    ),
    Subtopic(
        name="air quality",
        topic=TOPIC,
        domain=DOMAIN,
        templates={
            "sequential": [air_at_saved_spot, aqi_alert_at_saved_city, reset_aqi_alert],
            "parallel": [air_across_cities, worst_case_three_networks],
            "mixture": [air_of_two_searched_cities, air_at_alert_places, air_at_saved_cities],
        },
    ),
    Subtopic(
        name="places and distances",
        topic=TOPIC,
        domain=DOMAIN,
        templates={
            "sequential": [landing_day, spot_distance],
            "parallel": [nearest_of_three, highest_city, daylight_comparison],
            "mixture": [opening_in_my_time, distance_between_searched, saved_cities_from],
        },
    ),
]
