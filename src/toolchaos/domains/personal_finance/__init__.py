"""The personal-finance domain: a retail bank's accounts, spending, bills, loans and FX.

The three FX tools are independent sources of the same pair rates: the central bank's
reference rate (documented as authoritative), a market-data feed and the bank's own rate
board. Each stamps ``as_of``; the market feed and the board are documented fallbacks.
``list_transactions`` has a v2 with other parameter names; merchants and payees can be
named or given by id; every WRITE that creates a record has a listing to verify it.
"""

from __future__ import annotations

from toolchaos.domains import (
    Domain,
    DomainNotes,
    Fallback,
    V2Tool,
    WriteVerifier,
    tool_map,
)
from toolchaos.domains._notes import CENTS, FRACTION, args_map, resolver, sources
from toolchaos.domains.personal_finance.tools import TOOLS
from toolchaos.domains.personal_finance.world import FinanceWorld

_USD_FIELDS = (
    "balance_usd",
    "credit_limit_usd",
    "amount_usd",
    "total_spent_usd",
    "limit_usd",
    "spent_usd",
    "remaining_usd",
    "principal_usd",
    "monthly_payment_usd",
    "remaining_balance_usd",
    "total_paid_usd",
    "total_interest_usd",
)

_RATE_PARAMS = {
    "get_reference_rate": ("base", "quote"),
    "get_market_rate": ("from_currency", "to_currency"),
    "get_bank_board_rate": ("sell_currency", "buy_currency"),
}


DOMAIN = Domain(
    name="personal_finance",
    topic="personal finance",
    world_type=FinanceWorld,
    tools=tool_map(TOOLS),
    notes=DomainNotes(
        fallbacks={
            "get_reference_rate": Fallback(
                tool="get_market_rate",
                args_map=args_map(_RATE_PARAMS, "get_reference_rate", "get_market_rate"),
            ),
            "get_market_rate": Fallback(
                tool="get_bank_board_rate",
                args_map=args_map(_RATE_PARAMS, "get_market_rate", "get_bank_board_rate"),
            ),
            "get_bank_board_rate": Fallback(
                tool="get_market_rate",
                args_map=args_map(_RATE_PARAMS, "get_bank_board_rate", "get_market_rate"),
            ),
        },
        v2={
            "list_transactions": V2Tool(
                tool="list_transactions_v2",
                args_map={
                    "account": "account_id",
                    "from_date": "start_date",
                    "to_date": "end_date",
                    "category": "category",
                    "max_results": "limit",
                },
            ),
        },
        unit_conversions={**dict.fromkeys(_USD_FIELDS, CENTS), "apr_pct": FRACTION},
        resolvers={
            "get_merchant_spending": resolver("merchant", "search_merchants", "merchant_id"),
            "schedule_payment": resolver("payee", "search_payees", "payee_id"),
        },
        write_verifiers={
            "transfer_funds": WriteVerifier(
                tool="list_transfers",
                args_map={"account_id": "from_account_id"},
                match={"to_account_id": "to_account_id", "amount_usd": "amount_usd"},
            ),
            "pay_bill": WriteVerifier(
                tool="list_payments",
                args_map={"account_id": "from_account_id"},
                match={"bill_id": "bill_id"},
            ),
            "schedule_payment": WriteVerifier(
                tool="list_payments",
                args_map={"account_id": "from_account_id"},
                match={"amount_usd": "amount_usd", "pay_on": "pay_on"},
            ),
            "set_budget": WriteVerifier(
                tool="list_budgets",
                args_map={"holder_id": "holder_id"},
                match={"category": "category", "limit_usd": "limit_usd"},
            ),
        },
        sources=sources(_RATE_PARAMS, ["rate"]),
    ),
)

__all__ = ["DOMAIN", "FinanceWorld"]
