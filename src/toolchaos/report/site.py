"""A static leaderboard site: a ranked index, a page per model and the trace viewer.

``toolchaos leaderboard RUN... --out DIR`` writes, from the same :class:`Report` that
``toolchaos report`` prints, three kinds of self-contained pages (no network, no file
outside ``DIR``):

- ``index.html``: each leaderboard of the runs (one per suite, protocol and arm, as
  :mod:`toolchaos.report.noise` builds them) ranked, every line with its score, bootstrap
  interval (drawn as a bar), run-to-run spread, noise MDD and whether it ranks above the
  next line decisively; under it the adjacent pairs' tests and the suite's own full
  leaderboard table (:attr:`~toolchaos.suites.base.Ranking.table`).
- ``models/<name>.html``: one model's lines of every report table that has a ``model``
  column (for ToolBench-X: by hazard family, by observability tier, post-failure actions,
  failure behaviours; for every suite: cost of recovery, tokens and cost), grouped by
  suite, with its place on each leaderboard.
- ``viewer.html``: the HTML report (:mod:`toolchaos.report.html`), whose trace viewer
  every linked cell of the other pages opens filtered to the episodes behind it.

The pages are as inert as the report: autoescaped templates, nothing model-written marked
safe, a Content-Security-Policy that allows no script on the index and model pages, and
file names made from a model's name by keeping only ``[A-Za-z0-9._-]`` and adding a hash
of the whole name (two models never share a page, and no name can climb out of ``models/``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from toolchaos.report.html import (
    DEFAULT_MAX_EPISODES,
    environment,
    filter_href,
    headline_blocks,
    render_html,
    table_view,
)
from toolchaos.report.tables import Report, cell_text, inert
from toolchaos.suites import SUITES, get_suite
from toolchaos.suites.base import ReportTable

VIEWER = "viewer.html"
MODELS = "models"
BOARD_KEY = ["suite", "protocol", "arm", "metric"]
ON_BOARD = ("noise_floor", "order_tests")
"""Tables the index draws as its leaderboards, not repeated on the model pages."""
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def page_name(model: str) -> str:
    """The file name of a model's page: its safe characters and a hash of the whole name."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", model).strip("-.")[:60] or "model"
    digest = hashlib.sha256(model.encode("utf-8")).hexdigest()[:8]
    return f"{safe}-{digest}.html"


def _interval(text: Any) -> tuple[float, float] | None:
    """The two bounds of a ``[low, high]`` interval cell, in %, or None for ``-``."""
    found = _NUMBER.findall(str(text))
    return (float(found[0]), float(found[1])) if len(found) == 2 else None


@dataclass
class _Pages:
    """What the pages link to the viewer, so the viewer counts those episodes too."""

    links: dict[str, dict[str, str]]

    def table(self, table: ReportTable, viewer: str, hide: Iterable[str] = ()) -> dict[str, Any]:
        return table_view(table, self.links, viewer, hide=tuple(hide))

    def href(self, viewer: str, found: Mapping[str, str]) -> str:
        fragment = filter_href(found) or ""
        self.links[fragment] = dict(found)
        return viewer + fragment


