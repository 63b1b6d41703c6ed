"""Tests of the weather domain: the seeded world, every tool, writes, forks and the notes."""

from __future__ import annotations

import math
import re
from collections import Counter
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import pytest

from conftest import DomainTools, all_keys, forks_of, numeric_keys
from toolchaos.core.reference import follow
from toolchaos.core.types import ToolKind
from toolchaos.domains import DOMAINS
from toolchaos.domains.weather import DOMAIN
from toolchaos.domains.weather.world import LocationWorld, aqi_from_pm25, forecast_key

# Until the registry line is committed; a no-op afterwards.
DOMAINS.setdefault("weather", "toolchaos.domains.weather:DOMAIN")

SEED = 7
SEEDS = [0, 1, 7, 42, 2026]
SHARED_NAMES = {"Springfield": 3, "Portland": 2, "London": 2}
DAY_FIELDS = (
    "date",
    "condition",
    "temp_high_c",
    "temp_low_c",
    "precip_mm",
    "precip_chance_pct",
    "wind_kph",
    "humidity_pct",
)
AQ_TOOLS = ("get_air_quality", "get_air_quality_sensors", "get_air_quality_satellite")
AQ_TABLES = ("aq_official", "aq_sensors", "aq_satellite")
UNIT_SUFFIXES = ("_c", "_mm", "_kph", "_km", "_m", "_deg", "_hours", "_ugm3", "_usd", "_stars")
domain_tools = DomainTools(DOMAIN)
call, refused = domain_tools.call, domain_tools.refused


# -- helpers -------------------------------------------------------------------------------


def today(world: LocationWorld) -> date:
    return world.now().date()


def day(world: LocationWorld, offset: int) -> str:
    return (today(world) + timedelta(days=offset)).isoformat()


def by_name(world: LocationWorld, name: str, region: str | None = None) -> Any:
    rows = [
        loc
        for loc in world.locations.values()
        if loc.name == name and (region is None or loc.region == region)
    ]
    assert len(rows) == 1, (name, region, rows)
    return rows[0]


def plain_names(world: LocationWorld) -> list[str]:
    counts = Counter(loc.name for loc in world.locations.values())
    return sorted(name for name, n in counts.items() if n == 1)


def location_saved(world: LocationWorld) -> Any:
    return next(s for s in world.saved_places.values() if s.kind == "location")


def unsaved(world: LocationWorld) -> Any:
    saved = {s.location_id for s in world.saved_places.values()}
    return next(
        loc
        for loc in world.locations.values()
        if loc.location_id not in saved and loc.name in plain_names(world)
    )


def read_calls(world: LocationWorld) -> list[tuple[str, dict[str, Any]]]:
    """One valid call of every READ tool, on places and records drawn from the world."""
    loc = next(iter(world.locations.values()))
    other = list(world.locations.values())[5]
    return [
        ("search_locations", {"query": loc.name}),
        ("get_location", {"location_id": loc.location_id}),
        ("get_forecast", {"location": loc.location_id}),
        ("get_forecast_v2", {"place": loc.location_id}),
        ("get_forecast_backup", {"location": loc.location_id}),
        ("get_day_forecast", {"location": loc.location_id, "date": day(world, 1)}),
        ("get_day_forecast_backup", {"location": loc.location_id, "date": day(world, 1)}),
        ("precipitation_total", {"location_id": loc.location_id}),
        ("get_sun_times", {"location": loc.location_id, "date": day(world, 2)}),
        ("get_air_quality", {"location": loc.location_id}),
        ("get_air_quality_sensors", {"location": loc.location_id}),
        ("get_air_quality_satellite", {"location": loc.location_id}),
        ("list_points_of_interest", {"location_id": loc.location_id}),
        ("get_point_of_interest", {"poi_id": next(iter(world.pois))}),
        (
            "compute_distance",
            {"from_location": loc.location_id, "to_location": other.location_id},
        ),
        ("compute_distance_v2", {"origin": loc.location_id, "destination": other.location_id}),
        (
            "convert_time",
            {
                "time": "21:45",
                "date": day(world, 1),
                "from_location": loc.location_id,
                "to_location": other.location_id,
            },
        ),
        ("list_saved_places", {}),
        ("list_weather_alerts", {}),
        ("get_weather_alert", {"alert_id": next(iter(world.alerts))}),
    ]


# -- the domain as declared ----------------------------------------------------------------


def test_read_calls_cover_every_read_tool(base: LocationWorld) -> None:
    reads = {name for name, t in DOMAIN.tools.items() if t.kind is ToolKind.READ}
    assert {name for name, _ in read_calls(base)} == reads


