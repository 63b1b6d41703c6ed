"""Helpers and constants shared by the lifestyle subtopic templates."""

from __future__ import annotations

from typing import Any

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


def _stores(ctx: TemplateContext, k: int) -> list[Any]:
    return ctx.sample("stores", k)


def _items(ctx: TemplateContext, k: int, category: str | None = None) -> list[Any]:
    return ctx.sample("items", k, lambda i: category is None or i.category == category)


def _price(ctx: TemplateContext, store: Any, item_id: str) -> float:
    price: float = ctx.read("get_item_price", store=store.store_id, item=item_id)["price_usd"]
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
    found = ctx.read(tool, **args)["results"]
    if not found or found[0][id_field] != want:
        raise NoFit(f"{tool}({args}) does not find {want} first")
