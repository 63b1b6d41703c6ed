"""The hazard layer under random call sequences keeps its invariants.

For shipped tasks of every hazard variant, a random sequence of calls (the reference
steps' own calls, in any order and repeated, mixed with unknown tools and garbage
arguments) is played twice in fresh hazard-arm environments. Both plays must see the
same observations and the same hazard events (same plan, same events), every event must
belong to the task's hazard and name a call that was made, and nothing but a result or a
tool error ever comes back.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import fuzz_examples
from toolchaos.core.reference import resolve
from toolchaos.core.types import TaskSpec, ToolCall
from toolchaos.suites import get_suite

SUITE = get_suite("toolbench-x")


def by_variant() -> list[TaskSpec]:
    """Up to three shipped tasks of each hazard variant (every variant is covered)."""
    chosen: defaultdict[tuple[str, str], list[TaskSpec]] = defaultdict(list)
    for task in SUITE.load():
        assert task.hazard is not None
        key = (task.hazard.family.value, task.hazard.variant)
        if len(chosen[key]) < 3:
            chosen[key].append(task)
    return [t for tasks in chosen.values() for t in tasks]


TASKS = by_variant()


def reference_calls(task: TaskSpec) -> list[tuple[str, str]]:
    """The reference path's calls with their arguments resolved in the clean world."""
    env = SUITE.make_env(task, "clean")
    results: dict[int, Any] = {}
    calls = []
    for i, step in enumerate(task.reference.steps):
        args = resolve(step.args, results)
        calls.append((step.tool, json.dumps(args)))
        observation = env.call(ToolCall(id="r", name=step.tool, arguments=json.dumps(args)))
        results[i] = observation.content
    return calls


def calls_for(task: TaskSpec) -> st.SearchStrategy[list[tuple[str, str]]]:
    good = reference_calls(task)
    odd = st.tuples(
        st.sampled_from([*task.tools, "no_such_tool"]),
        st.sampled_from(["{}", '{"x": 1}', "[]", "{", '{"id": "\\u0000"}']),
    )
    return st.lists(st.sampled_from(good) | odd, min_size=1, max_size=12)


def play(task: TaskSpec, calls: list[tuple[str, str]]) -> tuple[list[Any], list[Any]]:
    env = SUITE.make_env(task, "hazard")
    seen = []
    for i, (name, arguments) in enumerate(calls):
        observation = env.call(ToolCall(id=f"c{i}", name=name, arguments=arguments))
        json.dumps(observation.content)
        seen.append((observation.ok, observation.content))
    return seen, [e.model_dump(mode="json") for e in env.hazard_events]


@pytest.mark.parametrize("task", TASKS, ids=lambda t: f"{t.hazard.variant}-{t.id}")
def test_same_calls_same_events(task: TaskSpec) -> None:
    assert task.hazard is not None

    @settings(max_examples=fuzz_examples(8))
    @given(calls_for(task))
    def check(calls: list[tuple[str, str]]) -> None:
        first, events = play(task, calls)
        again, events_again = play(task, calls)
        assert first == again and events == events_again
        called = {name for name, _ in calls}
        for event in events:
            assert event["family"] == task.hazard.family.value  # type: ignore[union-attr]
            assert event["tool"] in called

    check()
