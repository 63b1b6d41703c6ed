"""Template helpers shared by the media subtopics.

Templates read the seeded world through READ tools (:func:`read`) only to choose
entities that make a well-posed task (a unique earliest screening, a show that is on
air, a loan that is overdue), never to write the answer.
"""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import RefStep
from toolchaos.suites.toolbench_x.generate import NoFit, TemplateContext

TOPIC = "entertainment and media"
DOMAIN = "media"

RATING_SOURCES = {
    "get_ratings": "CriticHub",
    "get_ratings_fanpulse": "FanPulse",
    "get_ratings_reelmeter": "ReelMeter",
}
RATING_FIELDS = {
    "score_pct": "score (percent of positive reviews)",
    "avg_rating": "average rating out of 10",
}
PRICE_SOURCES = {
    "get_ticket_price": "the venue box office",
    "get_resale_price_ticketnest": "TicketNest",
    "get_resale_price_seatswap": "SeatSwap",
}
TIERS = ("general", "balcony", "floor", "vip")


def rating_source(ctx: TemplateContext) -> tuple[str, str]:
    """A rating tool and the name a person would use for it."""
    tool = ctx.rng.choice(sorted(RATING_SOURCES))
    return tool, RATING_SOURCES[tool]


def rating_field(ctx: TemplateContext) -> tuple[str, str]:
    """A rating field and how a person names it."""
    field = ctx.rng.choice(sorted(RATING_FIELDS))
    return field, RATING_FIELDS[field]


def rating_op(ctx: TemplateContext) -> tuple[str, str]:
    """``max`` or ``min`` and the words for it."""
    op = ctx.rng.choice(["max", "min"])
    return op, {"max": "best", "min": "worst"}[op]


def digits(field: str) -> int | None:
    """How an answer about a rating field is rounded."""
    return 1 if field == "avg_rating" else None


def rating_steps(tool: str, items: list[Any]) -> list[RefStep]:
    """One rating call per item (a title, or a ref to an id)."""
    return [RefStep(tool=tool, args={"item": item}) for item in items]


def distinct(values: list[Any]) -> bool:
    """Whether the values are pairwise different (so a max or min is unique)."""
    return len(set(values)) == len(values)


def unique_top(values: list[Any], op: str) -> None:
    """Refuse a draw whose max or min is shared."""
    best = max(values) if op == "max" else min(values)
    if values.count(best) != 1:
        raise NoFit(f"no unique {op}")


def title_finds(ctx: TemplateContext, title: str, item_id: str) -> bool:
    """Whether search_catalog on the exact title returns this item first."""
    found = ctx.read("search_catalog", query=title)
    return bool(found["results"] and found["results"][0]["item_id"] == item_id)
