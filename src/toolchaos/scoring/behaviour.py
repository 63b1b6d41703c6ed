"""Failure behaviour from a trajectory: first anomaly, post-failure action, A_t and R_t.

Definitions (docs/architecture.md, Metrics; ToolBench-X, arXiv 2606.25819), for any suite whose
episodes run under hazards:

* The *first anomaly* is the first trace entry whose observation is a tool error or
  carries hazard events.
* The *post-failure action* is the agent's next move after it: ``retry_same_args`` (the
  same tool with the same arguments), ``retry_changed_args`` (the same tool, other
  arguments), ``switch`` (another tool) or ``terminate`` (no further call: a final answer
  or a stop); ``none`` when the episode had no anomaly. The next move is the next
  assistant turn that calls tools: calls issued in the same turn as the anomalous one were
  decided before the agent saw it. When that turn holds several calls, a call of the
  anomalous tool decides (same arguments first), so an agent that retries while also
  calling something else counts as retrying.
* For failed episodes, ``A_t`` is the number of tool calls made after the first anomaly
  (in later turns; 0 without an anomaly) and ``R_t`` the episode's tool calls over the
  reference's calls (at least 1; each suite says where its reference comes from). In this
  order: an invalid or empty final answer (nothing left after normalization), or
  ``A_t = 0``, is ``early_abandonment``; ``A_t >= tau_A`` is ``ineffective_continuation``;
  ``R_t < tau_R`` is ``under_utilization``; anything else is
  ``answer_synthesis_failure``. Defaults ``tau_A = 3``, ``tau_R = 1.00``; the ``median``
  rule takes both as medians over the failed set being labelled (all models pooled, so
  models are compared under the same thresholds).

Everything here is a pure function of stored episodes (their JSON) and numbers a suite
gives (the reference call count, the hazard family).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from toolchaos.core.errors import BadInput
from toolchaos.scoring.answer import normalize

if TYPE_CHECKING:
    import pandas as pd


class PostFailureAction(StrEnum):
    """The agent's next move after the first anomaly."""

    RETRY_SAME_ARGS = "retry_same_args"
    RETRY_CHANGED_ARGS = "retry_changed_args"
    SWITCH = "switch"
    TERMINATE = "terminate"
    NONE = "none"


class FailureBehaviour(StrEnum):
    """How a failed hazard-arm episode failed."""

    EARLY_ABANDONMENT = "early_abandonment"
    INEFFECTIVE_CONTINUATION = "ineffective_continuation"
    UNDER_UTILIZATION = "under_utilization"
    ANSWER_SYNTHESIS_FAILURE = "answer_synthesis_failure"


ACTION_ORDER = tuple(a.value for a in PostFailureAction if a is not PostFailureAction.NONE)
BEHAVIOUR_ORDER = tuple(b.value for b in FailureBehaviour)


class Thresholds(BaseModel):
    """The two thresholds of the failure-behaviour rules and where they came from."""

    model_config = ConfigDict(frozen=True)

    tau_a: float = 3.0
    tau_r: float = 1.0
    rule: Literal["default", "median", "given"] = "default"
    failed: int | None = None

    def describe(self) -> str:
        """One phrase, e.g. ``tau_A=3, tau_R=1.00 (default)``."""
        source: str = self.rule
        if self.rule == "median":
            source = f"medians over {self.failed} failed episodes"
        return f"tau_A={self.tau_a:g}, tau_R={self.tau_r:.2f} ({source})"


ThresholdRule = Thresholds | Literal["median"]


def parse_thresholds(text: str) -> ThresholdRule:
    """Read a ``--thresholds`` value: ``default``, ``median`` or ``tau_a,tau_r``.

    Raises:
        BadInput: For anything else, or negative numbers.
    """
    value = text.strip().casefold()
    if value == "default":
        return Thresholds()
    if value == "median":
        return "median"
    parts = value.split(",")
    numbers: list[float] = []
    for part in parts:
        try:
            numbers.append(float(part))
        except ValueError:
            break
    if (
        len(parts) != 2
        or len(numbers) != 2
        or any(not n >= 0 or n == float("inf") for n in numbers)
    ):
        raise BadInput(
            "--thresholds must be 'default', 'median' or two non-negative numbers "
            f"'tau_a,tau_r' such as '3,1.0'; got {text!r}"
        )
    return Thresholds(tau_a=numbers[0], tau_r=numbers[1], rule="given")


