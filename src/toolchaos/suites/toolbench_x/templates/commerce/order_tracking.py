"""Commerce subtopic "order tracking": where parcels are, when they arrive, what they weigh."""

from __future__ import annotations

from collections import Counter

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
)
from toolchaos.suites.toolbench_x.templates.commerce._helpers import order_history


def _orders_by(ctx: TemplateContext, status: str) -> Counter[str]:
    return Counter(o.customer_id for o in ctx.rows("orders", lambda o: o.status == status))


def eta_by_email(ctx: TemplateContext) -> Draft:
    """Sequential: customer by email -> their one order in transit -> the carrier or aggregator.

    The carrier gives the ETA; only the parcel aggregator counts the scans, so the question
    decides which tracking service ends the chain.
    """
    counts = _orders_by(ctx, "shipped")
    customer = ctx.pick("customers", lambda c: counts[c.customer_id] == 1)
    tool, field, asks = ctx.rng.choice(
        [
            ("track_shipment", "eta", "when is it expected to arrive"),
            ("track_shipment_backup", "scan_count", "how many scans has ParcelTrail logged"),
            ("track_shipment_backup", "carrier_name", "which carrier does ParcelTrail say has it"),
        ]
    )
    prompt = ctx.say(
        "Hi, this is {name}. I have one order on its way to me; {asks}? My account email "
        "is {email}.",
        "My account is under {email}. For my parcel that is still in transit, {asks}?",
        "Tracking question from {email} about my order that hasn't arrived yet: {asks}?",
        name=customer.name.split()[0],
        email=customer.email,
        asks=asks,
    )
    steps = [
        RefStep(tool="find_customers", args={"email": customer.email}),
        RefStep(
            tool="list_orders",
            args={"customer_id": ref(0, "results", 0, "customer_id"), "status": "shipped"},
        ),
        RefStep(tool=tool, args={"tracking_number": ref(1, "results", 0, "tracking_number")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def parcel_weight_for_invoice(ctx: TemplateContext) -> Draft:
    """Sequential: invoice -> order -> shipment weight, or the aggregator's scan count."""
    order = ctx.pick("orders", lambda o: o.tracking_number is not None)
    tool, field, asks, digits = ctx.rng.choice(
        [
            ("track_shipment", "weight_kg", "how heavy was the parcel, in kilograms", 2),
            (
                "track_shipment_backup",
                "scan_count",
                "how many times has ParcelTrail scanned its parcel",
                None,
            ),
        ]
    )
    prompt = ctx.say(
        "I'm looking at invoice {inv}. For the order behind it, {asks}?",
        "Can you find the order behind invoice {inv} and tell me {asks}?",
        inv=order.invoice_id,
        asks=asks,
    )
    steps = [
        RefStep(tool="get_invoice", args={"invoice_id": order.invoice_id}),
        RefStep(tool="get_order", args={"order_id": ref(0, "order_id")}),
        RefStep(tool=tool, args={"tracking_number": ref(1, "tracking_number")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=digits))


def parcel_recipient(ctx: TemplateContext) -> Draft:
    """Sequential: tracking number -> its order -> the customer; whom to contact.

    A longer variant goes on to the customer's orders still open and counts them.
    """
    order = ctx.pick("orders", lambda o: o.tracking_number is not None)
    deeper = ctx.rng.random() < 0.5
    steps = [
        RefStep(tool="track_shipment", args={"tracking_number": order.tracking_number}),
        RefStep(tool="get_order", args={"order_id": ref(0, "order_id")}),
        RefStep(tool="get_customer", args={"customer_id": ref(1, "customer_id")}),
    ]
    if not deeper:
        field = ctx.rng.choice(["email", "phone"])
        prompt = ctx.say(
            "Parcel {trk} needs a signature. What {what} do we have for the customer it's for?",
            "The carrier flagged parcel {trk}. Find whose order it is and give me their {what}.",
            trk=order.tracking_number,
            what={"email": "email address", "phone": "phone number"}[field],
        )
        return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))
    steps.append(RefStep(tool="list_orders", args={"customer_id": ref(2, "customer_id")}))
    prompt = ctx.say(
        "Parcel {trk} is for one of our regulars. How many orders has that customer placed "
        "with us in all?",
        "Find the customer behind parcel {trk} and tell me how many orders that customer has "
        "placed with the shop overall.",
        trk=order.tracking_number,
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, "total"]]))


def heaviest_parcel_destination(ctx: TemplateContext) -> Draft:
    """Parallel: k parcels tracked independently; where is the heaviest (or lightest) going?"""
    k = ctx.count(3, 5)
    orders = ctx.sample("orders", k, lambda o: o.tracking_number is not None)
    shipments = [ctx.world.table("shipments")[o.tracking_number] for o in orders]
    if len({s.weight_kg for s in shipments}) < k or len({s.destination for s in shipments}) < k:
        raise NoFit("parcels must differ in weight and destination")
    op = ctx.rng.choice(["argmax", "argmin"])
    which = {"argmax": "heaviest", "argmin": "lightest"}[op]
    numbers = [s.tracking_number for s in shipments]
    prompt = ctx.say(
        "I shipped {n} parcels: {all}. Which one is the {which}, and where is it headed? Just "
        "the destination is fine.",
        "Of the packages with tracking numbers {all}, the {which} needs special handling. "
        "What is its destination?",
        n=k,
        all=listing(numbers),
        which=which,
    )
    steps = [RefStep(tool="track_shipment", args={"tracking_number": n}) for n in numbers]
    answer = AnswerSpec(
        op=op,
        refs=[[i, "weight_kg"] for i in range(k)],
        labels=[ref(i, "destination") for i in range(k)],
    )
    return Draft(prompt, steps, answer)


