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


def _short(text: str) -> str:
    return text if len(text) <= _LABEL_CHARS else text[: _LABEL_CHARS - 1] + "…"


def _colors(n: int) -> list[Any]:
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


def draw_family_accuracy(table: pd.DataFrame, arms: Sequence[str], figure: Figure) -> None:
    """Grouped bars: accuracy per hazard family (x) and model (bars), one panel per arm.

    Args:
        table: :func:`toolchaos.suites.toolbench_x.scoring.breakdown` by ``family``.
        arms: The arm columns to draw, one panel each.
        figure: Where to draw.
    """
    models = sorted(str(m) for m in table["model"].unique())
    families = sorted(str(f) for f in table["family"].unique())
    colors = _colors(len(models))
    axes = figure.subplots(1, len(arms), sharey=True, squeeze=False)[0]
    width = 0.8 / max(1, len(models))
    for ax, arm in zip(axes, arms, strict=True):
        for i, model in enumerate(models):
            rows = table[table["model"] == model].set_index("family")[arm]
            values = [float(rows.get(f, float("nan"))) for f in families]
            positions = [j - 0.4 + width * (i + 0.5) for j in range(len(families))]
            ax.bar(positions, values, width=width, color=colors[i], label=_short(model))
        ax.set_title(arm)
        ax.set_xticks(range(len(families)))
        ax.set_xticklabels([f.replace("_", "\n") for f in families], fontsize=7)
        ax.set_ylim(0, 1.05)
    axes[0].set_ylabel("accuracy")
    figure.legend(
        *axes[0].get_legend_handles_labels(),
        loc="outside lower center",
        ncols=min(4, len(models)),
        frameon=False,
    )


def draw_stacked_shares(
    table: pd.DataFrame, categories: Sequence[str], count: str, xlabel: str, figure: Figure
) -> None:
    """Horizontal stacked bars: the share of each category per model (one bar per row).

    Args:
        table: One row per model with a ``model`` column, a count column and one share
            column per category (as :func:`toolchaos.suites.toolbench_x.diagnostics.action_table`).
        categories: The share columns, in stacking order.
        count: The column holding each row's count (shown in its label).
        xlabel: The x-axis label.
        figure: Where to draw.
    """
    ax = figure.subplots()
    rows = table[table[count] > 0].iloc[::-1]  # a model with no such episode has no bar
    labels = [
        f"{_short(str(m))} (n={int(n)})" for m, n in zip(rows["model"], rows[count], strict=True)
    ]
    left = [0.0] * len(rows)
    for color, category in zip(_colors(len(categories)), categories, strict=True):
        values = [float(v) for v in rows[category]]
        ax.barh(labels, values, left=left, color=color, label=category.replace("_", " "))
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.set_xlim(0, 1)
    ax.set_xlabel(xlabel)
    figure.legend(
        loc="outside lower center", ncols=min(4, len(categories)), frameon=False, fontsize=8
    )
