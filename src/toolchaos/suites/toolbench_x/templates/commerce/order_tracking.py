"""Commerce subtopic "order tracking": where parcels are, when they arrive, what they weigh."""

from __future__ import annotations

from collections import Counter

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref


def _orders_by(ctx: TemplateContext, status: str) -> Counter[str]:
    return Counter(o.customer_id for o in ctx.rows("orders", lambda o: o.status == status))


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


SUBTOPIC = Subtopic(
    name="order tracking",
    templates={
        "sequential": [eta_by_email, parcel_weight_for_invoice],
        "parallel": [heaviest_parcel_destination, combined_parcel_weight],
        "mixture": [weight_of_orders, later_parcel_location],
    },
)
