"""Specification drift the changelog does not record: found by probing, past every cheap road.

Each unlogged variant is put on a shipped v2 task (its hazard taken off and proposed
again), then played: the oracle recovers by probing, every gate and cheap policy fails,
the changelog holds no fix, the one place the fix shows is the backend's answer to a
probe, and the hint arm's hint says what the agent really meets.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from toolchaos.core.types import RecoveryAction, TaskSpec, ToolCall
from toolchaos.domains import get_domain
from toolchaos.hazards import VARIANTS, Proposal, hint_for
from toolchaos.hazards.specification_drift import (
    LOGGED,
    VAGUE,
    ChangedEnum,
    RenamedParameter,
    enum_constant,
    unlogged_mode,
)
from toolchaos.suites.toolbench_x import CHANGELOG_TOOL, make_env
from toolchaos.suites.toolbench_x.baselines import CHEAP_MODES, GATE_MODES
from toolchaos.suites.toolbench_x.pipeline import gate_problem
from toolchaos.suites.toolbench_x.suite import SUITE
from toolchaos.suites.toolbench_x.tiers import fix_places, fix_source, observe
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync, replay_reference

CASES = {
    "renamed_parameter": "tbx-a-b-experiments-seq-03",
    "changed_enum": "tbx-account-security-mix-04",
    "parameter_format": "tbx-calendar-scheduling-par-03",
}
"""A shipped v2 task per variant whose unlogged proposal passes every gate."""


def _shipped(task_id: str) -> TaskSpec:
    return next(t for t in SUITE.load(SUITE.version_path("v2")) if t.id == task_id)


def _unlogged(variant: str) -> tuple[TaskSpec, Proposal]:
    """The v2 task of ``variant`` without its hazard, and the first unlogged proposal."""
    task = _shipped(CASES[variant])
    bare = task.model_copy(update={"hazard": None, "hints": None})
    cls = next(c for (f, v), c in VARIANTS.items() if v == variant and f.value.startswith("spec"))
    offered = cls.propose(
        bare, get_domain(task.domain), random.Random(0), replay_reference(bare).results
    )
    unlogged = [p for p in offered if p.spec.params.get("logged", "fix") != "fix"]
    assert unlogged, f"{variant} offers no unlogged proposal on {task.id}"
    return bare, unlogged[0]


def _hazarded(variant: str) -> TaskSpec:
    bare, proposal = _unlogged(variant)
    trial, gate, reason = gate_problem(bare, proposal, random.Random(0), cheap_gates=True)
    assert gate == "", f"{variant}: {gate}: {reason}"
    return trial


def _call(task: TaskSpec, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    env = make_env(task, "hazard")
    content: dict[str, Any] = env.call(
        ToolCall(id="c", name=tool, arguments=json.dumps(args))
    ).content
    return content


@pytest.mark.parametrize("variant", sorted(CASES))
def test_the_oracle_recovers_and_every_cheap_road_fails(variant: str) -> None:
    task = _hazarded(variant)
    assert task.hazard is not None and task.hazard.tier == "implicit"
    assert episode_correct(play_sync(task, "oracle", "hazard"), task, exact=True)
    assert episode_correct(play_sync(task, "oracle", "hint"), task, exact=True)
    for mode in ("naive", "retry", *GATE_MODES, *CHEAP_MODES, "capable"):
        assert not episode_correct(play_sync(task, mode, "hazard"), task), mode
        assert episode_correct(play_sync(task, mode, "clean"), task), mode


@pytest.mark.parametrize("variant", sorted(CASES))
def test_the_fix_is_found_only_by_probing(variant: str) -> None:
    task = _hazarded(variant)
    assert task.hazard is not None
    assert task.hazard.recovery[0].action is RecoveryAction.PROBE
    obs = observe(task)
    assert obs.probes, "the oracle's probe was not seen"
    assert fix_places(obs) == ("probing",) and fix_source(obs) == "probing"
    assert obs.names_fix(obs.probes) and not obs.names_fix(obs.errors + obs.changelog)
    entries = _call(task, CHANGELOG_TOOL, {"tool": task.hazard.tool})["entries"]
    assert entries in ([], [f"{task.hazard.params['since']}: {task.hazard.tool}: {VAGUE}"])


def _reference_args(task: TaskSpec) -> dict[str, Any]:
    assert task.hazard is not None
    tool = task.hazard.tool
    step = next(i for i, s in enumerate(task.reference.steps) if s.tool == tool)
    from toolchaos.core.reference import resolve

    return resolve(task.reference.steps[step].args, replay_reference(task).results)


def test_the_rename_hint_is_true_a_call_without_the_argument_names_the_new_one() -> None:
    task = _hazarded("renamed_parameter")
    assert task.hazard is not None and task.hints is not None
    old, new = task.hazard.params["param"], task.hazard.params["to"]
    assert "neither its documentation nor its changelog" in task.hints.minimal
    args = _reference_args(task)
    refused = _call(task, task.hazard.tool, args)["error"]["message"]
    assert old in refused and new not in refused
    probed = _call(task, task.hazard.tool, {k: v for k, v in args.items() if k != old})
    assert f"'{new}'" in probed["error"]["message"]
    renamed = {(new if k == old else k): v for k, v in args.items()}
    assert "error" not in _call(task, task.hazard.tool, renamed)


def test_the_enum_hint_is_true_an_undocumented_value_lists_the_new_ones() -> None:
    task = _hazarded("changed_enum")
    assert task.hazard is not None and task.hints is not None
    name, mapping = task.hazard.params["param"], task.hazard.params["mapping"]
    args = _reference_args(task)
    refused = _call(task, task.hazard.tool, args)["error"]["message"]
    assert not any(new in refused for new in mapping.values())
    probed = _call(task, task.hazard.tool, {**args, name: "no-such-value"})["error"]["message"]
    assert all(f"'{new}'" in probed for new in mapping.values())
    assert "error" not in _call(task, task.hazard.tool, {**args, name: mapping[args[name]]})
    assert "send one the docs do not list" in task.hints.minimal


def test_the_format_hint_is_true_a_non_iso_value_shows_the_day_first_pattern() -> None:
    task = _hazarded("parameter_format")
    assert task.hazard is not None and task.hints is not None
    name = task.hazard.params["param"]
    args = _reference_args(task)
    assert "DD/MM" not in _call(task, task.hazard.tool, args)["error"]["message"]
    probed = _call(task, task.hazard.tool, {**args, name: "soon"})["error"]["message"]
    pattern = re.search(r"does not match '(.+)'", probed)
    assert pattern, probed
    year, month, day = args[name].split("-")
    assert re.fullmatch(pattern[1].replace("\\\\", "\\"), f"{day}/{month}/{year}")
    assert not re.fullmatch(pattern[1].replace("\\\\", "\\"), "13/13/2026")
    assert "error" not in _call(task, task.hazard.tool, {**args, name: f"{day}/{month}/{year}"})
    assert "no ISO date" in task.hints.minimal


def test_a_logged_spec_plays_as_v2_did() -> None:
    """A spec without ``logged`` (every v2 task) keeps its exact changelog and hints."""
    task = _shipped(CASES["renamed_parameter"])
    assert task.hazard is not None and "logged" not in task.hazard.params
    entries = _call(task, CHANGELOG_TOOL, {"tool": task.hazard.tool})["entries"]
    assert entries and f"'{task.hazard.params['to']}'" in entries[0]
    hint = hint_for(task.hazard)
    assert hint is not None and hint.minimal == RenamedParameter.hints[0].format(
        tool=task.hazard.tool
    )


def test_the_unlogged_mode_is_a_fixed_function_of_the_place() -> None:
    modes = {unlogged_mode("get_forecast", p) for p in ("city", "date", "days", "units", "day")}
    assert modes <= set(LOGGED[1:]) and len(modes) == 2
    assert unlogged_mode("get_forecast", "city") == unlogged_mode("get_forecast", "city")


def test_a_plans_enum_mapping_is_the_prefixed_constant_not_a_case_swap() -> None:
    from conftest import FIXTURE

    out = ChangedEnum.plan_params({"param": "units"}, FIXTURE.tools["get_weather"].spec)
    assert out["mapping"] == {
        "metric": enum_constant("units", "metric"),
        "imperial": enum_constant("units", "imperial"),
    }
    assert out["mapping"]["metric"] == "UNITS_METRIC"


def test_an_enum_place_is_proposed_once_whatever_the_steps() -> None:
    task = _shipped(CASES["changed_enum"])
    bare = task.model_copy(update={"hazard": None, "hints": None})
    steps = [*bare.reference.steps, *bare.reference.steps]
    doubled = bare.model_copy(
        update={"reference": bare.reference.model_copy(update={"steps": steps})}
    )
    domain = get_domain(task.domain)
    once = ChangedEnum.propose(bare, domain, random.Random(0), replay_reference(bare).results)
    twice = ChangedEnum.propose(doubled, domain, random.Random(0), replay_reference(bare).results)
    assert [p.spec.model_dump() for p in once] == [p.spec.model_dump() for p in twice]


def test_a_probe_reads_as_a_sentence_in_the_review_view() -> None:
    from toolchaos.core.types import RecoveryStep
    from toolchaos.suites.toolbench_x.review_view import recovery_words

    left = recovery_words(RecoveryStep(action=RecoveryAction.PROBE, params={"drop": ["city"]}))
    sent = recovery_words(RecoveryStep(action=RecoveryAction.PROBE, params={"set": {"unit": "?"}}))
    assert left.startswith("Call again without 'city' and read") and left.endswith(".")
    assert "'unit' = \"?\"" in sent or "'unit' = ?" in sent, sent


# --- a date read as another day: nothing errs, only the data shows it --------------------

SILENT_CASE = "tbx-fitness-tracking-seq-04"


def _silent() -> TaskSpec:
    from toolchaos.hazards.specification_drift import ReinterpretedDate

    task = _shipped(SILENT_CASE)
    bare = task.model_copy(update={"hazard": None, "hints": None})
    domain = get_domain(task.domain)
    offered = ReinterpretedDate.propose(
        bare, domain, random.Random(0), replay_reference(bare).results
    )
    assert offered, "no reinterpreted date proposed"
    trial, gate, reason = gate_problem(bare, offered[0], random.Random(0), cheap_gates=True)
    assert gate == "", f"{gate}: {reason}"
    return trial


def test_a_reinterpreted_date_is_recovered_by_checking_the_day_and_by_no_cheap_road() -> None:
    task = _silent()
    assert task.hazard is not None and task.hazard.tier == "silent"
    assert episode_correct(play_sync(task, "oracle", "hazard"), task, exact=True)
    for mode in ("naive", "retry", *GATE_MODES, *CHEAP_MODES, "capable"):
        assert not episode_correct(play_sync(task, mode, "hazard"), task), mode
    obs = observe(task)
    assert not obs.errors and not obs.notices and not obs.changelog and not obs.probes
    assert fix_places(obs) == ("data",) and fix_source(obs) == "data"


def test_the_reinterpreted_date_hint_is_true_the_result_names_the_day_served() -> None:
    from datetime import date, timedelta

    task = _silent()
    assert task.hazard is not None and task.hints is not None
    name, field = task.hazard.params["param"], task.hazard.params["field"]
    args = _reference_args(task)
    asked = date.fromisoformat(args[name])
    served = _call(task, task.hazard.tool, args)
    assert "error" not in served and served[field] == (asked - timedelta(days=1)).isoformat()
    moved = _call(task, task.hazard.tool, {**args, name: (asked + timedelta(days=1)).isoformat()})
    assert moved[field] == asked.isoformat()
    assert _call(task, CHANGELOG_TOOL, {"tool": task.hazard.tool})["entries"] == []
    assert f"('{field}')" in task.hints.minimal and "says nothing" in task.hints.minimal
