"""The transportation tools: stations, timetables, fares, live delays, rides and bookings.

Lookups by id are declared through the shared shapes; the tools that resolve stations by
name, plan journeys, price rides or apply the booking rules are written by hand. Every
refusal is a :class:`ToolError` worded like a transit API: 400 for a malformed argument,
404 for an unknown id, 409 when the record is in the wrong state, 422 when the request
breaks a business rule.

Station parameters of the timetable, journey and ride tools accept a ``station_id``, a
station code, or a station name; a name shared by several cities needs its city
(``"<name>, <city>"``), and ``find_stations`` returns the id for a name.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any, Literal, cast

from toolchaos.core.tools import Param, Tool, tool
from toolchaos.core.types import ToolKind
from toolchaos.core.values import is_number
from toolchaos.core.world import Row, World
from toolchaos.domains import _shapes as shapes
from toolchaos.domains._common import (
    bad_request,
    calendar_date,
    check_choice,
    clock_minutes,
    conflict,
    dec,
    enum_schema,
    find_key,
    haversine_km,
    is_integer,
    listing,
    money,
    not_found,
    stamp,
    stored_key,
    unprocessable,
)
from toolchaos.domains._shapes import Filter
from toolchaos.domains.transportation import data
from toolchaos.domains.transportation.world import (
    EARTH_RADIUS_KM,
    FULL_REFUND_NOTICE_H,
    MIN_TRANSFER_MIN,
    REFUND_PCT,
    TIMETABLE_FIELDS,
    Booking,
    Passenger,
    Route,
    Station,
    TransportationWorld,
    Trip,
    refund_usd,
)

FareClass = Literal["economy", "business", "first"]
Mode = Literal["rail", "bus"]
Co2Mode = Literal["rail", "bus", "car", "taxi", "flight"]
RideType = Literal["standard", "shared", "xl", "premium"]
BookingStatus = Literal["confirmed", "completed", "cancelled"]
CancellationReason = Literal[
    "change_of_plans", "found_alternative", "illness", "schedule_conflict", "other"
]

_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")
MAX_RESULTS = 50
RIDE_ROAD_FACTOR = 1.35


def _net(world: World) -> TransportationWorld:
    return cast(TransportationWorld, world)


def iso_date(value: str, param: str) -> str:
    """Check that ``value`` is a calendar date written ``YYYY-MM-DD`` and return it."""
    text = value.strip()
    if calendar_date(text) is None:
        raise bad_request(f"'{param}' must be a date in YYYY-MM-DD format, got '{value}'")
    return text


def hh_mm(value: str, param: str) -> str:
    """Check that ``value`` is a 24-hour ``HH:MM`` time and return it."""
    text = value.strip()
    if clock_minutes(text) is None:
        raise bad_request(f"'{param}' must be a 24-hour time in HH:MM format, got '{value}'")
    return text


def _limit(value: int, param: str) -> int:
    if not is_integer(value) or not 1 <= value <= MAX_RESULTS:
        raise bad_request(f"'{param}' must be an integer from 1 to {MAX_RESULTS}")
    return value


# -- stations ----------------------------------------------------------------------------


def resolve_station(world: TransportationWorld, value: str) -> Station:
    """Find the station a caller means by an id, a code, a name or ``"<name>, <city>"``.

    Raises:
        ToolError: 404 when nothing matches; 422 when a bare name matches several cities.
    """
    stations = world.stations
    text = value.strip()
    key = find_key(stations, text) if text else None
    if key is not None:
        return stations[key]
    folded = text.casefold()
    for station in stations.values():
        if station.code.casefold() == folded:
            return station
    parts = [p.strip().casefold() for p in text.split(",")]
    name, city = parts[0], parts[1] if len(parts) > 1 else None
    matches = [
        s
        for s in stations.values()
        if s.name.casefold() == name and (city is None or s.city.casefold() == city)
    ]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise not_found("Station", value)
    cities = ", ".join(sorted(s.city for s in matches))
    raise unprocessable(
        f"Station name '{value}' is ambiguous: stations with that name exist in {cities}. "
        "Pass the station_id, or the name followed by a comma and the city."
    )


def station_view(world: World, row: Row) -> dict[str, Any]:
    """A station as the API returns it."""
    return cast(Station, row).model_dump(mode="json")


def _station_brief(world: TransportationWorld, station_id: str, prefix: str) -> dict[str, Any]:
    station = world.stations[station_id]
    return {
        f"{prefix}_station_id": station.station_id,
        f"{prefix}_station": station.name,
        f"{prefix}_city": station.city,
    }


@tool()
def find_stations(
    world: TransportationWorld,
    query: str,
    city: str | None = None,
    mode: Mode | None = None,
) -> dict[str, Any]:
    """Search stations by name or code and get their station_id.

    The query matches part of a station name (case-insensitive), a station code exactly,
    or a name followed by a comma and its city. Several cities have stations of the same
    name, so check the city of each result. Returns at most twenty stations in 'results'
    (station_id, code, name, city, state, modes served, lat_deg, lon_deg), exact name
    matches first, with 'count' (returned) and 'total' (matching).

    Args:
        world: The network (not shown to the agent).
        query: Part of a station name, a station code, or '<name>, <city>'.
        city: Only stations in this city (optional).
        mode: Only stations served by this mode (optional).
    """
    parts = [p.strip().casefold() for p in query.split(",")]
    name = parts[0]
    in_city = parts[1] if len(parts) > 1 and parts[1] else None
    rows = []
    for station in world.stations.values():
        if city is not None and station.city.casefold() != city.strip().casefold():
            continue
        if in_city is not None and station.city.casefold() != in_city:
            continue
        if mode is not None and mode not in station.modes:
            continue
        exact = station.name.casefold() == name or station.code.casefold() == name
        if exact or name in station.name.casefold():
            rows.append((not exact, station.city, station.name, station.station_id, station))
    rows.sort(key=lambda r: r[:4])
    return listing(rows, 20, lambda r: station_view(world, r[-1]))


get_station = shapes.lookup(
    "get_station",
    "stations",
    "station_id",
    "Station",
    "Get one station by its id: code, name, city, state, the modes calling there (rail, "
    "bus) and its position (lat_deg, lon_deg, degrees).",
    "The station id, as returned by find_stations.",
    view=station_view,
)

# -- routes and timetables ---------------------------------------------------------------


def route_view(world: World, row: Row) -> dict[str, Any]:
    """A route with the names of its end stations."""
    route = cast(Route, row)
    net = _net(world)
    return {
        **route.model_dump(mode="json"),
        **_station_brief(net, route.origin_station_id, "origin"),
        **_station_brief(net, route.destination_station_id, "destination"),
    }


get_route = shapes.lookup(
    "get_route",
    "routes",
    "route_id",
    "Route",
    "Get one route: its mode (rail or bus), operator, origin and destination stations, "
    "distance_km (track or road kilometres), typical_duration_min (minutes) and the "
    "number of daily_departures.",
    "The route id, as shown on a trip (route_id).",
    view=route_view,
)

list_routes = shapes.search(
    "list_routes",
    "routes",
    "List routes, sorted by route_id. Every filter given must match; filter by station "
    "ids (find_stations gives them). Returns at most fifty routes in 'results' with "
    "'count' (returned) and 'total' (matching).",
    [
        Filter("origin_station_id", "origin_station_id", "Only routes leaving this station id."),
        Filter(
            "destination_station_id",
            "destination_station_id",
            "Only routes arriving at this station id.",
        ),
        Filter("mode", "mode", "Only routes of this mode.", schema=enum_schema(("rail", "bus"))),
        Filter("operator", "operator", "Only routes run by this operator (exact name)."),
    ],
    view=route_view,
    sort_by="route_id",
    limit=50,
)

# The timetable facts shown as they are; the station ids are shown with names instead.
_TIMETABLE_KEYS = tuple(k for k in TIMETABLE_FIELDS if not k.endswith("_station_id"))


def _timetable(world: TransportationWorld, row: Row) -> dict[str, Any]:
    facts = row.model_dump(mode="json")
    out = {k: facts[k] for k in _TIMETABLE_KEYS}
    out.update(_station_brief(world, facts["origin_station_id"], "origin"))
    out.update(_station_brief(world, facts["destination_station_id"], "destination"))
    return out


def trip_view(world: World, row: Row) -> dict[str, Any]:
    """A trip's timetable facts, station names, classes sold and seats left."""
    trip = cast(Trip, row)
    out = _timetable(_net(world), trip)
    out["classes"] = [c for c in data.FARE_CLASSES if trip.fare_usd(c) is not None]
    for cls in out["classes"]:
        out[f"seats_{cls}"] = trip.seats(cls)
    return out


