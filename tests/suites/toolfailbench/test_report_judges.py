"""`toolchaos judge` against a real local endpoint, then agreement in the report."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.testing import FakeOpenAI, Reply


def simple_judge(body: dict[str, Any], index: int) -> Reply:
    """Says tool_skip when no call ran, correct otherwise; garbles every fifth reply."""
    if index % 5 == 4:
        return Reply(content="I would say it is fine")
    trace = body["messages"][1]["content"]
    label = "tool_skip" if "Executed calls: none" in trace else "correct"
    if "Task kind: control" in trace:
        label = "correct"
    return Reply(content=json.dumps({"label": label, "rationale": "by the calls"}))


def test_judges_are_stored_and_agreement_is_reported(tmp_path: Path) -> None:
    out = tmp_path / "run"
    config = RunConfig(
        suite="toolfailbench", models=["scripted/oracle", "scripted/skip"], subset=20
    )
    run(config, out, Console(quiet=True))
    with FakeOpenAI(simple_judge) as server:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "toolchaos.cli",
                "judge",
                str(out),
                "--judge",
                "openai-compat/judge-1",
                "--base-url",
                server.base_url,
                "--concurrency",
                "4",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"},
        )
    assert result.returncode == 0, result.stderr
    labels = Store.open_existing(out).judgements()
    assert {r["rater"] for r in labels} == {"judge_a", "judge_b"}
    assert len(labels) == 2 * 40
    report = build_report([out])
    tables = {t.name: t.frame for t in report.sections}
    agreement = tables["toolfailbench_agreement"].set_index("stratum")
    assert agreement.loc["all", "n"] == 40
    # the rule and this judge agree on skips and on correct answers
    assert agreement.loc["all", "kappa rule~judge_a"] > 0.5
    board = tables["toolfailbench_leaderboard"].set_index("model")
    assert "rule CTUR %" in board  # ranked by the ensemble, the rule beside it
    assert board.loc["scripted/oracle", "rank"] == 1
    assert "toolfailbench_votes" in tables and "toolfailbench_ctur_by_rater" in tables


def test_judge_refuses_a_missing_run(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolchaos.cli",
            "judge",
            str(tmp_path),
            "--judge",
            "openai-compat/x",
            "--base-url",
            "http://127.0.0.1:9/v1",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 2 and "holds no toolchaos run" in " ".join(result.stderr.split())


def test_unjudged_episodes_stay_out_of_the_ensemble_tables(tmp_path: Path) -> None:
    """As after ``judge --limit``: only some episodes have judge labels."""
    out = tmp_path / "run"
    config = RunConfig(
        suite="toolfailbench", models=["scripted/oracle", "scripted/skip"], subset=20
    )
    run(config, out, Console(quiet=True))
    store = Store.open_existing(out)
    tasks = store.tasks()
    episodes = sorted(store.episodes(), key=lambda e: e.key)
    judged = [e for e in episodes if e.model == "scripted/oracle"][:8]
    for episode in judged:
        # both judges call every judged oracle episode a result_ignore
        store.put_judgement(episode.key, "judge_a", "openai/gpt-4o-mini", "result_ignore", "r")
        store.put_judgement(episode.key, "judge_b", "openai/gpt-4o-mini", "result_ignore", "r")
    store.close()
    report = build_report([out])
    board = report.tables["toolfailbench_leaderboard"].set_index("model")
    # skip has no judged episode: it is not ranked with rule labels among ensemble rows
    assert list(board.index) == ["scripted/oracle"]
    required = sum(tasks[e.task_id].kind == "tool_required" for e in judged)
    assert board.loc["scripted/oracle", "required"] == required
    assert board.loc["scripted/oracle", "CTUR %"] == 0.0  # every judged one overruled
    assert board.loc["scripted/oracle", "rule CTUR %"] == 100.0
    section = next(t for t in report.sections if t.name == "toolfailbench_leaderboard")
    assert f"{40 - 8} episode(s) without a label from both judges are left out" in section.note
    assert "No episode of scripted/skip has both judges' labels" in section.note
    by_rater = report.tables["toolfailbench_ctur_by_rater"].set_index("model")
    assert by_rater.loc["scripted/skip", "rule n"] == 15  # every model, by every rater
    assert by_rater.loc["scripted/skip", "ensemble n"] == 0
    votes = report.tables["toolfailbench_votes"].set_index("model")
    assert (votes.loc["all", "judged"], votes.loc["all", "unlabelled"]) == (8, 32)
