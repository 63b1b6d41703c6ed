"""Personal-finance subtopics: spending and budgets, loans and payments, currency exchange.

Each template picks entities from the seeded world and writes the request an account
holder (or their adviser) would make; the answer comes from replaying the path, never
from here. Templates only read the world, through the domain's own READ tools where a
precondition needs a computed figure.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref

TOPIC = "personal finance"
DOMAIN = "personal_finance"

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
# refinance offers a person might bring: APR range (percent) and terms (months) per kind
REFI_OFFERS: dict[str, tuple[float, float, tuple[int, ...]]] = {
    "auto": (3.49, 7.99, (36, 48, 60)),
    "personal": (6.99, 13.99, (24, 36, 48)),
    "student": (3.99, 6.49, (60, 84, 120)),
    "mortgage": (5.125, 6.875, (180, 240, 360)),
}


def _run(ctx: TemplateContext, tool: str, **args: Any) -> Any:
    """Run a READ tool of the domain on the template's (unwritten) world."""
    return ctx.domain.tools[tool](ctx.world, **args)


def _choice(ctx: TemplateContext, items: list[Any], what: str) -> Any:
    """One of ``items`` chosen by the rng, or NoFit when there is none."""
    if not items:
        raise NoFit(f"no {what} fits")
    return ctx.rng.choice(items)


def _usd(amount: float) -> str:
    return f"${amount:,.2f}"


def _open(ctx: TemplateContext, holder_id: str, kind: str) -> list[Any]:
    return ctx.rows(
        "accounts",
        lambda a: a.holder_id == holder_id and a.kind == kind and a.status == "open",
    )


def _spend_rows(ctx: TemplateContext, account_id: str) -> list[Any]:
    return ctx.rows(
        "transactions",
        lambda t: t.account_id == account_id and t.direction == "debit" and t.merchant_id,
    )


def _domestic_debit(t: Any) -> bool:
    return bool(t.direction == "debit" and t.merchant_id and t.original_currency == "USD")


def _foreign(t: Any) -> bool:
    return bool(t.original_currency != "USD")


