"""Pharmacy refills: requesting fills, pickup days, pending refills and their cost."""

from __future__ import annotations

from typing import Any

from toolchaos.suites.toolbench_x.generate import listing, ref
from toolchaos.suites.toolbench_x.templates.health._helpers import (
    AnswerSpec,
    Draft,
    NoFit,
    RefStep,
    Subtopic,
    TemplateContext,
    finish,
    member,
    owner,
    price_each,
    price_of_fill,
    when,
    who,
    window,
)
from toolchaos.suites.toolbench_x.templates.health.medications import PRICE_SOURCES, active_rx

VISITS = (("primary care", "a medication review"), ("primary care", "a blood pressure check"))


def refillable(ctx: TemplateContext, rx: dict[str, Any]) -> bool:
    """Whether a refill of this prescription can be requested now."""
    open_ = ctx.read("list_refills", prescription_id=rx["prescription_id"])["results"]
    busy = any(r["status"] in ("requested", "ready") for r in open_)
    return rx["status"] == "active" and rx["refills_left"] > 0 and not busy


def _refillable_rx(ctx: TemplateContext) -> tuple[Any, list[dict[str, Any]], int]:
    m = member(ctx, lambda p: any(refillable(ctx, r) for r in active_rx(ctx, p)))
    rxs = active_rx(ctx, m)
    i = ctx.rng.choice([k for k, r in enumerate(rxs) if refillable(ctx, r)])
    return m, rxs, i


def refill_for_pickup(ctx: TemplateContext) -> Draft:
    """Sequential, writes: list prescriptions -> the one named -> request its refill."""
    m, rxs, i = _refillable_rx(ctx)
    pickup = ctx.day(ctx.rng.randint(1, 6))
    pharmacy = ctx.pick("pharmacies") if ctx.rng.random() < 0.5 else None
    where = f" at {pharmacy.name}" if pharmacy else " at the usual pharmacy"
    prompt = ctx.say(
        "Please order a refill of {whose} {med}{where}, ready for pickup on {day}.",
        "{Whose} {med} is running low. Request the refill{where} for {day}.",
        "Could you put in a refill for {whose} {med}? Pickup {day}{where}.",
        whose=owner(m),
        Whose=owner(m).capitalize(),
        med=rxs[i]["medication_name"],
        where=where,
        day=when(pickup),
    )
    args: dict[str, Any] = {"prescription_id": ref(1, "prescription_id"), "pickup_date": pickup}
    if pharmacy is not None:
        args["pharmacy"] = pharmacy.name
    steps = [
        RefStep(tool="list_prescriptions", args={"member": m.first_name, "status": "active"}),
        RefStep(
            tool="get_prescription",
            args={"prescription_id": ref(0, "results", i, "prescription_id")},
        ),
        RefStep(tool="request_refill", args=args),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="none"), writes=True))


def pickup_on_visit_day(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: free slots -> book the earliest -> refill ready that day."""
    m, rxs, i = _refillable_rx(ctx)
    specialty, reason = ctx.rng.choice(VISITS)
    d1, d2 = window(ctx, (1, 6), (2, 5))
    prompt = ctx.say(
        "Book {name} the earliest {spec} appointment between {d1} and {d2} for {reason}, "
        "then have prescription {rx} refilled for pickup the same day as the visit.",
        "I need {reason} for {name}: take the first {spec} slot from {d1} to {d2}, and "
        "request a refill of {rx} to collect on the day of that appointment.",
        name=who(m),
        spec=specialty,
        reason=reason,
        d1=d1,
        d2=d2,
        rx=rxs[i]["prescription_id"],
    )
    steps = [
        RefStep(
            tool="find_appointment_slots",
            args={"specialty": specialty, "from_date": d1, "to_date": d2},
        ),
        RefStep(
            tool="book_appointment",
            args={
                "member": m.first_name,
                "slot_id": ref(0, "results", 0, "slot_id"),
                "reason": reason,
            },
        ),
        RefStep(
            tool="request_refill",
            args={"prescription_id": rxs[i]["prescription_id"], "pickup_date": ref(1, "date")},
        ),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="none"), writes=True))


def pending_refill_cash(ctx: TemplateContext) -> Draft:
    """Sequential: a member's pending refill -> its prescription -> cash price of the fill."""
    refill = ctx.pick("refills", lambda r: r.status in ("requested", "ready"))
    m = ctx.world.table("members")[refill.member_id]
    mine = ctx.read("list_refills", member=m.member_id, status=refill.status)["results"]
    i = [r["refill_id"] for r in mine].index(refill.refill_id)
    tool, named = ctx.choose_source(PRICE_SOURCES)
    med = ctx.world.table("medications")[refill.medication_id].name
    prompt = ctx.say(
        *(
            (
                "{Whose} {med} refill is {status}. Without insurance, what would that fill "
                "cost at {source} prices?",
                "For the {status} refill of {med} ({whose}), look up the cash price of the "
                "full fill on {source}.",
            )
            if named
            else (
                "{Whose} {med} refill is {status}. Without insurance, what would that fill "
                "cost at cash prices?",
                "For the {status} refill of {med} ({whose}), look up the cash price of the "
                "full fill.",
            )
        ),
        Whose=owner(m).capitalize(),
        whose=owner(m),
        med=med,
        status=refill.status,
        source=PRICE_SOURCES[tool],
    )
    steps = [
        RefStep(tool="list_refills", args={"member": m.first_name, "status": refill.status}),
        *price_of_fill(tool, i),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "total_price_usd"]])))


