"""The ToolFailBench part of a report: labels, leaderboard, per-domain RIR, figures."""

from pathlib import Path

import pytest
from rich.console import Console

from toolchaos.report.tables import build_report, write_report
from toolchaos.runner.run import RunConfig, run

MODELS = [
    "scripted/oracle",
    "scripted/skip",
    "scripted/ignore",
    "scripted/fabricate",
    "scripted/overuse",
]


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tfb")
    config = RunConfig(suite="toolfailbench", models=MODELS, subset=60)
    run(config, out, Console(quiet=True))
    return out


def test_the_leaderboard_shows_each_behaviour(report_dir: Path) -> None:
    report = build_report([report_dir])
    tables = {t.name: t.frame for t in report.sections}
    board = tables["toolfailbench_leaderboard"].set_index("model")
    assert board.loc["scripted/oracle", "CTUR"] == 1.0
    assert board.loc["scripted/oracle", "CTRL-Acc"] == 1.0
    assert board.loc["scripted/skip", "TSR"] == 1.0
    assert board.loc["scripted/ignore", "RIR"] == 1.0
    assert board.loc["scripted/ignore", "RIR|call"] == 1.0
    assert board.loc["scripted/fabricate", "OFR"] == 1.0
    assert board.loc["scripted/overuse", "UTR"] == 1.0
    sums = board[["TSR", "CTUR", "RIR", "OFR"]].sum(axis=1)
    assert (sums.round(6) == 1.0).all()
    low, high = (
        float(v) for v in board.loc["scripted/oracle", "CTUR 95% CI"].strip("[]").split(",")
    )
    assert low < 1.0 == high
    rir = tables["toolfailbench_rir_by_domain"]
    assert set(rir["domain"]) == {"finance", "medicine", "law", "cybersecurity", "real_estate"}
    assert not tables["toolfailbench_ctur_tests"].empty


def test_the_report_files_include_the_suites_figures(report_dir: Path, tmp_path: Path) -> None:
    written = {p.name for p in write_report(build_report([report_dir]), tmp_path, figures=True)}
    assert {"toolfailbench_utr_ctur.png", "toolfailbench_rir_domain.svg"} <= written
    assert "report_toolfailbench_leaderboard.csv" in written


def test_answers_that_cite_an_unrun_tool_are_listed(tmp_path: Path) -> None:
    from toolchaos.core.types import Episode
    from toolchaos.runner.store import Store

    out = tmp_path / "run"
    run(
        RunConfig(suite="toolfailbench", models=["scripted/skip"], subset=8),
        out,
        Console(quiet=True),
    )
    store = Store.open_existing(out)
    tasks = store.tasks()
    episode = next(e for e in store.episodes() if tasks[e.task_id].kind == "tool_required")
    task = tasks[episode.task_id]
    store.put(
        Episode.model_validate(
            {**episode.model_dump(), "final_answer": f"Per {task.expected_tool}, it is 12."}
        )
    )
    store.close()
    tables = {t.name: t.frame for t in build_report([out]).sections}
    listed = tables["toolfailbench_claimed_calls"]
    assert list(listed["task_id"]) == [episode.task_id]


def test_the_trace_viewer_filters_on_the_suites_labels(report_dir: Path) -> None:
    from toolchaos.report.html import episode_index, viewer_data

    viewer = viewer_data(episode_index(build_report([report_dir])))
    options = viewer["options"]["label"]
    shown = {label for e in viewer["episodes"] for label in e["labels"]}
    assert {"tool_skip", "result_ignore", "output_fabrication"} <= set(options)
    assert shown <= set(options)  # every label an episode carries can be filtered on
