"""Doctor appointments: booking across clinics, open slots and waiting times."""

from __future__ import annotations

from toolchaos.suites.toolbench_x.generate import listing, ref
from toolchaos.suites.toolbench_x.templates.health._helpers import (
    AnswerSpec,
    Draft,
    NoFit,
    RefStep,
    Subtopic,
    TemplateContext,
    book_first_slot,
    find_member,
    finish,
    member,
    owner,
    require_free_slot,
    subject,
    wait_at_each_clinic,
    who,
    window,
)

WAIT_SOURCES = {
    "get_clinic_wait_time": "the clinic's own check-in system",
    "get_wait_time_crowd": "WaitWatch",
    "get_wait_time_maps": "the maps busyness estimate",
}
REASONS = {
    "primary care": ("an annual physical", "a follow-up visit"),
    "pediatrics": ("a well-child check", "an ear infection"),
    "dermatology": ("a skin check", "a rash that won't clear"),
    "cardiology": ("a heart check-up", "palpitations"),
    "sports medicine": ("knee pain", "a sprained ankle"),
    "endocrinology": ("a thyroid follow-up", "diabetes care"),
    "obstetrics and gynecology": ("an annual exam", "a follow-up visit"),
    "physical therapy": ("shoulder rehab", "back pain"),
}


