"""A hand-made v5 release, written here, imports and runs: `run toolfailbench --tasks DIR`.

The episodes play against the release's own tools and system prompt; the expected tool
returns the release's mock return, any other tool a clear error; the report labels them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from test_tfb_importer import FINANCE_TASKS, FINANCE_TOOLS, MEDICAL_TASKS, MEDICAL_TOOLS

from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import Episode, ToolCall
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store, malformed_calls
from toolchaos.suites import get_suite
from toolchaos.suites.toolfailbench.env import FailEnv
from toolchaos.suites.toolfailbench.report import schema_checks


@pytest.fixture
def release(tmp_path: Path) -> Path:
    root = tmp_path / "release"
    files = {
        "tasks_v5/finance/tasks.json": FINANCE_TASKS,
        "tasks_v5/finance/tools.json": FINANCE_TOOLS,
        "tasks_v5/medical/tasks.json": MEDICAL_TASKS,
        "tasks_v5/medical/tools.json": MEDICAL_TOOLS,
        "system_prompts/v5/finance.md": "---\ntitle: desk\n---\nYou are a finance assistant.\n",
        "system_prompts/v5/medical.md": "You are a clinical pharmacist's assistant.\n",
    }
    for relative, data in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return root


def test_release_tasks_play_against_the_release_tools(release: Path) -> None:
    tasks = {t.id: t for t in get_suite("toolfailbench").load(release)}
    env = FailEnv(tasks["fin-001"])
    assert [s.name for s in env.toolbox()] == ["get_stock_quote", "get_fx_rate"]
    assert env.system() == "You are a finance assistant."  # as written, nothing appended
    quote = env.call(ToolCall(id="a", name="get_stock_quote", arguments='{"ticker": "MSFT"}'))
    assert quote.ok and quote.content == {"ticker": "MSFT", "price": 251.37}
    other = env.call(
        ToolCall(id="b", name="get_fx_rate", arguments='{"base": "EUR", "quote": "USD"}')
    )
    assert not other.ok and other.content["error"]["code"] == 501
    assert "get_fx_rate" in other.content["error"]["message"]
    assert "get_stock_quote" not in other.content["error"]["message"]  # no hint at the tool
    unknown = env.call(ToolCall(id="c", name="get_half_life", arguments='{"drug": "x"}'))
    assert not unknown.ok and unknown.content["error"]["code"] == 404
    assert [e.violations for e in env.trace] == [[], [], []]
    assert env.schema_violations == 0


def test_the_expected_tool_returns_the_mock_whatever_its_arguments(release: Path) -> None:
    """As the paper's harness: by name; the arguments are recorded and checked, not refused."""
    task = {t.id: t for t in get_suite("toolfailbench").load(release)}["fin-001"]
    env = FailEnv(task)
    calls = ['{"symbol": "MSFT"}', '{"ticker": 7}', "{oops", ""]
    for number, arguments in enumerate(calls):
        seen = env.call(ToolCall(id=str(number), name="get_stock_quote", arguments=arguments))
        assert seen.ok and seen.content == task.trap_return
    checks = env.trace
    assert [c.ordinal for c in checks] == [1, 2, 3, 4]
    assert checks[0].call.arguments == '{"symbol": "MSFT"}'
    assert checks[0].violations == ["'ticker' is a required property"]
    assert checks[1].violations == ["ticker: 7 is not of type 'string'"]
    assert "not a JSON object: '{oops'" in checks[2].violations[0]
    assert checks[3].violations == ["'ticker' is a required property"]
    assert env.schema_violations == 4
    assert [e.observation.ok for e in env.trace] == [True] * 4


def test_a_list_return_is_served_as_written(release: Path) -> None:
    task = {t.id: t for t in get_suite("toolfailbench").load(release)}["fin-002"]
    env = FailEnv(task)
    call = ToolCall(id="a", name="get_fx_rate", arguments='{"base": "EUR", "quote": "USD"}')
    seen = env.call(call)
    assert seen.ok and seen.content == [{"rate": 1.4321, "as_of": "2026-05-01"}, {"rate": 1.4}]
    assert seen.content is not task.trap_return


