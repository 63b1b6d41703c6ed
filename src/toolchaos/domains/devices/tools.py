"""The devices tools: household gadgets, warranties, firmware, cloud storage, Wi-Fi, security.

Lookups and listings of records are declared through the shared shapes where they fit;
energy cost, warranty expiry, update compatibility, storage projection, password policy
and impossible travel are written by hand. Every ``device`` parameter takes a device id or
the device's name ("Hall Light"); every ``account`` parameter takes an account id or a
service name, qualified with the member when several members use it ("StreamNest,
Maya"); ``drive`` takes a drive id or its label ("Maya's DriveBox"); ``breach`` takes a
breach id or the breached service's name. Refusals are :class:`ToolError`: 404 for an
unknown id or name, 409 for an ambiguous name or a record in the wrong state, 422 for a
request that breaks a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Literal, cast

from toolchaos.core.tools import Tool
from toolchaos.core.types import ToolKind
from toolchaos.core.values import is_number
from toolchaos.core.world import World
from toolchaos.domains._common import (
    conflict,
    date_arg,
    find_key,
    haversine_km,
    is_integer,
    listing,
    money,
    not_found,
    row_json,
    stamp,
    stored_key,
    text_arg,
    unprocessable,
)
from toolchaos.domains._shapes import Source, phrased_tool, source_tools
from toolchaos.domains.devices import data
from toolchaos.domains.devices.world import (
    APP_CATEGORIES,
    STORAGE_CATEGORIES,
    Account,
    AppPermission,
    BackupJob,
    CloudDrive,
    Device,
    DevicesWorld,
    NetworkClient,
    PrivacyRequest,
    RepairRequest,
    ScheduledUpdate,
    add_months,
    version_key,
)

MAX_AHEAD_DAYS = 60
MAX_FLIGHT_KMH = 900.0
SERVICES = {s.name.casefold(): s for s in data.SERVICES}

DEVICE_DOC = (
    "A device id (e.g. 'DEV-1234') or the device's name, e.g. 'Hall Light' (case-"
    "insensitive); search_devices returns the device_id."
)
ACCOUNT_DOC = (
    "An account id (e.g. 'ACC-1234') or the service's name, e.g. 'StreamNest'. When several "
    "household members use the service, qualify it with the member, e.g. 'StreamNest, "
    "Maya', or pass the account_id from search_accounts."
)
DRIVE_DOC = (
    "A drive id (e.g. 'DRV-123') or the drive's label, e.g. \"Maya's DriveBox\"; "
    "list_drives returns the drive_id."
)
BREACH_DOC = (
    "A breach id (e.g. 'BR-123') or the breached service's name, e.g. 'ShopRiver'; "
    "list_breach_notices returns the breach_id."
)
ROOM_DOC = "The room, one of: " + ", ".join(data.ROOMS) + "."

_ENERGY_DOC = (
    "device_id, name, model, energy_kwh_30d (energy used over the last 30 days, kWh), "
    "avg_power_w (average draw over those 30 days, watts), as_of (UTC time of the "
    "reading) and source"
)

_REPAIR_DOC = (
    "repair_id, device_id, device_name, issue, dropoff_date (YYYY-MM-DD), covered (true "
    "when the device is under warranty on the drop-off date), estimate_usd (0 when "
    "covered), status (open, scheduled, completed, cancelled) and created_at"
)

_FIRMWARE_DOC = (
    "device_id, name, model, installed_version, latest_version, latest_build (the "
    "release's build number), size_mb (download size, megabytes), release_date "
    "(YYYY-MM-DD), update_available, as_of (UTC time the source was last updated) and "
    "source"
)

_USAGE_DOC = (
    "drive_id, label, quota_gb, used_gb (gigabytes in use), file_count, as_of (UTC time "
    "of the figure) and source"
)

_JOB_DOC = (
    "job_id, device_id, device_name, drive_id, drive_label, frequency (daily, weekly, "
    "monthly), status (active, paused, failing), last_run_at (UTC, null before the first "
    "run), last_size_gb (gigabytes copied last time) and created_at"
)

_CLIENT_DOC = (
    "client_id, hostname, device_id (null for a device not in the household's list), "
    "room, ip_address, mac_address, band (2.4GHz, 5GHz, 6GHz), signal_dbm (received "
    "signal, dBm; closer to 0 is stronger), link_mbps (negotiated link rate, Mbit/s), "
    "data_gb_7d (data used over the last 7 days, gigabytes), access (allowed or blocked) "
    "and connected_since (UTC)"
)

_SPEED_DOC = (
    "room, download_mbps and upload_mbps (Mbit/s), latency_ms (milliseconds), plan_mbps "
    "(the internet plan's download speed), as_of (UTC time of the test) and source"
)

_SECURITY_DOC = (
    "account_id, member, service, username, created_on, two_factor (none, sms, "
    "authenticator_app, security_key), password_length (characters), "
    "password_changed_on (YYYY-MM-DD), password_age_days, password_strength (very_weak, "
    "weak, fair, strong, very_strong), reused (the password is used elsewhere) and "
    "exposed_in_breach (a breach of the service happened while this password was set)"
)

_BREACH_DOC = (
    "breach_id, service, breach_date and disclosed_on (YYYY-MM-DD), records_affected (the "
    "number of records exposed), data_classes, as_of (UTC time of the figure) and source"
)

_GRANT_DOC = (
    "grant_id, device_id, device_name, app, permission (camera, microphone, location, "
    "contacts, photos, bluetooth, calendar), access (always, while_using, ask, denied), "
    "last_used_at (UTC, null if unused for 60 days) and uses_30d (accesses in the last "
    "30 days)"
)

_REQUEST_DOC = (
    "request_id, account_id, service, member, kind (export, deletion, correction, "
    "opt_out), status (submitted, in_progress, completed, rejected), submitted_on, "
    "due_date (the legal deadline to answer, YYYY-MM-DD), completed_on and days_left "
    "(until due_date, for open requests; null otherwise)"
)

_DEVICE_FIELDS_DOC = (
    "device_id, name, category, brand, model, room, owner, purchase_date (YYYY-MM-DD), "
    "retailer, price_usd (price paid, US dollars), warranty_months (the maker's warranty), "
    "protection_plan_months (an extra protection plan, 0 if none), serial_number, "
    "firmware_version (installed), power_w (typical draw while on, watts; for a smart "
    "plug, the appliance it feeds), hours_per_day (typical daily use), load (what a smart "
    "plug feeds, else null), storage_used_gb (data on the device, gigabytes), power_state, "
    "brightness_pct (lights), target_temp_c (thermostats, degrees Celsius) and online"
)


DOC_PHRASES = {
    "fields": _DEVICE_FIELDS_DOC,
    "device": DEVICE_DOC,
    "account": ACCOUNT_DOC,
    "drive": DRIVE_DOC,
    "breach": BREACH_DOC,
    "room": ROOM_DOC,
    "energy": _ENERGY_DOC,
    "repairs": _REPAIR_DOC,
    "firmware": _FIRMWARE_DOC,
    "usage": _USAGE_DOC,
    "jobs": _JOB_DOC,
    "clients": _CLIENT_DOC,
    "speed": _SPEED_DOC,
    "security": _SECURITY_DOC,
    "breach_fields": _BREACH_DOC,
    "grants": _GRANT_DOC,
    "requests": _REQUEST_DOC,
}


def _w(world: World) -> DevicesWorld:
    return cast(DevicesWorld, world)


_tool = phrased_tool(DOC_PHRASES)


def _future_day(world: DevicesWorld, value: Any, param: str) -> date:
    day = date_arg(value, param, "a calendar date")
    today = world.today()
    if day <= today:
        raise unprocessable(f"{param} must be after today ({today.isoformat()})")
    if day > today + timedelta(days=MAX_AHEAD_DAYS):
        raise unprocessable(f"{param} must be at most {MAX_AHEAD_DAYS} days ahead")
    return day


def _as_is(detail: int) -> Any:
    return detail


@dataclass(frozen=True)
class _Source(Source):
    """A devices source: its ``extra`` field is its row's ``detail``, through ``convert``."""

    convert: Callable[[int], Any] = _as_is


