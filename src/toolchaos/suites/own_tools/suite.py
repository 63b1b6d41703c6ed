"""Own tools as a suite of the registry: a task model for the store, and a report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolchaos.core.errors import BadInput
from toolchaos.suites.base import ReportOptions, Suite, SuiteReport
from toolchaos.suites.own_tools.task import SUITE_NAME, OwnToolsTask


@dataclass(frozen=True)
class OwnToolsSuite(Suite[OwnToolsTask, Any]):
    """Episodes recorded by :mod:`toolchaos.chaos`; ``toolchaos run`` does not play them."""

    def make_env(self, task: OwnToolsTask, arm: str) -> Any:
        """Own tools are played by the caller's agent, never by the runner."""
        raise BadInput(
            "suite own-tools is recorded by your own agent (toolchaos.chaos, the pytest "
            "plugin or `toolchaos proxy`), not played by `toolchaos run`"
        )

    def report(self, options: ReportOptions) -> SuiteReport:
        """Pass rates, per-family rates, post-anomaly moves, failure behaviours, the event log.

        The failure-behaviour thresholds are the report's ``--thresholds`` (as ToolBench-X
        reads them: ``default``, ``median`` or ``TAU_A,TAU_R``), resolved over this suite's
        failed episodes.
        """
        from toolchaos.scoring.behaviour import parse_thresholds
        from toolchaos.suites.own_tools.report import OwnToolsReport

        rule = options.thresholds
        return OwnToolsReport(parse_thresholds(rule) if isinstance(rule, str) else rule)


SUITE = OwnToolsSuite(
    name=SUITE_NAME,
    package="toolchaos.suites.own_tools",
    data_file="tasks.jsonl",
    arms=("clean", "hazard"),
    task_model=OwnToolsTask,
    protocol="own",
    protocols={},
)
