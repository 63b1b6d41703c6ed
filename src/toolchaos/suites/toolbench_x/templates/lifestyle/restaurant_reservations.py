"""Lifestyle subtopic "restaurant reservations": tables, ratings from three guides."""

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
    when,
)
from toolchaos.suites.toolbench_x.templates.lifestyle._helpers import (
    _extreme,
    _locallens_of_each,
    _rate_each,
    _rate_each_found,
)

_GUESTS = ("Alex Moreau", "Priya Haddad", "Kenji Tanaka", "Grace Whitfield", "Omar Delgado")


def _reserve_first_free(guest: Any) -> RefStep:
    """Reserve the first free time that the check_table_availability at step 1 found."""
    return RefStep(
        tool="create_reservation",
        args={
            "restaurant": ref(1, "restaurant_id"),
            "date": ref(1, "date"),
            "time": ref(1, "first_available_time"),
            "party_size": ref(1, "party_size"),
            "guest_name": guest,
        },
    )


def book_first_free_table(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the restaurant -> free times -> book the first one."""
    rest = ctx.pick("restaurants")
    day = ctx.day(ctx.rng.randint(1, 20))
    party = ctx.rng.randint(2, 6)
    free = ctx.read(
        "check_table_availability", restaurant=rest.restaurant_id, date=day, party_size=party
    )
    if not free["available_times"]:
        raise NoFit("no free table that day")
    guest = ctx.rng.choice(_GUESTS)
    prompt = ctx.say(
        "Get us a table for {n} at {rest} on {day}, the earliest time they have, under the "
        "name {guest}.",
        "Book {rest} for {n} people on {day} at their first available seating; the "
        "reservation is for {guest}.",
        "{guest} here: please reserve the earliest free table for {n} at {rest} on {day}.",
        n=party,
        rest=rest.name,
        day=when(day),
        guest=guest,
    )
    steps = [
        RefStep(tool="search_restaurants", args={"query": rest.name}),
        RefStep(
            tool="check_table_availability",
            args={
                "restaurant": ref(0, "results", 0, "restaurant_id"),
                "date": day,
                "party_size": party,
            },
        ),
        _reserve_first_free(guest),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def _free_day_for(ctx: TemplateContext, res: Any) -> str:
    """Another day with a free table for ``res``'s party at its restaurant (or NoFit)."""
    new_day = ctx.day(ctx.rng.randint(2, 25))
    if new_day == res.date:
        raise NoFit("same day")
    free = ctx.read(
        "check_table_availability",
        restaurant=res.restaurant_id,
        date=new_day,
        party_size=res.party_size,
    )
    if not free["available_times"]:
        raise NoFit("no table on the new day")
    return new_day


def move_known_reservation(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: restaurant -> our booking that day -> cancel -> rebook.

    Five calls: search the restaurant, list its confirmed bookings that day, cancel ours,
    find the free times on the new day, book the first. The user knows the restaurant, the
    day and the name on the booking, not its id.
    """
    today = ctx.day(0)

    def alone(r: Any) -> bool:
        same = ctx.read(
            "list_reservations", restaurant=r.restaurant_id, date=r.date, status="confirmed"
        )
        return bool(r.status == "confirmed" and r.date >= today and same["total"] == 1)

    res = ctx.pick("reservations", alone)
    rest = ctx.world.table("restaurants")[res.restaurant_id]
    found = ctx.read("search_restaurants", query=rest.name)["results"]
    if found[0]["restaurant_id"] != rest.restaurant_id:
        raise NoFit("the name finds another restaurant first")
    new_day = _free_day_for(ctx, res)
    prompt = ctx.say(
        "{guest} has a table at {rest} on {day}. Move it to {new}: cancel that booking and "
        "take the earliest free time there on the new day, same party size and name.",
        "Our {rest} reservation for {day} (under {guest}) needs to move to {new}. Cancel it "
        "and rebook the same place at the first available seating that day for the same "
        "group.",
        guest=res.guest_name,
        rest=rest.name,
        day=when(res.date),
        new=when(new_day),
    )
    steps = [
        RefStep(tool="search_restaurants", args={"query": rest.name}),
        RefStep(
            tool="list_reservations",
            args={
                "restaurant": ref(0, "results", 0, "restaurant_id"),
                "date": res.date,
                "status": "confirmed",
            },
        ),
        RefStep(
            tool="cancel_reservation",
            args={"reservation_id": ref(1, "results", 0, "reservation_id")},
        ),
        RefStep(
            tool="check_table_availability",
            args={
                "restaurant": ref(2, "restaurant_id"),
                "date": new_day,
                "party_size": ref(2, "party_size"),
            },
        ),
        RefStep(
            tool="create_reservation",
            args={
                "restaurant": ref(3, "restaurant_id"),
                "date": ref(3, "date"),
                "time": ref(3, "first_available_time"),
                "party_size": ref(3, "party_size"),
                "guest_name": ref(2, "guest_name"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def move_reservation(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: cancel -> free times on another day -> rebook."""
    today = ctx.day(0)
    res = ctx.pick("reservations", lambda r: r.status == "confirmed" and r.date >= today)
    new_day = _free_day_for(ctx, res)
    prompt = ctx.say(
        "Please move reservation {rid} to {day}: cancel it and book the earliest free table "
        "that day at the same place, same party and name.",
        "Reservation {rid} doesn't work anymore. Cancel it and rebook the same restaurant on "
        "{day} at the first available time for the same group.",
        rid=res.reservation_id,
        day=when(new_day),
    )
    steps = [
        RefStep(tool="cancel_reservation", args={"reservation_id": res.reservation_id}),
        RefStep(
            tool="check_table_availability",
            args={
                "restaurant": ref(0, "restaurant_id"),
                "date": new_day,
                "party_size": ref(0, "party_size"),
            },
        ),
        _reserve_first_free(ref(0, "guest_name")),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def best_rated_of_three(ctx: TemplateContext) -> Draft:
    """Parallel: one guide's rating of three to seven restaurants; the highest or lowest."""
    rests = ctx.sample("restaurants", ctx.count(3, 7))
    return _rate_each(
        ctx,
        rests,
        ("lowest", "highest"),
        "Deciding where to eat: what's the {words} {guide} rating among {names}?",
        "Look up {names} on {guide}. What's the {words} star rating among them?",
        "Of {names}, give me the {words} rating {guide} shows.",
    )


def nearest_of_three(ctx: TemplateContext) -> Draft:
    """Parallel: look up three to seven restaurants; the shortest (or longest) distance."""
    rests = ctx.sample("restaurants", ctx.count(3, 7))
    op, words = _extreme(ctx, "closest", "farthest")
    prompt = ctx.say(
        "How far from home is the {words} of {names}, in km?",
        "We're choosing between {names}. What's the distance (km) to the {words} one?",
        words=words,
        names=listing([r.name for r in rests]),
    )
    steps = [RefStep(tool="search_restaurants", args={"query": r.name}) for r in rests]
    refs = [[i, "results", 0, "distance_km"] for i in range(len(rests))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def best_in_cuisine(ctx: TemplateContext) -> Draft:
    """Mixture: restaurants of a cuisine -> one guide's rating of each -> max or min."""
    cuisine = ctx.pick("restaurants").cuisine
    found = ctx.read("search_restaurants", cuisine=cuisine)["results"]
    if len(found) < 2:
        raise NoFit("too few restaurants of that cuisine")
    return _rate_each_found(
        ctx,
        RefStep(tool="search_restaurants", args={"cuisine": cuisine}),
        "restaurant_id",
        len(found),
        ("worst", "best"),
        "Among all the {cuisine} restaurants around, what's the {words} {guide} rating?",
        "Go through every {cuisine} place in town on {guide} and tell me the {words} star rating.",
        cuisine=cuisine,
    )


def ratings_of_two_searched(ctx: TemplateContext) -> Draft:
    """Mixture: search two to five restaurants -> the authoritative rating of each -> min/max."""
    rests = ctx.sample("restaurants", ctx.count(2, 5))
    return _locallens_of_each(
        ctx,
        "search_restaurants",
        "restaurant_id",
        rests,
        ("lowest", "highest"),
        "Between {names}, what's the {words} LocalLens rating?",
        "We can't agree on {names}. Settle it: what's the {words} of their LocalLens ratings?",
    )


SUBTOPIC = Subtopic(
    name="restaurant reservations",
    templates={
        "sequential": [book_first_free_table, move_reservation, move_known_reservation],
        "parallel": [best_rated_of_three, nearest_of_three],
        "mixture": [best_in_cuisine, ratings_of_two_searched],
    },
)
