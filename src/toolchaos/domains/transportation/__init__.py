"""The transportation domain: a rail and coach network with bookings, live feeds and rides.

Where the hazard layer can find real alternatives:

- ``get_trip`` (the operators' timetable) has an independent second source,
  ``get_trip_backup`` (a timetable aggregator), and ``get_trip_status`` (the operator's
  live feed) can be replaced by the departure boards (``station_board_status``);
- ``get_departures`` is superseded by ``get_departures_v2`` (renamed parameters, the same
  result), and still works;
- the station parameters of the timetable, journey and ride tools take a name or an id,
  and ``find_stations`` turns a name into the id;
- three live feeds report each of today's trips' ``delay_min`` and stamp ``as_of``; the
  operator's feed (``get_trip_status``) is authoritative.
"""

from __future__ import annotations

from toolchaos.domains import (
    Domain,
    DomainNotes,
    Fallback,
    Resolver,
    UnitConversion,
    V2Tool,
    WriteVerifier,
    tool_map,
)
from toolchaos.domains._notes import resolver, sources
from toolchaos.domains.transportation.tools import TOOLS
from toolchaos.domains.transportation.world import TransportationWorld

_USD_CENTS = UnitConversion(to_unit="USD cents", factor=100.0)
_MILES = UnitConversion(to_unit="mi", factor=0.621371)
_POUNDS = UnitConversion(to_unit="lb", factor=2.20462)
_SECONDS = UnitConversion(to_unit="seconds", factor=60.0)


def _station(param: str) -> Resolver:
    return resolver(param, "find_stations", "station_id")


# The three live feeds and the name of each one's trip parameter.
_FEEDS: dict[str, str] = {
    "get_trip_status": "trip_id",
    "crowd_trip_reports": "trip_id",
    "station_board_status": "service_id",
}


DOMAIN = Domain(
    name="transportation",
    topic="transportation and mobility",
    world_type=TransportationWorld,
    tools=tool_map(TOOLS),
    notes=DomainNotes(
        fallbacks={
            "get_trip": Fallback(tool="get_trip_backup", args_map={"trip_id": "trip_id"}),
            "get_trip_status": Fallback(
                tool="station_board_status", args_map={"service_id": "trip_id"}
            ),
        },
        v2={
            "get_departures": V2Tool(
                tool="get_departures_v2",
                args_map={
                    "station_ref": "station",
                    "service_date": "date",
                    "max_results": "limit",
                },
            ),
        },
        unit_conversions={
            **{name: _MILES for name in ("distance_km", "total_distance_km")},
            **{
                name: _USD_CENTS
                for name in ("fare_usd", "total_fare_usd", "refund_usd", "fare_difference_usd")
            },
            "co2_kg": _POUNDS,
            **{name: _SECONDS for name in ("duration_min", "total_duration_min", "delay_min")},
        },
        resolvers={
            "search_trips": _station("origin"),
            "get_departures": _station("station"),
            "get_departures_v2": _station("station_ref"),
            "plan_journey": _station("origin"),
            "ride_estimate": _station("dropoff"),
        },
        write_verifiers={
            "book_seat": WriteVerifier(
                tool="list_bookings",
                args_map={"passenger_id": "passenger_id"},
                match={"trip_id": "trip_id"},
            ),
            "register_passenger": WriteVerifier(
                tool="find_passengers", args_map={"email": "email"}, match={"email": "email"}
            ),
        },
        sources=sources({name: (param,) for name, param in _FEEDS.items()}, ["delay_min"]),
    ),
)

__all__ = ["DOMAIN", "TransportationWorld"]
