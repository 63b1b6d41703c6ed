"""Transportation subtopic "travel emissions": the CO2 of routes and modes of travel."""

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
)
from toolchaos.suites.toolbench_x.templates.transportation._helpers import (
    _arg,
    _confirmed,
    _date_text,
    _direct,
    _spoken,
)

MODE_WORDS = {
    "rail": "by train",
    "bus": "by coach",
    "car": "driving alone",
    "taxi": "by taxi",
    "flight": "flying",
}


def _single_route(ctx: TemplateContext) -> tuple[Any, Any, Any]:
    """A route that is the only one between its two stations, and both stations."""
    route = ctx.pick("routes")
    same = ctx.rows(
        "routes",
        lambda r: (
            (r.origin_station_id, r.destination_station_id)
            == (route.origin_station_id, route.destination_station_id)
        ),
    )
    if len(same) != 1:
        raise NoFit("more than one route between the stations")
    stations = ctx.world.table("stations")
    return route, stations[route.origin_station_id], stations[route.destination_station_id]


def route_footprint(ctx: TemplateContext) -> Draft:
    """Sequential: find the origin -> routes to the destination -> the route -> its CO2."""
    route, origin, dest = _single_route(ctx)
    prompt = ctx.say(
        "What's the carbon footprint, in kg of CO2, of riding the {op} service from {a} "
        "({ac}) to {b} ({bc}) for one passenger?",
        "I take {op}'s route from {a} in {ac} to {b} in {bc}. How much CO2 (kg) does one "
        "trip on it emit per passenger?",
        "Estimate the emissions of one seat on the {op} route {a}, {ac} -> {b}, {bc}, in kg CO2.",
        op=route.operator,
        a=origin.name,
        ac=origin.city,
        b=dest.name,
        bc=dest.city,
    )
    steps = [
        RefStep(tool="find_stations", args={"query": origin.name, "city": origin.city}),
        RefStep(
            tool="list_routes",
            args={
                "origin_station_id": ref(0, "results", 0, "station_id"),
                "destination_station_id": dest.station_id,
            },
        ),
        RefStep(tool="get_route", args={"route_id": ref(1, "results", 0, "route_id")}),
        RefStep(
            tool="estimate_co2",
            args={"distance_km": ref(2, "distance_km"), "mode": ref(2, "mode")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, "co2_kg"]], round=2))


def my_trip_footprint(ctx: TemplateContext) -> Draft:
    """Sequential: passenger by email -> next booking -> its trip (-> its route) -> CO2.

    The trip carries its distance; asking about the route's typical length instead adds
    a step.
    """
    confirmed = _confirmed(ctx)
    passenger = ctx.pick("passengers", lambda p: bool(confirmed.get(p.passenger_id)))
    by_route = ctx.rng.random() < 0.5
    prompt = ctx.say(
        "I'm {email}. How much CO2, in kg, will my next booked trip emit for me as one "
        "passenger{route}?",
        "Account {email}: estimate the carbon footprint (kg CO2 per passenger) of the trip on "
        "my upcoming booking{route}.",
        email=passenger.email,
        route=", using the full length of the route it runs on" if by_route else "",
    )
    steps = [
        RefStep(tool="find_passengers", args={"email": passenger.email}),
        RefStep(
            tool="list_bookings",
            args={"passenger_id": ref(0, "results", 0, "passenger_id"), "status": "confirmed"},
        ),
        RefStep(tool="get_trip", args={"trip_id": ref(1, "results", 0, "trip_id")}),
    ]
    if by_route:
        steps.append(RefStep(tool="get_route", args={"route_id": ref(2, "route_id")}))
    last = len(steps) - 1
    steps.append(
        RefStep(
            tool="estimate_co2",
            args={"distance_km": ref(last, "distance_km"), "mode": ref(last, "mode")},
        )
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[last + 1, "co2_kg"]], round=2))


