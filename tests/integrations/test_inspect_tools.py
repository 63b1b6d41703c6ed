"""Hazards on your own Inspect tools, driven offline by Inspect's mock model.

The mock model is a scripted agent reading Inspect's messages: it asks for Oslo's
weather and, if it recovers, switches to the backup on an outage or follows a renamed
parameter; the naive one gives up at the first error.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

inspect_ai = pytest.importorskip("inspect_ai")

from inspect_ai import Task  # noqa: E402
from inspect_ai.dataset import Sample  # noqa: E402
from inspect_ai.model import (  # noqa: E402
    ChatCompletionChoice,
    ChatMessageAssistant,
    ChatMessageTool,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.scorer import match  # noqa: E402
from inspect_ai.solver import generate, use_tools  # noqa: E402
from inspect_ai.tool import Tool, ToolCall, tool  # noqa: E402

from toolchaos.integrations.inspect import ChaosInspectTools  # noqa: E402
from toolchaos.report.tables import build_report  # noqa: E402
from toolchaos.runner.store import Store  # noqa: E402

TRUE_TEMP = 21.5
OUTAGE = {"profile": "outage", "fallbacks": {"get_weather": "weather_backup"}}
SEEN: list[str] = []


@tool
def get_weather() -> Tool:
    async def execute(city: str, units: str = "metric") -> str:
        """Current weather in a city.

        Args:
            city: The city name.
            units: metric or imperial.
        """
        SEEN.append(city)
        return json.dumps({"city": city, "temp_c": TRUE_TEMP})

    return execute


@tool
def weather_backup() -> Tool:
    async def execute(city: str) -> str:
        """The backup weather provider.

        Args:
            city: The city name.
        """
        return json.dumps({"city": city, "temp_c": TRUE_TEMP})

    return execute


def agent(recover: bool, listed: list[dict[str, Any]] | None = None) -> Any:
    """Inspect's mock model as a scripted agent (its own usage: no tiktoken download)."""

    def reply(content: str = "", call: tuple[str, str, str] | None = None) -> ModelOutput:
        calls = None
        if call is not None:
            calls = [ToolCall(id=f"c{call[0]}", function=call[1], arguments={call[2]: "Oslo"})]
        return ModelOutput(
            model="mockllm/model",
            choices=[
                ChatCompletionChoice(
                    message=ChatMessageAssistant(content=content, tool_calls=calls),
                    stop_reason="tool_calls" if calls else "stop",
                )
            ],
            usage=ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2),
        )

    async def respond(input: list, tools: list, tool_choice: Any, config: Any) -> ModelOutput:
        if listed is not None:
            listed.append({t.name: t.parameters.model_dump(exclude_none=True) for t in tools})
        results = [m for m in input if isinstance(m, ChatMessageTool)]
        turn = str(len(results))
        if not results:
            return reply(call=(turn, "get_weather", "city"))
        last = results[-1]
        if last.error is None:
            return reply(str(json.loads(last.text)["temp_c"]))
        if not recover or len(results) >= 4:
            return reply("unknown")
        message = json.loads(last.error.message)["error"]["message"]
        if "maintenance" in message:
            return reply(call=(turn, "weather_backup", "city"))
        renamed = re.search(r"renamed to '(\w+)'", message)
        return reply(call=(turn, "get_weather", renamed.group(1) if renamed else "city"))

    return get_model("mockllm/model", custom_outputs=respond, memoize=False)


def evaluate(chaos: ChaosInspectTools, model: Any, log_dir: Path) -> Any:
    samples = [
        Sample(input="Weather in Oslo?", target=str(TRUE_TEMP), metadata={"toolchaos_arm": a})
        for a in ("clean", "hazard")
    ]
    task = Task(
        dataset=samples,
        solver=[use_tools(chaos), generate()],
        scorer=chaos.scorer(match()),
    )
    (log,) = inspect_ai.eval(task, model=model, log_dir=str(log_dir), display="none")
    assert log.status == "success", log.error
    return log


