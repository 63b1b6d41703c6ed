"""The terminal layout: every report table fits the console, wide ones folded into parts."""

import io
import itertools
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console
from scripted_runs import play

from toolchaos.report.tables import Report, build_report, fold_columns, print_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.suites.base import ReportTable

WIDTH = 80
TFB_MODELS = ["scripted/oracle", "scripted/skip", "scripted/ignore", "scripted/overuse"]


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def toolchaos(*args: str, columns: int = WIDTH) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=180,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": str(columns)},
    )


@pytest.fixture(scope="module")
def toolbench_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    models = ["scripted/oracle", "scripted/naive", "scripted/retry", "scripted/no-tool"]
    return play(tmp_path_factory.mktemp("tbx") / "run", models, ["clean", "hazard", "hint"])


@pytest.fixture(scope="module")
def toolfail_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four baselines, judged (one judge disagreeing on skips), so every table shows."""
    out = tmp_path_factory.mktemp("tfb") / "run"
    run(RunConfig(suite="toolfailbench", models=TFB_MODELS, subset=20), out, Console(quiet=True))
    store = Store.open_existing(out)
    for episode in store.episodes():
        store.put_judgement(episode.key, "judge_a", "openai/gpt-4o-mini", "correct", "r")
        label = "tool_skip" if episode.model == "scripted/skip" else "correct"
        store.put_judgement(episode.key, "judge_b", "anthropic/claude-3-5-haiku", label, "r")
    store.close()
    return out


def test_a_table_that_fits_is_one_part() -> None:
    headers = ["model", "n", "accuracy"]
    cells = [["scripted/oracle"], ["3"], ["1.000"]]
    assert fold_columns(headers, cells, WIDTH) == [[0, 1, 2]]


def test_a_wide_table_folds_into_parts_that_repeat_its_keys() -> None:
    headers = ["rank", "model", "arm", *(f"rate {i} %" for i in range(12))]
    cells = [["1", "2"], ["m", "m"], ["clean", "hazard"], *([["12.50", "100.00"]] * 12)]
    parts = fold_columns(headers, cells, 60)
    assert len(parts) > 1
    # rank, then model and arm (model alone does not tell the rows apart)
    assert all(part[:3] == [0, 1, 2] for part in parts)
    assert [i for part in parts for i in part[3:]] == list(range(3, 15))  # each once, in order
    unique = [["m1", "m2"], ["clean", "clean"]]
    parts = fold_columns(["model", "arm", *headers[3:]], unique + cells[3:], 60)
    assert all(part[0] == 0 and part[1] != 1 for part in parts[1:])  # model is key enough


def test_every_report_table_fits_80_columns(toolbench_run: Path, toolfail_run: Path) -> None:
    for directory in (toolbench_run, toolfail_run):
        report = build_report([directory])
        console = Console(width=WIDTH, record=True, file=io.StringIO())
        print_report(report, console, directory)
        text = console.export_text()
        too_long = [line for line in lines_of(text) if len(line) > WIDTH]
        assert not too_long, too_long[:3]
        words = " ".join(text.split())
        assert "Folded into" in words and "report.md and" in words


def test_long_cells_wrap_inside_their_column() -> None:
    frame = pd.DataFrame(
        [
            {
                "model": "openai-compat/meta-llama/Llama-3.1-70B-Instruct-Turbo",
                "reasons": "degenerate_repetition 12, special_tokens 8, empty 3, control 1",
                **{f"column {i} %": 12.5 for i in range(8)},
            }
        ]
    )
    report = Report(frame=frame, rows=[], sections=[ReportTable("wide", "A wide table", frame)])
    console = Console(width=WIDTH, record=True, file=io.StringIO())
    print_report(report, console)
    text = console.export_text()
    assert max(len(line) for line in lines_of(text)) <= WIDTH
    assert "12.50" in text  # percent columns: 2 decimals
    assert "report_wide.csv hold it in one table" in " ".join(text.split())


@pytest.mark.parametrize("suite", ["toolbench-x", "toolfailbench"])
def test_the_report_command_fits_80_columns(
    suite: str, toolbench_run: Path, toolfail_run: Path, tmp_path: Path
) -> None:
    directory = toolbench_run if suite == "toolbench-x" else toolfail_run
    result = toolchaos("report", str(directory), "--no-figures", "--write", str(tmp_path))
    assert result.returncode == 0, result.stderr
    # a file path is printed whole on its own line (to be copied); everything else fits
    too_long = [
        line
        for line in lines_of(result.stdout)
        if len(line) > WIDTH and not line.strip().startswith(str(tmp_path.anchor))
    ]
    assert not too_long, too_long[:3]
    assert "Folded into" in result.stdout
    # the files keep every column in one table
    markdown = (tmp_path / "report.md").read_text()
    if suite == "toolfailbench":
        header = next(line for line in markdown.splitlines() if line.startswith("| rank |"))
        assert "CTRL-Acc 95% CI" in header and "rule CTUR %" in header
        assert "(part 1 of" not in markdown
    wide = toolchaos(
        "report", str(directory), "--no-figures", "--write", str(tmp_path), columns=400
    )
    assert "Folded into" not in wide.stdout  # a wide terminal shows each table whole


def fits(text: str, width: int = WIDTH) -> None:
    too_long = [line for line in lines_of(text) if len(line) > width]
    assert not too_long, too_long[:3]


def test_compare_fits_80_columns(toolbench_run: Path) -> None:
    run = str(toolbench_run)
    result = toolchaos(
        "compare", run, run, "--model-a", "scripted/oracle", "--model-b", "scripted/naive"
    )
    assert result.returncode == 0, result.stderr
    assert "McNemar p" in result.stdout and "flipped:" in result.stdout
    fits(result.stdout)


@pytest.mark.parametrize("suite", ["toolbench-x", "toolfailbench"])
def test_tasks_stats_is_a_table_that_fits_80_columns(suite: str) -> None:
    result = toolchaos("tasks", suite, "--stats")
    assert result.returncode == 0, result.stderr
    assert "{" not in result.stdout  # not a printed dict
    fits(result.stdout)


def test_small_p_values_are_printed_in_scientific_notation(toolfail_run: Path) -> None:
    from toolchaos.report.tables import cell_text, to_markdown

    assert cell_text(2.3e-9, "p_value") == "2.3e-09"
    assert cell_text(0.0312, "p_value") == "0.031"
    assert cell_text(0.0, "p_value") == "<1e-300"  # underflowed, never 0.000
    assert cell_text(2.3e-9, "accuracy") == "0.000"  # other columns keep 3 decimals
    report = build_report([toolfail_run])
    tests = report.tables["toolfailbench_ctur_tests"]
    smallest = tests["p_value"].min()
    assert 0 < smallest < 0.001  # the oracle against the skipper
    markdown = to_markdown(report)
    assert cell_text(smallest, "p_value") in markdown
    header = next(line for line in markdown.splitlines() if "| p_value |" in line)
    columns = [c.strip() for c in header.strip("|").split("|")]
    at = columns.index("p_value")
    after = markdown[markdown.index(header) :].splitlines()[2:]
    rows = list(itertools.takewhile(lambda line: line.startswith("|"), after))
    shown = [r.strip("|").split("|")[at].strip() for r in rows]
    assert shown and "0.000" not in shown


def test_report_summary_prints_the_headline_numbers(
    toolbench_run: Path, toolfail_run: Path, tmp_path: Path
) -> None:
    html = tmp_path / "report.html"
    result = toolchaos(
        "report",
        str(toolbench_run),
        str(toolfail_run),
        "--no-figures",
        "--write",
        str(tmp_path),
        "--html",
        str(html),
        "--summary",
    )
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "Accuracy per model and arm" not in text  # no tables, only the headline
    report = build_report([toolbench_run, toolfail_run])
    arms = report.tables["arms"]
    lines = lines_of(text)
    assert "ToolBench-X accuracy, clean -> hazard (tasks with a hazard):" in lines
    for row in arms.to_dict(orient="records"):
        wanted = f"{row['clean']:.3f} -> {row['hazard']:.3f}"
        assert any(line.split()[:1] == [row["model"]] and wanted in line for line in lines), row
    board = report.tables["toolfailbench_leaderboard"]
    assert any(line.startswith("ToolFailBench CTUR") for line in lines)
    for model, ctur in zip(board["model"], board["CTUR %"], strict=True):
        assert any(line.split() == [model, f"{ctur:.1f}%"] for line in lines), model
    assert f"  {html}" in lines and f"  {tmp_path / 'report.md'}" in lines
    assert html.is_file() and (tmp_path / "report.md").is_file()
    # without --summary the report ends with the same lines, after the tables
    full = toolchaos("report", str(toolbench_run), "--no-figures", "--write", str(tmp_path))
    assert "Accuracy per model and arm" in full.stdout
    assert full.stdout.rstrip().splitlines()[-1] == f"  {tmp_path / 'report.md'}"
    assert "ToolBench-X accuracy, clean -> hazard" in full.stdout


def test_progress_bars_show_each_suite_and_model(tmp_path: Path) -> None:
    console = Console(width=WIDTH, record=True, file=io.StringIO())
    models = ["scripted/oracle", "scripted/no-tool"]
    config = RunConfig(suite="toolbench-x", models=models, arms=["clean", "hazard"], limit=3)
    run(config, tmp_path / "run", console)
    text = console.export_text()
    fits(text)
    for model in models:
        line = next(line for line in lines_of(text) if f"toolbench-x {model}" in line)
        assert "6/6" in line and "ep/s" in line and "ETA" in line, line
