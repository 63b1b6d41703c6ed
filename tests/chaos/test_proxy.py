"""The MCP proxy between a real mcp client and a real MCP server (in process, stdio, HTTP)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

mcp = pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters  # noqa: E402
from mcp_weather_server import TRUE_TEMP, server  # noqa: E402

from toolchaos.chaos.proxy import open_proxy  # noqa: E402
from toolchaos.core.errors import BadInput  # noqa: E402
from toolchaos.report.tables import build_report  # noqa: E402

HERE = Path(__file__).parent
UPSTREAM_CMD = [sys.executable, str(HERE / "mcp_weather_server.py")]


def plan(*hazards: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"hazards": list(hazards), **extra}


def hz(
    family: str, variant: str, tool: str = "get_weather", ordinals: Any = "all", **params: Any
) -> dict[str, Any]:
    return {
        "family": family,
        "variant": variant,
        "tool": tool,
        "ordinals": ordinals,
        "params": params,
    }


def text(result: Any) -> Any:
    return json.loads(result.content[0].text)


async def naive(client: Client) -> Any:
    result = await client.call_tool("get_weather", {"city": "Oslo"})
    return None if result.is_error else text(result).get("temp_c")


async def recovering(client: Client) -> Any:
    """The recovery recipe: retry transient errors, adapt renamed parameters, fall back, unwrap."""
    tool, args = "get_weather", {"city": "Oslo"}
    for _ in range(6):
        result = await client.call_tool(tool, args)
        body = text(result)
        if not result.is_error:
            body = body.get("data", body)
            return body.get("temp_c")
        message = body["error"]["message"]
        if "renamed to" in message:
            new = message.split("renamed to '")[1].split("'")[0]
            args = {new: args.pop(next(iter(args)))}
        elif "maintenance" in message:
            tool, args = "weather_backup", {"city": "Oslo"}
    return None


async def play(
    plan_: Any, policy: Any, upstream: Any = None, **options: Any
) -> tuple[Any, list[Any], Any]:
    async with open_proxy(upstream or Client(server), plan_, **options) as proxy:
        async with Client(proxy.server) as client:
            listing = await client.list_tools()
            answer = await policy(client)
        return answer, [e.model_dump() for e in proxy.episode.hazard_events], listing


@pytest.mark.parametrize(
    ("hazard", "check"),
    [
        (hz("specification_drift", "renamed_parameter", param="city"), "renamed to 'city_v2'"),
        (
            hz("invocation_error", "strict_format", param="city"),
            "does not match the required format",
        ),
        (hz("execution_failure", "transient", ordinals=[1], error="503"), "Service Unavailable"),
        (hz("output_drift", "nested_shape"), '"data"'),
        (
            hz("cross_source_conflict", "stale_source", field="temp_c"),
            str(round(TRUE_TEMP * 1.2, 2)),
        ),
    ],
)
def test_each_family_is_seen_on_the_wire(hazard: dict[str, Any], check: str) -> None:
    async def first_call(client: Client) -> str:
        result = await client.call_tool("get_weather", {"city": "Oslo"})
        return result.content[0].text

    seen, events, listing = anyio.run(play, plan(hazard), first_call)
    assert check in seen
    assert events and events[0]["family"] == hazard["family"]
    assert listing.ttl_ms == 0 and listing.cache_scope == "private"


def test_same_plan_same_events() -> None:
    first = anyio.run(play, "everything", recovering)
    assert first[1] and first == anyio.run(play, "everything", recovering)


def test_recovery_reaches_the_true_answer_and_naive_does_not(tmp_path: Path) -> None:
    chosen = plan(
        hz("execution_failure", "transient", ordinals=[1], error="503"),
        hz("specification_drift", "renamed_parameter", param="city"),
        hz("output_drift", "nested_shape"),
    )
    answer, _, _ = anyio.run(play, chosen, recovering)
    assert answer == TRUE_TEMP
    assert anyio.run(play, chosen, naive)[0] is None
    outage = plan(hz("execution_failure", "outage", fallback="weather_backup"))
    store = tmp_path / "run"
    assert (
        anyio.run(lambda: play(outage, recovering, store=store, model="recoverer"))[0] == TRUE_TEMP
    )
    report = build_report([store])
    assert list(report.tables["own_tools_events"]["next_move"]) == ["switch"]


def test_proxy_over_stdio_to_a_stdio_upstream() -> None:
    chosen = plan(hz("execution_failure", "transient", ordinals=[1], error="503"))
    answer, events, _ = anyio.run(lambda: play(chosen, recovering, upstream=UPSTREAM_CMD))
    assert answer == TRUE_TEMP and len(events) == 1

    async def through_cli() -> Any:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "toolchaos.cli", "proxy", "--plan", "transient", "--", *UPSTREAM_CMD],
        )
        async with Client(params) as client:
            first = await client.call_tool("get_weather", {"city": "Oslo"})
            return first.is_error, await recovering(client)

    assert anyio.run(through_cli) == (True, TRUE_TEMP)


def test_unreachable_upstream_is_one_sentence_and_exit_2() -> None:
    with pytest.raises(
        BadInput, match=r"cannot reach the upstream MCP server http://127\.0\.0\.1:9"
    ):
        anyio.run(play, "transient", naive, "http://user:secret@127.0.0.1:9/mcp")
    with pytest.raises(BadInput) as info:
        anyio.run(play, "transient", naive, "http://user:secret@127.0.0.1:9/mcp")
    assert "secret" not in str(info.value)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolchaos.cli",
            "proxy",
            "--plan",
            "transient",
            "--",
            "http://127.0.0.1:9/mcp",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "cannot reach the upstream MCP server" in done.stderr


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def http_upstream() -> Iterator[str]:
    """The weather server in its own process, over streamable HTTP on 127.0.0.1."""
    port = free_port()
    process = subprocess.Popen(
        [*UPSTREAM_CMD, "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the HTTP upstream did not start on port {port}") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_proxy_to_a_streamable_http_upstream(http_upstream: str, tmp_path: Path) -> None:
    # in process: the proxy's client speaks streamable HTTP to the upstream's process
    chosen = plan(hz("specification_drift", "renamed_parameter", param="city"))
    store = tmp_path / "run"

    async def rejected_then_recovered(client: Client) -> Any:
        first = await client.call_tool("get_weather", {"city": "Oslo"})
        assert first.is_error and "renamed to 'city_v2'" in first.content[0].text
        return await recovering(client)

    answer, events, listing = anyio.run(
        lambda: play(chosen, rejected_then_recovered, http_upstream, store=store, model="http")
    )
    assert answer == TRUE_TEMP
    assert {e["variant"] for e in events} == {"renamed_parameter"}
    assert {t.name for t in listing.tools} == {"get_weather", "weather_backup"}
    report = build_report([store])
    assert set(report.tables["own_tools_events"]["variant"]) == {"renamed_parameter"}

    # through the CLI: a real stdio client in front, the HTTP upstream behind
    async def through_cli() -> Any:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "toolchaos.cli", "proxy", "--plan", "transient", "--", http_upstream],
        )
        async with Client(params) as client:
            first = await client.call_tool("get_weather", {"city": "Oslo"})
            return first.is_error, text(first)["error"]["code"], await recovering(client)

    is_error, code, recovered = anyio.run(through_cli)
    assert is_error and code in (429, 503, 504) and recovered == TRUE_TEMP


@pytest.mark.parametrize(
    ("hazard", "message", "upstream"),
    [
        (
            "{family: output_drift, variant: teleport, tool: get_weather}",
            "no variant 'teleport'",
            "mcp_weather_server.py",
        ),
        (
            "{family: output_drift, variant: nested_shape, tool: get_stock}",
            "not offered",
            "mcp_weather_server.py",
        ),
        # the upstream's outputSchema types `city` as text: a unit change cannot apply
        (
            "{family: output_drift, variant: unit_change, tool: structured,"
            " params: {field: city, factor: 100, unit: cents}}",
            "cannot change field 'city'",
            "mcp_everything_server.py",
        ),
    ],
)
def test_a_bad_plan_for_the_upstream_is_one_sentence_and_exit_2(
    tmp_path: Path, hazard: str, message: str, upstream: str
) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text(f"hazards:\n  - {hazard}\n", encoding="utf-8")
    server = Path(__file__).with_name(upstream)
    command = [sys.executable, "-m", "toolchaos.cli", "proxy", "--plan", str(plan), "--"]
    done = subprocess.run(
        [*command, sys.executable, str(server)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr
    assert message in " ".join(done.stderr.split()) and "Traceback" not in done.stderr


def test_a_bad_variant_is_refused_before_the_upstream_is_reached(tmp_path: Path) -> None:
    """The plan is checked first: a dead upstream does not hide the plan's own mistake."""
    plan = tmp_path / "plan.yaml"
    plan.write_text(
        "hazards:\n  - {family: execution_failure, variant: transiant, tool: get_weather}\n",
        encoding="utf-8",
    )
    command = [sys.executable, "-m", "toolchaos.cli", "proxy", "--plan", str(plan), "--"]
    done = subprocess.run(
        [*command, str(tmp_path / "no-such-server")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr
    assert "no variant 'transiant'; did you mean 'transient'?" in done.stderr
    assert "upstream" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_an_upstream_writing_other_than_json_rpc_is_said_in_one_line(tmp_path: Path) -> None:
    """No pydantic traceback: the line it wrote, then why the proxy stops."""
    talker = tmp_path / "talker.py"
    talker.write_text(
        "import time\nprint('hello, I am not json-rpc', flush=True)\ntime.sleep(5)\n",
        encoding="utf-8",
    )
    hello = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "1"},
            },
        }
    )
    command = [sys.executable, "-m", "toolchaos.cli", "proxy", "--plan", "transient", "--"]
    done = subprocess.run(
        [*command, sys.executable, str(talker)],
        input=hello + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert (
        "the upstream wrote a line that is not JSON-RPC: 'hello, I am not json-rpc'" in done.stderr
    )
    assert "Traceback" not in done.stderr and "validation error" not in done.stderr
