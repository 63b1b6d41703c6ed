"""Video meetings: booking rooms, sharing the link, and who is joining from where."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
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
    abroad,
    city_by_offset,
    contact_row,
    findable,
    finds_first,
    group_chats,
    op_words,
    rate_source_words,
    rate_tool,
    rates_via_cards,
    single_extreme_offset,
)

_TITLES = (
    "Kickoff: spring campaign",
    "Offsite logistics",
    "Contract walkthrough",
    "Hiring debrief",
    "Weekend plans catch-up",
    "Grant proposal review",
    "Podcast recording prep",
    "Moving day planning",
)
_HOME_OFFSET = -5


def _free(ctx: TemplateContext, room: Any, local: str, minutes: int) -> bool:
    """Whether ``room`` has no scheduled meeting overlapping the slot."""
    start = datetime.fromisoformat(local).replace(tzinfo=UTC) - timedelta(hours=_HOME_OFFSET)
    end = start + timedelta(minutes=minutes)
    for m in ctx.rows("meetings", lambda m: m.room_id == room.room_id and m.status == "scheduled"):
        begin = datetime.fromisoformat(m.start_utc.replace("Z", "+00:00"))
        if begin < end and start < begin + timedelta(minutes=m.duration_min):
            return False
    return True


def _slot(ctx: TemplateContext) -> tuple[str, str, int]:
    """A future slot in the user's time: (YYYY-MM-DDTHH:MM, words, minutes)."""
    on = ctx.day(ctx.rng.randint(1, 12))
    clock = f"{ctx.rng.randint(8, 17):02d}:{ctx.rng.choice(('00', '30'))}"
    minutes = ctx.rng.choice((15, 30, 45, 60))
    return f"{on}T{clock}", f"{clock} on {when(on)}", minutes


def _room(ctx: TemplateContext, local: str, minutes: int, people: int) -> Any:
    rooms = [
        r
        for r in ctx.rows("rooms")
        if r.capacity >= people and r.max_duration_min >= minutes and _free(ctx, r, local, minutes)
    ]
    if not rooms:
        raise NoFit("no free room")
    return ctx.rng.choice(rooms)