def combined_parcel_weight(ctx: TemplateContext) -> Draft:
    """Parallel: the total weight of k parcels."""
    k = ctx.count(3, 6)
    orders = ctx.sample("orders", k, lambda o: o.tracking_number is not None)
    numbers = listing([o.tracking_number for o in orders])
    prompt = ctx.say(
        "What is the combined weight in kg of the parcels {all}?",
        "I need the total shipping weight (kilograms) of {n} packages: {all}.",
        "Add up the weights of parcels {all} for me, in kg please.",
        n=k,
        all=numbers,
    )
    steps = [
        RefStep(tool="track_shipment", args={"tracking_number": o.tracking_number}) for o in orders
    ]
    answer = AnswerSpec(op="sum", refs=[[i, "weight_kg"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def weight_of_orders(ctx: TemplateContext) -> Draft:
    """Mixture: k orders looked up in parallel, then each parcel tracked; total weight."""
    k = ctx.count(2, 5)
    orders = ctx.sample("orders", k, lambda o: o.tracking_number is not None)
    ids = listing([o.order_id for o in orders])
    prompt = ctx.say(
        "Orders {all} went out separately. How much did their parcels weigh altogether, in kg?",
        "I'm reconciling freight costs: what's the total parcel weight (kg) for orders {all}?",
        all=ids,
    )
    steps = [RefStep(tool="get_order", args={"order_id": o.order_id}) for o in orders]
    steps += [
        RefStep(tool="track_shipment", args={"tracking_number": ref(i, "tracking_number")})
        for i in range(k)
    ]
    answer = AnswerSpec(op="sum", refs=[[k + i, "weight_kg"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def later_parcel_location(ctx: TemplateContext) -> Draft:
    """Mixture: k orders fan out to their parcels; report where the heaviest one is now."""
    k = ctx.count(2, 4)
    orders = ctx.sample("orders", k, lambda o: o.tracking_number is not None)
    shipments = [ctx.world.table("shipments")[o.tracking_number] for o in orders]
    if len({s.weight_kg for s in shipments}) < k:
        raise NoFit("parcels must differ in weight")
    if len({s.last_location for s in shipments}) < k:
        raise NoFit("parcels must be in different places")
    which = "heavier" if k == 2 else "heaviest"
    prompt = ctx.say(
        "Among my orders {all}, the {which} parcel is the one I'm worried about. Where was it "
        "last scanned?",
        "Look up orders {all}, work out which parcel is {which}, and tell me its last known "
        "location.",
        all=listing([o.order_id for o in orders]),
        which=which,
    )
    steps = [RefStep(tool="get_order", args={"order_id": o.order_id}) for o in orders]
    steps += [
        RefStep(tool="track_shipment", args={"tracking_number": ref(i, "tracking_number")})
        for i in range(k)
    ]
    answer = AnswerSpec(
        op="argmax",
        refs=[[k + i, "weight_kg"] for i in range(k)],
        labels=[ref(k + i, "last_location") for i in range(k)],
    )
    return Draft(prompt, steps, answer)


def customers_in_transit_weight(ctx: TemplateContext) -> Draft:
    """Mixture: customer by email -> their orders -> each shipped parcel; total weight."""
    mine = {
        customer: [i for i, o in enumerate(orders) if o.tracking_number]
        for customer, orders in order_history(ctx).items()
    }
    customer = ctx.pick("customers", lambda c: 2 <= len(mine[c.customer_id]) <= 5)
    tracked = mine[customer.customer_id]
    prompt = ctx.say(
        "I'm {email}. What have all the parcels you've ever shipped me weighed together, in kg?",
        "Account {email}: add up the weight in kilograms of every parcel you've sent me.",
        "For my account ({email}), what is the total weight of all my shipped parcels (kg)?",
        email=customer.email,
    )
    steps = [
        RefStep(tool="find_customers", args={"email": customer.email}),
        RefStep(tool="list_orders", args={"customer_id": ref(0, "results", 0, "customer_id")}),
    ]
    steps += [
        RefStep(
            tool="track_shipment",
            args={"tracking_number": ref(1, "results", i, "tracking_number")},
        )
        for i in tracked
    ]
    refs = [[2 + n, "weight_kg"] for n in range(len(tracked))]
    return Draft(prompt, steps, AnswerSpec(op="sum", refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="order tracking",
    templates={
        "sequential": [eta_by_email, parcel_weight_for_invoice, parcel_recipient],
        "parallel": [heaviest_parcel_destination, combined_parcel_weight],
        "mixture": [weight_of_orders, later_parcel_location, customers_in_transit_weight],
    },
)
