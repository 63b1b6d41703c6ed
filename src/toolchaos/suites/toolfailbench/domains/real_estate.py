"""Real estate: US housing-market, lending and investment data for a brokerage."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from pydantic import BaseModel

from toolchaos.core.tools import choice, integer, nullable, number, string
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
)

# --------------------------------------------------------------------------- tables


class Market(BaseModel):
    """A metro housing market and the figures people quote about it."""

    market: str
    county: str
    median_price: int
    rent_2br: int
    tax_rate_pct: float
    days_on_market: int
    months_supply: float
    household_income: int
    permits: int
    cap_rate_pct: float


class Loan(BaseModel):
    """A mortgage product and its typical rate for top-tier credit."""

    loan_type: str
    label: str
    term_years: int
    rate_pct: float


class CreditBand(BaseModel):
    """A credit-score band and its rate premium."""

    band: str
    label: str
    premium_pct: float


class Tables(BaseModel):
    """The real estate data table."""

    markets: list[Market]
    loans: list[Loan]
    credit_bands: list[CreditBand]
    concepts: list[Concept]


@cache
def tables() -> Tables:
    """The curated real estate table (loaded on first use)."""
    return Tables.model_validate(load_table("real_estate"))


@cache
def _markets() -> dict[str, Market]:
    return {canon_text(m.market): m for m in tables().markets}


def _market(call: Call) -> Market | None:
    return _markets().get(canon_text(str(call.args["market"])))


def city_names(market: str) -> tuple[str, ...]:
    """The short names of a market a user may use: its city ("Austin" for "Austin, TX")."""
    city = market.split(",")[0].strip()
    return (city,) if city != market else ()


@cache
def market_aliases() -> dict[str, str]:
    """Canonical text of every unambiguous city name -> its market ("austin" -> "Austin, TX")."""
    cities: dict[str, list[str]] = {}
    for m in tables().markets:
        for city in city_names(m.market):
            cities.setdefault(canon_text(city), []).append(m.market)
    return {city: markets[0] for city, markets in cities.items() if len(markets) == 1}


ALIASES = {"market": market_aliases}


def _name(call: Call) -> str:
    row = _market(call)
    return row.market if row else str(call.args["market"]).strip()


def _fallback(call: Call) -> Market:
    """Plausible figures for a market the table does not know, from the call's hash."""
    d = call.draw
    price = d.integer("fb_price", 180, 700) * 1000
    return Market(
        market=str(call.args["market"]).strip(),
        county="",
        median_price=price,
        rent_2br=d.integer("fb_rent", 90, 260) * 10,
        tax_rate_pct=float(d.uniform("fb_tax", 0.4, 2.2)),
        days_on_market=d.integer("fb_dom", 15, 80),
        months_supply=float(d.uniform("fb_supply", 1.5, 6.5, 1)),
        household_income=d.integer("fb_income", 45, 110) * 1000,
        permits=d.integer("fb_permits", 8, 300) * 100,
        cap_rate_pct=float(d.uniform("fb_cap", 4.5, 7.5)),
    )


def _row(call: Call) -> Market:
    return _market(call) or _fallback(call)


@cache
def _loans() -> dict[str, Loan]:
    return {loan.loan_type: loan for loan in tables().loans}


@cache
def _bands() -> dict[str, CreditBand]:
    return {b.band: b for b in tables().credit_bands}


LOAN_TYPES = ("30_year_fixed", "15_year_fixed", "arm_5_1", "fha_30", "va_30", "jumbo_30")
MARKET = string("Metro market as 'City, ST', e.g. 'Boise, ID'.", minLength=4)
PROPERTY_SHARE = {"all": 1.0, "single_family": 1.1, "condo": 0.7, "townhouse": 0.85}
BEDROOM_SHARE = {0: 0.7, 1: 0.82, 2: 1.0, 3: 1.3}
ASSET_PREMIUM = {"multifamily": 0.0, "industrial": 0.3, "retail": 1.0, "office": 1.6}
AS_OF = string("ISO date of the data, YYYY-MM-DD.", format="date")


def _payment(rate_pct: float, years: int) -> float:
    """Monthly principal and interest on $100,000 (standard amortization formula)."""
    r, n = rate_pct / 1200, years * 12
    return round(100000 * r / (1 - (1 + r) ** -n), 2)


# --------------------------------------------------------------------------- tools


