"""The personal-finance world: account holders, their money, bills, loans and FX rates.

Tables (all keyed by the row's id):

- ``holders`` (account holders), ``accounts`` (checking, savings, credit card; balances in
  USD, a card's balance is the amount owed), ``merchants`` and ``transactions`` (dated
  ``YYYY-MM-DD``; charges abroad keep their original currency and amount);
- ``budgets`` (a monthly limit per holder and spending category);
- ``loans`` (principal, APR, term; the schedule is derived with the amortization formula);
- ``payees``, ``bills``, ``payments`` (completed bill payments and scheduled payments) and
  ``transfers`` between a holder's own accounts;
- three independent FX sources keyed by currency code: ``central_bank_rates`` (the
  official reference rate), ``market_rates`` (a market-data feed) and ``board_rates``
  (the bank's own rate board). They are generated from the same fixing, so every pair
  rate agrees; each stamps its own ``as_of`` time.

Dates are ISO strings relative to :attr:`World.EPOCH`, the world's "now" at clock zero.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import ClassVar, Literal, Self, get_args

from pydantic import Field

from toolchaos.core.world import Row, World
from toolchaos.domains._common import dec, money, stamp
from toolchaos.domains.personal_finance import data

N_HOLDERS = 16
HISTORY_START = date(2025, 12, 1)
HISTORY_DAYS = 91  # 2025-12-01 .. 2026-03-01, the day before the world's "now"

AccountKind = Literal["checking", "savings", "credit_card"]
AccountStatus = Literal["open", "frozen"]
SpendingCategory = Literal[
    "groceries",
    "dining",
    "transport",
    "shopping",
    "entertainment",
    "travel",
    "health",
    "subscriptions",
]
TxnCategory = Literal[SpendingCategory, "income", "transfer", "bills"]
LoanKindName = Literal["auto", "mortgage", "student", "personal"]
BillStatus = Literal["due", "overdue", "paid"]
PaymentStatus = Literal["scheduled", "completed", "cancelled"]

ACCOUNT_KINDS: tuple[str, ...] = get_args(AccountKind)
SPENDING_CATEGORIES: tuple[str, ...] = get_args(SpendingCategory)
TXN_CATEGORIES: tuple[str, ...] = get_args(TxnCategory)
LOAN_KINDS: tuple[str, ...] = get_args(LoanKindName)
BILL_STATUSES: tuple[str, ...] = get_args(BillStatus)
PAYMENT_STATUSES: tuple[str, ...] = get_args(PaymentStatus)

CURRENCY_CODES: tuple[str, ...] = ("USD", *(c.code for c in data.CURRENCIES))
RATE_DIGITS = 6

# How the three FX sources stamp their data (minutes before the world's epoch).
CENTRAL_BANK_LAG_MIN = 180  # the official fixing is published at 06:00 UTC
MARKET_LAG_MIN = 1  # the market feed streams; its last tick is a minute old
BOARD_LAG_MIN = 60  # the bank updates its board hourly
BOARD_SPREAD_PCT = 1.5

_SPEND_WEIGHTS: dict[str, int] = {
    "groceries": 22,
    "dining": 26,
    "transport": 16,
    "shopping": 14,
    "entertainment": 8,
    "travel": 4,
    "health": 10,
}


def add_months(day: date, months: int) -> date:
    """Return the same day of the month ``months`` later (days 29-31 clamp to 28)."""
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, min(day.day, 28))


def pair_rate(units_per_usd: dict[str, float], base: str, quote: str) -> float:
    """Units of ``quote`` that one unit of ``base`` buys, from per-dollar quotes."""
    per_usd = {"USD": 1.0, **units_per_usd}
    rate = dec(per_usd[quote]) / dec(per_usd[base])
    return float(rate.quantize(Decimal(1).scaleb(-RATE_DIGITS), rounding=ROUND_HALF_UP))


def monthly_payment(principal: Decimal, apr_pct: Decimal, months: int) -> Decimal:
    """The level monthly payment that repays ``principal`` over ``months`` (amortization).

    ``M = P * r / (1 - (1 + r) ** -n)`` with ``r = APR / 12 / 100``; a zero APR repays
    the principal in equal parts. Rounded half-up to cents.
    """
    if apr_pct == 0:
        payment = principal / months
    else:
        r = apr_pct / Decimal(1200)
        growth = (1 + r) ** months
        payment = principal * r * growth / (growth - 1)
    return payment.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def balance_after(principal: Decimal, apr_pct: Decimal, payment: Decimal, paid: int) -> Decimal:
    """The balance left after ``paid`` monthly payments (interest rounded to cents monthly)."""
    balance = principal
    r = apr_pct / Decimal(1200)
    for _ in range(paid):
        interest = (balance * r).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        balance = balance + interest - payment
        if balance <= 0:
            return Decimal(0)
    return balance


# -- rows --------------------------------------------------------------------------------


class Holder(Row):
    """An account holder (a bank customer)."""

    holder_id: str
    name: str
    email: str
    city: str
    home_currency: str
    employer: str
    member_since: str


class Account(Row):
    """A bank account. For a credit card, ``balance_usd`` is the amount owed."""

    account_id: str
    holder_id: str
    kind: str
    nickname: str
    status: str
    balance_usd: float
    credit_limit_usd: float | None
    apr_pct: float
    opened_on: str


class MerchantRow(Row):
    """A merchant that appears on card and checking statements."""

    merchant_id: str
    name: str
    category: str
    city: str
    country: str
    currency: str


class Transaction(Row):
    """One posted transaction. ``amount_usd`` is always positive; ``direction`` says which way."""

    txn_id: str
    account_id: str
    holder_id: str
    date: str
    merchant_id: str | None
    merchant: str
    category: str
    direction: str
    amount_usd: float
    original_currency: str
    original_amount: float


class Budget(Row):
    """A holder's monthly spending limit for one category."""

    budget_id: str
    holder_id: str
    category: str
    limit_usd: float
    updated_on: str


