"""Report figures with matplotlib: headless (Agg), PNG and SVG, byte-stable output.

Figures are drawn on :class:`matplotlib.figure.Figure` objects without pyplot, so no
global figure state is touched and no display is needed. Files carry no date: SVG ids
are hashed with a fixed salt and the date and software metadata are left out, so the same
report gives the same bytes with the same matplotlib.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from toolchaos.suites.base import FigureSpec

DPI = 100
_RC: dict[Any, Any] = {
    "svg.hashsalt": "toolchaos",
    "svg.fonttype": "path",
    "text.parse_math": False,  # a model name with "$" is a name, not mathtext
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
_PNG_META: dict[str, Any] = {"Software": None}
_SVG_META: dict[str, Any] = {"Date": None, "Creator": None}
_LABEL_CHARS = 40


def short_label(text: str) -> str:
    """A legend or axis label cut to 40 characters (an ellipsis marks the cut)."""
    return text if len(text) <= _LABEL_CHARS else text[: _LABEL_CHARS - 1] + "…"


def colors(n: int) -> list[Any]:
    """``n`` distinct colours, the same for the same ``n`` (tab10, tab20 beyond ten)."""
    from matplotlib import colormaps

    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def render(spec: FigureSpec) -> dict[str, bytes]:
    """Draw one figure and return its PNG and SVG bytes (drawn once, then kept)."""
    if spec.rendered:
        return spec.rendered
    import matplotlib
    from matplotlib.figure import Figure

    with matplotlib.rc_context(_RC):
        figure = Figure(figsize=spec.size, dpi=DPI, layout="constrained")
        spec.draw(figure)
        figure.suptitle(spec.title)
        for fmt, meta in (("png", _PNG_META), ("svg", _SVG_META)):
            buffer = io.BytesIO()
            figure.savefig(buffer, format=fmt, dpi=DPI, metadata=meta)
            spec.rendered[fmt] = buffer.getvalue()
    return spec.rendered


def write_figures(specs: Sequence[FigureSpec], out: Path) -> dict[str, list[Path]]:
    """Write every figure as ``out/NAME.png`` and ``out/NAME.svg``; return paths by name."""
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, list[Path]] = {}
    for spec in specs:
        paths = []
        for fmt, data in render(spec).items():
            path = out / f"{spec.name}.{fmt}"
            path.write_bytes(data)
            paths.append(path)
        written[spec.name] = paths
    return written


def draw_stacked_shares(
    table: pd.DataFrame, categories: Sequence[str], count: str, xlabel: str, figure: Figure
) -> None:
    """Horizontal stacked bars: the share of each category per model (one bar per row).

    Args:
        table: One row per model with a ``model`` column, a count column and one share
            column per category (as :func:`toolchaos.scoring.behaviour.action_table`).
        categories: The share columns, in stacking order.
        count: The column holding each row's count (shown in its label).
        xlabel: The x-axis label.
        figure: Where to draw.
    """
    ax = figure.subplots()
    rows = table[table[count] > 0].iloc[::-1]  # a model with no such episode has no bar
    counts = zip(rows["model"], rows[count], strict=True)
    labels = [f"{short_label(str(m))} (n={int(n)})" for m, n in counts]
    left = [0.0] * len(rows)
    for color, category in zip(colors(len(categories)), categories, strict=True):
        values = [float(v) for v in rows[category]]
        ax.barh(labels, values, left=left, color=color, label=category.replace("_", " "))
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.set_xlim(0, 1)
    ax.set_xlabel(xlabel)
    figure.legend(
        loc="outside lower center", ncols=min(4, len(categories)), frameon=False, fontsize=8
    )


def draw_grouped_bars(
    panels: Sequence[tuple[str, pd.DataFrame]],
    group: str,
    value: str,
    ylabel: str,
    figure: Figure,
    ylim: tuple[float, float] | None = None,
    interval: tuple[str, str] | None = None,
) -> None:
    """Grouped bars, one panel per (title, table): ``group`` on x, a bar per model.

    Args:
        panels: Each panel's title and its table (``model``, ``group`` and ``value``
            columns; a model or group absent from a panel has no bar there).
        group: The column on the x axis (``family``).
        value: The column the bars show.
        ylabel: The y-axis label.
        figure: Where to draw.
        ylim: The y range shared by the panels (None: matplotlib's).
        interval: The low and high columns of an error bar on each bar.
    """
    every = pd.concat([table for _, table in panels], ignore_index=True)
    models = sorted(str(m) for m in every["model"].unique())
    groups = sorted(str(g) for g in every[group].unique())
    palette = colors(len(models))
    axes = figure.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    width = 0.8 / max(1, len(models))
    for ax, (title, table) in zip(axes, panels, strict=True):
        for i, model in enumerate(models):
            rows = table[table["model"] == model].set_index(group)
            values = [_number(rows[value].get(g)) for g in groups]
            positions = [j - 0.4 + width * (i + 0.5) for j in range(len(groups))]
            errors = None
            if interval is not None:
                low, high = ([_number(rows[c].get(g)) for g in groups] for c in interval)
                errors = [
                    [max(0.0, v - lo) for v, lo in zip(values, low, strict=True)],
                    [max(0.0, hi - v) for v, hi in zip(values, high, strict=True)],
                ]
            ax.bar(
                positions,
                values,
                width=width,
                color=palette[i],
                label=short_label(model),
                yerr=errors,
                error_kw={"elinewidth": 0.8, "capsize": 2},
            )
        ax.set_title(title)
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels([g.replace("_", "\n") for g in groups], fontsize=7)
        if ylim is not None:
            ax.set_ylim(*ylim)
    axes[0].set_ylabel(ylabel)
    figure.legend(
        *axes[0].get_legend_handles_labels(),
        loc="outside lower center",
        ncols=min(4, len(models)),
        frameon=False,
    )


def _number(value: Any) -> float:
    """A table cell as a bar's number: NaN (no bar, no error bar) where it holds none."""
    return float("nan") if value is None or pd.isna(value) else float(value)
