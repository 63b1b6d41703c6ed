"""Report tables over one or many run directories: terminal, markdown, CSV and LaTeX.

A report is a pure function of the stores. :func:`build_report` has the report
contributor of each suite present (:meth:`Suite.report`) score that suite's
episodes, computes the tables every suite shares (accuracy, usage, test-time scaling, the noise
floor of each suite's leaderboard: :mod:`toolchaos.report.noise`)
over them, and asks each contributor for its own tables and figures. Each table knows
which episodes stand behind each cell, so the HTML report can link a cell to the trace
viewer.
"""

from __future__ import annotations

import io
import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table

from toolchaos.core.errors import BadInput
from toolchaos.models.config import ModelEntry
from toolchaos.report.figures import draw_grouped_bars
from toolchaos.report.noise import NOISE_NOTE, ORDER_NOTE, noise_tables
from toolchaos.runner.plan import make_plan
from toolchaos.runner.run import read_manifest
from toolchaos.runner.store import Store
from toolchaos.scoring.tables import (
    accuracy_rows,
    recovery_cost_table,
    sampling_table,
    usage_table,
)
from toolchaos.suites import SUITES, get_suite
from toolchaos.suites.base import (
    FigureSpec,
    ReportOptions,
    ReportTable,
    RunData,
    SuiteReport,
)


