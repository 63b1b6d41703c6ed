"""Weather subtopic "forecasts and trip weather": forecasts, rain totals, weather alerts."""

from __future__ import annotations

from datetime import timedelta
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
    _unique_poi,
    _watched,
)
from toolchaos.suites.toolbench_x.templates.weather.air_quality import air_reads, unnamed_air


def _plain_places(ctx: TemplateContext) -> list[Any]:
    return [loc for loc in ctx.rows("locations") if _plain(ctx, loc)]


def sunset_on_warmest_day(ctx: TemplateContext) -> Draft:
    """Sequential: search the place -> 3-day forecast (default) -> sunset on the warmest day."""
    loc = ctx.pick("locations")
    query = _query(ctx, loc)
    forecast = ctx.read("get_forecast", location=loc.location_id)
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
        ctx.read("get_day_forecast", location=loc.location_id, date=ctx.day(d))[metric]
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
        d1=when(ctx.day(start)),
        d2=when(ctx.day(end)),
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
                "start_date": ctx.day(start),
                "end_date": ctx.day(end),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def _rain(ctx: TemplateContext, location_id: str, day: str) -> float:
    found: float = ctx.read("get_day_forecast", location=location_id, date=day)["precip_mm"]
    return found


def trip_total_rain(ctx: TemplateContext) -> Draft:
    """Parallel: three to six stops on consecutive days; total forecast rain."""
    count = ctx.count(3, 6)
    first = ctx.rng.randint(0, 7 - count)
    days = [ctx.day(first + i) for i in range(count)]
    stops: list[Any] = []
    for i, day in enumerate(days):
        # all stops but the last are wet, so the total is a measured sum, not a lone zero
        pool = [
            loc
            for loc in _plain_places(ctx)
            if loc not in stops and (i == count - 1 or _rain(ctx, loc.location_id, day) > 0)
        ]
        if not pool:
            raise NoFit(f"no wet stop on {day}")
        stops.append(ctx.rng.choice(pool))
    pairs = list(zip(stops, days, strict=True))
    prompt = ctx.say(
        "Road trip plan: {plan}. How much rain is forecast in total across those {n} stops, in mm?",
        "I'll be in {plan}. Add up the forecast precipitation for each place on its day for "
        "me (millimetres).",
        "Total rainfall check for my tour ({tour}): what's the sum of the daily "
        "precipitation forecasts?",
        plan=listing([f"{loc.name} on {when(day)}" for loc, day in pairs]),
        tour=", ".join(f"{loc.name} {when(day)}" for loc, day in pairs),
        n=count,
    )
    steps = [
        RefStep(tool="get_day_forecast", args={"location": loc.name, "date": day})
        for loc, day in zip(stops, days, strict=True)
    ]
    answer = AnswerSpec(op="sum", refs=[[i, "precip_mm"] for i in range(count)], round=1)
    return Draft(prompt, steps, answer)