class TraceFacts(BaseModel):
    """What one hazard-arm episode's trace shows, before any threshold is applied."""

    key: str
    model: str
    arm: str
    task_id: str
    sample: int
    family: str
    correct: bool
    anomaly_index: int | None
    anomaly_tool: str | None
    anomaly: str
    action: PostFailureAction
    action_detail: str
    tool_calls: int
    calls_after_anomaly: int
    reference_calls: int
    call_ratio: float
    answer_invalid: bool


class Diagnosis(BaseModel):
    """The labels of one hazard-arm episode, with the facts and thresholds behind them.

    ``behaviour`` is None for an episode that succeeded; ``explanation`` says why.
    """

    facts: TraceFacts
    behaviour: FailureBehaviour | None
    explanation: str
    thresholds: Thresholds


class _Call:
    """One trace entry, reduced to what the rules read."""

    __slots__ = ("arguments", "error", "events", "name", "turn")

    def __init__(self, name: str, arguments: Any, error: str, events: list[str], turn: int):
        self.name = name
        self.arguments = arguments
        self.error = error
        self.events = events
        self.turn = turn


def _parsed(raw: Any) -> Any:
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except ValueError:
            return raw
    return raw


def _same_arguments(a: Any, b: Any) -> bool:
    # compare what the model meant, not how it spaced or ordered its JSON
    return bool(a == b or _parsed(a) == _parsed(b))


def _error_text(content: Any) -> str:
    if isinstance(content, Mapping) and isinstance(content.get("error"), Mapping):
        body = content["error"]
        return " ".join(str(body[k]) for k in ("code", "type") if k in body) or "error"
    return "error"


def _turns(data: Mapping[str, Any]) -> list[int]:
    """The assistant turn of each trace entry, by walking call ids through the messages.

    A call whose id no later assistant message carries (the decision protocol's call of
    an unknown tool) is a turn of its own. Ids may repeat across turns; the walk only
    moves forward.
    """
    batches = [
        [str(c.get("id")) for c in m.get("tool_calls") or []]
        for m in data.get("messages") or []
        if m.get("role") == "assistant" and m.get("tool_calls")
    ]
    turns: list[int] = []
    turn, pointer = -1, 0
    remaining: list[str] = []
    for entry in data.get("trace") or []:
        call_id = str(entry["call"].get("id"))
        if call_id in remaining:
            remaining.remove(call_id)
            turns.append(turn)
            continue
        turn += 1
        remaining = []
        for index in range(pointer, len(batches)):
            if call_id in batches[index]:
                remaining = list(batches[index])
                remaining.remove(call_id)
                pointer = index + 1
                break
        turns.append(turn)
    return turns


def _calls(data: Mapping[str, Any]) -> list[_Call]:
    calls = []
    for entry, turn in zip(data.get("trace") or [], _turns(data), strict=True):
        observation = entry["observation"]
        events = [
            f"{e.get('family')}/{e.get('variant')}" for e in observation.get("hazard_events") or []
        ]
        error = "" if observation.get("ok") else _error_text(observation.get("content"))
        call = entry["call"]
        calls.append(_Call(call["name"], call.get("arguments"), error, events, turn))
    return calls


def _next_move(calls: Sequence[_Call], index: int) -> tuple[PostFailureAction, str]:
    failed = calls[index]
    later = [c for c in calls[index + 1 :] if c.turn > failed.turn]
    if not later:
        return PostFailureAction.TERMINATE, "no tool call after the anomaly"
    batch = [c for c in later if c.turn == later[0].turn]
    same_tool = [c for c in batch if c.name == failed.name]
    if any(_same_arguments(c.arguments, failed.arguments) for c in same_tool):
        return PostFailureAction.RETRY_SAME_ARGS, f"called {failed.name} again, same arguments"
    if same_tool:
        return PostFailureAction.RETRY_CHANGED_ARGS, f"called {failed.name} again, new arguments"
    names = ", ".join(sorted({c.name for c in batch}))
    return PostFailureAction.SWITCH, f"called {names} instead of {failed.name}"


