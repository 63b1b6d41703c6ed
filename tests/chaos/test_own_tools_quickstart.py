"""docs/own-tools.md, step by step, against the example MCP server it ships.

Each test runs what the page tells a reader to run, as real processes over stdio: the
quickstart (the proxy in front of ``docs/examples/weather_mcp_server.py``, a real
``mcp.Client`` in front of it, then ``toolchaos report``), the MCP host's config snippet
(its command and arguments, with the page's placeholders filled in), the cache hints a
client sees after each handshake, and a Pydantic AI agent with an ``MCPToolset`` behind
``ChaosToolset`` in the page's order. Every process is bounded by a timeout.
"""

from __future__ import annotations

import json
import re
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters

from toolchaos.report.tables import build_report

ROOT = Path(__file__).parents[2]
DOC = ROOT / "docs" / "own-tools.md"
SERVER = ROOT / "docs" / "examples" / "weather_mcp_server.py"
TOOLCHAOS = [sys.executable, "-m", "toolchaos.cli"]
TIMEOUT = 60
VENV_BIN = Path(sys.executable).parent


def blocks(language: str) -> list[str]:
    """The page's fenced code blocks in ``language``."""
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def block_with(language: str, *needles: str) -> str:
    """The page's one ``language`` block that holds every needle."""
    found = [b for b in blocks(language) if all(n in b for n in needles)]
    assert len(found) == 1, f"docs/own-tools.md: {len(found)} {language} blocks hold {needles}"
    return found[0]


def venv_env() -> dict[str, str]:
    """The environment of a reader whose virtualenv is active (its bin first on PATH)."""
    import os

    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


async def weather_until_answered(params: StdioServerParameters) -> tuple[list[bool], float]:
    """Call get_weather for Oslo until it answers (at most 4 tries), as an agent would."""
    errors: list[bool] = []
    async with Client(params, cache=None, read_timeout_seconds=TIMEOUT) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        assert listed == {"get_weather", "weather_backup", "list_cities"}
        for _ in range(4):
            result = await client.call_tool("get_weather", {"city": "Oslo"})
            errors.append(result.is_error)
            if not result.is_error:
                assert result.structured_content is not None
                return errors, float(result.structured_content["temp_c"])
    return errors, float("nan")


def test_the_example_server_answers_directly() -> None:
    params = StdioServerParameters(command=sys.executable, args=[str(SERVER)])
    errors, temp = anyio.run(weather_until_answered, params)
    assert errors == [False] and temp == 21.5


