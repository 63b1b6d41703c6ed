"""Tests of the devices domain: the seeded world, every tool, writes, forks and the notes."""

from __future__ import annotations

import itertools
import math
import time
from datetime import date, datetime, timedelta
from typing import Any

import pytest

from conftest import DomainTools, all_keys, forks_of, numeric_keys
from toolchaos.core.reference import follow
from toolchaos.core.types import ToolKind
from toolchaos.domains import DOMAINS
from toolchaos.domains.devices import DOMAIN, SOURCES
from toolchaos.domains.devices.world import DevicesWorld, add_months, version_key

# Until the registry line is committed; a no-op afterwards.
DOMAINS.setdefault("devices", "toolchaos.domains.devices:DOMAIN")

SEED = 7
SEEDS = [0, 1, 7, 42, 2026]
UNIT_SUFFIXES = (
    "_w", "_kwh", "_kwh_30d", "_usd", "_usd_per_kwh", "_gb", "_gb_7d", "_gb_per_month",
    "_mb", "_mbps", "_ms", "_km", "_kmh", "_deg", "_c", "_pct", "_hours", "_days",
    "_per_day", "_month", "_full", "_apart",
)  # fmt: skip
domain_tools = DomainTools(DOMAIN)
call, refused = domain_tools.call, domain_tools.refused


# -- helpers -------------------------------------------------------------------------------


def day(world: DevicesWorld, offset: int) -> str:
    return (world.today() + timedelta(days=offset)).isoformat()


def device(world: DevicesWorld, name: str) -> Any:
    return next(d for d in world.devices.values() if d.name == name)


def shared_service(world: DevicesWorld) -> str:
    services = [a.service for a in world.accounts.values()]
    return next(s for s in sorted(set(services)) if services.count(s) > 1)


def solo_account(world: DevicesWorld) -> Any:
    services = [a.service for a in world.accounts.values()]
    return next(a for a in world.accounts.values() if services.count(a.service) == 1)


def read_calls(world: DevicesWorld) -> list[tuple[str, dict[str, Any]]]:
    """One valid call of every READ tool, on records drawn from the world."""
    dev = device(world, "Maya's iPhone")
    drive = next(iter(world.drives.values()))
    acc = next(iter(world.accounts.values()))
    events = sorted(e.event_id for e in world.logins.values() if e.account_id == acc.account_id)
    breach = next(iter(world.breaches.values()))
    latest = world.fw_vendor[dev.model_key].latest_version
    return [
        ("search_devices", {"query": "lamp"}),
        ("get_device", {"device": dev.device_id}),
        ("get_device_v2", {"device_ref": dev.name}),
        ("get_device_energy", {"device": dev.name}),
        ("get_device_energy_vendor", {"device": dev.name}),
        ("get_device_energy_utility", {"device": dev.name}),
        ("estimate_energy_cost", {"power_w": 100, "hours_per_day": 5}),
        ("get_warranty", {"device": dev.name}),
        ("list_repair_requests", {}),
        ("get_latest_firmware", {"device": dev.name}),
        ("get_latest_firmware_mirror", {"device": dev.name}),
        ("get_latest_firmware_community", {"device": dev.name}),
        ("check_update_compatibility", {"device": dev.name, "target_version": latest}),
        ("list_scheduled_updates", {}),
        ("list_drives", {}),
        ("get_storage_usage", {"drive": drive.label}),
        ("get_storage_usage_client", {"drive": drive.drive_id}),
        ("get_storage_usage_billing", {"drive": drive.drive_id}),
        ("project_storage_quota", {"drive": drive.label}),
        ("list_folders", {"drive": drive.label}),
        ("list_backup_jobs", {}),
        ("list_network_clients", {}),
        ("get_speed_test", {"room": "Office"}),
        ("get_speed_test_app", {"room": "office"}),
        ("get_speed_test_mlab", {"room": "Garage"}),
        ("search_accounts", {"query": acc.service}),
        ("get_account_security", {"account": acc.account_id}),
        ("get_account_security_v2", {"account_ref": acc.account_id}),
        ("check_password_policy", {"account": acc.account_id}),
        ("list_login_events", {"account": acc.account_id}),
        ("check_impossible_travel", {"first_event": events[0], "second_event": events[1]}),
        ("list_breach_notices", {}),
        ("get_breach", {"breach": breach.breach_id}),
        ("get_breach_index", {"breach": breach.service}),
        ("get_breach_press", {"breach": breach.breach_id}),
        ("list_app_permissions", {"device": dev.name}),
        ("list_privacy_requests", {}),
    ]