class Loan(Row):
    """A loan's contract terms; its schedule is derived from them."""

    loan_id: str
    holder_id: str
    kind: str
    lender: str
    principal_usd: float
    apr_pct: float
    term_months: int
    start_date: str


class PayeeRow(Row):
    """A company that bills holders."""

    payee_id: str
    name: str
    category: str


class Bill(Row):
    """A bill a holder owes a payee."""

    bill_id: str
    holder_id: str
    payee_id: str
    payee_name: str
    amount_usd: float
    due_date: str
    status: str
    paid_on: str | None
    payment_id: str | None


class Payment(Row):
    """A payment to a payee: completed (money left the account) or scheduled."""

    payment_id: str
    from_account_id: str
    holder_id: str
    payee_id: str
    payee_name: str
    amount_usd: float
    pay_on: str
    status: str
    bill_id: str | None
    memo: str
    created_at: str


class Transfer(Row):
    """Money moved between two accounts of the same holder."""

    transfer_id: str
    from_account_id: str
    to_account_id: str
    holder_id: str
    amount_usd: float
    date: str
    memo: str
    status: str
    created_at: str


class FxQuote(Row):
    """One source's quote of a currency: how many units one US dollar buys."""

    currency: str
    units_per_usd: float
    as_of: str


# -- the world ---------------------------------------------------------------------------


