"""Kill a real `toolchaos run` process mid-run, resume it, and compare with a clean run."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from toolchaos.report.tables import load_frame

ARGS = ["run", "toolbench-x", "-m", "scripted/oracle,scripted/naive", "--samples", "12"]


def toolchaos(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "toolchaos.cli", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
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


def test_sigkill_then_resume_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    killed = tmp_path / "killed"
    kills = 0
    for threshold in (1, 300, 900):
        proc = toolchaos(*ARGS, "--out", str(killed))
        deadline = time.monotonic() + 60
        while proc.poll() is None and stored(killed) < threshold and time.monotonic() < deadline:
            time.sleep(0.005)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait()
    assert kills >= 2, "the run finished before it could be killed"
    assert toolchaos(*ARGS, "--out", str(killed)).wait() == 0
    clean = tmp_path / "clean"
    assert toolchaos(*ARGS, "--out", str(clean)).wait() == 0

    with sqlite3.connect(killed / "episodes.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        keys = [r[0] for r in conn.execute("SELECT key FROM episodes")]
    assert len(keys) == len(set(keys))
    a = load_frame([killed]).set_index("key").sort_index()
    b = load_frame([clean]).set_index("key").sort_index()
    assert list(a.index) == list(b.index)
    assert (a["correct"] == b["correct"]).all()