# -- the domain as declared ----------------------------------------------------------------


def test_read_calls_cover_every_read_tool(base: DevicesWorld) -> None:
    reads = {name for name, t in DOMAIN.tools.items() if t.kind is ToolKind.READ}
    assert {name for name, _ in read_calls(base)} == reads
    writes = {name for name, t in DOMAIN.tools.items() if t.kind is ToolKind.WRITE}
    assert writes == set(DOMAIN.notes.write_verifiers)
    assert 25 <= len(DOMAIN.tools) <= 50 and len(writes) >= 4


@pytest.mark.parametrize("name", sorted(DOMAIN.tools))
def test_shared_phrases_are_filled_into_the_docs(name: str) -> None:
    spec = DOMAIN.tools[name].spec
    assert "{" not in spec.description
    for prop, schema in spec.parameters["properties"].items():
        assert "{" not in schema["description"], f"{name}.{prop} has an unfilled phrase"


# -- the seeded world ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_world_tables_are_consistent(seed: int) -> None:
    w = DevicesWorld.build(seed)
    assert len(w.devices) >= 40 and len(w.accounts) >= 24 and len(w.logins) >= 100
    names = [d.name.casefold() for d in w.devices.values()]
    assert len(set(names)) == len(names)
    for dev in w.devices.values():
        assert dev.purchase_date < day(w, 0)
        versions = [r.version for r in w.model_releases(dev.model_key)]
        assert dev.firmware_version in versions
        assert versions == sorted(versions, key=version_key)
        assert (dev.brightness_pct is not None) == (dev.category == "light")
    for acc in w.accounts.values():
        assert acc.created_on <= acc.password_changed_on <= day(w, 0)
    for event in w.logins.values():
        assert event.account_id in w.accounts and event.at <= w.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    for drive in w.drives.values():
        assert 0 < w.usage_provider[drive.drive_id].used_gb < drive.quota_gb
    assert len({d.label for d in w.drives.values()}) == len(w.drives)
    assert w.id_counters == {
        "RPR": len(w.repairs),
        "UPD": len(w.updates),
        "BKP": len(w.backup_jobs),
        "PRV": len(w.privacy_requests),
    }


def test_world_builds_fast_and_deterministically() -> None:
    start = time.perf_counter()
    first = DevicesWorld.build(3)
    assert time.perf_counter() - start < 1.0  # generous: well under 0.2 s on a quiet machine
    assert first.state_hash() == DevicesWorld.build(3).state_hash()
    assert first.state_hash() != DevicesWorld.build(4).state_hash()


@pytest.mark.parametrize("seed", SEEDS)
def test_the_three_sources_of_each_fact_agree(seed: int) -> None:
    w = DevicesWorld.build(seed)
    keys = {
        "device": [d.device_id for d in w.devices.values()],
        "room": ["Office", "Garage", "Porch"],
        "drive": list(w.drives),
        "breach": list(w.breaches),
    }
    for tools, param, fields in SOURCES.values():
        for key in keys[param]:
            results = [call(w, tool, **{param: key}) for tool in tools]
            for field in fields:
                assert len({r[field] for r in results}) == 1, (tools, field)
            assert len({r["source"] for r in results}) == 3
            for r in results:
                stamp = datetime.fromisoformat(r["as_of"].replace("Z", "+00:00"))
                assert stamp <= w.now()
    assert "authoritative" in DOMAIN.tools["get_device_energy"].spec.description


# -- custom logic ----------------------------------------------------------------------------


def test_version_order_compares_numbers_not_text() -> None:
    assert version_key("1.10.4") > version_key("1.9.12")
    assert version_key("03.30.70") > version_key("03.20.41")
    assert sorted(["17.6.1", "18.1.1", "17.5.1"], key=version_key) == ["17.5.1", "17.6.1", "18.1.1"]


