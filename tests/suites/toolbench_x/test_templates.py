"""What every domain's subtopic templates promise, checked once over all of them.

A build of one domain alone (no dataset quotas) fills every (subtopic, workflow) cell
with five valid tasks of the right shape, and every template varies enough to give at
least five different prompts. Run one domain with ``-k <domain>``.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter

import pytest

from toolchaos.core.reference import ref_steps
from toolchaos.core.types import TaskSpec
from toolchaos.domains import get_domain
from toolchaos.suites.toolbench_x.generate import (
    TEMPLATE_PACKAGES,
    WORKFLOWS,
    NoFit,
    Subtopic,
    TemplateContext,
    subtopics,
)
from toolchaos.suites.toolbench_x.pipeline import build_toolbench_x
from toolchaos.suites.toolbench_x.validate import validate_task

PER_CELL = 5
AGGREGATES = {"sum", "min", "max", "argmin", "argmax"}
DOMAINS = sorted(TEMPLATE_PACKAGES)
_BUILT: dict[str, list[TaskSpec]] = {}


def built(domain: str) -> list[TaskSpec]:
    """The tasks a build of ``domain`` alone makes (built once per test session)."""
    if domain not in _BUILT:
        _BUILT[domain], _ = build_toolbench_x(0, per_cell=PER_CELL, domains=[domain])
    return _BUILT[domain]


def independent(task: TaskSpec) -> list[int]:
    return [i for i, step in enumerate(task.reference.steps) if not ref_steps(step.args)]


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_package_lists_subtopics_of_its_own_domain(domain: str) -> None:
    package = importlib.import_module(TEMPLATE_PACKAGES[domain])
    subs = subtopics([domain])
    assert subs and all(isinstance(s, Subtopic) and s.domain == domain for s in subs)
    assert len({s.name for s in subs}) == len(subs)
    assert len(package.SUBTOPIC_MODULES) == len(subs)
    for sub in subs:
        assert all(sub.templates.get(wf) for wf in WORKFLOWS), sub.name


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_cell_is_full(domain: str) -> None:
    tasks = built(domain)
    cells = Counter((t.subtopic, t.workflow) for t in tasks)
    want = {(sub.name, wf): PER_CELL for sub in subtopics([domain]) for wf in WORKFLOWS}
    assert dict(cells) == want


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_task_validates(domain: str) -> None:
    problems = [(t.id, p) for t in built(domain) for p in validate_task(t)]
    assert problems == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_sequential_tasks_are_chains(domain: str) -> None:
    for task in (t for t in built(domain) if t.workflow == "sequential"):
        steps = task.reference.steps
        assert len(steps) >= 3, task.id
        for i in range(1, len(steps)):
            assert i - 1 in ref_steps(steps[i].args), (task.id, i)


@pytest.mark.parametrize("domain", DOMAINS)
def test_parallel_tasks_fan_out_and_aggregate(domain: str) -> None:
    for task in (t for t in built(domain) if t.workflow == "parallel"):
        assert len(independent(task)) >= 3, task.id
        assert len(independent(task)) == len(task.reference.steps), task.id
        assert task.reference.answer_spec.op in AGGREGATES, task.id


@pytest.mark.parametrize("domain", DOMAINS)
def test_mixture_tasks_mix_both_shapes(domain: str) -> None:
    for task in (t for t in built(domain) if t.workflow == "mixture"):
        steps = task.reference.steps
        fan_out = len(independent(task)) >= 2 or any(
            sum(i in ref_steps(s.args) for s in steps) >= 2 for i in range(len(steps))
        )
        assert fan_out, task.id
        assert len(independent(task)) < len(steps), task.id


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_task_carries_a_hazard_and_hints(domain: str) -> None:
    tasks = built(domain)
    assert all(t.hazard is not None and t.hints is not None for t in tasks)
    families = {t.hazard.family.value for t in tasks if t.hazard is not None}
    assert len(families) == 5, families
    assert all(t.reference.answer or t.reference.writes for t in tasks)


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_template_makes_at_least_five_prompts(domain: str) -> None:
    found = get_domain(domain)
    world = found.world(0)
    few = {}
    for sub in subtopics([domain]):
        for template in (t for ts in sub.templates.values() for t in ts):
            prompts = set()
            for seed in range(30):
                try:
                    draft = template(TemplateContext(found, world, random.Random(seed)))
                except NoFit:
                    continue
                prompts.add(draft.prompt)
            if len(prompts) < 5:
                few[f"{sub.name}/{template.__name__}"] = len(prompts)
    assert few == {}
