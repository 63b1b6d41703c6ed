"""ToolFailBench as a suite of the runner: its tasks, its protocol, baselines, build, report."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolchaos.models.base import ModelClient
from toolchaos.suites.base import (
    BuildOptions,
    BuildResult,
    Ranking,
    ReportOptions,
    Suite,
    SuiteReport,
)
from toolchaos.suites.toolfailbench.baselines import BEHAVIOURS, FailPolicy
from toolchaos.suites.toolfailbench.env import FailEnv
from toolchaos.suites.toolfailbench.two_step import run_two_step
from toolchaos.suites.toolfailbench.types import FailTask

if TYPE_CHECKING:
    from rich.console import Console

    from toolchaos.scoring.judging import JudgeTally


def _baseline(task: FailTask, mode: str) -> ModelClient:
    return FailPolicy(task, mode)


@dataclass(frozen=True)
class ToolFailSuite(Suite[FailTask, FailEnv]):
    """The shipped 1,000 tasks, or a task file; one arm, the two-step protocol."""

    def load(self, path: Path | None = None) -> list[FailTask]:
        """Load the shipped tasks, a JSONL task file, or a v5 release (its root folder)."""
        if path is not None and path.is_dir():
            from toolchaos.suites.toolfailbench.importer import load_v5, release_tasks

            return release_tasks(load_v5(path))
        return super().load(path)

    def make_env(self, task: FailTask, arm: str) -> FailEnv:
        """The domain's tools, with the task's trap (or the release's mock) on its call."""
        return FailEnv(task)

    def stratum(self, task: FailTask) -> tuple[str, str]:
        """(domain, failure mode aimed at)."""
        return task.domain, task.target_failure_mode

    def describe(self, task: FailTask) -> list[str]:
        """Kind, domain, (target mode,) register (and trap kind); the prompt; call and truth."""
        if task.expected_tool:
            arguments = json.dumps(task.expected_arguments, sort_keys=True, ensure_ascii=False)
            expects = f"expects: {task.expected_tool}({arguments})"
        else:
            expects = "expects: no tool call"
        truth = ", ".join(json.dumps(v, ensure_ascii=False) for v in task.must_contain)
        headline = [task.kind, task.domain, task.register or "register unset"]
        if task.kind == "tool_required":
            headline[2:2] = [f"mode: {task.target_failure_mode}"]
            headline.append(f"trap: {task.conflict_type}")
        return [
            " · ".join(headline),
            task.prompt,
            expects,
            f"ground truth ({task.match_mode}): {truth}",
        ]

    def task_facets(self, task: FailTask) -> dict[str, set[str]]:
        """``type`` (tool_required or control), ``domain`` and ``mode`` (the target mode)."""
        return {
            "type": {task.kind},
            "domain": {task.domain},
            "mode": {task.target_failure_mode},
        }

    def task_stats(self, tasks: Sequence[FailTask]) -> dict[str, Any]:
        """Its size ``n`` and counts by kind, domain, target mode, register and trap kind.

        A task without a register counts as ``unset``. The trap kind is the task's
        ``conflict_type``: ``contradicting`` (the trap value contradicts a stable fact or
        the user's own anchor), ``neutral``, or ``none`` for the controls.
        """

        def count(values: Iterable[str]) -> dict[str, int]:
            return dict(sorted(Counter(values).items()))

        return {
            "n": len(tasks),
            "kind": count(t.kind for t in tasks),
            "domain": count(t.domain for t in tasks),
            "mode": count(t.target_failure_mode for t in tasks),
            "register": count(t.register or "unset" for t in tasks),
            "trap_kind": count(t.conflict_type for t in tasks),
        }

    def report(self, options: ReportOptions) -> SuiteReport:
        """The leaderboard, rater tables and the ablations, under ``options.rules``."""
        from toolchaos.suites.toolfailbench.report import ToolFailReport

        return ToolFailReport(options.rules)

    def build(self, options: BuildOptions) -> BuildResult:
        """The seeded generator over all five domains (the shipped set with seed 0)."""
        from toolchaos.suites.toolfailbench.generate import build_toolfailbench

        tasks, report = build_toolfailbench(options.seed)
        kinds = ", ".join(f"{n} {kind}" for kind, n in report.counts["by_kind"].items())
        return BuildResult(
            tasks=tasks, report_json=report.to_json(), summary=f"{len(tasks)} tasks ({kinds})"
        )

    def judge(
        self,
        directory: Path,
        judges: list[Any],
        concurrency: int,
        limit: int | None,
        rubric: str | None = None,
        console: Console | None = None,
        rejudge: bool = False,
    ) -> JudgeTally:
        """Judge A (decision tree) and judge B (evidence) label every finished episode.

        ``rubric`` names one of the judges' rubrics (the release's by default); a progress
        bar is drawn on ``console``; ``rejudge`` labels a run other judges labelled,
        keeping their labels (:func:`~toolchaos.suites.toolfailbench.judges.judge_run`).
        """
        from toolchaos.suites.toolfailbench.judges import DEFAULT_RUBRIC, judge_run

        chosen = rubric or DEFAULT_RUBRIC
        return judge_run(directory, judges, concurrency, limit, chosen, console, rejudge)


SUITE = ToolFailSuite(
    name="toolfailbench",
    package="toolchaos.suites.toolfailbench",
    data_file="tasks.jsonl",
    version="v3",
    versions={"v1": "v1/tasks.jsonl", "v2": "v2/tasks.jsonl"},
    arms=("clean",),
    task_model=FailTask,
    protocol="two-step",
    protocols={"two-step": run_two_step},
    baselines=dict.fromkeys(BEHAVIOURS, _baseline),
    # the rule labels' CTUR: the correct share of tool-required tasks
    ranking=Ranking(
        "CTUR (rule labels)", {"kind": "tool_required"}, table="toolfailbench_leaderboard"
    ),
)
