"""The devices domain (topic "technology and devices"): a household's gadgets and accounts.

It hosts two topics' subtopics: technology and devices (smart home, warranties and
repairs, firmware updates, cloud storage, the home network) and security and privacy
(account security, sign-ins, breaches, app permissions, privacy requests). It gives every
hazard variant a real place to fit:

- outages: the energy monitor, the maker's firmware notes, the router's speed test, the
  provider's storage API and the breach filing each have an independent backup serving
  the same facts under the same keys (``get_device_energy_vendor``,
  ``get_latest_firmware_mirror``, ``get_speed_test_mlab``, ``get_storage_usage_client``,
  ``get_breach_index``);
- deprecated tools: ``get_device`` and ``get_account_security`` have a v2 with a renamed
  parameter and the same result keys (v1 still works);
- cross-source conflicts: five facts come from three independent sources that agree in
  the clean world and stamp ``as_of`` (device energy, newest firmware, room speed test,
  drive usage, breach record count); the docs name one of each authoritative;
- unit changes: energy (kWh), power (W), sizes (GB, MB), speeds (Mbit/s), distances (km);
- ambiguous entities: every ``device``, ``account``, ``drive`` and ``breach`` parameter
  takes a name or an id, and ``search_devices``, ``search_accounts``, ``list_drives`` and
  ``list_breach_notices`` return the id;
- timeouts after a write: every write that creates or changes a record has a read that
  lists it (repairs, updates, backup jobs, device state, Wi-Fi access, two-factor, app
  permissions, privacy requests);
- locale dates and pagination: warranty ends, due dates and projections are ISO dates;
  devices, clients, sign-ins, permissions and requests come as listings.
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
from toolchaos.domains._notes import CENTS, resolver, same_params, sources
from toolchaos.domains.devices.tools import TOOLS
from toolchaos.domains.devices.world import DevicesWorld

# fact -> (its three source tools, authoritative first; the parameter; the numeric fields)
SOURCES: dict[str, tuple[tuple[str, str, str], str, list[str]]] = {
    "energy": (
        ("get_device_energy", "get_device_energy_vendor", "get_device_energy_utility"),
        "device",
        ["energy_kwh_30d", "avg_power_w"],
    ),
    "firmware": (
        ("get_latest_firmware", "get_latest_firmware_mirror", "get_latest_firmware_community"),
        "device",
        ["latest_build", "size_mb"],
    ),
    "speed": (
        ("get_speed_test", "get_speed_test_app", "get_speed_test_mlab"),
        "room",
        ["download_mbps", "upload_mbps", "latency_ms"],
    ),
    "usage": (
        ("get_storage_usage", "get_storage_usage_client", "get_storage_usage_billing"),
        "drive",
        ["used_gb", "file_count"],
    ),
    "breach": (
        ("get_breach", "get_breach_index", "get_breach_press"),
        "breach",
        ["records_affected"],
    ),
}


def _device(param: str = "device") -> Resolver:
    return resolver(param, "search_devices", "device_id")


def _account(param: str = "account") -> Resolver:
    return resolver(param, "search_accounts", "account_id")


def _drive() -> Resolver:
    return resolver("drive", "list_drives", "drive_id")


_DEVICE_TOOLS = (
    "get_device",
    "set_device_state",
    "get_device_energy",
    "get_device_energy_vendor",
    "get_device_energy_utility",
    "get_warranty",
    "create_repair_request",
    "get_latest_firmware",
    "get_latest_firmware_mirror",
    "get_latest_firmware_community",
    "check_update_compatibility",
    "schedule_update",
    "set_app_permission",
)
_ACCOUNT_TOOLS = (
    "get_account_security",
    "check_password_policy",
    "enable_two_factor",
    "list_login_events",
    "create_privacy_request",
)
_DRIVE_TOOLS = (
    "get_storage_usage",
    "get_storage_usage_client",
    "get_storage_usage_billing",
    "project_storage_quota",
    "list_folders",
)

DOMAIN = Domain(
    name="devices",
    topic="technology and devices",
    world_type=DevicesWorld,
    tools=tool_map(TOOLS),
    notes=DomainNotes(
        fallbacks={
            "get_device_energy": Fallback(
                tool="get_device_energy_vendor", args_map={"device": "device"}
            ),
            "get_latest_firmware": Fallback(
                tool="get_latest_firmware_mirror", args_map={"device": "device"}
            ),
            "get_speed_test": Fallback(tool="get_speed_test_mlab", args_map={"room": "room"}),
            "get_storage_usage": Fallback(
                tool="get_storage_usage_client", args_map={"drive": "drive"}
            ),
            "get_breach": Fallback(tool="get_breach_index", args_map={"breach": "breach"}),
        },
        v2={
            "get_device": V2Tool(tool="get_device_v2", args_map={"device_ref": "device"}),
            "get_account_security": V2Tool(
                tool="get_account_security_v2", args_map={"account_ref": "account"}
            ),
        },
        unit_conversions={
            "energy_kwh_30d": UnitConversion(to_unit="Wh", factor=1000.0),
            "energy_kwh": UnitConversion(to_unit="Wh", factor=1000.0),
            "avg_power_w": UnitConversion(to_unit="kW", factor=0.001),
            "power_w": UnitConversion(to_unit="kW", factor=0.001),
            "used_gb": UnitConversion(to_unit="MB", factor=1024.0),
            "size_gb": UnitConversion(to_unit="MB", factor=1024.0),
            "free_gb": UnitConversion(to_unit="MB", factor=1024.0),
            "size_mb": UnitConversion(to_unit="KB", factor=1024.0),
            "download_mbps": UnitConversion(to_unit="MB/s", factor=0.125),
            "upload_mbps": UnitConversion(to_unit="MB/s", factor=0.125),
            "distance_km": UnitConversion(to_unit="mi", factor=0.621371),
            "speed_kmh": UnitConversion(to_unit="mph", factor=0.621371),
            "data_gb_7d": UnitConversion(to_unit="MB", factor=1024.0),
            **dict.fromkeys(("price_usd", "cost_usd"), CENTS),
        },
        resolvers={
            **{name: _device() for name in _DEVICE_TOOLS},
            "get_device_v2": _device("device_ref"),
            **{name: _account() for name in _ACCOUNT_TOOLS},
            "get_account_security_v2": _account("account_ref"),
            **{name: _drive() for name in _DRIVE_TOOLS},
            **{
                name: _device()
                for name in (
                    "create_backup_job",
                    "list_repair_requests",
                    "list_scheduled_updates",
                    "list_backup_jobs",
                    "list_app_permissions",
                )
            },
            "list_privacy_requests": _account(),
            **{
                name: resolver("breach", "list_breach_notices", "breach_id", "service")
                for name in ("get_breach", "get_breach_index", "get_breach_press")
            },
        },
        write_verifiers={
            "set_device_state": WriteVerifier(
                tool="search_devices",
                args_map={"query": "device"},
                match={"power_state": "power_state"},
            ),
            "create_repair_request": WriteVerifier(
                tool="list_repair_requests",
                args_map={"device": "device"},
                match={"issue": "issue", "dropoff_date": "dropoff_date"},
            ),
            "cancel_repair_request": WriteVerifier(
                tool="list_repair_requests", args_map={}, match={"repair_id": "repair_id"}
            ),
            "schedule_update": WriteVerifier(
                tool="list_scheduled_updates",
                args_map={"device": "device"},
                match={"to_version": "version", "scheduled_for": "date"},
            ),
            "create_backup_job": WriteVerifier(
                tool="list_backup_jobs",
                args_map={"device": "device", "drive": "drive"},
                match={"frequency": "frequency"},
            ),
            "set_client_access": WriteVerifier(
                tool="list_network_clients",
                args_map={"query": "client"},
                match={"access": "access"},
            ),
            "enable_two_factor": WriteVerifier(
                tool="search_accounts",
                args_map={"query": "account"},
                match={"two_factor": "method"},
            ),
            "set_app_permission": WriteVerifier(
                tool="list_app_permissions",
                args_map={"device": "device", "app": "app", "permission": "permission"},
                match={"permission": "permission", "access": "access"},
            ),
            "create_privacy_request": WriteVerifier(
                tool="list_privacy_requests",
                args_map={"account": "account"},
                match={"kind": "kind"},
            ),
        },
        sources={
            tool: note
            for tools, param, fields in SOURCES.values()
            for tool, note in sources(same_params(tools, param), fields).items()
        },
    ),
)

__all__ = ["DOMAIN", "DevicesWorld"]