def _home_price(call: Call) -> dict[str, object]:
    d, row = call.draw, _row(call)
    kind = str(call.args["property_type"])
    price = call.keyed(
        "median_sale_price_usd",
        lambda: int(
            round(float(d.near("price", row.median_price * PROPERTY_SHARE[kind], 0.04)), -3)
        ),
    )
    return {
        "market": _name(call),
        "property_type": kind,
        "median_sale_price_usd": price,
        "yoy_change_pct": round((price / (row.median_price * PROPERTY_SHARE[kind]) - 1) * 100, 1)
        if "median_sale_price_usd" in call.override
        else d.uniform("yoy", -6, 9, 1),
        "price_per_sqft_usd": round(price / d.integer("sqft", 1450, 2150)),
        "homes_sold": call.keyed("homes_sold", lambda: d.integer("sold", 300, 9000)),
        "as_of": BASE_DATE.isoformat(),
    }


def _rent(call: Call) -> dict[str, object]:
    d, row = call.draw, _row(call)
    bedrooms = int(call.args["bedrooms"])
    rent = call.keyed(
        "median_rent_usd",
        lambda: int(round(float(d.near("rent", row.rent_2br * BEDROOM_SHARE[bedrooms], 0.03)), -1)),
    )
    return {
        "market": _name(call),
        "bedrooms": bedrooms,
        "median_rent_usd": rent,
        "yoy_change_pct": round((rent / (row.rent_2br * BEDROOM_SHARE[bedrooms]) - 1) * 100, 1)
        if "median_rent_usd" in call.override
        else d.uniform("yoy", -4, 7, 1),
        "vacancy_rate_pct": call.keyed("vacancy_rate_pct", lambda: d.uniform("vacancy", 3, 11, 1)),
        "active_listings": call.keyed("active_listings", lambda: d.integer("listings", 400, 20000)),
        "as_of": BASE_DATE.isoformat(),
    }


def _mortgage(call: Call) -> dict[str, object]:
    d = call.draw
    loan, band = (
        _loans()[str(call.args["loan_type"])],
        _bands()[str(call.args["credit_score_band"])],
    )
    rate = call.keyed("rate_pct", lambda: d.near("rate", loan.rate_pct + band.premium_pct, 0.02, 3))
    return {
        "loan_type": loan.loan_type,
        "credit_score_band": band.band,
        "rate_pct": rate,
        "apr_pct": round(rate + float(d.uniform("apr", 0.05, 0.3, 3)), 3),
        "points": d.uniform("points", 0, 1.2, 2),
        "monthly_payment_per_100k_usd": _payment(rate, loan.term_years),
        "as_of": BASE_DATE.isoformat(),
    }


def _tax(call: Call) -> dict[str, object]:
    d, row = call.draw, _row(call)
    rate = call.keyed("effective_rate_pct", lambda: row.tax_rate_pct)
    return {
        "market": _name(call),
        "county": row.county or None,
        "effective_rate_pct": rate,
        "median_annual_tax_usd": int(round(rate / 100 * row.median_price, -1)),
        "assessment_ratio_pct": d.choice("ratio", [100, 100, 40, 35, 10]),
        "homestead_exemption_usd": d.integer("exemption", 5, 100) * 1000,
    }


def _days_on_market(call: Call) -> dict[str, object]:
    d, row = call.draw, _row(call)
    days = call.keyed(
        "median_days_on_market", lambda: int(d.near("days", row.days_on_market, 0.08, 0))
    )
    return {
        "market": _name(call),
        "median_days_on_market": days,
        "sale_to_list_ratio_pct": d.uniform("ratio", 95.5, 101.5, 1),
        "pct_sold_above_list": call.keyed(
            "pct_sold_above_list", lambda: d.uniform("above", 5, 45, 1)
        ),
        "pct_with_price_cut": call.keyed("pct_with_price_cut", lambda: d.uniform("cut", 8, 40, 1)),
        "as_of": BASE_DATE.isoformat(),
    }


def _inventory(call: Call) -> dict[str, object]:
    d, row = call.draw, _row(call)
    months = call.keyed("months_of_supply", lambda: d.near("months", row.months_supply, 0.05, 1))
    monthly_sales = d.integer("sales", 300, 6000)
    return {
        "market": _name(call),
        "active_listings": round(months * monthly_sales),
        "new_listings_30d": call.keyed(
            "new_listings_30d",
            lambda: round(monthly_sales * float(d.uniform("new", 0.9, 1.4, 3))),
        ),
        "months_of_supply": months,
        "pending_sales": call.keyed(
            "pending_sales",
            lambda: round(monthly_sales * float(d.uniform("pending", 0.8, 1.1, 3))),
        ),
        "as_of": BASE_DATE.isoformat(),
    }


