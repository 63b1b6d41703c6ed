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