class FinanceWorld(World):
    """A retail bank's view of its customers' money, bills, loans and FX rates."""

    TABLES: ClassVar[tuple[str, ...]] = (
        "holders",
        "accounts",
        "merchants",
        "transactions",
        "budgets",
        "loans",
        "payees",
        "bills",
        "payments",
        "transfers",
        "central_bank_rates",
        "market_rates",
        "board_rates",
    )

    holders: dict[str, Holder] = Field(default_factory=dict)
    accounts: dict[str, Account] = Field(default_factory=dict)
    merchants: dict[str, MerchantRow] = Field(default_factory=dict)
    transactions: dict[str, Transaction] = Field(default_factory=dict)
    budgets: dict[str, Budget] = Field(default_factory=dict)
    loans: dict[str, Loan] = Field(default_factory=dict)
    payees: dict[str, PayeeRow] = Field(default_factory=dict)
    bills: dict[str, Bill] = Field(default_factory=dict)
    payments: dict[str, Payment] = Field(default_factory=dict)
    transfers: dict[str, Transfer] = Field(default_factory=dict)
    central_bank_rates: dict[str, FxQuote] = Field(default_factory=dict)
    market_rates: dict[str, FxQuote] = Field(default_factory=dict)
    board_rates: dict[str, FxQuote] = Field(default_factory=dict)

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Build every table from ``rng`` alone; the same seed gives the same world."""
        gen = _Generator(rng, cls.EPOCH)
        gen.fx()
        gen.catalogue()
        gen.holders()
        gen.accounts()
        gen.spending()
        gen.bills()
        gen.transfers()
        gen.scheduled_payments()
        gen.budgets()
        gen.loans()
        transactions = gen.number_transactions()
        return cls(
            seed=seed,
            id_counters={
                "TXN": len(transactions),
                "BUD": len(gen.budgets_),
                "PMT": len(gen.payments_),
                "TRF": len(gen.transfers_),
            },
            holders=gen.holders_,
            accounts=gen.accounts_,
            merchants=gen.merchants_,
            transactions=transactions,
            budgets=gen.budgets_,
            loans=gen.loans_,
            payees=gen.payees_,
            bills=gen.bills_,
            payments=gen.payments_,
            transfers=gen.transfers_,
            central_bank_rates=gen.quotes(CENTRAL_BANK_LAG_MIN),
            market_rates=gen.quotes(MARKET_LAG_MIN),
            board_rates=gen.quotes(BOARD_LAG_MIN),
        )

    def today(self) -> date:
        """The world's current date."""
        return self.now().date()


@dataclass
class _TxnDraft:
    """A transaction before ids are assigned (ids follow date order)."""

    account_id: str
    holder_id: str
    day: date
    merchant_id: str | None
    merchant: str
    category: str
    direction: str
    amount_usd: float
    original_currency: str = "USD"
    original_amount: float | None = None