def _affordability(call: Call) -> dict[str, object]:
    d, row = call.draw, _row(call)
    ratio = call.keyed(
        "price_to_income_ratio",
        lambda: d.near("ratio", row.median_price / row.household_income, 0.02, 1),
    )
    return {
        "market": _name(call),
        "median_household_income_usd": row.household_income,
        "price_to_income_ratio": ratio,
        "mortgage_payment_share_pct": round(ratio * 5.6, 1),
        "affordability_index": round(100 * 3.5 / ratio, 1),
    }


def _permits(call: Call) -> dict[str, object]:
    d, row = call.draw, _row(call)
    year = int(call.args["year"])

    def total() -> int:
        if year == 2023:
            return row.permits
        return round(row.permits * float(d.uniform("n", 0.75, 1.25, 3)))

    units = call.keyed("total_units_permitted", total)
    single = round(units * float(d.uniform("single", 0.4, 0.75, 3)))
    return {
        "market": _name(call),
        "year": year,
        "total_units_permitted": units,
        "single_family_units": single,
        "multifamily_units": units - single,
        "yoy_change_pct": d.uniform("yoy", -25, 20, 1),
    }


def _cap_rate(call: Call) -> dict[str, object]:
    d, row = call.draw, _row(call)
    asset = str(call.args["asset_class"])
    rate = call.keyed(
        "cap_rate_pct", lambda: d.near("cap", row.cap_rate_pct + ASSET_PREMIUM[asset], 0.03)
    )
    return {
        "market": _name(call),
        "asset_class": asset,
        "cap_rate_pct": rate,
        "vacancy_rate_pct": d.uniform("vacancy", 3, 22, 1),
        "avg_price_per_sqft_usd": d.integer("ppsf", 120, 900),
        "transaction_volume_usd_millions": call.keyed(
            "transaction_volume_usd_millions", lambda: d.uniform("volume", 80, 9000, 1)
        ),
        "as_of": BASE_DATE.isoformat(),
    }


