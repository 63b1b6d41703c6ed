"""Commerce subtopic "coupons and promotions": coupon terms, applying codes, savings."""

from __future__ import annotations

from collections import Counter

from toolchaos.core.errors import ToolError
from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref

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
    prompt = ctx.say(
        "Hi, I'm {email}. Please put the code {code} on my order that hasn't shipped yet "
        "and tell me the new total.",
        "This is {first} ({email}). I have a coupon, {code}. Apply it to my open order; what "
        "do I pay now?",
        "Can you apply promo code {code} to the pending order on the account {email}? "
        "What's the total after the discount?",
        email=customer.email,
        first=customer.name.split()[0],
        code=code.lower() if ctx.rng.random() < 0.3 else code,
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
    answer = AnswerSpec(op="value", refs=[[2, "total_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def coupon_of_an_order(ctx: TemplateContext) -> Draft:
    """Sequential: invoice -> its order -> the coupon used there; its minimum spend or use."""
    order = ctx.pick("orders", lambda o: o.coupon_code is not None)
    field, words = ctx.rng.choice(
        [
            ("times_redeemed", "how many times has that code been used so far"),
            ("min_subtotal_usd", "what minimum spend does that code require (USD)"),
            ("expires_on", "when does that code expire"),
        ]
    )
    prompt = ctx.say(
        "My invoice {inv} shows a discount. Which coupon was on that order, and " + words + "?",
        "Looking at invoice {inv}: the order used a promo code. " + words.capitalize() + "?",
        inv=order.invoice_id,
    )
    steps = [
        RefStep(tool="get_invoice", args={"invoice_id": order.invoice_id}),
        RefStep(tool="get_order", args={"order_id": ref(0, "order_id")}),
        RefStep(tool="get_coupon", args={"code": ref(1, "coupon_code")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def compare_coupon_terms(ctx: TemplateContext) -> Draft:
    """Parallel: three coupons' terms; the min or max of one term."""
    field, op, words = ctx.rng.choice(_TERMS)
    pool = (
        ctx.rows("coupons", lambda c: c.discount_type == "percent")
        if field == "percent_off"
        else ctx.rows("coupons")
    )
    if len(pool) < 3:
        raise NoFit("too few coupons")
    coupons = ctx.rng.sample(pool, 3)
    prompt = ctx.say(
        "I have three promo codes: {a}, {b} and {c}. Tell me {words}.",
        "Compare the coupons {a}, {b} and {c}: {words}?",
        "Check codes {a}, {b}, {c} and give me {words}.",
        a=coupons[0].code,
        b=coupons[1].code,
        c=coupons[2].code,
        words=words,
    )
    steps = [RefStep(tool="get_coupon", args={"code": c.code}) for c in coupons]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, field] for i in range(3)]))


def orders_discount_total(ctx: TemplateContext) -> Draft:
    """Parallel: three orders; the total (or largest) coupon discount they got."""
    orders = ctx.sample("orders", 3, lambda o: o.coupon_code is not None)
    op = ctx.rng.choice(["sum", "max"])
    words = {
        "sum": "how much did coupons save me in total",
        "max": "what was the biggest coupon saving on any of them",
    }[op]
    prompt = ctx.say(
        "On my orders {a}, {b} and {c}, {words}?",
        "Orders {a}, {b}, {c}: {words} (in dollars)?",
        a=orders[0].order_id,
        b=orders[1].order_id,
        c=orders[2].order_id,
        words=words,
    )
    steps = [RefStep(tool="get_order", args={"order_id": o.order_id}) for o in orders]
    answer = AnswerSpec(op=op, refs=[[i, "discount_usd"] for i in range(3)], round=2)
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


SUBTOPIC = Subtopic(
    name="coupons and promotions",
    templates={
        "sequential": [coupon_on_open_order, coupon_of_an_order],
        "parallel": [compare_coupon_terms, orders_discount_total],
        "mixture": [customer_coupon_savings],
    },
)
