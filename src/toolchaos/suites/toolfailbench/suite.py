"""ToolFailBench as a suite of the runner: its tasks, its protocol, how episodes play."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolchaos.suites.base import Suite
from toolchaos.suites.toolfailbench.types import FailTask


@dataclass(frozen=True)
class ToolFailSuite(Suite):
    """The shipped 1,000 tasks, or a task file; one arm, the two-step protocol."""

    def load(self, path: Path | None = None) -> list[Any]:
        """Load the shipped tasks, a JSONL task file, or a v5 release (its root folder)."""
        if path is not None and path.is_dir():
            from toolchaos.suites.toolfailbench.importer import load_v5, release_tasks

            return release_tasks(load_v5(path))
        return super().load(path)

    def make_env(self, task: Any, arm: str) -> Any:
        """The domain's tools, with the task's trap (or the release's mock) on its call."""
        from toolchaos.suites.toolfailbench.env import FailEnv

        return FailEnv(task)


SUITE = ToolFailSuite(
    name="toolfailbench",
    package="toolchaos.suites.toolfailbench",
    data_file="tasks.jsonl",
    arms=("clean",),
    protocol="two-step",
    task_model=FailTask,
)
