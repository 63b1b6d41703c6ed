"""Personal-finance subtopic "credit cards": card limits, rates, balances and card spending."""

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
from toolchaos.suites.toolbench_x.templates.personal_finance._helpers import home_rate, unnamed_rate

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


def _one_card_holder(ctx: TemplateContext) -> tuple[Any, Any]:
    """A holder with exactly one credit card, and that card."""
    counts = Counter(a.holder_id for a in ctx.rows("accounts", lambda a: a.kind == "credit_card"))
    holder = ctx.pick("holders", lambda h: counts[h.holder_id] == 1)
    card = ctx.rows(
        "accounts", lambda a: a.holder_id == holder.holder_id and a.kind == "credit_card"
    )
    return holder, card[0]


def _card_steps(email: str) -> list[RefStep]:
    """Holder by email -> their credit card -> its latest charge (steps 0 to 2)."""
    return [
        RefStep(tool="find_holders", args={"email": email}),
        RefStep(
            tool="list_accounts",
            args={"holder_id": ref(0, "results", 0, "holder_id"), "kind": "credit_card"},
        ),
        RefStep(
            tool="list_transactions",
            args={"account_id": ref(1, "results", 0, "account_id"), "limit": 1},
        ),
    ]


def latest_charge_merchant_total(ctx: TemplateContext) -> Draft:
    """Sequential: email -> card -> its latest charge -> spending at that merchant since a day."""
    holder, card = _one_card_holder(ctx)
    latest = ctx.read("list_transactions", account_id=card.account_id, limit=1)["results"]
    if not latest or latest[0]["direction"] != "debit":
        raise NoFit("no latest card purchase")
    start = ctx.day(-ctx.rng.choice([30, 45, 60, 90]))
    field, words = "total_spent_usd", "how much have I spent there on that card"
    prompt = ctx.say(
        "I'm {email}. Wherever my latest credit-card charge was, {words} since {start}?",
        "Hi, {first} ({email}) here. Take the shop or service of the most recent charge on my "
        "credit card: {words} from {start} to today?",
        email=holder.email,
        first=holder.name.split()[0],
        words=words,
        start=start,
    )
    steps = _card_steps(holder.email)
    steps.append(
        RefStep(
            tool="get_merchant_spending",
            args={
                "merchant": ref(2, "results", 0, "merchant_id"),
                "account_id": ref(1, "results", 0, "account_id"),
                "start_date": start,
                "end_date": ctx.day(0),
            },
        )
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, field]], round=2))


def latest_charge_budget_room(ctx: TemplateContext) -> Draft:
    """Sequential: email -> card -> its latest charge -> this month's budget of its category."""
    month = ctx.today().strftime("%Y-%m")

    def fits(holder: Any) -> bool:
        cards = ctx.rows(
            "accounts", lambda a: a.holder_id == holder.holder_id and a.kind == "credit_card"
        )
        if len(cards) != 1:
            return False
        latest = ctx.read("list_transactions", account_id=cards[0].account_id, limit=1)["results"]
        if not latest or latest[0]["direction"] != "debit":
            return False
        category = latest[0]["category"]
        budgets = ctx.read("list_budgets", holder_id=holder.holder_id, category=category)
        return latest[0]["date"].startswith(month) and bool(budgets["results"])

    holder = ctx.pick("holders", fits)
    field, words = ctx.rng.choice(
        [
            ("remaining_usd", "how much is left this month in my budget for that category"),
            ("spent_usd", "how much have I spent this month in that budget category"),
        ]
    )
    prompt = ctx.say(
        "I'm {email}. Look at the latest charge on my credit card: {words} ({month})?",
        "{first} here, {email}. My most recent credit-card purchase falls in some budget "
        "category; {words}, for {month}?",
        email=holder.email,
        first=holder.name.split()[0],
        words=words,
        month=month,
    )
    steps = _card_steps(holder.email)
    steps.append(
        RefStep(
            tool="get_budget_status",
            args={
                "holder_id": ref(0, "results", 0, "holder_id"),
                "category": ref(2, "results", 0, "category"),
                "month": month,
            },
        )
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, field]], round=2))


