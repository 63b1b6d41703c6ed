"""One self-contained HTML report: tables, figures and a trace viewer, no network.

Everything model- or tool-written stays inert: the template autoescapes, nothing written
by a model is marked safe, the viewer's data is embedded with jinja2's ``tojson`` (which
escapes ``<``, ``>``, ``&`` and ``'``) inside ``<script type="application/json">`` and is
put on the page with ``textContent`` only. Control characters (terminal escapes) are shown
as their Unicode control pictures (ESC as ``␛``).

The trace viewer holds at most ``max_episodes`` conversations (default 1,000), chosen
round-robin over the strata (suite, model, arm, hazard family, outcome, post-failure action,
failure behaviour) so every table cell that links to the viewer finds some of its
episodes; within a stratum, episodes are taken in key order. Each shown text is cut at
4,000 characters. The page says how many episodes it holds out of how many.
"""

from __future__ import annotations

import base64
import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
import pandas as pd

from toolchaos.report.figures import render
from toolchaos.report.tables import Report, _shown, cell_text, inert
from toolchaos.runner.store import Store
from toolchaos.suites import SUITES, get_suite
from toolchaos.suites.base import ReportTable

DEFAULT_MAX_EPISODES = 1000
TEXT_LIMIT = 4000
FILTER_FIELDS = ("suite", "model", "arm", "family", "workflow", "label", "task")
"""What the viewer filters on; ``task`` is a search (part of a task id), the rest choices."""
OUTCOMES = ("correct", "incorrect", "error", "indeterminate")
# what JavaScript's encodeURIComponent leaves alone, so both sides spell a filter alike
_URI_SAFE = "!~*'()"
_STRATA = ["suite", "model", "arm", "family", "outcome", "action", "behaviour"]
ALL_SUITES = "all suites"
"""The group of the tables every suite shares (accuracy, usage, sampling)."""


def visible(text: Any, limit: int = TEXT_LIMIT) -> str:
    """Text as the viewer shows it: control characters made visible, cut at ``limit``."""
    value = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
    value = inert(value)
    if len(value) > limit:
        value = value[:limit] + f"… ({len(value) - limit:,} more characters)"
    return value


def filter_href(found: Mapping[str, str] | None) -> str | None:
    """The fragment link that opens the trace viewer filtered to ``found``."""
    if not found:
        return None
    parts = [f"{k}:{quote(str(found[k]), safe=_URI_SAFE)}" for k in FILTER_FIELDS if k in found]
    return "#filter=" + ";".join(parts)


CI_SUFFIX = " 95% CI"


def interval_columns(columns: list[str]) -> dict[str, str]:
    """Each value column with its interval column beside it: ``CTUR %`` -> ``CTUR 95% CI``.

    The page shows the interval under its value, in one cell, so a leaderboard with an
    interval for every rate still fits the page (the files keep both columns).
    """
    found = {}
    for column in columns:
        base = column.removesuffix(" %")
        if base + CI_SUFFIX in columns and column != base + CI_SUFFIX:
            found[column] = base + CI_SUFFIX
    return found


def table_view(
    table: ReportTable,
    links: dict[str, dict[str, str]],
    viewer: str = "",
    hide: tuple[str, ...] = (),
) -> dict[str, Any]:
    """A table as the templates draw it: cells with their text, interval and viewer link.

    Args:
        table: The report table.
        links: Gains every filter a cell links to (by its fragment), for the counts.
        viewer: What comes before a link's ``#filter=`` fragment: empty on the page that
            holds the trace viewer, its relative address (``../viewer.html``) elsewhere.
        hide: Columns not shown (their values still choose the cells' links).
    """
    title, frame = _shown(table)
    paired = interval_columns([str(c) for c in frame.columns])
    columns = [str(c) for c in frame.columns if str(c) not in (*paired.values(), *hide)]
    rows = []
    for record in table.frame.to_dict(orient="records"):
        full = {str(k): v for k, v in record.items()}
        suite = str(full.get("suite") or table.suite)
        cells = []
        for column in columns:
            found = table.link(full, column) if table.link else None
            if found is not None and suite:
                found = {"suite": suite, **found}  # never another suite's episodes
            href = filter_href(found)
            if href is not None and found is not None:
                links[href] = found
                href = viewer + href
            cell = {"text": cell_text(full[column], column), "href": href}
            if column in paired:
                cell["sub"] = cell_text(full[paired[column]], paired[column])
            cells.append(cell)
        rows.append(cells)
    group = table.suite or ALL_SUITES
    return {
        "name": table.name,
        "title": title,
        "note": table.note,
        "columns": columns,
        "intervals": [column in paired for column in columns],
        "rows": rows,
        "group": group,
        "group_title": "Every suite" if group == ALL_SUITES else f"Suite {group}",
    }