@dataclass
class Report:
    """The scored episodes of some runs and the tables and figures computed from them.

    ``frame`` holds one scored row per episode (with the ``run`` it came from); ``labels``
    one row per labelled episode with its suite-specific labels (for ToolBench-X: the
    post-failure action and failure behaviour of hazard-arm episodes) and ``run``.
    """

    frame: pd.DataFrame
    rows: list[dict[str, Any]]
    sections: list[ReportTable]
    labels: pd.DataFrame = field(default_factory=pd.DataFrame)
    figures: list[FigureSpec] = field(default_factory=list)
    directories: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    headline: list[str] = field(default_factory=list)

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables by name."""
        return {t.name: t.frame for t in self.sections}


def load_frame(directories: list[Path]) -> pd.DataFrame:
    """Score every episode of every run directory into one frame.

    Episodes of a suite that has no report contributor are left out (see
    :func:`build_report`, which says so in a note).
    """
    suites = contributors(ReportOptions())
    frames = []
    for directory in directories:
        store = Store.open_existing(directory, read_only=True)
        try:
            frames.append(_score_run(directory, store, store.tasks(), suites, Counter())[0])
        finally:
            store.close()
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _score_run(
    directory: Path,
    store: Store,
    tasks: dict[str, Any],
    suites: Mapping[str, SuiteReport],
    skipped: Counter[str],
    models: Sequence[str] = (),
) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """Each suite scores its own episodes; return them together and per suite.

    With ``models``, only those models' episodes are scored.
    """
    by_suite: dict[str, list[dict[str, Any]]] = {}
    for row in store.summaries():
        if not models or row["model"] in models:
            by_suite.setdefault(str(row["suite"]), []).append(row)
    scored: dict[str, pd.DataFrame] = {}
    for suite, rows in sorted(by_suite.items()):
        contributor = suites.get(suite)
        if contributor is None:
            skipped[suite] += len(rows)
            continue
        frame = contributor.score(rows, tasks, store)
        frame["run"] = str(directory)
        scored[suite] = frame
    frames = [f for f in scored.values() if not f.empty]
    return (pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()), scored


def contributors(options: ReportOptions) -> dict[str, SuiteReport]:
    """A fresh report contributor for every registered suite that has one."""
    found = {name: get_suite(name).report(options) for name in SUITES}
    return {name: contributor for name, contributor in found.items() if contributor is not None}


def _model_entries(store: Store) -> dict[str, ModelEntry]:
    """The model entries a run stored (meta ``models``), by spec (the first of a spec)."""
    entries: dict[str, ModelEntry] = {}
    for item in json.loads(store.get_meta("models") or "[]"):
        entry = ModelEntry.model_validate(item)
        entries.setdefault(entry.spec, entry)
    return entries


def build_report(
    directories: list[Path],
    options: ReportOptions | None = None,
    models: Sequence[str] = (),
) -> Report:
    """Compute the report of ``directories`` (a pure function of their stores).

    Args:
        directories: Run directories; their episodes are reported side by side.
        options: What suites may read, e.g. the ToolBench-X failure-behaviour thresholds
            (the defaults when None, or ``"median"`` over the failed episodes of all runs).
        models: Report only these model specs' episodes (every table and figure, and
            thresholds taken as medians, are computed over them alone); empty: every
            model.

    Raises:
        BadInput: a directory is named twice or holds no run, or a model of ``models``
            has no episode in any of them.
    """
    _refuse_repeats(directories)
    if models:
        _refuse_absent_models(directories, models)
    entries: dict[str, ModelEntry] = {}
    frames = []
    suites = contributors(options or ReportOptions())
    skipped: Counter[str] = Counter()
    unfinished: list[str] = []
    for directory in directories:
        store = Store.open_existing(directory, read_only=True)
        try:
            tasks = store.tasks()
            unfinished += unfinished_run(directory, store, tasks)
            frame, scored = _score_run(directory, store, tasks, suites, skipped, models)
            run_entries = _model_entries(store)
            for spec, entry in run_entries.items():
                entries.setdefault(spec, entry)
            for suite, suite_frame in scored.items():
                data = RunData(str(directory), store, tasks, suite_frame, run_entries)
                suites[suite].read_run(data)
        finally:
            store.close()
        frames.append(frame)
    frames = [f for f in frames if not f.empty]
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    rows = accuracy_rows(frame)
    sections = [ReportTable("accuracy", TITLES["accuracy"], pd.DataFrame(rows), _accuracy_link)]
    report = Report(frame=frame, rows=rows, sections=sections, directories=list(directories))
    report.notes += unfinished + shared_episodes(frame)
    if models:
        report.notes.append(f"Only the episodes of {', '.join(models)} (--model).")
    report.notes += [
        f"Suite {suite}: {count} stored episodes are not in this report (no report "
        "contributor for it yet)."
        for suite, count in sorted(skipped.items())
    ]
    if frame.empty:
        return report
    present = set(frame["suite"])
    label_frames = []
    for suite, contributor in suites.items():
        if suite not in present:
            continue
        contribution = contributor.finish(frame[frame["suite"] == suite])
        for table in contribution.tables:
            table.suite = table.suite or suite
        report.sections += contribution.tables
        report.figures += contribution.figures
        report.notes += contribution.notes
        report.headline += contribution.headline
        if not contribution.labels.empty:
            label_frames.append(contribution.labels)
    if label_frames:
        report.labels = pd.concat(label_frames, ignore_index=True)
    report.sections += [
        ReportTable("usage", TITLES["usage"], usage_table(frame, entries), _model_link),
        ReportTable("sampling", TITLES["sampling"], sampling_table(frame), _accuracy_link),
    ]
    costs = recovery_cost_table(frame, entries)
    if not costs.empty:
        report.sections.append(
            ReportTable(
                "recovery_cost",
                TITLES["recovery_cost"],
                recovery_cost_shown(costs),
                _arm_link,
                RECOVERY_NOTE,
            )
        )
        report.figures.append(recovery_cost_figure(costs))
    lines, orders = noise_tables(frame)
    if not lines.empty:
        report.sections += [
            ReportTable("noise_floor", TITLES["noise_floor"], lines, _model_link, NOISE_NOTE),
            ReportTable("order_tests", TITLES["order_tests"], orders, _model_link, ORDER_NOTE),
        ]
    return report


def _refuse_absent_models(directories: list[Path], models: Sequence[str]) -> None:
    """Refuse a ``--model`` no run holds an episode of, naming the models there are."""
    present: set[str] = set()
    for directory in directories:
        store = Store.open_existing(directory, read_only=True)
        try:
            present |= {str(row["model"]) for row in store.summaries()}
        finally:
            store.close()
    absent = [m for m in models if m not in present]
    if not absent:
        return
    import difflib

    where = directories[0] if len(directories) == 1 else f"{len(directories)} runs"
    close = difflib.get_close_matches(absent[0], sorted(present), n=1, cutoff=0.5)
    hint = f"; did you mean {close[0]}?" if close else ""
    raise BadInput(
        f"--model {absent[0]}: no episode of it in {where} (models there: "
        f"{', '.join(sorted(present)) or 'none'}){hint}"
    )


def _refuse_repeats(directories: list[Path]) -> None:
    """Refuse a run directory named twice: its episodes would count twice."""
    seen: dict[Path, Path] = {}
    for directory in directories:
        real = directory.resolve()
        if real in seen:
            same = "" if seen[real] == directory else f" (as {seen[real]})"
            raise BadInput(f"{directory} is named twice{same}; each run counts once")
        seen[real] = directory


def planned_and_stored(
    manifest: Mapping[str, Any], store: Store, tasks: Mapping[str, Any]
) -> tuple[Counter[str], Counter[str]] | None:
    """Episodes the run's manifest plans and those stored, per model (None for a shard)."""
    models = [m["spec"] for m in manifest.get("models", []) if isinstance(m, dict)]
    if manifest.get("shard") or not models:
        return None
    suite = manifest.get("suite")
    plan = make_plan(
        models,
        [t for t in tasks.values() if getattr(t, "suite", None) == suite],
        list(manifest.get("arms", [])),
        int(manifest.get("samples", 1)),
        str(manifest.get("protocol", "")),
    )
    stored = store.keys()
    planned = Counter(item.model for item in plan)
    have = Counter(item.model for item in plan if item.key in stored)
    return Counter({m: planned[m] for m in models}), Counter({m: have[m] for m in models})