def first_service_footprint(ctx: TemplateContext) -> Draft:
    """Sequential: find the origin -> the day's direct trips -> the first one's CO2."""
    trip = ctx.pick("trips")
    first = _direct(ctx, trip.origin_station_id, trip.destination_station_id, trip.departure_date)[
        0
    ]
    stations = ctx.world.table("stations")
    origin = stations[first.origin_station_id]
    prompt = ctx.say(
        "I'm taking the first direct service from {a} to {b} on {day}. What does that trip "
        "emit per passenger, in kg CO2?",
        "On {day}, the earliest direct trip {a} -> {b}: how many kg of CO2 is that for one "
        "passenger?",
        a=_spoken(ctx, origin.station_id),
        b=_spoken(ctx, first.destination_station_id),
        day=_date_text(ctx, first.departure_date),
    )
    steps = [
        RefStep(tool="find_stations", args={"query": origin.name, "city": origin.city}),
        RefStep(
            tool="search_trips",
            args={
                "origin": ref(0, "results", 0, "station_id"),
                "destination": _arg(ctx, first.destination_station_id),
                "date": first.departure_date,
            },
        ),
        RefStep(
            tool="estimate_co2",
            args={
                "distance_km": ref(1, "results", 0, "distance_km"),
                "mode": ref(1, "results", 0, "mode"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "co2_kg"]], round=2))


def operators_longest_route(ctx: TemplateContext) -> Draft:
    """Sequential: find a station -> an operator's routes from it -> the longest -> its CO2."""
    routes = ctx.rows("routes")
    starts = sorted({(r.origin_station_id, r.operator) for r in routes})
    origin_id, operator = ctx.rng.choice(starts)
    mine = [r for r in routes if (r.origin_station_id, r.operator) == (origin_id, operator)]
    lengths = [r.distance_km for r in mine]  # list_routes sorts by route_id, as rows do
    if len(mine) < 2 or lengths.count(max(lengths)) > 1:
        raise NoFit("the operator needs one longest route from the station")
    longest = lengths.index(max(lengths))
    origin = ctx.world.table("stations")[origin_id]
    prompt = ctx.say(
        "Of the {op} routes leaving {st}, I'll ride the longest one end to end. How much CO2 "
        "is that for one passenger, in kg?",
        "Take the longest route {op} runs out of {st}. What does a single passenger emit "
        "riding all of it (kg CO2)?",
        op=operator,
        st=_spoken(ctx, origin_id),
    )
    steps = [
        RefStep(tool="find_stations", args={"query": origin.name, "city": origin.city}),
        RefStep(
            tool="list_routes",
            args={"origin_station_id": ref(0, "results", 0, "station_id"), "operator": operator},
        ),
        RefStep(tool="get_route", args={"route_id": ref(1, "results", longest, "route_id")}),
        RefStep(
            tool="estimate_co2",
            args={"distance_km": ref(2, "distance_km"), "mode": ref(2, "mode")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, "co2_kg"]], round=2))


def greenest_mode(ctx: TemplateContext) -> Draft:
    """Parallel: one distance in three to five modes; the lowest or highest emissions."""
    km = ctx.rng.randint(8, 90) * 5
    modes = ctx.rng.sample(sorted(MODE_WORDS), ctx.count(3, 5))
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "the lowest", "max": "the highest"}[op]
    options = listing([MODE_WORDS[m] for m in modes])
    prompt = ctx.say(
        "My trip is {km} km. Comparing going {all}: what's {words} CO2 figure, in kg?",
        "For {km} km, compare emissions {all}. Give me {words} of them.",
        "Per passenger over {km} km, which of these emits {words}: {all}? The kg CO2.",
        km=km,
        all=options,
        words=words,
    )
    steps = [RefStep(tool="estimate_co2", args={"distance_km": km, "mode": m}) for m in modes]
    answer = AnswerSpec(op=op, refs=[[i, "co2_kg"] for i in range(len(modes))], round=2)
    return Draft(prompt, steps, answer)


