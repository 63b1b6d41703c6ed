"""Personal-finance subtopic "spending and budgets": charges, merchants, monthly budgets."""

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
from toolchaos.suites.toolbench_x.templates.personal_finance._helpers import (
    _choice,
    _usd,
)

# (month, how a person says it, first day, last day) of the world's full history months
MONTHS: tuple[tuple[str, str, str, str], ...] = (
    ("2025-12", "December", "2025-12-01", "2025-12-31"),
    ("2026-01", "January", "2026-01-01", "2026-01-31"),
    ("2026-02", "February", "2026-02-01", "2026-02-28"),
)
EVERYDAY = ("groceries", "dining", "transport", "shopping", "entertainment", "health")
SAY_CATEGORY = {
    "groceries": "groceries",
    "dining": "eating out",
    "transport": "transport",
    "shopping": "shopping",
    "entertainment": "entertainment",
    "health": "health",
    "travel": "travel",
    "subscriptions": "subscriptions",
}


def _spend_rows(ctx: TemplateContext, account_id: str) -> list[Any]:
    return ctx.rows(
        "transactions",
        lambda t: t.account_id == account_id and t.direction == "debit" and t.merchant_id,
    )


def _domestic_debit(t: Any) -> bool:
    return bool(t.direction == "debit" and t.merchant_id and t.original_currency == "USD")


def latest_two_category_charges(ctx: TemplateContext) -> Draft:
    """Sequential: holder by email -> their one credit card -> its two latest charges of a kind."""
    cards = Counter(a.holder_id for a in ctx.rows("accounts", lambda a: a.kind == "credit_card"))
    holder = ctx.pick("holders", lambda h: cards[h.holder_id] == 1)
    card = ctx.rows(
        "accounts", lambda a: a.holder_id == holder.holder_id and a.kind == "credit_card"
    )
    counts = Counter(t.category for t in _spend_rows(ctx, card[0].account_id))
    usable = sorted(c for c, n in counts.items() if n >= 3 and c in EVERYDAY)
    if not usable:
        raise NoFit("the card has no category with three charges")
    category = ctx.rng.choice(usable)
    prompt = ctx.say(
        "My email is {email}. What did my two most recent {cat} charges on my credit card "
        "add up to?",
        "Hi, {first} here ({email}). Can you add up the last two {cat} purchases on my "
        "credit card for me?",
        "Using the account registered to {email}: on my credit card, what's the combined "
        "amount of the two latest transactions in the {raw} category?",
        email=holder.email,
        first=holder.name.split()[0],
        cat=SAY_CATEGORY[category],
        raw=category,
    )
    steps = [
        RefStep(tool="find_holders", args={"email": holder.email}),
        RefStep(
            tool="list_accounts",
            args={"holder_id": ref(0, "results", 0, "holder_id"), "kind": "credit_card"},
        ),
        RefStep(
            tool="list_transactions",
            args={"account_id": ref(1, "results", 0, "account_id"), "category": category},
        ),
    ]
    answer = AnswerSpec(
        op="sum",
        refs=[[2, "results", 0, "amount_usd"], [2, "results", 1, "amount_usd"]],
        round=2,
    )
    return Draft(prompt, steps, answer)