def unfinished_run(directory: Path, store: Store, tasks: Mapping[str, Any]) -> list[str]:
    """A note when a run did not finish (its manifest has ``ended: null``), else nothing.

    The note counts the stored episodes against the run's plan and names the models that
    lack some, since the tables silently hold only what was played.
    """
    manifest = read_manifest(directory)
    if not manifest or manifest.get("ended", "") is not None:
        return []
    head = (
        f"{directory} holds an unfinished run (stopped, or still playing: its manifest has "
        "no end time)"
    )
    rerun = "; rerun its toolchaos run command to finish it."
    counts = planned_and_stored(manifest, store, tasks)
    if counts is None:
        return [head + rerun]
    planned, have = counts
    short = [f"{m} {have[m]} of {planned[m]}" for m in planned if have[m] < planned[m]]
    if not short:
        return [head + rerun]
    return [
        f"{head}: {sum(have.values())} of {sum(planned.values())} planned episodes are stored "
        f"({', '.join(short)}){rerun}"
    ]


def shared_episodes(frame: pd.DataFrame) -> list[str]:
    """Notes naming models whose episodes of the same tasks come from several runs.

    The tables pool such runs (a model's row counts both), which is what a report over
    runs at different temperatures wants, and a surprise when a run was copied.
    """
    if frame.empty or frame["run"].nunique() < 2:
        return []
    notes = []
    cell = ["suite", "model", "protocol", "task_id", "arm", "sample"]
    runs = frame.groupby(cell, sort=False)["run"].nunique()
    repeated = runs[runs > 1].reset_index()
    for (suite, model), group in repeated.groupby(["suite", "model"], sort=True):
        holders = frame[(frame["suite"] == suite) & (frame["model"] == model)]["run"]
        named = ", ".join(sorted(set(map(str, holders))))
        notes.append(
            f"{model} ({suite}): {named} hold the same {len(group)} episodes (task, arm and "
            "sample); the tables pool the runs, so each of those counts once per run."
        )
    return notes


