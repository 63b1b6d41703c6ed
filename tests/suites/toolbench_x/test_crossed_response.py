"""Execution failure's ``crossed_response``: only the data shows the answer is another's.

A shipped v2 task whose path reads the same tool twice is given the variant (v2 itself
stays as it is); every cheap policy fails under it, the oracle recovers, and the hint
arm's hint says what really happens in the episode.
"""

from __future__ import annotations

import json
import random
from functools import cache

from toolchaos.core.types import HazardFamily, TaskSpec
from toolchaos.domains import get_domain
from toolchaos.hazards import proposals
from toolchaos.suites.toolbench_x.baselines import CHEAP_MODES, GATE_MODES
from toolchaos.suites.toolbench_x.pipeline import gate_problem
from toolchaos.suites.toolbench_x.suite import SUITE
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync, replay_reference


@cache
def _crossed() -> TaskSpec:
    """The first v2 task a crossed response passes every gate on, cheap gates included."""
    for task in SUITE.load(SUITE.version_path("v2"))[::7]:
        rng = random.Random(0)
        offered = proposals(task, get_domain(task.domain), rng, replay_reference(task).results)
        for proposal in offered.get(HazardFamily.EXECUTION_FAILURE, []):
            if proposal.spec.variant != "crossed_response":
                continue
            clean = task.model_copy(update={"hazard": None})
            trial, gate, _ = gate_problem(clean, proposal, rng, cheap_gates=True)
            if not gate:
                return trial
    raise AssertionError("no v2 task takes a crossed response")


def test_the_oracle_recovers_and_every_cheap_policy_fails() -> None:
    task = _crossed()
    assert task.hazard is not None and task.hazard.tier == "silent"
    assert episode_correct(play_sync(task, "oracle", "hazard"), task, exact=True)
    assert episode_correct(play_sync(task, "oracle", "clean"), task, exact=True)
    for mode in ("naive", *GATE_MODES, *CHEAP_MODES, "capable"):
        assert not episode_correct(play_sync(task, mode, "hazard"), task), mode
        assert episode_correct(play_sync(task, mode, "clean"), task), mode


def test_the_crossed_call_carries_the_previous_response_and_no_error() -> None:
    task = _crossed()
    assert task.hazard is not None
    episode = play_sync(task, "naive", "hazard")
    calls = [a for a in episode.trace if a.call.name == task.hazard.tool]
    assert len(calls) >= 2 and all(a.observation.ok for a in episode.trace)
    first, second = calls[0], calls[1]
    assert first.call.arguments != second.call.arguments
    assert first.observation.content == second.observation.content


def test_the_hint_is_true() -> None:
    task = _crossed()
    assert task.hazard is not None and task.hints is not None
    field, arg = task.hazard.params["field"], task.hazard.params["arg"]
    assert task.hazard.tool in task.hints.minimal and f"'{field}'" in task.hints.detailed
    episode = play_sync(task, "oracle", "hazard")
    calls = [a for a in episode.trace if a.call.name == task.hazard.tool]
    # the crossed response's field is not the argument asked; asking again mends it
    crossed = calls[1]
    again = next(a for a in calls[2:] if a.call.arguments == crossed.call.arguments)
    asked = json.loads(crossed.call.arguments)[arg]
    assert _body(crossed.observation.content)[field] != asked
    assert _body(again.observation.content)[field] == asked


def _body(content: object) -> dict[str, object]:
    body = json.loads(content) if isinstance(content, str) else content
    assert isinstance(body, dict)
    return body