def mirror_view(world: World, row: Row) -> dict[str, Any]:
    """The aggregator's record: the same timetable facts plus its own stamps."""
    facts = row.model_dump(mode="json")
    out = _timetable(_net(world), row)
    out.update({k: facts[k] for k in ("mirror_id", "published_at", "source")})
    return out


get_trip = shapes.lookup(
    "get_trip",
    "trips",
    "trip_id",
    "Trip",
    "Get one scheduled trip from the operators' timetable: route_id, service_code, mode, "
    "operator, origin and destination (station ids, names and cities), departure_date "
    "and departure_time, arrival_date and arrival_time (times HH:MM, UTC), duration_min "
    "(minutes), distance_km (kilometres), the fare classes sold ('classes') and the seats "
    "left in each (seats_<class>). Use get_fare for prices. If this service is "
    "unavailable, get_trip_backup gives the same timetable facts from an independent "
    "timetable aggregator.",
    "The trip id, as returned by search_trips or get_departures.",
    view=trip_view,
)

get_trip_backup = shapes.lookup(
    "get_trip_backup",
    "timetable_mirror",
    "trip_id",
    "Trip",
    "Get one scheduled trip from TransitMirror, an independent timetable aggregator (a "
    "second source for get_trip). Returns the same timetable facts under the same keys "
    "(route_id, service_code, mode, operator, origin and destination station ids, names "
    "and cities, departure and arrival dates and times, duration_min, distance_km) plus "
    "its own mirror_id, published_at and source. It knows nothing about seats or fares.",
    "The trip id, as returned by search_trips or get_departures.",
    view=mirror_view,
)