def test_a_release_runs_and_is_reported(release: Path, tmp_path: Path) -> None:
    config = RunConfig(
        suite="toolfailbench",
        models=["scripted/oracle", "scripted/skip"],
        tasks_path=str(release),
    )
    summary = run(config, tmp_path / "run", Console(quiet=True))
    tasks = get_suite("toolfailbench").load(release)
    assert summary.errors == 0 and summary.played == 2 * len(tasks)
    report = build_report([tmp_path / "run"])
    labels = report.frame.set_index(["model", "task_id"])["label"]
    required = [t.id for t in tasks if t.kind == "tool_required"]
    controls = [t.id for t in tasks if t.kind == "control"]
    assert all(labels[("scripted/oracle", i)] == "correct" for i in required + controls)
    assert all(labels[("scripted/skip", i)] == "tool_skip" for i in required)
    store = Store.open_existing(tmp_path / "run", read_only=True)
    try:  # the stored tasks keep the release's tools, so a later report needs no release
        stored = store.tasks()
        answers = {(r["model"], r["task_id"]): r["final_answer"] for r in store.summaries()}
    finally:
        store.close()
    assert stored["fin-001"].metadata["release_domain"]["tools"][0]["name"] == "get_stock_quote"
    # the oracle restates the question, less what the answer must not contain
    oracle = answers[("scripted/oracle", "fin-002")]
    assert "1.4321" in oracle and "1.08" not in oracle and "EUR/USD" in oracle


def test_the_cli_runs_a_release_directory(release: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolchaos.cli",
            "run",
            "toolfailbench",
            "--tasks",
            str(release),
            "-m",
            "scripted/oracle",
            "--out",
            str(tmp_path / "cli"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    broken = release / "tasks_v5" / "finance" / "tasks.json"
    broken.write_text('{"domain": "finance"}', encoding="utf-8")
    refused = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolchaos.cli",
            "run",
            "toolfailbench",
            "--tasks",
            str(release),
            "-m",
            "scripted/oracle",
            "--out",
            str(tmp_path / "cli2"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "300"},
    )
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert str(broken) in " ".join(refused.stderr.split())


def test_schema_violations_are_stored_on_each_trace_entry(release: Path, tmp_path: Path) -> None:
    """Kept with the episode (trace JSON), counted in bad_calls; an older trace reads as none."""
    task = {t.id: t for t in get_suite("toolfailbench").load(release)}["fin-001"]
    env = FailEnv(task)
    env.call(ToolCall(id="a", name="get_stock_quote", arguments='{"symbol": "MSFT"}'))
    env.call(ToolCall(id="b", name="get_stock_quote", arguments='{"ticker": "MSFT"}'))
    assert [e.violations for e in env.trace] == [["'ticker' is a required property"], []]
    episode = Episode(
        key="k", suite="toolfailbench", task_id=task.id, model="m", protocol="two-step",
        arm="clean", trace=env.trace, final_answer="MSFT trades at 251.37.",
    )  # fmt: skip
    store = Store(tmp_path / "s.sqlite")
    store.put(episode)
    [row] = store.summaries()
    assert row["bad_calls"] == 1  # the call the tool served although it broke the schema
    [(_, text)] = store.episode_json()
    trace = json.loads(text)["trace"]
    assert schema_checks(trace, "get_stock_quote") == {
        "expected_calls": 2,
        "schema_violations": 1,
        "schema_rules_broken": 1,
    }
    # a trace stored before the field existed: still read, with no violations
    store.conn.execute("UPDATE episodes SET data = json_remove(data, '$.trace[0].violations')")
    [old] = list(store.episodes())
    assert old.trace[0].violations == []
    [(_, text)] = store.episode_json()
    assert schema_checks(json.loads(text)["trace"], "get_stock_quote")["schema_violations"] == 0
    store.close()


def test_a_built_in_tool_refuses_a_call_that_breaks_its_schema_and_records_why() -> None:
    task = next(t for t in get_suite("toolfailbench").load() if t.needs_tool)
    env = FailEnv(task)
    seen = env.call(ToolCall(id="a", name=task.expected_tool or "", arguments="{}"))
    assert not seen.ok and seen.content["error"]["code"] == 400
    assert env.trace[0].violations and "required property" in env.trace[0].violations[0]
    good = env.call(ToolCall(id="b", name=task.expected_tool or "", arguments=_json(task)))
    assert good.ok and env.trace[1].violations == []
    unknown = env.call(ToolCall(id="c", name="no_such_tool", arguments="{}"))
    assert not unknown.ok and env.trace[2].violations == []
    episode = Episode(
        key="k", suite="toolfailbench", task_id=task.id, model="m", protocol="two-step",
        arm="clean", trace=env.trace,
    )  # fmt: skip
    assert malformed_calls(episode) == 1


def _json(task: Any) -> str:
    return dumps(task.expected_arguments)
