"""``toolchaos view``: the runs page, the reports and the trace viewer over HTTP, live."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from scripted_runs import play

from toolchaos.core.types import Episode
from toolchaos.report.view import REFRESH_S, Viewer, make_server
from toolchaos.runner.run import MANIFEST_NAME, run_lock
from toolchaos.runner.store import STORE_NAME, Store

TOOLCHAOS = [sys.executable, "-m", "toolchaos.cli"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("view")
    done = play(root / "done", ["scripted/oracle", "scripted/naive"], ["clean", "hazard"], subset=4)
    live = play(root / "live", ["scripted/oracle"], ["clean"], subset=4)
    return done, live


def _get(base: str, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(base + path, timeout=30) as answer:  # noqa: S310 (http on 127.0.0.1)
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


@pytest.fixture
def served(runs: tuple[Path, Path]) -> Iterator[str]:
    server = make_server(Viewer(list(runs)), port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _unfinish(run: Path) -> None:
    """Make the manifest say the run has no end yet (as while it plays)."""
    manifest = json.loads((run / MANIFEST_NAME).read_text(encoding="utf-8"))
    manifest["ended"] = None
    (run / MANIFEST_NAME).write_text(json.dumps(manifest), encoding="utf-8")


def _one_more_episode(run: Path) -> None:
    """Store a copy of one episode under a new sample, as a playing run would."""
    store = Store(run / STORE_NAME)
    try:
        text = next(t for _, t in store.episode_json())
        episode = Episode.model_validate_json(text)
        store.put(episode.model_copy(update={"key": episode.key + "#s9", "sample": 9}))
    finally:
        store.close()


def test_the_runs_page_says_what_each_run_holds_and_which_plays(
    runs: tuple[Path, Path], served: str
) -> None:
    done, live = runs
    _unfinish(live)
    with run_lock(live):  # a toolchaos process holds it: the run is playing
        status, page = _get(served, "/")
        assert status == 200
        assert str(done) in page and str(live) in page
        assert "scripted/oracle, scripted/naive" in page and "clean, hazard" in page
        assert "16 of 16" in page  # 4 tasks x 2 models x 2 arms, all stored
        assert "<span class='finished'>finished</span>" in page
        assert "<span class='playing'>playing</span>" in page
        assert f"http-equiv='refresh' content='{REFRESH_S}'" in page
        status, report = _get(served, "/run/1")
        assert status == 200 and f'http-equiv="refresh" content="{REFRESH_S}"' in report
    status, page = _get(served, "/")
    assert "<span class='stopped'>stopped</span>" in page and "refresh" not in page
    status, report = _get(served, "/run/1")
    assert "refresh" not in report  # the page changed with the run's state


def test_the_report_pages_hold_the_leaderboard_and_the_trace_viewer(
    runs: tuple[Path, Path], served: str
) -> None:
    done, live = runs
    status, both = _get(served, "/report")
    assert status == 200
    assert 'id="headline"' in both and 'id="traces"' in both and 'data-table="accuracy"' in both
    assert str(done) in both and str(live) in both
    status, one = _get(served, "/run/0")
    assert status == 200 and str(done) in one and str(live) not in one
    assert _get(served, "/run/7")[0] == 404
    assert _get(served, "/nowhere")[0] == 404
    # a stored episode more: the page is rendered again, with it
    assert "This page holds 16 of 16 episodes" in one
    _one_more_episode(done)
    assert "This page holds 17 of 17 episodes" in _get(served, "/run/0")[1]


def test_the_pages_in_chromium(
    browser: Any, runs: tuple[Path, Path], served: str, test_output: Path
) -> None:
    browser.set_window_size(1400, 1000)
    try:
        browser.get(served + "/")
        rows = browser.find_elements("css selector", "#runs tbody tr")
        assert len(rows) == 2
        browser.save_screenshot(str(test_output / "view-runs.png"))
        rows[0].find_element("css selector", "a").click()
        assert browser.find_elements("css selector", "#headline .headline-block")
        assert browser.find_elements("css selector", "#episodes details.episode")
        browser.save_screenshot(str(test_output / "view-run-report.png"))
        assert (test_output / "view-runs.png").stat().st_size > 5_000
    finally:
        browser.set_window_size(1280, 1600)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_the_command_serves_until_ctrl_c_or_sigterm(
    runs: tuple[Path, Path], stop: signal.Signals
) -> None:
    done, _ = runs
    process = subprocess.Popen(
        [*TOOLCHAOS, "view", str(done), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "200", "PYTHONFAULTHANDLER": "1"},
        # as a shell without job control (CI) starts it: SIGINT ignored, which `view`
        # must undo (it hung here before it did)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("serving 1 run(s) on http://127.0.0.1:"), line
        address = line.split(" on ", 1)[1].split(" ", 1)[0].rstrip("/")
        status, page = _get(address, "/")
        assert status == 200 and str(done) in page
        process.send_signal(stop)
        try:
            assert process.wait(timeout=60) == 0
        except subprocess.TimeoutExpired:
            # say where it stood
            process.send_signal(signal.SIGABRT)  # faulthandler prints every thread's stack
            _, stacks = process.communicate(timeout=30)
            pytest.fail(f"view did not stop within 60 s of {stop.name}; its threads:\n{stacks}")
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["/nowhere/run"], "/nowhere/run does not exist"),
        (["{done}", "--port", "70000"], "--port must be between 0 and 65535"),
    ],
)
def test_bad_input_is_one_sentence(runs: tuple[Path, Path], args: list[str], said: str) -> None:
    done, _ = runs
    argv = [a.format(done=done) for a in args]
    answer = subprocess.run([*TOOLCHAOS, "view", *argv], capture_output=True, text=True, timeout=60)
    assert answer.returncode == 2
    assert said in answer.stderr and "Traceback" not in answer.stderr
    assert len(answer.stderr.strip().splitlines()) == 1, answer.stderr