@pytest.mark.parametrize("name", sorted(DOMAIN.tools))
def test_shared_phrases_are_filled_into_the_docs(name: str) -> None:
    spec = DOMAIN.tools[name].spec
    assert "{" not in spec.description
    for prop, schema in spec.parameters["properties"].items():
        assert "{" not in schema["description"], f"{name}.{prop} has an unfilled phrase"


def test_documented_defaults_and_enums() -> None:
    forecast = DOMAIN.tools["get_forecast"].spec.parameters
    assert forecast["properties"]["days"]["default"] == 3
    assert forecast["required"] == ["location"]
    assert DOMAIN.tools["convert_time"].spec.parameters["properties"]["add_minutes"]["default"] == 0
    alert = DOMAIN.tools["create_weather_alert"].spec.parameters["properties"]
    assert set(alert["metric"]["enum"]) == {
        "temp_high_c",
        "temp_low_c",
        "precip_mm",
        "wind_kph",
        "aqi",
    }
    assert alert["comparison"]["enum"] == ["above", "below"]
    pois = DOMAIN.tools["list_points_of_interest"].spec.parameters["properties"]
    assert "museum" in pois["category"]["enum"] and "park" in pois["category"]["enum"]


# -- the seeded world ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_world_tables_are_consistent(seed: int) -> None:
    w = LocationWorld.build(seed)
    dates = w.forecast_dates()
    assert dates[0] == w.now().date().isoformat() and len(dates) == 7
    assert 40 <= len(w.locations) <= 50
    assert all(re.fullmatch(r"LOC-\d{4}", k) for k in w.locations)
    assert all(re.fullmatch(r"POI-\d{5}", k) for k in w.pois)
    for location_id in w.locations:
        for d in dates:
            primary = w.forecasts[forecast_key(location_id, d)]
            backup = w.backup_forecasts[forecast_key(location_id, d)]
            assert primary.temp_low_c < primary.temp_high_c
            assert (primary.precip_mm > 0) == (
                primary.condition in ("showers", "rain", "thunderstorm", "snow")
            )
            for name in DAY_FIELDS:
                assert getattr(primary, name) == getattr(backup, name)
        counts = sum(p.location_id == location_id for p in w.pois.values())
        assert 3 <= counts <= 5
    assert len(w.forecasts) == len(w.locations) * 7
    names = [p.name.casefold() for p in w.pois.values()]
    assert len(set(names)) == len(names)
    assert not any(a != b and a in b for a in names for b in names)
    for saved in w.saved_places.values():
        assert (saved.location_id is None) != (saved.poi_id is None)
        assert saved.kind == ("location" if saved.location_id else "poi")
        assert saved.location_id in w.locations or saved.poi_id in w.pois
    assert len({s.label.casefold() for s in w.saved_places.values()}) == len(w.saved_places)
    assert w.id_counters == {"SP": len(w.saved_places), "ALR": len(w.alerts)}
    statuses = Counter(a.status for a in w.alerts.values())
    assert statuses["active"] >= 3 and statuses["paused"] >= 1 and statuses["expired"] >= 1
    for alert in w.alerts.values():
        assert alert.location_id in w.locations
        assert (alert.end_date < dates[0]) == (alert.status == "expired")


@pytest.mark.parametrize("seed", SEEDS)
def test_the_three_air_quality_networks_agree(seed: int) -> None:
    w = LocationWorld.build(seed)
    for location_id in w.locations:
        readings = [call(w, tool, location=location_id) for tool in AQ_TOOLS]
        assert len({(r["aqi"], r["pm25_ugm3"]) for r in readings}) == 1
        assert len({r["source"] for r in readings}) == 3
        assert readings[0]["aqi"] == aqi_from_pm25(readings[0]["pm25_ugm3"])
        for reading in readings:
            stamp = datetime.fromisoformat(reading["as_of"].replace("Z", "+00:00"))
            assert w.now() - timedelta(hours=4) <= stamp <= w.now()


@pytest.mark.parametrize(
    ("pm25", "aqi"),
    [(0.0, 0), (9.0, 50), (9.1, 51), (35.4, 100), (35.5, 101), (55.4, 150), (150.0, 225)],
)
def test_aqi_follows_the_epa_breakpoints(pm25: float, aqi: int) -> None:
    assert aqi_from_pm25(pm25) == aqi


# -- shared names and name-or-id places ------------------------------------------------------


