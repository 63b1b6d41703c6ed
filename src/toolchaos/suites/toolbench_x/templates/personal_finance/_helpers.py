"""Helpers and constants shared by the personal finance subtopic templates."""

from __future__ import annotations

from typing import Any

from toolchaos.suites.toolbench_x.generate import NoFit, TemplateContext


def _choice(ctx: TemplateContext, items: list[Any], what: str) -> Any:
    """One of ``items`` chosen by the rng, or NoFit when there is none."""
    if not items:
        raise NoFit(f"no {what} fits")
    return ctx.rng.choice(items)


def _usd(amount: float) -> str:
    return f"${amount:,.2f}"
