"""Commerce subtopic "returns and refunds": filing returns, refunding them, what came back."""

from __future__ import annotations

from collections import Counter
from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
)
from toolchaos.suites.toolbench_x.templates.commerce._helpers import PRICE_SOURCES, RECENT


def _returnable(ctx: TemplateContext, order: Any) -> bool:
    """Whether ``order`` was delivered recently enough to be returned today."""
    if order.status != "delivered" or order.tracking_number is None:
        return False
    shipment = ctx.world.table("shipments")[order.tracking_number]
    return shipment.delivered_on is not None and shipment.delivered_on >= RECENT


def return_and_refund(ctx: TemplateContext) -> Draft:
    """Sequential, writes: (invoice ->) order -> return one item -> refund the return.

    A customer holding only the invoice starts one step earlier.
    """
    order = ctx.pick("orders", lambda o: _returnable(ctx, o))
    index = ctx.rng.randrange(len(order.items))
    item = order.items[index]
    reason = ctx.rng.choice(["damaged", "defective", "wrong_item", "not_as_described"])
    by_invoice = ctx.rng.random() < 0.5
    prompt = ctx.say(
        "The {product} from {order} arrived {why}. Please set up a return for one unit "
        "and refund me.",
        "I'd like to send back one {product} from {order} (it's {why}) and get my "
        "money back for it.",
        "About {order}: one {product} is {why}. Can you process the return and issue the refund?",
        product=item.product_name,
        order=f"the order on invoice {order.invoice_id}"
        if by_invoice
        else f"order {order.order_id}",
        why=reason.replace("_", " ").replace("wrong item", "the wrong item"),
    )
    steps = []
    if by_invoice:
        steps.append(RefStep(tool="get_invoice", args={"invoice_id": order.invoice_id}))
    first = len(steps)
    order_id = ref(0, "order_id") if by_invoice else order.order_id
    steps += [
        RefStep(tool="get_order", args={"order_id": order_id}),
        RefStep(
            tool="create_return",
            args={
                "order_id": ref(first, "order_id"),
                "product_id": ref(first, "items", index, "product_id"),
                "qty": 1,
                "reason": reason,
            },
        ),
        RefStep(tool="issue_refund", args={"return_id": ref(first + 1, "return_id")}),
    ]
    answer = AnswerSpec(op="value", refs=[[first + 2, "amount_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def return_customer_email(ctx: TemplateContext) -> Draft:
    """Sequential: return -> order -> customer contact, or -> the order's invoice status."""
    ret = ctx.pick("returns")
    if ctx.rng.random() < 0.5:
        prompt = ctx.say(
            "I need to contact the customer behind return {ret}. What email address do we "
            "have on file for them?",
            "Who filed return {ret}? Give me their email so I can follow up.",
            ret=ret.return_id,
        )
        steps = [
            RefStep(tool="get_return", args={"return_id": ret.return_id}),
            RefStep(tool="get_order", args={"order_id": ref(0, "order_id")}),
            RefStep(tool="get_customer", args={"customer_id": ref(1, "customer_id")}),
        ]
        return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "email"]]))
    prompt = ctx.say(
        "Before we refund return {ret}, I need the invoice of the order it came from: on what "
        "date was that invoice issued?",
        "Return {ret} came in. When was the invoice for its original order issued?",
        ret=ret.return_id,
    )
    steps = [
        RefStep(tool="get_return", args={"return_id": ret.return_id}),
        RefStep(tool="get_order", args={"order_id": ref(0, "order_id")}),
        RefStep(tool="get_invoice", args={"invoice_id": ref(1, "invoice_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "issued_on"]]))


def my_return_by_email(ctx: TemplateContext) -> Draft:
    """Sequential: customer by email -> their one return -> its order (-> the parcel)."""
    returns = Counter(r.customer_id for r in ctx.rows("returns"))
    customer = ctx.pick("customers", lambda c: returns[c.customer_id] == 1)
    steps = [
        RefStep(tool="find_customers", args={"email": customer.email}),
        RefStep(tool="list_returns", args={"customer_id": ref(0, "results", 0, "customer_id")}),
        RefStep(tool="get_order", args={"order_id": ref(1, "results", 0, "order_id")}),
    ]
    if ctx.rng.random() < 0.5:
        prompt = ctx.say(
            "I'm {email} and I sent one item back. What did I pay in total for the order it "
            "came from, in USD?",
            "Account {email}: I have one return open. What was the total of the original order?",
            email=customer.email,
        )
        return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "total_usd"]], round=2))
    steps.append(
        RefStep(tool="track_shipment", args={"tracking_number": ref(2, "tracking_number")})
    )
    prompt = ctx.say(
        "I'm {email} and I returned one item. On what date was the order it came from "
        "delivered to me?",
        "Account {email}: for the order behind my only return, when did the parcel arrive?",
        email=customer.email,
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, "delivered_on"]]))


