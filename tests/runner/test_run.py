import gc
import json
import os
import signal
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from rich.console import Console

from conftest import HAZARDS, make_task
from toolchaos.core.errors import BadInput
from toolchaos.core.types import Episode
from toolchaos.report.tables import build_report
from toolchaos.runner.executor import LocalExecutor, Sink
from toolchaos.runner.plan import make_plan
from toolchaos.runner.run import RunConfig, run, run_lock
from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.suites import get_suite

QUIET = Console(quiet=True)


@pytest.fixture
def task_file(tmp_path: Path) -> Path:
    tasks = [make_task(f"fx-{name}", hazard=factory()) for name, factory in sorted(HAZARDS.items())]
    tasks.append(make_task("fx-write", hazard=HAZARDS["transient"](), writes=True))
    tasks.append(make_task("fx-plain"))
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(t.model_dump_json() + "\n" for t in tasks))
    return path


def config(task_file: Path, **kw: object) -> RunConfig:
    base: dict[str, object] = {
        "suite": "toolbench-x",
        "models": ["scripted/oracle", "scripted/naive", "scripted/no-tool"],
        "arms": ["clean", "hazard", "hint", "oracle-label"],
        "tasks_path": str(task_file),
        "concurrency": 4,
    }
    base.update(kw)
    return RunConfig(**base)  # type: ignore[arg-type]


def rows_by(report_rows: list[dict]) -> dict[tuple[str, str], dict]:
    return {(r["model"], r["arm"]): r for r in report_rows}


def test_run_scores_baselines_as_expected(tmp_path: Path, task_file: Path) -> None:
    summary = run(config(task_file), tmp_path / "run", QUIET)
    # 5 hazarded tasks x 4 arms + 1 plain task x clean, for 3 models
    assert summary.planned == 3 * (5 * 4 + 1)
    assert summary.errors == 0
    rows = rows_by(build_report([tmp_path / "run"]).rows)
    for arm in ("clean", "hazard", "hint", "oracle-label"):
        assert rows[("scripted/oracle", arm)]["accuracy"] == 1.0
        assert rows[("scripted/no-tool", arm)]["accuracy"] == 0.0
    assert rows[("scripted/naive", "clean")]["accuracy"] == 1.0
    assert rows[("scripted/naive", "hazard")]["accuracy"] == 0.0
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert [m["spec"] for m in manifest["models"]] == config(task_file).specs
    assert manifest["ended"] is not None and manifest["episodes"] == summary.planned


def test_rerun_resumes_without_duplicates(tmp_path: Path, task_file: Path) -> None:
    first = run(config(task_file, limit=3), tmp_path / "run", QUIET)
    second = run(config(task_file), tmp_path / "run", QUIET)
    assert second.skipped == first.played
    assert second.played == second.planned - first.played
    third = run(config(task_file), tmp_path / "run", QUIET)
    assert third.played == 0
    with sqlite3.connect(tmp_path / "run" / STORE_NAME) as conn:
        keys = [r[0] for r in conn.execute("SELECT key FROM episodes")]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert len(keys) == len(set(keys)) == third.planned


def test_episodes_are_identical_whatever_the_concurrency(tmp_path: Path, task_file: Path) -> None:
    run(config(task_file, concurrency=1), tmp_path / "a", QUIET)
    run(config(task_file, concurrency=16), tmp_path / "b", QUIET)
    stores = [Store.open_existing(tmp_path / d) for d in ("a", "b")]
    a, b = ({e.key: e for e in s.episodes()} for s in stores)
    assert a.keys() == b.keys()
    for key in a:
        assert a[key].hazard_events == b[key].hazard_events
        assert a[key].messages == b[key].messages
        assert a[key].end_state == b[key].end_state


def test_another_runs_store_is_refused_and_kept(tmp_path: Path, task_file: Path) -> None:
    run(config(task_file, models=["scripted/oracle"]), tmp_path / "run", QUIET)
    before = Store.open_existing(tmp_path / "run").count()
    with pytest.raises(BadInput, match=r"holds another run's store.*arms clean,hazard,hint"):
        run(config(task_file, models=["scripted/oracle"], arms=["clean"]), tmp_path / "run", QUIET)
    assert Store.open_existing(tmp_path / "run").count() == before


def test_a_model_joins_a_run_and_nothing_stored_changes(tmp_path: Path, task_file: Path) -> None:
    run(config(task_file, models=["scripted/oracle"]), tmp_path / "run", QUIET)
    first = json.loads((tmp_path / "run" / "manifest.json").read_text())
    held = {e.key: e.model_dump_json() for e in Store.open_existing(tmp_path / "run").episodes()}
    grown = run(config(task_file, models=["scripted/naive"]), tmp_path / "run", QUIET)
    assert grown.played == grown.planned == len(held)  # the same plan, for the new model
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert [m["spec"] for m in manifest["models"]] == ["scripted/oracle", "scripted/naive"]
    assert manifest["started"] == first["started"] and manifest["episodes"] == 2 * len(held)
    after = {e.key: e.model_dump_json() for e in Store.open_existing(tmp_path / "run").episodes()}
    assert {k: after[k] for k in held} == held
    # both models together now resume the grown run: nothing left to play
    again = run(
        config(task_file, models=["scripted/oracle", "scripted/naive"]), tmp_path / "run", QUIET
    )
    assert again.played == 0 and again.skipped == 2 * len(held)
    report = rows_by(build_report([tmp_path / "run"]).rows)
    assert report[("scripted/oracle", "clean")]["accuracy"] == 1.0
    assert report[("scripted/naive", "hazard")]["accuracy"] == 0.0


