"""Personal-finance subtopic "credit cards": card limits, rates, balances and card spending."""

from __future__ import annotations

from collections import Counter

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, Subtopic, TemplateContext, ref

_MONTHS = (
    ("December", "2025-12-01", "2025-12-31"),
    ("January", "2026-01-01", "2026-01-31"),
    ("February", "2026-02-01", "2026-02-28"),
)


def card_month_spending(ctx: TemplateContext) -> Draft:
    """Sequential: holder by email -> their one credit card -> its spending in a month."""
    counts = Counter(a.holder_id for a in ctx.rows("accounts", lambda a: a.kind == "credit_card"))
    holder = ctx.pick("holders", lambda h: counts[h.holder_id] == 1)
    month, start, end = ctx.rng.choice(_MONTHS)
    prompt = ctx.say(
        "I'm {email}. How much did I put on my credit card in {month}?",
        "What was my total credit-card spending for {month}? Email on file: {email}.",
        "Hi, {first} ({email}) here. Add up my credit card's spending over {month}, please.",
        email=holder.email,
        first=holder.name.split()[0],
        month=month,
    )
    steps = [
        RefStep(tool="find_holders", args={"email": holder.email}),
        RefStep(
            tool="list_accounts",
            args={"holder_id": ref(0, "results", 0, "holder_id"), "kind": "credit_card"},
        ),
        RefStep(
            tool="get_spending_total",
            args={
                "account_id": ref(1, "results", 0, "account_id"),
                "start_date": start,
                "end_date": end,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "total_spent_usd"]], round=2))


def compare_cards(ctx: TemplateContext) -> Draft:
    """Parallel: three credit cards by id; a limit, rate or balance aggregate."""
    cards = ctx.sample("accounts", 3, lambda a: a.kind == "credit_card")
    field, op, words = ctx.rng.choice(
        [
            ("credit_limit_usd", "max", "the highest credit limit"),
            ("credit_limit_usd", "sum", "the combined credit limit"),
            ("apr_pct", "min", "the lowest APR (%)"),
            ("balance_usd", "sum", "the total balance owed"),
        ]
    )
    prompt = ctx.say(
        "Cards {a}, {b} and {c}: what's {words}?",
        "Compare the credit cards {a}, {b} and {c} and give me {words}.",
        "I'm reviewing three card accounts ({a}, {b}, {c}). Tell me {words}.",
        a=cards[0].account_id,
        b=cards[1].account_id,
        c=cards[2].account_id,
        words=words,
    )
    steps = [RefStep(tool="get_account", args={"account_id": c.account_id}) for c in cards]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, field] for i in range(3)], round=2))


def couple_card_limits(ctx: TemplateContext) -> Draft:
    """Mixture: two holders by email -> each one's credit card -> limits or balances."""
    counts = Counter(a.holder_id for a in ctx.rows("accounts", lambda a: a.kind == "credit_card"))
    pair = ctx.sample("holders", 2, lambda h: counts[h.holder_id] == 1)
    field, op, words = ctx.rng.choice(
        [
            ("credit_limit_usd", "sum", "our combined credit limit"),
            ("credit_limit_usd", "max", "the higher of our two card limits"),
            ("balance_usd", "sum", "what we owe on our cards together"),
            ("apr_pct", "min", "the better (lower) APR of our two cards"),
        ]
    )
    prompt = ctx.say(
        "My spouse ({b}) and I ({a}) each have one credit card. What's {words}?",
        "For the accounts {a} and {b}, look up each one's credit card and tell me {words}.",
        a=pair[0].email,
        b=pair[1].email,
        words=words,
    )
    steps = [RefStep(tool="find_holders", args={"email": h.email}) for h in pair]
    steps += [
        RefStep(
            tool="list_accounts",
            args={"holder_id": ref(i, "results", 0, "holder_id"), "kind": "credit_card"},
        )
        for i in range(2)
    ]
    refs = [[2 + i, "results", 0, field] for i in range(2)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="credit cards",
    templates={
        "sequential": [card_month_spending],
        "parallel": [compare_cards],
        "mixture": [couple_card_limits],
    },
)
