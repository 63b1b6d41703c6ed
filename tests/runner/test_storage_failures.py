"""A full disk or a read-only run directory: one clear error, and the store stays readable.

The full disk is a real file-size limit on the run process (writes beyond it fail with
EFBIG, as on a full device). The read-only directory is a real immutable directory
(``chattr +i``), which even root cannot write; where that attribute is unavailable the
test says so and skips.
"""

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ARGS = ["run", "toolbench-x", "-m", "scripted/oracle,scripted/naive", "--limit", "60"]


def toolchaos(
    *args: str, preexec: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "300"},
        preexec_fn=preexec,
    )


def small_disk() -> None:
    """Let the process write files of at most 600 kB, failing (not dying) beyond.

    The store holds the run's tasks too, and a v2 task (aliases, expected writes) is larger.
    """
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (600_000, 600_000))


def assert_one_clear_error(result: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and fragment in " ".join(result.stderr.split()), result.stderr


def assert_readable(run: Path) -> int:
    with sqlite3.connect(f"{(run / 'episodes.sqlite').as_uri()}?mode=ro", uri=True) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        count = int(conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0])
    report = toolchaos("report", str(run), "--json")
    assert report.returncode == 0, report.stderr
    return count


@pytest.mark.slow
def test_a_full_disk_stops_the_run_cleanly_and_a_rerun_resumes(tmp_path: Path) -> None:
    run = tmp_path / "run"
    full = toolchaos(
        *ARGS, "--arms", "clean,hazard,hint,oracle-label", "--out", str(run), preexec=small_disk
    )
    assert_one_clear_error(full, "is the disk full or the directory read-only?")
    kept = assert_readable(run)
    assert 0 < kept < 480
    resumed = toolchaos(*ARGS, "--arms", "clean,hazard,hint,oracle-label", "--out", str(run))
    assert resumed.returncode == 0, resumed.stderr
    assert f"{kept} already stored" in " ".join(resumed.stderr.split())
    assert assert_readable(run) == 480


@pytest.fixture
def immutable() -> Iterator[Callable[[Path], None]]:
    """Make directories read-only for one test (chattr +i for root), writable again after."""
    chattr = shutil.which("chattr")
    root = os.geteuid() == 0
    made: list[Path] = []

    def freeze(path: Path) -> None:
        if not root:  # an ordinary user: permissions are enough
            path.chmod(0o555)
        elif chattr is None:
            pytest.skip("chattr is not installed, so no directory can be made read-only for root")
        else:
            done = subprocess.run([chattr, "+i", str(path)], capture_output=True, text=True)
            if done.returncode != 0:
                pytest.skip(f"cannot make a directory immutable here: {done.stderr.strip()}")
        made.append(path)

    yield freeze
    for path in made:
        if root and chattr is not None:
            subprocess.run([chattr, "-i", str(path)], check=False)
        path.chmod(0o755)


@pytest.mark.slow
def test_a_read_only_run_directory_is_refused_and_still_reported(
    tmp_path: Path, immutable: Callable[[Path], None]
) -> None:
    run = tmp_path / "run"
    first = toolchaos(*ARGS, "--out", str(run))
    assert first.returncode == 0, first.stderr
    stored = assert_readable(run)
    immutable(run)
    again = toolchaos(*ARGS, "--arms", "hint", "--out", str(run))
    assert_one_clear_error(again, "is not writable")
    assert assert_readable(run) == stored  # reports still read it, nothing was lost
    parent = tmp_path / "locked"
    parent.mkdir()
    immutable(parent)
    fresh = toolchaos(*ARGS, "--out", str(parent / "run"))
    assert_one_clear_error(fresh, "cannot create output directory")
