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
    assert "toolfailbench_leaderboard_ensemble" in tables


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