def test_outage_recovery_and_failure_reach_the_store_and_the_report(tmp_path: Path) -> None:
    store = tmp_path / "run"
    logs = {}
    for name, recover in (("recoverer", True), ("naive", False)):
        chaos = ChaosInspectTools(
            [get_weather(), weather_backup()],
            OUTAGE,
            store=store,
            target="inspect-weather",
            model=name if recover else None,  # the naive one keeps Inspect's model name
        )
        logs[name] = evaluate(chaos, agent(recover), tmp_path / name)
        chaos.close()

    by_arm = {
        (name, s.metadata["toolchaos_arm"]): s for name, log in logs.items() for s in log.samples
    }
    assert {k: s.scores["match"].value for k, s in by_arm.items()} == {
        ("recoverer", "clean"): "C",
        ("recoverer", "hazard"): "C",
        ("naive", "clean"): "C",
        ("naive", "hazard"): "I",
    }
    events = by_arm[("naive", "hazard")].scores["match"].metadata["toolchaos"]["hazard_events"]
    assert [e["variant"] for e in events] == ["outage"]
    error = next(m for m in by_arm[("naive", "hazard")].messages if isinstance(m, ChatMessageTool))
    assert error.error is not None and json.loads(error.error.message)["error"]["code"] == 503

    episodes = {(e.model, e.arm): e for e in Store.open_existing(store).episodes()}
    assert set(episodes) == {
        ("recoverer", "clean"),
        ("recoverer", "hazard"),
        ("inspect/mockllm/model", "clean"),
        ("inspect/mockllm/model", "hazard"),
    }
    recovered = episodes[("recoverer", "hazard")]
    assert [(t.call.name, t.observation.ok) for t in recovered.trace] == [
        ("get_weather", False),
        ("weather_backup", True),
    ]
    assert recovered.end_state == "verdict:pass" and recovered.final_answer == str(TRUE_TEMP)
    assert episodes[("inspect/mockllm/model", "hazard")].end_state == "verdict:fail"

    report = build_report([store])
    passes = report.tables["own_tools_pass"].set_index(["model", "arm"])["pass_rate"]
    assert (
        passes[("recoverer", "hazard")] == 1.0
        and passes[("inspect/mockllm/model", "hazard")] == 0.0
    )
    assert (
        passes[("recoverer", "clean")] == 1.0 and passes[("inspect/mockllm/model", "clean")] == 1.0
    )
    table = report.tables["own_tools_events"]
    assert set(table["variant"]) == {"outage"}
    moves = dict(zip(table["model"], table["next_move"], strict=False))
    assert moves == {"recoverer": "switch", "inspect/mockllm/model": "terminate"}
    assert "maintenance" in table["agent_saw"].iloc[0]
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


def test_stale_drift_reaches_the_plan_and_the_tool_gets_the_documented_name(
    tmp_path: Path,
) -> None:
    SEEN.clear()
    listed: list[dict[str, Any]] = []
    chaos = ChaosInspectTools([get_weather()], _drift(False), store=tmp_path / "run")
    log = evaluate(chaos, agent(True, listed), tmp_path / "logs")
    assert [s.scores["match"].value for s in log.samples] == ["C", "C"]
    # the docs are stale in both arms: the model sees `city`, never `city_v2`
    assert all("city_v2" not in seen["get_weather"]["properties"] for seen in listed)
    hazard = next(e for e in Store.open_existing(tmp_path / "run").episodes() if e.arm == "hazard")
    sent = [json.loads(t.call.arguments) for t in hazard.trace]
    assert sent == [{"city": "Oslo"}, {"city_v2": "Oslo"}]
    assert SEEN == ["Oslo", "Oslo"]  # clean arm once, hazard arm mapped back once
    chaos.close()


def test_announced_drift_is_the_schema_the_model_sees(tmp_path: Path) -> None:
    listed: list[dict[str, Any]] = []
    chaos = ChaosInspectTools([get_weather()], _drift(True), arm="hazard")
    task = Task(
        dataset=[Sample(input="Weather in Oslo?", target=str(TRUE_TEMP))],
        solver=[use_tools(chaos), generate()],
        scorer=chaos.scorer(match()),
    )
    (log,) = inspect_ai.eval(task, model=agent(True, listed), log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    assert "city_v2" in listed[0]["get_weather"]["properties"]
    assert log.samples[0].scores["match"].metadata["toolchaos"]["arm"] == "hazard"
