"""ToolBench-X diagnostics on hand-built episodes: every action, every behaviour branch."""

import json
from typing import Any

import pytest

from toolchaos.core.errors import BadInput
from toolchaos.core.types import (
    Episode,
    EpisodeStatus,
    HazardEvent,
    HazardFamily,
    HazardSpec,
    Message,
    Observation,
    Reference,
    RefStep,
    TaskSpec,
    ToolCall,
    TraceEntry,
)
from toolchaos.suites.toolbench_x.diagnostics import (
    FailureBehaviour,
    PostFailureAction,
    Thresholds,
    TraceFacts,
    action_table,
    behaviour_table,
    classify,
    diagnose,
    diagnose_episodes,
    diagnostics_frame,
    observe,
    parse_thresholds,
    resolve_thresholds,
)

# a call is (tool, arguments JSON, outcome): outcome "ok", "error" or "event" (ok, with a
# hazard event, as output drift does)
Call = tuple[str, str, str]

EVENT = HazardEvent(
    family=HazardFamily.EXECUTION_FAILURE, variant="transient", tool="t", ordinal=1, detail="503"
)


def task(reference_calls: int = 2) -> TaskSpec:
    return TaskSpec(
        id="t1",
        suite="toolbench-x",
        domain="weather",
        topic="weather",
        subtopic="forecast",
        workflow="sequential",
        prompt="What is the temperature?",
        tools=["get_weather", "get_forecast", "backup_weather"],
        reference=Reference(
            steps=[RefStep(tool="get_weather", args={"city": "Oslo"})] * reference_calls,
            answer="12",
        ),
        hazard=HazardSpec(family=HazardFamily.EXECUTION_FAILURE, variant="transient", tool="t"),
    )


def episode(
    turns: list[list[Call]], answer: str = "It is 12 C.", arm: str = "hazard", key: str = "k"
) -> Episode:
    """An episode whose agent makes one assistant turn per inner list of calls."""
    messages = [Message(role="system", content="s"), Message(role="user", content="q")]
    trace = []
    n = 0
    for batch in turns:
        calls = []
        for name, arguments, _ in batch:
            n += 1
            calls.append(ToolCall(id=f"c{n}", name=name, arguments=arguments))
        messages.append(Message(role="assistant", tool_calls=calls))
        for call, (_, _, outcome) in zip(calls, batch, strict=True):
            ok = outcome != "error"
            content: Any = {"temp_c": 12} if ok else {"error": {"code": 503, "type": "unavailable"}}
            events = [EVENT] if outcome in ("error", "event") else []
            observation = Observation(
                call_id=call.id, tool=call.name, ok=ok, content=content, hazard_events=events
            )
            trace.append(TraceEntry(call=call, observation=observation, ordinal=len(trace) + 1))
            messages.append(
                Message(role="tool", tool_call_id=call.id, name=call.name, content="{}")
            )
    messages.append(Message(role="assistant", content=answer))
    return Episode(
        key=key,
        suite="toolbench-x",
        task_id="t1",
        model="m",
        protocol="native",
        arm=arm,
        messages=messages,
        trace=trace,
        final_answer=answer,
    )


W = '{"city": "Oslo"}'


@pytest.mark.parametrize(
    "turns,action",
    [
        ([[("get_weather", W, "ok")]], PostFailureAction.NONE),
        (
            [[("get_weather", W, "error")], [("get_weather", '{"city":"Oslo"}', "ok")]],
            PostFailureAction.RETRY_SAME_ARGS,
        ),
        (
            [[("get_weather", W, "error")], [("get_weather", '{"city": "oslo"}', "ok")]],
            PostFailureAction.RETRY_CHANGED_ARGS,
        ),
        (
            [[("get_weather", W, "error")], [("backup_weather", W, "ok")]],
            PostFailureAction.SWITCH,
        ),
        ([[("get_weather", W, "ok")], [("get_weather", W, "error")]], PostFailureAction.TERMINATE),
        (
            # a hazard event on a successful call is an anomaly too (output drift)
            [[("get_weather", W, "event")], [("get_forecast", W, "ok")]],
            PostFailureAction.SWITCH,
        ),
    ],
)
def test_every_post_failure_action(turns: list[list[Call]], action: PostFailureAction) -> None:
    facts = observe(episode(turns), task(), correct=False)
    assert facts.action is action
    assert (facts.anomaly_index is None) == (action is PostFailureAction.NONE)


def test_argument_order_and_spacing_do_not_make_a_retry_changed() -> None:
    turns = [
        [("get_weather", '{"city": "Oslo", "units": "metric"}', "error")],
        [("get_weather", '{"units":"metric","city":"Oslo"}', "ok")],
    ]
    assert observe(episode(turns), task(), False).action is PostFailureAction.RETRY_SAME_ARGS


