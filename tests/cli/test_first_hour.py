"""What a new user meets in the first hour (issue 13): each defect they hit, with scripted models.

Every test drives the real ``toolchaos`` process: exit codes, one-line errors, what is stored.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.suites import SUITES, get_suite
from toolchaos.suites.scripted import known_modes

ENV = {"PATH": "/usr/bin:/bin", "COLUMNS": "80"}


def toolchaos(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
    )


def refused(result: subprocess.CompletedProcess[str], *fragments: str) -> str:
    """Assert one sentence on stderr, exit 2, no traceback; return the sentence."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines  # never hard-wrapped: stderr is a pipe here
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def play(out: Path, *args: str, suite: str = "toolbench-x") -> None:
    models = ["-m", "scripted/oracle"] if "-m" not in args else []
    result = toolchaos("run", suite, *models, *args, "--out", str(out))
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="module")
def two_models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("first") / "run"
    play(out, "-m", "scripted/oracle,scripted/naive", "--subset", "4")
    return out


# -- toolchaos with no arguments, --version, help -------------------------------------------


def test_no_arguments_prints_what_to_do_next() -> None:
    result = toolchaos()
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "toolchaos run toolbench-x -m scripted/oracle,scripted/naive" in text
    assert "toolchaos report runs/first" in text and "make run" in text
    assert "Usage" not in text  # a guide, not the option list
    assert max(len(line) for line in text.splitlines()) <= 80


def test_help_lists_every_scripted_policy_and_each_suites_default_arms() -> None:
    text = " ".join(toolchaos("run", "--help").stdout.replace("│", " ").split())
    for mode in known_modes():
        assert re.search(rf"\b{re.escape(mode)}\b", text), mode
    for policy in ("skip", "ignore", "fabricate", "overuse"):
        assert policy in text
    for name in SUITES:
        suite = get_suite(name)
        arms = ["clean"] if suite.arms == ("clean",) else ["clean", "hazard"]
        assert f"{name} {','.join(arms)}" in text, name


COMMANDS = [
    "run",
    "report",
    "compare",
    "export",
    "build",
    "validate",
    "tasks",
    "judge",
    "merge",
    "import-inspect",
    "proxy",
    "models list",
    "models pull",
    "audit-scoring",
    "review show",
    "review record",
    "review next",
    "review agreement",
    "review sample",
]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_has_an_example_and_flags_take_no_value(command: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *command.split(), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**ENV, "COLUMNS": "160"},
    )
    assert result.returncode == 0, result.stderr
    # the example on its own lines, ready to copy (tests/cli/test_help_width.py)
    assert re.search(rf"Examples?[^:\n]*:\n +toolchaos {command}\b", result.stdout), result.stdout
    for line in result.stdout.splitlines():
        flags = re.findall(r"--[a-z-]+", line)
        if flags and "<bool>" in line:
            pytest.fail(f"a boolean flag shows a value placeholder: {line.strip()}")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["run", "toolbench-x", "--no-such-flag", "-o", "x"], "No such option: --no-such-flag"),
        (["run"], "Missing argument 'suite'"),
        (["no-such-command"], "No such command 'no-such-command'"),
    ],
)
def test_a_usage_error_is_one_line_when_stderr_is_not_a_terminal(
    args: list[str], fragment: str
) -> None:
    # typer frames these in a box as wide as the terminal, which a log would keep cut in pieces
    line = refused(toolchaos(*args), fragment, "--help)")
    assert line.startswith("error: ") and "─" not in line


def test_a_command_group_named_alone_prints_its_help() -> None:
    result = toolchaos("models")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "models [OPTIONS] COMMAND" in result.stdout and "pull" in result.stdout


# -- silently wrong numbers -----------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--max-tasks", "--limit"])  # --limit: its old name
@pytest.mark.parametrize("value", ["-1", "0"])
def test_limit_below_one_is_refused(tmp_path: Path, value: str, flag: str) -> None:
    out = tmp_path / "r"
    result = toolchaos("run", "toolbench-x", "-m", "scripted/oracle", flag, value, "-o", str(out))
    refused(result, f"{flag} {value}: the number of tasks must be at least 1")
    assert not out.exists()


@pytest.mark.parametrize(
    ("suite", "strata"),
    [
        ("toolbench-x", {"sequential", "parallel", "mixture"}),
        ("toolfailbench", {"cybersecurity", "finance", "law", "medicine", "real_estate"}),
    ],
)
def test_a_subset_of_10_plays_every_workflow_type_or_domain(
    tmp_path: Path, suite: str, strata: set[str]
) -> None:
    """Issue 29: ``--subset 10`` played no sequential task, and only three domains."""
    out = tmp_path / "run"
    play(out, "--subset", "10", "--arms", "clean", suite=suite)
    store = Store.open_existing(out, read_only=True)
    try:
        played = {row["task_id"] for row in store.summaries()}
    finally:
        store.close()
    assert len(played) == 10
    shipped = get_suite(suite)
    outer = {shipped.stratum(t)[0] for t in shipped.load() if t.id in played}
    assert outer == strata


