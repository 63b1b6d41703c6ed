"""Tests of the commerce domain: the seeded world, every tool, writes and forks."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from conftest import DomainTools, cents, d, forks_of, numeric_keys
from toolchaos.domains.commerce import DOMAIN
from toolchaos.domains.commerce.world import CommerceWorld, LineItem, Order

SEED = 7
SEEDS = [0, 1, 7, 42, 2026]
domain_tools = DomainTools(DOMAIN)
call, refused = domain_tools.call, domain_tools.refused


# -- helpers -------------------------------------------------------------------------------


def today(world: CommerceWorld) -> date:
    return world.now().date()


def delivered_on(world: CommerceWorld, order: Order) -> date:
    assert order.tracking_number is not None
    day = world.shipments[order.tracking_number].delivered_on
    assert day is not None
    return date.fromisoformat(day)


def returnable(world: CommerceWorld, order: Order, item: LineItem) -> int:
    taken = sum(
        r.qty
        for r in world.returns.values()
        if r.order_id == order.order_id
        and r.product_id == item.product_id
        and r.status != "rejected"
    )
    return item.qty - taken


def return_candidates(world: CommerceWorld, in_window: bool) -> Iterator[tuple[Order, LineItem]]:
    for order in world.orders.values():
        if order.status != "delivered":
            continue
        age = (today(world) - delivered_on(world, order)).days
        if (age <= 30) != in_window:
            continue
        for item in order.items:
            if returnable(world, order, item) > 0:
                yield order, item


def first_order(world: CommerceWorld, *statuses: str, coupon: bool | None = None) -> Order:
    for order in world.orders.values():
        if order.status in statuses and (
            coupon is None or (order.coupon_code is not None) == coupon
        ):
            return order
    raise AssertionError(f"seeded world has no order in {statuses}")


def read_calls(world: CommerceWorld) -> list[tuple[str, dict[str, Any]]]:
    """One valid call of every READ tool on ids drawn from the world."""
    order = next(iter(world.orders.values()))
    tracking = next(iter(world.shipments))
    customer = order.customer_id
    return [
        ("get_customer", {"customer_id": customer}),
        ("find_customers", {"city": world.customers[customer].city}),
        ("get_product", {"product_id": next(iter(world.products))}),
        ("get_price_pricewatch", {"product_id": next(iter(world.products))}),
        ("get_price_marketplace", {"product_id": next(iter(world.products))}),
        ("search_products", {"max_price_usd": 100.0}),
        ("get_order", {"order_id": order.order_id}),
        ("list_orders", {"customer_id": customer}),
        ("track_shipment", {"tracking_number": tracking}),
        ("track_shipment_backup", {"tracking_number": tracking}),
        ("get_coupon", {"code": next(iter(world.coupons))}),
        ("get_subscription", {"subscription_id": next(iter(world.subscriptions))}),
        ("list_subscriptions", {"status": "active"}),
        ("get_invoice", {"invoice_id": order.invoice_id}),
        ("invoice_total", {"customer_id": customer}),
        ("get_return", {"return_id": next(iter(world.returns))}),
        ("list_returns", {"status": "refunded"}),
    ]


# -- the domain as declared ----------------------------------------------------------------


def test_track_shipment_names_its_backup() -> None:
    description = DOMAIN.tools["track_shipment"].spec.description
    assert "track_shipment_backup" in description
    assert "unavailable" in description


def test_fallback_note_points_at_a_real_second_source(base: CommerceWorld) -> None:
    fallback = DOMAIN.notes.fallbacks["track_shipment"]
    backup = DOMAIN.tools[fallback.tool]
    primary = DOMAIN.tools["track_shipment"]
    for new, old in fallback.args_map.items():
        assert new in backup.spec.parameters["properties"]
        assert old in primary.spec.parameters["properties"]
    tracking = next(iter(base.shipments))
    args = {new: tracking for new in fallback.args_map}
    got = backup(base, **args)
    assert got["tracking_number"] == tracking
    assert "order_id" not in got  # the aggregator's own record, not a copy of the carrier's


def test_three_price_sources_agree_in_the_clean_world(base: CommerceWorld) -> None:
    sources = DOMAIN.notes.sources
    assert set(sources) == {"get_product", "get_price_pricewatch", "get_price_marketplace"}
    for product in list(base.products.values())[:10]:
        got = {t: call(base, t, product_id=product.product_id.lower()) for t in sources}
        assert {r["price_usd"] for r in got.values()} == {product.price_usd}
        stamps = {r["as_of"] for r in got.values()}
        assert len(stamps) == 3  # each source read the price at its own time
        for when in stamps:
            assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:00Z", when)
            assert when < base.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    for tool, entry in sources.items():
        assert entry.authoritative == "get_product"
        assert "authoritative" in DOMAIN.tools[tool].spec.description
    refused(base, "get_price_pricewatch", 404, product_id="P-9999")
    refused(base, "get_price_marketplace", 404, product_id="P-9999")


def test_unit_conversions_cover_fields_the_tools_return(base: CommerceWorld) -> None:
    conversions = DOMAIN.notes.unit_conversions
    assert conversions["weight_kg"].model_dump() == {
        "to_unit": "lb",
        "factor": pytest.approx(2.20462),
        "fixed": True,
    }
    assert conversions["price_usd"].factor == 100
    assert conversions["amount_usd"].factor == 100
    seen: set[str] = set()
    world = base.fork()
    for name, args in read_calls(world):
        seen.update(numeric_keys(call(world, name, **args)))
    seen.update(numeric_keys(call(world, "issue_refund", return_id=approved_return(world))))
    for name, conversion in conversions.items():
        assert name in seen, f"no tool returns {name}"
        assert conversion.factor > 0 and conversion.to_unit


def test_results_are_json_with_units_in_float_names(base: CommerceWorld) -> None:
    for name, result in domain_tools.read_results(base, read_calls(base)):
        for key in numeric_keys(result, floats_only=True):
            assert key.endswith(("_usd", "_kg", "_pct")), f"{name} returns unitless {key}"


# -- the seeded world ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_world_tables_are_consistent(seed: int) -> None:
    w = CommerceWorld.build(seed)
    now = w.now()
    assert (len(w.customers), len(w.products), len(w.orders)) == (40, 60, 120)
    assert len(w.coupons) == 15 and len(w.subscriptions) == 30
    assert all(re.fullmatch(r"C-\d{4}", k) for k in w.customers)
    assert all(re.fullmatch(r"P-\d{4}", k) for k in w.products)
    assert all(re.fullmatch(r"O-1\d{4}", k) for k in w.orders)
    assert len({c.email for c in w.customers.values()}) == len(w.customers)
    shipped = {o.order_id for o in w.orders.values() if o.status in ("shipped", "delivered")}
    assert {s.order_id for s in w.shipments.values()} == shipped
    assert set(w.backup_tracking) == set(w.shipments)
    assert {i.order_id for i in w.invoices.values()} == set(w.orders)
    for number, shipment in w.shipments.items():
        assert re.fullmatch(r"1Z[0-9A-Z]{16}", number)
        assert w.orders[shipment.order_id].tracking_number == number
    for product in w.products.values():
        assert d(product.price_usd) == d(product.price_usd).quantize(Decimal("0.01"))
    for order in w.orders.values():
        assert order.placed_at <= now.strftime("%Y-%m-%dT%H:%M:%SZ")
        subtotal = sum((d(i.unit_price_usd) * i.qty for i in order.items), Decimal(0))
        assert order.subtotal_usd == cents(subtotal)
        total = subtotal - d(order.discount_usd) + d(order.shipping_usd) + d(order.tax_usd)
        assert order.total_usd == cents(total)
        assert w.invoices[order.invoice_id].amount_usd == order.total_usd
    for refund in w.refunds.values():
        ret = w.returns[refund.return_id]
        assert ret.status == "refunded" and ret.refund_id == refund.refund_id
        assert refund.amount_usd == cents(d(ret.unit_price_usd) * ret.qty)
    assert w.id_counters == {"RET": len(w.returns), "RF": len(w.refunds)}


@pytest.mark.parametrize("seed", SEEDS)
def test_primary_and_backup_tracking_agree(seed: int) -> None:
    w = CommerceWorld.build(seed)
    for number in w.shipments:
        primary = call(w, "track_shipment", tracking_number=number)
        backup = call(w, "track_shipment_backup", tracking_number=number)
        for fact in ("status", "last_location", "eta"):
            assert primary[fact] == backup[fact], (number, fact)


def test_shipment_facts_follow_the_world_clock(base: CommerceWorld) -> None:
    for shipment in base.shipments.values():
        if shipment.status == "delivered":
            assert shipment.delivered_on == shipment.eta <= today(base).isoformat()
            assert shipment.last_location == shipment.destination
        else:
            assert shipment.delivered_on is None
            assert shipment.eta >= today(base).isoformat()


# -- READ tools ----------------------------------------------------------------------------


def test_read_tools_do_not_change_the_world(world: CommerceWorld) -> None:
    domain_tools.check_reads_change_nothing(world, read_calls(world))


def test_get_customer_and_find_customers(base: CommerceWorld) -> None:
    customer = base.customers["C-0003"]
    assert call(base, "get_customer", customer_id="C-0003") == customer.model_dump(mode="json")
    last = customer.name.split()[-1]
    got = call(base, "find_customers", name_contains=last.lower())
    want = sorted(c.customer_id for c in base.customers.values() if last in c.name)
    assert [r["customer_id"] for r in got["results"]] == want
    by_email = call(base, "find_customers", email=customer.email.upper())
    assert [r["customer_id"] for r in by_email["results"]] == ["C-0003"]
    by_city = call(base, "find_customers", city=customer.city)
    assert by_city["total"] == sum(c.city == customer.city for c in base.customers.values())


def test_product_lookup_and_search(base: CommerceWorld) -> None:
    product = next(iter(base.products.values()))
    got = call(base, "get_product", product_id=product.product_id)
    assert got["price_usd"] == product.price_usd and got["weight_kg"] == product.weight_kg
    limit = product.price_usd
    result = call(base, "search_products", category=product.category, max_price_usd=limit)
    want = [
        p.product_id
        for p in base.products.values()
        if p.category == product.category and p.price_usd <= limit
    ]
    assert sorted(r["product_id"] for r in result["results"]) == sorted(want)
    prices = [r["price_usd"] for r in result["results"]]
    assert prices == sorted(prices) and product.product_id in want
    word = product.name.split()[-1]
    named = call(base, "search_products", name_contains=word.upper(), min_price_usd=limit)
    assert all(word in r["name"] and r["price_usd"] >= limit for r in named["results"])
    assert product.product_id in {r["product_id"] for r in named["results"]}


def test_orders_lookup_and_listing(base: CommerceWorld) -> None:
    order = base.orders["O-10060"]
    got = call(base, "get_order", order_id="O-10060")
    assert got["items"] == [i.model_dump(mode="json") for i in order.items]
    assert got["total_usd"] == order.total_usd
    listed = call(base, "list_orders", customer_id=order.customer_id)
    mine = sorted(
        (o for o in base.orders.values() if o.customer_id == order.customer_id),
        key=lambda o: o.placed_at,
    )
    assert [r["order_id"] for r in listed["results"]] == [o.order_id for o in mine]
    row = next(r for r in listed["results"] if r["order_id"] == "O-10060")
    assert row["item_count"] == sum(i.qty for i in order.items)
    cancelled = call(base, "list_orders", status="cancelled")
    assert cancelled["total"] == sum(o.status == "cancelled" for o in base.orders.values())


def test_coupon_subscription_invoice_and_return_lookups(base: CommerceWorld) -> None:
    code = next(iter(base.coupons))
    assert call(base, "get_coupon", code=code.lower()) == base.coupons[code].model_dump(mode="json")
    sub = next(iter(base.subscriptions.values()))
    assert call(base, "get_subscription", subscription_id=sub.subscription_id)["plan"] == sub.plan
    active = call(base, "list_subscriptions", customer_id=sub.customer_id, status=sub.status)
    want = [
        s.subscription_id
        for s in base.subscriptions.values()
        if s.customer_id == sub.customer_id and s.status == sub.status
    ]
    assert [r["subscription_id"] for r in active["results"]] == want
    invoice = next(iter(base.invoices.values()))
    assert (
        call(base, "get_invoice", invoice_id=invoice.invoice_id)["amount_usd"] == invoice.amount_usd
    )
    ret = next(iter(base.returns.values()))
    assert call(base, "get_return", return_id=ret.return_id)["qty"] == ret.qty
    listed = call(base, "list_returns", order_id=ret.order_id)
    assert ret.return_id in [r["return_id"] for r in listed["results"]]


def test_invoice_total_sums_the_customers_invoices(base: CommerceWorld) -> None:
    customer = base.orders["O-10001"].customer_id
    mine = [i for i in base.invoices.values() if i.customer_id == customer]
    got = call(base, "invoice_total", customer_id=customer)
    assert got == {
        "total_amount_usd": cents(sum((d(i.amount_usd) for i in mine), Decimal(0))),
        "matched": len(mine),
    }
    paid = [i for i in mine if i.status == "paid"]
    got_paid = call(base, "invoice_total", customer_id=customer, status="paid")
    assert got_paid["matched"] == len(paid)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("get_customer", {"customer_id": "C-9999"}),
        ("get_product", {"product_id": "P-9999"}),
        ("get_order", {"order_id": "O-99999"}),
        ("track_shipment", {"tracking_number": "1Z0000000000000000"}),
        ("track_shipment_backup", {"tracking_number": "1Z0000000000000000"}),
        ("get_coupon", {"code": "NOSUCHCODE"}),
        ("get_subscription", {"subscription_id": "SUB-9999"}),
        ("get_invoice", {"invoice_id": "INV-99999"}),
        ("invoice_total", {"customer_id": "C-9999"}),
        ("get_return", {"return_id": "RET-99999"}),
    ],
)
def test_unknown_ids_are_404(base: CommerceWorld, name: str, args: dict[str, Any]) -> None:
    error = refused(base, name, 404, **args)
    assert error.kind == "not_found"


# -- create_return and issue_refund ----------------------------------------------------------


def approved_return(world: CommerceWorld) -> str:
    return next(r.return_id for r in world.returns.values() if r.status == "approved")


def test_create_return_then_refund(base: CommerceWorld, world: CommerceWorld) -> None:
    # Return several units, so the refund amount depends on qty.
    order, item = max(return_candidates(world, in_window=True), key=lambda c: returnable(world, *c))
    qty = returnable(world, order, item)
    assert qty >= 2
    before = world.state_hash()
    ret = call(
        world,
        "create_return",
        order_id=order.order_id,
        product_id=item.product_id,
        qty=qty,
        reason="damaged",
    )
    assert ret["return_id"] == f"RET-{len(base.returns) + 1:05d}"
    assert (ret["status"], ret["qty"], ret["unit_price_usd"]) == (
        "approved",
        qty,
        item.unit_price_usd,
    )
    assert ret["customer_id"] == order.customer_id
    assert world.returns[ret["return_id"]].created_at.startswith(today(world).isoformat())
    after_return = world.state_hash()
    assert after_return != before

    refund = call(world, "issue_refund", return_id=ret["return_id"])
    assert refund["amount_usd"] == cents(d(item.unit_price_usd) * qty)
    assert refund["refund_id"] == f"RF-{len(base.refunds) + 1:05d}"
    assert world.returns[ret["return_id"]].status == "refunded"
    assert world.returns[ret["return_id"]].refund_id == refund["refund_id"]
    assert world.state_hash() != after_return

    error = refused(world, "issue_refund", 409, return_id=ret["return_id"])
    assert refund["refund_id"] in error.message
    refused(
        world,
        "create_return",
        422,
        order_id=order.order_id,
        product_id=item.product_id,
        qty=1,
        reason="damaged",
    )
    assert ret["return_id"] not in base.returns


def test_write_verifier_finds_the_return_a_write_created(world: CommerceWorld) -> None:
    order, item = next(return_candidates(world, in_window=True))
    args = {"order_id": order.order_id, "product_id": item.product_id, "qty": 1}
    assert set(DOMAIN.notes.write_verifiers) == {"create_return"}
    before = domain_tools.verified_records(world, "create_return", args)
    created = call(world, "create_return", **args, reason="damaged")
    assert domain_tools.verified_records(world, "create_return", args) == [*before, created]


def test_create_return_refusals(world: CommerceWorld) -> None:
    order, item = next(return_candidates(world, in_window=True))
    ok = {"order_id": order.order_id, "product_id": item.product_id, "qty": 1, "reason": "other"}
    refused(world, "create_return", 404, **{**ok, "order_id": "O-99999"})
    for status in ("pending", "processing", "shipped", "cancelled"):
        other = first_order(world, status)
        error = refused(
            world,
            "create_return",
            409,
            **{**ok, "order_id": other.order_id, "product_id": other.items[0].product_id},
        )
        assert status in error.message
    stranger = next(p for p in world.products if p not in {i.product_id for i in order.items})
    refused(world, "create_return", 422, **{**ok, "product_id": stranger})
    too_many = returnable(world, order, item) + 1
    refused(world, "create_return", 422, **{**ok, "qty": too_many})
    old, old_item = next(return_candidates(world, in_window=False))
    error = refused(
        world,
        "create_return",
        422,
        **{**ok, "order_id": old.order_id, "product_id": old_item.product_id},
    )
    assert "window" in error.message
    assert world.written_tables() == set()


@pytest.mark.parametrize(("extra_days", "allowed"), [(0, True), (1, False)])
def test_return_window_is_thirty_days_by_the_world_clock(
    world: CommerceWorld, extra_days: int, allowed: bool
) -> None:
    order, item = next(return_candidates(world, in_window=True))
    age = (today(world) - delivered_on(world, order)).days
    world.advance((30 - age + extra_days) * 24 * 60)
    assert (today(world) - delivered_on(world, order)).days == 30 + extra_days
    args = {"order_id": order.order_id, "product_id": item.product_id, "qty": 1, "reason": "other"}
    if allowed:
        assert call(world, "create_return", **args)["status"] == "approved"
    else:
        refused(world, "create_return", 422, **args)


def test_issue_refund_on_seeded_returns(world: CommerceWorld) -> None:
    ret = world.returns[approved_return(world)]
    refund = call(world, "issue_refund", return_id=ret.return_id)
    assert refund["amount_usd"] == cents(d(ret.unit_price_usd) * ret.qty)
    assert refund["order_id"] == ret.order_id and refund["status"] == "issued"
    assert refund["refund_id"] in world.refunds
    by_status = {r.status: r.return_id for r in world.returns.values()}
    for status in ("refunded", "requested", "rejected"):
        error = refused(world, "issue_refund", 409, return_id=by_status[status])
        assert error.kind == "conflict"
        assert {"refunded": "already", "requested": "pending review", "rejected": "rejected"}[
            status
        ] in error.message
    refused(world, "issue_refund", 404, return_id="RET-99999")


# -- cancel_subscription, update_shipping_address, apply_coupon_to_order ---------------------


def test_cancel_subscription(world: CommerceWorld) -> None:
    active = next(s for s in world.subscriptions.values() if s.status == "active")
    before = world.state_hash()
    got = call(
        world, "cancel_subscription", subscription_id=active.subscription_id, reason="moving"
    )
    assert got["status"] == "cancelled" and got["cancellation_reason"] == "moving"
    assert got["cancelled_on"] == today(world).isoformat()
    assert got["next_billing_date"] is None
    assert world.state_hash() != before
    refused(world, "cancel_subscription", 409, subscription_id=active.subscription_id)
    gone = next(s for s in world.subscriptions.values() if s.status == "cancelled")
    refused(world, "cancel_subscription", 409, subscription_id=gone.subscription_id)
    refused(world, "cancel_subscription", 404, subscription_id="SUB-9999")


def test_update_shipping_address(world: CommerceWorld) -> None:
    order = first_order(world, "pending", "processing")
    address = {"address_line1": "742 Evergreen Ter", "city": "Springfield", "postal_code": "62704"}
    before = world.state_hash()
    got = call(world, "update_shipping_address", order_id=order.order_id, state="il", **address)
    assert got["shipping_address"] == {
        "line1": "742 Evergreen Ter",
        "city": "Springfield",
        "state": "IL",
        "postal_code": "62704",
        "country": "US",
    }
    assert world.orders[order.order_id].shipping_address.city == "Springfield"
    assert world.state_hash() != before
    shipped = first_order(world, "shipped")
    refused(world, "update_shipping_address", 409, order_id=shipped.order_id, state="IL", **address)
    refused(world, "update_shipping_address", 404, order_id="O-99999", state="IL", **address)
    refused(world, "update_shipping_address", 422, order_id=order.order_id, state="ZZ", **address)
    bad_zip = {**address, "postal_code": "6270"}
    refused(world, "update_shipping_address", 422, order_id=order.order_id, state="IL", **bad_zip)
    blank = {**address, "address_line1": "  "}
    refused(world, "update_shipping_address", 422, order_id=order.order_id, state="IL", **blank)


def usable_sitewide_coupon(world: CommerceWorld, order: Order) -> str:
    now = today(world).isoformat()
    for c in world.coupons.values():
        if (
            c.active
            and c.category is None
            and c.discount_type == "percent"
            and c.starts_on <= now <= c.expires_on
            and (c.max_redemptions is None or c.times_redeemed < c.max_redemptions)
            and c.min_subtotal_usd <= order.subtotal_usd
        ):
            return c.code
    raise AssertionError("seeded world has no usable sitewide coupon")


def test_apply_coupon_to_order(base: CommerceWorld, world: CommerceWorld) -> None:
    order = first_order(world, "pending", "processing", coupon=False)
    code = usable_sitewide_coupon(world, order)
    coupon = world.coupons[code]
    before = world.state_hash()
    got = call(world, "apply_coupon_to_order", order_id=order.order_id, code=code.lower())
    subtotal = d(order.subtotal_usd)
    discount = cents(subtotal * coupon.percent_off / 100)
    tax = cents((subtotal - d(discount)) * d(order.tax_rate_pct) / 100)
    total = cents(subtotal - d(discount) + d(order.shipping_usd) + d(tax))
    assert (got["coupon_code"], got["discount_usd"], got["tax_usd"]) == (code, discount, tax)
    assert got["total_usd"] == total
    invoice = world.invoices[order.invoice_id]
    assert (invoice.amount_usd, invoice.discount_usd) == (total, discount)
    assert world.coupons[code].times_redeemed == coupon.times_redeemed + 1
    assert world.state_hash() != before
    error = refused(world, "apply_coupon_to_order", 409, order_id=order.order_id, code=code)
    assert "already" in error.message
    assert base.orders[order.order_id].coupon_code is None
    assert base.coupons[code].times_redeemed == coupon.times_redeemed


def test_apply_coupon_refusals(world: CommerceWorld) -> None:
    order = first_order(world, "pending", "processing", coupon=False)
    good = usable_sitewide_coupon(world, order)
    now = today(world).isoformat()
    coupons = list(world.coupons.values())
    expired = next(c.code for c in coupons if c.expires_on < now)
    upcoming = next(c.code for c in coupons if c.starts_on > now)
    inactive = next(c.code for c in coupons if not c.active)
    exhausted = next(
        c.code
        for c in coupons
        if c.max_redemptions is not None and c.times_redeemed >= c.max_redemptions
    )
    oid = order.order_id
    for code in (expired, upcoming, inactive, exhausted):
        refused(world, "apply_coupon_to_order", 422, order_id=oid, code=code)
    refused(world, "apply_coupon_to_order", 404, order_id=oid, code="NOSUCHCODE")
    refused(world, "apply_coupon_to_order", 404, order_id="O-99999", code=good)
    for status in ("shipped", "delivered", "cancelled"):
        closed = first_order(world, status, coupon=False)
        error = refused(world, "apply_coupon_to_order", 409, order_id=closed.order_id, code=good)
        assert status in error.message
    assert world.written_tables() == set()

    world.update("coupons", good, min_subtotal_usd=order.subtotal_usd + 0.01)
    refused(world, "apply_coupon_to_order", 422, order_id=oid, code=good)
    ordered = {world.products[i.product_id].category for i in order.items}
    elsewhere = next(c for c in world.products.values() if c.category not in ordered).category
    world.update("coupons", good, min_subtotal_usd=0.0, category=elsewhere)
    error = refused(world, "apply_coupon_to_order", 422, order_id=oid, code=good)
    assert "does not apply" in error.message


# -- forks ----------------------------------------------------------------------------------


def test_fork_writes_never_leak_into_the_base(base: CommerceWorld) -> None:
    with forks_of(base) as (first, second):
        ret_id = approved_return(first)
        call(first, "issue_refund", return_id=ret_id)
        sub = next(s.subscription_id for s in first.subscriptions.values() if s.status == "active")
        call(first, "cancel_subscription", subscription_id=sub)
    assert base.returns[ret_id].status == "approved" and second.returns[ret_id].status == "approved"
    assert base.subscriptions[sub].status == "active"
    assert (
        call(second, "issue_refund", return_id=ret_id)["refund_id"]
        == call(first.fork(), "get_return", return_id=ret_id)["refund_id"]
    )
