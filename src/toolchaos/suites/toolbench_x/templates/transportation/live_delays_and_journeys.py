"""Transportation subtopic "live delays and journeys": live status, journeys, rides."""

from __future__ import annotations

from typing import Any

from toolchaos.core.errors import ToolError
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
    DELAY_SOURCES,
    MIN_DELAY,
    _arg,
    _confirmed,
    _date_text,
    _delay,
    _departures,
    _distinct,
    _now,
    _spoken,
    delay_source,
    delay_step,
    unnamed_delay_source,
)


def my_next_train_delay(ctx: TemplateContext) -> Draft:
    """Sequential: passenger -> confirmed bookings -> live status of the next trip; delay."""
    confirmed = _confirmed(ctx)
    live = ctx.world.table("operator_feed")

    def fits(passenger: Any) -> bool:
        mine = confirmed.get(passenger.passenger_id, [])
        return bool(mine) and mine[0].trip_id in live and _delay(ctx, mine[0].trip_id) >= MIN_DELAY

    passenger = ctx.pick("passengers", fits)
    prompt = ctx.say(
        "Is my next trip running late? I'm {email}. How many minutes behind schedule is it?",
        "Hi, {name} here ({email}). How late is my upcoming train or bus today, in minutes?",
        "Account {email}: check the live status of my next booked trip and tell me the "
        "delay in minutes.",
        email=passenger.email,
        name=passenger.name.split()[0],
    )
    steps = [
        RefStep(tool="find_passengers", args={"email": passenger.email}),
        RefStep(
            tool="list_bookings",
            args={"passenger_id": ref(0, "results", 0, "passenger_id"), "status": "confirmed"},
        ),
        delay_step(delay_source(ctx), ref(1, "results", 0, "trip_id")),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "delay_min"]]))


RIDE_WORDS = {"premium": "a premium car", "xl": "an XL car", "shared": "a shared ride"}


def ride_after_arrival(ctx: TemplateContext) -> Draft:
    """Sequential: booking -> its trip -> a ride from the arrival station; the ride's price."""
    stations = ctx.world.table("stations")

    booking = ctx.pick("bookings", lambda b: b.status == "confirmed")
    arrival = stations[booking.destination_station_id]
    others = [
        s
        for s in ctx.rows("stations", lambda s: s.city == arrival.city)
        if s.station_id != arrival.station_id
    ]
    dropoff = ctx.rng.choice(others)
    ride_type = ctx.rng.choice(sorted(RIDE_WORDS))
    prompt = ctx.say(
        "When I get off my trip on booking {bk}, I'll need {car} from the arrival station to "
        "{to}. What will that ride cost?",
        "Booking {bk}: after I arrive, how much is {car} from the station I arrive at over "
        "to {to}?",
        "Price {car} for me from wherever booking {bk} drops me off to {to}.",
        bk=booking.booking_id,
        car=RIDE_WORDS[ride_type],
        to=_spoken(ctx, dropoff.station_id),
    )
    steps = [
        RefStep(tool="get_booking", args={"booking_id": booking.booking_id}),
        RefStep(tool="get_trip", args={"trip_id": ref(0, "trip_id")}),
        RefStep(
            tool="ride_estimate",
            args={
                "pickup": ref(1, "destination_station_id"),
                "dropoff": _arg(ctx, dropoff.station_id),
                "ride_type": ride_type,
            },
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "fare_usd"]], round=2)
    return Draft(prompt, steps, answer)


def booked_trip_emissions(ctx: TemplateContext) -> Draft:
    """Sequential: booking -> trip -> emissions estimate for its distance and mode."""
    booking = ctx.pick("bookings", lambda b: b.status != "cancelled")
    prompt = ctx.say(
        "What's the carbon footprint of my trip on booking {bk}, in kg of CO2 per passenger?",
        "For sustainability reporting: estimate the CO2 (kg) of the journey booked under {bk}.",
        "How many kilograms of CO2 does the trip on booking {bk} emit for one passenger?",
        bk=booking.booking_id,
    )
    steps = [
        RefStep(tool="get_booking", args={"booking_id": booking.booking_id}),
        RefStep(tool="get_trip", args={"trip_id": ref(0, "trip_id")}),
        RefStep(
            tool="estimate_co2",
            args={"distance_km": ref(1, "distance_km"), "mode": ref(1, "mode")},
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "co2_kg"]], round=2)
    return Draft(prompt, steps, answer)


