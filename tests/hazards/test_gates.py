"""The specification-drift, invocation and execution variants on real tasks, under the gates.

Tasks are generated and screened for two domains as the build does; each variant's
proposals are played by the oracle (it must recover, and solve the clean arm), the naive,
lenient and bypasser policies (they must fail), and the error follower (it must fail
unless the tier is explicit). A few proposals per tier are sampled from distinct tasks.
"""

from __future__ import annotations

import random
from collections import defaultdict
from functools import cache
from typing import Any

import pytest

from toolchaos.core.types import TaskSpec
from toolchaos.domains import get_domain
from toolchaos.hazards import VARIANTS, hint_for
from toolchaos.suites.toolbench_x import CHANGELOG_TOOL, make_env
from toolchaos.suites.toolbench_x.generate import raw_candidates
from toolchaos.suites.toolbench_x.pipeline import BuildReport, _cap, _screen
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync, replay_reference

DOMAINS = ["weather", "personal_finance"]
FAMILIES = ("specification_drift", "invocation_error", "execution_failure")
SAMPLE = 3
"""Proposals played per (variant, tier), each from another task."""


RARE = "loans-and-payments"
"""The cell whose transfers a timeout after a write fits: most domains refuse a repeated
write by name ("already on the watchlist"), which makes a blind retry harmless."""


@cache
def _tasks() -> list[TaskSpec]:
    report = BuildReport(seed=0, per_cell=2)
    candidates = [c for c in raw_candidates(0, 6, DOMAINS) if c.draft is not None]
    rare = [
        c
        for c in raw_candidates(0, 15, ["personal_finance"])
        if c.draft is not None and c.label.startswith(RARE) and c not in candidates
    ]
    first = [task for _, task in _screen(candidates, report)]
    second = [task for _, task in _screen(rare, report)]
    return _cap(first, 2, report, "cap") + _cap(second, 5, report, "cap")


@cache
def _hazarded() -> dict[tuple[str, str], list[TaskSpec]]:
    """Up to SAMPLE hazarded tasks per (variant, tier), in task order."""
    out: defaultdict[tuple[str, str], list[TaskSpec]] = defaultdict(list)
    for task in _tasks():
        domain = get_domain(task.domain)
        results = replay_reference(task).results
        rng = random.Random(task.id)
        for (family, variant), cls in sorted(VARIANTS.items()):
            if family.value not in FAMILIES or cls.legacy:
                continue
            taken: set[str] = set()
            for proposal in cls.propose(task, domain, rng, results):
                key = (variant, str(proposal.spec.tier))
                if len(out[key]) >= SAMPLE or key[1] in taken:
                    continue
                taken.add(key[1])
                tools = [*task.tools, *proposal.extra_tools, CHANGELOG_TOOL]
                update = {
                    **proposal.task_update,
                    "hazard": proposal.spec,
                    "tools": list(dict.fromkeys(tools)),
                    "hints": hint_for(proposal.spec),
                }
                out[key].append(task.model_copy(update=update))
    return dict(out)


def _solves(task: TaskSpec, mode: str, arm: str = "hazard") -> bool:
    return episode_correct(play_sync(task, mode, arm), task)


def _gate_failures(task: TaskSpec) -> list[str]:
    """Which gates ``task`` fails (empty when it would ship)."""
    assert task.hazard is not None
    problems = []
    if not _solves(task, "oracle", "clean") or not _solves(task, "lenient", "clean"):
        problems.append("clean arm")
    for mode in ("naive", "lenient", "bypasser"):
        if _solves(task, mode):
            problems.append(f"{mode} survives")
    if _solves(task, "follower") != (task.hazard.tier == "explicit"):
        problems.append("follower disagrees with the tier")
    return problems


CASES = [
    ("renamed_parameter", "explicit"),
    ("renamed_parameter", "implicit"),
    ("changed_enum", "explicit"),
    ("changed_enum", "implicit"),
    ("deprecated_tool", "explicit"),
    ("deprecated_tool", "implicit"),
    ("parameter_format", "explicit"),
    ("parameter_format", "implicit"),
    ("strict_format", "explicit"),
    ("strict_format", "implicit"),
    ("missing_argument", "explicit"),
    ("missing_argument", "implicit"),
    ("ambiguous_entity", "explicit"),
    ("ambiguous_entity", "implicit"),
    ("transient", "explicit"),
    ("transient", "implicit"),
    ("outage", "explicit"),
    ("outage", "implicit"),
    ("paginated", "explicit"),
    ("paginated", "implicit"),
    ("paginated", "silent"),
    ("timeout_after_write", "explicit"),
    ("timeout_after_write", "implicit"),
]


@pytest.mark.parametrize(("variant", "tier"), CASES)
def test_the_oracle_recovers_and_the_easy_strategies_fail(variant: str, tier: str) -> None:
    tasks = _hazarded().get((variant, tier), [])
    assert tasks, f"no task of {DOMAINS} takes {variant} as {tier}"
    shipped = []
    for task in tasks:
        oracle = play_sync(task, "oracle", "hazard")
        assert oracle.hazard_events, f"{task.id}: the hazard never fired"
        assert episode_correct(oracle, task), (task.id, oracle.final_answer)
        failures = _gate_failures(task)
        if not failures:
            shipped.append(task.id)
    # a task the gates drop is the build's business; most of a variant's tasks must ship
    assert len(shipped) * 2 > len(tasks), (variant, tier, shipped)


def test_an_ambiguous_entity_has_a_namesake_only_under_the_hazard() -> None:
    task = _hazarded()[("ambiguous_entity", "implicit")][0]
    assert task.hazard is not None
    params = task.hazard.params
    lookup, name = get_domain(task.domain).tools[params["resolver"]], params["name"]
    query = {get_domain(task.domain).notes.resolvers[task.hazard.tool].query_param: name}

    def exact(arm: str) -> list[dict[str, Any]]:
        found = lookup(make_env(task, arm).world, **query)["results"]
        return [r for r in found if str(r.get("name", "")).casefold() == name.casefold()]

    assert len(exact("clean")) == 1
    candidates = exact("hazard")
    assert len(candidates) >= 2
    # the entity is not the first candidate, and the prompt holds what tells them apart
    id_field = str(get_domain(task.domain).notes.resolvers[task.hazard.tool].id_path[-1])
    ids = [str(r[id_field]) for r in candidates]
    assert ids.index(params["expected_id"]) > 0
    assert task.prompt.endswith(".)") and "I mean the" in task.prompt


def test_a_silent_page_reports_a_total_larger_than_it_shows() -> None:
    task = _hazarded()[("paginated", "silent")][0]
    assert task.hazard is not None
    episode = play_sync(task, "naive", "hazard")
    [first] = [e for e in episode.trace if e.call.name == task.hazard.tool]
    shown = first.observation.content
    assert shown["total"] > shown["count"] == len(shown["results"])
    assert not {"next_page", "next_cursor", "has_more", "note"} & set(shown)
