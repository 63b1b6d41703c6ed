"""Waste collection: next pickup days by address, bulky pickups, drop-off queues."""

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
from toolchaos.suites.toolbench_x.templates.government._helpers import (
    NUMBERS,
    distinct_residents,
    errand_waits_parallel,
    found_by_name,
    office_waits_mixture,
    resident,
)

KINDS = {
    "next_trash_date": "trash",
    "next_recycling_date": "recycling",
    "next_yard_waste_date": "yard waste",
}


def my_next_pickup(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> their address -> next pickup of one kind."""
    res = resident(ctx)
    field = ctx.rng.choice(sorted(KINDS))
    prompt = ctx.say(
        "I'm {name}. When is the next {k} pickup at my house?",
        "What date will {k} next be collected at {name}'s home address?",
        "{name} here - which day should I put my {k} out for next?",
        name=res.name,
        k=KINDS[field],
    )
    steps = [
        *found_by_name(res, "get_resident"),
        RefStep(tool="get_collection_schedule", args={"address": ref(1, "address")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def pickup_after_trip(ctx: TemplateContext) -> Draft:
    """Sequential: resident -> address -> next pickup on or after a return date."""
    res = resident(ctx)
    back = ctx.day(ctx.rng.randint(5, 40))
    field = ctx.rng.choice(sorted(KINDS))
    prompt = ctx.say(
        "I'm {name}, away until {d}. What's the first {k} collection at my place on or after "
        "that day?",
        "{name} gets back on {d}. On what date is the first {k} pickup from then on?",
        name=res.name,
        d=when(back),
        k=KINDS[field],
    )
    steps = [
        *found_by_name(res, "get_resident"),
        RefStep(
            tool="get_collection_schedule",
            args={"address": ref(1, "address"), "from_date": back},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def bulky_pickup_request(ctx: TemplateContext) -> Draft:
    """Sequential, writes: resident -> schedule at their address -> bulky-item request."""
    res = resident(ctx)
    item = ctx.rng.choice(["an old sofa", "a mattress", "a broken fridge", "a dresser"])
    open_there = [
        r
        for r in ctx.rows("service_requests")
        if r.category == "bulky_item_pickup" and r.status != "closed" and r.address == res.address
    ]
    if open_there:
        raise NoFit("already requested")
    readout = ctx.rng.random() < 0.5
    prompt = ctx.say(
        "I'm {name}. Check my collection zone, then open a bulky item pickup request at my "
        "address for {item}.{ask}",
        "Please log a bulky-item pickup for {name} ({item}) at the address on their "
        "collection schedule.{ask}",
        name=res.name,
        item=item,
        ask=" By what date should it be picked up?" if readout else "",
    )
    steps = [
        RefStep(tool="get_resident", args={"resident": res.name}),
        RefStep(tool="get_collection_schedule", args={"address": ref(0, "address")}),
        RefStep(
            tool="create_service_request",
            args={
                "resident": ref(0, "resident_id"),
                "category": "bulky_item_pickup",
                "address": ref(1, "address"),
                "description": f"Bulky item: {item}",
            },
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "target_date"]]) if readout else None
    return Draft(prompt, steps, answer or AnswerSpec(op="none"), writes=True)


def soonest_of_three_addresses(ctx: TemplateContext) -> Draft:
    """Parallel: schedules of k addresses; the address collected soonest."""
    k = ctx.count(3, 6)
    people = ctx.sample("residents", k)
    field = ctx.rng.choice(["days_until_trash", "days_until_recycling"])
    values = [ctx.read("get_collection_schedule", address=p.address)[field] for p in people]
    if values.count(min(values)) > 1 or len(set(values)) < 3:
        raise NoFit("tie")
    if values.count(max(values)) > 1:
        raise NoFit("tie")
    op = ctx.rng.choice(["argmin", "argmax"])
    words = {"argmin": "soonest", "argmax": "last"}[op]
    kind = {"days_until_trash": "trash", "days_until_recycling": "recycling"}[field]
    prompt = ctx.say(
        "I manage {n} rentals: {all}. Of their next {kind} pickups, on what date is the {w} one?",
        "Of {all}, whichever address gets its next {kind} collection {w}: what date "
        "is that collection?",
        all=listing([x.address for x in people]),
        n=NUMBERS[k],
        kind=kind,
        w=words,
    )
    steps = [RefStep(tool="get_collection_schedule", args={"address": p.address}) for p in people]
    date_field = {
        "days_until_trash": "next_trash_date",
        "days_until_recycling": "next_recycling_date",
    }
    labels = [ref(i, date_field[field]) for i in range(k)]
    return Draft(
        prompt, steps, AnswerSpec(op=op, refs=[[i, field] for i in range(k)], labels=labels)
    )


drop_off_errands = errand_waits_parallel(
    ("waste", "waste", "city_services"),
    "Spring clean-out: I'm taking stuff to the {a} and the {b}, then buying bin stickers at "
    "the {c}.",
    "drop_off_errands",
)

drop_off_waits = office_waits_mixture(
    "waste",
    (
        "I'm hauling old paint and a broken grill to a city drop-off site.",
        "I want to drop off recyclables myself this morning.",
    ),
    "drop_off_waits",
)


def neighbours_days_until(ctx: TemplateContext) -> Draft:
    """Mixture: k residents (independent) -> their schedules -> min/max days until pickup."""
    k = ctx.count(2, 5)
    people = distinct_residents(ctx, k)
    if len({p.zone for p in people}) < 2:
        raise NoFit("everyone lives in one zone")
    field = ctx.rng.choice(["days_until_trash", "days_until_recycling"])
    op = ctx.rng.choice(["min", "max"])
    kind = {"days_until_trash": "trash", "days_until_recycling": "recycling"}[field]
    w = {"min": "the soonest", "max": "the latest"}[op]
    prompt = ctx.say(
        "{all} share a bin-cleaning service. In how many days is {w} of their next {kind} pickups?",
        "Look up the home addresses of {all}: counting from today, how many days until {w} "
        "of their next {kind} collections?",
        all=listing([p.name for p in people]),
        w=w,
        kind=kind,
    )
    steps = [RefStep(tool="get_resident", args={"resident": p.name}) for p in people]
    steps += [
        RefStep(tool="get_collection_schedule", args={"address": ref(i, "address")})
        for i in range(k)
    ]
    refs = [[k + i, field] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


SUBTOPIC = Subtopic(
    name="waste collection",
    templates={
        "sequential": [my_next_pickup, pickup_after_trip, bulky_pickup_request],
        "parallel": [soonest_of_three_addresses, drop_off_errands],
        "mixture": [drop_off_waits, neighbours_days_until],
    },
)
