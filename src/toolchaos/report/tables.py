"""Report tables over one or many run directories: rich for the terminal, markdown and CSV."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from toolchaos.core.types import TaskSpec
from toolchaos.models.config import ModelEntry
from toolchaos.runner.store import Store
from toolchaos.scoring.toolbench import (
    accuracy_rows,
    arm_summary,
    breakdown,
    sampling_table,
    score_frame,
    usage_table,
)


@dataclass
class Report:
    """The scored episodes of some runs and the tables computed from them."""

    frame: pd.DataFrame
    rows: list[dict[str, Any]]
    tables: dict[str, pd.DataFrame]


def load_frame(directories: list[Path]) -> pd.DataFrame:
    """Score every episode of every run directory into one frame."""
    return _load(directories)[0]


def _load(directories: list[Path]) -> tuple[pd.DataFrame, dict[str, ModelEntry]]:
    frames = []
    entries: dict[str, ModelEntry] = {}
    for directory in directories:
        store = Store.open_existing(directory)
        try:
            tasks: dict[str, TaskSpec] = store.tasks()
            frame = score_frame(store.summaries(), tasks)
            for item in json.loads(store.get_meta("models") or "[]"):
                entry = ModelEntry.model_validate(item)
                entries.setdefault(entry.spec, entry)
        finally:
            store.close()
        frame["run"] = str(directory)
        frames.append(frame)
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return frame, entries


def build_report(directories: list[Path]) -> Report:
    """Compute the report of ``directories`` (a pure function of their stores)."""
    frame, entries = _load(directories)
    rows = accuracy_rows(frame)
    tables: dict[str, pd.DataFrame] = {"accuracy": pd.DataFrame(rows)}
    if not frame.empty:
        tables["usage"] = usage_table(frame, entries)
        tables["sampling"] = sampling_table(frame)
        tables["arms"] = arm_summary(frame)
        tables["by_workflow"] = breakdown(frame, "workflow")
        tables["by_family"] = breakdown(frame, "family")
    return Report(frame=frame, rows=rows, tables=tables)


TITLES = {
    "accuracy": "Accuracy per model and arm",
    "arms": "Degradation and hint gain (tasks with a hazard)",
    "by_workflow": "Accuracy by workflow type",
    "by_family": "Accuracy by hazard family",
    "usage": "Tokens, latency and cost",
    "sampling": "Test-time scaling: pass@k, pass^k and self-consistency vote",
}


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def print_report(report: Report, console: Console) -> None:
    """Print every table; model-written text is escaped so it cannot style the terminal."""
    for name, table in report.tables.items():
        if table.empty:
            continue
        title = TITLES.get(name, name)
        constant = [c for c in ("suite", "protocol") if c in table and table[c].nunique() == 1]
        if constant:
            title += " (" + ", ".join(str(table[c].iloc[0]) for c in constant) + ")"
            table = table.drop(columns=constant)
        view = Table(title=escape(title))
        for column in table.columns:
            view.add_column(str(column), overflow="fold")
        for record in table.itertuples(index=False):
            view.add_row(*(escape(_cell(v)) for v in record))
        console.print(view)


def to_markdown(report: Report) -> str:
    """Render the tables as one markdown document."""
    parts = ["# toolchaos report", ""]
    for name, table in report.tables.items():
        if table.empty:
            continue
        parts += [f"## {TITLES.get(name, name)}", ""]
        header = [str(c) for c in table.columns]
        parts.append("| " + " | ".join(header) + " |")
        parts.append("|" + "---|" * len(header))
        for record in table.itertuples(index=False):
            cells = [_cell(v).replace("|", "\\|") for v in record]
            parts.append("| " + " | ".join(cells) + " |")
        parts.append("")
    return "\n".join(parts)


def write_report(report: Report, out: Path) -> list[Path]:
    """Write report.md and one CSV per table into ``out``; return the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "report.md"]
    written[0].write_text(to_markdown(report), encoding="utf-8")
    for name, table in report.tables.items():
        path = out / f"report_{name}.csv"
        table.to_csv(path, index=False)
        written.append(path)
    return written
