"""Coherence gates (e, f): the v1 tasks the audit named are caught; clean tasks pass."""

from __future__ import annotations

import pytest

from toolchaos.core.types import TaskSpec
from toolchaos.suites import get_suite
from toolchaos.suites.toolbench_x.coherence import (
    coherence_problems,
    named_sources,
    source_phrases,
    time_problems,
)

SUITE = get_suite("toolbench-x")


@pytest.fixture(scope="module")
def v1() -> dict[str, TaskSpec]:
    return {t.id: t for t in SUITE.load(SUITE.version_path("v1"))}


def test_source_phrases_come_from_the_templates_own_tables() -> None:
    phrases = source_phrases("government")
    assert phrases["get_office_wait_time_crowd"] == ("the LineWatch app",)
    assert set(phrases) == set(
        ["get_office_wait_time", "get_office_wait_time_311", "get_office_wait_time_crowd"]
    )


@pytest.mark.parametrize(
    ("task_id", "why"),
    [
        # the prompt asks for the maps estimate; v1 corrupted the maps and expected the clinic's
        ("tbx-vaccinations-and-travel-health-mix-01", "names the corrupted source"),
        # v1 corrupted the documented system of record and expected the majority
        ("tbx-task-management-seq-05", "docs call authoritative"),
        ("tbx-city-service-requests-par-02", "docs call authoritative"),
    ],
)
def test_the_audits_incoherent_cross_source_tasks_are_caught(
    v1: dict[str, TaskSpec], task_id: str, why: str
) -> None:
    reasons = [p.reason for p in coherence_problems(v1[task_id])]
    assert any(why in reason for reason in reasons), reasons


def test_a_hazard_on_an_optional_parameter_is_caught(v1: dict[str, TaskSpec]) -> None:
    optional = [
        t
        for t in v1.values()
        if any("optional parameter" in p.reason for p in coherence_problems(t))
    ]
    assert optional  # v1 put hazards on optional filters (the audit: 53 of 68 changed-enum)
    task = optional[0]
    assert task.hazard is not None
    spec = task.hazard.tool
    from toolchaos.domains import get_domain

    required = get_domain(task.domain).tools[spec].spec.parameters.get("required", [])
    assert task.hazard.params["param"] not in required


def test_a_prompt_naming_a_source_names_it(v1: dict[str, TaskSpec]) -> None:
    task = v1["tbx-vaccinations-and-travel-health-mix-01"]
    assert "get_wait_time_maps" in named_sources(task)


def test_relative_time_needs_the_date(v1: dict[str, TaskSpec]) -> None:
    task = next(t for t in v1.values() if time_problems(t))
    assert "today's date" in time_problems(task)[0].reason
    dated = task.model_copy(update={"system": "Today is 2026-03-02 (Monday)."})
    assert time_problems(dated) == []


@pytest.mark.parametrize(
    ("prompt", "answer", "others", "past"),
    [
        ("Which deadline is furthest away? Give me the days left on it.", "-4", ["-40"], True),
        ("Which deadline is closest? Give me the days left on it.", "3", ["-2", "9"], True),
        ("How many days until the next pickup?", "2", [], False),
        ("Which deadline is closest? Give me the days left on it.", "3", ["9"], False),
        ("What is the coldest overnight low?", "-4", ["2"], False),  # no time left asked
        ("Which has the most days left? (Negative if it has passed.)", "-4", ["-40"], False),
    ],
)
def test_time_left_is_never_past(
    v1: dict[str, TaskSpec], prompt: str, answer: str, others: list[str], past: bool
) -> None:
    task = next(iter(v1.values()))
    reference = task.reference.model_copy(update={"answer": answer, "distractors": others})
    asked = task.model_copy(update={"prompt": prompt, "reference": reference})
    problems = [p for p in time_problems(asked) if p.check == "time-left"]
    assert bool(problems) == past
    if past:
        assert "already past" in problems[0].reason
