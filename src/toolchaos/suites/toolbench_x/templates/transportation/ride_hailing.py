"""Transportation subtopic "ride hailing": car rides between stations, fares and car types."""

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
    _spoken,
)

RIDE_TYPES = {
    "standard": "a standard car",
    "shared": "a shared ride",
    "xl": "an XL car",
    "premium": "a premium car",
}
# (result field, how a person asks for it, digits)
_ASKS = (
    ("fare_usd", "how much will it cost (USD)", 2),
    ("duration_min", "how many minutes will the ride take", None),
    ("distance_km", "how many km is the drive", 1),
)


def _estimate(pickup: Any, dropoff: Any, ride: Any) -> RefStep:
    """The reference step that quotes one ride (each end an id, a name or a ref)."""
    return RefStep(
        tool="ride_estimate", args={"pickup": pickup, "dropoff": dropoff, "ride_type": ride}
    )


def _pair(ctx: TemplateContext) -> tuple[Any, Any]:
    """Two different stations of one city (a ride stays inside a city)."""
    first = ctx.pick("stations", lambda s: sum(t.city == s.city for t in ctx.rows("stations")) > 1)
    second = ctx.pick(
        "stations", lambda s: s.city == first.city and s.station_id != first.station_id
    )
    return first, second


def _neighbours(ctx: TemplateContext, station: Any) -> list[Any]:
    """The other stations of ``station``'s city."""
    return ctx.rows(
        "stations", lambda s: s.city == station.city and s.station_id != station.station_id
    )


def ride_then_footprint(ctx: TemplateContext) -> Draft:
    """Sequential: find the pickup station -> ride estimate -> the ride's CO2 by a mode."""
    pickup, dropoff = _pair(ctx)
    ride = ctx.rng.choice(sorted(RIDE_TYPES))
    mode, words = ctx.rng.choice([("taxi", "by taxi"), ("car", "driving myself instead")])
    prompt = ctx.say(
        "I need {car} from {a} to {b}. Estimate the ride, then tell me the CO2 of that "
        "distance {words}, in kg.",
        "Thinking of {car} between {a} and {b}. What's the carbon footprint (kg CO2) of the "
        "distance the ride estimate gives, {words}?",
        car=RIDE_TYPES[ride],
        a=_spoken(ctx, pickup.station_id),
        b=_spoken(ctx, dropoff.station_id),
        words=words,
    )
    steps = [
        RefStep(tool="find_stations", args={"query": pickup.name, "city": pickup.city}),
        _estimate(ref(0, "results", 0, "station_id"), _arg(ctx, dropoff.station_id), ride),
        RefStep(tool="estimate_co2", args={"distance_km": ref(1, "distance_km"), "mode": mode}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "co2_kg"]], round=2))


def ride_to_my_departure(ctx: TemplateContext) -> Draft:
    """Sequential: passenger by email -> next confirmed booking -> (its trip ->) a ride there.

    The booking names the departure station; asking for the trip's service first makes
    the chain one step longer.
    """
    confirmed = _confirmed(ctx)
    passenger = ctx.pick("passengers", lambda p: bool(confirmed.get(p.passenger_id)))
    booking = confirmed[passenger.passenger_id][0]
    stations = ctx.world.table("stations")
    origin = stations[booking.origin_station_id]
    others = _neighbours(ctx, origin)
    if not others:
        raise NoFit("no other station in the departure city")
    pickup = ctx.rng.choice(others)
    ride = ctx.rng.choice(sorted(RIDE_TYPES))
    field, asks, digits = ctx.rng.choice(_ASKS)
    if field == "duration_min" and ride == "shared":
        raise NoFit("a shared ride's time is a guess")
    asked = asks[0].upper() + asks[1:]
    if ctx.rng.random() < 0.5:
        prompt = ctx.say(
            "I'm {email}. I'll be at {at} and need {car} to the station my next booked trip "
            "leaves from. {Asks}?",
            "Account {email}: get me {car} from {at} to the departure station of my upcoming "
            "booking. {Asks}?",
            email=passenger.email,
            at=_spoken(ctx, pickup.station_id),
            car=RIDE_TYPES[ride],
            Asks=asked,
        )
        steps = [
            RefStep(tool="find_passengers", args={"email": passenger.email}),
            RefStep(
                tool="list_bookings",
                args={
                    "passenger_id": ref(0, "results", 0, "passenger_id"),
                    "status": "confirmed",
                },
            ),
        ]
        station = ref(1, "results", 0, "origin_station_id")
    else:
        prompt = ctx.say(
            "I'll be at {at} before the trip on my booking {bk}. I need {car} to the station "
            "that trip leaves from. {Asks}?",
            "Booking {bk}: get me {car} from {at} to where that trip departs. {Asks}?",
            bk=booking.booking_id,
            at=_spoken(ctx, pickup.station_id),
            car=RIDE_TYPES[ride],
            Asks=asked,
        )
        steps = [
            RefStep(tool="get_booking", args={"booking_id": booking.booking_id}),
            RefStep(tool="get_trip", args={"trip_id": ref(0, "trip_id")}),
        ]
        station = ref(1, "origin_station_id")
    steps.append(_estimate(_arg(ctx, pickup.station_id), station, ride))
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=digits))


