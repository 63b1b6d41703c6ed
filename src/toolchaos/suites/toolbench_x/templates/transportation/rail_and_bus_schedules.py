"""Transportation subtopic "rail and bus schedules": departures, trips, arrivals, distances."""

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
    MIN_DELAY,
    _arg,
    _confirmed,
    _date_text,
    _delay,
    _departures,
    _direct,
    _distinct,
    _future,
    _spoken,
    delay_step,
    unnamed_delay_source,
)


def second_departure_route_length(ctx: TemplateContext) -> Draft:
    """Sequential: departures board -> the day's second departure -> its route's length.

    A longer variant asks how many routes the route's operator runs in all.
    """
    day = ctx.day(ctx.rng.randint(1, 4))
    station = ctx.pick("stations", lambda s: len(_departures(ctx, s.station_id, day)) >= 2)
    steps = [
        RefStep(
            tool="get_departures", args={"station": _arg(ctx, station.station_id), "date": day}
        ),
        RefStep(tool="get_trip", args={"trip_id": ref(0, "results", 1, "trip_id")}),
        RefStep(tool="get_route", args={"route_id": ref(1, "route_id")}),
    ]
    if ctx.rng.random() < 0.4:
        prompt = ctx.say(
            "The second departure from {st} on {date}: whoever operates its route, how many "
            "routes do they run on the network in all?",
            "Find the second service leaving {st} on {date}, then tell me how many routes "
            "the operator of its route runs altogether.",
            st=_spoken(ctx, station.station_id),
            date=_date_text(ctx, day),
        )
        steps.append(RefStep(tool="list_routes", args={"operator": ref(2, "operator")}))
        return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, "total"]]))
    prompt = ctx.say(
        "What is the second departure of the day from {st} on {date}, and how long is the "
        "route it runs on? I need the route length in kilometres.",
        "I'm catching the second service out of {st} on {date}. How many km is that route?",
        "Look up the departures from {st} on {date}; for the second one, tell me the length "
        "of its route in kilometres.",
        st=_spoken(ctx, station.station_id),
        date=_date_text(ctx, day),
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "distance_km"]], round=1))


def second_rail_trip_arrival(ctx: TemplateContext) -> Draft:
    """Sequential: resolve the origin -> rail trips to the destination -> the second's arrival."""
    day = ctx.day(ctx.rng.randint(1, 4))
    route = ctx.pick(
        "routes",
        lambda r: (
            r.mode == "rail"
            and len(_direct(ctx, r.origin_station_id, r.destination_station_id, day)) >= 2
        ),
    )
    origin, destination = route.origin_station_id, route.destination_station_id
    prompt = ctx.say(
        "I want to take the second train of the day from {a} to {b} on {date}. What time "
        "does it arrive?",
        "On {date}, when does the second rail departure from {a} to {b} get in?",
        "Could you check the rail trips from {a} to {b} on {date} and tell me the arrival "
        "time of the second one?",
        a=_spoken(ctx, origin),
        b=_spoken(ctx, destination),
        date=_date_text(ctx, day),
    )
    steps = [
        RefStep(tool="find_stations", args={"query": _arg(ctx, origin)}),
        RefStep(
            tool="search_trips",
            args={
                "origin": ref(0, "results", 0, "station_id"),
                "destination": _arg(ctx, destination),
                "date": day,
                "mode": "rail",
            },
        ),
        RefStep(tool="get_trip", args={"trip_id": ref(1, "results", 1, "trip_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "arrival_time"]]))


def second_upcoming_trip_date(ctx: TemplateContext) -> Draft:
    """Sequential: passenger by email -> confirmed bookings -> the second trip's date."""
    confirmed = _confirmed(ctx)
    passenger = ctx.pick(
        "passengers",
        lambda p: (
            len(confirmed.get(p.passenger_id, [])) >= 2
            and len({b.departure_date for b in confirmed[p.passenger_id][:2]}) == 2
        ),
    )
    steps = [
        RefStep(tool="find_passengers", args={"email": passenger.email}),
        RefStep(
            tool="list_bookings",
            args={"passenger_id": ref(0, "results", 0, "passenger_id"), "status": "confirmed"},
        ),
        RefStep(tool="get_trip", args={"trip_id": ref(1, "results", 1, "trip_id")}),
    ]
    if ctx.rng.random() < 0.4:
        prompt = ctx.say(
            "I'm {email}. The route my second upcoming booked trip runs on: how many "
            "departures a day does it have?",
            "Account {email}: look up the trip of my next-but-one booking and tell me how "
            "many daily departures its route has.",
            email=passenger.email,
        )
        steps.append(RefStep(tool="get_route", args={"route_id": ref(2, "route_id")}))
        return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, "daily_departures"]]))
    prompt = ctx.say(
        "Hi, I'm {name} ({email}). I have a few trips booked; on what date does the second "
        "of my upcoming trips leave?",
        "Account {email} here. Which day is my second upcoming booked trip?",
        "Can you check my bookings under {email} and tell me the departure date of my "
        "next-but-one trip?",
        name=passenger.name.split()[0],
        email=passenger.email,
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "departure_date"]]))


