"""ToolBench-X trajectory diagnostics: first anomaly, post-failure action, failure behaviour.

The definitions and rules are :mod:`toolchaos.scoring.behaviour` (docs/architecture.md,
Metrics), shared with the own-tools report; this module only supplies what ToolBench-X
decides. Diagnosed are the finished episodes of the hazard arms (``hazard``, ``hint``,
``oracle-label``); an episode's ``R_t`` reference is its task's recipe path
(``len(task.reference.steps)``) and its family the task's hazard family. The rules are
re-exported here under the names this suite has always used.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from toolchaos.core.types import Episode, TaskSpec
from toolchaos.env.runtime import HAZARD_ARMS
from toolchaos.scoring.behaviour import (
    ACTION_ORDER,
    BEHAVIOUR_ORDER,
    DIAGNOSIS_COLUMNS,
    Diagnosis,
    FailureBehaviour,
    PostFailureAction,
    ThresholdRule,
    Thresholds,
    TraceFacts,
    action_table,
    behaviour_table,
    classify,
    diagnose,
    diagnostics_frame,
    parse_thresholds,
    resolve_thresholds,
    trace_facts,
)

__all__ = [
    "ACTION_ORDER",
    "BEHAVIOUR_ORDER",
    "DIAGNOSIS_COLUMNS",
    "HAZARD_ARMS",
    "Diagnosis",
    "FailureBehaviour",
    "PostFailureAction",
    "ThresholdRule",
    "Thresholds",
    "TraceFacts",
    "action_table",
    "behaviour_table",
    "classify",
    "diagnose",
    "diagnose_episodes",
    "diagnostics_frame",
    "observe",
    "parse_thresholds",
    "resolve_thresholds",
]


def observe(episode: Episode | Mapping[str, Any], task: TaskSpec, correct: bool) -> TraceFacts:
    """Read the diagnostic facts of one hazard-arm episode.

    Args:
        episode: The episode, or its stored JSON already parsed
            (:meth:`toolchaos.runner.store.Store.episode_json`).
        task: The episode's task (for the reference call count and hazard family).
        correct: Whether the episode was scored correct
            (:func:`toolchaos.suites.toolbench_x.scoring.score_frame`).
    """
    data: Mapping[str, Any] = (
        episode.model_dump(mode="json") if isinstance(episode, Episode) else episode
    )
    return trace_facts(
        data,
        reference_calls=len(task.reference.steps),
        family=task.hazard.family.value if task.hazard else "none",
        correct=correct,
    )


def diagnose_episodes(
    episodes: Iterable[Episode],
    tasks: Mapping[str, TaskSpec],
    correct: Mapping[str, bool],
    rule: ThresholdRule | None = None,
) -> list[Diagnosis]:
    """Diagnose the finished hazard-arm episodes among ``episodes``.

    Args:
        episodes: Any episodes; other arms and harness errors are skipped.
        tasks: Task specs by id.
        correct: Whether each episode (by key) was scored correct.
        rule: Fixed thresholds (the defaults when None), or ``"median"``.
    """
    facts = [
        observe(e, tasks[e.task_id], correct[e.key])
        for e in episodes
        if e.arm in HAZARD_ARMS and e.status.value == "finished"
    ]
    return diagnose(facts, rule)
