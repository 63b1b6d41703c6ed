"""The Pydantic AI adapter, driven by a real ``Agent`` with Pydantic AI's ``FunctionModel``."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from own_weather import TOOLS, TRUE_TEMP, assert_upstream_fault, station_offline
from pydantic import BaseModel

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.toolsets import FunctionToolset

from toolchaos.chaos.adapters.pydantic_ai import ChaosToolset
from toolchaos.core.errors import BadInput, ToolError
from toolchaos.report.tables import build_report

OUTAGE = {"profile": "outage", "fallbacks": {"get_weather": "weather_backup"}}


def weather_policy(recover: bool, listed: list[dict[str, Any]] | None = None) -> FunctionModel:
    """A model that asks for Oslo's weather and, if ``recover``, works around errors."""

    def call(tool: str, key: str = "city") -> ModelResponse:
        return ModelResponse(parts=[ToolCallPart(tool, {key: "Oslo"})])

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if listed is not None:
            listed.append({t.name: t.parameters_json_schema for t in info.function_tools})
        parts = [p for m in messages if isinstance(m, ModelRequest) for p in m.parts]
        results = [p.content for p in parts if isinstance(p, ToolReturnPart)]
        results = [json.loads(r) if isinstance(r, str) else r for r in results]
        calls = sum(
            isinstance(p, ToolCallPart)
            for m in messages
            if isinstance(m, ModelResponse)
            for p in m.parts
        )
        if not results:
            return call("get_weather")
        last = results[-1]
        if "error" not in last:
            return ModelResponse(parts=[TextPart(str(last["temp_c"]))])
        if not recover or calls >= 4:
            return ModelResponse(parts=[TextPart("unknown")])
        message = last["error"]["message"]
        if "maintenance" in message:
            return call("weather_backup")
        renamed = re.search(r"renamed to '(\w+)'", message)
        return call("get_weather", renamed.group(1) if renamed else "city")

    return FunctionModel(respond)


def test_outage_recovery_and_failure_are_stored_and_reported(tmp_path: Path) -> None:
    store = tmp_path / "run"
    for model, recover in (("recoverer", True), ("naive", False)):
        toolset = ChaosToolset(TOOLS, OUTAGE, store=store, target="pai-weather", model=model)
        agent = Agent(weather_policy(recover), toolsets=[toolset])
        for arm in ("clean", "hazard"):
            episode = toolset.episode(arm)
            answer = agent.run_sync("Weather in Oslo?").output
            assert episode.finish(answer, passed=answer == str(TRUE_TEMP)).trace
        toolset.close()

    report = build_report([store])
    passes = report.tables["own_tools_pass"].set_index(["model", "arm"])["pass_rate"]
    assert passes[("recoverer", "hazard")] == 1.0 and passes[("naive", "hazard")] == 0.0
    assert passes[("recoverer", "clean")] == 1.0 and passes[("naive", "clean")] == 1.0
    events = report.tables["own_tools_events"]
    assert set(events["variant"]) == {"outage"}
    moves = dict(zip(events["model"], events["next_move"], strict=False))
    assert moves == {"recoverer": "switch", "naive": "terminate"}
    assert "maintenance" in events["agent_saw"].iloc[0]
    actions = report.tables["own_tools_actions"].set_index("model")
    assert actions.loc["recoverer", "recovered"] == 1.0


def _drift(announce: bool) -> dict[str, Any]:
    return {
        "hazards": [
            {
                "family": "specification_drift",
                "variant": "renamed_parameter",
                "tool": "get_weather",
                "params": {"param": "city", "announce": announce},
            }
        ]
    }


def test_drift_reaches_the_plan_unvalidated_and_the_tool_with_the_documented_name() -> None:
    seen: list[str] = []

    def get_weather(city: str) -> dict[str, Any]:
        """Current weather in a city.

        Args:
            city: The city name.
        """
        seen.append(city)
        return {"city": city, "temp_c": TRUE_TEMP}

    # any toolset, not only functions: the plan binds at the first listing
    toolset = ChaosToolset(FunctionToolset([get_weather]).prefixed("wx"), _drift(False))
    assert toolset.session.engine is None
    with pytest.raises(BadInput, match="not offered"):
        asyncio.run(Agent(weather_policy(True), toolsets=[toolset]).run("Weather in Oslo?"))

    toolset = ChaosToolset([get_weather], _drift(False))
    agent = Agent(weather_policy(True), toolsets=[toolset])
    episode = toolset.episode()
    assert asyncio.run(agent.run("Weather in Oslo?")).output == str(TRUE_TEMP)
    sent = [json.loads(t.call.arguments) for t in episode.trace]
    assert sent == [{"city": "Oslo"}, {"city_v2": "Oslo"}]
    assert [t.observation.ok for t in episode.trace] == [False, True]
    assert seen == ["Oslo"]


def test_announced_drift_is_the_schema_the_model_sees() -> None:
    listed: list[dict[str, Any]] = []
    toolset = ChaosToolset(TOOLS, _drift(True))
    agent = Agent(weather_policy(True, listed), toolsets=[toolset])
    toolset.episode()
    assert agent.run_sync("Weather in Oslo?").output == str(TRUE_TEMP)
    assert "city_v2" in listed[0]["get_weather"]["properties"]
    toolset.episode("clean")
    agent.run_sync("Weather in Oslo?")
    assert "city" in listed[-1]["get_weather"]["properties"]


def test_a_tool_that_raises_is_logged_as_an_upstream_fault_and_the_episode_indeterminate() -> None:
    toolset = ChaosToolset([station_offline], "transient", arm="clean")
    agent = Agent(weather_policy(False), toolsets=[toolset])
    with pytest.raises(RuntimeError, match="station offline"):
        agent.run_sync("Weather in Oslo?")
    assert_upstream_fault(toolset.current.trace, toolset.finish)


def test_a_tool_error_of_yours_is_an_error_observation_not_a_crash() -> None:
    def get_weather(city: str) -> dict[str, Any]:
        """Current weather in a city.

        Args:
            city: The city name.
        """
        raise ToolError(f"No station in {city}.", code=404, kind="not_found")

    toolset = ChaosToolset([get_weather], "transient", arm="clean")
    agent = Agent(weather_policy(False), toolsets=[toolset])
    assert agent.run_sync("Weather in Oslo?").output == "unknown"
    (entry,) = toolset.current.trace
    assert entry.observation.content["error"]["message"] == "No station in Oslo."


class Reading(BaseModel):
    city: str
    temp_c: float


def typed_weather(city: str) -> Reading:
    """Typed weather (module level: pydantic-ai resolves the annotation by name).

    Args:
        city: The city name.
    """
    return Reading(city=city, temp_c=TRUE_TEMP)


def test_a_hazard_on_a_text_field_of_a_typed_tool_is_refused() -> None:
    def plan(field: str) -> dict[str, Any]:
        hazard = {"family": "output_drift", "variant": "number_as_string", "tool": "typed_weather"}
        return {"hazards": [{**hazard, "params": {"field": field}}]}

    with pytest.raises(BadInput, match=r"cannot change field 'city'.*gives it as string"):
        ChaosToolset([typed_weather], plan("city"))
    assert ChaosToolset([typed_weather], plan("temp_c")).session.engine is not None