def next_departure_delay(ctx: TemplateContext) -> Draft:
    """Sequential: find the station -> today's departures -> the first after a time; its delay."""
    today = ctx.day(0)
    live = ctx.world.table("operator_feed")
    station = ctx.pick("stations", lambda s: len(_departures(ctx, s.station_id, today)) >= 3)
    trips = _departures(ctx, station.station_id, today)
    index = ctx.rng.randrange(1, min(len(trips), 5))  # get_departures lists five
    after = trips[index - 1].departure_time
    if trips[index].departure_time == after or trips[index].trip_id not in live:
        raise NoFit("no single next departure with a live status")
    if _delay(ctx, trips[index].trip_id) < MIN_DELAY:
        raise NoFit("the departure is not late enough to matter")
    prompt = ctx.say(
        "Today ({date}) I'm at {st}. The first service leaving after {t}: how many minutes "
        "late is it running?",
        "On {date}, what's the live delay, in minutes, of the first departure from {st} after {t}?",
        date=_date_text(ctx, today),
        st=_spoken(ctx, station.station_id),
        t=after,
    )
    steps = [
        RefStep(tool="find_stations", args={"query": station.name, "city": station.city}),
        RefStep(
            tool="get_departures",
            args={"station": ref(0, "results", 0, "station_id"), "date": today},
        ),
        delay_step(delay_source(ctx), ref(1, "results", index, "trip_id")),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "delay_min"]]))


def worst_delay_of_three(ctx: TemplateContext) -> Draft:
    """Parallel: live status of k of today's trips; the worst delay."""
    k = ctx.count(3, 6)
    late = {t for t, s in ctx.world.table("operator_feed").items() if s.delay_min > 0}
    trips = ctx.sample("trips", k, lambda t: t.trip_id in late)
    delays = [_delay(ctx, t.trip_id) for t in trips]
    if max(delays) < MIN_DELAY or not _distinct(delays):
        raise NoFit("delays must differ and one must matter")
    prompt = ctx.say(
        "{n} of our crews are on trips {all} today. What's the longest delay among them, in "
        "minutes?",
        "How late is the most delayed of trips {all} right now (minutes)?",
        "Check live delays for {all}; I need the worst one in minutes.",
        n=["Three", "Four", "Five", "Six"][k - 3],
        all=listing([t.trip_id for t in trips]),
    )
    tool = delay_source(ctx)
    steps = [delay_step(tool, t.trip_id) for t in trips]
    answer = AnswerSpec(op="max", refs=[[i, "delay_min"] for i in range(k)])
    return Draft(prompt, steps, answer)


def board_delays_total(ctx: TemplateContext) -> Draft:
    """Parallel: departure-board lines of k of today's services; total delay."""
    k = ctx.count(3, 5)
    board = ctx.world.table("board_feed")
    late = ctx.rows("trips", lambda t: t.trip_id in board and board[t.trip_id].delay_min > 0)
    on_time = ctx.rows("trips", lambda t: t.trip_id in board and board[t.trip_id].delay_min == 0)
    trips = ctx.rng.sample(late, k - 1) + ctx.rng.sample(on_time + late, 1)
    if len({t.trip_id for t in trips}) < k:
        raise NoFit(f"{k} different services needed")
    ctx.rng.shuffle(trips)
    unnamed = ctx.unnamed_source(DELAY_SOURCES)
    phrasings = (
        (
            "What do the station boards say about services {all} today? Add up their "
            "delays in minutes.",
            "Our group is split over services {all}. Going by the station boards, how many "
            "minutes of delay is that in total?",
            "Check the station boards for {all} and give me the sum of their delays (minutes).",
        )
        if unnamed is None
        else (
            "How late are services {all} running? Add up their delays in minutes.",
            "Our group is split over services {all}. How many minutes of delay is that in total?",
        )
    )
    prompt = ctx.say(*phrasings, all=listing([t.trip_id for t in trips]))
    tool = unnamed or "station_board_status"
    steps = [delay_step(tool, t.trip_id) for t in trips]
    answer = AnswerSpec(op="sum", refs=[[i, "delay_min"] for i in range(k)])
    return Draft(prompt, steps, answer)