def headline_blocks(lines: list[str]) -> list[dict[str, Any]]:
    """The report's headline lines as blocks: a title line, then one (label, value) a line.

    A suite's headline is a title line followed by indented ``label  value`` lines (two
    or more spaces between them), as ``report --summary`` prints it.
    """
    blocks: list[dict[str, Any]] = []
    for line in lines:
        if not line.startswith(" ") or not blocks:
            blocks.append({"title": inert(line.strip().rstrip(":")), "rows": []})
            continue
        label, _, value = line.strip().partition("  ")
        blocks[-1]["rows"].append((inert(label), inert(value.strip())))
    return blocks


def episode_index(report: Report) -> pd.DataFrame:
    """One row per episode with what the viewer filters on (outcome, action, behaviour)."""
    frame = report.frame
    columns = ["run", "key", "suite", "model", "arm", "family", "variant", "workflow", "task_id"]
    if frame.empty:
        extra = ["sample", "outcome", "score", "action", "behaviour", "diagnosis"]
        return pd.DataFrame(columns=[*columns, *extra])
    index = frame[columns].copy()
    index["sample"] = frame["sample"]
    index["outcome"] = "incorrect"
    index.loc[frame["correct"] == 1, "outcome"] = "correct"
    if "unscored" in frame:  # own-tools episodes with no verdict
        index.loc[frame["unscored"] == 1, "outcome"] = "unscored"
    index.loc[frame["error"] == 1, "outcome"] = "error"
    if "indeterminate" in frame:
        index.loc[frame["indeterminate"] == 1, "outcome"] = "indeterminate"
    index["score"] = frame["explanation"].fillna("").astype(str)
    if report.labels.empty:
        index["action"] = ""
        index["behaviour"] = ""
        index["diagnosis"] = ""
        return index
    labels = report.labels[["run", "key", "action", "behaviour", "explanation"]]
    labels = labels.rename(columns={"explanation": "diagnosis"})
    index = index.merge(labels, on=["run", "key"], how="left")
    for column in ("action", "behaviour", "diagnosis"):
        index[column] = index[column].fillna("").astype(str)
    return index


def select_episodes(index: pd.DataFrame, max_episodes: int) -> pd.DataFrame:
    """Pick at most ``max_episodes`` rows, round-robin over the strata, in key order."""
    if index.empty or max_episodes <= 0:
        return index.iloc[0:0]
    ordered = index.sort_values(["run", "key"], kind="stable")
    rank = ordered.groupby(_STRATA, sort=False).cumcount()
    ordered = ordered.assign(_rank=rank.to_numpy())
    picked = ordered.sort_values(["_rank", *_STRATA, "run", "key"], kind="stable")
    picked = picked.head(max_episodes).drop(columns="_rank")
    return picked.sort_values(["model", "arm", "task_id", "sample", "run", "key"], kind="stable")


def _events(events: list[dict[str, Any]]) -> list[str]:
    return [
        visible(f"{e.get('family')}/{e.get('variant')} #{e.get('ordinal')}: {e.get('detail')}", 500)
        for e in events
    ]


