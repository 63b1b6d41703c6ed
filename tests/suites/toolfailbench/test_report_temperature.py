"""`toolchaos run --temperature` and the temperature ablation in the report."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from toolchaos.core.types import Episode
from toolchaos.models.config import ModelEntry
from toolchaos.report.tables import build_report, to_markdown, write_report
from toolchaos.runner.plan import episode_key
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.stats.agreement import two_proportion_test
from toolchaos.testing import FakeOpenAI, Reply

SAMPLED = "openai-compat/tiny-7b"


def toolchaos(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"},
    )


def test_temperature_reaches_api_models_and_is_stored(tmp_path: Path) -> None:
    bodies: list[dict[str, Any]] = []

    def answer(body: dict[str, Any], index: int) -> Reply:
        bodies.append(body)
        return Reply(content="I cannot tell.")

    out = tmp_path / "run"
    with FakeOpenAI(answer, models=["fake-1"]) as server:
        args = ["run", "toolfailbench", "-m", "scripted/oracle", "-m", "openai-compat/fake-1"]
        args += ["--base-url", server.base_url, "--subset", "3", "--out", str(out)]
        first = toolchaos(*args, "--temperature", "0.7")
        again = toolchaos(*args, "--temperature", "1")
    assert first.returncode == 0, first.stderr
    assert bodies and {b["temperature"] for b in bodies} == {0.7}
    store = Store.open_existing(out, read_only=True)
    stored = {e["spec"]: e["temperature"] for e in json.loads(store.get_meta("models") or "")}
    store.close()
    assert stored == {"scripted/oracle": None, "openai-compat/fake-1": 0.7}
    # one directory holds one temperature per model
    assert again.returncode == 2
    assert "at temperature 0.7, not 1" in " ".join(again.stderr.split())


def test_temperature_out_of_range_is_bad_input(tmp_path: Path) -> None:
    for value in ("2.5", "-0.1"):
        result = toolchaos(
            "run", "toolfailbench", "-m", "scripted/oracle", f"--temperature={value}",
            "--out", str(tmp_path / "x"),
        )  # fmt: skip
        assert result.returncode == 2, result.stderr
        assert "--temperature must be between 0 and 2" in " ".join(result.stderr.split())
        assert "Traceback" not in result.stderr


def copy_as(source: Path, out: Path, temperature: float | None, garble: int) -> int:
    """Store the oracle's episodes of ``source`` as SAMPLED's at ``temperature``.

    The first ``garble`` tool-required answers become a degenerate repetition; returns
    how many tool-required episodes there are.
    """
    old = Store.open_existing(source, read_only=True)
    tasks = old.tasks()
    episodes = [e for e in old.episodes() if e.model == "scripted/oracle"]
    old.close()
    out.mkdir()
    store = Store(out / STORE_NAME)
    entry = ModelEntry(spec=SAMPLED, tier="open-weight", temperature=temperature)
    store.set_meta("models", json.dumps([entry.model_dump()]))
    store.put_tasks(tasks.values())
    required = 0
    for episode in episodes:
        data = episode.model_dump()
        data["model"] = SAMPLED
        data["key"] = episode_key(
            episode.suite, SAMPLED, episode.protocol, episode.task_id, episode.arm, episode.sample
        )
        if tasks[episode.task_id].kind == "tool_required":
            required += 1
            if required <= garble:
                data["final_answer"] = "The value is " + "the value is " * 12
        store.put(Episode.model_validate(data))
    store.close()
    return required


def test_the_report_compares_a_model_between_temperatures(tmp_path: Path) -> None:
    from toolchaos.report.html import render_html

    source = tmp_path / "oracle"
    run(
        RunConfig(suite="toolfailbench", models=["scripted/oracle"], subset=24),
        source,
        Console(quiet=True),
    )
    n = copy_as(source, tmp_path / "default", None, garble=0)
    copy_as(source, tmp_path / "hot", 1.3, garble=5)
    report = build_report([tmp_path / "default", tmp_path / "hot", source])
    table = report.tables["toolfailbench_temperature"]
    # the scripted oracle ran at no temperature: it is not in the ablation
    assert list(table["model"]) == [SAMPLED]
    row = table.iloc[0]
    assert (row["temperature A"], row["temperature B"]) == (0.0, 1.3)
    assert (row["n A"], row["n B"]) == (n, n)
    assert row["CTUR A %"] == 100.0
    assert row["CTUR B %"] == round(100 * (n - 5) / n, 2)
    assert row["CTUR B - A pp"] == round(row["CTUR B %"] - 100.0, 2)
    expected = two_proportion_test(n, n, n - 5, n)
    assert expected is not None and row["p_value"] == float(f"{expected:.6g}")
    assert (row["degenerate A"], row["degenerate B"]) == (0, 5)
    assert row["answers A"] == row["answers B"] == 24
    # 5 of 24 is under half: nothing is flagged, both runs stay on the board
    assert "toolfailbench_flagged_runs" not in report.tables
    assert "same model at different sampling temperatures" in to_markdown(report)
    assert "same model at different sampling temperatures" in render_html(report)
    written = {p.name for p in write_report(report, tmp_path / "files")}
    assert "report_toolfailbench_temperature.csv" in written


def test_one_temperature_per_model_adds_no_ablation(tmp_path: Path) -> None:
    run(
        RunConfig(suite="toolfailbench", models=["scripted/oracle"], subset=6),
        tmp_path / "a",
        Console(quiet=True),
    )
    assert "toolfailbench_temperature" not in build_report([tmp_path / "a"]).tables
