"""Helpers and constants shared by the transportation subtopic templates."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from typing import Any

from toolchaos.core.types import RefStep
from toolchaos.domains.transportation.world import at
from toolchaos.suites.toolbench_x.generate import TemplateContext

# the live-delay sources and how a person names each in a request (the coherence gate
# reads these names to see which source a prompt asks for)
DELAY_SOURCES = {
    "get_trip_status": "the operator's live status",
    "crowd_trip_reports": "the RideAlong reports",
    "station_board_status": "the station boards",
}


def delay_step(tool: str, trip: Any) -> RefStep:
    """The step asking the live-delay source ``tool`` about ``trip`` (an id or a ref).

    The station boards call a trip a service; the other sources take its ``trip_id``.
    """
    param = "service_id" if tool == "station_board_status" else "trip_id"
    return RefStep(tool=tool, args={param: trip})


def delay_source(ctx: TemplateContext) -> str:
    """The live-delay source of a request that names none.

    Every source agrees on ``delay_min`` in the clean world; about half the time the path
    reads one the docs do not call authoritative (:meth:`TemplateContext.unnamed_source`),
    which a cross-source hazard may corrupt, else the operator's own feed.
    """
    return ctx.unnamed_source(DELAY_SOURCES) or "get_trip_status"


def unnamed_delay_source(ctx: TemplateContext) -> str:
    """A live-delay source the docs do not call authoritative, for a request naming none."""
    return str(ctx.unnamed_source(DELAY_SOURCES, share=1.0))


# Delay answers below this are too small to tell apart from incidental numbers.
MIN_DELAY = 12


def _delay(ctx: TemplateContext, trip_id: str) -> int:
    """The trip's live delay in minutes (every source agrees on it in the clean world)."""
    delay: int = ctx.world.table("operator_feed")[trip_id].delay_min
    return delay


WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def _now(ctx: TemplateContext) -> datetime:
    now: datetime = ctx.world.now()
    return now


def _station(ctx: TemplateContext, station_id: str) -> Any:
    return ctx.world.table("stations")[station_id]


def _shared_name(ctx: TemplateContext, name: str) -> bool:
    return len(ctx.rows("stations", lambda s: s.name == name)) > 1


def _arg(ctx: TemplateContext, station_id: str) -> str:
    """The station as a tool argument: its name, with the city when the name recurs."""
    station = _station(ctx, station_id)
    if _shared_name(ctx, station.name):
        return f"{station.name}, {station.city}"
    return str(station.name)


def _spoken(ctx: TemplateContext, station_id: str) -> str:
    """The station as a person names it."""
    station = _station(ctx, station_id)
    if _shared_name(ctx, station.name):
        return ctx.rng.choice(
            (f"{station.name} in {station.city}", f"{station.city} {station.name}")
        )
    return str(station.name) if station.city in station.name else f"{station.name} ({station.city})"


def _date_text(ctx: TemplateContext, iso: str) -> str:
    """A date the way people write it, always with the year."""
    day = date.fromisoformat(iso)
    return ctx.rng.choice(
        (
            iso,
            f"{MONTHS[day.month - 1]} {day.day}, {day.year}",
            f"{WEEKDAYS[day.weekday()]}, {MONTHS[day.month - 1]} {day.day}, {day.year}",
            f"{day.day} {MONTHS[day.month - 1]} {day.year}",
        )
    )


def _future(ctx: TemplateContext, trip: Any, hours: float = 0) -> bool:
    return at(trip.departure_date, trip.departure_time) > _now(ctx) + timedelta(hours=hours)


def _departures(ctx: TemplateContext, station_id: str, day: str) -> list[Any]:
    rows = ctx.rows(
        "trips", lambda t: t.origin_station_id == station_id and t.departure_date == day
    )
    return sorted(rows, key=lambda t: (t.departure_time, t.trip_id))


def _direct(ctx: TemplateContext, origin: str, destination: str, day: str) -> list[Any]:
    rows = ctx.rows(
        "trips",
        lambda t: (
            (t.origin_station_id, t.destination_station_id, t.departure_date)
            == (origin, destination, day)
        ),
    )
    return sorted(rows, key=lambda t: (t.departure_time, t.trip_id))


def _confirmed(ctx: TemplateContext) -> dict[str, list[Any]]:
    """Each passenger's confirmed bookings, soonest departure first."""
    out: dict[str, list[Any]] = defaultdict(list)
    for booking in ctx.rows("bookings", lambda b: b.status == "confirmed"):
        out[booking.passenger_id].append(booking)
    for rows in out.values():
        rows.sort(key=lambda b: (b.departure_date, b.departure_time, b.booking_id))
    return out


def _distinct(values: list[Any]) -> bool:
    return len(set(values)) == len(values)


def _ids(trips: list[Any]) -> dict[str, str]:
    return {k: t.trip_id for k, t in zip("abc", trips, strict=False)}