@pytest.mark.parametrize(("name", "count"), sorted(SHARED_NAMES.items()))
def test_shared_names_really_are_ambiguous(base: LocationWorld, name: str, count: int) -> None:
    places = [loc for loc in base.locations.values() if loc.name == name]
    assert len(places) == count
    assert len({p.location_id for p in places}) == count
    assert len({(p.region, p.country) for p in places}) == count
    found = call(base, "search_locations", query=name)
    assert {r["location_id"] for r in found["results"]} == {p.location_id for p in places}
    error = refused(base, "get_forecast", 409, location=name)
    assert sorted(error.details["candidates"]) == sorted(p.location_id for p in places)
    for place in places:
        qualified = f"{name}, {place.region}"
        assert call(base, "get_forecast", location=qualified)["location_id"] == place.location_id
        spelled = f"{name.lower()}, {place.region_name}, {place.country}"
        assert (
            call(base, "get_day_forecast", location=spelled, date=day(base, 0))["location_id"]
            == place.location_id
        )
        first = call(base, "search_locations", query=qualified)["results"]
        assert [r["location_id"] for r in first] == [place.location_id]


def test_plain_names_find_one_place(base: LocationWorld) -> None:
    plain = plain_names(base)
    assert len(plain) >= 35
    for name in plain:
        found = call(base, "search_locations", query=name)
        assert found["total"] == 1, name
        loc = by_name(base, name)
        assert found["results"][0]["location_id"] == loc.location_id
        assert (
            call(base, "get_air_quality", location=f"  {name.upper()} ")["location_id"]
            == loc.location_id
        )


def test_place_parameters_take_ids_in_any_case(base: LocationWorld) -> None:
    loc = by_name(base, "Oslo")
    for text in (loc.location_id, loc.location_id.lower(), f" {loc.location_id} "):
        assert call(base, "get_forecast", location=text)["location_id"] == loc.location_id
    refused(base, "get_forecast", 404, location="Atlantis")
    refused(base, "get_forecast", 404, location="LOC-0000")
    refused(base, "get_forecast", 422, location="   ")
    refused(base, "get_forecast", 404, location="Oslo, US")


# -- READ tools ------------------------------------------------------------------------------


def test_read_tools_do_not_change_the_world(world: LocationWorld) -> None:
    domain_tools.check_reads_change_nothing(world, read_calls(world))


def test_results_are_json_with_units_in_float_names(base: LocationWorld) -> None:
    for name, result in domain_tools.read_results(base, read_calls(base)):
        for key in numeric_keys(result, floats_only=True):
            if key == "threshold":  # in the unit of the alert's own metric, documented
                continue
            assert key.endswith(UNIT_SUFFIXES), f"{name} returns unitless {key}"


def test_search_locations(base: LocationWorld) -> None:
    found = call(base, "search_locations", query="port")
    want = [loc for loc in base.locations.values() if "port" in loc.name.lower()]
    assert found["total"] == len(want) >= 2
    populations = [r["population"] for r in found["results"] if r["name"] == "Portland"]
    assert populations == sorted(populations, reverse=True)
    us = call(base, "search_locations", query="London", country="united states")
    assert us["total"] == 0
    gb = call(base, "search_locations", query="London", country="GB")
    assert [r["country"] for r in gb["results"]] == ["GB"]
    assert gb["results"][0] == by_name(base, "London", "ENG").model_dump(mode="json")
    refused(base, "search_locations", 422, query=" ")


def test_get_location(base: LocationWorld) -> None:
    loc = by_name(base, "La Paz")
    got = call(base, "get_location", location_id=loc.location_id.lower())
    assert got == loc.model_dump(mode="json")
    assert got["elevation_m"] == loc.elevation_m
    refused(base, "get_location", 404, location_id="LOC-0000")


def test_forecast_and_its_v2_and_backup(base: LocationWorld) -> None:
    loc = by_name(base, "Seattle")
    got = call(base, "get_forecast", location="Seattle")
    dates = base.forecast_dates()
    assert [d["date"] for d in got["days"]] == dates[:3]
    for entry in got["days"]:
        row = base.forecasts[forecast_key(loc.location_id, entry["date"])]
        assert entry == {name: getattr(row, name) for name in DAY_FIELDS}
    week = call(base, "get_forecast", location=loc.location_id, days=7)
    assert [d["date"] for d in week["days"]] == dates
    v2 = call(base, "get_forecast_v2", place="Seattle", num_days=7)
    assert v2 == week
    backup = call(base, "get_forecast_backup", location="Seattle", days=7)
    assert backup["days"] == week["days"]
    assert backup["provider"] != week["provider"]
    assert set(week) - {"issued_at"} <= set(backup)
    for bad in (0, 8, -1):
        refused(base, "get_forecast", 422, location="Seattle", days=bad)
        refused(base, "get_forecast_backup", 422, location="Seattle", days=bad)
        refused(base, "get_forecast_v2", 422, place="Seattle", num_days=bad)


