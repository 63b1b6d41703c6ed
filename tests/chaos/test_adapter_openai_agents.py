"""The OpenAI Agents SDK adapter, driven by the real SDK against the fake OpenAI server."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from own_weather import TOOLS, TRUE_TEMP, assert_upstream_fault, station_offline

pytest.importorskip("agents")

from agents import Agent, FunctionTool, OpenAIChatCompletionsModel, RunConfig, Runner
from agents.exceptions import UserError
from openai import AsyncOpenAI

from toolchaos.chaos.adapters.openai_agents import ChaosAgentTools
from toolchaos.core.errors import ToolError
from toolchaos.report.tables import build_report
from toolchaos.testing import FakeOpenAI, Reply

OUTAGE = {"profile": "outage", "fallbacks": {"get_weather": "weather_backup"}}


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)


def weather_policy(recover: bool) -> Any:
    """A fake model that asks for Oslo's weather and, if ``recover``, works around errors.

    It fills every required parameter of the listed schema (the SDK's strict tools require
    all of them), as a model constrained to the schema would.
    """

    def call(body: dict[str, Any], tool: str, city_key: str = "city") -> Reply:
        listed = {t["function"]["name"]: t["function"]["parameters"] for t in body["tools"]}
        defaults = {"city": "Oslo", "units": "metric"}
        required = listed[tool].get("required", [])
        arguments = {p: defaults[p] for p in required if p in defaults and p != "city"}
        return Reply.call(tool, {city_key: "Oslo", **arguments})

    def respond(body: dict[str, Any], index: int) -> Reply:
        messages = body["messages"]
        results = [json.loads(_text(m["content"])) for m in messages if m["role"] == "tool"]
        calls = sum(len(m.get("tool_calls") or []) for m in messages if m["role"] == "assistant")
        if not results:
            return call(body, "get_weather")
        last = results[-1]
        if "error" not in last:
            return Reply(content=str(last["temp_c"]))
        if not recover or calls >= 4:
            return Reply(content="unknown")
        message = last["error"]["message"]
        if "maintenance" in message:
            return call(body, "weather_backup")
        renamed = re.search(r"renamed to '(\w+)'", message)
        if renamed:
            return call(body, "get_weather", renamed.group(1))
        return call(body, "get_weather")

    return respond


def run_agent(server: FakeOpenAI, tools: list[Any]) -> str:
    client = AsyncOpenAI(base_url=server.base_url, api_key="sk-test", max_retries=0)
    agent = Agent(
        name="weather",
        instructions="Answer with the temperature in Oslo.",
        tools=tools,
        model=OpenAIChatCompletionsModel(model="m1", openai_client=client),
    )
    config = RunConfig(tracing_disabled=True)
    result = asyncio.run(Runner.run(agent, "Weather in Oslo?", run_config=config, max_turns=8))
    return str(result.final_output)


def test_outage_recovery_and_failure_are_stored_and_reported(tmp_path: Path) -> None:
    store = tmp_path / "run"
    for model, recover in (("recoverer", True), ("naive", False)):
        chaos = ChaosAgentTools(TOOLS, OUTAGE, store=store, target="agents-weather", model=model)
        for arm in ("clean", "hazard"):
            run = chaos.episode(arm)
            assert all(isinstance(t, FunctionTool) for t in run.tools)
            with FakeOpenAI(weather_policy(recover)) as server:
                answer = run_agent(server, run.tools)
            stored = run.finish(answer, passed=answer == str(TRUE_TEMP))
            assert stored.trace, "every call went through the episode"
        chaos.close()

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


def test_drift_maps_the_new_name_back_to_the_sdk_tool() -> None:
    seen: list[dict[str, Any]] = []

    def get_weather(city: str) -> dict[str, Any]:
        """Current weather in a city.

        Args:
            city: The city name.
        """
        seen.append({"city": city})
        return {"city": city, "temp_c": TRUE_TEMP}

    plan = {
        "hazards": [
            {
                "family": "specification_drift",
                "variant": "renamed_parameter",
                "tool": "get_weather",
                "params": {"param": "city"},
            }
        ]
    }
    run = ChaosAgentTools([get_weather], plan).episode()
    with FakeOpenAI(weather_policy(recover=True)) as server:
        answer = run_agent(server, run.tools)
        sent = [json.loads(c["function"]["arguments"]) for c in _tool_calls(server)]
    assert answer == str(TRUE_TEMP)
    assert sent == [{"city": "Oslo"}, {"city_v2": "Oslo"}]
    assert seen == [{"city": "Oslo"}]  # the SDK tool got the documented name, once
    assert [e.variant for e in run.hazard_events] == ["renamed_parameter"]
    assert [t.observation.ok for t in run.episode.trace] == [False, True]


def _tool_calls(server: FakeOpenAI) -> list[dict[str, Any]]:
    return [
        call
        for message in server.requests[-1]["messages"]
        if message["role"] == "assistant"
        for call in message.get("tool_calls") or []
    ]


def test_a_tool_that_raises_is_logged_as_an_upstream_fault_and_the_episode_indeterminate() -> None:
    run = ChaosAgentTools([station_offline], "transient").episode("clean")
    with (
        FakeOpenAI(weather_policy(recover=False)) as server,
        pytest.raises(UserError, match="station offline"),
    ):
        run_agent(server, run.tools)
    assert_upstream_fault(run.episode.trace, run.episode.finish)


def test_a_tool_error_of_yours_is_an_error_observation_not_a_crash() -> None:
    def get_weather(city: str) -> dict[str, Any]:
        """Current weather in a city.

        Args:
            city: The city name.
        """
        raise ToolError(f"No station in {city}.", code=404, kind="not_found")

    run = ChaosAgentTools([get_weather], "transient").episode("clean")
    with FakeOpenAI(weather_policy(recover=False)) as server:
        assert run_agent(server, run.tools) == "unknown"
    (entry,) = run.episode.trace
    assert not entry.observation.ok
    assert entry.observation.content["error"]["message"] == "No station in Oslo."


def test_current_and_finish_reach_the_episode_opened_last(tmp_path: Path) -> None:
    from toolchaos.core.errors import BadInput

    chaos = ChaosAgentTools(TOOLS, OUTAGE, store=tmp_path / "run", model="recoverer")
    with pytest.raises(BadInput, match="no episode is open"):
        chaos.finish("21.5")
    run = chaos.episode()
    assert chaos.current is run
    with FakeOpenAI(weather_policy(recover=True)) as server:
        answer = run_agent(server, chaos.current.tools)
    stored = chaos.finish(answer, passed=answer == str(TRUE_TEMP))
    assert stored.end_state == "verdict:pass" and stored is run.episode.finished
    assert [e.variant for e in stored.hazard_events] == ["outage"]
    fresh = chaos.current  # the last one finished: a new one, in the hazard arm
    assert fresh is not run and fresh.episode.arm == "hazard" and fresh.episode.finished is None
    chaos.close()