def priciest_returned_item(ctx: TemplateContext) -> Draft:
    """Parallel: k returns; which returned product was the most (or least) expensive?"""
    k = ctx.count(3, 5)
    rets = ctx.sample("returns", k)
    prices = {r.unit_price_usd for r in rets}
    if len(prices) < k or len({r.product_id for r in rets}) < k:
        raise NoFit("returns must differ in product and price")
    op = ctx.rng.choice(["argmax", "argmin"])
    most = {"argmax": "highest", "argmin": "lowest"}[op]
    prompt = ctx.say(
        "Compare returns {all}: which product id has the {most} unit price?",
        "Among return requests {all}, which returned product (give the product id) had the "
        "{most} price per unit?",
        all=listing([r.return_id for r in rets]),
        most=most,
    )
    steps = [RefStep(tool="get_return", args={"return_id": r.return_id}) for r in rets]
    answer = AnswerSpec(
        op=op,
        refs=[[i, "unit_price_usd"] for i in range(k)],
        labels=[ref(i, "product_id") for i in range(k)],
    )
    return Draft(prompt, steps, answer)


def basket_price(ctx: TemplateContext) -> Draft:
    """Parallel: price k products and add them up (a replacement basket)."""
    k = ctx.count(3, 6)
    products = ctx.sample("products", k)
    ids = [p.product_id for p in products]
    prompt = ctx.say(
        "A customer wants replacements for products {all}, one of each. What do they cost "
        "together before tax, in USD?",
        "Quote me the combined list price of {all} (one unit each).",
        all=listing(ids),
    )
    tool = ctx.unnamed_source(PRICE_SOURCES) or "get_product"
    steps = [RefStep(tool=tool, args={"product_id": i}) for i in ids]
    answer = AnswerSpec(op="sum", refs=[[i, "price_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def return_two_items(ctx: TemplateContext) -> Draft:
    """Mixture, writes: one order lookup, then two or three returns filed independently."""
    order = ctx.pick("orders", lambda o: _returnable(ctx, o) and len(o.items) >= 2)
    k = ctx.count(2, len(order.items))
    names = [item.product_name for item in order.items[:k]]
    if len(set(names)) < k:
        raise NoFit("the items must have different names")
    prompt = ctx.say(
        "The {all} from order {order} are all defective. Please open a return for one unit "
        "of each.",
        "Order {order}: I want to return one each of the {all}, all defective.",
        all=listing(names),
        order=order.order_id,
    )
    steps = [RefStep(tool="get_order", args={"order_id": order.order_id})]
    steps += [
        RefStep(
            tool="create_return",
            args={
                "order_id": ref(0, "order_id"),
                "product_id": ref(0, "items", i, "product_id"),
                "qty": 1,
                "reason": "defective",
            },
        )
        for i in range(k)
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def returned_value_of_orders(ctx: TemplateContext) -> Draft:
    """Mixture: k returns fan out to their products; total list price or stock on hand."""
    k = ctx.count(2, 5)
    first: dict[str, Any] = {}  # one return per product, so the restocked products differ
    for r in ctx.rows("returns"):
        first.setdefault(r.product_id, r)
    if len(first) < k:
        raise NoFit("too few returned products")
    rets = ctx.rng.sample(sorted(first.values(), key=lambda r: r.return_id), k)
    field, asks, digits = ctx.rng.choice(
        [
            ("price_usd", "what one of each sells for in total today, in USD", 2),
            ("stock_qty", "how many units of those products we hold in stock altogether", None),
        ]
    )
    prompt = ctx.say(
        "Returns {all} are coming back to the warehouse. Look up the products and tell me {asks}.",
        "If we restock the items from returns {all}, tell me {asks}.",
        all=listing([r.return_id for r in rets]),
        asks=asks,
    )
    # a price can come from any price source; stock only from the catalogue
    tool = "get_product"
    if field == "price_usd":
        tool = ctx.unnamed_source(PRICE_SOURCES) or tool
    steps = [RefStep(tool="get_return", args={"return_id": r.return_id}) for r in rets]
    steps += [RefStep(tool=tool, args={"product_id": ref(i, "product_id")}) for i in range(k)]
    answer = AnswerSpec(op="sum", refs=[[k + i, field] for i in range(k)], round=digits)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="returns and refunds",
    templates={
        "sequential": [return_and_refund, return_customer_email, my_return_by_email],
        "parallel": [priciest_returned_item, basket_price],
        "mixture": [return_two_items, returned_value_of_orders],
    },
)