def test_day_forecast_and_backup(base: LocationWorld) -> None:
    loc = by_name(base, "Denver")
    when = day(base, 4)
    got = call(base, "get_day_forecast", location="denver", date=when)
    row = base.forecasts[forecast_key(loc.location_id, when)]
    assert {k: got[k] for k in DAY_FIELDS} == {k: getattr(row, k) for k in DAY_FIELDS}
    backup = call(base, "get_day_forecast_backup", location=loc.location_id, date=when)
    assert {k: backup[k] for k in got if k != "provider"} == {
        k: got[k] for k in got if k != "provider"
    }
    for tool in ("get_day_forecast", "get_day_forecast_backup"):
        refused(base, tool, 422, location="Denver", date=day(base, 7))
        refused(base, tool, 422, location="Denver", date=day(base, -1))
        refused(base, tool, 422, location="Denver", date="03/04/2026")
        refused(base, tool, 422, location="Denver", date="2026-02-30")


def test_precipitation_total(base: LocationWorld) -> None:
    loc = by_name(base, "Vancouver")
    rows = [base.forecasts[forecast_key(loc.location_id, d)] for d in base.forecast_dates()]
    whole = call(base, "precipitation_total", location_id=loc.location_id)
    assert whole == {"total_precip_mm": round(sum(r.precip_mm for r in rows), 2), "matched": 7}
    part = call(
        base,
        "precipitation_total",
        location_id=loc.location_id,
        from_date=day(base, 2),
        to_date=day(base, 4),
    )
    assert part["matched"] == 3
    assert part["total_precip_mm"] == pytest.approx(sum(r.precip_mm for r in rows[2:5]))
    refused(base, "precipitation_total", 404, location_id="LOC-0000")


def test_sun_times(base: LocationWorld) -> None:
    when = day(base, 2)
    hours = {}
    for name in ("Singapore", "Oslo", "Sydney"):
        got = call(base, "get_sun_times", location=name, date=when)
        assert re.fullmatch(r"\d{2}:\d{2}", got["sunrise_local"])
        assert got["sunrise_local"] < got["sunset_local"]
        rise = int(got["sunrise_local"][:2]) * 60 + int(got["sunrise_local"][3:])
        fall = int(got["sunset_local"][:2]) * 60 + int(got["sunset_local"][3:])
        assert abs((fall - rise) / 60 - got["daylight_hours"]) < 0.05
        hours[name] = got["daylight_hours"]
    # early March: near 12 h at the equator, shorter in the north, longer in the south
    assert abs(hours["Singapore"] - 12.1) < 0.2
    assert hours["Oslo"] < 11.5 < 12.2 < hours["Sydney"]
    refused(base, "get_sun_times", 422, location="Oslo", date="tomorrow")


def test_air_quality_readings(base: LocationWorld) -> None:
    loc = by_name(base, "Delhi")
    got = call(base, "get_air_quality", location="Delhi")
    row = base.aq_official[loc.location_id]
    assert (got["aqi"], got["pm25_ugm3"], got["as_of"]) == (row.aqi, row.pm25_ugm3, row.as_of)
    assert got["monitor_count"] == row.monitor_count
    sensors = call(base, "get_air_quality_sensors", location=loc.location_id)
    assert sensors["sensor_count"] == base.aq_sensors[loc.location_id].sensor_count
    satellite = call(base, "get_air_quality_satellite", location=loc.location_id)
    assert satellite["grid_km"] == base.aq_satellite[loc.location_id].grid_km
    assert "authoritative" in DOMAIN.tools["get_air_quality"].spec.description
    for tool in AQ_TOOLS:
        refused(base, tool, 404, location="Atlantis")


def test_points_of_interest(base: LocationWorld) -> None:
    loc = by_name(base, "Paris")
    listed = call(base, "list_points_of_interest", location_id=loc.location_id)
    mine = [p for p in base.pois.values() if p.location_id == loc.location_id]
    assert listed["total"] == len(mine)
    names = [r["name"] for r in listed["results"]]
    assert names == sorted(names)
    museums = call(base, "list_points_of_interest", category="museum")
    assert museums["total"] == sum(p.category == "museum" for p in base.pois.values())
    poi = mine[0]
    by_part = call(base, "list_points_of_interest", name_contains=poi.name.upper())
    assert [r["poi_id"] for r in by_part["results"]] == [poi.poi_id]
    got = call(base, "get_point_of_interest", poi_id=poi.poi_id.lower())
    assert got == poi.model_dump(mode="json")
    refused(base, "get_point_of_interest", 404, poi_id="POI-00000")


