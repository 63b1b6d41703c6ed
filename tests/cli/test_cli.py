"""The CLI as a user meets it: real processes, exit codes and one-line errors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolchaos.runner.store import Store
from toolchaos.suites import get_suite


def toolchaos(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
    )


def assert_bad_input(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    text = " ".join(result.stderr.split())
    for fragment in fragments:
        assert fragment in text, text


@pytest.mark.parametrize(
    "command",
    [
        "run",
        "report",
        "build",
        "validate",
        "tasks",
        "compare",
        "export",
        "judge",
        "audit-scoring",
        "models",
        "plan-size",
    ],
)
def test_every_command_has_help(command: str) -> None:
    result = toolchaos(command, "--help")
    assert result.returncode == 0 and "Usage" in result.stdout


def test_run_then_report_json(tmp_path: Path) -> None:
    out = tmp_path / "run"
    ran = toolchaos(
        "run",
        "toolbench-x",
        "-m",
        "scripted/oracle",
        "-m",
        "scripted/naive",
        "--limit",
        "6",
        "--out",
        str(out),
    )
    assert ran.returncode == 0, ran.stderr
    result = toolchaos("report", str(out), "--json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)["rows"]
    assert {tuple(sorted(r)) for r in rows} == {
        ("accuracy", "arm", "bad_calls", "correct", "errors", "model", "n", "protocol", "suite")
    }
    by = {(r["model"], r["arm"]): r for r in rows}
    assert by[("scripted/oracle", "hazard")]["accuracy"] == 1.0
    assert by[("scripted/naive", "clean")]["n"] == 6
    assert (out / "report.md").is_file() and (out / "report_accuracy.csv").is_file()
    text = toolchaos("report", str(out))
    assert text.returncode == 0 and "Accuracy per model and arm" in text.stdout


def test_malformed_jsonl_names_file_and_line(tmp_path: Path) -> None:
    lines = get_suite("toolbench-x").default_path().read_text().splitlines()[:3]
    lines[1] = lines[1][:40]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    result = toolchaos(
        "run",
        "toolbench-x",
        "-m",
        "scripted/oracle",
        "--tasks",
        str(bad),
        "--out",
        str(tmp_path / "r"),
    )
    assert_bad_input(result, "bad.jsonl, line 2", "not valid JSON")


def test_a_missing_field_names_the_field(tmp_path: Path) -> None:
    line = json.loads(get_suite("toolbench-x").default_path().read_text().splitlines()[0])
    del line["prompt"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(line) + "\n")
    result = toolchaos("validate", str(bad))
    assert_bad_input(result, "line 1, field prompt", "Field required")


@pytest.mark.parametrize(
    "args,fragments",
    [
        (["run", "toolbench-y", "-m", "scripted/oracle"], ["unknown suite 'toolbench-y'"]),
        (["run", "toolbench-x", "-m", "gpt-4o"], ["model spec 'gpt-4o' must look like"]),
        (["run", "toolbench-x", "-m", "scripted/wizard"], ["unknown scripted policy 'wizard'"]),
        (
            ["run", "toolbench-x", "-m", "scripted/oracle", "--arms", "clean,windy"],
            ["unknown arm 'windy'"],
        ),
        (["report"], []),
    ],
)
def test_bad_values_exit_2_with_one_sentence(tmp_path: Path, args: list, fragments: list) -> None:
    extra = ["--out", str(tmp_path / "r")] if args[0] == "run" else []
    assert_bad_input(toolchaos(*args, *extra), *fragments)


def test_a_directory_with_another_runs_store_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert (
        toolchaos(
            "run", "toolbench-x", "-m", "scripted/oracle", "--limit", "3", "--out", str(out)
        ).returncode
        == 0
    )
    before = Store.open_existing(out).count()
    result = toolchaos(
        "run",
        "toolbench-x",
        "-m",
        "scripted/oracle",
        "--limit",
        "3",
        "--arms",
        "clean",
        "--out",
        str(out),
    )
    assert_bad_input(result, "holds another run's store")
    assert Store.open_existing(out).count() == before


def test_report_of_a_directory_without_a_run(tmp_path: Path) -> None:
    assert_bad_input(toolchaos("report", str(tmp_path)), "holds no toolchaos run")


def test_tasks_lists_and_counts() -> None:
    listing = toolchaos(
        "tasks", "toolbench-x", "--type", "parallel", "--subtopic", "order tracking"
    )
    assert listing.returncode == 0 and "tools: track_shipment" in listing.stdout
    stats = json.loads(toolchaos("tasks", "toolbench-x", "--stats", "--json").stdout)
    assert stats["n"] == sum(stats["workflow"].values())
    assert set(stats) == {"n", "workflow", "family", "variant", "topic", "subtopic"}


@pytest.mark.parametrize(
    ("flag", "value", "fragment"),
    [
        ("--subtopic", "order trackng", "did you mean 'order tracking'"),
        ("--type", "serial", "no task has --type 'serial'"),
        ("--hazard", "gremlins", "no task has --hazard 'gremlins'"),
    ],
)
def test_tasks_refuses_a_filter_no_task_has(flag: str, value: str, fragment: str) -> None:
    assert_bad_input(toolchaos("tasks", "toolbench-x", flag, value), fragment)


def test_tasks_lists_and_counts_toolfailbench() -> None:
    listing = toolchaos("tasks", "toolfailbench", "--domain", "law", "--mode", "result_ignore")
    assert listing.returncode == 0, listing.stderr
    assert "Traceback" not in listing.stderr
    lines = [line for line in listing.stdout.splitlines() if line.startswith("tfb-")]
    tasks = [t for t in get_suite("toolfailbench").load() if t.domain == "law"]
    wanted = [t for t in tasks if t.target_failure_mode == "result_ignore"]
    assert len(lines) == len(wanted) > 0
    assert "tool_required · law · mode: result_ignore" in listing.stdout
    assert f"expects: {wanted[0].expected_tool}(" in listing.stdout
    assert "ground truth (" in listing.stdout
    controls = toolchaos("tasks", "toolfailbench", "--type", "control", "--domain", "finance")
    assert controls.returncode == 0 and "expects: no tool call" in controls.stdout
    stats = json.loads(toolchaos("tasks", "toolfailbench", "--stats", "--json").stdout)
    assert set(stats) == {"n", "kind", "domain", "mode", "register", "trap_kind"}
    everything = get_suite("toolfailbench").load()
    assert stats["n"] == len(everything)
    for key in ("kind", "domain", "mode", "register", "trap_kind"):
        assert sum(stats[key].values()) == stats["n"], key
    assert stats["trap_kind"]["none"] == stats["kind"]["control"]
    assert stats["mode"]["control"] == stats["kind"]["control"]
    law = json.loads(
        toolchaos("tasks", "toolfailbench", "--domain", "law", "--stats", "--json").stdout
    )
    assert law["domain"] == {"law": law["n"]} and law["n"] == len(tasks)
    text = toolchaos("tasks", "toolfailbench", "--stats")
    assert text.returncode == 0, text.stderr
    # a table (one section per facet), never a Python dict
    assert "{" not in text.stdout and "'" not in text.stdout
    rows = [line.replace("│", " ").split() for line in text.stdout.splitlines()]
    commonest = max(stats["trap_kind"].items(), key=lambda item: item[1])
    assert ["trap_kind", commonest[0], str(commonest[1])] in rows  # most tasks first
    assert ["none", str(stats["trap_kind"]["none"])] in rows
    assert ["law", str(stats["domain"]["law"])] in rows


@pytest.mark.parametrize(
    ("suite", "flag", "value", "fragment"),
    [
        ("toolfailbench", "--hazard", "transient", "suite toolfailbench has no --hazard filter"),
        ("toolfailbench", "--domain", "lawx", "did you mean 'law'"),
        ("toolbench-x", "--domain", "finance", "suite toolbench-x has no --domain filter"),
    ],
)
def test_tasks_filters_belong_to_their_suite(
    suite: str, flag: str, value: str, fragment: str
) -> None:
    assert_bad_input(toolchaos("tasks", suite, flag, value), fragment)


@pytest.mark.parametrize(
    ("command", "fragments"),
    [
        ("run", ["ToolFailBench: domains and target failure modes", "toolfailbench clean"]),
        ("tasks", ["e.g. toolbench-x or toolfailbench", "ToolFailBench: a domain"]),
        ("report", ["--rules", "ToolFailBench: the rule set", "(ToolBench-X and own tools)"]),
        ("build", ["ToolBench-X: tasks per"]),
    ],
)
def test_help_texts_name_the_suite_they_serve(command: str, fragments: list[str]) -> None:
    result = toolchaos(command, "--help")
    text = " ".join(result.stdout.replace("│", " ").split())
    for fragment in fragments:
        assert fragment in text, fragment
    assert "Run N tasks spread over workflow types and hazard families" not in text


def test_report_refuses_an_unknown_rule_set(tmp_path: Path) -> None:
    out = tmp_path / "run"
    ran = toolchaos(
        "run", "toolfailbench", "-m", "scripted/oracle", "--limit", "2", "--out", str(out)
    )
    assert ran.returncode == 0, ran.stderr
    assert_bad_input(toolchaos("report", str(out), "--rules", "strict"), "--rules must be one of")
    for rules in ("toolchaos", "paper"):
        named = toolchaos("report", str(out), "--rules", rules, "--no-figures")
        assert named.returncode == 0, named.stderr
        assert f"rule set '{rules}'" in " ".join(named.stdout.split())
        assert f"Rule set: {rules}." in (out / "report.md").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--arms", "clean,clean"], "the same arm is named twice"),
        (["--max-turns", "0"], "--max-turns and --rounds must be at least 1"),
        (["--rounds", "0"], "--max-turns and --rounds must be at least 1"),
    ],
)
def test_run_refuses_values_that_would_give_silently_wrong_numbers(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "r"
    result = toolchaos(
        "run", "toolbench-x", "-m", "scripted/oracle", "--limit", "2", *args, "--out", str(out)
    )
    assert_bad_input(result, message)
    assert not out.exists() or not any(out.iterdir())


def test_version() -> None:
    from toolchaos import __version__

    result = toolchaos("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"toolchaos {__version__}"


def test_judge_on_a_run_without_toolfailbench_episodes_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "tbx"
    played = toolchaos(
        "run", "toolbench-x", "-m", "scripted/oracle", "--limit", "1", "--out", str(out)
    )
    assert played.returncode == 0, played.stderr
    result = toolchaos("judge", str(out), "--judge", "scripted/oracle")
    assert_bad_input(result, "holds no finished ToolFailBench episodes to judge")


def test_judge_with_an_unknown_rubric_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "tfb"
    played = toolchaos(
        "run", "toolfailbench", "-m", "scripted/oracle", "--limit", "1", "--out", str(out)
    )
    assert played.returncode == 0, played.stderr
    result = toolchaos("judge", str(out), "--judge", "scripted/oracle", "--rubric", "paper")
    assert_bad_input(result, "unknown judge rubric 'paper'; known: release, toolchaos")


def test_report_into_a_place_it_cannot_write_is_one_sentence(tmp_path: Path) -> None:
    out = tmp_path / "tbx"
    played = toolchaos(
        "run", "toolbench-x", "-m", "scripted/oracle", "--limit", "1", "--out", str(out)
    )
    assert played.returncode == 0, played.stderr
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    for target in (blocker, blocker / "inside", Path("/proc/toolchaos-report")):
        result = toolchaos("report", str(out), "--no-figures", "--write", str(target))
        assert_bad_input(result, "cannot write the report into")


def test_dataset_plays_an_earlier_shipped_version(tmp_path: Path) -> None:
    out = tmp_path / "v1"
    result = toolchaos(
        "run", "toolbench-x", "-m", "scripted/oracle", "--dataset", "v1", "--limit", "2",
        "--out", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert "v1" in json.dumps(manifest)
    assert_bad_input(
        toolchaos("tasks", "toolbench-x", "--dataset", "v9"), "has no dataset 'v9'", "v3, v1, v2"
    )
    frozen = toolchaos(
        "run", "toolbench-x", "-m", "scripted/oracle", "--dataset", "v2", "--limit", "2",
        "--out", str(tmp_path / "v2"),
    )  # fmt: skip
    assert frozen.returncode == 0, frozen.stderr
    manifest = json.loads((tmp_path / "v2" / "manifest.json").read_text(encoding="utf-8"))
    assert "data/v2/tasks.jsonl" in json.dumps(manifest)
    both = toolchaos(
        "run", "toolbench-x", "-m", "scripted/oracle", "--dataset", "v1", "--tasks", "x.jsonl",
        "--out", str(tmp_path / "both"),
    )  # fmt: skip
    assert_bad_input(both, "--tasks or --dataset, not both")
