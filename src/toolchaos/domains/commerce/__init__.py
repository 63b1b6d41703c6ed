"""The commerce domain: an online shop with orders, carrier tracking, returns and billing.

``track_shipment`` (the carrier) has a real second source, ``track_shipment_backup`` (a
parcel aggregator), which a fallback recovery can use when the carrier is down. A
product's price comes from three independent sources that agree in the clean world and
stamp ``as_of``: the shop's catalogue (``get_product``, authoritative), the PriceWatch
tracker (``get_price_pricewatch``) and the Bazaarly marketplace listing
(``get_price_marketplace``).
"""

from __future__ import annotations

from toolchaos.domains import Domain, DomainNotes, Fallback, UnitConversion, WriteVerifier, tool_map
from toolchaos.domains._notes import same_params, sources
from toolchaos.domains.commerce.tools import TOOLS
from toolchaos.domains.commerce.world import CommerceWorld

_PRICE_TOOLS = ("get_product", "get_price_pricewatch", "get_price_marketplace")


_USD_CENTS = UnitConversion(to_unit="USD cents", factor=100.0)

DOMAIN = Domain(
    name="commerce",
    topic="commerce",
    world_type=CommerceWorld,
    tools=tool_map(TOOLS),
    notes=DomainNotes(
        fallbacks={
            "track_shipment": Fallback(
                tool="track_shipment_backup", args_map={"tracking_number": "tracking_number"}
            ),
        },
        write_verifiers={
            "create_return": WriteVerifier(
                tool="list_returns",
                args_map={"order_id": "order_id"},
                match={"product_id": "product_id", "order_id": "order_id"},
            ),
        },
        unit_conversions={
            "weight_kg": UnitConversion(to_unit="lb", factor=2.20462),
            **{
                name: _USD_CENTS
                for name in (
                    "price_usd",
                    "unit_price_usd",
                    "subtotal_usd",
                    "discount_usd",
                    "shipping_usd",
                    "tax_usd",
                    "total_usd",
                    "amount_usd",
                    "amount_off_usd",
                    "min_subtotal_usd",
                    "total_amount_usd",
                )
            },
        },
        sources=sources(same_params(_PRICE_TOOLS, "product_id"), ["price_usd"]),
    ),
)

__all__ = ["DOMAIN", "CommerceWorld"]