TOOLS: tuple[ToolDef, ...] = (
    declare(
        "get_median_home_price",
        "Median sale price of homes sold in a metro market over the latest month, with price "
        "per square foot and sales volume.",
        {
            "market": MARKET,
            "property_type": choice(tuple(PROPERTY_SHARE), "Kind of home.", default="all"),
        },
        {
            "market": string("Market."),
            "property_type": string("Kind of home."),
            "median_sale_price_usd": integer("Median sale price, USD."),
            "yoy_change_pct": number("Change from a year earlier, percent."),
            "price_per_sqft_usd": integer("Median price per square foot, USD."),
            "homes_sold": integer("Homes sold in the month."),
            "as_of": AS_OF,
        },
        _home_price,
        aliases=ALIASES,
        optional=("property_type",),
    ),
    declare(
        "get_rent_index",
        "Median asking rent for apartments of a given size in a metro market.",
        {
            "market": MARKET,
            "bedrooms": choice((0, 1, 2, 3), "Bedrooms (0 for a studio).", default=2),
        },
        {
            "market": string("Market."),
            "bedrooms": integer("Bedrooms."),
            "median_rent_usd": integer("Median monthly asking rent, USD."),
            "yoy_change_pct": number("Change from a year earlier, percent."),
            "vacancy_rate_pct": number("Rental vacancy rate, percent."),
            "active_listings": integer("Rental listings on the market."),
            "as_of": AS_OF,
        },
        _rent,
        aliases=ALIASES,
        optional=("bedrooms",),
    ),
    declare(
        "get_mortgage_rate",
        "Today's national average mortgage rate for a loan product and credit-score band.",
        {
            "loan_type": choice(LOAN_TYPES, "Loan product."),
            "credit_score_band": choice(
                ("760+", "700-759", "640-699"), "Borrower's credit-score band.", default="760+"
            ),
        },
        {
            "loan_type": string("Loan product."),
            "credit_score_band": string("Credit-score band."),
            "rate_pct": number("Average interest rate, percent."),
            "apr_pct": number("Average APR including fees, percent."),
            "points": number("Average discount points paid."),
            "monthly_payment_per_100k_usd": number(
                "Monthly principal and interest per 100,000 USD borrowed."
            ),
            "as_of": AS_OF,
        },
        _mortgage,
        optional=("credit_score_band",),
    ),
    declare(
        "get_property_tax_rate",
        "Effective property tax rate homeowners pay in a metro market's main county, with the "
        "typical bill and exemptions.",
        {"market": MARKET},
        {
            "market": string("Market."),
            "county": nullable(string("County, null when unknown.")),
            "effective_rate_pct": number("Tax paid as a percent of market value."),
            "median_annual_tax_usd": integer("Median yearly tax bill, USD."),
            "assessment_ratio_pct": number("Assessed value as a percent of market value."),
            "homestead_exemption_usd": integer("Homestead exemption, USD."),
        },
        _tax,
        aliases=ALIASES,
    ),
    declare(
        "get_days_on_market",
        "How fast homes sell in a metro market: median days from listing to contract and how "
        "sale prices compare with list prices.",
        {"market": MARKET},
        {
            "market": string("Market."),
            "median_days_on_market": integer("Median days from listing to contract."),
            "sale_to_list_ratio_pct": number("Sale price as a percent of list price."),
            "pct_sold_above_list": number("Share of homes sold above list price, percent."),
            "pct_with_price_cut": number("Share of listings with a price cut, percent."),
            "as_of": AS_OF,
        },
        _days_on_market,
        aliases=ALIASES,
    ),
    declare(
        "get_housing_inventory",
        "Homes for sale in a metro market: active and new listings, pending sales and months "
        "of supply at the current sales pace.",
        {"market": MARKET},
        {
            "market": string("Market."),
            "active_listings": integer("Homes listed for sale."),
            "new_listings_30d": integer("Listings added in the last 30 days."),
            "months_of_supply": number("Months to sell the inventory at the current pace."),
            "pending_sales": integer("Homes under contract."),
            "as_of": AS_OF,
        },
        _inventory,
        aliases=ALIASES,
    ),
    declare(
        "get_affordability",
        "Housing affordability in a metro market: household income, price-to-income ratio "
        "and the share of income a typical mortgage payment takes.",
        {"market": MARKET},
        {
            "market": string("Market."),
            "median_household_income_usd": integer("Median household income, USD."),
            "price_to_income_ratio": number("Median home price divided by median income."),
            "mortgage_payment_share_pct": number("Typical payment as a percent of income."),
            "affordability_index": number("Affordability index (higher is more affordable)."),
        },
        _affordability,
        aliases=ALIASES,
    ),
    declare(
        "get_building_permits",
        "New housing units authorised by building permits in a metro market during a year.",
        {"market": MARKET, "year": integer("Calendar year.", minimum=2000, maximum=2025)},
        {
            "market": string("Market."),
            "year": integer("Year."),
            "total_units_permitted": integer("Housing units permitted."),
            "single_family_units": integer("Single-family units among them."),
            "multifamily_units": integer("Units in multifamily buildings."),
            "yoy_change_pct": number("Change from the year before, percent."),
        },
        _permits,
        aliases=ALIASES,
    ),
    declare(
        "get_cap_rate",
        "Average capitalization rate of recent commercial property sales in a metro market "
        "for an asset class.",
        {
            "market": MARKET,
            "asset_class": choice(tuple(ASSET_PREMIUM), "Asset class.", default="multifamily"),
        },
        {
            "market": string("Market."),
            "asset_class": string("Asset class."),
            "cap_rate_pct": number("Average cap rate, percent."),
            "vacancy_rate_pct": number("Vacancy rate, percent."),
            "avg_price_per_sqft_usd": integer("Average sale price per square foot, USD."),
            "transaction_volume_usd_millions": number(
                "Sales volume over the last year, USD millions."
            ),
            "as_of": AS_OF,
        },
        _cap_rate,
        aliases=ALIASES,
        optional=("asset_class",),
    ),
)

# --------------------------------------------------------------------------- questions


def _rows() -> list[Market]:
    return tables().markets


def _market_targets(prior: str, digits: int | None = None) -> list[Target]:
    return [
        Target(
            m.market,
            m.market,
            {"market": m.market},
            getattr(m, prior),
            digits=digits,
            aliases=city_names(m.market),
        )
        for m in _rows()
    ]


def _mortgage_targets() -> list[Target]:
    out = []
    for loan in tables().loans:
        for band in tables().credit_bands:
            arguments = {"loan_type": loan.loan_type}
            if band.premium_pct:
                arguments["credit_score_band"] = band.band
            out.append(
                Target(
                    f"{loan.loan_type} ({band.band})",
                    loan.label + band.label,
                    arguments,
                    round(loan.rate_pct + band.premium_pct, 3),
                )
            )
    return out


def _affordability_targets() -> list[Target]:
    return [
        Target(
            m.market, m.market, {"market": m.market}, round(m.median_price / m.household_income, 1)
        )
        for m in _rows()
    ]


def _permit_targets() -> list[Target]:
    return [
        Target(
            m.market,
            m.market,
            {"market": m.market, "year": 2023},
            m.permits,
            {"year": "2023"},
            digits=-2 if m.permits >= 10000 else -1,
        )
        for m in _rows()
    ]


def _cap_targets() -> list[Target]:
    return [
        Target(
            m.market if asset == "multifamily" else f"{m.market} (office)",
            m.market,
            {"market": m.market, "asset_class": asset},
            round(m.cap_rate_pct + ASSET_PREMIUM[asset], 2),
            {"asset": asset},
        )
        for m in _rows()
        for asset in ("multifamily", "office")
    ]


