"""Commerce subtopic "subscriptions and billing": plans, invoices and cancellations."""

from __future__ import annotations

from collections import Counter

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
    """Sequential: invoice -> order -> customer; which city is the customer in?

    A longer variant goes on to what that customer has been billed in all.
    """
    invoice = ctx.pick("invoices")
    steps = [
        RefStep(tool="get_invoice", args={"invoice_id": invoice.invoice_id}),
        RefStep(tool="get_order", args={"order_id": ref(0, "order_id")}),
        RefStep(tool="get_customer", args={"customer_id": ref(1, "customer_id")}),
    ]
    if ctx.rng.random() < 0.5:
        prompt = ctx.say(
            "Invoice {inv} needs a paper copy mailed. Which city does that customer live in?",
            "For invoice {inv}, find the order and the customer and tell me the customer's city.",
            inv=invoice.invoice_id,
        )
        return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "city"]]))
    status = ctx.rng.choice(["open", "paid"])
    prompt = ctx.say(
        "Invoice {inv} came back from the post. Look up the customer on that order and tell "
        "me the total of all their {status} invoices, in USD.",
        "For the customer on the order behind invoice {inv}: how much do their {status} "
        "invoices add up to?",
        inv=invoice.invoice_id,
        status=status,
    )
    steps.append(
        RefStep(tool="invoice_total", args={"customer_id": ref(2, "customer_id"), "status": status})
    )
    try:
        ctx.read("invoice_total", customer_id=invoice.customer_id, status=status)
    except ToolError as exc:
        raise NoFit(f"no {status} invoice for the customer") from exc
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, "total_amount_usd"]], round=2))


def active_plans_by_email(ctx: TemplateContext) -> Draft:
    """Sequential: customer by email -> their one active subscription -> its details."""
    active = Counter(
        s.customer_id for s in ctx.rows("subscriptions", lambda s: s.status == "active")
    )
    customer = ctx.pick("customers", lambda c: active[c.customer_id] == 1)
    field, asks = ctx.rng.choice(
        [
            ("next_billing_date", "when is my next billing date"),
            ("price_usd", "how much is each billing period, in USD"),
            ("started_on", "when did it start"),
        ]
    )
    prompt = ctx.say(
        "I'm {email} and I have one active subscription. Please open it and tell me {asks}.",
        "Account {email}: for my subscription that's currently active, {asks}?",
        email=customer.email,
        asks=asks,
    )
    steps = [
        RefStep(tool="find_customers", args={"email": customer.email}),
        RefStep(
            tool="list_subscriptions",
            args={"customer_id": ref(0, "results", 0, "customer_id"), "status": "active"},
        ),
        RefStep(
            tool="get_subscription",
            args={"subscription_id": ref(1, "results", 0, "subscription_id")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def subscription_bundle_price(ctx: TemplateContext) -> Draft:
    """Parallel: k subscriptions priced independently; their total per cycle."""
    k = ctx.count(3, 6)
    subs = ctx.sample("subscriptions", k)
    ids = listing([s.subscription_id for s in subs])
    prompt = ctx.say(
        "What do subscriptions {all} cost together per billing cycle, in USD?",
        "Add up the plan prices of {all} for me (per billing period, USD).",
        all=ids,
    )
    steps = [
        RefStep(tool="get_subscription", args={"subscription_id": s.subscription_id}) for s in subs
    ]
    answer = AnswerSpec(op="sum", refs=[[i, "price_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def largest_invoice(ctx: TemplateContext) -> Draft:
    """Parallel: k invoices; the largest, smallest or total amount."""
    k = ctx.count(3, 6)
    invoices = ctx.sample("invoices", k)
    op = ctx.rng.choice(["max", "min", "sum"])
    asks = {
        "max": "the largest amount billed",
        "min": "the smallest amount billed",
        "sum": "the total billed across them",
    }[op]
    prompt = ctx.say(
        "Check invoices {all} and tell me {asks}. I just need the figure in USD.",
        "Across invoices {all}, what is {asks}?",
        all=listing([i.invoice_id for i in invoices]),
        asks=asks,
    )
    steps = [RefStep(tool="get_invoice", args={"invoice_id": i.invoice_id}) for i in invoices]
    answer = AnswerSpec(op=op, refs=[[i, "amount_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def billing_of_two_orders(ctx: TemplateContext) -> Draft:
    """Mixture: k orders fan out to their invoices; total billed."""
    k = ctx.count(2, 5)
    orders = ctx.sample("orders", k)
    prompt = ctx.say(
        "How much was billed in total on the invoices for orders {all}?",
        "Pull the invoices attached to orders {all} and give me the sum of their amounts in USD.",
        all=listing([o.order_id for o in orders]),
    )
    steps = [RefStep(tool="get_order", args={"order_id": o.order_id}) for o in orders]
    steps += [
        RefStep(tool="get_invoice", args={"invoice_id": ref(i, "invoice_id")}) for i in range(k)
    ]
    answer = AnswerSpec(op="sum", refs=[[k + i, "amount_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def subscriber_home_city_and_plan(ctx: TemplateContext) -> Draft:
    """Mixture: k subscriptions in parallel, then each subscriber; the dearest one's city."""
    k = ctx.count(2, 4)
    subs = ctx.sample("subscriptions", k)
    if len({s.price_usd for s in subs}) < k or len({s.customer_id for s in subs}) < k:
        raise NoFit("subscriptions must differ in price and customer")
    customers = ctx.world.table("customers")
    if len({customers[s.customer_id].city for s in subs}) < k:
        raise NoFit("customers must live in different cities")
    dearer = "more" if k == 2 else "the most"
    prompt = ctx.say(
        "Of subscriptions {all}, which subscriber pays {dearer} per cycle? Tell me the city "
        "they live in.",
        "Compare {all}; for the subscription that costs {dearer} per cycle, look up the "
        "subscriber and give me their city.",
        all=listing([s.subscription_id for s in subs]),
        dearer=dearer,
    )
    steps = [
        RefStep(tool="get_subscription", args={"subscription_id": s.subscription_id}) for s in subs
    ]
    steps += [
        RefStep(tool="get_customer", args={"customer_id": ref(i, "customer_id")}) for i in range(k)
    ]
    answer = AnswerSpec(
        op="argmax",
        refs=[[i, "price_usd"] for i in range(k)],
        labels=[ref(k + i, "city") for i in range(k)],
    )
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="subscriptions and billing",
    templates={
        "sequential": [cancel_by_email, invoice_customer_city, active_plans_by_email],
        "parallel": [subscription_bundle_price, largest_invoice],
        "mixture": [billing_of_two_orders, subscriber_home_city_and_plan],
    },
)