def meeting_then_post_link(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the room -> book the meeting -> post its link in a chat."""
    local, words, minutes = _slot(ctx)
    room = _room(ctx, local, minutes, 1)
    title = ctx.rng.choice(_TITLES)
    chat = ctx.rng.choice(group_chats(ctx))
    prompt = ctx.say(
        "Book the '{room}' room for a {minutes}-minute meeting called '{title}' at {words} "
        "(my time), then post the join link in the '{chat}' chat.",
        "Set up '{title}' in {room} at {words}, {minutes} minutes long, and share the "
        "meeting link with the {chat} group chat.",
        room=room.name,
        minutes=minutes,
        title=title,
        words=words,
        chat=chat.title,
    )
    steps = [
        RefStep(tool="list_meeting_rooms", args={"query": room.name}),
        RefStep(
            tool="create_meeting",
            args={
                "title": title,
                "room": ref(0, "results", 0, "room_id"),
                "start_local": local,
                "duration_min": minutes,
            },
        ),
        RefStep(tool="send_chat_message", args={"chat": chat.title, "text": ref(1, "join_url")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def meeting_with_text_reminder(ctx: TemplateContext) -> Draft:
    """Sequential, writes: rooms big enough -> book with an invitee -> text them the link."""
    local, words, minutes = _slot(ctx)
    size = ctx.rng.choice((6, 10, 20))
    rooms = ctx.read("list_meeting_rooms", min_capacity=size)["results"]
    room = ctx.world.table("rooms")[rooms[0]["room_id"]]
    if room.max_duration_min < minutes or not _free(ctx, room, local, minutes):
        raise NoFit("the first big-enough room is not free")
    person = ctx.pick("contacts", lambda c: findable(ctx, c))
    title = ctx.rng.choice(_TITLES)
    reminder = local[:10] + "T07:00"
    prompt = ctx.say(
        "I need a room for at least {size} people: take the first one the room list gives "
        "(alphabetical) and book '{title}' there at {words} (my time) for {minutes} "
        "minutes, inviting {name}. Then schedule a text to {name} with the join link at "
        "07:00 my time that same day.",
        "Book '{title}' ({minutes} min, {words}, my time) in the alphabetically first room "
        "that seats {size} or more, with {name} invited, and queue an SMS to {name} "
        "containing the meeting link for 07:00 my time on the meeting day.",
        size=size,
        title=title,
        words=words,
        minutes=minutes,
        name=person.name,
    )
    steps = [
        RefStep(tool="list_meeting_rooms", args={"min_capacity": size}),
        RefStep(
            tool="create_meeting",
            args={
                "title": title,
                "room": ref(0, "results", 0, "room_id"),
                "start_local": local,
                "duration_min": minutes,
                "invitees": person.name,
            },
        ),
        RefStep(
            tool="schedule_message",
            args={
                "contact": ref(1, "invitee_ids", 0),
                "channel": "sms",
                "text": ref(1, "join_url"),
                "send_at": reminder,
                "time_zone": "mine",
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def _meeting_day(meeting: Any) -> str:
    start = datetime.fromisoformat(meeting.start_utc.replace("Z", "+00:00"))
    return (start + timedelta(hours=_HOME_OFFSET)).date().isoformat()


def _meeting_step(title: str, on: str) -> RefStep:
    """Find a meeting by its title and local day (what ``_findable_meeting`` checked)."""
    return RefStep(
        tool="list_meetings", args={"title_contains": title, "from_date": on, "to_date": on}
    )


def _findable_meeting(ctx: TemplateContext, where: Any = None) -> Any:
    meeting = ctx.pick("meetings", where)
    on = _meeting_day(meeting)
    found = ctx.read("list_meetings", title_contains=meeting.title, from_date=on, to_date=on)[
        "results"
    ]
    if len(found) != 1:
        raise NoFit("title and day do not single the meeting out")
    return meeting


def invitee_call_rate(ctx: TemplateContext) -> Draft:
    """Sequential: the meeting -> its first invitee's card -> the rate to call them."""
    meeting = _findable_meeting(ctx, lambda m: abroad(contact_row(ctx, m.invitee_ids[0])))
    tool, named = rate_tool(ctx)
    on = _meeting_day(meeting)
    prompt = ctx.say(
        "The first person on the invite list of my '{title}' meeting on {day} can't get "
        "online. If I phone them instead, what's the per-minute rate to their country{source}?",
        "For '{title}' ({day}): what would it cost per minute to call its first invitee "
        "from home{source}?",
        title=meeting.title,
        day=when(on),
        source=rate_source_words(tool, named),
    )
    first = ref(0, "results", 0, "invitee_ids", 0)
    card, refs = rates_via_cards(tool, CALL_RATE, [first], 1)
    steps = [_meeting_step(meeting.title, on), *card]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=refs, round=2))


def meetings_per_room(ctx: TemplateContext) -> Draft:
    """Parallel: scheduled meetings in k rooms; total or busiest."""
    k = ctx.count(3, 5)
    rooms = ctx.sample("rooms", k)
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "how many scheduled (not cancelled) meetings do they hold in total",
        "max": "how many scheduled meetings does the busiest of them have",
    }[op]
    prompt = ctx.say(
        "For the rooms {all}: {question}?",
        "Room usage check — {all}: {question}?",
        all=listing([x.name for x in rooms], "'"),
        question=question,
    )
    steps = [
        RefStep(tool="list_meetings", args={"room": r.name, "status": "scheduled"}) for r in rooms
    ]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, "total"] for i in range(k)]))


