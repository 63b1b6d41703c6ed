"""Passports and IDs: replacing documents, fees, applying and passport office queues."""

from __future__ import annotations

from collections import Counter
from typing import Any

from toolchaos.core.errors import ToolError
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
    distinct_residents,
    found_by_name,
    office_kind_parallel,
    office_waits_mixture,
    offices,
    resident,
    resident_office_wait,
)

DOC_WORDS = {
    "passport_book": "passport",
    "passport_card": "passport card",
    "state_id": "state ID",
    "driver_licence": "driver's licence",
}


def _apply_for_soonest(ctx: TemplateContext, res: Any) -> Draft:
    """Find the resident -> documents -> cheapest service -> apply at a fitting office."""
    document = ctx.read("list_id_documents", resident=res.resident_id)["results"][0]["document"]
    service = ctx.read("list_id_services", document=document)["results"][0]["service_code"]
    kind = "passports" if document.startswith("passport") else "motor_vehicles"
    office = ctx.rng.choice(offices(ctx, kind))
    try:  # a probe on a throwaway fork: does the office take this application today?
        ctx.domain.tools["apply_for_id_document"](
            ctx.world.fork(), resident=res.resident_id, service_code=service, office=office.name
        )
    except ToolError as exc:
        raise NoFit(f"the application is refused: {exc}") from exc
    field, asks = ctx.rng.choice(
        [("fee_usd", "what fee was charged"), ("estimated_ready", "when will it be ready")]
    )
    prompt = ctx.say(
        "I'm {name}. Take whichever of my ID documents expires first and apply for its "
        "cheapest service at the {office} today. {Asks}?",
        "{name} here. Renew my soonest-expiring ID document with the cheapest service; file "
        "it at the {office}. {Asks}?",
        name=res.name,
        office=office.name,
        Asks=asks[0].upper() + asks[1:],
    )
    steps = [
        *found_by_name(res, "list_id_documents"),
        RefStep(tool="list_id_services", args={"document": ref(1, "results", 0, "document")}),
        RefStep(
            tool="apply_for_id_document",
            args={
                "resident": ref(0, "results", 0, "resident_id"),
                "service_code": ref(2, "results", 0, "service_code"),
                "office": office.name,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, field]], round=2), writes=True)


def cheapest_replacement(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> documents (soonest expiry first) -> cheapest service.

    A longer variant applies for that service at an office that handles the document.
    """
    res = resident(ctx)
    field = ctx.rng.choice(["fee_usd", "processing_business_days"])
    words = {
        "fee_usd": "what the cheapest service for it costs",
        "processing_business_days": "how many business days the cheapest service takes",
    }[field]
    if ctx.rng.random() < 0.4:
        return _apply_for_soonest(ctx, res)
    prompt = ctx.say(
        "I'm {name}. Whichever of my ID documents expires first, I want to deal with it now: {w}?",
        "{name} here. Find my document with the nearest expiry date and tell me {w}.",
        "For {name}'s soonest-expiring identity document, {w}?",
        name=res.name,
        w=words,
    )
    steps = [
        *found_by_name(res, "list_id_documents"),
        RefStep(tool="list_id_services", args={"document": ref(1, "results", 0, "document")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "results", 0, field]], round=2))


def apply_and_book_verification(ctx: TemplateContext) -> Draft:
    """Sequential, writes: service -> apply at an office -> its slots -> book verification."""
    document = ctx.rng.choice(["passport_book", "passport_card"])
    speed = "expedited" if document == "passport_book" and ctx.rng.random() < 0.5 else "routine"
    office = ctx.rng.choice(offices(ctx, "passports"))
    res = resident(ctx)
    busy = ctx.read("list_id_applications", resident=res.resident_id)["results"]
    if any(a["document"] == document and a["status"] == "processing" for a in busy):
        raise NoFit("already processing")
    slot_day = ctx.day(ctx.rng.randint(1, 7))
    if ctx.read("list_appointment_slots", office=office.office_id, date=slot_day)["total"] == 0:
        raise NoFit("no open slot")
    prompt = ctx.say(
        "Start the cheapest {speed} {doc} application for {name} at the {office}, then book "
        "the first identity-verification slot there on {d}.",
        "{name} needs a {doc} ({speed} service, the cheapest one). Apply at the {office} and "
        "reserve the earliest ID-verification appointment on {d}.",
        speed=speed,
        doc=DOC_WORDS[document],
        name=res.name,
        office=office.name,
        d=when(slot_day),
    )
    steps = [
        RefStep(tool="list_id_services", args={"document": document, "speed": speed}),
        RefStep(
            tool="apply_for_id_document",
            args={
                "resident": res.name,
                "service_code": ref(0, "results", 0, "service_code"),
                "office": office.name,
            },
        ),
        RefStep(
            tool="list_appointment_slots", args={"office": ref(1, "office_id"), "date": slot_day}
        ),
        RefStep(
            tool="book_appointment",
            args={
                "resident": ref(1, "resident_id"),
                "slot_id": ref(2, "results", 0, "slot_id"),
                "service": "identity_verification",
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


passport_office_queue = office_kind_parallel(
    "passports",
    "I'm choosing where to hand in my passport form: the {a}, the {b} or the {c}.",
    "passport_office_queue",
)


def first_slot_for_my_application(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> their ID application -> its office's first slot."""
    applied = Counter(a.resident_id for a in ctx.rows("id_applications"))
    res = resident(ctx, lambda r: applied[r.resident_id] == 1)
    field, asks = ctx.rng.choice(
        [
            ("date", "on what date is the first open appointment slot there"),
            ("time", "at what time is the first open appointment slot there"),
        ]
    )
    prompt = ctx.say(
        "I'm {name}. I need to go back to the office handling my ID application: {asks}?",
        "This is {name}. Find the office my ID application is at; {asks}?",
        name=res.name,
        asks=asks,
    )
    steps = found_by_name(res, "list_id_applications")
    steps.append(
        RefStep(tool="list_appointment_slots", args={"office": ref(1, "results", 0, "office_id")})
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "results", 0, field]]))