def _stamped(out: dict[str, Any], row: Any, source: _Source) -> dict[str, Any]:
    """A fact's fields as ``source`` reports them: when, by whom, and its own extra field."""
    out.update(as_of=row.as_of, source=source.name)
    out[source.extra] = source.convert(row.detail)
    return out


_WORLD_ARG = """
    Args:
        world: The household (not shown to the agent)."""
_DEVICE_ARGS = _WORLD_ARG + "\n        device: {device}\n"
_DRIVE_ARGS = _WORLD_ARG + "\n        drive: {drive}\n"
_ROOM_ARGS = _WORLD_ARG + "\n        room: {room}\n"
_BREACH_ARGS = _WORLD_ARG + "\n        breach: {breach}\n"


def _named(table: dict[str, Any], text: str, name_of: Callable[[Any], str], entity: str) -> Any:
    """The row ``text`` names: its key, else the first whose name matches; 404 otherwise."""
    key = find_key(table, text)
    if key is not None:
        return table[key]
    for row in table.values():
        if name_of(row).casefold() == text.casefold():
            return row
    raise not_found(entity, text)


def _with_device_name(world: DevicesWorld, row: Any) -> dict[str, Any]:
    """A row about a device as JSON, with the device's name (null once it is gone)."""
    out = row_json(row)
    device = world.devices.get(row.device_id)
    out["device_name"] = device.name if device is not None else None
    return out


# -- devices ---------------------------------------------------------------------------------


def _device_matches(world: DevicesWorld, query: str) -> list[Device]:
    """Devices whose name or id contains ``query``; exact name matches first."""
    folded = query.strip().casefold()
    found = [
        d
        for d in world.devices.values()
        if folded in d.name.casefold() or folded == d.device_id.casefold()
    ]
    return sorted(found, key=lambda d: (d.name.casefold() != folded, d.name))


def _of_device(world: DevicesWorld, rows: list[Any], device: str | None) -> list[Any]:
    """The rows about ``device``, or all of them when no device is given."""
    if device is None:
        return rows
    found = resolve_device(world, device)
    return [r for r in rows if r.device_id == found.device_id]


def _device_records(
    world: DevicesWorld, rows: list[Any], device: str | None, status: str | None
) -> dict[str, Any]:
    """A listing of the rows about ``device`` in ``status``; a filter not given is skipped."""
    rows = _of_device(world, rows, device)
    if status is not None:
        rows = [r for r in rows if r.status == status]
    return listing(rows, 50, lambda r: _with_device_name(world, r))


def resolve_device(world: World, value: Any, param: str = "device") -> Device:
    """Return the device a name-or-id parameter names, or raise 404/422."""
    found: Device = _named(_w(world).devices, text_arg(value, param), lambda d: d.name, "Device")
    return found


def _device_head(device: Device) -> dict[str, Any]:
    return {"device_id": device.device_id, "name": device.name, "model": device.model}


def _device_summary(device: Device) -> dict[str, Any]:
    return {
        "device_id": device.device_id,
        "name": device.name,
        "category": device.category,
        "brand": device.brand,
        "model": device.model,
        "room": device.room,
        "owner": device.owner,
        "firmware_version": device.firmware_version,
        "power_state": device.power_state,
        "online": device.online,
    }


def _device_view(device: Device) -> dict[str, Any]:
    out = row_json(device)
    out.pop("model_key")
    return out


@_tool()
def search_devices(
    world: DevicesWorld,
    query: str | None = None,
    category: Literal[
        "thermostat",
        "light",
        "plug",
        "camera",
        "speaker",
        "tv",
        "phone",
        "laptop",
        "tablet",
        "router",
        "vacuum",
        "purifier",
        "nas",
        "console",
        "lock",
    ]
    | None = None,
    room: str | None = None,
    owner: str | None = None,
) -> dict[str, Any]:
    """Search the household's devices; use it to find the device_id other tools accept.

    Every filter given must match. Each result has device_id, name, category, brand,
    model, room, owner (a household member, or 'shared'), firmware_version, power_state
    ('on' or 'off') and online. A device whose name equals the query comes first, the
    rest by name; up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The household (not shown to the agent).
        query: Part of a device name, or a device id.
        category: Only devices of this category.
        room: Only devices in this room (case-insensitive), e.g. 'Office'.
        owner: Only devices of this member ('Maya', 'Daniel', 'Priya', 'Leo' or 'shared').
    """
    rows = _device_matches(world, query) if query and query.strip() else None
    if rows is None:
        rows = sorted(world.devices.values(), key=lambda d: d.name)
    if category is not None:
        rows = [d for d in rows if d.category == category]
    if room is not None:
        rows = [d for d in rows if d.room.casefold() == room.strip().casefold()]
    if owner is not None:
        rows = [d for d in rows if d.owner.casefold() == owner.strip().casefold()]
    return listing(rows, 50, _device_summary)


@_tool()
def get_device(world: DevicesWorld, device: str) -> dict[str, Any]:
    """Get one device: {fields}.

    get_device_v2 is the newer version of this endpoint; this one still works.

    Args:
        world: The household (not shown to the agent).
        device: {device}
    """
    return _device_view(resolve_device(world, device))


@_tool(name="get_device_v2")
def get_device_v2(world: DevicesWorld, device_ref: str) -> dict[str, Any]:
    """Version 2 of get_device: the same device record, parameter renamed.

    Takes device_ref (was device); returns exactly the keys get_device returns.

    Args:
        world: The household (not shown to the agent).
        device_ref: {device}
    """
    return _device_view(resolve_device(world, device_ref, "device_ref"))


@_tool(ToolKind.WRITE)
def set_device_state(
    world: DevicesWorld,
    device: str,
    power_state: Literal["on", "off"],
    brightness_pct: int | None = None,
    target_temp_c: float | None = None,
) -> dict[str, Any]:
    """Switch a device on or off, and optionally dim a light or set a thermostat.

    brightness_pct only applies to lights (1-100) and target_temp_c only to thermostats
    (10-30 degrees Celsius); 422 otherwise. 409 if the device is offline. Returns the
    device's summary as search_devices shows it, plus brightness_pct and target_temp_c.

    Args:
        world: The household (not shown to the agent).
        device: {device}
        power_state: 'on' or 'off'.
        brightness_pct: New brightness for a light, 1 to 100 percent.
        target_temp_c: New target temperature for a thermostat, degrees Celsius.
    """
    found = resolve_device(world, device)
    if power_state not in ("on", "off"):
        raise unprocessable("power_state must be 'on' or 'off'")
    changes: dict[str, Any] = {"power_state": power_state}
    if brightness_pct is not None:
        if found.category != "light":
            raise unprocessable(f"{found.name} is not a light; brightness_pct does not apply")
        if not is_integer(brightness_pct) or not 1 <= brightness_pct <= 100:
            raise unprocessable("brightness_pct must be an integer from 1 to 100")
        changes["brightness_pct"] = brightness_pct
    if target_temp_c is not None:
        if found.category != "thermostat":
            raise unprocessable(f"{found.name} is not a thermostat; target_temp_c does not apply")
        if not is_number(target_temp_c) or not 10 <= target_temp_c <= 30:
            raise unprocessable("target_temp_c must be from 10 to 30 degrees Celsius")
        changes["target_temp_c"] = float(target_temp_c)
    if not found.online:
        raise conflict(f"{found.name} ({found.device_id}) is offline and cannot be controlled")
    new = cast(Device, world.update("devices", found.device_id, **changes))
    return {
        **_device_summary(new),
        "brightness_pct": new.brightness_pct,
        "target_temp_c": new.target_temp_c,
    }