def _summary(world: TransportationWorld, trip: Trip) -> dict[str, Any]:
    return {
        "trip_id": trip.trip_id,
        "service_code": trip.service_code,
        "route_id": trip.route_id,
        "mode": trip.mode,
        "operator": trip.operator,
        "departure_time": trip.departure_time,
        "arrival_date": trip.arrival_date,
        "arrival_time": trip.arrival_time,
        "duration_min": trip.duration_min,
        "distance_km": trip.distance_km,
    }


@tool()
def search_trips(
    world: TransportationWorld,
    origin: str,
    destination: str,
    date: str,
    mode: Mode | None = None,
    limit: int = 10,
) -> dict[str, Any]:
    """Find direct trips from one station to another on one date, earliest first.

    Returns the resolved origin_station_id and destination_station_id and, in 'results',
    trip summaries (trip_id, service_code, route_id, mode, operator, departure_time,
    arrival_date, arrival_time, duration_min in minutes, distance_km) sorted by departure
    time, with 'count' (returned) and 'total' (matching). Times are HH:MM, UTC. Trips
    with a change of vehicle are planned by plan_journey.

    Args:
        world: The network (not shown to the agent).
        origin: The departure station: a station_id, a code, or its name (add
            ', <city>' when several cities have a station of that name).
        destination: The arrival station, given the same way as origin.
        date: The departure date, YYYY-MM-DD.
        mode: Only trips of this mode (optional).
        limit: The most trips to return, from one to fifty.
    """
    start = resolve_station(world, origin)
    end = resolve_station(world, destination)
    day = iso_date(date, "date")
    limit = _limit(limit, "limit")
    trips = sorted(
        (
            t
            for t in world.trips.values()
            if t.origin_station_id == start.station_id
            and t.destination_station_id == end.station_id
            and t.departure_date == day
            and (mode is None or t.mode == mode)
        ),
        key=lambda t: (t.departure_time, t.trip_id),
    )
    return listing(
        trips,
        limit,
        lambda t: _summary(world, t),
        origin_station_id=start.station_id,
        destination_station_id=end.station_id,
        date=day,
    )


def _departure(world: TransportationWorld, trip: Trip) -> dict[str, Any]:
    return {
        "trip_id": trip.trip_id,
        "service_code": trip.service_code,
        "mode": trip.mode,
        "operator": trip.operator,
        **_station_brief(world, trip.destination_station_id, "destination"),
        "departure_time": trip.departure_time,
        "arrival_date": trip.arrival_date,
        "arrival_time": trip.arrival_time,
        "duration_min": trip.duration_min,
    }


def _departures(world: TransportationWorld, station: str, day: str, limit: int) -> dict[str, Any]:
    here = resolve_station(world, station)
    trips = sorted(
        (
            t
            for t in world.trips.values()
            if t.origin_station_id == here.station_id and t.departure_date == day
        ),
        key=lambda t: (t.departure_time, t.trip_id),
    )
    return listing(
        trips,
        limit,
        lambda trip: _departure(world, trip),
        station_id=here.station_id,
        station=here.name,
        city=here.city,
        date=day,
    )


@tool()
def get_departures(
    world: TransportationWorld, station: str, date: str, limit: int = 5
) -> dict[str, Any]:
    """List the departures from a station on one date, earliest first (rail and bus).

    Deprecated: superseded by get_departures_v2 (parameters station_ref, service_date,
    max_results), which returns the same result. This version still works.

    Returns the station (station_id, station name, city), the date and, in 'results',
    departures (trip_id, service_code, mode, operator, destination station id, name and
    city, departure_time, arrival_date, arrival_time, duration_min) sorted by departure
    time, with 'count' (returned) and 'total' (departures that day). Times are HH:MM, UTC.

    Args:
        world: The network (not shown to the agent).
        station: The station: a station_id, a code, or its name (add
            ', <city>' when several cities have a station of that name).
        date: The departure date, YYYY-MM-DD.
        limit: The most departures to return, from one to fifty.
    """
    return _departures(world, station, iso_date(date, "date"), _limit(limit, "limit"))


