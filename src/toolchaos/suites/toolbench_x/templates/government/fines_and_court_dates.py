"""Fines and court dates: amounts due with late fees, paying, contesting, court queues."""

from __future__ import annotations

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
    errand_waits_parallel,
    found_by_name,
    office_waits_mixture,
    resident,
)


def _unpaid(ctx: TemplateContext, owner: str | None = None, plate: str | None = None) -> list[dict]:  # type: ignore[type-arg]
    args = {"status": "unpaid"}
    if owner is not None:
        args["resident"] = owner
    if plate is not None:
        args["plate"] = plate
    found: list[dict] = ctx.read("list_citations", **args)["results"]  # type: ignore[type-arg]
    return found


def oldest_ticket_due(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> unpaid citations -> the oldest one (-> pay it).

    A longer variant pays the ticket in full and reports what was paid.
    """
    res = resident(ctx, lambda r: bool(_unpaid(ctx, owner=r.resident_id)))
    field = ctx.rng.choice(["amount_due_usd", "late_fee_usd", "amount_due_usd"])
    words = {"amount_due_usd": "how much I owe on it today", "late_fee_usd": "its late fee so far"}
    oldest = _unpaid(ctx, owner=res.resident_id)[0]
    if ctx.rng.random() < 0.4:
        prompt = ctx.say(
            "I'm {name}. Please pay my oldest unpaid parking or traffic ticket in full, late "
            "fee included. How much did that come to?",
            "{name} here: settle the earliest-issued of my unpaid citations, the full amount "
            "due today, and tell me what was paid.",
            name=res.name,
        )
        steps = [
            *found_by_name(res, "list_citations", status="unpaid"),
            RefStep(tool="get_citation", args={"citation_id": ref(1, "results", 0, "citation_id")}),
            RefStep(
                tool="pay_citation",
                args={"citation_id": ref(2, "citation_id"), "amount_usd": ref(2, "amount_due_usd")},
            ),
        ]
        answer = AnswerSpec(op="value", refs=[[3, "paid_usd"]], round=2)
        return Draft(prompt, steps, answer, writes=True)
    if not oldest[field]:
        raise NoFit("no late fee yet")
    prompt = ctx.say(
        "I'm {name}. For my oldest unpaid parking or traffic ticket, {w}?",
        "{name} has some unpaid citations. Take the earliest-issued one: {w}?",
        "This is {name}: look up my oldest outstanding ticket and tell me {w}.",
        name=res.name,
        w=words[field],
    )
    steps = [
        *found_by_name(res, "list_citations", status="unpaid"),
        RefStep(tool="get_citation", args={"citation_id": ref(1, "results", 0, "citation_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def pay_oldest_for_plate(ctx: TemplateContext) -> Draft:
    """Sequential, writes: unpaid citations of a plate -> the oldest -> pay it in full."""
    car = ctx.pick("vehicles", lambda c: bool(_unpaid(ctx, plate=c.plate)))
    prompt = ctx.say(
        "Pay off the oldest unpaid ticket on plate {plate} in full, including any late fee.",
        "My car {plate} has an outstanding citation; settle the earliest one for the exact "
        "amount due.",
        "Please clear the oldest unpaid fine for {plate} today.",
        plate=car.plate,
    )
    steps = [
        RefStep(tool="list_citations", args={"plate": car.plate, "status": "unpaid"}),
        RefStep(tool="get_citation", args={"citation_id": ref(0, "results", 0, "citation_id")}),
        RefStep(
            tool="pay_citation",
            args={"citation_id": ref(1, "citation_id"), "amount_usd": ref(1, "amount_due_usd")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def contest_and_check_court(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the citation -> contest it -> confirm the hearing."""
    cit = ctx.pick("citations", lambda c: c.status == "unpaid")
    reason = ctx.rng.choice(
        [
            "The meter was broken",
            "My car had been sold before that date",
            "Signage was covered by a tree",
            "I had a valid residential permit displayed",
        ]
    )
    prompt = ctx.say(
        "I want to fight ticket {cid}: {reason}. Contest it and make sure a hearing is set.",
        "Please contest citation {cid} (reason: {reason}) and confirm the court date.",
        cid=cit.citation_id,
        reason=reason.lower(),
    )
    steps = [
        RefStep(tool="get_citation", args={"citation_id": cit.citation_id}),
        RefStep(
            tool="contest_citation",
            args={"citation_id": ref(0, "citation_id"), "reason": reason},
        ),
        RefStep(tool="list_citations", args={"citation_id": ref(1, "citation_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def three_tickets_total(ctx: TemplateContext) -> Draft:
    """Parallel: k citations by id; total or largest amount due."""
    k = ctx.count(3, 6)
    cits = ctx.sample("citations", k, lambda c: c.status == "unpaid")
    field = ctx.rng.choice(["amount_due_usd", "late_fee_usd"])
    if field == "late_fee_usd" and not any(
        ctx.read("get_citation", citation_id=c.citation_id)[field] for c in cits
    ):
        raise NoFit("no late fees")
    op = ctx.rng.choice(["sum", "max"])
    words = {"amount_due_usd": "amount due", "late_fee_usd": "late fee"}[field]
    q = {"sum": f"What's the total {words}", "max": f"What's the biggest single {words}"}[op]
    prompt = ctx.say(
        "I found {n} tickets in my glovebox: {all}. {q} today?",
        "Citations {all} - {q} as of today?",
        all=listing([x.citation_id for x in cits]),
        n=NUMBERS[k],
        q=q,
    )
    steps = [RefStep(tool="get_citation", args={"citation_id": c.citation_id}) for c in cits]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, field] for i in range(k)], round=2))


court_day_errands = errand_waits_parallel(
    ("court", "motor_vehicles", "city_services"),
    "Tomorrow I'm at the {a} for my ticket, then the {b}, then the {c}.",
    "court_day_errands",
)

court_waits = office_waits_mixture(
    "court",
    (
        "I have to pay a fine in person at a courthouse clerk's window.",
        "I need to file paperwork about a traffic ticket at a court.",
    ),
    "court_waits",
)


def two_plates_due(ctx: TemplateContext) -> Draft:
    """Mixture: unpaid citations of k plates (independent) -> oldest of each -> sum/max."""
    k = ctx.count(2, 5)
    cars = ctx.sample("vehicles", k, lambda c: bool(_unpaid(ctx, plate=c.plate)))
    op = ctx.rng.choice(["sum", "max"])
    q = {"sum": "those amounts due together", "max": "the largest of those amounts due"}[op]
    prompt = ctx.say(
        "Our {n} cars, {all}, each have unpaid tickets. Looking only at the oldest one for "
        "each car, what's {q}?",
        "For plates {all}, take each car's earliest unpaid citation. What is {q} today?",
        n=NUMBERS[k],
        all=listing([c.plate for c in cars]),
        q=q,
    )
    steps = [
        RefStep(tool="list_citations", args={"plate": c.plate, "status": "unpaid"}) for c in cars
    ]
    steps += [
        RefStep(tool="get_citation", args={"citation_id": ref(i, "results", 0, "citation_id")})
        for i in range(k)
    ]
    refs = [[k + i, "amount_due_usd"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="fines and court dates",
    templates={
        "sequential": [oldest_ticket_due, pay_oldest_for_plate, contest_and_check_court],
        "parallel": [three_tickets_total, court_day_errands],
        "mixture": [court_waits, two_plates_due],
    },
)
