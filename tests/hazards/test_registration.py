"""One hazard variant is one class: runtime hooks, proposer and hints, registered once.

And a renamed variant still loads from old task files under its new name.
"""

from __future__ import annotations

import random
import string
from pathlib import Path
from typing import ClassVar

import pytest

from toolchaos.core.types import HazardFamily, HazardSpec, TaskSpec
from toolchaos.domains import Domain
from toolchaos.hazards import (
    VARIANTS,
    Hazard,
    Proposal,
    Results,
    hint_for,
    register_hazard,
)
from toolchaos.suites import get_suite
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync

SUITE = get_suite("toolbench-x")


@pytest.mark.parametrize("key", sorted(VARIANTS), ids=lambda k: f"{k[0].value}/{k[1]}")
def test_every_variant_has_its_own_proposer_and_both_hints(key: tuple[HazardFamily, str]) -> None:
    cls = VARIANTS[key]
    assert (cls.family, cls.variant) == key
    # its own proposer, not the base class's placeholder
    assert getattr(cls.propose, "__func__", None) is not getattr(Hazard.propose, "__func__", None)
    minimal, detailed = cls.hints
    assert minimal.strip() and detailed.strip() and minimal != detailed


def test_every_variant_declares_the_params_its_tasks_and_hints_use() -> None:
    """needs and takes are what a plan is checked by: they must cover what the variant reads."""
    tasks = [*SUITE.load(), *SUITE.load(SUITE.version_path("v1"))]
    seen: dict[tuple[HazardFamily, str], set[str]] = {}
    for task in tasks:
        if task.hazard is None:
            continue
        cls = VARIANTS[(task.hazard.family, task.hazard.variant)]
        keys = set(task.hazard.params)
        assert set(cls.needs) <= keys <= {*cls.needs, *cls.takes}, (task.id, sorted(keys))
        seen.setdefault((cls.family, cls.variant), set()).update(keys)
    for key, cls in VARIANTS.items():
        assert set(cls.tool_params) <= {*cls.needs, *cls.takes}, key
        assert set(cls.defaults) <= set(cls.takes), key
        placeholders = {
            name for text in cls.hints for _, name, _, _ in string.Formatter().parse(text) if name
        }
        assert placeholders <= {"tool", "resolver", *cls.needs, *cls.takes}, key
    assert len(seen) >= 20  # the shipped files exercise nearly every variant


def test_the_hazard_decorator_has_one_name() -> None:
    import toolchaos.hazards as hazards

    assert hazards.register_hazard is register_hazard
    assert not hasattr(hazards, "register")  # the old alias is gone: one name per object


def _propose_nothing(
    cls: type[Hazard], task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> list[Proposal]:
    return []


def test_a_variant_without_a_proposer_or_hints_does_not_register() -> None:
    class NoProposer(Hazard):
        family: ClassVar[HazardFamily] = HazardFamily.OUTPUT_DRIFT
        variant: ClassVar[str] = "no_proposer"
        hints: ClassVar[tuple[str, str]] = ("short", "long")

    class NoHints(Hazard):
        family: ClassVar[HazardFamily] = HazardFamily.OUTPUT_DRIFT
        variant: ClassVar[str] = "no_hints"
        propose = classmethod(_propose_nothing)

    with pytest.raises(TypeError, match="defines no propose"):
        register_hazard(NoProposer)
    with pytest.raises(TypeError, match="defines no hints"):
        register_hazard(NoHints)
    assert not {"no_proposer", "no_hints"} & {v for _, v in VARIANTS}


def _old_line(path: Path) -> str:
    """A shipped missing-argument task, written as task files before the rename wrote it."""
    marker = '"family":"invocation_error","variant":"missing_argument"'
    line = next(line for line in path.read_text(encoding="utf-8").splitlines() if marker in line)
    return line.replace(marker, '"family":"invocation_error","variant":"missing_field"')


def test_an_old_missing_field_invocation_error_loads_and_plays_as_missing_argument(
    tmp_path: Path,
) -> None:
    old = tmp_path / "old.jsonl"
    old.write_text(_old_line(SUITE.version_path("v1")) + "\n", encoding="utf-8")
    [task] = SUITE.load(old)
    assert task.hazard is not None
    assert (task.hazard.family, task.hazard.variant) == (
        HazardFamily.INVOCATION_ERROR,
        "missing_argument",
    )
    # the variant's hints are found under its new name (v1 files keep the hints they shipped)
    assert hint_for(task.hazard) is not None
    assert task.hints is not None and task.hazard.params["param"] in task.hints.minimal
    oracle = play_sync(task, "oracle", "hazard")
    assert {e.variant for e in oracle.hazard_events} == {"missing_argument"}
    assert episode_correct(oracle, task)
    assert not episode_correct(play_sync(task, "naive", "hazard"), task)


def test_the_output_drift_missing_field_keeps_its_name() -> None:
    spec = HazardSpec.model_validate(
        {"family": "output_drift", "variant": "missing_field", "tool": "t"}
    )
    assert spec.variant == "missing_field"
    assert VARIANTS[(HazardFamily.OUTPUT_DRIFT, "missing_field")].__name__ == "MissingOutputField"
