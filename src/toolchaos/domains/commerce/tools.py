"""The commerce tools: shop catalogue, orders, shipping, after-sales and billing.

Most tools are declared as data through the shared shapes; the ones that touch several
tables or apply the shop's rules (returns, refunds, coupons) are written by hand. Every
refusal is a :class:`ToolError` worded like a shop API: 404 for an unknown id, 409 when the
record is in the wrong state, 422 when the request breaks a business rule.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, cast

from toolchaos.core.tools import Param, Tool, tool
from toolchaos.core.types import ToolKind
from toolchaos.core.world import Row, World
from toolchaos.domains import _shapes as shapes
from toolchaos.domains._common import (
    check_choice,
    conflict,
    dec,
    enum_schema,
    is_integer,
    money,
    not_found,
    row_json,
    stamp,
    stored_key,
    unprocessable,
)
from toolchaos.domains._shapes import Filter
from toolchaos.domains.commerce import data
from toolchaos.domains.commerce.world import (
    INVOICE_STATUSES,
    OPEN_ORDER_STATUSES,
    ORDER_STATUSES,
    RETURN_STATUSES,
    RETURN_WINDOW_DAYS,
    SUBSCRIPTION_STATUSES,
    Address,
    CommerceWorld,
    Order,
    Refund,
    ReturnRequest,
    Subscription,
    order_discount_usd,
    tax_usd,
)

_ZIP = re.compile(r"\d{5}(-\d{4})?")


def _shop(world: World) -> CommerceWorld:
    return cast(CommerceWorld, world)


# -- customers and catalogue -------------------------------------------------------------

get_customer = shapes.lookup(
    "get_customer",
    "customers",
    "customer_id",
    "Customer",
    "Get one customer's profile: name, email, phone, postal address and the date they "
    "became a member (member_since, YYYY-MM-DD).",
    "The customer id, e.g. 'C-0007'.",
)

find_customers = shapes.search(
    "find_customers",
    "customers",
    "Search customers. Every filter given must match; with no filter the first customers "
    "are listed. Returns up to 20 profiles sorted by customer_id in 'results', with "
    "'count' (returned) and 'total' (matching).",
    [
        Filter(
            "name_contains",
            "name",
            "Part of the customer's full name (case-insensitive).",
            op="contains",
        ),
        Filter("email", "email", "The customer's exact email address (case-insensitive)."),
        Filter("city", "city", "The city of the customer's address, e.g. 'Denver'."),
    ],
    sort_by="customer_id",
)

# The catalogue price is served by three independent sources that agree in the clean
# world; each stamps when it last read the price (a few minutes ago, different per source).
_PRICE_SOURCES = ("catalogue", "pricewatch", "marketplace")


def _price_as_of(world: World, product_id: str, source: str) -> str:
    number = int(re.sub(r"\D", "", product_id) or 0)
    minutes = 2 + (number * (7 + 4 * _PRICE_SOURCES.index(source))) % 45
    return stamp(world.now() - timedelta(minutes=minutes))


def _product_view(world: World, row: Row) -> dict[str, Any]:
    out = row_json(row)
    out["as_of"] = _price_as_of(world, out["product_id"], "catalogue")
    return out


get_product = shapes.lookup(
    "get_product",
    "products",
    "product_id",
    "Product",
    "Get one catalogue product: name, category, brand, current list price (price_usd, "
    "US dollars), shipping weight (weight_kg, kilograms), units in stock (stock_qty) and "
    "as_of (UTC time the price was read). The shop's catalogue is the authoritative price; "
    "get_price_pricewatch and get_price_marketplace report the same price_usd "
    "independently.",
    "The product id, e.g. 'P-0012'.",
    view=_product_view,
)


def _quoted_price(world: World, product_id: str, source: str) -> dict[str, Any]:
    products = world.table("products")
    product = products[stored_key(products, product_id, "Product")]
    return {
        "product_id": product.product_id,
        "name": product.name,
        "price_usd": product.price_usd,
        "source": {"pricewatch": "PriceWatch", "marketplace": "Bazaarly"}[source],
        "as_of": _price_as_of(world, product.product_id, source),
    }


@tool()
def get_price_pricewatch(world: CommerceWorld, product_id: str) -> dict[str, Any]:
    """The shop's current price for a product, as checked by PriceWatch, a price tracker.

    PriceWatch is independent of the shop and re-reads its prices every few minutes.
    Returns product_id, name, price_usd (US dollars), source and as_of (UTC time of the
    check). The shop's own catalogue (get_product) is authoritative where they disagree.

    Args:
        world: The shop (not shown to the agent).
        product_id: The shop's product id, e.g. 'P-0012'.
    """
    return _quoted_price(world, product_id, "pricewatch")


@tool()
def get_price_marketplace(world: CommerceWorld, product_id: str) -> dict[str, Any]:
    """The price of the shop's listing for a product on the Bazaarly marketplace.

    The listing mirrors the catalogue price through Bazaarly's own feed. Returns
    product_id, name, price_usd (US dollars), source and as_of (UTC time the feed last
    synced). The shop's own catalogue (get_product) is authoritative where they disagree.

    Args:
        world: The shop (not shown to the agent).
        product_id: The shop's product id, e.g. 'P-0012'.
    """
    return _quoted_price(world, product_id, "marketplace")


search_products = shapes.search(
    "search_products",
    "products",
    "Search the catalogue. Every filter given must match. Returns up to 20 products sorted "
    "by price_usd ascending in 'results', with 'count' (returned) and 'total' (matching). "
    "Prices are current list prices in US dollars.",
    [
        Filter(
            "category",
            "category",
            "Exact product category.",
            schema=enum_schema(tuple(data.CATALOG)),
        ),
        Filter(
            "name_contains", "name", "Part of the product name (case-insensitive).", op="contains"
        ),
        Filter(
            "max_price_usd",
            "price_usd",
            "Highest list price to include, in US dollars (inclusive).",
            schema={"type": "number", "minimum": 0},
            op="max",
        ),
        Filter(
            "min_price_usd",
            "price_usd",
            "Lowest list price to include, in US dollars (inclusive).",
            schema={"type": "number", "minimum": 0},
            op="min",
        ),
    ],
    sort_by="price_usd",
)

# -- orders and shipping ---------------------------------------------------------------


def _order_summary(world: World, row: Row) -> dict[str, Any]:
    order = cast(Order, row)
    return {
        "order_id": order.order_id,
        "customer_id": order.customer_id,
        "status": order.status,
        "placed_at": order.placed_at,
        "item_count": sum(item.qty for item in order.items),
        "total_usd": order.total_usd,
        "coupon_code": order.coupon_code,
        "tracking_number": order.tracking_number,
    }


get_order = shapes.lookup(
    "get_order",
    "orders",
    "order_id",
    "Order",
    "Get one order in full: status (pending, processing, shipped, delivered, cancelled), "
    "placed_at (UTC), line items (product_id, product_name, qty, unit_price_usd paid per "
    "unit), money breakdown in US dollars (subtotal_usd, discount_usd, shipping_usd, "
    "tax_usd, total_usd; tax_rate_pct in percent), applied coupon_code, shipping_address, "
    "the carrier tracking_number once shipped, and the invoice_id.",
    "The order id, e.g. 'O-10042'.",
)

list_orders = shapes.search(
    "list_orders",
    "orders",
    "List orders as summaries (order_id, customer_id, status, placed_at, item_count, "
    "total_usd in US dollars, coupon_code, tracking_number), oldest first. Every filter "
    "given must match. Returns up to 50 in 'results', with 'count' and 'total'. Use "
    "get_order for line items.",
    [
        Filter("customer_id", "customer_id", "Only orders of this customer id, e.g. 'C-0007'."),
        Filter(
            "status", "status", "Only orders in this status.", schema=enum_schema(ORDER_STATUSES)
        ),
    ],
    view=_order_summary,
    sort_by="placed_at",
    limit=50,
)

track_shipment = shapes.lookup(
    "track_shipment",
    "shipments",
    "tracking_number",
    "Shipment",
    "Track a parcel with the carrier (UPS): status (label_created, in_transit, "
    "out_for_delivery, delivered, exception), last_location, eta (expected or actual "
    "delivery date, YYYY-MM-DD), weight_kg (kilograms), service_level, shipped_on, "
    "delivered_on and the order_id. If this service is unavailable, "
    "track_shipment_backup gives the same tracking facts (status, last_location, eta) "
    "from an independent parcel aggregator.",
    "The carrier tracking number, e.g. '1Z...' as shown on the order.",
)

track_shipment_backup = shapes.lookup(
    "track_shipment_backup",
    "backup_tracking",
    "tracking_number",
    "Parcel",
    "Track a parcel through ParcelTrail, an independent parcel aggregator (a second "
    "source for track_shipment). Returns status (label_created, in_transit, "
    "out_for_delivery, delivered, exception), last_location, eta (expected or actual "
    "delivery date, YYYY-MM-DD), plus the aggregator's own parcel_id, carrier_name, "
    "last_scan_at (UTC) and scan_count. It does not know order ids or weights.",
    "The carrier tracking number, e.g. '1Z...' as shown on the order.",
)

# -- promotions, subscriptions, billing ----------------------------------------------------


@tool()
def get_coupon(world: CommerceWorld, code: str) -> dict[str, Any]:
    """Get a coupon's terms and whether it can still be redeemed.

    Returns discount_type ('percent' uses percent_off, 'fixed' uses amount_off_usd in US
    dollars), the category it is limited to (null for sitewide), min_subtotal_usd,
    starts_on and expires_on (inclusive dates, YYYY-MM-DD), max_redemptions (null for
    unlimited), times_redeemed and whether it is active.

    Args:
        world: The shop (not shown to the agent).
        code: The coupon code, e.g. 'SPRING15' (case-insensitive).
    """
    coupon = world.coupons.get(code.strip().upper())
    if coupon is None:
        raise not_found("Coupon", code)
    return row_json(coupon)


get_subscription = shapes.lookup(
    "get_subscription",
    "subscriptions",
    "subscription_id",
    "Subscription",
    "Get one subscription: plan, billing_interval (monthly or annual), price_usd per "
    "billing period in US dollars, status (active, paused, cancelled), started_on, "
    "next_billing_date (null unless active), cancelled_on and cancellation_reason.",
    "The subscription id, e.g. 'SUB-0012'.",
)

list_subscriptions = shapes.search(
    "list_subscriptions",
    "subscriptions",
    "List subscriptions sorted by subscription_id. Every filter given must match. Returns "
    "up to 50 in 'results', with 'count' and 'total'.",
    [
        Filter("customer_id", "customer_id", "Only subscriptions of this customer id."),
        Filter(
            "status",
            "status",
            "Only subscriptions in this status.",
            schema=enum_schema(SUBSCRIPTION_STATUSES),
        ),
    ],
    sort_by="subscription_id",
    limit=50,
)

get_invoice = shapes.lookup(
    "get_invoice",
    "invoices",
    "invoice_id",
    "Invoice",
    "Get one invoice: order_id, customer_id, issued_on (YYYY-MM-DD), amounts in US dollars "
    "(subtotal_usd, discount_usd, shipping_usd, tax_usd and the billed amount_usd) and "
    "status (open, paid, void; void invoices belong to cancelled orders).",
    "The invoice id, e.g. 'INV-10042' (shown on the order as invoice_id).",
)

invoice_total = shapes.aggregate(
    "invoice_total",
    "invoices",
    "Sum the billed amount_usd of a customer's invoices, in US dollars. Includes every "
    "status (open, paid, void) unless status is given. Returns total_amount_usd and "
    "matched (the number of invoices summed); 404 if no invoice matches.",
    "amount_usd",
    "sum",
    [
        Filter("customer_id", "customer_id", "The customer id, e.g. 'C-0007'.", required=True),
        Filter(
            "status",
            "status",
            "Only invoices in this status.",
            schema=enum_schema(INVOICE_STATUSES),
        ),
    ],
    "total_amount_usd",
)

# -- returns and refunds -----------------------------------------------------------------

get_return = shapes.lookup(
    "get_return",
    "returns",
    "return_id",
    "Return",
    "Get one return: order_id, customer_id, product_id, qty, unit_price_usd (US dollars "
    "paid per unit), reason, status (requested = pending review, approved, rejected, "
    "refunded), created_at (UTC) and refund_id once refunded.",
    "The return id, e.g. 'RET-00003'.",
)

list_returns = shapes.search(
    "list_returns",
    "returns",
    "List returns sorted by return_id. Every filter given must match. Returns up to 50 in "
    "'results', with 'count' and 'total'.",
    [
        Filter("order_id", "order_id", "Only returns of this order id."),
        Filter("customer_id", "customer_id", "Only returns of this customer id."),
        Filter(
            "status", "status", "Only returns in this status.", schema=enum_schema(RETURN_STATUSES)
        ),
    ],
    sort_by="return_id",
    limit=50,
)


def _build_return(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    shop = _shop(world)
    order_id, product_id = args["order_id"], args["product_id"]
    qty, reason = args["qty"], args["reason"]
    order = shop.orders.get(order_id)
    if order is None:
        raise not_found("Order", order_id)
    if order.status != "delivered":
        raise conflict(
            f"Order {order_id} is {order.status}; returns can only be opened for delivered orders"
        )
    shipment = shop.shipments.get(order.tracking_number or "")
    if shipment is None or shipment.delivered_on is None:
        raise conflict(f"Order {order_id} has no recorded delivery; a return cannot be opened")
    age = (shop.now().date() - date.fromisoformat(shipment.delivered_on)).days
    if age > RETURN_WINDOW_DAYS:
        raise unprocessable(
            f"Return window closed for order {order_id}: returns are accepted up to "
            f"{RETURN_WINDOW_DAYS} days after delivery"
        )
    item = next((i for i in order.items if i.product_id == product_id), None)
    if item is None:
        raise unprocessable(f"Product {product_id} is not part of order {order_id}")
    if not is_integer(qty) or qty < 1:
        raise unprocessable("qty must be a positive integer")
    already = sum(
        r.qty
        for r in shop.returns.values()
        if r.order_id == order_id and r.product_id == product_id and r.status != "rejected"
    )
    if qty > item.qty - already:
        raise unprocessable(
            f"qty {qty} exceeds the quantity of {product_id} still returnable on order {order_id}"
        )
    check_choice("reason", reason, data.RETURN_REASONS)
    return_id = shop.next_id("RET")
    row = ReturnRequest(
        return_id=return_id,
        order_id=order_id,
        customer_id=order.customer_id,
        product_id=product_id,
        qty=qty,
        unit_price_usd=item.unit_price_usd,
        reason=reason,
        status="approved",
        created_at=stamp(shop.now()),
        refund_id=None,
    )
    return return_id, row


create_return = shapes.create(
    "create_return",
    "returns",
    "Open a return for some units of one product of a delivered order. Accepted only "
    f"within {RETURN_WINDOW_DAYS} days after the delivery date (by the shop's current "
    "date) and for at most the units ordered minus units already in non-rejected returns. "
    "A return that meets this policy is approved at once and can then be refunded with "
    "issue_refund. Returns the new return record (return_id, status, unit_price_usd...).",
    [
        Param("order_id", {"type": "string"}, "The delivered order's id, e.g. 'O-10042'."),
        Param("product_id", {"type": "string"}, "The id of a product in that order."),
        Param("qty", {"type": "integer", "minimum": 1}, "How many units to return (>= 1)."),
        Param("reason", enum_schema(data.RETURN_REASONS), "Why the customer returns the item."),
    ],
    _build_return,
)


@tool(ToolKind.WRITE)
def issue_refund(world: CommerceWorld, return_id: str) -> dict[str, Any]:
    """Refund an approved return to the original payment method.

    The amount is qty x unit_price_usd of the returned item (tax and shipping are not
    refunded). A return is refunded at most once. Returns the refund record (refund_id,
    amount_usd in US dollars, method, status, created_at) and marks the return refunded.

    Args:
        world: The shop (not shown to the agent).
        return_id: The return id, e.g. 'RET-00003'.
    """
    ret = world.returns.get(return_id)
    if ret is None:
        raise not_found("Return", return_id)
    earlier = next((f for f in world.refunds.values() if f.return_id == return_id), None)
    refund_id = ret.refund_id or (earlier.refund_id if earlier else None)
    if ret.status == "refunded" or refund_id is not None:
        raise conflict(f"Return {return_id} has already been refunded (refund {refund_id})")
    if ret.status == "requested":
        raise conflict(
            f"Return {return_id} is pending review; only approved returns can be refunded"
        )
    if ret.status != "approved":
        raise conflict(f"Return {return_id} is {ret.status}; only approved returns can be refunded")
    refund_id = world.next_id("RF")
    refund = Refund(
        refund_id=refund_id,
        return_id=return_id,
        order_id=ret.order_id,
        customer_id=ret.customer_id,
        amount_usd=money(dec(ret.unit_price_usd) * ret.qty),
        method="original_payment",
        status="issued",
        created_at=stamp(world.now()),
    )
    world.insert("refunds", refund_id, refund)
    world.update("returns", return_id, status="refunded", refund_id=refund_id)
    return row_json(refund)


# -- subscription and order changes ------------------------------------------------------


def _cancellation(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    sub = cast(Subscription, row)
    if sub.status == "cancelled":
        raise conflict(f"Subscription {sub.subscription_id} is already cancelled")
    reason = args.get("reason")
    if reason is not None:
        check_choice("reason", reason, data.CANCELLATION_REASONS)
    return {
        "status": "cancelled",
        "cancelled_on": world.now().date().isoformat(),
        "next_billing_date": None,
        "cancellation_reason": reason,
    }


cancel_subscription = shapes.update(
    "cancel_subscription",
    "subscriptions",
    "subscription_id",
    "Subscription",
    "Cancel an active or paused subscription immediately: no further billing. Refused "
    "(409) if it is already cancelled. Returns the updated subscription.",
    "The subscription id, e.g. 'SUB-0012'.",
    [
        Param(
            "reason",
            enum_schema(data.CANCELLATION_REASONS),
            "Why the customer cancels (optional).",
            required=False,
        )
    ],
    _cancellation,
)


def _new_address(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    order = cast(Order, row)
    if order.status not in OPEN_ORDER_STATUSES:
        raise conflict(
            f"Order {order.order_id} is {order.status}; the shipping address can only be "
            "changed before the order ships"
        )
    line1, city = args["address_line1"].strip(), args["city"].strip()
    state, postal_code = args["state"].strip().upper(), args["postal_code"].strip()
    if not line1:
        raise unprocessable("address_line1 must not be empty")
    if not city:
        raise unprocessable("city must not be empty")
    if state not in data.US_STATES:
        raise unprocessable(f"'{args['state']}' is not a two-letter US state code")
    if _ZIP.fullmatch(postal_code) is None:
        raise unprocessable(f"'{args['postal_code']}' is not a valid US ZIP code")
    address = Address(line1=line1, city=city, state=state, postal_code=postal_code)
    return {"shipping_address": address}


update_shipping_address = shapes.update(
    "update_shipping_address",
    "orders",
    "order_id",
    "Order",
    "Change where a pending or processing order will ship (US addresses only). Refused "
    "(409) once the order has shipped, been delivered or been cancelled. Returns the "
    "updated order.",
    "The order id, e.g. 'O-10042'.",
    [
        Param("address_line1", {"type": "string"}, "Street address, e.g. '742 Maple Ave'."),
        Param("city", {"type": "string"}, "City name."),
        Param("state", {"type": "string"}, "Two-letter US state code, e.g. 'CO'."),
        Param("postal_code", {"type": "string"}, "5-digit ZIP code (or ZIP+4, '80202-1234')."),
    ],
    _new_address,
)


@tool(ToolKind.WRITE)
def apply_coupon_to_order(world: CommerceWorld, order_id: str, code: str) -> dict[str, Any]:
    """Apply a coupon to a pending or processing order and recompute its totals.

    One coupon per order. The coupon must be active, within its starts_on..expires_on
    dates (by the shop's current date), below its redemption limit, and the order's
    subtotal_usd must reach min_subtotal_usd. A percent coupon takes percent_off of the
    eligible items (its category, or all items if sitewide), rounded to cents; a fixed
    coupon takes amount_off_usd, at most the eligible amount. Tax is recomputed on the
    discounted subtotal; shipping is unchanged. The order's invoice is updated to match.
    Returns the updated order.

    Args:
        world: The shop (not shown to the agent).
        order_id: The order id, e.g. 'O-10042'.
        code: The coupon code, e.g. 'SPRING15' (case-insensitive).
    """
    order = world.orders.get(order_id)
    if order is None:
        raise not_found("Order", order_id)
    coupon = world.coupons.get(code.strip().upper())
    if coupon is None:
        raise not_found("Coupon", code)
    if order.status not in OPEN_ORDER_STATUSES:
        raise conflict(
            f"Order {order_id} is {order.status}; coupons can only be applied before an order ships"
        )
    if order.coupon_code is not None:
        raise conflict(f"Order {order_id} already has coupon {order.coupon_code} applied")
    today = world.now().date().isoformat()
    if not coupon.active:
        raise unprocessable(f"Coupon {coupon.code} is not active")
    if today < coupon.starts_on:
        raise unprocessable(f"Coupon {coupon.code} is not valid before {coupon.starts_on}")
    if today > coupon.expires_on:
        raise unprocessable(f"Coupon {coupon.code} expired on {coupon.expires_on}")
    if coupon.max_redemptions is not None and coupon.times_redeemed >= coupon.max_redemptions:
        raise unprocessable(f"Coupon {coupon.code} has reached its redemption limit")
    if dec(order.subtotal_usd) < dec(coupon.min_subtotal_usd):
        raise unprocessable(
            f"Coupon {coupon.code} requires a subtotal of at least "
            f"{coupon.min_subtotal_usd:.2f} USD"
        )
    categories = {p.product_id: p.category for p in world.products.values()}
    discount = order_discount_usd(coupon, order.items, categories)
    if discount <= 0:
        raise unprocessable(f"Coupon {coupon.code} does not apply to any item in order {order_id}")
    taxable = dec(order.subtotal_usd) - discount
    tax = tax_usd(taxable, order.tax_rate_pct)
    total = money(taxable + dec(order.shipping_usd) + dec(tax))
    totals = {"discount_usd": money(discount), "tax_usd": tax}
    new = world.update("orders", order_id, coupon_code=coupon.code, total_usd=total, **totals)
    if order.invoice_id in world.invoices:
        world.update("invoices", order.invoice_id, amount_usd=total, **totals)
    world.update("coupons", coupon.code, times_redeemed=coupon.times_redeemed + 1)
    return row_json(new)


TOOLS: list[Tool] = [
    get_customer,
    find_customers,
    get_product,
    get_price_pricewatch,
    get_price_marketplace,
    search_products,
    get_order,
    list_orders,
    track_shipment,
    track_shipment_backup,
    get_coupon,
    get_subscription,
    list_subscriptions,
    get_invoice,
    invoice_total,
    get_return,
    list_returns,
    create_return,
    issue_refund,
    cancel_subscription,
    update_shipping_address,
    apply_coupon_to_order,
]
