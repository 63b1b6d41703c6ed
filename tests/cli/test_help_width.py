"""Every `--help` at 80 columns: nothing wider, nothing cut off, an example that can be copied.

Also what a run and a report print on an 80-column terminal: a progress bar that keeps its
counts and times with a 50-character model name, and the "wrote ..." lines.
"""

import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from toolchaos._clihelp import example_lines
from toolchaos.cli import app
from toolchaos.testing import FakeOpenAI, Reply

ROOT = typer.main.get_command(app)


def commands(command: Any = ROOT, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The path of every command and group, the top one first."""
    yield path
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        if not sub.hidden:
            yield from commands(sub, (*path, name))


def command_at(path: tuple[str, ...]) -> Any:
    found = ROOT
    for name in path:
        found = found.commands[name]
    return found


def help_at_80(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(
        app, [*path, "--help"], prog_name="toolchaos", env={"COLUMNS": "80"}
    )
    assert result.exit_code == 0, result.output
    return result.output


def example_commands(text: str) -> list[list[str]]:
    """The commands of the help's example block, as a shell would read the lines pasted."""
    lines = text.splitlines()
    start = next(
        i for i, line in enumerate(lines) if line.strip().startswith("Example") and line[-1:] == ":"
    )
    block = []
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        block.append(line)
    pasted = "\n".join(block).replace("\\\n", "")
    return [shlex.split(line) for line in pasted.splitlines()]


ALL = list(commands())


def test_every_command_is_covered() -> None:
    names = {" ".join(p) for p in ALL}
    assert {"", "run", "report", "judge", "review", "review sample", "models pull"} <= names
    assert len(ALL) >= 20


@pytest.mark.parametrize("path", ALL, ids=lambda p: " ".join(p) or "toolchaos")
def test_help_fits_80_columns_with_an_example_that_parses(path: tuple[str, ...]) -> None:
    text = help_at_80(path)
    for line in text.splitlines():
        assert len(line) <= 80, line
        # nothing cut (a usage line's "{directories}..." is a list of arguments)
        assert "…" not in line, line
        assert line.startswith("Usage:") or not line.rstrip().endswith("..."), line
    examples = example_commands(text)
    assert examples, text
    for words in examples:
        assert words[0] == "toolchaos", words
        # the example names a command of this one, or this one, and parses as the CLI would
        target = words[1 : 1 + len(path)]
        assert tuple(target) == path, words
        rest = words[1 + len(path) :]
        command = command_at(path)
        if hasattr(command, "commands"):  # a group's example runs one of its commands
            command, rest = command.commands[rest[0]], rest[1:]
        command.make_context(words[-1], rest)  # raises a usage error on an unknown option


def test_no_line_breaks_inside_a_hyphenated_word() -> None:
    text = help_at_80(("run",))
    assert "no-tool" in text and "dask-local" in text and "openai=40,anthropic=20" in text


def test_an_example_longer_than_a_line_breaks_between_options_with_a_continuation() -> None:
    command = "toolchaos judge runs/tfb --judge openai/gpt-4o-mini --judge anthropic/claude-haiku"
    lines = example_lines([command], 60)
    assert lines == [
        "  toolchaos judge runs/tfb --judge openai/gpt-4o-mini \\",
        "      --judge anthropic/claude-haiku",
    ]
    assert shlex.split("\n".join(lines).replace("\\\n", "")) == shlex.split(command)


def toolchaos(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "80", "PATH": "/usr/bin:/bin"},
        cwd=cwd,
    )


def test_the_progress_bar_keeps_counts_and_times_with_a_50_character_model(
    tmp_path: Path,
) -> None:
    name = "meta-llama/Llama-3.1-70B-Instruct-Turbo-2026-07-01"
    assert len(name) == 50

    def respond(body: dict[str, Any], index: int) -> Reply:
        return Reply(content="The value is 12.")

    with FakeOpenAI(respond) as server:
        result = toolchaos(
            "run", "toolfailbench", "-m", f"openai-compat/{name}", "--base-url",
            server.base_url, "--limit", "3", "--out", str(tmp_path / "run"),
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    bar = next(line for line in result.stderr.splitlines() if line.startswith("toolfailbench "))
    assert len(bar) <= 80, bar
    assert "3/3" in bar and "ep/s" in bar and "ETA" in bar, bar
    elapsed, remaining = bar.split()[-3], bar.split()[-1]
    assert elapsed.count(":") == 2 and remaining.count(":") == 2, bar  # never "0:0…"
    assert "openai-compat/" in bar and "…" in bar and bar.count("…") == 1  # the name shortened


def test_the_wrote_lines_fit_and_name_every_file_once(tmp_path: Path) -> None:
    run = tmp_path / "run"  # named relative to the folder: a long tmp path is not the point
    played = toolchaos(
        "run", "toolbench-x", "-m", "scripted/oracle", "--limit", "2", "--out", "run", cwd=tmp_path
    )
    assert played.returncode == 0, played.stderr
    result = toolchaos("report", "run", "--html", "page.html", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    wrote = result.stderr[result.stderr.index("wrote in ") :].splitlines()
    assert all(len(line) <= 80 for line in wrote), wrote
    names = [n.strip() for line in wrote for n in line.split(": ", 1)[-1].split(",") if n.strip()]
    written = sorted(p.name for p in run.rglob("*") if p.is_file() and p.suffix != ".sqlite")
    assert "page.html" in names and "report.md" in names and "accuracy_by_family.svg" in names
    assert len(names) == len(set(names))
    assert {"report.md", "report.tex", "episode_labels.csv"} <= set(written) & set(names)


def test_toolchaos_alone_fits_80_columns() -> None:
    result = CliRunner().invoke(app, [], prog_name="toolchaos", env={"COLUMNS": "80"})
    assert result.exit_code == 0 and "Try it in seconds" in result.output
    assert all(len(line) <= 80 for line in result.output.splitlines())