# -- energy ----------------------------------------------------------------------------------


def _energy(world: DevicesWorld, source: _Source, device: str) -> dict[str, Any]:
    found = resolve_device(world, device)
    row = world.table(source.table)[found.device_id]
    out = {
        **_device_head(found),
        "energy_kwh_30d": row.energy_kwh_30d,
        "avg_power_w": row.avg_power_w,
    }
    return _stamped(out, row, source)


_ENERGY_TOOLS = source_tools(
    _energy,
    _DEVICE_ARGS,
    _Source(
        "get_device_energy",
        "energy_hub",
        data.ENERGY_HUB,
        """A device's energy use over the last 30 days from the HomeHub energy monitor.

        The hub meters every circuit and is the authoritative source: when energy sources
        disagree, its reading prevails. Returns {energy} plus samples (hourly samples
        behind the total). The maker's app (get_device_energy_vendor) and the utility's usage
        insights (get_device_energy_utility) report the same fields independently.
        """,
        extra="samples",
    ),
    _Source(
        "get_device_energy_vendor",
        "energy_vendor",
        data.ENERGY_VENDOR,
        """A device's energy use over the last 30 days as the maker's companion app reports it.

        An independent second source for get_device_energy, same keys: {energy}, plus
        app_version_major. Not authoritative: the HomeHub monitor prevails where they differ.
        """,
        extra="app_version_major",
    ),
    _Source(
        "get_device_energy_utility",
        "energy_utility",
        data.ENERGY_UTILITY,
        """A device's energy use over the last 30 days from the utility's usage insights.

        The utility disaggregates the smart-meter total by device. Same keys as
        get_device_energy: {energy}, plus confidence_pct. Not authoritative: the HomeHub
        monitor prevails where they differ.
        """,
        extra="confidence_pct",
    ),
    declare=_tool,
)


@_tool()
def estimate_energy_cost(
    world: DevicesWorld, power_w: float, hours_per_day: float, days: int = 30
) -> dict[str, Any]:
    """Estimate the electricity a load uses and what it costs on the household's plan.

    energy_kwh = power_w x hours_per_day x days / 1000, rounded to 3 decimals; cost_usd
    = energy_kwh x the plan's flat rate, rounded half-up to cents. Returns power_w,
    hours_per_day, days, energy_kwh, rate_usd_per_kwh, cost_usd and utility.

    Args:
        world: The household (not shown to the agent).
        power_w: The draw while on, watts (0 to 10000).
        hours_per_day: Hours on per day, 0 to 24.
        days: Number of days, 1 to 366 (default 30).
    """
    if not is_number(power_w) or not 0 <= power_w <= 10000:
        raise unprocessable("power_w must be a number from 0 to 10000")
    if not is_number(hours_per_day) or not 0 <= hours_per_day <= 24:
        raise unprocessable("hours_per_day must be a number from 0 to 24")
    if not is_integer(days) or not 1 <= days <= 366:
        raise unprocessable("days must be an integer from 1 to 366")
    kwh = round(power_w * hours_per_day * days / 1000, 3)
    return {
        "power_w": power_w,
        "hours_per_day": hours_per_day,
        "days": days,
        "energy_kwh": kwh,
        "rate_usd_per_kwh": world.rate_usd_per_kwh,
        "cost_usd": money(kwh * world.rate_usd_per_kwh),
        "utility": data.UTILITY,
    }


# -- warranties and repairs --------------------------------------------------------------------


def warranty_facts(world: DevicesWorld, device: Device) -> dict[str, Any]:
    """A device's coverage: the maker's warranty plus any protection plan, from purchase."""
    bought = date.fromisoformat(device.purchase_date)
    months = device.warranty_months + device.protection_plan_months
    ends = add_months(bought, months)
    left = (ends - world.today()).days
    return {
        **_device_head(device),
        "purchase_date": device.purchase_date,
        "retailer": device.retailer,
        "price_usd": device.price_usd,
        "warranty_months": device.warranty_months,
        "protection_plan_months": device.protection_plan_months,
        "coverage_ends": ends.isoformat(),
        "days_remaining": max(left, 0),
        "in_warranty": left >= 0,
    }


@_tool()
def get_warranty(world: DevicesWorld, device: str) -> dict[str, Any]:
    """A device's warranty coverage, counted from its purchase date.

    Coverage lasts warranty_months (the maker's warranty) plus protection_plan_months
    (0 if none) from purchase_date; coverage_ends is that date (a month later on the same
    day, or the month's last day). Returns device_id, name, model, purchase_date,
    retailer, price_usd, warranty_months, protection_plan_months, coverage_ends
    (YYYY-MM-DD, inclusive), days_remaining (0 once expired) and in_warranty.

    Args:
        world: The household (not shown to the agent).
        device: {device}
    """
    return warranty_facts(world, resolve_device(world, device))


@_tool()
def list_repair_requests(
    world: DevicesWorld,
    device: str | None = None,
    status: Literal["open", "scheduled", "completed", "cancelled"] | None = None,
) -> dict[str, Any]:
    """List repair requests, sorted by repair_id (the order they were filed).

    Every filter given must match.

    Each has {repairs}. Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The household (not shown to the agent).
        device: Only repairs of this device. {device}
        status: Only repairs in this status.
    """
    rows = sorted(world.repairs.values(), key=lambda r: r.repair_id)
    return _device_records(world, rows, device, status)


@_tool(ToolKind.WRITE)
def create_repair_request(
    world: DevicesWorld, device: str, issue: str, dropoff_date: str
) -> dict[str, Any]:
    """Open a repair request for a device, to be dropped off on a given day.

    The repair is covered (estimate 0) when the device is still under warranty on the
    drop-off date (see get_warranty); otherwise estimate_usd is the typical out-of-
    warranty cost for its category, a share of the price paid. dropoff_date must be after
    today and at most 60 days ahead. Refused (409) while the device has an open or
    scheduled repair. Returns the new request: {repairs}.

    Args:
        world: The household (not shown to the agent).
        device: {device}
        issue: What is wrong, in a few words (at most 200 characters).
        dropoff_date: Drop-off day, YYYY-MM-DD.
    """
    found = resolve_device(world, device)
    issue = text_arg(issue, "issue")
    if len(issue) > 200:
        raise unprocessable("issue must be at most 200 characters")
    day = _future_day(world, dropoff_date, "dropoff_date")
    for other in world.repairs.values():
        if other.device_id == found.device_id and other.status in ("open", "scheduled"):
            raise conflict(
                f"{found.name} already has an {other.status} repair ({other.repair_id})",
                repair_id=other.repair_id,
            )
    ends = date.fromisoformat(warranty_facts(world, found)["coverage_ends"])
    covered = day <= ends
    estimate = 0.0 if covered else money(found.price_usd * data.REPAIR_SHARE[found.category])
    repair_id = world.next_id("RPR")
    row = RepairRequest(
        repair_id=repair_id,
        device_id=found.device_id,
        issue=issue,
        dropoff_date=day.isoformat(),
        covered=covered,
        estimate_usd=estimate,
        status="open",
        created_at=stamp(world.now()),
    )
    world.insert("repairs", repair_id, row)
    return _with_device_name(world, row)


@_tool(ToolKind.WRITE)
def cancel_repair_request(world: DevicesWorld, repair_id: str) -> dict[str, Any]:
    """Cancel an open or scheduled repair request. Returns the request.

    Refused (409) for a completed or already cancelled request.

    Args:
        world: The household (not shown to the agent).
        repair_id: The repair id, e.g. 'RPR-00042'.
    """
    key = stored_key(world.repairs, repair_id, "Repair request")
    row = world.repairs[key]
    if row.status not in ("open", "scheduled"):
        raise conflict(f"Repair request {key} is {row.status} and cannot be cancelled")
    new = cast(RepairRequest, world.update("repairs", key, status="cancelled"))
    return _with_device_name(world, new)