def multi_leg_footprint(ctx: TemplateContext) -> Draft:
    """Parallel: a trip of k legs, each a distance and a mode; the total or worst leg's CO2."""
    k = ctx.count(3, 5)
    legs = [(ctx.rng.randint(2, 80) * 5, ctx.rng.choice(sorted(MODE_WORDS))) for _ in range(k)]
    if len(set(legs)) < k:
        raise NoFit("legs must differ")
    op, asks = ctx.rng.choice(
        [("sum", "the total CO2 of the whole trip"), ("max", "the CO2 of the dirtiest leg")]
    )
    prompt = ctx.say(
        "My trip has {k} legs: {legs}. Per passenger, what is {asks}, in kg?",
        "Work out {asks} (kg CO2, one passenger) for this itinerary: {legs}.",
        k=k,
        legs=listing([f"{km} km {MODE_WORDS[mode]}" for km, mode in legs]),
        asks=asks,
    )
    steps = [
        RefStep(tool="estimate_co2", args={"distance_km": km, "mode": mode}) for km, mode in legs
    ]
    answer = AnswerSpec(op=op, refs=[[i, "co2_kg"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def route_versus_driving(ctx: TemplateContext) -> Draft:
    """Mixture: one route's distance -> CO2 by its own mode and by car -> the lower."""
    route, origin, dest = _single_route(ctx)
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "the lower", "max": "the higher"}[op]
    prompt = ctx.say(
        "Between {a} ({ac}) and {b} ({bc}) there's a {mode} route. Over its distance, "
        "compare taking it with driving alone: what's {words} footprint in kg CO2?",
        "Should I drive or take the {mode} from {a}, {ac} to {b}, {bc}? Using the route's "
        "length, give me {words} of the two CO2 estimates (kg).",
        a=origin.name,
        ac=origin.city,
        b=dest.name,
        bc=dest.city,
        mode={"rail": "train", "bus": "coach"}[route.mode],
        words=words,
    )
    steps = [
        RefStep(
            tool="list_routes",
            args={
                "origin_station_id": origin.station_id,
                "destination_station_id": dest.station_id,
            },
        ),
        RefStep(
            tool="estimate_co2",
            args={"distance_km": ref(0, "results", 0, "distance_km"), "mode": route.mode},
        ),
        RefStep(
            tool="estimate_co2",
            args={"distance_km": ref(0, "results", 0, "distance_km"), "mode": "car"},
        ),
    ]
    answer = AnswerSpec(op=op, refs=[[1, "co2_kg"], [2, "co2_kg"]], round=2)
    return Draft(prompt, steps, answer)


def routes_footprint(ctx: TemplateContext) -> Draft:
    """Mixture: k routes looked up in parallel -> each one's CO2 by its own mode; sum or max."""
    k = ctx.count(2, 4)
    routes = ctx.sample("routes", k)
    if len({r.distance_km for r in routes}) < k:
        raise NoFit("routes must differ in length")
    op, asks = ctx.rng.choice(
        [
            ("sum", "the CO2 of riding all of them once, added up"),
            ("max", "the CO2 of the most polluting one"),
        ]
    )
    prompt = ctx.say(
        "This month I'll ride routes {all} end to end once each. Per passenger, what is "
        "{asks}, in kg?",
        "For routes {all} (one full ride each, one passenger), tell me {asks} in kg CO2.",
        all=listing([r.route_id for r in routes]),
        asks=asks,
    )
    steps = [RefStep(tool="get_route", args={"route_id": r.route_id}) for r in routes]
    steps += [
        RefStep(
            tool="estimate_co2",
            args={"distance_km": ref(i, "distance_km"), "mode": ref(i, "mode")},
        )
        for i in range(k)
    ]
    answer = AnswerSpec(op=op, refs=[[k + i, "co2_kg"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def booked_trips_footprint(ctx: TemplateContext) -> Draft:
    """Mixture: passenger by email -> confirmed bookings -> each trip -> each trip's CO2."""
    confirmed = _confirmed(ctx)
    passenger = ctx.pick("passengers", lambda p: 2 <= len(confirmed.get(p.passenger_id, [])) <= 4)
    n = len(confirmed[passenger.passenger_id])
    prompt = ctx.say(
        "I'm {email}. What is the combined carbon footprint, in kg CO2 per passenger, of all "
        "the trips I have booked and not yet taken?",
        "Account {email}: add up the CO2 (kg, for me alone) of every confirmed booking I hold.",
        email=passenger.email,
    )
    steps = [
        RefStep(tool="find_passengers", args={"email": passenger.email}),
        RefStep(
            tool="list_bookings",
            args={"passenger_id": ref(0, "results", 0, "passenger_id"), "status": "confirmed"},
        ),
    ]
    steps += [
        RefStep(tool="get_trip", args={"trip_id": ref(1, "results", i, "trip_id")})
        for i in range(n)
    ]
    steps += [
        RefStep(
            tool="estimate_co2",
            args={"distance_km": ref(2 + i, "distance_km"), "mode": ref(2 + i, "mode")},
        )
        for i in range(n)
    ]
    answer = AnswerSpec(op="sum", refs=[[2 + n + i, "co2_kg"] for i in range(n)], round=2)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="travel emissions",
    templates={
        "sequential": [
            route_footprint,
            my_trip_footprint,
            first_service_footprint,
            operators_longest_route,
        ],
        "parallel": [greenest_mode, multi_leg_footprint],
        "mixture": [route_versus_driving, routes_footprint, booked_trips_footprint],
    },
)
