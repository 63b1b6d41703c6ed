"""ToolBench-X scoring: one record per episode, then its breakdowns over them.

Labels are pure functions of stored episodes and task specs: nothing here calls a model.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation
from typing import Any

import pandas as pd
from pydantic import BaseModel

from toolchaos.core.types import TaskSpec
from toolchaos.hazards import tier_of
from toolchaos.scoring.answer import AnswerScore, normalize, score_answer
from toolchaos.scoring.tables import episode_record, scorable, scorable_mask

ARM_ORDER = ("clean", "hazard", "hint", "oracle-label")
# A prompt that says how to round ("to the cent", "two decimal places", "rounded to the
# nearest ...") fixes the answer's precision; one that says none of these leaves it free.
_PRECISION_WORDS = re.compile(
    r"\b(?:decimals?|d\.p\.|cents?|nearest|round(?:ed|ing)?|whole\s+numbers?|significant"
    r"|precision|precisely|exact(?:ly)?)\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![\w])")
# A rounding of the reference must keep this many significant digits ("10.4" for 10.42,
# not "10"), or all of the reference's own where it has fewer.
ROUNDED_DIGITS = 3


def fixes_precision(prompt: str) -> bool:
    """Tell whether a prompt says to what precision its answer is given."""
    return bool(_PRECISION_WORDS.search(prompt))


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def _places(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def _digits(value: Decimal) -> int:
    return len(value.normalize().as_tuple().digits) if value else 1


def rounding_aliases(final_answer: str, task: TaskSpec) -> list[str]:
    """The numbers of an answer that are the reference at a precision the task leaves open.

    Computed from the reference and its answer spec at scoring time, never typed into a
    task (docs/scoring.md, "Rounding"):

    - where the prompt fixes no precision, a number within half a unit of its own last
      place of the reference, keeping at least ``ROUNDED_DIGITS`` significant digits, is
      the reference rounded ("10.4" for 10.42);
    - where the answer is a sum of ``n`` addends that are themselves rounded to the
      answer's ``p`` decimals (their values have decimals), adding first and rounding last
      can differ from the reference (the sum of the rounded addends) by up to
      ``(n + 1) // 2`` units of the last place, so a number of ``p`` decimals that close is
      the same sum in the other rounding order (604.67 for 604.66).
    """
    ref = task.reference
    reference = _decimal(ref.answer)
    if reference is None or not reference.is_finite():
        return []
    spec = ref.answer_spec
    addends = [_decimal(d) for d in ref.distractors]
    sum_slack = 0
    if (
        spec.op == "sum"
        and spec.round
        and len(spec.refs) > 1
        and addends
        and all(a is not None and a != a.to_integral_value() for a in addends)
    ):
        sum_slack = (len(spec.refs) + 1) // 2
    free = not fixes_precision(task.prompt)
    others = [a for a in addends if a is not None and a.is_finite()]
    out = []
    for match in _NUMBER.finditer(final_answer):
        value = _decimal(match.group())
        if value is None or value == reference:
            continue
        places = _places(value)
        gap = abs(value - reference)
        unit = Decimal(1).scaleb(-places)
        if (
            free
            and places < _places(reference)
            and _digits(value) >= min(ROUNDED_DIGITS, _digits(reference))
            and gap * 2 <= unit
            # a rounding that another candidate of the task also rounds to names neither
            and not any(abs(value - other) * 2 <= unit for other in others)
        ) or (sum_slack and places == spec.round and gap <= unit * sum_slack):
            out.append(match.group())
    return out


class EpisodeScore(BaseModel):
    """The score of one episode: value, the checks behind it and a sentence saying why."""

    correct: bool
    exact: bool
    contains: bool
    hedged: bool
    state_match: bool | None
    explanation: str
    committed: bool = False
    """The answer's conclusion commits to the reference (see :func:`score_answer`)."""
    readout: bool | None = None
    """For a task that writes and asks a question: whether the answer is right."""


def _state_difference(got: str | None, want: str | None, task: TaskSpec) -> str:
    """One sentence saying how an episode's written fields differ from the expected ones."""
    expected = task.reference.expected_writes or []
    try:
        seen = json.loads(got or "")
        wanted = json.loads(want or "")
    except json.JSONDecodeError:
        return "the episode's end state is not a view of the task's writes"
    for write, mine, theirs in zip(expected, seen["rows"], wanted["rows"], strict=False):
        where = f"{write.table} {write.key}" if write.key else f"a new {write.table} row"
        if mine == theirs:
            continue
        if mine is None:
            return f"the write to {where} is missing"
        if theirs is None:
            return f"{where} should have been deleted"
        field = next(f for f in theirs if mine.get(f) != theirs[f])
        return f"{where} has {field}={mine.get(field)!r}, the task needs {theirs[field]!r}"
    others = ", ".join(seen.get("other", []))
    return f"the episode also wrote {others}, which the task does not ask for"


