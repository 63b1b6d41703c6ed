"""One vocabulary across the commands (docs/cli.md), checked on the commands themselves.

The rules are read off the click tree typer builds, so a new command or option that breaks
them fails here; the old names are exercised through real processes.
"""

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from toolchaos.cli import app
from toolchaos.testing import FakeOpenAI, Reply

ROOT = typer.main.get_command(app)
DOC = Path(__file__).parents[2] / "docs" / "cli.md"
OLD_NAMES = {  # command -> its hidden old names (docs/cli.md, "Old names")
    ("run",): {"--limit"},
    ("report",): {"--write"},
    ("judge",): {"--limit"},
    ("validate",): {"--suite"},
    ("proxy",): {"--store"},
    ("models", "pull"): {"--dest"},
    ("review", "show"): {"--suite"},
    ("review", "record"): {"--suite", "--file"},
    ("review", "next"): {"--suite", "--file"},
    ("review", "sample"): {"--suite", "--n"},
}
RETIRED = {name for names in OLD_NAMES.values() for name in names}


def leaves(
    command: Any = ROOT, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], Any]]:
    subs = getattr(command, "commands", None)
    if subs is None:
        yield path, command
        return
    for name, sub in sorted(subs.items()):
        yield from leaves(sub, (*path, name))


COMMANDS = dict(leaves())


def options(command: Any, hidden: bool) -> list[Any]:
    return [
        p
        for p in command.params
        if p.param_type_name == "option" and bool(p.hidden) == hidden and "--help" not in p.opts
    ]


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
def test_each_meaning_has_one_name(path: tuple[str, ...]) -> None:
    command = COMMANDS[path]
    for option in options(command, hidden=False):
        names = set(option.opts) | set(option.secondary_opts)
        assert not names & RETIRED, (path, names)  # an old name is never shown
        if "--out" in names:
            assert "-o" in names, path
        if "--model" in names:
            assert "-m" in names, path
        if "--judge" in names:
            assert option.multiple, path  # repeatable wherever a judge is named
    hidden = {name for option in options(command, hidden=True) for name in option.opts}
    assert hidden == OLD_NAMES.get(path, set()), path
    # the suite is an argument, never an option
    assert not any("--suite" in o.opts for o in options(command, hidden=False)), path


def normalized(text: str) -> str:
    return " ".join(text.replace("\\\n", " ").split())


def test_docs_give_every_commands_example_as_its_help_shows_it() -> None:
    from typer.testing import CliRunner

    doc = DOC.read_text(encoding="utf-8")
    block = normalized(doc.split("## Every command, by example", 1)[1])
    for path in sorted(COMMANDS):
        shown = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "80"}).output
        example = shown.split("Example", 1)[1].split(":\n", 1)[1].split("\n\n", 1)[0]
        for command in example.replace("\\\n", " ").splitlines():
            assert normalized(command) in block, (path, command)
        assert f"`{' '.join(path)}`" in doc or path[0] in ("models", "review"), path


def toolchaos(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "80", "PATH": "/usr/bin:/bin"},
    )


def played(result: subprocess.CompletedProcess[str]) -> int:
    assert result.returncode == 0, result.stderr
    found = re.search(r"(\d+) episodes played", result.stderr)
    assert found, result.stderr
    return int(found[1])


def test_run_max_tasks_and_rate_limit_and_their_old_name(tmp_path: Path) -> None:
    base = ["run", "toolbench-x", "-m", "scripted/oracle", "--arms", "clean"]
    assert played(toolchaos(*base, "--max-tasks", "3", "-o", str(tmp_path / "a"))) == 3
    assert played(toolchaos(*base, "--limit", "3", "-o", str(tmp_path / "b"))) == 3
    limited = toolchaos(
        *base, "--max-tasks", "2", "--rate-limit", "scripted=1", "-o", str(tmp_path / "c")
    )
    assert played(limited) == 2
    old = toolchaos(*base, "--limit", "2", "--limit", "scripted=1", "-o", str(tmp_path / "d"))
    assert played(old) == 2
    misspelt = toolchaos(*base, "--rate-limit", "opneai=4", "-o", str(tmp_path / "e"))
    assert misspelt.returncode == 2 and "did you mean 'openai'?" in misspelt.stderr
    number = toolchaos(*base, "--rate-limit", "4", "-o", str(tmp_path / "f"))
    assert number.returncode == 2 and "a number of tasks is --max-tasks N" in number.stderr