# -- firmware --------------------------------------------------------------------------------


def _firmware(world: DevicesWorld, source: _Source, device: str) -> dict[str, Any]:
    found = resolve_device(world, device)
    row = world.table(source.table)[found.model_key]
    out = {
        **_device_head(found),
        "installed_version": found.firmware_version,
        "latest_version": row.latest_version,
        "latest_build": row.latest_build,
        "size_mb": row.size_mb,
        "release_date": row.release_date,
        "update_available": version_key(row.latest_version) > version_key(found.firmware_version),
    }
    return _stamped(out, row, source)


_FIRMWARE_TOOLS = source_tools(
    _firmware,
    _DEVICE_ARGS,
    _Source(
        "get_latest_firmware",
        "fw_vendor",
        data.FIRMWARE_VENDOR,
        """The newest firmware for a device's model, from the maker's release notes.

        The maker is the authoritative source: when firmware sources disagree, its data
        prevails. Returns {firmware}, plus notes_language_count. The UpdateMirror CDN index
        (get_latest_firmware_mirror) and the FirmwareWatch community tracker
        (get_latest_firmware_community) report the same fields independently.
        """,
        extra="notes_language_count",
    ),
    _Source(
        "get_latest_firmware_mirror",
        "fw_mirror",
        data.FIRMWARE_MIRROR,
        """The newest firmware for a device's model, from the UpdateMirror CDN index.

        An independent second source for get_latest_firmware with the same keys:
        {firmware}, plus mirror_nodes. The maker's release notes prevail where they differ.
        """,
        extra="mirror_nodes",
    ),
    _Source(
        "get_latest_firmware_community",
        "fw_community",
        data.FIRMWARE_COMMUNITY,
        """The newest firmware for a device's model, from the FirmwareWatch community tracker.

        Same keys as get_latest_firmware: {firmware}, plus reports (owner reports behind the
        entry). The maker's release notes prevail where they differ.
        """,
        extra="reports",
    ),
    declare=_tool,
)


def compatibility(world: DevicesWorld, device: Device, target: str) -> dict[str, Any]:
    """Whether ``device`` can install firmware ``target`` directly, and why not."""
    releases = world.model_releases(device.model_key)
    versions = [r.version for r in releases]
    if target not in versions:
        raise not_found(f"Firmware for {device.model}", target)
    release = releases[versions.index(target)]
    current = version_key(device.firmware_version)
    behind = sum(version_key(v) > current for v in versions)
    out: dict[str, Any] = {
        **_device_head(device),
        "installed_version": device.firmware_version,
        "target_version": target,
        "target_build": release.build,
        "releases_behind": behind,
        "requires_version": release.requires_version,
        "compatible": True,
        "reason": "the update can be installed directly",
    }
    if version_key(target) <= current:
        out.update(compatible=False, reason="the device already runs this version or newer")
    elif release.requires_version is not None and current < version_key(release.requires_version):
        out.update(
            compatible=False,
            reason=f"install {release.requires_version} first; {target} cannot be applied "
            f"directly over {device.firmware_version}",
        )
    return out


@_tool()
def check_update_compatibility(
    world: DevicesWorld, device: str, target_version: str
) -> dict[str, Any]:
    """Check whether a device can install a firmware version straight away.

    Versions compare part by part as numbers (2.10 is newer than 2.9). A target is
    compatible when it is newer than the installed version and the device already runs
    the release it requires (requires_version, null when any older version may update).
    Returns device_id, name, model, installed_version, target_version, target_build,
    releases_behind (releases newer than the installed one), requires_version, compatible
    and reason. 404 if the model has no such version.

    Args:
        world: The household (not shown to the agent).
        device: {device}
        target_version: The firmware version to check, e.g. '2.10.1'.
    """
    return compatibility(world, resolve_device(world, device), text_arg(target_version, "version"))


@_tool()
def list_scheduled_updates(
    world: DevicesWorld,
    device: str | None = None,
    status: Literal["scheduled", "installed", "cancelled"] | None = None,
) -> dict[str, Any]:
    """List firmware updates scheduled for devices, by update_id. Filters must all match.

    Each has update_id, device_id, device_name, from_version, to_version, scheduled_for
    (YYYY-MM-DD), status and created_at. Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The household (not shown to the agent).
        device: Only updates of this device. {device}
        status: Only updates in this status.
    """
    rows = sorted(world.updates.values(), key=lambda u: u.update_id)
    return _device_records(world, rows, device, status)


@_tool(ToolKind.WRITE)
def schedule_update(world: DevicesWorld, device: str, version: str, date: str) -> dict[str, Any]:
    """Schedule a firmware update of a device to a version on a day.

    The version must be compatible (see check_update_compatibility; 422 otherwise) and
    the day after today, at most 60 days ahead. Refused (409) while the device already
    has an update scheduled. Returns the new update: update_id, device_id, device_name,
    from_version, to_version, scheduled_for, status and created_at.

    Args:
        world: The household (not shown to the agent).
        device: {device}
        version: The firmware version to install, e.g. '2.10.1'.
        date: The day to install it, YYYY-MM-DD.
    """
    found = resolve_device(world, device)
    verdict = compatibility(world, found, text_arg(version, "version"))
    day = _future_day(world, date, "date")
    if not verdict["compatible"]:
        raise unprocessable(f"cannot schedule {version} on {found.name}: {verdict['reason']}")
    for other in world.updates.values():
        if other.device_id == found.device_id and other.status == "scheduled":
            raise conflict(
                f"{found.name} already has update {other.update_id} scheduled",
                update_id=other.update_id,
            )
    update_id = world.next_id("UPD")
    row = ScheduledUpdate(
        update_id=update_id,
        device_id=found.device_id,
        from_version=found.firmware_version,
        to_version=verdict["target_version"],
        scheduled_for=day.isoformat(),
        status="scheduled",
        created_at=stamp(world.now()),
    )
    world.insert("updates", update_id, row)
    return _with_device_name(world, row)


# -- cloud storage ---------------------------------------------------------------------------


def resolve_drive(world: World, value: Any, param: str = "drive") -> CloudDrive:
    """Return the drive a label-or-id parameter names, or raise 404/422."""
    found: CloudDrive = _named(_w(world).drives, text_arg(value, param), lambda d: d.label, "Drive")
    return found


@_tool()
def list_drives(
    world: DevicesWorld,
    query: str | None = None,
    owner: str | None = None,
    provider: Literal["DriveBox", "CloudVault", "SkyLocker"] | None = None,
) -> dict[str, Any]:
    """List the household's cloud storage drives, by label. Every filter given must match.

    Each has drive_id, label, owner, provider, plan, quota_gb (gigabytes) and
    growth_gb_per_month (average growth over the last 90 days). Up to 50 in 'results'.

    Args:
        world: The household (not shown to the agent).
        query: Part of a drive's label, or a drive id.
        owner: Only this member's drives.
        provider: Only drives with this provider.
    """
    rows = sorted(world.drives.values(), key=lambda d: d.label)
    if query is not None and query.strip():
        folded = query.strip().casefold()
        rows = [d for d in rows if folded in d.label.casefold() or folded == d.drive_id.casefold()]
    if owner is not None:
        rows = [d for d in rows if d.owner.casefold() == owner.strip().casefold()]
    if provider is not None:
        rows = [d for d in rows if d.provider == provider]
    return listing(rows, 50, row_json)


def _usage(world: DevicesWorld, source: _Source, drive: str) -> dict[str, Any]:
    found = resolve_drive(world, drive)
    row = world.table(source.table)[found.drive_id]
    out = {
        "drive_id": found.drive_id,
        "label": found.label,
        "quota_gb": found.quota_gb,
        "used_gb": row.used_gb,
        "file_count": row.file_count,
    }
    return _stamped(out, row, source)


_API_REGIONS = ("us-east", "us-west", "us-central", "us-north")