def test_calls_in_the_same_turn_as_the_anomaly_are_not_the_next_move() -> None:
    # the anomaly is the first of two parallel calls; its sibling (same tool, other
    # arguments) was decided before the agent saw the error
    turns = [
        [("get_weather", W, "error"), ("get_weather", '{"city": "Lima"}', "ok")],
        [("backup_weather", W, "ok"), ("get_weather", W, "ok")],
    ]
    facts = observe(episode(turns), task(), False)
    assert facts.anomaly_index == 0
    assert facts.action is PostFailureAction.RETRY_SAME_ARGS  # a retry in the batch decides
    assert facts.calls_after_anomaly == 2  # the sibling does not count
    assert facts.tool_calls == 4 and facts.call_ratio == 2.0


def test_a_call_no_assistant_message_carries_is_a_turn_of_its_own() -> None:
    # the decision protocol calls an unknown tool for the agent with id decision_N
    ep = episode([[("get_weather", W, "error")], [("get_weather", W, "ok")]])
    ghost = ToolCall(id="decision_1", name="nope")
    observation = Observation(call_id="decision_1", tool="nope", ok=False, content={"error": {}})
    ep.trace.insert(1, TraceEntry(call=ghost, observation=observation, ordinal=0))
    facts = observe(ep, task(), False)
    assert facts.action is PostFailureAction.SWITCH  # the unknown tool came next
    assert facts.calls_after_anomaly == 2


def test_observe_reads_stored_json_like_an_episode() -> None:
    ep = episode([[("get_weather", W, "error")], [("get_weather", W, "ok")]])
    from_json = observe(json.loads(ep.model_dump_json()), task(), False)
    assert from_json == observe(ep, task(), False)


def label(turns: list[list[Call]], answer: str = "It is 9 C.", refs: int = 2) -> TraceFacts:
    return observe(episode(turns, answer=answer), task(refs), correct=False)


DEFAULT = Thresholds()


@pytest.mark.parametrize(
    "facts,behaviour",
    [
        # an empty answer is early abandonment even after many calls
        (
            label([[("get_weather", W, "error")]] + [[("get_weather", W, "ok")]] * 4, answer=" "),
            FailureBehaviour.EARLY_ABANDONMENT,
        ),
        # nothing left after normalization is not an answer either
        (label([[("get_weather", W, "ok")]], answer="..."), FailureBehaviour.EARLY_ABANDONMENT),
        # A_t = 0: gave up at the first anomaly
        (label([[("get_weather", W, "error")]]), FailureBehaviour.EARLY_ABANDONMENT),
        # A_t = 3 >= tau_A
        (
            label([[("get_weather", W, "error")]] + [[("get_weather", W, "error")]] * 3),
            FailureBehaviour.INEFFECTIVE_CONTINUATION,
        ),
        # A_t = 1 < 3, R_t = 2/3 < 1
        (
            label([[("get_weather", W, "error")], [("get_weather", W, "ok")]], refs=3),
            FailureBehaviour.UNDER_UTILIZATION,
        ),
        # A_t = 1 < 3, R_t = 2/2 >= 1: the data was there, the answer was wrong
        (
            label([[("get_weather", W, "error")], [("get_weather", W, "ok")]], refs=2),
            FailureBehaviour.ANSWER_SYNTHESIS_FAILURE,
        ),
    ],
)
def test_every_failure_behaviour_branch(facts: TraceFacts, behaviour: FailureBehaviour) -> None:
    diagnosis = classify(facts, DEFAULT)
    assert diagnosis.behaviour is behaviour
    assert diagnosis.explanation.startswith(behaviour.value)
    assert f"A_t={facts.calls_after_anomaly}" in diagnosis.explanation
    assert "tau_A=3, tau_R=1.00" in diagnosis.explanation


def test_failed_without_an_anomaly_is_early_abandonment_and_says_so() -> None:
    facts = label([[("get_weather", W, "ok")], [("get_forecast", W, "ok")]])
    assert facts.action is PostFailureAction.NONE and facts.calls_after_anomaly == 0
    diagnosis = classify(facts, DEFAULT)
    assert diagnosis.behaviour is FailureBehaviour.EARLY_ABANDONMENT
    assert "no anomaly" in diagnosis.explanation


def test_a_correct_episode_gets_no_behaviour() -> None:
    facts = observe(episode([[("get_weather", W, "error")]]), task(), correct=True)
    diagnosis = classify(facts, DEFAULT)
    assert diagnosis.behaviour is None and diagnosis.explanation.startswith("correct")