def test_the_quickstart_runs_against_the_example_server(tmp_path: Path) -> None:
    # the page's steps, run as written from a copy of the clone's layout
    examples = tmp_path / "docs" / "examples"
    examples.mkdir(parents=True)
    (examples / SERVER.name).write_bytes(SERVER.read_bytes())
    script = block_with("python", "StdioServerParameters", "weather_mcp_server.py")
    (tmp_path / "quickstart.py").write_text(script, encoding="utf-8")
    steps = block_with("sh", "python quickstart.py").splitlines()
    assert "python quickstart.py" in steps and "toolchaos report runs/mcp" in steps
    env = venv_env()
    ran = subprocess.run(
        ["python", "quickstart.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    # the transient profile fails the first 1 or 2 calls, then the server answers (its
    # text passes through as the server wrote it, over several lines)
    errors, answer = ran.stdout.split("\nok ", 1) if "\nok " in ran.stdout else (ran.stdout, "")
    lines = errors.splitlines()
    assert 1 <= len(lines) <= 2 and answer, ran.stdout
    assert all(line.startswith("error ") for line in lines), ran.stdout
    assert json.loads(answer)["temp_c"] == 21.5, ran.stdout
    report = subprocess.run(
        ["toolchaos", "report", "runs/mcp"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert report.returncode == 0, report.stderr
    events = build_report([tmp_path / "runs" / "mcp"]).tables["own_tools_events"]
    assert list(events["variant"]) == ["transient"] * len(lines)


def host_config(store: Path) -> dict[str, Any]:
    """The page's MCP host config, its placeholders filled in for this checkout."""
    (snippet,) = [b for b in blocks("json") if '"mcpServers"' in b]
    filled = (
        snippet.replace("/path/to/toolchaos/.venv/bin/toolchaos", str(VENV_BIN / "toolchaos"))
        .replace("/path/to/toolchaos/.venv/bin/python", sys.executable)
        .replace("/path/to/toolchaos", str(ROOT))
        .replace("/path/to/runs", str(store))
    )
    assert "/path/to" not in filled, filled
    config: dict[str, Any] = json.loads(filled)
    return config


def test_the_mcp_host_config_starts_a_working_proxy(tmp_path: Path) -> None:
    (entry,) = host_config(tmp_path / "runs")["mcpServers"].values()
    assert Path(entry["command"]).is_absolute()  # a host does not read your shell's PATH
    params = StdioServerParameters(command=entry["command"], args=entry["args"])
    errors, temp = anyio.run(weather_until_answered, params)
    assert temp == 21.5 and 1 <= sum(errors) <= 2
    stored = list((tmp_path / "runs").rglob("episodes.sqlite"))
    assert stored, "the host's proxy stored nothing"


def raw_listing(protocol: str) -> dict[str, Any]:
    """tools/list through the proxy after an ``initialize`` handshake at ``protocol``."""
    command = [*TOOLCHAOS, "proxy", "--plan", "transient", "--", sys.executable, str(SERVER)]
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": protocol,
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        try:
            answers: dict[int, Any] = {}
            for message in messages:
                process.stdin.write(json.dumps(message) + "\n")
                process.stdin.flush()
                if "id" in message:
                    answers[message["id"]] = json.loads(process.stdout.readline())
            process.stdin.close()
            process.wait(timeout=TIMEOUT)
        finally:
            if process.poll() is None:
                process.kill()
    assert answers[1]["result"]["protocolVersion"] == protocol
    listing: dict[str, Any] = answers[2]["result"]
    return listing


@pytest.mark.parametrize("protocol", ["2025-06-18", "2025-11-25"])
def test_an_initialize_handshake_gets_no_cache_hints(protocol: str) -> None:
    listing = raw_listing(protocol)
    assert {t["name"] for t in listing["tools"]} == {"get_weather", "weather_backup", "list_cities"}
    assert "ttlMs" not in listing and "cacheScope" not in listing  # as the page says


def test_the_newest_protocol_gets_the_cache_hints() -> None:
    args = [*TOOLCHAOS[1:], "proxy", "--plan", "transient", "--", sys.executable, str(SERVER)]

    async def listing() -> tuple[str, Any, Any]:
        params = StdioServerParameters(command=sys.executable, args=args)
        async with Client(params, cache=None) as client:
            tools = await client.list_tools()
            return str(client.protocol_version), tools.ttl_ms, tools.cache_scope

    version, ttl, scope = anyio.run(listing)
    assert (version, ttl, scope) == ("2026-07-28", 0, "private")


def test_pydantic_ai_with_an_mcp_toolset_in_the_documented_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pydantic_ai")
    pytest.importorskip("fastmcp")  # pydantic-ai-slim[mcp]
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

    from toolchaos.chaos.adapters.pydantic_ai import ChaosToolset
    from toolchaos.core.errors import BadInput

    def retrying(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        parts = [p for m in messages if isinstance(m, ModelRequest) for p in m.parts]
        returned = [p.content for p in parts if isinstance(p, ToolReturnPart)]
        data = [json.loads(c) if isinstance(c, str) else c for c in returned]
        if data and "error" not in data[-1]:
            return ModelResponse(parts=[TextPart(str(data[-1]["temp_c"]))])
        if len(data) >= 4:
            return ModelResponse(parts=[TextPart("unknown")])
        return ModelResponse(parts=[ToolCallPart("get_weather", {"city": "Oslo"})])  # retry

    examples = tmp_path / "docs" / "examples"
    examples.mkdir(parents=True)
    (examples / SERVER.name).write_bytes(SERVER.read_bytes())
    monkeypatch.chdir(tmp_path)
    block = block_with("python", "MCPToolset(", "toolset.finish(")
    namespace: dict[str, Any] = {
        "Agent": Agent,
        "ChaosToolset": ChaosToolset,
        "model": FunctionModel(retrying),
    }
    script = tmp_path / "pai_mcp.py"
    script.write_text(block, encoding="utf-8")
    namespace = runpy.run_path(str(script), init_globals=namespace)  # the page's own code
    assert namespace["result"].output == "21.5"
    stored = build_report([tmp_path / "runs" / "pai-mcp"]).tables["own_tools_events"]
    assert set(stored["variant"]) == {"transient"}
    # opening an episode before the first listing is one sentence saying what to do
    early = ChaosToolset(namespace["server"], "transient")
    with pytest.raises(BadInput, match="give the arm to the adapter"):
        early.episode()


def test_a_drift_on_a_text_field_is_refused_when_the_proxy_starts(tmp_path: Path) -> None:
    # issue #30: number_as_string and unit_change on a text field stored events
    # ("reported in cents") for results the client received untouched; the example
    # server's output schema types `city` as text, so the plan is refused at start
    # (an untyped field's no-op drift stores no event: tests/chaos/test_composition.py)
    import importlib.util

    from toolchaos.chaos.proxy import open_proxy
    from toolchaos.core.errors import BadInput

    spec = importlib.util.spec_from_file_location("weather_mcp_server", SERVER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    store = tmp_path / "run"
    for variant, extra in (
        ("number_as_string", {}),
        ("unit_change", {"factor": 100, "unit": "cents"}),
    ):
        drift = {
            "family": "output_drift",
            "variant": variant,
            "tool": "get_weather",
            "params": {"field": "city", **extra},
        }

        async def session(plan: dict[str, Any] = {"hazards": [drift]}) -> None:  # noqa: B006
            async with open_proxy(Client(module.server), plan, store=store):
                raise AssertionError("the proxy started")

        with pytest.raises(BadInput, match="cannot change field 'city'"):
            anyio.run(session)
    if store.exists():  # whatever the recorder opened holds no episode
        from toolchaos.runner.store import Store

        opened = Store.open_existing(store, read_only=True)
        try:
            assert opened.count() == 0
        finally:
            opened.close()
