"""Invocation errors that need diagnosis (issue #24): the probed ambiguous entity.

The lookup's candidates of a probed namesake do not show what tells them apart; only a
detail tool's record of each candidate does. Played on a shipped v2 task put back to its
unhazarded form (v2 itself stays as it is): every cheap policy fails, the oracle opens
the candidates and recovers, and the hint's claims hold.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from typing import Any

import pytest

from toolchaos.core.types import RecoveryStep, TaskSpec, ToolCall
from toolchaos.domains import get_domain
from toolchaos.env.runtime import Env
from toolchaos.hazards.invocation_error import AmbiguousEntity
from toolchaos.suites.toolbench_x import make_env
from toolchaos.suites.toolbench_x.baselines import CHEAP_MODES, GATE_MODES, _as_shown
from toolchaos.suites.toolbench_x.pipeline import gate_problem
from toolchaos.suites.toolbench_x.recovery import Call, StepState, on_result
from toolchaos.suites.toolbench_x.suite import SUITE
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync, replay_reference

BASE = "tbx-device-warranties-and-repairs-par-02"
_CLAUSE = re.compile(r" \(I mean the .*\.\)$")


@cache
def _probed() -> list[TaskSpec]:
    """The probed proposals for BASE's unhazarded form that pass every gate."""
    shipped = {t.id: t for t in SUITE.load(SUITE.version_path("v2"))}[BASE]
    base = shipped.model_copy(
        update={"prompt": _CLAUSE.sub("", shipped.prompt), "hazard": None, "hints": None}
    )
    results = replay_reference(base).results
    domain = get_domain(base.domain)
    out = []
    for proposal in AmbiguousEntity.propose(base, domain, random.Random(0), results):
        if "probe" not in proposal.spec.recovery[0].params:
            continue
        trial, gate, _ = gate_problem(base, proposal, random.Random(0), cheap_gates=True)
        if not gate:
            out.append(trial)
    return out


def test_a_probed_namesake_passes_every_gate_cheap_ones_included() -> None:
    tasks = _probed()
    assert tasks
    for task in tasks:
        assert task.hazard is not None
        assert episode_correct(play_sync(task, "oracle", "hazard"), task, exact=True)
        assert episode_correct(play_sync(task, "oracle", "clean"), task, exact=True)


@pytest.mark.parametrize("mode", ["naive", *GATE_MODES, *CHEAP_MODES, "capable"])
def test_no_cheap_policy_gets_past_a_probed_namesake(mode: str) -> None:
    task = _probed()[0]
    assert not episode_correct(play_sync(task, mode, "hazard"), task)
    assert episode_correct(play_sync(task, mode, "clean"), task)


def test_the_lookup_does_not_show_the_decider_and_the_detail_tool_does() -> None:
    task = _probed()[0]
    assert task.hazard is not None
    resolve = task.hazard.recovery[0].params
    probe = resolve["probe"]
    assert {resolve["tool"], probe["tool"]} <= set(task.tools)
    env = make_env(task, "hazard")
    found = _call(env, resolve["tool"], {resolve["query_param"]: task.hazard.params["name"]})
    candidates = found["results"]
    ids = [c[resolve["id_path"][-1]] for c in candidates]
    expected = task.hazard.params["expected_id"]
    assert expected in ids and ids.index(expected) > 0  # taking the first is wrong
    assert all(probe["field"] not in c for c in candidates)
    records = {i: _call(env, probe["tool"], {probe["param"]: i}) for i in ids}
    matching = [i for i, r in records.items() if r.get(probe["field"]) == probe["value"]]
    assert matching == [expected]
    # the request says what the record shows: the decider is in the prompt
    assert str(probe["value"]) in task.prompt


def test_the_hint_is_true_of_a_probed_namesake() -> None:
    task = _probed()[0]
    assert task.hazard is not None and task.hints is not None
    resolver = task.hazard.params["resolver"]
    assert resolver in task.hints.minimal and resolver in task.hints.detailed
    assert resolver in task.tools
    assert "own record with a tool that takes its id" in task.hints.detailed
    # the bare name is refused as ambiguous, as the hint says
    env = make_env(task, "hazard")
    param, name = task.hazard.params["param"], task.hazard.params["name"]
    step = next(s for s in task.reference.steps if s.tool == task.hazard.tool)
    refused = _call(env, task.hazard.tool, {**step.args, param: name})
    assert "ambiguous" in json.dumps(refused)


def test_a_policy_that_is_not_the_oracle_picks_a_candidate_by_what_the_request_says() -> None:
    step = RecoveryStep(
        action="resolve",
        params={
            "param": "account",
            "tool": "search_accounts",
            "query_param": "query",
            "id_path": ["results", 1, "account_id"],
            "probe": {"tool": "get_account", "param": "account", "field": "x", "value": "y"},
        },
    )
    shown = _as_shown(
        step, "Leo's PixelVault sign-ins (I mean the PixelVault whose member is Leo.)"
    )
    assert "probe" not in shown.params and shown.params["tool"] == "search_accounts"
    listing = {
        "results": [
            {"account_id": "ACC-1", "member": "Daniel", "service": "PixelVault"},
            {"account_id": "ACC-2", "member": "Leo", "service": "PixelVault"},
        ]
    }
    state = StepState(0, "get_account_signins", {"account": "PixelVault"})
    handled = on_result([shown], state, Call("search_accounts", {}, "resolve"), listing)
    assert handled.calls and handled.calls[0].arguments == {"account": "ACC-2"}
    # a request that describes neither: the first candidate, as an agent that looks no further
    blind = _as_shown(step, "How many sign-ins has PixelVault had?")
    state = StepState(0, "get_account_signins", {"account": "PixelVault"})
    handled = on_result([blind], state, Call("search_accounts", {}, "resolve"), listing)
    assert handled.calls[0].arguments == {"account": "ACC-1"}


def _call(env: Env, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    content: dict[str, Any] = env.call(
        ToolCall(id="t", name=tool, arguments=json.dumps(arguments))
    ).content
    return content
