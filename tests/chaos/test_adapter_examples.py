"""The own-tools example agent runs offline: behind the proxy, and under the pytest plugin."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from toolchaos.core.types import Message, ToolCall, ToolSpec
from toolchaos.models.base import ModelRequest, ModelResponse
from toolchaos.report.tables import build_report

pytest.importorskip("mcp")

EXAMPLES = Path(__file__).parents[2] / "docs" / "examples"


def example() -> Any:
    spec = importlib.util.spec_from_file_location(
        "own_tools_agent", EXAMPLES / "own_tools_agent.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_agent_behind_the_proxy_recovers_and_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    written = anyio.run(example().main, str(tmp_path / "run"))
    assert written == (tmp_path / "run" / "report.md").resolve() and written.is_file()
    assert f"report: {written}" in capsys.readouterr().out
    report = build_report([tmp_path / "run"])
    passes = report.tables["own_tools_pass"]
    assert set(passes["arm"]) == {"clean", "hazard"} and (passes["pass_rate"] == 1.0).all()
    events = report.tables["own_tools_events"]
    assert {"transient", "renamed_parameter", "outage"} <= set(events["variant"])


def test_the_example_agent_under_the_pytest_plugin(tmp_path: Path) -> None:
    store = tmp_path / "store"
    command = [sys.executable, "-m", "pytest", str(EXAMPLES / "own_tools_pytest.py"), "-q"]
    command += ["-p", "no:cacheprovider", "--toolchaos-store", str(store)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "under hazard: 5/5" in done.stdout
    passes = build_report([store]).tables["own_tools_pass"]
    assert (passes["pass_rate"] == 1.0).all() and len(passes) >= 4


class ToyModel:
    """A model client that asks for the weather, falls back on an error, then answers."""

    def __init__(self) -> None:
        self.requests: list[ModelRequest] = []

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        last = request.messages[-1]
        if last.role == "user":
            call = ToolCall(id="c1", name="get_weather", arguments='{"city": "Oslo"}')
        elif last.content and '"error"' in last.content:
            call = ToolCall(id="c2", name="weather_backup", arguments='{"city": "Oslo"}')
        else:
            return ModelResponse(message=Message(role="assistant", content=f"It is {last.content}"))
        return ModelResponse(message=Message(role="assistant", tool_calls=[call]))


def test_the_example_loop_for_a_model_client() -> None:
    module = example()
    calls: list[str] = []

    async def call(tool: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
        calls.append(tool)
        if tool == "get_weather":
            return False, {"error": {"code": 503, "message": "down for maintenance"}}
        return True, {"temp_c": module.TEMP_C}

    model = ToyModel()
    toolbox = [
        ToolSpec(name=name, description=name, parameters={"type": "object", "properties": {}})
        for name in ("get_weather", "weather_backup")
    ]
    answer = anyio.run(module.model_agent(model), call, toolbox)
    assert calls == ["get_weather", "weather_backup"] and module.passed(answer)
    assert model.requests[0].tools == toolbox
    assert [m.role for m in model.requests[-1].messages][-2:] == ["assistant", "tool"]


def test_the_example_falls_back_to_the_script_without_the_local_model(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from toolchaos.models.pull import model_path

    engines = importlib.util.find_spec("xllamacpp") or importlib.util.find_spec("llama_cpp")
    if engines and model_path("qwen2.5-coder-0.5b").is_file():
        pytest.skip("the local model is installed here")
    module = example()
    name, agent = module.choose_agent("local/qwen2.5-coder-0.5b")
    assert (name, agent) == ("scripted", module.scripted_agent)
    assert "running the scripted decisions instead" in capsys.readouterr().out


def test_model_client_refuses_a_scripted_baseline() -> None:
    from toolchaos.chaos import model_client
    from toolchaos.core.errors import BadInput

    with pytest.raises(BadInput, match="plays a suite's tasks"):
        model_client("scripted/oracle")
