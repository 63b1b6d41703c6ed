"""Runs on a dask.distributed LocalCluster (127.0.0.1): a killed worker, a killed
coordinator and provider limits shared by every worker, against a local fake model API."""

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from toolchaos.core.errors import BadInput
from toolchaos.core.types import Episode
from toolchaos.models.config import ModelEntry
from toolchaos.report.tables import load_frame
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.testing.fake_openai import FakeOpenAI, Responder, echo_tool_then_answer

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")

QUIET = Console(quiet=True)
TASKS = 30  # shipped ToolBench-X tasks, clean and hazard arms: about 60 episodes


class Counting:
    """A responder that holds each request a while and records the most in flight."""

    def __init__(self, inner: Responder, hold_s: float) -> None:
        self.inner = inner
        self.hold_s = hold_s
        self.lock = threading.Lock()
        self.active = 0
        self.peak = 0

    def __call__(self, body: dict[str, Any], index: int) -> Any:
        with self.lock:
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            time.sleep(self.hold_s)
            return self.inner(body, index)
        finally:
            with self.lock:
                self.active -= 1


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(Counting(echo_tool_then_answer(), 0.05)) as fake:
        yield fake


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    settings = {
        "distributed.scheduler.locks.lease-timeout": "5s",
        "distributed.scheduler.locks.lease-validation-interval": "1s",
    }
    with dask.config.set(settings):
        local = distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=2,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
        client = distributed.Client(local)
        try:
            yield local
        finally:
            client.close()
            local.close()


def config(server: FakeOpenAI, **kw: object) -> RunConfig:
    base: dict[str, object] = {
        "suite": "toolbench-x",
        "models": [ModelEntry(spec="openai-compat/echo", base_urls=[server.base_url])],
        "arms": ["clean", "hazard"],
        "limit": TASKS,
        "concurrency": 8,
    }
    base.update(kw)
    return RunConfig(**base)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def local_run(server: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("local") / "run"
    assert run(config(server), out, QUIET).errors == 0
    return out


def stored(directory: Path) -> int:
    path = directory / "episodes.sqlite"
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def conversation(episode: Episode) -> list[tuple[Any, ...]]:
    return [
        (m.role, m.content, [(c.name, c.arguments) for c in m.tool_calls]) for m in episode.messages
    ]


def assert_same_store(a: Path, b: Path) -> None:
    left = load_frame([a]).set_index("key").sort_index()
    right = load_frame([b]).set_index("key").sort_index()
    assert list(left.index) == list(right.index)
    for column in ("correct", "status", "error", "n_calls", "bad_calls"):
        assert (left[column].fillna("") == right[column].fillna("")).all(), column
    episodes = [
        {e.key: e for e in Store.open_existing(d, read_only=True).episodes()} for d in (a, b)
    ]
    for key, episode in episodes[0].items():
        other = episodes[1][key]
        # the fake server numbers tool-call ids by request, across all conversations
        assert conversation(episode) == conversation(other), key
        assert episode.final_answer == other.final_answer, key
        assert episode.hazard_events == other.hazard_events, key
        assert episode.end_state == other.end_state, key


@pytest.mark.slow
def test_a_killed_worker_loses_nothing(
    cluster: Any, server: FakeOpenAI, local_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dask"
    client = distributed.Client(cluster.scheduler_address)
    pids = client.run(os.getpid)
    result: dict[str, Any] = {}

    def play() -> None:
        try:
            result["summary"] = run(
                config(server, executor="dask", scheduler=cluster.scheduler_address), out, QUIET
            )
        except BaseException as exc:
            result["error"] = exc

    player = threading.Thread(target=play)
    player.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and player.is_alive() and time.monotonic() < deadline:
        busy = [w for w, keys in client.processing().items() if keys and w in pids]
        if busy and stored(out) > 0:
            killed = pids[busy[0]]
            os.kill(killed, signal.SIGKILL)  # a worker process this test's cluster started
        time.sleep(0.01)
    player.join(timeout=120)
    client.close()
    assert "error" not in result, result.get("error")
    assert killed is not None, "the run ended before a worker could be killed"
    assert result["summary"].errors == 0
    assert 0 < stored(out) == stored(local_run)
    assert_same_store(out, local_run)


def test_limits_hold_across_every_worker(cluster: Any, server: FakeOpenAI, tmp_path: Path) -> None:
    counting = server.responder
    assert isinstance(counting, Counting)
    counting.peak = 0
    limited = config(
        server,
        executor="dask",
        scheduler=cluster.scheduler_address,
        concurrency=16,
        rate_limits={"openai-compat": 3},
        limit=12,
    )
    assert run(limited, tmp_path / "limited", QUIET).errors == 0
    assert 2 <= counting.peak <= 3


def test_limits_hold_across_local_worker_processes(server: FakeOpenAI, tmp_path: Path) -> None:
    counting = server.responder
    assert isinstance(counting, Counting)
    counting.peak = 0
    limited = config(server, workers=2, concurrency=16, rate_limits={"openai-compat": 2}, limit=10)
    assert run(limited, tmp_path / "forks", QUIET).errors == 0
    assert counting.peak == 2


def test_dask_without_a_reachable_scheduler_is_one_sentence(
    server: FakeOpenAI, tmp_path: Path
) -> None:
    with pytest.raises(BadInput, match="needs --scheduler"):
        run(config(server, executor="dask"), tmp_path / "a", QUIET)
    with pytest.raises(BadInput, match="unknown executor 'ray'"):
        run(config(server, executor="ray"), tmp_path / "b", QUIET)


def start(out: Path, server: FakeOpenAI) -> subprocess.Popen[bytes]:
    args = ["run", "toolbench-x", "-m", "openai-compat/echo", "--base-url", server.base_url]
    args += ["--arms", "clean,hazard", "--limit", str(TASKS), "--concurrency", "8"]
    args += ["--executor", "dask-local", "--workers", "2", "--out", str(out)]
    return subprocess.Popen(
        [sys.executable, "-m", "toolchaos.cli", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "HOME": str(out.parent)},
    )


@pytest.mark.slow
def test_a_killed_coordinator_resumes_like_a_local_run(
    server: FakeOpenAI, local_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "cli"
    first = start(out, server)
    coordinator = psutil.Process(first.pid)
    deadline = time.monotonic() + 90
    while first.poll() is None and stored(out) == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    started = coordinator.children(recursive=True)  # the LocalCluster's worker processes
    first.kill()
    first.wait(timeout=30)
    assert first.returncode == -signal.SIGKILL, first.stderr.read() if first.stderr else ""
    _, alive = psutil.wait_procs(started, timeout=15)
    for orphan in alive:  # started by the coordinator this test started
        orphan.kill()
    assert 0 < stored(out) < stored(local_run)

    second = start(out, server)
    _, err = second.communicate(timeout=180)
    assert second.returncode == 0, err.decode()
    assert b"already stored" in err
    assert_same_store(out, local_run)