@tool()
def get_departures_v2(
    world: TransportationWorld, station_ref: str, service_date: str, max_results: int = 5
) -> dict[str, Any]:
    """List the departures from a station on one date, earliest first (rail and bus).

    Version 2 of get_departures, with renamed parameters and the same result: the station
    (station_id, station name, city), the date and, in 'results', departures (trip_id,
    service_code, mode, operator, destination station id, name and city, departure_time,
    arrival_date, arrival_time, duration_min) sorted by departure time, with 'count'
    (returned) and 'total' (departures that day). Times are HH:MM, UTC.

    Args:
        world: The network (not shown to the agent).
        station_ref: The station: a station_id, a code, or its name (add
            ', <city>' when several cities have a station of that name).
        service_date: The departure date, YYYY-MM-DD.
        max_results: The most departures to return, from one to fifty.
    """
    day = iso_date(service_date, "service_date")
    return _departures(world, station_ref, day, _limit(max_results, "max_results"))


# -- fares, journeys, emissions, rides ---------------------------------------------------


def _trip(world: TransportationWorld, trip_id: str) -> Trip:
    return world.trips[stored_key(world.trips, trip_id, "Trip")]


@tool()
def get_fare(
    world: TransportationWorld, trip_id: str, fare_class: FareClass = "economy"
) -> dict[str, Any]:
    """Quote the fare of one trip in one class, with the seats left in that class.

    Rail trips sell economy, business and first; coaches sell economy only. Returns
    trip_id, service_code, mode, departure_date, departure_time, fare_class, fare_usd (US
    dollars per passenger, one way) and seats_available.

    Args:
        world: The network (not shown to the agent).
        trip_id: The trip id, as returned by search_trips or get_departures.
        fare_class: The travel class.
    """
    trip = _trip(world, trip_id)
    fare = trip.fare_usd(fare_class)
    if fare is None:
        raise unprocessable(
            f"Trip {trip.trip_id} is a {trip.mode} trip and sells no {fare_class} class"
        )
    return {
        "trip_id": trip.trip_id,
        "service_code": trip.service_code,
        "mode": trip.mode,
        "departure_date": trip.departure_date,
        "departure_time": trip.departure_time,
        "fare_class": fare_class,
        "fare_usd": fare,
        "seats_available": trip.seats(fare_class),
    }


def _leg(world: TransportationWorld, trip: Trip, fare_class: str) -> dict[str, Any]:
    cls = fare_class if trip.fare_usd(fare_class) is not None else "economy"
    return {
        "trip_id": trip.trip_id,
        "service_code": trip.service_code,
        "mode": trip.mode,
        "operator": trip.operator,
        **_station_brief(world, trip.origin_station_id, "from"),
        **_station_brief(world, trip.destination_station_id, "to"),
        "departure_date": trip.departure_date,
        "departure_time": trip.departure_time,
        "arrival_date": trip.arrival_date,
        "arrival_time": trip.arrival_time,
        "duration_min": trip.duration_min,
        "distance_km": trip.distance_km,
        "fare_class": cls,
        "fare_usd": trip.fare_usd(cls),
    }


def co2_kg(distance_km: float, mode: str) -> float:
    """Per-passenger emissions of ``distance_km`` by ``mode``, kg CO2e (2 decimals)."""
    return round(distance_km * data.CO2_KG_PER_KM[mode], 2)