def haversine(a: Any, b: Any) -> float:
    p1, p2 = math.radians(a.latitude_deg), math.radians(b.latitude_deg)
    dp, dl = p2 - p1, math.radians(b.longitude_deg - a.longitude_deg)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(h))


def test_distance_and_its_v2(base: LocationWorld) -> None:
    paris, london = by_name(base, "Paris"), by_name(base, "London", "ENG")
    got = call(base, "compute_distance", from_location="Paris", to_location="London, GB")
    assert got["distance_km"] == round(haversine(paris, london), 1)
    assert 340 < got["distance_km"] < 348  # the real Paris-London great-circle distance
    assert (got["from_location_id"], got["to_location_id"]) == (
        paris.location_id,
        london.location_id,
    )
    assert 300 < got["initial_bearing_deg"] < 360  # north-west
    back = call(base, "compute_distance", from_location=london.location_id, to_location="Paris")
    assert back["distance_km"] == got["distance_km"]
    v2 = call(base, "compute_distance_v2", origin="Paris", destination=london.location_id)
    assert v2 == got
    refused(base, "compute_distance", 422, from_location="Paris", to_location=paris.location_id)
    refused(base, "compute_distance", 409, from_location="Paris", to_location="London")
    refused(base, "compute_distance_v2", 404, origin="Paris", destination="Atlantis")


def test_convert_time(base: LocationWorld) -> None:
    chicago, tokyo = by_name(base, "Chicago"), by_name(base, "Tokyo")
    when = day(base, 1)
    got = call(
        base,
        "convert_time",
        time="22:30",
        date=when,
        from_location="Chicago",
        to_location="Tokyo",
        add_minutes=13 * 60,
    )
    start = datetime.fromisoformat(f"{when}T22:30").replace(
        tzinfo=timezone(timedelta(hours=chicago.utc_offset_hours))
    )
    landing = (start + timedelta(hours=13)).astimezone(
        timezone(timedelta(hours=tokyo.utc_offset_hours))
    )
    assert got["local_date"] == landing.date().isoformat() == day(base, 3)
    assert got["local_time"] == landing.strftime("%H:%M")
    assert got["utc"] == (start + timedelta(hours=13)).astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")
    assert got["offset_difference_hours"] == tokyo.utc_offset_hours - chicago.utc_offset_hours
    same = call(
        base, "convert_time", time="09:05", date=when, from_location="Tokyo", to_location="Tokyo"
    )
    assert (same["local_date"], same["local_time"]) == (when, "09:05")
    ok = {"date": when, "from_location": "Chicago", "to_location": "Tokyo"}
    for bad in ("24:00", "9:05", "12:60", "noon"):
        refused(base, "convert_time", 422, time=bad, **ok)
    refused(base, "convert_time", 422, time="10:00", add_minutes=-5, **ok)
    refused(base, "convert_time", 422, time="10:00", add_minutes=72 * 60 + 1, **ok)
    refused(base, "convert_time", 422, time="10:00", **{**ok, "date": "2026-3-4"})


def test_list_saved_places(base: LocationWorld) -> None:
    listed = call(base, "list_saved_places")
    assert listed["total"] == len(base.saved_places)
    labels = [r["label"] for r in listed["results"]]
    assert labels == sorted(labels)
    cities = call(base, "list_saved_places", kind="location")
    assert all(r["location_id"] and r["poi_id"] is None for r in cities["results"])
    for entry in listed["results"]:
        if entry["kind"] == "poi":
            assert entry["place_name"] == base.pois[entry["poi_id"]].name
        else:
            assert entry["place_name"] == base.locations[entry["location_id"]].name
    saved = location_saved(base)
    found = call(base, "list_saved_places", label_contains=saved.label.lower())
    assert saved.saved_id in [r["saved_id"] for r in found["results"]]


def expected_triggers(world: LocationWorld, alert: Any) -> list[str]:
    if alert.status != "active":
        return []
    days = [d for d in world.forecast_dates() if alert.start_date <= d <= alert.end_date]
    if alert.metric == "aqi":
        value = world.aq_official[alert.location_id].aqi
        hit = value > alert.threshold if alert.comparison == "above" else value < alert.threshold
        return [days[0]] if days and days[0] == day(world, 0) and hit else []
    out = []
    for d in days:
        value = getattr(world.forecasts[forecast_key(alert.location_id, d)], alert.metric)
        if (value > alert.threshold) if alert.comparison == "above" else (value < alert.threshold):
            out.append(d)
    return out


