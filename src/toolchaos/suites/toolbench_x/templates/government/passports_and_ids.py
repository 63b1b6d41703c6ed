"""Passports and IDs: replacing documents, fees, applying and passport office queues."""

from __future__ import annotations

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref, when
from toolchaos.suites.toolbench_x.templates.government._helpers import (
    found_by_name,
    office_kind_parallel,
    office_waits_mixture,
    offices,
    resident,
)

DOC_WORDS = {
    "passport_book": "passport",
    "passport_card": "passport card",
    "state_id": "state ID",
    "driver_licence": "driver's licence",
}


def cheapest_replacement(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> documents (soonest expiry first) -> cheapest service."""
    res = resident(ctx)
    field = ctx.rng.choice(["fee_usd", "processing_business_days"])
    words = {
        "fee_usd": "what the cheapest service for it costs",
        "processing_business_days": "how many business days the cheapest service takes",
    }[field]
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


def family_document_fees(ctx: TemplateContext) -> Draft:
    """Parallel: three document services for a family trip; total or highest fee."""
    docs = ctx.rng.sample(sorted(DOC_WORDS), 3)
    speed = ctx.rng.choice(["routine", "expedited"])
    op = ctx.rng.choice(["sum", "max", "min"])
    q = {
        "sum": "what do the cheapest options add up to",
        "max": "what's the priciest of the three cheapest options",
        "min": "what's the least expensive of them",
    }[op]
    if speed == "expedited":
        docs = [
            "passport_book",
            "driver_licence",
            ctx.rng.choice(["passport_book", "driver_licence"]),
        ]
        if docs[2] == docs[0]:
            raise NoFit("duplicate")
    prompt = ctx.say(
        "Family admin: we need a {a}, a {b} and a {c}, {speed} service. Taking the cheapest "
        "{speed} option for each, {q}?",
        "Cheapest {speed} service for each of a {a}, a {b} and a {c}: {q}?",
        a=DOC_WORDS[docs[0]],
        b=DOC_WORDS[docs[1]],
        c=DOC_WORDS[docs[2]],
        speed=speed,
        q=q,
    )
    steps = [RefStep(tool="list_id_services", args={"document": d, "speed": speed}) for d in docs]
    refs = [[i, "results", 0, "fee_usd"] for i in range(3)]
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
    """Mixture: two residents' documents -> cheapest service for each first document -> sum."""
    a = resident(ctx)
    b = resident(ctx, lambda r: r.resident_id != a.resident_id)
    field = ctx.rng.choice(["fee_usd", "processing_business_days"])
    op = ctx.rng.choice(["sum", "max"])
    words = {
        ("fee_usd", "sum"): "the two fees together",
        ("fee_usd", "max"): "the higher of the two fees",
        ("processing_business_days", "sum"): "the two processing times added up (business days)",
        ("processing_business_days", "max"): "the longer processing time (business days)",
    }[(field, op)]
    prompt = ctx.say(
        "{a} and {b} each want to replace the ID document of theirs that expires soonest, "
        "using the cheapest service. What's {w}?",
        "For both {a} and {b}: take the document expiring first, find the cheapest service "
        "for it, and give me {w}.",
        a=a.name,
        b=b.name,
        w=words,
    )
    steps = [
        RefStep(tool="list_id_documents", args={"resident": a.name}),
        RefStep(tool="list_id_documents", args={"resident": b.name}),
        RefStep(tool="list_id_services", args={"document": ref(0, "results", 0, "document")}),
        RefStep(tool="list_id_services", args={"document": ref(1, "results", 0, "document")}),
    ]
    refs = [[2, "results", 0, field], [3, "results", 0, field]]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="passports and ids",
    templates={
        "sequential": [cheapest_replacement, apply_and_book_verification],
        "parallel": [passport_office_queue, family_document_fees],
        "mixture": [passport_office_waits, ready_dates_of_two],
    },
)
