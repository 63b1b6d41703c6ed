"""Meeting rooms: capacity and video, a room's free hours, booking rooms for meetings."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.domains.productivity.world import parse_stamp
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
    one_per,
    person,
    read_each,
    weekdays_ahead,
)


def _local_day(room: Any, start_utc: str) -> str:
    moment = parse_stamp(start_utc) + timedelta(hours=room.utc_offset_hours)
    return moment.date().isoformat()


def _fits(ctx: TemplateContext, room: Any, event: Any) -> bool:
    """Whether ``room`` could take ``event`` (seats, opening hours, no clash)."""
    if room.capacity < len(event.attendee_ids) or event.room_id == room.room_id:
        return False
    start = parse_stamp(event.start_utc) + timedelta(hours=room.utc_offset_hours)
    end = parse_stamp(event.end_utc) + timedelta(hours=room.utc_offset_hours)
    if start.date() != end.date() or start.hour < 8 or (end.hour, end.minute) > (18, 0):
        return False
    for other in ctx.rows(
        "events", lambda e: e.room_id == room.room_id and e.status == "confirmed"
    ):
        if other.start_utc < event.end_utc and event.start_utc < other.end_utc:
            return False
    return True


def _booked_hours(ctx: TemplateContext, room_ids: list[str], day: str) -> list[float]:
    """Each room's booked hours on ``day`` (its local day)."""
    return read_each(ctx, "list_room_bookings", "booked_hours", "room", room_ids, date=day)


