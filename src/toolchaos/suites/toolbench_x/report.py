"""ToolBench-X's part of a report: its own tables, figures and per-episode labels.

:meth:`ToolBenchXSuite.report` builds a :class:`ToolBenchXReport` (the
:class:`~toolchaos.suites.base.SuiteReport` of this suite): degradation and hint gain,
accuracy by workflow type and hazard family, and the trajectory diagnostics.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import pandas as pd

from toolchaos.report.figures import draw_grouped_bars, draw_stacked_shares
from toolchaos.scoring.tables import scorable_mask
from toolchaos.suites.base import Contribution, EpisodeReader, FigureSpec, ReportTable, RunData
from toolchaos.suites.toolbench_x.diagnostics import (
    ACTION_ORDER,
    BEHAVIOUR_ORDER,
    HAZARD_ARMS,
    ThresholdRule,
    Thresholds,
    TraceFacts,
    action_table,
    behaviour_table,
    diagnose,
    diagnostics_frame,
    observe,
    resolve_thresholds,
)
from toolchaos.suites.toolbench_x.scoring import (
    ARM_ORDER,
    answer_measures,
    arm_summary,
    breakdown,
    score_frame,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class ToolBenchXReport:
    """ToolBench-X: arm summary, breakdowns and the trajectory diagnostics.

    Args:
        thresholds: Fixed failure-behaviour thresholds (defaults when None) or ``"median"``.
    """

    suite = "toolbench-x"

    def __init__(self, thresholds: ThresholdRule | None = None) -> None:
        self.rule: ThresholdRule = thresholds or Thresholds()
        self.facts: list[TraceFacts] = []
        self.runs: list[str] = []

    def score(
        self, summaries: list[dict[str, Any]], tasks: Mapping[str, Any], store: EpisodeReader
    ) -> pd.DataFrame:
        """Score against each task's reference (:func:`score_frame`)."""
        return score_frame(summaries, dict(tasks))

    def read_run(self, data: RunData) -> None:
        """Observe the trace of every finished hazard-arm episode of this suite."""
        frame = data.frame
        if frame.empty:
            return
        mine = frame[(frame["suite"] == self.suite) & scorable_mask(frame)]
        mine = mine[mine["arm"].isin(HAZARD_ARMS)]
        if mine.empty:
            return
        correct = dict(zip(mine["key"], mine["correct"].astype(bool), strict=True))
        for key, text in data.store.episode_json(arms=HAZARD_ARMS):
            if key not in correct:
                continue
            episode = json.loads(text)
            self.facts.append(observe(episode, data.tasks[episode["task_id"]], correct[key]))
            self.runs.append(data.run)

    def finish(self, frame: pd.DataFrame) -> Contribution:
        """Tables and figures over every run; thresholds resolved over all failed episodes."""
        out = Contribution()
        by_family = breakdown(frame, "family")
        arms = arm_summary(frame)
        out.headline = headline(arms)
        out.tables += [
            ReportTable("arms", TITLES["arms"], arms, _arm_columns_link),
            ReportTable(
                "by_workflow",
                TITLES["by_workflow"],
                breakdown(frame, "workflow"),
                partial(_breakdown_link, "workflow"),
            ),
            ReportTable(
                "by_family", TITLES["by_family"], by_family, partial(_breakdown_link, "family")
            ),
            ReportTable("by_tier", TITLES["by_tier"], breakdown(frame, "tier"), _arm_columns_link),
        ]
        measures = answer_measures(frame)
        if not measures.empty:
            out.tables.append(
                ReportTable(
                    "answer_measures",
                    TITLES["answer_measures"],
                    measures,
                    _arm_link,
                    note="Finished episodes of tasks with an answer. 'committed' is the rule "
                    "the accuracy uses (the answer's conclusion states the reference); "
                    "'correct' also fails a hedge and, on a task that writes, a wrong write.",
                )
            )
        if not by_family.empty:
            out.figures.append(
                FigureSpec(
                    "accuracy_by_family",
                    "Accuracy by hazard family per model",
                    partial(draw_family_accuracy, by_family, _arms(by_family)),
                    size=(4.0 + 3.2 * len(_arms(by_family)), 4.8),
                )
            )
        if not self.facts:
            return out
        thresholds = resolve_thresholds(self.facts, self.rule)
        labels = diagnostics_frame(diagnose(self.facts, thresholds))
        labels.insert(0, "run", self.runs)
        out.labels = labels
        actions = action_table(labels)
        behaviours = behaviour_table(labels)
        out.notes.append(f"Failure-behaviour thresholds: {thresholds.describe()}.")
        out.tables += [
            ReportTable(
                "actions",
                TITLES["actions"],
                actions,
                _label_link,
                note="Shares of the hazard-arm episodes that met an anomaly.",
            ),
            ReportTable(
                "behaviours",
                f"{TITLES['behaviours']}; {thresholds.describe()}",
                behaviours,
                _label_link,
                note="Shares of the failed hazard-arm episodes; 'all' pools every model.",
            ),
        ]
        models = len(actions)
        out.figures.append(
            FigureSpec(
                "post_failure_actions",
                "Post-failure actions per model",
                partial(
                    draw_stacked_shares,
                    actions,
                    ACTION_ORDER,
                    "anomalies",
                    "share of episodes with an anomaly",
                ),
                size=(8.0, 1.6 + 0.45 * models),
            )
        )
        if not behaviours.empty:
            out.figures.append(
                FigureSpec(
                    "failure_behaviours",
                    "Failure behaviours per model",
                    partial(
                        draw_stacked_shares,
                        behaviours,
                        BEHAVIOUR_ORDER,
                        "failed",
                        "share of failed episodes",
                    ),
                    size=(8.0, 1.6 + 0.45 * len(behaviours)),
                )
            )
        return out


