"""Calls and voicemail: who called, how long we talked, what calling back costs."""

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
from toolchaos.suites.toolbench_x.templates.communication._helpers import (
    CALL_RATE,
    SMS_RATE,
    contact_row,
    findable,
    rate_pick,
    rate_source_words,
    rates_via_cards,
)

_DIRECTIONS = {
    None: "calls",
    "incoming": "calls they made to me",
    "outgoing": "calls I made to them",
}


def _callers(ctx: TemplateContext) -> list[Any]:
    """Contacts with calls in the log whose full name finds them first."""
    ids = sorted({c.contact_id for c in ctx.rows("calls") if c.contact_id})
    return [contact_row(ctx, i) for i in ids if findable(ctx, contact_row(ctx, i))]


def call_back_rate(ctx: TemplateContext) -> Draft:
    """Sequential: their voicemail or missed call -> their card -> the rate to call back."""
    source = ctx.rng.choice(["voicemail", "missed"])
    if source == "voicemail":
        ids = {v.contact_id for v in ctx.rows("voicemails") if v.contact_id}
    else:
        ids = {c.contact_id for c in ctx.rows("calls") if c.direction == "missed" and c.contact_id}
    pool = [
        contact_row(ctx, i)
        for i in sorted(ids)
        if contact_row(ctx, i).country != "US" and findable(ctx, contact_row(ctx, i))
    ]
    if not pool:
        raise NoFit("nobody abroad left a message")
    person = ctx.rng.choice(pool)
    tool, field, named = rate_pick(ctx, (CALL_RATE, SMS_RATE))
    what = {CALL_RATE: "call them back, per minute", SMS_RATE: "text them back instead"}[field]
    heard = {"voicemail": "left me a voicemail", "missed": "tried to call me and I missed it"}
    prompt = ctx.say(
        "{name} {heard}. What will it cost to {what}{source}?",
        "I see {name} {heard}. From home, how much does it cost to {what}{source}?",
        name=person.name,
        heard=heard[source],
        what=what,
        source=rate_source_words(tool, named),
    )
    if source == "voicemail":
        first = RefStep(tool="list_voicemails", args={"contact": person.name})
    else:
        first = RefStep(tool="get_call_log", args={"contact": person.name, "direction": "missed"})
    card, refs = rates_via_cards(tool, field, [ref(0, "results", 0, "contact_id")], 1)
    return Draft(prompt, [first, *card], AnswerSpec(op="value", refs=refs, round=2))


def talk_time_with_earliest_missed(ctx: TemplateContext) -> Draft:
    """Sequential: missed calls since a day -> the earliest caller's card -> talk time."""
    since = ctx.day(-ctx.rng.randint(3, 30))
    found = ctx.read("get_call_log", direction="missed", since=since)["results"]
    known = [i for i, c in enumerate(found) if c["contact_id"]]
    if not known:
        raise NoFit("no known caller")
    k = known[-1]
    direction = ctx.rng.choice(sorted(_DIRECTIONS, key=str))
    prompt = ctx.say(
        "Of the missed calls I've had since {since}, take the earliest one from someone in "
        "my contacts. How many minutes of {what} are in my whole call log?",
        "Look at my missed calls since {since} and find the oldest from a saved contact. "
        "Then total the minutes of {what} with that person.",
        since=when(since),
        what=_DIRECTIONS[direction],
    )
    total: dict[str, Any] = {"contact": ref(1, "contact_id")}
    if direction is not None:
        total["direction"] = direction
    steps = [
        RefStep(tool="get_call_log", args={"direction": "missed", "since": since}),
        RefStep(tool="get_contact", args={"contact": ref(0, "results", k, "contact_id")}),
        RefStep(tool="call_duration_total", args=total),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "total_minutes"]], round=2))


