"""Tests of the transportation domain: the seeded world, every tool, writes, forks, notes."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest

from conftest import DomainTools, all_keys, cents, d, forks_of, numeric_keys
from toolchaos.core.types import ToolKind
from toolchaos.domains import DOMAINS
from toolchaos.domains._common import haversine_km
from toolchaos.domains.transportation import DOMAIN, data
from toolchaos.domains.transportation.world import (
    EARTH_RADIUS_KM,
    MIN_TRANSFER_MIN,
    TransportationWorld,
    Trip,
)

DOMAINS.setdefault("transportation", "toolchaos.domains.transportation:DOMAIN")

SEED = 7
SEEDS = [0, 1, 7, 42, 2026]
FEEDS = ("get_trip_status", "crowd_trip_reports", "station_board_status")
domain_tools = DomainTools(DOMAIN)
call, refused = domain_tools.call, domain_tools.refused


# -- helpers -------------------------------------------------------------------------------


def today(world: TransportationWorld) -> str:
    return world.now().date().isoformat()


def day(world: TransportationWorld, offset: int) -> str:
    return (world.now().date() + timedelta(days=offset)).isoformat()


def label(world: TransportationWorld, station_id: str) -> str:
    """The name a person would use for a station: bare if unique, else with its city."""
    station = world.stations[station_id]
    same = [s for s in world.stations.values() if s.name == station.name]
    return station.name if len(same) == 1 else f"{station.name}, {station.city}"


def future_trips(world: TransportationWorld, mode: str | None = None) -> list[Trip]:
    now = world.now()
    return [
        t for t in world.trips.values() if t.departs_at() > now and (mode is None or t.mode == mode)
    ]


def bookable_rail_trip(world: TransportationWorld) -> Trip:
    for trip in future_trips(world, "rail"):
        if trip.departs_at() - world.now() > timedelta(hours=30) and all(
            trip.seats(c) > 1 for c in data.FARE_CLASSES
        ):
            return trip
    raise AssertionError("seeded world has no bookable rail trip")


def departed_trip(world: TransportationWorld) -> Trip:
    return next(t for t in world.trips.values() if t.departs_at() <= world.now())


def live_trip(world: TransportationWorld, delayed: bool = True) -> str:
    return next(tid for tid, s in world.operator_feed.items() if (s.delay_min > 0) == delayed)


def transfer_pair(world: TransportationWorld) -> tuple[str, str]:
    """Hartford to New York needs a change at New Haven."""
    by_code = {s.code: s.station_id for s in world.stations.values()}
    return by_code["HFD"], by_code["NYP"]


def read_calls(world: TransportationWorld) -> list[tuple[str, dict[str, Any]]]:
    """One valid call of every READ tool on ids drawn from the world."""
    trip = bookable_rail_trip(world)
    route = world.routes[trip.route_id]
    passenger = next(iter(world.passengers.values()))
    booking = next(iter(world.bookings.values()))
    live = live_trip(world)
    origin, destination = transfer_pair(world)
    same_city = [s for s in world.stations.values() if s.city == "Boston"]
    return [
        ("find_stations", {"query": "union"}),
        ("get_station", {"station_id": trip.origin_station_id}),
        ("list_routes", {"mode": "rail"}),
        ("get_route", {"route_id": route.route_id}),
        (
            "search_trips",
            {
                "origin": trip.origin_station_id,
                "destination": trip.destination_station_id,
                "date": trip.departure_date,
            },
        ),
        ("get_trip", {"trip_id": trip.trip_id}),
        ("get_trip_backup", {"trip_id": trip.trip_id}),
        ("get_departures", {"station": trip.origin_station_id, "date": trip.departure_date}),
        (
            "get_departures_v2",
            {"station_ref": trip.origin_station_id, "service_date": trip.departure_date},
        ),
        ("get_fare", {"trip_id": trip.trip_id, "fare_class": "first"}),
        ("plan_journey", {"origin": origin, "destination": destination, "date": day(world, 1)}),
        ("estimate_co2", {"distance_km": route.distance_km, "mode": "rail"}),
        (
            "ride_estimate",
            {"pickup": same_city[0].station_id, "dropoff": same_city[1].station_id},
        ),
        ("get_trip_status", {"trip_id": live}),
        ("crowd_trip_reports", {"trip_id": live}),
        ("station_board_status", {"service_id": live}),
        ("get_passenger", {"passenger_id": passenger.passenger_id}),
        ("find_passengers", {"email": passenger.email}),
        ("get_booking", {"booking_id": booking.booking_id}),
        ("list_bookings", {"passenger_id": booking.passenger_id}),
    ]


# -- the domain as declared ----------------------------------------------------------------


def test_read_calls_cover_every_read_tool(base: TransportationWorld) -> None:
    reads = {name for name, t in DOMAIN.tools.items() if t.kind is ToolKind.READ}
    assert {name for name, _ in read_calls(base)} == reads


def test_optional_parameters_document_their_defaults() -> None:
    props = {name: t.spec.parameters["properties"] for name, t in DOMAIN.tools.items()}
    assert props["get_fare"]["fare_class"]["default"] == "economy"
    assert props["get_fare"]["fare_class"]["enum"] == list(data.FARE_CLASSES)
    assert props["book_seat"]["fare_class"]["default"] == "economy"
    assert props["search_trips"]["limit"]["default"] == 10
    assert props["get_departures"]["limit"]["default"] == 5
    assert props["get_departures_v2"]["max_results"]["default"] == 5
    assert props["plan_journey"]["depart_after"]["default"] == "00:00"
    assert props["ride_estimate"]["ride_type"]["default"] == "standard"
    for name, param in (("search_trips", "date"), ("plan_journey", "date")):
        assert "YYYY-MM-DD" in props[name][param]["description"]
    assert "fare_class" not in DOMAIN.tools["get_fare"].spec.parameters["required"]


def test_results_are_json_with_units_in_float_names(base: TransportationWorld) -> None:
    for name, result in domain_tools.read_results(base, read_calls(base)):
        for key in numeric_keys(result, floats_only=True):
            assert key.endswith(("_usd", "_km", "_kg", "_deg", "_per_km", "_multiplier")), (
                f"{name} returns unitless {key}"
            )


def test_descriptions_name_their_alternatives() -> None:
    tools = DOMAIN.tools
    assert "get_trip_backup" in tools["get_trip"].spec.description
    assert "unavailable" in tools["get_trip"].spec.description
    v1 = tools["get_departures"].spec.description
    assert "get_departures_v2" in v1 and "still works" in v1
    assert "authoritative" in tools["get_trip_status"].spec.description
    for feed in ("crowd_trip_reports", "station_board_status"):
        assert "get_trip_status" in tools[feed].spec.description


# -- the seeded world ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_world_tables_are_consistent(seed: int) -> None:
    w = TransportationWorld.build(seed)
    now = w.now()
    assert len(w.stations) == len(data.STATIONS) == 30
    assert len({s.code for s in w.stations.values()}) == 30
    names = Counter(s.name for s in w.stations.values())
    shared = {n for n, k in names.items() if k > 1}
    assert {"Union Station", "Penn Station", "Airport Station"} <= shared
    assert len(w.routes) == 2 * len(data.LINES)
    pairs = {(r.origin_station_id, r.destination_station_id) for r in w.routes.values()}
    assert all((b, a) in pairs for a, b in pairs)
    dates = {t.departure_date for t in w.trips.values()}
    assert today(w) in dates and day(w, 1) in dates and day(w, -1) in dates
    for trip in w.trips.values():
        route = w.routes[trip.route_id]
        assert (trip.origin_station_id, trip.destination_station_id, trip.mode) == (
            route.origin_station_id,
            route.destination_station_id,
            route.mode,
        )
        assert trip.arrives_at() - trip.departs_at() == timedelta(minutes=trip.duration_min)
        assert trip.distance_km == route.distance_km
        if trip.mode == "bus":
            assert trip.fare_business_usd is None and trip.fare_first_usd is None
        else:
            assert (
                trip.fare_economy_usd < (trip.fare_business_usd or 0) < (trip.fare_first_usd or 0)
            )
        mirror = w.timetable_mirror[trip.trip_id]
        for key in ("departure_date", "departure_time", "arrival_time", "duration_min"):
            assert getattr(mirror, key) == getattr(trip, key)
    live = {tid for tid, t in w.trips.items() if t.departure_date == today(w)}
    assert set(w.operator_feed) == set(w.crowd_feed) == set(w.board_feed) == live
    emails = [p.email for p in w.passengers.values()]
    assert len(set(emails)) == len(emails) == 40
    for booking in w.bookings.values():
        trip = w.trips[booking.trip_id]
        assert booking.fare_usd == trip.fare_usd(booking.fare_class)
        assert (booking.status == "completed") == (trip.departs_at() <= now)
        assert (booking.refund_usd is not None) == (booking.status == "cancelled")
        assert booking.booked_at < now.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert w.id_counters == {"BK": len(w.bookings), "PAX": len(w.passengers)}


@pytest.mark.parametrize("seed", SEEDS)
def test_three_delay_feeds_agree_in_the_clean_world(seed: int) -> None:
    w = TransportationWorld.build(seed)
    stamp_now = w.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    delays = []
    for trip_id in w.operator_feed:
        operator = call(w, "get_trip_status", trip_id=trip_id)
        crowd = call(w, "crowd_trip_reports", trip_id=trip_id)
        board = call(w, "station_board_status", service_id=trip_id)
        assert operator["delay_min"] == crowd["delay_min"] == board["delay_min"], trip_id
        for feed in (operator, crowd, board):
            assert feed["as_of"] <= stamp_now
        delays.append(operator["delay_min"])
    assert any(delays) and not all(delays)


def test_live_status_follows_the_world_clock(base: TransportationWorld) -> None:
    now = base.now()
    for trip_id, status in base.operator_feed.items():
        trip = base.trips[trip_id]
        shift = timedelta(minutes=status.delay_min)
        if status.status == "arrived":
            assert trip.arrives_at() + shift <= now
        elif status.status == "en_route":
            assert trip.departs_at() + shift <= now < trip.arrives_at() + shift
        else:
            assert trip.departs_at() + shift > now
        expected = (trip.departs_at() + shift).strftime("%H:%M")
        assert status.expected_departure_time == expected


# -- stations, routes, timetables ----------------------------------------------------------


def test_find_stations(base: TransportationWorld) -> None:
    unions = [s for s in base.stations.values() if s.name == "Union Station"]
    got = call(base, "find_stations", query="union station")
    assert sorted(r["station_id"] for r in got["results"]) == sorted(s.station_id for s in unions)
    one = unions[0]
    pinned = call(base, "find_stations", query=f"Union Station, {one.city.lower()}")
    assert [r["station_id"] for r in pinned["results"]] == [one.station_id]
    by_code = call(base, "find_stations", query=one.code.lower())
    assert by_code["results"][0]["station_id"] == one.station_id
    in_city = call(base, "find_stations", query="station", city=one.city, mode="bus")
    want = [
        s
        for s in base.stations.values()
        if s.city == one.city and "bus" in s.modes and "station" in s.name.lower()
    ]
    assert in_city["total"] == len(want)
    assert call(base, "find_stations", query="nowhere at all")["results"] == []


def test_station_parameters_take_names_ids_and_codes(base: TransportationWorld) -> None:
    trip = bookable_rail_trip(base)
    origin = base.stations[trip.origin_station_id]
    destination = base.stations[trip.destination_station_id]
    want = call(
        base,
        "search_trips",
        origin=origin.station_id,
        destination=destination.station_id,
        date=trip.departure_date,
    )
    for o, dest in (
        (label(base, origin.station_id), label(base, destination.station_id)),
        (origin.code, f"{destination.name}, {destination.city}"),
        (origin.station_id.lower(), destination.code.lower()),
    ):
        got = call(base, "search_trips", origin=o, destination=dest, date=trip.departure_date)
        assert got == want
    union = next(s for s in base.stations.values() if s.name == "Union Station")
    error = refused(
        base, "search_trips", 422, origin="Union Station", destination=union.station_id,
        date=trip.departure_date,
    )  # fmt: skip
    assert "ambiguous" in error.message
    refused(
        base,
        "search_trips",
        404,
        origin="Atlantis",
        destination=union.station_id,
        date="2026-03-03",
    )
    refused(
        base, "search_trips", 400, origin=origin.station_id, destination=destination.station_id,
        date="03/03/2026",
    )  # fmt: skip


def test_get_station_and_routes(base: TransportationWorld) -> None:
    station = next(iter(base.stations.values()))
    got = call(base, "get_station", station_id=f" {station.station_id.lower()} ")
    assert got == station.model_dump(mode="json")
    route = next(iter(base.routes.values()))
    got = call(base, "get_route", route_id=route.route_id)
    assert got["distance_km"] == route.distance_km
    assert got["origin_station"] == base.stations[route.origin_station_id].name
    listed = call(base, "list_routes", origin_station_id=route.origin_station_id, mode=route.mode)
    want = sorted(
        r.route_id
        for r in base.routes.values()
        if r.origin_station_id == route.origin_station_id and r.mode == route.mode
    )
    assert [r["route_id"] for r in listed["results"]] == want


def test_search_trips_lists_direct_trips_in_departure_order(base: TransportationWorld) -> None:
    trip = bookable_rail_trip(base)
    args = {
        "origin": trip.origin_station_id,
        "destination": trip.destination_station_id,
        "date": trip.departure_date,
    }
    got = call(base, "search_trips", **args)
    want = sorted(
        (
            t
            for t in base.trips.values()
            if (t.origin_station_id, t.destination_station_id, t.departure_date)
            == (trip.origin_station_id, trip.destination_station_id, trip.departure_date)
        ),
        key=lambda t: t.departure_time,
    )
    assert [r["trip_id"] for r in got["results"]] == [t.trip_id for t in want]
    assert got["total"] == len(want)
    first = got["results"][0]
    assert (first["duration_min"], first["distance_km"]) == (
        want[0].duration_min,
        want[0].distance_km,
    )
    assert call(base, "search_trips", **args, limit=1)["count"] == 1
    assert call(base, "search_trips", **args, mode="bus")["results"] == []
    refused(base, "search_trips", 400, **args, limit=0)


def test_get_trip_and_its_backup_agree(base: TransportationWorld) -> None:
    for trip in list(base.trips.values())[::97]:
        primary = call(base, "get_trip", trip_id=trip.trip_id)
        backup = call(base, "get_trip_backup", trip_id=trip.trip_id.lower())
        shared = set(primary) & set(backup)
        assert shared >= {"departure_time", "arrival_time", "duration_min", "distance_km"}
        assert {k: primary[k] for k in shared} == {k: backup[k] for k in shared}
        assert "seats_economy" not in backup and backup["source"] == "TransitMirror"
        assert primary["seats_economy"] == trip.seats_economy
        assert primary["classes"] == (
            ["economy"] if trip.mode == "bus" else list(data.FARE_CLASSES)
        )


def test_departures_v1_and_v2_return_the_same(base: TransportationWorld) -> None:
    station = next(s for s in base.stations.values() if s.code == "NYP")
    v1 = call(base, "get_departures", station="Penn Station, New York", date=day(base, 1))
    v2 = call(base, "get_departures_v2", station_ref=station.station_id, service_date=day(base, 1))
    assert v1 == v2
    want = sorted(
        (
            t
            for t in base.trips.values()
            if t.origin_station_id == station.station_id and t.departure_date == day(base, 1)
        ),
        key=lambda t: (t.departure_time, t.trip_id),
    )
    assert v1["total"] == len(want)
    assert [r["trip_id"] for r in v1["results"]] == [t.trip_id for t in want[:5]]
    short = call(
        base,
        "get_departures_v2",
        station_ref=station.code,
        service_date=day(base, 1),
        max_results=2,
    )
    assert short["count"] == 2
    refused(base, "get_departures", 400, station=station.station_id, date="tomorrow")
    refused(base, "get_departures_v2", 404, station_ref="ST-999", service_date=day(base, 1))


def test_get_fare(base: TransportationWorld) -> None:
    trip = bookable_rail_trip(base)
    default = call(base, "get_fare", trip_id=trip.trip_id)
    assert (default["fare_class"], default["fare_usd"]) == ("economy", trip.fare_economy_usd)
    first = call(base, "get_fare", trip_id=trip.trip_id, fare_class="first")
    assert (first["fare_usd"], first["seats_available"]) == (trip.fare_first_usd, trip.seats_first)
    bus = future_trips(base, "bus")[0]
    assert call(base, "get_fare", trip_id=bus.trip_id)["fare_usd"] == bus.fare_economy_usd
    refused(base, "get_fare", 422, trip_id=bus.trip_id, fare_class="business")
    refused(base, "get_fare", 404, trip_id="TR-99999")


# -- journeys, emissions, rides ------------------------------------------------------------


def test_plan_journey_direct(base: TransportationWorld) -> None:
    trip = bookable_rail_trip(base)
    got = call(
        base,
        "plan_journey",
        origin=trip.origin_station_id,
        destination=trip.destination_station_id,
        date=trip.departure_date,
        depart_after=trip.departure_time,
        fare_class="business",
    )
    now = base.now()
    candidates = [
        t
        for t in base.trips.values()
        if (t.origin_station_id, t.destination_station_id, t.departure_date)
        == (trip.origin_station_id, trip.destination_station_id, trip.departure_date)
        and t.departure_time >= trip.departure_time
    ]
    earliest = min(t.arrives_at() for t in candidates)
    assert got["arrival_time"] == earliest.strftime("%H:%M") and earliest > now
    if got["transfers"] == 0:
        leg = got["legs"][0]
        assert got["total_duration_min"] == leg["duration_min"]
        assert got["total_fare_usd"] == base.trips[leg["trip_id"]].fare_business_usd
        assert got["transfer_station"] is None and got["transfer_wait_min"] is None


def test_plan_journey_with_a_change(base: TransportationWorld) -> None:
    origin, destination = transfer_pair(base)
    got = call(base, "plan_journey", origin=origin, destination=destination, date=day(base, 1))
    assert got["transfers"] == 1
    first, second = (base.trips[leg["trip_id"]] for leg in got["legs"])
    assert first.origin_station_id == origin and second.destination_station_id == destination
    assert first.destination_station_id == second.origin_station_id == got["transfer_station_id"]
    wait = (second.departs_at() - first.arrives_at()) // timedelta(minutes=1)
    assert got["transfer_wait_min"] == wait >= MIN_TRANSFER_MIN
    total = (second.arrives_at() - first.departs_at()) // timedelta(minutes=1)
    assert got["total_duration_min"] == total == first.duration_min + wait + second.duration_min
    assert got["total_distance_km"] == round(first.distance_km + second.distance_km, 1)
    assert got["total_fare_usd"] == cents(d(first.fare_economy_usd) + d(second.fare_economy_usd))
    co2 = sum(t.distance_km * data.CO2_KG_PER_KM[t.mode] for t in (first, second))
    assert got["co2_kg"] == round(co2, 2)
    # nothing arrives earlier: every direct or one-change option arrives no sooner
    for t in base.trips.values():
        if (t.origin_station_id, t.destination_station_id, t.departure_date) == (
            origin,
            destination,
            day(base, 1),
        ):
            assert t.arrives_at() >= second.arrives_at()
    refused(base, "plan_journey", 422, origin=origin, destination=origin, date=day(base, 1))
    refused(
        base, "plan_journey", 400, origin=origin, destination=destination, date=day(base, 1),
        depart_after="7pm",
    )  # fmt: skip
    refused(base, "plan_journey", 404, origin=origin, destination=destination, date=day(base, 30))


def test_estimate_co2(base: TransportationWorld) -> None:
    for mode, factor in data.CO2_KG_PER_KM.items():
        got = call(base, "estimate_co2", distance_km=412.3, mode=mode)
        assert got["co2_kg"] == round(412.3 * factor, 2)
        assert got["factor_kg_per_km"] == factor
    refused(base, "estimate_co2", 422, distance_km=0, mode="rail")
    refused(base, "estimate_co2", 422, distance_km=-5.0, mode="bus")


def test_ride_estimate(base: TransportationWorld) -> None:
    boston = [s for s in base.stations.values() if s.city == "Boston"]
    a, b = boston[0], boston[1]
    rate = base.ride_rates["Boston"]
    got = call(
        base,
        "ride_estimate",
        pickup=a.station_id,
        dropoff=label(base, b.station_id),
        ride_type="xl",
    )
    crow = haversine_km(a.lat_deg, a.lon_deg, b.lat_deg, b.lon_deg, EARTH_RADIUS_KM)
    distance = round(crow * 1.35, 1)
    duration = max(3, round(distance / rate.avg_speed_kmh * 60))
    fare = (
        (d(rate.base_fare_usd) + d(rate.per_km_usd) * d(distance) + d(rate.per_min_usd) * duration)
        * d(data.RIDE_MULTIPLIER["xl"])
        * d(rate.surge_multiplier)
    )
    assert (got["distance_km"], got["duration_min"], got["fare_usd"]) == (
        distance,
        duration,
        cents(fare),
    )
    assert got["pickup_eta_min"] == rate.pickup_eta_min and got["city"] == "Boston"
    standard = call(base, "ride_estimate", pickup=a.station_id, dropoff=b.station_id)
    assert standard["ride_type"] == "standard" and standard["fare_usd"] < got["fare_usd"]
    elsewhere = next(s for s in base.stations.values() if s.city != "Boston")
    error = refused(base, "ride_estimate", 422, pickup=a.station_id, dropoff=elsewhere.station_id)
    assert "within one city" in error.message
    refused(base, "ride_estimate", 422, pickup=a.station_id, dropoff=a.code)
    refused(base, "ride_estimate", 422, pickup=a.station_id, dropoff="Airport Station")


def test_live_feeds_cover_only_todays_trips(base: TransportationWorld) -> None:
    trip_id = live_trip(base)
    status = call(base, "get_trip_status", trip_id=trip_id)
    assert status == base.operator_feed[trip_id].model_dump(mode="json")
    assert status["status"] in ("scheduled", "boarding", "en_route", "arrived")
    tomorrow = next(t for t in base.trips.values() if t.departure_date == day(base, 1))
    refused(base, "get_trip_status", 404, trip_id=tomorrow.trip_id)
    refused(base, "crowd_trip_reports", 404, trip_id=tomorrow.trip_id)
    refused(base, "station_board_status", 404, service_id=tomorrow.trip_id)


# -- passengers and bookings ---------------------------------------------------------------


def test_passengers_and_bookings_lookups(base: TransportationWorld) -> None:
    passenger = next(iter(base.passengers.values()))
    assert (
        call(base, "get_passenger", passenger_id=passenger.passenger_id)["email"] == passenger.email
    )
    found = call(base, "find_passengers", email=passenger.email.upper())
    assert [r["passenger_id"] for r in found["results"]] == [passenger.passenger_id]
    holder = Counter(b.passenger_id for b in base.bookings.values()).most_common(1)[0][0]
    listed = call(base, "list_bookings", passenger_id=holder)
    mine = sorted(
        (b for b in base.bookings.values() if b.passenger_id == holder),
        key=lambda b: (b.departure_date, b.departure_time, b.booking_id),
    )
    assert [r["booking_id"] for r in listed["results"]] == [b.booking_id for b in mine]
    confirmed = call(base, "list_bookings", passenger_id=holder, status="confirmed")
    assert confirmed["total"] == sum(b.status == "confirmed" for b in mine)
    booking = mine[0]
    got = call(base, "get_booking", booking_id=booking.booking_id)
    assert got["fare_usd"] == booking.fare_usd
    assert got["origin_station"] == base.stations[booking.origin_station_id].name
    assert listed["results"][0] == got
    refused(base, "list_bookings", 404, passenger_id="PAX-99999")


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("get_station", {"station_id": "ST-999"}),
        ("get_route", {"route_id": "R-1"}),
        ("get_trip", {"trip_id": "TR-99999"}),
        ("get_trip_backup", {"trip_id": "TR-99999"}),
        ("get_trip_status", {"trip_id": "TR-99999"}),
        ("crowd_trip_reports", {"trip_id": "TR-99999"}),
        ("station_board_status", {"service_id": "TR-99999"}),
        ("get_passenger", {"passenger_id": "PAX-99999"}),
        ("get_booking", {"booking_id": "BK-99999"}),
    ],
)
def test_unknown_ids_are_404(base: TransportationWorld, name: str, args: dict[str, Any]) -> None:
    assert refused(base, name, 404, **args).kind == "not_found"


def test_register_passenger(base: TransportationWorld, world: TransportationWorld) -> None:
    before = world.state_hash()
    got = call(
        world,
        "register_passenger",
        name=" Ada Lovelace ",
        email="ada@example.org",
        home_city="boston",
    )
    assert got["passenger_id"] == f"PAX-{len(base.passengers) + 1:05d}"
    assert (got["name"], got["home_city"], got["member_since"]) == (
        "Ada Lovelace",
        "Boston",
        today(world),
    )
    assert world.state_hash() != before
    refused(world, "register_passenger", 409, name="Ada", email="ADA@example.org")
    refused(world, "register_passenger", 422, name="Bob", email="bob-at-example.org")
    refused(world, "register_passenger", 422, name="  ", email="b@example.org")
    refused(world, "register_passenger", 422, name="Bob", email="b@example.org", home_city="Paris")
    assert got["passenger_id"] not in base.passengers


def test_book_seat(base: TransportationWorld, world: TransportationWorld) -> None:
    trip = bookable_rail_trip(world)
    passenger = next(
        p.passenger_id
        for p in world.passengers.values()
        if not any(
            b.passenger_id == p.passenger_id and b.trip_id == trip.trip_id
            for b in world.bookings.values()
        )
    )
    before = world.state_hash()
    got = call(world, "book_seat", passenger_id=passenger, trip_id=trip.trip_id, fare_class="first")
    assert got["booking_id"] == f"BK-{len(base.bookings) + 1:05d}"
    assert (got["status"], got["fare_usd"], got["fare_class"]) == (
        "confirmed",
        trip.fare_first_usd,
        "first",
    )
    assert got["booked_at"] == world.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    assert world.trips[trip.trip_id].seats_first == trip.seats_first - 1
    assert world.state_hash() != before
    # the write verifier sees it
    listed = call(world, "list_bookings", passenger_id=passenger)
    assert got in listed["results"]
    error = refused(world, "book_seat", 409, passenger_id=passenger, trip_id=trip.trip_id)
    assert got["booking_id"] in error.message
    economy = call(
        world,
        "book_seat",
        passenger_id="PAX-00002" if passenger != "PAX-00002" else "PAX-00003",
        trip_id=trip.trip_id,
    )
    assert economy["fare_class"] == "economy" and economy["fare_usd"] == trip.fare_economy_usd
    assert base.trips[trip.trip_id].seats_first == trip.seats_first


def test_book_seat_refusals(world: TransportationWorld) -> None:
    trip = bookable_rail_trip(world)
    pid = "PAX-00001"
    refused(world, "book_seat", 404, passenger_id="PAX-99999", trip_id=trip.trip_id)
    refused(world, "book_seat", 404, passenger_id=pid, trip_id="TR-99999")
    gone = departed_trip(world)
    error = refused(world, "book_seat", 422, passenger_id=pid, trip_id=gone.trip_id)
    assert "departed" in error.message
    bus = future_trips(world, "bus")[0]
    refused(world, "book_seat", 422, passenger_id=pid, trip_id=bus.trip_id, fare_class="first")
    full = next(t for t in future_trips(world, "rail") if t.seats_business == 0)
    error = refused(
        world, "book_seat", 409, passenger_id=pid, trip_id=full.trip_id, fare_class="business"
    )
    assert "No business seats" in error.message
    assert world.written_tables() == set()


@pytest.mark.parametrize("notice_hours", [48, 3])
def test_cancel_booking_refunds_by_class_and_notice(
    world: TransportationWorld, notice_hours: int
) -> None:
    booking = next(
        b
        for b in world.bookings.values()
        if b.status == "confirmed"
        and b.fare_class == "economy"
        and world.trips[b.trip_id].departs_at() - world.now() > timedelta(hours=notice_hours + 1)
    )
    trip = world.trips[booking.trip_id]
    world.advance(int((trip.departs_at() - world.now()) / timedelta(minutes=1)) - notice_hours * 60)
    before = world.state_hash()
    got = call(world, "cancel_booking", booking_id=booking.booking_id, reason="illness")
    pct = 80 if notice_hours >= 24 else 25
    assert got["refund_usd"] == cents(d(booking.fare_usd) * pct / 100)
    assert (got["status"], got["cancellation_reason"]) == ("cancelled", "illness")
    assert world.trips[trip.trip_id].seats_economy == trip.seats_economy + 1
    assert world.state_hash() != before
    refused(world, "cancel_booking", 409, booking_id=booking.booking_id)


def test_cancel_booking_refusals(world: TransportationWorld) -> None:
    completed = next(b for b in world.bookings.values() if b.status == "completed")
    refused(world, "cancel_booking", 422, booking_id=completed.booking_id)
    cancelled = next(b for b in world.bookings.values() if b.status == "cancelled")
    refused(world, "cancel_booking", 409, booking_id=cancelled.booking_id)
    refused(world, "cancel_booking", 404, booking_id="BK-99999")
    confirmed = next(b for b in world.bookings.values() if b.status == "confirmed")
    world.advance(
        int((world.trips[confirmed.trip_id].departs_at() - world.now()) / timedelta(minutes=1))
    )
    refused(world, "cancel_booking", 422, booking_id=confirmed.booking_id)


def _changeable(world: TransportationWorld) -> tuple[str, Trip]:
    for booking in world.bookings.values():
        if booking.status != "confirmed":
            continue
        old = world.trips[booking.trip_id]
        for new in future_trips(world):
            if (
                new.trip_id != old.trip_id
                and new.route_id == old.route_id
                and new.departure_date != old.departure_date
                and new.seats(booking.fare_class) > 0
            ):
                return booking.booking_id, new
    raise AssertionError("no changeable booking")


def test_change_booking(base: TransportationWorld, world: TransportationWorld) -> None:
    booking_id, new = _changeable(world)
    old = world.bookings[booking_id]
    cls = old.fare_class
    before = world.state_hash()
    got = call(world, "change_booking", booking_id=booking_id, new_trip_id=new.trip_id)
    assert (got["trip_id"], got["previous_trip_id"], got["booking_id"]) == (
        new.trip_id,
        old.trip_id,
        booking_id,
    )
    assert got["fare_usd"] == new.fare_usd(cls)
    assert got["fare_difference_usd"] == cents(d(new.fare_usd(cls) or 0) - d(old.fare_usd))
    assert got["departure_date"] == new.departure_date
    assert world.trips[new.trip_id].seats(cls) == new.seats(cls) - 1
    assert world.trips[old.trip_id].seats(cls) == base.trips[old.trip_id].seats(cls) + 1
    assert world.state_hash() != before
    assert base.bookings[booking_id].trip_id == old.trip_id
    refused(world, "change_booking", 422, booking_id=booking_id, new_trip_id=new.trip_id)


def test_change_booking_refusals(world: TransportationWorld) -> None:
    booking_id, new = _changeable(world)
    refused(world, "change_booking", 404, booking_id="BK-99999", new_trip_id=new.trip_id)
    refused(world, "change_booking", 404, booking_id=booking_id, new_trip_id="TR-99999")
    old = world.trips[world.bookings[booking_id].trip_id]
    other = next(t for t in future_trips(world) if t.route_id != old.route_id)
    refused(world, "change_booking", 422, booking_id=booking_id, new_trip_id=other.trip_id)
    past = next(
        t
        for t in world.trips.values()
        if t.route_id == old.route_id and t.departs_at() <= world.now()
    )
    refused(world, "change_booking", 422, booking_id=booking_id, new_trip_id=past.trip_id)
    cancelled = next(b for b in world.bookings.values() if b.status == "cancelled")
    refused(world, "change_booking", 409, booking_id=cancelled.booking_id, new_trip_id=new.trip_id)
    world.update("trips", new.trip_id, **{f"seats_{world.bookings[booking_id].fare_class}": 0})
    refused(world, "change_booking", 409, booking_id=booking_id, new_trip_id=new.trip_id)


def test_read_tools_do_not_change_the_world(world: TransportationWorld) -> None:
    domain_tools.check_reads_change_nothing(world, read_calls(world))


# -- notes for the hazard layer ------------------------------------------------------------


def _params(tool_name: str) -> set[str]:
    return set(DOMAIN.tools[tool_name].spec.parameters["properties"])


def test_fallbacks_and_v2_serve_the_same_result_keys(base: TransportationWorld) -> None:
    calls = dict(read_calls(base))
    for tool_name, entry in {**DOMAIN.notes.fallbacks, **DOMAIN.notes.v2}.items():
        args = calls[tool_name]
        primary = call(base, tool_name, **args)
        mapped = {new: args[old] for new, old in entry.args_map.items() if old in args}
        alternative = call(base, entry.tool, **mapped)
        shared = set(primary) & set(alternative) - {"as_of"}
        assert shared, tool_name
        assert {k: primary[k] for k in shared} == {k: alternative[k] for k in shared}


def test_unit_conversions_cover_fields_the_tools_return(world: TransportationWorld) -> None:
    conversions = DOMAIN.notes.unit_conversions
    assert conversions["distance_km"].model_dump() == {
        "to_unit": "mi",
        "factor": pytest.approx(0.621371),
        "fixed": True,
    }
    assert conversions["fare_usd"].model_dump() == {
        "to_unit": "USD cents",
        "factor": 100.0,
        "fixed": True,
    }
    assert conversions["co2_kg"].model_dump() == {
        "to_unit": "lb",
        "factor": pytest.approx(2.20462),
        "fixed": True,
    }
    seen: set[str] = set()
    for name, args in read_calls(world):
        seen.update(numeric_keys(call(world, name, **args)))
    seen.update(
        numeric_keys(
            call(
                world,
                "change_booking",
                booking_id=_changeable(world)[0],
                new_trip_id=_changeable(world)[1].trip_id,
            )
        )
    )
    confirmed = next(b for b in world.bookings.values() if b.status == "confirmed")
    seen.update(numeric_keys(call(world, "cancel_booking", booking_id=confirmed.booking_id)))
    for name, conversion in conversions.items():
        assert name in seen, f"no tool returns {name}"
        assert conversion.factor > 0 and conversion.to_unit


def test_resolvers_turn_names_into_the_ids_the_tools_use(base: TransportationWorld) -> None:
    for tool_name, entry in DOMAIN.notes.resolvers.items():
        for station in base.stations.values():
            name = label(base, station.station_id)
            found = call(base, entry.tool, **{entry.query_param: name})
            value: Any = found
            for key in entry.id_path:
                value = value[key]
            assert value == station.station_id, (tool_name, name)
        assert entry.param in _params(tool_name)


def test_write_verifiers_find_the_record_a_write_created(world: TransportationWorld) -> None:
    trip = bookable_rail_trip(world)
    writes = {
        "book_seat": {
            "passenger_id": "PAX-00004",
            "trip_id": trip.trip_id,
            "fare_class": "business",
        },
        "register_passenger": {"name": "Grace Hopper", "email": "grace@example.org"},
    }
    assert set(writes) == set(DOMAIN.notes.write_verifiers)
    for write, args in writes.items():
        created = call(world, write, **args)
        assert created in domain_tools.verified_records(world, write, args)


def test_sources_name_fields_each_feed_returns(base: TransportationWorld) -> None:
    trip_id = live_trip(base)
    for tool_name, entry in DOMAIN.notes.sources.items():
        assert entry.authoritative == "get_trip_status"
        assert tool_name not in entry.alternatives and len(entry.alternatives) == 2
        args = {next(iter(_params(tool_name))): trip_id}
        primary = call(base, tool_name, **args)
        for alt in entry.alternatives:
            mapped = {new: args[old] for new, old in entry.args_map[alt].items()}
            other = call(base, alt, **mapped)
            for result in (primary, other):
                assert set(entry.fields) | {entry.time_field} <= all_keys(result)
            for fact in entry.fields:
                assert primary[fact] == other[fact]
    assert set(DOMAIN.notes.sources) == set(FEEDS)


# -- forks ----------------------------------------------------------------------------------


def test_fork_writes_never_leak_into_the_base(base: TransportationWorld) -> None:
    with forks_of(base) as (first, second):
        trip = bookable_rail_trip(first)
        made = call(
            first, "book_seat", passenger_id="PAX-00005", trip_id=trip.trip_id, fare_class="first"
        )
        confirmed = next(b.booking_id for b in first.bookings.values() if b.status == "confirmed")
        call(first, "cancel_booking", booking_id=confirmed)
    assert made["booking_id"] not in base.bookings and made["booking_id"] not in second.bookings
    assert base.bookings[confirmed].status == second.bookings[confirmed].status == "confirmed"
    assert base.trips[trip.trip_id].seats_first == second.trips[trip.trip_id].seats_first


def test_same_writes_in_any_order_reach_the_same_state(base: TransportationWorld) -> None:
    trip = bookable_rail_trip(base)
    one, two = base.fork(), base.fork()
    bookings = [("PAX-00006", "economy"), ("PAX-00007", "business")]
    for pid, cls in bookings:
        call(one, "book_seat", passenger_id=pid, trip_id=trip.trip_id, fare_class=cls)
    for pid, cls in reversed(bookings):
        call(two, "book_seat", passenger_id=pid, trip_id=trip.trip_id, fare_class=cls)
    assert one.state_hash() == two.state_hash() != base.state_hash()