def trace_facts(
    data: Mapping[str, Any], *, reference_calls: int, family: str, correct: bool
) -> TraceFacts:
    """Read the diagnostic facts of one hazard-arm episode from its stored JSON.

    Args:
        data: The episode as JSON data (``Episode.model_dump(mode="json")`` or
            :meth:`toolchaos.runner.store.Store.episode_json` parsed).
        reference_calls: The reference's tool calls (``R_t``'s denominator; at least 1 is
            used).
        family: The hazard family the row is filed under.
        correct: Whether the episode was scored correct.
    """
    calls = _calls(data)
    first = next((i for i, c in enumerate(calls) if c.error or c.events), None)
    reference_calls = max(1, reference_calls)
    if first is None:
        action, detail = PostFailureAction.NONE, "no tool error or hazard event was observed"
        after, anomaly, tool = 0, "", None
    else:
        action, detail = _next_move(calls, first)
        call = calls[first]
        after = sum(1 for c in calls[first + 1 :] if c.turn > call.turn)
        kinds = ([f"error {call.error}"] if call.error else []) + [
            f"hazard {e}" for e in call.events
        ]
        anomaly, tool = f"call {first + 1} ({call.name}): {'; '.join(kinds)}", call.name
    return TraceFacts(
        key=str(data["key"]),
        model=str(data["model"]),
        arm=str(data["arm"]),
        task_id=str(data["task_id"]),
        sample=int(data.get("sample") or 0),
        family=family,
        correct=correct,
        anomaly_index=first,
        anomaly_tool=tool,
        anomaly=anomaly,
        action=action,
        action_detail=detail,
        tool_calls=len(calls),
        calls_after_anomaly=after,
        reference_calls=reference_calls,
        call_ratio=len(calls) / reference_calls,
        answer_invalid=not normalize(str(data.get("final_answer") or "")),
    )


def resolve_thresholds(facts: Iterable[TraceFacts], rule: ThresholdRule) -> Thresholds:
    """The thresholds ``rule`` gives for a set of episodes.

    For ``median``: the medians of ``A_t`` and ``R_t`` over the failed episodes among
    ``facts`` (the defaults when none failed).
    """
    if isinstance(rule, Thresholds):
        return rule
    failed = [f for f in facts if not f.correct]
    if not failed:
        return Thresholds(rule="median", failed=0)
    return Thresholds(
        tau_a=float(statistics.median(f.calls_after_anomaly for f in failed)),
        tau_r=float(statistics.median(f.call_ratio for f in failed)),
        rule="median",
        failed=len(failed),
    )


def classify(facts: TraceFacts, thresholds: Thresholds) -> Diagnosis:
    """Label one episode's failure behaviour (None when it succeeded), saying why."""
    a_t, r_t = facts.calls_after_anomaly, facts.call_ratio
    tau = f"tau_A={thresholds.tau_a:g}, tau_R={thresholds.tau_r:.2f}"
    measured = f"A_t={a_t}, R_t={r_t:.2f} ({facts.tool_calls}/{facts.reference_calls} calls)"
    behaviour: FailureBehaviour | None
    if facts.correct:
        behaviour, why = None, "correct"
    elif facts.answer_invalid:
        behaviour, why = FailureBehaviour.EARLY_ABANDONMENT, "the final answer is empty or invalid"
    elif a_t == 0:
        why = (
            "no tool call after the first anomaly"
            if facts.anomaly_index is not None
            else "no anomaly was observed, so no call came after one"
        )
        behaviour = FailureBehaviour.EARLY_ABANDONMENT
    elif a_t >= thresholds.tau_a:
        behaviour, why = FailureBehaviour.INEFFECTIVE_CONTINUATION, "A_t >= tau_A"
    elif r_t < thresholds.tau_r:
        behaviour, why = FailureBehaviour.UNDER_UTILIZATION, "A_t < tau_A and R_t < tau_R"
    else:
        behaviour, why = FailureBehaviour.ANSWER_SYNTHESIS_FAILURE, "A_t < tau_A and R_t >= tau_R"
    label = behaviour.value if behaviour else "correct"
    # every part is already validated; constructing skips revalidating them per episode
    return Diagnosis.model_construct(
        facts=facts,
        behaviour=behaviour,
        explanation=f"{label}: {why}; {measured}; {tau}",
        thresholds=thresholds,
    )