TITLES = {
    "arms": "Degradation and hint gain (tasks with a hazard)",
    "by_workflow": "Accuracy by workflow type",
    "by_family": "Accuracy by hazard family",
    "by_tier": "Accuracy by observability tier (explicit, implicit, silent)",
    "answer_measures": "Answer measures: exact match, containment and committed value",
    "actions": "Post-failure action after the first anomaly (hazard arms)",
    "behaviours": "Failure behaviours of failed hazard-arm episodes",
}


def headline(arms: pd.DataFrame) -> list[str]:
    """Accuracy in the clean arm against the hazard arm, per model (from the arm summary)."""
    if arms.empty or not {"clean", "hazard"} <= set(arms.columns):
        return []
    width = max(len(str(m)) for m in arms["model"])
    lines = ["ToolBench-X accuracy, clean -> hazard (tasks with a hazard):"]
    for row in arms.to_dict(orient="records"):
        clean, hazard = (_share(row[arm]) for arm in ("clean", "hazard"))
        lines.append(f"  {row['model']!s:<{width}}  {clean} -> {hazard}")
    return lines


def _share(value: Any) -> str:
    return "-" if value is None or pd.isna(value) else f"{float(value):.3f}"


def _arms(table: pd.DataFrame) -> list[str]:
    return [a for a in ARM_ORDER if a in table.columns]


def _arm_columns_link(row: Mapping[str, Any], column: str) -> dict[str, str] | None:
    found = {"model": str(row["model"])}
    if column in ARM_ORDER:
        found["arm"] = column
    return found


def _arm_link(row: Mapping[str, Any], column: str) -> dict[str, str] | None:
    return {"model": str(row["model"]), "arm": str(row["arm"])}


def _breakdown_link(by: str, row: Mapping[str, Any], column: str) -> dict[str, str] | None:
    found = {"model": str(row["model"]), by: str(row[by])}
    if column in ARM_ORDER:
        found["arm"] = column
    return found


def _label_link(row: Mapping[str, Any], column: str) -> dict[str, str] | None:
    found = {} if row["model"] == "all" else {"model": str(row["model"])}
    if column in ACTION_ORDER or column in BEHAVIOUR_ORDER:
        found["label"] = column
    return found or None


def draw_family_accuracy(table: pd.DataFrame, arms: Sequence[str], figure: Figure) -> None:
    """Grouped bars: accuracy per hazard family (x) and model (bars), one panel per arm.

    Args:
        table: :func:`toolchaos.suites.toolbench_x.scoring.breakdown` by ``family``.
        arms: The arm columns to draw, one panel each.
        figure: Where to draw.
    """
    panels = [(arm, table[["model", "family", arm]]) for arm in arms]
    draw_grouped_bars(
        [(arm, part.rename(columns={arm: "accuracy"})) for arm, part in panels],
        "family",
        "accuracy",
        "accuracy",
        figure,
        ylim=(0, 1.05),
    )
