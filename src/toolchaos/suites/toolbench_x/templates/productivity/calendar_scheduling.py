"""Calendar scheduling: shared working hours across time zones, free slots, new meetings."""

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
from toolchaos.suites.toolbench_x.templates.productivity._helpers import (
    combined,
    person,
    read_each,
    weekdays_ahead,
)

MEETING_TITLES = (
    "Roadmap alignment",
    "Hiring plan chat",
    "Quarterly goals",
    "Pairing session",
    "Vendor review",
    "Mentoring catch-up",
)


def _overlap_hours(ctx: TemplateContext, a: Any, b: Any, day: str) -> float:
    found: float = ctx.read(
        "working_hours_overlap", person_a=a.person_id, person_b=b.person_id, date=day
    )["overlap_hours"]
    return found


def _free_minutes(ctx: TemplateContext, a: Any, b: Any, days: list[str]) -> list[int]:
    """The shared free minutes of ``a`` and ``b`` on each of ``days``."""
    pair = {"person_a": a.person_id, "person_b": b.person_id}
    return read_each(ctx, "find_free_slots", "total_free_minutes", "date", days, **pair)


def book_first_free_slot(ctx: TemplateContext) -> Draft:
    """Sequential, writes: person -> shared free slots with a colleague -> meeting at the first."""
    a = person(ctx)
    b = person(ctx, lambda u: u.person_id != a.person_id)
    day = ctx.rng.choice(weekdays_ahead(ctx, 1, 8))
    minutes = ctx.rng.choice([30, 45, 60])
    slots = ctx.read(
        "find_free_slots",
        person_a=a.person_id,
        person_b=b.person_id,
        date=day,
        duration_minutes=minutes,
    )
    if not slots["results"]:
        raise NoFit("no shared free slot")
    title = ctx.rng.choice(MEETING_TITLES)
    prompt = ctx.say(
        "Set up a {m}-minute '{title}' meeting between {a} and {b} on {day}, at the earliest "
        "time both are free within their working hours. {a} organizes it.",
        "{a} wants a {m}-minute '{title}' with {b} on {day}. Find the first slot that fits "
        "both working days and calendars, and book it with {a} as organizer.",
        "Please schedule '{title}' ({m} min) for {a} and {b} on {day} in the earliest free "
        "window they share; put it on {a}'s calendar as the organizer.",
        a=a.name,
        b=b.name,
        day=when(day),
        m=minutes,
        title=title,
    )
    steps = [
        RefStep(tool="search_people", args={"query": a.name}),
        RefStep(
            tool="find_free_slots",
            args={
                "person_a": ref(0, "results", 0, "person_id"),
                "person_b": b.name,
                "date": day,
                "duration_minutes": minutes,
            },
        ),
        RefStep(
            tool="create_event",
            args={
                "title": title,
                "organizer": ref(1, "person_a_id"),
                "attendees": ref(1, "person_b_id"),
                "start_utc": ref(1, "first_slot_start_utc"),
                "duration_minutes": minutes,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def organizer_overlap(ctx: TemplateContext) -> Draft:
    """Sequential: person -> their meetings on a day -> overlap with the first organizer."""
    a = person(ctx)
    day = ctx.rng.choice(weekdays_ahead(ctx, 0, 11))
    events = ctx.read("list_events", person=a.person_id, date=day)["results"]
    if not events or events[0]["organizer_id"] == a.person_id:
        raise NoFit("no first meeting organized by someone else")
    organizer = ctx.world.table("people")[events[0]["organizer_id"]]
    if _overlap_hours(ctx, organizer, a, day) == 0:
        raise NoFit("no overlap")
    prompt = ctx.say(
        "On {day}, whoever organizes {a}'s first meeting of the (UTC) day: how many hours do "
        "their working hours overlap with {a}'s that day?",
        "Look at {a}'s calendar for {day}. The first meeting was set up by someone; how much "
        "of that person's working day overlaps with {a}'s, in hours?",
        a=a.name,
        day=when(day),
    )
    steps = [
        RefStep(tool="search_people", args={"query": a.name}),
        RefStep(
            tool="list_events", args={"person": ref(0, "results", 0, "person_id"), "date": day}
        ),
        RefStep(
            tool="working_hours_overlap",
            args={
                "person_a": ref(1, "results", 0, "organizer_id"),
                "person_b": ref(0, "results", 0, "person_id"),
                "date": day,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "overlap_hours"]], round=2))


def meet_first_organizer(ctx: TemplateContext) -> Draft:
    """Sequential: person -> meetings on a day -> free time with the first organizer on another.

    Asks for the shared free minutes on a later day, or books a meeting at the first slot
    (one step more).
    """
    days = weekdays_ahead(ctx, 0, 6)
    firsts = []  # (meeting, guest) where the meeting is the guest's first that day
    for e in ctx.rows("events", lambda e: e.status == "confirmed" and e.start_utc[:10] in days):
        for guest in e.attendee_ids:
            if guest == e.organizer_id:
                continue
            mine = ctx.read("list_events", person=guest, date=e.start_utc[:10])["results"]
            if mine[0]["event_id"] == e.event_id:
                firsts.append((e, guest))
    if not firsts:
        raise NoFit("no first meeting organized by someone else")
    minutes = ctx.rng.choice([30, 45, 60])
    for meeting, guest in ctx.rng.sample(firsts, len(firsts)):
        day = meeting.start_utc[:10]
        pair = {"person_a": guest, "person_b": meeting.organizer_id}
        open_days = [
            d
            for d in weekdays_ahead(ctx, 1, 11)
            if d > day
            and ctx.read("find_free_slots", **pair, date=d, duration_minutes=minutes)["results"]
        ]
        if open_days:
            break
    else:
        raise NoFit("no shared free slot")
    a = person(ctx, lambda u: u.person_id == guest)
    later = ctx.rng.choice(open_days)
    book = ctx.rng.random() < 0.5
    steps = [
        RefStep(tool="search_people", args={"query": a.name}),
        RefStep(
            tool="list_events", args={"person": ref(0, "results", 0, "person_id"), "date": day}
        ),
        RefStep(
            tool="find_free_slots",
            args={
                "person_a": ref(0, "results", 0, "person_id"),
                "person_b": ref(1, "results", 0, "organizer_id"),
                "date": later,
                "duration_minutes": minutes,
            },
        ),
    ]
    if not book:
        prompt = ctx.say(
            "Whoever organizes {a}'s first meeting on {day} (UTC): how many minutes of free "
            "time do they and {a} share on {later}, counting slots of {m} minutes or more?",
            "{a} wants to follow up with the organizer of their first meeting on {day}. On "
            "{later}, how much shared free time (minutes, in slots of at least {m}) do the "
            "two have?",
            a=a.name,
            day=when(day),
            later=when(later),
            m=minutes,
        )
        answer = AnswerSpec(op="value", refs=[[2, "total_free_minutes"]])
        return Draft(prompt, steps, answer)
    title = ctx.rng.choice(MEETING_TITLES)
    prompt = ctx.say(
        "{a} wants a {m}-minute '{title}' with whoever organized their first meeting on "
        "{day} (UTC). Book it at the earliest time both are free on {later}, with {a} as "
        "organizer.",
        "Set up '{title}' ({m} min) between {a} and the organizer of {a}'s first meeting on "
        "{day}; use the first slot they share on {later} and make {a} the organizer.",
        a=a.name,
        day=when(day),
        later=when(later),
        m=minutes,
        title=title,
    )
    steps.append(
        RefStep(
            tool="create_event",
            args={
                "title": title,
                "organizer": ref(2, "person_a_id"),
                "attendees": ref(2, "person_b_id"),
                "start_utc": ref(2, "first_slot_start_utc"),
                "duration_minutes": minutes,
            },
        )
    )
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def best_overlap_partner(ctx: TemplateContext) -> Draft:
    """Parallel: one person's working-hours overlap with three to six colleagues; max or min."""
    group = ctx.sample("people", ctx.count(4, 7))
    a, others = group[0], group[1:]
    day = ctx.rng.choice(weekdays_ahead(ctx, 0, 11))
    values = [_overlap_hours(ctx, a, o, day) for o in others]
    op = ctx.rng.choice(["max", "min", "sum"])
    if max(values) == 0 or (op == "min" and min(values) == 0):
        raise NoFit("no meaningful overlap")
    question = {
        "max": "how many hours does the best-overlapping colleague share with {a}",
        "min": "what's the smallest overlap {a} has with any of them, in hours",
        "sum": "how many overlap hours does {a} have with all of them combined",
    }[op]
    prompt = ctx.say(
        "{a} works with {others} across time zones. On {day}, " + question + "?",
        "Time-zone check for {day}: comparing {a}'s working hours with those of {others}, "
        + question
        + "?",
        a=a.name,
        others=listing([o.name for o in others]),
        day=when(day),
    )
    steps = [
        RefStep(
            tool="working_hours_overlap",
            args={"person_a": a.name, "person_b": o.name, "date": day},
        )
        for o in others
    ]
    return Draft(prompt, steps, combined(op, "overlap_hours", range(len(others))))


def freest_day(ctx: TemplateContext) -> Draft:
    """Parallel: shared free time of two people on three to six days; the most or least."""
    a = ctx.pick("people")
    b = ctx.pick("people", lambda u: u.person_id != a.person_id)
    days = sorted(ctx.rng.sample(weekdays_ahead(ctx, 1, 11), ctx.count(3, 6)))
    if max(_free_minutes(ctx, a, b, days)) == 0:
        raise NoFit("never free together")
    op = ctx.rng.choice(["max", "min"])
    words = {"max": "most", "min": "least"}[op]
    prompt = ctx.say(
        "{a} and {b} need time together on one of {days}. On the day with the {w} shared "
        "free time (half-hour slots or longer, inside both working days), how many minutes "
        "is that?",
        "Compare {days} for {a} and {b}: what's the {w} free time they share on "
        "any of those days, in minutes (slots of at least 30 minutes)?",
        a=a.name,
        b=b.name,
        days=listing([when(d) for d in days]),
        w=words,
    )
    steps = [
        RefStep(tool="find_free_slots", args={"person_a": a.name, "person_b": b.name, "date": d})
        for d in days
    ]
    return Draft(prompt, steps, combined(op, "total_free_minutes", range(len(days)), digits=None))


def overlap_of_two_searched(ctx: TemplateContext) -> Draft:
    """Mixture: look up two people independently -> their overlap on a day."""
    a = person(ctx)
    b = person(ctx, lambda u: u.person_id != a.person_id and u.office != a.office)
    day = ctx.rng.choice(weekdays_ahead(ctx, 0, 11))
    if _overlap_hours(ctx, a, b, day) == 0:
        raise NoFit("no overlap")
    field = ctx.rng.choice(["overlap_hours", "person_a_local_start", "person_b_local_start"])
    question = {
        "overlap_hours": "How many hours of their working days overlap?",
        "person_a_local_start": "At what local time for {a} does their shared working time begin?",
        "person_b_local_start": (
            "What time is it for {b} (local) when their shared working window opens?"
        ),
    }[field]
    prompt = ctx.say(
        "{a} ({ao}) and {b} ({bo}) want to pair on {day}. " + question,
        "Cross-office question for {day}: {a} in {ao}, {b} in {bo}. " + question,
        a=a.name,
        b=b.name,
        ao=a.office,
        bo=b.office,
        day=when(day),
    )
    steps = [
        RefStep(tool="search_people", args={"query": a.name}),
        RefStep(tool="search_people", args={"query": b.name}),
        RefStep(
            tool="working_hours_overlap",
            args={
                "person_a": ref(0, "results", 0, "person_id"),
                "person_b": ref(1, "results", 0, "person_id"),
                "date": day,
            },
        ),
    ]
    answer = AnswerSpec(
        op="value", refs=[[2, field]], round=2 if field == "overlap_hours" else None
    )
    return Draft(prompt, steps, answer)


def free_time_two_days(ctx: TemplateContext) -> Draft:
    """Mixture: look up a person -> shared free time with another on two to five days -> op."""
    a = person(ctx)
    b = ctx.pick("people", lambda u: u.person_id != a.person_id)
    days = sorted(ctx.rng.sample(weekdays_ahead(ctx, 1, 11), ctx.count(2, 5)))
    if min(_free_minutes(ctx, a, b, days)) == 0:
        raise NoFit("a day without shared free time")
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "how many free minutes do they share over those days together",
        "max": "what's the largest of those days' shared free time, in minutes",
    }[op]
    prompt = ctx.say(
        "{a} and {b} are both on {days}. Counting free slots of 30 minutes or more "
        "inside both working days, " + question + "?",
        "For {a} with {b}: {days}. " + question.capitalize() + " (30-minute minimum slots)?",
        a=a.name,
        b=b.name,
        days=listing([when(d) for d in days]),
    )
    steps = [RefStep(tool="search_people", args={"query": a.name})]
    steps += [
        RefStep(
            tool="find_free_slots",
            args={"person_a": ref(0, "results", 0, "person_id"), "person_b": b.name, "date": d},
        )
        for d in days
    ]
    span = range(1, 1 + len(days))
    return Draft(prompt, steps, combined(op, "total_free_minutes", span, digits=None))


SUBTOPIC = Subtopic(
    name="calendar scheduling",
    templates={
        "sequential": [book_first_free_slot, organizer_overlap, meet_first_organizer],
        "parallel": [best_overlap_partner, freest_day],
        "mixture": [overlap_of_two_searched, free_time_two_days],
    },
)