@tool()
def plan_journey(
    world: TransportationWorld,
    origin: str,
    destination: str,
    date: str,
    depart_after: str = "00:00",
    fare_class: FareClass = "economy",
) -> dict[str, Any]:
    """Plan the journey that arrives first, direct or with one change, rail or bus.

    Considers trips leaving the origin on the date at or after depart_after; a change is
    made at the same station with at least the minimum connection time (transfer_wait_min
    is the wait there). Among journeys arriving at the same time, a direct one wins, then
    the one leaving later. Returns the legs (trip_id, service_code, mode, operator, from_
    and to_ station ids, names and cities, departure and arrival dates and times,
    duration_min, distance_km, fare_class, fare_usd), transfers, transfer_station,
    transfer_station_id and transfer_wait_min (null when direct), departure_time,
    arrival_date and arrival_time of the whole journey, total_duration_min (first
    departure to last arrival, waiting included), total_distance_km, total_fare_usd (US
    dollars; coach legs are always priced in economy) and co2_kg (kg CO2e per passenger,
    the same factors as estimate_co2). Times are HH:MM, UTC.

    Args:
        world: The network (not shown to the agent).
        origin: The departure station: a station_id, a code, or its name (add
            ', <city>' when several cities have a station of that name).
        destination: The arrival station, given the same way as origin.
        date: The travel date, YYYY-MM-DD.
        depart_after: The earliest departure time, HH:MM.
        fare_class: The travel class to price rail legs in.
    """
    start = resolve_station(world, origin)
    end = resolve_station(world, destination)
    day = iso_date(date, "date")
    after = hh_mm(depart_after, "depart_after")
    if start.station_id == end.station_id:
        raise unprocessable("origin and destination are the same station")
    leaving: dict[str, list[Trip]] = {}
    for trip in world.trips.values():
        leaving.setdefault(trip.origin_station_id, []).append(trip)
    connection = timedelta(minutes=MIN_TRANSFER_MIN)
    best: tuple[Any, ...] | None = None
    for first in leaving.get(start.station_id, []):
        if first.departure_date != day or first.departure_time < after:
            continue
        options: list[list[Trip]] = []
        if first.destination_station_id == end.station_id:
            options.append([first])
        else:
            for second in leaving.get(first.destination_station_id, []):
                if (
                    second.destination_station_id == end.station_id
                    and second.departs_at() >= first.arrives_at() + connection
                ):
                    options.append([first, second])
        for legs in options:
            key = (
                legs[-1].arrives_at(),
                len(legs),
                -first.departs_at().timestamp(),
                [t.trip_id for t in legs],
            )
            if best is None or key < best[0]:
                best = (key, legs)
    if best is None:
        raise not_found(
            "Journey",
            f"{start.name}, {start.city} to {end.name}, {end.city} on {day} after {after}",
        )
    legs = best[1]
    out_legs = [_leg(world, t, fare_class) for t in legs]
    transfer = legs[0] if len(legs) == 2 else None
    wait = (
        int((legs[1].departs_at() - legs[0].arrives_at()).total_seconds() // 60)
        if transfer
        else None
    )
    total = int((legs[-1].arrives_at() - legs[0].departs_at()).total_seconds() // 60)
    transfer_station = world.stations[legs[0].destination_station_id] if transfer else None
    return {
        "origin_station_id": start.station_id,
        "origin_station": start.name,
        "destination_station_id": end.station_id,
        "destination_station": end.name,
        "date": day,
        "fare_class": fare_class,
        "legs": out_legs,
        "transfers": len(legs) - 1,
        "transfer_station": transfer_station.name if transfer_station else None,
        "transfer_station_id": transfer_station.station_id if transfer_station else None,
        "transfer_wait_min": wait,
        "departure_time": legs[0].departure_time,
        "arrival_date": legs[-1].arrival_date,
        "arrival_time": legs[-1].arrival_time,
        "total_duration_min": total,
        "total_distance_km": round(sum(t.distance_km for t in legs), 1),
        "total_fare_usd": money(sum(dec(leg["fare_usd"]) for leg in out_legs)),
        "co2_kg": round(sum(t.distance_km * data.CO2_KG_PER_KM[t.mode] for t in legs), 2),
    }


@tool()
def estimate_co2(world: TransportationWorld, distance_km: float, mode: Co2Mode) -> dict[str, Any]:
    """Estimate the greenhouse-gas emissions of one passenger travelling a distance.

    Uses average per passenger-kilometre factors for each mode. Returns mode, distance_km,
    factor_kg_per_km and co2_kg (kilograms of CO2 equivalent, rounded to two decimals).

    Args:
        world: The network (not shown to the agent).
        distance_km: The distance travelled, in kilometres (greater than 0).
        mode: How the passenger travels.
    """
    if not is_number(distance_km):
        raise bad_request("'distance_km' must be a number")
    if not 0 < distance_km <= 20000:
        raise unprocessable("distance_km must be greater than 0 and at most 20000")
    return {
        "mode": mode,
        "distance_km": float(distance_km),
        "factor_kg_per_km": data.CO2_KG_PER_KM[mode],
        "co2_kg": co2_kg(float(distance_km), mode),
    }


@tool()
def ride_estimate(
    world: TransportationWorld, pickup: str, dropoff: str, ride_type: RideType = "standard"
) -> dict[str, Any]:
    """Estimate a ride-share trip between two stations of the same city.

    The price is the city's base fare plus per-kilometre and per-minute rates, times the
    ride type's multiplier and the city's current surge_multiplier. Returns the pickup and
    dropoff stations (ids and names), city, ride_type, distance_km (road kilometres),
    duration_min, fare_usd (US dollars), surge_multiplier, pickup_eta_min (minutes until
    a driver arrives) and co2_kg (kg CO2e; a shared ride counts half).

    Args:
        world: The network (not shown to the agent).
        pickup: The pickup station: a station_id, a code, or its name (add
            ', <city>' when several cities have a station of that name).
        dropoff: The dropoff station, given the same way as pickup.
        ride_type: The kind of car.
    """
    start = resolve_station(world, pickup)
    end = resolve_station(world, dropoff)
    if start.station_id == end.station_id:
        raise unprocessable("pickup and dropoff are the same station")
    if start.city != end.city:
        raise unprocessable(
            f"Rides are only offered within one city; {start.name} is in {start.city} and "
            f"{end.name} is in {end.city}"
        )
    rate = world.ride_rates[start.city]
    crow = haversine_km(start.lat_deg, start.lon_deg, end.lat_deg, end.lon_deg, EARTH_RADIUS_KM)
    distance = round(crow * RIDE_ROAD_FACTOR, 1)
    duration = max(3, round(distance / rate.avg_speed_kmh * 60))
    fare = (
        (
            dec(rate.base_fare_usd)
            + dec(rate.per_km_usd) * dec(distance)
            + dec(rate.per_min_usd) * duration
        )
        * dec(data.RIDE_MULTIPLIER[ride_type])
        * dec(rate.surge_multiplier)
    )
    co2 = distance * data.CO2_KG_PER_KM["taxi"] * data.RIDE_CO2_SHARE[ride_type]
    return {
        **_station_brief(world, start.station_id, "pickup"),
        **_station_brief(world, end.station_id, "dropoff"),
        "city": start.city,
        "ride_type": ride_type,
        "distance_km": distance,
        "duration_min": duration,
        "fare_usd": money(fare),
        "surge_multiplier": rate.surge_multiplier,
        "pickup_eta_min": rate.pickup_eta_min,
        "co2_kg": round(co2, 2),
    }


# -- live delays: three independent feeds ------------------------------------------------

get_trip_status = shapes.lookup(
    "get_trip_status",
    "operator_feed",
    "trip_id",
    "Live status for trip",
    "Live status of one of today's trips from the operator's own feed, the authoritative "
    "source when the live feeds disagree. Returns status (scheduled, boarding, en_route, "
    "arrived), delay_min (minutes behind schedule), progress_pct, vehicle_id, "
    "expected_departure_time and expected_arrival_time (HH:MM, UTC) and as_of (when the "
    "feed was last updated, UTC). Only today's trips are covered. The crowd tracker "
    "(crowd_trip_reports) and the departure boards (station_board_status) report the "
    "same delay_min independently.",
    "The trip id, as returned by search_trips or get_departures.",
)

crowd_trip_reports = shapes.lookup(
    "crowd_trip_reports",
    "crowd_feed",
    "trip_id",
    "Crowd reports for trip",
    "Crowd-sourced delay estimate for one of today's trips, from RideAlong, a tracker fed "
    "by passengers' phones. Returns delay_min (minutes behind schedule), report_count, "
    "confidence (low, medium, high), source and as_of (when the estimate was last "
    "updated, UTC). Only today's trips are covered. Independent of the operator's feed "
    "(get_trip_status), which is authoritative.",
    "The trip id, as returned by search_trips or get_departures.",
)

station_board_status = shapes.lookup(
    "station_board_status",
    "board_feed",
    "service_id",
    "Board entry for service",
    "The departure board line for one of today's trips at its origin station. Returns "
    "service_id (the trip id), station_id, platform, board_status (the text shown), "
    "delay_min (minutes behind schedule) and as_of (when the board was last updated, "
    "UTC). Only today's trips are covered. Independent of the operator's feed "
    "(get_trip_status), which is authoritative.",
    "The trip id of the service, as returned by search_trips or get_departures.",
)

# -- passengers and bookings -------------------------------------------------------------

get_passenger = shapes.lookup(
    "get_passenger",
    "passengers",
    "passenger_id",
    "Passenger",
    "Get one passenger's profile: name, email, home_city, loyalty_tier (none, silver, "
    "gold) and member_since (YYYY-MM-DD).",
    "The passenger id, as returned by find_passengers.",
)

find_passengers = shapes.search(
    "find_passengers",
    "passengers",
    "Search passengers. Every filter given must match. Returns at most twenty profiles sorted by "
    "passenger_id in 'results', with 'count' (returned) and 'total' (matching).",
    [
        Filter("email", "email", "The passenger's exact email address (case-insensitive)."),
        Filter(
            "name_contains",
            "name",
            "Part of the passenger's full name (case-insensitive).",
            op="contains",
        ),
        Filter("home_city", "home_city", "The passenger's home city."),
    ],
    sort_by="passenger_id",
)


def booking_view(world: World, row: Row) -> dict[str, Any]:
    """A booking with the names of its stations."""
    booking = cast(Booking, row)
    net = _net(world)
    return {
        **booking.model_dump(mode="json"),
        "origin_station": net.stations[booking.origin_station_id].name,
        "destination_station": net.stations[booking.destination_station_id].name,
    }


get_booking = shapes.lookup(
    "get_booking",
    "bookings",
    "booking_id",
    "Booking",
    "Get one booking: passenger_id, trip_id, fare_class, fare_usd (US dollars paid), "
    "status (confirmed, completed, cancelled), origin and destination stations, "
    "departure_date and departure_time (UTC), booked_at, and for cancelled bookings "
    "cancelled_at, cancellation_reason and refund_usd (US dollars); previous_trip_id is "
    "set when the booking was moved to another trip.",
    "The booking id, as returned by book_seat or list_bookings.",
    view=booking_view,
)


@tool()
def list_bookings(
    world: TransportationWorld, passenger_id: str, status: BookingStatus | None = None
) -> dict[str, Any]:
    """List a passenger's bookings, soonest departure first.

    Returns at most fifty bookings in 'results' (the same fields as get_booking), sorted by
    departure date and time, with 'count' (returned) and 'total' (matching).

    Args:
        world: The network (not shown to the agent).
        passenger_id: The passenger id, as returned by find_passengers.
        status: Only bookings in this status (optional).
    """
    key = stored_key(world.passengers, passenger_id, "Passenger")
    rows = sorted(
        (
            b
            for b in world.bookings.values()
            if b.passenger_id == key and (status is None or b.status == status)
        ),
        key=lambda b: (b.departure_date, b.departure_time, b.booking_id),
    )
    return listing(rows, MAX_RESULTS, lambda b: booking_view(world, b))


def _build_passenger(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    net = _net(world)
    name = str(args["name"]).strip()
    email = str(args["email"]).strip()
    city = args.get("home_city")
    if not name:
        raise unprocessable("name must not be empty")
    if _EMAIL.fullmatch(email) is None:
        raise unprocessable(f"'{args['email']}' is not a valid email address")
    if any(p.email.casefold() == email.casefold() for p in net.passengers.values()):
        raise conflict(f"A passenger with email {email} is already registered")
    if city is not None:
        known = {c.name.casefold(): c.name for c in data.CITIES}
        if str(city).strip().casefold() not in known:
            raise unprocessable(f"'{city}' is not a city on the network")
        city = known[str(city).strip().casefold()]
    pid = net.next_id("PAX")
    row = Passenger(
        passenger_id=pid,
        name=name,
        email=email,
        home_city=city,
        loyalty_tier="none",
        member_since=net.now().date().isoformat(),
    )
    return pid, row


register_passenger = shapes.create(
    "register_passenger",
    "passengers",
    "Register a new passenger so they can book seats. The email must be valid and not "
    "already registered (409 if it is). Returns the new profile with its passenger_id.",
    [
        Param("name", {"type": "string"}, "The passenger's full name."),
        Param("email", {"type": "string"}, "The passenger's email address."),
        Param(
            "home_city",
            {"type": "string"},
            "The passenger's home city, one of the network's cities (optional).",
            required=False,
        ),
    ],
    _build_passenger,
)


def _build_booking(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    net = _net(world)
    trip = _trip(net, str(args["trip_id"]))
    pid = stored_key(net.passengers, str(args["passenger_id"]), "Passenger")
    fare_class = str(args.get("fare_class") or "economy")
    check_choice("fare_class", fare_class, data.FARE_CLASSES)
    fare = trip.fare_usd(fare_class)
    if fare is None:
        raise unprocessable(
            f"Trip {trip.trip_id} is a {trip.mode} trip and sells no {fare_class} class"
        )
    now = net.now()
    if trip.departs_at() <= now:
        raise unprocessable(
            f"Trip {trip.trip_id} departed on {trip.departure_date} at {trip.departure_time}; "
            "only future departures can be booked"
        )
    for other in net.bookings.values():
        if (
            other.passenger_id == pid
            and other.trip_id == trip.trip_id
            and other.status == "confirmed"
        ):
            raise conflict(
                f"Passenger {pid} already holds booking {other.booking_id} on trip {trip.trip_id}"
            )
    if trip.seats(fare_class) < 1:
        raise conflict(f"No {fare_class} seats left on trip {trip.trip_id}")
    net.update("trips", trip.trip_id, **{f"seats_{fare_class}": trip.seats(fare_class) - 1})
    bid = net.next_id("BK")
    row = Booking(
        booking_id=bid,
        passenger_id=pid,
        trip_id=trip.trip_id,
        fare_class=fare_class,
        fare_usd=fare,
        status="confirmed",
        origin_station_id=trip.origin_station_id,
        destination_station_id=trip.destination_station_id,
        departure_date=trip.departure_date,
        departure_time=trip.departure_time,
        booked_at=stamp(now),
        cancelled_at=None,
        cancellation_reason=None,
        refund_usd=None,
        previous_trip_id=None,
    )
    return bid, row


book_seat = shapes.create(
    "book_seat",
    "bookings",
    "Book one seat for a registered passenger on a trip that has not departed yet (by the "
    "network's current time), in a class the trip sells and has seats left in (409 if "
    "sold out or if the passenger already holds a confirmed booking on that trip). The "
    "fare charged is the trip's current fare in that class. Returns the new booking "
    "(booking_id, status, fare_usd in US dollars, ...).",
    [
        Param(
            "passenger_id", {"type": "string"}, "The passenger id, as returned by find_passengers."
        ),
        Param("trip_id", {"type": "string"}, "The trip id, as returned by search_trips."),
        Param(
            "fare_class",
            {**enum_schema(data.FARE_CLASSES), "default": "economy"},
            "The travel class (coaches sell economy only).",
            required=False,
        ),
    ],
    _build_booking,
    view=booking_view,
)


def _refund_terms() -> str:
    return "; ".join(
        f"{cls}: {early}% with at least {FULL_REFUND_NOTICE_H} hours' notice, {late}% later"
        for cls, (early, late) in REFUND_PCT.items()
    )


def _cancellation(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    net = _net(world)
    booking = cast(Booking, row)
    if booking.status == "cancelled":
        raise conflict(f"Booking {booking.booking_id} is already cancelled")
    trip = net.trips[booking.trip_id]
    now = net.now()
    if booking.status == "completed" or trip.departs_at() <= now:
        raise unprocessable(
            f"Booking {booking.booking_id} is for a trip that has already departed; it "
            "cannot be cancelled"
        )
    reason = args.get("reason")
    if reason is not None:
        check_choice("reason", reason, data.CANCELLATION_REASONS)
    cls = booking.fare_class
    net.update("trips", trip.trip_id, **{f"seats_{cls}": trip.seats(cls) + 1})
    return {
        "status": "cancelled",
        "cancelled_at": stamp(now),
        "cancellation_reason": reason,
        "refund_usd": refund_usd(cls, booking.fare_usd, trip.departs_at() - now),
    }


cancel_booking = shapes.update(
    "cancel_booking",
    "bookings",
    "booking_id",
    "Booking",
    "Cancel a confirmed booking before its trip departs and refund part of the fare to "
    f"the original payment method, by class and notice before departure ({_refund_terms()}). "
    "Refused (409) if already cancelled, (422) once the trip has departed. Frees the seat. "
    "Returns the updated booking with refund_usd (US dollars).",
    "The booking id, as returned by book_seat or list_bookings.",
    [
        Param(
            "reason",
            enum_schema(data.CANCELLATION_REASONS),
            "Why the passenger cancels (optional).",
            required=False,
        )
    ],
    _cancellation,
    view=booking_view,
)


@tool(ToolKind.WRITE)
def change_booking(world: TransportationWorld, booking_id: str, new_trip_id: str) -> dict[str, Any]:
    """Move a confirmed booking to another trip between the same two stations.

    Both the booked trip and the new one must not have departed yet (by the network's
    current time); the new trip must run from the same origin station to the same
    destination station and have a seat left in the booking's class. The booking keeps
    its id and class; its fare becomes the new trip's fare in that class. Returns the
    updated booking (previous_trip_id is the trip it was moved from) plus
    fare_difference_usd (new fare minus old fare, US dollars; negative when cheaper).

    Args:
        world: The network (not shown to the agent).
        booking_id: The booking id, as returned by book_seat or list_bookings.
        new_trip_id: The id of the trip to move to, as returned by search_trips.
    """
    key = stored_key(world.bookings, booking_id, "Booking")
    booking = world.bookings[key]
    new = _trip(world, new_trip_id)
    if booking.status != "confirmed":
        raise conflict(f"Booking {key} is {booking.status}; only confirmed bookings can be changed")
    old = world.trips[booking.trip_id]
    now = world.now()
    if old.departs_at() <= now:
        raise unprocessable(f"Booking {key} is for a trip that has already departed")
    if new.trip_id == old.trip_id:
        raise unprocessable(f"Booking {key} is already on trip {new.trip_id}")
    if (new.origin_station_id, new.destination_station_id) != (
        old.origin_station_id,
        old.destination_station_id,
    ):
        raise unprocessable(
            f"Trip {new.trip_id} does not run between the booking's origin and destination stations"
        )
    if new.departs_at() <= now:
        raise unprocessable(f"Trip {new.trip_id} has already departed")
    cls = booking.fare_class
    fare = new.fare_usd(cls)
    if fare is None:
        raise unprocessable(f"Trip {new.trip_id} is a {new.mode} trip and sells no {cls} class")
    if new.seats(cls) < 1:
        raise conflict(f"No {cls} seats left on trip {new.trip_id}")
    world.update("trips", old.trip_id, **{f"seats_{cls}": old.seats(cls) + 1})
    world.update("trips", new.trip_id, **{f"seats_{cls}": new.seats(cls) - 1})
    changed = world.update(
        "bookings",
        key,
        trip_id=new.trip_id,
        fare_usd=fare,
        departure_date=new.departure_date,
        departure_time=new.departure_time,
        previous_trip_id=old.trip_id,
    )
    difference = money(dec(fare) - dec(booking.fare_usd))
    return {**booking_view(world, changed), "fare_difference_usd": difference}


TOOLS: list[Tool] = [
    find_stations,
    get_station,
    list_routes,
    get_route,
    search_trips,
    get_trip,
    get_trip_backup,
    get_departures,
    get_departures_v2,
    get_fare,
    plan_journey,
    estimate_co2,
    ride_estimate,
    get_trip_status,
    crowd_trip_reports,
    station_board_status,
    get_passenger,
    find_passengers,
    get_booking,
    list_bookings,
    register_passenger,
    book_seat,
    cancel_booking,
    change_booking,
]