def test_alert_listing_and_lookup(base: LocationWorld) -> None:
    listed = call(base, "list_weather_alerts")
    assert [r["alert_id"] for r in listed["results"]] == sorted(base.alerts)
    for entry in listed["results"]:
        alert = base.alerts[entry["alert_id"]]
        assert entry["triggered_dates"] == expected_triggers(base, alert)
        first = entry["triggered_dates"][0] if entry["triggered_dates"] else None
        assert entry["first_trigger_date"] == first
        assert entry["location_name"] == base.locations[alert.location_id].name
    active = call(base, "list_weather_alerts", status="active")
    assert active["total"] == sum(a.status == "active" for a in base.alerts.values())
    aqi = call(base, "list_weather_alerts", metric="aqi")
    assert {r["metric"] for r in aqi["results"]} == {"aqi"}
    alert = next(iter(base.alerts.values()))
    at = call(base, "list_weather_alerts", location=alert.location_id)
    assert alert.alert_id in [r["alert_id"] for r in at["results"]]
    got = call(base, "get_weather_alert", alert_id=alert.alert_id.lower())
    assert got == listed["results"][0]
    refused(base, "get_weather_alert", 404, alert_id="ALR-99999")
    refused(base, "list_weather_alerts", 404, location="Atlantis")


# -- WRITE tools -------------------------------------------------------------------------------


def test_save_place_city_and_spot(base: LocationWorld, world: LocationWorld) -> None:
    loc = unsaved(world)
    before = world.state_hash()
    got = call(world, "save_place", location=loc.name, label="  Ski weekend ", note="cabin")
    n = len(base.saved_places)
    assert got["saved_id"] == f"SP-{n + 1:05d}"
    assert (got["label"], got["kind"], got["location_id"], got["poi_id"]) == (
        "Ski weekend",
        "location",
        loc.location_id,
        None,
    )
    assert got["place_name"] == loc.name and got["note"] == "cabin"
    assert got["created_at"] == world.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    assert world.state_hash() != before
    listed = call(world, "list_saved_places", label_contains="ski weekend")
    assert [r["saved_id"] for r in listed["results"]] == [got["saved_id"]]
    saved_pois = {s.poi_id for s in world.saved_places.values()}
    poi = next(p for p in world.pois.values() if p.poi_id not in saved_pois)
    spot = call(world, "save_place", poi_id=poi.poi_id.lower(), label="Lunch spot")
    assert (spot["kind"], spot["poi_id"], spot["location_id"]) == ("poi", poi.poi_id, None)
    assert spot["saved_id"] == f"SP-{n + 2:05d}"
    assert got["saved_id"] not in base.saved_places


def test_save_place_refusals(world: LocationWorld) -> None:
    loc = unsaved(world)
    saved = location_saved(world)
    poi = next(iter(world.pois))
    refused(world, "save_place", 422, label="Both", location=loc.name, poi_id=poi)
    refused(world, "save_place", 422, label="Neither")
    refused(world, "save_place", 422, label="   ", location=loc.name)
    refused(world, "save_place", 422, label="x" * 41, location=loc.name)
    refused(world, "save_place", 422, label="Long note", location=loc.name, note="x" * 201)
    error = refused(world, "save_place", 409, label=saved.label.upper(), location=loc.name)
    assert saved.saved_id in error.message
    error = refused(world, "save_place", 409, label="Again", location=saved.location_id)
    assert error.details["saved_id"] == saved.saved_id
    refused(world, "save_place", 404, label="Nowhere", location="Atlantis")
    refused(world, "save_place", 409, label="Which one", location="Springfield")
    refused(world, "save_place", 404, label="No spot", poi_id="POI-00000")
    assert world.written_tables() == set()


def alert_args(world: LocationWorld, **changes: Any) -> dict[str, Any]:
    loc = next(
        loc
        for loc in world.locations.values()
        if loc.name in plain_names(world)
        and not any(a.location_id == loc.location_id for a in world.alerts.values())
    )
    args = {
        "location": loc.name,
        "metric": "wind_kph",
        "comparison": "above",
        "threshold": 12.5,
        "start_date": day(world, 1),
        "end_date": day(world, 5),
    }
    return {**args, **changes}


