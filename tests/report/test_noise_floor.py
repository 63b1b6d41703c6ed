"""The report's noise floor on scripted runs with --samples 5: spread, MDD, decisiveness.

Two models that differ by design (the oracle solves every hazard-arm task, naive none)
are decisive; two seeds of one stochastic policy (``scripted/coin``) are not.
"""

import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from toolchaos.core.errors import BadInput
from toolchaos.report.noise import plan_size
from toolchaos.report.tables import build_report, load_frame, to_markdown
from toolchaos.runner.run import RunConfig, run
from toolchaos.suites.scripted import ScriptedFactory

QUIET = Console(quiet=True)
TASKS = 12


def _play(out: Path, suite: str, models: list[str], arms: list[str], subset: int) -> Path:
    config = RunConfig(
        suite=suite,
        models=models,  # type: ignore[arg-type]
        arms=arms,
        subset=subset,
        samples=5,
        concurrency=4,
    )
    run(config, out, QUIET)
    return out


@pytest.fixture(scope="module")
def by_design(tmp_path_factory: pytest.TempPathFactory) -> Path:
    models = ["scripted/oracle", "scripted/naive", "scripted/no-tool"]
    return _play(tmp_path_factory.mktemp("design"), "toolbench-x", models, ["hazard"], TASKS)


@pytest.fixture(scope="module")
def two_seeds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    models = ["scripted/coin@1", "scripted/coin@2"]
    return _play(tmp_path_factory.mktemp("coin"), "toolbench-x", models, ["hazard"], TASKS)


def _line(table: object, model: str) -> dict:
    rows = table[table["model"] == model]  # type: ignore[index]
    assert len(rows) == 1
    return rows.iloc[0].to_dict()


def test_models_that_differ_by_design_are_decisive(by_design: Path) -> None:
    report = build_report([by_design])
    lines, orders = report.tables["noise_floor"], report.tables["order_tests"]
    oracle = _line(lines, "scripted/oracle")
    assert oracle["metric"] == "accuracy in the hazard arm"
    assert (oracle["tasks"], oracle["samples"], oracle["score %"]) == (TASKS, 5, 100.0)
    # deterministic policies: no verdict flips between samples, so no noise to detect under
    assert oracle["spread %"] == 0.0 and oracle["MDD pp"] == 0.0
    assert oracle["order"] == "decisive"
    first = _line(orders, "scripted/oracle")
    assert first["next"] == "scripted/naive"
    # Hand check of the Holm-adjusted p. Every one of the 12 tasks has oracle 1,1,1,1,1 and
    # naive 0,0,0,0,0: the exact sign-flip test gives p = 2 / 2^12 = 0.00048828. The board's
    # other adjacent pair (naive, no-tool: both 0) has p = 1. Holm over two: the smaller
    # times 2, 0.00097656 (= 2^-10); the larger max(0.00097656, 1 * 1) = 1.
    assert first["p"] == pytest.approx(2 / 2**12, rel=1e-3)
    assert first["Holm p"] == pytest.approx(2**-10, rel=1e-3)
    # the pair's MDD: they disagree on all 12 tasks, psi = 1: 2.801585 / sqrt(12) = 0.808748
    assert first["MDD pp"] == pytest.approx(80.87, abs=0.01)
    tie = _line(orders, "scripted/naive")
    assert (tie["Holm p"], tie["order"]) == (1.0, "not decisive")
    assert _line(lines, "scripted/no-tool")["order"] == "-"  # the last line has no next


def test_two_seeds_of_one_policy_are_not_decisive(two_seeds: Path) -> None:
    report = build_report([two_seeds])
    lines, orders = report.tables["noise_floor"], report.tables["order_tests"]
    for model in ("scripted/coin@1", "scripted/coin@2"):
        line = _line(lines, model)
        assert line["samples"] == 5
        assert line["spread %"] > 50  # p = 0.5 per episode: most tasks flip
        assert line["MDD pp"] > 10  # the noise floor of 12 tasks x 5 samples is wide
        low, high = (float(x) for x in line["95% CI"].strip("[]").split(","))
        assert low < line["score %"] < high
    (pair,) = orders.to_dict("records")
    assert pair["order"] == "not decisive" and pair["Holm p"] >= 0.05
    assert abs(pair["difference pp"]) < pair["MDD pp"] + 10
    top = lines.sort_values("rank").iloc[0]
    assert top["order"] == "not decisive"
    assert "not decisive" in to_markdown(report)


def test_coin_is_deterministic_per_task_sample_and_seed(two_seeds: Path, tmp_path: Path) -> None:
    again = _play(tmp_path / "again", "toolbench-x", ["scripted/coin@1"], ["hazard"], TASKS)
    first, second = load_frame([two_seeds]), load_frame([again])
    cell = ["task_id", "sample"]
    ours = first[first["model"] == "scripted/coin@1"].set_index(cell)["correct"].sort_index()
    assert ours.equals(second.set_index(cell)["correct"].sort_index())
    other = first[first["model"] == "scripted/coin@2"].set_index(cell)["correct"].sort_index()
    assert not ours.equals(other)  # another seed is another draw
    with pytest.raises(BadInput, match="0 to 100"):
        ScriptedFactory("coin-150")


def test_the_toolfailbench_board_ranks_by_the_leaderboards_ctur(tmp_path: Path) -> None:
    models = ["scripted/oracle", "scripted/skip"]
    report = build_report([_play(tmp_path / "tfb", "toolfailbench", models, ["clean"], 16)])
    lines = report.tables["noise_floor"]
    board = report.tables["toolfailbench_leaderboard"].set_index("model")
    for model in models:
        line = _line(lines, model)
        assert line["metric"] == "CTUR (rule labels)"
        assert line["score %"] == pytest.approx(board.loc[model, "CTUR %"])
    assert _line(lines, "scripted/oracle")["order"] == "decisive"


def test_plan_size_from_a_pilot(two_seeds: Path, by_design: Path) -> None:
    plan = plan_size(load_frame([two_seeds]), 0.05)
    rerun = plan[plan["against"] == "a rerun of itself"]
    assert len(rerun) == 2
    # more samples per task: fewer tasks, never more
    for _, row in rerun.iterrows():
        assert row["tasks at k=1"] > row["tasks at k=5"] > row["tasks at k=10"]
    half = plan_size(load_frame([two_seeds]), 0.10)
    # halving the wanted difference needs about four times the tasks
    assert plan["tasks at k=5"].sum() == pytest.approx(4 * half["tasks at k=5"].sum(), rel=0.05)
    with pytest.raises(BadInput, match="between 0 and 1"):
        plan_size(load_frame([by_design]), 5)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
    )


def test_plan_size_cli(two_seeds: Path, tmp_path: Path) -> None:
    done = _cli("plan-size", str(two_seeds), "--difference", "0.1", "--samples", "1,5")
    assert done.returncode == 0, done.stderr
    assert "a rerun of itself" in done.stdout and "tasks at k=5" in done.stdout
    for args, said in [
        (["--difference", "0"], "--difference must be a share of tasks between 0 and 1"),
        (["--difference", "0.1", "--samples", "x"], "--samples must be comma-separated"),
    ]:
        bad = _cli("plan-size", str(two_seeds), *args)
        assert bad.returncode == 2 and said in bad.stderr and "Traceback" not in bad.stderr
    missing = _cli("plan-size", str(tmp_path / "none"), "--difference", "0.1")
    assert missing.returncode == 2 and "is not a run directory" in missing.stderr