def test_a_subset_above_the_task_count_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r"
    result = toolchaos(
        "run", "toolbench-x", "-m", "scripted/oracle", "--subset", "99999", "--out", str(out)
    )
    refused(result, "--subset 99999 is more than the 1106 tasks", "give at most 1106")
    assert not out.exists()


def test_toolfailbench_refuses_the_hazard_arm(tmp_path: Path) -> None:
    out = tmp_path / "r"
    result = toolchaos(
        "run", "toolfailbench", "-m", "scripted/oracle", "--arms", "hazard", "--out", str(out)
    )
    refused(result, "suite toolfailbench has no 'hazard' arm (it plays clean)")
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (
            "models:\n  - spec: scripted/oracle\n    temprature: 0.5\n",
            "model 1: unknown key 'temprature'; did you mean 'temperature'?",
        ),
        (
            "models:\n  - spec: scripted/oracle\nlimts:\n  openai: 4\n",
            "unknown key 'limts'; did you mean 'limits'?",
        ),
    ],
)
def test_a_misspelled_key_in_a_models_file_is_refused(
    tmp_path: Path, text: str, fragment: str
) -> None:
    models = tmp_path / "models.yaml"
    models.write_text(text, encoding="utf-8")
    out = tmp_path / "r"
    result = toolchaos(
        "run", "toolbench-x", "--models-file", str(models), "--limit", "1", "--out", str(out)
    )
    refused(result, f"{models}: {fragment}")
    assert not out.exists()


def test_a_run_directory_named_twice_is_refused(two_models: Path) -> None:
    refused(toolchaos("report", str(two_models), str(two_models)), "is named twice")
    # also under another spelling of the same path
    other = str(two_models.parent / "." / two_models.name)
    refused(toolchaos("report", str(two_models), other), "is named twice")