@pytest.mark.parametrize(
    ("start", "months", "end"),
    [
        (date(2025, 1, 31), 1, date(2025, 2, 28)),
        (date(2024, 1, 31), 1, date(2024, 2, 29)),
        (date(2024, 11, 15), 24, date(2026, 11, 15)),
        (date(2025, 12, 31), 3, date(2026, 3, 31)),
    ],
)
def test_add_months_clamps_to_the_month_end(start: date, months: int, end: date) -> None:
    assert add_months(start, months) == end


def test_energy_cost(base: DevicesWorld) -> None:
    got = call(base, "estimate_energy_cost", power_w=1500, hours_per_day=3, days=30)
    assert got["energy_kwh"] == 135.0
    assert got["cost_usd"] == round(135 * base.rate_usd_per_kwh + 1e-9, 2)
    assert call(base, "estimate_energy_cost", power_w=60, hours_per_day=2.5)["days"] == 30
    for bad in ({"power_w": -1, "hours_per_day": 2}, {"power_w": 5, "hours_per_day": 25}):
        refused(base, "estimate_energy_cost", 422, **bad)
    refused(base, "estimate_energy_cost", 422, power_w=5, hours_per_day=2, days=0)


def test_device_energy_follows_draw_and_use(base: DevicesWorld) -> None:
    dev = device(base, "Space Heater Plug")
    got = call(base, "get_device_energy", device="space heater plug")
    assert got["energy_kwh_30d"] == round(dev.power_w * dev.hours_per_day * 30 / 1000, 2)
    assert got["avg_power_w"] == round(got["energy_kwh_30d"] * 1000 / 720, 1)
    refused(base, "get_device_energy", 404, device="Toaster")


def test_warranty_expiry(base: DevicesWorld) -> None:
    for dev in base.devices.values():
        got = call(base, "get_warranty", device=dev.device_id)
        months = dev.warranty_months + dev.protection_plan_months
        ends = add_months(date.fromisoformat(dev.purchase_date), months)
        assert got["coverage_ends"] == ends.isoformat()
        assert got["in_warranty"] == (ends >= base.today())
        assert got["days_remaining"] == max(0, (ends - base.today()).days)


def test_update_compatibility(base: DevicesWorld) -> None:
    checked = 0
    for dev in base.devices.values():
        releases = base.model_releases(dev.model_key)
        current = version_key(dev.firmware_version)
        for rel in releases:
            got = call(
                base, "check_update_compatibility", device=dev.name, target_version=rel.version
            )
            newer = version_key(rel.version) > current
            bridged = rel.requires_version is None or current >= version_key(rel.requires_version)
            assert got["compatible"] == (newer and bridged)
            assert got["releases_behind"] == sum(version_key(r.version) > current for r in releases)
            checked += 1
    assert checked > 80
    refused(base, "check_update_compatibility", 404, device="Sofa Lamp", target_version="99.0")


def test_storage_projection(base: DevicesWorld) -> None:
    drive = next(iter(base.drives.values()))
    used = base.usage_provider[drive.drive_id].used_gb
    got = call(base, "project_storage_quota", drive=drive.label.upper())
    free = round(drive.quota_gb - used, 1)
    assert got["free_gb"] == free
    assert got["months_until_full"] == round(free / drive.growth_gb_per_month, 2)
    days = round(got["months_until_full"] * 30.44)
    assert got["full_on"] == (base.today() + timedelta(days=days)).isoformat()
    faster = call(base, "project_storage_quota", drive=drive.drive_id, growth_gb_per_month=free)
    assert faster["months_until_full"] == 1.0
    refused(base, "project_storage_quota", 422, drive=drive.drive_id, growth_gb_per_month=0)
    refused(base, "project_storage_quota", 404, drive="Nobody's Drive")


def test_password_policy(base: DevicesWorld) -> None:
    for acc in base.accounts.values():
        got = call(base, "check_password_policy", account=acc.account_id, max_age_days=180)
        age = (base.today() - date.fromisoformat(acc.password_changed_on)).days
        assert got["password_age_days"] == age
        assert ("too_old" in got["violations"]) == (age > 180)
        assert ("reused" in got["violations"]) == acc.reused
        assert ("too_short" in got["violations"]) == (acc.password_length < got["min_length"])
        assert got["compliant"] == (got["violations"] == [])
    acc = next(iter(base.accounts.values()))
    strict = call(base, "check_password_policy", account=acc.account_id, min_length=64)
    assert "too_short" in strict["violations"]
    refused(base, "check_password_policy", 422, account=acc.account_id, max_age_days=5)


