"""`report --model`, `report --json` with every table, and `toolchaos runs`, through the CLI."""

import csv
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def toolchaos(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "80", "PATH": "/usr/bin:/bin"},
    )


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both suites with two models each, and a run whose every episode is a harness error."""
    root = tmp_path_factory.mktemp("report-cli") / "runs"
    plays = [
        ("tbx", "toolbench-x", "scripted/oracle,scripted/naive", "6"),
        ("tfb", "toolfailbench", "scripted/oracle,scripted/skip", "5"),
    ]
    for name, suite, models, n in plays:
        played = toolchaos("run", suite, "-m", models, "--subset", n, "--out", str(root / name))
        assert played.returncode == 0, played.stderr
    # ToolFailBench has no lenient player: every episode is stored as a harness error
    broken = toolchaos(
        "run", "toolfailbench", "-m", "scripted/lenient", "--limit", "2", "--out",
        str(root / "nested" / "broken"),
    )  # fmt: skip
    assert broken.returncode == 1, broken.stderr
    return root


def report_json(*args: str) -> dict[str, Any]:
    result = toolchaos("report", *args, "--json", "--no-figures")
    assert result.returncode == 0, result.stderr
    loaded: dict[str, Any] = json.loads(result.stdout)
    return loaded


def test_report_json_holds_every_table_the_csv_files_hold(runs: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    found = report_json(str(runs / "tbx"), str(runs / "tfb"), "--write", str(out))
    tables = {t["name"]: t for t in found["tables"]}
    csvs = {p.stem.removeprefix("report_"): p for p in out.glob("report_*.csv")}
    assert set(tables) == set(csvs)
    assert {"accuracy", "by_family", "actions", "toolfailbench_leaderboard"} <= set(tables)
    for name, path in csvs.items():
        with path.open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        assert len(tables[name]["rows"]) == len(rows), name
        if rows:
            assert list(rows[0]) == tables[name]["columns"], name
    assert found["rows"] == tables["accuracy"]["rows"]
    assert tables["toolfailbench_leaderboard"]["suite"] == "toolfailbench"
    assert any(line.startswith("ToolFailBench CTUR") for line in found["headline"])
    # the README's sentence: the oracle answers in a sentence, so exact 0 and correct 1
    oracle = [r for r in tables["answer_measures"]["rows"] if r["model"] == "scripted/oracle"]
    assert oracle and all(r["exact"] == 0 and r["correct"] == 1 for r in oracle)


def test_report_model_keeps_only_that_models_episodes_in_every_table(runs: Path) -> None:
    both = [str(runs / "tbx"), str(runs / "tfb")]
    everyone = report_json(*both)
    only = report_json(*both, "--model", "scripted/oracle")
    assert {r["model"] for r in everyone["rows"]} == {
        "scripted/oracle", "scripted/naive", "scripted/skip"
    }  # fmt: skip
    assert {r["model"] for r in only["rows"]} == {"scripted/oracle"}
    for table in only["tables"]:
        # a by-mode table pools "all models" too: the pool of the one model reported
        models = {r["model"] for r in table["rows"] if "model" in r} - {"all models"}
        assert models <= {"scripted/oracle"}, table["name"]
    assert "Only the episodes of scripted/oracle (--model)." in only["notes"]
    oracle_rows = [r for r in everyone["rows"] if r["model"] == "scripted/oracle"]
    assert only["rows"] == oracle_rows  # the numbers are the same, only the others left out
    two = report_json(*both, "-m", "scripted/oracle,scripted/skip")
    assert {r["model"] for r in two["rows"]} == {"scripted/oracle", "scripted/skip"}


def test_report_model_naming_no_model_of_the_runs_is_one_sentence(runs: Path) -> None:
    result = toolchaos("report", str(runs / "tbx"), "--model", "scripted/orcale")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    text = " ".join(result.stderr.split())
    assert "--model scripted/orcale: no episode of it in" in text
    assert "did you mean scripted/oracle?" in text


def test_runs_lists_every_run_directory_with_its_counts(runs: Path) -> None:
    result = toolchaos("runs", str(runs), "--json")
    assert result.returncode == 0, result.stderr
    listed = {Path(r["directory"]).name: r for r in map(json.loads, result.stdout.splitlines())}
    assert set(listed) == {"tbx", "tfb", "broken"}
    tbx, tfb, broken = listed["tbx"], listed["tfb"], listed["broken"]
    assert tbx["suite"] == "toolbench-x" and tbx["arms"] == ["clean", "hazard"]
    assert tbx["models"] == ["scripted/oracle", "scripted/naive"]
    assert tbx["episodes"] == 2 * 2 * 6 and tbx["errors"] == 0
    assert tfb["suite"] == "toolfailbench" and tfb["episodes"] == 10
    assert broken["episodes"] == 2 and broken["errors"] == 2
    assert all(r["started"] and r["ended"] for r in listed.values())

    text = toolchaos("runs", str(runs))
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    at = lines.index(str(runs / "nested" / "broken"))
    assert lines[at + 1] == "  toolfailbench: 2 episodes, 2 harness errors"
    assert lines[at + 2].startswith("  started ") and lines[at + 2].endswith("finished")


def test_runs_says_a_run_is_unfinished_and_refuses_a_missing_folder(
    runs: Path, tmp_path: Path
) -> None:
    stopped = tmp_path / "stopped"
    played = toolchaos(
        "run", "toolbench-x", "-m", "scripted/oracle", "--limit", "1", "--out", str(stopped)
    )
    assert played.returncode == 0, played.stderr
    manifest = json.loads((stopped / "manifest.json").read_text())
    # what a killed run leaves: a manifest with no end time
    (stopped / "manifest.json").write_text(json.dumps({**manifest, "ended": None}))
    result = toolchaos("runs", str(stopped))
    assert result.returncode == 0, result.stderr
    assert "unfinished (stopped, or still playing)" in result.stdout
    missing = toolchaos("runs", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    assert "Traceback" not in missing.stderr
