"""Shared fixtures: a tiny weather domain and hand-made tasks over it, fast and offline."""

from __future__ import annotations

import random
from typing import Any, Literal, Self

import pytest

from toolchaos.core.errors import ToolError
from toolchaos.core.tools import tool
from toolchaos.core.types import (
    AnswerSpec,
    HazardFamily,
    HazardSpec,
    RecoveryStep,
    Reference,
    RefStep,
    TaskSpec,
    ToolKind,
)
from toolchaos.core.world import Row, World
from toolchaos.domains import REGISTRY, Domain, tool_map


class City(Row):
    name: str
    temp_c: float
    humidity: int


class Alert(Row):
    city: str
    threshold_c: float


class WeatherWorld(World):
    TABLES = ("cities", "alerts")
    cities: dict[str, City]
    alerts: dict[str, Alert]

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        names = ["Oslo", "Lima", "Pune", "Kobe", "Nice"]
        cities = {
            n.lower(): City(
                name=n, temp_c=round(rng.uniform(-5, 30), 1), humidity=rng.randint(20, 90)
            )
            for n in names
        }
        return cls(seed=seed, cities=cities, alerts={})


def _city(world: WeatherWorld, city: str) -> City:
    row = world.cities.get(city.lower())
    if row is None:
        raise ToolError(f"city '{city}' not found", code=404, kind="not_found")
    return row


@tool()
def get_weather(world: WeatherWorld, city: str) -> dict[str, Any]:
    """Current weather of a city. If unavailable, use get_weather_backup.

    Args:
        city: The city's name, e.g. Oslo.
    """
    row = _city(world, city)
    return {"city": row.name, "temp_c": row.temp_c, "humidity_pct": row.humidity}


@tool()
def get_weather_backup(world: WeatherWorld, city: str) -> dict[str, Any]:
    """Current weather from an independent backup station network.

    Args:
        city: The city's name, e.g. Oslo.
    """
    row = _city(world, city)
    return {"city": row.name, "temp_c": row.temp_c, "station": f"BK-{row.name[:2].upper()}"}


@tool()
def list_cities(world: WeatherWorld, order: Literal["name", "temp"] = "name") -> dict[str, Any]:
    """List the cities with weather data.

    Args:
        order: Sort order of the list.
    """
    rows = sorted(world.cities.values(), key=lambda r: r.name if order == "name" else r.temp_c)
    return {"cities": [r.name for r in rows]}


@tool(kind=ToolKind.WRITE)
def set_alert(world: WeatherWorld, city: str, threshold_c: float) -> dict[str, Any]:
    """Create a temperature alert for a city.

    Args:
        city: The city's name.
        threshold_c: Alert when the temperature goes above this, in degrees Celsius.
    """
    row = _city(world, city)
    alert_id = world.next_id("AL")
    world.insert("alerts", alert_id, Alert(city=row.name, threshold_c=threshold_c))
    return {"alert_id": alert_id, "city": row.name, "threshold_c": threshold_c}


FIXTURE = Domain(
    name="fixture",
    topic="weather",
    world_type=WeatherWorld,
    tools=tool_map([get_weather, get_weather_backup, list_cities, set_alert]),
    notes={
        "fallbacks": {"get_weather": {"tool": "get_weather_backup", "args_map": {"city": "city"}}},
        "unit_conversions": {"temp_c": {"to_unit": "F-offset", "factor": 1.8}},
    },
)
REGISTRY["fixture"] = f"{__name__}:FIXTURE"


def make_task(
    task_id: str = "fx-1",
    hazard: HazardSpec | None = None,
    workflow: Literal["sequential", "parallel", "mixture"] = "parallel",
    writes: bool = False,
) -> TaskSpec:
    """A fixture task: the summed temperature of three cities (or an alert, when writes)."""
    from toolchaos.build.validate import replay_reference

    if writes:
        steps = [
            RefStep(tool="get_weather", args={"city": "Oslo"}),
            RefStep(tool="set_alert", args={"city": {"$ref": [0, "city"]}, "threshold_c": 25.0}),
        ]
        answer = AnswerSpec(op="none")
    else:
        steps = [RefStep(tool="get_weather", args={"city": c}) for c in ("Oslo", "Lima", "Pune")]
        answer = AnswerSpec(op="sum", refs=[[i, "temp_c"] for i in range(3)], round=1)
    tools = ["get_weather", "get_weather_backup", "list_cities", "set_alert"]
    task = TaskSpec(
        id=task_id,
        suite="toolbench-x",
        domain="fixture",
        topic="weather",
        subtopic="current weather",
        workflow=workflow,
        prompt="What do the temperatures of Oslo, Lima and Pune add up to?",
        tools=tools,
        reference=Reference(steps=steps, answer_spec=answer, writes=writes),
        hazard=hazard,
    )
    run = replay_reference(task)
    ref = task.reference.model_copy(
        update={"answer": run.answer, "end_state": run.end_state if writes else None}
    )
    return task.model_copy(update={"reference": ref})


def transient(k: int = 2, error: str = "503") -> HazardSpec:
    return HazardSpec(
        family=HazardFamily.EXECUTION_FAILURE,
        variant="transient",
        tool="get_weather",
        ordinals=list(range(1, k + 1)),
        params={"error": error},
        recovery=[RecoveryStep(action="retry", params={"max_attempts": k + 1})],
    )


def outage() -> HazardSpec:
    return HazardSpec(
        family=HazardFamily.EXECUTION_FAILURE,
        variant="outage",
        tool="get_weather",
        recovery=[
            RecoveryStep(
                action="fallback",
                params={"tool": "get_weather_backup", "args_map": {"city": "city"}},
            )
        ],
    )


def renamed() -> HazardSpec:
    return HazardSpec(
        family=HazardFamily.OUTPUT_DRIFT,
        variant="renamed_field",
        tool="get_weather",
        params={"field": "temp_c", "to": "tempC"},
        recovery=[RecoveryStep(action="normalize", params={"rename": {"tempC": "temp_c"}})],
    )


def unit_change() -> HazardSpec:
    return HazardSpec(
        family=HazardFamily.OUTPUT_DRIFT,
        variant="unit_change",
        tool="get_weather",
        params={"field": "temp_c", "factor": 1.8, "unit": "F-offset"},
        recovery=[
            RecoveryStep(
                action="convert", params={"field": "temp_c", "divide_by": 1.8, "unit": "F-offset"}
            )
        ],
    )


HAZARDS = {
    "transient": transient,
    "outage": outage,
    "renamed_field": renamed,
    "unit_change": unit_change,
}


@pytest.fixture
def fixture_world() -> WeatherWorld:
    return WeatherWorld.build(7)
