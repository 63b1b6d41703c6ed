"""Commerce subtopic "returns and refunds": filing returns, refunding them, what came back."""

from __future__ import annotations

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref


def return_and_refund(ctx: TemplateContext) -> Draft:
    """Sequential, writes: order -> return one item -> refund the return."""
    order = ctx.pick("orders", lambda o: o.status == "delivered" and o.placed_at >= "2026-01-20")
    index = ctx.rng.randrange(len(order.items))
    item = order.items[index]
    reason = ctx.rng.choice(["damaged", "defective", "wrong_item", "not_as_described"])
    prompt = ctx.say(
        "The {product} from order {order} arrived {why}. Please set up a return for one unit "
        "and refund me.",
        "I'd like to send back one {product} from my order {order} (it's {why}) and get my "
        "money back for it.",
        "Order {order}: one {product} is {why}. Can you process the return and issue the refund?",
        product=item.product_name,
        order=order.order_id,
        why=reason.replace("_", " ").replace("wrong item", "the wrong item"),
    )
    steps = [
        RefStep(tool="get_order", args={"order_id": order.order_id}),
        RefStep(
            tool="create_return",
            args={
                "order_id": ref(0, "order_id"),
                "product_id": ref(0, "items", index, "product_id"),
                "qty": 1,
                "reason": reason,
            },
        ),
        RefStep(tool="issue_refund", args={"return_id": ref(1, "return_id")}),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "amount_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def return_customer_email(ctx: TemplateContext) -> Draft:
    """Sequential: return -> order -> customer contact."""
    ret = ctx.pick("returns")
    prompt = ctx.say(
        "I need to contact the customer behind return {ret}. What email address do we have "
        "on file for them?",
        "Who filed return {ret}? Give me their email so I can follow up.",
        ret=ret.return_id,
    )
    steps = [
        RefStep(tool="get_return", args={"return_id": ret.return_id}),
        RefStep(tool="get_order", args={"order_id": ref(0, "order_id")}),
        RefStep(tool="get_customer", args={"customer_id": ref(1, "customer_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "email"]]))


def priciest_returned_item(ctx: TemplateContext) -> Draft:
    """Parallel: three returns; which returned product was the most expensive per unit?"""
    rets = ctx.sample("returns", 3)
    prices = {r.unit_price_usd for r in rets}
    if len(prices) < 3 or len({r.product_id for r in rets}) < 3:
        raise NoFit("returns must differ in product and price")
    prompt = ctx.say(
        "Compare returns {a}, {b} and {c}: which product id has the highest unit price?",
        "Among return requests {a}, {b} and {c}, which returned product (give the product "
        "id) cost the most per unit?",
        a=rets[0].return_id,
        b=rets[1].return_id,
        c=rets[2].return_id,
    )
    steps = [RefStep(tool="get_return", args={"return_id": r.return_id}) for r in rets]
    answer = AnswerSpec(
        op="argmax",
        refs=[[i, "unit_price_usd"] for i in range(3)],
        labels=[ref(i, "product_id") for i in range(3)],
    )
    return Draft(prompt, steps, answer)


def basket_price(ctx: TemplateContext) -> Draft:
    """Parallel: price three products and add them up (a replacement basket)."""
    products = ctx.sample("products", 3)
    ids = [p.product_id for p in products]
    prompt = ctx.say(
        "A customer wants replacements for products {a}, {b} and {c}, one of each. What do "
        "they cost together before tax, in USD?",
        "Quote me the combined list price of {a}, {b} and {c} (one unit each).",
        a=ids[0],
        b=ids[1],
        c=ids[2],
    )
    steps = [RefStep(tool="get_product", args={"product_id": i}) for i in ids]
    answer = AnswerSpec(op="sum", refs=[[i, "price_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def return_two_items(ctx: TemplateContext) -> Draft:
    """Mixture, writes: one order lookup, then two returns filed independently."""
    order = ctx.pick(
        "orders",
        lambda o: o.status == "delivered" and o.placed_at >= "2026-01-20" and len(o.items) >= 2,
    )
    names = [order.items[0].product_name, order.items[1].product_name]
    prompt = ctx.say(
        "Both the {a} and the {b} from order {order} are defective. Please open a return for "
        "one unit of each.",
        "Order {order}: I want to return one {a} and one {b}, both defective.",
        a=names[0],
        b=names[1],
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
        for i in range(2)
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def returned_value_of_orders(ctx: TemplateContext) -> Draft:
    """Mixture: two returns fan out to their products; total current list price."""
    rets = ctx.sample("returns", 2)
    if rets[0].product_id == rets[1].product_id:
        raise NoFit("returns must be for different products")
    prompt = ctx.say(
        "If we restock the items from returns {a} and {b}, what is their combined current "
        "list price in USD?",
        "Returns {a} and {b} are coming back to the warehouse. Look up the products and tell "
        "me what one of each sells for in total today.",
        a=rets[0].return_id,
        b=rets[1].return_id,
    )
    steps = [RefStep(tool="get_return", args={"return_id": r.return_id}) for r in rets]
    steps += [
        RefStep(tool="get_product", args={"product_id": ref(i, "product_id")}) for i in range(2)
    ]
    answer = AnswerSpec(op="sum", refs=[[2, "price_usd"], [3, "price_usd"]], round=2)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="returns and refunds",
    templates={
        "sequential": [return_and_refund, return_customer_email],
        "parallel": [priciest_returned_item, basket_price],
        "mixture": [return_two_items, returned_value_of_orders],
    },
)