def windiest_date(ctx: TemplateContext) -> Draft:
    """Parallel: three to seven 3-day forecasts (default length); the date of the strongest wind.

    The prompt says the window is today and the next two days (by weekday, since a date
    there could be the answer), so "the next three days" has one reading.
    """
    places = ctx.sample("locations", ctx.count(3, 7), lambda loc: _plain(ctx, loc))
    winds: list[tuple[float, int, int]] = []
    for i, loc in enumerate(places):
        for k, day in enumerate(ctx.read("get_forecast", location=loc.name)["days"]):
            winds.append((day["wind_kph"], i, k))
    best = max(w for w, _, _ in winds)
    top = [(i, k) for w, i, k in winds if w == best]
    if len(top) != 1:
        raise NoFit("no single windiest day")
    prompt = ctx.say(
        "We're flying kites at one of {names} some day from today ({d0}) through {d2}. On "
        "which date is the strongest wind forecast at any of them?",
        "Looking at the forecasts for {names} from today ({d0}) to {d2}: which date has the "
        "single windiest forecast?",
        "Which day from today ({d0}) to {d2} has the highest forecast wind speed anywhere "
        "among {names}? Give me the date.",
        names=listing([loc.name for loc in places]),
        d0=f"{ctx.today():%A}",
        d2=f"{ctx.today() + timedelta(days=2):%A}",
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
    """Parallel: three to seven places on one day; the min or max of one forecast field."""
    day = ctx.day(ctx.rng.randint(1, 6))
    field, op, words = ctx.rng.choice(_DAY_EXTREMES)
    places = ctx.sample("locations", ctx.count(3, 7), lambda loc: _plain(ctx, loc))
    values = [ctx.read("get_day_forecast", location=loc.name, date=day)[field] for loc in places]
    if field == "precip_mm" and max(values) == 0:
        raise NoFit("no rain anywhere")
    prompt = ctx.say(
        "On {day}, what's the {words} forecast across {names}?",
        "Compare {names} for {day}: give me the {words} among their forecasts.",
        "For {day}, check the forecasts of {names} and tell me the {words}.",
        day=when(day),
        words=words,
        names=listing([loc.name for loc in places]),
    )
    steps = [
        RefStep(tool="get_day_forecast", args={"location": loc.name, "date": day}) for loc in places
    ]
    answer = AnswerSpec(op=op, refs=[[i, field] for i in range(len(places))], round=1)
    return Draft(prompt, steps, answer)


_SAVED_DAY = (
    ("precip_mm", "sum", "how much rain is forecast in total across them"),
    ("wind_kph", "max", "what's the strongest wind forecast at any of them"),
    ("temp_low_c", "min", "what's the coldest overnight low forecast among them"),
    ("temp_high_c", "max", "what's the warmest daytime high forecast among them"),
)


def saved_cities_on_a_day(ctx: TemplateContext) -> Draft:
    """Mixture: list saved cities (enum filter) -> one day's forecast for each -> aggregate."""
    listing = ctx.read("list_saved_places", kind="location")["results"]
    day = ctx.day(ctx.rng.randint(0, 6))
    field, op, question = ctx.rng.choice(_SAVED_DAY)
    values = [
        ctx.read("get_day_forecast", location=r["location_id"], date=day)[field] for r in listing
    ]
    if field == "precip_mm" and sum(values) == 0:
        raise NoFit("no rain at any saved city")
    prompt = ctx.say(
        "Thinking of all the cities in my saved places (not the single spots): {question} "
        "on {day}?",
        "Go through my saved cities for {day}: {question}?",
        "For {day}, check every saved city of mine; {question}?",
        question=question,
        day=when(day),
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
    days = [ctx.day(d1), ctx.day(d2)]
    field, op, question = ctx.rng.choice(_VISIT_FIELDS)
    values = [
        ctx.read("get_day_forecast", location=p.location_id, date=d)[field]
        for p, d in zip((first, second), days, strict=True)
    ]
    if field == "precip_mm" and sum(values) == 0:
        raise NoFit("no rain on either visit")
    prompt = ctx.say(
        "I'm visiting the {p1} on {d1} and the {p2} on {d2}. {question}?",
        "Two outings: {p1} ({d1}) and {p2} ({d2}). {question}, going by each city's forecast?",
        p1=first.name,
        p2=second.name,
        d1=when(days[0]),
        d2=when(days[1]),
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
    """Mixture: search two to five places -> rain total over a date range for each -> combine."""
    start = ctx.rng.randint(0, 3)
    d1, d2 = ctx.day(start), ctx.day(start + ctx.rng.randint(2, 3))

    def wet(loc: Any) -> bool:
        args = {"location_id": loc.location_id, "from_date": d1, "to_date": d2}
        return bool(ctx.read("precipitation_total", **args)["total_precip_mm"] > 0)

    # a dry place would make the question trivial
    places = ctx.sample("locations", ctx.count(2, 5), wet)
    k = len(places)
    queries = [_query(ctx, loc) for loc in places]
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "What's the combined forecast rain for them all, in mm?",
        "max": "How much rain (mm) is forecast for whichever of them is wettest?",
    }[op]
    prompt = ctx.say(
        "I'm deciding between {names} for {d1} through {d2}. " + question,
        "Rain totals from {d1} to {d2} (inclusive) for {names}, please. " + question,
        names=listing([_spoken(ctx, loc) for loc in places]),
        d1=when(d1),
        d2=when(d2),
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
        for i in range(k)
    ]
    refs = [[k + i, "total_precip_mm"] for i in range(k)]
    answer = AnswerSpec(op=op, refs=refs, round=1)
    return Draft(prompt, steps, answer)


def trip_air(ctx: TemplateContext) -> Draft:
    """Parallel: the air now in each stop of a three-to-six-city trip (no source named)."""
    tool, field, op, words = unnamed_air(ctx)
    places = ctx.sample("locations", ctx.count(3, 6), lambda loc: _plain(ctx, loc))
    prompt = ctx.say(
        "My trip goes through {names}. Along with the weather, I care about the air: "
        "what's {words} among those stops right now?",
        "Road trip stops: {names}. I have asthma, so tell me {words} among them at the moment.",
        names=listing([loc.name for loc in places]),
        words=words,
    )
    return air_reads(prompt, tool, [loc.name for loc in places], field, op, [])


SUBTOPIC = Subtopic(
    name="forecasts and trip weather",
    templates={
        "sequential": [sunset_on_warmest_day, week_alert_for_saved_place, save_city_then_alert],
        "parallel": [trip_total_rain, windiest_date, extreme_on_a_day, trip_air],
        "mixture": [saved_cities_on_a_day, two_visits, rain_totals_two_cities],
    },
)