def book_smallest_video_room(ctx: TemplateContext) -> Draft:
    """Sequential, writes: rooms fitting a size -> the first room's day -> book it for a meeting."""
    events = ctx.rows(
        "events",
        lambda e: e.status == "confirmed" and e.room_id is None and e.start_utc > "2026-03-02T12",
    )
    event = ctx.rng.choice(events)
    office = ctx.world.table("people")[event.organizer_id].office
    size = len(event.attendee_ids)
    rooms = ctx.read("list_rooms", office=office, min_capacity=size, has_video=True)["results"]
    if not rooms:
        raise NoFit("no video room in the organizer's office")
    room = ctx.world.table("rooms")[rooms[0]["room_id"]]
    if not _fits(ctx, room, event):
        raise NoFit("the first room does not fit")
    day = _local_day(room, event.start_utc)
    prompt = ctx.say(
        "Meeting {event} ('{title}') has no room yet. Find the video-equipped rooms in the "
        "{office} office that seat all {n} attendees, check the first one listed for {day}, "
        "and book it for the meeting.",
        "Please get a room for {event}: it needs video and {n} seats, in {office}. Take the "
        "first match from the room list (look at its bookings on {day}) and book it.",
        event=event.event_id,
        title=event.title,
        office=office,
        n=size,
        day=when(day),
    )
    steps = [
        RefStep(
            tool="list_rooms",
            args={"office": office, "min_capacity": size, "has_video": True},
        ),
        RefStep(
            tool="list_room_bookings",
            args={"room": ref(0, "results", 0, "room_id"), "date": day},
        ),
        RefStep(tool="book_room", args={"event_id": event.event_id, "room": ref(1, "room_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def room_of_my_meeting(ctx: TemplateContext) -> Draft:
    """Sequential: person -> their meetings -> free hours of one meeting's room that day."""
    who = person(ctx)
    events = ctx.read("list_events", person=who.person_id, status="confirmed")["results"]
    roomed = [i for i, e in enumerate(events) if e["room_id"] is not None]
    if not roomed:
        raise NoFit("no meeting with a room")
    index = roomed[0]
    event = events[index]
    room = ctx.world.table("rooms")[event["room_id"]]
    day = _local_day(room, event["start_utc"])
    field = ctx.rng.choice(["free_hours", "booked_hours"])
    question = {
        "free_hours": "how many hours is that room still free that day (local office hours)",
        "booked_hours": "how many hours in total is that room booked that day",
    }[field]
    prompt = ctx.say(
        "{name}'s next meeting that has a room is '{title}'. On {day}, " + question + "?",
        "Find the earliest upcoming meeting of {name}'s with a room booked ('{title}'). "
        + question.capitalize()
        + " on {day}?",
        name=who.name,
        title=event["title"],
        day=when(day),
    )
    steps = [
        RefStep(tool="search_people", args={"query": who.name}),
        RefStep(
            tool="list_events",
            args={"person": ref(0, "results", 0, "person_id"), "status": "confirmed"},
        ),
        RefStep(
            tool="list_room_bookings",
            args={"room": ref(1, "results", index, "room_id"), "date": day},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def room_facts_of_my_meeting(ctx: TemplateContext) -> Draft:
    """Sequential: person -> their meetings -> the room of the next one with a room -> its facts.

    The meeting names its room; the room list gives its size, floor and equipment.
    """
    who = person(ctx)
    events = ctx.read("list_events", person=who.person_id, status="confirmed")["results"]
    roomed = [i for i, e in enumerate(events) if e["room_id"] is not None]
    if not roomed:
        raise NoFit("no meeting with a room")
    index = roomed[0]
    name = events[index]["room_name"]
    if ctx.read("list_rooms", query=name)["results"][0]["room_id"] != events[index]["room_id"]:
        raise NoFit("the room name finds another room first")
    field, question = ctx.rng.choice(
        [
            ("capacity", "how many people does that room seat"),
            ("floor", "which floor is that room on"),
            ("utc_offset_hours", "what is the UTC offset (hours) of that room's office"),
        ]
    )
    prompt = ctx.say(
        "{name}'s next confirmed meeting that has a room: " + question + "?",
        "Look up the earliest upcoming meeting of {name}'s with a room booked; " + question + "?",
        name=who.name,
    )
    steps = [
        RefStep(tool="search_people", args={"query": who.name}),
        RefStep(
            tool="list_events",
            args={"person": ref(0, "results", 0, "person_id"), "status": "confirmed"},
        ),
        RefStep(tool="list_rooms", args={"query": ref(1, "results", index, "room_name")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "results", 0, field]]))


def three_rooms_one_day(ctx: TemplateContext) -> Draft:
    """Parallel: bookings of three to six rooms in one office on a day; free or booked hours."""
    anchor = ctx.pick("events", lambda e: e.room_id is not None and e.status == "confirmed")
    home = ctx.world.table("rooms")[anchor.room_id]
    office = home.office
    near = ctx.rows("rooms", lambda r: r.office == office and r != home)
    if len(near) < 2:
        raise NoFit("fewer than three rooms in the office")
    rooms = [home, *ctx.rng.sample(near, ctx.count(2, min(5, len(near))))]
    ctx.rng.shuffle(rooms)
    day = _local_day(home, anchor.start_utc)
    if max(_booked_hours(ctx, [r.room_id for r in rooms], day)) == 0:
        raise NoFit("no bookings at all")
    field, op, question = ctx.rng.choice(
        [
            ("free_hours", "max", "the most free hours any of them has"),
            ("free_hours", "min", "the fewest free hours among them"),
            ("booked_hours", "sum", "the total booked hours across all of them"),
        ]
    )
    prompt = ctx.say(
        "In {office}, rooms {names} on {day}: what is {q}?",
        "Room planning for {day} ({office} office): checking {names}, give me {q}.",
        office=office,
        names=listing([r.name for r in rooms]),
        day=when(day),
        q=question,
    )
    steps = one_per("list_room_bookings", "room", [r.name for r in rooms], date=day)
    return Draft(prompt, steps, combined(op, field, range(len(rooms))))


def office_room_usage(ctx: TemplateContext) -> Draft:
    """Mixture: list an office's rooms -> each room's bookings on a day -> aggregate."""
    office = ctx.rng.choice(sorted({r.office for r in ctx.rows("rooms")}))
    video = ctx.rng.choice([True, None])
    args: dict[str, Any] = {"office": office}
    if video:
        args["has_video"] = True
    rooms = ctx.read("list_rooms", **args)["results"]
    if len(rooms) < 2:
        raise NoFit("fewer than two rooms")
    day = ctx.rng.choice(weekdays_ahead(ctx, 0, 11))
    if max(_booked_hours(ctx, [r["room_id"] for r in rooms], day)) == 0:
        raise NoFit("nothing booked")
    field, op, question = ctx.rng.choice(
        [
            ("booked_hours", "sum", "how many room-hours are booked in total"),
            ("booked_hours", "max", "what's the most hours any single room is booked"),
            ("free_hours", "min", "what's the least free time any room has left, in hours"),
        ]
    )
    kind = "video-equipped rooms" if video else "meeting rooms"
    prompt = ctx.say(
        "Across all {kind} in our {office} office on {day}, {q}?",
        "Take every one of the {office} {kind} and look at {day}: {q}?",
        kind=kind,
        office=office,
        day=when(day),
        q=question,
    )
    steps = [RefStep(tool="list_rooms", args=args)]
    found = [ref(0, "results", i, "room_id") for i in range(len(rooms))]
    steps += one_per("list_room_bookings", "room", found, date=day)
    return Draft(prompt, steps, combined(op, field, range(1, 1 + len(rooms))))


def two_rooms_for_meeting(ctx: TemplateContext) -> Draft:
    """Mixture: find a meeting and a room independently -> that room's day, booked hours."""
    events = ctx.rows("events", lambda e: e.room_id is not None and e.status == "confirmed")
    event = ctx.rng.choice(events)
    room = ctx.world.table("rooms")[event.room_id]
    other = ctx.pick("rooms", lambda r: r.office == room.office and r.room_id != room.room_id)
    day = _local_day(room, event.start_utc)
    prompt = ctx.say(
        "Meeting {event} is in some room on {day}, and I'm also eyeing {other}. What's the "
        "larger number of booked hours that day between the meeting's room and {other}?",
        "Compare booked time on {day}: the room that meeting {event} uses versus {other}. "
        "Which is busier, and by how many booked hours? Just give the busier room's hours.",
        event=event.event_id,
        day=when(day),
        other=other.name,
    )
    steps = [
        RefStep(tool="list_events", args={"event_id": event.event_id}),
        RefStep(tool="list_rooms", args={"query": other.name}),
    ]
    found = [ref(i, "results", 0, "room_id") for i in range(2)]
    steps += one_per("list_room_bookings", "room", found, date=day)
    return Draft(prompt, steps, combined("max", "booked_hours", (2, 3)))


SUBTOPIC = Subtopic(
    name="meeting rooms",
    templates={
        "sequential": [book_smallest_video_room, room_of_my_meeting, room_facts_of_my_meeting],
        "parallel": [three_rooms_one_day],
        "mixture": [office_room_usage, two_rooms_for_meeting],
    },
)
