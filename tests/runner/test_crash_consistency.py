"""Crash consistency of a real `toolchaos run` process, killed again and again.

A run of 2,000 scripted episodes is killed with SIGKILL 21 times: 5 times inside an
episode commit (the row written, the transaction not yet committed) and 16 times at
spread points of the run; it is resumed after each kill. The final store must hold
exactly the episode keys of an uninterrupted run, no duplicates, the same scores, and
pass SQLite's integrity check. A second process on the same run directory is refused.
"""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from toolchaos.report.tables import load_frame

ARGS = [
    "run",
    "toolbench-x",
    "-m",
    "scripted/oracle,scripted/naive",
    "--arms",
    "clean,hazard,hint,oracle-label",
    "--limit",
    "125",
    "--samples",
    "2",
]
TOTAL = 2000
IN_COMMIT = (37, 150, 260, 311, 402)  # the n-th commit of a process dies mid-transaction
TIMED = 16


def start(out: Path, crash_in_commit: int = 0, samples: int = 2) -> subprocess.Popen[bytes]:
    env = {**os.environ, "COLUMNS": "200", "TOOLCHAOS_CRASH_IN_COMMIT": str(crash_in_commit)}
    args = [*ARGS[:-1], str(samples)]  # ARGS ends with the samples
    return subprocess.Popen(
        [sys.executable, "-m", "toolchaos.cli", *args, "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )


def stored(directory: Path) -> int:
    path = directory / "episodes.sqlite"
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("clean") / "run"
    proc = start(out)
    assert proc.wait(timeout=300) == 0
    return out


@pytest.mark.slow
def test_twenty_one_kills_lose_and_duplicate_nothing(clean_run: Path, tmp_path: Path) -> None:
    killed = tmp_path / "killed"
    kills = 0
    for n in IN_COMMIT:
        before = stored(killed)
        proc = start(killed, crash_in_commit=n)
        assert proc.wait(timeout=300) == -signal.SIGKILL
        kills += 1
        # the row of the interrupted commit never became visible
        assert stored(killed) == before + n - 1
    for i in range(TIMED):
        threshold = stored(killed) + (TOTAL - stored(killed)) // (TIMED + 1 - i)
        proc = start(killed)
        deadline = time.monotonic() + 120
        while proc.poll() is None and stored(killed) < threshold and time.monotonic() < deadline:
            time.sleep(0.002)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait(timeout=60)
    assert kills >= 20, f"only {kills} kills landed before the run finished"
    assert stored(killed) < TOTAL
    assert start(killed).wait(timeout=300) == 0

    with sqlite3.connect(killed / "episodes.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        keys = [r[0] for r in conn.execute("SELECT key FROM episodes")]
    assert len(keys) == len(set(keys)) == TOTAL
    a = load_frame([killed]).set_index("key").sort_index()
    b = load_frame([clean_run]).set_index("key").sort_index()
    assert list(a.index) == list(b.index)
    for column in ("correct", "error", "n_calls", "bad_calls"):
        assert (a[column] == b[column]).all(), column


@pytest.mark.slow
def test_a_second_process_on_the_same_run_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    # long enough that the first is still playing when the second has started up (2,000
    # scripted episodes take about a second, as long as the second's imports)
    first = start(out, samples=10)
    deadline = time.monotonic() + 60
    while stored(out) < 50 and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    second = start(out, samples=10)
    _, err = second.communicate(timeout=120)
    first_rc = first.wait(timeout=300)
    assert first_rc == 0
    assert second.returncode == 2
    assert b"in use by another" in err and b"Traceback" not in err
    with sqlite3.connect(out / "episodes.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0] == 5 * TOTAL
