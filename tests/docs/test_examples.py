"""The worked examples of docs/extending.md run: a domain, a subtopic and a hazard variant."""

import importlib.util
import random
import sys
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import pytest

from toolchaos.core.types import HazardFamily
from toolchaos.domains import DOMAINS, get_domain
from toolchaos.hazards import VARIANTS
from toolchaos.suites.toolbench_x.generate import subtopics
from toolchaos.suites.toolbench_x.pipeline import build_toolbench_x
from toolchaos.suites.toolbench_x.validate import (
    episode_correct,
    play_sync,
    replay_reference,
    validate_task,
)

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "library.py"
KEY = (HazardFamily.OUTPUT_DRIFT, "title_case_keys")


class Example(NamedTuple):
    module: ModuleType
    grown: list[set[str]]  # the names of each toolchaos registry that registering it grew


def registries() -> dict[int, tuple[set[str], int]]:
    """Every module-level dict, registry, list and set of the loaded toolchaos modules.

    By identity; each comes with the names it is bound to (a registry imported elsewhere
    has several) and its size.
    """
    found: dict[int, tuple[set[str], int]] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("toolchaos"):
            continue
        for attr, value in vars(module).items():
            if not attr.startswith("__") and isinstance(value, MutableMapping | list | set):
                found.setdefault(id(value), (set(), len(value)))[0].add(f"{name}.{attr}")
    return found


@pytest.fixture(scope="module")
def example() -> Iterator[Example]:
    before = registries()
    spec = importlib.util.spec_from_file_location("library_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["library_example"] = module
    spec.loader.exec_module(module)
    DOMAINS["library"] = "library_example:DOMAIN"  # the one line a new domain adds
    after = registries()
    grown = [
        names for key, (names, size) in before.items() if after.get(key, (set(), -1))[1] != size
    ]
    yield Example(module, grown)
    # leave the registries as the rest of the suite expects them
    DOMAINS.pop("library", None)
    VARIANTS.pop(KEY, None)
    get_domain.cache_clear()
    sys.modules.pop("library_example", None)


def test_the_example_domain_and_subtopic_need_only_the_registry_line(example: Example) -> None:
    # the hazard variant registers itself, with decorators in the example's own file
    outside_hazards = [
        names
        for names in example.grown
        if not any(name.startswith("toolchaos.hazards.") for name in names)
    ]
    assert len(outside_hazards) == 1
    assert "toolchaos.domains.DOMAINS" in outside_hazards[0]
    [sub] = subtopics(["library"])
    assert (sub.name, sub.domain, sub.topic) == (
        "library loans",
        "library",
        example.module.DOMAIN.topic,
    )


def test_the_example_domain_builds_valid_tasks(example: Example) -> None:
    tasks, report = build_toolbench_x(0, per_cell=2, domains=["library"])
    assert {t.workflow for t in tasks} == {"sequential", "parallel", "mixture"}
    assert all(validate_task(t) == [] for t in tasks)
    assert report.counts["selected"] == len(tasks)


def test_the_example_variant_recovers_and_matters(example: Example) -> None:
    tasks, _ = build_toolbench_x(0, per_cell=1, domains=["library"])
    task = next(t for t in tasks if t.workflow == "parallel")
    domain = get_domain("library")
    results = replay_reference(task).results
    [proposal, *_] = VARIANTS[KEY].propose(task, domain, random.Random(0), results)
    hazarded = task.model_copy(update={"hazard": proposal.spec})
    assert episode_correct(play_sync(hazarded, "oracle", "hazard"), hazarded)
    assert not episode_correct(play_sync(hazarded, "naive", "hazard"), hazarded)