_USAGE_TOOLS = source_tools(
    _usage,
    _DRIVE_ARGS,
    _Source(
        "get_storage_usage",
        "usage_provider",
        data.USAGE_PROVIDER,
        """How much of a cloud drive is in use, from the provider's storage API.

        The provider is the authoritative source: when storage figures disagree, its figure
        prevails. Returns {usage}, plus api_region. The desktop sync client
        (get_storage_usage_client) and the billing portal (get_storage_usage_billing) report
        the same fields independently.
        """,
        extra="api_region",
        convert=lambda detail: _API_REGIONS[detail - 1],
    ),
    _Source(
        "get_storage_usage_client",
        "usage_client",
        data.USAGE_CLIENT,
        """How much of a cloud drive is in use, as the desktop sync client counts it.

        An independent second source for get_storage_usage with the same keys: {usage},
        plus synced_devices. The provider's API prevails where they differ.
        """,
        extra="synced_devices",
    ),
    _Source(
        "get_storage_usage_billing",
        "usage_billing",
        data.USAGE_BILLING,
        """How much of a cloud drive is in use, from the provider's billing portal.

        Same keys as get_storage_usage: {usage}, plus billing_day (day of the month the plan
        renews). The provider's API prevails where they differ.
        """,
        extra="billing_day",
    ),
    declare=_tool,
)


@_tool()
def project_storage_quota(
    world: DevicesWorld, drive: str, growth_gb_per_month: float | None = None
) -> dict[str, Any]:
    """Project when a cloud drive fills up at a steady growth rate.

    free_gb = quota_gb - used_gb (provider's figure); months_until_full = free_gb /
    growth (2 decimals); full_on = today + months_until_full x 30.44 days. Without
    growth_gb_per_month the drive's own 90-day average is used. Returns drive_id, label,
    quota_gb, used_gb, free_gb, used_pct, growth_gb_per_month, months_until_full and
    full_on (YYYY-MM-DD).

    Args:
        world: The household (not shown to the agent).
        drive: {drive}
        growth_gb_per_month: Expected growth, gigabytes per month (more than 0).
    """
    found = resolve_drive(world, drive)
    growth = found.growth_gb_per_month if growth_gb_per_month is None else growth_gb_per_month
    if not is_number(growth) or not 0 < growth <= 100000:
        raise unprocessable("growth_gb_per_month must be a number above 0")
    used = world.usage_provider[found.drive_id].used_gb
    free = round(found.quota_gb - used, 1)
    months = round(free / growth, 2)
    return {
        "drive_id": found.drive_id,
        "label": found.label,
        "quota_gb": found.quota_gb,
        "used_gb": used,
        "free_gb": free,
        "used_pct": round(100 * used / found.quota_gb, 1),
        "growth_gb_per_month": growth,
        "months_until_full": months,
        "full_on": (world.today() + timedelta(days=round(months * 30.44))).isoformat(),
    }


@_tool()
def list_folders(
    world: DevicesWorld, drive: str, path_contains: str | None = None
) -> dict[str, Any]:
    """List the top-level folders of a cloud drive, largest first.

    Each has folder_id, drive_id, path, size_gb (gigabytes), file_count and
    last_modified (UTC). Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The household (not shown to the agent).
        drive: {drive}
        path_contains: Only folders whose path contains this (case-insensitive).
    """
    found = resolve_drive(world, drive)
    rows = [f for f in world.folders.values() if f.drive_id == found.drive_id]
    if path_contains is not None:
        rows = [f for f in rows if path_contains.strip().casefold() in f.path.casefold()]
    rows.sort(key=lambda f: (-f.size_gb, f.path))
    return listing(rows, 50, row_json, drive_id=found.drive_id, label=found.label)


def _job_view(world: DevicesWorld, job: BackupJob) -> dict[str, Any]:
    out = _with_device_name(world, job)
    drive = world.drives.get(job.drive_id)
    out["drive_label"] = drive.label if drive is not None else None
    return out


@_tool()
def list_backup_jobs(
    world: DevicesWorld, device: str | None = None, drive: str | None = None
) -> dict[str, Any]:
    """List backup jobs, by job_id. Every filter given must match.

    Each has {jobs}. Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The household (not shown to the agent).
        device: Only jobs backing up this device. {device}
        drive: Only jobs writing to this drive. {drive}
    """
    rows = sorted(world.backup_jobs.values(), key=lambda j: j.job_id)
    rows = _of_device(world, rows, device)
    if drive is not None:
        target = resolve_drive(world, drive)
        rows = [j for j in rows if j.drive_id == target.drive_id]
    return listing(rows, 50, lambda j: _job_view(world, j))


@_tool(ToolKind.WRITE)
def create_backup_job(
    world: DevicesWorld,
    device: str,
    drive: str,
    frequency: Literal["daily", "weekly", "monthly"],
) -> dict[str, Any]:
    """Back a phone, laptop, tablet or NAS up to a cloud drive on a schedule.

    The drive's free space (quota_gb - used_gb, provider's figure) must hold the
    device's storage_used_gb (422 otherwise). Refused (409) if a job already backs that
    device up to that drive. Returns the new job: {jobs}.

    Args:
        world: The household (not shown to the agent).
        device: {device}
        drive: {drive}
        frequency: How often to run: daily, weekly or monthly.
    """
    found = resolve_device(world, device)
    target = resolve_drive(world, drive)
    if frequency not in data.BACKUP_FREQUENCIES:
        raise unprocessable("frequency must be daily, weekly or monthly")
    if found.category not in STORAGE_CATEGORIES:
        raise unprocessable(
            f"{found.name} is a {found.category}; only phones, laptops, tablets and NAS "
            "units can be backed up"
        )
    free = target.quota_gb - world.usage_provider[target.drive_id].used_gb
    if free < found.storage_used_gb:
        raise unprocessable(
            f"{target.label} has {free:.1f} GB free; {found.name} holds "
            f"{found.storage_used_gb:.1f} GB"
        )
    for job in world.backup_jobs.values():
        if job.device_id == found.device_id and job.drive_id == target.drive_id:
            raise conflict(
                f"{found.name} is already backed up to {target.label} ({job.job_id})",
                job_id=job.job_id,
            )
    job_id = world.next_id("BKP")
    row = BackupJob(
        job_id=job_id,
        device_id=found.device_id,
        drive_id=target.drive_id,
        frequency=frequency,
        status="active",
        last_run_at=None,
        last_size_gb=0.0,
        created_at=stamp(world.now()),
    )
    world.insert("backup_jobs", job_id, row)
    return _job_view(world, row)


# -- home network ----------------------------------------------------------------------------


def resolve_client(world: World, value: Any) -> NetworkClient:
    """Return the client an id-or-hostname parameter names, or raise 404/422."""
    text = text_arg(value, "client")
    found: NetworkClient = _named(_w(world).clients, text, lambda c: c.hostname, "Client")
    return found


@_tool()
def list_network_clients(
    world: DevicesWorld,
    query: str | None = None,
    band: Literal["2.4GHz", "5GHz", "6GHz"] | None = None,
    room: str | None = None,
    access: Literal["allowed", "blocked"] | None = None,
) -> dict[str, Any]:
    """List the devices known to the home Wi-Fi, by hostname. Every filter must match.

    Each has {clients}. Up to 60 in 'results', with 'count' and 'total'.

    Args:
        world: The household (not shown to the agent).
        query: Part of a hostname, or a client id.
        band: Only clients on this band.
        room: Only clients in this room (case-insensitive).
        access: Only allowed or only blocked clients.
    """
    rows = sorted(world.clients.values(), key=lambda c: c.hostname)
    if query is not None and query.strip():
        folded = query.strip().casefold()
        rows = [
            c for c in rows if folded in c.hostname.casefold() or folded == c.client_id.casefold()
        ]
    if band is not None:
        rows = [c for c in rows if c.band == band]
    if room is not None:
        rows = [c for c in rows if c.room.casefold() == room.strip().casefold()]
    if access is not None:
        rows = [c for c in rows if c.access == access]
    return listing(rows, 60, row_json)