TITLES = {
    "accuracy": "Accuracy per model and arm",
    "usage": "Tokens, latency and cost",
    "sampling": "Test-time scaling: pass@k, pass^k and self-consistency vote",
    "recovery_cost": "Cost of recovery: what an episode spent beyond its clean twin",
    "noise_floor": "Noise floor: each leaderboard with intervals, spread, MDD and decisiveness",
    "order_tests": "Is each leaderboard's order decisive? Adjacent pairs, Holm-corrected",
}


def _model_link(row: Mapping[str, Any], column: str) -> dict[str, str] | None:
    return {"model": str(row["model"])} if "model" in row else None


RECOVERY_NOTE = (
    "Each finished episode of an arm is paired with the clean episode of the same model, "
    "task and sample; the columns are the pairs' mean extra tool calls (95% t interval), "
    "model requests, tokens, seconds and US dollars (0 without prices in the models file); "
    "a negative value: the arm's episodes spent less, often by stopping early."
)


def recovery_cost_shown(costs: pd.DataFrame) -> pd.DataFrame:
    """The cost-of-recovery table as a report shows it: short column names, one interval."""
    shown = costs.rename(
        columns={
            "extra_calls": "calls",
            "extra_requests": "requests",
            "extra_tokens": "tokens",
            "extra_latency_s": "seconds",
            "extra_cost_usd": "USD",
        }
    )
    intervals = [
        "-" if pd.isna(low) or pd.isna(high) else f"[{low:.2f}, {high:.2f}]"
        for low, high in zip(costs["extra_calls_low"], costs["extra_calls_high"], strict=True)
    ]
    shown.insert(list(shown.columns).index("calls") + 1, "calls 95% CI", intervals)
    return shown.drop(columns=["extra_calls_low", "extra_calls_high"])


def recovery_cost_figure(costs: pd.DataFrame) -> FigureSpec:
    """Extra tool calls per hazard family and model, one panel per arm, with intervals."""
    arms = sorted(str(a) for a in costs["arm"].unique())
    panels = [(arm, costs[costs["arm"] == arm]) for arm in arms]
    return FigureSpec(
        "recovery_cost",
        "Extra tool calls over the clean twin, per family and model",
        partial(
            draw_grouped_bars,
            panels,
            "family",
            "extra_calls",
            "extra tool calls",
            interval=("extra_calls_low", "extra_calls_high"),
        ),
        size=(4.0 + 3.2 * len(arms), 4.8),
    )


def _arm_link(row: Mapping[str, Any], column: str) -> dict[str, str] | None:
    return {k: str(row[k]) for k in ("model", "arm") if k in row} or None


def _accuracy_link(row: Mapping[str, Any], column: str) -> dict[str, str] | None:
    found = {k: str(row[k]) for k in ("model", "arm") if k in row}
    if column == "correct":
        found["label"] = "correct"
    elif column == "errors":
        found["label"] = "error"
    return found or None


# C0 controls (but tab and newline) and DEL, shown as their U+2400.. control pictures, so
# text a model wrote (a model name, an answer) can never drive a terminal or a viewer.
CONTROL_PICTURES = {c: 0x2400 + c for c in range(32) if c not in (9, 10)} | {127: 0x2421}


def inert(text: str) -> str:
    """``text`` with every control character replaced by its visible picture."""
    return text.translate(CONTROL_PICTURES)


PERCENT_SUFFIXES = ("%", " pp")
"""A column whose name ends in one of these holds percentages (or percentage points)."""

P_VALUE_COLUMNS = ("p_value", "p", "p-value")
"""Columns holding p-values: one below 0.001 is shown in scientific notation, not 0.000."""