def diagnose(facts: Sequence[TraceFacts], rule: ThresholdRule | None = None) -> list[Diagnosis]:
    """Label every episode, with thresholds resolved once over the whole set.

    Args:
        facts: The facts of the episodes to label (:func:`trace_facts`).
        rule: Fixed thresholds (the defaults when None), or ``"median"``.
    """
    thresholds = resolve_thresholds(facts, rule or Thresholds())
    return [classify(f, thresholds) for f in facts]


DIAGNOSIS_COLUMNS = (
    "key",
    "model",
    "arm",
    "task_id",
    "sample",
    "family",
    "correct",
    "anomaly",
    "anomaly_tool",
    "action",
    "action_detail",
    "tool_calls",
    "calls_after_anomaly",
    "reference_calls",
    "call_ratio",
    "answer_invalid",
    "behaviour",
    "explanation",
    "tau_a",
    "tau_r",
)


def diagnostics_frame(diagnoses: Sequence[Diagnosis]) -> pd.DataFrame:
    """One row per diagnosed episode (``behaviour`` is ``""`` for a correct one)."""
    import pandas as pd  # imported here: a run plays episodes without pandas (0.2 s to load)

    rows = []
    for d in diagnoses:
        f = d.facts
        rows.append(
            (
                f.key,
                f.model,
                f.arm,
                f.task_id,
                f.sample,
                f.family,
                f.correct,
                f.anomaly,
                f.anomaly_tool or "",
                f.action.value,
                f.action_detail,
                f.tool_calls,
                f.calls_after_anomaly,
                f.reference_calls,
                round(f.call_ratio, 4),
                f.answer_invalid,
                d.behaviour.value if d.behaviour else "",
                d.explanation,
                d.thresholds.tau_a,
                d.thresholds.tau_r,
            )
        )
    return pd.DataFrame.from_records(rows, columns=list(DIAGNOSIS_COLUMNS))


def action_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per model: hazard-arm episodes, those with an anomaly, and the share of each action.

    Shares are over the episodes with an anomaly (0 when a model saw none).
    """
    import pandas as pd

    if frame.empty:
        return pd.DataFrame()
    models = sorted(frame["model"].unique())
    anomalous = frame[frame["action"] != PostFailureAction.NONE.value]
    table = _shares(anomalous, "action", ACTION_ORDER, models, "anomalies")
    table.insert(1, "episodes", frame.groupby("model").size().reindex(models).to_numpy())
    return table


def behaviour_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The failure-behaviour distribution of failed episodes, over all models then per model.

    The first row (model ``all``) pools every failed episode.
    """
    import pandas as pd

    failed = frame[frame["behaviour"] != ""] if not frame.empty else frame
    if failed.empty:
        return pd.DataFrame()
    models = sorted(failed["model"].unique())
    overall = _shares(failed.assign(model="all"), "behaviour", BEHAVIOUR_ORDER, ["all"], "failed")
    per_model = _shares(failed, "behaviour", BEHAVIOUR_ORDER, models, "failed")
    return pd.concat([overall, per_model], ignore_index=True)


def _shares(
    frame: pd.DataFrame, column: str, order: Sequence[str], models: list[str], count_name: str
) -> pd.DataFrame:
    import pandas as pd

    counts = pd.crosstab(frame["model"], frame[column]) if not frame.empty else pd.DataFrame()
    counts = counts.reindex(index=models, columns=list(order), fill_value=0)
    n = counts.sum(axis=1)
    shares = counts.div(n.where(n > 0, 1), axis=0).round(4)
    shares.insert(0, count_name, n.astype(int))
    shares.index.name = "model"
    shares.columns.name = None
    return shares.reset_index()
