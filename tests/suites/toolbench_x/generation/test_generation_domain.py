"""A generated domain plays through the shipped build's gates with its tools sandboxed.

The fixture is a stored world (tables and seeded rows) and a tool module as a model would
write it; nothing of it is imported into this process.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from toolchaos.core.errors import ToolError
from toolchaos.core.types import AnswerSpec, RefStep, ToolKind
from toolchaos.domains import get_domain
from toolchaos.suites.toolbench_x.generate import Candidate, Draft, Subtopic
from toolchaos.suites.toolbench_x.generation.domain import (
    DomainSpec,
    GeneratedToolError,
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
