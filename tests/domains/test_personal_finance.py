"""Tests of the personal-finance domain: the seeded world, every tool, writes, forks, notes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest

from conftest import DomainTools, all_keys, cents, d, forks_of, numeric_keys
from toolchaos.domains import DOMAINS

DOMAINS.setdefault("personal_finance", "toolchaos.domains.personal_finance:DOMAIN")

from toolchaos.domains.personal_finance import DOMAIN  # noqa: E402
from toolchaos.domains.personal_finance.world import (  # noqa: E402
    CURRENCY_CODES,
    SPENDING_CATEGORIES,
    Account,
    Bill,
    FinanceWorld,
    add_months,
)

SEED = 7
SEEDS = [0, 1, 7, 42, 2026]
RATE_TOOLS = {
    "get_reference_rate": ("base", "quote"),
    "get_market_rate": ("from_currency", "to_currency"),
    "get_bank_board_rate": ("sell_currency", "buy_currency"),
}
domain_tools = DomainTools(DOMAIN)
call, refused = domain_tools.call, domain_tools.refused


# -- helpers -------------------------------------------------------------------------------


def total(values: Iterator[float] | list[float]) -> float:
    return cents(sum((d(v) for v in values), Decimal(0)))


def today(world: FinanceWorld) -> date:
    return world.now().date()


def params(tool_name: str) -> set[str]:
    return set(DOMAIN.tools[tool_name].spec.parameters["properties"])


def account_of(world: FinanceWorld, kind: str, status: str = "open", **where: Any) -> Account:
    for a in world.accounts.values():
        if (
            a.kind == kind
            and a.status == status
            and all(getattr(a, k) == v for k, v in where.items())
        ):
            return a
    raise AssertionError(f"seeded world has no {status} {kind} account with {where}")


def open_checking(world: FinanceWorld, holder_id: str) -> Account | None:
    return next(
        (
            a
            for a in world.accounts.values()
            if a.holder_id == holder_id and a.kind == "checking" and a.status == "open"
        ),
        None,
    )


def payable_bill(world: FinanceWorld) -> tuple[Bill, Account]:
    for bill in world.bills.values():
        checking = open_checking(world, bill.holder_id)
        if bill.status == "due" and checking and checking.balance_usd >= bill.amount_usd:
            return bill, checking
    raise AssertionError("seeded world has no payable bill")


def spending_account(world: FinanceWorld) -> Account:
    counts: dict[str, int] = {}
    for t in world.transactions.values():
        counts[t.account_id] = counts.get(t.account_id, 0) + 1
    return world.accounts[max(sorted(counts), key=lambda k: counts[k])]


def read_calls(world: FinanceWorld) -> list[tuple[str, dict[str, Any]]]:
    """One valid call of every READ tool on ids drawn from the world."""
    account = spending_account(world)
    holder = world.holders[account.holder_id]
    txn = next(t for t in world.transactions.values() if t.account_id == account.account_id)
    budget = next(iter(world.budgets.values()))
    card = account_of(world, "credit_card")
    return [
        ("get_holder", {"holder_id": holder.holder_id}),
        ("find_holders", {"email": holder.email}),
        ("get_account", {"account_id": card.account_id}),
        ("list_accounts", {"holder_id": holder.holder_id}),
        ("get_transaction", {"txn_id": txn.txn_id}),
        ("list_transactions", {"account_id": account.account_id}),
        ("list_transactions_v2", {"account": account.account_id}),
        (
            "get_spending_total",
            {
                "account_id": account.account_id,
                "start_date": "2026-01-01",
                "end_date": "2026-02-28",
            },
        ),
        ("get_merchant", {"merchant_id": "M-101"}),
        ("search_merchants", {"query": "coffee"}),
        ("get_merchant_spending", {"merchant": "M-101", "account_id": account.account_id}),
        ("list_budgets", {"holder_id": budget.holder_id}),
        ("get_budget_status", {"holder_id": budget.holder_id, "category": budget.category}),
        ("get_loan", {"loan_id": next(iter(world.loans))}),
        ("list_loans", {}),
        ("calculate_loan_payment", {"principal_usd": 12000, "apr_pct": 5.5, "term_months": 36}),
        ("search_payees", {"query": "insurance"}),
        ("get_bill", {"bill_id": next(iter(world.bills))}),
        ("list_bills", {"holder_id": holder.holder_id}),
        ("list_payments", {"account_id": next(iter(world.payments.values())).from_account_id}),
        ("list_transfers", {"account_id": next(iter(world.transfers.values())).from_account_id}),
        ("get_reference_rate", {"base": "EUR"}),
        ("get_market_rate", {"from_currency": "GBP", "to_currency": "JPY"}),
        ("get_bank_board_rate", {"sell_currency": "USD", "buy_currency": "CAD"}),
        (
            "convert_amount",
            {"amount": 250.0, "rate": 1.08, "from_currency": "EUR", "to_currency": "USD"},
        ),
    ]


def write_calls(world: FinanceWorld) -> dict[str, dict[str, Any]]:
    """One valid call of every WRITE tool that creates a record."""
    bill, checking = payable_bill(world)
    holder = next(
        h
        for h in world.holders.values()
        if open_checking(world, h.holder_id)
        and any(
            a.kind == "savings" and a.status == "open" and a.balance_usd > 500
            for a in world.accounts.values()
            if a.holder_id == h.holder_id
        )
    )
    source = account_of(world, "savings", holder_id=holder.holder_id)
    target = open_checking(world, holder.holder_id)
    assert target is not None
    budget = next(iter(world.budgets.values()))
    return {
        "transfer_funds": {
            "from_account_id": source.account_id,
            "to_account_id": target.account_id,
            "amount_usd": 123.45,
        },
        "pay_bill": {"bill_id": bill.bill_id, "from_account_id": checking.account_id},
        "schedule_payment": {
            "from_account_id": checking.account_id,
            "payee": "Geico",
            "amount_usd": 88.12,
            "pay_on": (today(world) + timedelta(days=9)).isoformat(),
        },
        "set_budget": {
            "holder_id": budget.holder_id,
            "category": budget.category,
            "limit_usd": budget.limit_usd + 37.5,
        },
    }


# -- the domain as declared ------------------------------------------------------------------


def test_schemas_carry_enums_dates_and_documented_defaults() -> None:
    props = DOMAIN.tools["list_transactions"].spec.parameters["properties"]
    assert props["limit"]["default"] == 20
    assert "YYYY-MM-DD" in props["start_date"]["description"]
    assert set(props["category"]["enum"]) >= set(SPENDING_CATEGORIES)
    assert (
        DOMAIN.tools["get_reference_rate"].spec.parameters["properties"]["quote"]["default"]
        == "USD"
    )
    assert DOMAIN.tools["convert_amount"].spec.parameters["properties"]["fee_pct"]["default"] == 0
    kinds = DOMAIN.tools["list_accounts"].spec.parameters["properties"]["kind"]["enum"]
    assert kinds == ["checking", "savings", "credit_card"]


# -- the notes contract -------------------------------------------------------------------------


@pytest.mark.parametrize("primary", sorted(DOMAIN.notes.fallbacks))
def test_fallbacks_serve_the_same_facts(base: FinanceWorld, primary: str) -> None:
    fallback = DOMAIN.notes.fallbacks[primary]
    assert set(fallback.args_map) <= params(fallback.tool)
    assert set(fallback.args_map.values()) <= params(primary)
    first, second = RATE_TOOLS[primary]
    args = {first: "CHF", second: "SEK"}
    mine = call(base, primary, **args)
    theirs = call(base, fallback.tool, **{new: args[old] for new, old in fallback.args_map.items()})
    shared = {"base", "quote", "rate", "as_of", "source"}
    assert shared <= set(mine) and shared <= set(theirs)
    assert {k: theirs[k] for k in ("base", "quote", "rate")} == {
        k: mine[k] for k in ("base", "quote", "rate")
    }
    assert fallback.tool in DOMAIN.tools[primary].spec.description


def test_v2_returns_the_same_results(base: FinanceWorld) -> None:
    entry = DOMAIN.notes.v2["list_transactions"]
    assert set(entry.args_map) == params(entry.tool)
    assert set(entry.args_map.values()) == params("list_transactions")
    assert "remains fully supported" in DOMAIN.tools["list_transactions"].spec.description
    account = spending_account(base)
    v1_args = {
        "account_id": account.account_id,
        "start_date": "2026-01-01",
        "end_date": "2026-02-15",
        "category": "dining",
        "limit": 7,
    }
    v2_args = {new: v1_args[old] for new, old in entry.args_map.items()}
    assert call(base, entry.tool, **v2_args) == call(base, "list_transactions", **v1_args)


def test_unit_conversions_cover_fields_the_tools_return(base: FinanceWorld) -> None:
    conversions = DOMAIN.notes.unit_conversions
    world = base.fork()
    seen: set[str] = set()
    for name, args in read_calls(world):
        seen.update(numeric_keys(call(world, name, **args)))
    for name, args in write_calls(world).items():
        seen.update(numeric_keys(call(world, name, **args)))
    for name, conversion in conversions.items():
        assert name in seen, f"no tool returns {name}"
        if name.endswith("_pct"):  # a percentage given as a fraction of 1
            assert (conversion.to_unit, conversion.factor) == ("fraction of 1", 0.01)
            continue
        assert name.endswith("_usd")
        assert conversion.model_dump() == {"to_unit": "USD cents", "factor": 100.0, "fixed": True}
    assert {"balance_usd", "amount_usd", "monthly_payment_usd"} <= set(conversions)


@pytest.mark.parametrize("tool_name", sorted(DOMAIN.notes.resolvers))
def test_resolvers_find_the_id_a_name_stands_for(base: FinanceWorld, tool_name: str) -> None:
    how = DOMAIN.notes.resolvers[tool_name]
    assert how.param in params(tool_name)
    assert how.query_param in params(how.tool)
    table = {"search_merchants": base.merchants, "search_payees": base.payees}[how.tool]
    for row in table.values():
        found = call(base, how.tool, **{how.query_param: row.name})
        value: Any = found
        for key in how.id_path:
            value = value[key]
        assert value == next(k for k, r in table.items() if r.name == row.name)
        assert value != row.name


def test_resolver_tools_accept_a_name_or_an_id(world: FinanceWorld) -> None:
    account = spending_account(world)
    merchant_id = next(
        t.merchant_id
        for t in world.transactions.values()
        if t.account_id == account.account_id and t.merchant_id
    )
    name = world.merchants[merchant_id].name
    by_id = call(
        world, "get_merchant_spending", merchant=merchant_id, account_id=account.account_id
    )
    by_name = call(
        world, "get_merchant_spending", merchant=name.upper(), account_id=account.account_id
    )
    assert by_id == by_name and by_id["merchant_id"] == merchant_id
    refused(world, "get_merchant_spending", 404, merchant=name[:-2], account_id=account.account_id)
    args = write_calls(world)["schedule_payment"]
    payee_id = next(p.payee_id for p in world.payees.values() if p.name == args["payee"])
    first = call(world.fork(), "schedule_payment", **args)
    second = call(world.fork(), "schedule_payment", **{**args, "payee": payee_id.lower()})
    assert first["payee_id"] == second["payee_id"] == payee_id


@pytest.mark.parametrize("write", sorted(DOMAIN.notes.write_verifiers))
def test_write_verifiers_show_the_record_a_write_created(base: FinanceWorld, write: str) -> None:
    world = base.fork()
    args = write_calls(world)[write]
    assert domain_tools.verified_records(world, write, args) == []
    created = call(world, write, **args)
    assert domain_tools.verified_records(world, write, args) == [created]


def test_sources_agree_and_name_their_authority(base: FinanceWorld) -> None:
    sources = DOMAIN.notes.sources
    assert set(sources) == set(RATE_TOOLS)
    for tool_name, how in sources.items():
        assert set(how.alternatives) == set(RATE_TOOLS) - {tool_name}
        assert how.fields == ("rate",) and how.time_field == "as_of"
        assert how.authoritative == "get_reference_rate"
        for alt, mapping in how.args_map.items():
            assert set(mapping) == params(alt)
            assert set(mapping.values()) == params(tool_name)
        first, second = RATE_TOOLS[tool_name]
        mine = call(base, tool_name, **{first: "AUD", second: "MXN"})
        assert {"rate", "as_of"} <= set(mine)
        for alt, mapping in how.args_map.items():
            theirs = call(
                base,
                alt,
                **{new: {first: "AUD", second: "MXN"}[old] for new, old in mapping.items()},
            )
            assert theirs["rate"] == mine["rate"]
    description = DOMAIN.tools["get_reference_rate"].spec.description
    assert "authoritative" in description
    for other in ("get_market_rate", "get_bank_board_rate"):
        assert "authoritative" not in DOMAIN.tools[other].spec.description


@pytest.mark.parametrize("seed", SEEDS)
def test_three_rate_sources_agree_in_the_clean_world(seed: int) -> None:
    w = FinanceWorld.build(seed)
    stamps: dict[str, set[str]] = {name: set() for name in RATE_TOOLS}
    for base_code in CURRENCY_CODES:
        for quote_code in CURRENCY_CODES:
            if base_code == quote_code:
                continue
            rates = set()
            for name, (first, second) in RATE_TOOLS.items():
                got = call(w, name, **{first: base_code, second: quote_code})
                assert (got["base"], got["quote"]) == (base_code, quote_code)
                rates.add(got["rate"])
                stamps[name].add(got["as_of"])
            assert len(rates) == 1, (base_code, quote_code, rates)
    for name, seen in stamps.items():
        assert len(seen) == 1, name
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", next(iter(seen)))
        assert next(iter(seen)) <= w.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    assert len(set().union(*stamps.values())) == 3  # each source stamps its own time


# -- the seeded world ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_world_tables_are_consistent(seed: int) -> None:
    w = FinanceWorld.build(seed)
    now = w.now().date().isoformat()
    assert len(w.holders) == 16 and len(w.merchants) == 53 and len(w.payees) == 12
    assert all(re.fullmatch(r"H-\d{4}", k) for k in w.holders)
    assert all(re.fullmatch(r"ACC-\d{5}", k) for k in w.accounts)
    assert all(re.fullmatch(r"TXN-\d{6}", k) for k in w.transactions)
    assert len({h.email for h in w.holders.values()}) == len(w.holders)
    for holder in w.holders.values():
        kinds = [a.kind for a in w.accounts.values() if a.holder_id == holder.holder_id]
        assert kinds.count("checking") == 1 and kinds.count("savings") == 1
        assert holder.home_currency in CURRENCY_CODES
    frozen = [a.kind for a in w.accounts.values() if a.status == "frozen"]
    assert sorted(frozen) == ["checking", "savings"]
    for t in w.transactions.values():
        account = w.accounts[t.account_id]
        assert account.holder_id == t.holder_id
        assert account.kind != "savings" or t.category == "transfer"
        assert "2025-12-01" <= t.date < now and t.amount_usd > 0
        assert t.merchant_id is None or w.merchants[t.merchant_id].name == t.merchant
        if t.original_currency != "USD":
            assert w.merchants[t.merchant_id or ""].currency == t.original_currency
        else:
            assert t.original_amount == t.amount_usd
    assert any(t.original_currency != "USD" for t in w.transactions.values())
    for bill in w.bills.values():
        assert bill.payee_name == w.payees[bill.payee_id].name
        if bill.status == "paid":
            payment = w.payments[bill.payment_id or ""]
            assert (payment.bill_id, payment.amount_usd, payment.status) == (
                bill.bill_id,
                bill.amount_usd,
                "completed",
            )
        else:
            assert bill.payment_id is None
            assert (bill.status == "due") == (bill.due_date >= now)
    for transfer in w.transfers.values():
        source, target = w.accounts[transfer.from_account_id], w.accounts[transfer.to_account_id]
        assert source.holder_id == target.holder_id == transfer.holder_id
    assert w.id_counters == {
        "TXN": len(w.transactions),
        "BUD": len(w.budgets),
        "PMT": len(w.payments),
        "TRF": len(w.transfers),
    }


def test_no_two_merchant_or_payee_names_are_alike(base: FinanceWorld) -> None:
    for table in (base.merchants, base.payees):
        names = [r.name.casefold() for r in table.values()]
        assert len(set(names)) == len(names)


# -- READ tools ----------------------------------------------------------------------------------


def test_read_tools_do_not_change_the_world(world: FinanceWorld) -> None:
    domain_tools.check_reads_change_nothing(world, read_calls(world))


def test_results_are_json_with_units_in_float_names(base: FinanceWorld) -> None:
    for name, result in domain_tools.read_results(base, read_calls(base)):
        for key in numeric_keys(result, floats_only=True):
            assert key.endswith(("_usd", "_pct", "rate", "amount")), f"{name} returns {key}"
        if any(k.endswith("amount") for k in numeric_keys(result)):
            assert {"original_currency", "from_currency", "to_currency"} & all_keys(result)


def test_holders_and_accounts(base: FinanceWorld) -> None:
    holder = base.holders["H-1003"]
    assert call(base, "get_holder", holder_id=" h-1003 ") == holder.model_dump(mode="json")
    found = call(base, "find_holders", email=holder.email.upper())
    assert [r["holder_id"] for r in found["results"]] == ["H-1003"]
    last = holder.name.split()[-1]
    named = call(base, "find_holders", name_contains=last.lower())
    assert named["total"] == sum(last in h.name for h in base.holders.values())
    listed = call(base, "list_accounts", holder_id="H-1003")
    mine = sorted(a.account_id for a in base.accounts.values() if a.holder_id == "H-1003")
    assert [r["account_id"] for r in listed["results"]] == mine
    cards = call(base, "list_accounts", kind="credit_card")
    assert cards["total"] == sum(a.kind == "credit_card" for a in base.accounts.values())
    assert all(r["credit_limit_usd"] for r in cards["results"])
    frozen = call(base, "list_accounts", status="frozen")["results"]
    assert len(frozen) == 2


def test_list_transactions_orders_filters_and_limits(base: FinanceWorld) -> None:
    account = spending_account(base)
    rows = sorted(
        (t for t in base.transactions.values() if t.account_id == account.account_id),
        key=lambda t: (t.date, t.txn_id),
        reverse=True,
    )
    got = call(base, "list_transactions", account_id=account.account_id.lower())
    assert got["account_id"] == account.account_id
    assert [r["txn_id"] for r in got["results"]] == [t.txn_id for t in rows[:20]]
    assert (got["count"], got["total"]) == (20, len(rows))
    window = call(
        base,
        "list_transactions",
        account_id=account.account_id,
        start_date="2026-01-10",
        end_date="2026-01-20",
        category="groceries",
        limit=100,
    )
    want = [
        t.txn_id
        for t in rows
        if "2026-01-10" <= t.date <= "2026-01-20" and t.category == "groceries"
    ]
    assert [r["txn_id"] for r in window["results"]] == want
    assert call(base, "get_transaction", txn_id=rows[0].txn_id) == rows[0].model_dump(mode="json")


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ({"start_date": "2026/01/10"}, 400),
        ({"end_date": "10-01-2026"}, 400),
        ({"start_date": "2026-02-30"}, 400),
        ({"start_date": "2026-02-01", "end_date": "2026-01-01"}, 422),
        ({"limit": 0}, 422),
        ({"limit": 101}, 422),
    ],
)
def test_list_transactions_refusals(base: FinanceWorld, args: dict[str, Any], code: int) -> None:
    account = spending_account(base)
    refused(base, "list_transactions", code, account_id=account.account_id, **args)


def test_spending_total_counts_only_spending_debits(base: FinanceWorld) -> None:
    account = spending_account(base)
    rows = [
        t
        for t in base.transactions.values()
        if t.account_id == account.account_id
        and t.direction == "debit"
        and t.category in SPENDING_CATEGORIES
        and "2026-02-01" <= t.date <= "2026-02-28"
    ]
    got = call(
        base,
        "get_spending_total",
        account_id=account.account_id,
        start_date="2026-02-01",
        end_date="2026-02-28",
    )
    assert got["total_spent_usd"] == total([t.amount_usd for t in rows])
    assert got["transaction_count"] == len(rows) and got["category"] is None
    dining = call(
        base,
        "get_spending_total",
        account_id=account.account_id,
        start_date="2026-02-01",
        end_date="2026-02-28",
        category="dining",
    )
    assert dining["total_spent_usd"] == total(
        [t.amount_usd for t in rows if t.category == "dining"]
    )
    refused(
        base,
        "get_spending_total",
        404,
        account_id="ACC-99999",
        start_date="2026-02-01",
        end_date="2026-02-28",
    )
    refused(
        base,
        "get_spending_total",
        400,
        account_id=account.account_id,
        start_date="Feb 1",
        end_date="2026-02-28",
    )


def test_merchant_search_ranks_exact_names_first(base: FinanceWorld) -> None:
    got = call(base, "search_merchants", query="sweetgreen")
    assert got["results"][0]["name"] == "Sweetgreen"
    shops = call(base, "search_merchants", query="a", category="shopping")
    assert shops["total"] == sum(
        "a" in m.name.lower() and m.category == "shopping" for m in base.merchants.values()
    )
    names = [r["name"] for r in call(base, "search_merchants", query="Co", limit=100)["results"]]
    assert names == sorted(names, key=lambda n: (0 if n.lower().startswith("co") else 1, n.lower()))
    assert call(base, "get_merchant", merchant_id="m-101")["name"] == base.merchants["M-101"].name
    refused(base, "search_merchants", 422, query="  ")


def test_merchant_spending_sums_debits_at_that_merchant(base: FinanceWorld) -> None:
    account = spending_account(base)
    rows = sorted(
        (
            t
            for t in base.transactions.values()
            if t.account_id == account.account_id and t.merchant_id
        ),
        key=lambda t: (t.date, t.txn_id),
    )
    merchant_id = rows[-1].merchant_id
    assert merchant_id is not None
    mine = [t for t in rows if t.merchant_id == merchant_id]
    got = call(base, "get_merchant_spending", merchant=merchant_id, account_id=account.account_id)
    assert got["total_spent_usd"] == total([t.amount_usd for t in mine])
    assert (got["first_purchase_date"], got["last_purchase_date"]) == (mine[0].date, mine[-1].date)
    assert got["last_transaction_id"] == mine[-1].txn_id
    since = call(
        base,
        "get_merchant_spending",
        merchant=merchant_id,
        account_id=account.account_id,
        start_date=mine[-1].date,
    )
    assert since["transaction_count"] == sum(t.date >= mine[-1].date for t in mine)
    savings = account_of(base, "savings")
    empty = call(base, "get_merchant_spending", merchant=merchant_id, account_id=savings.account_id)
    assert (empty["total_spent_usd"], empty["last_purchase_date"]) == (0.0, None)
    refused(base, "get_merchant_spending", 404, merchant=merchant_id, account_id="ACC-00000")


def test_budget_status_compares_spending_with_the_limit(base: FinanceWorld) -> None:
    budget = max(base.budgets.values(), key=lambda b: b.limit_usd)
    rows = [
        t
        for t in base.transactions.values()
        if t.holder_id == budget.holder_id
        and t.category == budget.category
        and t.direction == "debit"
        and t.date.startswith("2026-01")
    ]
    got = call(
        base,
        "get_budget_status",
        holder_id=budget.holder_id,
        category=budget.category,
        month="2026-01",
    )
    spent = total([t.amount_usd for t in rows])
    assert (got["limit_usd"], got["spent_usd"]) == (budget.limit_usd, spent)
    assert got["remaining_usd"] == cents(d(budget.limit_usd) - d(spent))
    assert got["over_budget"] == (got["remaining_usd"] < 0)
    current = call(base, "get_budget_status", holder_id=budget.holder_id, category=budget.category)
    assert current["month"] == today(base).isoformat()[:7]
    listed = call(base, "list_budgets", holder_id=budget.holder_id)["results"]
    assert budget.model_dump(mode="json") in listed
    assert [r["category"] for r in listed] == sorted(r["category"] for r in listed)
    missing = next(
        c
        for c in SPENDING_CATEGORIES
        if not any(
            b.holder_id == budget.holder_id and b.category == c for b in base.budgets.values()
        )
    )
    refused(base, "get_budget_status", 404, holder_id=budget.holder_id, category=missing)
    refused(
        base,
        "get_budget_status",
        400,
        holder_id=budget.holder_id,
        category=budget.category,
        month="2026-13",
    )
    refused(base, "get_budget_status", 404, holder_id="H-0000", category=budget.category)


def amortized(principal: float, apr_pct: float, months: int) -> float:
    """The textbook payment, in floats, as an independent check of the Decimal code."""
    if apr_pct == 0:
        return principal / months
    r = apr_pct / 1200
    return principal * r / (1 - (1 + r) ** -months)


@pytest.mark.parametrize(
    ("principal", "apr", "months"),
    [(25000, 6.5, 60), (350000, 6.125, 360), (4800, 0, 24), (12345.67, 17.9, 36), (100, 0.01, 1)],
)
def test_calculate_loan_payment_amortizes(principal: float, apr: float, months: int) -> None:
    world = FinanceWorld.build(0)
    got = call(
        world, "calculate_loan_payment", principal_usd=principal, apr_pct=apr, term_months=months
    )
    assert abs(got["monthly_payment_usd"] - amortized(principal, apr, months)) <= 0.005 + 1e-9
    assert got["total_paid_usd"] == cents(d(got["monthly_payment_usd"]) * months)
    assert got["total_interest_usd"] == cents(d(got["total_paid_usd"]) - d(principal))


@pytest.mark.parametrize(
    "args",
    [
        {"principal_usd": 50, "apr_pct": 5, "term_months": 12},
        {"principal_usd": 1000, "apr_pct": -1, "term_months": 12},
        {"principal_usd": 1000, "apr_pct": 40, "term_months": 12},
        {"principal_usd": 1000, "apr_pct": 5, "term_months": 0},
        {"principal_usd": 1000, "apr_pct": 5, "term_months": 481},
    ],
)
def test_calculate_loan_payment_refusals(base: FinanceWorld, args: dict[str, Any]) -> None:
    refused(base, "calculate_loan_payment", 422, **args)


def test_loans_follow_their_schedule(base: FinanceWorld) -> None:
    for loan in base.loans.values():
        got = call(base, "get_loan", loan_id=loan.loan_id.lower())
        start = date.fromisoformat(loan.start_date)
        made = sum(add_months(start, k) <= today(base) for k in range(1, loan.term_months + 1))
        assert (got["payments_made"], got["payments_remaining"]) == (made, loan.term_months - made)
        assert (
            abs(
                got["monthly_payment_usd"]
                - amortized(loan.principal_usd, loan.apr_pct, loan.term_months)
            )
            <= 0.005
        )
        assert got["payoff_date"] == add_months(start, loan.term_months).isoformat()
        assert got["next_payment_date"] == add_months(start, made + 1).isoformat()
        assert today(base).isoformat() < got["next_payment_date"]
        assert 0 < got["remaining_balance_usd"] < loan.principal_usd
        r = loan.apr_pct / 1200
        growth = (1 + r) ** made
        closed_form = loan.principal_usd * growth - got["monthly_payment_usd"] * (growth - 1) / r
        assert abs(got["remaining_balance_usd"] - closed_form) < 0.01 * made + 0.01
    holder = next(iter(base.loans.values())).holder_id
    summaries = call(base, "list_loans", holder_id=holder)["results"]
    assert all("remaining_balance_usd" not in s for s in summaries)
    assert {s["loan_id"] for s in summaries} == {
        k for k, v in base.loans.items() if v.holder_id == holder
    }
    refused(base, "get_loan", 404, loan_id="LN-0000")


def test_bills_and_payees(base: FinanceWorld) -> None:
    got = call(base, "search_payees", query="t-mobile")
    assert got["results"][0]["name"] == "T-Mobile"
    utilities = call(base, "search_payees", query="e", category="UTILITIES")
    assert {r["category"] for r in utilities["results"]} == {"utilities"}
    holder = next(iter(base.bills.values())).holder_id
    listed = call(base, "list_bills", holder_id=holder, status="due")["results"]
    want = sorted(
        (b for b in base.bills.values() if b.holder_id == holder and b.status == "due"),
        key=lambda b: b.due_date,
    )
    assert [r["bill_id"] for r in listed] == [b.bill_id for b in want]
    bill = want[0]
    assert call(base, "get_bill", bill_id=bill.bill_id) == bill.model_dump(mode="json")
    refused(base, "get_bill", 404, bill_id="BILL-9999")


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("get_holder", {"holder_id": "H-9999"}),
        ("get_account", {"account_id": "ACC-99999"}),
        ("get_transaction", {"txn_id": "TXN-999999"}),
        ("list_transactions", {"account_id": "ACC-99999"}),
        ("get_merchant", {"merchant_id": "M-999"}),
        ("get_loan", {"loan_id": "LN-9999"}),
        ("get_bill", {"bill_id": "BILL-9999"}),
        ("list_transfers", {"account_id": "ACC-99999"}),
        ("get_reference_rate", {"base": "XAU"}),
        ("get_market_rate", {"from_currency": "EURO"}),
        ("get_bank_board_rate", {"sell_currency": "BTC"}),
        ("convert_amount", {"amount": 1, "rate": 1, "from_currency": "EUR", "to_currency": "ZZZ"}),
    ],
)
def test_unknown_ids_and_currencies_are_404(
    base: FinanceWorld, name: str, args: dict[str, Any]
) -> None:
    assert refused(base, name, 404, **args).kind == "not_found"


def test_rates_follow_the_quote_tables(base: FinanceWorld) -> None:
    per_usd = {code: q.units_per_usd for code, q in base.central_bank_rates.items()}
    got = call(base, "get_reference_rate", base="eur")
    assert got["quote"] == "USD" and got["source"] == "central_bank"
    assert got["rate"] == float(
        (Decimal(1) / d(per_usd["EUR"])).quantize(Decimal("0.000001"), ROUND_HALF_UP)
    )
    cross = call(base, "get_market_rate", from_currency="GBP", to_currency="JPY")
    want = d(per_usd["JPY"]) / d(per_usd["GBP"])
    assert cross["rate"] == float(want.quantize(Decimal("0.000001"), ROUND_HALF_UP))
    back = call(base, "get_market_rate", from_currency="JPY", to_currency="GBP")
    assert abs(cross["rate"] * back["rate"] - 1) < 1e-3
    board = call(base, "get_bank_board_rate", sell_currency="USD", buy_currency="CAD")
    assert board["rate"] == per_usd["CAD"] and board["spread_pct"] > 0
    for name, (first, second) in RATE_TOOLS.items():
        refused(base, name, 422, **{first: "CHF", second: "chf"})


def test_convert_amount(base: FinanceWorld) -> None:
    got = call(
        base,
        "convert_amount",
        amount=1234.5,
        rate=0.9132,
        from_currency="usd",
        to_currency="eur",
        fee_pct=1.5,
    )
    gross = d(1234.5) * d(0.9132)
    assert got["gross_amount"] == cents(gross)
    assert got["fee_amount"] == cents(gross * d(1.5) / 100)
    assert got["converted_amount"] == cents(d(got["gross_amount"]) - d(got["fee_amount"]))
    assert (got["from_currency"], got["to_currency"]) == ("USD", "EUR")
    plain = call(
        base, "convert_amount", amount=10, rate=2.5, from_currency="EUR", to_currency="USD"
    )
    assert plain["converted_amount"] == 25.0 and plain["fee_amount"] == 0.0
    ok = {"amount": 10, "rate": 1.1, "from_currency": "EUR", "to_currency": "USD"}
    for bad in ({"amount": 0}, {"rate": -1}, {"fee_pct": 11}, {"to_currency": "EUR"}):
        refused(base, "convert_amount", 422, **{**ok, **bad})


# -- WRITE tools ----------------------------------------------------------------------------------


def test_transfer_moves_money_and_posts_both_sides(base: FinanceWorld, world: FinanceWorld) -> None:
    args = write_calls(world)["transfer_funds"]
    source, target = world.accounts[args["from_account_id"]], world.accounts[args["to_account_id"]]
    before = world.state_hash()
    got = call(
        world,
        "transfer_funds",
        **{**args, "from_account_id": source.account_id.lower(), "memo": " rent "},
    )
    assert got["transfer_id"] == f"TRF-{len(base.transfers) + 1:05d}"
    assert (got["from_account_id"], got["to_account_id"], got["memo"]) == (
        source.account_id,
        target.account_id,
        "rent",
    )
    assert got["date"] == today(world).isoformat() and got["status"] == "completed"
    assert world.accounts[source.account_id].balance_usd == cents(d(source.balance_usd) - d(123.45))
    assert world.accounts[target.account_id].balance_usd == cents(d(target.balance_usd) + d(123.45))
    posted = [t for t in world.transactions.values() if t.txn_id not in base.transactions]
    assert sorted((t.account_id, t.direction) for t in posted) == sorted(
        [(source.account_id, "debit"), (target.account_id, "credit")]
    )
    assert world.state_hash() != before
    assert got in call(world, "list_transfers", account_id=target.account_id)["results"]


def test_transfer_to_a_card_pays_it_down(world: FinanceWorld) -> None:
    card = next(
        a
        for a in world.accounts.values()
        if a.kind == "credit_card" and a.balance_usd > 50 and open_checking(world, a.holder_id)
    )
    checking = open_checking(world, card.holder_id)
    assert checking is not None
    call(
        world,
        "transfer_funds",
        from_account_id=checking.account_id,
        to_account_id=card.account_id,
        amount_usd=25.5,
    )
    assert world.accounts[card.account_id].balance_usd == cents(d(card.balance_usd) - d(25.5))
    too_much = cents(d(card.balance_usd) - d(25.5) + d(0.01))
    refused(
        world,
        "transfer_funds",
        422,
        from_account_id=checking.account_id,
        to_account_id=card.account_id,
        amount_usd=too_much,
    )
    refused(
        world,
        "transfer_funds",
        422,
        from_account_id=card.account_id,
        to_account_id=checking.account_id,
        amount_usd=1,
    )


def test_transfer_refusals(world: FinanceWorld) -> None:
    ok = write_calls(world)["transfer_funds"]
    source = world.accounts[ok["from_account_id"]]
    stranger = next(
        a for a in world.accounts.values() if a.holder_id != source.holder_id and a.status == "open"
    )
    frozen = account_of(world, "checking", status="frozen")
    sibling = next(
        a
        for a in world.accounts.values()
        if a.holder_id == frozen.holder_id and a.kind == "savings"
    )
    refused(world, "transfer_funds", 404, **{**ok, "to_account_id": "ACC-00000"})
    refused(world, "transfer_funds", 422, **{**ok, "to_account_id": source.account_id})
    refused(world, "transfer_funds", 422, **{**ok, "to_account_id": stranger.account_id})
    error = refused(world, "transfer_funds", 422, **{**ok, "amount_usd": source.balance_usd + 0.01})
    assert "Insufficient funds" in error.message
    for amount in (0, -5, 10.001, 50000.01):
        refused(world, "transfer_funds", 422, **{**ok, "amount_usd": amount})
    frozen_args = {
        "from_account_id": sibling.account_id,
        "to_account_id": frozen.account_id,
        "amount_usd": 1,
    }
    assert "frozen" in refused(world, "transfer_funds", 409, **frozen_args).message
    assert world.written_tables() == set()


def test_pay_bill(base: FinanceWorld, world: FinanceWorld) -> None:
    bill, checking = payable_bill(world)
    before = world.state_hash()
    got = call(world, "pay_bill", bill_id=bill.bill_id.lower(), from_account_id=checking.account_id)
    assert got["payment_id"] == f"PMT-{len(base.payments) + 1:05d}"
    assert (got["bill_id"], got["amount_usd"], got["status"]) == (
        bill.bill_id,
        bill.amount_usd,
        "completed",
    )
    assert got["pay_on"] == today(world).isoformat()
    assert world.bills[bill.bill_id].status == "paid"
    assert world.bills[bill.bill_id].payment_id == got["payment_id"]
    assert world.accounts[checking.account_id].balance_usd == cents(
        d(checking.balance_usd) - d(bill.amount_usd)
    )
    assert world.state_hash() != before
    error = refused(
        world, "pay_bill", 409, bill_id=bill.bill_id, from_account_id=checking.account_id
    )
    assert got["payment_id"] in error.message
    assert base.bills[bill.bill_id].status == "due"


def test_pay_bill_refusals(world: FinanceWorld) -> None:
    bill, checking = payable_bill(world)
    savings = next(
        a for a in world.accounts.values() if a.holder_id == bill.holder_id and a.kind == "savings"
    )
    other = next(
        a for a in world.accounts.values() if a.holder_id != bill.holder_id and a.kind == "checking"
    )
    refused(world, "pay_bill", 404, bill_id="BILL-9999", from_account_id=checking.account_id)
    refused(world, "pay_bill", 404, bill_id=bill.bill_id, from_account_id="ACC-00000")
    refused(world, "pay_bill", 422, bill_id=bill.bill_id, from_account_id=other.account_id)
    refused(world, "pay_bill", 422, bill_id=bill.bill_id, from_account_id=savings.account_id)
    paid = next(
        b for b in world.bills.values() if b.status == "paid" and b.holder_id == bill.holder_id
    )
    refused(world, "pay_bill", 409, bill_id=paid.bill_id, from_account_id=checking.account_id)
    frozen = account_of(world, "checking", status="frozen")
    unpaid = next(
        b for b in world.bills.values() if b.holder_id == frozen.holder_id and b.status != "paid"
    )
    refused(world, "pay_bill", 409, bill_id=unpaid.bill_id, from_account_id=frozen.account_id)
    assert world.written_tables() == set()
    world.update("accounts", checking.account_id, balance_usd=cents(d(bill.amount_usd) - d(0.01)))
    poor = world.state_hash()
    assert (
        "Insufficient"
        in refused(
            world, "pay_bill", 422, bill_id=bill.bill_id, from_account_id=checking.account_id
        ).message
    )
    assert world.state_hash() == poor


def test_overdue_bills_can_be_paid(world: FinanceWorld) -> None:
    overdue = [b for b in world.bills.values() if b.status == "overdue"]
    for bill in overdue:
        checking = open_checking(world, bill.holder_id)
        if checking and checking.balance_usd >= bill.amount_usd:
            assert (
                call(world, "pay_bill", bill_id=bill.bill_id, from_account_id=checking.account_id)[
                    "status"
                ]
                == "completed"
            )
            return
    pytest.fail("the seeded world should hold a payable overdue bill")


def test_schedule_and_cancel_a_payment(base: FinanceWorld, world: FinanceWorld) -> None:
    args = write_calls(world)["schedule_payment"]
    before = world.state_hash()
    got = call(world, "schedule_payment", **{**args, "memo": "March premium"})
    assert got["status"] == "scheduled" and got["pay_on"] == args["pay_on"]
    assert (got["payee_name"], got["memo"], got["bill_id"]) == ("Geico", "March premium", None)
    assert world.accounts[args["from_account_id"]] == base.accounts[args["from_account_id"]]
    after = world.state_hash()
    assert after != before
    duplicate = refused(world, "schedule_payment", 409, **args)
    assert got["payment_id"] in duplicate.message
    cancelled = call(world, "cancel_payment", payment_id=got["payment_id"].lower())
    assert cancelled["status"] == "cancelled" and world.state_hash() != after
    refused(world, "cancel_payment", 409, payment_id=got["payment_id"])
    completed = next(p for p in world.payments.values() if p.status == "completed")
    refused(world, "cancel_payment", 409, payment_id=completed.payment_id)
    refused(world, "cancel_payment", 404, payment_id="PMT-99999")
    again = call(world, "schedule_payment", **args)
    assert again["payment_id"] != got["payment_id"]


def test_schedule_payment_refusals(world: FinanceWorld) -> None:
    ok = write_calls(world)["schedule_payment"]
    account = world.accounts[ok["from_account_id"]]
    savings = next(
        a
        for a in world.accounts.values()
        if a.holder_id == account.holder_id and a.kind == "savings"
    )
    frozen = account_of(world, "checking", status="frozen")
    now = today(world)
    cases = [
        (404, {"payee": "Geic"}),
        (404, {"from_account_id": "ACC-00000"}),
        (422, {"from_account_id": savings.account_id}),
        (409, {"from_account_id": frozen.account_id}),
        (422, {"pay_on": now.isoformat()}),
        (422, {"pay_on": (now - timedelta(days=3)).isoformat()}),
        (422, {"pay_on": (now + timedelta(days=366)).isoformat()}),
        (400, {"pay_on": "next friday"}),
        (422, {"amount_usd": 0}),
        (422, {"amount_usd": 25000.01}),
    ]
    for code, change in cases:
        refused(world, "schedule_payment", code, **{**ok, **change})
    assert call(
        world, "schedule_payment", **{**ok, "pay_on": (now + timedelta(days=365)).isoformat()}
    )


def test_set_budget_creates_or_updates(base: FinanceWorld, world: FinanceWorld) -> None:
    args = write_calls(world)["set_budget"]
    budget = next(
        b
        for b in world.budgets.values()
        if b.holder_id == args["holder_id"] and b.category == args["category"]
    )
    before = world.state_hash()
    got = call(world, "set_budget", **args)
    assert got["budget_id"] == budget.budget_id and got["limit_usd"] == args["limit_usd"]
    assert got["updated_on"] == today(world).isoformat()
    assert len(world.budgets) == len(base.budgets) and world.state_hash() != before
    missing = next(
        c
        for c in SPENDING_CATEGORIES
        if not any(
            b.holder_id == budget.holder_id and b.category == c for b in world.budgets.values()
        )
    )
    created = call(
        world, "set_budget", holder_id=budget.holder_id.lower(), category=missing, limit_usd=310.25
    )
    assert created["budget_id"] == f"BUD-{len(base.budgets) + 1:04d}"
    assert created["holder_id"] == budget.holder_id
    status = call(world, "get_budget_status", holder_id=budget.holder_id, category=missing)
    assert status["limit_usd"] == 310.25
    refused(world, "set_budget", 404, holder_id="H-0000", category=missing, limit_usd=10)
    for limit in (0, -20, 20000.01, 99.999):
        refused(
            world, "set_budget", 422, holder_id=budget.holder_id, category=missing, limit_usd=limit
        )


def test_writes_that_create_the_same_records_reach_the_same_state(base: FinanceWorld) -> None:
    calls = write_calls(base)
    first, second = base.fork(), base.fork()
    for name in ("transfer_funds", "schedule_payment"):
        call(first, name, **calls[name])
    for name in ("schedule_payment", "transfer_funds"):
        call(second, name, **calls[name])
    assert first.state_hash() == second.state_hash() != base.state_hash()


# -- forks ----------------------------------------------------------------------------------------


def test_fork_writes_never_leak_into_the_base(base: FinanceWorld) -> None:
    with forks_of(base) as (first, second):
        calls = write_calls(first)
        for name, args in calls.items():
            call(first, name, **args)
    bill_id = calls["pay_bill"]["bill_id"]
    assert base.bills[bill_id].status == second.bills[bill_id].status == "due"
    assert len(second.transactions) == len(base.transactions) < len(first.transactions)
    assert (
        call(second, "pay_bill", **calls["pay_bill"])["payment_id"]
        == call(first.fork(), "get_bill", bill_id=bill_id)["payment_id"]
    )
