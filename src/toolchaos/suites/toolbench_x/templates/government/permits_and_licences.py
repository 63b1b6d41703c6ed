"""Permits and licences: review times, fees, applying and booking a document drop-off."""

from __future__ import annotations

from collections import Counter

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
    errand_waits_parallel,
    found_by_name,
    office_waits_mixture,
    resident,
)

PENDING = ("submitted", "under_review")


def decision_for_pending_application(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> their pending applications -> decision date."""
    status = ctx.rng.choice(PENDING)

    def one_pending(res: object) -> bool:
        found = ctx.read("list_permit_applications", resident=res.resident_id, status=status)  # type: ignore[attr-defined]
        return bool(found["total"] == 1)

    res = resident(ctx, one_pending)
    app = ctx.read("list_permit_applications", resident=res.resident_id, status=status)
    permit = app["results"][0]["permit_name"]
    prompt = ctx.say(
        "This is {name}. My {permit} application is {words}. Counting business days from "
        "the day I submitted it, on what date should the city decide?",
        "Could you work out when the decision on {name}'s {permit} application (status: "
        "{words}) is due? Use its submission date and whether it was expedited.",
        "I'm {name} and I'm waiting on a {permit}. When will the review of my {words} "
        "application finish?",
        name=res.name,
        permit=permit.lower(),
        words=status.replace("_", " "),
    )
    steps = [
        *found_by_name(res, "list_permit_applications", status=status),
        RefStep(
            tool="estimate_decision_date",
            args={
                "permit_type": ref(1, "results", 0, "permit_type"),
                "start_date": ref(1, "results", 0, "submitted_on"),
                "expedited": ref(1, "results", 0, "expedited"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "decision_date"]]))


def apply_and_book_drop_off(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: permit type -> apply -> reviewing office's slots -> book."""
    permit = ctx.pick("permit_types")
    res = resident(ctx)
    busy = ctx.read("list_permit_applications", resident=res.resident_id)["results"]
    if any(a["permit_type"] == permit.code and a["status"] in PENDING for a in busy):
        raise NoFit("already pending")
    offset = ctx.rng.randint(1, 7)
    slot_day = ctx.day(offset)
    slots = ctx.read("list_appointment_slots", office=permit.office_id, date=slot_day)
    if slots["total"] == 0:
        raise NoFit("no open slot that day")
    expedited = ctx.rng.random() < 0.3
    prompt = ctx.say(
        "Please file a {permit} application for {name}{exp}, then book the earliest open "
        "document drop-off slot on {d} at whichever office reviews that permit.",
        "{name} wants a {permit}{exp}. Submit the application and grab the first free "
        "drop-off appointment on {d} at the reviewing office.",
        permit=permit.name.lower(),
        name=res.name,
        exp=" (expedited review)" if expedited else "",
        d=when(slot_day),
    )
    args = {"resident": res.name, "permit_type": ref(0, "results", 0, "code")}
    if expedited:
        args["expedited"] = True
    steps = [
        RefStep(tool="list_permit_types", args={"name_contains": permit.name}),
        RefStep(tool="apply_for_permit", args=args),
        RefStep(
            tool="list_appointment_slots",
            args={"office": ref(1, "office_id"), "date": slot_day},
        ),
        RefStep(
            tool="book_appointment",
            args={
                "resident": ref(1, "resident_id"),
                "slot_id": ref(2, "results", 0, "slot_id"),
                "service": "document_drop_off",
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


_FEE_WORDS = {
    "sum": "What will the base fees come to altogether",
    "max": "Which base fee is the highest of the three, in dollars",
    "min": "What's the cheapest of the three base fees",
}


def withdraw_my_pending(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the resident -> their one pending application -> withdraw."""
    status = ctx.rng.choice(["submitted", "under_review"])
    pending = Counter(a.resident_id for a in ctx.rows("permit_applications") if a.status == status)
    res = resident(ctx, lambda r: pending[r.resident_id] == 1)
    words = {"submitted": "I only just submitted", "under_review": "is being reviewed"}[status]
    prompt = ctx.say(
        "I'm {name}. Please withdraw my permit application that {words}; I've changed my plans.",
        "This is {name}. I want to pull my permit application that {words}.",
        name=res.name,
        words=words if status == "under_review" else "I only just submitted",
    )
    steps = found_by_name(res, "list_permit_applications", status=status)
    steps.append(
        RefStep(
            tool="withdraw_permit_application",
            args={"application_id": ref(1, "results", 0, "application_id")},
        )
    )
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def permit_fee_bundle(ctx: TemplateContext) -> Draft:
    """Parallel: look up k permits by name; sum or extreme of their base fees."""
    k = ctx.count(3, 6)
    permits = ctx.sample("permit_types", k)
    op = ctx.rng.choice(sorted(_FEE_WORDS))
    prompt = ctx.say(
        "For my renovation I'll need {each}. {q}?",
        "Quick fee check on {n} city permits: {all}. {q}?",
        "We're budgeting paperwork: {all}. {q}?",
        each=listing([f"a {p.name.lower()}" for p in permits]),
        all=listing([p.name for p in permits]),
        n=NUMBERS[k],
        q=_FEE_WORDS[op],
    )
    steps = [RefStep(tool="list_permit_types", args={"name_contains": p.name}) for p in permits]
    refs = [[i, "results", 0, "base_fee_usd"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def latest_decision_of_three(ctx: TemplateContext) -> Draft:
    """Parallel: decision estimates for k permits applied for today; longest wait."""
    k = ctx.count(3, 6)
    permits = ctx.sample("permit_types", k)
    days = [p.processing_business_days for p in permits]
    if days.count(max(days)) > 1:
        raise NoFit("tie")
    op = ctx.rng.choice(["max", "sum"])
    question = {
        "max": "how many calendar days until the slowest of those decisions",
        "sum": "what's the total of the calendar days each decision takes",
    }[op]
    prompt = ctx.say(
        "If I apply today for {each}, {q}?",
        "Applying today for permits {codes} (no expediting): {q}?",
        each=listing([f"a {p.name.lower()} ({p.code})" for p in permits]),
        codes=listing([p.code for p in permits]),
        q=question,
    )
    steps = [RefStep(tool="estimate_decision_date", args={"permit_type": p.code}) for p in permits]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, "calendar_days"] for i in range(k)]))


permit_counter_waits = office_waits_mixture(
    "permits",
    (
        "I need to drop plans off at a permit counter today.",
        "Which permit office should I go to?",
        "I'm a contractor visiting the city's permit offices.",
    ),
    "permit_counter_waits",
)

permit_day_errands = errand_waits_parallel(
    ("permits", "tax", "city_services"),
    "Errand day: first the {a}, then the {b}, then the {c}.",
    "permit_day_errands",
)


def fees_of_pending_applications(ctx: TemplateContext) -> Draft:
    """Mixture: resident's applications in a status -> each permit type's fee -> sum/max."""
    status = ctx.rng.choice(["approved", "submitted", "under_review"])

    def two_plus(res: object) -> bool:
        found = ctx.read("list_permit_applications", resident=res.resident_id, status=status)  # type: ignore[attr-defined]
        return bool(2 <= found["total"] <= 4)

    res = resident(ctx, two_plus)
    apps = ctx.read("list_permit_applications", resident=res.resident_id, status=status)
    op = ctx.rng.choice(["sum", "max"])
    words = {"sum": "total of the standard base fees", "max": "highest standard base fee"}[op]
    prompt = ctx.say(
        "For each of {name}'s {st} permit applications, look up the permit's standard base "
        "fee. What's the {w}?",
        "{name} has several {st} applications. What is the {w} across those permit types?",
        name=res.name,
        st=status.replace("_", " "),
        w=words,
    )
    steps = [
        RefStep(tool="list_permit_applications", args={"resident": res.name, "status": status})
    ]
    steps += [
        RefStep(
            tool="list_permit_types",
            args={"name_contains": ref(0, "results", i, "permit_name")},
        )
        for i in range(apps["total"])
    ]
    refs = [[1 + i, "results", 0, "base_fee_usd"] for i in range(apps["total"])]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="permits and licences",
    templates={
        "sequential": [
            decision_for_pending_application,
            apply_and_book_drop_off,
            withdraw_my_pending,
        ],
        "parallel": [permit_fee_bundle, latest_decision_of_three, permit_day_errands],
        "mixture": [permit_counter_waits, fees_of_pending_applications],
    },
)