def book_at_named_clinic(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the clinic -> its free slots in a window -> book the first."""
    clinic = ctx.pick("clinics", lambda c: any(s in REASONS for s in c.specialties))
    specialty = ctx.rng.choice([s for s in clinic.specialties if s in REASONS])
    d1, d2 = window(ctx, (1, 7), (3, 6))
    require_free_slot(ctx, specialty, clinic.clinic_id, (d1, d2), "slot")
    m = member(ctx, lambda p: specialty != "pediatrics" or p.relationship == "child")
    reason = ctx.rng.choice(REASONS[specialty])
    prompt = ctx.say(
        "Book {name} the earliest {spec} appointment at {clinic} between {d1} and {d2}; "
        "it's for {reason}.",
        "{Name} needs {reason}. Grab the first open {spec} slot at {clinic} from {d1} "
        "through {d2}.",
        name=who(m),
        Name=subject(m),
        spec=specialty,
        clinic=clinic.name,
        d1=d1,
        d2=d2,
        reason=reason,
    )
    steps = book_first_slot({"query": clinic.name}, specialty, (d1, d2), m.first_name, reason)
    return finish(Draft(prompt, steps, AnswerSpec(op="none"), writes=True))


def wait_at_booked_clinic(ctx: TemplateContext) -> Draft:
    """Sequential: find the member -> their appointments -> the wait at that clinic now."""
    apt = ctx.pick("appointments", lambda a: a.status == "scheduled")
    m = ctx.world.table("members")[apt.member_id]
    mine = ctx.read("list_appointments", member=m.member_id, status="scheduled")["results"]
    i = [a["appointment_id"] for a in mine].index(apt.appointment_id)
    clinic = ctx.world.table("clinics")[apt.clinic_id]
    tool, named = ctx.choose_source(WAIT_SOURCES)
    prompt = ctx.say(
        *(
            (
                "{Whose} appointment on {date} is at {clinic}. How long is the wait there "
                "right now, according to {source}?",
                "I'm curious how busy {clinic} is, where {whose} {date} appointment is. "
                "Current wait in minutes per {source}?",
            )
            if named
            else (
                "{Whose} appointment on {date} is at {clinic}. How long is the wait there "
                "right now?",
                "I'm curious how busy {clinic} is, where {whose} {date} appointment is. "
                "What's the current wait in minutes?",
            )
        ),
        Whose=owner(m).capitalize(),
        whose=owner(m),
        date=apt.date,
        clinic=clinic.name,
        source=WAIT_SOURCES[tool],
    )
    steps = [
        *find_member(m, "list_appointments", status="scheduled"),
        RefStep(tool=tool, args={"clinic": ref(1, "results", i, "clinic_id")}),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "wait_minutes"]])))


def shortest_wait(ctx: TemplateContext) -> Draft:
    """Parallel: the current wait at three to seven clinics; the shortest or longest."""
    clinics = ctx.sample("clinics", ctx.count(3, 7))
    tool, named = ctx.choose_source(WAIT_SOURCES)
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "shortest", "max": "longest"}[op]
    prompt = ctx.say(
        *(
            (
                "Per {source}, what's the {words} current wait among {names}, in minutes?",
                "Check {source} for {names} and give me the {words} wait right now.",
            )
            if named
            else (
                "What's the {words} current wait among {names}, in minutes?",
                "Check {names} and give me the {words} wait right now.",
            )
        ),
        source=WAIT_SOURCES[tool],
        words=words,
        names=listing([c.name for c in clinics]),
    )
    steps = [RefStep(tool=tool, args={"clinic": c.name}) for c in clinics]
    refs = [[i, "wait_minutes"] for i in range(len(clinics))]
    return finish(Draft(prompt, steps, AnswerSpec(op=op, refs=refs)))


def open_slot_count(ctx: TemplateContext) -> Draft:
    """Parallel: free slots of one specialty at three to five clinics; how many in all."""
    specialty = ctx.rng.choice(["primary care", "lab draw", "pediatrics"])
    clinics = ctx.sample("clinics", ctx.count(3, 5), lambda c: specialty in c.specialties)
    d1, d2 = window(ctx, (1, 5), (2, 6))
    prompt = ctx.say(
        "How many open {spec} slots do {names} have between {d1} and {d2}, all together?",
        "Count the free {spec} appointments from {d1} to {d2} at {names} combined.",
        spec=specialty,
        names=listing([c.name for c in clinics]),
        d1=d1,
        d2=d2,
    )
    steps = [
        RefStep(
            tool="find_appointment_slots",
            args={"specialty": specialty, "clinic": c.name, "from_date": d1, "to_date": d2},
        )
        for c in clinics
    ]
    refs = [[i, "total"] for i in range(len(clinics))]
    return finish(Draft(prompt, steps, AnswerSpec(op="sum", refs=refs)))


def quickest_walk_in(ctx: TemplateContext) -> Draft:
    """Mixture: clinics of a specialty -> wait at each -> the shortest."""
    specialty = ctx.rng.choice(["primary care", "lab draw", "urgent care", "pediatrics"])
    clinics = ctx.read("search_clinics", specialty=specialty)["results"]
    if len(clinics) < 2:
        raise NoFit("fewer than two clinics")
    tool, named = ctx.choose_source(WAIT_SOURCES)
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "shortest", "max": "longest"}[op]
    prompt = ctx.say(
        *(
            (
                "Across every clinic that offers {spec}, what's the {words} wait right now "
                "per {source}?",
                "Look at all {spec} clinics and tell me the {words} current wait ({source}), "
                "in minutes.",
            )
            if named
            else (
                "Across every clinic that offers {spec}, what's the {words} wait right now?",
                "Look at all {spec} clinics and tell me the {words} current wait, in minutes.",
            )
        ),
        spec=specialty,
        words=words,
        source=WAIT_SOURCES[tool],
    )
    steps, refs = wait_at_each_clinic(tool, specialty, len(clinics))
    return finish(Draft(prompt, steps, AnswerSpec(op=op, refs=refs)))


def two_clinic_openings(ctx: TemplateContext) -> Draft:
    """Mixture: find two to five clinics -> open slots of a specialty at each -> combined count."""
    specialty = ctx.rng.choice(["primary care", "lab draw", "pediatrics", "urgent care"])
    clinics = ctx.sample("clinics", ctx.count(2, 5), lambda c: specialty in c.specialties)
    k = len(clinics)
    d1, d2 = window(ctx, (1, 6), (2, 6))
    prompt = ctx.say(
        "Between {d1} and {d2}, how many {spec} openings do {names} have in total?",
        "I can go to any of {names}. Count their free {spec} slots from {d1} to {d2}, combined.",
        d1=d1,
        d2=d2,
        spec=specialty,
        names=listing([c.name for c in clinics]),
    )
    steps = [RefStep(tool="search_clinics", args={"query": c.name}) for c in clinics]
    steps += [
        RefStep(
            tool="find_appointment_slots",
            args={
                "specialty": specialty,
                "clinic": ref(i, "results", 0, "clinic_id"),
                "from_date": d1,
                "to_date": d2,
            },
        )
        for i in range(k)
    ]
    refs = [[k + i, "total"] for i in range(k)]
    return finish(Draft(prompt, steps, AnswerSpec(op="sum", refs=refs)))


SUBTOPIC = Subtopic(
    name="doctor appointments",
    templates={
        "sequential": [book_at_named_clinic, wait_at_booked_clinic],
        "parallel": [shortest_wait, open_slot_count],
        "mixture": [quickest_walk_in, two_clinic_openings],
    },
)
