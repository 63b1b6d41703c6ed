"""Report outputs over real scripted runs: tables, markdown, CSV, LaTeX, figures, HTML."""

import json
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pandas as pd
import pytest
from scripted_runs import play

from toolchaos.report.figures import render
from toolchaos.report.html import (
    episode_index,
    filter_href,
    render_html,
    select_episodes,
    visible,
)
from toolchaos.report.tables import Report, build_report, to_latex, write_report
from toolchaos.suites.base import ReportOptions, ReportTable

ARMS = ["clean", "hazard", "hint", "oracle-label"]
MODELS = ["scripted/oracle", "scripted/naive", "scripted/retry", "scripted/no-tool"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two run directories: three baselines in one, no-tool in the other."""
    root = tmp_path_factory.mktemp("runs")
    return (
        play(root / "a", MODELS[:3], ARMS),
        play(root / "b", MODELS[3:], ARMS),
    )


@pytest.fixture(scope="module")
def report(runs: tuple[Path, Path]) -> Report:
    return build_report(list(runs))


def test_many_runs_side_by_side_with_the_diagnostic_tables(report: Report) -> None:
    tables = report.tables
    assert {"accuracy", "arms", "by_family", "actions", "behaviours", "usage"} <= set(tables)
    assert set(tables["accuracy"]["model"]) == set(MODELS)
    actions = tables["actions"].set_index("model")
    assert list(actions.columns) == [
        "episodes",
        "anomalies",
        "retry_same_args",
        "retry_changed_args",
        "switch",
        "terminate",
    ]
    assert actions.loc["scripted/no-tool", "anomalies"] == 0  # never calls a tool
    assert actions.loc["scripted/retry", "retry_same_args"] > 0
    behaviours = tables["behaviours"].set_index("model")
    assert behaviours.index[0] == "all"
    assert "scripted/oracle" not in behaviours.index  # it never fails
    assert behaviours.loc["scripted/no-tool", "early_abandonment"] == 1.0
    shares = behaviours.drop(columns="failed").sum(axis=1)
    assert all(abs(s - 1) < 1e-3 for s in shares)
    # every label carries its explanation and thresholds
    labels = report.labels
    assert set(labels["arm"]) == {"hazard", "hint", "oracle-label"}
    failed = labels[labels["behaviour"] != ""]
    assert all("A_t=" in e and "tau_A=3" in e for e in failed["explanation"])


def test_the_cost_of_recovery_is_each_arm_over_its_clean_twin(
    runs: tuple[Path, Path], report: Report
) -> None:
    from toolchaos.runner.store import Store

    calls: dict[tuple[str, str, str], int] = {}
    for directory in runs:
        store = Store.open_existing(directory, read_only=True)
        try:
            for row in store.summaries():
                assert row["status"] == "finished"
                calls[(row["model"], str(row["task_id"]), row["arm"])] = int(row["n_calls"])
        finally:
            store.close()
    family = report.frame.drop_duplicates("task_id").set_index("task_id")["family"]
    table = report.tables["recovery_cost"]
    assert set(table["arm"]) == {"hazard", "hint", "oracle-label"}
    for row in table.to_dict(orient="records"):
        extra = [
            calls[(row["model"], task, row["arm"])] - calls[(row["model"], task, "clean")]
            for task, fam in family.items()
            if fam == row["family"]
        ]
        assert row["pairs"] == len(extra)
        assert row["calls"] == round(sum(extra) / len(extra), 2), row
    assert "recovery_cost" in {f.name for f in report.figures}
    oracle = table[(table["model"] == "scripted/oracle") & (table["arm"] == "hazard")]
    assert (oracle["calls"] >= 0).all()  # the oracle's recovery costs calls, never saves any


def test_median_thresholds_change_the_title_and_the_labels(runs: tuple[Path, Path]) -> None:
    report = build_report(list(runs), ReportOptions(thresholds="median"))
    assert any("medians over" in n for n in report.notes)
    assert set(report.labels["tau_a"]) == {report.labels["tau_a"].iloc[0]}


def test_markdown_csv_latex_and_figures_are_written(report: Report, tmp_path: Path) -> None:
    written = write_report(report, tmp_path, figures=True)
    names = {p.relative_to(tmp_path).as_posix() for p in written}
    assert {"report.md", "report.tex", "report_actions.csv", "report_behaviours.csv"} <= names
    assert "episode_labels.csv" in names
    for figure in ("accuracy_by_family", "post_failure_actions", "failure_behaviours"):
        png = (tmp_path / "figures" / f"{figure}.png").read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        svg = ElementTree.parse(tmp_path / "figures" / f"{figure}.svg").getroot()  # noqa: S314 (ours)
        assert svg.tag.endswith("svg")
    markdown = (tmp_path / "report.md").read_text()
    assert "## Post-failure action after the first anomaly" in markdown
    assert "![Failure behaviours per model](figures/failure_behaviours.png)" in markdown
    actions = pd.read_csv(tmp_path / "report_actions.csv")
    assert set(actions["model"]) == set(MODELS)
    latex = (tmp_path / "report.tex").read_text()
    assert latex.count(r"\begin{table}") == sum(not t.empty for t in report.tables.values())
    assert r"retry\_same\_args" in latex and r"\toprule" in latex
    assert "\\caption{Failure behaviours" in latex


def test_figure_files_are_byte_stable(report: Report, tmp_path: Path) -> None:
    first = write_report(report, tmp_path / "one", figures=True)
    fresh = build_report(report.directories)
    second = write_report(fresh, tmp_path / "two", figures=True)
    for a, b in zip(first, second, strict=True):
        if a.suffix in (".png", ".svg"):
            assert a.read_bytes() == b.read_bytes(), a.name
    svg = (tmp_path / "one" / "figures" / "failure_behaviours.svg").read_text()
    assert "<dc:date>" not in svg


def test_latex_escapes_model_text() -> None:
    frame = pd.DataFrame([{"model": "a_b & c%$#{}~^\\", "accuracy": 0.5}])
    latex = to_latex(Report(frame=frame, rows=[], sections=[ReportTable("x", "T_1", frame)]))
    assert r"a\_b \& c\%\$\#\{\}\textasciitilde \textasciicircum \textbackslash" in latex
    assert r"\caption{T\_1}" in latex


def test_html_is_self_contained_and_links_cells_to_the_viewer(report: Report) -> None:
    page = render_html(report, max_episodes=60)
    assert "<title>toolchaos report</title>" in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # nothing fetched
    assert page.count('src="data:image/png;base64,') == len(report.figures)
    data = re.search(r'<script type="application/json" id="viewer-data">(.*?)</script>', page, re.S)
    assert data is not None
    viewer = json.loads(data.group(1))
    assert len(viewer["episodes"]) == 60 and viewer["total"] == len(report.frame)
    href = filter_href(
        {"model": "scripted/retry", "label": "retry_same_args", "suite": "toolbench-x"}
    )
    assert href == "#filter=suite:toolbench-x;model:scripted%2Fretry;label:retry_same_args"
    assert f'href="{href}"' in page
    assert viewer["counts"]["suite:toolbench-x;model:scripted%2Fretry;label:retry_same_args"] > 0


def test_viewer_selection_is_capped_and_round_robin(report: Report) -> None:
    index = episode_index(report)
    picked = select_episodes(index, 40)
    assert len(picked) == 40
    by = ["suite", "model", "arm", "family", "outcome", "action", "behaviour"]
    strata = index.groupby(by).ngroups
    if strata <= 40:  # every stratum shows up before any shows twice
        assert picked.groupby(by).ngroups == strata
    assert select_episodes(index, 0).empty


def test_visible_shows_control_characters_and_cuts_long_text() -> None:
    assert visible("\x1b[31mred\x1b[0m\tok\n") == "\u241b[31mred\u241b[0m\tok\n"
    assert visible("x" * 10, limit=4) == "xxxx… (6 more characters)"
    assert visible({"a": 1}) == '{"a": 1}'


def test_report_cli_writes_html_and_rejects_bad_thresholds(
    runs: tuple[Path, Path], tmp_path: Path
) -> None:
    def toolchaos(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "toolchaos.cli", *args],
            capture_output=True,
            text=True,
            timeout=120,
            env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
        )

    page = tmp_path / "out" / "report.html"
    result = toolchaos(
        "report", *map(str, runs), "--html", str(page), "--thresholds", "median",
        "--write", str(tmp_path / "w"), "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert str(page) in payload["files"] and page.stat().st_size > 0
    assert any("medians over" in n for n in payload["notes"])
    failed = toolchaos("report", str(runs[0]), "--thresholds", "sometimes")
    assert failed.returncode == 2 and "Traceback" not in failed.stderr
    assert "--thresholds must be" in " ".join(failed.stderr.split())
    for command in ("compare", "export"):
        helped = toolchaos(command, "--help")
        assert helped.returncode == 0 and "Usage" in helped.stdout


def test_render_keeps_what_it_drew(report: Report) -> None:
    spec = report.figures[0]
    assert render(spec) is render(spec)


def test_a_run_without_episodes_still_reports(tmp_path: Path) -> None:
    from toolchaos.runner.store import STORE_NAME, Store

    (tmp_path / "empty").mkdir()
    Store(tmp_path / "empty" / STORE_NAME).close()
    report = build_report([tmp_path / "empty"])
    assert report.rows == [] and report.labels.empty
    written = write_report(report, tmp_path / "out", figures=True)
    assert (tmp_path / "out" / "report.md") in written
    assert "<title>toolchaos report</title>" in render_html(report)


def test_episodes_of_a_suite_without_a_contributor_are_noted_not_scored(tmp_path: Path) -> None:
    from toolchaos.core.types import Episode
    from toolchaos.runner.store import STORE_NAME, Store

    run = play(tmp_path / "run", ["scripted/oracle"], ["clean"], subset=3)
    store = Store(run / STORE_NAME)
    store.put(
        Episode(key="x", suite="elsewhere", task_id="t", model="m", protocol="p", arm="clean")
    )
    store.close()
    report = build_report([run])
    assert report.rows[0]["n"] == 3 and set(report.frame["suite"]) == {"toolbench-x"}
    assert any(n.startswith("Suite elsewhere: 1 stored episodes") for n in report.notes)


@pytest.fixture(scope="module")
def two_suites(tmp_path_factory: pytest.TempPathFactory) -> Report:
    """The same model in both suites, as `make run` plays it."""
    from rich.console import Console

    from toolchaos.runner.run import RunConfig, run

    root = tmp_path_factory.mktemp("two-suites")
    tbx = play(root / "tbx", ["scripted/oracle", "scripted/naive"], ["clean", "hazard"], 10)
    config = RunConfig(suite="toolfailbench", models=["scripted/oracle"], subset=10)
    run(config, root / "tfb", Console(quiet=True))
    return build_report([tbx, root / "tfb"])


def _viewer(page: str) -> dict:
    data = re.search(r'<script type="application/json" id="viewer-data">(.*?)</script>', page, re.S)
    assert data is not None
    return json.loads(data.group(1))


def test_html_links_name_their_suite_and_count_only_its_episodes(two_suites: Report) -> None:
    page = render_html(two_suites, max_episodes=1000)
    viewer = _viewer(page)
    accuracy = two_suites.tables["accuracy"]
    for row in accuracy.to_dict(orient="records"):
        href = filter_href({"suite": row["suite"], "model": row["model"], "arm": row["arm"]})
        assert f'href="{href}"' in page
        # the link stands for the row's n episodes, not the model's episodes of both suites
        assert viewer["counts"][href[len("#filter=") :]] == row["n"]
        shown = [
            e
            for e in viewer["episodes"]
            if (e["suite"], e["model"], e["arm"]) == (row["suite"], row["model"], row["arm"])
        ]
        assert len(shown) == row["n"]
    # a suite's own table links to that suite even without a suite column
    assert 'href="#filter=suite:toolfailbench;model:scripted%2Foracle"' in page
    assert 'href="#filter=suite:toolbench-x;model:scripted%2Foracle;arm:clean;family:' in page
    assert viewer["options"]["suite"] == ["toolbench-x", "toolfailbench"]
    assert 'id="f-suite"' in page and 'id="f-task"' in page  # the suite filter, the id search


def test_clean_arm_episodes_are_not_labelled_with_a_hazard(two_suites: Report) -> None:
    episodes = _viewer(render_html(two_suites, max_episodes=1000))["episodes"]
    clean = [e for e in episodes if e["suite"] == "toolbench-x" and e["arm"] == "clean"]
    hazard = [e for e in episodes if e["suite"] == "toolbench-x" and e["arm"] == "hazard"]
    assert clean and hazard
    for episode in clean:
        assert episode["hazard"].startswith("none in the clean arm"), episode["hazard"]
    for episode in hazard:
        assert episode["hazard"] == f"{episode['family']} / {episode['variant']}"
    assert all(e["hazard"] == "" for e in episodes if e["suite"] == "toolfailbench")
