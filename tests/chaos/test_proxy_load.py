"""The proxy under load: 20 concurrent client sessions x 50 calls into one store.

The upstream is a real third-party MCP server from the package index (``mcp-server-time``,
in the ``test`` extra). The proxies are real processes serving streamable HTTP on
127.0.0.1 (``toolchaos proxy --serve http``), one episode per client session; the clients
are the official ``mcp`` client, all sessions concurrent in one event loop. What every
client saw (its answers, the injected errors among them) must be exactly what the store
holds; with SIGTERM sent to half the proxies mid-run, every call answered before the
signal must be stored too.
"""

from __future__ import annotations

import json
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
TIME_SERVER = shutil.which("mcp-server-time") or str(
    Path(sys.executable).with_name("mcp-server-time")
)
if not Path(TIME_SERVER).exists():
    pytest.skip("mcp-server-time (the test extra) is not installed", allow_module_level=True)

import anyio  # noqa: E402
from mcp import Client  # noqa: E402

from toolchaos.runner.store import Store  # noqa: E402

SESSIONS = 20
CALLS = 50


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def http_proxy(store: Path, model: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A proxy process serving streamable HTTP in front of mcp-server-time, once it serves."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "toolchaos.cli",
        "proxy",
        "--plan",
        "transient",
        "--serve",
        "http",
        "--port",
        str(port),
        "--out",
        str(store),
        "--model",
        model,
        "--target",
        "time",
        "--",
        TIME_SERVER,
    ]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    said: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            said.put(line.decode())

    threading.Thread(target=pump, daemon=True).start()
    try:
        lines = []
        while True:
            line = said.get(timeout=60)
            lines.append(line)
            if "serving http://" in line:
                break
            assert process.poll() is None, lines
        yield process, f"http://127.0.0.1:{port}/mcp"
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=30)


async def session(url: str, calls: int, seen: list[bool], stop: anyio.Event | None) -> None:
    """One client session: ``calls`` calls (until the proxy goes away), each answer's isError."""
    try:
        async with Client(url, cache=None, mode="legacy") as client:
            for _ in range(calls):
                if stop is not None and stop.is_set():
                    return
                result = await client.call_tool("get_current_time", {"timezone": "Europe/Oslo"})
                if not result.is_error:
                    assert json.loads(result.content[0].text)["timezone"] == "Europe/Oslo"
                seen.append(bool(result.is_error))
    except Exception:  # the proxy was stopped: the calls before are what counts
        if stop is None or not stop.is_set():
            raise


def stored(directory: Path) -> list[dict[str, Any]]:
    store = Store.open_existing(directory, read_only=True)
    try:
        return [json.loads(data) for _, data in store.episode_json()]
    finally:
        store.close()


def profile(episode: dict[str, Any]) -> tuple[int, int]:
    """(calls, injected errors) of a stored episode, as its client counts them."""
    return len(episode["trace"]), len(episode["hazard_events"])


def test_twenty_sessions_of_fifty_calls_are_all_stored(tmp_path: Path) -> None:
    store = tmp_path / "run"
    seen: list[list[bool]] = [[] for _ in range(SESSIONS)]
    with http_proxy(store, "m") as (_, url):

        async def play() -> None:
            async with anyio.create_task_group() as group:
                for calls in seen:
                    group.start_soon(session, url, CALLS, calls, None)

        anyio.run(play)
    episodes = stored(store)
    assert sum(len(calls) for calls in seen) == SESSIONS * CALLS
    assert len(episodes) == SESSIONS and len({e["key"] for e in episodes}) == SESSIONS
    assert sum(len(e["trace"]) for e in episodes) == SESSIONS * CALLS
    # each session's calls and the injected errors it saw are one stored episode's, exactly
    assert sorted(profile(e) for e in episodes) == sorted((len(s), sum(s)) for s in seen)
    assert sum(sum(s) for s in seen) > 0  # the plan did inject errors
    # every stored event is one a client saw: an error answer, on the call it names
    for episode in episodes:
        failed = [e["ordinal"] for e in episode["trace"] if not e["observation"]["ok"]]
        assert sorted(e["ordinal"] for e in episode["hazard_events"]) == failed


def test_sigterm_to_half_the_proxies_keeps_every_answered_call(tmp_path: Path) -> None:
    store = tmp_path / "run"
    halves = 2
    per_proxy = SESSIONS // halves
    seen: list[list[bool]] = [[] for _ in range(SESSIONS)]
    with http_proxy(store, "m") as (kept, kept_url), http_proxy(store, "m") as (stopped, url):
        stop = anyio.Event()

        async def signal_midway() -> None:
            while sum(len(s) for s in seen[per_proxy:]) < per_proxy * CALLS // 2:
                await anyio.sleep(0.01)
            stopped.send_signal(signal.SIGTERM)
            stop.set()

        async def play() -> None:
            async with anyio.create_task_group() as group:
                for number, calls in enumerate(seen):
                    if number < per_proxy:
                        group.start_soon(session, kept_url, CALLS, calls, None)
                    else:
                        group.start_soon(session, url, CALLS, calls, stop)
                group.start_soon(signal_midway)

        anyio.run(play)
        assert stopped.wait(timeout=30) == 128 + signal.SIGTERM and kept.poll() is None
    episodes = stored(store)
    answered = sorted((len(s), sum(s)) for s in seen if s)
    kept_calls = sum(len(s) for s in seen[:per_proxy])
    assert kept_calls == per_proxy * CALLS
    assert 0 < sum(len(s) for s in seen[per_proxy:]) < per_proxy * CALLS
    # a call cut off by the signal may be stored as cancelled; no answered call is missing
    cut = [e for ep in episodes for e in ep["trace"] if e.get("fault") == "cancelled"]
    assert (
        sorted(
            (
                len(ep["trace"]) - sum(1 for e in ep["trace"] if e.get("fault") == "cancelled"),
                len(ep["hazard_events"]),
            )
            for ep in episodes
        )
        == answered
    ), cut
