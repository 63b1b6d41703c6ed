import hashlib
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from toolchaos.build.pipeline import build_toolbench_x
from toolchaos.build.validate import validate_task
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.suites import get_suite
from toolchaos.suites.base import to_jsonl

SUITE = get_suite("toolbench-x")


@pytest.fixture(scope="module")
def shipped() -> list:
    return SUITE.load()


def test_shipped_set_has_the_promised_shape(shipped: list) -> None:
    assert len(shipped) >= 45
    counts = Counter(t.workflow for t in shipped)
    assert counts["sequential"] >= 15 and counts["parallel"] >= 15 and counts["mixture"] >= 15
    assert all(t.reference.answer or t.reference.writes for t in shipped)
    assert all(t.hazard is not None and t.hints is not None for t in shipped)
    families = Counter(t.hazard.family.value for t in shipped)
    assert set(families) >= {"execution_failure", "output_drift"}
    assert SUITE.default_path().is_file()


def test_rebuilding_reproduces_the_shipped_file_byte_for_byte() -> None:
    tasks, _ = build_toolbench_x(0)
    rebuilt = hashlib.sha256(to_jsonl(tasks).encode()).hexdigest()
    assert rebuilt == hashlib.sha256(SUITE.default_path().read_bytes()).hexdigest()


def test_another_seed_builds_other_tasks() -> None:
    tasks, _ = build_toolbench_x(1, per_cell=1)
    other = {t.prompt for t in tasks}
    assert other - {t.prompt for t in SUITE.load()}


def test_every_shipped_task_validates(shipped: list) -> None:
    problems = [p for task in shipped for p in validate_task(task)]
    assert problems == []


def test_baselines_score_as_expected(tmp_path: Path) -> None:
    config = RunConfig(
        suite="toolbench-x",
        models=["scripted/oracle", "scripted/naive", "scripted/retry", "scripted/no-tool"],
        arms=["clean", "hazard", "hint", "oracle-label"],
    )
    summary = run(config, tmp_path / "run", Console(quiet=True))
    assert summary.errors == 0
    rows = {(r["model"], r["arm"]): r["accuracy"] for r in build_report([tmp_path / "run"]).rows}
    for arm in ("clean", "hazard", "hint", "oracle-label"):
        assert rows[("scripted/oracle", arm)] == 1.0
        assert rows[("scripted/no-tool", arm)] <= 0.05
    assert rows[("scripted/naive", "clean")] == 1.0
    assert rows[("scripted/naive", "hazard")] == 0.0
    assert rows[("scripted/naive", "hazard")] < rows[("scripted/retry", "hazard")] < 1.0
