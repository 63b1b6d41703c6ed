"""ToolBench-X trajectory diagnostics: first anomaly, post-failure action, failure behaviour.

Definitions (docs/architecture.md, Metrics; ToolBench-X, arXiv 2606.25819), on episodes of the
hazard arms (``hazard``, ``hint``, ``oracle-label``) that finished:

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
  reference's calls (``len(task.reference.steps)``, at least 1). In this order: an invalid
  or empty final answer (nothing left after normalization), or ``A_t = 0``, is
  ``early_abandonment``; ``A_t >= tau_A`` is ``ineffective_continuation``;
  ``R_t < tau_R`` is ``under_utilization``; anything else is
  ``answer_synthesis_failure``. Defaults ``tau_A = 3``, ``tau_R = 1.00``; the ``median``
  rule takes both as medians over the failed set being labelled (all models pooled, so
  models are compared under the same thresholds).

Everything here is a pure function of episodes (or their stored JSON) and task specs.
The rules themselves are generic and live in :mod:`toolchaos.scoring.behaviour` (the
own-tools report uses them too); this module supplies ToolBench-X's reference call
count and hazard family, and re-exports the rules under their old names.
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
