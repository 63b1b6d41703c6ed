"""The worked examples of docs/extending.md run: a domain, a subtopic and a hazard variant."""

import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from toolchaos.core.types import HazardFamily
from toolchaos.domains import REGISTRY, get_domain
from toolchaos.hazards import VARIANTS
from toolchaos.hazards.assign import PROPOSERS
from toolchaos.hazards.hints import _TEMPLATES
from toolchaos.suites.toolbench_x.generate import TEMPLATE_PACKAGES
from toolchaos.suites.toolbench_x.pipeline import build_toolbench_x
from toolchaos.suites.toolbench_x.validate import (
    episode_correct,
    play_sync,
    replay_reference,
    validate_task,
)

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "library.py"
KEY = (HazardFamily.OUTPUT_DRIFT, "title_case_keys")


@pytest.fixture(scope="module")
def example() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location("library_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["library_example"] = module
    spec.loader.exec_module(module)
    REGISTRY["library"] = "library_example:DOMAIN"
    TEMPLATE_PACKAGES["library"] = "library_example"
    yield module
    # leave the registries as the rest of the suite expects them
    for registry, key in ((REGISTRY, "library"), (TEMPLATE_PACKAGES, "library")):
        registry.pop(key, None)
    for registry in (VARIANTS, PROPOSERS, _TEMPLATES):
        registry.pop(KEY, None)  # type: ignore[arg-type]
    get_domain.cache_clear()
    sys.modules.pop("library_example", None)


def test_the_example_domain_builds_valid_tasks(example: ModuleType) -> None:
    tasks, report = build_toolbench_x(0, per_cell=2, domains=["library"])
    assert {t.workflow for t in tasks} == {"sequential", "parallel", "mixture"}
    assert all(validate_task(t) == [] for t in tasks)
    assert report.counts["selected"] == len(tasks)


def test_the_example_variant_recovers_and_matters(example: ModuleType) -> None:
    tasks, _ = build_toolbench_x(0, per_cell=1, domains=["library"])
    task = next(t for t in tasks if t.workflow == "parallel")
    domain = get_domain("library")
    [proposal, *_] = PROPOSERS[KEY](task, domain, random.Random(0), replay_reference(task).results)
    hazarded = task.model_copy(update={"hazard": proposal.spec})
    assert episode_correct(play_sync(hazarded, "oracle", "hazard"), hazarded)
    assert not episode_correct(play_sync(hazarded, "naive", "hazard"), hazarded)
