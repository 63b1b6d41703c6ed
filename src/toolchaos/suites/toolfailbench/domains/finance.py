"""Finance: market data, company filings, rates and funds for an investment research desk."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from datetime import date, timedelta
from functools import cache
from typing import Any

from pydantic import BaseModel

from toolchaos.core.tools import array, choice, integer, nullable, number, record, string
from toolchaos.suites.toolfailbench._kit import (
    BASE_DATE,
    Calculation,
    Call,
    Concept,
    DomainKit,
    Link,
    NumberTrap,
    Question,
    Target,
    ToolDef,
    assemble,
    canon_text,
    declare,
    figure,
    load_table,
    rounded,
    show,
)

# --------------------------------------------------------------------------- tables


class Company(BaseModel):
    """A listed company and the figures people remember about it (fiscal 2023)."""

    ticker: str
    name: str
    price: float
    dividend: float
    revenue_bn: float
    net_income_bn: float
    eps: float
    shares_bn: float
    insider_trades: int


class Etf(BaseModel):
    """An exchange-traded fund."""

    symbol: str
    name: str
    expense_ratio_pct: float
    holdings: int
    aum_bn: float


class Currency(BaseModel):
    """A currency and its value in US dollars."""

    code: str
    name: str
    usd_value: float


class Bond(BaseModel):
    """A government bond curve: yields in percent by maturity in years."""

    country: str
    name: str
    yields: dict[str, float]


class Tables(BaseModel):
    """The finance data table."""

    companies: list[Company]
    etfs: list[Etf]
    currencies: list[Currency]
    fx_pairs: list[str]
    bonds: list[Bond]
    concepts: list[Concept]


@cache
def tables() -> Tables:
    """The curated finance table (loaded on first use)."""
    return Tables.model_validate(load_table("finance"))


@cache
def _companies() -> dict[str, Company]:
    return {canon_text(c.ticker): c for c in tables().companies}


def _company(call: Call) -> Company | None:
    return _companies().get(canon_text(str(call.args["ticker"])))


# Names people use for a company besides its table name and ticker.
NICKNAMES: dict[str, tuple[str, ...]] = {
    "GOOGL": ("Google",),
    "META": ("Meta", "Facebook"),
    "JPM": ("JPMorgan", "JP Morgan"),
    "JNJ": ("J&J",),
    "PG": ("P&G",),
    "XOM": ("Exxon",),
    "KO": ("Coke",),
    "DIS": ("Disney",),
    "AMD": ("AMD",),
    "CSCO": ("Cisco",),
    "MCD": ("McDonalds",),
}


def company_aliases(c: Company) -> tuple[str, ...]:
    """The names a user may call company ``c`` by: its name, ticker and nicknames."""
    return tuple(dict.fromkeys((c.name, c.ticker, *NICKNAMES.get(c.ticker, ()))))


@cache
def ticker_aliases() -> dict[str, str]:
    """Canonical text of every company name and nickname -> its ticker ("visa" -> "V")."""
    tickers = {canon_text(c.ticker) for c in tables().companies}
    table = {}
    for c in tables().companies:
        for alias in company_aliases(c):
            if canon_text(alias) not in tickers or canon_text(alias) == canon_text(c.ticker):
                table[canon_text(alias)] = c.ticker
    return table


ALIASES = {"ticker": ticker_aliases}


def _ticker(call: Call) -> str:
    return str(call.args["ticker"]).strip().upper()


CURRENCIES = (
    "USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD",
    "CNY", "INR", "MXN", "BRL", "KRW", "SEK", "SGD", "ZAR",
)  # fmt: skip
COUNTRIES = ("US", "DE", "JP", "GB", "FR", "IT", "CA", "AU", "CN", "IN", "BR", "CH", "ES")
TICKER = string(
    "Exchange ticker symbol of a US-listed stock, e.g. MSFT (a company name also works).",
    pattern="^[A-Za-z.&' -]{1,40}$",
)


def _fx_digits(rate: float) -> int:
    return 2 if rate >= 100 else 3 if rate >= 10 else 4


# --------------------------------------------------------------------------- tools


def _stock_quote(call: Call) -> dict[str, object]:
    d, row = call.draw, _company(call)
    shares = row.shares_bn if row else d.uniform("shares", 0.2, 3.0)
    price = call.keyed(
        "price",
        lambda: d.near("price", row.price, 0.06) if row else d.uniform("price", 8, 450),
    )
    if "market_cap_bn" in call.override:  # a trapped market cap moves the price with it
        price = round(float(call.override["market_cap_bn"]) / shares, 2)
    change_pct = d.uniform("change_pct", -3.5, 3.5)
    return {
        "ticker": _ticker(call),
        "company_name": row.name if row else None,
        "price": price,
        "currency": "USD",
        "change": round(price * change_pct / (100 + change_pct), 2),
        "change_pct": change_pct,
        "day_high": round(price * (1 + d.uniform("high", 0.2, 1.8) / 100), 2),
        "day_low": round(price * (1 - d.uniform("low", 0.2, 1.8) / 100), 2),
        "volume": call.keyed("volume", lambda: d.integer("volume", 2_000_000, 90_000_000)),
        "market_cap_bn": call.keyed("market_cap_bn", lambda: round(price * shares, 1)),
        "as_of": BASE_DATE.isoformat(),
    }


def _company_financials(call: Call) -> dict[str, object]:
    d, row = call.draw, _company(call)
    year = int(call.args["fiscal_year"])

    def revenue() -> float:
        if row is None:
            return float(d.uniform("revenue", 0.5, 90, 1))
        if year == 2023:
            return row.revenue_bn
        return float(d.near("revenue", row.revenue_bn * 1.06 ** (year - 2023), 0.04, 1))

    revenue_bn = call.keyed("revenue_bn", revenue)
    margin = row.net_income_bn / row.revenue_bn if row else d.uniform("margin", 0.03, 0.3, 3)
    shares = row.shares_bn if row else d.uniform("shares", 0.2, 3.0)
    net_income = round(revenue_bn * margin, 2)
    gross = d.uniform("gross", 25, 75, 1)
    return {
        "ticker": _ticker(call),
        "fiscal_year": year,
        "currency": "USD",
        "revenue_bn": revenue_bn,
        "net_income_bn": net_income,
        "eps_diluted": round(net_income / shares, 2),
        "gross_margin_pct": gross,
        "operating_margin_pct": d.uniform("operating", 4, float(gross) - 5, 1),
        "free_cash_flow_bn": round(revenue_bn * float(d.uniform("fcf", 0.04, 0.3, 3)), 2),
    }


def _dividend_history(call: Call) -> dict[str, object]:
    d, row = call.draw, _company(call)
    annual = call.keyed(
        "annual_dividend_per_share",
        lambda: row.dividend if row else d.choice("pays", [0.0, d.uniform("dividend", 0.2, 4)]),
    )
    price = row.price if row else float(d.uniform("price", 8, 450))
    eps = row.eps if row else float(d.uniform("eps", 0.5, 12))
    last_ex = d.day("ex", -80, -5)
    quarter = round(annual / 4, 4)
    dates = [date.fromisoformat(last_ex) - timedelta(days=91 * i) for i in range(4)]
    return {
        "ticker": _ticker(call),
        "years": int(call.args["years"]),
        "annual_dividend_per_share": annual,
        "dividend_yield_pct": call.keyed(
            "dividend_yield_pct", lambda: round(annual / price * 100, 2)
        ),
        "payout_ratio_pct": round(annual / eps * 100, 1) if eps > 0 else None,
        "frequency": "quarterly" if annual else "none",
        "last_ex_dividend_date": last_ex if annual else None,
        "consecutive_years_of_increases": d.integer("streak", 0, 40) if annual else 0,
        "recent_payments": [
            {"ex_date": day.isoformat(), "amount": quarter} for day in (dates if annual else [])
        ],
    }


def _analyst_rating(call: Call) -> dict[str, object]:
    d, row = call.draw, _company(call)
    price = row.price if row else float(d.uniform("price", 8, 450))
    target = call.keyed("mean_price_target", lambda: d.near("target", price * 1.12, 0.05))
    count = call.keyed("analyst_count", lambda: d.integer("analysts", 8, 55))
    buys = call.keyed("buy_count", lambda: d.integer("buys", count // 3, count - 2))
    count = max(count, buys + 2)  # a trapped buy count widens the coverage with it
    holds = d.integer("holds", 1, count - buys - 1) if count - buys > 1 else 0
    share = buys / count
    consensus = "strong_buy" if share > 0.75 else "buy" if share > 0.5 else "hold"
    return {
        "ticker": _ticker(call),
        "consensus": consensus,
        "analyst_count": count,
        "buy_count": buys,
        "hold_count": holds,
        "sell_count": count - buys - holds,
        "mean_price_target": target,
        "high_price_target": round(target * float(d.uniform("hi", 1.15, 1.45, 3)), 2),
        "low_price_target": round(target * float(d.uniform("lo", 0.55, 0.85, 3)), 2),
        "as_of": BASE_DATE.isoformat(),
    }


@cache
def _usd_values() -> dict[str, float]:
    return {c.code: c.usd_value for c in tables().currencies}


def _fx_rate(call: Call) -> dict[str, object]:
    d = call.draw
    base, quote = str(call.args["base"]), str(call.args["quote"])
    mid = _usd_values()[base] / _usd_values()[quote]
    rate = call.keyed("rate", lambda: d.near("rate", mid, 0.01, _fx_digits(mid)))
    places = _fx_digits(rate)
    spread = rate * float(d.uniform("spread", 0.0001, 0.0004, 6))
    return {
        "base": base,
        "quote": quote,
        "rate": rate,
        "bid": round(rate - spread, places + 1),
        "ask": round(rate + spread, places + 1),
        "inverse_rate": round(1 / rate, _fx_digits(1 / rate)),
        "as_of": f"{BASE_DATE.isoformat()}T{d.integer('hour', 8, 20):02d}:00:00Z",
    }


@cache
def _bonds() -> dict[str, Bond]:
    return {b.country: b for b in tables().bonds}


def _bond_yield(call: Call) -> dict[str, object]:
    d = call.draw
    country, years = str(call.args["country"]), int(call.args["maturity_years"])
    curve = _bonds()[country].yields
    value = call.keyed("yield_pct", lambda: d.near("yield", curve[str(years)], 0.03))
    coupon = round(round(curve[str(years)] * 8) / 8, 3)
    duration = years * 0.85
    return {
        "country": country,
        "maturity_years": years,
        "yield_pct": value,
        "coupon_pct": coupon,
        "price": round(100 + (coupon - value) * duration, 2),
        "change_bp": d.integer("change", -12, 12),
        "as_of": BASE_DATE.isoformat(),
    }


def _earnings_calendar(call: Call) -> dict[str, object]:
    d, row = call.draw, _company(call)
    eps_guess = row.eps / 4 * 1.05 if row else float(d.uniform("eps", 0.1, 3))
    eps = call.keyed("eps_estimate", lambda: d.near("eps", eps_guess, 0.04))
    revenue_guess = row.revenue_bn / 4 * 1.04 if row else float(d.uniform("rev", 0.2, 20))
    report = d.day("report", 10, 85)
    return {
        "ticker": _ticker(call),
        "next_report_date": report,
        "fiscal_quarter": f"Q{d.integer('quarter', 1, 4)}",
        "time_of_day": d.choice("time", ["before_open", "after_close"]),
        "eps_estimate": eps,
        "revenue_estimate_bn": call.keyed(
            "revenue_estimate_bn", lambda: d.near("revenue", revenue_guess, 0.03)
        ),
        "estimate_count": call.keyed("estimate_count", lambda: d.integer("count", 6, 40)),
    }


def _insider_trades(call: Call) -> dict[str, object]:
    d, row = call.draw, _company(call)
    window = int(call.args["days"])
    typical = (row.insider_trades if row else 12) * window / 90
    count = call.keyed(
        "transactions", lambda: max(2, round(typical * float(d.uniform("scale", 0.8, 1.2))))
    )
    buys = d.integer("buys", 1, max(1, count // 4))
    price = row.price if row else float(d.uniform("price", 8, 450))
    sold = d.integer("sold_shares", 20_000, 900_000) * (count - buys) / max(1, count)
    bought = d.integer("bought_shares", 1_000, 60_000)
    return {
        "ticker": _ticker(call),
        "window_days": window,
        "transactions": count,
        "buys": buys,
        "sells": count - buys,
        "total_sold_usd_m": call.keyed("total_sold_usd_m", lambda: round(sold * price / 1e6, 2)),
        "total_bought_usd_m": round(bought * price / 1e6, 2),
        "largest_seller_role": d.choice("role", ["CEO", "CFO", "Director", "COO", "10% owner"]),
    }


@cache
def _etfs() -> dict[str, Etf]:
    return {canon_text(e.symbol): e for e in tables().etfs}


def _etf_holdings(call: Call) -> dict[str, object]:
    d = call.draw
    symbol = str(call.args["symbol"]).strip().upper()
    row = _etfs().get(canon_text(symbol))
    ratio = call.keyed(
        "expense_ratio_pct",
        lambda: row.expense_ratio_pct if row else d.uniform("ratio", 0.03, 0.95),
    )
    top = int(call.args["top"])
    tickers = [c.ticker for c in tables().companies]
    names = d.sample("top", tickers, min(top, len(tickers)))
    weights = sorted((float(d.uniform(f"w{t}", 0.4, 7.5)) for t in names), reverse=True)
    return {
        "symbol": symbol,
        "fund_name": row.name if row else None,
        "expense_ratio_pct": ratio,
        "holdings_count": round(d.near("holdings", row.holdings, 0.03, 0))
        if row
        else d.integer("holdings", 25, 3000),
        "aum_bn": call.keyed(
            "aum_bn",
            lambda: d.near("aum", row.aum_bn, 0.08, 1) if row else d.uniform("aum", 0.2, 40, 1),
        ),
        "top_holdings": [
            {"ticker": t, "weight_pct": w} for t, w in zip(names, weights, strict=True)
        ],
        "as_of": BASE_DATE.isoformat(),
    }


DATE = string("ISO date, YYYY-MM-DD.", format="date")

TOOLS: tuple[ToolDef, ...] = (
    declare(
        "get_stock_quote",
        "Latest trade price and intraday statistics for one stock, in US dollars.",
        {"ticker": TICKER},
        {
            "ticker": string("The ticker as requested, upper case."),
            "company_name": nullable(string("Issuer name, null when unknown.")),
            "price": number("Last trade price in USD."),
            "currency": string("Quote currency."),
            "change": number("Change from the previous close in USD."),
            "change_pct": number("Change from the previous close in percent."),
            "day_high": number("Intraday high in USD."),
            "day_low": number("Intraday low in USD."),
            "volume": integer("Shares traded today."),
            "market_cap_bn": number("Market capitalisation in billions of USD."),
            "as_of": DATE,
        },
        _stock_quote,
        aliases=ALIASES,
    ),
    declare(
        "get_company_financials",
        "Annual income-statement and cash-flow figures a company reported for one fiscal "
        "year, in billions of US dollars.",
        {
            "ticker": TICKER,
            "fiscal_year": integer(
                "The company's own fiscal year label, as in its annual report.",
                minimum=2010,
                maximum=2025,
            ),
        },
        {
            "ticker": string("The ticker as requested, upper case."),
            "fiscal_year": integer("Fiscal year of the figures."),
            "currency": string("Reporting currency."),
            "revenue_bn": number("Total revenue in billions."),
            "net_income_bn": number("Net income in billions."),
            "eps_diluted": number("Diluted earnings per share."),
            "gross_margin_pct": number("Gross margin in percent."),
            "operating_margin_pct": number("Operating margin in percent."),
            "free_cash_flow_bn": number("Free cash flow in billions."),
        },
        _company_financials,
        aliases=ALIASES,
    ),
    declare(
        "get_dividend_history",
        "Cash dividends a stock has paid: trailing annual amount per share, yield, payout "
        "ratio and the most recent payments.",
        {
            "ticker": TICKER,
            "years": integer(
                "How many years of history to summarise.", minimum=1, maximum=10, default=5
            ),
        },
        {
            "ticker": string("The ticker as requested, upper case."),
            "years": integer("Years of history summarised."),
            "annual_dividend_per_share": number("Trailing twelve-month dividend per share, USD."),
            "dividend_yield_pct": number("Trailing dividend yield in percent."),
            "payout_ratio_pct": nullable(number("Dividends as a percent of earnings.")),
            "frequency": string("Payment frequency."),
            "last_ex_dividend_date": nullable(DATE),
            "consecutive_years_of_increases": integer("Years in a row the dividend has grown."),
            "recent_payments": array(
                record({"ex_date": DATE, "amount": number("Dividend per share, USD.")}),
                "Most recent payments, newest first.",
            ),
        },
        _dividend_history,
        aliases=ALIASES,
        optional=("years",),
    ),
    declare(
        "get_analyst_rating",
        "Sell-side analyst consensus for a stock: rating counts and twelve-month price "
        "targets in US dollars.",
        {"ticker": TICKER},
        {
            "ticker": string("The ticker as requested, upper case."),
            "consensus": string("Consensus rating."),
            "analyst_count": integer("Analysts covering the stock."),
            "buy_count": integer("Analysts rating it a buy."),
            "hold_count": integer("Analysts rating it a hold."),
            "sell_count": integer("Analysts rating it a sell."),
            "mean_price_target": number("Mean twelve-month price target, USD."),
            "high_price_target": number("Highest price target, USD."),
            "low_price_target": number("Lowest price target, USD."),
            "as_of": DATE,
        },
        _analyst_rating,
        aliases=ALIASES,
    ),
    declare(
        "get_fx_rate",
        "Spot exchange rate between two currencies: units of the quote currency per one "
        "unit of the base currency.",
        {
            "base": choice(CURRENCIES, "ISO 4217 code of the base currency."),
            "quote": choice(CURRENCIES, "ISO 4217 code of the quote currency."),
        },
        {
            "base": string("Base currency code."),
            "quote": string("Quote currency code."),
            "rate": number("Mid-market rate, quote units per base unit."),
            "bid": number("Bid rate."),
            "ask": number("Ask rate."),
            "inverse_rate": number("Base units per quote unit."),
            "as_of": string("Timestamp of the quote, ISO 8601 UTC."),
        },
        _fx_rate,
    ),
    declare(
        "get_bond_yield",
        "Benchmark government bond yield for a country and maturity.",
        {
            "country": choice(COUNTRIES, "ISO 3166 two-letter code of the issuing country."),
            "maturity_years": choice((2, 5, 10, 30), "Maturity of the benchmark bond in years."),
        },
        {
            "country": string("Country code."),
            "maturity_years": integer("Maturity in years."),
            "yield_pct": number("Yield to maturity in percent."),
            "coupon_pct": number("Coupon of the benchmark issue in percent."),
            "price": number("Clean price per 100 of face value."),
            "change_bp": integer("Change from the previous close in basis points."),
            "as_of": DATE,
        },
        _bond_yield,
    ),
    declare(
        "get_earnings_calendar",
        "The next scheduled quarterly earnings release of a company with the consensus "
        "estimates for it.",
        {"ticker": TICKER},
        {
            "ticker": string("The ticker as requested, upper case."),
            "next_report_date": DATE,
            "fiscal_quarter": string("Fiscal quarter being reported."),
            "time_of_day": string("Whether results come before the open or after the close."),
            "eps_estimate": number("Consensus diluted EPS estimate for the quarter, USD."),
            "revenue_estimate_bn": number("Consensus revenue estimate, billions of USD."),
            "estimate_count": integer("Number of estimates in the consensus."),
        },
        _earnings_calendar,
        aliases=ALIASES,
    ),
    declare(
        "get_insider_trades",
        "Open-market share purchases and sales by a company's officers, directors and large "
        "holders, summarised over a recent window.",
        {
            "ticker": TICKER,
            "days": integer("Length of the window in days.", minimum=7, maximum=365, default=90),
        },
        {
            "ticker": string("The ticker as requested, upper case."),
            "window_days": integer("Window length in days."),
            "transactions": integer("Reported insider transactions in the window."),
            "buys": integer("Purchases among them."),
            "sells": integer("Sales among them."),
            "total_sold_usd_m": number("Value of shares sold, millions of USD."),
            "total_bought_usd_m": number("Value of shares bought, millions of USD."),
            "largest_seller_role": string("Role of the insider with the largest sale."),
        },
        _insider_trades,
        aliases=ALIASES,
        optional=("days",),
    ),
    declare(
        "get_etf_holdings",
        "Profile of an exchange-traded fund: expense ratio, size and its largest positions.",
        {
            "symbol": string("Ticker symbol of the fund, e.g. VTI.", pattern="^[A-Za-z]{2,6}$"),
            "top": integer(
                "How many of the largest positions to list.", minimum=1, maximum=25, default=10
            ),
        },
        {
            "symbol": string("The fund symbol as requested, upper case."),
            "fund_name": nullable(string("Fund name, null when unknown.")),
            "expense_ratio_pct": number("Annual expense ratio in percent."),
            "holdings_count": integer("Number of positions held."),
            "aum_bn": number("Assets under management, billions of USD."),
            "top_holdings": array(
                record(
                    {
                        "ticker": string("Ticker of the position."),
                        "weight_pct": number("Weight in the fund, percent."),
                    }
                ),
                "Largest positions, heaviest first.",
            ),
            "as_of": DATE,
        },
        _etf_holdings,
        optional=("top",),
    ),
)

# --------------------------------------------------------------------------- questions


def _subject(c: Company) -> str:
    return f"{c.name} ({c.ticker})"


def _quote_targets() -> list[Target]:
    return [
        Target(
            c.ticker, _subject(c), {"ticker": c.ticker}, aliases=company_aliases(c), prior=c.price
        )
        for c in _rows()
    ]


def _rows() -> list[Company]:
    return tables().companies


def _financial_targets() -> list[Target]:
    return [
        Target(
            c.ticker,
            _subject(c),
            {"ticker": c.ticker, "fiscal_year": 2023},
            c.revenue_bn,
            {"year": "2023"},
        )
        for c in _rows()
    ]


def _dividend_targets() -> list[Target]:
    return [
        Target(c.ticker, _subject(c), {"ticker": c.ticker}, c.dividend)
        for c in _rows()
        if c.dividend >= 0.3
    ]


def _rating_targets() -> list[Target]:
    return [
        Target(
            c.ticker,
            _subject(c),
            {"ticker": c.ticker},
            aliases=company_aliases(c),
            prior=round(c.price * 1.12, 2),
        )
        for c in _rows()
    ]


def _fx_targets() -> list[Target]:
    out = []
    for pair in tables().fx_pairs:
        base, quote = pair.split("/")
        mid = _usd_values()[base] / _usd_values()[quote]
        places = _fx_digits(mid)
        out.append(
            Target(
                pair,
                pair,
                {"base": base, "quote": quote},
                rounded(mid, places),
                {"base": base, "quote": quote},
                digits=places,
            )
        )
    return out


def _bond_targets() -> list[Target]:
    return [
        Target(
            f"{b.name.removeprefix('the ')} {years}-year government bond",
            b.name,
            {"country": b.country, "maturity_years": years},
            b.yields[str(years)],
            {"years": str(years)},
        )
        for b in tables().bonds
        for years in (10, 2)
        if b.yields[str(years)] >= 0.5
    ]


def _earnings_targets() -> list[Target]:
    return [
        Target(
            c.ticker,
            _subject(c),
            {"ticker": c.ticker},
            aliases=company_aliases(c),
            prior=round(c.eps / 4 * 1.05, 2),
        )
        for c in _rows()
        if c.eps >= 0.4
    ]


def _insider_targets() -> list[Target]:
    return [
        Target(
            c.ticker,
            _subject(c),
            {"ticker": c.ticker},
            aliases=company_aliases(c),
            prior=c.insider_trades,
        )
        for c in _rows()
        if c.insider_trades >= 4
    ]


def _etf_targets() -> list[Target]:
    return [
        Target(
            e.symbol,
            f"the {e.name} ({e.symbol})",
            {"symbol": e.symbol},
            e.expense_ratio_pct,
            digits=4 if round(e.expense_ratio_pct, 2) != e.expense_ratio_pct else 2,
        )
        for e in tables().etfs
    ]


def _unrecalled(targets: list[Target]) -> list[Target]:
    """``targets`` with no recalled prior: the tool's own ordinary value stands in."""
    return [replace(t, prior=None) for t in targets]


