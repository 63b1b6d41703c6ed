"""Scheduled messages and reminders: sending at someone's local time, rescheduling, costs."""

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
    SMS_RATE,
    abroad,
    city_by_offset,
    contact_row,
    findable,
    pick_contact,
    rate_source_words,
    rate_tool,
    rates_via_cards,
    roaming_countries,
    single_extreme_offset,
)

_TEXTS = (
    "Happy birthday! Have a wonderful day.",
    "Reminder: our call is tomorrow.",
    "Don't forget to send the signed form.",
    "Good luck today, you've got this!",
    "Congratulations on the new job!",
    "Reminder: the deposit is due this week.",
)
_CLOCK = ("07:30", "08:00", "09:00", "09:30", "12:00", "18:00", "19:30")
_ORDINALS = ("first", "second", "third", "fourth", "fifth")


def _local(ctx: TemplateContext) -> tuple[str, str]:
    """A future local send time: (YYYY-MM-DDTHH:MM, words)."""
    on = ctx.day(ctx.rng.randint(2, 20))
    clock = ctx.rng.choice(_CLOCK)
    return f"{on}T{clock}", f"{clock} on {when(on)}"


def remind_at_their_time(ctx: TemplateContext) -> Draft:
    """Sequential, writes: search the contact -> their card -> schedule at their local time."""
    person = pick_contact(ctx, abroad)
    channel = ctx.rng.choice(["sms", "email"])
    text = ctx.rng.choice(_TEXTS)
    local, words = _local(ctx)
    medium = {"sms": "a text", "email": "an email"}[channel]
    prompt = ctx.say(
        'Schedule {medium} to {name} saying "{text}" for {words} — their local time, not mine.',
        '{name} lives abroad. Queue up {medium} with "{text}" to arrive at {words} where they are.',
        'Set a reminder message ({medium}) to {name}: "{text}", timed for {words} in '
        "{name}'s own time zone.",
        medium=medium,
        name=person.name,
        text=text,
        words=words,
    )
    steps = [
        RefStep(tool="search_contacts", args={"query": person.name}),
        RefStep(tool="get_contact", args={"contact": ref(0, "results", 0, "contact_id")}),
        RefStep(
            tool="schedule_message",
            args={
                "contact": ref(1, "contact_id"),
                "channel": channel,
                "text": text,
                "send_at": local,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def text_rate_of_queued_sms(ctx: TemplateContext) -> Draft:
    """Sequential: queued texts -> the k-th recipient's card -> the price of a text there."""
    queued = ctx.read("list_scheduled_messages", status="scheduled", channel="sms")["results"]
    far = [i for i, m in enumerate(queued) if abroad(contact_row(ctx, m["contact_id"])) and i < 5]
    if not far:
        raise NoFit("no queued text goes abroad")
    k = ctx.rng.choice(far)
    tool, named = rate_tool(ctx)
    prompt = ctx.say(
        "Look at my scheduled text messages, soonest first, and take the {nth} one. What "
        "does one text to that recipient's country cost{source}?",
        "The {nth} SMS in my queue of scheduled messages (by send time): how much will "
        "that text cost me, given where the recipient lives{source}?",
        nth=_ORDINALS[k],
        source=rate_source_words(tool, named),
    )
    card, refs = rates_via_cards(tool, SMS_RATE, [ref(0, "results", k, "contact_id")], 1)
    steps = [
        RefStep(tool="list_scheduled_messages", args={"status": "scheduled", "channel": "sms"}),
        *card,
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=refs, round=2))


def reschedule_message(ctx: TemplateContext) -> Draft:
    """Sequential, writes: the contact's queued message -> cancel it -> schedule it anew."""
    queued = [m for m in ctx.rows("scheduled") if m.status == "scheduled"]
    msg = ctx.rng.choice(queued)
    person = contact_row(ctx, msg.contact_id)
    if not findable(ctx, person):
        raise NoFit("the name does not find the contact first")
    mine = ctx.read("list_scheduled_messages", contact=person.contact_id, status="scheduled")
    if mine["results"][0]["message_id"] != msg.message_id:
        raise NoFit("not the contact's next message")
    local, words = _local(ctx)
    prompt = ctx.say(
        "The next message I have scheduled for {name} is going out at the wrong time. "
        "Cancel it and schedule the same message on the same channel for {words}, my time.",
        "Move my upcoming scheduled message to {name} to {words} (my local time): cancel "
        "the old one and queue an identical one.",
        name=person.name,
        words=words,
    )
    steps = [
        RefStep(
            tool="list_scheduled_messages", args={"contact": person.name, "status": "scheduled"}
        ),
        RefStep(
            tool="cancel_scheduled_message",
            args={"message_id": ref(0, "results", 0, "message_id")},
        ),
        RefStep(
            tool="schedule_message",
            args={
                "contact": ref(1, "contact_id"),
                "channel": ref(1, "channel"),
                "text": ref(1, "text"),
                "send_at": local,
                "time_zone": "mine",
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def cancel_by_id_and_tell(ctx: TemplateContext) -> Draft:
    """Sequential, writes: cancel a queued message by id -> its recipient -> email them."""
    msg = ctx.pick("scheduled", lambda m: m.status == "scheduled")
    subject = ctx.rng.choice(("Change of plans", "Ignore my reminder", "Quick update"))
    body = ctx.rng.choice(
        (
            "I cancelled the message I had scheduled for you, so please disregard it.",
            "Plans changed, so my scheduled note to you will not be sent.",
        )
    )
    prompt = ctx.say(
        "Cancel my scheduled message {mid}, then email its recipient with the subject "
        "'{subject}' and this text: \"{body}\"",
        "Please call off scheduled message {mid} and let the person it was meant for know "
        "by email (subject '{subject}'): \"{body}\"",
        mid=msg.message_id,
        subject=subject,
        body=body,
    )
    steps = [
        RefStep(tool="cancel_scheduled_message", args={"message_id": msg.message_id}),
        RefStep(tool="get_contact", args={"contact": ref(0, "contact_id")}),
        RefStep(
            tool="send_email",
            args={"to": ref(1, "email"), "subject": subject, "body": body},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def texting_three_countries(ctx: TemplateContext) -> Draft:
    """Parallel: the price of a text to k countries; total or dearest."""
    k = ctx.count(3, 6)
    countries = ctx.rng.sample(roaming_countries(ctx), k)
    tool, named = rate_tool(ctx)
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "what will one reminder text to each of them cost in total",
        "max": "what's the most expensive single text among those countries",
    }[op]
    prompt = ctx.say(
        "I'm scheduling birthday texts to friends in {all}: {question}{source}?",
        "Reminder SMS to {all} — {question}{source}?",
        all=listing([x.name for x in countries]),
        question=question,
        source=rate_source_words(tool, named),
    )
    steps = [RefStep(tool=tool, args={"country": c.name}) for c in countries]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, SMS_RATE] for i in range(k)], round=2))


def queued_for_three_people(ctx: TemplateContext) -> Draft:
    """Parallel: messages scheduled to k contacts (any status); total or most."""
    k = ctx.count(3, 5)
    ids = sorted({m.contact_id for m in ctx.rows("scheduled")})
    pool = [contact_row(ctx, i) for i in ids if findable(ctx, contact_row(ctx, i))]
    if len(pool) < 3:
        raise NoFit("fewer than three recipients")
    people = ctx.rng.sample(pool, k)
    status = ctx.rng.choice(["scheduled", None])
    op = ctx.rng.choice(["sum", "max"])
    what = "still waiting to go out" if status else "ever scheduled, sent or not"
    question = {
        "sum": "how many messages are there in total",
        "max": "what's the largest number for any one of them",
    }[op]
    prompt = ctx.say(
        "Count the scheduled messages to {all} that are {what}: {question}?",
        "For {all}, look at messages I've scheduled ({what}). {question}?",
        all=listing([x.name for x in people]),
        what=what,
        question=question,
    )
    steps = []
    for p in people:
        args: dict[str, Any] = {"contact": p.name}
        if status:
            args["status"] = status
        steps.append(RefStep(tool="list_scheduled_messages", args=args))
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, "total"] for i in range(k)]))