@dataclass
class _Generator:
    """Draws the tables in a fixed order from one generator, so a seed fixes every byte."""

    rng: random.Random
    epoch: datetime
    per_usd: dict[str, float] = field(default_factory=dict)
    holders_: dict[str, Holder] = field(default_factory=dict)
    accounts_: dict[str, Account] = field(default_factory=dict)
    merchants_: dict[str, MerchantRow] = field(default_factory=dict)
    payees_: dict[str, PayeeRow] = field(default_factory=dict)
    budgets_: dict[str, Budget] = field(default_factory=dict)
    loans_: dict[str, Loan] = field(default_factory=dict)
    bills_: dict[str, Bill] = field(default_factory=dict)
    payments_: dict[str, Payment] = field(default_factory=dict)
    transfers_: dict[str, Transfer] = field(default_factory=dict)
    drafts: list[_TxnDraft] = field(default_factory=list)
    _prices: dict[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def today(self) -> date:
        return self.epoch.date()

    def cents(self, lo: float, hi: float) -> float:
        """A random amount in [lo, hi] with non-zero cents (round figures look fake)."""
        value = money(self.rng.uniform(lo, hi))
        if value == int(value):
            value = money(dec(value) + Decimal("0.37"))
        return value

    def day(self, offset: int) -> date:
        return HISTORY_START + timedelta(days=offset)

    def accounts_of(self, holder_id: str, kind: str) -> list[Account]:
        return [a for a in self.accounts_.values() if a.holder_id == holder_id and a.kind == kind]

    # -- reference data ----------------------------------------------------------------
    def fx(self) -> None:
        for currency in data.CURRENCIES:
            drift = 1 + self.rng.uniform(-0.02, 0.02)
            digits = 2 if currency.per_usd > 100 else 4
            self.per_usd[currency.code] = round(currency.per_usd * drift, digits)

    def quotes(self, lag_minutes: int) -> dict[str, FxQuote]:
        """One source's table: the shared fixing, stamped with the source's own time."""
        as_of = stamp(self.epoch - timedelta(minutes=lag_minutes))
        return {
            code: FxQuote(currency=code, units_per_usd=value, as_of=as_of)
            for code, value in self.per_usd.items()
        }

    def catalogue(self) -> None:
        for number, m in enumerate(data.DOMESTIC_MERCHANTS + data.FOREIGN_MERCHANTS, start=101):
            mid = f"M-{number}"
            city = m.city or self.rng.choice(data.CITIES)
            self.merchants_[mid] = MerchantRow(
                merchant_id=mid,
                name=m.name,
                category=m.category,
                city=city,
                country=m.country,
                currency=m.currency,
            )
            self._prices[mid] = (m.lo, m.hi)
        for number, p in enumerate(data.PAYEES, start=201):
            pid = f"PY-{number}"
            self.payees_[pid] = PayeeRow(payee_id=pid, name=p.name, category=p.category)

    # -- people and accounts -----------------------------------------------------------
    def holders(self) -> None:
        rng = self.rng
        names: set[str] = set()
        foreign = [c.code for c in data.CURRENCIES]
        while len(self.holders_) < N_HOLDERS:
            first, last = rng.choice(data.FIRST_NAMES), rng.choice(data.LAST_NAMES)
            name = f"{first} {last}"
            if name in names:
                continue
            names.add(name)
            hid = f"H-{1001 + len(self.holders_)}"
            local = rng.choice((f"{first}.{last}", f"{first[0]}{last}", f"{first}{last[0]}"))
            email = f"{local.lower()}{rng.randint(2, 98)}@{rng.choice(data.EMAIL_DOMAINS)}"
            self.holders_[hid] = Holder(
                holder_id=hid,
                name=name,
                email=email,
                city=rng.choice(data.CITIES),
                home_currency=rng.choice(foreign) if rng.random() < 0.65 else "USD",
                employer=rng.choice(data.EMPLOYERS),
                member_since=(self.today - timedelta(days=rng.randint(200, 4000))).isoformat(),
            )

    def accounts(self) -> None:
        rng = self.rng
        number = 10001
        for holder in self.holders_.values():
            cards = rng.choices((0, 1, 2), weights=(25, 55, 20))[0]
            kinds = ["checking", "savings"] + ["credit_card"] * cards
            card_names = rng.sample(data.CARD_NAMES, cards)
            for kind in kinds:
                aid = f"ACC-{number}"
                number += 1
                opened = date.fromisoformat(holder.member_since) + timedelta(rng.randint(0, 150))
                limit: float | None = None
                if kind == "checking":
                    nickname = rng.choice(data.CHECKING_NAMES)
                    balance, apr = self.cents(900, 14000), 0.0
                elif kind == "savings":
                    nickname = rng.choice(data.SAVINGS_NAMES)
                    balance, apr = self.cents(1500, 65000), round(rng.uniform(0.4, 4.6), 2)
                else:
                    nickname = card_names.pop()
                    limit = float(rng.randrange(3000, 25001, 500))
                    balance = self.cents(0, min(limit * 0.6, 4200))
                    apr = round(rng.uniform(19.49, 29.99), 2)
                self.accounts_[aid] = Account(
                    account_id=aid,
                    holder_id=holder.holder_id,
                    kind=kind,
                    nickname=nickname,
                    status="open",
                    balance_usd=balance,
                    credit_limit_usd=limit,
                    apr_pct=apr,
                    opened_on=min(opened, self.today - timedelta(days=120)).isoformat(),
                )
        for kind in ("checking", "savings"):
            frozen = rng.choice([a for a in self.accounts_.values() if a.kind == kind])
            self.accounts_[frozen.account_id] = frozen.model_copy(update={"status": "frozen"})

    # -- transactions --------------------------------------------------------------------
    def spending(self) -> None:
        rng = self.rng
        domestic = [m for m in self.merchants_.values() if m.currency == "USD"]
        by_category: dict[str, list[MerchantRow]] = defaultdict(list)
        for m in domestic:
            by_category[m.category].append(m)
        categories = list(_SPEND_WEIGHTS)
        weights = list(_SPEND_WEIGHTS.values())
        for account in self.accounts_.values():
            if account.kind == "savings":
                continue
            holder = self.holders_[account.holder_id]
            if account.kind == "checking":
                self.payroll(account, holder)
            regulars = rng.sample([m for m in domestic if m.category != "subscriptions"], 14)
            regular_by_cat: dict[str, list[MerchantRow]] = defaultdict(list)
            for m in regulars:
                regular_by_cat[m.category].append(m)
            count = rng.randint(20, 28) if account.kind == "checking" else rng.randint(32, 44)
            for _ in range(count):
                category = rng.choices(categories, weights=weights)[0]
                merchant = rng.choice(regular_by_cat.get(category) or by_category[category])
                self.charge(account, merchant, self.day(rng.randrange(HISTORY_DAYS)))
            if account.kind == "credit_card":
                for sub in rng.sample(by_category["subscriptions"], rng.randint(1, 3)):
                    lo, hi = self._prices[sub.merchant_id]
                    price = rng.choice((lo, hi))
                    start = rng.randint(0, 27)
                    for month in range(3):
                        self.post(account, sub, self.day(start + 31 * month), price)
                if rng.random() < 0.55:
                    self.trip(account)

    def payroll(self, account: Account, holder: Holder) -> None:
        pay = self.cents(1900, 4800)
        payroll = f"Payroll - {holder.employer}"
        for day in (date(2025, 12, 1), date(2025, 12, 15), date(2026, 1, 1), date(2026, 1, 15)):
            self.movement(account, day, payroll, "income", "credit", pay)
        for day in (date(2026, 2, 1), date(2026, 2, 15), date(2026, 3, 1)):
            self.movement(account, day, payroll, "income", "credit", pay)

    def movement(
        self, account: Account, day: date, label: str, category: str, direction: str, amount: float
    ) -> None:
        """Draft a transaction no merchant is behind: payroll, a bill payment, a transfer."""
        self.drafts.append(
            _TxnDraft(
                account.account_id, account.holder_id, day, None, label, category, direction, amount
            )
        )

    def charge(self, account: Account, merchant: MerchantRow, day: date) -> None:
        lo, hi = self._prices[merchant.merchant_id]
        self.post(account, merchant, day, self.cents(lo, hi))

    def post(self, account: Account, merchant: MerchantRow, day: date, amount: float) -> None:
        self.drafts.append(
            _TxnDraft(
                account.account_id,
                account.holder_id,
                day,
                merchant.merchant_id,
                merchant.name,
                merchant.category,
                "debit",
                amount,
            )
        )

    def trip(self, account: Account) -> None:
        """A few days abroad: charges in the local currency, converted at that day's rate."""
        rng = self.rng
        code = rng.choice(list(self.per_usd))
        shops = [m for m in self.merchants_.values() if m.currency == code]
        start = rng.randint(3, HISTORY_DAYS - 8)
        for _ in range(rng.randint(2, 5)):
            merchant = rng.choice(shops)
            lo, hi = self._prices[merchant.merchant_id]
            # yen prices have no minor unit
            local = float(rng.randint(int(lo), int(hi))) if code == "JPY" else self.cents(lo, hi)
            then = self.per_usd[code] * (1 + rng.uniform(-0.03, 0.03))
            usd = money(dec(local) / dec(then) * Decimal("1.03"))  # 3% foreign fee
            draft = _TxnDraft(
                account.account_id,
                account.holder_id,
                self.day(start + rng.randint(0, 5)),
                merchant.merchant_id,
                merchant.name,
                merchant.category,
                "debit",
                usd,
                original_currency=code,
                original_amount=local,
            )
            self.drafts.append(draft)

    # -- bills, transfers, payments ------------------------------------------------------
    def bills(self) -> None:
        rng = self.rng
        payees = list(self.payees_.values())
        plans = []
        for holder in self.holders_.values():
            checking = self.accounts_of(holder.holder_id, "checking")[0]
            chosen = rng.sample(payees, rng.randint(3, 4))
            for payee in chosen:
                spec = data.PAYEES[int(payee.payee_id.removeprefix("PY-")) - 201]
                base = self.cents(spec.lo, spec.hi)
                due_day = rng.randint(3, 27)
                for month in (1, 2, 3):
                    amount = self.cents(base * 0.8, base * 1.2) if spec.varies else base
                    due = date(2026, month, due_day)
                    if month == 1:
                        status = "paid"
                    elif month == 2:
                        status = "overdue" if rng.random() < 0.12 else "paid"
                    else:
                        status = "due"
                    paid_on = due - timedelta(days=rng.randint(0, 5)) if status == "paid" else None
                    plans.append((due, holder.holder_id, payee, checking, amount, status, paid_on))
        plans.sort(key=lambda p: (p[0], p[1], p[2].payee_id))
        for number, (due, hid, payee, checking, amount, status, paid_on) in enumerate(plans, 1):
            bill_id = f"BILL-{number:04d}"
            payment_id = None
            if paid_on is not None:
                payment_id = self.payment(
                    checking, payee, amount, paid_on, "completed", bill_id, "Bill payment"
                )
                self.movement(checking, paid_on, payee.name, "bills", "debit", amount)
            self.bills_[bill_id] = Bill(
                bill_id=bill_id,
                holder_id=hid,
                payee_id=payee.payee_id,
                payee_name=payee.name,
                amount_usd=amount,
                due_date=due.isoformat(),
                status=status,
                paid_on=paid_on.isoformat() if paid_on else None,
                payment_id=payment_id,
            )

    def payment(
        self,
        account: Account,
        payee: PayeeRow,
        amount: float,
        pay_on: date,
        status: str,
        bill_id: str | None,
        memo: str,
    ) -> str:
        payment_id = f"PMT-{len(self.payments_) + 1:05d}"
        created = min(pay_on, self.today - timedelta(days=1)) - timedelta(days=2)
        self.payments_[payment_id] = Payment(
            payment_id=payment_id,
            from_account_id=account.account_id,
            holder_id=account.holder_id,
            payee_id=payee.payee_id,
            payee_name=payee.name,
            amount_usd=amount,
            pay_on=pay_on.isoformat(),
            status=status,
            bill_id=bill_id,
            memo=memo,
            created_at=stamp(datetime(created.year, created.month, created.day, 14, tzinfo=UTC)),
        )
        return payment_id

    def transfers(self) -> None:
        rng = self.rng
        plans = []
        for holder in self.holders_.values():
            checking = self.accounts_of(holder.holder_id, "checking")[0]
            savings = self.accounts_of(holder.holder_id, "savings")[0]
            if rng.random() < 0.6:
                amount = float(rng.randrange(100, 801, 50))
                for month in range(3):
                    day = add_months(date(2025, 12, 2), month)
                    plans.append((day, checking, savings, amount, "Monthly savings"))
            for card in self.accounts_of(holder.holder_id, "credit_card"):
                if rng.random() < 0.7:
                    for month in range(3):
                        day = add_months(date(2025, 12, 20), month)
                        amount = self.cents(150, 1800)
                        plans.append((day, checking, card, amount, "Card payment"))
        plans.sort(key=lambda p: (p[0], p[1].account_id, p[2].account_id))
        for number, (day, source, target, amount, memo) in enumerate(plans, 1):
            tid = f"TRF-{number:05d}"
            self.transfers_[tid] = Transfer(
                transfer_id=tid,
                from_account_id=source.account_id,
                to_account_id=target.account_id,
                holder_id=source.holder_id,
                amount_usd=amount,
                date=day.isoformat(),
                memo=memo,
                status="completed",
                created_at=stamp(datetime(day.year, day.month, day.day, 7, tzinfo=UTC)),
            )
            for account, direction, other in (
                (source, "debit", target),
                (target, "credit", source),
            ):
                word = "to" if direction == "debit" else "from"
                label = f"Transfer {word} {other.account_id}"
                self.movement(account, day, label, "transfer", direction, amount)

    def scheduled_payments(self) -> None:
        rng = self.rng
        by_holder: dict[str, list[str]] = defaultdict(list)
        for bill in self.bills_.values():
            if bill.payee_id not in by_holder[bill.holder_id]:
                by_holder[bill.holder_id].append(bill.payee_id)
        for holder in self.holders_.values():
            if rng.random() < 0.5:
                continue
            checking = self.accounts_of(holder.holder_id, "checking")[0]
            payee = self.payees_[rng.choice(by_holder[holder.holder_id])]
            pay_on = self.today + timedelta(days=rng.randint(8, 40))
            amount = self.cents(40, 400)
            self.payment(checking, payee, amount, pay_on, "scheduled", None, "Extra payment")

    # -- budgets and loans ------------------------------------------------------------------
    def budgets(self) -> None:
        rng = self.rng
        spent: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
        for d in self.drafts:
            if d.direction == "debit" and d.category in SPENDING_CATEGORIES:
                spent[(d.holder_id, d.category)] += dec(d.amount_usd)
        number = 1
        for holder in self.holders_.values():
            for category in sorted(rng.sample(SPENDING_CATEGORIES, rng.randint(3, 5))):
                monthly = spent[(holder.holder_id, category)] / 3
                if monthly > 0:
                    limit = round(float(monthly) * rng.uniform(0.75, 1.3) / 25) * 25
                else:
                    limit = rng.randrange(100, 301, 25)
                bid = f"BUD-{number:04d}"
                number += 1
                updated = self.today - timedelta(days=rng.randint(40, 300))
                self.budgets_[bid] = Budget(
                    budget_id=bid,
                    holder_id=holder.holder_id,
                    category=category,
                    limit_usd=float(max(limit, 50)),
                    updated_on=updated.isoformat(),
                )

    def loans(self) -> None:
        rng = self.rng
        number = 3001
        for holder in self.holders_.values():
            count = rng.choices((0, 1, 2), weights=(25, 45, 30))[0]
            for kind in sorted(rng.sample(list(data.LOAN_KINDS), count)):
                spec = data.LOAN_KINDS[kind]
                term = rng.choice(spec.terms)
                steps = (spec.principal_hi - spec.principal_lo) // spec.step
                principal = spec.principal_lo + spec.step * rng.randint(0, steps)
                apr_digits = 3 if kind == "mortgage" else 2
                apr = round(rng.uniform(spec.apr_lo, spec.apr_hi), apr_digits)
                months_ago = rng.randint(2, min(term - 6, 84))
                start = add_months(self.today.replace(day=rng.randint(1, 28)), -months_ago)
                lid = f"LN-{number}"
                number += 1
                self.loans_[lid] = Loan(
                    loan_id=lid,
                    holder_id=holder.holder_id,
                    kind=kind,
                    lender=rng.choice(spec.lenders),
                    principal_usd=float(principal),
                    apr_pct=apr,
                    term_months=term,
                    start_date=start.isoformat(),
                )

    def number_transactions(self) -> dict[str, Transaction]:
        """Give the transactions ids in date order."""
        self.drafts.sort(key=lambda d: (d.day, d.account_id, d.merchant, d.amount_usd))
        out: dict[str, Transaction] = {}
        for number, d in enumerate(self.drafts, 1):
            tid = f"TXN-{number:06d}"
            original = d.amount_usd if d.original_amount is None else d.original_amount
            out[tid] = Transaction(
                txn_id=tid,
                account_id=d.account_id,
                holder_id=d.holder_id,
                date=d.day.isoformat(),
                merchant_id=d.merchant_id,
                merchant=d.merchant,
                category=d.category,
                direction=d.direction,
                amount_usd=d.amount_usd,
                original_currency=d.original_currency,
                original_amount=original,
            )
        return out