def test_create_weather_alert(base: LocationWorld, world: LocationWorld) -> None:
    args = alert_args(world)
    before = world.state_hash()
    got = call(world, "create_weather_alert", **args)
    loc = by_name(world, args["location"])
    assert got["alert_id"] == f"ALR-{len(base.alerts) + 1:05d}"
    assert (got["location_id"], got["status"], got["threshold"]) == (
        loc.location_id,
        "active",
        12.5,
    )
    winds = {
        d: world.forecasts[forecast_key(loc.location_id, d)].wind_kph
        for d in world.forecast_dates()[1:6]
    }
    assert got["triggered_dates"] == [d for d, w in winds.items() if w > 12.5]
    assert world.state_hash() != before
    listed = call(world, "list_weather_alerts", location=args["location"])
    assert [r["alert_id"] for r in listed["results"]] == [got["alert_id"]]
    again = refused(world, "create_weather_alert", 409, **{**args, "start_date": day(world, 5)})
    assert again.details["alert_id"] == got["alert_id"]
    other = call(world, "create_weather_alert", **{**args, "comparison": "below"})
    assert other["alert_id"] == f"ALR-{len(base.alerts) + 2:05d}"
    aqi = call(
        world,
        "create_weather_alert",
        **{**args, "metric": "aqi", "threshold": 0, "start_date": day(world, 0)},
    )
    assert aqi["triggered_dates"] == [day(world, 0)]
    assert got["alert_id"] not in base.alerts


def test_create_weather_alert_refusals(world: LocationWorld) -> None:
    args = alert_args(world)
    refused(world, "create_weather_alert", 422, **{**args, "start_date": day(world, -1)})
    refused(world, "create_weather_alert", 422, **{**args, "end_date": day(world, 0)})
    refused(world, "create_weather_alert", 422, **{**args, "end_date": day(world, 31)})
    refused(world, "create_weather_alert", 422, **{**args, "start_date": "next monday"})
    refused(world, "create_weather_alert", 422, **{**args, "threshold": 301})
    refused(world, "create_weather_alert", 422, **{**args, "metric": "aqi", "threshold": -1})
    refused(world, "create_weather_alert", 422, **{**args, "metric": "humidity"})
    refused(world, "create_weather_alert", 404, **{**args, "location": "Atlantis"})
    refused(world, "create_weather_alert", 409, **{**args, "location": "Portland"})
    active = next(a for a in world.alerts.values() if a.status == "active")
    overlap = {
        "location": active.location_id,
        "metric": active.metric,
        "comparison": active.comparison,
        "threshold": active.threshold,
        "start_date": max(active.start_date, day(world, 0)),
        "end_date": active.end_date,
    }
    refused(world, "create_weather_alert", 409, **overlap)
    assert world.written_tables() == set()


def test_update_weather_alert(world: LocationWorld) -> None:
    alert = next(a for a in world.alerts.values() if a.status == "active" and a.metric != "aqi")
    before = world.state_hash()
    got = call(
        world, "update_weather_alert", alert_id=alert.alert_id, threshold=alert.threshold + 2
    )
    assert got["threshold"] == alert.threshold + 2
    assert got["triggered_dates"] == expected_triggers(world, world.alerts[alert.alert_id])
    assert world.state_hash() != before
    paused = call(world, "update_weather_alert", alert_id=alert.alert_id.lower(), status="paused")
    assert (paused["status"], paused["triggered_dates"]) == ("paused", [])
    longer = call(world, "update_weather_alert", alert_id=alert.alert_id, end_date=day(world, 20))
    assert longer["end_date"] == day(world, 20)
    expired = next(a for a in world.alerts.values() if a.status == "expired")
    error = refused(world, "update_weather_alert", 409, alert_id=expired.alert_id, status="active")
    assert "expired" in error.message
    refused(world, "update_weather_alert", 422, alert_id=alert.alert_id)
    refused(world, "update_weather_alert", 422, alert_id=alert.alert_id, end_date="soon")
    refused(world, "update_weather_alert", 422, alert_id=alert.alert_id, end_date=day(world, 40))
    refused(world, "update_weather_alert", 422, alert_id=alert.alert_id, threshold=1000)
    refused(world, "update_weather_alert", 404, alert_id="ALR-99999", status="paused")


def test_delete_weather_alert(base: LocationWorld, world: LocationWorld) -> None:
    alert_id = next(iter(world.alerts))
    before = world.state_hash()
    assert call(world, "delete_weather_alert", alert_id=f" {alert_id.lower()} ") == {
        "alert_id": alert_id,
        "deleted": True,
    }
    assert alert_id not in world.alerts and world.state_hash() != before
    refused(world, "delete_weather_alert", 404, alert_id=alert_id)
    refused(world, "get_weather_alert", 404, alert_id=alert_id)
    assert alert_id in base.alerts