def ride_home_after_trip(ctx: TemplateContext) -> Draft:
    """Sequential: passenger by email (or a booking id) -> next booking -> trip -> a ride on."""
    confirmed = _confirmed(ctx)
    passenger = ctx.pick("passengers", lambda p: bool(confirmed.get(p.passenger_id)))
    booking = confirmed[passenger.passenger_id][0]
    arrival = ctx.world.table("stations")[booking.destination_station_id]
    others = _neighbours(ctx, arrival)
    if not others:
        raise NoFit("no other station in the arrival city")
    dropoff = ctx.rng.choice(others)
    ride = ctx.rng.choice(sorted(RIDE_TYPES))
    field, asks = ctx.rng.choice(
        [
            ("fare_usd", "what will it cost, in USD"),
            ("pickup_eta_min", "how long will I wait for the driver, in minutes"),
        ]
    )
    if ctx.rng.random() < 0.5:
        prompt = ctx.say(
            "This is {email}. When my next booked trip arrives I want {car} from the arrival "
            "station on to {to}; {asks}?",
            "I'm {email}. Check the trip on my upcoming booking and quote {car} from where it "
            "arrives to {to}: {asks}?",
            email=passenger.email,
            car=RIDE_TYPES[ride],
            to=_spoken(ctx, dropoff.station_id),
            asks=asks,
        )
        steps = [
            RefStep(tool="find_passengers", args={"email": passenger.email}),
            RefStep(
                tool="list_bookings",
                args={
                    "passenger_id": ref(0, "results", 0, "passenger_id"),
                    "status": "confirmed",
                },
            ),
            RefStep(tool="get_trip", args={"trip_id": ref(1, "results", 0, "trip_id")}),
        ]
    else:
        prompt = ctx.say(
            "After the trip on booking {bk} gets in, I want {car} from its arrival station "
            "to {to}; {asks}?",
            "Quote {car} from wherever booking {bk} arrives to {to}: {asks}?",
            bk=booking.booking_id,
            car=RIDE_TYPES[ride],
            to=_spoken(ctx, dropoff.station_id),
            asks=asks,
        )
        steps = [
            RefStep(tool="get_booking", args={"booking_id": booking.booking_id}),
            RefStep(tool="get_trip", args={"trip_id": ref(0, "trip_id")}),
        ]
    last = len(steps) - 1
    steps.append(
        _estimate(ref(last, "destination_station_id"), _arg(ctx, dropoff.station_id), ride)
    )
    digits = 2 if field == "fare_usd" else None
    answer = AnswerSpec(op="value", refs=[[last + 1, field]], round=digits)
    return Draft(prompt, steps, answer)


def car_types_compared(ctx: TemplateContext) -> Draft:
    """Parallel: one ride in three or four car types; the cheapest or dearest fare."""
    pickup, dropoff = _pair(ctx)
    rides = ctx.rng.sample(sorted(RIDE_TYPES), ctx.count(3, 4))
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "the cheapest", "max": "the most expensive"}[op]
    cars = listing([RIDE_TYPES[r] for r in rides]).replace(" and ", " or ")
    prompt = ctx.say(
        "From {a} to {b}, compare {cars}. What's {words} fare?",
        "Price me a ride {a} -> {b} as {cars}; tell me {words} of them.",
        "Which is {words} way to get from {a} to {b}: {cars}? Just the fare.",
        a=_spoken(ctx, pickup.station_id),
        b=_spoken(ctx, dropoff.station_id),
        cars=cars,
        words=words,
    )
    steps = [
        _estimate(_arg(ctx, pickup.station_id), _arg(ctx, dropoff.station_id), r) for r in rides
    ]
    answer = AnswerSpec(op=op, refs=[[i, "fare_usd"] for i in range(len(rides))], round=2)
    return Draft(prompt, steps, answer)