@_tool(ToolKind.WRITE)
def set_client_access(
    world: DevicesWorld, client: str, access: Literal["allowed", "blocked"]
) -> dict[str, Any]:
    """Block a device from the home Wi-Fi, or allow it again. Returns the client.

    The main router itself is not a client. The returned record has {clients}.

    Args:
        world: The household (not shown to the agent).
        client: A client id (e.g. 'CLI-007') or its hostname, e.g. 'hall-light'.
        access: 'allowed' or 'blocked'.
    """
    found = resolve_client(world, client)
    if access not in ("allowed", "blocked"):
        raise unprocessable("access must be 'allowed' or 'blocked'")
    return row_json(world.update("clients", found.client_id, access=access))


def _speed(world: DevicesWorld, source: _Source, room: str) -> dict[str, Any]:
    text = text_arg(room, "room")
    key = next((r for r in data.ROOMS if r.casefold() == text.casefold()), None)
    if key is None:
        raise not_found("Room", text)
    row = world.table(source.table)[key]
    out = {
        "room": key,
        "download_mbps": row.download_mbps,
        "upload_mbps": row.upload_mbps,
        "latency_ms": row.latency_ms,
        "plan_mbps": world.plan_mbps,
    }
    return _stamped(out, row, source)


_SPEED_TOOLS = source_tools(
    _speed,
    _ROOM_ARGS,
    _Source(
        "get_speed_test",
        "speed_router",
        data.SPEED_ROUTER,
        """The latest Wi-Fi speed test in a room, run by the router itself.

        The router's own test is the authoritative source: when speed tests disagree, its
        result prevails. Returns {speed}, plus test_streams. The SpeedCheck app
        (get_speed_test_app) and M-Lab (get_speed_test_mlab) report the same fields
        independently.
        """,
        extra="test_streams",
    ),
    _Source(
        "get_speed_test_app",
        "speed_app",
        data.SPEED_APP,
        """The latest speed test in a room from the SpeedCheck app on a phone.

        An independent second source for get_speed_test with the same keys: {speed}, plus
        server_distance_km. The router's own test prevails where they differ.
        """,
        extra="server_distance_km",
        convert=float,
    ),
    _Source(
        "get_speed_test_mlab",
        "speed_mlab",
        data.SPEED_MLAB,
        """The latest speed test in a room from the M-Lab network diagnostic tool.

        Same keys as get_speed_test: {speed}, plus retransmission_pct. The router's own test
        prevails where they differ.
        """,
        extra="retransmission_pct",
        convert=lambda detail: detail / 10,
    ),
    declare=_tool,
)


# -- accounts and passwords --------------------------------------------------------------------


def match_accounts(world: DevicesWorld, query: str) -> list[Account]:
    """Accounts matching ``query``: an id, or part of a service name or username.

    A comma-separated qualifier must equal the member ("StreamNest, Maya"). Exact service
    names come first, then by service and member.
    """
    head, *qualifiers = [part.strip().casefold() for part in query.split(",")]
    found = []
    for acc in world.accounts.values():
        hit = (
            head == acc.account_id.casefold()
            or head in acc.service.casefold()
            or head in acc.username.casefold()
        )
        if hit and all(q == acc.member.casefold() for q in qualifiers if q):
            found.append(acc)
    return sorted(found, key=lambda a: (a.service.casefold() != head, a.service, a.member))


def resolve_account(world: World, value: Any, param: str = "account") -> Account:
    """Return the account a name-or-id parameter names, or raise 404/409/422."""
    w = _w(world)
    text = text_arg(value, param)
    key = find_key(w.accounts, text)
    if key is not None:
        return w.accounts[key]
    head, *qualifiers = [part.strip().casefold() for part in text.split(",")]
    matches = [
        a
        for a in w.accounts.values()
        if a.service.casefold() == head and all(q == a.member.casefold() for q in qualifiers if q)
    ]
    if not matches:
        raise not_found("Account", text)
    if len(matches) > 1:
        who = ", ".join(sorted(a.member for a in matches))
        raise conflict(
            f"Account name '{text}' is ambiguous ({len(matches)} members use it: {who}). "
            "Qualify it with the member, e.g. 'StreamNest, Maya', or pass an account_id "
            "from search_accounts.",
            candidates=sorted(a.account_id for a in matches),
        )
    return matches[0]


def _account_summary(acc: Account) -> dict[str, Any]:
    return {
        "account_id": acc.account_id,
        "member": acc.member,
        "service": acc.service,
        "username": acc.username,
        "created_on": acc.created_on,
        "two_factor": acc.two_factor,
        "password_length": acc.password_length,
    }


@_tool()
def search_accounts(
    world: DevicesWorld,
    query: str | None = None,
    member: str | None = None,
    two_factor: Literal["none", "sms", "authenticator_app", "security_key"] | None = None,
) -> dict[str, Any]:
    """Search the household's online accounts; use it to find an account_id.

    query matches an account id or part of a service name or username, and may add a
    member after a comma ('StreamNest, Maya'). Each result has account_id, member,
    service, username, created_on, two_factor and password_length. Exact service names
    first, then by service and member; up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The household (not shown to the agent).
        query: A service name (optionally ', member'), part of a username, or an id.
        member: Only this member's accounts ('Maya', 'Daniel', 'Priya' or 'Leo').
        two_factor: Only accounts with this two-factor method ('none' for those without).
    """
    if query is not None and query.strip():
        rows = match_accounts(world, query)
    else:
        rows = sorted(world.accounts.values(), key=lambda a: (a.service, a.member))
    if member is not None:
        rows = [a for a in rows if a.member.casefold() == member.strip().casefold()]
    if two_factor is not None:
        rows = [a for a in rows if a.two_factor == two_factor]
    return listing(rows, 50, _account_summary)


def _security(world: DevicesWorld, acc: Account) -> dict[str, Any]:
    age = (world.today() - date.fromisoformat(acc.password_changed_on)).days
    breached = any(
        b.service == acc.service
        and b.breach_date >= acc.created_on
        and acc.password_changed_on <= b.breach_date
        for b in world.breaches.values()
    )
    return {
        **_account_summary(acc),
        "password_changed_on": acc.password_changed_on,
        "password_age_days": age,
        "password_strength": acc.password_strength,
        "reused": acc.reused,
        "exposed_in_breach": breached,
    }


@_tool()
def get_account_security(world: DevicesWorld, account: str) -> dict[str, Any]:
    """The password and sign-in protection of one account: {security}.

    get_account_security_v2 is the newer version of this endpoint; this one still works.

    Args:
        world: The household (not shown to the agent).
        account: {account}
    """
    return _security(world, resolve_account(world, account))


@_tool(name="get_account_security_v2")
def get_account_security_v2(world: DevicesWorld, account_ref: str) -> dict[str, Any]:
    """Version 2 of get_account_security: the same record, parameter renamed.

    Takes account_ref (was account); returns exactly the keys get_account_security
    returns.

    Args:
        world: The household (not shown to the agent).
        account_ref: {account}
    """
    return _security(world, resolve_account(world, account_ref, "account_ref"))