def test_another_selection_grows_the_run_and_the_manifest_lists_each(
    tmp_path: Path, task_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each call of the run's clock a second later, so a rewritten start would show
    ticks = iter(f"2026-01-01T00:00:{n:02d}+00:00" for n in range(60))
    monkeypatch.setattr("toolchaos.runner.run.utc_now", lambda: next(ticks))
    out = tmp_path / "run"
    run(config(task_file, limit=2), out, QUIET)
    one = json.loads((out / "manifest.json").read_text())
    assert one["limit"] == 2 and one["subset"] is None and one["tasks"] == 2
    run(config(task_file, limit=4), out, QUIET)
    again = run(config(task_file, limit=2), out, QUIET)  # a no-op rerun of the first
    assert again.played == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["selections"] == [
        {"subset": None, "limit": 2},
        {"subset": None, "limit": 4},
    ]
    assert "limit" not in manifest and "subset" not in manifest  # no one selection is the run's
    assert manifest["tasks"] == 4 and manifest["episodes"] == Store.open_existing(out).count()
    assert manifest["started"] == one["started"] == "2026-01-01T00:00:00+00:00"
    assert manifest["ended"] > manifest["started"]


def test_a_locked_directory_is_refused(tmp_path: Path, task_file: Path) -> None:
    (tmp_path / "run").mkdir()
    with run_lock(tmp_path / "run"), pytest.raises(BadInput, match="in use by another"):
        run(config(task_file), tmp_path / "run", QUIET)


@pytest.mark.parametrize(
    "change,message",
    [
        ({"suite": "nope"}, "unknown suite 'nope'"),
        ({"models": ["gpt4"]}, "must look like provider/name"),
        ({"models": ["acme/x"]}, "unknown model provider 'acme'"),
        ({"models": ["scripted/genius"]}, "unknown scripted policy 'genius'"),
        ({"arms": ["clean", "stormy"]}, "unknown arm 'stormy'"),
    ],
)
def test_bad_config_is_bad_input(
    tmp_path: Path, task_file: Path, change: dict, message: str
) -> None:
    with pytest.raises(BadInput, match=message):
        run(config(task_file, **change), tmp_path / "run", QUIET)


def test_worker_processes_store_the_same_episodes(tmp_path: Path, task_file: Path) -> None:
    run(config(task_file), tmp_path / "one", QUIET)
    summary = run(config(task_file, workers=2), tmp_path / "two", QUIET)
    assert summary.errors == 0
    one, two = (
        {e.key: e.model_dump_json() for e in Store.open_existing(tmp_path / d).episodes()}
        for d in ("one", "two")
    )
    assert one == two


def test_ctrl_c_during_a_commit_from_worker_processes_waits_for_the_commit(
    task_file: Path,
) -> None:
    # the parent of --workers commits what its processes send; a Ctrl-C that lands while it
    # commits must not surface from inside the commit (it once came out of pydantic as a
    # serialization error and a traceback)
    cfg = config(task_file, workers=2)
    todo = make_plan(cfg.specs, get_suite("toolbench-x").load(task_file), cfg.arms, 1)
    committed: list[str] = []

    @contextmanager
    def open_sink() -> Iterator[Sink]:
        def sink(episode: Episode) -> None:
            if not committed:
                os.kill(os.getpid(), signal.SIGINT)  # delivered before the next line runs
            committed.append(episode.model_dump_json())

        yield sink

    # Python's own Ctrl-C handler, as in `toolchaos run` (a test runner's worker may have
    # another, which whole_commits leaves alone)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            LocalExecutor().execute(todo, cfg, open_sink)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    finally:
        signal.signal(signal.SIGINT, previous)
    assert len(committed) == 1  # the commit it interrupted ended; no other began


def test_shared_worlds_are_built_before_the_first_episode(
    task_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolchaos.suites.toolbench_x.suite import ToolBenchXSuite

    calls: list[str] = []
    prepare, make_env = ToolBenchXSuite.prepare, ToolBenchXSuite.make_env

    def record_prepare(self: ToolBenchXSuite, tasks: list) -> None:
        calls.append(f"prepare {len({t.id for t in tasks})}")
        prepare(self, tasks)

    def record_env(self: ToolBenchXSuite, task: object, arm: str) -> object:
        calls.append("episode")
        return make_env(self, task, arm)  # type: ignore[arg-type]

    monkeypatch.setattr(ToolBenchXSuite, "prepare", record_prepare)
    monkeypatch.setattr(ToolBenchXSuite, "make_env", record_env)
    summary = run(config(task_file, models=["scripted/oracle"]), tmp_path / "run", QUIET)
    n_tasks = len(task_file.read_text().splitlines())
    assert calls[0] == f"prepare {n_tasks}"
    assert calls[1:] == ["episode"] * summary.played
    # the heap frozen while episodes played is handed back to the collector
    assert gc.get_freeze_count() == 0


def test_a_task_of_an_unknown_domain_is_still_one_error_episode(tmp_path: Path) -> None:
    # preparing the shared worlds skips it: its episode fails as a harness error, as before
    lost = make_task("fx-lost").model_copy(update={"domain": "nowhere"})
    path = tmp_path / "tasks.jsonl"
    path.write_text(lost.model_dump_json() + "\n" + make_task("fx-ok").model_dump_json() + "\n")
    summary = run(config(path, models=["scripted/oracle"], arms=["clean"]), tmp_path / "run", QUIET)
    assert (summary.played, summary.errors) == (2, 1)
    errors = [e.error for e in Store.open_existing(tmp_path / "run").episodes() if e.error]
    assert errors == [errors[0]] and "unknown domain 'nowhere'" in errors[0]