def cell_text(value: Any, column: Any = "") -> str:
    """How a table cell is shown: floats with 3 decimals, missing values as ``-``.

    Floats in a percent column (its name ends in ``%`` or `` pp``) get 2 decimals; a
    p-value below 0.001 is shown in scientific notation (``2.3e-09``), as ``compare`` does.
    Control characters (terminal escapes, bells) are shown as pictures, never sent.
    """
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return "-"
    if isinstance(value, float):
        if str(column) in P_VALUE_COLUMNS and abs(value) < 0.001:
            # a p this small underflows to 0.0 in a double: say how small it is
            return f"{value:.1e}" if value else "<1e-300"
        return f"{value:.2f}" if str(column).endswith(PERCENT_SUFFIXES) else f"{value:.3f}"
    return inert(str(value))


def _shown(table: ReportTable) -> tuple[str, pd.DataFrame]:
    """The title and data to show: columns with one value (suite, protocol) go to the title."""
    frame, title = table.frame, table.title
    constant = [c for c in ("suite", "protocol") if c in frame and frame[c].nunique() == 1]
    if constant:
        title += " (" + ", ".join(str(frame[c].iloc[0]) for c in constant) + ")"
        frame = frame.drop(columns=constant)
    return title, frame


# the terminal layout: a column is drawn at most this wide (longer text folds inside it),
# and a table wider than the terminal is folded into parts that repeat its key columns
MAX_CELL = 28
KEY_COLUMNS = 2
COMPACT: dict[str, Any] = {"box": box.SIMPLE_HEAD, "show_edge": False, "pad_edge": False}
"""The narrow style: a rule under the header and one space between columns, no borders."""

_MEASURING = Console(width=10_000, file=io.StringIO())


def render_table(
    title: str,
    headers: list[str],
    cells: list[list[str]],
    part: list[int] | None = None,
    compact: bool = False,
    cap: int | None = None,
) -> Table:
    """A rich table of the shown cells: the columns of ``part`` (all by default).

    Every column folds text longer than ``cap`` (when given); the compact style drops the
    cell borders. Text is escaped: a cell cannot style the terminal.
    """
    view = Table(title=escape(inert(title)) if title else None, **(COMPACT if compact else {}))
    chosen = part if part is not None else list(range(len(headers)))
    for i in chosen:
        view.add_column(escape(headers[i]), overflow="fold", max_width=cap)
    for row in range(len(cells[0]) if cells else 0):
        view.add_row(*(escape(cells[i][row]) for i in chosen))
    return view


def table_width(view: Table) -> int:
    """How wide rich draws ``view`` when nothing limits it (rich's own measurement)."""
    return Measurement.get(_MEASURING, _MEASURING.options, view).maximum


def fold_columns(
    headers: list[str], cells: list[list[str]], width: int, compact: bool = False
) -> list[list[int]]:
    """The column indices of each part a table is folded into to fit ``width`` characters.

    One part when the table fits. Otherwise every part repeats the key columns and takes
    the remaining columns in order, as many as fit (rich measures each candidate part,
    its columns capped at MAX_CELL). The key columns are a leading ``rank`` column, then
    leading text columns (at most KEY_COLUMNS) until they tell the rows apart: ``model``,
    or ``model`` and ``arm`` where a model has a row per arm.

    Args:
        headers: The column headers.
        cells: The shown cells, one list per column.
        width: The terminal width.
        compact: Whether the parts are drawn in the compact style.
    """

    def wide(part: list[int]) -> int:
        return table_width(render_table("", headers, cells, part, compact, MAX_CELL))

    everything = list(range(len(headers)))
    if len(headers) < 2 or wide(everything) <= width:
        return [everything]
    keys: list[int] = [0] if headers[0] == "rank" else []
    named: list[int] = []
    for i in everything[len(keys) : -1]:
        if len(named) == KEY_COLUMNS or any(_numeric(c) for c in cells[i]):
            break
        if wide([*keys, i]) > width // 2:
            break
        keys.append(i)
        named.append(i)
        rows = list(zip(*(cells[k] for k in named), strict=True))
        if len(set(rows)) == len(rows):
            break
    parts: list[list[int]] = []
    current = list(keys)
    for i in everything[len(keys) :]:
        if len(current) > len(keys) and wide([*current, i]) > width:
            parts.append(current)
            current = list(keys)
        current.append(i)
    parts.append(current)
    return parts


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return text == "-"
    return True