def room_limits(ctx: TemplateContext) -> Draft:
    """Parallel: k rooms looked up by name; a capacity or length limit."""
    k = ctx.count(3, 5)
    rooms = ctx.sample("rooms", k)
    if not all(
        finds_first(ctx, "list_meeting_rooms", "room_id", r.room_id, query=r.name) for r in rooms
    ):
        raise NoFit("a room name does not find it first")
    field, op, question = ctx.rng.choice(
        [
            ("capacity", "max", "how many people fit in the largest of them"),
            ("capacity", "sum", "how many people can they host all together"),
            ("max_duration_min", "min", "what's the shortest maximum meeting length among "
             "them, in minutes"),
            ("max_duration_min", "max", "what's the longest meeting any of them allows, in "
             "minutes"),
        ]
    )  # fmt: skip
    prompt = ctx.say(
        "Meeting rooms {all}: {question}?",
        "I'm planning sessions in {any}. {question}?",
        all=listing([x.name for x in rooms], "'"),
        any=listing([x.name for x in rooms]).replace(" and ", " or "),
        question=question,
    )
    steps = [RefStep(tool="list_meeting_rooms", args={"query": r.name}) for r in rooms]
    refs = [[i, "results", 0, field] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def meeting_invitees_rates(ctx: TemplateContext) -> Draft:
    """Mixture: the meeting -> each invitee abroad -> the rate to each -> dearest or cheapest."""
    meeting = _findable_meeting(ctx)
    far = [j for j, cid in enumerate(meeting.invitee_ids) if abroad(contact_row(ctx, cid))]
    if not 2 <= len(far) <= 4:
        raise NoFit(f"{len(far)} invitees abroad")
    tool, named = rate_tool(ctx)
    op, extreme = op_words(ctx, "highest", "lowest")
    on = _meeting_day(meeting)
    prompt = ctx.say(
        "Some invitees of '{title}' on {day} live abroad and may dial in by phone. Among "
        "them, what's the {extreme} per-minute rate for calling their country{source}?",
        "For the people invited to my '{title}' meeting ({day}) who are outside the US: "
        "give me the {extreme} per-minute calling rate to where they live{source}.",
        title=meeting.title,
        day=when(on),
        extreme=extreme,
        source=rate_source_words(tool, named),
    )
    invitees = [ref(0, "results", 0, "invitee_ids", j) for j in far]
    cards, refs = rates_via_cards(tool, CALL_RATE, invitees, 1)
    steps = [_meeting_step(meeting.title, on), *cards]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def invitee_time_zones(ctx: TemplateContext) -> Draft:
    """Mixture: the meeting -> every invitee's card -> the city furthest ahead/behind."""
    meeting = _findable_meeting(ctx, lambda m: 2 <= len(m.invitee_ids) <= 5)
    n = len(meeting.invitee_ids)
    op = single_extreme_offset(
        ctx, [contact_row(ctx, c).utc_offset_hours for c in meeting.invitee_ids]
    )
    words = {"argmax": "furthest ahead of", "argmin": "furthest behind"}[op]
    on = _meeting_day(meeting)
    prompt = ctx.say(
        "Someone invited to '{title}' on {day} is in the time zone {words} UTC. Which city "
        "are they joining from?",
        "Check the invitees of my meeting '{title}' ({day}): in which city does the one "
        "{words} UTC live?",
        title=meeting.title,
        day=when(on),
        words=words,
    )
    steps = [_meeting_step(meeting.title, on)]
    steps += [
        RefStep(tool="get_contact", args={"contact": ref(0, "results", 0, "invitee_ids", j)})
        for j in range(n)
    ]
    return Draft(prompt, steps, city_by_offset(op, 1, n))


SUBTOPIC = Subtopic(
    name="video meetings",
    templates={
        "sequential": [meeting_then_post_link, meeting_with_text_reminder, invitee_call_rate],
        "parallel": [meetings_per_room, room_limits],
        "mixture": [meeting_invitees_rates, invitee_time_zones],
    },
)