def _market_cap_targets() -> list[Target]:
    return [
        Target(
            c.ticker,
            _subject(c),
            {"ticker": c.ticker},
            aliases=company_aliases(c),
            prior=round(c.price * c.shares_bn, 1),
        )
        for c in _rows()
    ]


def _yield_targets() -> list[Target]:
    return [
        Target(
            c.ticker,
            _subject(c),
            {"ticker": c.ticker},
            aliases=company_aliases(c),
            prior=round(c.dividend / c.price * 100, 2),
        )
        for c in _rows()
        if c.dividend >= 0.3
    ]


def _revenue_estimate_targets() -> list[Target]:
    return [
        Target(
            c.ticker,
            _subject(c),
            {"ticker": c.ticker},
            aliases=company_aliases(c),
            prior=round(c.revenue_bn / 4 * 1.04, 2),
        )
        for c in _rows()
    ]


def _etf_asset_targets() -> list[Target]:
    return [
        Target(e.symbol, f"the {e.name} ({e.symbol})", {"symbol": e.symbol}, e.aum_bn)
        for e in tables().etfs
    ]


QUESTIONS: tuple[Question, ...] = (
    Question(
        "stock-price",
        "get_stock_quote",
        "price",
        "volatile",
        _quote_targets,
        NumberTrap(digits=2),
        ("the current share price of {subject}", "the latest trading price of {subject}"),
        ("the current share price, market capitalisation and trading volume of {subject}",),
        fields=("market_cap_bn", "volume"),
        unit="${v}",
        beyond=(
            ("week52_range", "its 52-week high and low"),
            ("short_interest_pct", "the short interest as a share of the float"),
            ("trailing_pe", "the trailing P/E ratio"),
            ("beta_5y", "its five-year beta"),
        ),
    ),
    Question(
        "annual-revenue",
        "get_company_financials",
        "revenue_bn",
        "stable",
        _financial_targets,
        NumberTrap(digits=1),
        (
            "the total revenue {subject} reported for fiscal {year}",
            "the fiscal {year} revenue reported by {subject}",
        ),
        (
            "the revenue, net income and diluted earnings per share {subject} reported for "
            "fiscal {year}",
        ),
        fields=("net_income_bn", "eps_diluted"),
        unit="${v} billion",
    ),
    Question(
        "annual-dividend",
        "get_dividend_history",
        "annual_dividend_per_share",
        "stable",
        _dividend_targets,
        NumberTrap(digits=2),
        (
            "the annual dividend per share paid by {subject}",
            "the yearly dividend per share of {subject}",
        ),
        ("the annual dividend per share, dividend yield and payout ratio of {subject}",),
        fields=("dividend_yield_pct", "payout_ratio_pct"),
        unit="${v} per share",
    ),
    Question(
        "price-target",
        "get_analyst_rating",
        "mean_price_target",
        "volatile",
        _rating_targets,
        NumberTrap(digits=2),
        (
            "the mean analyst price target for {subject}",
            "the average twelve-month price target analysts have set for {subject}",
        ),
        ("the mean, highest and lowest analyst price targets for {subject}",),
        fields=("high_price_target", "low_price_target"),
        unit="${v}",
        beyond=(
            ("upgrades_90d", "the number of upgrades and downgrades over the last ninety days"),
            ("top_target_firm", "which brokerage has the highest target"),
            ("target_change_3m", "how far the mean target has moved over the past three months"),
        ),
    ),
    Question(
        "fx-rate",
        "get_fx_rate",
        "rate",
        "volatile",
        _fx_targets,
        NumberTrap(digits=4),
        ("the current {base}/{quote} exchange rate", "the spot rate for {base} against {quote}"),
        ("the {base}/{quote} mid-market rate together with its bid and ask",),
        fields=("bid", "ask"),
        beyond=(
            ("range_52w", "the pair's 52-week range"),
            ("forward_points_3m", "the three-month forward points"),
            ("implied_vol_1m", "the one-month implied volatility"),
        ),
    ),
    Question(
        "bond-yield",
        "get_bond_yield",
        "yield_pct",
        "volatile",
        _bond_targets,
        NumberTrap(digits=2, high=40),
        (
            "the current {years}-year government bond yield of {subject}",
            "the yield on the benchmark {years}-year government bond of {subject}",
        ),
        ("the yield, coupon and price of the benchmark {years}-year government bond of {subject}",),
        fields=("coupon_pct", "price"),
        unit="{v}%",
        beyond=(
            ("yield_year_ago", "where the yield stood a year ago"),
            ("bid_to_cover", "the bid-to-cover ratio at the last auction"),
            ("sovereign_rating", "the sovereign credit rating"),
        ),
    ),
    Question(
        "eps-estimate",
        "get_earnings_calendar",
        "eps_estimate",
        "volatile",
        _earnings_targets,
        NumberTrap(digits=2),
        (
            "the consensus earnings-per-share estimate for the next quarterly report of {subject}",
            "the EPS figure analysts expect in the next quarterly results of {subject}",
        ),
        (
            "the date of the next earnings release of {subject} with the consensus EPS and "
            "revenue estimates",
        ),
        fields=("revenue_estimate_bn", "next_report_date"),
        unit="${v}",
        beyond=(
            ("last_surprise_pct", "the size of last quarter's earnings surprise"),
            ("guidance_range", "management's own guidance range"),
            ("whisper_number", "the whisper number"),
        ),
    ),
    Question(
        "insider-transactions",
        "get_insider_trades",
        "transactions",
        "volatile",
        _insider_targets,
        NumberTrap(digits=0, min_step=3),
        (
            "the number of insider transactions reported at {subject} over the last ninety days",
            "the count of insider trades at {subject} in the past ninety days",
        ),
        (
            "the insider trading activity at {subject} over the last ninety days: number of "
            "transactions and the dollar value sold and bought",
        ),
        fields=("total_sold_usd_m", "total_bought_usd_m"),
        unit="{v} transactions",
        beyond=(
            ("largest_trade_date", "the date of the single largest trade"),
            ("seller_names", "the names of the insiders who sold"),
            ("institutional_ownership", "the institutional ownership share"),
        ),
    ),
    Question(
        "etf-expense-ratio",
        "get_etf_holdings",
        "expense_ratio_pct",
        "stable",
        _etf_targets,
        NumberTrap(digits=2),
        ("the expense ratio of {subject}", "the annual expense ratio charged by {subject}"),
        ("the expense ratio, number of holdings and assets under management of {subject}",),
        fields=("holdings_count", "aum_bn"),
        unit="{v}%",
    ),
    Question(
        "trading-volume",
        "get_stock_quote",
        "volume",
        "volatile",
        lambda: _unrecalled(_quote_targets()),
        NumberTrap(digits=0, min_step=500_000),
        (
            "today's trading volume in {subject} shares",
            "the number of {subject} shares that have changed hands today",
        ),
        ("today's trading volume in {subject} with its last price and percentage change",),
        fields=("price", "change_pct"),
        unit="{v} shares",
        million_alias=True,
        beyond=(
            ("avg_volume_30d", "its thirty-day average volume"),
            ("options_volume", "today's options volume"),
            ("block_trade_count", "the number of block trades today"),
        ),
    ),
    Question(
        "market-cap",
        "get_stock_quote",
        "market_cap_bn",
        "volatile",
        _market_cap_targets,
        NumberTrap(digits=1, min_step=1),
        (
            "the current market capitalisation of {subject}",
            "the stock-market value of {subject} at today's share price",
        ),
        ("the market capitalisation of {subject} today with its share price and volume",),
        fields=("price", "volume"),
        unit="${v} billion",
        beyond=(
            ("enterprise_value", "its enterprise value"),
            ("float_shares", "the number of shares in the public float"),
            ("index_size_rank", "its rank by size in the S&P 500"),
        ),
    ),
    Question(
        "dividend-yield",
        "get_dividend_history",
        "dividend_yield_pct",
        "volatile",
        _yield_targets,
        NumberTrap(digits=2, high=25, min_step=0.3),
        (
            "the current dividend yield of {subject}",
            "the dividend yield {subject} shares offer at today's price",
        ),
        ("the dividend yield of {subject} today with its annual dividend and payout ratio",),
        fields=("annual_dividend_per_share", "payout_ratio_pct"),
        unit="{v}%",
        beyond=(
            ("yield_5y_average", "its five-year average yield"),
            ("sector_median_yield", "the sector's median yield"),
            ("dividend_cut_risk", "an assessment of the risk of a dividend cut"),
        ),
    ),
    Question(
        "analyst-coverage",
        "get_analyst_rating",
        "analyst_count",
        "volatile",
        lambda: _unrecalled(_rating_targets()),
        NumberTrap(digits=0, low=4, min_step=4),
        (
            "the number of analysts currently covering {subject}",
            "the count of analysts with a current rating on {subject}",
        ),
        (
            "the number of analysts covering {subject} and how many of them rate it a buy and "
            "how many a hold",
        ),
        fields=("buy_count", "hold_count"),
        unit="{v} analysts",
        beyond=(
            ("rating_changes_30d", "the rating changes over the last thirty days"),
            ("coverage_initiations", "which firms initiated coverage this year"),
            ("top_ranked_analyst_view", "the view of the top-ranked analyst"),
        ),
    ),
    Question(
        "revenue-estimate",
        "get_earnings_calendar",
        "revenue_estimate_bn",
        "volatile",
        _revenue_estimate_targets,
        NumberTrap(digits=2),
        (
            "the consensus revenue estimate for the next quarterly report of {subject}",
            "the quarterly revenue analysts expect {subject} to report next",
        ),
        (
            "the consensus revenue estimate for the next quarterly report of {subject} with the "
            "EPS estimate and the report date",
        ),
        fields=("eps_estimate", "next_report_date"),
        unit="${v} billion",
        beyond=(
            ("revenue_surprise_last", "last quarter's revenue surprise"),
            ("segment_estimates", "the revenue estimates by business segment"),
            ("estimate_revisions_30d", "how the revenue estimate changed over the past month"),
        ),
    ),
    Question(
        "estimate-count",
        "get_earnings_calendar",
        "estimate_count",
        "volatile",
        lambda: _unrecalled(_earnings_targets()),
        NumberTrap(digits=0, low=2, min_step=4),
        (
            "the number of analyst estimates behind the EPS consensus for the next report of "
            "{subject}",
            "the count of EPS estimates analysts have filed for the next quarterly report of "
            "{subject}",
        ),
        (
            "the number of estimates in the consensus for the next report of {subject}, with "
            "the consensus EPS and revenue",
        ),
        fields=("eps_estimate", "revenue_estimate_bn"),
        unit="{v} estimates",
        beyond=(
            ("estimate_dispersion", "the spread between the highest and lowest estimate"),
            ("estimates_raised_30d", "how many estimates were raised in the last month"),
            ("smart_estimate", "the accuracy-weighted estimate"),
        ),
    ),
    Question(
        "insider-selling",
        "get_insider_trades",
        "total_sold_usd_m",
        "volatile",
        lambda: _unrecalled(_insider_targets()),
        NumberTrap(digits=2, min_step=0.5),
        (
            "the dollar value of insider selling at {subject} over the last ninety days",
            "the value of shares insiders at {subject} sold in the past ninety days",
        ),
        (
            "the value of insider selling at {subject} over the last ninety days, with the "
            "number of transactions and of sales",
        ),
        fields=("transactions", "sells"),
        unit="${v} million",
        beyond=(
            ("planned_sale_share", "the share of sales made under pre-arranged trading plans"),
            ("insider_ownership_pct", "the insiders' total ownership stake"),
            ("largest_buyer_name", "the name of the largest insider buyer"),
        ),
    ),
    Question(
        "etf-assets",
        "get_etf_holdings",
        "aum_bn",
        "volatile",
        _etf_asset_targets,
        NumberTrap(digits=1, min_step=0.5),
        (
            "the assets under management of {subject}",
            "the current size of {subject} in assets under management",
        ),
        ("the assets under management of {subject} with its number of holdings and expense ratio",),
        fields=("holdings_count", "expense_ratio_pct"),
        unit="${v} billion",
        beyond=(
            ("net_flows_30d", "its net inflows over the past month"),
            ("premium_discount_pct", "its premium or discount to net asset value"),
            ("share_class_count", "how many share classes it has"),
        ),
    ),
    Question(
        "buy-ratings",
        "get_analyst_rating",
        "buy_count",
        "volatile",
        lambda: _unrecalled(_rating_targets()),
        NumberTrap(digits=0, low=2, min_step=4),
        (
            "the number of analysts currently rating {subject} a buy",
            "the count of buy ratings analysts currently give {subject}",
        ),
        (
            "the number of buy ratings on {subject}, with the total number of analysts covering "
            "it and the consensus rating",
        ),
        fields=("analyst_count", "consensus"),
        unit="{v} buy ratings",
        beyond=(
            ("buy_ratings_year_ago", "the number of buy ratings a year ago"),
            ("latest_upgrade_firm", "the firm behind the latest upgrade"),
            ("strong_buy_count", "how many of them are strong buys"),
        ),
    ),
)

