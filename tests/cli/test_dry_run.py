"""``run --dry-run``: the plan counted and priced, nothing played, nothing written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from toolchaos.runner.estimate import estimate
from toolchaos.runner.run import RunConfig

MODELS = """models:
  - spec: openai/gpt-4o-mini
    input_per_mtok: 0.15
    output_per_mtok: 0.6
    max_tokens: 100
  - spec: openai-compat/unpriced
    base_urls: http://127.0.0.1:9/v1
"""


def toolchaos(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
    )


def test_a_dry_run_counts_prices_and_writes_nothing(tmp_path: Path) -> None:
    models = tmp_path / "models.yaml"
    models.write_text(MODELS, encoding="utf-8")
    out = tmp_path / "run"
    args = ["run", "toolbench-x", "--models-file", str(models), "-m", "scripted/oracle"]
    done = toolchaos(
        *args, "--subset", "6", "--arms", "clean,hazard", "--out", str(out), "--dry-run"
    )
    assert done.returncode == 0, done.stderr
    assert not out.exists()  # not even the directory
    lines = done.stdout.splitlines()
    priced = next(line for line in lines if "openai/gpt-4o-mini" in line)
    # 6 tasks x 2 arms; requests 1 to max_turns (10) x rounds (1) per episode
    assert "12 of 12 episodes to play; 12-120 requests" in priced
    assert "at most 12,000 output tokens" in priced  # 120 requests x its max_tokens 100
    low, high = (int(v.replace(",", "")) for v in re.findall(r"([\d,]+)-([\d,]+) input", priced)[0])
    # the high bound: each of the 10 turns resends the first request grown by one size a turn
    assert high == low * sum(1 + turn for turn in range(10))
    cost = re.findall(r"\$([\d.]+)-\$([\d.]+)", priced)[0]
    assert float(cost[0]) == round(low * 0.15 / 1e6, 4)
    assert float(cost[1]) == round((high * 0.15 + 12_000 * 0.6) / 1e6, 4)
    unpriced = next(line for line in lines if "openai-compat/unpriced" in line)
    assert "no prices in the models file, so no cost" in unpriced
    assert "scripted/oracle: 12 of 12 episodes to play (scripted: no requests" in done.stdout


def test_a_dry_run_leaves_out_what_the_run_directory_stores(tmp_path: Path) -> None:
    out = tmp_path / "run"
    played = toolchaos(
        "run", "toolbench-x", "-m", "scripted/oracle", "--subset", "4", "--out", str(out)
    )
    assert played.returncode == 0, played.stderr
    config = RunConfig(suite="toolbench-x", models=["scripted/oracle"], subset=6)  # type: ignore[list-item]
    (row,) = estimate(config, out)
    arms = 2  # the suite's default arms: clean and hazard (a subset of 4 is the first 4 of 6)
    assert (row.planned, row.stored, row.to_play) == (6 * arms, 4 * arms, 2 * arms)
    assert row.requests == (0, 0) and row.cost_usd == (0.0, 0.0)


def test_a_dry_run_refuses_bad_input_like_a_run() -> None:
    done = toolchaos(
        "run", "toolbench-x", "-m", "scripted/oracle", "--arms", "nope", "--out", "x", "--dry-run"
    )
    assert done.returncode == 2 and "unknown arm 'nope'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_judge_dry_run_counts_each_judges_requests_and_asks_nothing(tmp_path: Path) -> None:
    from toolchaos.runner.store import STORE_NAME, Store

    out = tmp_path / "tfb"
    played = toolchaos(
        "run", "toolfailbench", "-m", "scripted/oracle", "--subset", "5", "--out", str(out)
    )
    assert played.returncode == 0, played.stderr
    models = tmp_path / "models.yaml"
    models.write_text(MODELS, encoding="utf-8")
    before = (out / STORE_NAME).stat().st_mtime_ns
    judges = ["--judge", "openai/gpt-4o-mini", "--judge", "openai-compat/unpriced"]
    common = ["judge", str(out), *judges, "--models-file", str(models), "--dry-run"]
    release = toolchaos(*common)
    assert release.returncode == 0, release.stderr
    a = next(line for line in release.stdout.splitlines() if "judge_a" in line)
    # 5 replies of at most 100 tokens: the entry's max_tokens overrides the rubric's 512
    assert "5 episodes; 5-5 requests" in a and "at most 500 output tokens" in a
    b_tokens = next(line for line in release.stdout.splitlines() if "judge_b" in line)
    assert "at most 2,560 output tokens" in b_tokens  # no max_tokens in its entry: 5 x 512
    b = next(line for line in release.stdout.splitlines() if "judge_b" in line)
    assert "no prices in the models file, so no cost" in b
    again = toolchaos(*common, "--rubric", "toolchaos")
    a = next(line for line in again.stdout.splitlines() if "judge_a" in line)
    assert "5-15 requests" in a and "at most 1,500 output tokens" in a  # 15 x max_tokens 100
    assert (out / STORE_NAME).stat().st_mtime_ns == before  # nothing written
    store = Store.open_existing(out, read_only=True)
    try:
        assert store.judgements() == []
    finally:
        store.close()
