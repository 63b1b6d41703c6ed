"""Helpers and constants shared by the lifestyle subtopic templates."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from toolchaos.core.types import ToolKind
from toolchaos.suites.toolbench_x.generate import NoFit, TemplateContext

TOPIC = "lifestyle and daily activities"
DOMAIN = "lifestyle"
PRICE_SOURCES = {
    "get_item_price": "the store's own catalog",
    "compare_item_price": "ShelfScout",
    "get_receipt_price": "ReceiptPal receipts",
}
RATING_SOURCES = {
    "get_rating_locallens": "LocalLens",
    "get_rating_starboard": "StarBoard",
    "get_rating_towntalk": "TownTalk",
}


def _read(ctx: TemplateContext, tool: str, **args: Any) -> Any:
    """Run a READ tool on the template's world, to choose entities that fit."""
    found = ctx.domain.tools[tool]
    if found.kind is not ToolKind.READ:
        raise ValueError(f"templates may only read, and {tool} writes")
    return found(ctx.world, **args)


def _today(ctx: TemplateContext) -> date:
    return ctx.world.now().date()


def _day(ctx: TemplateContext, offset: int) -> str:
    return (_today(ctx) + timedelta(days=offset)).isoformat()


def _when(iso: str) -> str:
    """A date as people write it in a request: weekday and ISO date."""
    return f"{date.fromisoformat(iso):%A} {iso}"


def _stores(ctx: TemplateContext, k: int) -> list[Any]:
    return ctx.sample("stores", k)


def _items(ctx: TemplateContext, k: int, category: str | None = None) -> list[Any]:
    return ctx.sample("items", k, lambda i: category is None or i.category == category)


def _price(ctx: TemplateContext, store: Any, item_id: str) -> float:
    price: float = _read(ctx, "get_item_price", store=store.store_id, item=item_id)["price_usd"]
    return price


def _source(ctx: TemplateContext, sources: dict[str, str]) -> tuple[str, str]:
    """One source tool and how a person names it."""
    tool = ctx.rng.choice(sorted(sources))
    return tool, sources[tool]


def _unique_extreme(values: list[float], op: str) -> None:
    """Refuse a draw whose min or max is shared (the question would be ill-posed)."""
    best = max(values) if op == "max" else min(values)
    if values.count(best) != 1:
        raise NoFit(f"no single {op}")


def _first_match(ctx: TemplateContext, tool: str, id_field: str, want: str, **args: Any) -> None:
    """Refuse a draw where a lookup by name does not give the wanted record first."""
    found = _read(ctx, tool, **args)["results"]
    if not found or found[0][id_field] != want:
        raise NoFit(f"{tool}({args}) does not find {want} first")