def rides_from_one_station(ctx: TemplateContext) -> Draft:
    """Parallel: rides from one station to k others of its city; the quickest, dearest or sum."""
    pickup = ctx.pick("stations", lambda s: len(_neighbours(ctx, s)) >= 3)
    others = _neighbours(ctx, pickup)
    k = ctx.count(3, len(others))
    drops = ctx.rng.sample(others, k)
    ride = ctx.rng.choice(sorted(set(RIDE_TYPES) - {"shared"}))
    field, op, asks, digits = ctx.rng.choice(
        [
            ("fare_usd", "sum", "what the rides cost altogether, in USD", 2),
            ("fare_usd", "max", "the fare of the most expensive ride, in USD", 2),
            ("duration_min", "min", "how many minutes the quickest ride takes", None),
            ("distance_km", "max", "how many km the longest ride is", 1),
        ]
    )
    prompt = ctx.say(
        "I'm running errands from {a} by {car}: separate rides to {to}. Tell me {asks}.",
        "Quote {car} from {a} to each of {to}, one ride each. I need {asks}.",
        a=_spoken(ctx, pickup.station_id),
        car=RIDE_TYPES[ride],
        to=listing([_spoken(ctx, s.station_id) for s in drops]),
        asks=asks,
    )
    steps = [_estimate(_arg(ctx, pickup.station_id), _arg(ctx, s.station_id), ride) for s in drops]
    answer = AnswerSpec(op=op, refs=[[i, field] for i in range(k)], round=digits)
    return Draft(prompt, steps, answer)


def ride_between_found_stations(ctx: TemplateContext) -> Draft:
    """Mixture: find both stations apart -> one ride estimate between them."""
    pickup, dropoff = _pair(ctx)
    ride = ctx.rng.choice(sorted(RIDE_TYPES))
    field, question, digits = ctx.rng.choice(_ASKS)
    if field == "duration_min" and ride == "shared":
        raise NoFit("a shared ride's time is a guess")
    prompt = ctx.say(
        "In {city}, I'm taking {car} from {a} to {b}. " + question.capitalize() + "?",
        "Getting across {city}: {car}, {a} to {b}. " + question.capitalize() + "?",
        city=pickup.city,
        car=RIDE_TYPES[ride],
        a=pickup.name,
        b=dropoff.name,
    )
    steps = [
        RefStep(tool="find_stations", args={"query": s.name, "city": s.city})
        for s in (pickup, dropoff)
    ]
    steps.append(
        _estimate(ref(0, "results", 0, "station_id"), ref(1, "results", 0, "station_id"), ride)
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=digits))


def rides_to_found_stations(ctx: TemplateContext) -> Draft:
    """Mixture: find k destination stations -> a ride from one pickup to each; an extreme."""
    pickup = ctx.pick("stations", lambda s: len(_neighbours(ctx, s)) >= 2)
    others = _neighbours(ctx, pickup)
    k = ctx.count(2, len(others))
    drops = ctx.rng.sample(others, k)
    ride = ctx.rng.choice(sorted(set(RIDE_TYPES) - {"shared"}))
    op, asks = ctx.rng.choice(
        [
            ("min", "the cheapest of those fares"),
            ("max", "the dearest of those fares"),
            ("sum", "the fares added up"),
        ]
    )
    prompt = ctx.say(
        "In {city}, starting at {a}, price {car} to each of {to}. I want {asks}, in USD.",
        "From {a} ({city}) I have to visit {to}, one ride each by {car}. Give me {asks}.",
        city=pickup.city,
        a=pickup.name,
        to=listing([s.name for s in drops]),
        car=RIDE_TYPES[ride],
        asks=asks,
    )
    steps = [RefStep(tool="find_stations", args={"query": s.name, "city": s.city}) for s in drops]
    steps += [
        _estimate(_arg(ctx, pickup.station_id), ref(i, "results", 0, "station_id"), ride)
        for i in range(k)
    ]
    answer = AnswerSpec(op=op, refs=[[k + i, "fare_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="ride hailing",
    templates={
        "sequential": [ride_then_footprint, ride_to_my_departure, ride_home_after_trip],
        "parallel": [car_types_compared, rides_from_one_station],
        "mixture": [ride_between_found_stations, rides_to_found_stations],
    },
)