def same_reminder_two_people(ctx: TemplateContext) -> Draft:
    """Mixture, writes: search k contacts -> schedule the same text at each one's time."""
    k = ctx.count(2, 4)
    people = ctx.sample("contacts", k, lambda c: abroad(c) and findable(ctx, c))
    text = ctx.rng.choice(_TEXTS)
    local, words = _local(ctx)
    channel = ctx.rng.choice(["sms", "email"])
    medium = {"sms": "text", "email": "email"}[channel]
    prompt = ctx.say(
        'Send {all} the same {medium}, "{text}", each at {words} in their own time zone.',
        'Please schedule the {medium} "{text}" for {each} {all}, so each gets it at {words} '
        "local time.",
        all=listing([p.name for p in people]),
        each="both" if k == 2 else "all of",
        medium=medium,
        text=text,
        words=words,
    )
    steps = [RefStep(tool="search_contacts", args={"query": p.name}) for p in people]
    steps += [
        RefStep(
            tool="schedule_message",
            args={
                "contact": ref(i, "results", 0, "contact_id"),
                "channel": channel,
                "text": text,
                "send_at": local,
                "time_zone": "recipient",
            },
        )
        for i in range(k)
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def queued_recipients_time_zones(ctx: TemplateContext) -> Draft:
    """Mixture: queued messages -> each recipient's card -> the city furthest ahead/behind."""
    channel = ctx.rng.choice(["sms", "email"])
    queued = ctx.read("list_scheduled_messages", status="scheduled", channel=channel)["results"]
    if not 2 <= len(queued) <= 6:
        raise NoFit(f"{len(queued)} queued")
    op = single_extreme_offset(
        ctx, [contact_row(ctx, m["contact_id"]).utc_offset_hours for m in queued]
    )
    words = {"argmax": "furthest ahead of", "argmin": "furthest behind"}[op]
    medium = {"sms": "text messages", "email": "emails"}[channel]
    prompt = ctx.say(
        "Of everyone I have {medium} scheduled to (not yet sent), whose time zone is {words} "
        "UTC? Tell me the city they live in.",
        "Check the recipients of my queued {medium}: in which city does the one {words} UTC live?",
        medium=medium,
        words=words,
    )
    steps = [
        RefStep(tool="list_scheduled_messages", args={"status": "scheduled", "channel": channel})
    ]
    steps += [
        RefStep(tool="get_contact", args={"contact": ref(0, "results", i, "contact_id")})
        for i in range(len(queued))
    ]
    return Draft(prompt, steps, city_by_offset(op, 1, len(queued)))


SUBTOPIC = Subtopic(
    name="scheduled messages and reminders",
    templates={
        "sequential": [
            remind_at_their_time,
            text_rate_of_queued_sms,
            reschedule_message,
            cancel_by_id_and_tell,
        ],
        "parallel": [texting_three_countries, queued_for_three_people],
        "mixture": [same_reminder_two_people, queued_recipients_time_zones],
    },
)