def test_impossible_travel(base: DevicesWorld) -> None:
    events = sorted(base.logins.values(), key=lambda e: (e.account_id, e.at))
    flagged = 0
    for a, b in itertools.pairwise(events):
        if a.account_id != b.account_id:
            continue
        got = call(base, "check_impossible_travel", first_event=a.event_id, second_event=b.event_id)
        p1, p2 = math.radians(a.latitude_deg), math.radians(b.latitude_deg)
        dl = math.radians(b.longitude_deg - a.longitude_deg)
        h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
        assert got["distance_km"] == round(2 * 6371.0088 * math.asin(math.sqrt(h)), 1)
        hours = datetime.fromisoformat(b.at[:-1]) - datetime.fromisoformat(a.at[:-1])
        assert got["hours_apart"] == round(hours.total_seconds() / 3600, 2)
        assert got["impossible"] == (got["speed_kmh"] > 900)
        flagged += got["impossible"]
    assert flagged >= 1
    event = events[0].event_id
    refused(base, "check_impossible_travel", 422, first_event=event, second_event=event)
    refused(base, "check_impossible_travel", 404, first_event=event, second_event="LGN-99999")


# -- names, ids and refusals -----------------------------------------------------------------


def test_names_and_ids_resolve_in_any_case(base: DevicesWorld) -> None:
    dev = device(base, "Kitchen Speaker")
    for text in (dev.device_id, dev.device_id.lower(), " kitchen speaker "):
        assert call(base, "get_device", device=text)["device_id"] == dev.device_id
    found = call(base, "search_devices", query="Kitchen Speaker")
    assert found["results"][0]["device_id"] == dev.device_id
    assert call(base, "get_device_v2", device_ref="kitchen speaker") == call(
        base, "get_device", device=dev.device_id
    )
    refused(base, "get_device", 404, device="Toaster")
    refused(base, "get_device", 422, device="  ")


def test_shared_service_names_are_ambiguous(base: DevicesWorld) -> None:
    service = shared_service(base)
    error = refused(base, "get_account_security", 409, account=service)
    members = [a for a in base.accounts.values() if a.service == service]
    assert sorted(error.details["candidates"]) == sorted(a.account_id for a in members)
    for acc in members:
        query = f"{service}, {acc.member}"
        assert call(base, "get_account_security", account=query)["account_id"] == acc.account_id
        found = call(base, "search_accounts", query=query)
        assert [r["account_id"] for r in found["results"]] == [acc.account_id]
    solo = solo_account(base)
    assert call(base, "get_account_security", account=solo.service)["account_id"] == solo.account_id


def test_results_are_json_with_units_in_float_names(base: DevicesWorld) -> None:
    for name, result in domain_tools.read_results(base, read_calls(base)):
        for key in numeric_keys(result, floats_only=True):
            assert key.endswith(UNIT_SUFFIXES), f"{name} returns unitless {key}"


def test_read_tools_do_not_change_the_world(world: DevicesWorld) -> None:
    domain_tools.check_reads_change_nothing(world, read_calls(world))


def test_listings_filter_and_sort(base: DevicesWorld) -> None:
    office = call(base, "search_devices", room="office")
    assert office["total"] == sum(d.room == "Office" for d in base.devices.values())
    blocked = call(base, "list_network_clients", access="blocked")
    assert all(c["access"] == "blocked" for c in blocked["results"])
    drive = next(iter(base.drives.values()))
    folders = call(base, "list_folders", drive=drive.drive_id)["results"]
    assert [f["size_gb"] for f in folders] == sorted((f["size_gb"] for f in folders), reverse=True)
    acc = next(iter(base.accounts.values()))
    events = call(base, "list_login_events", account=acc.account_id)["results"]
    assert [e["at"] for e in events] == sorted((e["at"] for e in events), reverse=True)
    notices = call(base, "list_breach_notices")["results"]
    assert notices and all(n["breach_id"] in base.breaches for n in notices)


