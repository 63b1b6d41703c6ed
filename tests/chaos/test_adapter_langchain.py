"""The LangChain adapter, driven by the real ``create_agent`` with a scripted chat model."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from own_weather import TOOLS, TRUE_TEMP, assert_upstream_fault, station_offline

pytest.importorskip("langchain")

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool, tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from toolchaos.chaos.adapters.langchain import ChaosMiddleware
from toolchaos.core.errors import ToolError
from toolchaos.report.tables import build_report

OUTAGE = {"profile": "outage", "fallbacks": {"get_weather": "weather_backup"}}


class WeatherPolicyModel(BaseChatModel):
    """A LangChain chat model that asks for Oslo's weather and, if ``recover``, works around
    errors; it reads the schemas it is bound to, like a real model."""

    recover: bool = True
    offered: list[dict[str, Any]] = Field(default_factory=list)
    seen_tools: list[list[dict[str, Any]]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "weather-policy"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        offered = [convert_to_openai_tool(t) for t in tools]
        self.seen_tools.append(offered)
        return self.model_copy(update={"offered": offered})

    def _call(self, tool: str, key: str = "city") -> AIMessage:
        return AIMessage(content="", tool_calls=[{"name": tool, "args": {key: "Oslo"}, "id": ""}])

    def _decide(self, messages: list[BaseMessage]) -> AIMessage:
        results = [json.loads(m.text) for m in messages if isinstance(m, ToolMessage)]
        calls = sum(len(m.tool_calls) for m in messages if isinstance(m, AIMessage))
        if not results:
            return self._call("get_weather")
        last = results[-1]
        if "error" not in last:
            return AIMessage(content=str(last["temp_c"]))
        if not self.recover or calls >= 4:
            return AIMessage(content="unknown")
        message = last["error"]["message"]
        if "maintenance" in message:
            return self._call("weather_backup")
        renamed = re.search(r"renamed to '(\w+)'", message)
        return self._call("get_weather", renamed.group(1) if renamed else "city")

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        reply = self._decide(messages)
        for i, call in enumerate(reply.tool_calls):
            call["id"] = f"call_{len(messages)}_{i}"
        return ChatResult(generations=[ChatGeneration(message=reply)])


def lc_tools() -> list[BaseTool]:
    return [tool(fn, parse_docstring=True) for fn in TOOLS]


def run_agent(agent: Any) -> str:
    state = agent.invoke({"messages": [("user", "Weather in Oslo?")]})
    return str(state["messages"][-1].text)


def test_outage_recovery_and_failure_are_stored_and_reported(tmp_path: Path) -> None:
    store = tmp_path / "run"
    for model, recover in (("recoverer", True), ("naive", False)):
        tools = lc_tools()
        chaos = ChaosMiddleware(tools, OUTAGE, store=store, target="lc-weather", model=model)
        agent = create_agent(WeatherPolicyModel(recover=recover), tools, middleware=[chaos])
        for arm in ("clean", "hazard"):
            episode = chaos.episode(arm)
            answer = run_agent(agent)
            assert episode.finish(answer, passed=answer == str(TRUE_TEMP)).trace
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


def _drift(announce: bool) -> dict[str, Any]:
    params = {"param": "city", "announce": announce}
    return {
        "hazards": [
            {
                "family": "specification_drift",
                "variant": "renamed_parameter",
                "tool": "get_weather",
                "params": params,
            }
        ]
    }


def test_drift_maps_the_new_name_back_and_async_runs_the_same_way() -> None:
    seen: list[str] = []

    @tool(parse_docstring=True)
    def get_weather(city: str) -> dict[str, Any]:
        """Current weather in a city.

        Args:
            city: The city name.
        """
        seen.append(city)
        return {"city": city, "temp_c": TRUE_TEMP}

    chaos = ChaosMiddleware([get_weather], _drift(announce=False))
    model = WeatherPolicyModel()
    agent = create_agent(model, [get_weather], middleware=[chaos])
    episode = chaos.episode()
    assert run_agent(agent) == str(TRUE_TEMP)
    sent = [json.loads(t.call.arguments) for t in episode.trace]
    assert sent == [{"city": "Oslo"}, {"city_v2": "Oslo"}]
    assert [t.observation.ok for t in episode.trace] == [False, True]
    assert seen == ["Oslo"]  # the LangChain tool got the documented name, once

    episode = chaos.episode()
    state = asyncio.run(agent.ainvoke({"messages": [("user", "Weather in Oslo?")]}))
    assert state["messages"][-1].text == str(TRUE_TEMP)
    assert [e.variant for e in episode.hazard_events] == ["renamed_parameter"]
    assert seen == ["Oslo", "Oslo"]


def test_announced_drift_is_the_schema_the_model_is_bound_to() -> None:
    tools = lc_tools()
    chaos = ChaosMiddleware(tools, _drift(announce=True))
    model = WeatherPolicyModel()
    agent = create_agent(model, tools, middleware=[chaos])
    chaos.episode()
    run_agent(agent)
    bound = {t["function"]["name"]: t["function"]["parameters"] for t in model.seen_tools[-1]}
    assert "city_v2" in bound["get_weather"]["properties"]
    assert "city" in bound["weather_backup"]["properties"]
    chaos.episode("clean")
    run_agent(agent)
    bound = {t["function"]["name"]: t["function"]["parameters"] for t in model.seen_tools[-1]}
    assert "city" in bound["get_weather"]["properties"]


def test_a_tool_that_raises_is_logged_as_an_upstream_fault_and_the_episode_indeterminate() -> None:
    offline = tool(station_offline, parse_docstring=True)
    chaos = ChaosMiddleware([offline], "transient", arm="clean")
    agent = create_agent(WeatherPolicyModel(recover=False), [offline], middleware=[chaos])
    with pytest.raises(RuntimeError, match="station offline"):
        run_agent(agent)
    assert_upstream_fault(chaos.current.trace, chaos.finish)


def test_a_tool_error_of_yours_is_an_error_observation_not_a_crash() -> None:
    @tool(parse_docstring=True)
    def get_weather(city: str) -> dict[str, Any]:
        """Current weather in a city.

        Args:
            city: The city name.
        """
        raise ToolError(f"No station in {city}.", code=404, kind="not_found")

    chaos = ChaosMiddleware([get_weather], "transient", arm="clean")
    agent = create_agent(WeatherPolicyModel(recover=False), [get_weather], middleware=[chaos])
    assert run_agent(agent) == "unknown"
    (entry,) = chaos.current.trace
    assert entry.observation.content["error"] == {
        "code": 404,
        "type": "not_found",
        "message": "No station in Oslo.",
    }
