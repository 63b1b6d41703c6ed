"""A generated domain plays through the shipped build's gates with its tools sandboxed.

The fixture is a stored world (tables and seeded rows) and a tool module as a model would
write it; nothing of it is imported into this process.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from toolchaos.api import score
from toolchaos.core.errors import BadInput, ToolError
from toolchaos.core.types import AnswerSpec, RefStep, ToolKind
from toolchaos.domains import get_domain
from toolchaos.suites.toolbench_x.generate import Candidate, Draft, Subtopic
from toolchaos.suites.toolbench_x.generation.domain import (
    DomainSpec,
    GeneratedToolError,
    load_generated,
    parse_tools,
    register_generated,
)
from toolchaos.suites.toolbench_x.generation.sandbox import Limits
from toolchaos.suites.toolbench_x.pipeline import BuildReport, _screen, assign_hazards
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync

FIXTURE = Path(__file__).parent / "fixtures" / "library_domain.json"


@pytest.fixture(scope="module")
def spec() -> DomainSpec:
    loaded = DomainSpec.model_validate_json(FIXTURE.read_text())
    register_generated(loaded, Limits(cpu_seconds=1, wall_seconds=5.0))
    return loaded


def test_specs_come_from_the_ast_and_kinds_from_the_decorators(spec: DomainSpec) -> None:
    tools = dict(parse_tools(spec.source))
    assert tools["place_hold"].kind is ToolKind.WRITE
    assert tools["get_book"].kind is ToolKind.READ
    assert tools["get_book"].parameters["required"] == ["book_id"]
    assert "e.g. 'BK-101'" in tools["get_book"].parameters["properties"]["book_id"]["description"]


def test_a_refused_module_is_not_declared() -> None:
    with pytest.raises(GeneratedToolError, match="imports os"):
        parse_tools(
            "import os\n\ndef f(db, a: str) -> dict:\n"
            "    '''F.\n\n    Args:\n        a: A.\n    '''\n"
        )
    with pytest.raises(GeneratedToolError, match="has no description"):
        parse_tools("def f(db, a: str) -> dict:\n    '''F.'''\n    return {}\n")


def test_tools_read_refuse_and_write_through_the_world(spec: DomainSpec) -> None:
    domain = get_domain(spec.name)
    world = domain.world(0).fork()
    assert domain.tools["get_book"](world, book_id="BK-103")["late_fee"] == 0.75
    with pytest.raises(ToolError, match="not found"):
        domain.tools["get_book"](world, book_id="BK-999")
    before = world.state_hash()
    made = domain.tools["place_hold"](world, book_id="BK-101", patron="Ana Ruiz")
    assert made["hold_id"] == "HD-0001"
    assert world.table("holds")["HD-0001"].patron == "Ana Ruiz"
    assert world.state_hash() != before
    assert domain.world(0).table("holds") == {}  # the base world is untouched


def test_candidates_go_through_the_shipped_screen_and_hazard_gates(spec: DomainSpec) -> None:
    sub = Subtopic(name="Branch catalogue", templates={}, topic=spec.topic, domain=spec.name)
    drafts = [
        Draft(
            prompt="What is the late fee per day of the book BK-103?",
            steps=[RefStep(tool="get_book", args={"book_id": "BK-103"})],
            answer=AnswerSpec(op="value", refs=[[0, "late_fee"]]),
        ),
        Draft(
            prompt="How many shelves does the South branch have?",
            steps=[RefStep(tool="stuck", args={"branch": "South"})],
            answer=AnswerSpec(op="value", refs=[[0, "shelves"]]),
        ),
    ]
    candidates = [Candidate(sub, "sequential", n, d) for n, d in enumerate(drafts, start=1)]
    report = BuildReport(seed=0, per_cell=5)
    screened = _screen(candidates, report)
    assert len(screened) == 1
    [drop] = report.drops
    assert drop.stage == "screen" and "SIGXCPU" in drop.reason
    [task] = assign_hazards([t for _, t in screened], random.Random(0), report, cheap_gates=True)
    assert task.hazard is not None
    assert episode_correct(play_sync(task, "oracle", "hazard"), task, exact=True)
    assert not episode_correct(play_sync(task, "naive", "hazard"), task)


def test_a_task_file_with_its_domains_plays_with_toolchaos_run(
    spec: DomainSpec, tmp_path: Path
) -> None:
    """A fresh ``toolchaos run`` process finds the domain beside the task file."""
    sub = Subtopic(name="Branch catalogue", templates={}, topic=spec.topic, domain=spec.name)
    draft = Draft(
        prompt="What is the late fee per day of the book BK-104?",
        steps=[RefStep(tool="get_book", args={"book_id": "BK-104"})],
        answer=AnswerSpec(op="value", refs=[[0, "late_fee"]]),
    )
    report = BuildReport(seed=0, per_cell=5)
    screened = _screen([Candidate(sub, "sequential", 1, draft)], report)
    [task] = assign_hazards([t for _, t in screened], random.Random(0), report, cheap_gates=True)
    (tmp_path / "domains").mkdir()
    (tmp_path / "domains" / f"{spec.name}.json").write_text(spec.model_dump_json())
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(task.model_dump_json() + "\n")
    out = tmp_path / "run"
    cli = str(Path(sys.executable).parent / "toolchaos")
    command = [cli, "run", "toolbench-x", "--tasks", str(tasks), "--out", str(out)]
    played = subprocess.run(
        [*command, "-m", "scripted/oracle,scripted/naive", "--arms", "clean,hazard"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    scores = score(out)
    correct = {(r.model, r.arm): bool(r.correct) for r in scores.itertuples()}
    assert correct == {
        ("scripted/oracle", "clean"): True,
        ("scripted/oracle", "hazard"): True,
        ("scripted/naive", "clean"): True,
        ("scripted/naive", "hazard"): False,
    }


def test_a_broken_stored_domain_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "domains").mkdir()
    (tmp_path / "domains" / "bad.json").write_text("{not json")
    with pytest.raises(BadInput, match="cannot be read"):
        load_generated(tmp_path / "domains")


def test_a_stored_domain_may_not_take_a_shipped_domains_name(tmp_path: Path) -> None:
    (tmp_path / "domains").mkdir()
    taken = DomainSpec(name="weather", topic="weather", tables={}, source="")
    (tmp_path / "domains" / "weather.json").write_text(taken.model_dump_json())
    with pytest.raises(BadInput, match="weather"):
        load_generated(tmp_path / "domains")
    assert get_domain("weather").tools  # the shipped domain is untouched