@_tool()
def check_password_policy(
    world: DevicesWorld, account: str, max_age_days: int = 365, min_length: int | None = None
) -> dict[str, Any]:
    """Check an account's password against a policy and list every rule it breaks.

    Rules: length at least min_length (default: the service's own minimum); age at most
    max_age_days; strength at least 'fair'; not reused; no exposure in a breach since it
    was set. Returns account_id, service, member, compliant, violations (a list of rule
    names: too_short, too_old, too_weak, reused, exposed), violation_count,
    password_age_days, min_length and max_age_days.

    Args:
        world: The household (not shown to the agent).
        account: {account}
        max_age_days: The longest a password may go unchanged, 30 to 3650 days (default 365).
        min_length: Minimum length, 6 to 64 characters (default: the service's rule).
    """
    acc = resolve_account(world, account)
    if not is_integer(max_age_days) or not 30 <= max_age_days <= 3650:
        raise unprocessable("max_age_days must be an integer from 30 to 3650")
    service_min = SERVICES[acc.service.casefold()].min_length
    least = service_min if min_length is None else min_length
    if not is_integer(least) or not 6 <= least <= 64:
        raise unprocessable("min_length must be an integer from 6 to 64")
    facts = _security(world, acc)
    violations = []
    if acc.password_length < least:
        violations.append("too_short")
    if facts["password_age_days"] > max_age_days:
        violations.append("too_old")
    if data.STRENGTHS.index(acc.password_strength) < data.STRENGTHS.index("fair"):
        violations.append("too_weak")
    if acc.reused:
        violations.append("reused")
    if facts["exposed_in_breach"]:
        violations.append("exposed")
    return {
        "account_id": acc.account_id,
        "service": acc.service,
        "member": acc.member,
        "compliant": not violations,
        "violations": violations,
        "violation_count": len(violations),
        "password_age_days": facts["password_age_days"],
        "min_length": least,
        "max_age_days": max_age_days,
    }


@_tool(ToolKind.WRITE)
def enable_two_factor(
    world: DevicesWorld,
    account: str,
    method: Literal["sms", "authenticator_app", "security_key"],
) -> dict[str, Any]:
    """Turn on (or change) two-factor sign-in for an account.

    Refused (409) if the account already uses that method. Returns the account's
    security record: {security}.

    Args:
        world: The household (not shown to the agent).
        account: {account}
        method: sms, authenticator_app or security_key.
    """
    acc = resolve_account(world, account)
    if method not in data.TWO_FACTOR[1:]:
        raise unprocessable("method must be sms, authenticator_app or security_key")
    if acc.two_factor == method:
        raise conflict(f"{acc.service} ({acc.member}) already uses {method}")
    new = cast(Account, world.update("accounts", acc.account_id, two_factor=method))
    return _security(world, new)


# -- sign-ins --------------------------------------------------------------------------------


@_tool()
def list_login_events(
    world: DevicesWorld, account: str, success: bool | None = None, since: str | None = None
) -> dict[str, Any]:
    """List sign-ins to an account, newest first.

    Each has event_id, account_id, at (UTC), city, country, latitude_deg and
    longitude_deg (where the IP address was located), ip_address, client and success.
    Up to 50 in 'results', with 'count' and 'total', after account_id, service and member.

    Args:
        world: The household (not shown to the agent).
        account: {account}
        success: Only successful (true) or failed (false) sign-ins.
        since: Only sign-ins on or after this day, YYYY-MM-DD.
    """
    acc = resolve_account(world, account)
    rows = [e for e in world.logins.values() if e.account_id == acc.account_id]
    if success is not None:
        rows = [e for e in rows if e.success == success]
    if since is not None:
        day = date_arg(since, "since", "a calendar date").isoformat()
        rows = [e for e in rows if e.at[:10] >= day]
    rows.sort(key=lambda e: e.at, reverse=True)
    head = {"account_id": acc.account_id, "service": acc.service, "member": acc.member}
    return listing(rows, 50, row_json, **head)


@_tool()
def check_impossible_travel(
    world: DevicesWorld, first_event: str, second_event: str, max_speed_kmh: float = 900.0
) -> dict[str, Any]:
    """Check whether two sign-ins are too far apart for one person to have made both.

    distance_km is the great-circle distance between the two locations (haversine, 1
    decimal); hours_apart the time between them (2 decimals); speed_kmh = distance_km /
    hours_apart (1 decimal). impossible is true when that speed exceeds max_speed_kmh
    (default 900, an airliner's cruise). Returns first_event, second_event, from_city,
    to_city, distance_km, hours_apart, speed_kmh, max_speed_kmh and impossible. 422 for
    the same event twice.

    Args:
        world: The household (not shown to the agent).
        first_event: A sign-in event id, e.g. 'LGN-00042' (from list_login_events).
        second_event: Another sign-in event id.
        max_speed_kmh: The fastest plausible travel, km/h (100 to 5000, default 900).
    """
    a = world.logins[stored_key(world.logins, first_event, "Login event")]
    b = world.logins[stored_key(world.logins, second_event, "Login event")]
    if a.event_id == b.event_id:
        raise unprocessable("first_event and second_event must be different sign-ins")
    if not is_number(max_speed_kmh) or not 100 <= max_speed_kmh <= 5000:
        raise unprocessable("max_speed_kmh must be from 100 to 5000")
    km = round(haversine_km(a.latitude_deg, a.longitude_deg, b.latitude_deg, b.longitude_deg), 1)
    t1 = datetime.fromisoformat(a.at.replace("Z", "+00:00"))
    t2 = datetime.fromisoformat(b.at.replace("Z", "+00:00"))
    hours = round(abs((t2 - t1).total_seconds()) / 3600, 2)
    speed = round(km / hours, 1) if hours > 0 else (0.0 if km == 0 else float("inf"))
    return {
        "first_event": a.event_id,
        "second_event": b.event_id,
        "from_city": a.city,
        "to_city": b.city,
        "distance_km": km,
        "hours_apart": hours,
        "speed_kmh": speed if speed != float("inf") else 1e9,
        "max_speed_kmh": float(max_speed_kmh),
        "impossible": speed > max_speed_kmh,
    }


# -- breaches --------------------------------------------------------------------------------


def resolve_breach(world: World, value: Any, param: str = "breach") -> Any:
    """Return the breach a name-or-id parameter names, or raise 404/422."""
    return _named(_w(world).breaches, text_arg(value, param), lambda b: b.service, "Breach")


@_tool()
def list_breach_notices(
    world: DevicesWorld, member: str | None = None, service: str | None = None
) -> dict[str, Any]:
    """Breach notices for the household: one per breached service and member account.

    A member is notified when the service was breached after their account was created.
    Each notice has breach_id, service, account_id, member, breach_date, disclosed_on
    (YYYY-MM-DD), data_classes (what was exposed) and password_changed_since (true if the
    password was changed after the breach). Newest disclosure first; up to 50 in
    'results', with 'count' and 'total'.

    Args:
        world: The household (not shown to the agent).
        member: Only this member's notices.
        service: Only notices about this service (case-insensitive).
    """
    rows: list[dict[str, Any]] = []
    for breach in world.breaches.values():
        for acc in world.accounts.values():
            if acc.service != breach.service or acc.created_on > breach.breach_date:
                continue
            rows.append(
                {
                    "breach_id": breach.breach_id,
                    "service": breach.service,
                    "account_id": acc.account_id,
                    "member": acc.member,
                    "breach_date": breach.breach_date,
                    "disclosed_on": breach.disclosed_on,
                    "data_classes": list(breach.data_classes),
                    "password_changed_since": acc.password_changed_on > breach.breach_date,
                }
            )
    if member is not None:
        rows = [r for r in rows if r["member"].casefold() == member.strip().casefold()]
    if service is not None:
        rows = [r for r in rows if r["service"].casefold() == service.strip().casefold()]
    rows.sort(key=lambda r: (r["disclosed_on"], r["service"], r["member"]), reverse=True)
    return listing(rows, 50, dict)


def _breach(world: DevicesWorld, source: _Source, breach: str) -> dict[str, Any]:
    found = resolve_breach(world, breach)
    row = world.table(source.table)[found.breach_id]
    out = {
        "breach_id": found.breach_id,
        "service": found.service,
        "breach_date": found.breach_date,
        "disclosed_on": found.disclosed_on,
        "records_affected": row.records_affected,
        "data_classes": list(found.data_classes),
    }
    return _stamped(out, row, source)