def family_document_fees(ctx: TemplateContext) -> Draft:
    """Parallel: k different document services for a family trip; total or highest fee.

    Routine service only: expedited service exists for two documents alone, and a list
    naming one document twice reads as a glitch.
    """
    k = ctx.count(3, len(DOC_WORDS))
    docs = ctx.rng.sample(sorted(DOC_WORDS), k)
    speed = "routine"
    op = ctx.rng.choice(["sum", "max", "min"])
    q = {
        "sum": "what do the cheapest options add up to",
        "max": "what's the priciest of those cheapest options",
        "min": "what's the least expensive of them",
    }[op]
    prompt = ctx.say(
        "Family admin: we need {docs}, {speed} service. Taking the cheapest {speed} option "
        "for each, {q}?",
        "Cheapest {speed} service for each of {docs}: {q}?",
        docs=listing([f"a {DOC_WORDS[d]}" for d in docs]),
        speed=speed,
        q=q,
    )
    steps = [RefStep(tool="list_id_services", args={"document": d, "speed": speed}) for d in docs]
    refs = [[i, "results", 0, "fee_usd"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


passport_office_waits = office_waits_mixture(
    "passports",
    (
        "I need to apply for a passport in person.",
        "Where should I take my kid's passport application?",
    ),
    "passport_office_waits",
)


def ready_dates_of_two(ctx: TemplateContext) -> Draft:
    """Mixture: k residents' documents -> cheapest service for each first document -> sum."""
    k = ctx.count(2, 5)
    people = distinct_residents(ctx, k)
    field = ctx.rng.choice(["fee_usd", "processing_business_days"])
    op = ctx.rng.choice(["sum", "max"])
    words = {
        ("fee_usd", "sum"): "those fees together",
        ("fee_usd", "max"): "the highest of those fees",
        ("processing_business_days", "sum"): "those processing times added up (business days)",
        ("processing_business_days", "max"): "the longest of those processing times (business "
        "days)",
    }[(field, op)]
    prompt = ctx.say(
        "{all} each want to replace the ID document of theirs that expires soonest, using "
        "the cheapest service. What's {w}?",
        "For each of {all}: take the document expiring first, find the cheapest service for "
        "it, and give me {w}.",
        all=listing([p.name for p in people]),
        w=words,
    )
    steps = [RefStep(tool="list_id_documents", args={"resident": p.name}) for p in people]
    steps += [
        RefStep(tool="list_id_services", args={"document": ref(i, "results", 0, "document")})
        for i in range(k)
    ]
    refs = [[k + i, "results", 0, field] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


my_id_office_wait = resident_office_wait(
    "id_applications",
    "list_id_applications",
    lambda app: DOC_WORDS.get(app.document, "ID"),
    (
        "This is {name}. I have a {thing} application on file and need to drop by the "
        "office handling it.",
        "I'm {name}; a clerk wants to see me at the office that took my {thing} application.",
    ),
    "my_id_office_wait",
)


SUBTOPIC = Subtopic(
    name="passports and ids",
    templates={
        "sequential": [
            cheapest_replacement,
            apply_and_book_verification,
            first_slot_for_my_application,
            my_id_office_wait,
        ],
        "parallel": [passport_office_queue, family_document_fees],
        "mixture": [passport_office_waits, ready_dates_of_two],
    },
)
