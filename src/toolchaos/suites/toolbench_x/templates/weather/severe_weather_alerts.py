"""Weather subtopic "severe weather alerts": gales, frost, heat and downpours, and alerts."""

from __future__ import annotations

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
    _spoken,
    _sun_on_clock,
    _watched,
)
from toolchaos.suites.toolbench_x.templates.weather.air_quality import (
    AQ_FIELDS,
    air_reads,
    unnamed_air,
)

# (metric, comparison, what the warning is called, how a person says the threshold)
_SEVERE = (
    ("wind_kph", "above", "gale warning", "the wind goes above {t} km/h", (45, 50, 60, 70)),
    ("temp_low_c", "below", "frost warning", "the overnight low drops below {t} °C", (-5, 0, 2)),
    ("temp_high_c", "above", "heat warning", "the daytime high passes {t} °C", (30, 33, 35, 38)),
    ("precip_mm", "above", "heavy-rain warning", "more than {t} mm of rain falls", (15, 20, 30)),
)
# (field, op, how a person asks for it)
_PEAKS = (
    ("wind_kph", "max", "the strongest wind forecast (km/h)"),
    ("temp_low_c", "min", "the coldest overnight low forecast (°C)"),
    ("temp_high_c", "max", "the hottest daytime high forecast (°C)"),
    ("precip_mm", "max", "the heaviest single day of rain forecast (mm)"),
)


def severe_alert_for_the_week(ctx: TemplateContext) -> Draft:
    """Sequential, writes: search the place -> 7-day forecast -> alert from tomorrow on."""
    loc = ctx.pick("locations")
    metric, comparison, name, words, thresholds = ctx.rng.choice(_SEVERE)
    if _watched(ctx, loc.location_id, metric, comparison):
        raise NoFit("an alert already watches that")
    threshold = ctx.rng.choice(thresholds)
    prompt = ctx.say(
        "Set up a {name} for {place}: from tomorrow until the last day of the 7-day "
        "forecast, alert me whenever " + words + ".",
        "Please put a {name} on {place} for the rest of the forecast week (tomorrow through "
        "day seven): notify me if " + words + ".",
        "I'm worried about the weather in {place}. Alert me any day from tomorrow to the end "
        "of the week's forecast on which " + words + ".",
        name=name,
        place=_spoken(ctx, loc),
        t=threshold,
    )
    steps = [
        RefStep(tool="search_locations", args={"query": _query(ctx, loc)}),
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
                "threshold": threshold,
                "start_date": ref(1, "days", 1, "date"),
                "end_date": ref(1, "days", 6, "date"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def alert_day_forecast(ctx: TemplateContext) -> Draft:
    """Sequential: alerts at a place -> the alert -> the forecast on its first day."""
    alerts = ctx.rows("alerts", lambda a: a.metric != "aqi" and a.start_date <= ctx.day(6))
    alert = ctx.rng.choice(alerts) if alerts else None
    if alert is None or alert.start_date < ctx.day(0):
        raise NoFit("no alert starting inside the forecast")
    loc = ctx.world.table("locations")[alert.location_id]
    if not _plain(ctx, loc):
        raise NoFit("the alert's place shares its name")
    same = [
        a
        for a in ctx.rows("alerts")
        if a.location_id == alert.location_id and a.metric == alert.metric
    ]
    if len(same) != 1:
        raise NoFit("more than one such alert")
    field = ctx.rng.choice(["wind_kph", "temp_high_c", "temp_low_c", "precip_mm"])
    words = {
        "wind_kph": "wind speed (km/h)",
        "temp_high_c": "daytime high (°C)",
        "temp_low_c": "overnight low (°C)",
        "precip_mm": "rainfall (mm)",
    }[field]
    metric_words = {
        "wind_kph": "wind",
        "temp_high_c": "high-temperature",
        "temp_low_c": "low-temperature",
        "precip_mm": "rain",
    }[alert.metric]
    prompt = ctx.say(
        "I have a {metric} alert set for {place}. On the day that alert starts, what "
        "{words} is forecast there?",
        "Look up my {metric} alert in {place} and tell me the forecast {words} for the "
        "first day it covers.",
        metric=metric_words,
        place=loc.name,
        words=words,
    )
    steps = [
        RefStep(tool="list_weather_alerts", args={"location": loc.name, "metric": alert.metric}),
        RefStep(tool="get_weather_alert", args={"alert_id": ref(0, "results", 0, "alert_id")}),
        RefStep(
            tool="get_day_forecast",
            args={"location": ref(1, "location_id"), "date": ref(1, "start_date")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=1))


def alert_trigger_day_sun(ctx: TemplateContext) -> Draft:
    """Sequential: an alert at a place -> the alert -> sun times on its first trigger day.

    Asks for the sunset there (3 calls) or for that sunset on another city's clock (4 calls).
    """
    alerts = []
    for a in ctx.rows("alerts"):
        loc = ctx.world.table("locations")[a.location_id]
        key = (a.location_id, a.metric)
        same = [b for b in ctx.rows("alerts") if (b.location_id, b.metric) == key]
        view = ctx.read("get_weather_alert", alert_id=a.alert_id)
        first = view.get("first_trigger_date")
        if _plain(ctx, loc) and len(same) == 1 and first and ctx.day(0) <= first <= ctx.day(6):
            alerts.append(a)
    if not alerts:
        raise NoFit("no alert that triggers this week")
    alert = ctx.rng.choice(alerts)
    loc = ctx.world.table("locations")[alert.location_id]
    metric = {
        "aqi": "air-quality",
        "wind_kph": "wind",
        "temp_high_c": "high-temperature",
        "temp_low_c": "low-temperature",
        "precip_mm": "rain",
    }[alert.metric]
    steps = [
        RefStep(tool="list_weather_alerts", args={"location": loc.name, "metric": alert.metric}),
        RefStep(tool="get_weather_alert", args={"alert_id": ref(0, "results", 0, "alert_id")}),
        RefStep(
            tool="get_sun_times",
            args={"location": ref(1, "location_id"), "date": ref(1, "first_trigger_date")},
        ),
    ]
    if ctx.rng.random() < 0.5:
        prompt = ctx.say(
            "My {metric} alert for {place} will go off on some day this week. What time does "
            "the sun set in {place} on the first day it triggers?",
            "Find the first day my {metric} alert in {place} is forecast to trigger and tell "
            "me the local sunset time there that day.",
            metric=metric,
            place=loc.name,
        )
        return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "sunset_local"]]))
    offset = loc.utc_offset_hours
    other = ctx.pick("locations", lambda x: _plain(ctx, x) and x.utc_offset_hours != offset)
    prompt = ctx.say(
        "On the first day my {metric} alert for {place} triggers, I want to call a friend "
        "there at their sunset. What time will that be on my clock in {other}?",
        "Take the first trigger day of my {metric} alert in {place}: the sunset there that "
        "day, converted to {other} local time, please.",
        metric=metric,
        place=loc.name,
        other=other.name,
    )
    steps.append(_sun_on_clock(2, "sunset", other.name))
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, "local_time"]]))