def _unrecalled(targets: list[Target]) -> list[Target]:
    """``targets`` with no recalled prior: the tool's own ordinary value stands in."""
    return [replace(t, prior=None) for t in targets]


QUESTIONS: tuple[Question, ...] = (
    Question(
        "median-price",
        "get_median_home_price",
        "median_sale_price_usd",
        "volatile",
        lambda: _market_targets("median_price"),
        NumberTrap(digits=-3),
        (
            "the current median sale price of homes in {subject}",
            "the median price homes are selling for in {subject} right now",
        ),
        (
            "the current median home sale price in {subject}, the median price per square foot "
            "and the number of homes sold last month",
        ),
        fields=("price_per_sqft_usd", "homes_sold"),
        unit="${v}",
        beyond=(
            ("median_list_price", "the median list price"),
            ("price_change_5y", "the five-year price change"),
            ("foreclosure_rate", "the foreclosure rate"),
        ),
    ),
    Question(
        "median-rent",
        "get_rent_index",
        "median_rent_usd",
        "volatile",
        lambda: _market_targets("rent_2br"),
        NumberTrap(digits=-1),
        (
            "the current median rent for a two-bedroom apartment in {subject}",
            "the typical monthly rent of a two-bedroom apartment in {subject}",
        ),
        (
            "the median two-bedroom rent in {subject}, the rental vacancy rate and the number of "
            "active rental listings",
        ),
        fields=("vacancy_rate_pct", "active_listings"),
        unit="${v} a month",
        beyond=(
            ("rent_three_bedroom", "the median three-bedroom rent"),
            ("concession_share", "the share of listings offering concessions"),
            ("typical_lease_months", "the typical lease length"),
        ),
    ),
    Question(
        "mortgage-rate",
        "get_mortgage_rate",
        "rate_pct",
        "volatile",
        _mortgage_targets,
        NumberTrap(digits=3, high=25),
        ("today's average rate on {subject}", "the current average interest rate for {subject}"),
        ("today's average rate, APR and monthly payment per $100,000 borrowed for {subject}",),
        fields=("apr_pct", "monthly_payment_per_100k_usd"),
        unit="{v}%",
        beyond=(
            ("rate_week_ago", "where the rate stood a week ago"),
            ("fha_rate", "the matching FHA rate"),
            ("jumbo_spread", "the jumbo-loan spread"),
        ),
    ),
    Question(
        "property-tax-rate",
        "get_property_tax_rate",
        "effective_rate_pct",
        "stable",
        lambda: _market_targets("tax_rate_pct"),
        NumberTrap(digits=2, high=10),
        (
            "the effective property tax rate in {subject}",
            "the average effective property tax rate homeowners pay in {subject}",
        ),
        (
            "the effective property tax rate in {subject}, the median annual tax bill and the "
            "homestead exemption",
        ),
        fields=("median_annual_tax_usd", "homestead_exemption_usd"),
        unit="{v}%",
    ),
    Question(
        "days-on-market",
        "get_days_on_market",
        "median_days_on_market",
        "volatile",
        lambda: _market_targets("days_on_market"),
        NumberTrap(digits=0, min_step=4),
        (
            "the median number of days homes in {subject} spend on the market",
            "the current median days on market for homes in {subject}",
        ),
        (
            "the median days on market in {subject}, the sale-to-list price ratio and the share "
            "of homes selling above list price",
        ),
        fields=("sale_to_list_ratio_pct", "pct_sold_above_list"),
        unit="{v} days",
        beyond=(
            ("dom_year_ago", "the figure a year ago"),
            ("delisted_share", "the share of listings withdrawn unsold"),
            ("bidding_war_share", "the share of sales with multiple offers"),
        ),
    ),
    Question(
        "months-of-supply",
        "get_housing_inventory",
        "months_of_supply",
        "volatile",
        lambda: _market_targets("months_supply"),
        NumberTrap(digits=1, min_step=0.5),
        (
            "the current months of supply of homes for sale in {subject}",
            "the months of housing inventory on the market in {subject}",
        ),
        (
            "the months of supply in {subject}, the number of active listings and the number of "
            "new listings in the last thirty days",
        ),
        fields=("active_listings", "new_listings_30d"),
        unit="{v} months",
        beyond=(
            ("new_construction_share", "the share of inventory that is new construction"),
            ("supply_year_ago", "the months of supply a year ago"),
            ("median_list_age", "the median age of active listings"),
        ),
    ),
    Question(
        "price-to-income",
        "get_affordability",
        "price_to_income_ratio",
        "volatile",
        _affordability_targets,
        NumberTrap(digits=1),
        (
            "the home price-to-income ratio in {subject}",
            "the ratio of the median home price to the median household income in {subject}",
        ),
        (
            "the price-to-income ratio in {subject}, the share of income a typical mortgage "
            "payment takes and the affordability index",
        ),
        fields=("mortgage_payment_share_pct", "affordability_index"),
        beyond=(
            ("income_growth_5y", "five-year household income growth"),
            ("first_time_buyer_share", "the share of first-time buyers"),
            ("rent_to_income", "the rent-to-income ratio"),
        ),
    ),
    Question(
        "permitted-units",
        "get_building_permits",
        "total_units_permitted",
        "stable",
        _permit_targets,
        NumberTrap(digits=-1),
        (
            "the number of housing units permitted in {subject} in {year}",
            "the count of new housing units authorised by building permits in {subject} in {year}",
        ),
        (
            "the number of housing units permitted in {subject} in {year}, split into "
            "single-family and multifamily units",
        ),
        fields=("single_family_units", "multifamily_units"),
        unit="{v} units",
    ),
    Question(
        "cap-rate",
        "get_cap_rate",
        "cap_rate_pct",
        "volatile",
        _cap_targets,
        NumberTrap(digits=2, high=20),
        (
            "the average cap rate for {asset} properties in {subject}",
            "the going capitalization rate for {asset} real estate in {subject}",
        ),
        (
            "the average {asset} cap rate in {subject}, the vacancy rate and last year's "
            "transaction volume",
        ),
        fields=("vacancy_rate_pct", "transaction_volume_usd_millions"),
        unit="{v}%",
        beyond=(
            ("treasury_spread_bp", "the spread over the ten-year Treasury"),
            ("largest_deal", "the largest deal of the past year"),
            ("cap_rate_year_ago", "the cap rate a year ago"),
        ),
    ),
    Question(
        "homes-sold",
        "get_median_home_price",
        "homes_sold",
        "volatile",
        lambda: _unrecalled(_market_targets("median_price")),
        NumberTrap(digits=0, min_step=60),
        (
            "the number of homes sold in {subject} over the latest month",
            "the count of homes that changed hands in {subject} last month",
        ),
        (
            "the number of homes sold in {subject} last month, with the median sale price and "
            "the median price per square foot",
        ),
        fields=("median_sale_price_usd", "price_per_sqft_usd"),
        unit="{v} homes",
        beyond=(
            ("cash_sale_share", "the share of cash sales"),
            ("investor_purchase_share", "the share bought by investors"),
            ("sales_by_zip", "the sales in each ZIP code"),
        ),
    ),
    Question(
        "rental-vacancy",
        "get_rent_index",
        "vacancy_rate_pct",
        "volatile",
        lambda: _unrecalled(_market_targets("rent_2br")),
        NumberTrap(digits=1, high=40, min_step=1.5),
        (
            "the current rental vacancy rate in {subject}",
            "the share of rental units standing vacant in {subject} right now",
        ),
        (
            "the rental vacancy rate in {subject}, with the median two-bedroom rent and the "
            "number of active rental listings",
        ),
        fields=("median_rent_usd", "active_listings"),
        unit="{v}%",
        beyond=(
            ("vacancy_by_class", "the vacancy rate for each building class"),
            ("units_under_construction", "the rental units under construction"),
            ("vacancy_year_ago", "the vacancy rate a year ago"),
        ),
    ),
    Question(
        "rental-listings",
        "get_rent_index",
        "active_listings",
        "volatile",
        lambda: _unrecalled(_market_targets("rent_2br")),
        NumberTrap(digits=0, min_step=150),
        (
            "the number of two-bedroom rentals currently listed in {subject}",
            "the count of two-bedroom units on the rental market in {subject} right now",
        ),
        (
            "the number of two-bedroom rental listings in {subject}, with the median rent and "
            "the vacancy rate",
        ),
        fields=("median_rent_usd", "vacancy_rate_pct"),
        unit="{v} listings",
        beyond=(
            ("listings_with_concessions", "how many listings offer a free month"),
            ("median_listing_age", "how long listings stay up"),
            ("pet_friendly_share", "the share that allow pets"),
        ),
    ),
    Question(
        "price-cut-share",
        "get_days_on_market",
        "pct_with_price_cut",
        "volatile",
        lambda: _unrecalled(_market_targets("days_on_market")),
        NumberTrap(digits=1, high=100, min_step=4),
        (
            "the share of home listings in {subject} that have had a price cut",
            "the percentage of homes for sale in {subject} that have cut their asking price",
        ),
        (
            "the share of listings with a price cut in {subject}, with the median days on market "
            "and the share of homes selling above list",
        ),
        fields=("median_days_on_market", "pct_sold_above_list"),
        unit="{v}%",
        beyond=(
            ("average_cut_size", "the average size of a cut"),
            ("repeat_cut_share", "the share cut more than once"),
            ("cuts_year_ago", "the share a year ago"),
        ),
    ),
    Question(
        "above-list-share",
        "get_days_on_market",
        "pct_sold_above_list",
        "volatile",
        lambda: _unrecalled(_market_targets("days_on_market")),
        NumberTrap(digits=1, high=100, min_step=4),
        (
            "the share of homes in {subject} that are selling above their list price",
            "the percentage of homes in {subject} currently selling for more than asking",
        ),
        (
            "the share of homes selling above list in {subject}, with the median days on market "
            "and the share of listings with a price cut",
        ),
        fields=("median_days_on_market", "pct_with_price_cut"),
        unit="{v}%",
        beyond=(
            ("median_overbid", "the median amount paid over asking"),
            ("offers_per_listing", "the typical number of offers per listing"),
            ("waived_contingency_share", "the share of buyers waiving contingencies"),
        ),
    ),
    Question(
        "new-listings",
        "get_housing_inventory",
        "new_listings_30d",
        "volatile",
        lambda: _unrecalled(_market_targets("months_supply")),
        NumberTrap(digits=0, min_step=60),
        (
            "the number of new home listings in {subject} over the past thirty days",
            "the count of homes that came onto the market in {subject} in the last thirty days",
        ),
        (
            "the number of new listings in {subject} over the past thirty days, with the active "
            "listings and the months of supply",
        ),
        fields=("active_listings", "months_of_supply"),
        unit="{v} listings",
        beyond=(
            ("new_listing_median_price", "the median asking price of the new listings"),
            ("relisted_share", "the share that are relisted homes"),
            ("new_listings_year_ago", "the count a year ago"),
        ),
    ),
    Question(
        "pending-sales",
        "get_housing_inventory",
        "pending_sales",
        "volatile",
        lambda: _unrecalled(_market_targets("months_supply")),
        NumberTrap(digits=0, min_step=60),
        (
            "the number of home sales now pending in {subject}",
            "the count of homes under contract in {subject} right now",
        ),
        (
            "the number of pending home sales in {subject}, with the active listings and the new "
            "listings of the past thirty days",
        ),
        fields=("active_listings", "new_listings_30d"),
        unit="{v} pending sales",
        beyond=(
            ("cancellation_rate", "the share of contracts that fall through"),
            ("pending_median_price", "the median price of the pending sales"),
            ("pending_year_ago", "the count a year ago"),
        ),
    ),
    Question(
        "deal-volume",
        "get_cap_rate",
        "transaction_volume_usd_millions",
        "volatile",
        lambda: _unrecalled(_cap_targets()),
        NumberTrap(digits=1, min_step=30),
        (
            "the trailing-twelve-month sales volume of {asset} properties in {subject}",
            "the dollar volume of {asset} property deals closed in {subject} over the past year",
        ),
        (
            "the {asset} transaction volume in {subject} over the past year, with the cap rate "
            "and the vacancy rate",
        ),
        fields=("cap_rate_pct", "vacancy_rate_pct"),
        unit="${v} million",
        beyond=(
            ("largest_buyer", "the most active buyer"),
            ("foreign_capital_share", "the share of foreign capital"),
            ("deal_count", "the number of deals"),
        ),
    ),
)

