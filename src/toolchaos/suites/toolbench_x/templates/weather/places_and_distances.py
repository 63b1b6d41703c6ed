"""Weather subtopic "places and distances": distances, elevations, daylight, local times."""

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
    _saved,
    _spoken,
    _unique_poi,
)
from toolchaos.suites.toolbench_x.templates.weather.air_quality import (
    AQ_FIELDS,
    air_reads,
    unnamed_air,
)


def landing_day(ctx: TemplateContext) -> Draft:
    """Sequential: search origin -> convert departure + flight time -> forecast on landing."""
    origin = ctx.pick("locations")
    dest = ctx.pick(
        "locations",
        lambda loc: _plain(ctx, loc) and loc.utc_offset_hours > origin.utc_offset_hours + 2,
    )
    query = _query(ctx, origin)
    depart = ctx.day(ctx.rng.randint(0, 3))
    clock = f"{ctx.rng.randint(17, 23):02d}:{ctx.rng.choice([0, 15, 30, 45]):02d}"
    minutes = ctx.rng.randint(5, 15) * 60 + ctx.rng.choice([0, 15, 30, 45])
    landed = ctx.read(
        "convert_time",
        time=clock,
        date=depart,
        from_location=origin.location_id,
        to_location=dest.location_id,
        add_minutes=minutes,
    )
    if landed["local_date"] == depart or landed["local_date"] > ctx.day(6):
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
        day=when(depart),
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


def spot_daylight(ctx: TemplateContext) -> Draft:
    """Sequential: saved spot -> its place of interest -> daylight in its city on a day."""
    saved = _saved(ctx, "poi")
    day = ctx.day(ctx.rng.randint(0, 6))
    field, words = ctx.rng.choice(
        [
            ("daylight_hours", "how many hours of daylight will there be"),
            ("sunset_local", "what time (local) does the sun set"),
            ("sunrise_local", "what time (local) does the sun rise"),
        ]
    )
    prompt = ctx.say(
        "I'm going to my saved spot '{label}' on {day}: {words} there?",
        "On {day}, at the place of interest I saved as '{label}', {words}?",
        label=saved.label,
        day=when(day),
        words=words,
    )
    steps = [
        RefStep(tool="list_saved_places", args={"label_contains": saved.label}),
        RefStep(tool="get_point_of_interest", args={"poi_id": ref(0, "results", 0, "poi_id")}),
        RefStep(tool="get_sun_times", args={"location": ref(1, "location_id"), "date": day}),
    ]
    round_to = 2 if field == "daylight_hours" else None
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=round_to))


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
    """Parallel: distances from one city to three to seven others; the nearest or farthest."""
    places = ctx.sample("locations", 1 + ctx.count(3, 7), lambda loc: _plain(ctx, loc))
    home, others = places[0], places[1:]
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "nearest", "max": "farthest"}[op]
    prompt = ctx.say(
        "From {home}, how far away is the {words} of {names}? Straight-line km.",
        "I live in {home}. Of {names}, what's the distance to the {words} one, in kilometres?",
        home=home.name,
        words=words,
        names=listing([o.name for o in others]),
    )
    steps = [
        RefStep(tool="compute_distance", args={"from_location": home.name, "to_location": o.name})
        for o in others
    ]
    answer = AnswerSpec(op=op, refs=[[i, "distance_km"] for i in range(len(others))], round=1)
    return Draft(prompt, steps, answer)


def highest_city(ctx: TemplateContext) -> Draft:
    """Parallel: look up three to seven places; the highest elevation among them."""
    places = ctx.sample("locations", ctx.count(3, 7))
    if max(p.elevation_m for p in places) < 100:
        raise NoFit("all of them are at sea level")
    queries = [_query(ctx, p) for p in places]
    prompt = ctx.say(
        "Which sits highest above sea level: {names}? Tell me its elevation in metres.",
        "I get altitude sickness. Of {names}, what is the highest elevation (m)?",
        names=listing([_spoken(ctx, p) for p in places]),
    )
    steps = [RefStep(tool="search_locations", args={"query": q}) for q in queries]
    refs = [[i, "results", 0, "elevation_m"] for i in range(len(places))]
    answer = AnswerSpec(op="max", refs=refs)
    return Draft(prompt, steps, answer)


def daylight_comparison(ctx: TemplateContext) -> Draft:
    """Parallel: sun times for three to seven places on one day; the longest or shortest day."""
    day = ctx.day(ctx.rng.randint(0, 6))
    places = ctx.sample("locations", ctx.count(3, 7), lambda loc: _plain(ctx, loc))
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "shortest", "max": "longest"}[op]
    prompt = ctx.say(
        "On {day}, which of {names} gets the {words} daylight? Give me the number of hours.",
        "How many hours of daylight does the place with the {words} day have on {day}, "
        "among {names}?",
        day=when(day),
        words=words,
        names=listing([p.name for p in places]),
    )
    steps = [RefStep(tool="get_sun_times", args={"location": p.name, "date": day}) for p in places]
    answer = AnswerSpec(op=op, refs=[[i, "daylight_hours"] for i in range(len(places))], round=2)
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
    day = ctx.day(ctx.rng.randint(0, 6))
    prompt = ctx.say(
        "When the {poi} opens on {day}, what time is it at my saved place '{label}'?",
        "I want to call the {poi} the moment it opens on {day}. What time will that be "
        "where my '{label}' place is?",
        "Convert the {poi}'s opening time on {day} into local time at '{label}' (one of "
        "my saved places).",
        poi=poi.name,
        day=when(day),
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
    listing = ctx.read("list_saved_places", kind="location")["results"]
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


def spot_air(ctx: TemplateContext) -> Draft:
    """Sequential: a place of interest by name -> its details -> the air in its city now."""
    poi = _unique_poi(ctx)
    tool, field, _, _ = unnamed_air(ctx)
    prompt = ctx.say(
        "I'm spending the afternoon at the {poi}. What's the current {what} in the city it's in?",
        "Before a long walk around the {poi}: how's the air in its city right now? Give me "
        "the {what}.",
        poi=poi.name,
        what=AQ_FIELDS[field],
    )
    before = [
        RefStep(tool="list_points_of_interest", args={"name_contains": poi.name}),
        RefStep(tool="get_point_of_interest", args={"poi_id": ref(0, "results", 0, "poi_id")}),
    ]
    return air_reads(prompt, tool, [ref(1, "location_id")], field, "value", before)


SUBTOPIC = Subtopic(
    name="places and distances",
    templates={
        "sequential": [landing_day, spot_distance, spot_daylight, spot_air],
        "parallel": [nearest_of_three, highest_city, daylight_comparison],
        "mixture": [opening_in_my_time, distance_between_searched, saved_cities_from],
    },
)
