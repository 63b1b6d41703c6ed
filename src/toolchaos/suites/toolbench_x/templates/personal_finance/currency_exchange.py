"""Personal-finance subtopic "currency exchange": rates, conversions, charges abroad."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    Subtopic,
    TemplateContext,
    listing,
    ref,
)
from toolchaos.suites.toolbench_x.templates.personal_finance._helpers import (
    _choice,
    _usd,
    home_rate,
    rate_source,
    rate_step,
)


def _foreign(t: Any) -> bool:
    return bool(t.original_currency != "USD")


def _codes(ctx: TemplateContext, k: int) -> list[str]:
    codes = sorted(ctx.world.table("market_rates"))
    return ctx.rng.sample(codes, k)


def foreign_charge_now(ctx: TemplateContext) -> Draft:
    """Sequential: charge abroad -> market rate of its currency -> its value in dollars now."""
    txn = ctx.pick("transactions", _foreign)
    tool, named = rate_source(ctx, "get_market_rate")
    prompt = ctx.say(
        *(
            (
                "Transaction {txn} was charged in a foreign currency. At today's market rate, "
                "what would the original amount be in US dollars, to the cent?",
                "I paid abroad on {txn}. If I converted that same local amount today at the "
                "mid-market rate, how many dollars would it be?",
                "What's the original amount of charge {txn} worth in USD right now, using the "
                "live market rate?",
            )
            if named
            else (
                "Transaction {txn} was charged in a foreign currency. At today's exchange "
                "rate, what would the original amount be in US dollars, to the cent?",
                "I paid abroad on {txn}. If I converted that same local amount today, how "
                "many dollars would it be?",
            )
        ),
        txn=txn.txn_id,
    )
    steps = [
        RefStep(tool="get_transaction", args={"txn_id": txn.txn_id}),
        rate_step(tool, ref(0, "original_currency"), "USD"),
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
    tool, named = rate_source(ctx, "get_bank_board_rate")
    prompt = ctx.say(
        *(
            (
                "The owner of account {acct} wants to send money home. On our bank's rate "
                "board, how many units of their home currency does one US dollar buy? Give "
                "the rate as quoted.",
                "For the holder of {acct}: what's the rate board's rate from US dollars into "
                "the currency of their home country? I need the exact rate.",
            )
            if named
            else (
                "The owner of account {acct} wants to send money home. How many units of "
                "their home currency does one US dollar buy today? Give the rate as quoted.",
                "For the holder of {acct}: what's the exchange rate from US dollars into the "
                "currency of their home country? I need the exact rate.",
            )
        ),
        acct=account.account_id,
    )
    steps = home_rate(account.account_id, tool, into_home=True)
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "rate"]]))


def send_money_home(ctx: TemplateContext) -> Draft:
    """Sequential: holder by email -> reference rate into their home currency -> convert."""
    holder = ctx.pick("holders", lambda h: h.home_currency != "USD")
    amount = round(ctx.rng.uniform(150, 2500), 2)
    fee = ctx.rng.choice((None, 0.5, 1.0, 1.5, 2.0))
    fee_text = "" if fee is None else f" The transfer service keeps a {fee}% fee."
    tool, named = rate_source(ctx, "get_reference_rate")
    prompt = ctx.say(
        *(
            (
                "I'm {email} and I'm sending {amount} home. At the official reference rate, "
                "how much arrives in my home currency?{fee}",
                "How much would {amount} be in my home country's currency at the central "
                "bank reference rate? My email is {email}.{fee}",
            )
            if named
            else (
                "I'm {email} and I'm sending {amount} home. At today's exchange rate, how "
                "much arrives in my home currency?{fee}",
                "How much would {amount} be in my home country's currency at today's rate? "
                "My email is {email}.{fee}",
            )
        ),
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
        rate_step(tool, "USD", ref(0, "results", 0, "home_currency")),
        RefStep(tool="convert_amount", args=convert),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "converted_amount"]], round=2)
    return Draft(prompt, steps, answer)


def strongest_of_three(ctx: TemplateContext) -> Draft:
    """Parallel: three to six market rates into dollars; the highest."""
    codes = _codes(ctx, ctx.count(3, 6))
    tool, named = rate_source(ctx, "get_market_rate")
    prompt = ctx.say(
        *(
            (
                "Of {codes}, which is worth the most in US dollars per unit at the market "
                "rate? Give me that rate exactly as quoted.",
                "Check the live market rate of each of {codes} against the dollar. What's the "
                "highest dollar value of one unit among them?",
            )
            if named
            else (
                "Of {codes}, which is worth the most in US dollars per unit today? Give me "
                "that exchange rate exactly as quoted.",
                "Check today's exchange rate of each of {codes} against the dollar. What's the "
                "highest dollar value of one unit among them?",
            )
        ),
        codes=listing(codes),
    )
    steps = [rate_step(tool, c, "USD") for c in codes]
    answer = AnswerSpec(op="max", refs=[[i, "rate"] for i in range(len(codes))])
    return Draft(prompt, steps, answer)


def fewest_units_on_board(ctx: TemplateContext) -> Draft:
    """Parallel: three to six board rates out of dollars; the lowest."""
    codes = _codes(ctx, ctx.count(3, 6))
    tool, named = rate_source(ctx, "get_bank_board_rate")
    prompt = ctx.say(
        *(
            (
                "On the bank's rate board, how many units of each of {codes} does one US "
                "dollar buy? Tell me the smallest of those rates.",
                "Selling one dollar on our rate board for any of {codes}: which gets the "
                "fewest units, and what's that rate?",
            )
            if named
            else (
                "How many units of each of {codes} does one US dollar buy today? Tell me the "
                "smallest of those exchange rates.",
                "Selling one dollar for any of {codes}: which gets the fewest units at "
                "today's rates, and what's that rate?",
            )
        ),
        codes=listing(codes),
    )
    steps = [rate_step(tool, "USD", c) for c in codes]
    answer = AnswerSpec(op="min", refs=[[i, "rate"] for i in range(len(codes))])
    return Draft(prompt, steps, answer)


def weakest_reference(ctx: TemplateContext) -> Draft:
    """Parallel: three to six reference rates into dollars; the lowest."""
    codes = _codes(ctx, ctx.count(3, 6))
    tool, named = rate_source(ctx, "get_reference_rate")
    prompt = ctx.say(
        *(
            (
                "At the official reference rates, which of {codes} buys the fewest US "
                "dollars per unit? Give that reference rate.",
                "Look up the central bank reference rates for {codes} in dollars and tell "
                "me the lowest one.",
            )
            if named
            else (
                "At today's exchange rates, which of {codes} buys the fewest US dollars per "
                "unit? Give that rate.",
                "Look up today's exchange rates for {codes} in dollars and tell me the lowest one.",
            )
        ),
        codes=listing(codes),
    )
    steps = [rate_step(tool, c, "USD") for c in codes]
    answer = AnswerSpec(op="min", refs=[[i, "rate"] for i in range(len(codes))])
    return Draft(prompt, steps, answer)


def _cash(ctx: TemplateContext, code: str) -> float:
    if code == "JPY":
        return float(ctx.rng.randrange(3000, 60001, 500))
    per_usd = float(ctx.world.table("market_rates")[code].units_per_usd)
    return round(ctx.rng.uniform(20, 400) * per_usd, 2)


def leftover_cash(ctx: TemplateContext) -> Draft:
    """Mixture: two to five reference rates in parallel, then each amount converted; total."""
    codes = _codes(ctx, ctx.count(2, 5))
    k = len(codes)
    amounts = [_cash(ctx, c) for c in codes]
    cash = listing(
        [
            f"{a:,.2f} {c}" if c != "JPY" else f"{a:,.0f} {c}"
            for a, c in zip(amounts, codes, strict=True)
        ]
    )
    tool, named = rate_source(ctx, "get_reference_rate")
    prompt = ctx.say(
        *(
            (
                "I came back from a trip with {cash} in cash. What is all of it worth in US "
                "dollars at the official reference rates?",
                "Convert my leftover {cash} into dollars at the central bank reference rates "
                "and give me the total, to the cent.",
            )
            if named
            else (
                "I came back from a trip with {cash} in cash. What is all of it worth in US "
                "dollars at today's exchange rates?",
                "Convert my leftover {cash} into dollars at today's rates and give me the "
                "total, to the cent.",
            )
        ),
        cash=cash,
    )
    steps = [rate_step(tool, c, "USD") for c in codes]
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
    answer = AnswerSpec(op="sum", refs=[[k + i, "converted_amount"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def _foreign_charges(ctx: TemplateContext, k: int) -> list[Any]:
    """``k`` charges abroad, each in a different foreign currency."""
    picked: list[Any] = []
    abroad = ctx.rows("transactions", _foreign)
    for _ in range(k):
        seen = {t.original_currency for t in picked}
        rows = [t for t in abroad if t.original_currency not in seen]
        picked.append(_choice(ctx, rows, "charge in one more foreign currency"))
    return picked


def better_currency_of_charges(ctx: TemplateContext) -> Draft:
    """Mixture: two to four charges abroad, then each currency's board rate; highest or lowest."""
    charges = _foreign_charges(ctx, ctx.count(2, 4))
    k = len(charges)
    op = ctx.rng.choice(("max", "min"))
    tool, named = rate_source(ctx, "get_bank_board_rate")
    prompt = ctx.say(
        *(
            (
                "Transactions {ids} were charged in {n} different foreign currencies. On our "
                "rate board, which of those currencies is worth the {more} in US dollars per "
                "unit? Give its rate.",
                "Look at the currencies charges {ids} were made in. What's the {higher} of "
                "their rates into US dollars on the rate board?",
            )
            if named
            else (
                "Transactions {ids} were charged in {n} different foreign currencies. Which "
                "of those currencies is worth the {more} in US dollars per unit today? Give "
                "its exchange rate.",
                "Look at the currencies charges {ids} were made in. What's the {higher} of "
                "their exchange rates into US dollars today?",
            )
        ),
        ids=listing([t.txn_id for t in charges]),
        n=k,
        more="most" if op == "max" else "least",
        higher="highest" if op == "max" else "lowest",
    )
    steps = [RefStep(tool="get_transaction", args={"txn_id": t.txn_id}) for t in charges]
    steps += [rate_step(tool, ref(i, "original_currency"), "USD") for i in range(k)]
    answer = AnswerSpec(op=op, refs=[[k + i, "rate"] for i in range(k)])
    return Draft(prompt, steps, answer)


