"""Tests of the weather subtopic templates: the build fills every cell with valid tasks."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from toolchaos.build.pipeline import build_toolbench_x
from toolchaos.build.validate import validate_task
from toolchaos.core.reference import ref_steps
from toolchaos.core.types import TaskSpec
from toolchaos.domains import REGISTRY, get_domain
from toolchaos.suites.toolbench_x.generate import (
    TEMPLATE_MODULES,
    WORKFLOWS,
    NoFit,
    Template,
    TemplateContext,
)
from toolchaos.suites.toolbench_x.templates.weather import SUBTOPICS

# Until the registry line is committed; a no-op afterwards.
REGISTRY.setdefault("weather", "toolchaos.domains.weather:DOMAIN")
PER_CELL = 5
AGGREGATES = {"sum", "min", "max", "argmin", "argmax"}


@pytest.fixture(scope="module", autouse=True)
def weather_templates() -> Iterator[None]:
    """Register the templates for this module only.

    Left registered, they would change what a full build (other test modules) produces
    until the registration line and the rebuilt dataset are committed together.
    """
    added = "weather" not in TEMPLATE_MODULES
    TEMPLATE_MODULES.setdefault("weather", "toolchaos.suites.toolbench_x.templates.weather")
    yield
    if added:
        del TEMPLATE_MODULES["weather"]


@pytest.fixture(scope="module")
def tasks(weather_templates: None) -> list[TaskSpec]:
    built, _ = build_toolbench_x(0, per_cell=PER_CELL, domains=["weather"])
    return built


def independent(task: TaskSpec) -> list[int]:
    return [i for i, step in enumerate(task.reference.steps) if not ref_steps(step.args)]


def test_every_cell_is_full(tasks: list[TaskSpec]) -> None:
    cells = Counter((t.subtopic, t.workflow) for t in tasks)
    want = {(sub.name, wf): PER_CELL for sub in SUBTOPICS for wf in WORKFLOWS}
    assert dict(cells) == want
    assert len(SUBTOPICS) == 3
    assert all(t.domain == "weather" and t.topic == "location and environment" for t in tasks)


def test_every_task_validates(tasks: list[TaskSpec]) -> None:
    problems = [p for task in tasks for p in validate_task(task)]
    assert problems == []


def test_sequential_tasks_are_chains(tasks: list[TaskSpec]) -> None:
    for task in (t for t in tasks if t.workflow == "sequential"):
        steps = task.reference.steps
        assert len(steps) >= 3, task.id
        for i in range(1, len(steps)):
            assert i - 1 in ref_steps(steps[i].args), (task.id, i)


def test_parallel_tasks_fan_out_and_aggregate(tasks: list[TaskSpec]) -> None:
    for task in (t for t in tasks if t.workflow == "parallel"):
        assert len(independent(task)) >= 3, task.id
        assert len(independent(task)) == len(task.reference.steps), task.id
        assert task.reference.answer_spec.op in AGGREGATES, task.id


def test_mixture_tasks_mix_both_shapes(tasks: list[TaskSpec]) -> None:
    for task in (t for t in tasks if t.workflow == "mixture"):
        steps = task.reference.steps
        fan_out = len(independent(task)) >= 2 or any(
            sum(i in ref_steps(s.args) for s in steps) >= 2 for i in range(len(steps))
        )
        assert fan_out, task.id
        assert len(independent(task)) < len(steps), task.id


def test_every_task_carries_a_hazard_and_hints(tasks: list[TaskSpec]) -> None:
    assert all(t.hazard is not None and t.hints is not None for t in tasks)
    families = {t.hazard.family.value for t in tasks if t.hazard is not None}
    assert len(families) >= 4
    assert all(t.reference.answer or t.reference.writes for t in tasks)


@pytest.mark.parametrize(
    ("subtopic", "workflow", "template"),
    [
        (sub.name, wf, template)
        for sub in SUBTOPICS
        for wf, templates in sub.templates.items()
        for template in templates
    ],
    ids=lambda v: v if isinstance(v, str) else v.__name__,
)
def test_each_template_makes_at_least_five_prompts(
    subtopic: str, workflow: str, template: Template
) -> None:
    domain = get_domain("weather")
    world = domain.world(0)
    prompts = set()
    for seed in range(30):
        try:
            draft = template(TemplateContext(domain, world, random.Random(seed)))
        except NoFit:
            continue
        prompts.add(draft.prompt)
    assert len(prompts) >= 5