# -- writes ----------------------------------------------------------------------------------


def online(world: DevicesWorld, category: str) -> Any:
    return next(d for d in world.devices.values() if d.category == category and d.online)


def test_set_device_state(world: DevicesWorld) -> None:
    lamp = online(world, "light")
    got = call(world, "set_device_state", device=lamp.name, power_state="on", brightness_pct=40)
    assert (got["power_state"], got["brightness_pct"]) == ("on", 40)
    thermostat = online(world, "thermostat")
    got = call(
        world, "set_device_state", device=thermostat.device_id, power_state="on", target_temp_c=22
    )
    assert got["target_temp_c"] == 22.0
    refused(world, "set_device_state", 422, device=lamp.name, power_state="on", target_temp_c=20)
    refused(world, "set_device_state", 422, device=lamp.name, power_state="on", brightness_pct=0)
    offline = next((d for d in world.devices.values() if not d.online), None)
    if offline is not None:
        refused(world, "set_device_state", 409, device=offline.name, power_state="on")


def test_repair_requests(world: DevicesWorld) -> None:
    busy = {r.device_id for r in world.repairs.values() if r.status in ("open", "scheduled")}
    dev = next(d for d in world.devices.values() if d.device_id not in busy)
    args = {"device": dev.name, "issue": "no sound", "dropoff_date": day(world, 5)}
    got = call(world, "create_repair_request", **args)
    covered = call(world, "get_warranty", device=dev.name)["coverage_ends"] >= day(world, 5)
    assert got["repair_id"] == f"RPR-{len(world.repairs):05d}" and got["covered"] == covered
    assert (got["estimate_usd"] == 0) == covered
    refused(world, "create_repair_request", 409, **args)
    other = next(d for d in world.devices.values() if d.device_id not in busy | {dev.device_id})
    refused(
        world,
        "create_repair_request",
        422,
        **{**args, "device": other.name, "dropoff_date": day(world, 0)},
    )
    refused(
        world,
        "create_repair_request",
        422,
        **{**args, "device": other.name, "dropoff_date": "soon"},
    )
    cancelled = call(world, "cancel_repair_request", repair_id=got["repair_id"].lower())
    assert cancelled["status"] == "cancelled"
    refused(world, "cancel_repair_request", 409, repair_id=got["repair_id"])


def test_schedule_update(world: DevicesWorld) -> None:
    pending = {u.device_id for u in world.updates.values()}
    dev = next(
        d
        for d in world.devices.values()
        if d.device_id not in pending
        and call(
            world,
            "check_update_compatibility",
            device=d.device_id,
            target_version=world.fw_vendor[d.model_key].latest_version,
        )["compatible"]
    )
    latest = world.fw_vendor[dev.model_key].latest_version
    got = call(world, "schedule_update", device=dev.name, version=latest, date=day(world, 3))
    assert (got["from_version"], got["to_version"]) == (dev.firmware_version, latest)
    refused(world, "schedule_update", 409, device=dev.name, version=latest, date=day(world, 4))
    refused(
        world,
        "schedule_update",
        422,
        device=dev.name,
        version=dev.firmware_version,
        date=day(world, 4),
    )


def test_backup_jobs(world: DevicesWorld) -> None:
    drive = max(world.drives.values(), key=lambda d: d.quota_gb)
    dev = next(
        d
        for d in world.devices.values()
        if d.category == "phone"
        and not any(
            j.device_id == d.device_id and j.drive_id == drive.drive_id
            for j in world.backup_jobs.values()
        )
    )
    got = call(world, "create_backup_job", device=dev.name, drive=drive.label, frequency="weekly")
    assert (got["device_id"], got["drive_id"], got["status"]) == (
        dev.device_id,
        drive.drive_id,
        "active",
    )
    refused(
        world, "create_backup_job", 409, device=dev.name, drive=drive.drive_id, frequency="daily"
    )
    refused(
        world,
        "create_backup_job",
        422,
        device="Porch Light",
        drive=drive.drive_id,
        frequency="daily",
    )
    tiny = min(
        world.drives.values(), key=lambda d: d.quota_gb - world.usage_provider[d.drive_id].used_gb
    )
    nas = device(world, "Home NAS")
    if nas.storage_used_gb > tiny.quota_gb - world.usage_provider[tiny.drive_id].used_gb:
        refused(
            world, "create_backup_job", 422, device=nas.name, drive=tiny.drive_id, frequency="daily"
        )


