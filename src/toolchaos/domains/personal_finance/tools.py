"""The personal-finance tools: accounts, spending, budgets, bills, loans and FX rates.

Lookups and plain listings are declared through the shared shapes; tools that apply the
bank's rules (transfers, bill payments, scheduled payments, budgets), compute something
(spending totals, loan payments, conversions) or read an FX source are written by hand.
Every refusal is a :class:`ToolError` worded like a bank API: 400 for a malformed
argument, 404 for an unknown id or name, 409 when a record's state forbids the request
(a frozen account, a bill already paid) and 422 when the request breaks a business rule
(insufficient funds, a date in the past).

Ids are matched leniently (case and surrounding spaces ignored) and always stored and
returned in their canonical form.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, cast

from toolchaos.core.errors import ToolError
from toolchaos.core.tools import Tool, tool
from toolchaos.core.types import ToolKind
from toolchaos.core.values import is_number
from toolchaos.core.world import Row, World
from toolchaos.domains import _shapes as shapes
from toolchaos.domains._common import (
    bad_request,
    calendar_date,
    check_choice,
    conflict,
    dec,
    enum_schema,
    find_key,
    int_arg,
    is_integer,
    listing,
    money,
    row_json,
    stamp,
    stored_key,
    unprocessable,
)
from toolchaos.domains._shapes import Filter
from toolchaos.domains.personal_finance.world import (
    ACCOUNT_KINDS,
    BILL_STATUSES,
    BOARD_SPREAD_PCT,
    CURRENCY_CODES,
    LOAN_KINDS,
    PAYMENT_STATUSES,
    SPENDING_CATEGORIES,
    Account,
    Budget,
    FinanceWorld,
    Loan,
    Payment,
    SpendingCategory,
    Transaction,
    Transfer,
    TxnCategory,
    add_months,
    balance_after,
    monthly_payment,
    pair_rate,
)

_MONTH = re.compile(r"\d{4}-\d{2}")
MAX_LIMIT = 100
MAX_TRANSFER_USD = 50000.0
MAX_PAYMENT_USD = 25000.0
MAX_BUDGET_USD = 20000.0
SCHEDULE_HORIZON_DAYS = 365


def _bank(world: World) -> FinanceWorld:
    return cast(FinanceWorld, world)


def _row(world: World, table: str, key: str, entity: str) -> Any:
    """The row of ``table`` under ``key`` (matched leniently), or a 404."""
    return world.table(table)[stored_key(world.table(table), key, entity)]


def _iso_date(name: str, value: str) -> date:
    """Parse a ``YYYY-MM-DD`` argument or answer 400."""
    day = calendar_date(value.strip() if isinstance(value, str) else "")
    if day is None:
        raise bad_request(
            f"Invalid value for parameter '{name}': '{value}' is not a date in YYYY-MM-DD format."
        )
    return day


def _window(
    start: str | None, end: str | None, names: tuple[str, str]
) -> tuple[date | None, date | None]:
    first = _iso_date(names[0], start) if start is not None else None
    last = _iso_date(names[1], end) if end is not None else None
    if first is not None and last is not None and first > last:
        raise unprocessable(f"{names[0]} {first} is after {names[1]} {last}")
    return first, last


def _in_window(day: str, first: date | None, last: date | None) -> bool:
    when = date.fromisoformat(day)
    return (first is None or when >= first) and (last is None or when <= last)


def _currency(name: str, value: str) -> str:
    code = value.strip().upper() if isinstance(value, str) else ""
    if code not in CURRENCY_CODES:
        raise ToolError(
            f"Currency '{value}' in '{name}' is not quoted. Quoted currencies: "
            f"{', '.join(CURRENCY_CODES)}.",
            code=404,
            kind="not_found",
        )
    return code


def _amount(name: str, value: float, highest: float) -> Decimal:
    """A positive dollar amount with at most two decimals, or a 422."""
    if not is_number(value) or value != value:
        raise unprocessable(f"{name} must be a number")
    if value <= 0:
        raise unprocessable(f"{name} must be greater than 0")
    if value > highest:
        raise unprocessable(f"{name} must be at most {highest:.2f}")
    amount = dec(value)
    if amount != amount.quantize(Decimal("0.01")):
        raise unprocessable(f"{name} must have at most two decimal places (whole cents)")
    return amount


def _limit(name: str, value: int) -> int:
    return int_arg(value, name, 1, MAX_LIMIT)


def _post(
    world: FinanceWorld,
    account: Account,
    merchant: str,
    category: str,
    direction: str,
    amount: float,
) -> None:
    """Post a transaction for money that moved today."""
    txn_id = world.next_id("TXN", 6)
    row = Transaction(
        txn_id=txn_id,
        account_id=account.account_id,
        holder_id=account.holder_id,
        date=world.today().isoformat(),
        merchant_id=None,
        merchant=merchant,
        category=category,
        direction=direction,
        amount_usd=amount,
        original_currency="USD",
        original_amount=amount,
    )
    world.insert("transactions", txn_id, row)


def _open(account: Account) -> None:
    if account.status != "open":
        raise conflict(f"Account {account.account_id} is {account.status}; no money can move")


# -- holders and accounts --------------------------------------------------------------------

get_holder = shapes.lookup(
    "get_holder",
    "holders",
    "holder_id",
    "Account holder",
    "Get one account holder's profile: name, email, city, home_currency (the ISO code of "
    "the currency of their home country, used for money sent home), employer and "
    "member_since (YYYY-MM-DD).",
    "The holder id, e.g. 'H-1001'.",
)

find_holders = shapes.search(
    "find_holders",
    "holders",
    "Search account holders. Every filter given must match; with no filter the first "
    "holders are listed. Returns up to 20 profiles sorted by holder_id in 'results', with "
    "'count' (returned) and 'total' (matching).",
    [
        Filter("name_contains", "name", "Part of the holder's full name.", op="contains"),
        Filter("email", "email", "The holder's exact email address (case-insensitive)."),
        Filter("city", "city", "The city the holder lives in, e.g. 'Denver'."),
    ],
    sort_by="holder_id",
)

get_account = shapes.lookup(
    "get_account",
    "accounts",
    "account_id",
    "Account",
    "Get one account: holder_id, kind (checking, savings, credit_card), nickname, status "
    "(open or frozen), balance_usd (US dollars; for a credit card, the amount owed), "
    "credit_limit_usd (credit cards only, else null), apr_pct (savings interest or card "
    "purchase APR, percent per year) and opened_on (YYYY-MM-DD).",
    "The account id, e.g. 'ACC-10002'.",
)

list_accounts = shapes.search(
    "list_accounts",
    "accounts",
    "List accounts (full records as get_account returns them), sorted by account_id. "
    "Every filter given must match. Returns up to 50 in 'results', with 'count' and "
    "'total'.",
    [
        Filter("holder_id", "holder_id", "Only accounts of this holder id, e.g. 'H-1001'."),
        Filter("kind", "kind", "Only accounts of this kind.", schema=enum_schema(ACCOUNT_KINDS)),
        Filter(
            "status", "status", "Only accounts in this status.", enum_schema(("open", "frozen"))
        ),
    ],
    sort_by="account_id",
    limit=50,
)

# -- transactions and spending ---------------------------------------------------------------

get_transaction = shapes.lookup(
    "get_transaction",
    "transactions",
    "txn_id",
    "Transaction",
    "Get one posted transaction: account_id, holder_id, date (YYYY-MM-DD), merchant and "
    "merchant_id (null for payroll, bills and transfers), category, direction (debit = "
    "money out or a card charge, credit = money in), amount_usd (US dollars, always "
    "positive), and the original_currency and original_amount it was charged in (a charge "
    "abroad keeps the local currency; amount_usd is what was billed in dollars).",
    "The transaction id, e.g. 'TXN-000123'.",
)


def _transactions(
    world: World,
    account_id: str,
    window: tuple[date | None, date | None],
    category: str | None,
    limit: int,
) -> dict[str, Any]:
    account = _row(world, "accounts", account_id, "Account")
    first, last = window
    rows = [
        t
        for t in _bank(world).transactions.values()
        if t.account_id == account.account_id
        and (category is None or t.category == category)
        and _in_window(t.date, first, last)
    ]
    rows.sort(key=lambda t: (t.date, t.txn_id), reverse=True)
    return listing(rows, limit, row_json, account_id=account.account_id)


@tool()
def list_transactions(
    world: FinanceWorld,
    account_id: str,
    start_date: str | None = None,
    end_date: str | None = None,
    category: TxnCategory | None = None,
    limit: int = 20,
) -> dict[str, Any]:
    """List an account's posted transactions, newest first.

    Each result is a transaction as get_transaction returns it (txn_id, date, merchant,
    merchant_id, category, direction, amount_usd in US dollars, original_currency,
    original_amount). Every filter given must match. Returns account_id, 'results',
    'count' (returned) and 'total' (matching). A newer version, list_transactions_v2,
    takes other parameter names; this version remains fully supported.

    Args:
        world: The bank (not shown to the agent).
        account_id: The account id, e.g. 'ACC-10002'.
        start_date: First day to include, YYYY-MM-DD (optional; default: no lower bound).
        end_date: Last day to include, YYYY-MM-DD (optional; default: no upper bound).
        category: Only transactions in this category (optional).
        limit: How many transactions to return at most, 1 to 100.
    """
    window = _window(start_date, end_date, ("start_date", "end_date"))
    return _transactions(world, account_id, window, category, _limit("limit", limit))


@tool()
def list_transactions_v2(
    world: FinanceWorld,
    account: str,
    from_date: str | None = None,
    to_date: str | None = None,
    category: TxnCategory | None = None,
    max_results: int = 20,
) -> dict[str, Any]:
    """List an account's posted transactions, newest first (version 2 of list_transactions).

    Same results as list_transactions under the same keys (account_id, 'results' of
    transactions with txn_id, date, merchant, category, direction, amount_usd...,
    'count', 'total'); only the parameter names changed.

    Args:
        world: The bank (not shown to the agent).
        account: The account id, e.g. 'ACC-10002'.
        from_date: First day to include, YYYY-MM-DD (optional; default: no lower bound).
        to_date: Last day to include, YYYY-MM-DD (optional; default: no upper bound).
        category: Only transactions in this category (optional).
        max_results: How many transactions to return at most, 1 to 100.
    """
    window = _window(from_date, to_date, ("from_date", "to_date"))
    return _transactions(world, account, window, category, _limit("max_results", max_results))


@tool()
def get_spending_total(
    world: FinanceWorld,
    account_id: str,
    start_date: str,
    end_date: str,
    category: SpendingCategory | None = None,
) -> dict[str, Any]:
    """Total what an account spent between two dates (both inclusive).

    Spending is every debit in a spending category (groceries, dining, transport,
    shopping, entertainment, travel, health, subscriptions); bills, transfers and income
    are not spending. Returns account_id, start_date, end_date, category (null = all
    spending), total_spent_usd (US dollars) and transaction_count.

    Args:
        world: The bank (not shown to the agent).
        account_id: The account id, e.g. 'ACC-10002'.
        start_date: First day to include, YYYY-MM-DD.
        end_date: Last day to include, YYYY-MM-DD.
        category: Only this spending category (optional; default: all spending).
    """
    first, last = _window(start_date, end_date, ("start_date", "end_date"))
    account = _row(world, "accounts", account_id, "Account")
    wanted = (category,) if category is not None else SPENDING_CATEGORIES
    rows = [
        t
        for t in world.transactions.values()
        if t.account_id == account.account_id
        and t.direction == "debit"
        and t.category in wanted
        and _in_window(t.date, first, last)
    ]
    return {
        "account_id": account.account_id,
        "start_date": start_date.strip(),
        "end_date": end_date.strip(),
        "category": category,
        "total_spent_usd": money(sum((dec(t.amount_usd) for t in rows), Decimal(0))),
        "transaction_count": len(rows),
    }


get_merchant = shapes.lookup(
    "get_merchant",
    "merchants",
    "merchant_id",
    "Merchant",
    "Get one merchant: name, spending category, city, country (ISO code) and the currency "
    "it charges in.",
    "The merchant id, e.g. 'M-105'.",
)


def _ranked(rows: Iterable[Any], query: str) -> list[Any]:
    """Rows whose name contains ``query``: exact matches first, then prefixes, then the rest."""
    folded = query.strip().casefold()
    hits = [r for r in rows if folded in r.name.casefold()]

    def rank(row: Any) -> tuple[int, str]:
        name = row.name.casefold()
        return (0 if name == folded else 1 if name.startswith(folded) else 2, name)

    return sorted(hits, key=rank)


@tool()
def search_merchants(
    world: FinanceWorld, query: str, category: SpendingCategory | None = None, limit: int = 10
) -> dict[str, Any]:
    """Find merchants by name. Exact name matches come first, then names starting with it.

    Returns 'results' (merchant_id, name, category, city, country, currency), 'count'
    (returned) and 'total' (matching).

    Args:
        world: The bank (not shown to the agent).
        query: The merchant's name or part of it (case-insensitive).
        category: Only merchants in this spending category (optional).
        limit: How many merchants to return at most, 1 to 100.
    """
    if not isinstance(query, str) or not query.strip():
        raise unprocessable("query must not be empty")
    rows = [m for m in world.merchants.values() if category is None or m.category == category]
    return listing(_ranked(rows, query), _limit("limit", limit), row_json)


def _by_name_or_id(world: World, table: str, value: str, entity: str, search: str) -> Any:
    """Resolve a parameter that takes either an id or an exact name."""
    if isinstance(value, str):
        stored = find_key(world.table(table), value)
        if stored is not None:
            return world.table(table)[stored]
        folded = value.strip().casefold()
        named = [r for r in world.table(table).values() if r.name.casefold() == folded]
        if len(named) == 1:
            return named[0]
    raise ToolError(
        f"{entity} '{value}' not found; pass an exact name or an id (find ids with {search})",
        code=404,
        kind="not_found",
    )


@tool()
def get_merchant_spending(
    world: FinanceWorld,
    merchant: str,
    account_id: str,
    start_date: str | None = None,
    end_date: str | None = None,
) -> dict[str, Any]:
    """Sum what an account spent at one merchant, and when it last bought there.

    Returns merchant_id, merchant_name, account_id, start_date, end_date,
    total_spent_usd (US dollars), transaction_count, first_purchase_date and
    last_purchase_date (YYYY-MM-DD, null when there is none) and last_transaction_id.

    Args:
        world: The bank (not shown to the agent).
        merchant: The merchant's exact name (e.g. 'Blue Bottle Coffee') or its id.
        account_id: The account id, e.g. 'ACC-10002'.
        start_date: First day to include, YYYY-MM-DD (optional; default: all history).
        end_date: Last day to include, YYYY-MM-DD (optional; default: all history).
    """
    first, last = _window(start_date, end_date, ("start_date", "end_date"))
    shop = _by_name_or_id(world, "merchants", merchant, "Merchant", "search_merchants")
    account = _row(world, "accounts", account_id, "Account")
    rows = sorted(
        (
            t
            for t in world.transactions.values()
            if t.account_id == account.account_id
            and t.merchant_id == shop.merchant_id
            and t.direction == "debit"
            and _in_window(t.date, first, last)
        ),
        key=lambda t: (t.date, t.txn_id),
    )
    return {
        "merchant_id": shop.merchant_id,
        "merchant_name": shop.name,
        "account_id": account.account_id,
        "start_date": first.isoformat() if first else None,
        "end_date": last.isoformat() if last else None,
        "total_spent_usd": money(sum((dec(t.amount_usd) for t in rows), Decimal(0))),
        "transaction_count": len(rows),
        "first_purchase_date": rows[0].date if rows else None,
        "last_purchase_date": rows[-1].date if rows else None,
        "last_transaction_id": rows[-1].txn_id if rows else None,
    }


# -- budgets ----------------------------------------------------------------------------------

list_budgets = shapes.search(
    "list_budgets",
    "budgets",
    "List a holder's monthly budgets: budget_id, holder_id, category, limit_usd (US "
    "dollars per calendar month) and updated_on (YYYY-MM-DD), sorted by category, in "
    "'results' with 'count' and 'total'.",
    [
        Filter("holder_id", "holder_id", "The holder id, e.g. 'H-1001'.", required=True),
        Filter("category", "category", "Only this category.", enum_schema(SPENDING_CATEGORIES)),
    ],
    sort_by="category",
)


@tool()
def get_budget_status(
    world: FinanceWorld, holder_id: str, category: SpendingCategory, month: str | None = None
) -> dict[str, Any]:
    """How a holder's spending in one category compares with its monthly budget.

    Spending counts debits in the category across all the holder's accounts during the
    calendar month. Returns budget_id, holder_id, category, month, limit_usd, spent_usd,
    remaining_usd (limit minus spent; negative when over budget; all US dollars),
    transaction_count and over_budget. 404 if the holder has no budget for the category.

    Args:
        world: The bank (not shown to the agent).
        holder_id: The holder id, e.g. 'H-1001'.
        category: The spending category.
        month: The calendar month as YYYY-MM (optional; default: the current month).
    """
    holder = _row(world, "holders", holder_id, "Account holder")
    if month is None:
        month = world.today().isoformat()[:7]
    month = month.strip() if isinstance(month, str) else ""
    if not _MONTH.fullmatch(month) or not 1 <= int(month[5:]) <= 12:
        raise ToolError(
            f"Invalid value for parameter 'month': '{month}' is not a month in YYYY-MM format.",
            code=400,
        )
    budget = next(
        (
            b
            for b in world.budgets.values()
            if b.holder_id == holder.holder_id and b.category == category
        ),
        None,
    )
    if budget is None:
        raise ToolError(
            f"No {category} budget is set for holder {holder.holder_id}",
            code=404,
            kind="not_found",
        )
    rows = [
        t
        for t in world.transactions.values()
        if t.holder_id == holder.holder_id
        and t.category == category
        and t.direction == "debit"
        and t.date.startswith(month)
    ]
    spent = sum((dec(t.amount_usd) for t in rows), Decimal(0))
    remaining = dec(budget.limit_usd) - spent
    return {
        "budget_id": budget.budget_id,
        "holder_id": holder.holder_id,
        "category": category,
        "month": month,
        "limit_usd": budget.limit_usd,
        "spent_usd": money(spent),
        "remaining_usd": money(remaining),
        "transaction_count": len(rows),
        "over_budget": remaining < 0,
    }


@tool(ToolKind.WRITE)
def set_budget(
    world: FinanceWorld, holder_id: str, category: SpendingCategory, limit_usd: float
) -> dict[str, Any]:
    """Set a holder's monthly budget for a category (creates it, or changes its limit).

    Returns the budget record (budget_id, holder_id, category, limit_usd, updated_on).

    Args:
        world: The bank (not shown to the agent).
        holder_id: The holder id, e.g. 'H-1001'.
        category: The spending category.
        limit_usd: The monthly limit in US dollars (more than 0, at most 20000, whole cents).
    """
    holder = _row(world, "holders", holder_id, "Account holder")
    check_choice("category", category, SPENDING_CATEGORIES)
    limit = money(_amount("limit_usd", limit_usd, MAX_BUDGET_USD))
    today = world.today().isoformat()
    current = next(
        (
            b
            for b in world.budgets.values()
            if b.holder_id == holder.holder_id and b.category == category
        ),
        None,
    )
    if current is not None:
        row = world.update("budgets", current.budget_id, limit_usd=limit, updated_on=today)
    else:
        budget_id = world.next_id("BUD", 4)
        row = Budget(
            budget_id=budget_id,
            holder_id=holder.holder_id,
            category=category,
            limit_usd=limit,
            updated_on=today,
        )
        world.insert("budgets", budget_id, row)
    result: dict[str, Any] = row.model_dump(mode="json")
    return result


# -- loans ------------------------------------------------------------------------------------


def _loan_view(world: World, row: Row) -> dict[str, Any]:
    loan = cast(Loan, row)
    start = date.fromisoformat(loan.start_date)
    today = _bank(world).today()
    made = 0
    while made < loan.term_months and add_months(start, made + 1) <= today:
        made += 1
    principal, apr = dec(loan.principal_usd), dec(loan.apr_pct)
    payment = monthly_payment(principal, apr, loan.term_months)
    left = loan.term_months - made
    return {
        **loan.model_dump(mode="json"),
        "monthly_payment_usd": money(payment),
        "payments_made": made,
        "payments_remaining": left,
        "remaining_balance_usd": money(balance_after(principal, apr, payment, made)),
        "next_payment_date": add_months(start, made + 1).isoformat() if left else None,
        "payoff_date": add_months(start, loan.term_months).isoformat(),
    }


def _loan_summary(world: World, row: Row) -> dict[str, Any]:
    return cast(Loan, row).model_dump(mode="json")


get_loan = shapes.lookup(
    "get_loan",
    "loans",
    "loan_id",
    "Loan",
    "Get one loan with its repayment schedule: holder_id, kind, lender, principal_usd, "
    "apr_pct (annual rate, percent), term_months, start_date, monthly_payment_usd, "
    "payments_made, payments_remaining, remaining_balance_usd (US dollars still owed "
    "after the payments made so far), next_payment_date and payoff_date (YYYY-MM-DD; one "
    "payment a month on the start date's day).",
    "The loan id, e.g. 'LN-3001'.",
    view=_loan_view,
)

list_loans = shapes.search(
    "list_loans",
    "loans",
    "List loans as contract summaries (loan_id, holder_id, kind, lender, principal_usd, "
    "apr_pct, term_months, start_date), sorted by loan_id; use get_loan for the balance "
    "and schedule. Every filter given must match. Returns 'results', 'count' and 'total'.",
    [
        Filter("holder_id", "holder_id", "Only loans of this holder id, e.g. 'H-1001'."),
        Filter("kind", "kind", "Only loans of this kind.", schema=enum_schema(LOAN_KINDS)),
    ],
    view=_loan_summary,
    sort_by="loan_id",
)


@tool()
def calculate_loan_payment(
    world: FinanceWorld, principal_usd: float, apr_pct: float, term_months: int
) -> dict[str, Any]:
    """Quote the level monthly payment of a fixed-rate loan (standard amortization).

    monthly payment = P * r / (1 - (1 + r) ** -n), with r = apr_pct / 12 / 100 and n =
    term_months (P / n when the rate is 0), rounded to cents. Returns principal_usd,
    apr_pct, term_months, monthly_payment_usd, total_paid_usd (the payment times the
    number of payments) and total_interest_usd (total paid minus principal).

    Args:
        world: The bank (not shown to the agent).
        principal_usd: The amount borrowed, in US dollars (100 to 5000000).
        apr_pct: The annual interest rate in percent, e.g. 6.5 for 6.5% (0 to 36).
        term_months: The number of monthly payments (1 to 480).
    """
    if not is_number(principal_usd):
        raise unprocessable("principal_usd must be a number")
    if not 100 <= principal_usd <= 5_000_000:
        raise unprocessable("principal_usd must be between 100 and 5000000")
    if not is_number(apr_pct) or not 0 <= apr_pct <= 36:
        raise unprocessable("apr_pct must be a number from 0 to 36")
    if not is_integer(term_months):
        raise unprocessable("term_months must be an integer")
    if not 1 <= term_months <= 480:
        raise unprocessable("term_months must be from 1 to 480")
    principal = dec(money(principal_usd))
    payment = monthly_payment(principal, dec(apr_pct), term_months)
    total = payment * term_months
    return {
        "principal_usd": float(principal),
        "apr_pct": apr_pct,
        "term_months": term_months,
        "monthly_payment_usd": money(payment),
        "total_paid_usd": money(total),
        "total_interest_usd": money(total - principal),
    }


# -- payees, bills and payments -----------------------------------------------------------------


@tool()
def search_payees(
    world: FinanceWorld, query: str, category: str | None = None, limit: int = 10
) -> dict[str, Any]:
    """Find bill payees (utilities, phone, insurance, housing...) by name.

    Exact name matches come first, then names starting with the query. Returns
    'results' (payee_id, name, category), 'count' (returned) and 'total' (matching).

    Args:
        world: The bank (not shown to the agent).
        query: The payee's name or part of it (case-insensitive).
        category: Only payees in this category, e.g. 'utilities' (optional).
        limit: How many payees to return at most, 1 to 100.
    """
    if not isinstance(query, str) or not query.strip():
        raise unprocessable("query must not be empty")
    rows = [
        p
        for p in world.payees.values()
        if category is None or p.category.casefold() == str(category).strip().casefold()
    ]
    return listing(_ranked(rows, query), _limit("limit", limit), row_json)


get_bill = shapes.lookup(
    "get_bill",
    "bills",
    "bill_id",
    "Bill",
    "Get one bill: holder_id, payee_id, payee_name, amount_usd (US dollars), due_date "
    "(YYYY-MM-DD), status (due, overdue or paid), and paid_on and payment_id once paid.",
    "The bill id, e.g. 'BILL-0042'.",
)

list_bills = shapes.search(
    "list_bills",
    "bills",
    "List bills (as get_bill returns them), earliest due_date first. Every filter given "
    "must match. Returns up to 50 in 'results', with 'count' and 'total'.",
    [
        Filter("holder_id", "holder_id", "Only bills of this holder id, e.g. 'H-1001'."),
        Filter("status", "status", "Only bills in this status.", schema=enum_schema(BILL_STATUSES)),
        Filter("payee_id", "payee_id", "Only bills from this payee id, e.g. 'PY-204'."),
    ],
    sort_by="due_date",
    limit=50,
)


def _payment_row(
    world: FinanceWorld,
    account: Account,
    payee: Any,
    amount: float,
    pay_on: str,
    status: str,
    bill_id: str | None,
    memo: str,
) -> Payment:
    payment_id = world.next_id("PMT", 5)
    row = Payment(
        payment_id=payment_id,
        from_account_id=account.account_id,
        holder_id=account.holder_id,
        payee_id=payee.payee_id,
        payee_name=payee.name,
        amount_usd=amount,
        pay_on=pay_on,
        status=status,
        bill_id=bill_id,
        memo=memo,
        created_at=stamp(world.now()),
    )
    world.insert("payments", payment_id, row)
    return row


def _checking(account: Account, what: str) -> None:
    if account.kind != "checking":
        raise unprocessable(
            f"{what} can only be made from a checking account; {account.account_id} is a "
            f"{account.kind.replace('_', ' ')} account"
        )


@tool(ToolKind.WRITE)
def pay_bill(world: FinanceWorld, bill_id: str, from_account_id: str) -> dict[str, Any]:
    """Pay a due or overdue bill in full, now, from the holder's own checking account.

    The account must be open, belong to the bill's holder and hold at least the bill's
    amount. The money leaves the account today and the bill is marked paid. Returns the
    payment record (payment_id, from_account_id, holder_id, payee_id, payee_name,
    amount_usd, pay_on, status 'completed', bill_id, memo, created_at).

    Args:
        world: The bank (not shown to the agent).
        bill_id: The bill id, e.g. 'BILL-0042'.
        from_account_id: The checking account to pay from, e.g. 'ACC-10002'.
    """
    bill = _row(world, "bills", bill_id, "Bill")
    account: Account = _row(world, "accounts", from_account_id, "Account")
    if bill.status == "paid":
        raise conflict(
            f"Bill {bill.bill_id} was already paid on {bill.paid_on} (payment {bill.payment_id})"
        )
    if account.holder_id != bill.holder_id:
        raise unprocessable(
            f"Account {account.account_id} does not belong to the holder of bill {bill.bill_id}"
        )
    _checking(account, "Bill payments")
    _open(account)
    amount = dec(bill.amount_usd)
    if dec(account.balance_usd) < amount:
        raise unprocessable(
            f"Insufficient funds in {account.account_id} to pay bill {bill.bill_id}"
        )
    payee = world.payees[bill.payee_id]
    today = world.today().isoformat()
    payment = _payment_row(
        world, account, payee, bill.amount_usd, today, "completed", bill.bill_id, "Bill payment"
    )
    world.update(
        "accounts", account.account_id, balance_usd=money(dec(account.balance_usd) - amount)
    )
    world.update("bills", bill.bill_id, status="paid", paid_on=today, payment_id=payment.payment_id)
    _post(world, account, payee.name, "bills", "debit", bill.amount_usd)
    result: dict[str, Any] = payment.model_dump(mode="json")
    return result


@tool(ToolKind.WRITE)
def schedule_payment(
    world: FinanceWorld,
    from_account_id: str,
    payee: str,
    amount_usd: float,
    pay_on: str,
    memo: str = "",
) -> dict[str, Any]:
    """Schedule a one-off payment to a payee from a checking account on a future date.

    No money moves until pay_on. The account must be open; pay_on must be after today
    and at most 365 days ahead; an identical payment (same account, payee, amount and
    date) that is already scheduled is refused. Returns the payment record (payment_id,
    from_account_id, holder_id, payee_id, payee_name, amount_usd, pay_on, status
    'scheduled', bill_id null, memo, created_at).

    Args:
        world: The bank (not shown to the agent).
        from_account_id: The checking account to pay from, e.g. 'ACC-10002'.
        payee: The payee's exact name (e.g. 'Verizon Wireless') or its payee id.
        amount_usd: The amount in US dollars (more than 0, at most 25000, whole cents).
        pay_on: The date the payment is sent, YYYY-MM-DD.
        memo: A note shown on the payment.
    """
    account: Account = _row(world, "accounts", from_account_id, "Account")
    target = _by_name_or_id(world, "payees", payee, "Payee", "search_payees")
    _checking(account, "Payments")
    _open(account)
    amount = money(_amount("amount_usd", amount_usd, MAX_PAYMENT_USD))
    when = _iso_date("pay_on", pay_on)
    today = world.today()
    if when <= today:
        raise unprocessable(f"pay_on must be a future date (after {today.isoformat()})")
    if when > today + timedelta(days=SCHEDULE_HORIZON_DAYS):
        raise unprocessable(
            f"pay_on can be at most {SCHEDULE_HORIZON_DAYS} days ahead of {today.isoformat()}"
        )
    duplicate = next(
        (
            p
            for p in world.payments.values()
            if p.status == "scheduled"
            and p.from_account_id == account.account_id
            and p.payee_id == target.payee_id
            and p.amount_usd == amount
            and p.pay_on == when.isoformat()
        ),
        None,
    )
    if duplicate is not None:
        raise conflict(f"The same payment is already scheduled as {duplicate.payment_id}")
    text = memo.strip() if isinstance(memo, str) else ""
    payment = _payment_row(
        world, account, target, amount, when.isoformat(), "scheduled", None, text
    )
    result: dict[str, Any] = payment.model_dump(mode="json")
    return result


list_payments = shapes.search(
    "list_payments",
    "payments",
    "List the payments made or scheduled from an account (records as schedule_payment and "
    "pay_bill return them), oldest first by payment_id. Returns up to 100 in 'results', "
    "with 'count' and 'total'.",
    [
        Filter(
            "account_id",
            "from_account_id",
            "The account the payments come from, e.g. 'ACC-10002'.",
            required=True,
        ),
        Filter(
            "status",
            "status",
            "Only payments in this status.",
            schema=enum_schema(PAYMENT_STATUSES),
        ),
    ],
    sort_by="payment_id",
    limit=100,
)


def _cancellation(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    payment = cast(Payment, row)
    if payment.status != "scheduled":
        raise conflict(
            f"Payment {payment.payment_id} is {payment.status}; only scheduled payments can "
            "be cancelled"
        )
    return {"status": "cancelled"}


cancel_payment = shapes.update(
    "cancel_payment",
    "payments",
    "payment_id",
    "Payment",
    "Cancel a scheduled payment before it is sent. Refused (409) for a completed or an "
    "already cancelled payment. Returns the updated payment record.",
    "The payment id, e.g. 'PMT-00012'.",
    [],
    _cancellation,
)


# -- transfers --------------------------------------------------------------------------------


@tool(ToolKind.WRITE)
def transfer_funds(
    world: FinanceWorld,
    from_account_id: str,
    to_account_id: str,
    amount_usd: float,
    memo: str = "",
) -> dict[str, Any]:
    """Move money now between two open accounts of the same holder.

    The source must be a checking or savings account holding at least the amount. Paying
    a credit card this way lowers its balance owed and may not exceed it. Returns the
    transfer record (transfer_id, from_account_id, to_account_id, holder_id, amount_usd,
    date, memo, status 'completed', created_at).

    Args:
        world: The bank (not shown to the agent).
        from_account_id: The account the money leaves, e.g. 'ACC-10003'.
        to_account_id: The account the money goes to, e.g. 'ACC-10002'.
        amount_usd: The amount in US dollars (more than 0, at most 50000, whole cents).
        memo: A note shown on both accounts' statements.
    """
    source: Account = _row(world, "accounts", from_account_id, "Account")
    target: Account = _row(world, "accounts", to_account_id, "Account")
    if source.account_id == target.account_id:
        raise unprocessable("from_account_id and to_account_id must be different accounts")
    if source.holder_id != target.holder_id:
        raise unprocessable("Transfers are only allowed between accounts of the same holder")
    _open(source)
    _open(target)
    if source.kind == "credit_card":
        raise unprocessable(f"Money cannot be transferred out of credit card {source.account_id}")
    amount = _amount("amount_usd", amount_usd, MAX_TRANSFER_USD)
    if dec(source.balance_usd) < amount:
        raise unprocessable(f"Insufficient funds in {source.account_id} for this transfer")
    if target.kind == "credit_card" and amount > dec(target.balance_usd):
        raise unprocessable(
            f"The payment exceeds the balance owed on credit card {target.account_id}"
        )
    new_target = dec(target.balance_usd) + (-amount if target.kind == "credit_card" else amount)
    world.update("accounts", source.account_id, balance_usd=money(dec(source.balance_usd) - amount))
    world.update("accounts", target.account_id, balance_usd=money(new_target))
    transfer_id = world.next_id("TRF", 5)
    row = Transfer(
        transfer_id=transfer_id,
        from_account_id=source.account_id,
        to_account_id=target.account_id,
        holder_id=source.holder_id,
        amount_usd=money(amount),
        date=world.today().isoformat(),
        memo=memo.strip() if isinstance(memo, str) else "",
        status="completed",
        created_at=stamp(world.now()),
    )
    world.insert("transfers", transfer_id, row)
    _post(world, source, f"Transfer to {target.account_id}", "transfer", "debit", row.amount_usd)
    _post(world, target, f"Transfer from {source.account_id}", "transfer", "credit", row.amount_usd)
    result: dict[str, Any] = row.model_dump(mode="json")
    return result


@tool()
def list_transfers(
    world: FinanceWorld,
    account_id: str,
    start_date: str | None = None,
    end_date: str | None = None,
) -> dict[str, Any]:
    """List transfers into or out of an account (records as transfer_funds returns them).

    Oldest first by transfer_id. Returns account_id, up to 100 'results', 'count' and
    'total'.

    Args:
        world: The bank (not shown to the agent).
        account_id: The account id, e.g. 'ACC-10002'.
        start_date: First day to include, YYYY-MM-DD (optional).
        end_date: Last day to include, YYYY-MM-DD (optional).
    """
    first, last = _window(start_date, end_date, ("start_date", "end_date"))
    account = _row(world, "accounts", account_id, "Account")
    rows = sorted(
        (
            t
            for t in world.transfers.values()
            if account.account_id in (t.from_account_id, t.to_account_id)
            and _in_window(t.date, first, last)
        ),
        key=lambda t: t.transfer_id,
    )
    return listing(rows, MAX_LIMIT, row_json, account_id=account.account_id)


# -- exchange rates ---------------------------------------------------------------------------


def _quote(
    world: World, table: str, base: str, quote: str, names: tuple[str, str], source: str
) -> dict[str, Any]:
    first, second = _currency(names[0], base), _currency(names[1], quote)
    if first == second:
        raise unprocessable(f"{names[0]} and {names[1]} must be different currencies")
    quotes = world.table(table)
    per_usd = {code: row.units_per_usd for code, row in quotes.items()}
    as_of = max(quotes[code].as_of for code in (first, second) if code != "USD")
    return {
        "base": first,
        "quote": second,
        "rate": pair_rate(per_usd, first, second),
        "as_of": as_of,
        "source": source,
    }


@tool()
def get_reference_rate(world: FinanceWorld, base: str, quote: str = "USD") -> dict[str, Any]:
    """The central bank's official daily reference exchange rate.

    This is the authoritative reference rate: when rate sources disagree, it is the one
    that counts. Returns base, quote, rate (units of quote that one unit of base buys, 6
    decimals), as_of (UTC time of the fixing, YYYY-MM-DDTHH:MM:SSZ) and source. If this
    feed is unavailable, get_market_rate quotes the same pairs.

    Args:
        world: The bank (not shown to the agent).
        base: ISO code of the currency being priced, e.g. 'EUR'.
        quote: ISO code of the currency the price is expressed in.
    """
    return _quote(world, "central_bank_rates", base, quote, ("base", "quote"), "central_bank")


@tool()
def get_market_rate(
    world: FinanceWorld, from_currency: str, to_currency: str = "USD"
) -> dict[str, Any]:
    """The live mid-market exchange rate from a market-data feed.

    Returns base (= from_currency), quote (= to_currency), rate (units of quote that one
    unit of base buys, 6 decimals), as_of (UTC time of the last tick,
    YYYY-MM-DDTHH:MM:SSZ) and source. If this feed is unavailable, get_bank_board_rate
    quotes the same pairs.

    Args:
        world: The bank (not shown to the agent).
        from_currency: ISO code of the currency being converted from, e.g. 'EUR'.
        to_currency: ISO code of the currency being converted to.
    """
    return _quote(
        world,
        "market_rates",
        from_currency,
        to_currency,
        ("from_currency", "to_currency"),
        "market",
    )


@tool()
def get_bank_board_rate(
    world: FinanceWorld, sell_currency: str, buy_currency: str = "USD"
) -> dict[str, Any]:
    """The exchange rate on the bank's own rate board (updated hourly).

    Returns base (= sell_currency), quote (= buy_currency), rate (the board's mid rate:
    units of quote that one unit of base buys, 6 decimals), spread_pct (the margin the
    bank adds on each side when it exchanges cash), as_of (UTC time the board was
    updated, YYYY-MM-DDTHH:MM:SSZ) and source. If the board is unavailable,
    get_market_rate quotes the same pairs.

    Args:
        world: The bank (not shown to the agent).
        sell_currency: ISO code of the currency you give, e.g. 'EUR'.
        buy_currency: ISO code of the currency you receive.
    """
    names = ("sell_currency", "buy_currency")
    quote = _quote(world, "board_rates", sell_currency, buy_currency, names, "bank_board")
    return {**quote, "spread_pct": BOARD_SPREAD_PCT}


@tool()
def convert_amount(
    world: FinanceWorld,
    amount: float,
    rate: float,
    from_currency: str,
    to_currency: str,
    fee_pct: float = 0.0,
) -> dict[str, Any]:
    """Convert an amount with a given exchange rate (take the rate from a rate tool).

    gross_amount = amount * rate; fee_amount = gross_amount * fee_pct / 100;
    converted_amount = gross_amount - fee_amount, each rounded to 2 decimals and
    expressed in to_currency. Returns amount and from_currency, to_currency, rate,
    fee_pct, gross_amount, fee_amount and converted_amount.

    Args:
        world: The bank (not shown to the agent).
        amount: The amount to convert, in from_currency (more than 0).
        rate: Units of to_currency per one unit of from_currency (more than 0).
        from_currency: ISO code of the amount's currency, e.g. 'EUR'.
        to_currency: ISO code of the currency to convert into, e.g. 'USD'.
        fee_pct: A conversion fee in percent of the converted amount (0 to 10).
    """
    source = _currency("from_currency", from_currency)
    target = _currency("to_currency", to_currency)
    if source == target:
        raise unprocessable("from_currency and to_currency must be different currencies")
    for name, value in (("amount", amount), ("rate", rate)):
        if not is_number(value) or value != value:
            raise unprocessable(f"{name} must be a number")
        if not 0 < value <= 1e9:
            raise unprocessable(f"{name} must be greater than 0 and at most 1000000000")
    if not is_number(fee_pct) or not 0 <= fee_pct <= 10:
        raise unprocessable("fee_pct must be a number from 0 to 10")
    gross = dec(amount) * dec(rate)
    fee = gross * dec(fee_pct) / 100
    return {
        "amount": amount,
        "from_currency": source,
        "to_currency": target,
        "rate": rate,
        "fee_pct": fee_pct,
        "gross_amount": money(gross),
        "fee_amount": money(fee),
        "converted_amount": money(dec(money(gross)) - dec(money(fee))),
    }


TOOLS: list[Tool] = [
    get_holder,
    find_holders,
    get_account,
    list_accounts,
    get_transaction,
    list_transactions,
    list_transactions_v2,
    get_spending_total,
    get_merchant,
    search_merchants,
    get_merchant_spending,
    list_budgets,
    get_budget_status,
    set_budget,
    get_loan,
    list_loans,
    calculate_loan_payment,
    search_payees,
    get_bill,
    list_bills,
    pay_bill,
    schedule_payment,
    list_payments,
    cancel_payment,
    transfer_funds,
    list_transfers,
    get_reference_rate,
    get_market_rate,
    get_bank_board_rate,
    convert_amount,
]
