"""Commerce subtopic "coupons and promotions": coupon terms, applying codes, savings."""

from __future__ import annotations

from collections import Counter
from typing import Any

from toolchaos.core.errors import ToolError
from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
)
from toolchaos.suites.toolbench_x.templates.commerce._helpers import PRICE_SOURCES, order_history

# (coupon field, op, how a person asks about it)
_TERMS = (
    ("times_redeemed", "max", "how many times the most popular of them has been used"),
    ("times_redeemed", "min", "how many times the least used of them has been redeemed"),
    ("min_subtotal_usd", "max", "the highest minimum spend among them, in dollars"),
    ("percent_off", "max", "the biggest percentage discount any of them gives"),
)


def coupon_on_open_order(ctx: TemplateContext) -> Draft:
    """Sequential, writes: customer by email -> their open order -> apply a coupon; new total."""
    open_orders = Counter(
        o.customer_id for o in ctx.rows("orders", lambda o: o.status in ("pending", "processing"))
    )
    customer = ctx.pick("customers", lambda c: open_orders[c.customer_id] == 1)
    order = ctx.rows(
        "orders",
        lambda o: o.customer_id == customer.customer_id and o.status in ("pending", "processing"),
    )[0]
    codes = [c.code for c in ctx.rows("coupons")]
    ctx.rng.shuffle(codes)
    for code in codes:
        try:  # a probe on a throwaway fork: does the shop accept this code on the order?
            ctx.domain.tools["apply_coupon_to_order"](
                ctx.world.fork(), order_id=order.order_id, code=code
            )
        except ToolError:
            continue
        break
    else:
        raise NoFit("no coupon applies to the order")
    on_invoice = ctx.rng.random() < 0.5
    prompt = ctx.say(
        "Hi, I'm {email}. Please put the code {code} on my order that hasn't shipped yet "
        "and tell me the new {total}.",
        "This is {first} ({email}). I have a coupon, {code}. Apply it to my open order; what "
        "is the {total} now?",
        "Can you apply promo code {code} to the pending order on the account {email}? "
        "What's the {total} after the discount?",
        email=customer.email,
        first=customer.name.split()[0],
        code=code.lower() if ctx.rng.random() < 0.3 else code,
        total="amount on its invoice" if on_invoice else "order total",
    )
    steps = [
        RefStep(tool="find_customers", args={"email": customer.email}),
        RefStep(
            tool="list_orders",
            args={
                "customer_id": ref(0, "results", 0, "customer_id"),
                "status": order.status,
            },
        ),
        RefStep(
            tool="apply_coupon_to_order",
            args={"order_id": ref(1, "results", 0, "order_id"), "code": code},
        ),
    ]
    if not on_invoice:
        answer = AnswerSpec(op="value", refs=[[2, "total_usd"]], round=2)
        return Draft(prompt, steps, answer, writes=True)
    steps.append(RefStep(tool="get_invoice", args={"invoice_id": ref(2, "invoice_id")}))
    answer = AnswerSpec(op="value", refs=[[3, "amount_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def coupon_of_an_order(ctx: TemplateContext) -> Draft:
    """Sequential: invoice (or parcel) -> its order -> the coupon used there; one of its terms."""
    order = ctx.pick("orders", lambda o: o.coupon_code is not None and o.tracking_number)
    field, words = ctx.rng.choice(
        [
            ("times_redeemed", "how many times has that code been used so far"),
            ("min_subtotal_usd", "what minimum spend does that code require (USD)"),
            ("expires_on", "when does that code expire"),
        ]
    )
    if ctx.rng.random() < 0.5:
        prompt = ctx.say(
            "My invoice {inv} shows a discount. Which coupon was on that order, and " + words + "?",
            "Looking at invoice {inv}: the order used a promo code. " + words.capitalize() + "?",
            inv=order.invoice_id,
        )
        first = RefStep(tool="get_invoice", args={"invoice_id": order.invoice_id})
    else:
        prompt = ctx.say(
            "The parcel {trk} came with a discount on its order. Find the promo code used: "
            + words
            + "?",
            "I got parcel {trk} and the order used a coupon. " + words.capitalize() + "?",
            trk=order.tracking_number,
        )
        first = RefStep(tool="track_shipment", args={"tracking_number": order.tracking_number})
    steps = [
        first,
        RefStep(tool="get_order", args={"order_id": ref(0, "order_id")}),
        RefStep(tool="get_coupon", args={"code": ref(1, "coupon_code")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def my_coupon_by_email(ctx: TemplateContext) -> Draft:
    """Sequential: customer by email -> their orders -> the one coupon they used; its terms."""
    mine = {
        customer: [i for i, o in enumerate(orders) if o.coupon_code is not None]
        for customer, orders in order_history(ctx).items()
    }
    customer = ctx.pick("customers", lambda c: len(mine[c.customer_id]) == 1)
    field, asks = ctx.rng.choice(
        [
            ("expires_on", "until when is that code valid"),
            ("min_subtotal_usd", "what minimum spend does it need, in USD"),
            ("times_redeemed", "how many times has it been redeemed by now"),
        ]
    )
    prompt = ctx.say(
        "I'm {email}. I used a promo code on exactly one of my orders; {asks}?",
        "Account {email}: one of my past orders had a coupon on it. Find the code: {asks}?",
        email=customer.email,
        asks=asks,
    )
    steps = [
        RefStep(tool="find_customers", args={"email": customer.email}),
        RefStep(tool="list_orders", args={"customer_id": ref(0, "results", 0, "customer_id")}),
        RefStep(
            tool="get_coupon",
            args={"code": ref(1, "results", mine[customer.customer_id][0], "coupon_code")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def compare_coupon_terms(ctx: TemplateContext) -> Draft:
    """Parallel: k coupons' terms; the min or max of one term."""
    field, op, words = ctx.rng.choice(_TERMS)
    pool = (
        ctx.rows("coupons", lambda c: c.discount_type == "percent")
        if field == "percent_off"
        else ctx.rows("coupons")
    )
    k = ctx.count(3, 6)
    if len(pool) < k:
        raise NoFit("too few coupons")
    coupons = ctx.rng.sample(pool, k)
    prompt = ctx.say(
        "I have {n} promo codes: {all}. Tell me {words}.",
        "Compare the coupons {all}: {words}?",
        "Check codes {all} and give me {words}.",
        n=k,
        all=listing([c.code for c in coupons]),
        words=words,
    )
    steps = [RefStep(tool="get_coupon", args={"code": c.code}) for c in coupons]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, field] for i in range(k)]))


def orders_discount_total(ctx: TemplateContext) -> Draft:
    """Parallel: k orders; the total (or largest) coupon discount they got."""
    k = ctx.count(3, 6)
    orders = ctx.sample("orders", k, lambda o: o.coupon_code is not None)
    op = ctx.rng.choice(["sum", "max"])
    words = {
        "sum": "how much did coupons save me in total",
        "max": "what was the biggest coupon saving on any of them",
    }[op]
    prompt = ctx.say(
        "On my orders {all}, {words}?",
        "Orders {all}: {words} (in dollars)?",
        all=listing([o.order_id for o in orders]),
        words=words,
    )
    steps = [RefStep(tool="get_order", args={"order_id": o.order_id}) for o in orders]
    answer = AnswerSpec(op=op, refs=[[i, "discount_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def customer_coupon_savings(ctx: TemplateContext) -> Draft:
    """Mixture: customer by email -> their orders -> each order in full -> total discount."""
    orders = ctx.rows("orders")
    by_customer: dict[str, list[str]] = {}
    for o in orders:
        by_customer.setdefault(o.customer_id, []).append(o.order_id)
    coupons = {o.customer_id for o in orders if o.coupon_code is not None}
    customer = ctx.pick(
        "customers",
        lambda c: c.customer_id in coupons and 2 <= len(by_customer.get(c.customer_id, [])) <= 6,
    )
    count = len(by_customer[customer.customer_id])
    prompt = ctx.say(
        "I'm {email}. Across all my orders, how much have coupons knocked off in total?",
        "How much have I saved with promo codes on every order I've placed? My email is {email}.",
        "Account {email}: add up the coupon discounts over all of my orders, please.",
        email=customer.email,
    )
    steps = [
        RefStep(tool="find_customers", args={"email": customer.email}),
        RefStep(tool="list_orders", args={"customer_id": ref(0, "results", 0, "customer_id")}),
    ]
    steps += [
        RefStep(tool="get_order", args={"order_id": ref(1, "results", i, "order_id")})
        for i in range(count)
    ]
    refs = [[2 + i, "discount_usd"] for i in range(count)]
    return Draft(prompt, steps, AnswerSpec(op="sum", refs=refs, round=2))


def codes_used_on_orders(ctx: TemplateContext) -> Draft:
    """Mixture: k orders in parallel -> the coupon each used -> the most or least used code."""
    k = ctx.count(2, 4)
    with_code = ctx.rows("orders", lambda o: o.coupon_code is not None)
    first: dict[str, Any] = {}
    for order in with_code:  # one order per code, so the codes compared differ
        first.setdefault(order.coupon_code, order)
    if len(first) < k:
        raise NoFit("too few distinct coupons on orders")
    orders = ctx.rng.sample(sorted(first.values(), key=lambda o: o.order_id), k)
    field, op, words = ctx.rng.choice(
        [
            (
                "times_redeemed",
                "max",
                "how many times has the most used of those codes been redeemed",
            ),
            (
                "times_redeemed",
                "min",
                "how many redemptions does the least used of those codes have",
            ),
            (
                "min_subtotal_usd",
                "max",
                "what is the highest minimum spend any of those codes requires, in USD",
            ),
        ]
    )
    prompt = ctx.say(
        "Orders {all} each used a promo code. {Asks}?",
        "Look up which coupon each of orders {all} used: {asks}?",
        all=listing([o.order_id for o in orders]),
        asks=words,
        Asks=words[0].upper() + words[1:],
    )
    steps = [RefStep(tool="get_order", args={"order_id": o.order_id}) for o in orders]
    steps += [RefStep(tool="get_coupon", args={"code": ref(i, "coupon_code")}) for i in range(k)]
    answer = AnswerSpec(op=op, refs=[[k + i, field] for i in range(k)])
    return Draft(prompt, steps, answer)


def basket_for_coupon(ctx: TemplateContext) -> Draft:
    """Parallel: k products' prices from an unnamed source; the subtotal a coupon needs.

    The request names no price source, so the path reads one the docs do not call
    authoritative (every source agrees in the clean world), which a cross-source conflict
    may corrupt.
    """
    coupon = ctx.pick("coupons", lambda c: c.active and c.min_subtotal_usd > 0)
    k = ctx.count(3, 5)
    items = ctx.sample("products", k, lambda p: coupon.category in (None, p.category))
    prompt = ctx.say(
        "Coupon {code} needs a ${floor:.0f} subtotal. If I buy one each of products {all}, "
        "what's my subtotal before the coupon, in USD?",
        "I'd like to use {code} (minimum spend ${floor:.0f}). What do items {all} cost "
        "together, one of each?",
        "To see if {code} applies: add up the prices of {all} for me.",
        code=coupon.code,
        floor=coupon.min_subtotal_usd,
        all=listing([p.product_id for p in items]),
    )
    tool = ctx.unnamed_source(PRICE_SOURCES, share=1.0) or "get_product"
    steps = [RefStep(tool=tool, args={"product_id": p.product_id}) for p in items]
    answer = AnswerSpec(op="sum", refs=[[i, "price_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="coupons and promotions",
    templates={
        "sequential": [coupon_on_open_order, coupon_of_an_order, my_coupon_by_email],
        "parallel": [compare_coupon_terms, orders_discount_total, basket_for_coupon],
        "mixture": [customer_coupon_savings, codes_used_on_orders],
    },
)