def test_security_writes(world: DevicesWorld) -> None:
    acc = next(a for a in world.accounts.values() if a.two_factor == "none")
    got = call(world, "enable_two_factor", account=acc.account_id, method="security_key")
    assert got["two_factor"] == "security_key"
    refused(world, "enable_two_factor", 409, account=acc.account_id, method="security_key")
    grant = next(g for g in world.permissions.values() if g.access == "always")
    dev = world.devices[grant.device_id]
    args = {"device": dev.name, "app": grant.app.lower(), "permission": grant.permission}
    assert call(world, "set_app_permission", **args, access="denied")["access"] == "denied"
    refused(world, "set_app_permission", 409, **args, access="denied")
    refused(world, "set_app_permission", 404, **{**args, "app": "NoSuchApp"}, access="ask")
    client = next(c for c in world.clients.values() if c.access == "allowed")
    assert (
        call(world, "set_client_access", client=client.hostname, access="blocked")["access"]
        == "blocked"
    )


def test_privacy_requests(world: DevicesWorld) -> None:
    acc = solo_account(world)
    kinds = {r.kind for r in world.privacy_requests.values() if r.account_id == acc.account_id}
    kind = next(k for k in ("export", "deletion", "correction", "opt_out") if k not in kinds)
    got = call(world, "create_privacy_request", account=acc.service, kind=kind)
    days = (date.fromisoformat(got["due_date"]) - world.today()).days
    assert days in (30, 45) and got["days_left"] == days and got["status"] == "submitted"
    refused(world, "create_privacy_request", 409, account=acc.account_id, kind=kind)
    listed = call(world, "list_privacy_requests", account=acc.account_id, kind=kind)
    assert [r["request_id"] for r in listed["results"]][-1] == got["request_id"]


def test_fork_writes_never_leak_into_the_base(base: DevicesWorld) -> None:
    with forks_of(base) as (first, second):
        acc = solo_account(first)
        call(first, "create_privacy_request", account=acc.account_id, kind="correction")
        lamp = online(first, "light")
        call(first, "set_device_state", device=lamp.name, power_state="off")
    assert len(second.privacy_requests) == len(base.privacy_requests)


# -- the notes the hazard layer reads ----------------------------------------------------------


def test_fallbacks_and_v2_return_the_same_facts(base: DevicesWorld) -> None:
    drive = next(iter(base.drives.values()))
    args = {
        "get_device_energy": {"device": "Living Room TV"},
        "get_latest_firmware": {"device": "Living Room TV"},
        "get_speed_test": {"room": "Kitchen"},
        "get_storage_usage": {"drive": drive.label},
        "get_breach": {"breach": next(iter(base.breaches))},
        "get_device": {"device": "Living Room TV"},
        "get_account_security": {"account": solo_account(base).account_id},
    }
    for key in ("fallbacks", "v2"):
        for tool, alt in getattr(DOMAIN.notes, key).items():
            primary = call(base, tool, **args[tool])
            mapped = {new: args[tool][old] for new, old in alt.args_map.items()}
            second = call(base, alt.tool, **mapped)
            for fact in set(primary) - {"as_of", "source"}:
                if fact in second:
                    assert second[fact] == primary[fact], (tool, fact)
            assert set(primary) - {"as_of", "source"} - set(second) <= {
                "samples", "notes_language_count", "test_streams", "api_region", "filing_amendments"
            }  # fmt: skip


def test_unit_conversions_cover_fields_the_tools_return(base: DevicesWorld) -> None:
    seen: set[str] = set()
    for name, args in read_calls(base):
        seen |= set(numeric_keys(call(base, name, **args)))
    for field, conversion in DOMAIN.notes.unit_conversions.items():
        assert field in seen, f"no tool returns {field}"
        assert conversion.factor > 0 and conversion.to_unit
    assert len(DOMAIN.notes.unit_conversions) >= 3