def talk_time_three_contacts(ctx: TemplateContext) -> Draft:
    """Parallel: talk time with k contacts; total or most."""
    k = ctx.count(3, 6)
    callers = _callers(ctx)
    if len(callers) < 3:
        raise NoFit("fewer than three callers")
    people = ctx.rng.sample(callers, k)
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "how many minutes have I spent on the phone with them in total",
        "max": "what's the most talk time, in minutes, I've had with any one of them",
    }[op]
    prompt = ctx.say(
        "Going by my call log for {all}: {question}?",
        "Phone time check with {all} — {question}?",
        "I'm curious about calls with {all}. {question}?",
        all=listing([x.name for x in people]),
        question=question,
    )
    steps = [RefStep(tool="call_duration_total", args={"contact": p.name}) for p in people]
    answer = AnswerSpec(op=op, refs=[[i, "total_minutes"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def last_call_lengths(ctx: TemplateContext) -> Draft:
    """Parallel: the latest answered call with each of k contacts; longest or shortest."""
    k = ctx.count(3, 6)
    direction = ctx.rng.choice(["incoming", "outgoing"])
    pool = [
        p
        for p in _callers(ctx)
        if ctx.read("get_call_log", contact=p.contact_id, direction=direction)["total"]
    ]
    if len(pool) < 3:
        raise NoFit("fewer than three contacts with such calls")
    people = ctx.rng.sample(pool, k)
    op = ctx.rng.choice(["max", "min"])
    words = {"incoming": "call I got from", "outgoing": "call I made to"}[direction]
    extreme = {"max": "longest", "min": "shortest"}[op]
    prompt = ctx.say(
        "Think of the most recent {words} each of {all}. How many seconds did "
        "the {extreme} of those three calls last?",
        "Latest {words} {all}, one each: what's the {extreme} duration among them, in seconds?",
        words=words,
        all=listing([x.name for x in people]),
        extreme=extreme,
    )
    steps = [
        RefStep(tool="get_call_log", args={"contact": p.name, "direction": direction})
        for p in people
    ]
    answer = AnswerSpec(op=op, refs=[[i, "results", 0, "duration_sec"] for i in range(k)])
    return Draft(prompt, steps, answer)


def voicemail_callers_talk_time(ctx: TemplateContext) -> Draft:
    """Mixture: new voicemails -> talk time since a day with each known caller -> combine."""
    listened = ctx.rng.choice([False, True])
    found = ctx.read("list_voicemails", listened=listened)["results"]
    known = [i for i, v in enumerate(found) if v["contact_id"]][:5]
    if len(known) < 2:
        raise NoFit("fewer than two known callers")
    since = ctx.day(-ctx.rng.randint(5, 30))
    op = ctx.rng.choice(["sum", "max"])
    status = "haven't listened to yet" if not listened else "have already played"
    question = {
        "sum": "how many minutes have I talked on the phone with those people since {since}, "
        "all together",
        "max": "what's the most talk time since {since} I've had with any one of them, in minutes",
    }[op]
    prompt = ctx.say(
        "Take the most recent voicemails I {status} that came from saved contacts (the "
        "newest five such, or fewer if there aren't five): " + question + "?",
        "Go through the voicemails I {status}, newest first, and keep the first five from "
        "people in my contacts (or all of them if fewer): " + question + "?",
        status=status,
        since=when(since),
    )
    steps = [RefStep(tool="list_voicemails", args={"listened": listened})]
    steps += [
        RefStep(
            tool="call_duration_total",
            args={"contact": ref(0, "results", i, "contact_id"), "since": since},
        )
        for i in known
    ]
    refs = [[1 + k, "total_minutes"] for k in range(len(known))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def two_contacts_talk_time(ctx: TemplateContext) -> Draft:
    """Mixture: search k contacts -> talk time in one direction with each -> combine."""
    callers = _callers(ctx)
    k = ctx.count(2, min(4, len(callers)))
    if len(callers) < k:
        raise NoFit(f"fewer than {k} callers")
    people = ctx.rng.sample(callers, k)
    direction = ctx.rng.choice(["incoming", "outgoing"])
    op = ctx.rng.choice(["sum", "max"])
    what = {"incoming": "calls they made to me", "outgoing": "calls I made to them"}[direction]
    question = {
        "sum": "Add up the minutes for all of them",
        "max": "Give me the largest of those totals, in minutes",
    }[op]
    prompt = ctx.say(
        "How much have I talked with each of {all}, counting only {what}? {question}.",
        "Minutes on the phone with {all} ({what} only). {question}.",
        all=listing([p.name for p in people]),
        what=what,
        question=question,
    )
    steps = [RefStep(tool="search_contacts", args={"query": p.name}) for p in people]
    steps += [
        RefStep(
            tool="call_duration_total",
            args={"contact": ref(i, "results", 0, "contact_id"), "direction": direction},
        )
        for i in range(k)
    ]
    refs = [[k + i, "total_minutes"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="calls and voicemail",
    templates={
        "sequential": [call_back_rate, talk_time_with_earliest_missed],
        "parallel": [talk_time_three_contacts, last_call_lengths],
        "mixture": [voicemail_callers_talk_time, two_contacts_talk_time],
    },
)
