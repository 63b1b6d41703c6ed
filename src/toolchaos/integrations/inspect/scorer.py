"""The scorer: the suite's own scoring of the played episode, labels in the metadata."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState

from toolchaos.core.types import Episode, EpisodeStatus
from toolchaos.integrations.inspect import EPISODE_KEY
from toolchaos.runner.store import Store
from toolchaos.suites import get_suite
from toolchaos.suites.base import ReportOptions

LABEL_COLUMNS = ("key", "suite", "model", "arm", "task_id", "sample", "status", "error")


def _plain(value: Any) -> Any:
    """A frame cell as JSON data (numpy scalars unwrapped, NaN as None)."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value


def score_episode(episode: Episode, task: Any) -> dict[str, Any]:
    """The suite's scored row of one episode, as a report would compute it.

    The episode goes through an in-memory run store, so the suite scores it exactly as it
    scores a stored run (``SuiteReport.score``).
    """
    suite = get_suite(episode.suite)
    contributor = suite.report(ReportOptions())
    if contributor is None:
        return {"correct": None}
    store = Store(Path(":memory:"))
    try:
        store.put_tasks([task])
        store.put(episode)
        frame = contributor.score(store.summaries(), {task.id: task}, store)
    finally:
        store.close()
    if frame.empty:
        return {"correct": None}
    return {str(k): _plain(v) for k, v in frame.iloc[0].to_dict().items()}


@scorer(metrics=[accuracy(), stderr()])
def toolchaos_scorer() -> Scorer:
    """Score the played episode with its suite's scoring; harness errors score no answer.

    The score's metadata holds the suite's labels of the episode (the report's row: the
    correctness checks, hazard family, workflow, failure labels, ...).
    """

    async def score(state: TaskState, target: Target) -> Score:
        text = state.store.get(EPISODE_KEY)
        if text is None:
            return Score(value=INCORRECT, explanation="no toolchaos episode was played")
        episode = Episode.model_validate_json(text)
        suite = get_suite(episode.suite)
        row = score_episode(episode, suite.parse_task(state.metadata["toolchaos_task"]))
        if episode.status is EpisodeStatus.ERROR:
            explanation = f"harness error (not the model's): {episode.error}"
        elif episode.status is EpisodeStatus.INDETERMINATE:
            explanation = f"indeterminate (a fault toolchaos did not inject): {episode.error}"
        else:
            explanation = (
                f"{len(episode.trace)} tool calls, {len(episode.hazard_events)} hazard events"
            )
        return Score(
            value=CORRECT if row.get("correct") in (True, 1) else INCORRECT,
            answer=episode.final_answer,
            explanation=explanation,
            metadata={"toolchaos": row},
        )

    return score