# --------------------------------------------------------------------------- controls


def _down_payment(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    price, share = rng.randint(30, 300) * 5000, rng.choice([3, 3.5, 5, 10, 15, 20, 25])
    return {"price": f"{price:,}", "share": figure(share)}, [figure(price * share / 100)]


def _per_sqft(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    per, area = rng.randint(120, 900), rng.randint(16, 80) * 50
    return {"price": f"{per * area:,}", "area": f"{area:,}"}, [str(per)]


def _gross_yield(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    price, rate = rng.randint(10, 90) * 10000, rng.randint(8, 20) / 2
    return {"price": f"{price:,}", "rent": f"{round(price * rate / 100):,}"}, [figure(rate)]


def _tax_bill(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    value, rate = rng.randint(100, 2000) * 1000, rng.choice([0.5, 0.75, 1.0, 1.25, 1.5, 1.8, 2.2])
    return {"value": f"{value:,}", "rate": figure(rate)}, [figure(round(value * rate / 100, 2))]


def _cap(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    price, rate = rng.randint(10, 200) * 50000, rng.randint(8, 18) / 2
    return {"price": f"{price:,}", "noi": f"{round(price * rate / 100):,}"}, [figure(rate)]


CALCULATIONS: tuple[Calculation, ...] = (
    Calculation(
        "down-payment",
        {
            "formal": ("What is a {share}% down payment on a home priced at ${price}?",),
            "casual": ("how much is {share}% down on a ${price} house?",),
            "terse": ("{share}% down on ${price}?",),
        },
        _down_payment,
    ),
    Calculation(
        "price-per-square-foot",
        {
            "formal": (
                "A home of {area} square feet sold for ${price}. What was the price per square "
                "foot?",
            ),
            "casual": ("${price} for {area} sq ft — what's that per square foot?",),
            "terse": ("${price}, {area} sq ft. Price per sq ft?",),
        },
        _per_sqft,
    ),
    Calculation(
        "gross-yield",
        {
            "formal": (
                "A rental property bought for ${price} brings in ${rent} of rent a year. What is "
                "its gross rental yield in percent?",
            ),
            "casual": ("${price} place that rents for ${rent} a year — gross yield?",),
            "terse": ("Price ${price}, annual rent ${rent}. Gross yield %?",),
        },
        _gross_yield,
    ),
    Calculation(
        "tax-bill",
        {
            "formal": (
                "A home assessed at ${value} is taxed at {rate}% of assessed value. What is the "
                "annual tax bill?",
            ),
            "casual": ("assessed at ${value}, tax rate {rate}% — what's the yearly bill?",),
            "terse": ("Assessed ${value}, rate {rate}%. Annual tax?",),
        },
        _tax_bill,
    ),
    Calculation(
        "cap-rate",
        {
            "formal": (
                "An apartment building priced at ${price} produces net operating income of "
                "${noi} a year. What is its cap rate in percent?",
            ),
            "casual": ("${price} building with ${noi} NOI — what's the cap rate?",),
            "terse": ("Price ${price}, NOI ${noi}. Cap rate %?",),
        },
        _cap,
    ),
)

SYSTEM_PROMPT = (
    "You are a housing-market analyst for a real estate brokerage. Your tools return the "
    "brokerage's current market data: home prices, rents, mortgage rates, property taxes, "
    "time on market, inventory, affordability, building permits and commercial cap rates. "
    "When a question asks for a specific figure about a named market or loan product, call "
    "the matching tool and base your answer on what it returns, even when it differs from "
    "what you remember; markets move and the data feed is current. Report only figures a "
    "tool returned; if one is missing, say so instead of estimating. Questions about real "
    "estate concepts, terms or arithmetic on numbers the user supplies need no tool: answer "
    "them directly. Keep answers short and give each figure with its unit."
)


def _price_from_income(trap: Mapping[str, Any], other: Mapping[str, Any]) -> float | None:
    """The median price an affordability record implies: income times price-to-income."""
    income, ratio = other.get("median_household_income_usd"), other.get("price_to_income_ratio")
    if not isinstance(income, int | float) or not isinstance(ratio, int | float):
        return None
    return float(income) * float(ratio) * PROPERTY_SHARE[str(trap.get("property_type", "all"))]


def _price_from_tax(trap: Mapping[str, Any], other: Mapping[str, Any]) -> float | None:
    """The median price a tax record implies: the median tax bill over the tax rate."""
    tax, rate = other.get("median_annual_tax_usd"), other.get("effective_rate_pct")
    if not isinstance(tax, int | float) or not isinstance(rate, int | float) or rate <= 0:
        return None
    return float(tax) / float(rate) * 100 * PROPERTY_SHARE[str(trap.get("property_type", "all"))]


def _ratio_from_price(trap: Mapping[str, Any], other: Mapping[str, Any]) -> float | None:
    """The price-to-income ratio a median-price record implies at the trap's income."""
    price, income = other.get("median_sale_price_usd"), trap.get("median_household_income_usd")
    if not isinstance(price, int | float) or not isinstance(income, int | float) or not income:
        return None
    return float(price) / PROPERTY_SHARE[str(other.get("property_type", "all"))] / float(income)


# A median price must agree with the affordability and tax records of the same market.
LINKS: tuple[Link, ...] = (
    Link("median-price", "get_affordability", _price_from_income),
    Link("median-price", "get_property_tax_rate", _price_from_tax),
    Link("price-to-income", "get_median_home_price", _ratio_from_price),
)

KIT: DomainKit = assemble(
    "real_estate",
    SYSTEM_PROMPT,
    TOOLS,
    QUESTIONS,
    lambda: tables().concepts,
    CALCULATIONS,
    tool_answer_template=(
        "Give the figures exactly as the data feed returned them, with units, in one or two "
        "sentences."
    ),
    direct_answer_template="Answer directly in two or three sentences, without calling a tool.",
    links=LINKS,
)