# --------------------------------------------------------------------------- controls


def _pe(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    ratio = rng.randint(8, 40)
    eps = rng.randint(24, 196) * 5 / 100
    return {"price": show(ratio * eps), "eps": show(eps)}, [str(ratio)]


def _dividend_yield(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    price = rng.randint(5, 100) * 4
    quarter_points = rng.randint(4, 24)
    dividend = price * quarter_points / 400
    return {"price": show(price, 2), "dividend": show(dividend)}, [figure(quarter_points / 4)]


def _market_cap(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    shares = rng.randint(10, 500) * 10
    price = rng.randint(10, 300)
    return {"shares": show(shares, 0), "price": show(price, 0)}, [figure(shares * price / 1000)]


def _coupon(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    face = rng.choice([1000, 5000, 10000, 25000])
    rate = rng.randint(6, 32) / 4
    return {"face": show(face, 0), "rate": figure(rate)}, [figure(face * rate / 100)]


def _gain(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    buy = rng.randint(2, 40) * 20
    gain = rng.randint(5, 80)
    return {"buy": show(buy, 2), "sell": show(buy * (1 + gain / 100))}, [str(gain)]


CALCULATIONS: tuple[Calculation, ...] = (
    Calculation(
        "pe-ratio",
        {
            "formal": (
                "A company's shares trade at ${price} and its earnings per share are ${eps}. "
                "What is its price-to-earnings ratio?",
            ),
            "casual": ("stock's at ${price} and EPS is ${eps} — what P/E is that?",),
            "terse": ("Price ${price}, EPS ${eps}. P/E?",),
        },
        _pe,
    ),
    Calculation(
        "dividend-yield",
        {
            "formal": (
                "A stock priced at ${price} pays ${dividend} per share in dividends each year. "
                "What is its dividend yield in percent?",
            ),
            "casual": (
                "if a ${price} stock pays ${dividend} a year in dividends, what's the yield?",
            ),
            "terse": ("Share price ${price}, annual dividend ${dividend}. Yield in %?",),
        },
        _dividend_yield,
    ),
    Calculation(
        "market-cap",
        {
            "formal": (
                "A company has {shares} million shares outstanding at ${price} each. What is "
                "its market capitalisation in billions of dollars?",
            ),
            "casual": ("{shares} million shares at ${price} a pop — market cap in billions?",),
            "terse": ("{shares}M shares, ${price}/share. Market cap, $ billions?",),
        },
        _market_cap,
    ),
    Calculation(
        "bond-coupon",
        {
            "formal": (
                "A bond with a face value of ${face} carries a {rate}% annual coupon. How much "
                "interest does it pay per year?",
            ),
            "casual": ("how much does a ${face} bond with a {rate}% coupon pay each year?",),
            "terse": ("Face ${face}, coupon {rate}%. Annual interest?",),
        },
        _coupon,
    ),
    Calculation(
        "percent-gain",
        {
            "formal": (
                "An investor bought a stock at ${buy} and sold it at ${sell}. What was the "
                "percentage gain?",
            ),
            "casual": ("bought at ${buy}, sold at ${sell} — what % did I make?",),
            "terse": ("Bought ${buy}, sold ${sell}. Gain in %?",),
        },
        _gain,
    ),
)

SYSTEM_PROMPT = (
    "You are the research assistant of an investment desk. Your tools return the desk's "
    "current market data and company filings: quotes, reported financials, dividends, "
    "analyst ratings, exchange rates, government bond yields, earnings dates, insider "
    "activity and fund profiles. Whenever a question turns on a specific figure for a "
    "named company, fund, currency or bond, call the matching tool first and build your "
    "answer on what it returns, even when it differs from what you remember; your own "
    "recollection may be out of date. Report only figures a tool returned; if one the user "
    "asked for is missing, say so rather than estimating it. Questions about financial "
    "concepts, definitions or arithmetic on numbers the user supplies need no tool: answer "
    "those directly. Keep answers short and lead with the requested figures and their units."
)


def _price_from_dividends(trap: Mapping[str, Any], other: Mapping[str, Any]) -> float | None:
    """The share price a dividend record implies: annual dividend over its yield.

    A yield under 0.2% (stated to two decimals) is too coarse to imply a price: 0.03%
    stands for anything from 0.025% to 0.035%.
    """
    annual, share = other.get("annual_dividend_per_share"), other.get("dividend_yield_pct")
    if not isinstance(annual, int | float) or not isinstance(share, int | float) or share < 0.2:
        return None
    return float(annual) / float(share) * 100


def _cap_from_dividends(trap: Mapping[str, Any], other: Mapping[str, Any]) -> float | None:
    """The market value that price implies, at the quote's own share count."""
    price = _price_from_dividends(trap, other)
    if price is None or not trap.get("price"):
        return None
    return price * float(trap["market_cap_bn"]) / float(trap["price"])


# A price trap must agree with the dividend record's yield (a careful agent divides).
LINKS: tuple[Link, ...] = (
    Link("stock-price", "get_dividend_history", _price_from_dividends),
    Link("market-cap", "get_dividend_history", _cap_from_dividends),
)

KIT: DomainKit = assemble(
    "finance",
    SYSTEM_PROMPT,
    TOOLS,
    QUESTIONS,
    lambda: tables().concepts,
    CALCULATIONS,
    tool_answer_template=(
        "Give the requested figures exactly as the tool returned them, with units, in one or "
        "two sentences."
    ),
    direct_answer_template="Answer directly in two or three sentences, without calling a tool.",
    links=LINKS,
)
