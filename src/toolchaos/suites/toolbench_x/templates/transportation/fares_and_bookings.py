"""Transportation subtopic "fares and bookings": fares, booking, moving and cancelling trips."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref
from toolchaos.suites.toolbench_x.templates.transportation._helpers import (
    _arg,
    _confirmed,
    _date_text,
    _direct,
    _distinct,
    _future,
    _ids,
    _spoken,
)


def _trip(ctx: TemplateContext, trip_id: str) -> Any:
    return ctx.world.table("trips")[trip_id]


def book_second_train_business(ctx: TemplateContext) -> Draft:
    """Mixture, writes: passenger and rail trips apart -> book the second in business -> booking."""
    day = ctx.day(ctx.rng.randint(1, 4))

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
    days = [ctx.day(k) for k in range(1, 5) if ctx.day(k) != booking.departure_date]
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


SUBTOPIC = Subtopic(
    name="fares and bookings",
    templates={
        "sequential": [cancel_second_trip, move_booking_to_another_day],
        "parallel": [cheapest_first_class, economy_total, bookings_paid_total],
        "mixture": [
            register_and_book_two,
            first_class_upgrade_quote,
            book_second_train_business,
        ],
    },
)