@pytest.mark.parametrize("tool", sorted(DOMAIN.notes.resolvers))
def test_resolvers_turn_a_name_into_its_id(base: DevicesWorld, tool: str) -> None:
    how = DOMAIN.notes.resolvers[tool]
    names = {
        "search_devices": ("Living Room TV", device(base, "Living Room TV").device_id),
        "search_accounts": (solo_account(base).service, solo_account(base).account_id),
        "list_drives": (next(iter(base.drives.values())).label, next(iter(base.drives))),
    }
    if how.tool == "list_breach_notices":
        notice = call(base, "list_breach_notices")["results"][0]
        name, expected = notice["service"], notice["breach_id"]
    else:
        name, expected = names[how.tool]
    found = call(base, how.tool, **{how.query_param: name})
    assert follow({0: found}, [0, *how.id_path]) == expected
    assert DOMAIN.tools[tool].spec.parameters["properties"][how.param]["type"] == "string"


def test_write_verifiers_find_the_record_a_write_made(world: DevicesWorld) -> None:
    busy = {r.device_id for r in world.repairs.values() if r.status in ("open", "scheduled")}
    free = next(d for d in world.devices.values() if d.device_id not in busy and d.online)
    pending = {u.device_id for u in world.updates.values()}
    updatable = next(
        d
        for d in world.devices.values()
        if d.device_id not in pending
        and call(
            world,
            "check_update_compatibility",
            device=d.device_id,
            target_version=world.fw_vendor[d.model_key].latest_version,
        )["compatible"]
    )
    drive = max(world.drives.values(), key=lambda d: d.quota_gb)
    phone = next(
        d
        for d in world.devices.values()
        if d.category == "phone"
        and not any(
            j.device_id == d.device_id and j.drive_id == drive.drive_id
            for j in world.backup_jobs.values()
        )
    )
    acc = next(a for a in world.accounts.values() if a.two_factor != "authenticator_app")
    grant = next(g for g in world.permissions.values() if g.access != "ask")
    solo = solo_account(world)
    kinds = {r.kind for r in world.privacy_requests.values() if r.account_id == solo.account_id}
    client = next(c for c in world.clients.values() if c.access == "allowed")
    repair = next(r for r in world.repairs.values() if r.status in ("open", "scheduled"))
    latest = world.fw_vendor[updatable.model_key].latest_version
    kind = next(k for k in ("export", "deletion", "correction", "opt_out") if k not in kinds)
    grant_args = {"device": grant.device_id, "app": grant.app, "permission": grant.permission}
    writes: dict[str, dict[str, Any]] = {
        "set_device_state": {"device": free.device_id, "power_state": "on"},
        "create_repair_request": {
            "device": free.device_id,
            "issue": "no sound",
            "dropoff_date": day(world, 4),
        },
        "cancel_repair_request": {"repair_id": repair.repair_id},
        "schedule_update": {
            "device": updatable.device_id,
            "version": latest,
            "date": day(world, 2),
        },
        "create_backup_job": {
            "device": phone.device_id,
            "drive": drive.drive_id,
            "frequency": "monthly",
        },
        "set_client_access": {"client": client.client_id, "access": "blocked"},
        "enable_two_factor": {"account": acc.account_id, "method": "authenticator_app"},
        "set_app_permission": {**grant_args, "access": "ask"},
        "create_privacy_request": {"account": solo.account_id, "kind": kind},
    }
    assert set(writes) == set(DOMAIN.notes.write_verifiers)
    for tool, args in writes.items():
        created = call(world, tool, **args)
        records = domain_tools.verified_records(world, tool, args)
        assert created in records or any(
            all(r.get(k) == v for k, v in created.items() if k in r) for r in records
        ), tool


def test_every_field_named_in_notes_is_returned(base: DevicesWorld) -> None:
    keys: set[str] = set()
    for name, args in read_calls(base):
        keys |= all_keys(call(base, name, **args))
    for how in DOMAIN.notes.sources.values():
        assert set(how.fields) | {how.time_field} <= keys
        assert how.authoritative in DOMAIN.tools
    for how in DOMAIN.notes.write_verifiers.values():
        assert set(how.match) <= keys
    for how in DOMAIN.notes.resolvers.values():
        assert how.id_path[-1] in keys
