"""ToolBench-X as a suite of the runner: its tasks, protocols, baselines, build and report."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolchaos.agents.native import run_native
from toolchaos.core.errors import BadInput
from toolchaos.core.types import TaskSpec
from toolchaos.domains import get_domain
from toolchaos.env.runtime import Env
from toolchaos.models.base import ModelClient
from toolchaos.suites.base import (
    BuildOptions,
    BuildResult,
    Problem,
    Ranking,
    ReportOptions,
    Suite,
    SuiteReport,
)
from toolchaos.suites.toolbench_x.baselines import MODES, ScriptedPolicy
from toolchaos.suites.toolbench_x.changelog import make_env
from toolchaos.suites.toolbench_x.decision import run_decision
from toolchaos.suites.toolbench_x.diagnostics import ACTION_ORDER, BEHAVIOUR_ORDER

if TYPE_CHECKING:
    from toolchaos.suites.review import ReviewDesk


def _baseline(task: TaskSpec, mode: str) -> ModelClient:
    return ScriptedPolicy(task, mode)  # type: ignore[arg-type]


@dataclass(frozen=True)
class ToolBenchXSuite(Suite[TaskSpec, Env]):
    """The shipped v1 tasks in four arms, played natively or with the decision protocol."""

    def load(self, path: Path | None = None) -> list[TaskSpec]:
        """The shipped tasks, or a task file's, with the generated domains beside it.

        A generation run writes its domains as ``domains/<name>.json`` next to its task
        file (docs/generation.md); loading the file registers them for this process, so
        their tasks play with every model like the shipped ones (their tools in the
        sandbox).
        """
        if path is not None:
            from toolchaos.suites.toolbench_x.generation.domain import load_generated

            load_generated(Path(path).parent / "domains")
        return super().load(path)

    def make_env(self, task: TaskSpec, arm: str) -> Env:
        """The task's domain world and toolbox, with its hazard outside ``clean``."""
        return make_env(task, arm)

    def prepare(self, tasks: Sequence[TaskSpec]) -> None:
        """Import each domain and build (and fork once) each seeded base world the tasks use.

        Episodes fork these worlds; building one takes tens of milliseconds, during which
        every other episode in flight would wait. A domain that does not exist is left to
        its episodes, which end as harness errors as they always did.
        """
        for name, seed in sorted({(t.domain, t.world_seed) for t in tasks}):
            try:
                domain = get_domain(name)
            except BadInput:
                continue
            domain.world(seed).fork()  # the first fork computes the table sums

    def stratum(self, task: TaskSpec) -> tuple[str, str]:
        """(workflow type, hazard family)."""
        return task.workflow, task.hazard.family.value if task.hazard else "none"

    def describe(self, task: TaskSpec) -> list[str]:
        """Workflow, topic / subtopic and hazard; the prompt; the tools."""
        label = f"{task.hazard.family.value}/{task.hazard.variant}" if task.hazard else "none"
        where = f"{task.topic} / {task.subtopic}" if task.topic else task.subtopic
        return [
            f"{task.workflow} · {where} · hazard: {label}",
            task.prompt,
            f"tools: {', '.join(task.tools)}",
        ]

    def task_facets(self, task: TaskSpec) -> dict[str, set[str]]:
        """``type`` (workflow), ``hazard`` (family and variant) and ``subtopic``."""
        hazard = {task.hazard.family.value, task.hazard.variant} if task.hazard else set()
        return {"type": {task.workflow}, "hazard": hazard, "subtopic": {task.subtopic}}

    def task_stats(self, tasks: Sequence[TaskSpec]) -> dict[str, Any]:
        """Its size ``n`` and counts by workflow, hazard family and variant, topic and subtopic."""
        return {
            "n": len(tasks),
            "workflow": dict(Counter(t.workflow for t in tasks)),
            "family": dict(Counter(t.hazard.family.value if t.hazard else "none" for t in tasks)),
            "variant": dict(Counter(t.hazard.variant if t.hazard else "none" for t in tasks)),
            "topic": dict(Counter(t.topic for t in tasks)),
            "subtopic": dict(Counter(t.subtopic for t in tasks)),
        }

    def report(self, options: ReportOptions) -> SuiteReport:
        """Arm summary, breakdowns and trajectory diagnostics."""
        from toolchaos.suites.toolbench_x.diagnostics import parse_thresholds
        from toolchaos.suites.toolbench_x.report import ToolBenchXReport

        rule = options.thresholds
        return ToolBenchXReport(parse_thresholds(rule) if isinstance(rule, str) else rule)

    def build(self, options: BuildOptions) -> BuildResult:
        """Generate, screen, gate hazards (the cheap gates too), validate and select (v3)."""
        from toolchaos.suites.toolbench_x.pipeline import V1_TARGETS, build_toolbench_x

        if not 1 <= options.per_cell <= 5:
            raise BadInput("--per-cell must be between 1 and 5")
        targets = None if options.keep_all or options.per_cell != 5 else V1_TARGETS
        # v3: a proposal any cheap-strategy policy solves is dropped (v2 was built without)
        tasks, report = build_toolbench_x(
            options.seed, per_cell=options.per_cell, targets=targets, cheap_gates=True
        )
        stages = ", ".join(f"{k} {v}" for k, v in report.counts.items())
        gates = ", ".join(f"{k} {v}" for k, v in report.gates.items())
        tiers = "; ".join(
            f"{family} " + ", ".join(f"{tier} {n}" for tier, n in sorted(mix.items()))
            for family, mix in sorted(report.tiers.items())
        )
        measured = "; ".join(
            f"{family} " + ", ".join(f"{tier} {n}" for tier, n in sorted(mix.items()))
            for family, mix in sorted(report.measured.measured.items())
        )
        cheap = ", ".join(f"{k} {sum(v.values())}" for k, v in report.cheap.items())
        stance = "dropped" if report.cheap_enforced else "would drop (counted only)"
        summary = (
            f"{stages}; retention {report.retention:.0%}\n"
            f"dropped by the gates: {gates or 'none'}\n"
            f"cheap gates {stance}, of the selected tasks: {cheap or 'none'}\n"
            f"tiers: {tiers}\n"
            f"tiers as measured: {measured}\n"
            f"{report.distinct_logics} distinct task logics; calls per task "
            + ", ".join(f"{n}: {c}" for n, c in report.calls_histogram.items())
        )
        return BuildResult(
            tasks=tasks,
            # one line: every drop of the cheap gates is listed (4.5 MiB, 5.3 indented)
            report_json=report.model_dump_json() + "\n",
            summary=summary,
            warnings=[
                f"{missing} {workflow} tasks short of the target"
                for workflow, missing in report.shortfall.items()
            ],
        )

    def review_desk(self) -> ReviewDesk:
        """Show tasks to reviewers; reviewers assign hazard families (``review_view.py``)."""
        from toolchaos.suites.toolbench_x.review_view import ToolBenchXDesk

        return ToolBenchXDesk()

    def validate(self, task: TaskSpec) -> list[Problem]:
        """Oracle, recovery, naive-fails and leak checks (see ``validate``)."""
        from toolchaos.suites.toolbench_x.validate import validate_task

        return validate_task(task)

    def validate_set(self, tasks: Sequence[TaskSpec]) -> list[Problem]:
        """A task that repeats an earlier one, in words or in substance (as the build drops)."""
        from toolchaos.suites.toolbench_x.validate import duplicate_problems

        return duplicate_problems(tasks)


SUITE = ToolBenchXSuite(
    name="toolbench-x",
    package="toolchaos.suites.toolbench_x",
    data_file="tasks.jsonl",
    version="v3",
    versions={"v1": "v1/tasks.jsonl", "v2": "v2/tasks.jsonl"},
    arms=("clean", "hazard", "hint", "oracle-label"),
    task_model=TaskSpec,
    protocol="native",
    protocols={"native": run_native, "decision": run_decision},
    baselines=dict.fromkeys(MODES, _baseline),
    baseline_fallback="naive",
    ranking=Ranking("accuracy in the hazard arm", {"arm": "hazard"}, table="arms"),
    label_order=(*ACTION_ORDER, "none", *BEHAVIOUR_ORDER),
)
