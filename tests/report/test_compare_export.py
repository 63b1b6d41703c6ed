"""Paired comparison (McNemar) and the OpenAI JSONL export, on real scripted runs."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from scripted_runs import play

from toolchaos.core.errors import BadInput
from toolchaos.report.compare import compare, mcnemar_test
from toolchaos.report.export import export
from toolchaos.runner.store import Store

TASKS = 12


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("pair")
    return (
        play(root / "oracle", ["scripted/oracle"], ["clean", "hazard"], subset=TASKS),
        play(root / "naive", ["scripted/naive"], ["clean", "hazard"], subset=TASKS),
    )


def test_oracle_against_naive_flips_every_hazard_task(pair: tuple[Path, Path]) -> None:
    result = compare(*pair)
    assert (result.model_a, result.model_b) == ("scripted/oracle", "scripted/naive")
    # clean: both right; hazard: only the oracle recovers
    assert result.overall.table == [[TASKS, TASKS], [0, 0]]
    assert result.by_arm["clean"].table == [[TASKS, 0], [0, 0]]
    assert result.by_arm["hazard"].table == [[0, TASKS], [0, 0]]
    assert result.overall.exact  # 12 discordant pairs: the exact binomial test
    assert result.overall.p_value == pytest.approx(2 * 0.5**TASKS)
    assert result.by_arm["clean"].p_value == 1.0
    assert len(result.flipped) == TASKS
    assert all(f.arm == "hazard" and f.a_correct and not f.b_correct for f in result.flipped)
    assert result.unpaired_a == result.unpaired_b == 0


def test_many_discordant_pairs_use_the_chi_square_statistic() -> None:
    test = mcnemar_test(10, 30, 10, 50)
    assert not test.exact and test.statistic == pytest.approx((abs(30 - 10) - 1) ** 2 / 40)
    assert test.p_value == pytest.approx(0.002663, rel=1e-3)


def test_a_directory_with_many_models_needs_a_model_flag(
    pair: tuple[Path, Path], tmp_path: Path
) -> None:
    both = play(tmp_path / "both", ["scripted/oracle", "scripted/retry"], ["hazard"], subset=5)
    with pytest.raises(BadInput, match=r"holds 2 models .*; name one with --model-a"):
        compare(both, pair[1])
    result = compare(both, both, "scripted/retry", "scripted/oracle")
    assert result.overall.pairs == 5 and result.overall.table[0][0] <= 5
    with pytest.raises(BadInput, match="no episodes of model 'scripted/wizard'"):
        compare(both, pair[1], model_a="scripted/wizard")
    with pytest.raises(BadInput, match="name two models"):
        compare(both, both, "scripted/retry", "scripted/retry")


def test_compare_cli_prints_the_table_and_json(pair: tuple[Path, Path]) -> None:
    command = [sys.executable, "-m", "toolchaos.cli", "compare", *map(str, pair)]
    env = {"COLUMNS": "200", "PATH": "/usr/bin:/bin"}
    shown = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    assert shown.returncode == 0, shown.stderr
    assert "A correct" in shown.stdout and "McNemar p = " in shown.stdout
    assert f"{TASKS} flipped" in shown.stdout
    data = json.loads(
        subprocess.run(
            [*command, "--json"], capture_output=True, text=True, timeout=120, env=env
        ).stdout
    )
    assert data["overall"]["table"] == [[TASKS, TASKS], [0, 0]] and len(data["flipped"]) == TASKS


def test_export_lines_parse_with_openai_roles(pair: tuple[Path, Path]) -> None:
    buffer = io.StringIO()
    count = export(pair[1], "openai-jsonl", buffer)
    lines = buffer.getvalue().splitlines()
    assert count == len(lines) == Store.open_existing(pair[1]).count() == 2 * TASKS
    for line in lines:
        record = json.loads(line)
        assert set(record) == {"messages", "metadata"}
        messages = record["messages"]
        assert [m["role"] for m in messages[:2]] == ["system", "user"]
        assert {m["role"] for m in messages} <= {"system", "user", "assistant", "tool"}
        calls = {c["id"] for m in messages for c in m.get("tool_calls", [])}
        for m in messages:
            if m["role"] == "tool":
                assert m["tool_call_id"] in calls and isinstance(m["content"], str)
            for call in m.get("tool_calls", []):
                assert call["type"] == "function"
                json.loads(call["function"]["arguments"])
        assert messages[-1]["role"] == "assistant"
        meta = record["metadata"]
        assert meta["model"] == "scripted/naive" and meta["arm"] in ("clean", "hazard")
        assert meta["correct"] == (meta["arm"] == "clean")


def test_export_cli_writes_a_file_and_refuses_an_unknown_format(
    pair: tuple[Path, Path], tmp_path: Path
) -> None:
    def toolchaos(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "toolchaos.cli", *args],
            capture_output=True,
            text=True,
            timeout=120,
            env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
        )

    target = tmp_path / "out.jsonl"
    done = toolchaos("export", str(pair[0]), "--format", "openai-jsonl", "--out", str(target))
    assert done.returncode == 0, done.stderr
    assert len(target.read_text().splitlines()) == 2 * TASKS
    bad = toolchaos("export", str(pair[0]), "--format", "sharegpt")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "unknown export format 'sharegpt'; known formats: openai-jsonl" in " ".join(
        bad.stderr.split()
    )