def tablets_on_hand(ctx: TemplateContext) -> Draft:
    """Parallel: three to six prescriptions by Rx number; tablets on hand in total, or fewest."""
    rxs = ctx.sample("prescriptions", ctx.count(3, 6), lambda r: r.status == "active")
    op = ctx.rng.choice(["sum", "min", "max"])
    question = {
        "sum": "how many tablets or capsules are left in all those bottles together?",
        "min": "what's the smallest number of tablets or capsules left in any of them?",
        "max": "what's the largest number of tablets or capsules left in one of them?",
    }[op]
    prompt = ctx.say(
        "Checking the labels on prescriptions {rxs}: " + question,
        "Before I call the doctor for renewals, look up {rxs}. " + question.capitalize(),
        rxs=listing([r.prescription_id for r in rxs]),
    )
    steps = [
        RefStep(tool="get_prescription", args={"prescription_id": r.prescription_id}) for r in rxs
    ]
    answer = AnswerSpec(op=op, refs=[[i, "units_on_hand"] for i in range(len(rxs))])
    return finish(Draft(prompt, steps, answer))


def best_quote(ctx: TemplateContext) -> Draft:
    """Parallel: one drug's cash price from all three price services; the lowest quote."""
    med = ctx.pick("medications")
    quantity = ctx.rng.choice([30, 60, 90, 100])
    prompt = ctx.say(
        "Before I pay cash for {q} of {med}, get quotes from the national price index, "
        "ScriptSaver and PillMarket and tell me the lowest total.",
        "Shop around for {q} {med} tablets or capsules: ask all three price services and "
        "report the cheapest total quote.",
        q=quantity,
        med=med.name,
    )
    steps = [
        RefStep(tool=tool, args={"medication": med.name, "quantity": quantity})
        for tool in sorted(PRICE_SOURCES)
    ]
    answer = AnswerSpec(op="min", refs=[[i, "total_price_usd"] for i in range(3)], round=2)
    return finish(Draft(prompt, steps, answer))


def refill_at_found_pharmacy(ctx: TemplateContext) -> Draft:
    """Mixture, writes: find a pharmacy and the prescription -> refill there."""
    m, rxs, i = _refillable_rx(ctx)
    pharmacy = ctx.pick("pharmacies")
    pickup = ctx.day(ctx.rng.randint(1, 7))
    prompt = ctx.say(
        "Send {whose} {med} refill to the {chain} in {city} instead of the usual place, "
        "for pickup on {day}.",
        "We're staying near {city} this week. Have {whose} {med} refilled at the {chain} "
        "there, ready {day}.",
        whose=owner(m),
        med=rxs[i]["medication_name"],
        chain=pharmacy.chain,
        city=pharmacy.city,
        day=when(pickup),
    )
    steps = [
        RefStep(tool="search_pharmacies", args={"query": pharmacy.chain, "city": pharmacy.city}),
        RefStep(tool="list_prescriptions", args={"member": m.first_name, "status": "active"}),
        RefStep(
            tool="request_refill",
            args={
                "prescription_id": ref(1, "results", i, "prescription_id"),
                "pickup_date": pickup,
                "pharmacy": ref(0, "results", 0, "pharmacy_id"),
            },
        ),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="none"), writes=True))


def pending_total_cash(ctx: TemplateContext) -> Draft:
    """Mixture: pending refills -> cash price of each -> total."""
    status = ctx.rng.choice(["requested", "ready"])
    pending = ctx.read("list_refills", status=status)["results"]
    if len(pending) < 2:
        raise NoFit(f"fewer than two {status} refills")
    tool, named = ctx.choose_source(PRICE_SOURCES)
    prompt = ctx.say(
        *(
            (
                "If insurance covered none of the refills that are {status} right now, what "
                "would they cost together at {source} cash prices?",
                "Total up, by {source}, the cash price of every {status} refill in the household.",
            )
            if named
            else (
                "If insurance covered none of the refills that are {status} right now, what "
                "would they cost together at cash prices?",
                "Total up the cash price of every {status} refill in the household.",
            )
        ),
        status=status,
        source=PRICE_SOURCES[tool],
    )
    lead = RefStep(tool="list_refills", args={"status": status})
    steps, refs = price_each(lead, tool, len(pending), "quantity")
    return finish(Draft(prompt, steps, AnswerSpec(op="sum", refs=refs, round=2)))


SUBTOPIC = Subtopic(
    name="pharmacy refills",
    templates={
        "sequential": [refill_for_pickup, pickup_on_visit_day, pending_refill_cash],
        "parallel": [tablets_on_hand, best_quote],
        "mixture": [refill_at_found_pharmacy, pending_total_cash],
    },
)