def itinerary_distance(ctx: TemplateContext) -> Draft:
    """Parallel: k trips looked up independently; total distance."""
    k = ctx.count(3, 6)
    trips = ctx.sample("trips", k, lambda t: _future(ctx, t))
    if not _distinct([t.route_id for t in trips]):
        raise NoFit("trips must be on different routes")
    prompt = ctx.say(
        "My itinerary uses trips {all}. How many kilometres is that in total?",
        "Add up the distance covered by trips {all} for me, in km.",
        "What's the combined travel distance (km) of trips {all}?",
        all=listing([t.trip_id for t in trips]),
    )
    steps = [RefStep(tool="get_trip", args={"trip_id": t.trip_id}) for t in trips]
    answer = AnswerSpec(op="sum", refs=[[i, "distance_km"] for i in range(k)], round=1)
    return Draft(prompt, steps, answer)


def longest_trip_arrival(ctx: TemplateContext) -> Draft:
    """Parallel: k trips; when does the longest ride arrive?"""
    k = ctx.count(3, 5)
    trips = ctx.sample("trips", k, lambda t: _future(ctx, t))
    if not _distinct([t.duration_min for t in trips]) or not _distinct(
        [t.arrival_time for t in trips]
    ):
        raise NoFit("trips must differ in duration and arrival time")
    prompt = ctx.say(
        "I'm comparing trips {all}. Which one is the longest ride, and what time does it "
        "arrive? The arrival time is all I need.",
        "Of trips {all}, take the one that spends the most time on the road or rails and "
        "tell me when it arrives.",
        all=listing([t.trip_id for t in trips]),
    )
    steps = [RefStep(tool="get_trip", args={"trip_id": t.trip_id}) for t in trips]
    answer = AnswerSpec(
        op="argmax",
        refs=[[i, "duration_min"] for i in range(k)],
        labels=[ref(i, "arrival_time") for i in range(k)],
    )
    return Draft(prompt, steps, answer)


def second_departures_distance(ctx: TemplateContext) -> Draft:
    """Mixture: k departure boards in parallel, then each second departure; total km."""
    day = ctx.day(ctx.rng.randint(1, 4))
    k = ctx.count(2, 4)
    stations = ctx.sample("stations", k, lambda s: len(_departures(ctx, s.station_id, day)) >= 2)
    prompt = ctx.say(
        "On {date} I'll ride the second departure of the day from each of {all}. How many "
        "kilometres do those {n} trips cover together?",
        "Check the departures from {all} on {date}. Taking the second departure at each, "
        "what's their combined distance in km?",
        all=listing([_spoken(ctx, s.station_id) for s in stations]),
        n=["two", "three", "four"][k - 2],
        date=_date_text(ctx, day),
    )
    steps = [
        RefStep(tool="get_departures", args={"station": _arg(ctx, s.station_id), "date": day})
        for s in stations
    ]
    steps += [
        RefStep(tool="get_trip", args={"trip_id": ref(i, "results", 1, "trip_id")})
        for i in range(k)
    ]
    answer = AnswerSpec(op="sum", refs=[[k + i, "distance_km"] for i in range(k)], round=1)
    return Draft(prompt, steps, answer)


