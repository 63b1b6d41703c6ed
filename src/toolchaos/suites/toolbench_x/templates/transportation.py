"""Transportation subtopics: rail and bus schedules, fares and bookings, live delays and journeys.

Each template picks entities from the seeded world and writes the request a traveller or
a travel desk would make; the answer comes from replaying the path, never from here.
Templates read the world only to choose entities the path can serve (a second departure
that exists, delays that differ, a booking that can still be cancelled).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from typing import Any

from toolchaos.core.errors import ToolError
from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref

TOPIC = "transportation and mobility"
DOMAIN = "transportation"
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# Delay answers below this are too small to tell apart from incidental numbers.
MIN_DELAY = 12
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


# -- reading the world ---------------------------------------------------------------------


def _now(ctx: TemplateContext) -> datetime:
    now: datetime = ctx.world.now()
    return now


def _today(ctx: TemplateContext) -> date:
    return _now(ctx).date()


def _day(ctx: TemplateContext, offset: int) -> str:
    return (_today(ctx) + timedelta(days=offset)).isoformat()


def _station(ctx: TemplateContext, station_id: str) -> Any:
    return ctx.world.table("stations")[station_id]


def _shared_name(ctx: TemplateContext, name: str) -> bool:
    return len(ctx.rows("stations", lambda s: s.name == name)) > 1


def _arg(ctx: TemplateContext, station_id: str) -> str:
    """The station as a tool argument: its name, with the city when the name recurs."""
    station = _station(ctx, station_id)
    if _shared_name(ctx, station.name):
        return f"{station.name}, {station.city}"
    return str(station.name)


def _spoken(ctx: TemplateContext, station_id: str) -> str:
    """The station as a person names it."""
    station = _station(ctx, station_id)
    if _shared_name(ctx, station.name):
        return ctx.rng.choice(
            (f"{station.name} in {station.city}", f"{station.city} {station.name}")
        )
    return str(station.name) if station.city in station.name else f"{station.name} ({station.city})"


def _date_text(ctx: TemplateContext, iso: str) -> str:
    """A date the way people write it, always with the year."""
    day = date.fromisoformat(iso)
    return ctx.rng.choice(
        (
            iso,
            f"{MONTHS[day.month - 1]} {day.day}, {day.year}",
            f"{WEEKDAYS[day.weekday()]}, {MONTHS[day.month - 1]} {day.day}, {day.year}",
            f"{day.day} {MONTHS[day.month - 1]} {day.year}",
        )
    )


def _departs(trip: Any) -> datetime:
    return datetime.fromisoformat(f"{trip.departure_date}T{trip.departure_time}:00+00:00")


def _future(ctx: TemplateContext, trip: Any, hours: float = 0) -> bool:
    return _departs(trip) > _now(ctx) + timedelta(hours=hours)


def _departures(ctx: TemplateContext, station_id: str, day: str) -> list[Any]:
    rows = ctx.rows(
        "trips", lambda t: t.origin_station_id == station_id and t.departure_date == day
    )
    return sorted(rows, key=lambda t: (t.departure_time, t.trip_id))


def _direct(ctx: TemplateContext, origin: str, destination: str, day: str) -> list[Any]:
    rows = ctx.rows(
        "trips",
        lambda t: (
            (t.origin_station_id, t.destination_station_id, t.departure_date)
            == (origin, destination, day)
        ),
    )
    return sorted(rows, key=lambda t: (t.departure_time, t.trip_id))


def _confirmed(ctx: TemplateContext) -> dict[str, list[Any]]:
    """Each passenger's confirmed bookings, soonest departure first."""
    out: dict[str, list[Any]] = defaultdict(list)
    for booking in ctx.rows("bookings", lambda b: b.status == "confirmed"):
        out[booking.passenger_id].append(booking)
    for rows in out.values():
        rows.sort(key=lambda b: (b.departure_date, b.departure_time, b.booking_id))
    return out


def _trip(ctx: TemplateContext, trip_id: str) -> Any:
    return ctx.world.table("trips")[trip_id]


def _delay(ctx: TemplateContext, trip_id: str) -> int:
    delay: int = ctx.world.table("operator_feed")[trip_id].delay_min
    return delay


