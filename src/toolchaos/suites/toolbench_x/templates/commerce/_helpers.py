"""Helpers and constants shared by the commerce subtopic templates."""

from __future__ import annotations

from typing import Any

from toolchaos.suites.toolbench_x.generate import TemplateContext

RECENT = "2026-01-31"  # deliveries on or after this are inside the 30-day return window

# where a person checks a price, and the tool that serves it
PRICE_SOURCES = {
    "get_product": "in the shop's catalogue",
    "get_price_pricewatch": "on PriceWatch",
    "get_price_marketplace": "on the shop's Bazaarly marketplace listing",
}


def order_history(ctx: TemplateContext) -> dict[str, list[Any]]:
    """Each customer's orders in the order list_orders returns them (oldest first)."""
    history: dict[str, list[Any]] = {c.customer_id: [] for c in ctx.rows("customers")}
    for order in sorted(ctx.rows("orders"), key=lambda o: (o.placed_at, o.order_id)):
        history[order.customer_id].append(order)
    return history
