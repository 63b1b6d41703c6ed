"""What every domain's subtopic templates promise, checked once over all of them.

Every registered domain has a template package named after it, whose modules are its
subtopics. A build of one domain alone (no dataset quotas) fills every (subtopic,
workflow) cell with five valid tasks of the right shape, and every template varies enough
to give at least five different prompts. Run one domain with ``-k <domain>``.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from domain_builds import PER_CELL, build_group, domain_build

from toolchaos.core.reference import ref_steps
from toolchaos.core.types import TaskSpec
from toolchaos.domains import DOMAINS as REGISTERED
from toolchaos.domains import get_domain
from toolchaos.suites.toolbench_x import templates
from toolchaos.suites.toolbench_x.generate import (
    WORKFLOWS,
    NoFit,
    Subtopic,
    TemplateContext,
    subtopic_modules,
    subtopics,
    template_package,
)
from toolchaos.suites.toolbench_x.validate import validate_task

AGGREGATES = {"sum", "min", "max", "argmin", "argmax"}
DOMAINS = sorted(set(REGISTERED) - {"fixture"})
# the domains again, each test of one domain in that domain's build group
BUILT_DOMAINS = [pytest.param(domain, marks=build_group(domain), id=domain) for domain in DOMAINS]


def built(domain: str) -> list[TaskSpec]:
    """The tasks a build of ``domain`` alone makes (built once per test process)."""
    return domain_build(domain)[0]


def independent(task: TaskSpec) -> list[int]:
    return [i for i, step in enumerate(task.reference.steps) if not ref_steps(step.args)]


def test_every_registered_domain_has_a_template_package_named_after_it() -> None:
    packages = {m.name for m in pkgutil.iter_modules(templates.__path__) if m.ispkg}
    assert packages == set(DOMAINS)


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_module_of_the_package_is_a_subtopic_of_its_domain(domain: str) -> None:
    package = importlib.import_module(template_package(domain))
    subs = subtopics([domain])
    assert subs and all(isinstance(s, Subtopic) and s.domain == domain for s in subs)
    assert len({s.name for s in subs}) == len(subs)
    topic = get_domain(domain).topic
    assert topic in {s.topic for s in subs}
    # the modules declare neither their domain nor its topic: both come from the domain
    modules = subtopic_modules(package)
    declared = [importlib.import_module(f"{package.__name__}.{m}").SUBTOPIC for m in modules]
    assert [s.name for s in declared] == [s.name for s in subs]
    assert all(s.domain == "" and s.topic != topic for s in declared)
    for sub in subs:
        assert all(sub.templates.get(wf) for wf in WORKFLOWS), sub.name


def fake_package(root: Path, *modules: str) -> ModuleType:
    """A package on disk holding empty ``modules``, for the listing alone."""
    for name in modules:
        (root / f"{name}.py").write_text("", encoding="utf-8")
    package = ModuleType("fake_templates")
    package.__path__ = [str(root)]
    return package


def test_subtopic_modules_come_in_name_order_unless_the_package_fixes_one(
    tmp_path: Path,
) -> None:
    package = fake_package(tmp_path, "rain", "air", "_helpers")
    assert subtopic_modules(package) == ["air", "rain"]
    package.SUBTOPIC_ORDER = ("rain", "air")  # type: ignore[attr-defined]
    assert subtopic_modules(package) == ["rain", "air"]


def test_a_subtopic_module_left_out_of_the_order_is_an_error(tmp_path: Path) -> None:
    package = fake_package(tmp_path, "rain", "air", "wind")
    package.SUBTOPIC_ORDER = ("rain", "air")  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="wind"):
        subtopic_modules(package)


@pytest.mark.parametrize("domain", BUILT_DOMAINS)
def test_every_cell_is_full(domain: str) -> None:
    tasks = built(domain)
    cells = Counter((t.subtopic, t.workflow) for t in tasks)
    want = {(sub.name, wf): PER_CELL for sub in subtopics([domain]) for wf in WORKFLOWS}
    assert dict(cells) == want


@pytest.mark.parametrize("domain", BUILT_DOMAINS)
def test_every_task_validates(domain: str) -> None:
    problems = [(t.id, p) for t in built(domain) for p in validate_task(t)]
    assert problems == []


@pytest.mark.parametrize("domain", BUILT_DOMAINS)
def test_sequential_tasks_are_chains(domain: str) -> None:
    for task in (t for t in built(domain) if t.workflow == "sequential"):
        steps = task.reference.steps
        assert len(steps) >= 3, task.id
        for i in range(1, len(steps)):
            assert i - 1 in ref_steps(steps[i].args), (task.id, i)


@pytest.mark.parametrize("domain", BUILT_DOMAINS)
def test_parallel_tasks_fan_out_and_aggregate(domain: str) -> None:
    for task in (t for t in built(domain) if t.workflow == "parallel"):
        assert len(independent(task)) >= 3, task.id
        assert len(independent(task)) == len(task.reference.steps), task.id
        assert task.reference.answer_spec.op in AGGREGATES, task.id


@pytest.mark.parametrize("domain", BUILT_DOMAINS)
def test_mixture_tasks_mix_both_shapes(domain: str) -> None:
    for task in (t for t in built(domain) if t.workflow == "mixture"):
        steps = task.reference.steps
        fan_out = len(independent(task)) >= 2 or any(
            sum(i in ref_steps(s.args) for s in steps) >= 2 for i in range(len(steps))
        )
        assert fan_out, task.id
        assert len(independent(task)) < len(steps), task.id


@pytest.mark.parametrize("domain", BUILT_DOMAINS)
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
