"""The productivity tools: people and calendars, tasks, rooms, documents, time, analytics.

Totals over tasks and documents and the record-keeping writes are declared through the
shared shapes; working-hours overlap, free-slot search, room bookings, time-log totals,
dataset queries, KPI changes, survey statistics and experiment lift are written by hand.
People, projects, rooms, KPIs, datasets, surveys and experiments can be named or given by
id; ``search_people``, ``list_projects``, ``list_rooms``, ``list_kpis``, ``list_datasets``,
``list_surveys`` and ``list_experiments`` return the ids. Refusals are
:class:`ToolError`: 404 for an unknown id or name, 409 for a name several records share
or a record in the wrong state, 422 for a request that breaks a rule.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal, cast

from toolchaos.core.tools import Param, Tool
from toolchaos.core.types import ToolKind
from toolchaos.core.values import is_number
from toolchaos.core.world import Row, World
from toolchaos.domains import _shapes as shapes
from toolchaos.domains._common import (
    calendar_date,
    clock_minutes,
    conflict,
    date_arg,
    enum_schema,
    find_key,
    is_integer,
    listing,
    money,
    not_found,
    stamp,
    stored_key,
    text_arg,
    unprocessable,
)
from toolchaos.domains._shapes import Filter, phrased_tool
from toolchaos.domains.productivity import data
from toolchaos.domains.productivity.world import (
    DataRow,
    Document,
    Event,
    Person,
    Project,
    Room,
    Task,
    TimeLog,
    WorkspaceWorld,
    kpi_key,
    local_window_utc,
    parse_stamp,
    variant_key,
)

MAX_TITLE_CHARS = 120
MAX_MEETING_MINUTES = 480
MAX_LOG_HOURS_PER_DAY = 16.0
LOG_DAYS_BACK = 30
AGGS = ("sum", "avg", "min", "max", "count", "median")

PERSON_DOC = (
    "A person id (e.g. 'U-1234') or the person's full name, e.g. 'Priya Raman' "
    "(search_people returns the id)."
)
PROJECT_DOC = (
    "A project id (e.g. 'PRJ-123') or the project's name, e.g. 'Atlas Migration' "
    "(list_projects returns the id)."
)
ROOM_DOC = "A room id (e.g. 'RM-123') or the room's name, e.g. 'Hudson' (see list_rooms)."
KPI_DOC = "A KPI id (e.g. 'KPI-123') or its name, e.g. 'Weekly active users' (see list_kpis)."
DATASET_DOC = (
    "A dataset id (e.g. 'DS-SALES') or its name, e.g. 'Regional sales' (see list_datasets)."
)
SURVEY_DOC = "A survey id (e.g. 'SRV-201') or its name (see list_surveys)."
EXPERIMENT_DOC = "An experiment id (e.g. 'EXP-123') or its name (see list_experiments)."
WHERE_DOC = (
    "Optional row filter: conditions 'column op value' joined by ';' or 'and', with op "
    "one of = != >= <= > <, e.g. 'region = EMEA; month >= 2025-10'. Text compares "
    "case-insensitively (ordering is alphabetical, which orders ISO dates and months)."
)
_TASK_DOC = (
    "task_id, project_id, project_name, title, assignee_id, assignee_name, priority (low, "
    "medium, high, urgent), status (todo, in_progress, blocked, done), due_date "
    "(YYYY-MM-DD), estimate_hours (hours), overdue (open and due before today), created_at "
    "and updated_at (UTC)"
)
_EVENT_DOC = (
    "event_id, title, organizer_id, organizer_name, attendee_ids (the organizer first), "
    "attendee_count, room_id and room_name (null without a room), start_utc and end_utc "
    "(UTC, YYYY-MM-DDTHH:MM:SSZ), start_date (the UTC date), duration_minutes and status "
    "(confirmed or cancelled)"
)
_DOC_DOC = (
    "doc_id, title, kind, project_id, project_name, author_id, author_name, word_count, "
    "reading_minutes (at 230 words a minute), created_at, updated_at (UTC) and updated_on "
    "(YYYY-MM-DD)"
)
_LOG_DOC = (
    "log_id, person_id, person_name, project_id, project_name, task_id (or null), date "
    "(YYYY-MM-DD), hours, billable (true or false) and note"
)

DOC_PHRASES = {
    "person": PERSON_DOC,
    "project": PROJECT_DOC,
    "room": ROOM_DOC,
    "kpi": KPI_DOC,
    "dataset": DATASET_DOC,
    "survey": SURVEY_DOC,
    "experiment": EXPERIMENT_DOC,
    "where": WHERE_DOC,
    "task": _TASK_DOC,
    "event": _EVENT_DOC,
    "doc": _DOC_DOC,
    "log": _LOG_DOC,
}


def _ws(world: World) -> WorkspaceWorld:
    return cast(WorkspaceWorld, world)


_tool = phrased_tool(DOC_PHRASES)


# -- shared argument checks ------------------------------------------------------------------


def _resolve(rows: dict[str, Any], value: Any, param: str, entity: str) -> Any:
    """The row a name-or-id parameter names: an id in any case, else an exact name."""
    text = text_arg(value, param)
    key = find_key(rows, text)
    if key is not None:
        return rows[key]
    folded = text.casefold()
    matches = [r for r in rows.values() if r.name.casefold() == folded]
    if not matches:
        raise not_found(entity, text)
    if len(matches) > 1:  # pragma: no cover - generated names are unique
        raise conflict(f"{entity} name '{text}' is ambiguous; pass an id", candidates=[])
    return matches[0]


def resolve_person(world: World, value: Any, param: str = "person") -> Person:
    """The person a name-or-id parameter names, or a 404/422."""
    found: Person = _resolve(_ws(world).people, value, param, "Person")
    return found


def resolve_project(world: World, value: Any, param: str = "project") -> Project:
    """The project a name-or-id parameter names, or a 404/422."""
    found: Project = _resolve(_ws(world).projects, value, param, "Project")
    return found


def resolve_room(world: World, value: Any, param: str = "room") -> Room:
    """The room a name-or-id parameter names, or a 404/422."""
    found: Room = _resolve(_ws(world).rooms, value, param, "Room")
    return found


def _optional_day(value: Any, param: str) -> date | None:
    return None if value is None else date_arg(value, param)


def _flag(value: Any, param: str) -> bool:
    if not isinstance(value, bool):
        raise unprocessable(f"{param} must be true or false")
    return value


def _match(query: str | None, *texts: str) -> bool:
    if query is None:
        return True
    wanted = query.strip().casefold()
    return any(wanted in t.casefold() for t in texts)


def _hours(value: float) -> float:
    return round(value, 2)


def _same(have: str, wanted: str) -> bool:
    """Whether a stored name is the one asked for, ignoring case and outer white space."""
    return have.casefold() == wanted.strip().casefold()


def _name_of(rows: Mapping[str, Any], key: str | None) -> str | None:
    """The name of the row ``key`` points to; None without a key or such a row."""
    row = rows.get(key) if key is not None else None
    return None if row is None else str(row.name)


# -- people, working hours and free slots ----------------------------------------------------


def _person_view(person: Person) -> dict[str, Any]:
    return person.model_dump(mode="json")


@_tool()
def search_people(
    world: WorkspaceWorld, query: str, team: str | None = None, office: str | None = None
) -> dict[str, Any]:
    """Search teammates by name or email; use it to find the person_id other tools accept.

    Matches every person whose name or email contains the query (case-insensitive); an
    exact full-name match comes first, then the rest by name. Each result has person_id,
    name, email, team, title, office, timezone, utc_offset_hours (the UTC offset in
    effect now), work_start_local and work_end_local (the working window, HH:MM local
    time, Monday to Friday) and hourly_cost_usd (internal cost, US dollars). Up to 20 in
    'results', with 'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        query: Part of a name or email, e.g. 'Priya' or 'raman'.
        team: Only people in this team, e.g. 'Engineering'.
        office: Only people in this office city, e.g. 'Berlin'.
    """
    text = text_arg(query, "query").casefold()
    rows = [p for p in world.people.values() if _match(text, p.name, p.email)]
    if team is not None:
        rows = [p for p in rows if _same(p.team, team)]
    if office is not None:
        rows = [p for p in rows if _same(p.office, office)]
    rows.sort(key=lambda p: (p.name.casefold() != text, p.name, p.person_id))
    return listing(rows, 20, _person_view)


def _weekday(day: date, param: str = "date") -> date:
    if day.weekday() >= 5:
        raise unprocessable(
            f"{param} {day.isoformat()} is a {day:%A}; working hours cover Monday to Friday"
        )
    return day


def _overlap(a: Person, b: Person, day: date) -> tuple[datetime, datetime] | None:
    a_start, a_end = local_window_utc(a, day)
    b_start, b_end = local_window_utc(b, day)
    start, end = max(a_start, b_start), min(a_end, b_end)
    return (start, end) if start < end else None


def _two_people(world: World, person_a: str, person_b: str) -> tuple[Person, Person]:
    a = resolve_person(world, person_a, "person_a")
    b = resolve_person(world, person_b, "person_b")
    if a.person_id == b.person_id:
        raise unprocessable(f"person_a and person_b are the same person ({a.person_id})")
    return a, b


def _local_clock(moment: datetime, person: Person) -> str:
    return (moment + timedelta(hours=person.utc_offset_hours)).strftime("%H:%M")


@_tool()
def working_hours_overlap(
    world: WorkspaceWorld, person_a: str, person_b: str, date: str
) -> dict[str, Any]:
    """When two teammates' working hours overlap on a weekday, across their time zones.

    Each person's working window is taken on that calendar date in their own local
    time. Returns person_a_id, person_a_name, person_b_id, person_b_name, date,
    overlap_start_utc and overlap_end_utc (UTC, YYYY-MM-DDTHH:MM:SSZ; null when the
    windows do not meet), overlap_hours (hours, 0 when they do not meet) and
    person_a_local_start and person_b_local_start (the overlap's start in each person's
    local time, HH:MM; null without overlap). 422 on a weekend.

    Args:
        world: The workspace (not shown to the agent).
        person_a: The first person. {person}
        person_b: The second person. {person}
        date: The day, YYYY-MM-DD (a weekday).
    """
    a, b = _two_people(world, person_a, person_b)
    day = _weekday(date_arg(date, "date"))
    window = _overlap(a, b, day)
    head = {
        "person_a_id": a.person_id,
        "person_a_name": a.name,
        "person_b_id": b.person_id,
        "person_b_name": b.name,
        "date": day.isoformat(),
    }
    if window is None:
        return {
            **head,
            "overlap_start_utc": None,
            "overlap_end_utc": None,
            "overlap_hours": 0.0,
            "person_a_local_start": None,
            "person_b_local_start": None,
        }
    start, end = window
    return {
        **head,
        "overlap_start_utc": stamp(start),
        "overlap_end_utc": stamp(end),
        "overlap_hours": _hours((end - start).total_seconds() / 3600),
        "person_a_local_start": _local_clock(start, a),
        "person_b_local_start": _local_clock(start, b),
    }


def busy_intervals(
    world: World, person_ids: Sequence[str], start: datetime, end: datetime
) -> list[tuple[datetime, datetime]]:
    """Merged confirmed meetings any of ``person_ids`` attends, clipped to [start, end)."""
    spans = []
    for event in _ws(world).events.values():
        if event.status != "confirmed" or not set(person_ids) & set(event.attendee_ids):
            continue
        s, e = parse_stamp(event.start_utc), parse_stamp(event.end_utc)
        if s < end and start < e:
            spans.append((max(s, start), min(e, end)))
    spans.sort()
    merged: list[tuple[datetime, datetime]] = []
    for s, e in spans:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def _minutes_param(value: Any, param: str, low: int, high: int) -> int:
    if not is_integer(value) or not low <= value <= high or value % 5:
        raise unprocessable(
            f"{param} must be a whole number of minutes from {low} to {high}, in steps of 5"
        )
    return value


@_tool()
def find_free_slots(
    world: WorkspaceWorld, person_a: str, person_b: str, date: str, duration_minutes: int = 30
) -> dict[str, Any]:
    """Free time two teammates share on a weekday, inside both working windows.

    Free means outside both calendars (confirmed meetings only).
    Returns person_a_id, person_b_id, date, duration_minutes and 'results': every free
    interval at least duration_minutes long, in time order, each with start_utc and
    end_utc (UTC, YYYY-MM-DDTHH:MM:SSZ) and minutes; plus count, first_slot_start_utc
    (null if none) and total_free_minutes (over the listed intervals). 422 on a weekend.

    Args:
        world: The workspace (not shown to the agent).
        person_a: The first person. {person}
        person_b: The second person. {person}
        date: The day, YYYY-MM-DD (a weekday).
        duration_minutes: The shortest useful slot, 15 to 480 minutes in steps of 5 (default 30).
    """
    a, b = _two_people(world, person_a, person_b)
    day = _weekday(date_arg(date, "date"))
    minutes = _minutes_param(duration_minutes, "duration_minutes", 15, MAX_MEETING_MINUTES)
    window = _overlap(a, b, day)
    slots: list[dict[str, Any]] = []
    if window is not None:
        cursor = window[0]
        busy = busy_intervals(world, (a.person_id, b.person_id), *window)
        for s, e in [*busy, (window[1], window[1])]:
            if (s - cursor).total_seconds() >= minutes * 60:
                length = int((s - cursor).total_seconds() // 60)
                slots.append({"start_utc": stamp(cursor), "end_utc": stamp(s), "minutes": length})
            cursor = max(cursor, e)
    return {
        "person_a_id": a.person_id,
        "person_b_id": b.person_id,
        "date": day.isoformat(),
        "duration_minutes": minutes,
        "results": slots,
        "count": len(slots),
        "first_slot_start_utc": slots[0]["start_utc"] if slots else None,
        "total_free_minutes": sum(s["minutes"] for s in slots),
    }


# -- calendar --------------------------------------------------------------------------------


def _event_view(world: World, row: Row) -> dict[str, Any]:
    event = cast(Event, row)
    w = _ws(world)
    start, end = parse_stamp(event.start_utc), parse_stamp(event.end_utc)
    return {
        "event_id": event.event_id,
        "title": event.title,
        "organizer_id": event.organizer_id,
        "organizer_name": _name_of(w.people, event.organizer_id),
        "attendee_ids": list(event.attendee_ids),
        "attendee_count": len(event.attendee_ids),
        "room_id": event.room_id,
        "room_name": _name_of(w.rooms, event.room_id),
        "start_utc": event.start_utc,
        "end_utc": event.end_utc,
        "start_date": event.start_utc[:10],
        "duration_minutes": int((end - start).total_seconds() // 60),
        "status": event.status,
    }


@_tool()
def list_events(
    world: WorkspaceWorld,
    person: str | None = None,
    date: str | None = None,
    room: str | None = None,
    status: Literal["confirmed", "cancelled"] | None = None,
    event_id: str | None = None,
) -> dict[str, Any]:
    """List calendar events, sorted by start time. Every filter given must match.

    Each event has {event}. Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        person: Only events this person attends (organizer included). {person}
        date: Only events starting on this UTC date, YYYY-MM-DD.
        room: Only events held in this room. {room}
        status: Only events in this status.
        event_id: Only this event, e.g. 'EV-00042'.
    """
    rows = sorted(world.events.values(), key=lambda e: (e.start_utc, e.event_id))
    if person is not None:
        pid = resolve_person(world, person).person_id
        rows = [e for e in rows if pid in e.attendee_ids]
    if date is not None:
        day = date_arg(date, "date").isoformat()
        rows = [e for e in rows if e.start_utc[:10] == day]
    if room is not None:
        rid = resolve_room(world, room).room_id
        rows = [e for e in rows if e.room_id == rid]
    if status is not None:
        rows = [e for e in rows if e.status == status]
    if event_id is not None:
        rows = [e for e in rows if _same(e.event_id, str(event_id))]
    return listing(rows, 50, lambda e: _event_view(world, e))


_START_RE = re.compile(r"(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::00)?Z?")


def _start(value: Any, param: str) -> datetime:
    match = _START_RE.fullmatch(value.strip()) if isinstance(value, str) else None
    day = calendar_date(match[1]) if match else None
    minutes = clock_minutes(match[2]) if match else None
    if day is None or minutes is None:
        raise unprocessable(f"{param} must be a UTC time written YYYY-MM-DDTHH:MM, got '{value}'")
    return datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(minutes=minutes)


def _room_fits(
    world: World, room: Room, start: datetime, end: datetime, size: int, skip: str | None
) -> None:
    """Refuse a room that is too small, closed at that time or already booked."""
    if room.capacity < size:
        raise unprocessable(
            f"Room {room.name} seats {room.capacity}; the meeting has {size} attendees"
        )
    shift = timedelta(hours=room.utc_offset_hours)
    local_start, local_end = start + shift, end + shift
    opens = clock_minutes(data.ROOM_OPEN) or 0
    closes = clock_minutes(data.ROOM_CLOSE) or 0
    first = local_start.hour * 60 + local_start.minute
    last = (local_end - timedelta(minutes=1)).hour * 60 + (local_end - timedelta(minutes=1)).minute
    if (
        local_start.date() != (local_end - timedelta(minutes=1)).date()
        or first < opens
        or last >= closes
    ):
        raise unprocessable(
            f"Room {room.name} can be booked {data.ROOM_OPEN}-{data.ROOM_CLOSE} local time "
            f"({room.office}) only"
        )
    for other in _ws(world).events.values():
        if other.room_id != room.room_id or other.status != "confirmed" or other.event_id == skip:
            continue
        if parse_stamp(other.start_utc) < end and start < parse_stamp(other.end_utc):
            raise conflict(
                f"Room {room.name} is already booked by {other.event_id} from {other.start_utc} "
                f"to {other.end_utc}",
                event_id=other.event_id,
            )


def _build_event(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _ws(world)
    title = text_arg(args["title"], "title")
    if len(title) > MAX_TITLE_CHARS:
        raise unprocessable(f"title must be at most {MAX_TITLE_CHARS} characters")
    organizer = resolve_person(w, args["organizer"], "organizer")
    names = [n.strip() for n in str(args.get("attendees") or "").split(",") if n.strip()]
    attendees = [organizer.person_id]
    for name in names:
        pid = resolve_person(w, name, "attendees").person_id
        if pid not in attendees:
            attendees.append(pid)
    start = _start(args["start_utc"], "start_utc")
    minutes = _minutes_param(args["duration_minutes"], "duration_minutes", 15, MAX_MEETING_MINUTES)
    if start < w.now():
        raise unprocessable(f"start_utc {stamp(start)} is in the past")
    if start > w.now() + timedelta(days=90):
        raise unprocessable("events can start at most 90 days ahead")
    end = start + timedelta(minutes=minutes)
    room_id = None
    if args.get("room") is not None:
        room = resolve_room(w, args["room"])
        _room_fits(w, room, start, end, len(attendees), None)
        room_id = room.room_id
    event_id = w.next_id("EV")
    row = Event(
        event_id=event_id,
        title=title,
        organizer_id=organizer.person_id,
        attendee_ids=(attendees[0], *sorted(attendees[1:])),
        room_id=room_id,
        start_utc=stamp(start),
        end_utc=stamp(end),
        status="confirmed",
        created_at=stamp(w.now()),
    )
    return event_id, row


create_event = shapes.create(
    "create_event",
    "events",
    "Put a meeting on the calendar. The organizer attends and is listed first. With a "
    f"room, the room must seat everyone, be free and be open ({data.ROOM_OPEN}-"
    f"{data.ROOM_CLOSE} local time at its office); 409 if it is booked, 422 otherwise. "
    f"Returns the new event: {_EVENT_DOC}.",
    [
        Param(
            "title", {"type": "string"}, f"The meeting title, at most {MAX_TITLE_CHARS} characters."
        ),
        Param("organizer", {"type": "string"}, f"Who organizes it. {PERSON_DOC}"),
        Param(
            "attendees",
            {"type": "string"},
            "The other attendees, comma-separated person ids or full names, e.g. "
            "'Priya Raman, U-1234' (may be empty).",
        ),
        Param(
            "start_utc",
            {"type": "string"},
            "Start time in UTC, YYYY-MM-DDTHH:MM (not in the past).",
        ),
        Param(
            "duration_minutes",
            {"type": "integer"},
            f"Length in minutes, 15 to {MAX_MEETING_MINUTES} in steps of 5.",
        ),
        Param("room", {"type": "string"}, f"Optional meeting room. {ROOM_DOC}", required=False),
    ],
    _build_event,
    view=_event_view,
)


@_tool(ToolKind.WRITE)
def cancel_event(world: WorkspaceWorld, event_id: str) -> dict[str, Any]:
    """Cancel a calendar event; its room is released.

    409 if it is already cancelled or has already started. Returns the event with
    status 'cancelled'.

    Args:
        world: The workspace (not shown to the agent).
        event_id: The event id, e.g. 'EV-00042'.
    """
    key = stored_key(world.events, event_id, "Event")
    event = world.events[key]
    if event.status == "cancelled":
        raise conflict(f"Event {key} is already cancelled")
    if parse_stamp(event.start_utc) <= world.now():
        raise conflict(f"Event {key} has already started and can no longer be cancelled")
    return _event_view(world, world.update("events", key, status="cancelled"))


# -- rooms -----------------------------------------------------------------------------------


def _room_view(room: Room) -> dict[str, Any]:
    return room.model_dump(mode="json")


@_tool()
def list_rooms(
    world: WorkspaceWorld,
    query: str | None = None,
    office: str | None = None,
    min_capacity: int | None = None,
    has_video: bool | None = None,
) -> dict[str, Any]:
    """List meeting rooms, sorted by office then name. Every filter given must match.

    Each room has room_id, name, office, utc_offset_hours (the office's UTC offset),
    floor, capacity (seats) and has_video. Rooms are bookable 08:00-18:00 local time.
    Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        query: Part of the room name (case-insensitive).
        office: Only rooms in this office city, e.g. 'London'.
        min_capacity: Only rooms seating at least this many people.
        has_video: Only rooms with (true) or without (false) video conferencing.
    """
    rows = [r for r in world.rooms.values() if _match(query, r.name)]
    if office is not None:
        rows = [r for r in rows if _same(r.office, office)]
    if min_capacity is not None:
        if not is_integer(min_capacity):
            raise unprocessable("min_capacity must be an integer")
        rows = [r for r in rows if r.capacity >= min_capacity]
    if has_video is not None:
        wanted = _flag(has_video, "has_video")
        rows = [r for r in rows if r.has_video is wanted]
    rows.sort(key=lambda r: (r.office, r.name))
    return listing(rows, 50, _room_view)


@_tool()
def list_room_bookings(world: WorkspaceWorld, room: str, date: str | None = None) -> dict[str, Any]:
    """A room's confirmed bookings, sorted by start, optionally on one local day.

    Returns room_id, room_name, office, capacity, date (or null), booked_hours (hours of
    bookings listed) and free_hours (with a date: the hours of the 08:00-18:00 local
    opening left unbooked; null without a date), then 'results': the bookings, each with
    {event}; up to 50, with 'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        room: {room}
        date: Only bookings on this day in the room's local time, YYYY-MM-DD.
    """
    found = resolve_room(world, room)
    day = _optional_day(date, "date")
    shift = timedelta(hours=found.utc_offset_hours)
    rows = sorted(
        (
            e
            for e in world.events.values()
            if e.room_id == found.room_id and e.status == "confirmed"
        ),
        key=lambda e: (e.start_utc, e.event_id),
    )
    if day is not None:
        rows = [e for e in rows if (parse_stamp(e.start_utc) + shift).date() == day]
    booked = (
        sum((parse_stamp(e.end_utc) - parse_stamp(e.start_utc)).total_seconds() for e in rows)
        / 3600
    )
    open_hours = ((clock_minutes(data.ROOM_CLOSE) or 0) - (clock_minutes(data.ROOM_OPEN) or 0)) / 60
    head = {
        "room_id": found.room_id,
        "room_name": found.name,
        "office": found.office,
        "capacity": found.capacity,
        "date": day.isoformat() if day is not None else None,
        "booked_hours": _hours(booked),
        "free_hours": _hours(max(0.0, open_hours - booked)) if day is not None else None,
    }
    return listing(rows, 50, lambda e: _event_view(world, e), **head)


@_tool(ToolKind.WRITE)
def book_room(world: WorkspaceWorld, event_id: str, room: str) -> dict[str, Any]:
    """Book a meeting room for an existing confirmed event (or move it to another room).

    The room must seat every attendee (422), be open at that time (08:00-18:00 local
    time at its office; 422) and be free (409). Returns the updated event: {event}.

    Args:
        world: The workspace (not shown to the agent).
        event_id: The event id, e.g. 'EV-00042'.
        room: {room}
    """
    key = stored_key(world.events, event_id, "Event")
    event = world.events[key]
    if event.status != "confirmed":
        raise conflict(f"Event {key} is cancelled")
    start, end = parse_stamp(event.start_utc), parse_stamp(event.end_utc)
    if start <= world.now():
        raise conflict(f"Event {key} has already started")
    found = resolve_room(world, room)
    if event.room_id == found.room_id:
        raise conflict(f"Event {key} is already in room {found.name}")
    _room_fits(world, found, start, end, len(event.attendee_ids), key)
    return _event_view(world, world.update("events", key, room_id=found.room_id))


# -- projects and tasks ----------------------------------------------------------------------


def _project_view(world: World, project: Project) -> dict[str, Any]:
    out = project.model_dump(mode="json")
    out["owner_name"] = _name_of(_ws(world).people, project.owner_id)
    return out


@_tool()
def list_projects(
    world: WorkspaceWorld,
    query: str | None = None,
    status: Literal["active", "on_hold", "completed"] | None = None,
    client: str | None = None,
) -> dict[str, Any]:
    """List projects, sorted by name; use it to find the project_id other tools accept.

    Each has project_id, name, client ('Internal' for internal work), status (active,
    on_hold, completed), owner_id, owner_name, member_ids, billable_rate_usd (US dollars
    per billable hour; 0 for internal projects), budget_hours (hours), start_date and
    due_date (YYYY-MM-DD). Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        query: Part of the project name (case-insensitive).
        status: Only projects in this status.
        client: Only projects for this client (exact name, case-insensitive).
    """
    rows = [p for p in world.projects.values() if _match(query, p.name)]
    if status is not None:
        rows = [p for p in rows if p.status == status]
    if client is not None:
        rows = [p for p in rows if _same(p.client, client)]
    rows.sort(key=lambda p: p.name)
    return listing(rows, 50, lambda p: _project_view(world, p))


def _task_view(world: World, row: Row) -> dict[str, Any]:
    task = cast(Task, row)
    w = _ws(world)
    out = task.model_dump(mode="json")
    out["project_name"] = _name_of(w.projects, task.project_id)
    out["assignee_name"] = _name_of(w.people, task.assignee_id)
    out["overdue"] = task.status != "done" and task.due_date < w.today().isoformat()
    return out


def _tasks(
    world: WorkspaceWorld,
    project: str | None,
    assignee: str | None,
    status: str | None,
    priority: str | None,
    due_before: str | None,
    due_after: str | None,
    task_id: str | None,
    names: tuple[str, str, str],
) -> dict[str, Any]:
    rows = sorted(world.tasks.values(), key=lambda t: (t.due_date, t.task_id))
    if project is not None:
        pid = resolve_project(world, project, names[0]).project_id
        rows = [t for t in rows if t.project_id == pid]
    if assignee is not None:
        uid = resolve_person(world, assignee, names[1]).person_id
        rows = [t for t in rows if t.assignee_id == uid]
    if status is not None:
        rows = [t for t in rows if t.status == status]
    if priority is not None:
        rows = [t for t in rows if t.priority == priority]
    if due_before is not None:
        last = date_arg(due_before, "due_before").isoformat()
        rows = [t for t in rows if t.due_date <= last]
    if due_after is not None:
        first = date_arg(due_after, "due_after").isoformat()
        rows = [t for t in rows if t.due_date >= first]
    if task_id is not None:
        rows = [t for t in rows if _same(t.task_id, str(task_id))]
    return listing(rows, 50, lambda t: _task_view(world, t))


TaskStatus = Literal["todo", "in_progress", "blocked", "done"]
Priority = Literal["low", "medium", "high", "urgent"]


@_tool()
def list_tasks(
    world: WorkspaceWorld,
    project: str | None = None,
    assignee: str | None = None,
    status: TaskStatus | None = None,
    priority: Priority | None = None,
    due_before: str | None = None,
    due_after: str | None = None,
    task_id: str | None = None,
) -> dict[str, Any]:
    """List tasks, sorted by due date then task_id. Every filter given must match.

    Each task has {task}. Up to 50 in 'results', with 'count' and 'total'.
    list_tasks_v2 is the newer version of this endpoint; this one still works.

    Args:
        world: The workspace (not shown to the agent).
        project: Only tasks in this project. {project}
        assignee: Only tasks assigned to this person. {person}
        status: Only tasks in this status.
        priority: Only tasks of this priority.
        due_before: Only tasks due on or before this day, YYYY-MM-DD.
        due_after: Only tasks due on or after this day, YYYY-MM-DD.
        task_id: Only this task, e.g. 'TSK-00042'.
    """
    names = ("project", "assignee", "status")
    return _tasks(world, project, assignee, status, priority, due_before, due_after, task_id, names)


@_tool(name="list_tasks_v2")
def list_tasks_v2(
    world: WorkspaceWorld,
    project_ref: str | None = None,
    owner: str | None = None,
    state: TaskStatus | None = None,
    priority: Priority | None = None,
    due_before: str | None = None,
    due_after: str | None = None,
    task_id: str | None = None,
) -> dict[str, Any]:
    """Version 2 of list_tasks: the same listing with renamed parameters.

    Takes project_ref (was project), owner (was assignee) and state (was status); returns
    exactly the keys list_tasks returns. Each task has {task}. Up to 50 in 'results',
    with 'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        project_ref: Only tasks in this project. {project}
        owner: Only tasks assigned to this person. {person}
        state: Only tasks in this status.
        priority: Only tasks of this priority.
        due_before: Only tasks due on or before this day, YYYY-MM-DD.
        due_after: Only tasks due on or after this day, YYYY-MM-DD.
        task_id: Only this task, e.g. 'TSK-00042'.
    """
    names = ("project_ref", "owner", "state")
    return _tasks(world, project_ref, owner, state, priority, due_before, due_after, task_id, names)


task_estimate_total = shapes.aggregate(
    "task_estimate_total",
    "tasks",
    "Total estimated effort of the tasks matching every filter given, in hours. Returns "
    "total_estimate_hours and matched (the number of tasks summed); 404 if none match.",
    "estimate_hours",
    "sum",
    [
        Filter("project_id", "project_id", "Only tasks of this project id, e.g. 'PRJ-123'."),
        Filter(
            "assignee_id", "assignee_id", "Only tasks assigned to this person id, e.g. 'U-1234'."
        ),
        Filter(
            "status", "status", "Only tasks in this status.", schema=enum_schema(data.TASK_STATUSES)
        ),
        Filter(
            "priority",
            "priority",
            "Only tasks of this priority.",
            schema=enum_schema(data.PRIORITIES),
        ),
    ],
    "total_estimate_hours",
)


def _due(world: WorkspaceWorld, value: Any) -> str:
    day = date_arg(value, "due_date")
    if day < world.today():
        raise unprocessable(f"due_date {day.isoformat()} is in the past")
    if day > world.today() + timedelta(days=365):
        raise unprocessable("due_date must be within a year")
    return day.isoformat()


def _member(project: Project, person: Person) -> None:
    if person.person_id not in project.member_ids:
        raise unprocessable(f"{person.name} is not a member of project {project.name}")


def _open_project(project: Project) -> None:
    if project.status != "active":
        raise conflict(
            f"Project {project.name} is {project.status}; only active projects take changes"
        )


def _estimate(value: Any) -> float:
    if not is_number(value) or not 0.25 <= value <= 200:
        raise unprocessable("estimate_hours must be a number from 0.25 to 200")
    return float(value)


def _build_task(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _ws(world)
    project = resolve_project(w, args["project"])
    _open_project(project)
    title = text_arg(args["title"], "title")
    if len(title) > MAX_TITLE_CHARS:
        raise unprocessable(f"title must be at most {MAX_TITLE_CHARS} characters")
    person = resolve_person(w, args["assignee"], "assignee")
    _member(project, person)
    priority = args.get("priority") or "medium"
    if priority not in data.PRIORITIES:
        raise unprocessable(f"priority must be one of: {', '.join(data.PRIORITIES)}")
    due = _due(w, args["due_date"])
    estimate = _estimate(args.get("estimate_hours", 2.0))
    for other in w.tasks.values():
        if other.project_id == project.project_id and other.title.casefold() == title.casefold():
            raise conflict(
                f"Project {project.name} already has a task titled '{other.title}' "
                f"({other.task_id})",
                task_id=other.task_id,
            )
    task_id = w.next_id("TSK")
    now = stamp(w.now())
    row = Task(
        task_id=task_id,
        project_id=project.project_id,
        title=title,
        assignee_id=person.person_id,
        priority=priority,
        status="todo",
        due_date=due,
        estimate_hours=estimate,
        created_at=now,
        updated_at=now,
    )
    return task_id, row


create_task = shapes.create(
    "create_task",
    "tasks",
    "Create a task in an active project (409 for one on hold or completed), assigned to a "
    "project member (422 otherwise). Titles are unique within a project (409). The task "
    f"starts in status 'todo'. Returns the new task: {_TASK_DOC}.",
    [
        Param("project", {"type": "string"}, f"The project. {PROJECT_DOC}"),
        Param(
            "title", {"type": "string"}, f"The task title, at most {MAX_TITLE_CHARS} characters."
        ),
        Param("assignee", {"type": "string"}, f"Who does it (a project member). {PERSON_DOC}"),
        Param(
            "due_date", {"type": "string"}, "Due day, YYYY-MM-DD (today or later, within a year)."
        ),
        Param(
            "priority",
            {**enum_schema(data.PRIORITIES), "default": "medium"},
            "The priority (default medium).",
            required=False,
        ),
        Param(
            "estimate_hours",
            {"type": "number", "default": 2.0},
            "Estimated effort in hours, 0.25 to 200 (default 2).",
            required=False,
        ),
    ],
    _build_task,
    view=_task_view,
)


def _task_changes(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    w = _ws(world)
    task = cast(Task, row)
    project = w.projects[task.project_id]
    if project.status == "completed":
        raise conflict(f"Project {project.name} is completed; its tasks can no longer change")
    changes: dict[str, Any] = {}
    if args.get("status") is not None:
        if args["status"] not in data.TASK_STATUSES:
            raise unprocessable(f"status must be one of: {', '.join(data.TASK_STATUSES)}")
        changes["status"] = args["status"]
    if args.get("priority") is not None:
        if args["priority"] not in data.PRIORITIES:
            raise unprocessable(f"priority must be one of: {', '.join(data.PRIORITIES)}")
        changes["priority"] = args["priority"]
    if args.get("assignee") is not None:
        person = resolve_person(w, args["assignee"], "assignee")
        _member(project, person)
        changes["assignee_id"] = person.person_id
    if args.get("due_date") is not None:
        changes["due_date"] = _due(w, args["due_date"])
    if args.get("estimate_hours") is not None:
        changes["estimate_hours"] = _estimate(args["estimate_hours"])
    if not changes:
        raise unprocessable(
            "nothing to change: give status, priority, assignee, due_date or estimate_hours"
        )
    changes["updated_at"] = stamp(w.now())
    return changes


update_task = shapes.update(
    "update_task",
    "tasks",
    "task_id",
    "Task",
    "Change a task's status, priority, assignee (a project member), due date or estimate. "
    "Give at least one change. Refused (409) for a task of a completed project. Returns "
    "the updated task.",
    "The task id, e.g. 'TSK-00042'.",
    [
        Param("status", enum_schema(data.TASK_STATUSES), "New status.", required=False),
        Param("priority", enum_schema(data.PRIORITIES), "New priority.", required=False),
        Param("assignee", {"type": "string"}, f"New assignee. {PERSON_DOC}", required=False),
        Param("due_date", {"type": "string"}, "New due day, YYYY-MM-DD.", required=False),
        Param("estimate_hours", {"type": "number"}, "New estimate in hours.", required=False),
    ],
    _task_changes,
    view=_task_view,
)


# -- documents -------------------------------------------------------------------------------


def _doc_view(world: World, row: Row) -> dict[str, Any]:
    doc = cast(Document, row)
    w = _ws(world)
    out = doc.model_dump(mode="json")
    out["project_name"] = _name_of(w.projects, doc.project_id)
    out["author_name"] = _name_of(w.people, doc.author_id)
    out["reading_minutes"] = round(doc.word_count / data.WORDS_PER_MINUTE, 1)
    out["updated_on"] = doc.updated_at[:10]
    return out


@_tool()
def search_documents(
    world: WorkspaceWorld,
    query: str | None = None,
    project: str | None = None,
    author: str | None = None,
    kind: Literal["spec", "meeting_notes", "runbook", "retro", "plan", "report"] | None = None,
) -> dict[str, Any]:
    """Search documents and notes, sorted by title. Every filter given must match.

    Each has {doc}. Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        query: Part of the title (case-insensitive).
        project: Only documents of this project. {project}
        author: Only documents by this person. {person}
        kind: Only documents of this kind.
    """
    rows = [d for d in world.documents.values() if _match(query, d.title)]
    if project is not None:
        pid = resolve_project(world, project).project_id
        rows = [d for d in rows if d.project_id == pid]
    if author is not None:
        uid = resolve_person(world, author, "author").person_id
        rows = [d for d in rows if d.author_id == uid]
    if kind is not None:
        rows = [d for d in rows if d.kind == kind]
    rows.sort(key=lambda d: (d.title, d.doc_id))
    return listing(rows, 50, lambda d: _doc_view(world, d))


def _build_document(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _ws(world)
    title = text_arg(args["title"], "title")
    if len(title) > MAX_TITLE_CHARS:
        raise unprocessable(f"title must be at most {MAX_TITLE_CHARS} characters")
    project = resolve_project(w, args["project"])
    author = resolve_person(w, args["author"], "author")
    _member(project, author)
    kind = args["kind"]
    if kind not in data.DOC_KINDS:
        raise unprocessable(f"kind must be one of: {', '.join(data.DOC_KINDS)}")
    body = text_arg(args["body"], "body")
    for other in w.documents.values():
        if other.project_id == project.project_id and other.title.casefold() == title.casefold():
            raise conflict(
                f"Document '{other.title}' already exists ({other.doc_id})", doc_id=other.doc_id
            )
    doc_id = w.next_id("DOC")
    now = stamp(w.now())
    row = Document(
        doc_id=doc_id,
        title=title,
        kind=kind,
        project_id=project.project_id,
        author_id=author.person_id,
        word_count=len(body.split()),
        created_at=now,
        updated_at=now,
    )
    return doc_id, row


create_document = shapes.create(
    "create_document",
    "documents",
    "Create a document in a project, written by a project member (422 otherwise). Titles "
    "are unique within a project (409). word_count is counted from the body (words "
    f"separated by white space). Returns the new document: {_DOC_DOC}.",
    [
        Param("title", {"type": "string"}, f"The title, at most {MAX_TITLE_CHARS} characters."),
        Param("project", {"type": "string"}, f"The project it belongs to. {PROJECT_DOC}"),
        Param("author", {"type": "string"}, f"Who writes it. {PERSON_DOC}"),
        Param("kind", enum_schema(data.DOC_KINDS), "The kind of document."),
        Param("body", {"type": "string"}, "The text of the document."),
    ],
    _build_document,
    view=_doc_view,
)

word_count_total = shapes.aggregate(
    "word_count_total",
    "documents",
    "Total words across the documents matching every filter given. Returns total_words "
    "and matched (the number of documents summed); 404 if none match.",
    "word_count",
    "sum",
    [
        Filter("project_id", "project_id", "Only documents of this project id, e.g. 'PRJ-123'."),
        Filter("author_id", "author_id", "Only documents by this person id, e.g. 'U-1234'."),
        Filter("kind", "kind", "Only documents of this kind.", schema=enum_schema(data.DOC_KINDS)),
    ],
    "total_words",
)


# -- time tracking ---------------------------------------------------------------------------


def _log_view(world: World, row: Row) -> dict[str, Any]:
    log = cast(TimeLog, row)
    w = _ws(world)
    out = log.model_dump(mode="json")
    out["person_name"] = _name_of(w.people, log.person_id)
    out["project_name"] = _name_of(w.projects, log.project_id)
    return out


def _range(
    world: WorkspaceWorld, from_date: Any, to_date: Any, names: tuple[str, str]
) -> tuple[str, str]:
    first = _optional_day(from_date, names[0])
    last = _optional_day(to_date, names[1])
    start = first.isoformat() if first is not None else "0000-01-01"
    end = last.isoformat() if last is not None else world.today().isoformat()
    if start > end:
        raise unprocessable(f"{names[0]} must not be after {names[1]}")
    return start, end


def _logs(
    world: WorkspaceWorld, start: str, end: str, person: Person | None, project: Project | None
) -> list[TimeLog]:
    rows = [
        log
        for log in world.time_logs.values()
        if start <= log.date <= end
        and (person is None or log.person_id == person.person_id)
        and (project is None or log.project_id == project.project_id)
    ]
    return sorted(rows, key=lambda log: (log.date, log.log_id))


@_tool()
def list_time_logs(
    world: WorkspaceWorld,
    person: str | None = None,
    project: str | None = None,
    from_date: str | None = None,
    to_date: str | None = None,
    billable: bool | None = None,
) -> dict[str, Any]:
    """List logged time, sorted by date then log_id. Every filter given must match.

    Each entry has {log}. Returns total_hours (hours, over every matching entry), then up
    to 100 entries in 'results', with 'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        person: Only time logged by this person. {person}
        project: Only time logged on this project. {project}
        from_date: First day to include, YYYY-MM-DD.
        to_date: Last day to include, YYYY-MM-DD (default today).
        billable: Only billable (true) or non-billable (false) time.
    """
    start, end = _range(world, from_date, to_date, ("from_date", "to_date"))
    who = resolve_person(world, person) if person is not None else None
    what = resolve_project(world, project) if project is not None else None
    rows = _logs(world, start, end, who, what)
    if billable is not None:
        wanted = _flag(billable, "billable")
        rows = [log for log in rows if log.billable is wanted]
    total = _hours(sum(log.hours for log in rows))
    return listing(rows, 100, lambda log: _log_view(world, log), total_hours=total)


def _build_log(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _ws(world)
    person = resolve_person(w, args["person"])
    project = resolve_project(w, args["project"])
    _member(project, person)
    if project.status == "completed":
        raise conflict(f"Project {project.name} is completed; time can no longer be logged to it")
    day = date_arg(args["date"], "date")
    if day > w.today():
        raise unprocessable(f"date {day.isoformat()} is in the future")
    if day < w.today() - timedelta(days=LOG_DAYS_BACK):
        raise unprocessable(f"time can be logged at most {LOG_DAYS_BACK} days back")
    hours = args["hours"]
    if not is_number(hours) or not 0 < hours <= 12 or (hours * 4) != int(hours * 4):
        raise unprocessable("hours must be from 0.25 to 12, in steps of 0.25")
    billable = _flag(args.get("billable", True), "billable")
    if billable and project.billable_rate_usd == 0:
        raise unprocessable(f"Project {project.name} is internal; its time cannot be billable")
    task_id = args.get("task_id")
    if task_id is not None:
        task_id = stored_key(w.tasks, str(task_id), "Task")
        if w.tasks[task_id].project_id != project.project_id:
            raise unprocessable(f"Task {task_id} is not in project {project.name}")
    note = str(args.get("note") or "").strip()
    if len(note) > 200:
        raise unprocessable("note must be at most 200 characters")
    that_day = sum(
        log.hours
        for log in w.time_logs.values()
        if log.person_id == person.person_id and log.date == day.isoformat()
    )
    if that_day + hours > MAX_LOG_HOURS_PER_DAY:
        raise unprocessable(
            f"{person.name} would log more than {MAX_LOG_HOURS_PER_DAY:g} hours on "
            f"{day.isoformat()}"
        )
    log_id = w.next_id("TL")
    row = TimeLog(
        log_id=log_id,
        person_id=person.person_id,
        project_id=project.project_id,
        task_id=task_id,
        date=day.isoformat(),
        hours=float(hours),
        billable=billable,
        note=note,
        created_at=stamp(w.now()),
    )
    return log_id, row


log_time = shapes.create(
    "log_time",
    "time_logs",
    "Log hours one person worked on a project (a project member; not a completed "
    f"project). The day must be today or up to {LOG_DAYS_BACK} days back; hours from 0.25 "
    f"to 12 in steps of 0.25, at most {MAX_LOG_HOURS_PER_DAY:g} a day per person. Internal "
    f"projects take only non-billable time (422). Returns the new entry: {_LOG_DOC}.",
    [
        Param("person", {"type": "string"}, f"Who worked. {PERSON_DOC}"),
        Param("project", {"type": "string"}, f"The project. {PROJECT_DOC}"),
        Param("date", {"type": "string"}, "The day worked, YYYY-MM-DD."),
        Param("hours", {"type": "number"}, "Hours worked, 0.25 to 12 in steps of 0.25."),
        Param(
            "billable",
            {"type": "boolean", "default": True},
            "Whether the client is billed for it (default true).",
            required=False,
        ),
        Param(
            "task_id",
            {"type": "string"},
            "Optional task of the project, e.g. 'TSK-00042'.",
            required=False,
        ),
        Param("note", {"type": "string"}, "Optional note, at most 200 characters.", required=False),
    ],
    _build_log,
    view=_log_view,
)


def _amount(logs: list[TimeLog], world: WorkspaceWorld) -> float:
    return money(
        sum(
            log.hours * world.projects[log.project_id].billable_rate_usd
            for log in logs
            if log.billable
        )
    )


@_tool()
def timesheet_summary(
    world: WorkspaceWorld, person: str, from_date: str, to_date: str
) -> dict[str, Any]:
    """One person's logged time over a date range (inclusive), with what it bills.

    Returns person_id, name, from_date, to_date, total_hours, billable_hours and
    non_billable_hours (hours), billable_amount_usd (billable hours times each project's
    billable_rate_usd, US dollars), utilization_pct (billable share of total hours, 0-100)
    and 'by_project', sorted by project name, each with project_id, project_name, hours,
    billable_hours and billable_amount_usd.

    Args:
        world: The workspace (not shown to the agent).
        person: {person}
        from_date: First day, YYYY-MM-DD.
        to_date: Last day, YYYY-MM-DD (inclusive).
    """
    who = resolve_person(world, person)
    start = date_arg(from_date, "from_date").isoformat()
    end = date_arg(to_date, "to_date").isoformat()
    if start > end:
        raise unprocessable("from_date must not be after to_date")
    logs = _logs(world, start, end, who, None)
    total = sum(log.hours for log in logs)
    billable = sum(log.hours for log in logs if log.billable)
    by_project = []
    for pid in sorted({log.project_id for log in logs}, key=lambda p: world.projects[p].name):
        mine = [log for log in logs if log.project_id == pid]
        by_project.append(
            {
                "project_id": pid,
                "project_name": world.projects[pid].name,
                "hours": _hours(sum(log.hours for log in mine)),
                "billable_hours": _hours(sum(log.hours for log in mine if log.billable)),
                "billable_amount_usd": _amount(mine, world),
            }
        )
    return {
        "person_id": who.person_id,
        "name": who.name,
        "from_date": start,
        "to_date": end,
        "total_hours": _hours(total),
        "billable_hours": _hours(billable),
        "non_billable_hours": _hours(total - billable),
        "billable_amount_usd": _amount(logs, world),
        "utilization_pct": round(100 * billable / total, 1) if total else 0.0,
        "by_project": by_project,
    }


def _project_hours(
    world: WorkspaceWorld,
    project: str,
    first: Any,
    last: Any,
    names: tuple[str, str],
    source: str,
    as_of: datetime,
) -> dict[str, Any]:
    what = resolve_project(world, project)
    start, end = _range(world, first, last, names)
    logs = _logs(world, start, end, None, what)
    return {
        "project_id": what.project_id,
        "name": what.name,
        "from_date": start if first is not None else None,
        "to_date": end,
        "logged_hours": _hours(sum(log.hours for log in logs)),
        "billable_hours": _hours(sum(log.hours for log in logs if log.billable)),
        "budget_hours": what.budget_hours,
        "as_of": stamp(as_of),
        "source": source,
    }


@_tool()
def get_project_hours(
    world: WorkspaceWorld, project: str, from_date: str | None = None, to_date: str | None = None
) -> dict[str, Any]:
    """Hours logged on a project from Northbeam Timesheets, the system of record.

    Timesheets are authoritative: when hour totals from different systems disagree, this
    one prevails. Returns project_id, name, from_date (null for all time), to_date,
    logged_hours and billable_hours (hours in the range, inclusive), budget_hours, as_of
    (UTC time the totals were computed) and source. The payroll export
    (get_project_hours_payroll) and the project tracker (get_project_hours_tracker) report
    the same totals independently; the tracker is the documented fallback.

    Args:
        world: The workspace (not shown to the agent).
        project: {project}
        from_date: First day to count, YYYY-MM-DD (default: all time).
        to_date: Last day to count, YYYY-MM-DD (default today).
    """
    as_of = world.now() - timedelta(minutes=4)
    return _project_hours(
        world, project, from_date, to_date, ("from_date", "to_date"), data.TIMESHEETS, as_of
    )


@_tool()
def get_project_hours_payroll(
    world: WorkspaceWorld, project: str, start_date: str | None = None, end_date: str | None = None
) -> dict[str, Any]:
    """Hours logged on a project, from the PayGrid payroll export (refreshed nightly).

    Returns the keys get_project_hours returns: project_id, name, from_date, to_date,
    logged_hours, billable_hours, budget_hours, as_of and source. Not the system of
    record: get_project_hours (Timesheets) is authoritative where they disagree.

    Args:
        world: The workspace (not shown to the agent).
        project: {project}
        start_date: First day to count, YYYY-MM-DD (default: all time).
        end_date: Last day to count, YYYY-MM-DD (default today).
    """
    as_of = world.now().replace(hour=2, minute=15, second=0, microsecond=0)
    return _project_hours(
        world, project, start_date, end_date, ("start_date", "end_date"), data.PAYROLL, as_of
    )


@_tool()
def get_project_hours_tracker(
    world: WorkspaceWorld, project: str, since: str | None = None, until: str | None = None
) -> dict[str, Any]:
    """Hours logged on a project, from the Trackly project tracker (synced hourly).

    Returns the keys get_project_hours returns: project_id, name, from_date, to_date,
    logged_hours, billable_hours, budget_hours, as_of and source. The fallback when
    Timesheets is down; get_project_hours is authoritative where they disagree.

    Args:
        world: The workspace (not shown to the agent).
        project: {project}
        since: First day to count, YYYY-MM-DD (default: all time).
        until: Last day to count, YYYY-MM-DD (default today).
    """
    as_of = world.now() - timedelta(minutes=38)
    return _project_hours(world, project, since, until, ("since", "until"), data.TRACKER, as_of)


# -- datasets --------------------------------------------------------------------------------


def _dataset(world: World, value: Any, param: str = "dataset") -> Any:
    return _resolve(_ws(world).datasets, value, param, "Dataset")


@_tool()
def list_datasets(world: WorkspaceWorld, query: str | None = None) -> dict[str, Any]:
    """List the shared datasets (tables of numbers), sorted by name.

    Each has dataset_id, name, description, dimensions (text columns to filter and group
    by), metrics (numeric columns to aggregate), row_count and updated_at (UTC). Up to 20
    in 'results', with 'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        query: Part of the dataset name (case-insensitive).
    """
    counts = Counter(row.dataset_id for row in world.dataset_rows.values())
    rows = sorted(
        (d for d in world.datasets.values() if _match(query, d.name)), key=lambda d: d.name
    )
    return listing(
        rows, 20, lambda d: {**d.model_dump(mode="json"), "row_count": counts.get(d.dataset_id, 0)}
    )


_CONDITION = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(!=|>=|<=|=|>|<)\s*(.+?)\s*$")
_SPLIT = re.compile(r";|\s+and\s+", re.IGNORECASE)


def _where(dataset: Any, where: Any, param: str) -> list[Callable[[DataRow], bool]]:
    if where is None:
        return []
    if not isinstance(where, str):
        raise unprocessable(f"{param} must be a string")
    checks: list[Callable[[DataRow], bool]] = []
    for part in (p for p in _SPLIT.split(where) if p.strip()):
        match = _CONDITION.match(part)
        if match is None:
            raise unprocessable(
                f"cannot read condition '{part.strip()}' in {param}; write 'column op value'"
            )
        column, op, raw = match[1], match[2], match[3].strip().strip("'\"")
        if column in dataset.dimensions:
            wanted: Any = raw.casefold()

            def get(row: DataRow, c: str = column) -> Any:
                return row.dims[c].casefold()

        elif column in dataset.metrics:
            try:
                wanted = float(raw)
            except ValueError:
                raise unprocessable(f"{column} is numeric; '{raw}' is not a number") from None
            if not math.isfinite(wanted):
                raise unprocessable(f"{column} needs a finite number")

            def get(row: DataRow, c: str = column) -> Any:
                return row.values[c]

        else:
            columns = ", ".join((*dataset.dimensions, *dataset.metrics))
            raise unprocessable(f"unknown column '{column}' in {param}; columns: {columns}")
        checks.append(_comparison(get, op, wanted))
    return checks


def _comparison(get: Callable[[DataRow], Any], op: str, wanted: Any) -> Callable[[DataRow], bool]:
    ops: dict[str, Callable[[Any, Any], bool]] = {
        "=": lambda a, b: a == b,
        "!=": lambda a, b: a != b,
        ">=": lambda a, b: a >= b,
        "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b,
        "<": lambda a, b: a < b,
    }
    compare = ops[op]
    return lambda row: compare(get(row), wanted)


def _rows(world: World, dataset: Any, where: Any, param: str) -> list[DataRow]:
    checks = _where(dataset, where, param)
    return [
        r
        for r in _ws(world).dataset_rows.values()
        if r.dataset_id == dataset.dataset_id and all(check(r) for check in checks)
    ]


def _metric(dataset: Any, metric: Any, param: str) -> str:
    if metric not in dataset.metrics:
        raise unprocessable(
            f"{param} must be one of the metrics of {dataset.name}: {', '.join(dataset.metrics)}"
        )
    return str(metric)


def aggregate_values(values: list[float], agg: str) -> float:
    """Aggregate metric values: sum, avg, min, max, count or median (two decimals)."""
    if agg == "count":
        return float(len(values))
    if not values:
        raise unprocessable("no rows match the filter")
    if agg == "sum":
        return round(sum(values), 2)
    if agg == "avg":
        return round(sum(values) / len(values), 2)
    if agg == "min":
        return min(values)
    if agg == "max":
        return max(values)
    return round(statistics.median(values), 2)


def _query(
    world: World, dataset: Any, metric: Any, agg: Any, where: Any, names: tuple[str, str, str, str]
) -> dict[str, Any]:
    found = _dataset(world, dataset, names[0])
    column = _metric(found, metric, names[1])
    if agg not in AGGS:
        raise unprocessable(f"{names[2]} must be one of: {', '.join(AGGS)}")
    rows = _rows(world, found, where, names[3])
    return {
        "dataset_id": found.dataset_id,
        "metric": column,
        "agg": agg,
        "where": where,
        "value": aggregate_values([r.values[column] for r in rows], agg),
        "matched_rows": len(rows),
    }


Agg = Literal["sum", "avg", "min", "max", "count", "median"]


@_tool()
def query_dataset(
    world: WorkspaceWorld, dataset: str, metric: str, agg: Agg = "sum", where: str | None = None
) -> dict[str, Any]:
    """Aggregate one metric column of a dataset over the rows a filter keeps.

    Returns dataset_id, metric, agg, where, value (the aggregate; sums, averages and
    medians rounded to 2 decimals) and matched_rows. 422 if no row matches (except for
    count). query_dataset_v2 is the newer version of this endpoint; this one still works.

    Args:
        world: The workspace (not shown to the agent).
        dataset: {dataset}
        metric: The metric column, e.g. 'revenue_usd' (see list_datasets).
        agg: How to aggregate: sum, avg, min, max, count or median (default sum).
        where: {where}
    """
    return _query(world, dataset, metric, agg, where, ("dataset", "metric", "agg", "where"))


@_tool(name="query_dataset_v2")
def query_dataset_v2(
    world: WorkspaceWorld,
    dataset_id: str,
    measure: str,
    aggregation: Agg = "sum",
    filter: str | None = None,
) -> dict[str, Any]:
    """Version 2 of query_dataset: the same aggregate with renamed parameters.

    Takes dataset_id (was dataset), measure (was metric), aggregation (was agg) and filter
    (was where); returns exactly the keys query_dataset returns: dataset_id, metric, agg,
    where, value and matched_rows.

    Args:
        world: The workspace (not shown to the agent).
        dataset_id: {dataset}
        measure: The metric column, e.g. 'revenue_usd' (see list_datasets).
        aggregation: How to aggregate: sum, avg, min, max, count or median (default sum).
        filter: {where}
    """
    return _query(
        world,
        dataset_id,
        measure,
        aggregation,
        filter,
        ("dataset_id", "measure", "aggregation", "filter"),
    )


@_tool()
def group_dataset(
    world: WorkspaceWorld,
    dataset: str,
    metric: str,
    group_by: str,
    agg: Agg = "sum",
    where: str | None = None,
    sort: Literal["group", "value_desc", "value_asc"] = "group",
) -> dict[str, Any]:
    """Aggregate a metric per value of one dimension (GROUP BY).

    Returns dataset_id, metric, agg, group_by, then 'results': one entry per group with
    group (the dimension value), value (the aggregate, 2 decimals) and rows; sorted by
    group (default) or by value. Up to 50, with 'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        dataset: {dataset}
        metric: The metric column to aggregate.
        group_by: The dimension column to group by, e.g. 'region'.
        agg: How to aggregate each group: sum, avg, min, max, count or median (default sum).
        where: {where}
        sort: 'group' (by dimension value), 'value_desc' or 'value_asc'.
    """
    found = _dataset(world, dataset)
    column = _metric(found, metric, "metric")
    if group_by not in found.dimensions:
        raise unprocessable(f"group_by must be one of: {', '.join(found.dimensions)}")
    if agg not in AGGS:
        raise unprocessable(f"agg must be one of: {', '.join(AGGS)}")
    groups: dict[str, list[float]] = {}
    for row in _rows(world, found, where, "where"):
        groups.setdefault(row.dims[group_by], []).append(row.values[column])
    out: list[dict[str, Any]] = [
        {"group": g, "value": aggregate_values(v, agg), "rows": len(v)}
        for g, v in sorted(groups.items())
    ]
    if sort == "value_desc":
        out.sort(key=lambda g: -g["value"])
    elif sort == "value_asc":
        out.sort(key=lambda g: g["value"])
    elif sort != "group":
        raise unprocessable("sort must be one of: group, value_desc, value_asc")
    head = {"dataset_id": found.dataset_id, "metric": column, "agg": agg, "group_by": group_by}
    return listing(out, 50, dict, **head)


def percentile_of(values: list[float], percentile: float) -> float:
    """The percentile of ``values`` by linear interpolation between closest ranks."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * percentile / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@_tool()
def dataset_percentile(
    world: WorkspaceWorld, dataset: str, metric: str, percentile: float, where: str | None = None
) -> dict[str, Any]:
    """A percentile of one metric over the rows a filter keeps.

    Uses linear interpolation between the closest ranks (the 50th percentile is the
    median). Returns dataset_id, metric, percentile, where, value (2 decimals) and
    matched_rows; 422 if no row matches.

    Args:
        world: The workspace (not shown to the agent).
        dataset: {dataset}
        metric: The metric column.
        percentile: Which percentile, from 0 to 100, e.g. 90.
        where: {where}
    """
    found = _dataset(world, dataset)
    column = _metric(found, metric, "metric")
    if not is_number(percentile) or not 0 <= percentile <= 100:
        raise unprocessable("percentile must be a number from 0 to 100")
    rows = _rows(world, found, where, "where")
    if not rows:
        raise unprocessable("no rows match the filter")
    return {
        "dataset_id": found.dataset_id,
        "metric": column,
        "percentile": percentile,
        "where": where,
        "value": round(percentile_of([r.values[column] for r in rows], float(percentile)), 2),
        "matched_rows": len(rows),
    }


# -- KPIs ------------------------------------------------------------------------------------


def _kpi(world: World, value: Any, param: str = "kpi") -> Any:
    return _resolve(_ws(world).kpis, value, param, "KPI")


@_tool()
def list_kpis(
    world: WorkspaceWorld, query: str | None = None, dashboard: str | None = None
) -> dict[str, Any]:
    """List the KPIs on the analytics dashboards, sorted by dashboard then name.

    Each has kpi_id, name, dashboard (Growth, Revenue, Support or Product), unit (users,
    signups, percent, usd, minutes or tickets), higher_is_better and latest_period (the
    last full month with a value, YYYY-MM). Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        query: Part of the KPI name (case-insensitive).
        dashboard: Only KPIs on this dashboard.
    """
    rows = [k for k in world.kpis.values() if _match(query, k.name)]
    if dashboard is not None:
        rows = [k for k in rows if _same(k.dashboard, dashboard)]
    rows.sort(key=lambda k: (k.dashboard, k.name))
    latest = world.kpi_periods()[-1]
    fields = ("kpi_id", "name", "dashboard", "unit", "higher_is_better")
    return listing(
        rows, 50, lambda k: {**{f: getattr(k, f) for f in fields}, "latest_period": latest}
    )


_PERIOD = re.compile(r"\d{4}-\d{2}")


def _period(world: WorkspaceWorld, value: Any, param: str) -> str:
    periods = world.kpi_periods()
    if value is None:
        return periods[-1]
    text = value.strip() if isinstance(value, str) else ""
    if _PERIOD.fullmatch(text) is None:
        raise unprocessable(f"{param} must be a month written YYYY-MM, got '{value}'")
    if text not in periods:
        raise unprocessable(f"no KPI values for {text}: values cover {periods[0]} to {periods[-1]}")
    return text


def _kpi_reading(
    world: WorkspaceWorld,
    kpi: Any,
    period: Any,
    names: tuple[str, str],
    source: str,
    stamp_field: str,
) -> dict[str, Any]:
    found = _kpi(world, kpi, names[0])
    month = _period(world, period, names[1])
    return {
        "kpi_id": found.kpi_id,
        "name": found.name,
        "dashboard": found.dashboard,
        "unit": found.unit,
        "period": month,
        "value": world.kpi_values[kpi_key(found.kpi_id, month)].value,
        "as_of": getattr(found, stamp_field),
        "source": source,
    }


@_tool()
def get_kpi_value(world: WorkspaceWorld, kpi: str, period: str | None = None) -> dict[str, Any]:
    """A KPI's value for one month, from the Snowflake warehouse (the system of record).

    The warehouse is authoritative: when analytics backends disagree, its value prevails.
    Returns kpi_id, name, dashboard, unit, period (YYYY-MM), value (in the KPI's unit),
    as_of (UTC time of the last load) and source. The streaming backend
    (get_kpi_value_realtime) and the BI cache (get_kpi_value_bi) serve the same values
    independently; the BI cache is the documented fallback.

    Args:
        world: The workspace (not shown to the agent).
        kpi: {kpi}
        period: The month, YYYY-MM (default: the last full month).
    """
    return _kpi_reading(world, kpi, period, ("kpi", "period"), data.WAREHOUSE, "warehouse_as_of")


@_tool()
def get_kpi_value_realtime(
    world: WorkspaceWorld, metric: str, month: str | None = None
) -> dict[str, Any]:
    """A KPI's value for one month, from the Pulse streaming analytics backend.

    Updated every few minutes. Returns the keys get_kpi_value returns: kpi_id, name,
    dashboard, unit, period, value, as_of and source. The warehouse (get_kpi_value) is
    authoritative where they disagree.

    Args:
        world: The workspace (not shown to the agent).
        metric: The KPI. {kpi}
        month: The month, YYYY-MM (default: the last full month).
    """
    return _kpi_reading(world, metric, month, ("metric", "month"), data.REALTIME, "realtime_as_of")


@_tool()
def get_kpi_value_bi(world: WorkspaceWorld, kpi: str, period: str | None = None) -> dict[str, Any]:
    """A KPI's value for one month, from the Lookout BI extract cache.

    Refreshed every few hours. Returns the keys get_kpi_value returns: kpi_id, name,
    dashboard, unit, period, value, as_of and source. The fallback when the warehouse is
    down; get_kpi_value is authoritative where they disagree.

    Args:
        world: The workspace (not shown to the agent).
        kpi: {kpi}
        period: The month, YYYY-MM (default: the last full month).
    """
    return _kpi_reading(world, kpi, period, ("kpi", "period"), data.BI_CACHE, "bi_as_of")


@_tool()
def kpi_change(
    world: WorkspaceWorld, kpi: str, period: str | None = None, periods_back: int = 1
) -> dict[str, Any]:
    """Period-over-period change of a KPI (warehouse values).

    Compares the month with the month periods_back earlier. Returns kpi_id, name, unit,
    higher_is_better, period, value, baseline_period, baseline_value, change (value minus
    baseline, in the KPI's unit), change_pct (relative change in percent, 2 decimals) and
    improved (whether the change goes the good way).

    Args:
        world: The workspace (not shown to the agent).
        kpi: {kpi}
        period: The month, YYYY-MM (default: the last full month).
        periods_back: How many months back the baseline is, 1 to 11 (default 1).
    """
    found = _kpi(world, kpi)
    month = _period(world, period, "period")
    periods = world.kpi_periods()
    if not is_integer(periods_back) or not 1 <= periods_back <= len(periods) - 1:
        raise unprocessable(f"periods_back must be an integer from 1 to {len(periods) - 1}")
    index = periods.index(month) - periods_back
    if index < 0:
        raise unprocessable(
            f"no baseline {periods_back} months before {month}: values start {periods[0]}"
        )
    value = world.kpi_values[kpi_key(found.kpi_id, month)].value
    base = world.kpi_values[kpi_key(found.kpi_id, periods[index])].value
    change = round(value - base, 2)
    return {
        "kpi_id": found.kpi_id,
        "name": found.name,
        "unit": found.unit,
        "higher_is_better": found.higher_is_better,
        "period": month,
        "value": value,
        "baseline_period": periods[index],
        "baseline_value": base,
        "change": change,
        "change_pct": round(100 * (value - base) / base, 2) if base else None,
        "improved": (change > 0) == found.higher_is_better and change != 0,
    }


# -- surveys ---------------------------------------------------------------------------------


def _survey(world: World, value: Any) -> Any:
    return _resolve(_ws(world).surveys, value, "survey", "Survey")


@_tool()
def list_surveys(
    world: WorkspaceWorld, query: str | None = None, status: Literal["open", "closed"] | None = None
) -> dict[str, Any]:
    """List surveys, sorted by name.

    Each has survey_id, name, audience, segment_kind (what responses are segmented by:
    team or plan), status (open or closed), launched_on and closes_on (YYYY-MM-DD),
    response_count and questions (each with question_id, text and scale_max: 5 for a 1-5
    scale, 10 for a 0-10 scale). Up to 20 in 'results', with 'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        query: Part of the survey name (case-insensitive).
        status: Only surveys in this status.
    """
    counts = Counter(r.survey_id for r in world.survey_responses.values())
    rows = [s for s in world.surveys.values() if _match(query, s.name)]
    if status is not None:
        rows = [s for s in rows if s.status == status]
    rows.sort(key=lambda s: s.name)
    return listing(
        rows,
        20,
        lambda s: {**s.model_dump(mode="json"), "response_count": counts.get(s.survey_id, 0)},
    )


@_tool()
def survey_question_stats(
    world: WorkspaceWorld, survey: str, question_id: str, segment: str | None = None
) -> dict[str, Any]:
    """Statistics of the answers to one survey question, optionally for one segment.

    Returns survey_id, survey_name, question_id, text, scale_max, segment (or null),
    responses, mean_score and median_score, top_box_pct (share of 4-5 answers on a 1-5
    scale, of 9-10 on a 0-10 scale, percent), bottom_box_pct (1-2, or 0-6 on a 0-10
    scale) and nps (Net Promoter Score, promoters minus detractors in points, -100 to
    100; null on a 1-5 scale). 422 if no response matches.

    Args:
        world: The workspace (not shown to the agent).
        survey: {survey}
        question_id: The question id, e.g. 'Q2' (see list_surveys).
        segment: Only responses from this segment: a team (e.g. 'Data') or a plan (e.g. 'Pro').
    """
    found = _survey(world, survey)
    wanted = text_arg(question_id, "question_id").upper()
    question = next((q for q in found.questions if q.question_id == wanted), None)
    if question is None:
        ids = ", ".join(q.question_id for q in found.questions)
        raise not_found("Question", f"{question_id}' in survey '{found.name}' (questions: {ids})")
    rows = [r for r in world.survey_responses.values() if r.survey_id == found.survey_id]
    if segment is not None:
        rows = [r for r in rows if _same(r.segment, segment)]
    if not rows:
        raise unprocessable(f"no responses match in survey '{found.name}'")
    scores = [r.scores[wanted] for r in rows]
    n = len(scores)
    top = 4 if question.scale_max == 5 else 9
    bottom = 2 if question.scale_max == 5 else 6
    top_pct = 100 * sum(s >= top for s in scores) / n
    bottom_pct = 100 * sum(s <= bottom for s in scores) / n
    return {
        "survey_id": found.survey_id,
        "survey_name": found.name,
        "question_id": wanted,
        "text": question.text,
        "scale_max": question.scale_max,
        "segment": rows[0].segment if segment is not None else None,
        "responses": n,
        "mean_score": round(sum(scores) / n, 2),
        "median_score": float(statistics.median(scores)),
        "top_box_pct": round(top_pct, 1),
        "bottom_box_pct": round(bottom_pct, 1),
        "nps": round(top_pct - bottom_pct, 1) if question.scale_max == 10 else None,
    }


# -- experiments -----------------------------------------------------------------------------


def _experiment(world: World, value: Any, param: str = "experiment") -> Any:
    return _resolve(_ws(world).experiments, value, param, "Experiment")


@_tool()
def list_experiments(
    world: WorkspaceWorld,
    query: str | None = None,
    status: Literal["running", "completed"] | None = None,
) -> dict[str, Any]:
    """List A/B experiments, sorted by name.

    Each has experiment_id, name, metric (the conversion it measures), status (running
    or completed), owner_id, owner_name, variants (the first is the control), start_date
    and end_date (YYYY-MM-DD; end_date null while running). Up to 20 in 'results', with
    'count' and 'total'.

    Args:
        world: The workspace (not shown to the agent).
        query: Part of the experiment name (case-insensitive).
        status: Only experiments in this status.
    """
    rows = [e for e in world.experiments.values() if _match(query, e.name)]
    if status is not None:
        rows = [e for e in rows if e.status == status]
    rows.sort(key=lambda e: e.name)
    fields = (
        "experiment_id",
        "name",
        "metric",
        "status",
        "owner_id",
        "variants",
        "start_date",
        "end_date",
    )

    def view(e: Any) -> dict[str, Any]:
        out = {f: getattr(e, f) for f in fields}
        out["variants"] = list(e.variants)
        out["owner_name"] = _name_of(world.people, e.owner_id)
        return out

    return listing(rows, 20, view)


def _variant(
    world: WorkspaceWorld, experiment: Any, variant: Any, names: tuple[str, str]
) -> tuple[Any, Any]:
    found = _experiment(world, experiment, names[0])
    name = text_arg(variant, names[1]).casefold()
    stats = world.variant_stats.get(variant_key(found.experiment_id, name))
    if stats is None:
        raise not_found(
            "Variant",
            f"{variant}' of experiment '{found.name}' (variants: {', '.join(found.variants)})",
        )
    return found, stats


def _rate_pct(conversions: int, visitors: int) -> float:
    return round(100 * conversions / visitors, 2)


def _variant_reading(
    world: WorkspaceWorld,
    experiment: Any,
    variant: Any,
    names: tuple[str, str],
    source: str,
    stamp_field: str,
) -> dict[str, Any]:
    found, stats = _variant(world, experiment, variant, names)
    return {
        "experiment_id": found.experiment_id,
        "name": found.name,
        "variant": stats.variant,
        "visitors": stats.visitors,
        "conversions": stats.conversions,
        "conversion_rate_pct": _rate_pct(stats.conversions, stats.visitors),
        "as_of": getattr(found, stamp_field),
        "source": source,
    }


@_tool()
def get_variant_stats(world: WorkspaceWorld, experiment: str, variant: str) -> dict[str, Any]:
    """Visitors and conversions of one experiment variant, from the experiment platform.

    The experiment platform is the system of record and authoritative where sources
    disagree. Returns experiment_id, name, variant, visitors, conversions,
    conversion_rate_pct (conversions per 100 visitors, 2 decimals), as_of (UTC) and
    source. Product analytics (get_variant_stats_analytics) and the warehouse
    (get_variant_stats_warehouse) report the same counts independently; the warehouse is
    the documented fallback.

    Args:
        world: The workspace (not shown to the agent).
        experiment: {experiment}
        variant: The variant name, e.g. 'control' or 'treatment' (see list_experiments).
    """
    return _variant_reading(
        world,
        experiment,
        variant,
        ("experiment", "variant"),
        data.EXPERIMENT_PLATFORM,
        "platform_as_of",
    )


@_tool()
def get_variant_stats_analytics(world: WorkspaceWorld, experiment: str, arm: str) -> dict[str, Any]:
    """Visitors and conversions of one experiment variant, from Pulse product analytics.

    Returns the keys get_variant_stats returns: experiment_id, name, variant, visitors,
    conversions, conversion_rate_pct, as_of and source. The experiment platform
    (get_variant_stats) is authoritative where they disagree.

    Args:
        world: The workspace (not shown to the agent).
        experiment: {experiment}
        arm: The variant name, e.g. 'control' or 'treatment'.
    """
    return _variant_reading(
        world, experiment, arm, ("experiment", "arm"), data.PRODUCT_ANALYTICS, "analytics_as_of"
    )


@_tool()
def get_variant_stats_warehouse(
    world: WorkspaceWorld, experiment: str, variant: str
) -> dict[str, Any]:
    """Visitors and conversions of one experiment variant, from the warehouse tables.

    The warehouse's experiment tables are loaded nightly.
    Returns the keys get_variant_stats returns: experiment_id, name, variant, visitors,
    conversions, conversion_rate_pct, as_of and source. The fallback when the experiment
    platform is down; get_variant_stats is authoritative where they disagree.

    Args:
        world: The workspace (not shown to the agent).
        experiment: {experiment}
        variant: The variant name, e.g. 'control' or 'treatment'.
    """
    return _variant_reading(
        world,
        experiment,
        variant,
        ("experiment", "variant"),
        data.EXPERIMENT_WAREHOUSE,
        "warehouse_as_of",
    )


@_tool()
def experiment_lift(
    world: WorkspaceWorld, experiment: str, variant: str, baseline: str = "control"
) -> dict[str, Any]:
    """Lift of a variant over a baseline variant, with a two-proportion z-test.

    Returns experiment_id, name, variant, baseline, baseline_rate_pct and
    variant_rate_pct (conversions per 100 visitors), absolute_diff_pp (percentage
    points), lift_pct (relative lift in percent), z_score, p_value (two-sided, pooled
    standard error) and significant (p_value below 0.05). All rounded to 2 decimals,
    p_value to 4.

    Args:
        world: The workspace (not shown to the agent).
        experiment: {experiment}
        variant: The variant to evaluate, e.g. 'treatment'.
        baseline: The variant to compare against (default control).
    """
    found, treated = _variant(world, experiment, variant, ("experiment", "variant"))
    _, base = _variant(world, found.experiment_id, baseline, ("experiment", "baseline"))
    if treated.variant == base.variant:
        raise unprocessable("variant and baseline must differ")
    p1 = base.conversions / base.visitors
    p2 = treated.conversions / treated.visitors
    pooled = (base.conversions + treated.conversions) / (base.visitors + treated.visitors)
    se = math.sqrt(pooled * (1 - pooled) * (1 / base.visitors + 1 / treated.visitors))
    z = (p2 - p1) / se if se else 0.0
    p_value = math.erfc(abs(z) / math.sqrt(2))
    return {
        "experiment_id": found.experiment_id,
        "name": found.name,
        "variant": treated.variant,
        "baseline": base.variant,
        "baseline_rate_pct": _rate_pct(base.conversions, base.visitors),
        "variant_rate_pct": _rate_pct(treated.conversions, treated.visitors),
        "absolute_diff_pp": round(100 * (p2 - p1), 2),
        "lift_pct": round(100 * (p2 - p1) / p1, 2),
        "z_score": round(z, 2),
        "p_value": round(p_value, 4),
        "significant": p_value < 0.05,
    }


TOOLS: list[Tool] = [
    search_people,
    working_hours_overlap,
    find_free_slots,
    list_events,
    create_event,
    cancel_event,
    list_rooms,
    list_room_bookings,
    book_room,
    list_projects,
    list_tasks,
    list_tasks_v2,
    task_estimate_total,
    create_task,
    update_task,
    search_documents,
    create_document,
    word_count_total,
    list_time_logs,
    log_time,
    timesheet_summary,
    get_project_hours,
    get_project_hours_payroll,
    get_project_hours_tracker,
    list_datasets,
    query_dataset,
    query_dataset_v2,
    group_dataset,
    dataset_percentile,
    list_kpis,
    get_kpi_value,
    get_kpi_value_realtime,
    get_kpi_value_bi,
    kpi_change,
    list_surveys,
    survey_question_stats,
    list_experiments,
    get_variant_stats,
    get_variant_stats_analytics,
    get_variant_stats_warehouse,
    experiment_lift,
]
