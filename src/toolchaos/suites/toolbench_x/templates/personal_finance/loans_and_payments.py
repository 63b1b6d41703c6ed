"""Personal-finance subtopic "loans and payments": loans, refinance quotes, bills, transfers."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
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


def _open(ctx: TemplateContext, holder_id: str, kind: str) -> list[Any]:
    return ctx.rows(
        "accounts",
        lambda a: a.holder_id == holder_id and a.kind == kind and a.status == "open",
    )


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
    """Parallel: three to seven loans looked up independently; their monthly payments added."""
    loans = ctx.sample("loans", ctx.count(3, 7))
    ids = [loan.loan_id for loan in loans]
    prompt = ctx.say(
        "What do the monthly payments on loans {ids} add up to?",
        "I'm budgeting for loans {ids}. How much goes out each month for all of them together?",
        "Sum the monthly installments of loans {ids} for me.",
        ids=listing(ids),
    )
    steps = [RefStep(tool="get_loan", args={"loan_id": i}) for i in ids]
    refs = [[i, "monthly_payment_usd"] for i in range(len(ids))]
    answer = AnswerSpec(op="sum", refs=refs, round=2)
    return Draft(prompt, steps, answer)


def cheapest_offer(ctx: TemplateContext) -> Draft:
    """Parallel: three to five loan offers quoted independently; the least total interest."""
    kind = ctx.rng.choice(["auto", "personal", "student"])
    lo, hi, terms = REFI_OFFERS[kind]
    principal = float(ctx.rng.randrange(6000, 42001, 250))
    count = ctx.count(3, 5)
    offers = [(round(ctx.rng.uniform(lo, hi), 2), ctx.rng.choice(terms)) for _ in range(count)]
    if len(set(offers)) < count:
        raise NoFit("offers must differ")
    text = "; ".join(f"{apr}% over {term} months" for apr, term in offers)
    prompt = ctx.say(
        "I need to borrow {p} for {a_kind} loan and have {n} offers: {offers}. Which "
        "costs the least interest in total, and how much interest is that?",
        "Compare these {kind} loan offers for {p}: {offers}. What's the lowest total "
        "interest I could pay?",
        p=_usd(principal),
        kind=kind,
        n=count,
        a_kind=f"{'an' if kind == 'auto' else 'a'} {kind}",
        offers=text,
    )
    steps = [
        RefStep(
            tool="calculate_loan_payment",
            args={"principal_usd": principal, "apr_pct": apr, "term_months": term},
        )
        for apr, term in offers
    ]
    refs = [[i, "total_interest_usd"] for i in range(count)]
    answer = AnswerSpec(op="min", refs=refs, round=2)
    return Draft(prompt, steps, answer)


def biggest_upcoming_bill(ctx: TemplateContext) -> Draft:
    """Parallel: three to seven due bills looked up independently; the largest amount."""
    bills = ctx.sample("bills", ctx.count(3, 7), lambda b: b.status != "paid")
    if len({b.amount_usd for b in bills}) < len(bills):
        raise NoFit("bills must differ in amount")
    ids = [b.bill_id for b in bills]
    prompt = ctx.say(
        "Bills {ids} still need paying. What's the biggest of those amounts?",
        "Of bills {ids}, how much is the largest one?",
        "I have to cover bills {ids}. Tell me the highest amount among them.",
        ids=listing(ids),
    )
    steps = [RefStep(tool="get_bill", args={"bill_id": i}) for i in ids]
    answer = AnswerSpec(op="max", refs=[[i, "amount_usd"] for i in range(len(ids))], round=2)
    return Draft(prompt, steps, answer)


def stretch_two_loans(ctx: TemplateContext) -> Draft:
    """Mixture: two to five loans in parallel, then each balance re-amortized; combined."""
    loans = ctx.sample("loans", ctx.count(2, 5))
    k = len(loans)
    term = ctx.rng.choice((36, 48, 60, 84, 120))
    prompt = ctx.say(
        "If I re-amortized what's left on loans {ids} over {term} months each, at "
        "their current rates, what would the monthly payments come to together?",
        "Suppose the outstanding balances of loans {ids} were each spread over a new "
        "{term}-month term at the same APR. What's the combined monthly payment?",
        ids=listing([loan.loan_id for loan in loans]),
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
        for i in range(k)
    ]
    refs = [[k + i, "monthly_payment_usd"] for i in range(k)]
    answer = AnswerSpec(op="sum", refs=refs, round=2)
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


SUBTOPIC = Subtopic(
    name="loans and payments",
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
)
