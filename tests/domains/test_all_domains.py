"""What every domain promises, checked once over all of them.

Each domain's own module tests its world and tools in depth; the checks here are the same
for every domain: its registry entry, its tool inventory and schemas, its seeded world,
and its tools meeting odd arguments.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from jsonschema import Draft202012Validator

from toolchaos.core.errors import ToolError
from toolchaos.core.types import ToolKind
from toolchaos.core.world import World
from toolchaos.domains import DOMAINS, Domain, DomainNotes, get_domain
from toolchaos.domains.commerce.world import CommerceWorld
from toolchaos.domains.communication.world import CommunicationWorld
from toolchaos.domains.devices.world import DevicesWorld
from toolchaos.domains.government.world import GovernmentWorld
from toolchaos.domains.health.world import HealthWorld
from toolchaos.domains.lifestyle.world import LifestyleWorld
from toolchaos.domains.media.world import MediaWorld
from toolchaos.domains.personal_finance.world import FinanceWorld
from toolchaos.domains.productivity.world import WorkspaceWorld
from toolchaos.domains.transportation.world import TransportationWorld
from toolchaos.domains.weather.world import LocationWorld

SEED = 7
SEEDS = [0, 1, 7, 42, 2026]


NOTES = frozenset(
    {"fallbacks", "v2", "unit_conversions", "resolvers", "write_verifiers", "sources"}
)


class Declared(NamedTuple):
    """What a domain is expected to declare."""

    world_type: type[World]
    topic: str
    writes: frozenset[str]
    hostile_id: str  # an id of the domain's own shape, carrying an injection attempt
    notes: frozenset[str] = NOTES  # the sections of its notes for the hazard layer


DECLARED = {
    "commerce": Declared(
        CommerceWorld,
        "commerce",
        frozenset(
            {
                "create_return",
                "issue_refund",
                "cancel_subscription",
                "update_shipping_address",
                "apply_coupon_to_order",
            }
        ),
        "O-10001'; DROP TABLE orders;--",
        frozenset({"fallbacks", "write_verifiers", "unit_conversions", "sources"}),
    ),
    "communication": Declared(
        CommunicationWorld,
        "communication",
        frozenset(
            {
                "add_contact_to_group",
                "label_email",
                "send_email",
                "send_chat_message",
                "buy_data_addon",
                "buy_roaming_pass",
                "unsubscribe_newsletter",
                "schedule_message",
                "cancel_scheduled_message",
                "create_meeting",
            }
        ),
        "CT-1001'; DROP TABLE contacts;--",
    ),
    "devices": Declared(
        DevicesWorld,
        "technology and devices",
        frozenset(
            {
                "set_device_state",
                "create_repair_request",
                "cancel_repair_request",
                "schedule_update",
                "create_backup_job",
                "set_client_access",
                "enable_two_factor",
                "set_app_permission",
                "create_privacy_request",
            }
        ),
        "DEV-1234'; DROP TABLE devices;--",
    ),
    "government": Declared(
        GovernmentWorld,
        "government and public services",
        frozenset(
            {
                "book_appointment",
                "apply_for_permit",
                "withdraw_permit_application",
                "add_tax_deduction",
                "apply_for_benefit",
                "renew_vehicle_registration",
                "apply_for_id_document",
                "pay_citation",
                "contest_citation",
                "request_mail_ballot",
                "create_service_request",
            }
        ),
        "RES-10001'; DROP TABLE residents;--",
    ),
    "health": Declared(
        HealthWorld,
        "health and wellness",
        frozenset(
            {"request_refill", "book_appointment", "cancel_appointment", "log_workout", "log_meal"}
        ),
        "MBR-1000'; DROP TABLE members;--",
    ),
    "lifestyle": Declared(
        LifestyleWorld,
        "lifestyle and daily activities",
        frozenset(
            {
                "create_shopping_list",
                "add_list_item",
                "create_reservation",
                "cancel_reservation",
                "book_service",
                "complete_maintenance_task",
                "log_watering",
                "complete_chore",
                "create_occasion",
                "add_gift_idea",
            }
        ),
        "RST-101'; DROP TABLE restaurants;--",
    ),
    "media": Declared(
        MediaWorld,
        "entertainment and media",
        frozenset(
            {
                "submit_review",
                "book_tickets",
                "cancel_ticket_order",
                "add_to_watchlist",
                "create_playlist",
                "add_track_to_playlist",
                "renew_loan",
                "place_hold",
                "schedule_recording",
            }
        ),
        "SHW-12345'; DROP TABLE showtimes;--",
    ),
    "personal_finance": Declared(
        FinanceWorld,
        "personal finance",
        frozenset(
            {"set_budget", "pay_bill", "schedule_payment", "cancel_payment", "transfer_funds"}
        ),
        "ACC-10001'; DROP TABLE accounts;--",
    ),
    "productivity": Declared(
        WorkspaceWorld,
        "productivity and workflow",
        frozenset(
            {
                "create_event",
                "cancel_event",
                "book_room",
                "create_task",
                "update_task",
                "create_document",
                "log_time",
            }
        ),
        "TSK-00001'; DROP TABLE tasks;--",
    ),
    "transportation": Declared(
        TransportationWorld,
        "transportation and mobility",
        frozenset({"register_passenger", "book_seat", "cancel_booking", "change_booking"}),
        "ST-001'; DROP TABLE trips;--",
    ),
    "weather": Declared(
        LocationWorld,
        "location and environment",
        frozenset(
            {"save_place", "create_weather_alert", "update_weather_alert", "delete_weather_alert"}
        ),
        "LOC-1'; DROP TABLE locations;--",
    ),
}
NAMES = sorted(DECLARED)
TOOLS = [(name, tool) for name in NAMES for tool in sorted(get_domain(name).tools)]
ODD_TEXTS = ("", " ", "ünïcødé ☃", "x" * 500, ",,,", "2026-02-30")


# -- the domain as declared ----------------------------------------------------------------


def test_every_registered_domain_is_checked_here() -> None:
    assert set(DOMAINS) - {"fixture"} == set(DECLARED)


@pytest.mark.parametrize("name", NAMES)
def test_registered_domain_is_the_package_one(name: str) -> None:
    domain = get_domain(name)
    assert domain is importlib.import_module(f"toolchaos.domains.{name}").DOMAIN
    assert domain.name == name
    assert domain.world_type is DECLARED[name].world_type
    assert domain.topic == DECLARED[name].topic


@pytest.mark.parametrize("name", NAMES)
def test_tool_inventory(name: str) -> None:
    tools = get_domain(name).tools
    assert len(tools) >= 12
    writes = {tool for tool, t in tools.items() if t.kind is ToolKind.WRITE}
    assert writes == DECLARED[name].writes
    assert len(writes) >= 3


@pytest.mark.parametrize(("name", "tool"), TOOLS)
def test_tool_schema_is_valid_and_documented(name: str, tool: str) -> None:
    spec = get_domain(name).tools[tool].spec
    Draft202012Validator.check_schema(spec.parameters)
    assert spec.description.strip()
    assert spec.parameters["additionalProperties"] is False
    assert "world" not in spec.parameters["properties"]
    for prop, schema in spec.parameters["properties"].items():
        assert schema.get("description", "").strip(), f"{tool}.{prop} is undocumented"


@pytest.mark.parametrize("name", NAMES)
def test_notes_name_real_tools_and_parameters(name: str) -> None:
    domain = get_domain(name)
    notes = domain.notes
    assert {s for s in DomainNotes.model_fields if getattr(notes, s)} == DECLARED[name].notes
    assert notes.problems(domain.tools) == []  # checked when the domain was built, too
    for tool in domain.tools:
        assert notes.companions(tool) <= set(domain.tools)


# -- the seeded world ----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_world_and_different_seeds_differ(name: str) -> None:
    world_type = get_domain(name).world_type
    hashes = {seed: world_type.build(seed).state_hash() for seed in SEEDS}
    assert world_type.build(SEED).state_hash() == hashes[SEED]
    assert world_type.build(SEED).model_dump() == world_type.build(SEED).model_dump()
    assert len(set(hashes.values())) == len(SEEDS)


@pytest.mark.parametrize("name", NAMES)
def test_generate_reads_only_the_rng_it_is_given(name: str) -> None:
    world_type = get_domain(name).world_type
    random.seed(1)
    first = world_type.generate(random.Random(5), 5)
    random.seed(2)
    random.random()
    second = world_type.generate(random.Random(5), 5)
    assert first.state_hash() == second.state_hash()


# -- robustness ----------------------------------------------------------------------------


def odd_arguments(domain: Domain, tool: str) -> Iterator[dict[str, Any]]:
    """Schema-valid but unlikely arguments: odd strings, huge numbers, the enum values.

    Each set comes twice: with every parameter, then with the required ones alone.
    """
    schema = domain.tools[tool].spec.parameters
    for odd in (*ODD_TEXTS, DECLARED[domain.name].hostile_id):
        args: dict[str, Any] = {}
        for pname, prop in schema["properties"].items():
            if "enum" in prop:
                args[pname] = prop["enum"][len(odd) % len(prop["enum"])]
            elif prop["type"] == "string":
                args[pname] = odd
            elif prop["type"] == "integer":
                args[pname] = 10**12
            else:
                args[pname] = 1e308
        yield args
        yield {k: v for k, v in args.items() if k in schema["required"]}


@pytest.mark.parametrize(("name", "tool"), TOOLS)
def test_odd_arguments_raise_only_tool_errors(name: str, tool: str) -> None:
    domain = get_domain(name)
    world = domain.world(SEED).fork()
    for args in odd_arguments(domain, tool):
        try:
            result = domain.tools[tool](world, **args)
        except ToolError as error:
            assert 400 <= error.code < 500
        else:
            assert isinstance(result, dict) and "error" not in result
