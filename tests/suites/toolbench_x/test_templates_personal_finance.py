"""Personal-finance subtopic templates: what is specific to the domain.

The generic promises (full cells, valid tasks, workflow shapes, hazards present, five
prompts per template) are checked for every domain in ``test_templates.py``. Here: the
subtopics the domain promises, answers a guess cannot hit, room for every hazard
variant, and deterministic candidates.
"""

from __future__ import annotations

import random
import re

import pytest
from domain_builds import PER_CELL, build_group, domain_build

from toolchaos.core.types import TaskSpec
from toolchaos.domains import get_domain
from toolchaos.hazards import proposals
from toolchaos.suites.toolbench_x.generate import WORKFLOWS, raw_candidates, subtopics
from toolchaos.suites.toolbench_x.pipeline import BuildReport
from toolchaos.suites.toolbench_x.validate import replay_reference

DOMAIN = "personal_finance"
pytestmark = build_group(DOMAIN)
# every hazard variant the domain is meant to give room to
VARIANTS = {
    "specification_drift/renamed_parameter",
    "specification_drift/changed_enum",
    "specification_drift/deprecated_tool",
    "specification_drift/parameter_format",
    "invocation_error/strict_format",
    "invocation_error/missing_argument",
    "invocation_error/ambiguous_entity",
    "execution_failure/transient",
    "execution_failure/outage",
    "execution_failure/paginated",
    "execution_failure/timeout_after_write",
    "output_drift/unit_change",
    "output_drift/semantic_drift",
    "output_drift/withheld_field",
    "cross_source_conflict/inferred_rule",  # the three v2 conflicts are legacy (issue #24)
}


@pytest.fixture(scope="module")
def build() -> tuple[list[TaskSpec], BuildReport]:
    return domain_build(DOMAIN)


@pytest.fixture(scope="module")
def tasks(build: tuple[list[TaskSpec], BuildReport]) -> list[TaskSpec]:
    return build[0]


def test_the_first_subtopics_keep_two_templates_per_workflow() -> None:
    subs = subtopics([DOMAIN])
    assert [s.name for s in subs][:3] == [
        "spending and budgets",
        "loans and payments",
        "currency exchange",
    ]
    for sub in subs:
        assert sub.topic == "personal finance"
        assert all(sub.templates.get(workflow) for workflow in WORKFLOWS), sub.name
    for sub in subs[:3]:
        for workflow in WORKFLOWS:
            assert len(sub.templates[workflow]) >= 2, (sub.name, workflow)


def test_the_build_drops_nothing_at_validation_and_repeats_no_prompt(
    build: tuple[list[TaskSpec], BuildReport],
) -> None:
    tasks, report = build
    assert report.counts["selected"] == len(tasks) == PER_CELL * 3 * len(subtopics([DOMAIN]))
    assert not [d for d in report.drops if d.stage == "validate"]
    assert len({t.id for t in tasks}) == len(tasks)
    assert len({t.prompt for t in tasks}) == len(tasks)


def test_answers_replay_and_are_not_guessable(tasks: list[TaskSpec]) -> None:
    for task in tasks:
        assert replay_reference(task).answer == task.reference.answer
        # no answer a guess could hit: tiny integers are out
        assert not re.fullmatch(r"-?\d{1,2}", task.reference.answer), task.id


def test_every_hazard_variant_finds_a_place(tasks: list[TaskSpec]) -> None:
    domain = get_domain(DOMAIN)
    fitting: set[str] = set()
    for task in tasks:
        offered = proposals(task, domain, random.Random(0), replay_reference(task).results)
        for family, found in offered.items():
            fitting |= {f"{family.value}/{p.spec.variant}" for p in found}
    assert fitting >= VARIANTS, sorted(VARIANTS - fitting)


def test_candidates_are_deterministic() -> None:
    first = raw_candidates(3, 2, [DOMAIN])
    again = raw_candidates(3, 2, [DOMAIN])
    assert [c.draft.prompt if c.draft else c.reason for c in first] == [
        c.draft.prompt if c.draft else c.reason for c in again
    ]