def test_fork_writes_never_leak_into_the_base(base: LocationWorld) -> None:
    with forks_of(base) as (first, second):
        call(first, "save_place", location=unsaved(first).name, label="Fork test")
        call(first, "create_weather_alert", **alert_args(first))
        call(first, "delete_weather_alert", alert_id=next(iter(first.alerts)))
    assert len(second.saved_places) == len(base.saved_places) == len(first.saved_places) - 1
    assert call(second, "save_place", location=unsaved(second).name, label="Fork test")[
        "saved_id"
    ] == (f"SP-{len(base.saved_places) + 1:05d}")


# -- the notes the hazard layer reads ----------------------------------------------------------


def test_fallback_and_v2_return_the_same_keys(base: LocationWorld) -> None:
    args = {
        "get_forecast": {"location": "Lima", "days": 2},
        "get_day_forecast": {"location": "Lima", "date": day(base, 3)},
        "get_air_quality": {"location": "Lima"},
        "compute_distance": {"from_location": "Lima", "to_location": "Cairo"},
    }
    for key in ("fallbacks", "v2"):
        for tool, alt in getattr(DOMAIN.notes, key).items():
            primary = call(base, tool, **args[tool])
            mapped = {
                new: args[tool][old] for new, old in alt.args_map.items() if old in args[tool]
            }
            second = call(base, alt.tool, **mapped)
            facts = set(primary) - {
                "issued_at",
                "provider",
                "source",
                "as_of",
                "monitor_count",
                "station_name",
            }
            assert facts <= set(second), (tool, alt.tool)
            for fact in facts:
                assert second[fact] == primary[fact], (tool, fact)


def test_unit_conversions_cover_fields_the_tools_return(base: LocationWorld) -> None:
    seen: set[str] = set()
    for name, args in read_calls(base):
        seen |= set(numeric_keys(call(base, name, **args)))
    conversions = DOMAIN.notes.unit_conversions
    assert conversions["wind_kph"].model_dump() == {
        "to_unit": "mph",
        "factor": pytest.approx(0.621371),
        "fixed": True,
    }
    assert conversions["precip_mm"].model_dump() == {
        "to_unit": "in",
        "factor": pytest.approx(0.0393701),
        "fixed": True,
    }
    assert conversions["elevation_m"].factor == pytest.approx(3.28084)
    assert conversions["distance_km"].factor == pytest.approx(0.621371)
    assert "temp_high_c" not in conversions  # Celsius to Fahrenheit is not a factor
    for field, conversion in conversions.items():
        assert field in seen, f"no tool returns {field}"
        assert conversion.factor > 0 and conversion.to_unit


@pytest.mark.parametrize("tool", sorted(DOMAIN.notes.resolvers))
def test_resolvers_turn_a_plain_name_into_its_id(base: LocationWorld, tool: str) -> None:
    how = DOMAIN.notes.resolvers[tool]
    loc = by_name(base, "Nairobi")
    found = call(base, how.tool, **{how.query_param: "Nairobi"})
    assert follow({0: found}, [0, *how.id_path]) == loc.location_id
    assert DOMAIN.tools[tool].spec.parameters["properties"][how.param]["type"] == "string"


def test_write_verifiers_find_the_record_a_write_made(world: LocationWorld) -> None:
    writes = {
        "save_place": {"location": unsaved(world).name, "label": "Verify me"},
        "create_weather_alert": alert_args(world, threshold=20),
    }
    assert set(writes) == set(DOMAIN.notes.write_verifiers)
    for tool, args in writes.items():
        created = call(world, tool, **args)
        assert domain_tools.verified_records(world, tool, args) == [created], tool


@pytest.mark.parametrize("tool", AQ_TOOLS)
def test_sources_fields_appear_in_every_source(base: LocationWorld, tool: str) -> None:
    how = DOMAIN.notes.sources[tool]
    assert how.fields == ("aqi", "pm25_ugm3") and how.time_field == "as_of"
    assert how.authoritative == "get_air_quality"
    primary = call(base, tool, location="Beijing")
    for alt in how.alternatives:
        other = call(base, alt, **{new: "Beijing" for new in how.args_map[alt]})
        for field in how.fields:
            assert other[field] == primary[field]
        assert how.time_field in other and how.time_field in primary


def test_every_field_named_in_notes_is_returned(base: LocationWorld) -> None:
    keys: set[str] = set()
    for name, args in read_calls(base):
        keys |= all_keys(call(base, name, **args))
    for how in DOMAIN.notes.sources.values():
        assert set(how.fields) | {how.time_field} <= keys
    for how in DOMAIN.notes.write_verifiers.values():
        assert set(how.match) <= keys
    for how in DOMAIN.notes.resolvers.values():
        assert how.id_path[-1] in keys