def _board_lines(
    floor: pd.DataFrame, orders: pd.DataFrame, models: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Each leaderboard: its title, its ranked lines (with the bar) and its pair tests."""
    boards: list[dict[str, Any]] = []
    if floor.empty:
        return boards
    for key, lines in floor.groupby(BOARD_KEY, sort=True):
        suite, protocol, arm, metric = (str(v) for v in key)
        pairs = orders
        for column, value in zip(BOARD_KEY, key, strict=True):
            pairs = pairs[pairs[column] == value] if not pairs.empty else pairs
        rows = []
        for line in lines.to_dict(orient="records"):
            bounds = _interval(line["95% CI"])
            score = float(line["score %"])
            rows.append(
                {
                    "rank": int(line["rank"]),
                    "id": str(line["model"]),
                    "model": inert(str(line["model"])),
                    "page": f"{MODELS}/{models[str(line['model'])]}",
                    "score": cell_text(line["score %"], "score %"),
                    "ci": cell_text(line["95% CI"], "95% CI"),
                    "bar": None
                    if bounds is None
                    else {"low": bounds[0], "width": bounds[1] - bounds[0], "score": score},
                    "spread": cell_text(line["spread %"], "spread %"),
                    "mdd": cell_text(line["MDD pp"], "MDD pp"),
                    "tasks": int(line["tasks"]),
                    "samples": cell_text(line["samples"]),
                    "order": str(line["order"]),
                }
            )
        tests = [
            {
                "model": inert(str(pair["model"])),
                "next": inert(str(pair["next"])),
                "difference": cell_text(pair["difference pp"], "difference pp"),
                "mdd": cell_text(pair["MDD pp"], "MDD pp"),
                "p": cell_text(pair["p"], "p"),
                "holm": cell_text(pair["Holm p"], "Holm p"),
                "order": str(pair["order"]),
            }
            for pair in pairs.to_dict(orient="records")
        ]
        boards.append(
            {
                "suite": suite,
                "protocol": protocol,
                "arm": arm,
                "metric": metric,
                "lines": rows,
                "tests": tests,
            }
        )
    return boards


def _suite_sections(
    report: Report, pages: _Pages, boards: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Per ranked suite: its leaderboards, then its own full leaderboard table if any."""
    by_name = {t.name: t for t in report.sections if not t.frame.empty}
    sections = []
    for suite in sorted({b["suite"] for b in boards}):
        name = get_suite(suite).ranking.table if suite in SUITES else ""
        table = pages.table(by_name[name], VIEWER) if name in by_name else None
        mine = [b for b in boards if b["suite"] == suite]
        sections.append({"suite": suite, "boards": mine, "table": table})
    return sections


def _model_page(
    report: Report, model: str, boards: list[dict[str, Any]], pages: _Pages
) -> dict[str, Any]:
    """One model's page: its place on each leaderboard and its lines of every table."""
    viewer = f"../{VIEWER}"
    places = []
    for board in boards:
        for line in board["lines"]:
            if line["id"] == model:
                places.append({**board, "line": line, "of": len(board["lines"])})
    tables = []
    for table in report.sections:
        frame = table.frame
        if table.name in ON_BOARD or frame.empty or "model" not in frame:
            continue
        mine = frame[frame["model"].astype(str) == model]
        if mine.empty:
            continue
        part = replace(table, frame=mine.reset_index(drop=True))
        tables.append(pages.table(part, viewer, hide=["model"]))
    suites = sorted(set(report.frame.loc[report.frame["model"] == model, "suite"].astype(str)))
    return {
        "model": inert(model),
        "places": places,
        "tables": tables,
        "episodes": pages.href(viewer, {"model": model}),
        "suites": suites,
    }


def write_site(report: Report, out: Path, max_episodes: int = DEFAULT_MAX_EPISODES) -> list[Path]:
    """Write the site into ``out`` (created); return the files written, index first.

    Raises:
        OSError: When ``out`` cannot be written.
    """
    env = environment()
    models = sorted({str(m) for m in report.frame["model"]}) if not report.frame.empty else []
    names = {model: page_name(model) for model in models}
    tables = report.tables
    boards = _board_lines(
        tables.get("noise_floor", pd.DataFrame()), tables.get("order_tests", pd.DataFrame()), names
    )
    pages = _Pages({})
    notes = [t.note for t in report.sections if t.name in ON_BOARD and t.note]
    index = env.get_template("site_index.html.j2").render(
        runs=[str(d) for d in report.directories],
        notes=report.notes,
        board_notes=notes,
        headline=headline_blocks(report.headline),
        sections=_suite_sections(report, pages, boards),
        models=[{"name": inert(m), "page": f"{MODELS}/{names[m]}"} for m in models],
        viewer=VIEWER,
    )
    model_pages = {
        model: env.get_template("site_model.html.j2").render(
            page=_model_page(report, model, boards, pages), viewer=f"../{VIEWER}"
        )
        for model in models
    }
    viewer = render_html(report, max_episodes, linked=pages.links)
    (out / MODELS).mkdir(parents=True, exist_ok=True)
    written = [out / "index.html"]
    written[0].write_text(index, encoding="utf-8")
    for model, text in model_pages.items():
        path = out / MODELS / names[model]
        path.write_text(text, encoding="utf-8")
        written.append(path)
    written.append(out / VIEWER)
    written[-1].write_text(viewer, encoding="utf-8")
    return written
