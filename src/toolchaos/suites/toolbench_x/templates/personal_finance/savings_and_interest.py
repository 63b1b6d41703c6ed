"""Personal-finance subtopic "savings and interest": savings pots, their rates and deposits."""

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
from toolchaos.suites.toolbench_x.templates.personal_finance._helpers import rate_step, unnamed_rate


def _holder_with_one(ctx: TemplateContext, kind: str) -> tuple[Any, Any]:
    """A holder with exactly one account of ``kind``, and that account."""
    counts = Counter(a.holder_id for a in ctx.rows("accounts", lambda a: a.kind == kind))
    holder = ctx.pick("holders", lambda h: counts[h.holder_id] == 1)
    account = ctx.rows("accounts", lambda a: a.holder_id == holder.holder_id and a.kind == kind)
    return holder, account[0]


def _savings_transfers(email: str) -> list[RefStep]:
    """Holder by email -> their savings account -> its transfers (steps 0 to 2)."""
    return [
        RefStep(tool="find_holders", args={"email": email}),
        RefStep(
            tool="list_accounts",
            args={"holder_id": ref(0, "results", 0, "holder_id"), "kind": "savings"},
        ),
        RefStep(tool="list_transfers", args={"account_id": ref(1, "results", 0, "account_id")}),
    ]


def last_deposit_into_savings(ctx: TemplateContext) -> Draft:
    """Sequential: holder by email -> their savings account -> its transfers; the latest."""
    holder, account = _holder_with_one(ctx, "savings")
    transfers = ctx.read("list_transfers", account_id=account.account_id)
    if transfers["count"] < 1 or transfers["count"] != transfers["total"]:
        raise NoFit("no complete transfer history")
    which, index = ctx.rng.choice([("most recent", transfers["count"] - 1), ("earliest", 0)])
    field, words = ctx.rng.choice([("date", "On what date"), ("amount_usd", "For how much (USD)")])
    prompt = ctx.say(
        "I'm {email}. {words} did the {which} transfer into or out of my savings account "
        "go through?",
        "Hi, {first} here ({email}). Check my savings account's transfer history: {lwords} "
        "was the {which} one made?",
        email=holder.email,
        first=holder.name.split()[0],
        words=words,
        lwords=words[0].lower() + words[1:],
        which=which,
    )
    steps = _savings_transfers(holder.email)
    answer = AnswerSpec(op="value", refs=[[2, "results", index, field]])
    return Draft(prompt, steps, answer)


def savings_feeder_account(ctx: TemplateContext) -> Draft:
    """Sequential: email -> savings account -> its transfers -> the account the latest came from.

    The user knows only their email and that money goes into savings from another account.
    """
    holder, account = _holder_with_one(ctx, "savings")
    transfers = ctx.read("list_transfers", account_id=account.account_id)
    if transfers["count"] < 1 or transfers["count"] != transfers["total"]:
        raise NoFit("no complete transfer history")
    last = transfers["results"][-1]
    if last["to_account_id"] != account.account_id:
        raise NoFit("the latest transfer went out of savings")
    field, words = ctx.rng.choice(
        [
            ("balance_usd", "what's the current balance (USD) of the account it came from"),
            ("nickname", "what's the nickname of the account it came from"),
            ("opened_on", "when was the account it came from opened"),
        ]
    )
    prompt = ctx.say(
        "I'm {email}. The most recent transfer into my savings account came from another "
        "of my accounts: {words}?",
        "Hi, {first} here ({email}). Look at the latest transfer that went into my savings; "
        "{words}?",
        email=holder.email,
        first=holder.name.split()[0],
        words=words,
    )
    steps = [
        *_savings_transfers(holder.email),
        RefStep(
            tool="get_account",
            args={"account_id": ref(2, "results", transfers["count"] - 1, "from_account_id")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, field]]))