def foreign_charges_today(ctx: TemplateContext) -> Draft:
    """Mixture: two or three charges abroad, their currencies' market rates, each converted."""
    charges = _foreign_charges(ctx, ctx.count(2, 3))
    k = len(charges)
    tool, named = rate_source(ctx, "get_market_rate")
    prompt = ctx.say(
        *(
            (
                "If I paid the original local amounts of charges {ids} today, what would they "
                "cost in US dollars together at the market rate?",
                "Re-price transactions {ids} at today's mid-market rate for each currency: "
                "what's the combined dollar value of their original amounts?",
            )
            if named
            else (
                "If I paid the original local amounts of charges {ids} today, what would they "
                "cost in US dollars together?",
                "Re-price transactions {ids} at today's exchange rates: what's the combined "
                "dollar value of their original amounts?",
            )
        ),
        ids=listing([t.txn_id for t in charges]),
    )
    steps = [RefStep(tool="get_transaction", args={"txn_id": t.txn_id}) for t in charges]
    steps += [rate_step(tool, ref(i, "original_currency"), "USD") for i in range(k)]
    steps += [
        RefStep(
            tool="convert_amount",
            args={
                "amount": ref(i, "original_amount"),
                "rate": ref(k + i, "rate"),
                "from_currency": ref(k + i, "base"),
                "to_currency": ref(k + i, "quote"),
            },
        )
        for i in range(k)
    ]
    refs = [[2 * k + i, "converted_amount"] for i in range(k)]
    answer = AnswerSpec(op="sum", refs=refs, round=2)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="currency exchange",
    templates={
        "sequential": [foreign_charge_now, board_rate_for_home, send_money_home],
        "parallel": [strongest_of_three, fewest_units_on_board, weakest_reference],
        "mixture": [leftover_cash, better_currency_of_charges, foreign_charges_today],
    },
)
