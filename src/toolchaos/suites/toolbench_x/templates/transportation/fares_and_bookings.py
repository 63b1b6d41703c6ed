"""Transportation subtopic "fares and bookings": fares, booking, moving and cancelling trips."""

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
    _direct,
    _distinct,
    _future,
    _spoken,
    delay_step,
    unnamed_delay_source,
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

    by_email = ctx.rng.random() < 0.5
    if by_email:  # the passenger names their next trip instead of a booking id
        confirmed = _confirmed(ctx)
        nexts = {rows[0].booking_id for rows in confirmed.values() if rows}
        booking = ctx.pick("bookings", lambda b: fits(b) and b.booking_id in nexts)
    else:
        booking = ctx.pick("bookings", fits)
    days = [ctx.day(k) for k in range(1, 5) if ctx.day(k) != booking.departure_date]
    day = ctx.rng.choice(days)
    options = _direct(ctx, booking.origin_station_id, booking.destination_station_id, day)
    if not options or options[0].seats(booking.fare_class) < 1:
        raise NoFit("no seat on the first trip that day")
    if options[0].fare_usd(booking.fare_class) == booking.fare_usd:
        raise NoFit("the fares must differ")
    prompt = ctx.say(
        "Please move {bk} to the first departure on {date}, same stations and class. What's "
        "the fare difference?",
        "I need to rebook {bk} onto the earliest trip on {date} between the same stations. "
        "How much more (or less) will it cost?",
        "Change {bk} to {date}, first service of the day on the same route, and tell me the "
        "difference in fare.",
        bk=f"my next booked trip (account {passenger_email(ctx, booking)})"
        if by_email
        else f"my booking {booking.booking_id}",
        date=_date_text(ctx, day),
    )
    if by_email:
        first: list[RefStep] = [
            RefStep(tool="find_passengers", args={"email": passenger_email(ctx, booking)}),
            RefStep(
                tool="list_bookings",
                args={
                    "passenger_id": ref(0, "results", 0, "passenger_id"),
                    "status": "confirmed",
                },
            ),
        ]
        held: list[Any] = [1, "results", 0]
    else:
        first = [RefStep(tool="get_booking", args={"booking_id": booking.booking_id})]
        held = [0]
    at = len(first) - 1
    steps = [
        *first,
        RefStep(
            tool="search_trips",
            args={
                "origin": ref(*held, "origin_station_id"),
                "destination": ref(*held, "destination_station_id"),
                "date": day,
            },
        ),
        RefStep(
            tool="change_booking",
            args={
                "booking_id": ref(*held, "booking_id"),
                "new_trip_id": ref(at + 1, "results", 0, "trip_id"),
            },
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[at + 2, "fare_difference_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def passenger_email(ctx: TemplateContext, booking: Any) -> str:
    """The email of the passenger holding ``booking``."""
    return str(ctx.world.table("passengers")[booking.passenger_id].email)


def next_trip_first_class(ctx: TemplateContext) -> Draft:
    """Sequential: passenger by email -> next booking -> the fare of its trip in another class."""
    confirmed = _confirmed(ctx)
    fare_class = ctx.rng.choice(["first", "business"])

    def fits(passenger: Any) -> bool:
        mine = confirmed.get(passenger.passenger_id, [])
        return bool(mine) and _trip(ctx, mine[0].trip_id).fare_usd(fare_class) is not None

    passenger = ctx.pick("passengers", fits)
    prompt = ctx.say(
        "I'm {email}. What would a {cls}-class ticket cost on the trip of my next booking?",
        "Account {email}: I'm thinking of upgrading my upcoming trip. Quote me the {cls}-class "
        "fare for it, in USD.",
        email=passenger.email,
        cls=fare_class,
    )
    steps = [
        RefStep(tool="find_passengers", args={"email": passenger.email}),
        RefStep(
            tool="list_bookings",
            args={"passenger_id": ref(0, "results", 0, "passenger_id"), "status": "confirmed"},
        ),
        RefStep(
            tool="get_fare",
            args={"trip_id": ref(1, "results", 0, "trip_id"), "fare_class": fare_class},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "fare_usd"]], round=2))


def cheapest_first_class(ctx: TemplateContext) -> Draft:
    """Parallel: first-class fares of k rail trips; the cheapest."""
    k = ctx.count(3, 6)
    trips = ctx.sample("trips", k, lambda t: t.mode == "rail" and _future(ctx, t))
    if not _distinct([t.fare_first_usd for t in trips]):
        raise NoFit("fares must differ")
    ids = [t.trip_id for t in trips]
    prompt = ctx.say(
        "What's the cheapest first-class fare among trips {all}?",
        "I want to travel first class on whichever of {ors} is cheapest. What would I pay?",
        "Quote first class on trips {all} and give me the lowest price in USD.",
        all=listing(ids),
        ors=", ".join(ids[:-1]) + " or " + ids[-1],
    )
    steps = [
        RefStep(tool="get_fare", args={"trip_id": t.trip_id, "fare_class": "first"}) for t in trips
    ]
    answer = AnswerSpec(op="min", refs=[[i, "fare_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def economy_total(ctx: TemplateContext) -> Draft:
    """Parallel: standard fares of k trips (default class); their total."""
    k = ctx.count(3, 6)
    trips = ctx.sample("trips", k, lambda t: _future(ctx, t))
    prompt = ctx.say(
        "How much would standard economy tickets on trips {all} cost altogether?",
        "Add up the economy fares for trips {all}, one ticket each.",
        "I'm budgeting {n} legs: {all}, all in economy. What's the total in USD?",
        all=listing([t.trip_id for t in trips]),
        n=["three", "four", "five", "six"][k - 3],
    )
    steps = [RefStep(tool="get_fare", args={"trip_id": t.trip_id}) for t in trips]
    answer = AnswerSpec(op="sum", refs=[[i, "fare_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def bookings_paid_total(ctx: TemplateContext) -> Draft:
    """Parallel: k bookings; the total paid."""
    k = ctx.count(3, 6)
    bookings = ctx.sample("bookings", k, lambda b: b.status != "cancelled")
    ids = [b.booking_id for b in bookings]
    prompt = ctx.say(
        "For my expense report: what did bookings {all} cost in total?",
        "Sum up the fares paid on bookings {all}, please.",
        "How much was paid altogether for bookings {all} (USD)?",
        all=listing(ids),
    )
    steps = [RefStep(tool="get_booking", args={"booking_id": i}) for i in ids]
    answer = AnswerSpec(op="sum", refs=[[i, "fare_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


NEW_FIRST = ("Marisol", "Teodor", "Wanjiru", "Ilse", "Bartholomew", "Soraya", "Declan", "Anouk")
NEW_LAST = ("Quintero", "Lindqvist", "Mwangi", "Okonkwo", "Fairbanks", "Delacroix", "Varga")
MAIL_HOSTS = ("example.org", "mail.example.net", "post.example.com")


def register_and_book_two(ctx: TemplateContext) -> Draft:
    """Mixture, writes: register a passenger, then book k trips for them; total charged."""
    first, last = ctx.rng.choice(NEW_FIRST), ctx.rng.choice(NEW_LAST)
    email = f"{first.lower()}.{last.lower()}@{ctx.rng.choice(MAIL_HOSTS)}"
    if ctx.rows("passengers", lambda p: p.email == email):
        raise NoFit("email taken")
    k = ctx.count(2, 4)
    trips = ctx.sample("trips", k, lambda t: _future(ctx, t, hours=2) and t.seats_economy > 0)
    trips.sort(key=lambda t: (t.departure_date, t.departure_time))
    prompt = ctx.say(
        "I'm new: please register me as {name} ({email}) and book me economy seats on trips "
        "{all}. What's the total I'll pay?",
        "Sign up {name}, email {email}, then put them on trips {all} in economy. How much do "
        "the {n} tickets come to?",
        name=f"{first} {last}",
        email=email,
        all=listing([t.trip_id for t in trips]),
        n=["two", "three", "four"][k - 2],
    )
    steps = [RefStep(tool="register_passenger", args={"name": f"{first} {last}", "email": email})]
    steps += [
        RefStep(
            tool="book_seat",
            args={"passenger_id": ref(0, "passenger_id"), "trip_id": t.trip_id},
        )
        for t in trips
    ]
    answer = AnswerSpec(op="sum", refs=[[1 + i, "fare_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer, writes=True)


def first_class_upgrade_quote(ctx: TemplateContext) -> Draft:
    """Mixture: passenger -> bookings, then first-class fares of the next k trips; total."""
    confirmed = _confirmed(ctx)
    k = ctx.count(2, 3)

    def fits(passenger: Any) -> bool:
        mine = confirmed.get(passenger.passenger_id, [])
        return len(mine) >= k and all(_trip(ctx, b.trip_id).mode == "rail" for b in mine[:k])

    passenger = ctx.pick("passengers", fits)
    n = ["two", "three"][k - 2]
    prompt = ctx.say(
        "I'm {email}. What would first class cost, in total, on my next {n} booked trips?",
        "Using the account {email}, price first-class tickets for my {n} soonest upcoming "
        "trips and add them up.",
        "Thinking of going first class on my next {n} journeys (account {email}). What's the "
        "combined first-class fare?",
        email=passenger.email,
        n=n,
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
        for i in range(k)
    ]
    answer = AnswerSpec(op="sum", refs=[[2 + i, "fare_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def booked_trip_delay(ctx: TemplateContext) -> Draft:
    """Sequential: a booking -> its trip -> the trip's live delay, from an unnamed source.

    The path reads a source the docs do not call authoritative (every source agrees in the
    clean world), so the task can carry a cross-source conflict the prompt does not name.
    """
    live = ctx.world.table("operator_feed")
    booking = ctx.pick(
        "bookings",
        lambda b: (
            b.status == "confirmed" and b.trip_id in live and _delay(ctx, b.trip_id) >= MIN_DELAY
        ),
    )
    prompt = ctx.say(
        "How late is the trip on my booking {bk} running, in minutes?",
        "Booking {bk}: look up the trip and tell me how many minutes it is delayed.",
        "Check the live delay of the service booked under {bk} (minutes).",
        bk=booking.booking_id,
    )
    tool = unnamed_delay_source(ctx)
    steps = [
        RefStep(tool="get_booking", args={"booking_id": booking.booking_id}),
        RefStep(tool="get_trip", args={"trip_id": ref(0, "trip_id")}),
        delay_step(tool, ref(1, "trip_id")),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "delay_min"]]))


def booked_trips_worst_delay(ctx: TemplateContext) -> Draft:
    """Mixture: k bookings -> each booking's trip delay, from an unnamed source -> the worst.

    As :func:`booked_trip_delay`, the path reads a source the docs do not call
    authoritative, which a cross-source conflict may corrupt.
    """
    k = ctx.count(2, 4)
    live = ctx.world.table("operator_feed")
    bookings = ctx.sample("bookings", k, lambda b: b.status == "confirmed" and b.trip_id in live)
    delays = [_delay(ctx, b.trip_id) for b in bookings]
    if max(delays) < MIN_DELAY or delays.count(max(delays)) != 1:
        raise NoFit("one trip must be clearly the latest")
    prompt = ctx.say(
        "Our team is travelling on bookings {all}. Which of those trips is running the "
        "latest, and by how many minutes? Just the minutes.",
        "Bookings {all}: what's the longest delay among their trips, in minutes?",
        all=listing([b.booking_id for b in bookings]),
    )
    tool = unnamed_delay_source(ctx)
    steps = [RefStep(tool="get_booking", args={"booking_id": b.booking_id}) for b in bookings]
    steps += [delay_step(tool, ref(i, "trip_id")) for i in range(k)]
    answer = AnswerSpec(op="max", refs=[[k + i, "delay_min"] for i in range(k)])
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="fares and bookings",
    templates={
        "sequential": [
            cancel_second_trip,
            move_booking_to_another_day,
            next_trip_first_class,
            booked_trip_delay,
        ],
        "parallel": [cheapest_first_class, economy_total, bookings_paid_total],
        "mixture": [
            register_and_book_two,
            first_class_upgrade_quote,
            book_second_train_business,
            booked_trips_worst_delay,
        ],
    },
)
