"""Insurance claims and coverage: deductibles, out-of-pocket limits and cost estimates."""

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
    find_member,
    finish,
    member,
    owner,
    require_free_slot,
    subject,
    then_each,
    when,
    who,
    window,
)

SERVICES = (
    ("an MRI", 1150.0, 2400.0),
    ("a knee X-ray", 180.0, 420.0),
    ("a dermatology visit", 140.0, 260.0),
    ("physical therapy", 95.0, 180.0),
    ("an allergy panel", 220.0, 480.0),
    ("a sleep study", 900.0, 1800.0),
    ("an ultrasound", 310.0, 620.0),
    ("a knee arthroscopy", 3200.0, 6400.0),
    ("an overnight hospital stay", 4200.0, 9800.0),
    ("a CT scan", 900.0, 2600.0),
)
PLAN_FIELDS = {
    "deductible_remaining_usd": "deductible still to meet",
    "oop_remaining_usd": "room left under the out-of-pocket maximum",
    "deductible_met_usd": "amount already paid toward the deductible",
}


def _amount(ctx: TemplateContext, low: float, high: float) -> float:
    return round(ctx.rng.uniform(low, high) / 5) * 5.0


def planned_procedure(ctx: TemplateContext) -> Draft:
    """Sequential: find the member -> their plan -> estimate a procedure's cost share."""
    m = member(ctx)
    service, low, high = ctx.rng.choice(SERVICES)
    allowed = _amount(ctx, low, high)
    plan = ctx.read("get_insurance_plan", member=m.member_id)
    if allowed <= plan["deductible_remaining_usd"]:
        raise NoFit("the deductible alone would cover the whole bill")
    ask = ctx.rng.choice(["member_pays_usd", "plan_pays_usd"])
    question = {
        "member_pays_usd": "how much will {name} owe",
        "plan_pays_usd": "how much will the plan pay",
    }[ask]
    prompt = ctx.say(
        "{Whose} doctor ordered {service}; the plan's allowed amount is ${allowed:,.0f}. "
        "Given this year's deductible and coinsurance so far, " + question + "?",
        "Estimate for {service} (allowed ${allowed:,.0f}) under {whose} health plan: "
        + question
        + "?",
        Whose=owner(m).capitalize(),
        whose=owner(m),
        name=subject(m),
        service=service,
        allowed=allowed,
    )
    steps = [
        *find_member(m, "get_insurance_plan"),
        RefStep(
            tool="estimate_cost",
            args={"member": ref(1, "member_id"), "allowed_usd": allowed},
        ),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, ask]], round=2)))


def reestimate_claim(ctx: TemplateContext) -> Draft:
    """Sequential: a member's claims -> their plan -> today's estimate for one claim."""
    claim = ctx.pick("claims", lambda c: c.status != "denied")
    m = ctx.world.table("members")[claim.member_id]
    mine = ctx.read("list_claims", member=m.member_id, status=claim.status)["results"]
    i = [c["claim_id"] for c in mine].index(claim.claim_id)
    prompt = ctx.say(
        "If {whose} {service} claim from {date} were billed again today, with this year's "
        "deductible progress, what would the member share be?",
        "Re-run the cost estimate for {whose} {status} {service} claim dated {date}, using "
        "its allowed amount and the plan's current accumulators. What would we owe?",
        whose=owner(m),
        service=claim.service,
        status=claim.status,
        date=when(claim.service_date),
    )
    steps = [
        RefStep(tool="list_claims", args={"member": m.first_name, "status": claim.status}),
        RefStep(tool="get_insurance_plan", args={"member": ref(0, "results", i, "member_id")}),
        RefStep(
            tool="estimate_cost",
            args={
                "member": ref(1, "member_id"),
                "allowed_usd": ref(0, "results", i, "allowed_usd"),
            },
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "member_pays_usd"]], round=2)
    return finish(Draft(prompt, steps, answer))


def claim_clinic_followup(ctx: TemplateContext) -> Draft:
    """Sequential: a member's claims -> the latest claim's clinic -> its wait, or a booking.

    Claims name the provider, a clinic; the clinic's id comes from a search. Asks for the
    clinic's current wait (3 calls) or books its first free slot of a specialty (4 calls).
    """
    status = ctx.rng.choice(["paid", "processing"])
    clinics = {c.name: c for c in ctx.rows("clinics")}

    def fits(p: Any) -> bool:
        mine = ctx.read("list_claims", member=p.member_id, status=status)["results"]
        return bool(mine) and mine[-1]["provider"] in clinics

    m = member(ctx, fits)
    claims = ctx.read("list_claims", member=m.member_id, status=status)["results"]
    last = len(claims) - 1
    clinic = clinics[claims[last]["provider"]]
    steps = [
        RefStep(tool="list_claims", args={"member": m.first_name, "status": status}),
        RefStep(tool="search_clinics", args={"query": ref(0, "results", last, "provider")}),
    ]
    if ctx.rng.random() < 0.5:
        prompt = ctx.say(
            "Where was {whose} most recent {status} claim from? How long is the wait at that "
            "clinic right now, by its own check-in system?",
            "{Whose} latest {status} insurance claim names a clinic. What's the current "
            "wait there in minutes (the clinic's own figure)?",
            whose=owner(m),
            Whose=owner(m).capitalize(),
            status=status,
        )
        steps.append(
            RefStep(tool="get_clinic_wait_time", args={"clinic": ref(1, "results", 0, "clinic_id")})
        )
        return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "wait_minutes"]])))
    specialty = ctx.rng.choice(clinic.specialties)
    d1, d2 = window(ctx, (1, 7), (3, 6))
    require_free_slot(ctx, specialty, clinic.clinic_id, (d1, d2), "slot")
    prompt = ctx.say(
        "Book {name} a follow-up at the clinic of {whose} most recent {status} claim: the "
        "first free {spec} slot between {d1} and {d2}, reason 'claim follow-up'.",
        "{Whose} latest {status} claim was at some clinic; get {name} the earliest {spec} "
        "appointment there from {d1} to {d2} (reason: claim follow-up).",
        name=who(m),
        whose=owner(m),
        Whose=owner(m).capitalize(),
        status=status,
        spec=specialty,
        d1=d1,
        d2=d2,
    )
    steps += [
        RefStep(
            tool="find_appointment_slots",
            args={
                "specialty": specialty,
                "clinic": ref(1, "results", 0, "clinic_id"),
                "from_date": d1,
                "to_date": d2,
            },
        ),
        RefStep(
            tool="book_appointment",
            args={
                "member": ref(0, "results", last, "member_id"),
                "slot_id": ref(2, "results", 0, "slot_id"),
                "reason": "claim follow-up",
            },
        ),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="none"), writes=True))


