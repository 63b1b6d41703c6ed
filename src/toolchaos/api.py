"""The Python API: the same functions the CLI calls."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from toolchaos.core.types import TaskSpec
from toolchaos.runner.run import RunConfig, RunSummary
from toolchaos.runner.run import run as _run
from toolchaos.suites import get_suite
from toolchaos.suites.base import ReportOptions

if TYPE_CHECKING:
    import pandas as pd

    from toolchaos.report.tables import Report


def load_tasks(suite: str, path: str | Path | None = None) -> list[TaskSpec]:
    """Load a suite's shipped tasks, or a task file for it."""
    return get_suite(suite).load(Path(path) if path else None)


def run(config: RunConfig, out: str | Path) -> RunSummary:
    """Play a run (resuming whatever ``out`` already holds)."""
    return _run(config, Path(out))


def score(*directories: str | Path) -> pd.DataFrame:
    """Score every stored episode of the given run directories."""
    from toolchaos.report.tables import load_frame as _load_frame

    return _load_frame([Path(d) for d in directories])


def report(*directories: str | Path, options: ReportOptions | None = None) -> Report:
    """Build the report tables for the given run directories (``options``: see ReportOptions)."""
    from toolchaos.report.tables import build_report

    return build_report([Path(d) for d in directories], options)