def _conversation(data: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    trace = data.get("trace") or []
    by_id: dict[str, list[int]] = {}
    for position, entry in enumerate(trace):
        by_id.setdefault(str(entry["call"].get("id")), []).append(position)
    matched: set[int] = set()
    messages = []
    for message in data.get("messages") or []:
        item: dict[str, Any] = {
            "role": message.get("role"),
            "content": visible(message.get("content") or ""),
        }
        if message.get("reasoning"):
            item["reasoning"] = visible(message["reasoning"])
        if message.get("tool_calls"):
            item["calls"] = [
                [visible(c.get("name"), 200), visible(c.get("arguments"), 1000)]
                for c in message["tool_calls"]
            ]
        if message.get("role") == "tool":
            item["name"] = visible(message.get("name") or "", 200)
            waiting = [
                p for p in by_id.get(str(message.get("tool_call_id")), []) if p not in matched
            ]
            if waiting:
                observation = trace[waiting[0]]["observation"]
                matched.add(waiting[0])
                item["ok"] = bool(observation.get("ok"))
                item["events"] = _events(observation.get("hazard_events") or [])
        messages.append(item)
    calls = []
    for position, entry in enumerate(trace):
        observation = entry["observation"]
        call: dict[str, Any] = {
            "tool": visible(entry["call"].get("name"), 200),
            "args": visible(entry["call"].get("arguments"), 1000),
            "ok": bool(observation.get("ok")),
            "events": _events(observation.get("hazard_events") or []),
        }
        if position not in matched:
            call["content"] = visible(observation.get("content"))
        calls.append(call)
    return messages, calls


def count_matches(counts: pd.DataFrame, found: Mapping[str, str]) -> int:
    """How many episodes of the runs a viewer filter matches (not only those shown).

    Args:
        counts: :func:`stratum_counts` of the report's episodes.
        found: The filter.
    """
    mask = pd.Series(True, index=counts.index)
    for field, value in found.items():
        if field == "label":
            mask &= (
                (counts["outcome"] == value)
                | (counts["action"] == value)
                | (counts["behaviour"] == value)
            )
        elif field in counts:
            mask &= counts[field] == value
    return int(counts.loc[mask, "n"].sum())


def stratum_counts(index: pd.DataFrame) -> pd.DataFrame:
    """Episodes per combination of every field a filter can name (a small frame)."""
    fields = [*_STRATA, "workflow"]
    return index.groupby(fields, sort=False, dropna=False).size().rename("n").reset_index()


def hazard_text(arm: str, family: str, variant: str) -> str:
    """What the viewer says of an episode's hazard: none fired in the clean arm."""
    if family in ("", "none"):
        return ""
    if arm == "clean":
        return f"none in the clean arm (the task's hazard elsewhere: {family} / {variant})"
    return f"{family} / {variant}"


def viewer_data(index: pd.DataFrame, max_episodes: int = DEFAULT_MAX_EPISODES) -> dict[str, Any]:
    """The trace viewer's data: the chosen episodes in full, and the filter options.

    Args:
        index: :func:`episode_index` of the report.
        max_episodes: The cap on episodes held.
    """
    chosen = select_episodes(index, max_episodes)
    records: dict[tuple[str, str], dict[str, Any]] = {}
    for run, group in chosen.groupby("run", sort=True):
        store = Store.open_existing(Path(str(run)), read_only=True)
        try:
            for key, text in store.episode_json(keys=list(group["key"])):
                records[(str(run), key)] = json.loads(text)
        finally:
            store.close()
    episodes = []
    for row in chosen.to_dict(orient="records"):
        data = records.get((row["run"], row["key"]))
        if data is None:
            continue
        messages, calls = _conversation(data)
        labels = [row["outcome"]] + [v for v in (row["action"], row["behaviour"]) if v]
        episodes.append(
            {
                "key": visible(row["key"], 500),
                "run": visible(row["run"], 500),
                "suite": row["suite"],
                "model": row["model"],
                "arm": row["arm"],
                "family": row["family"],
                "variant": row["variant"],
                "hazard": hazard_text(row["arm"], row["family"], row["variant"]),
                "workflow": row["workflow"],
                "task": row["task_id"],
                "sample": int(row["sample"]),
                "outcome": row["outcome"],
                "labels": labels,
                "score": visible(row["score"], 1000),
                "diagnosis": row["diagnosis"],
                "answer": visible(data.get("final_answer") or ""),
                "error": visible(data.get("error") or "", 1000),
                "messages": messages,
                "calls": calls,
            }
        )
    label_counts = Counter(label for e in episodes for label in e["labels"])
    known = [*OUTCOMES, *(label for name in SUITES for label in get_suite(name).label_order)]
    # labels no suite orders (ToolFailBench's tool_skip, ...) follow the ordered ones
    present = [*known, *sorted(set(label_counts) - set(known))]
    options = {
        "suite": sorted(set(index["suite"])),
        "model": sorted(set(index["model"])),
        "arm": sorted(set(index["arm"])),
        "family": sorted(set(index["family"])),
        "workflow": sorted(set(index["workflow"])),
        "label": [label for label in present if label in label_counts or label in OUTCOMES],
    }
    return {"episodes": episodes, "options": options, "total": len(index)}


def environment() -> jinja2.Environment:
    """The templates' environment: every value autoescaped, an unknown name an error."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("toolchaos.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}
    return env


def render_html(
    report: Report,
    max_episodes: int = DEFAULT_MAX_EPISODES,
    refresh: int | None = None,
    linked: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """Render the whole report as one HTML document (reloading every ``refresh`` s if set).

    ``linked`` adds the filters other pages link to (by fragment), so the viewer counts
    their episodes in the runs too.
    """
    env = environment()
    index = episode_index(report)
    viewer = viewer_data(index, max_episodes)
    links: dict[str, dict[str, str]] = {k: dict(v) for k, v in (linked or {}).items()}
    tables = [table_view(t, links) for t in report.sections if not t.frame.empty]
    # how many episodes of the runs each table link stands for, shown beside the filter
    counts = stratum_counts(index)
    viewer["counts"] = {
        href[len("#filter=") :]: count_matches(counts, f) for href, f in links.items()
    }
    figures = [
        {
            "name": spec.name,
            "title": spec.title,
            "png": base64.b64encode(render(spec)["png"]).decode("ascii"),
        }
        for spec in report.figures
    ]
    template = env.get_template("report.html.j2")
    return template.render(
        runs=[str(d) for d in report.directories],
        headline=headline_blocks(report.headline),
        refresh=refresh,
        notes=report.notes,
        tables=tables,
        figures=figures,
        viewer=viewer,
        shown=len(viewer["episodes"]),
        total=viewer["total"],
        max_episodes=max_episodes,
        text_limit=TEXT_LIMIT,
        fields=FILTER_FIELDS,
    )


def write_html(report: Report, path: Path, max_episodes: int = DEFAULT_MAX_EPISODES) -> Path:
    """Write the HTML report to ``path`` (parents created); return it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(report, max_episodes), encoding="utf-8")
    return path
