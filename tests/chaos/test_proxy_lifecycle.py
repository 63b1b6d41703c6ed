"""The proxy's life as a process: signals, upstream errors and an upstream that dies.

Each test runs ``toolchaos proxy`` as a real subprocess in front of a real MCP server
(``mcp_mortal_server.py``) and speaks JSON-RPC to it line by line over its stdin and
stdout, as an MCP host does, so the test holds the proxy's pid and can signal it mid-session.
"""

from __future__ import annotations

import json
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from toolchaos.report.tables import build_report
from toolchaos.runner.store import Store

HERE = Path(__file__).resolve().parent
MORTAL = [sys.executable, str(HERE / "mcp_mortal_server.py")]


class Session:
    """One MCP client session with a proxy process, over its stdio."""

    def __init__(self, store: Path, *args: str, upstream: list[str] | None = None) -> None:
        command = [sys.executable, "-m", "toolchaos.cli", "proxy", "--out", str(store), *args]
        self.process = subprocess.Popen(
            [*command, "--", *(upstream or MORTAL)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self._ids = iter(range(1, 10_000))
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "lifecycle-test", "version": "1"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send a request and return its response (a result or an error)."""
        number = next(self._ids)
        self.send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                message = json.loads(self._lines.get(timeout=deadline - time.monotonic()))
            except queue.Empty:
                break
            if message.get("id") == number:
                return dict(message)
        raise AssertionError(f"no answer to {method} #{number}")

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def wait(self, timeout: float = 10) -> int:
        return self.process.wait(timeout=timeout)

    def stderr(self) -> str:
        assert self.process.stderr is not None
        return self.process.stderr.read().decode()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


def stored(directory: Path) -> list[dict[str, Any]]:
    """Every stored episode as its JSON."""
    store = Store.open_existing(directory, read_only=True)
    try:
        return [json.loads(data) for _, data in store.episode_json()]
    finally:
        store.close()


def shown_errors(answers: list[dict[str, Any]]) -> int:
    return sum(1 for a in answers if a.get("result", {}).get("isError"))


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_a_signal_after_ten_calls_keeps_all_ten(tmp_path: Path, stop: signal.Signals) -> None:
    session = Session(tmp_path / "run", "--plan", "transient")
    try:
        answers = [session.call("get_weather", city="Oslo") for _ in range(10)]
        session.process.send_signal(stop)
        code = session.wait()
    finally:
        session.close()
    assert code == (-stop if stop == signal.SIGKILL else 128 + stop)
    [episode] = stored(tmp_path / "run")
    assert [e["ordinal"] for e in episode["trace"]] == list(range(1, 11))
    # every error the client saw is a stored hazard event, and nothing else is
    assert shown_errors(answers) == len(episode["hazard_events"]) > 0
    ok = [not a["result"].get("isError") for a in answers]
    assert [e["observation"]["ok"] for e in episode["trace"]] == ok


def test_a_call_in_flight_at_sigterm_is_stored_as_cancelled(tmp_path: Path) -> None:
    session = Session(tmp_path / "run", "--plan", "transient", "--arm", "clean")
    try:
        session.call("get_weather", city="Oslo")
        session.send(
            {
                "jsonrpc": "2.0",
                "id": 999,
                "method": "tools/call",
                "params": {"name": "get_forecast", "arguments": {"city": "Oslo"}},
            }
        )
        time.sleep(1.0)  # the call reaches the upstream, which takes a minute
        session.process.send_signal(signal.SIGTERM)
        code = session.wait()
    finally:
        session.close()
    assert code == 128 + signal.SIGTERM
    [episode] = stored(tmp_path / "run")
    last = episode["trace"][-1]
    assert [e.get("fault") for e in episode["trace"]] == [None, "cancelled"]
    assert last["call"]["name"] == "get_forecast"
    assert last["observation"]["content"]["error"]["type"] == "cancelled"


def test_sigint_stops_the_proxy_with_stdin_still_open(tmp_path: Path) -> None:
    session = Session(tmp_path / "run", "--plan", "transient")
    try:
        for _ in range(3):
            session.call("get_weather", city="Oslo")
        session.process.send_signal(signal.SIGINT)  # stdin stays open, as in a terminal
        code = session.wait(timeout=30)  # it exits by itself (it used to hang here)
        err = session.stderr()
    finally:
        session.close()
    assert code == 128 + signal.SIGINT, err
    assert "stopped by SIGINT" in err and "Traceback" not in err
    [episode] = stored(tmp_path / "run")
    assert len(episode["trace"]) == 3


def test_an_upstream_json_rpc_error_is_forwarded_and_stored(tmp_path: Path) -> None:
    session = Session(tmp_path / "run", "--plan", "transient", "--arm", "clean")
    try:
        bad = session.call("get_station", station_id="XYZ")
        good = session.call("get_station", station_id="OSL-1")
    finally:
        session.close()
    assert bad["error"]["code"] == -32602 and "no station 'XYZ'" in bad["error"]["message"]
    assert not good["result"].get("isError")
    [episode] = stored(tmp_path / "run")
    first, second = episode["trace"]
    assert first["fault"] == "upstream" and not first["observation"]["ok"]
    assert first["observation"]["content"]["error"]["type"] == "upstream_error"
    assert "fault" not in second and second["observation"]["ok"]
    assert episode["status"] == "finished"  # a call answered after the upstream's error


def test_a_minus_32000_from_a_live_upstream_is_not_its_death(tmp_path: Path) -> None:
    session = Session(tmp_path / "run", "--plan", "transient", "--arm", "clean")
    try:
        busy = session.call("get_alerts", city="Oslo")
        after = session.call("get_weather", city="Oslo")
        alive = session.process.poll() is None
    finally:
        session.close()
    assert busy["error"] == {"code": -32000, "message": "alert service busy"}
    assert alive and after["result"]["structuredContent"]["call"] == 2


def test_an_http_upstream_that_goes_away_is_reported(tmp_path: Path) -> None:
    anyio = pytest.importorskip("anyio")
    from mcp import Client

    from toolchaos.chaos.proxy import open_proxy

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    server = subprocess.Popen(
        [sys.executable, str(HERE / "mcp_weather_server.py"), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.1)

        async def play() -> tuple[list[Any], Any]:
            url = f"http://127.0.0.1:{port}/mcp"
            async with (
                open_proxy(url, "transient", arm="clean", store=tmp_path / "run") as proxy,
                Client(proxy.server) as client,
            ):
                first = await client.call_tool("get_weather", {"city": "Oslo"})
                server.kill()
                server.wait(timeout=10)
                try:
                    await client.call_tool("get_weather", {"city": "Oslo"})
                except Exception as exc:
                    return [first.is_error, str(exc)], proxy.lost_on
            raise AssertionError("the call after the upstream went away succeeded")

        (was_error, message), lost_on = anyio.run(play)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
    assert not was_error and lost_on is not None
    assert f"The upstream MCP server http://127.0.0.1:{port} exited during this call" in message
    [episode] = stored(tmp_path / "run")
    assert [e.get("fault") for e in episode["trace"]] == [None, "upstream"]


def test_an_upstream_that_dies_stops_the_proxy(tmp_path: Path) -> None:
    session = Session(
        tmp_path / "run",
        "--plan",
        "transient",
        "--arm",
        "clean",
        upstream=[*MORTAL, "--die-after", "3"],
    )
    try:
        answers = [session.call("get_weather", city="Oslo") for _ in range(3)]
        lost = session.call("get_weather", city="Oslo")
        code = session.wait()
        err = session.stderr()
    finally:
        session.close()
    assert [a["result"]["structuredContent"]["call"] for a in answers] == [1, 2, 3]
    assert lost["error"]["code"] == -32603
    assert "mcp_mortal_server.py exited during this call" in lost["error"]["message"]
    assert code == 1
    assert "python" in err and "mcp_mortal_server.py is gone; the proxy stops" in err
    [episode] = stored(tmp_path / "run")
    assert [e.get("fault") for e in episode["trace"]] == [None, None, None, "upstream"]
    assert episode["trace"][3]["observation"]["content"]["error"]["type"] == "upstream_exited"
    assert episode["hazard_events"] == []  # the death is not a hazard toolchaos injected


def test_restart_upstream_respawns_it_up_to_n_times(tmp_path: Path) -> None:
    session = Session(
        tmp_path / "run",
        "--plan",
        "transient",
        "--arm",
        "clean",
        "--restart-upstream",
        "1",
        upstream=[*MORTAL, "--die-after", "3"],
    )
    try:
        first = [session.call("get_weather", city="Oslo") for _ in range(4)]
        second = [session.call("get_weather", city="Oslo") for _ in range(4)]
        code = session.wait()
        err = session.stderr()
    finally:
        session.close()
    # three answers, the death (restarted), three answers of the new process, its death
    assert [a["result"]["structuredContent"]["call"] for a in first[:3]] == [1, 2, 3]
    assert "restarted (restart 1 of 1); retry the call" in first[3]["error"]["message"]
    data = first[3]["error"]["data"]
    assert data["restarted"] and data["upstream"].endswith("mcp_mortal_server.py")
    assert [a["result"]["structuredContent"]["call"] for a in second[:3]] == [1, 2, 3]
    assert "not restarted; the proxy stops" in second[3]["error"]["message"]
    assert code == 1 and err.count("closed its connection") == 2
    [episode] = stored(tmp_path / "run")
    faults = [e.get("fault") for e in episode["trace"]]
    assert faults == [None, None, None, "upstream"] * 2


def test_concurrent_sessions_sigterm_to_half_keep_every_answered_call(tmp_path: Path) -> None:
    """Four proxies share one store; two are stopped mid-session: every answered call is kept."""
    store = tmp_path / "run"
    sessions = [Session(store, "--plan", "transient", "--model", "m") for _ in range(4)]
    seen: list[list[dict[str, Any]]] = [[] for _ in sessions]
    try:
        # interleaved, so that the four writers' transactions meet in the store
        for step in range(8):
            for number, session in enumerate(sessions):
                stopping = number % 2 == 0 and step == 4
                if stopping:
                    session.process.send_signal(signal.SIGTERM)
                if number % 2 == 1 or step < 4:
                    seen[number].append(session.call("get_weather", city="Oslo"))
            if step == 0:  # each session's episode is in the store while it plays
                assert len({e["key"] for e in stored(store)}) == 4
        codes = [s.wait() for s in sessions[0::2]]
    finally:
        for session in sessions:
            session.close()
    assert codes == [128 + signal.SIGTERM] * 2
    episodes = stored(store)
    assert sorted(e["sample"] for e in episodes) == [0, 1, 2, 3]
    assert sorted(len(e["trace"]) for e in episodes) == [4, 4, 8, 8]
    assert sum(len(e["trace"]) for e in episodes) == sum(len(s) for s in seen) == 24
    # every hazard event a client saw (an error result) is stored, and nothing else
    assert sum(len(e["hazard_events"]) for e in episodes) == sum(shown_errors(s) for s in seen)


def test_a_verdict_notification_scores_the_episode(tmp_path: Path) -> None:
    session = Session(tmp_path / "run", "--plan", "transient", "--arm", "clean")
    try:
        session.call("get_weather", city="Oslo")
        verdict = {"passed": True, "answer": "21.5"}
        session.send(
            {"jsonrpc": "2.0", "method": "notifications/toolchaos/verdict", "params": verdict}
        )
        after = session.call("get_weather", city="Oslo")  # answered after the verdict
        assert process_closed(session) == 0
    finally:
        session.close()
    assert not after["result"].get("isError")
    first, second = sorted(stored(tmp_path / "run"), key=lambda e: e["sample"])
    assert first["end_state"] == "verdict:pass" and first["final_answer"] == "21.5"
    assert len(first["trace"]) == 1 and len(second["trace"]) == 1
    assert second["end_state"] is None  # no verdict: unscored, not failed


def process_closed(session: Session) -> int:
    assert session.process.stdin is not None
    session.process.stdin.close()
    return session.wait(timeout=30)


def test_an_episode_ending_on_an_upstream_fault_is_indeterminate_an_injected_one_not(
    tmp_path: Path,
) -> None:
    # the transient plan fails get_station's first 1 or 2 calls (injected by toolchaos)
    failing = Session(tmp_path / "failing", "--plan", "transient", "--arm", "hazard")
    try:
        for _ in range(3):
            failing.call("get_station", station_id="OSL-1")
        lost = failing.call("get_station", station_id="XYZ")  # the real server's own error
        assert process_closed(failing) == 0
    finally:
        failing.close()
    healthy = Session(tmp_path / "healthy", "--plan", "transient", "--arm", "hazard")
    try:
        answers = [healthy.call("get_station", station_id="OSL-1") for _ in range(3)]
        assert process_closed(healthy) == 0
    finally:
        healthy.close()

    assert lost["error"]["code"] == -32602
    [episode] = stored(tmp_path / "failing")
    faults = [e.get("fault") for e in episode["trace"]]
    injected = faults.count("injected")
    assert injected in (1, 2) and faults == ["injected"] * injected + [None] * (3 - injected) + [
        "upstream"
    ]
    assert episode["status"] == "indeterminate"
    assert episode["error"].startswith("upstream: the episode ended on call 4 (get_station)")

    [kept] = stored(tmp_path / "healthy")
    assert shown_errors(answers) == injected  # the same seeded plan: the same hazard
    assert [e.get("fault") for e in kept["trace"]] == ["injected"] * injected + [None] * (
        3 - injected
    )
    assert kept["status"] == "finished" and kept["error"] is None

    frame = build_report([tmp_path / "failing", tmp_path / "healthy"]).frame
    assert sorted(frame["indeterminate"]) == [0, 1] and list(frame["error"]) == [0, 0]


def test_a_killed_session_that_last_hit_an_upstream_fault_is_stored_indeterminate(
    tmp_path: Path,
) -> None:
    session = Session(tmp_path / "run", "--plan", "transient", "--arm", "clean")
    try:
        session.call("get_weather", city="Oslo")
        session.call("get_station", station_id="XYZ")
    finally:
        session.close()  # SIGKILL: the proxy never settles the episode
    [episode] = stored(tmp_path / "run")
    assert [e.get("fault") for e in episode["trace"]] == [None, "upstream"]
    assert episode["status"] == "indeterminate"