_BREACH_TOOLS = source_tools(
    _breach,
    _BREACH_ARGS,
    _Source(
        "get_breach",
        "breach_notice",
        data.BREACH_NOTICE,
        """A data breach's details from the company's own regulator filing.

        The filing is the authoritative source: when breach sources disagree, its figures
        prevail. Returns {breach_fields}, plus filing_amendments. BreachIndex (get_breach_index)
        and the LeakWire news desk (get_breach_press) report the same fields independently.
        """,
        extra="filing_amendments",
        convert=lambda detail: detail - 1,
    ),
    _Source(
        "get_breach_index",
        "breach_index",
        data.BREACH_INDEX,
        """A data breach's details from BreachIndex, a public breach search service.

        An independent second source for get_breach with the same keys: {breach_fields}, plus
        pastes_seen. The company's regulator filing prevails where they differ.
        """,
        extra="pastes_seen",
    ),
    _Source(
        "get_breach_press",
        "breach_press",
        data.BREACH_PRESS,
        """A data breach's details as reported by the LeakWire news desk.

        Same keys as get_breach: {breach_fields}, plus articles. The company's regulator filing
        prevails where they differ.
        """,
        extra="articles",
    ),
    declare=_tool,
)


# -- app permissions -------------------------------------------------------------------------


@_tool()
def list_app_permissions(
    world: DevicesWorld,
    device: str | None = None,
    app: str | None = None,
    permission: Literal[
        "camera", "microphone", "location", "contacts", "photos", "bluetooth", "calendar"
    ]
    | None = None,
    access: Literal["always", "while_using", "ask", "denied"] | None = None,
) -> dict[str, Any]:
    """List what apps may access on the household's phones, tablets and laptops.

    Every filter given must match. Each has {grants}. Sorted by device name, app and
    permission; up to 60 in 'results', with 'count' and 'total'.

    Args:
        world: The household (not shown to the agent).
        device: Only this device. {device}
        app: Only this app (case-insensitive), e.g. 'FitTrack'.
        permission: Only this permission.
        access: Only grants at this access level.
    """
    rows = list(world.permissions.values())
    rows = _of_device(world, rows, device)
    if app is not None:
        rows = [g for g in rows if g.app.casefold() == app.strip().casefold()]
    if permission is not None:
        rows = [g for g in rows if g.permission == permission]
    if access is not None:
        rows = [g for g in rows if g.access == access]
    rows.sort(key=lambda g: (world.devices[g.device_id].name, g.app, g.permission))
    return listing(rows, 60, lambda g: _with_device_name(world, g))


@_tool(ToolKind.WRITE)
def set_app_permission(
    world: DevicesWorld,
    device: str,
    app: str,
    permission: Literal[
        "camera", "microphone", "location", "contacts", "photos", "bluetooth", "calendar"
    ],
    access: Literal["always", "while_using", "ask", "denied"],
) -> dict[str, Any]:
    """Change what an app may access on a device (e.g. deny its location access).

    404 if the app has never asked for that permission on that device; 409 if the access
    is already at that level. Returns the grant: {grants}.

    Args:
        world: The household (not shown to the agent).
        device: {device}
        app: The app's name, e.g. 'FitTrack'.
        permission: The permission to change.
        access: The new access level.
    """
    found = resolve_device(world, device)
    if found.category not in APP_CATEGORIES:
        raise unprocessable(f"{found.name} does not run apps")
    name = text_arg(app, "app")
    if access not in data.ACCESS_LEVELS:
        raise unprocessable("access must be always, while_using, ask or denied")
    grant = next(
        (
            g
            for g in world.permissions.values()
            if g.device_id == found.device_id
            and g.app.casefold() == name.casefold()
            and g.permission == permission
        ),
        None,
    )
    if grant is None:
        raise not_found("Permission", f"{name} / {permission} on {found.name}")
    if grant.access == access:
        raise conflict(f"{grant.app} already has {permission} access '{access}' on {found.name}")
    new = cast(AppPermission, world.update("permissions", grant.grant_id, access=access))
    return _with_device_name(world, new)


# -- privacy requests ------------------------------------------------------------------------


def _request_view(world: DevicesWorld, req: PrivacyRequest) -> dict[str, Any]:
    out = row_json(req)
    acc = world.accounts.get(req.account_id)
    out["member"] = acc.member if acc is not None else None
    out["days_left"] = (
        (date.fromisoformat(req.due_date) - world.today()).days
        if req.status in ("submitted", "in_progress")
        else None
    )
    return out


@_tool()
def list_privacy_requests(
    world: DevicesWorld,
    account: str | None = None,
    kind: Literal["export", "deletion", "correction", "opt_out"] | None = None,
    status: Literal["submitted", "in_progress", "completed", "rejected"] | None = None,
) -> dict[str, Any]:
    """List the household's privacy requests to services, by request_id. Filters must match.

    Each has {requests}. Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The household (not shown to the agent).
        account: Only requests about this account. {account}
        kind: Only requests of this kind.
        status: Only requests in this status.
    """
    rows = sorted(world.privacy_requests.values(), key=lambda r: r.request_id)
    if account is not None:
        acc = resolve_account(world, account)
        rows = [r for r in rows if r.account_id == acc.account_id]
    if kind is not None:
        rows = [r for r in rows if r.kind == kind]
    if status is not None:
        rows = [r for r in rows if r.status == status]
    return listing(rows, 50, lambda r: _request_view(world, r))


@_tool(ToolKind.WRITE)
def create_privacy_request(
    world: DevicesWorld,
    account: str,
    kind: Literal["export", "deletion", "correction", "opt_out"],
) -> dict[str, Any]:
    """Ask a service for a copy of an account's data, its deletion, a correction or opt-out.

    The service must answer by due_date: today plus its legal response window (30 or 45
    days, depending on the service). Refused (409) while the account has an open
    (submitted or in_progress) request of the same kind. Returns the new request:
    {requests}.

    Args:
        world: The household (not shown to the agent).
        account: {account}
        kind: export, deletion, correction or opt_out.
    """
    acc = resolve_account(world, account)
    if kind not in data.PRIVACY_KINDS:
        raise unprocessable("kind must be export, deletion, correction or opt_out")
    for other in world.privacy_requests.values():
        if (
            other.account_id == acc.account_id
            and other.kind == kind
            and other.status in ("submitted", "in_progress")
        ):
            raise conflict(
                f"{acc.service} ({acc.member}) already has an open {kind} request "
                f"({other.request_id})",
                request_id=other.request_id,
            )
    days = SERVICES[acc.service.casefold()].response_days
    request_id = world.next_id("PRV")
    row = PrivacyRequest(
        request_id=request_id,
        account_id=acc.account_id,
        service=acc.service,
        kind=kind,
        status="submitted",
        submitted_on=world.today().isoformat(),
        due_date=(world.today() + timedelta(days=days)).isoformat(),
        completed_on=None,
    )
    world.insert("privacy_requests", request_id, row)
    return _request_view(world, row)


TOOLS: list[Tool] = [
    search_devices,
    get_device,
    get_device_v2,
    set_device_state,
    *_ENERGY_TOOLS,
    estimate_energy_cost,
    get_warranty,
    list_repair_requests,
    create_repair_request,
    cancel_repair_request,
    *_FIRMWARE_TOOLS,
    check_update_compatibility,
    list_scheduled_updates,
    schedule_update,
    list_drives,
    *_USAGE_TOOLS,
    project_storage_quota,
    list_folders,
    list_backup_jobs,
    create_backup_job,
    list_network_clients,
    set_client_access,
    *_SPEED_TOOLS,
    search_accounts,
    get_account_security,
    get_account_security_v2,
    check_password_policy,
    enable_two_factor,
    list_login_events,
    check_impossible_travel,
    list_breach_notices,
    *_BREACH_TOOLS,
    list_app_permissions,
    set_app_permission,
    list_privacy_requests,
    create_privacy_request,
]