# -- spending and budgets -------------------------------------------------------------------


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
    """Parallel: three category totals of one account in one month, added up."""
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
    cats = ctx.rng.sample(usable, 3)
    prompt = ctx.say(
        "How much did account {acct} spend on {a}, {b} and {c} combined in {month}?",
        "For {month}, add up what went out of {acct} on {a}, {b} and {c}.",
        "I'm doing my {month} review for account {acct}: what's the total of my {a}, {b} "
        "and {c} spending?",
        acct=account.account_id,
        a=cats[0],
        b=cats[1],
        c=cats[2],
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
    answer = AnswerSpec(op="sum", refs=[[i, "total_spent_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def top_merchant_spend(ctx: TemplateContext) -> Draft:
    """Parallel: spending at three merchants named by the user; the largest total."""
    account = ctx.pick("accounts", lambda a: a.kind != "savings")
    totals = Counter[str]()
    for t in _spend_rows(ctx, account.account_id):
        if t.original_currency == "USD" and t.category != "subscriptions":
            totals[t.merchant_id] += 1
    usable = sorted(m for m, n in totals.items() if n >= 2)
    if len(usable) < 3:
        raise NoFit("fewer than three regular merchants")
    names = [ctx.world.table("merchants")[m].name for m in ctx.rng.sample(usable, 3)]
    prompt = ctx.say(
        "Between {a}, {b} and {c}, where have I spent the most on account {acct}? Just give "
        "me that total.",
        "On {acct}, what's the biggest all-time total among my purchases at {a}, {b} and {c}?",
        "Check account {acct}: of {a}, {b} and {c}, which one has taken the most of my money, "
        "and how much?",
        a=names[0],
        b=names[1],
        c=names[2],
        acct=account.account_id,
    )
    steps = [
        RefStep(
            tool="get_merchant_spending", args={"merchant": n, "account_id": account.account_id}
        )
        for n in names
    ]
    answer = AnswerSpec(op="max", refs=[[i, "total_spent_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def tightest_budget(ctx: TemplateContext) -> Draft:
    """Parallel: three budgets of one holder in one month; the least room left."""
    owned = Counter(b.holder_id for b in ctx.rows("budgets"))
    holder = ctx.pick("holders", lambda h: owned[h.holder_id] >= 3)
    budgets = ctx.sample("budgets", 3, lambda b: b.holder_id == holder.holder_id)
    month = ctx.rng.choice(MONTHS)
    cats = [b.category for b in budgets]
    prompt = ctx.say(
        "I'm {hid}. Looking at my {a}, {b} and {c} budgets for {month}, how much was left in "
        "the tightest one? (Negative if I went over.)",
        "Holder {hid} here. Of my {a}, {b} and {c} budgets, what was the smallest remaining "
        "amount in {month}?",
        hid=holder.holder_id,
        a=cats[0],
        b=cats[1],
        c=cats[2],
        month=month[1],
    )
    steps = [
        RefStep(
            tool="get_budget_status",
            args={"holder_id": holder.holder_id, "category": c, "month": month[0]},
        )
        for c in cats
    ]
    answer = AnswerSpec(op="min", refs=[[i, "remaining_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def merchants_of_two_charges(ctx: TemplateContext) -> Draft:
    """Mixture: two charges in parallel, then all-time spending at each one's merchant."""
    account = ctx.pick("accounts", lambda a: a.kind != "savings")
    charges = [t for t in _spend_rows(ctx, account.account_id) if _domestic_debit(t)]
    by_merchant: dict[str, Any] = {}
    for t in charges:
        by_merchant.setdefault(t.merchant_id, t)
    if len(by_merchant) < 2:
        raise NoFit("fewer than two merchants")
    first, second = ctx.rng.sample(sorted(by_merchant.values(), key=lambda t: t.txn_id), 2)
    prompt = ctx.say(
        "Transactions {a} and {b} are from two places I go to a lot. How much have I spent "
        "at those two merchants altogether on that account?",
        "Look up charges {a} and {b}, then tell me my combined all-time spending at both of "
        "those merchants on the same account.",
        a=first.txn_id,
        b=second.txn_id,
    )
    steps = [RefStep(tool="get_transaction", args={"txn_id": t.txn_id}) for t in (first, second)]
    steps += [
        RefStep(
            tool="get_merchant_spending",
            args={"merchant": ref(i, "merchant_id"), "account_id": ref(i, "account_id")},
        )
        for i in range(2)
    ]
    answer = AnswerSpec(op="sum", refs=[[2, "total_spent_usd"], [3, "total_spent_usd"]], round=2)
    return Draft(prompt, steps, answer)


def budget_room_for_charges(ctx: TemplateContext) -> Draft:
    """Mixture: two charges in parallel, then the budget status of each one's category."""
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
    others = [t for t in charges if t.holder_id == first.holder_id and t.category != first.category]
    second = _choice(ctx, others, "charge in a second budgeted category")
    prompt = ctx.say(
        "Take charges {a} and {b}. For the budget categories they fall in, how much room did "
        "I have left in {month}, both budgets together?",
        "What was left in {month} of the two budgets that transactions {a} and {b} count "
        "against? Give me the sum.",
        a=first.txn_id,
        b=second.txn_id,
        month=month[1],
    )
    steps = [RefStep(tool="get_transaction", args={"txn_id": t.txn_id}) for t in (first, second)]
    steps += [
        RefStep(
            tool="get_budget_status",
            args={
                "holder_id": ref(i, "holder_id"),
                "category": ref(i, "category"),
                "month": month[0],
            },
        )
        for i in range(2)
    ]
    answer = AnswerSpec(op="sum", refs=[[2, "remaining_usd"], [3, "remaining_usd"]], round=2)
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
    """Parallel: the newest charge of one category on three accounts, added up."""
    category = ctx.rng.choice(EVERYDAY)
    accounts = ctx.sample(
        "accounts",
        3,
        lambda a: (
            a.kind != "savings"
            and any(t.category == category for t in _spend_rows(ctx, a.account_id))
        ),
    )
    ids = [a.account_id for a in accounts]
    prompt = ctx.say(
        "Take the most recent {cat} charge on each of the accounts {a}, {b} and {c}. What "
        "do those three charges come to together?",
        "I'm reconciling accounts {a}, {b} and {c}: add up the latest {raw} transaction on "
        "each of them.",
        cat=SAY_CATEGORY[category],
        raw=category,
        a=ids[0],
        b=ids[1],
        c=ids[2],
    )
    steps = [
        RefStep(tool="list_transactions", args={"account_id": i, "category": category}) for i in ids
    ]
    answer = AnswerSpec(op="sum", refs=[[i, "results", 0, "amount_usd"] for i in range(3)], round=2)
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


# -- loans and payments ------------------------------------------------------------------------


def _single_loan_holder(ctx: TemplateContext) -> tuple[Any, Any]:
    kinds = Counter((loan.holder_id, loan.kind) for loan in ctx.rows("loans"))
    loan = ctx.pick("loans", lambda x: kinds[(x.holder_id, x.kind)] == 1)
    return ctx.world.table("holders")[loan.holder_id], loan


def refinance_quote(ctx: TemplateContext) -> Draft:
    """Sequential: holder -> their loan of a kind -> its balance -> a refinance quote."""
    holder, loan = _single_loan_holder(ctx)
    lo, hi, terms = REFI_OFFERS[loan.kind]
    apr = round(ctx.rng.uniform(lo, hi), 3 if loan.kind == "mortgage" else 2)
    term = ctx.rng.choice(terms)
    prompt = ctx.say(
        "I'm {email}. If I refinanced what I still owe on my {kind} loan at {apr}% APR over "
        "{term} months, what would the monthly payment be?",
        "A lender offered me {apr}% for {term} months to refinance the remaining balance of "
        "my {kind} loan. What would I pay each month? (My email: {email}.)",
        "Quote me a monthly payment: my current {kind} loan's outstanding balance, "
        "refinanced at {apr}% APR for {term} months. Account email {email}.",
        email=holder.email,
        kind=loan.kind,
        apr=apr,
        term=term,
    )
    steps = [
        RefStep(tool="find_holders", args={"email": holder.email}),
        RefStep(
            tool="list_loans",
            args={"holder_id": ref(0, "results", 0, "holder_id"), "kind": loan.kind},
        ),
        RefStep(tool="get_loan", args={"loan_id": ref(1, "results", 0, "loan_id")}),
        RefStep(
            tool="calculate_loan_payment",
            args={
                "principal_usd": ref(2, "remaining_balance_usd"),
                "apr_pct": apr,
                "term_months": term,
            },
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[3, "monthly_payment_usd"]], round=2)
    return Draft(prompt, steps, answer)


def loan_payoff_date(ctx: TemplateContext) -> Draft:
    """Sequential: holder -> their loan of a kind -> its payoff or next payment date."""
    holder, loan = _single_loan_holder(ctx)
    field = ctx.rng.choice(("payoff_date", "next_payment_date"))
    if field == "payoff_date":
        prompt = ctx.say(
            "When will my {kind} loan be fully paid off? My email is {email}.",
            "This is {email}. On what date is the last payment of my {kind} loan due?",
            "Could you tell me the payoff date of my {kind} loan? I'm registered as {email}.",
            kind=loan.kind,
            email=holder.email,
        )
    else:
        prompt = ctx.say(
            "When is the next payment on my {kind} loan due? My email is {email}.",
            "This is {email}. What date do I have to make my next {kind} loan payment?",
            kind=loan.kind,
            email=holder.email,
        )
    steps = [
        RefStep(tool="find_holders", args={"email": holder.email}),
        RefStep(
            tool="list_loans",
            args={"holder_id": ref(0, "results", 0, "holder_id"), "kind": loan.kind},
        ),
        RefStep(tool="get_loan", args={"loan_id": ref(1, "results", 0, "loan_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def pay_payee_bill(ctx: TemplateContext) -> Draft:
    """Sequential, writes: payee by name -> the holder's due bill -> pay it -> new balance."""
    bill, checking = _payable_bill(ctx)
    prompt = ctx.say(
        "I'm holder {hid}. Please pay my {payee} bill that's due, from checking account "
        "{acct}, and tell me what's left in checking afterwards.",
        "Holder {hid} here: settle the outstanding {payee} bill using {acct}. What will my "
        "checking balance be after that?",
        "Can you pay the {payee} bill I have due (holder {hid}) out of {acct}, then give me "
        "the account's new balance?",
        hid=bill.holder_id,
        payee=bill.payee_name,
        acct=checking.account_id,
    )
    steps = [
        RefStep(tool="search_payees", args={"query": bill.payee_name}),
        RefStep(
            tool="list_bills",
            args={
                "holder_id": bill.holder_id,
                "payee_id": ref(0, "results", 0, "payee_id"),
                "status": "due",
            },
        ),
        RefStep(
            tool="pay_bill",
            args={
                "bill_id": ref(1, "results", 0, "bill_id"),
                "from_account_id": checking.account_id,
            },
        ),
        RefStep(tool="get_account", args={"account_id": ref(2, "from_account_id")}),
    ]
    answer = AnswerSpec(op="value", refs=[[3, "balance_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def top_up_and_schedule(ctx: TemplateContext) -> Draft:
    """Sequential, writes: savings -> checking transfer -> schedule a payment -> balance."""
    holder = ctx.pick(
        "holders",
        lambda h: bool(_open(ctx, h.holder_id, "checking") and _open(ctx, h.holder_id, "savings")),
    )
    checking = _open(ctx, holder.holder_id, "checking")[0]
    savings = _open(ctx, holder.holder_id, "savings")[0]
    payees = sorted(
        {b.payee_name for b in ctx.rows("bills", lambda b: b.holder_id == holder.holder_id)}
    )
    payee = _choice(ctx, payees, "payee of the holder")
    amount = round(ctx.rng.uniform(120, min(900.0, savings.balance_usd)), 2)
    if amount == int(amount):
        amount += 0.41
    when = (ctx.world.now().date() + timedelta(days=ctx.rng.randint(5, 45))).isoformat()
    prompt = ctx.say(
        "Move {amount} from my savings {sav} into checking {chk}, then schedule a payment "
        "of that same amount to {payee} on {when}. What will checking show afterwards?",
        "Please top up checking account {chk} with {amount} from savings {sav} and set up a "
        "{amount} payment to {payee} for {when}. Then tell me the checking balance.",
        amount=_usd(amount),
        sav=savings.account_id,
        chk=checking.account_id,
        payee=payee,
        when=when,
    )
    steps = [
        RefStep(
            tool="transfer_funds",
            args={
                "from_account_id": savings.account_id,
                "to_account_id": checking.account_id,
                "amount_usd": amount,
            },
        ),
        RefStep(
            tool="schedule_payment",
            args={
                "from_account_id": ref(0, "to_account_id"),
                "payee": payee,
                "amount_usd": ref(0, "amount_usd"),
                "pay_on": when,
            },
        ),
        RefStep(tool="get_account", args={"account_id": ref(1, "from_account_id")}),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "balance_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def monthly_loan_outlay(ctx: TemplateContext) -> Draft:
    """Parallel: three loans looked up independently; their monthly payments added."""
    loans = ctx.sample("loans", 3)
    ids = [loan.loan_id for loan in loans]
    prompt = ctx.say(
        "What do the monthly payments on loans {a}, {b} and {c} add up to?",
        "I'm budgeting for loans {a}, {b} and {c}. How much goes out each month for all "
        "three together?",
        "Sum the monthly installments of loans {a}, {b} and {c} for me.",
        a=ids[0],
        b=ids[1],
        c=ids[2],
    )
    steps = [RefStep(tool="get_loan", args={"loan_id": i}) for i in ids]
    answer = AnswerSpec(op="sum", refs=[[i, "monthly_payment_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def cheapest_offer(ctx: TemplateContext) -> Draft:
    """Parallel: three loan offers quoted independently; the least total interest."""
    kind = ctx.rng.choice(["auto", "personal", "student"])
    lo, hi, terms = REFI_OFFERS[kind]
    principal = float(ctx.rng.randrange(6000, 42001, 250))
    offers = [(round(ctx.rng.uniform(lo, hi), 2), ctx.rng.choice(terms)) for _ in range(3)]
    if len(set(offers)) < 3:
        raise NoFit("offers must differ")
    text = "; ".join(f"{apr}% over {term} months" for apr, term in offers)
    prompt = ctx.say(
        "I need to borrow {p} for a {kind} loan and have three offers: {offers}. Which "
        "costs the least interest in total, and how much interest is that?",
        "Compare these {kind} loan offers for {p}: {offers}. What's the lowest total "
        "interest I could pay?",
        p=_usd(principal),
        kind=kind,
        offers=text,
    )
    steps = [
        RefStep(
            tool="calculate_loan_payment",
            args={"principal_usd": principal, "apr_pct": apr, "term_months": term},
        )
        for apr, term in offers
    ]
    answer = AnswerSpec(op="min", refs=[[i, "total_interest_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def biggest_upcoming_bill(ctx: TemplateContext) -> Draft:
    """Parallel: three due bills looked up independently; the largest amount."""
    bills = ctx.sample("bills", 3, lambda b: b.status != "paid")
    if len({b.amount_usd for b in bills}) < 3:
        raise NoFit("bills must differ in amount")
    ids = [b.bill_id for b in bills]
    prompt = ctx.say(
        "Bills {a}, {b} and {c} still need paying. What's the biggest of the three amounts?",
        "Of bills {a}, {b} and {c}, how much is the largest one?",
        "I have to cover bills {a}, {b} and {c}. Tell me the highest amount among them.",
        a=ids[0],
        b=ids[1],
        c=ids[2],
    )
    steps = [RefStep(tool="get_bill", args={"bill_id": i}) for i in ids]
    answer = AnswerSpec(op="max", refs=[[i, "amount_usd"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def stretch_two_loans(ctx: TemplateContext) -> Draft:
    """Mixture: two loans in parallel, then each balance re-amortized; combined payment."""
    loans = ctx.sample("loans", 2)
    term = ctx.rng.choice((36, 48, 60, 84, 120))
    prompt = ctx.say(
        "If I re-amortized what's left on loans {a} and {b} over {term} months each, at "
        "their current rates, what would the two monthly payments come to together?",
        "Suppose the outstanding balances of loans {a} and {b} were each spread over a new "
        "{term}-month term at the same APR. What's the combined monthly payment?",
        a=loans[0].loan_id,
        b=loans[1].loan_id,
        term=term,
    )
    steps = [RefStep(tool="get_loan", args={"loan_id": loan.loan_id}) for loan in loans]
    steps += [
        RefStep(
            tool="calculate_loan_payment",
            args={
                "principal_usd": ref(i, "remaining_balance_usd"),
                "apr_pct": ref(i, "apr_pct"),
                "term_months": term,
            },
        )
        for i in range(2)
    ]
    answer = AnswerSpec(
        op="sum", refs=[[2, "monthly_payment_usd"], [3, "monthly_payment_usd"]], round=2
    )
    return Draft(prompt, steps, answer)


def pay_two_earliest_bills(ctx: TemplateContext) -> Draft:
    """Mixture, writes: list due bills, pay the two earliest, then read the balance."""
    due = Counter(b.holder_id for b in ctx.rows("bills", lambda b: b.status == "due"))

    def fits(holder: Any) -> bool:
        checking = _open(ctx, holder.holder_id, "checking")
        if due[holder.holder_id] < 2 or not checking:
            return False
        bills = sorted(
            ctx.rows("bills", lambda b: b.holder_id == holder.holder_id and b.status == "due"),
            key=lambda b: b.due_date,
        )
        if len(bills) > 2 and bills[1].due_date == bills[2].due_date:
            return False  # "the two due soonest" would be ambiguous
        return bool(checking[0].balance_usd >= bills[0].amount_usd + bills[1].amount_usd)

    holder = ctx.pick("holders", fits)
    checking = _open(ctx, holder.holder_id, "checking")[0]
    prompt = ctx.say(
        "I'm holder {hid}. Pay my two bills that are due soonest from checking {acct}, and "
        "tell me the balance left afterwards.",
        "Holder {hid}: please settle the two earliest due bills out of {acct}. What's my "
        "checking balance after both?",
        hid=holder.holder_id,
        acct=checking.account_id,
    )
    steps = [RefStep(tool="list_bills", args={"holder_id": holder.holder_id, "status": "due"})]
    steps += [
        RefStep(
            tool="pay_bill",
            args={
                "bill_id": ref(0, "results", i, "bill_id"),
                "from_account_id": checking.account_id,
            },
        )
        for i in range(2)
    ]
    steps.append(RefStep(tool="get_account", args={"account_id": ref(2, "from_account_id")}))
    answer = AnswerSpec(op="value", refs=[[3, "balance_usd"]], round=2)
    return Draft(prompt, steps, answer, writes=True)


def last_loan_payoff(ctx: TemplateContext) -> Draft:
    """Mixture: list a holder's loans, then look each up; when is the later one paid off?"""
    owned = Counter(loan.holder_id for loan in ctx.rows("loans"))
    holder = ctx.pick("holders", lambda h: owned[h.holder_id] == 2)
    views = [
        _run(ctx, "get_loan", loan_id=loan.loan_id)
        for loan in ctx.rows("loans", lambda x: x.holder_id == holder.holder_id)
    ]
    if views[0]["payments_remaining"] == views[1]["payments_remaining"]:
        raise NoFit("the loans end together")
    op = ctx.rng.choice(("argmax", "argmin"))
    if op == "argmax":
        prompt = ctx.say(
            "I'm holder {hid} and I have two loans. When will I finally be done with both, "
            "i.e. what's the payoff date of whichever ends last?",
            "Holder {hid}: of my two loans, which one runs longest, and on what date is it "
            "paid off? I just need the date.",
            "For holder {hid}, look up both loans and tell me the later of their payoff dates.",
            hid=holder.holder_id,
        )
    else:
        prompt = ctx.say(
            "I'm holder {hid}. Which of my two loans will I pay off first, and on what date?",
            "Holder {hid}: look up both my loans and give me the earlier of the two payoff dates.",
            hid=holder.holder_id,
        )
    steps = [RefStep(tool="list_loans", args={"holder_id": holder.holder_id})]
    steps += [
        RefStep(tool="get_loan", args={"loan_id": ref(0, "results", i, "loan_id")})
        for i in range(2)
    ]
    answer = AnswerSpec(
        op=op,
        refs=[[1, "payments_remaining"], [2, "payments_remaining"]],
        labels=[ref(1, "payoff_date"), ref(2, "payoff_date")],
    )
    return Draft(prompt, steps, answer)


def _payable_bill(ctx: TemplateContext) -> tuple[Any, Any]:
    """A due bill and an open checking account of its holder that can cover it."""

    def payable(bill: Any) -> bool:
        checking = _open(ctx, bill.holder_id, "checking")
        return bool(checking) and checking[0].balance_usd >= bill.amount_usd

    bill = ctx.pick("bills", lambda b: b.status == "due" and payable(b))
    return bill, _open(ctx, bill.holder_id, "checking")[0]


def pay_now_schedule_next(ctx: TemplateContext) -> Draft:
    """Sequential, writes: payee -> due bill -> pay it -> schedule the same for next month."""
    bill, checking = _payable_bill(ctx)
    month_later = (
        ctx.world.now().date().replace(day=1) + timedelta(days=31 + int(bill.due_date[8:]) - 1)
    ).isoformat()
    prompt = ctx.say(
        "I'm holder {hid}. Pay my due {payee} bill from checking {acct} now, and schedule a "
        "payment of the same amount to {payee} for {when}.",
        "Holder {hid}: settle the {payee} bill that's due out of {acct}, then set up the "
        "same amount to go to them again on {when}.",
        hid=bill.holder_id,
        payee=bill.payee_name,
        acct=checking.account_id,
        when=month_later,
    )
    steps = [
        RefStep(tool="search_payees", args={"query": bill.payee_name}),
        RefStep(
            tool="list_bills",
            args={
                "holder_id": bill.holder_id,
                "payee_id": ref(0, "results", 0, "payee_id"),
                "status": "due",
            },
        ),
        RefStep(
            tool="pay_bill",
            args={
                "bill_id": ref(1, "results", 0, "bill_id"),
                "from_account_id": checking.account_id,
            },
        ),
        RefStep(
            tool="schedule_payment",
            args={
                "from_account_id": ref(2, "from_account_id"),
                "payee": ref(2, "payee_id"),
                "amount_usd": ref(2, "amount_usd"),
                "pay_on": month_later,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def top_up_then_pay_and_schedule(ctx: TemplateContext) -> Draft:
    """Mixture, writes: one transfer into checking, then a bill paid and a payment scheduled."""
    bill, checking = _payable_bill(ctx)
    savings = _open(ctx, bill.holder_id, "savings")
    if not savings:
        raise NoFit("the holder's savings account is not open")
    amount = round(ctx.rng.uniform(100, min(1500.0, savings[0].balance_usd)), 2)
    others = sorted(
        {b.payee_name for b in ctx.rows("bills", lambda b: b.holder_id == bill.holder_id)}
        - {bill.payee_name}
    )
    payee = _choice(ctx, others, "second payee of the holder")
    later = round(ctx.rng.uniform(30, 400), 2)
    when = (ctx.world.now().date() + timedelta(days=ctx.rng.randint(7, 50))).isoformat()
    prompt = ctx.say(
        "Move {amount} from savings {sav} into checking {chk}. Then, from that checking "
        "account, pay bill {bill} now and schedule {later} to {payee} on {when}.",
        "Please do three things for me: transfer {amount} from {sav} to {chk}; pay bill "
        "{bill} out of {chk}; and schedule a {later} payment to {payee} from {chk} for "
        "{when}.",
        amount=_usd(amount),
        sav=savings[0].account_id,
        chk=checking.account_id,
        bill=bill.bill_id,
        later=_usd(later),
        payee=payee,
        when=when,
    )
    steps = [
        RefStep(
            tool="transfer_funds",
            args={
                "from_account_id": savings[0].account_id,
                "to_account_id": checking.account_id,
                "amount_usd": amount,
            },
        ),
        RefStep(
            tool="pay_bill",
            args={"bill_id": bill.bill_id, "from_account_id": ref(0, "to_account_id")},
        ),
        RefStep(
            tool="schedule_payment",
            args={
                "from_account_id": ref(0, "to_account_id"),
                "payee": payee,
                "amount_usd": later,
                "pay_on": when,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


# -- currency exchange ---------------------------------------------------------------------------


def _codes(ctx: TemplateContext, k: int) -> list[str]:
    codes = sorted(ctx.world.table("market_rates"))
    return ctx.rng.sample(codes, k)


def foreign_charge_now(ctx: TemplateContext) -> Draft:
    """Sequential: charge abroad -> market rate of its currency -> its value in dollars now."""
    txn = ctx.pick("transactions", _foreign)
    prompt = ctx.say(
        "Transaction {txn} was charged in a foreign currency. At today's market rate, what "
        "would the original amount be in US dollars, to the cent?",
        "I paid abroad on {txn}. If I converted that same local amount today at the "
        "mid-market rate, how many dollars would it be?",
        "What's the original amount of charge {txn} worth in USD right now, using the live "
        "market rate?",
        txn=txn.txn_id,
    )
    steps = [
        RefStep(tool="get_transaction", args={"txn_id": txn.txn_id}),
        RefStep(
            tool="get_market_rate",
            args={"from_currency": ref(0, "original_currency"), "to_currency": "USD"},
        ),
        RefStep(
            tool="convert_amount",
            args={
                "amount": ref(0, "original_amount"),
                "rate": ref(1, "rate"),
                "from_currency": ref(1, "base"),
                "to_currency": ref(1, "quote"),
            },
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "converted_amount"]], round=2)
    return Draft(prompt, steps, answer)


def board_rate_for_home(ctx: TemplateContext) -> Draft:
    """Sequential: account -> its holder's home currency -> the board rate for it."""
    holders = ctx.world.table("holders")
    account = ctx.pick(
        "accounts", lambda a: a.status == "open" and holders[a.holder_id].home_currency != "USD"
    )
    prompt = ctx.say(
        "The owner of account {acct} wants to send money home. On our bank's rate board, "
        "how many units of their home currency does one US dollar buy? Give the rate as "
        "quoted.",
        "For the holder of {acct}: what's the bank board rate from US dollars into the "
        "currency of their home country? I need the exact rate.",
        acct=account.account_id,
    )
    steps = [
        RefStep(tool="get_account", args={"account_id": account.account_id}),
        RefStep(tool="get_holder", args={"holder_id": ref(0, "holder_id")}),
        RefStep(
            tool="get_bank_board_rate",
            args={"sell_currency": "USD", "buy_currency": ref(1, "home_currency")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "rate"]]))


def send_money_home(ctx: TemplateContext) -> Draft:
    """Sequential: holder by email -> reference rate into their home currency -> convert."""
    holder = ctx.pick("holders", lambda h: h.home_currency != "USD")
    amount = round(ctx.rng.uniform(150, 2500), 2)
    fee = ctx.rng.choice((None, 0.5, 1.0, 1.5, 2.0))
    fee_text = "" if fee is None else f" The transfer service keeps a {fee}% fee."
    prompt = ctx.say(
        "I'm {email} and I'm sending {amount} home. At the official reference rate, how "
        "much arrives in my home currency?{fee}",
        "How much would {amount} be in my home country's currency at the central bank "
        "reference rate? My email is {email}.{fee}",
        email=holder.email,
        amount=_usd(amount),
        fee=fee_text,
    )
    convert: dict[str, Any] = {
        "amount": amount,
        "rate": ref(1, "rate"),
        "from_currency": ref(1, "base"),
        "to_currency": ref(1, "quote"),
    }
    if fee is not None:
        convert["fee_pct"] = fee
    steps = [
        RefStep(tool="find_holders", args={"email": holder.email}),
        RefStep(
            tool="get_reference_rate",
            args={"base": "USD", "quote": ref(0, "results", 0, "home_currency")},
        ),
        RefStep(tool="convert_amount", args=convert),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "converted_amount"]], round=2)
    return Draft(prompt, steps, answer)


def strongest_of_three(ctx: TemplateContext) -> Draft:
    """Parallel: three market rates into dollars; the highest."""
    codes = _codes(ctx, 3)
    prompt = ctx.say(
        "Of {a}, {b} and {c}, which is worth the most in US dollars per unit at the market "
        "rate? Give me that rate exactly as quoted.",
        "Check the live market rates of {a}, {b} and {c} against the dollar. What's the "
        "highest dollar value of one unit among them?",
        a=codes[0],
        b=codes[1],
        c=codes[2],
    )
    steps = [
        RefStep(tool="get_market_rate", args={"from_currency": c, "to_currency": "USD"})
        for c in codes
    ]
    answer = AnswerSpec(op="max", refs=[[i, "rate"] for i in range(3)])
    return Draft(prompt, steps, answer)


def fewest_units_on_board(ctx: TemplateContext) -> Draft:
    """Parallel: three board rates out of dollars; the lowest."""
    codes = _codes(ctx, 3)
    prompt = ctx.say(
        "On the bank's rate board, how many units of {a}, {b} and {c} does one US dollar "
        "buy? Tell me the smallest of the three rates.",
        "Selling one dollar on our board for {a}, {b} or {c}: which gets the fewest units, "
        "and what's that rate?",
        a=codes[0],
        b=codes[1],
        c=codes[2],
    )
    steps = [
        RefStep(tool="get_bank_board_rate", args={"sell_currency": "USD", "buy_currency": c})
        for c in codes
    ]
    answer = AnswerSpec(op="min", refs=[[i, "rate"] for i in range(3)])
    return Draft(prompt, steps, answer)


def weakest_reference(ctx: TemplateContext) -> Draft:
    """Parallel: three reference rates into dollars; the lowest."""
    codes = _codes(ctx, 3)
    prompt = ctx.say(
        "At the official reference rates, which of {a}, {b} and {c} buys the fewest US "
        "dollars per unit? Give that reference rate.",
        "Look up the central bank reference rates for {a}, {b} and {c} in dollars and tell "
        "me the lowest one.",
        a=codes[0],
        b=codes[1],
        c=codes[2],
    )
    steps = [RefStep(tool="get_reference_rate", args={"base": c, "quote": "USD"}) for c in codes]
    answer = AnswerSpec(op="min", refs=[[i, "rate"] for i in range(3)])
    return Draft(prompt, steps, answer)


def _cash(ctx: TemplateContext, code: str) -> float:
    if code == "JPY":
        return float(ctx.rng.randrange(3000, 60001, 500))
    per_usd = float(ctx.world.table("market_rates")[code].units_per_usd)
    return round(ctx.rng.uniform(20, 400) * per_usd, 2)


def leftover_cash(ctx: TemplateContext) -> Draft:
    """Mixture: three reference rates in parallel, then each amount converted; the total."""
    codes = _codes(ctx, 3)
    amounts = [_cash(ctx, c) for c in codes]
    listing = ", ".join(
        f"{a:,.2f} {c}" if c != "JPY" else f"{a:,.0f} {c}"
        for a, c in zip(amounts, codes, strict=True)
    )
    prompt = ctx.say(
        "I came back from a trip with {cash} in cash. What is all of it worth in US dollars "
        "at the official reference rates?",
        "Convert my leftover {cash} into dollars at the central bank reference rates and "
        "give me the total, to the cent.",
        cash=listing,
    )
    steps = [RefStep(tool="get_reference_rate", args={"base": c, "quote": "USD"}) for c in codes]
    steps += [
        RefStep(
            tool="convert_amount",
            args={
                "amount": a,
                "rate": ref(i, "rate"),
                "from_currency": ref(i, "base"),
                "to_currency": ref(i, "quote"),
            },
        )
        for i, a in enumerate(amounts)
    ]
    answer = AnswerSpec(op="sum", refs=[[3 + i, "converted_amount"] for i in range(3)], round=2)
    return Draft(prompt, steps, answer)


def _two_foreign_charges(ctx: TemplateContext) -> tuple[Any, Any]:
    first = ctx.pick("transactions", _foreign)
    others = ctx.rows(
        "transactions", lambda t: _foreign(t) and t.original_currency != first.original_currency
    )
    if not others:
        raise NoFit("no charge in a second foreign currency")
    return first, _choice(ctx, others, "charge in a second foreign currency")


def better_currency_of_charges(ctx: TemplateContext) -> Draft:
    """Mixture: two charges abroad in parallel, then each currency's board rate; the higher."""
    first, second = _two_foreign_charges(ctx)
    op = ctx.rng.choice(("max", "min"))
    prompt = ctx.say(
        "Transactions {a} and {b} were charged in two different foreign currencies. On our "
        "rate board, which of those currencies is worth {more} in US dollars per unit? Give "
        "its rate.",
        "Look at the currencies charges {a} and {b} were made in. What's the {higher} of "
        "their two bank-board rates into US dollars?",
        a=first.txn_id,
        b=second.txn_id,
        more="more" if op == "max" else "less",
        higher="higher" if op == "max" else "lower",
    )
    steps = [RefStep(tool="get_transaction", args={"txn_id": t.txn_id}) for t in (first, second)]
    steps += [
        RefStep(
            tool="get_bank_board_rate",
            args={"sell_currency": ref(i, "original_currency"), "buy_currency": "USD"},
        )
        for i in range(2)
    ]
    answer = AnswerSpec(op=op, refs=[[2, "rate"], [3, "rate"]])
    return Draft(prompt, steps, answer)


def foreign_charges_today(ctx: TemplateContext) -> Draft:
    """Mixture: two charges abroad, their currencies' market rates, each converted; total."""
    first, second = _two_foreign_charges(ctx)
    prompt = ctx.say(
        "If I paid the original local amounts of charges {a} and {b} today, what would they "
        "cost in US dollars together at the market rate?",
        "Re-price transactions {a} and {b} at today's mid-market rates: what's the combined "
        "dollar value of their original amounts?",
        a=first.txn_id,
        b=second.txn_id,
    )
    steps = [RefStep(tool="get_transaction", args={"txn_id": t.txn_id}) for t in (first, second)]
    steps += [
        RefStep(
            tool="get_market_rate",
            args={"from_currency": ref(i, "original_currency"), "to_currency": "USD"},
        )
        for i in range(2)
    ]
    steps += [
        RefStep(
            tool="convert_amount",
            args={
                "amount": ref(i, "original_amount"),
                "rate": ref(2 + i, "rate"),
                "from_currency": ref(2 + i, "base"),
                "to_currency": ref(2 + i, "quote"),
            },
        )
        for i in range(2)
    ]
    answer = AnswerSpec(op="sum", refs=[[4, "converted_amount"], [5, "converted_amount"]], round=2)
    return Draft(prompt, steps, answer)


SUBTOPICS = [
    Subtopic(
        name="spending and budgets",
        topic=TOPIC,
        domain=DOMAIN,
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
    ),
    Subtopic(
        name="loans and payments",
        topic=TOPIC,
        domain=DOMAIN,
        templates={
            "sequential": [
                refinance_quote,
                pay_payee_bill,
                top_up_and_schedule,
                loan_payoff_date,
                pay_now_schedule_next,
            ],
            "parallel": [monthly_loan_outlay, cheapest_offer, biggest_upcoming_bill],
            "mixture": [
                stretch_two_loans,
                pay_two_earliest_bills,
                last_loan_payoff,
                top_up_then_pay_and_schedule,
            ],
        },
    ),
    Subtopic(
        name="currency exchange",
        topic=TOPIC,
        domain=DOMAIN,
        templates={
            "sequential": [foreign_charge_now, board_rate_for_home, send_money_home],
            "parallel": [strongest_of_three, fewest_units_on_board, weakest_reference],
            "mixture": [leftover_cash, better_currency_of_charges, foreign_charges_today],
        },
    ),
]
