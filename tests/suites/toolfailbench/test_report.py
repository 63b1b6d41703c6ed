"""The ToolFailBench part of a report: labels, leaderboard, per-domain RIR, figures."""

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from rich.console import Console

from toolchaos.report.tables import build_report, write_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.suites.toolfailbench.report import archetype

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
    tables = report.tables
    board = tables["toolfailbench_leaderboard"].set_index("model")
    assert board.loc["scripted/oracle", "CTUR %"] == 100.0
    assert board.loc["scripted/oracle", "CTRL-Acc %"] == 100.0
    assert board.loc["scripted/skip", "TSR %"] == 100.0
    assert board.loc["scripted/ignore", "RIR %"] == 100.0
    assert board.loc["scripted/ignore", "RIR|call %"] == 100.0
    assert board.loc["scripted/fabricate", "OFR %"] == 100.0
    assert board.loc["scripted/overuse", "UTR %"] == 100.0
    sums = board[["TSR %", "CTUR %", "RIR|required %", "OFR|required %"]].sum(axis=1)
    assert (sums.round(6) == 100.0).all()
    low, high = (
        float(v) for v in board.loc["scripted/oracle", "CTUR 95% CI"].strip("[]").split(",")
    )
    assert low < 100.0 == high
    rir = tables["toolfailbench_rir_by_domain"]
    assert set(rir["domain"]) == {"finance", "medicine", "law", "cybersecurity", "real_estate"}
    assert not tables["toolfailbench_ctur_tests"].empty


def test_the_leaderboard_is_ranked_by_rule_ctur_without_judges(report_dir: Path) -> None:
    report = build_report([report_dir])
    board = report.tables["toolfailbench_leaderboard"]
    # oracle and overuse both do every tool-required task right: they share rank 1
    assert list(board["model"]) == [
        "scripted/oracle",
        "scripted/overuse",
        "scripted/fabricate",
        "scripted/ignore",
        "scripted/skip",
    ]
    assert list(board["rank"]) == [1, 1, 3, 3, 3]
    assert list(board.columns[:4]) == ["rank", "model", "CTUR %", "CTUR 95% CI"]
    assert "rule CTUR %" not in board  # no judges: the rule's CTUR is the ranked one
    section = next(t for t in report.sections if t.name == "toolfailbench_leaderboard")
    assert "rule classifier's CTUR (no judge labels)" in section.title
    assert "Rule set: toolchaos." in section.note
    assert any("rule set 'toolchaos'" in n for n in report.notes)
    assert "toolfailbench_votes" not in report.tables


def test_archetypes_and_rates_by_mode(report_dir: Path) -> None:
    report = build_report([report_dir])
    kinds = report.tables["toolfailbench_archetypes"].set_index("model")["archetype"]
    assert kinds.to_dict() == {
        "scripted/fabricate": "disciplined",
        "scripted/ignore": "disciplined",
        "scripted/oracle": "disciplined",
        "scripted/overuse": "Always-Call",
        "scripted/skip": "Never-Call",
    }
    board = report.tables["toolfailbench_leaderboard"].set_index("model")
    assert board.loc["scripted/overuse", "archetype"] == "Always-Call"
    modes = report.tables["toolfailbench_by_mode"].set_index(["model", "mode"])
    assert modes.loc[("scripted/ignore", "result_ignore"), "RIR %"] == 100.0
    assert modes.loc[("scripted/oracle", "control"), "correct %"] == 100.0
    assert pd.isna(modes.loc[("scripted/oracle", "control"), "TSR %"])
    assert pd.isna(modes.loc[("scripted/oracle", "tool_skip"), "UTR %"])
    pooled = modes.loc[("all models", "tool_skip")]
    assert pooled["n"] == modes.xs("tool_skip", level="mode")["n"].iloc[1:].sum()
    assert pooled["TSR %"] == 20.0  # one model of five skips
    median = report.tables["toolfailbench_median_rir"].set_index("domain")
    # of five models only ignore ignores results: the median is 0, the highest 100; skip
    # skipped every task, so it has no RIR by the release's denominator
    assert (median["median RIR %"] == 0.0).all() and (median["highest %"] == 100.0).all()
    assert (median["models"] == 4).all()
    assert (median["median RIR|required %"] == 0.0).all()


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        ((0.3, 0.0, 0.0, 0.0, 1.0), "invalid output"),
        ((0.1, 0.3, 0.9, 0.0, 1.0), "Phantom-Call"),
        ((0.0, 0.0, 0.0, 0.5, 0.5), "Always-Call"),
        ((0.0, 0.0, 0.6, 0.0, 1.0), "Never-Call"),
        ((0.0, 0.0, 0.1, 0.1, 0.8), "disciplined"),
        ((0.0, 0.0, 0.1, 0.2, 0.8), "mixed"),
        ((0.0, 0.0, 0.1, 0.0, 0.7), "mixed"),
        ((0.0, None, None, None, None), "mixed"),
    ],
)
def test_archetype_thresholds(profile: tuple[Any, ...], expected: str) -> None:
    assert archetype(*profile) == expected


def test_an_unknown_rule_set_is_refused() -> None:
    from toolchaos.core.errors import BadInput
    from toolchaos.suites.base import ReportOptions

    with pytest.raises(BadInput, match="--rules must be one of"):
        build_report([], ReportOptions(rules="strict"))


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
