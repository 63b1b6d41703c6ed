"""ToolBench-X scoring: one record per episode, then its breakdowns over them.

Labels are pure functions of stored episodes and task specs: nothing here calls a model.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from pydantic import BaseModel

from toolchaos.core.types import TaskSpec
from toolchaos.hazards import tier_of
from toolchaos.scoring.answer import normalize, score_answer
from toolchaos.scoring.tables import episode_record

ARM_ORDER = ("clean", "hazard", "hint", "oracle-label")


class EpisodeScore(BaseModel):
    """The score of one episode: value, the checks behind it and a sentence saying why."""

    correct: bool
    exact: bool
    contains: bool
    hedged: bool
    state_match: bool | None
    explanation: str


def score_episode(final_answer: str, end_state: str | None, task: TaskSpec) -> EpisodeScore:
    """Score one finished episode against its task's reference.

    A task that writes is correct when the end state matches the reference end state; any
    other task when the answer contains the reference answer (or an alias) after
    normalization and does not hedge across several candidates.
    """
    ref = task.reference
    answer = score_answer(final_answer, ref.answer, ref.aliases)
    if ref.writes:
        state_match = end_state is not None and end_state == ref.end_state
        why = (
            "the world's end state matches the reference end state"
            if state_match
            else "the world's end state differs from the reference end state"
        )
        return EpisodeScore(
            correct=state_match,
            exact=answer.exact,
            contains=answer.contains,
            hedged=answer.hedged,
            state_match=state_match,
            explanation=why,
        )
    return EpisodeScore(
        correct=answer.correct,
        exact=answer.exact,
        contains=answer.contains,
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


def breakdown(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Accuracy of finished episodes per model and ``by`` (workflow, family...), one column per arm.

    ``n`` is the number of episodes behind each row in the first arm shown (tasks times
    samples).
    """
    finished = frame[frame["error"] == 0]
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
    finished = frame[(frame["error"] == 0) & (frame["family"] != "none")]
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
