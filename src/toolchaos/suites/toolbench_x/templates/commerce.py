"""Commerce subtopics: order tracking, returns and refunds, subscriptions and billing.

Each template picks entities from the seeded world and writes the request a customer or
shop assistant would make; the answer comes from replaying the path, never from here.
"""

from __future__ import annotations

from collections import Counter

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref

TOPIC = "commerce"
DOMAIN = "commerce"
RECENT = "2026-01-31"  # deliveries on or after this are inside the 30-day return window


def _orders_by(ctx: TemplateContext, status: str) -> Counter[str]:
    return Counter(o.customer_id for o in ctx.rows("orders", lambda o: o.status == status))


# -- order tracking ------------------------------------------------------------------------


def eta_by_email(ctx: TemplateContext) -> Draft:
    """Sequential: customer by email -> their one order in transit -> its carrier ETA."""
    counts = _orders_by(ctx, "shipped")
    customer = ctx.pick("customers", lambda c: counts[c.customer_id] == 1)
    prompt = ctx.say(
        "Hi, this is {name}. I have one order on its way to me; when is it expected to "
        "arrive? My account email is {email}.",
        "My account is under {email}. Could you check when my parcel that is still in "
        "transit should be delivered?",
        "Tracking question from {email}: what delivery date does the carrier give for my "
        "order that hasn't arrived yet?",
        name=customer.name.split()[0],
        email=customer.email,
    )
    steps = [
        RefStep(tool="find_customers", args={"email": customer.email}),
        RefStep(
            tool="list_orders",
            args={"customer_id": ref(0, "results", 0, "customer_id"), "status": "shipped"},
        ),
        RefStep(
            tool="track_shipment",
            args={"tracking_number": ref(1, "results", 0, "tracking_number")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "eta"]]))


def parcel_weight_for_invoice(ctx: TemplateContext) -> Draft:
    """Sequential: invoice -> order -> shipment weight."""
    order = ctx.pick("orders", lambda o: o.tracking_number is not None)
    prompt = ctx.say(
        "I'm looking at invoice {inv}. How heavy was the parcel that was shipped for it, in "
        "kilograms?",
        "For invoice {inv}, what did the shipped package weigh (kg)?",
        "Can you find the order behind invoice {inv} and tell me the shipping weight of its "
        "parcel in kg?",
        inv=order.invoice_id,
    )
    steps = [
        RefStep(tool="get_invoice", args={"invoice_id": order.invoice_id}),
        RefStep(tool="get_order", args={"order_id": ref(0, "order_id")}),
        RefStep(tool="track_shipment", args={"tracking_number": ref(1, "tracking_number")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "weight_kg"]], round=2))


def heaviest_parcel_destination(ctx: TemplateContext) -> Draft:
    """Parallel: three parcels tracked independently; where is the heaviest one going?"""
    orders = ctx.sample("orders", 3, lambda o: o.tracking_number is not None)
    shipments = [ctx.world.table("shipments")[o.tracking_number] for o in orders]
    if len({s.weight_kg for s in shipments}) < 3 or len({s.destination for s in shipments}) < 3:
        raise NoFit("parcels must differ in weight and destination")
    numbers = [s.tracking_number for s in shipments]
    prompt = ctx.say(
        "I shipped three parcels: {a}, {b} and {c}. Which one is the heaviest, and where is "
        "it headed? Just the destination is fine.",
        "Of the packages with tracking numbers {a}, {b} and {c}, the heaviest needs special "
        "handling. What is its destination?",
        a=numbers[0],
        b=numbers[1],
        c=numbers[2],
    )
    steps = [RefStep(tool="track_shipment", args={"tracking_number": n}) for n in numbers]
    answer = AnswerSpec(
        op="argmax",
        refs=[[i, "weight_kg"] for i in range(3)],
        labels=[ref(i, "destination") for i in range(3)],
    )
    return Draft(prompt, steps, answer)