def savings_pot_details(ctx: TemplateContext) -> Draft:
    """Sequential: holder by email -> their savings account -> the account's rate or balance."""
    holder, account = _holder_with_one(ctx, "savings")
    field, words = ctx.rng.choice(
        [
            ("apr_pct", "what interest rate (APR %) does it earn"),
            ("balance_usd", "how much is in it right now (USD)"),
            ("opened_on", "when did I open it"),
        ]
    )
    prompt = ctx.say(
        "This is {email}. About my savings pot '{nick}': {words}?",
        "Hi, {first} here ({email}). My savings account, {nick}: {words}?",
        "For the savings account of {email} ('{nick}'), {words}?",
        email=holder.email,
        first=holder.name.split()[0],
        nick=account.nickname,
        words=words,
    )
    steps = [
        RefStep(tool="find_holders", args={"email": holder.email}),
        RefStep(
            tool="list_accounts",
            args={"holder_id": ref(0, "results", 0, "holder_id"), "kind": "savings"},
        ),
        RefStep(tool="get_account", args={"account_id": ref(1, "results", 0, "account_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def best_savings_rate(ctx: TemplateContext) -> Draft:
    """Parallel: three to six savings accounts by id; the best rate or the total balance."""
    accounts = ctx.sample("accounts", ctx.count(3, 6), lambda a: a.kind == "savings")
    field, op, words = ctx.rng.choice(
        [
            ("apr_pct", "max", "the best interest rate (APR %) among them"),
            ("apr_pct", "min", "the lowest interest rate (APR %) among them"),
            ("balance_usd", "sum", "how much is saved across them, in dollars"),
            ("balance_usd", "max", "the largest balance among them, in dollars"),
        ]
    )
    prompt = ctx.say(
        "I advise {n} clients with savings accounts {ids}. Tell me {words}.",
        "Savings accounts {ids}: what is {words}?",
        "Look up accounts {ids} (all savings) and give me {words}.",
        n=len(accounts),
        ids=listing([a.account_id for a in accounts]),
        words=words,
    )
    steps = [RefStep(tool="get_account", args={"account_id": a.account_id}) for a in accounts]
    answer = AnswerSpec(op=op, refs=[[i, field] for i in range(len(accounts))], round=2)
    return Draft(prompt, steps, answer)


def household_savings(ctx: TemplateContext) -> Draft:
    """Mixture: two to four holders by email -> today's rate into each home currency -> op.

    The rate source is one the request leaves open (not the authoritative one).
    """
    counts = Counter(a.holder_id for a in ctx.rows("accounts", lambda a: a.kind == "savings"))
    pair = ctx.sample("holders", ctx.count(2, 4), lambda h: counts[h.holder_id] == 1)
    k = len(pair)
    op, words = ctx.rng.choice(
        [
            ("sum", "how much do we have in savings together"),
            ("max", "what's the largest of our savings balances"),
            ("min", "what's the smallest of our savings balances"),
        ]
    )
    who = "My partner ({b}) and I ({a})" if k == 2 else "I ({a}) and my family ({rest})"
    prompt = ctx.say(
        who + " each have a savings account. {q}?",
        "Household check for {emails}: {q}? Dollars, please.",
        a=pair[0].email,
        b=pair[1].email,
        rest=listing([h.email for h in pair[1:]]),
        emails=listing([h.email for h in pair]),
        q=words[0].upper() + words[1:],
    )
    steps = [RefStep(tool="find_holders", args={"email": h.email}) for h in pair]
    steps += [
        RefStep(
            tool="list_accounts",
            args={"holder_id": ref(i, "results", 0, "holder_id"), "kind": "savings"},
        )
        for i in range(k)
    ]
    refs = [[k + i, "results", 0, "balance_usd"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def members_home_rates(ctx: TemplateContext) -> Draft:
    """Mixture: two to four holders by email -> today's rate into each home currency -> op.

    The rate source is one the request leaves open (not the authoritative one).
    """
    abroad = ctx.rows("holders", lambda h: h.home_currency != "USD")
    k = ctx.count(2, 4)
    picked: list[Any] = []
    for h in ctx.rng.sample(abroad, len(abroad)):
        if h.home_currency not in {p.home_currency for p in picked}:
            picked.append(h)
        if len(picked) == k:
            break
    if len(picked) < k:
        raise NoFit("not enough holders with different home currencies")
    op = ctx.rng.choice(("max", "min"))
    tool = unnamed_rate(ctx)
    prompt = ctx.say(
        "Our savings club ({emails}) sends money home every month. Today, which member's "
        "home currency gets the {most} units per US dollar? Give me that exchange rate.",
        "For the savings-club members {emails}: look up how many units of each one's home "
        "currency a dollar buys today, and tell me the {highest} rate.",
        emails=listing([h.email for h in picked]),
        most="most" if op == "max" else "fewest",
        highest="highest" if op == "max" else "lowest",
    )
    steps = [RefStep(tool="find_holders", args={"email": h.email}) for h in picked]
    steps += [rate_step(tool, "USD", ref(i, "results", 0, "home_currency")) for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[k + i, "rate"] for i in range(k)]))


SUBTOPIC = Subtopic(
    name="savings and interest",
    templates={
        "sequential": [
            last_deposit_into_savings,
            savings_pot_details,
            savings_feeder_account,
        ],
        "parallel": [best_savings_rate],
        "mixture": [household_savings, members_home_rates],
    },
)