def family_deductibles(ctx: TemplateContext) -> Draft:
    """Parallel: three to five members' plans; total, most or least of one accumulator."""
    people = ctx.sample("members", ctx.count(3, 5))
    field = ctx.rng.choice(sorted(PLAN_FIELDS))
    op = ctx.rng.choice(["sum", "max", "min"])
    words = {"sum": "the total", "max": "the largest", "min": "the smallest"}[op]
    prompt = ctx.say(
        "For {names}, what's {words} {what} this year, in dollars?",
        "Pull the plan status of {names}: {words} {what}?",
        names=listing([p.first_name for p in people]),
        words=words,
        what=PLAN_FIELDS[field],
    )
    steps = [RefStep(tool="get_insurance_plan", args={"member": p.first_name}) for p in people]
    answer = AnswerSpec(op=op, refs=[[i, field] for i in range(len(people))], round=2)
    return finish(Draft(prompt, steps, answer))


def same_bill_three_people(ctx: TemplateContext) -> Draft:
    """Parallel: one allowed amount estimated for three to five members; total or most owed."""
    people = ctx.sample("members", ctx.count(3, 5))
    service, low, high = ctx.rng.choice(SERVICES)
    allowed = _amount(ctx, low, high)
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "what would they owe all together",
        "max": "what's the most any one of them would owe",
    }[op]
    prompt = ctx.say(
        "{names} each need {service} (allowed amount ${allowed:,.0f}). With each "
        "person's deductible status, " + question + "?",
        "Estimate {service} at ${allowed:,.0f} allowed for each of {names}: " + question + "?",
        names=listing([p.first_name for p in people]),
        service=service,
        allowed=allowed,
    )
    steps = [
        RefStep(tool="estimate_cost", args={"member": p.first_name, "allowed_usd": allowed})
        for p in people
    ]
    answer = AnswerSpec(op=op, refs=[[i, "member_pays_usd"] for i in range(len(people))], round=2)
    return finish(Draft(prompt, steps, answer))


def treatment_plan_total(ctx: TemplateContext) -> Draft:
    """Mixture: find the member -> estimate two to five planned services -> total owed."""
    m = member(ctx)
    services = ctx.rng.sample(SERVICES, ctx.count(2, 5))
    amounts = [_amount(ctx, low, high) for _, low, high in services]
    named = listing([f"{s[0]} (${a:,.0f} allowed)" for s, a in zip(services, amounts, strict=True)])
    prompt = ctx.say(
        "There are {n} things coming up for {name}: {bills}. Estimating each one separately "
        "against the current deductible status, what's the total out of pocket?",
        "What's planned for {name}: {bills}. Add up the separate member-share estimates.",
        name=who(m),
        whose=owner(m),
        n=len(services),
        bills=named,
    )
    lead = [RefStep(tool="search_members", args={"query": m.first_name})]
    bills = [{"member": ref(0, "results", 0, "member_id"), "allowed_usd": a} for a in amounts]
    steps, refs = then_each(lead, "estimate_cost", bills, "member_pays_usd")
    return finish(Draft(prompt, steps, AnswerSpec(op="sum", refs=refs, round=2)))


def claims_reestimated(ctx: TemplateContext) -> Draft:
    """Mixture: a member's paid claims -> estimate each at today's accumulators -> most."""
    m = member(
        ctx,
        lambda p: 2 <= ctx.read("list_claims", member=p.member_id, status="paid")["total"] <= 6,
    )
    claims = ctx.read("list_claims", member=m.member_id, status="paid")["results"]
    prompt = ctx.say(
        "Go through {whose} paid claims this year and re-estimate each at today's deductible "
        "status. Which would cost us the most now, and how much?",
        "If each of {whose} paid claims were billed again today, what is the largest "
        "member share any of them would carry?",
        whose=owner(m),
    )
    lead = [RefStep(tool="list_claims", args={"member": m.first_name, "status": "paid"})]
    bills = [
        {"member": m.first_name, "allowed_usd": ref(0, "results", i, "allowed_usd")}
        for i in range(len(claims))
    ]
    steps, refs = then_each(lead, "estimate_cost", bills, "member_pays_usd")
    return finish(Draft(prompt, steps, AnswerSpec(op="max", refs=refs, round=2)))


SUBTOPIC = Subtopic(
    name="insurance claims and coverage",
    templates={
        "sequential": [planned_procedure, reestimate_claim, claim_clinic_followup],
        "parallel": [family_deductibles, same_bill_three_people],
        "mixture": [treatment_plan_total, claims_reestimated],
    },
)