def late_trips_total(ctx: TemplateContext) -> Draft:
    """Parallel: live delays of k trips, from a source the request leaves open; their total."""
    k = ctx.count(3, 6)
    late = {t for t, s in ctx.world.table("operator_feed").items() if s.delay_min > 0}
    trips = ctx.sample("trips", k, lambda t: t.trip_id in late)
    prompt = ctx.say(
        "Our crews are on trips {all}. How many minutes of delay are they running in total?",
        "Add up the live delays of trips {all} for me, in minutes.",
        "{N} of our shipments ride on trips {all}. What's their combined delay in minutes?",
        all=listing([t.trip_id for t in trips]),
        N=["Three", "Four", "Five", "Six"][k - 3],
    )
    tool = unnamed_delay_source(ctx)
    steps = [delay_step(tool, t.trip_id) for t in trips]
    return Draft(prompt, steps, AnswerSpec(op="sum", refs=[[i, "delay_min"] for i in range(k)]))


def ride_budget(ctx: TemplateContext) -> Draft:
    """Parallel: k standard rides in k cities; the total fare."""
    k = ctx.count(3, 5)
    cities = ctx.rng.sample(sorted({s.city for s in ctx.rows("stations")}), k)
    rides = []
    for city in cities:
        here = [s for s in ctx.rows("stations") if s.city == city]
        rides.append(ctx.rng.sample(here, 2))
    legs = [f"{_spoken(ctx, a.station_id)} to {_spoken(ctx, b.station_id)}" for a, b in rides]
    prompt = ctx.say(
        "Next week I need {n} standard rides: {semi}. What's the total estimated fare?",
        "Estimate regular ride-share fares for {all}, and add them up for me.",
        n=["three", "four", "five"][k - 3],
        semi="; ".join(legs[:-1]) + "; and " + legs[-1],
        all=listing(legs),
    )
    steps = [
        RefStep(
            tool="ride_estimate",
            args={"pickup": _arg(ctx, a.station_id), "dropoff": _arg(ctx, b.station_id)},
        )
        for a, b in rides
    ]
    answer = AnswerSpec(op="sum", refs=[[i, "fare_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def quickest_departure_window(ctx: TemplateContext) -> Draft:
    """Parallel: plan the same journey from k start times; the shortest total time."""
    day = ctx.day(ctx.rng.randint(1, 4))
    routes = ctx.rows("routes")
    ends = {(r.origin_station_id, r.destination_station_id) for r in routes}
    starts = sorted({r.origin_station_id for r in routes})
    origin = ctx.rng.choice(starts)
    reach = sorted(
        {
            r2.destination_station_id
            for r1 in routes
            if r1.origin_station_id == origin
            for r2 in routes
            if r2.origin_station_id == r1.destination_station_id
            and r2.destination_station_id != origin
            and (origin, r2.destination_station_id) not in ends
        }
    )
    if not reach:
        raise NoFit("no journey with a change from here")
    destination = ctx.rng.choice(reach)
    k = ctx.count(3, 5)
    times = sorted(ctx.rng.sample(["06:00", "07:30", "09:00", "11:00", "13:00", "15:30"], k))
    prompt = ctx.say(
        "I'm going from {a} to {b} on {date}. Leaving after {ors}: which gives the shortest "
        "total journey time? Tell me that time in minutes.",
        "Plan {a} to {b} on {date} {n} ways: departing after {all}. What's the shortest "
        "door-to-door duration in minutes among them?",
        a=_spoken(ctx, origin),
        b=_spoken(ctx, destination),
        date=_date_text(ctx, day),
        ors=", ".join(times[:-1]) + " or " + times[-1],
        all=listing(times),
        n=["three", "four", "five"][k - 3],
    )
    steps = [
        RefStep(
            tool="plan_journey",
            args={
                "origin": _arg(ctx, origin),
                "destination": _arg(ctx, destination),
                "date": day,
                "depart_after": t,
            },
        )
        for t in times
    ]
    answer = AnswerSpec(op="min", refs=[[i, "total_duration_min"] for i in range(k)])
    return Draft(prompt, steps, answer)


def board_worst_delay(ctx: TemplateContext) -> Draft:
    """Mixture: today's departures, then the board lines of the first k; worst delay."""
    today = ctx.day(0)
    k = ctx.count(2, 5)

    def fits(station: Any) -> bool:
        first = _departures(ctx, station.station_id, today)[:k]
        delays = [_delay(ctx, t.trip_id) for t in first]
        return len(first) == k and max(delays) >= MIN_DELAY

    station = ctx.pick("stations", fits)
    unnamed = ctx.unnamed_source(DELAY_SOURCES)
    phrasings = (
        (
            "Today is {date}. According to the station boards at {st}, how late was the worst "
            "of the first {n} departures today, in minutes?",
            "On {date}, check the station boards at {st} for the first {n} services of the "
            "day and tell me the biggest delay among them (minutes).",
        )
        if unnamed is None
        else (
            "Today is {date}. How late was the worst of the first {n} departures from {st} "
            "today, in minutes?",
            "On {date}, look at the first {n} services of the day from {st} and tell me the "
            "biggest delay among them (minutes).",
        )
    )
    tool = unnamed or "station_board_status"
    prompt = ctx.say(
        *phrasings,
        date=_date_text(ctx, today),
        st=_spoken(ctx, station.station_id),
        n=["two", "three", "four", "five"][k - 2],
    )
    steps = [
        RefStep(
            tool="get_departures", args={"station": _arg(ctx, station.station_id), "date": today}
        )
    ]
    steps += [delay_step(tool, ref(0, "results", i, "trip_id")) for i in range(k)]
    answer = AnswerSpec(op="max", refs=[[1 + i, "delay_min"] for i in range(k)])
    return Draft(prompt, steps, answer)


def journey_leg_delays(ctx: TemplateContext) -> Draft:
    """Mixture: plan today's journey with a change, then both legs' live delays; their sum."""
    today = ctx.day(0)
    now = _now(ctx)
    live = ctx.world.table("operator_feed")
    routes = ctx.rows("routes")
    ends = {(r.origin_station_id, r.destination_station_id) for r in routes}
    pairs = sorted(
        {
            (r1.origin_station_id, r2.destination_station_id)
            for r1 in routes
            for r2 in routes
            if r2.origin_station_id == r1.destination_station_id
            and r2.destination_station_id != r1.origin_station_id
            and (r1.origin_station_id, r2.destination_station_id) not in ends
        }
    )
    ctx.rng.shuffle(pairs)
    for origin, destination in pairs[:40]:
        after = f"{now.hour + ctx.rng.randint(0, 3):02d}:{ctx.rng.choice((0, 15, 30, 45)):02d}"
        try:
            plan = ctx.domain.tools["plan_journey"](
                ctx.world, origin=origin, destination=destination, date=today, depart_after=after
            )
        except ToolError:
            continue
        legs = [leg["trip_id"] for leg in plan["legs"]]
        if (
            len(legs) == 2
            and all(t in live for t in legs)
            and sum(_delay(ctx, t) for t in legs) >= MIN_DELAY
        ):
            break
    else:
        raise NoFit("no journey with a change and late legs today")
    prompt = ctx.say(
        "I'm travelling from {a} to {b} today ({date}), leaving after {t}. Plan the quickest "
        "journey and tell me how many minutes of delay the two legs are running in total.",
        "Today, {date}, I go {a} -> {b}, departing after {t} with one change. Add up the "
        "current delays of both legs of the best connection (minutes).",
        a=_spoken(ctx, origin),
        b=_spoken(ctx, destination),
        date=_date_text(ctx, today),
        t=after,
    )
    steps = [
        RefStep(
            tool="plan_journey",
            args={
                "origin": _arg(ctx, origin),
                "destination": _arg(ctx, destination),
                "date": today,
                "depart_after": after,
            },
        )
    ]
    tool = delay_source(ctx)
    steps += [delay_step(tool, ref(0, "legs", i, "trip_id")) for i in range(2)]
    answer = AnswerSpec(op="sum", refs=[[1, "delay_min"], [2, "delay_min"]])
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="live delays and journeys",
    templates={
        "sequential": [
            my_next_train_delay,
            ride_after_arrival,
            booked_trip_emissions,
            next_departure_delay,
        ],
        "parallel": [
            worst_delay_of_three,
            board_delays_total,
            ride_budget,
            quickest_departure_window,
            late_trips_total,
        ],
        "mixture": [board_worst_delay, journey_leg_delays],
    },
)