def test_report_out_and_its_old_name_and_both_refused(tmp_path: Path) -> None:
    run = tmp_path / "run"
    played(
        toolchaos("run", "toolbench-x", "-m", "scripted/oracle", "--max-tasks", "1", "-o", str(run))
    )
    for flag, folder in (("-o", "new"), ("--write", "old")):
        result = toolchaos("report", str(run), "--no-figures", flag, str(tmp_path / folder))
        assert result.returncode == 0, result.stderr
        assert (tmp_path / folder / "report.md").is_file()
    assert (tmp_path / "new" / "report.md").read_text() == (
        tmp_path / "old" / "report.md"
    ).read_text()
    both = toolchaos("report", str(run), "-o", str(tmp_path / "x"), "--write", str(tmp_path / "y"))
    assert both.returncode == 2 and "--write is the old name of --out" in both.stderr
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_review_sample_count_and_its_old_name_and_both_refused(tmp_path: Path) -> None:
    for flag, size in (("--count", "5"), ("--n", "7"), ("-n", "3")):
        result = toolchaos("review", "sample", flag, size, "-o", str(tmp_path / f"{flag}.txt"))
        assert result.returncode == 0, result.stderr
        ids = (tmp_path / f"{flag}.txt").read_text().split()
        assert sum(i.startswith("tbx-") for i in ids) == int(size)
    both = toolchaos("review", "sample", "--count", "5", "--n", "7", "-o", str(tmp_path / "x"))
    assert both.returncode == 2 and "--n is the old name of --count" in both.stderr


def test_the_suite_is_positional_in_validate_and_review(tmp_path: Path) -> None:
    sample = [tmp_path / f"s{i}.txt" for i in range(3)]
    new = toolchaos("review", "sample", "toolbench-x", "-n", "6", "-o", str(sample[0]))
    plain = toolchaos("review", "sample", "--count", "6", "-o", str(sample[1]))
    old = toolchaos(
        "review", "sample", "--suite", "toolbench-x", "--n", "6", "--out", str(sample[2])
    )
    assert all(r.returncode == 0 for r in (new, plain, old)), (new.stderr, plain.stderr, old.stderr)
    texts = {s.read_text() for s in sample}
    assert len(texts) == 1 and len(texts.pop().split("\n")) > 6
    tasks = tmp_path / "tasks.jsonl"
    listed = toolchaos("tasks", "toolbench-x", "--type", "parallel", "--json")
    tasks.write_text("\n".join(listed.stdout.splitlines()[:2]) + "\n")
    by_argument = toolchaos("validate", "toolbench-x", str(tasks))
    by_option = toolchaos("validate", str(tasks), "--suite", "toolbench-x")
    by_file = toolchaos("validate", str(tasks))
    for result in (by_argument, by_option, by_file):
        assert result.returncode == 0 and "2 of 2 tasks pass" in result.stdout, result.stderr
    wrong = toolchaos("review", "show", "toolfailbench", "tbx-podcasts-mix-04")
    assert wrong.returncode == 2 and "no human review workflow" in wrong.stderr
    shown = toolchaos("review", "show", "toolbench-x", "tbx-podcasts-mix-04")
    assert shown.returncode == 0 and shown.stdout.startswith("tbx-podcasts-mix-04")


def test_review_record_writes_with_out_and_with_its_old_name(tmp_path: Path) -> None:
    reviews = tmp_path / "reviews.jsonl"
    common = ["--verdict", "accept", "--category", "execution failure"]
    for reviewer, flag in (("ann", "-o"), ("bo", "--file")):
        done = toolchaos(
            "review", "record", "tbx-podcasts-mix-04", "--reviewer", reviewer, *common, flag,
            str(reviews),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert [json.loads(line)["reviewer"] for line in reviews.read_text().splitlines()] == [
        "ann",
        "bo",
    ]
    missing = toolchaos("review", "record", "tbx-podcasts-mix-04", "--reviewer", "cy", *common)
    assert missing.returncode == 2 and "name the review file with --out" in missing.stderr


def test_audit_scoring_takes_several_judges(tmp_path: Path) -> None:
    run = tmp_path / "run"
    played(
        toolchaos("run", "toolbench-x", "-m", "scripted/oracle", "--subset", "3", "-o", str(run))
    )

    def correct(body: dict[str, Any], index: int) -> Reply:
        return Reply(content='{"correct": true, "rationale": "it states the value"}')

    with FakeOpenAI(correct) as server:
        result = toolchaos(
            "audit-scoring", str(run), "--judge", "openai-compat/good", "--judge",
            "scripted/oracle", "--base-url", server.base_url, "--sample", "3",
        )  # fmt: skip
    audits = [line for line in result.stdout.splitlines() if line.startswith("Scoring audit:")]
    assert len(audits) == 2
    assert "judged by openai-compat/good" in audits[0] and "3 of 3" in audits[0]
    assert "0 of 3" in audits[1]
    assert result.returncode == 1  # one judge gave no verdict at all
    assert "none of the 3 replies of scripted/oracle held a verdict" in result.stderr
