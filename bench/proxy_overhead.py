"""The MCP proxy's overhead per call: p50/p95 latency direct vs through the proxy, side by side.

``python bench/proxy_overhead.py [--calls N] [--sessions S]`` calls ``get_current_time`` of
``mcp-server-time`` (a real third-party MCP server, in the dev extra) over stdio with the
official ``mcp`` client, directly and through ``toolchaos proxy --arm clean`` (the proxy
spawning its own ``mcp-server-time``), alternating the two so that drift in the machine's
speed falls on both: first in one session, then in S concurrent sessions. Start-up is not
timed. Prints one line per setting; the figures in bench/README.md come from it.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

TIME = shutil.which("mcp-server-time") or str(Path(sys.executable).with_name("mcp-server-time"))


def command(proxied: bool, store: Path) -> StdioServerParameters:
    if not proxied:
        return StdioServerParameters(command=TIME, args=[])
    args = ["-m", "toolchaos.cli", "proxy", "--plan", "transient", "--arm", "clean"]
    return StdioServerParameters(
        command=sys.executable, args=[*args, "--out", str(store), "--", TIME]
    )


async def session(proxied: bool, calls: int, store: Path, took: list[float]) -> None:
    async with Client(command(proxied, store), cache=None) as client:
        await client.call_tool("get_current_time", {"timezone": "Etc/UTC"})  # warm-up
        for _ in range(calls):
            began = time.perf_counter()
            await client.call_tool("get_current_time", {"timezone": "Etc/UTC"})
            took.append(time.perf_counter() - began)


async def measure(proxied: bool, sessions: int, calls: int, store: Path) -> list[float]:
    took: list[float] = []
    async with anyio.create_task_group() as group:
        for _ in range(sessions):
            group.start_soon(session, proxied, calls, store, took)
    return took


def shown(took: list[float]) -> str:
    p50 = statistics.median(took) * 1000
    p95 = statistics.quantiles(took, n=20)[-1] * 1000
    return f"p50 {p50:6.2f} ms  p95 {p95:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="calls per session")
    parser.add_argument("--sessions", type=int, default=20, help="concurrent sessions")
    parser.add_argument("--rounds", type=int, default=2, help="direct/proxy alternations")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        store = Path(scratch) / "run"
        for sessions, calls in ((1, options.calls), (options.sessions, options.calls // 4)):
            results: dict[bool, list[float]] = {False: [], True: []}
            for _ in range(options.rounds):
                for proxied in (False, True):
                    results[proxied] += anyio.run(measure, proxied, sessions, calls, store)
            for proxied in (False, True):
                label = "proxy " if proxied else "direct"
                print(f"{sessions:2d} session(s) {label}: {shown(results[proxied])}")


if __name__ == "__main__":
    main()