def print_report(report: Report, console: Console, written: Path | None = None) -> None:
    """Print the notes and every table, fitted to the console's width.

    A table wider than the console is drawn in the compact style (no cell borders) and,
    if still too wide, folded into parts that repeat its key columns
    (:func:`fold_columns`), with a note pointing at the written files, which keep every
    column in one table. A table's note follows it as text as wide as the console.
    Model-written text is escaped: it cannot style the terminal.

    Args:
        report: The report.
        console: Where to print; its width is the width to fit.
        written: The directory the report files were written to, for that note.
    """
    for note in report.notes:
        console.print(escape(inert(note)), highlight=False)
    for table in report.sections:
        if table.frame.empty:
            continue
        title, frame = _shown(table)
        headers = [str(c) for c in frame.columns]
        cells = [[cell_text(v, column) for v in frame[column]] for column in frame.columns]
        compact = table_width(render_table(title, headers, cells)) > console.width
        parts = fold_columns(headers, cells, console.width, compact)
        if len(parts) == 1:  # rich folds long cells to fit the console
            console.print(render_table(title, headers, cells, compact=compact))
        for number, part in enumerate(parts if len(parts) > 1 else [], start=1):
            shown = f"{title} (part {number} of {len(parts)})"
            console.print(render_table(shown, headers, cells, part, compact, MAX_CELL))
        note = table.note
        if len(parts) > 1:
            where = f"{written}/" if written is not None else ""
            note += (
                f" Folded into {len(parts)} parts to fit {console.width} columns; "
                f"{where}report.md and {where}report_{table.name}.csv hold it in one table."
            )
        if note.strip():
            console.print(escape(inert(note.strip())), highlight=False)


def report_destination(directories: list[Path]) -> Path:
    """Where a report is written without ``--write``.

    One run: its directory. Several: a ``report`` folder in the folder they share (never
    one run's own directory, whose files describe that run alone).
    """
    if len(directories) == 1:
        return directories[0]
    try:
        common = Path(os.path.commonpath([str(d) for d in directories]))
    except ValueError:  # relative and absolute paths mixed
        common = Path(os.path.commonpath([str(d.resolve()) for d in directories]))
    runs = {d.resolve() for d in directories}
    while common.resolve() in runs:  # runs/a and runs/a/b: not inside a run
        common = common.parent
    return common / "report"


def print_headline(
    report: Report, console: Console, written: Path | None = None, html: Path | None = None
) -> None:
    """Print the numbers that matter (each suite's headline) and where the files are.

    Args:
        report: The report.
        console: Where to print.
        written: The directory the report files went to.
        html: The HTML report, if one was written.
    """
    if report.headline:
        console.print("\n".join(escape(inert(line)) for line in report.headline), highlight=False)
    # a path is never broken over two lines (it is there to be copied): each gets its own
    if html is not None:
        console.print("HTML report (tables, figures, trace viewer):", highlight=False)
        console.print(f"  {inert(str(html))}", markup=False, highlight=False, soft_wrap=True)
    if written is not None:
        console.print("Every table in full (markdown, CSV, LaTeX):", highlight=False)
        path = inert(str(written / "report.md"))
        console.print(f"  {path}", markup=False, highlight=False, soft_wrap=True)