def week_peak_of_three(ctx: TemplateContext) -> Draft:
    """Parallel: 7-day forecasts of three to seven places; the most severe value of one field."""
    places = ctx.sample("locations", ctx.count(3, 7), lambda loc: _plain(ctx, loc))
    field, op, words = ctx.rng.choice(_PEAKS)
    values = [
        day[field]
        for p in places
        for day in ctx.read("get_forecast", location=p.location_id, days=7)["days"]
    ]
    if field == "precip_mm" and max(values) == 0:
        raise NoFit("a dry week everywhere")
    prompt = ctx.say(
        "Storm watch for the 7 days from today ({d0}): across {names}, what is {words} on any "
        "day of their 7-day forecasts?",
        "Checking for severe weather before I travel to {names} this week. What's "
        "{words} anywhere in their 7-day forecasts starting today, {d0}?",
        "Over the seven days from {d0} to {d6} in {names}, give me {words}.",
        names=listing([p.name for p in places]),
        d0=when(ctx.day(0)),
        d6=when(ctx.day(6)),
        words=words,
    )
    steps = [RefStep(tool="get_forecast", args={"location": p.name, "days": 7}) for p in places]
    refs = [[i, "days", k, field] for i in range(len(places)) for k in range(7)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def alert_places_on_a_day(ctx: TemplateContext) -> Draft:
    """Mixture: list alerts in a status -> one day's forecast at each alert's place -> peak."""
    status = ctx.rng.choice(["active", "paused", "expired"])
    listing = ctx.read("list_weather_alerts", status=status)["results"]
    if len(listing) < 2:
        raise NoFit(f"fewer than two {status} alerts")
    field, op, words = ctx.rng.choice(_PEAKS)
    day = ctx.day(ctx.rng.randint(0, 6))
    values = [
        ctx.read("get_day_forecast", location=r["location_id"], date=day)[field] for r in listing
    ]
    if field == "precip_mm" and max(values) == 0:
        raise NoFit("no rain anywhere")
    prompt = ctx.say(
        "For every place where I have {a_status} weather alert, check the forecast for "
        "{day}. What is {words} among them?",
        "Take the locations of my {status} alerts and look at {day}: give me {words}.",
        a_status={"active": "an active", "paused": "a paused", "expired": "an expired"}[status],
        status=status,
        day=when(day),
        words=words,
    )
    steps = [RefStep(tool="list_weather_alerts", args={"status": status})]
    steps += [
        RefStep(
            tool="get_day_forecast",
            args={"location": ref(0, "results", i, "location_id"), "date": day},
        )
        for i in range(len(listing))
    ]
    refs = [[1 + i, field] for i in range(len(listing))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def two_cities_week_peak(ctx: TemplateContext) -> Draft:
    """Mixture: search two to five places (shared names qualified) -> their weeks -> the peak."""
    shared = ctx.pick("locations", lambda loc: not _plain(ctx, loc))
    others = ctx.sample("locations", ctx.count(1, 4), lambda loc: loc.name != shared.name)
    places = [shared, *others]
    ctx.rng.shuffle(places)
    k = len(places)
    field, op, words = ctx.rng.choice(_PEAKS)
    prompt = ctx.say(
        "Is anything nasty coming to {names} in the 7 days from today ({d0})? Give me "
        "{words} across their 7-day forecasts.",
        "Severe-weather check for {names} over the seven days from {d0} to {d6}: what's {words}?",
        names=listing([_spoken(ctx, p) for p in places]),
        d0=when(ctx.day(0)),
        d6=when(ctx.day(6)),
        words=words,
    )
    steps = [RefStep(tool="search_locations", args={"query": _query(ctx, p)}) for p in places]
    steps += [
        RefStep(
            tool="get_forecast",
            args={"location": ref(i, "results", 0, "location_id"), "days": 7},
        )
        for i in range(k)
    ]
    refs = [[k + i, "days", d, field] for i in range(k) for d in range(7)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def alert_place_air(ctx: TemplateContext) -> Draft:
    """Sequential: alerts at a place -> the alert -> the air now where it watches (no source)."""
    alert = ctx.pick("alerts", lambda a: a.metric != "aqi")
    loc = ctx.world.table("locations")[alert.location_id]
    if not _plain(ctx, loc):
        raise NoFit("the alert's place shares its name")
    if (
        sum(
            a.location_id == loc.location_id and a.metric == alert.metric
            for a in ctx.rows("alerts")
        )
        != 1
    ):
        raise NoFit("more than one such alert")
    tool, field, _, _ = unnamed_air(ctx)
    metric_words = {
        "wind_kph": "wind",
        "temp_high_c": "heat",
        "temp_low_c": "frost",
        "precip_mm": "rain",
    }[alert.metric]
    prompt = ctx.say(
        "I have a {metric} alert set for {place}. Check that alert, then tell me the current "
        "{what} there.",
        "There's smoke in the news. Look up my {metric} alert in {place} and give me the "
        "{what} at its location right now.",
        metric=metric_words,
        place=loc.name,
        what=AQ_FIELDS[field],
    )
    before = [
        RefStep(tool="list_weather_alerts", args={"location": loc.name, "metric": alert.metric}),
        RefStep(tool="get_weather_alert", args={"alert_id": ref(0, "results", 0, "alert_id")}),
    ]
    return air_reads(prompt, tool, [ref(1, "location_id")], field, "value", before)


def smoke_across_cities(ctx: TemplateContext) -> Draft:
    """Parallel: the air now in three to six cities (no source named); the worst or best."""
    tool, field, op, words = unnamed_air(ctx)
    places = ctx.sample("locations", ctx.count(3, 6), lambda loc: _plain(ctx, loc))
    prompt = ctx.say(
        "Wildfire smoke is drifting across the region. Of {names}, what's {words} right now?",
        "Before I issue a smoke warning for {names}, tell me {words} among them at the moment.",
        names=listing([loc.name for loc in places]),
        words=words,
    )
    return air_reads(prompt, tool, [loc.name for loc in places], field, op, [])


SUBTOPIC = Subtopic(
    name="severe weather alerts",
    templates={
        "sequential": [
            severe_alert_for_the_week,
            alert_day_forecast,
            alert_trigger_day_sun,
            alert_place_air,
        ],
        "parallel": [week_peak_of_three, smoke_across_cities],
        "mixture": [alert_places_on_a_day, two_cities_week_peak],
    },
)