def test_median_thresholds_on_a_known_set() -> None:
    # A_t = 0, 1, 2, 4, 5 and R_t = 0.5, 1, 1.5, 2.5, 3 over 2 reference calls
    def after(n: int) -> TraceFacts:
        turns = [[("get_weather", W, "error")]] + [[("get_weather", W, "ok")]] * n
        return label(turns)

    failed = [after(n) for n in (0, 1, 2, 4, 5)]
    passed = observe(episode([[("get_weather", W, "error")]] * 9), task(), correct=True)
    thresholds = resolve_thresholds([*failed, passed], "median")
    assert (thresholds.tau_a, thresholds.tau_r, thresholds.failed) == (2.0, 1.5, 5)
    labels = [d.behaviour for d in diagnose([*failed, passed], "median")]
    assert labels == [
        FailureBehaviour.EARLY_ABANDONMENT,  # A_t = 0
        FailureBehaviour.UNDER_UTILIZATION,  # A_t = 1 < 2 and R_t = 1.0 < 1.5
        FailureBehaviour.INEFFECTIVE_CONTINUATION,  # A_t = 2 >= 2
        FailureBehaviour.INEFFECTIVE_CONTINUATION,
        FailureBehaviour.INEFFECTIVE_CONTINUATION,
        None,  # correct
    ]


def test_median_of_an_empty_failed_set_keeps_the_defaults() -> None:
    passed = observe(episode([[("get_weather", W, "error")]]), task(), correct=True)
    thresholds = resolve_thresholds([passed], "median")
    assert (thresholds.tau_a, thresholds.tau_r, thresholds.failed) == (3.0, 1.0, 0)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("default", Thresholds()),
        ("median", "median"),
        ("MEDIAN", "median"),
        ("2,0.5", Thresholds(tau_a=2, tau_r=0.5, rule="given")),
        (" 4 , 1.25 ", Thresholds(tau_a=4, tau_r=1.25, rule="given")),
    ],
)
def test_parse_thresholds(text: str, expected: object) -> None:
    assert parse_thresholds(text) == expected


@pytest.mark.parametrize("text", ["", "mean", "3", "3,1,2", "a,b", "-1,1", "nan,1", "3,inf"])
def test_bad_thresholds_are_bad_input(text: str) -> None:
    with pytest.raises(BadInput, match="--thresholds must be"):
        parse_thresholds(text)


def test_diagnose_episodes_skips_clean_arms_and_harness_errors() -> None:
    turns = [[("get_weather", W, "error")]]
    episodes = [
        episode(turns, key="a"),
        episode(turns, key="b", arm="clean"),
        episode(turns, key="c", arm="hint"),
        episode(turns, key="d", arm="oracle-label").model_copy(
            update={"status": EpisodeStatus.ERROR}
        ),
    ]
    diagnoses = diagnose_episodes(episodes, {"t1": task()}, {"a": False, "c": True})
    assert [d.facts.key for d in diagnoses] == ["a", "c"]


def test_tables_give_shares_per_model_and_overall() -> None:
    def one(key: str, model: str, turns: list[list[Call]], correct: bool) -> TraceFacts:
        facts = observe(episode(turns, key=key), task(), correct)
        return facts.model_copy(update={"model": model})

    facts = [
        one("1", "a", [[("get_weather", W, "error")]], False),  # terminate, early
        one("2", "a", [[("get_weather", W, "error")], [("get_weather", W, "ok")]], True),
        one("3", "b", [[("get_weather", W, "ok")]], False),  # none, early
        one("4", "b", [[("get_weather", W, "error")], [("backup_weather", W, "ok")]], False),
    ]
    frame = diagnostics_frame(diagnose(facts))
    assert list(frame["behaviour"]) == [
        "early_abandonment",
        "",
        "early_abandonment",
        "answer_synthesis_failure",
    ]
    actions = action_table(frame).set_index("model")
    assert actions.loc["a", "episodes"] == 2 and actions.loc["a", "anomalies"] == 2
    assert actions.loc["a", "terminate"] == 0.5 and actions.loc["a", "retry_same_args"] == 0.5
    assert actions.loc["b", "anomalies"] == 1 and actions.loc["b", "switch"] == 1.0
    behaviours = behaviour_table(frame).set_index("model")
    assert list(behaviours.index) == ["all", "a", "b"]
    assert behaviours.loc["all", "failed"] == 3
    assert behaviours.loc["all", "early_abandonment"] == round(2 / 3, 4)
    assert behaviours.loc["b", "answer_synthesis_failure"] == 0.5
