"""Commerce subtopic "subscriptions and billing": plans, invoices and cancellations."""

from __future__ import annotations

from collections import Counter

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref


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


SUBTOPIC = Subtopic(
    name="subscriptions and billing",
    templates={
        "sequential": [cancel_by_email, invoice_customer_city],
        "parallel": [subscription_bundle_price, largest_invoice],
        "mixture": [billing_of_two_orders, subscriber_home_city_and_plan],
    },
)
