"""A suite's own options (``-T key=value``): its pydantic model checks them, the run keeps them.

The suite here is the fixture domain's ToolBench-X tasks played under a suite whose env
reads an option, so the option is seen to reach the episodes through the real runner.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, Field
from rich.console import Console
from typer.testing import CliRunner

from toolchaos.cli import app, task_options
from toolchaos.core.errors import BadInput
from toolchaos.core.types import TaskSpec
from toolchaos.env.runtime import Env
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.suites import SUITES, configured_suite, get_suite
from toolchaos.suites.base import NoOptions
from toolchaos.suites.toolbench_x.suite import ToolBenchXSuite

QUIET = Console(quiet=True)


class Knobs(BaseModel):
    """Two options, one with bounds, one a choice."""

    turns: int = Field(3, ge=1, description="how many")
    mood: Literal["calm", "brisk"] = "calm"


class ToolboxCut(BaseModel):
    """How many of a task's tools the agent is offered."""

    keep: int = Field(99, ge=0, description="tools offered")


@dataclasses.dataclass(frozen=True)
class CutSuite(ToolBenchXSuite):
    """ToolBench-X whose env offers only the first ``keep`` tools of a task."""

    def make_env(self, task: TaskSpec, arm: str) -> Env:
        keep = ToolboxCut.model_validate(self.settings).keep
        return Env(task.model_copy(update={"tools": task.tools[:keep]}), arm)


def cut_suite() -> CutSuite:
    """The suite registered for this module's tests (its factory)."""
    base = get_suite("toolbench-x")
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
    return CutSuite(**fields | {"name": "cut", "options_model": ToolboxCut})


def knob_suite() -> CutSuite:
    return dataclasses.replace(cut_suite(), options_model=Knobs)


def test_options_are_checked_and_kept_only_where_they_differ_from_defaults() -> None:
    suite = knob_suite()
    assert suite.settings == Knobs()
    assert suite.parse_options({"turns": "3", "mood": "calm"}) == {}
    assert suite.parse_options({"turns": "5"}) == {"turns": 5}
    assert suite.with_options({}) is suite
    chosen = suite.with_options({"mood": "brisk"})
    assert chosen.settings == Knobs(mood="brisk") and chosen is not suite
    with pytest.raises(BadInput, match=r"has no option 'tone'; its options: turns \(int, def"):
        suite.parse_options({"tone": "x"})
    with pytest.raises(BadInput, match="-T turns=0 is refused: input should be greater than"):
        suite.parse_options({"turns": "0"})
    with pytest.raises(BadInput, match="-T mood=loud is refused: input should be 'calm' or"):
        suite.parse_options({"mood": "loud"})


def test_a_suite_without_options_refuses_any() -> None:
    suite = get_suite("toolbench-x")
    assert suite.options_model is NoOptions and suite.with_options({}) is suite
    with pytest.raises(BadInput, match="suite toolbench-x takes no -T options"):
        suite.parse_options({"turns": "2"})


def test_task_option_flags_parse_to_a_dict() -> None:
    assert task_options(["a=1", "b = x=y"]) == {"a": "1", "b": "x=y"}
    with pytest.raises(BadInput, match="give a suite option as KEY=VALUE"):
        task_options(["budget"])
    with pytest.raises(BadInput, match="-T a is given twice"):
        task_options(["a=1", "a=2"])


def test_the_cli_refuses_an_option_a_suite_does_not_take(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app, ["run", "toolbench-x", "-m", "scripted/oracle", "-T", "budget=2", "-o", str(out)]
    )
    assert result.exit_code == 2
    assert "suite toolbench-x takes no -T options" in result.output
    assert not out.exists()


@pytest.fixture
def cut_registered(fixture_tasks: Path) -> Iterator[Path]:
    SUITES["cut"] = f"{__name__}:cut_suite"
    yield fixture_tasks
    del SUITES["cut"]
    get_suite.cache_clear()


@pytest.fixture
def fixture_tasks(tmp_path: Path) -> Path:
    """Two ToolBench-X tasks of the shipped set, as tasks of the ``cut`` suite."""
    tasks = get_suite("toolbench-x").load()[:2]
    path = tmp_path / "cut.jsonl"
    path.write_text(
        "".join(t.model_copy(update={"suite": "cut"}).model_dump_json() + "\n" for t in tasks)
    )
    return path


def test_an_option_reaches_the_episodes_and_the_run_identity(
    cut_registered: Path, tmp_path: Path
) -> None:
    def play(out: Path, **options: str) -> RunConfig:
        config = RunConfig(
            suite="cut",
            models=["scripted/oracle"],
            arms=["clean"],
            tasks_path=str(cut_registered),
            suite_options=options,
        )
        run(config, out, QUIET)
        return config

    config = play(tmp_path / "all")
    assert "options" not in config.identity("x")  # no option: the fingerprint it always had
    play(tmp_path / "none", keep="0")
    answered: dict[str, list[bool]] = {}
    for name in ("all", "none"):
        store = Store.open_existing(tmp_path / name, read_only=True)
        try:
            answered[name] = [all(t.observation.ok for t in e.trace) for e in store.episodes()]
        finally:
            store.close()
    # with no tool offered, every call the oracle makes is an unknown tool
    assert answered == {"all": [True, True], "none": [False, False]}
    manifest = json.loads((tmp_path / "none" / "manifest.json").read_text())
    assert manifest["suite_options"] == {"keep": 0}
    assert "suite_options" not in json.loads((tmp_path / "all" / "manifest.json").read_text())
    assert configured_suite("cut", {"keep": "0"}).settings == ToolboxCut(keep=0)
    with pytest.raises(BadInput, match=r"suite options keep 0 \(asked 1\)"):
        play(tmp_path / "none", keep="1")