def combined_parcel_weight(ctx: TemplateContext) -> Draft:
    """Parallel: the total weight of three parcels."""
    orders = ctx.sample("orders", 3, lambda o: o.tracking_number is not None)
    numbers = [o.tracking_number for o in orders]
    prompt = ctx.say(
        "What is the combined weight in kg of the parcels {a}, {b} and {c}?",
        "I need the total shipping weight (kilograms) of three packages: {a}, {b}, {c}.",
        "Add up the weights of parcels {a}, {b} and {c} for me, in kg please.",
        a=numbers[0],
        b=numbers[1],
        c=numbers[2],
    )
    steps = [RefStep(tool="track_shipment", args={"tracking_number": n}) for n in numbers]
    answer = AnswerSpec(op="sum", refs=[[i, "weight_kg"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def weight_of_orders(ctx: TemplateContext) -> Draft:
    """Mixture: three orders looked up in parallel, then each parcel tracked; total weight."""
    orders = ctx.sample("orders", 3, lambda o: o.tracking_number is not None)
    ids = [o.order_id for o in orders]
    prompt = ctx.say(
        "Orders {a}, {b} and {c} went out separately. How much did their parcels weigh "
        "altogether, in kg?",
        "I'm reconciling freight costs: what's the total parcel weight (kg) for orders {a}, "
        "{b} and {c}?",
        a=ids[0],
        b=ids[1],
        c=ids[2],
    )
    steps = [RefStep(tool="get_order", args={"order_id": i}) for i in ids]
    steps += [
        RefStep(tool="track_shipment", args={"tracking_number": ref(i, "tracking_number")})
        for i in range(3)
    ]
    answer = AnswerSpec(op="sum", refs=[[3 + i, "weight_kg"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def later_parcel_location(ctx: TemplateContext) -> Draft:
    """Mixture: two orders fan out to their parcels; report where the heavier one is now."""
    orders = ctx.sample("orders", 2, lambda o: o.tracking_number is not None)
    shipments = [ctx.world.table("shipments")[o.tracking_number] for o in orders]
    if shipments[0].weight_kg == shipments[1].weight_kg:
        raise NoFit("parcels must differ in weight")
    if shipments[0].last_location == shipments[1].last_location:
        raise NoFit("parcels must be in different places")
    prompt = ctx.say(
        "Between my orders {a} and {b}, the heavier parcel is the one I'm worried about. "
        "Where was it last scanned?",
        "Look up orders {a} and {b}, work out which parcel is heavier, and tell me its last "
        "known location.",
        a=orders[0].order_id,
        b=orders[1].order_id,
    )
    steps = [RefStep(tool="get_order", args={"order_id": o.order_id}) for o in orders]
    steps += [
        RefStep(tool="track_shipment", args={"tracking_number": ref(i, "tracking_number")})
        for i in range(2)
    ]
    answer = AnswerSpec(
        op="argmax",
        refs=[[2, "weight_kg"], [3, "weight_kg"]],
        labels=[ref(2, "last_location"), ref(3, "last_location")],
    )
    return Draft(prompt, steps, answer)


# -- returns and refunds ---------------------------------------------------------------------


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


# -- subscriptions and billing -------------------------------------------------------------


def cancel_by_email(ctx: TemplateContext) -> Draft:
    """Sequential, writes: customer by email -> active subscription -> cancel it."""
    active = Counter(
        s.customer_id for s in ctx.rows("subscriptions", lambda s: s.status == "active")
    )
    customer = ctx.pick("customers", lambda c: active[c.customer_id] == 1)
    reason = ctx.rng.choice(["too_expensive", "not_using_enough", "moving"])
    prompt = ctx.say(
        "Please cancel my active subscription; I'm {why}. The account email is {email}.",
        "This is {email}. I want to stop my subscription that's currently active ({why}).",
        email=customer.email,
        why={
            "too_expensive": "finding it too expensive",
            "not_using_enough": "not using it enough",
            "moving": "moving abroad",
        }[reason],
    )
    steps = [
        RefStep(tool="find_customers", args={"email": customer.email}),
        RefStep(
            tool="list_subscriptions",
            args={"customer_id": ref(0, "results", 0, "customer_id"), "status": "active"},
        ),
        RefStep(
            tool="cancel_subscription",
            args={"subscription_id": ref(1, "results", 0, "subscription_id"), "reason": reason},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def invoice_customer_city(ctx: TemplateContext) -> Draft:
    """Sequential: invoice -> order -> customer; which city is the customer in?"""
    invoice = ctx.pick("invoices")
    prompt = ctx.say(
        "Invoice {inv} needs a paper copy mailed. Which city does that customer live in?",
        "For invoice {inv}, find the order and the customer and tell me the customer's city.",
        inv=invoice.invoice_id,
    )
    steps = [
        RefStep(tool="get_invoice", args={"invoice_id": invoice.invoice_id}),
        RefStep(tool="get_order", args={"order_id": ref(0, "order_id")}),
        RefStep(tool="get_customer", args={"customer_id": ref(1, "customer_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "city"]]))


def subscription_bundle_price(ctx: TemplateContext) -> Draft:
    """Parallel: three subscriptions priced independently; their total per cycle."""
    subs = ctx.sample("subscriptions", 3)
    ids = [s.subscription_id for s in subs]
    prompt = ctx.say(
        "What do subscriptions {a}, {b} and {c} cost together per billing cycle, in USD?",
        "Add up the plan prices of {a}, {b} and {c} for me.",
        a=ids[0],
        b=ids[1],
        c=ids[2],
    )
    steps = [RefStep(tool="get_subscription", args={"subscription_id": i}) for i in ids]
    answer = AnswerSpec(op="sum", refs=[[i, "price_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def largest_invoice(ctx: TemplateContext) -> Draft:
    """Parallel: three invoices; the largest amount."""
    invoices = ctx.sample("invoices", 3)
    ids = [i.invoice_id for i in invoices]
    prompt = ctx.say(
        "Which is the largest amount among invoices {a}, {b} and {c}? I just need the figure "
        "in USD.",
        "Check invoices {a}, {b} and {c} and tell me the highest amount billed.",
        a=ids[0],
        b=ids[1],
        c=ids[2],
    )
    steps = [RefStep(tool="get_invoice", args={"invoice_id": i}) for i in ids]
    answer = AnswerSpec(op="max", refs=[[i, "amount_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def billing_of_two_orders(ctx: TemplateContext) -> Draft:
    """Mixture: two orders fan out to their invoices; total billed."""
    orders = ctx.sample("orders", 2)
    prompt = ctx.say(
        "How much was billed in total on the invoices for orders {a} and {b}?",
        "Pull the invoices attached to orders {a} and {b} and give me the sum of their "
        "amounts in USD.",
        a=orders[0].order_id,
        b=orders[1].order_id,
    )
    steps = [RefStep(tool="get_order", args={"order_id": o.order_id}) for o in orders]
    steps += [
        RefStep(tool="get_invoice", args={"invoice_id": ref(i, "invoice_id")}) for i in range(2)
    ]
    answer = AnswerSpec(op="sum", refs=[[2, "amount_usd"], [3, "amount_usd"]], round=2)
    return Draft(prompt, steps, answer)


def subscriber_home_city_and_plan(ctx: TemplateContext) -> Draft:
    """Mixture: two subscriptions in parallel, then the pricier one's customer city."""
    subs = ctx.sample("subscriptions", 2)
    if subs[0].price_usd == subs[1].price_usd or subs[0].customer_id == subs[1].customer_id:
        raise NoFit("subscriptions must differ in price and customer")
    customers = ctx.world.table("customers")
    if customers[subs[0].customer_id].city == customers[subs[1].customer_id].city:
        raise NoFit("customers must live in different cities")
    prompt = ctx.say(
        "Of subscriptions {a} and {b}, which subscriber pays more per cycle? Tell me the "
        "city they live in.",
        "Compare {a} and {b}; for the more expensive one, look up the subscriber and give me "
        "their city.",
        a=subs[0].subscription_id,
        b=subs[1].subscription_id,
    )
    steps = [
        RefStep(tool="get_subscription", args={"subscription_id": s.subscription_id}) for s in subs
    ]
    steps += [
        RefStep(tool="get_customer", args={"customer_id": ref(i, "customer_id")}) for i in range(2)
    ]
    answer = AnswerSpec(
        op="argmax",
        refs=[[0, "price_usd"], [1, "price_usd"]],
        labels=[ref(2, "city"), ref(3, "city")],
    )
    return Draft(prompt, steps, answer)


SUBTOPICS = [
    Subtopic(
        name="order tracking",
        topic=TOPIC,
        domain=DOMAIN,
        templates={
            "sequential": [eta_by_email, parcel_weight_for_invoice],
            "parallel": [heaviest_parcel_destination, combined_parcel_weight],
            "mixture": [weight_of_orders, later_parcel_location],
        },
    ),
    Subtopic(
        name="returns and refunds",
        topic=TOPIC,
        domain=DOMAIN,
        templates={
            "sequential": [return_and_refund, return_customer_email],
            "parallel": [priciest_returned_item, basket_price],
            "mixture": [return_two_items, returned_value_of_orders],
        },
    ),
    Subtopic(
        name="subscriptions and billing",
        topic=TOPIC,
        domain=DOMAIN,
        templates={
            "sequential": [cancel_by_email, invoice_customer_city],
            "parallel": [subscription_bundle_price, largest_invoice],
            "mixture": [billing_of_two_orders, subscriber_home_city_and_plan],
        },
    ),
]
