"""Every registered hazard variant, proposed where it fits on the fixture tasks.

For each variant: it fires on the oracle's path, the recovery recipe reaches the
reference, the naive baseline fails, and the retry baseline recovers it exactly when the
failure is transient.
"""

import random

import pytest

from conftest import variant_tasks
from toolchaos.core.types import TaskSpec
from toolchaos.domains import get_domain
from toolchaos.hazards import VARIANTS, Proposal, hint_for
from toolchaos.suites.toolbench_x import CHANGELOG_TOOL
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync, replay_reference


def hazarded(family: str, variant: str) -> list[tuple[TaskSpec, Proposal]]:
    domain = get_domain("fixture")
    out = []
    for task in variant_tasks():
        results = replay_reference(task).results
        for (fam, var), cls in VARIANTS.items():
            if (fam.value, var) != (family, variant):
                continue
            for proposal in cls.propose(task, domain, random.Random(0), results):
                tools = list(dict.fromkeys([*task.tools, *proposal.extra_tools, CHANGELOG_TOOL]))
                update = {**proposal.task_update, "hazard": proposal.spec, "tools": tools}
                update["hints"] = hint_for(proposal.spec)
                out.append((task.model_copy(update=update), proposal))
    return out


ALL = sorted((f.value, v) for f, v in VARIANTS)


def test_the_catalogue_has_twenty_five_variants() -> None:
    # v3 added cross_source_conflict/inferred_rule (three legacy ones are no longer
    # proposed), specification_drift/reinterpreted_date and
    # execution_failure/crossed_response (issue #24)
    assert len(ALL) == 25


UNFIT = {
    ("execution_failure", "outage"),
    ("invocation_error", "ambiguous_entity"),
    ("specification_drift", "changed_enum"),
}
"""Variants no fixture task fits, for reasons the next test checks; tests/hazards/
test_tiers.py plays them on a real domain."""


def test_why_no_fixture_task_fits_some_variants() -> None:
    fixture = get_domain("fixture")
    # the backup takes get_weather's argument names: a bypasser would reach it unaided
    assert not hazarded("execution_failure", "outage")
    assert dict(fixture.notes.fallbacks["get_weather"].args_map) == {"city": "city"}
    # a city row holds only its id and name: nothing a prompt could tell namesakes apart by
    assert not hazarded("invocation_error", "ambiguous_entity")
    assert set(fixture.world(0).table("cities")["C-101"].model_dump()) == {
        "city_id",
        "name",
        "temp_c",
        "humidity",
    }
    # every enum parameter of the fixture is optional: an agent could leave it out
    assert not hazarded("specification_drift", "changed_enum")
    for tool in fixture.tools.values():
        props, required = tool.spec.parameters["properties"], tool.spec.parameters["required"]
        assert not [name for name in props if "enum" in props[name] and name in required]


SAME_EVERY_DAY = {("specification_drift", "reinterpreted_date")}
"""Variants that fit a fixture task but cannot matter there: its forecast is the same on
every day, so a date read as another day changes nothing (tests/suites/toolbench_x/
test_unlogged_drift.py plays it on a real domain)."""


def test_a_date_read_as_another_day_changes_nothing_in_the_fixture() -> None:
    cases = hazarded("specification_drift", "reinterpreted_date")
    assert cases
    for task, _ in cases:
        assert task.hazard is not None and task.hazard.tool == "get_forecast"
        assert episode_correct(play_sync(task, "naive", "hazard"), task)


@pytest.mark.parametrize("family,variant", sorted(set(ALL) - UNFIT - SAME_EVERY_DAY))
def test_variant_fires_recovers_and_beats_naive(family: str, variant: str) -> None:
    cases = hazarded(family, variant)
    assert cases, f"no fixture task fits {family}/{variant}"
    shipped = 0
    for task, _ in cases:
        assert task.hints is not None and len(task.hints.minimal.split()) <= 90
        assert len(task.hints.detailed.split()) <= 220
        oracle = play_sync(task, "oracle", "hazard")
        assert oracle.hazard_events, f"{task.id}: the hazard never fired"
        assert {(e.family.value, e.variant) for e in oracle.hazard_events} == {(family, variant)}
        # wherever the hazard fires, its recipe recovers
        assert episode_correct(oracle, task), (task.id, oracle.final_answer)
        assert episode_correct(play_sync(task, "oracle", "clean"), task)
        assert episode_correct(play_sync(task, "naive", "clean"), task)
        if episode_correct(play_sync(task, "naive", "hazard"), task):
            continue  # the hazard does not matter here: the build drops such a task
        shipped += 1
        retried = episode_correct(play_sync(task, "retry", "hazard"), task)
        assert retried == (variant == "transient"), task.id
    assert shipped, f"{family}/{variant} never defeats the naive baseline"


@pytest.mark.parametrize("family,variant", ALL)
def test_variant_events_are_deterministic(family: str, variant: str) -> None:
    for task, _ in hazarded(family, variant)[:2]:
        first = play_sync(task, "oracle", "hazard")
        second = play_sync(task, "oracle", "hazard")
        assert first.hazard_events == second.hazard_events
        assert first.messages == second.messages