def raise_budget_for_charge(ctx: TemplateContext) -> Draft:
    """Sequential, writes: charge -> set the budget of its category -> that month's status."""
    txn = ctx.pick(
        "transactions",
        lambda t: (
            _domestic_debit(t) and t.category in EVERYDAY and MONTHS[1][2] <= t.date <= MONTHS[2][3]
        ),
    )
    budgets = ctx.rows(
        "budgets", lambda b: b.holder_id == txn.holder_id and b.category == txn.category
    )
    if budgets:
        limit = budgets[0].limit_usd + ctx.rng.choice((50, 75, 100, 125, 150, 200))
    else:
        limit = float(ctx.rng.randrange(150, 601, 25))
    month = next(m for m in MONTHS if txn.date.startswith(m[0]))
    prompt = ctx.say(
        "Charge {txn} at {merchant} is in a category I keep overspending on. Set my monthly "
        "budget for that category to {limit}, then tell me how much of it was left in "
        "{month}.",
        "Please raise (or create) my monthly budget for whatever category transaction {txn} "
        "falls under to {limit}. With that limit, how much room did I have left in {month}?",
        "I want the budget for the spending category of transaction {txn} to be {limit} a "
        "month. Update it and let me know what remained of that budget for {month}.",
        txn=txn.txn_id,
        merchant=txn.merchant,
        limit=_usd(limit),
        month=month[1],
    )
    steps = [
        RefStep(tool="get_transaction", args={"txn_id": txn.txn_id}),
        RefStep(
            tool="set_budget",
            args={
                "holder_id": ref(0, "holder_id"),
                "category": ref(0, "category"),
                "limit_usd": limit,
            },
        ),
        RefStep(
            tool="get_budget_status",
            args={
                "holder_id": ref(1, "holder_id"),
                "category": ref(1, "category"),
                "month": month[0],
            },
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "remaining_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def last_visit_date(ctx: TemplateContext) -> Draft:
    """Sequential: holder by email -> their checking account -> first/last purchase date."""
    holder = ctx.pick("holders")
    checking = ctx.rows(
        "accounts", lambda a: a.holder_id == holder.holder_id and a.kind == "checking"
    )[0]
    shops = Counter(t.merchant_id for t in _spend_rows(ctx, checking.account_id))
    merchants = ctx.world.table("merchants")
    usable = sorted(
        m for m, n in shops.items() if n >= 2 and merchants[m].category != "subscriptions"
    )
    if not usable:
        raise NoFit("no merchant visited twice")
    merchant = merchants[ctx.rng.choice(usable)]
    field = ctx.rng.choice(("last_purchase_date", "first_purchase_date"))
    if field == "last_purchase_date":
        prompt = ctx.say(
            "When did I last pay at {shop} with my checking account? I'm {email}.",
            "This is {email}. What was the date of my most recent {shop} purchase on checking?",
            "I can't remember when I was last at {shop}. Could you look it up on my checking "
            "account? My email is {email}.",
            shop=merchant.name,
            email=holder.email,
        )
    else:
        prompt = ctx.say(
            "On what date did my checking account first show a purchase at {shop}? I'm {email}.",
            "This is {email}. When was the earliest {shop} charge on my checking account?",
            shop=merchant.name,
            email=holder.email,
        )
    steps = [
        RefStep(tool="find_holders", args={"email": holder.email}),
        RefStep(
            tool="list_accounts",
            args={"holder_id": ref(0, "results", 0, "holder_id"), "kind": "checking"},
        ),
        RefStep(
            tool="get_merchant_spending",
            args={"merchant": merchant.name, "account_id": ref(1, "results", 0, "account_id")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def category_mix_total(ctx: TemplateContext) -> Draft:
    """Parallel: three to six category totals of one account in one month, added up."""
    account = ctx.pick("accounts", lambda a: a.kind != "savings")
    month = ctx.rng.choice(MONTHS)
    spent = Counter(
        t.category
        for t in _spend_rows(ctx, account.account_id)
        if t.date.startswith(month[0]) and t.category in EVERYDAY
    )
    usable = sorted(spent)
    if len(usable) < 3:
        raise NoFit("fewer than three categories with spending that month")
    cats = ctx.rng.sample(usable, ctx.count(3, min(6, len(usable))))
    prompt = ctx.say(
        "How much did account {acct} spend on {cats} combined in {month}?",
        "For {month}, add up what went out of {acct} on {cats}.",
        "I'm doing my {month} review for account {acct}: what's the total of my {cats} spending?",
        acct=account.account_id,
        cats=listing(cats),
        month=month[1],
    )
    steps = [
        RefStep(
            tool="get_spending_total",
            args={
                "account_id": account.account_id,
                "start_date": month[2],
                "end_date": month[3],
                "category": c,
            },
        )
        for c in cats
    ]
    answer = AnswerSpec(op="sum", refs=[[i, "total_spent_usd"] for i in range(len(cats))], round=2)
    return Draft(prompt, steps, answer)


def top_merchant_spend(ctx: TemplateContext) -> Draft:
    """Parallel: spending at three to six merchants named by the user; the largest total."""
    account = ctx.pick("accounts", lambda a: a.kind != "savings")
    totals = Counter[str]()
    for t in _spend_rows(ctx, account.account_id):
        if t.original_currency == "USD" and t.category != "subscriptions":
            totals[t.merchant_id] += 1
    usable = sorted(m for m, n in totals.items() if n >= 2)
    if len(usable) < 3:
        raise NoFit("fewer than three regular merchants")
    picked = ctx.rng.sample(usable, ctx.count(3, min(6, len(usable))))
    names = [ctx.world.table("merchants")[m].name for m in picked]
    prompt = ctx.say(
        "Between {names}, where have I spent the most on account {acct}? Just give me that total.",
        "On {acct}, what's the biggest all-time total among my purchases at {names}?",
        "Check account {acct}: of {names}, which one has taken the most of my money, and how much?",
        names=listing(names),
        acct=account.account_id,
    )
    steps = [
        RefStep(
            tool="get_merchant_spending", args={"merchant": n, "account_id": account.account_id}
        )
        for n in names
    ]
    answer = AnswerSpec(op="max", refs=[[i, "total_spent_usd"] for i in range(len(names))], round=2)
    return Draft(prompt, steps, answer)


def tightest_budget(ctx: TemplateContext) -> Draft:
    """Parallel: three to six budgets of one holder in one month; the least room left."""
    owned = Counter(b.holder_id for b in ctx.rows("budgets"))
    holder = ctx.pick("holders", lambda h: owned[h.holder_id] >= 3)
    count = ctx.count(3, min(6, owned[holder.holder_id]))
    budgets = ctx.sample("budgets", count, lambda b: b.holder_id == holder.holder_id)
    month = ctx.rng.choice(MONTHS)
    cats = [b.category for b in budgets]
    prompt = ctx.say(
        "I'm {hid}. Looking at my {cats} budgets for {month}, how much was left in "
        "the tightest one? (Negative if I went over.)",
        "Holder {hid} here. Of my {cats} budgets, what was the smallest remaining "
        "amount in {month}? (Negative if I went over.)",
        hid=holder.holder_id,
        cats=listing(cats),
        month=month[1],
    )
    steps = [
        RefStep(
            tool="get_budget_status",
            args={"holder_id": holder.holder_id, "category": c, "month": month[0]},
        )
        for c in cats
    ]
    answer = AnswerSpec(op="min", refs=[[i, "remaining_usd"] for i in range(len(cats))], round=2)
    return Draft(prompt, steps, answer)


def merchants_of_two_charges(ctx: TemplateContext) -> Draft:
    """Mixture: two to four charges in parallel, then all-time spending at each one's merchant."""
    account = ctx.pick("accounts", lambda a: a.kind != "savings")
    charges = [t for t in _spend_rows(ctx, account.account_id) if _domestic_debit(t)]
    by_merchant: dict[str, Any] = {}
    for t in charges:
        by_merchant.setdefault(t.merchant_id, t)
    if len(by_merchant) < 2:
        raise NoFit("fewer than two merchants")
    k = ctx.count(2, min(4, len(by_merchant)))
    picked = ctx.rng.sample(sorted(by_merchant.values(), key=lambda t: t.txn_id), k)
    prompt = ctx.say(
        "Transactions {ids} are from {n} places I go to a lot. How much have I spent "
        "at those merchants altogether on that account?",
        "Look up charges {ids}, then tell me my combined all-time spending at all of "
        "those merchants on the same account.",
        ids=listing([t.txn_id for t in picked]),
        n=k,
    )
    steps = [RefStep(tool="get_transaction", args={"txn_id": t.txn_id}) for t in picked]
    steps += [
        RefStep(
            tool="get_merchant_spending",
            args={"merchant": ref(i, "merchant_id"), "account_id": ref(i, "account_id")},
        )
        for i in range(k)
    ]
    refs = [[k + i, "total_spent_usd"] for i in range(k)]
    answer = AnswerSpec(op="sum", refs=refs, round=2)
    return Draft(prompt, steps, answer)


def budget_room_for_charges(ctx: TemplateContext) -> Draft:
    """Mixture: two to four charges in parallel, then the budget status of each one's category."""
    budgeted = {(b.holder_id, b.category) for b in ctx.rows("budgets")}
    month = ctx.rng.choice(MONTHS)
    charges = ctx.rows(
        "transactions",
        lambda t: (
            _domestic_debit(t)
            and t.date.startswith(month[0])
            and (t.holder_id, t.category) in budgeted
        ),
    )
    first = _choice(ctx, charges, "budgeted charge that month")
    by_category: dict[str, Any] = {}
    for t in charges:
        if t.holder_id == first.holder_id:
            by_category.setdefault(t.category, t)
    if len(by_category) < 2:
        raise NoFit("no charge in a second budgeted category")
    k = ctx.count(2, min(4, len(by_category)))
    picked = ctx.rng.sample(sorted(by_category.values(), key=lambda t: t.txn_id), k)
    prompt = ctx.say(
        "Take charges {ids}. For the budget categories they fall in, how much room did "
        "I have left in {month}, all those budgets together? (A budget I went over counts "
        "as negative.)",
        "What was left in {month} of the {n} budgets that transactions {ids} count "
        "against? Give me the sum (negative where I went over).",
        ids=listing([t.txn_id for t in picked]),
        n=k,
        month=month[1],
    )
    steps = [RefStep(tool="get_transaction", args={"txn_id": t.txn_id}) for t in picked]
    steps += [
        RefStep(
            tool="get_budget_status",
            args={
                "holder_id": ref(i, "holder_id"),
                "category": ref(i, "category"),
                "month": month[0],
            },
        )
        for i in range(k)
    ]
    answer = AnswerSpec(op="sum", refs=[[k + i, "remaining_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def two_cards_month(ctx: TemplateContext) -> Draft:
    """Mixture: list a holder's credit cards, then each card's spending in one month."""
    cards = Counter(a.holder_id for a in ctx.rows("accounts", lambda a: a.kind == "credit_card"))
    holder = ctx.pick("holders", lambda h: cards[h.holder_id] == 2)
    month = ctx.rng.choice(MONTHS)
    prompt = ctx.say(
        "I'm holder {hid} and I have two credit cards. What did I spend on them in {month}, "
        "both cards together?",
        "Across both of my credit cards (holder {hid}), how much spending was there in {month}?",
        "Holder {hid}: total my {month} spending over my two credit cards, please.",
        hid=holder.holder_id,
        month=month[1],
    )
    steps = [
        RefStep(tool="list_accounts", args={"holder_id": holder.holder_id, "kind": "credit_card"})
    ]
    steps += [
        RefStep(
            tool="get_spending_total",
            args={
                "account_id": ref(0, "results", i, "account_id"),
                "start_date": month[2],
                "end_date": month[3],
            },
        )
        for i in range(2)
    ]
    answer = AnswerSpec(op="sum", refs=[[1, "total_spent_usd"], [2, "total_spent_usd"]], round=2)
    return Draft(prompt, steps, answer)


def latest_charge_per_account(ctx: TemplateContext) -> Draft:
    """Parallel: the newest charge of one category on three to six accounts, added up."""
    category = ctx.rng.choice(EVERYDAY)
    accounts = ctx.sample(
        "accounts",
        ctx.count(3, 6),
        lambda a: (
            a.kind != "savings"
            and any(t.category == category for t in _spend_rows(ctx, a.account_id))
        ),
    )
    ids = [a.account_id for a in accounts]
    prompt = ctx.say(
        "Take the most recent {cat} charge on each of the accounts {ids}. What "
        "do those charges come to together?",
        "I'm reconciling accounts {ids}: add up the latest {raw} transaction on each of them.",
        cat=SAY_CATEGORY[category],
        raw=category,
        ids=listing(ids),
    )
    steps = [
        RefStep(tool="list_transactions", args={"account_id": i, "category": category}) for i in ids
    ]
    refs = [[i, "results", 0, "amount_usd"] for i in range(len(ids))]
    answer = AnswerSpec(op="sum", refs=refs, round=2)
    return Draft(prompt, steps, answer)


def recent_merchants_totals(ctx: TemplateContext) -> Draft:
    """Mixture: a month's charges of one category, then all-time spending at the latest two."""
    newest: dict[tuple[str, str, str], list[Any]] = {}
    charges = ctx.rows("transactions", lambda t: t.direction == "debit" and t.merchant_id)
    for t in sorted(charges, key=lambda t: (t.date, t.txn_id)):
        newest.setdefault((t.account_id, t.date[:7], t.category), []).insert(0, t)
    cells = sorted(
        cell
        for cell, rows in newest.items()
        if cell[2] in EVERYDAY
        and len(rows) >= 2
        and rows[0].merchant_id != rows[1].merchant_id
        and any(cell[1] == m[0] for m in MONTHS)
    )
    account_id, month_key, category = _choice(ctx, cells, "month with two recent merchants")
    account = ctx.world.table("accounts")[account_id]
    month = next(m for m in MONTHS if m[0] == month_key)
    prompt = ctx.say(
        "Look at my two latest {cat} charges in {month} on account {acct}. How much have I "
        "spent in total, all time, at those two merchants on that account?",
        "On {acct}, find the last two {raw} transactions of {month}; then give me my "
        "combined all-time spending at those two places.",
        cat=SAY_CATEGORY[category],
        raw=category,
        month=month[1],
        acct=account.account_id,
    )
    steps = [
        RefStep(
            tool="list_transactions",
            args={
                "account_id": account.account_id,
                "start_date": month[2],
                "end_date": month[3],
                "category": category,
            },
        )
    ]
    steps += [
        RefStep(
            tool="get_merchant_spending",
            args={
                "merchant": ref(0, "results", i, "merchant_id"),
                "account_id": account.account_id,
            },
        )
        for i in range(2)
    ]
    answer = AnswerSpec(op="sum", refs=[[1, "total_spent_usd"], [2, "total_spent_usd"]], round=2)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="spending and budgets",
    templates={
        "sequential": [latest_two_category_charges, raise_budget_for_charge, last_visit_date],
        "parallel": [
            category_mix_total,
            top_merchant_spend,
            tightest_budget,
            latest_charge_per_account,
        ],
        "mixture": [
            merchants_of_two_charges,
            budget_room_for_charges,
            two_cards_month,
            recent_merchants_totals,
        ],
    },
)
