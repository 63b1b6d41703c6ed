"""Transportation subtopic templates: what is specific to the domain.

The generic promises (full cells, valid tasks, workflow shapes, hazards present, five
prompts per template) are checked for every domain in ``test_templates.py``. Here: the
subtopics the domain promises, prompts that differ beyond punctuation, and
deterministic candidates.
"""

from __future__ import annotations

import pytest
from domain_builds import build_group, domain_build

from toolchaos.core.types import TaskSpec
from toolchaos.suites.toolbench_x.generate import (
    WORKFLOWS,
    normalized_prompt,
    raw_candidates,
    subtopics,
)

DOMAIN = "transportation"
pytestmark = build_group(DOMAIN)


@pytest.fixture(scope="module")
def built() -> list[TaskSpec]:
    tasks, _ = domain_build(DOMAIN)
    return tasks


def test_the_first_subtopics_keep_two_templates_per_workflow() -> None:
    subs = subtopics([DOMAIN])
    assert [s.name for s in subs][:3] == [
        "rail and bus schedules",
        "fares and bookings",
        "live delays and journeys",
    ]
    for sub in subs:
        assert sub.topic == "transportation and mobility"
        assert all(sub.templates.get(workflow) for workflow in WORKFLOWS), sub.name
    for sub in subs[:3]:
        for workflow in WORKFLOWS:
            assert len(sub.templates[workflow]) >= 2, (sub.name, workflow)


def test_no_two_tasks_share_a_normalized_prompt(built: list[TaskSpec]) -> None:
    assert len({normalized_prompt(t.prompt) for t in built}) == len(built)


def test_candidates_are_deterministic() -> None:
    first = raw_candidates(3, 2, [DOMAIN])
    again = raw_candidates(3, 2, [DOMAIN])
    assert [c.draft.prompt if c.draft else c.reason for c in first] == [
        c.draft.prompt if c.draft else c.reason for c in again
    ]
