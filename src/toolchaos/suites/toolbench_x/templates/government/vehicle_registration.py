"""Vehicle registration: renewal quotes with late penalties, renewing, motor-vehicle offices."""

from __future__ import annotations

from datetime import date, timedelta
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
from toolchaos.suites.toolbench_x.templates.government._helpers import (
    NUMBERS,
    distinct_residents,
    found_by_name,
    office_kind_parallel,
    office_waits_mixture,
    resident,
)

WINDOW_DAYS = 90


def _renewable(ctx: TemplateContext, car: object) -> bool:
    expires = date.fromisoformat(car.registration_expires)  # type: ignore[attr-defined]
    return expires - timedelta(days=WINDOW_DAYS) <= ctx.world.now().date()


def _cars_of(ctx: TemplateContext, res: object) -> list[Any]:
    """The vehicles ``res`` owns, by plate (the order list_vehicles gives)."""
    owned = [c for c in ctx.rows("vehicles") if c.resident_id == res.resident_id]  # type: ignore[attr-defined]
    return sorted(owned, key=lambda c: c.plate)


def renewal_cost_for_my_car(ctx: TemplateContext) -> Draft:
    """Sequential: find the owner -> their only vehicle -> renewal quote."""

    def one_car(res: object) -> bool:
        cars = _cars_of(ctx, res)
        return len(cars) == 1 and _renewable(ctx, cars[0])

    res = resident(ctx, one_car)
    years = ctx.rng.choice([1, 2])
    field = ctx.rng.choice(["total_fee_usd", "late_penalty_usd", "total_fee_usd"])
    words = {"total_fee_usd": "the total I'd pay", "late_penalty_usd": "the late penalty"}[field]
    prompt = ctx.say(
        "I'm {name} and I own one car. If I renew its registration today for {y} year{s}, "
        "what's {w}?",
        "{name} wants to renew the registration on their vehicle today ({y}-year term). Quote {w}.",
        "Hi, {name} here. Renewing my car's registration now for {y} year{s}: {w}?",
        name=res.name,
        y=years,
        s="s" if years > 1 else "",
        w=words,
    )
    steps = [
        *found_by_name(res, "list_vehicles"),
        RefStep(
            tool="quote_registration_renewal",
            args={"plate": ref(1, "results", 0, "plate"), "term_years": years},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def renew_by_plate(ctx: TemplateContext) -> Draft:
    """Sequential, writes: the plate's record -> quote -> renew."""
    car = ctx.pick("vehicles", lambda c: _renewable(ctx, c))
    years = ctx.rng.choice([1, 2])
    readout = ctx.rng.random() < 0.5
    prompt = ctx.say(
        "Please renew the registration on plate {plate} for {y} year{s}. Check the quote "
        "before you pay.{ask}",
        "Renew {plate}'s registration ({y}-year term) today, after confirming the fee.{ask}",
        plate=car.plate,
        y=years,
        s="s" if years > 1 else "",
        ask=" When does the renewed registration expire?" if readout else "",
    )
    steps = [
        RefStep(tool="list_vehicles", args={"plate": car.plate}),
        RefStep(
            tool="quote_registration_renewal",
            args={"plate": ref(0, "results", 0, "plate"), "term_years": years},
        ),
        RefStep(
            tool="renew_vehicle_registration",
            args={"plate": ref(1, "plate"), "term_years": ref(1, "term_years")},
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "new_expiry"]]) if readout else None
    return Draft(prompt, steps, answer or AnswerSpec(op="none"), writes=True)


def renew_my_only_car(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the owner -> their only vehicle -> renew it; the fee."""

    def one_renewable(res: Any) -> bool:
        cars = _cars_of(ctx, res)
        return len(cars) == 1 and _renewable(ctx, cars[0])

    res = resident(ctx, one_renewable)
    term = ctx.rng.choice([1, 2])
    prompt = ctx.say(
        "I'm {name} and I own one vehicle. Please renew its registration for {term}; what "
        "did it cost?",
        "This is {name}. Renew the registration on my car for {term} and tell me the total fee.",
        name=res.name,
        term="one year" if term == 1 else "two years",
    )
    steps = found_by_name(res, "list_vehicles")
    steps.append(
        RefStep(
            tool="renew_vehicle_registration",
            args={"plate": ref(1, "results", 0, "plate"), "term_years": term},
        )
    )
    answer = AnswerSpec(op="value", refs=[[2, "total_fee_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def fleet_renewal(ctx: TemplateContext) -> Draft:
    """Parallel: renewal quotes for k plates; total or highest fee."""
    k = ctx.count(3, 6)
    cars = ctx.sample("vehicles", k, lambda c: _renewable(ctx, c))
    field = ctx.rng.choice(["total_fee_usd", "late_penalty_usd"])
    quotes = [ctx.read("quote_registration_renewal", plate=c.plate)[field] for c in cars]
    if sum(quotes) == 0:
        raise NoFit("no late penalties")
    op = ctx.rng.choice(["sum", "max"])
    words = {"total_fee_usd": "renewal fees", "late_penalty_usd": "late penalties"}[field]
    q = {"sum": f"What do the {words} add up to", "max": f"What's the largest of the {words}"}
    prompt = ctx.say(
        "Our small business has {n} vans: {all}. Renewing all registrations "
        "today for one year, {q}?",
        "Quote one-year renewals today for plates {all}. {q}?",
        all=listing([x.plate for x in cars]),
        n=NUMBERS[k],
        q=q[op],
    )
    steps = [RefStep(tool="quote_registration_renewal", args={"plate": c.plate}) for c in cars]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, field] for i in range(k)], round=2))


motor_vehicle_queue = office_kind_parallel(
    "motor_vehicles",
    "I need a new registration sticker in person: the {a}, the {b} or the {c}.",
    "motor_vehicle_queue",
)

motor_vehicle_waits = office_waits_mixture(
    "motor_vehicles",
    (
        "I have to renew my registration in person at a motor vehicle office.",
        "My plates need replacing at one of the motor-vehicle offices.",
    ),
    "motor_vehicle_waits",
)


def household_weight(ctx: TemplateContext) -> Draft:
    """Mixture: k owners' vehicles (independent) -> quotes for each first car -> sum or max."""

    def owns(res: object) -> bool:
        cars = _cars_of(ctx, res)
        return bool(cars) and _renewable(ctx, cars[0])

    k = ctx.count(2, 5)
    people = distinct_residents(ctx, k, owns)
    field = ctx.rng.choice(["total_fee_usd", "weight_kg"])
    op = ctx.rng.choice(["sum", "max"])
    words = {
        ("total_fee_usd", "sum"): "those renewal fees together, renewing today for a year",
        ("total_fee_usd", "max"): "the highest of those one-year renewal fees today",
        ("weight_kg", "sum"): "the combined weight of those vehicles in kg",
        ("weight_kg", "max"): "the weight in kg of the heaviest of them",
    }[(field, op)]
    prompt = ctx.say(
        "{all} each want to renew the registration of their first listed vehicle. Pull up "
        "the quotes: what's {w}?",
        "Take the first vehicle on file for each of {all}, quote their renewals, and tell me {w}.",
        all=listing([p.name for p in people]),
        w=words,
    )
    steps = [RefStep(tool="list_vehicles", args={"resident": p.name}) for p in people]
    steps += [
        RefStep(tool="quote_registration_renewal", args={"plate": ref(i, "results", 0, "plate")})
        for i in range(k)
    ]
    refs = [[k + i, field] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="vehicle registration",
    templates={
        "sequential": [renewal_cost_for_my_car, renew_by_plate, renew_my_only_car],
        "parallel": [fleet_renewal, motor_vehicle_queue],
        "mixture": [motor_vehicle_waits, household_weight],
    },
)