def _distinct(values: list[Any]) -> bool:
    return len(set(values)) == len(values)


def _ids(trips: list[Any]) -> dict[str, str]:
    return {k: t.trip_id for k, t in zip("abc", trips, strict=False)}


# -- rail and bus schedules ------------------------------------------------------------------


def second_departure_route_length(ctx: TemplateContext) -> Draft:
    """Sequential: departures board -> the day's second departure -> its route's length."""
    day = _day(ctx, ctx.rng.randint(1, 4))
    station = ctx.pick("stations", lambda s: len(_departures(ctx, s.station_id, day)) >= 2)
    prompt = ctx.say(
        "What is the second departure of the day from {st} on {date}, and how long is the "
        "route it runs on? I need the route length in kilometres.",
        "I'm catching the second service out of {st} on {date}. How many km is that route?",
        "Look up the departures from {st} on {date}; for the second one, tell me the length "
        "of its route in kilometres.",
        st=_spoken(ctx, station.station_id),
        date=_date_text(ctx, day),
    )
    steps = [
        RefStep(
            tool="get_departures", args={"station": _arg(ctx, station.station_id), "date": day}
        ),
        RefStep(tool="get_trip", args={"trip_id": ref(0, "results", 1, "trip_id")}),
        RefStep(tool="get_route", args={"route_id": ref(1, "route_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "distance_km"]], round=1))


def second_rail_trip_arrival(ctx: TemplateContext) -> Draft:
    """Sequential: resolve the origin -> rail trips to the destination -> the second's arrival."""
    day = _day(ctx, ctx.rng.randint(1, 4))
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
    prompt = ctx.say(
        "Hi, I'm {name} ({email}). I have a few trips booked; on what date does the second "
        "of my upcoming trips leave?",
        "Account {email} here. Which day is my second upcoming booked trip?",
        "Can you check my bookings under {email} and tell me the departure date of my "
        "next-but-one trip?",
        name=passenger.name.split()[0],
        email=passenger.email,
    )
    steps = [
        RefStep(tool="find_passengers", args={"email": passenger.email}),
        RefStep(
            tool="list_bookings",
            args={"passenger_id": ref(0, "results", 0, "passenger_id"), "status": "confirmed"},
        ),
        RefStep(tool="get_trip", args={"trip_id": ref(1, "results", 1, "trip_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "departure_date"]]))


def itinerary_distance(ctx: TemplateContext) -> Draft:
    """Parallel: three trips looked up independently; total distance."""
    trips = ctx.sample("trips", 3, lambda t: _future(ctx, t))
    if not _distinct([t.route_id for t in trips]):
        raise NoFit("trips must be on different routes")
    prompt = ctx.say(
        "My itinerary uses trips {a}, {b} and {c}. How many kilometres is that in total?",
        "Add up the distance covered by trips {a}, {b} and {c} for me, in km.",
        "What's the combined travel distance (km) of trips {a}, {b} and {c}?",
        **_ids(trips),
    )
    steps = [RefStep(tool="get_trip", args={"trip_id": t.trip_id}) for t in trips]
    answer = AnswerSpec(op="sum", refs=[[i, "distance_km"] for i in range(3)], round=1)
    return Draft(prompt, steps, answer)


def longest_trip_arrival(ctx: TemplateContext) -> Draft:
    """Parallel: three trips; when does the longest ride arrive?"""
    trips = ctx.sample("trips", 3, lambda t: _future(ctx, t))
    if not _distinct([t.duration_min for t in trips]) or not _distinct(
        [t.arrival_time for t in trips]
    ):
        raise NoFit("trips must differ in duration and arrival time")
    prompt = ctx.say(
        "I'm comparing trips {a}, {b} and {c}. Which one is the longest ride, and what time "
        "does it arrive? The arrival time is all I need.",
        "Of trips {a}, {b} and {c}, take the one that spends the most time on the road or "
        "rails and tell me when it arrives.",
        **_ids(trips),
    )
    steps = [RefStep(tool="get_trip", args={"trip_id": t.trip_id}) for t in trips]
    answer = AnswerSpec(
        op="argmax",
        refs=[[i, "duration_min"] for i in range(3)],
        labels=[ref(i, "arrival_time") for i in range(3)],
    )
    return Draft(prompt, steps, answer)


def second_departures_distance(ctx: TemplateContext) -> Draft:
    """Mixture: two departure boards in parallel, then each second departure; total km."""
    day = _day(ctx, ctx.rng.randint(1, 4))
    stations = ctx.sample("stations", 2, lambda s: len(_departures(ctx, s.station_id, day)) >= 2)
    prompt = ctx.say(
        "On {date} I'll ride the second departure from {a} and, separately, the second "
        "departure from {b}. How many kilometres do those two trips cover together?",
        "Check the departures from {a} and from {b} on {date}. Taking the second departure "
        "at each, what's their combined distance in km?",
        a=_spoken(ctx, stations[0].station_id),
        b=_spoken(ctx, stations[1].station_id),
        date=_date_text(ctx, day),
    )
    steps = [
        RefStep(tool="get_departures", args={"station": _arg(ctx, s.station_id), "date": day})
        for s in stations
    ]
    steps += [
        RefStep(tool="get_trip", args={"trip_id": ref(i, "results", 1, "trip_id")})
        for i in range(2)
    ]
    answer = AnswerSpec(op="sum", refs=[[2, "distance_km"], [3, "distance_km"]], round=1)
    return Draft(prompt, steps, answer)


def longest_of_first_departures(ctx: TemplateContext) -> Draft:
    """Mixture: departures board, then the first three trips fanned out; longest arrives when?"""
    day = _day(ctx, ctx.rng.randint(1, 4))

    def fits(station: Any) -> bool:
        first = _departures(ctx, station.station_id, day)[:3]
        return (
            len(first) == 3
            and _distinct([t.duration_min for t in first])
            and _distinct([t.arrival_time for t in first])
        )

    station = ctx.pick("stations", fits)
    prompt = ctx.say(
        "Of the first three departures from {st} on {date}, which is the longest ride? "
        "Tell me what time it arrives.",
        "Look at the first three services leaving {st} on {date} and give me the arrival "
        "time of the one with the longest journey.",
        st=_spoken(ctx, station.station_id),
        date=_date_text(ctx, day),
    )
    steps = [
        RefStep(tool="get_departures", args={"station": _arg(ctx, station.station_id), "date": day})
    ]
    steps += [
        RefStep(tool="get_trip", args={"trip_id": ref(0, "results", i, "trip_id")})
        for i in range(3)
    ]
    answer = AnswerSpec(
        op="argmax",
        refs=[[1 + i, "duration_min"] for i in range(3)],
        labels=[ref(1 + i, "arrival_time") for i in range(3)],
    )
    return Draft(prompt, steps, answer)


# -- fares and bookings ----------------------------------------------------------------------


def book_second_train_business(ctx: TemplateContext) -> Draft:
    """Sequential, writes: passenger -> rail trips -> book the second in business -> booking."""
    day = _day(ctx, ctx.rng.randint(1, 4))

    def fits(route: Any) -> bool:
        trips = _direct(ctx, route.origin_station_id, route.destination_station_id, day)
        return route.mode == "rail" and len(trips) >= 2 and trips[1].seats_business > 0

    route = ctx.pick("routes", fits)
    trip = _direct(ctx, route.origin_station_id, route.destination_station_id, day)[1]
    held = {b.passenger_id for b in ctx.rows("bookings", lambda b: b.trip_id == trip.trip_id)}
    passenger = ctx.pick("passengers", lambda p: p.passenger_id not in held)
    prompt = ctx.say(
        "This is {email}. Please book me a business-class seat on the second train of the "
        "day from {a} to {b} on {date}, and tell me what I'll be charged.",
        "Book business class for me ({email}) on the second rail departure {a} -> {b} on "
        "{date}. How much is the fare?",
        "I'd like the second train from {a} to {b} on {date}, business class. My account "
        "email is {email}. What does the booking cost?",
        email=passenger.email,
        a=_spoken(ctx, route.origin_station_id),
        b=_spoken(ctx, route.destination_station_id),
        date=_date_text(ctx, day),
    )
    steps = [
        RefStep(tool="find_passengers", args={"email": passenger.email}),
        RefStep(
            tool="search_trips",
            args={
                "origin": _arg(ctx, route.origin_station_id),
                "destination": _arg(ctx, route.destination_station_id),
                "date": day,
                "mode": "rail",
            },
        ),
        RefStep(
            tool="book_seat",
            args={
                "passenger_id": ref(0, "results", 0, "passenger_id"),
                "trip_id": ref(1, "results", 1, "trip_id"),
                "fare_class": "business",
            },
        ),
        RefStep(tool="get_booking", args={"booking_id": ref(2, "booking_id")}),
    ]
    answer = AnswerSpec(op="value", refs=[[3, "fare_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


REASONS = {
    "schedule_conflict": "something came up at work",
    "illness": "I'm not feeling well",
    "change_of_plans": "my plans changed",
    "found_alternative": "I'm getting a lift instead",
}


def cancel_second_trip(ctx: TemplateContext) -> Draft:
    """Sequential, writes: passenger -> confirmed bookings -> cancel the second; refund."""
    confirmed = _confirmed(ctx)
    passenger = ctx.pick(
        "passengers",
        lambda p: (
            len(confirmed.get(p.passenger_id, [])) >= 2
            and confirmed[p.passenger_id][0].departure_date
            != confirmed[p.passenger_id][1].departure_date
        ),
    )
    reason = ctx.rng.choice(sorted(REASONS))
    prompt = ctx.say(
        "I'm {email}. Please cancel the second of my upcoming booked trips, {why}. How much "
        "will be refunded?",
        "Cancel my next-but-one booked trip, please ({why}). Account: {email}. What refund "
        "do I get?",
        "{why_cap}, so I need to drop the second of my upcoming bookings (not the very next "
        "one). Email on file: {email}. Tell me the refund amount.",
        email=passenger.email,
        why=REASONS[reason],
        why_cap=REASONS[reason][0].upper() + REASONS[reason][1:],
    )
    steps = [
        RefStep(tool="find_passengers", args={"email": passenger.email}),
        RefStep(
            tool="list_bookings",
            args={"passenger_id": ref(0, "results", 0, "passenger_id"), "status": "confirmed"},
        ),
        RefStep(
            tool="cancel_booking",
            args={"booking_id": ref(1, "results", 1, "booking_id"), "reason": reason},
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "refund_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def move_booking_to_another_day(ctx: TemplateContext) -> Draft:
    """Sequential, writes: booking -> same route on another date -> move it; fare change."""

    def fits(booking: Any) -> bool:
        return booking.status == "confirmed" and _future(ctx, booking, hours=1)

    booking = ctx.pick("bookings", fits)
    days = [_day(ctx, k) for k in range(1, 5) if _day(ctx, k) != booking.departure_date]
    day = ctx.rng.choice(days)
    options = _direct(ctx, booking.origin_station_id, booking.destination_station_id, day)
    if not options or options[0].seats(booking.fare_class) < 1:
        raise NoFit("no seat on the first trip that day")
    if options[0].fare_usd(booking.fare_class) == booking.fare_usd:
        raise NoFit("the fares must differ")
    prompt = ctx.say(
        "Please move my booking {bk} to the first departure on {date}, same stations and "
        "class. What's the fare difference?",
        "I need to rebook {bk} onto the earliest trip on {date} between the same stations. "
        "How much more (or less) will it cost?",
        "Change booking {bk} to {date}, first service of the day on the same route, and "
        "tell me the difference in fare.",
        bk=booking.booking_id,
        date=_date_text(ctx, day),
    )
    steps = [
        RefStep(tool="get_booking", args={"booking_id": booking.booking_id}),
        RefStep(
            tool="search_trips",
            args={
                "origin": ref(0, "origin_station_id"),
                "destination": ref(0, "destination_station_id"),
                "date": day,
            },
        ),
        RefStep(
            tool="change_booking",
            args={
                "booking_id": ref(0, "booking_id"),
                "new_trip_id": ref(1, "results", 0, "trip_id"),
            },
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "fare_difference_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def cheapest_first_class(ctx: TemplateContext) -> Draft:
    """Parallel: first-class fares of three rail trips; the cheapest."""
    trips = ctx.sample("trips", 3, lambda t: t.mode == "rail" and _future(ctx, t))
    if not _distinct([t.fare_first_usd for t in trips]):
        raise NoFit("fares must differ")
    prompt = ctx.say(
        "What's the cheapest first-class fare among trips {a}, {b} and {c}?",
        "I want to travel first class on whichever of {a}, {b} or {c} is cheapest. What "
        "would I pay?",
        "Quote first class on trips {a}, {b} and {c} and give me the lowest price in USD.",
        **_ids(trips),
    )
    steps = [
        RefStep(tool="get_fare", args={"trip_id": t.trip_id, "fare_class": "first"}) for t in trips
    ]
    answer = AnswerSpec(op="min", refs=[[i, "fare_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def economy_total(ctx: TemplateContext) -> Draft:
    """Parallel: standard fares of three trips (default class); their total."""
    trips = ctx.sample("trips", 3, lambda t: _future(ctx, t))
    prompt = ctx.say(
        "How much would standard economy tickets on trips {a}, {b} and {c} cost altogether?",
        "Add up the economy fares for trips {a}, {b} and {c}, one ticket each.",
        "I'm budgeting three legs: {a}, {b} and {c}, all in economy. What's the total in USD?",
        **_ids(trips),
    )
    steps = [RefStep(tool="get_fare", args={"trip_id": t.trip_id}) for t in trips]
    answer = AnswerSpec(op="sum", refs=[[i, "fare_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def bookings_paid_total(ctx: TemplateContext) -> Draft:
    """Parallel: three bookings; the total paid."""
    bookings = ctx.sample("bookings", 3, lambda b: b.status != "cancelled")
    ids = [b.booking_id for b in bookings]
    prompt = ctx.say(
        "For my expense report: what did bookings {a}, {b} and {c} cost in total?",
        "Sum up the fares paid on bookings {a}, {b} and {c}, please.",
        "How much was paid altogether for bookings {a}, {b} and {c} (USD)?",
        a=ids[0],
        b=ids[1],
        c=ids[2],
    )
    steps = [RefStep(tool="get_booking", args={"booking_id": i}) for i in ids]
    answer = AnswerSpec(op="sum", refs=[[i, "fare_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


NEW_FIRST = ("Marisol", "Teodor", "Wanjiru", "Ilse", "Bartholomew", "Soraya", "Declan", "Anouk")
NEW_LAST = ("Quintero", "Lindqvist", "Mwangi", "Okonkwo", "Fairbanks", "Delacroix", "Varga")
MAIL_HOSTS = ("example.org", "mail.example.net", "post.example.com")


def register_and_book_two(ctx: TemplateContext) -> Draft:
    """Mixture, writes: register a passenger, then book two trips for them; total charged."""
    first, last = ctx.rng.choice(NEW_FIRST), ctx.rng.choice(NEW_LAST)
    email = f"{first.lower()}.{last.lower()}@{ctx.rng.choice(MAIL_HOSTS)}"
    if ctx.rows("passengers", lambda p: p.email == email):
        raise NoFit("email taken")
    trips = ctx.sample("trips", 2, lambda t: _future(ctx, t, hours=2) and t.seats_economy > 0)
    trips.sort(key=lambda t: (t.departure_date, t.departure_time))
    prompt = ctx.say(
        "I'm new: please register me as {name} ({email}) and book me economy seats on trips "
        "{a} and {b}. What's the total I'll pay?",
        "Sign up {name}, email {email}, then put them on trips {a} and {b} in economy. How "
        "much do the two tickets come to?",
        name=f"{first} {last}",
        email=email,
        a=trips[0].trip_id,
        b=trips[1].trip_id,
    )
    steps = [RefStep(tool="register_passenger", args={"name": f"{first} {last}", "email": email})]
    steps += [
        RefStep(
            tool="book_seat",
            args={"passenger_id": ref(0, "passenger_id"), "trip_id": t.trip_id},
        )
        for t in trips
    ]
    answer = AnswerSpec(op="sum", refs=[[1, "fare_usd"], [2, "fare_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def first_class_upgrade_quote(ctx: TemplateContext) -> Draft:
    """Mixture: passenger -> bookings, then first-class fares of the next two trips; total."""
    confirmed = _confirmed(ctx)

    def fits(passenger: Any) -> bool:
        mine = confirmed.get(passenger.passenger_id, [])
        return len(mine) >= 2 and all(_trip(ctx, b.trip_id).mode == "rail" for b in mine[:2])

    passenger = ctx.pick("passengers", fits)
    prompt = ctx.say(
        "I'm {email}. What would first class cost, in total, on my next two booked trips?",
        "Using the account {email}, price first-class tickets for my two soonest upcoming "
        "trips and add them up.",
        "Thinking of going first class on my next two journeys (account {email}). What's the "
        "combined first-class fare?",
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
        RefStep(
            tool="get_fare",
            args={"trip_id": ref(1, "results", i, "trip_id"), "fare_class": "first"},
        )
        for i in range(2)
    ]
    answer = AnswerSpec(op="sum", refs=[[2, "fare_usd"], [3, "fare_usd"]], round=2)
    return Draft(prompt, steps, answer)


# -- live delays and journeys ----------------------------------------------------------------


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
        RefStep(tool="get_trip_status", args={"trip_id": ref(1, "results", 0, "trip_id")}),
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


def worst_delay_of_three(ctx: TemplateContext) -> Draft:
    """Parallel: live status of three of today's trips; the worst delay."""
    late = {t for t, s in ctx.world.table("operator_feed").items() if s.delay_min > 0}
    trips = ctx.sample("trips", 3, lambda t: t.trip_id in late)
    delays = [_delay(ctx, t.trip_id) for t in trips]
    if max(delays) < MIN_DELAY or not _distinct(delays):
        raise NoFit("delays must differ and one must matter")
    prompt = ctx.say(
        "Three of our crews are on trips {a}, {b} and {c} today. What's the longest delay "
        "among them, in minutes?",
        "How late is the most delayed of trips {a}, {b} and {c} right now (minutes)?",
        "Check live delays for {a}, {b} and {c}; I need the worst one in minutes.",
        **_ids(trips),
    )
    steps = [RefStep(tool="get_trip_status", args={"trip_id": t.trip_id}) for t in trips]
    answer = AnswerSpec(op="max", refs=[[i, "delay_min"] for i in range(3)])
    return Draft(prompt, steps, answer)


def board_delays_total(ctx: TemplateContext) -> Draft:
    """Parallel: departure-board lines of three of today's services; total delay."""
    board = ctx.world.table("board_feed")
    late = ctx.rows("trips", lambda t: t.trip_id in board and board[t.trip_id].delay_min > 0)
    on_time = ctx.rows("trips", lambda t: t.trip_id in board and board[t.trip_id].delay_min == 0)
    trips = ctx.rng.sample(late, 2) + ctx.rng.sample(on_time + late, 1)
    if len({t.trip_id for t in trips}) < 3:
        raise NoFit("three different services needed")
    ctx.rng.shuffle(trips)
    prompt = ctx.say(
        "What do the station departure boards say about services {a}, {b} and {c} today? "
        "Add up their delays in minutes.",
        "Our group is split over services {a}, {b} and {c}. Going by the station boards, "
        "how many minutes of delay is that in total?",
        "Check the departure boards for {a}, {b} and {c} and give me the sum of their "
        "delays (minutes).",
        **_ids(trips),
    )
    steps = [RefStep(tool="station_board_status", args={"service_id": t.trip_id}) for t in trips]
    answer = AnswerSpec(op="sum", refs=[[i, "delay_min"] for i in range(3)])
    return Draft(prompt, steps, answer)


def ride_budget(ctx: TemplateContext) -> Draft:
    """Parallel: three standard rides in three cities; the total fare."""
    cities = ctx.rng.sample(sorted({s.city for s in ctx.rows("stations")}), 3)
    rides = []
    for city in cities:
        here = [s for s in ctx.rows("stations") if s.city == city]
        rides.append(ctx.rng.sample(here, 2))
    legs = [f"{_spoken(ctx, a.station_id)} to {_spoken(ctx, b.station_id)}" for a, b in rides]
    prompt = ctx.say(
        "Next week I need three standard rides: {a}; {b}; and {c}. What's the total "
        "estimated fare?",
        "Estimate regular ride-share fares for {a}, {b}, and {c}, and add them up for me.",
        a=legs[0],
        b=legs[1],
        c=legs[2],
    )
    steps = [
        RefStep(
            tool="ride_estimate",
            args={"pickup": _arg(ctx, a.station_id), "dropoff": _arg(ctx, b.station_id)},
        )
        for a, b in rides
    ]
    answer = AnswerSpec(op="sum", refs=[[i, "fare_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def quickest_departure_window(ctx: TemplateContext) -> Draft:
    """Parallel: plan the same journey from three start times; the shortest total time."""
    day = _day(ctx, ctx.rng.randint(1, 4))
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
    times = sorted(ctx.rng.sample(["06:00", "07:30", "09:00", "11:00", "13:00", "15:30"], 3))
    prompt = ctx.say(
        "I'm going from {a} to {b} on {date}. If I leave after {t0}, after {t1} or after "
        "{t2}, which gives the shortest total journey time? Tell me that time in minutes.",
        "Plan {a} to {b} on {date} three ways: departing after {t0}, {t1} and {t2}. What's "
        "the shortest door-to-door duration in minutes among them?",
        a=_spoken(ctx, origin),
        b=_spoken(ctx, destination),
        date=_date_text(ctx, day),
        t0=times[0],
        t1=times[1],
        t2=times[2],
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
    answer = AnswerSpec(op="min", refs=[[i, "total_duration_min"] for i in range(3)])
    return Draft(prompt, steps, answer)


def board_worst_delay(ctx: TemplateContext) -> Draft:
    """Mixture: today's departures, then the board lines of the first three; worst delay."""
    today = _day(ctx, 0)

    def fits(station: Any) -> bool:
        first = _departures(ctx, station.station_id, today)[:3]
        delays = [_delay(ctx, t.trip_id) for t in first]
        return len(first) == 3 and max(delays) >= MIN_DELAY

    station = ctx.pick("stations", fits)
    prompt = ctx.say(
        "Today is {date}. According to the departure boards at {st}, how late was the worst "
        "of the first three departures today, in minutes?",
        "On {date}, check the station board at {st} for the first three services of the "
        "day and tell me the biggest delay among them (minutes).",
        date=_date_text(ctx, today),
        st=_spoken(ctx, station.station_id),
    )
    steps = [
        RefStep(
            tool="get_departures", args={"station": _arg(ctx, station.station_id), "date": today}
        )
    ]
    steps += [
        RefStep(tool="station_board_status", args={"service_id": ref(0, "results", i, "trip_id")})
        for i in range(3)
    ]
    answer = AnswerSpec(op="max", refs=[[1 + i, "delay_min"] for i in range(3)])
    return Draft(prompt, steps, answer)


def journey_leg_delays(ctx: TemplateContext) -> Draft:
    """Mixture: plan today's journey with a change, then both legs' live delays; their sum."""
    today = _day(ctx, 0)
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
    steps += [
        RefStep(tool="get_trip_status", args={"trip_id": ref(0, "legs", i, "trip_id")})
        for i in range(2)
    ]
    answer = AnswerSpec(op="sum", refs=[[1, "delay_min"], [2, "delay_min"]])
    return Draft(prompt, steps, answer)


SUBTOPICS = [
    Subtopic(
        name="rail and bus schedules",
        topic=TOPIC,
        domain=DOMAIN,
        templates={
            "sequential": [
                second_departure_route_length,
                second_rail_trip_arrival,
                second_upcoming_trip_date,
            ],
            "parallel": [itinerary_distance, longest_trip_arrival],
            "mixture": [second_departures_distance, longest_of_first_departures],
        },
    ),
    Subtopic(
        name="fares and bookings",
        topic=TOPIC,
        domain=DOMAIN,
        templates={
            "sequential": [
                book_second_train_business,
                cancel_second_trip,
                move_booking_to_another_day,
            ],
            "parallel": [cheapest_first_class, economy_total, bookings_paid_total],
            "mixture": [register_and_book_two, first_class_upgrade_quote],
        },
    ),
    Subtopic(
        name="live delays and journeys",
        topic=TOPIC,
        domain=DOMAIN,
        templates={
            "sequential": [my_next_train_delay, ride_after_arrival, booked_trip_emissions],
            "parallel": [
                worst_delay_of_three,
                board_delays_total,
                ride_budget,
                quickest_departure_window,
            ],
            "mixture": [board_worst_delay, journey_leg_delays],
        },
    ),
]