def longest_of_first_departures(ctx: TemplateContext) -> Draft:
    """Mixture: departures board, then the first k trips fanned out; longest arrives when?"""
    day = ctx.day(ctx.rng.randint(1, 4))
    k = ctx.count(2, 5)

    def fits(station: Any) -> bool:
        first = _departures(ctx, station.station_id, day)[:k]
        return (
            len(first) == k
            and _distinct([t.duration_min for t in first])
            and _distinct([t.arrival_time for t in first])
        )

    station = ctx.pick("stations", fits)
    prompt = ctx.say(
        "Of the first {n} departures from {st} on {date}, which is the longest ride? "
        "Tell me what time it arrives.",
        "Look at the first {n} services leaving {st} on {date} and give me the arrival "
        "time of the one with the longest journey.",
        st=_spoken(ctx, station.station_id),
        date=_date_text(ctx, day),
        n=["two", "three", "four", "five"][k - 2],
    )
    steps = [
        RefStep(tool="get_departures", args={"station": _arg(ctx, station.station_id), "date": day})
    ]
    steps += [
        RefStep(tool="get_trip", args={"trip_id": ref(0, "results", i, "trip_id")})
        for i in range(k)
    ]
    answer = AnswerSpec(
        op="argmax",
        refs=[[1 + i, "duration_min"] for i in range(k)],
        labels=[ref(1 + i, "arrival_time") for i in range(k)],
    )
    return Draft(prompt, steps, answer)


def first_departures_delay(ctx: TemplateContext) -> Draft:
    """Mixture: a station's departures on the world's day -> the first k delays -> sum or max.

    The delays come from a live source the docs do not call authoritative (the request
    names none), so the task can carry a cross-source conflict.
    """
    day = ctx.day(0)
    k = ctx.count(2, 5)
    live = ctx.world.table("operator_feed")

    def fits(station: Any) -> bool:
        first = _departures(ctx, station.station_id, day)[:k]
        return (
            len(first) == k
            and all(t.trip_id in live for t in first)
            and max(_delay(ctx, t.trip_id) for t in first) >= MIN_DELAY
        )

    station = ctx.pick("stations", fits)
    op = ctx.rng.choice(["sum", "max"])
    asks = {
        "sum": "how many minutes of delay they add up to",
        "max": "the longest delay among them, in minutes",
    }[op]
    prompt = ctx.say(
        "Take the first {n} departures from {st} on {date} and tell me {asks}.",
        "On {date}, the first {n} services leave {st}. Give me {asks}.",
        st=_spoken(ctx, station.station_id),
        date=_date_text(ctx, day),
        n=["two", "three", "four", "five"][k - 2],
        asks=asks,
    )
    tool = unnamed_delay_source(ctx)
    steps = [
        RefStep(tool="get_departures", args={"station": _arg(ctx, station.station_id), "date": day})
    ]
    steps += [delay_step(tool, ref(0, "results", i, "trip_id")) for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[1 + i, "delay_min"] for i in range(k)]))


SUBTOPIC = Subtopic(
    name="rail and bus schedules",
    templates={
        "sequential": [
            second_departure_route_length,
            second_rail_trip_arrival,
            second_upcoming_trip_date,
        ],
        "parallel": [itinerary_distance, longest_trip_arrival],
        "mixture": [
            second_departures_distance,
            longest_of_first_departures,
            first_departures_delay,
        ],
    },
)