def _score_writes(answer: AnswerScore, end_state: str | None, task: TaskSpec) -> EpisodeScore:
    """A task that writes: its fields (or, for v1 tasks, the whole state), then its readout."""
    ref = task.reference
    state_match = end_state is not None and end_state == ref.end_state
    if ref.expected_writes is None:  # a v1 task: the whole world's state
        why = (
            "the world's end state matches the reference end state"
            if state_match
            else "the world's end state differs from the reference end state"
        )
        readout = None
    else:
        why = (
            "the fields the task writes match the reference"
            if state_match
            else _state_difference(end_state, ref.end_state, task)
        )
        readout = answer.correct if ref.answer else None
        if readout is not None:
            why += f"; the readout: {answer.explanation}"
    return EpisodeScore(
        correct=state_match and readout is not False,
        exact=answer.exact,
        contains=answer.contains,
        committed=answer.committed,
        hedged=answer.hedged,
        state_match=state_match,
        readout=readout,
        explanation=why[0].upper() + why[1:],
    )


def score_episode(
    final_answer: str, end_state: str | None, task: TaskSpec, *, rounding: bool = True
) -> EpisodeScore:
    """Score one finished episode against its task's reference.

    A task that writes is correct when the fields its writes are about match the
    reference (v1 tasks, without ``expected_writes``: when the whole end state does) and,
    if it also asks a question, when the answer is right too. Any other task is correct
    when the answer commits to the reference answer (or an alias) after normalization and
    does not hedge across several candidates; with ``rounding``, a rounding the task leaves
    open counts as the reference (:func:`rounding_aliases`).
    """
    ref = task.reference
    aliases = [*ref.aliases, *(rounding_aliases(final_answer, task) if rounding else [])]
    answer = score_answer(final_answer, ref.answer, aliases, ref.distractors)
    if ref.writes:
        return _score_writes(answer, end_state, task)
    return EpisodeScore(
        correct=answer.correct,
        exact=answer.exact,
        contains=answer.contains,
        committed=answer.committed,
        hedged=answer.hedged,
        state_match=None,
        explanation=answer.explanation,
    )


def score_frame(summaries: list[dict[str, Any]], tasks: dict[str, TaskSpec]) -> pd.DataFrame:
    """Score every stored episode summary; one row per episode with task attributes."""
    records = []
    for row in summaries:
        task = tasks[row["task_id"]]
        finished = row["status"] == "finished"
        score = score_episode(row["final_answer"], row["end_state"], task) if finished else None
        records.append(
            episode_record(
                row,
                bool(score and score.correct),
                exact=int(bool(score and score.exact)),
                contains=int(bool(score and score.contains)),
                committed=int(bool(score and score.committed)),
                answered=int(bool(task.reference.answer)),
                state_match=None if score is None else score.state_match,
                explanation=score.explanation if score else row["error"],
                vote_key=(row["end_state"] or "")
                if task.reference.writes
                else normalize(row["final_answer"]),
                workflow=task.workflow,
                domain=task.domain,
                subtopic=task.subtopic,
                family=task.hazard.family.value if task.hazard else "none",
                variant=task.hazard.variant if task.hazard else "none",
                tier=tier_of(task.hazard) if task.hazard else "none",
            )
        )
    return pd.DataFrame.from_records(records)


def answer_measures(frame: pd.DataFrame) -> pd.DataFrame:
    """Per model and arm, over finished episodes of tasks with an answer: the three measures.

    ``exact`` (the whole normalized answer is the reference or an alias), ``contains``
    (it is found anywhere in the answer) and ``committed`` (the answer's conclusion states
    it; the rule the accuracy uses, before the hedge check), as shares of the episodes.
    """
    finished = frame[scorable_mask(frame) & (frame["answered"] == 1)]
    if finished.empty:
        return pd.DataFrame()
    grouped = finished.groupby(["model", "arm"], sort=True)
    table = grouped[["exact", "contains", "committed", "correct"]].mean().round(4)
    table.insert(0, "n", grouped.size())
    return table.reset_index()


def breakdown(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Accuracy of finished episodes per model and ``by`` (workflow, family...), one column per arm.

    ``n`` is the number of episodes behind each row in the first arm shown (tasks times
    samples).
    """
    finished = scorable(frame)
    if finished.empty:
        return pd.DataFrame()
    pivot = finished.pivot_table(
        index=["model", by], columns="arm", values="correct", aggfunc="mean"
    ).round(4)
    arms = [a for a in ARM_ORDER if a in pivot.columns]
    pivot = pivot[arms]
    counts = finished[finished["arm"] == arms[0]].groupby(["model", by]).size()
    pivot.insert(0, "n", counts.reindex(pivot.index).fillna(0).astype(int))
    pivot.columns.name = None
    return pivot.reset_index()


def arm_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per model: accuracy per arm, degradation (clean - hazard) and hint gain (hint - hazard).

    Degradation and hint gain are computed on the tasks that carry a hazard, so the three
    arms compare the same tasks.
    """
    finished = frame[scorable_mask(frame) & (frame["family"] != "none")]
    if finished.empty:
        return pd.DataFrame()
    pivot = finished.pivot_table(
        index="model", columns="arm", values="correct", aggfunc="mean"
    ).round(4)
    pivot = pivot[[a for a in ARM_ORDER if a in pivot.columns]]
    if "clean" in pivot and "hazard" in pivot:
        pivot["degradation"] = (pivot["clean"] - pivot["hazard"]).round(4)
    if "hint" in pivot and "hazard" in pivot:
        pivot["hint_gain"] = (pivot["hint"] - pivot["hazard"]).round(4)
    pivot.columns.name = None
    return pivot.reset_index()