def report_json(report: Report, files: Sequence[Path] = ()) -> dict[str, Any]:
    """The whole report as one JSON-able object (what ``report --json`` prints).

    ``tables`` holds every table the terminal, markdown and CSV files hold, each with its
    name (the CSV file's stem), title, suite, note, columns and rows (one object per row,
    missing values as null); ``rows`` is the accuracy table's rows, as before.
    """
    tables = []
    for table in report.sections:
        frame = table.frame
        columns = [str(c) for c in frame.columns]
        records = json.loads(frame.set_axis(columns, axis=1).to_json(orient="records"))
        tables.append(
            {
                "name": table.name,
                "title": table.title,
                "suite": table.suite,
                "note": table.note,
                "columns": columns,
                "rows": records,
            }
        )
    return {
        "rows": report.rows,
        "tables": tables,
        "notes": report.notes,
        "headline": report.headline,
        "files": [str(p) for p in files],
    }


def to_markdown(report: Report, figures: Mapping[str, str] | None = None) -> str:
    """Render the tables (and links to figure files, if given) as one markdown document."""
    parts = ["# toolchaos report", ""]
    parts += [f"- {note}" for note in report.notes]
    if report.notes:
        parts.append("")
    for table in report.sections:
        if table.frame.empty:
            continue
        title, frame = _shown(table)
        parts += [f"## {title}", ""]
        if table.note:
            parts += [table.note, ""]
        header = [str(c) for c in frame.columns]
        parts.append("| " + " | ".join(h.replace("|", "\\|") for h in header) + " |")
        parts.append("|" + "---|" * len(header))
        for record in frame.itertuples(index=False):
            cells = [
                cell_text(v, c).replace("|", "\\|") for v, c in zip(record, header, strict=True)
            ]
            parts.append("| " + " | ".join(cells) + " |")
        parts.append("")
    if figures:
        parts += ["## Figures", ""]
        titles = {f.name: f.title for f in report.figures}
        for name, path in figures.items():
            parts += [f"![{titles.get(name, name)}]({path})", ""]
    return "\n".join(parts)


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    """Escape the characters LaTeX treats specially."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def to_latex(report: Report) -> str:
    """Render the tables as LaTeX ``table`` floats (booktabs rules), one after another."""
    parts = [
        "% toolchaos report: \\usepackage{booktabs} in the preamble",
        "",
    ]
    for table in report.sections:
        if table.frame.empty:
            continue
        title, frame = _shown(table)
        text = frame.apply(lambda column: column.map(partial(cell_text, column=column.name)))
        styler = text.style.hide(axis="index").format(escape="latex")
        styler = styler.format_index(escape="latex", axis=1)
        caption = latex_escape(title + (f". {table.note}" if table.note else ""))
        parts.append(
            styler.to_latex(
                caption=caption,
                label=f"tab:{table.name}",
                hrules=True,
                position="htbp",
                position_float="centering",
            )
        )
    return "\n".join(parts)


def write_report(report: Report, out: Path, figures: bool = False) -> list[Path]:
    """Write report.md, report.tex, one CSV per table and the episode labels into ``out``.

    Args:
        report: The report.
        out: The directory to write into (created when missing).
        figures: Also draw the figures, as PNG and SVG under ``out/figures``.

    Returns:
        The paths written.
    """
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    drawn: dict[str, str] = {}
    if figures and report.figures:
        from toolchaos.report.figures import write_figures

        for name, paths in write_figures(report.figures, out / "figures").items():
            written += paths
            drawn[name] = paths[0].relative_to(out).as_posix()
    markdown = out / "report.md"
    markdown.write_text(to_markdown(report, drawn), encoding="utf-8")
    latex = out / "report.tex"
    latex.write_text(to_latex(report), encoding="utf-8")
    written = [markdown, latex, *written]
    for table in report.sections:
        path = out / f"report_{table.name}.csv"
        table.frame.to_csv(path, index=False)
        written.append(path)
    if not report.labels.empty:
        path = out / "episode_labels.csv"
        report.labels.to_csv(path, index=False)
        written.append(path)
    return written