def test_two_runs_of_the_same_model_and_tasks_get_a_note(two_models: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(two_models, copy)
    result = toolchaos("report", str(two_models), str(copy), "--json", "--write", str(tmp_path))
    assert result.returncode == 0, result.stderr
    notes = json.loads(result.stdout)["notes"]
    shared = [n for n in notes if "hold the same" in n]
    assert len(shared) == 2  # one per model
    assert any(n.startswith("scripted/naive (toolbench-x)") for n in shared)
    assert all(str(copy) in n and str(two_models) in n for n in shared)
    # one run alone: no such note
    alone = json.loads(toolchaos("report", str(two_models), "--json").stdout)["notes"]
    assert not [n for n in alone if "hold the same" in n]


def test_a_report_over_an_unfinished_run_says_what_is_missing(
    two_models: Path, tmp_path: Path
) -> None:
    run = tmp_path / "unfinished"
    shutil.copytree(two_models, run)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["ended"] = None  # as a run stopped before it finished leaves it
    (run / "manifest.json").write_text(json.dumps(manifest))
    with sqlite3.connect(run / STORE_NAME) as conn:  # naive never got to play
        conn.execute("DELETE FROM episodes WHERE model = 'scripted/naive'")
    planned = Store.open_existing(two_models).count()
    result = toolchaos("report", str(run), "--json")
    assert result.returncode == 0, result.stderr
    notes = [n for n in json.loads(result.stdout)["notes"] if "unfinished run" in n]
    assert len(notes) == 1
    assert f"{planned // 2} of {planned} planned episodes are stored" in notes[0]
    assert f"scripted/naive 0 of {planned // 2}" in notes[0]
    assert "scripted/oracle" not in notes[0]  # it has every episode
    finished = json.loads(toolchaos("report", str(two_models), "--json").stdout)["notes"]
    assert not [n for n in finished if "unfinished run" in n]


def test_validate_takes_a_toolfailbench_task_file(tmp_path: Path) -> None:
    lines = get_suite("toolfailbench").default_path().read_text().splitlines()[:12]
    tasks = tmp_path / "tfb.jsonl"
    tasks.write_text("\n".join(lines) + "\n")
    result = toolchaos("validate", str(tasks))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "12 of 12 tasks pass" in result.stdout
    first = json.loads(lines[0])
    first["suite"] = "toolbench-z"
    tasks.write_text(json.dumps(first) + "\n")
    refused(toolchaos("validate", str(tasks)), "line 1, field suite: unknown suite 'toolbench-z'")


# -- messages -------------------------------------------------------------------------------


def test_another_runs_store_names_what_differs(two_models: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(two_models, run)
    before = Store.open_existing(run).count()
    sentence = refused(
        toolchaos(
            "run",
            "toolbench-x",
            "-m",
            "scripted/oracle,scripted/naive",
            "--subset",
            "4",
            "--arms",
            "clean,hint",
            "--out",
            str(run),
        ),
        "holds another run's store",
        "arms clean,hazard, not clean,hint",
    )
    assert "choose a new --out directory" in sentence
    assert Store.open_existing(run).count() == before


def test_a_model_joins_a_run_directory_and_nothing_stored_changes(
    two_models: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    shutil.copytree(two_models, run)
    store = Store.open_existing(run)
    before = {row["key"]: row for row in store.summaries()}
    store.close()
    result = toolchaos(
        "run", "toolbench-x", "-m", "scripted/retry", "--subset", "4", "--out", str(run)
    )
    assert result.returncode == 0, result.stderr
    store = Store.open_existing(run)
    after = {row["key"]: row for row in store.summaries()}
    store.close()
    assert {k: after[k] for k in before} == before
    assert {row["model"] for row in after.values()} == {
        "scripted/naive",
        "scripted/oracle",
        "scripted/retry",
    }
    assert len(after) > len(before)


def test_a_store_without_its_identity_is_compared_through_its_manifest(
    two_models: Path, tmp_path: Path
) -> None:
    run = tmp_path / "older"
    shutil.copytree(two_models, run)
    with sqlite3.connect(run / STORE_NAME) as conn:  # as a store written before the identity
        conn.execute("DELETE FROM meta WHERE key = 'identity'")
    refused(
        toolchaos(
            "run",
            "toolbench-x",
            "-m",
            "scripted/oracle",
            "--subset",
            "4",
            "--arms",
            "clean",
            "--out",
            str(run),
        ),
        "arms clean,hazard, not clean",
    )


@pytest.mark.parametrize(
    "args",
    [
        ["report", "{missing}"],
        ["compare", "{missing}", "{missing}"],
        ["export", "{missing}", "--format", "openai-jsonl"],
        ["judge", "{missing}", "--judge", "scripted/oracle"],
    ],
)
def test_a_missing_directory_is_said_not_to_exist(tmp_path: Path, args: list[str]) -> None:
    missing = tmp_path / "no-such-run"
    result = toolchaos(*(a.replace("{missing}", str(missing)) for a in args))
    refused(result, f"{missing} does not exist")


def test_a_report_over_several_runs_never_writes_into_the_first(tmp_path: Path) -> None:
    first, second = tmp_path / "runs" / "tbx", tmp_path / "runs" / "tfb"
    play(first, "--limit", "2")
    play(second, "--limit", "2", suite="toolfailbench")

    def files(run: Path) -> list[str]:  # a reader may add SQLite's -wal and -shm files
        return sorted(p.name for p in run.iterdir() if not p.name.startswith(STORE_NAME))

    before = files(first)
    result = toolchaos("report", str(first), str(second), "--no-figures")
    assert result.returncode == 0, result.stderr
    assert files(first) == before  # no report.md in a run
    written = tmp_path / "runs" / "report"
    assert (written / "report.md").is_file()
    assert str(written / "report.md") in " ".join(result.stdout.split())
    one = toolchaos("report", str(first), "--no-figures")  # one run: its own directory
    assert one.returncode == 0 and (first / "report.md").is_file()


# -- Ctrl-C ---------------------------------------------------------------------------------


def _stored(out: Path) -> int:
    path = out / STORE_NAME
    if not path.is_file():
        return 0
    try:
        with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_during_a_run_is_one_line_and_a_rerun_resumes(tmp_path: Path, workers: str) -> None:
    out = tmp_path / "run"
    args = [
        "run", "toolbench-x", "-m", "scripted/oracle,scripted/naive,scripted/retry",
        "--arms", "clean,hazard,hint,oracle-label", "--limit", "400", "--workers", workers,
        "--out", str(out),
    ]  # fmt: skip
    process = subprocess.Popen(
        [sys.executable, "-m", "toolchaos.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        start_new_session=True,  # the signal goes to the group, as a terminal's Ctrl-C does
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while _stored(out) < 20 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    for noise in (
        "Traceback",
        "never retrieved",
        "destroyed but it is pending",
        "KeyboardInterrupt",
    ):
        assert noise not in stderr, stderr
    said = [line for line in stderr.splitlines() if line.startswith("interrupted:")]
    assert len(said) == 1, stderr
    stored = Store.open_existing(out).count()
    planned = 3 * 400 * 4
    assert 0 < stored < planned
    assert f"holds {stored} of {planned} planned episodes" in said[0]
    assert "run the same command again to resume" in said[0]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["ended"] is None
    resumed = toolchaos(*args, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{planned - stored} episodes played, {stored} already stored" in resumed.stderr
    assert Store.open_existing(out).count() == planned