def compare_cards(ctx: TemplateContext) -> Draft:
    """Parallel: three to seven credit cards by id; a limit, rate or balance aggregate."""
    cards = ctx.sample("accounts", ctx.count(3, 7), lambda a: a.kind == "credit_card")
    field, op, words = ctx.rng.choice(
        [
            ("credit_limit_usd", "max", "the highest credit limit"),
            ("credit_limit_usd", "sum", "the combined credit limit"),
            ("apr_pct", "min", "the lowest APR (%)"),
            ("balance_usd", "sum", "the total balance owed"),
        ]
    )
    prompt = ctx.say(
        "Cards {ids}: what's {words}?",
        "Compare the credit cards {ids} and give me {words}.",
        "I'm reviewing {n} card accounts ({ids}). Tell me {words}.",
        ids=listing([c.account_id for c in cards]),
        n=len(cards),
        words=words,
    )
    steps = [RefStep(tool="get_account", args={"account_id": c.account_id}) for c in cards]
    refs = [[i, field] for i in range(len(cards))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def couple_card_limits(ctx: TemplateContext) -> Draft:
    """Sequential: a card by account id -> its holder -> today's rate from home into dollars.

    The rate source is one the request leaves open (not the authoritative one).
    """
    counts = Counter(a.holder_id for a in ctx.rows("accounts", lambda a: a.kind == "credit_card"))
    pair = ctx.sample("holders", ctx.count(2, 4), lambda h: counts[h.holder_id] == 1)
    k = len(pair)
    field, op, words = ctx.rng.choice(
        [
            ("credit_limit_usd", "sum", "our combined credit limit"),
            ("credit_limit_usd", "max", "the highest card limit among us"),
            ("balance_usd", "sum", "what we owe on our cards together"),
            ("apr_pct", "min", "the best (lowest) APR among our cards"),
        ]
    )
    if k == 2:
        prompt = ctx.say(
            "My spouse ({b}) and I ({a}) each have one credit card. What's {words}?",
            "For the holders {a} and {b}, look up each one's credit card and tell me {words}.",
            a=pair[0].email,
            b=pair[1].email,
            words=words,
        )
    else:
        prompt = ctx.say(
            "I'm {me}; my family members {others} each have one credit card too. What's {words}?",
            "For the holders {emails}, look up each one's credit card and tell me {words}.",
            me=pair[0].email,
            others=listing([h.email for h in pair[1:]]),
            emails=listing([h.email for h in pair]),
            words=words,
        )
    steps = [RefStep(tool="find_holders", args={"email": h.email}) for h in pair]
    steps += [
        RefStep(
            tool="list_accounts",
            args={"holder_id": ref(i, "results", 0, "holder_id"), "kind": "credit_card"},
        )
        for i in range(k)
    ]
    refs = [[k + i, "results", 0, field] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def card_home_rate(ctx: TemplateContext) -> Draft:
    """Sequential: a card by account id -> its holder -> today's rate from home into dollars.

    The rate source is one the request leaves open (not the authoritative one).
    """
    holders = ctx.world.table("holders")
    card = ctx.pick(
        "accounts",
        lambda a: a.kind == "credit_card" and holders[a.holder_id].home_currency != "USD",
    )
    tool = unnamed_rate(ctx)
    prompt = ctx.say(
        "I pay off credit card {acct} from my account back home. How many US dollars does "
        "one unit of my home currency buy today? The exact rate, please.",
        "Card {acct} is mine; I top it up in my home country's currency. What's today's "
        "exchange rate from that currency into dollars?",
        acct=card.account_id,
    )
    steps = home_rate(card.account_id, tool, into_home=False)
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "rate"]]))


SUBTOPIC = Subtopic(
    name="credit cards",
    templates={
        "sequential": [
            card_home_rate,
            card_month_spending,
            latest_charge_merchant_total,
            latest_charge_budget_room,
        ],
        "parallel": [compare_cards],
        "mixture": [couple_card_limits],
    },
)
