"""Law: US case law, federal statutes and state court rules for a litigation team."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from datetime import date, timedelta
from functools import cache
from typing import Any

from pydantic import BaseModel

from toolchaos.core.tools import boolean, choice, integer, nullable, number, string
from toolchaos.suites.toolfailbench._kit import (
    BASE_DATE,
    Calculation,
    Call,
    Concept,
    DomainKit,
    LabelTrap,
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


class Case(BaseModel):
    """A landmark US Supreme Court decision."""

    name: str
    citation: str
    year: int
    vote: str
    author: str
    citing_cases: int


class Statute(BaseModel):
    """A federal criminal statute and its penalties for an individual."""

    citation: str
    title: str
    max_prison_years: int
    max_fine_usd: int
    enacted_year: int


class Jurisdiction(BaseModel):
    """A state (or the federal system) and its court rules as commonly cited."""

    code: str
    name: str
    state: str | None
    code_name: str
    limitations: dict[str, int] | None
    small_claims_usd: int | None
    min_wage: float
    appeal_days: int
    bar_pass_pct: float | None
    civil_fee_usd: int
    appeal_fee_usd: int | None


class Tables(BaseModel):
    """The law data table."""

    cases: list[Case]
    statutes: list[Statute]
    jurisdictions: list[Jurisdiction]
    concepts: list[Concept]


@cache
def tables() -> Tables:
    """The curated law table (loaded on first use)."""
    return Tables.model_validate(load_table("law"))


@cache
def _cases() -> dict[str, Case]:
    return {canon_text(c.name): c for c in tables().cases}


@cache
def _statutes() -> dict[str, Statute]:
    return {canon_text(s.citation): s for s in tables().statutes}


@cache
def _jurisdictions() -> dict[str, Jurisdiction]:
    return {j.code: j for j in tables().jurisdictions}


def _where(call: Call) -> Jurisdiction | None:
    return _jurisdictions().get(str(call.args["jurisdiction"]))


STATES = (
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN",
    "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH",
    "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT",
    "VT", "VA", "WA", "WV", "WI", "WY",
)  # fmt: skip
CLAIMS = {
    "personal_injury": "personal injury",
    "written_contract": "breach of written contract",
    "oral_contract": "breach of oral contract",
    "property_damage": "property damage",
    "fraud": "fraud",
    "defamation": "defamation",
}
FILINGS = {
    "civil_complaint": "a civil complaint",
    "notice_of_appeal": "a notice of appeal",
    "small_claims": "a small claims case",
    "divorce_petition": "a divorce petition",
}
VOTES = ("9-0", "8-1", "7-2", "6-3", "5-4")
STATE = choice(STATES, "Two-letter code of the US state (DC for the District of Columbia).")
ANY_COURT = choice(
    ("US", *STATES),
    "Two-letter code of the US state (DC for the District of Columbia), or US for the "
    "federal courts.",
)
CASE = string("Case name as usually cited, e.g. 'Katz v. United States'.", minLength=3)
DATE = string("ISO date, YYYY-MM-DD.", format="date")


def _majority(vote: str) -> int:
    return int(vote.split("-")[0])


def _vote_traps(prior: str) -> list[str]:
    return [v for v in VOTES if abs(_majority(v) - _majority(prior)) >= 2]


def _vote_aliases(vote: str) -> list[str]:
    won, lost = vote.split("-")
    return [f"{won} to {lost}"]


def _felony_class(years: int) -> str:
    """The federal offense class of a maximum term (18 U.S.C. § 3559)."""
    if years >= 25:
        return "Class B felony"
    if years >= 10:
        return "Class C felony"
    if years >= 5:
        return "Class D felony"
    return "Class E felony" if years > 1 else "Class A misdemeanor"


# --------------------------------------------------------------------------- tools


def _case_details(call: Call) -> dict[str, object]:
    d = call.draw
    row = _cases().get(canon_text(str(call.args["case_name"])))
    year = row.year if row else d.integer("year", 1900, 2023)
    vote = call.keyed("vote", lambda: row.vote if row else d.choice("vote", VOTES))
    volume = d.integer("volume", 150, 600)
    argued = date.fromisoformat(d.day_in("argued", year)) - timedelta(days=200)
    return {
        "case_name": row.name if row else str(call.args["case_name"]).strip(),
        "citation": row.citation if row else f"{volume} U.S. {d.integer('page', 1, 900)}",
        "court": "Supreme Court of the United States",
        "decided_year": year,
        "argued_date": argued.isoformat(),
        "vote": vote,
        "majority_author": row.author if row else d.choice("author", ["Black", "Warren"]),
        "disposition": d.choice("disposition", ["reversed", "affirmed", "vacated and remanded"]),
        "docket_number": f"No. {d.integer('docket', 2, 999)}",
    }


# Short names lawyers use for a case.
SHORT_NAMES: dict[str, tuple[str, ...]] = {
    "Marbury v. Madison": ("Marbury",),
    "McCulloch v. Maryland": ("McCulloch",),
    "Gibbons v. Ogden": ("Gibbons",),
    "Dred Scott v. Sandford": ("Dred Scott",),
    "Plessy v. Ferguson": ("Plessy",),
    "Lochner v. New York": ("Lochner",),
    "Schenck v. United States": ("Schenck",),
    "Korematsu v. United States": ("Korematsu",),
    "Brown v. Board of Education": ("Brown v. Board", "Brown"),
    "Mapp v. Ohio": ("Mapp",),
    "Gideon v. Wainwright": ("Gideon",),
    "New York Times Co. v. Sullivan": ("NYT v. Sullivan", "New York Times v. Sullivan"),
    "Griswold v. Connecticut": ("Griswold",),
    "Miranda v. Arizona": ("Miranda",),
    "Loving v. Virginia": ("Loving",),
    "Katz v. United States": ("Katz",),
    "Terry v. Ohio": ("Terry",),
    "Tinker v. Des Moines Independent Community School District": ("Tinker v. Des Moines",),
    "Roe v. Wade": ("Roe",),
    "United States v. Nixon": ("U.S. v. Nixon",),
    "Chevron U.S.A. Inc. v. Natural Resources Defense Council": ("Chevron v. NRDC", "Chevron"),
    "District of Columbia v. Heller": ("D.C. v. Heller", "Heller"),
    "Citizens United v. Federal Election Commission": ("Citizens United", "Citizens United v. FEC"),
    "Shelby County v. Holder": ("Shelby County",),
    "Obergefell v. Hodges": ("Obergefell",),
    "Dobbs v. Jackson Women's Health Organization": ("Dobbs",),
}


@cache
def case_aliases() -> dict[str, str]:
    """Canonical text of every short case name -> the full name ("heller" -> "District ...")."""
    names = {canon_text(c.name) for c in tables().cases}
    return {
        canon_text(alias): name
        for name, aliases in SHORT_NAMES.items()
        for alias in aliases
        if canon_text(alias) not in names
    }


ALIASES = {"case_name": case_aliases}


def _citing(call: Call) -> dict[str, object]:
    d = call.draw
    row = _cases().get(canon_text(str(call.args["case_name"])))
    count = call.keyed(
        "citing_cases",
        lambda: (
            round(row.citing_cases * float(d.uniform("n", 0.9, 1.1, 3)), -1)
            if row
            else d.integer("n", 5, 900)
        ),
    )
    return {
        "case_name": row.name if row else str(call.args["case_name"]).strip(),
        "citing_cases": int(count),
        "citing_secondary_sources": call.keyed(
            "citing_secondary_sources",
            lambda: round(count * float(d.uniform("secondary", 0.3, 1.5, 3))),
        ),
        "negative_treatments": call.keyed(
            "negative_treatments",
            lambda: max(1, round(count * float(d.uniform("negative", 0.001, 0.02, 4)))),
        ),
        "citing_briefs": call.keyed(
            "citing_briefs", lambda: round(count * float(d.uniform("briefs", 0.2, 1.2, 3)))
        ),
        "most_recent_citation": d.day("recent", -30, -1),
        "treatment_signal": d.choice("signal", ["positive", "distinguished", "caution"]),
    }


def _statute(call: Call) -> dict[str, object]:
    d = call.draw
    asked = str(call.args["citation"]).strip()
    row = _statutes().get(canon_text(asked))
    years = call.keyed(
        "max_prison_years",
        lambda: row.max_prison_years if row else d.choice("years", [1, 3, 5, 10, 15, 20]),
    )
    enacted = row.enacted_year if row else d.integer("enacted", 1948, 2015)
    return {
        "citation": row.citation if row else asked,
        "short_title": row.title if row else None,
        "max_prison_years": years,
        "max_fine_usd": row.max_fine_usd if row else 250000,
        "offense_class": _felony_class(years),
        "enacted_year": enacted,
        "last_amended_year": d.integer("amended", max(enacted + 1, 1994), 2022),
        "prosecutions_last_year": call.keyed(
            "prosecutions_last_year", lambda: d.integer("prosecutions", 40, 9000)
        ),
        # sentences imposed stay well under the maximum, so a trap (at most 2.2x) does too
        "mean_sentence_months": call.keyed(
            "mean_sentence_months",
            lambda: round(years * 12 * float(d.uniform("sentence", 0.1, 0.4, 3)), 1),
        ),
    }


def _limitation(call: Call) -> dict[str, object]:
    d, row = call.draw, _where(call)
    claim = str(call.args["claim_type"])
    known = row.limitations.get(claim) if row and row.limitations else None
    years = call.keyed("limitation_years", lambda: known or d.choice("years", [2, 3, 4, 5, 6]))
    return {
        "jurisdiction": str(call.args["jurisdiction"]),
        "claim_type": claim,
        "limitation_years": years,
        "starts_from": "date of injury" if claim != "written_contract" else "date of breach",
        "discovery_rule": d.flag("discovery", 0.6),
        "tolled_for_minors": d.flag("minors", 0.8),
        "code": row.code_name if row else f"{call.args['jurisdiction']} Code",
        "section": f"{d.integer('section', 100, 999)}.{d.integer('subsection', 1, 99)}",
    }


def _small_claims(call: Call) -> dict[str, object]:
    d, row = call.draw, _where(call)
    limit = call.keyed(
        "max_claim_usd",
        lambda: (row.small_claims_usd if row else None) or d.integer("limit", 25, 150) * 100,
    )
    return {
        "jurisdiction": str(call.args["jurisdiction"]),
        "max_claim_usd": limit,
        "business_max_claim_usd": int(round(limit * d.choice("business", [0.5, 0.6, 0.75]), -2)),
        "filing_fee_usd": call.keyed("filing_fee_usd", lambda: d.integer("fee", 30, 120)),
        "attorneys_allowed": d.flag("attorneys", 0.5),
        "appeal_window_days": d.choice("appeal", [10, 14, 20, 30]),
        "median_days_to_hearing": call.keyed(
            "median_days_to_hearing", lambda: d.integer("wait", 30, 120)
        ),
        "pending_cases": call.keyed("pending_cases", lambda: d.integer("pending", 2000, 90000)),
        "as_of": BASE_DATE.isoformat(),
    }


def _minimum_wage(call: Call) -> dict[str, object]:
    d, row = call.draw, _where(call)
    year = int(call.args["year"])

    def hourly() -> float:
        base = row.min_wage if row else float(d.uniform("base", 7.25, 15.5))
        if year == 2024 or base == 7.25:
            return base
        return max(7.25, round(base * 1.035 ** (year - 2024), 2))

    wage = call.keyed("hourly_usd", hourly)
    return {
        "jurisdiction": str(call.args["jurisdiction"]),
        "year": year,
        "hourly_usd": wage,
        "tipped_hourly_usd": round(wage * d.choice("tipped", [0.3, 0.5, 0.6, 0.7]), 2),
        "indexed_to_inflation": d.flag("indexed", 0.4),
        "next_change_date": d.day_in("next", year + 1),
    }


def _appeal_deadline(call: Call) -> dict[str, object]:
    d, row = call.draw, _where(call)
    kind = str(call.args["case_type"])
    federal = call.args["jurisdiction"] == "US"

    def days() -> int:
        if kind == "civil":
            return row.appeal_days if row else d.choice("days", [30, 30, 30, 45, 60])
        return 14 if federal else d.choice("days", [10, 14, 30])

    window = call.keyed("notice_of_appeal_days", days)
    rule = "Fed. R. App. P. 4" if federal else f"{call.args['jurisdiction']} R. App. P. "
    return {
        "jurisdiction": str(call.args["jurisdiction"]),
        "case_type": kind,
        "notice_of_appeal_days": window,
        "trigger": "entry of judgment",
        "extension_available": True,
        "max_extension_days": d.choice("extension", [14, 15, 21, 30]),
        "rule_reference": rule if federal else rule + str(d.integer("rule", 2, 9)),
        "pending_appeals": call.keyed("pending_appeals", lambda: d.integer("pending", 800, 40000)),
        "median_months_to_decision": call.keyed(
            "median_months_to_decision", lambda: d.uniform("months", 4, 20, 1)
        ),
        "reversal_rate_pct": call.keyed(
            "reversal_rate_pct", lambda: d.uniform("reversed", 5, 20, 1)
        ),
        "as_of": BASE_DATE.isoformat(),
    }


def _bar_exam(call: Call) -> dict[str, object]:
    d, row = call.draw, _where(call)
    rate = call.keyed(
        "overall_pass_rate_pct",
        lambda: (
            d.near("rate", row.bar_pass_pct, 0.04, 1)
            if row and row.bar_pass_pct
            else d.uniform("rate", 45, 80, 1)
        ),
    )
    return {
        "jurisdiction": str(call.args["jurisdiction"]),
        "year": int(call.args["year"]),
        "sitting": str(call.args["sitting"]),
        "overall_pass_rate_pct": rate,
        "first_time_pass_rate_pct": min(99.0, round(rate + float(d.uniform("first", 6, 14)), 1)),
        "repeater_pass_rate_pct": round(rate * float(d.uniform("repeat", 0.35, 0.6, 3)), 1),
        "takers": d.integer("takers", 400, 9000),
    }


def _court_fees(call: Call) -> dict[str, object]:
    d, row = call.draw, _where(call)
    filing = str(call.args["filing_type"])

    def fee() -> int:
        if row and filing == "civil_complaint":
            return row.civil_fee_usd
        if row and filing == "notice_of_appeal" and row.appeal_fee_usd:
            return row.appeal_fee_usd
        low, high = {"small_claims": (30, 120), "divorce_petition": (150, 450)}.get(
            filing, (150, 500)
        )
        return d.integer("fee", low, high)

    return {
        "jurisdiction": str(call.args["jurisdiction"]),
        "filing_type": filing,
        "fee_usd": call.keyed("fee_usd", fee),
        "e_filing_fee_usd": call.keyed("e_filing_fee_usd", lambda: d.uniform("efile", 2, 25)),
        "jury_demand_fee_usd": call.keyed(
            "jury_demand_fee_usd", lambda: d.integer("jury", 50, 450)
        ),
        "fee_waiver_available": True,
        # a fee that just changed took effect recently
        "effective_date": d.day("effective", -150, -20)
        if call.override
        else d.day("effective", -900, -30),
    }


TOOLS: tuple[ToolDef, ...] = (
    declare(
        "get_case_details",
        "Reporter data for a US Supreme Court decision: citation, dates, vote and the author "
        "of the majority opinion.",
        {"case_name": CASE},
        {
            "case_name": string("Case name."),
            "citation": string("United States Reports citation."),
            "court": string("Deciding court."),
            "decided_year": integer("Year of decision."),
            "argued_date": DATE,
            "vote": string("Vote of the justices, majority-dissent."),
            "majority_author": string("Justice who wrote for the majority."),
            "disposition": string("What the Court did with the judgment below."),
            "docket_number": string("Docket number."),
        },
        _case_details,
        aliases=ALIASES,
    ),
    declare(
        "get_citing_references",
        "How often later authorities cite a US Supreme Court decision, with negative treatment.",
        {"case_name": CASE},
        {
            "case_name": string("Case name."),
            "citing_cases": integer("Later court decisions citing it."),
            "citing_secondary_sources": integer(
                "Law reviews, treatises and other sources citing it."
            ),
            "negative_treatments": integer("Citing decisions that limited or criticised it."),
            "citing_briefs": integer("Court briefs on file that cite the case."),
            "most_recent_citation": DATE,
            "treatment_signal": string("Overall treatment signal."),
        },
        _citing,
        aliases=ALIASES,
    ),
    declare(
        "lookup_statute",
        "Penalties under a federal criminal statute for an individual offender.",
        {
            "citation": string(
                "Code citation, title and section, e.g. '18 U.S.C. § 2314'.", minLength=5
            )
        },
        {
            "citation": string("Citation."),
            "short_title": nullable(string("What the section covers.")),
            "max_prison_years": integer("Maximum term of imprisonment in years."),
            "max_fine_usd": integer("Maximum fine for an individual, USD."),
            "offense_class": string("Offense class of the maximum term."),
            "enacted_year": integer("Year the section was enacted."),
            "last_amended_year": integer("Year of the latest amendment."),
            "prosecutions_last_year": integer(
                "Federal defendants charged under the section in the last fiscal year."
            ),
            "mean_sentence_months": number(
                "Mean prison sentence imposed under the section in the last fiscal year, months."
            ),
        },
        _statute,
    ),
    declare(
        "get_limitation_period",
        "Statute of limitations for a civil claim in a US state.",
        {
            "jurisdiction": STATE,
            "claim_type": choice(tuple(CLAIMS), "Kind of civil claim."),
        },
        {
            "jurisdiction": string("State code."),
            "claim_type": string("Kind of claim."),
            "limitation_years": number("Years allowed to file suit."),
            "starts_from": string("Event that starts the period."),
            "discovery_rule": boolean(
                "Whether the period starts only once the harm is discovered."
            ),
            "tolled_for_minors": boolean(
                "Whether the period pauses while the plaintiff is a minor."
            ),
            "code": string("Code that sets the period."),
            "section": string("Section of that code."),
        },
        _limitation,
    ),
    declare(
        "get_small_claims_limit",
        "Small claims court rules of a US state: dollar limits, filing fee and appeal window.",
        {"jurisdiction": STATE},
        {
            "jurisdiction": string("State code."),
            "max_claim_usd": integer("Largest claim an individual may bring, USD."),
            "business_max_claim_usd": integer("Largest claim a business may bring, USD."),
            "filing_fee_usd": integer("Typical filing fee, USD."),
            "attorneys_allowed": boolean("Whether lawyers may represent parties."),
            "appeal_window_days": integer("Days to appeal a judgment."),
            "median_days_to_hearing": integer("Median days from filing to hearing."),
            "pending_cases": integer("Small-claims cases awaiting a hearing."),
            "as_of": DATE,
        },
        _small_claims,
    ),
    declare(
        "get_minimum_wage",
        "General hourly minimum wage in force in a jurisdiction during a year (US for the "
        "federal minimum).",
        {
            "jurisdiction": ANY_COURT,
            "year": integer("Calendar year.", minimum=2010, maximum=2026, default=2024),
        },
        {
            "jurisdiction": string("Jurisdiction code."),
            "year": integer("Year."),
            "hourly_usd": number("Minimum hourly wage, USD."),
            "tipped_hourly_usd": number("Minimum cash wage for tipped employees, USD."),
            "indexed_to_inflation": boolean("Whether the wage follows an inflation index."),
            "next_change_date": DATE,
        },
        _minimum_wage,
        optional=("year",),
    ),
    declare(
        "get_appeal_deadline",
        "Time allowed to file a notice of appeal from a final judgment of a trial court.",
        {
            "jurisdiction": ANY_COURT,
            "case_type": choice(("civil", "criminal"), "Kind of case.", default="civil"),
        },
        {
            "jurisdiction": string("Jurisdiction code."),
            "case_type": string("Kind of case."),
            "notice_of_appeal_days": integer("Days to file the notice of appeal."),
            "trigger": string("Event that starts the clock."),
            "extension_available": boolean("Whether the court may extend the deadline."),
            "max_extension_days": integer("Longest extension the rules allow, in days."),
            "rule_reference": string("Rule that sets the deadline."),
            "pending_appeals": integer("Appeals of this type pending in the appellate court."),
            "median_months_to_decision": number(
                "Median months from notice of appeal to decision over the last year."
            ),
            "reversal_rate_pct": number(
                "Share of appeals decided on the merits last year that reversed, percent."
            ),
            "as_of": DATE,
        },
        _appeal_deadline,
        optional=("case_type",),
    ),
    declare(
        "get_bar_exam_results",
        "Pass rates of one administration of a state's bar examination.",
        {
            "jurisdiction": STATE,
            "year": integer("Year of the exam.", minimum=2010, maximum=2025),
            "sitting": choice(("february", "july"), "Administration.", default="july"),
        },
        {
            "jurisdiction": string("State code."),
            "year": integer("Year."),
            "sitting": string("Administration."),
            "overall_pass_rate_pct": number("Share of all takers who passed, percent."),
            "first_time_pass_rate_pct": number("Pass rate of first-time takers, percent."),
            "repeater_pass_rate_pct": number("Pass rate of repeat takers, percent."),
            "takers": integer("Number of takers."),
        },
        _bar_exam,
        optional=("sitting",),
    ),
    declare(
        "get_court_fees",
        "Court filing fee for a kind of filing in a jurisdiction's courts (US for the federal "
        "courts), in US dollars.",
        {
            "jurisdiction": ANY_COURT,
            "filing_type": choice(tuple(FILINGS), "Kind of filing."),
        },
        {
            "jurisdiction": string("Jurisdiction code."),
            "filing_type": string("Kind of filing."),
            "fee_usd": number("Filing fee, USD."),
            "e_filing_fee_usd": number("Surcharge for filing electronically, USD."),
            "jury_demand_fee_usd": integer("Current fee to demand a jury trial, USD."),
            "fee_waiver_available": boolean("Whether a fee waiver can be requested."),
            "effective_date": DATE,
        },
        _court_fees,
    ),
)

# --------------------------------------------------------------------------- questions


def _states() -> list[Jurisdiction]:
    return [j for j in tables().jurisdictions if j.state]


def _vote_targets() -> list[Target]:
    return [Target(c.name, c.name, {"case_name": c.name}, c.vote) for c in tables().cases]


def _citing_targets() -> list[Target]:
    return [
        Target(
            c.name,
            c.name,
            {"case_name": c.name},
            c.citing_cases,
            digits=-1 if c.citing_cases >= 1000 else 0,
            aliases=SHORT_NAMES.get(c.name, ()),
        )
        for c in tables().cases
    ]


def _case_count_targets() -> list[Target]:
    return [
        Target(c.name, c.name, {"case_name": c.name}, None, aliases=SHORT_NAMES.get(c.name, ()))
        for c in tables().cases
    ]


def _statute_targets() -> list[Target]:
    return [
        Target(
            s.citation, f"{s.citation} ({s.title})", {"citation": s.citation}, s.max_prison_years
        )
        for s in tables().statutes
    ]


def _limitation_targets() -> list[Target]:
    return [
        Target(
            f"{j.state} ({CLAIMS[claim]})",
            str(j.state),
            {"jurisdiction": j.code, "claim_type": claim},
            years,
            {"claim": CLAIMS[claim]},
        )
        for j in _states()
        for claim, years in (j.limitations or {}).items()
        if claim in ("personal_injury", "written_contract", "oral_contract", "property_damage")
    ]


def _small_claims_targets() -> list[Target]:
    return [
        Target(str(j.state), str(j.state), {"jurisdiction": j.code}, j.small_claims_usd, digits=-2)
        for j in _states()
        if j.small_claims_usd
    ]


def _wage_targets() -> list[Target]:
    return [
        Target(
            str(j.state),
            str(j.state),
            {"jurisdiction": j.code, "year": 2024},
            j.min_wage,
            {"year": "2024"},
        )
        for j in _states()
    ]


def _appeal_targets() -> list[Target]:
    return [
        Target(
            j.state or "federal courts",
            f"{j.state} state court" if j.state else j.name,
            {"jurisdiction": j.code},
            j.appeal_days,
        )
        for j in tables().jurisdictions
    ]


def _bar_targets() -> list[Target]:
    return [
        Target(
            str(j.state),
            str(j.state),
            {"jurisdiction": j.code, "year": 2023},
            j.bar_pass_pct,
            {"year": "2023"},
        )
        for j in _states()
        if j.bar_pass_pct
    ]


def _fee_targets() -> list[Target]:
    out = []
    for j in tables().jurisdictions:
        where = f"state court in {j.state}" if j.state else j.name
        entity = j.state or "federal courts"
        out.append(
            Target(
                entity,
                where,
                {"jurisdiction": j.code, "filing_type": "civil_complaint"},
                j.civil_fee_usd,
                {"filing": FILINGS["civil_complaint"]},
            )
        )
        if j.appeal_fee_usd:
            out.append(
                Target(
                    f"{entity} (appeal)",
                    where,
                    {"jurisdiction": j.code, "filing_type": "notice_of_appeal"},
                    j.appeal_fee_usd,
                    {"filing": FILINGS["notice_of_appeal"]},
                )
            )
    return out


def _unrecalled(targets: list[Target]) -> list[Target]:
    """``targets`` with no recalled prior: the tool's own ordinary value stands in."""
    return [replace(t, prior=None) for t in targets]


def _max_years(target: Target) -> float:
    return next(s.max_prison_years for s in tables().statutes if s.citation == target.entity)


def _appellate_targets() -> list[Target]:
    # "the Texas appellate courts", "the federal appellate courts"
    return [
        replace(t, subject=j.state or "federal", prior=None)
        for t, j in zip(_appeal_targets(), tables().jurisdictions, strict=True)
    ]


def _jury_fee_targets() -> list[Target]:
    # one fee per court: the civil-complaint row of each jurisdiction
    return [
        replace(t, prior=None)
        for t in _fee_targets()
        if t.arguments["filing_type"] == "civil_complaint"
    ]


QUESTIONS: tuple[Question, ...] = (
    Question(
        "case-vote",
        "get_case_details",
        "vote",
        "stable",
        _vote_targets,
        LabelTrap(_vote_traps, _vote_aliases),
        ("the vote split in {subject}", "the final vote of the Supreme Court in {subject}"),
        (
            "the citation, the vote split, the author of the majority opinion and the date of "
            "oral argument in {subject}",
        ),
        fields=("argued_date",),
        anchor="{u}",
    ),
    Question(
        "citing-cases",
        "get_citing_references",
        "citing_cases",
        "volatile",
        _citing_targets,
        NumberTrap(digits=0, min_step=5),
        (
            "the number of later court decisions that cite {subject}",
            "the citing-case count for {subject}",
        ),
        (
            "the number of court decisions citing {subject}, the number of secondary sources "
            "citing it and how many decisions treated it negatively",
        ),
        fields=("citing_secondary_sources", "negative_treatments"),
        unit="{v} citing decisions",
        beyond=(
            ("citations_by_circuit", "a breakdown of the citing decisions by federal circuit"),
            ("most_quoted_passage", "the passage later courts quote most often"),
            (
                "citations_last_12m",
                "how many citing decisions were added in the last twelve months",
            ),
        ),
    ),
    Question(
        "statutory-maximum",
        "lookup_statute",
        "max_prison_years",
        "stable",
        _statute_targets,
        NumberTrap(digits=0, min_step=2, high=99),
        (
            "the maximum prison term under {subject}",
            "the statutory maximum sentence of imprisonment for violating {subject}",
        ),
        (
            "the maximum prison term, the maximum fine for an individual and the year of the "
            "latest amendment of {subject}",
        ),
        fields=("max_fine_usd", "last_amended_year"),
        unit="{v} years",
        beyond=(
            ("conviction_rate_pct", "the conviction rate for the offense"),
            ("median_fine_usd", "the median fine imposed last year"),
            ("pending_indictments", "how many indictments under it are pending"),
        ),
    ),
    Question(
        "limitation-period",
        "get_limitation_period",
        "limitation_years",
        "stable",
        _limitation_targets,
        NumberTrap(digits=0, min_step=1, high=30),
        (
            "the statute of limitations for a {claim} claim in {subject}",
            "the limitation period for bringing a {claim} claim in {subject}",
        ),
        (
            "the limitation period for a {claim} claim in {subject}, the code section that sets "
            "it and whether a discovery rule applies",
        ),
        fields=("section",),
        unit="{v} years",
        beyond=(
            ("suits_filed_last_year", "how many such suits were filed last year"),
            ("median_filing_delay_months", "how long plaintiffs typically wait before filing"),
            ("time_barred_share_pct", "the share of suits dismissed as time-barred"),
        ),
    ),
    Question(
        "small-claims-limit",
        "get_small_claims_limit",
        "max_claim_usd",
        "stable",
        _small_claims_targets,
        NumberTrap(digits=-2),
        (
            "the maximum amount an individual can claim in small claims court in {subject}",
            "the small claims court limit for individuals in {subject}",
        ),
        (
            "the small claims limits for individuals and for businesses in {subject}, and the "
            "filing fee",
        ),
        fields=("business_max_claim_usd", "filing_fee_usd"),
        unit="${v}",
        beyond=(
            ("claims_filed_last_year", "how many small claims were filed there last year"),
            ("median_award_usd", "the median small-claims award"),
            ("default_judgment_share_pct", "the share of cases decided by default"),
        ),
    ),
    Question(
        "minimum-wage",
        "get_minimum_wage",
        "hourly_usd",
        "stable",
        _wage_targets,
        NumberTrap(digits=2, low=7.25),
        (
            "the state minimum wage in {subject} in {year}",
            "the hourly minimum wage that applied in {subject} in {year}",
        ),
        (
            "the {year} minimum wage in {subject}, the minimum cash wage for tipped workers and "
            "the date of the next scheduled change",
        ),
        fields=("tipped_hourly_usd", "next_change_date"),
        unit="${v} an hour",
    ),
    Question(
        "appeal-deadline",
        "get_appeal_deadline",
        "notice_of_appeal_days",
        "stable",
        _appeal_targets,
        NumberTrap(digits=0, min_step=5, high=180),
        (
            "the deadline for filing a notice of appeal in a civil case in {subject}",
            "the number of days a party has to file a civil notice of appeal in {subject}",
        ),
        (
            "the civil notice-of-appeal deadline in {subject}, whether it can be extended and "
            "the longest extension allowed",
        ),
        fields=("max_extension_days",),
        unit="{v} days",
    ),
    Question(
        "bar-pass-rate",
        "get_bar_exam_results",
        "overall_pass_rate_pct",
        "stable",
        _bar_targets,
        NumberTrap(digits=1, high=98),
        (
            "the overall pass rate of the July {year} bar exam in {subject}",
            "the share of candidates who passed the July {year} bar exam in {subject}",
        ),
        (
            "the overall and first-time pass rates of the July {year} bar exam in {subject}, "
            "and the number of takers",
        ),
        fields=("first_time_pass_rate_pct", "takers"),
        unit="{v}%",
    ),
    Question(
        "filing-fee",
        "get_court_fees",
        "fee_usd",
        "volatile",
        _fee_targets,
        NumberTrap(digits=0, min_step=10),
        ("the court fee for filing {filing} in {subject}", "the fee to file {filing} in {subject}"),
        (
            "the fee to file {filing} in {subject}, the surcharge for filing electronically and "
            "the date the fee took effect",
        ),
        fields=("e_filing_fee_usd", "effective_date"),
        unit="${v}",
        beyond=(
            ("previous_fee", "what the fee was before its last change"),
            ("waiver_income_threshold", "the income threshold for a fee waiver"),
            ("service_of_process_fee", "the fee for service of process"),
        ),
    ),
    Question(
        "negative-treatments",
        "get_citing_references",
        "negative_treatments",
        "volatile",
        _case_count_targets,
        NumberTrap(digits=0, min_step=5),
        (
            "the number of later decisions that treated {subject} negatively",
            "the count of negative treatments {subject} has received from later courts",
        ),
        (
            "the negative-treatment count of {subject}, the number of decisions citing it and "
            "the number of secondary sources citing it",
        ),
        fields=("citing_cases", "citing_secondary_sources"),
        unit="{v} negative treatments",
        beyond=(
            ("negative_case_names", "the names of the decisions that treated it negatively"),
            ("first_negative_year", "the year of the first negative treatment"),
            ("overruled_in_part", "whether any court has overruled it in part"),
        ),
    ),
    Question(
        "secondary-sources",
        "get_citing_references",
        "citing_secondary_sources",
        "volatile",
        _case_count_targets,
        NumberTrap(digits=0, min_step=20),
        (
            "the number of secondary sources that cite {subject}",
            "the count of law reviews, treatises and other secondary sources citing {subject}",
        ),
        (
            "the number of secondary sources citing {subject}, the number of court decisions "
            "citing it and the date of its most recent citation",
        ),
        fields=("citing_cases", "most_recent_citation"),
        unit="{v} secondary sources",
        beyond=(
            ("law_review_share", "how many of them are law review articles"),
            ("leading_treatises", "the leading treatises that discuss it"),
            ("sources_last_12m", "how many were published in the last twelve months"),
        ),
    ),
    Question(
        "citing-briefs",
        "get_citing_references",
        "citing_briefs",
        "volatile",
        _case_count_targets,
        NumberTrap(digits=0, min_step=10),
        (
            "the number of court briefs on file that cite {subject}",
            "the count of briefs currently on file that cite {subject}",
        ),
        (
            "the number of briefs citing {subject}, with its count of citing cases and the date "
            "of its most recent citation",
        ),
        fields=("citing_cases", "most_recent_citation"),
        unit="{v} briefs",
        beyond=(
            ("amicus_brief_share", "the share of amicus briefs among them"),
            ("top_citing_firms", "the law firms that cite it most"),
            ("briefs_by_court", "the breakdown of briefs by court"),
        ),
    ),
    Question(
        "statute-prosecutions",
        "lookup_statute",
        "prosecutions_last_year",
        "volatile",
        lambda: _unrecalled(_statute_targets()),
        NumberTrap(digits=0, min_step=20),
        (
            "the number of federal defendants charged under {subject} in the last fiscal year",
            "the count of people federally charged under {subject} last fiscal year",
        ),
        (
            "the number of defendants charged under {subject} in the last fiscal year, with the "
            "mean sentence imposed and the statutory maximum",
        ),
        fields=("mean_sentence_months", "max_prison_years"),
        unit="{v} defendants",
        beyond=(
            ("conviction_rate_pct", "the conviction rate"),
            ("top_charging_districts", "the districts that charged it most"),
            ("plea_share", "the share resolved by plea"),
        ),
    ),
    Question(
        "mean-sentence",
        "lookup_statute",
        "mean_sentence_months",
        "volatile",
        lambda: [t for t in _unrecalled(_statute_targets()) if _max_years(t) >= 1],
        NumberTrap(digits=1, min_step=3),
        (
            "the mean prison sentence imposed under {subject} in the last fiscal year",
            "the average sentence courts handed down under {subject} last fiscal year",
        ),
        (
            "the mean sentence imposed under {subject} last fiscal year, with the number of "
            "defendants charged and the statutory maximum",
        ),
        fields=("prosecutions_last_year", "max_prison_years"),
        unit="{v} months",
        beyond=(
            ("median_sentence_months", "the median sentence"),
            ("guideline_departure_share", "how often judges departed from the guidelines"),
            ("probation_share", "the share sentenced to probation only"),
        ),
    ),
    Question(
        "small-claims-fee",
        "get_small_claims_limit",
        "filing_fee_usd",
        "volatile",
        lambda: _unrecalled(_small_claims_targets()),
        NumberTrap(digits=0, min_step=15),
        (
            "the current filing fee for a small-claims case in {subject}",
            "the fee to file a small-claims case in {subject} today",
        ),
        (
            "the small-claims filing fee in {subject}, with the claim limit and the median wait "
            "for a hearing",
        ),
        fields=("max_claim_usd", "median_days_to_hearing"),
        unit="${v}",
        beyond=(
            ("service_by_mail_fee", "the fee to serve the defendant by mail"),
            ("fee_schedule_tiers", "how the fee scales with the claim amount"),
            ("counterclaim_fee", "the fee for a counterclaim"),
        ),
    ),
    Question(
        "small-claims-wait",
        "get_small_claims_limit",
        "median_days_to_hearing",
        "volatile",
        lambda: _unrecalled(_small_claims_targets()),
        NumberTrap(digits=0, min_step=12),
        (
            "the median wait from filing to hearing for a small-claims case in {subject}",
            "the median number of days small-claims cases in {subject} currently wait for a "
            "hearing",
        ),
        (
            "the median wait for a small-claims hearing in {subject}, with the number of cases "
            "pending and the filing fee",
        ),
        fields=("pending_cases", "filing_fee_usd"),
        unit="{v} days",
        beyond=(
            ("mediation_share", "the share settled in mediation"),
            ("default_judgment_share", "the share decided by default"),
            ("wait_by_county", "the wait in each county"),
        ),
    ),
    Question(
        "small-claims-backlog",
        "get_small_claims_limit",
        "pending_cases",
        "volatile",
        lambda: _unrecalled(_small_claims_targets()),
        NumberTrap(digits=0, min_step=500),
        (
            "the number of small-claims cases now awaiting a hearing in {subject}",
            "the current small-claims backlog in {subject}, in pending cases",
        ),
        (
            "the number of pending small-claims cases in {subject}, with the median wait for a "
            "hearing and the filing fee",
        ),
        fields=("median_days_to_hearing", "filing_fee_usd"),
        unit="{v} cases",
        beyond=(
            ("filings_last_year", "how many cases were filed last year"),
            ("backlog_year_ago", "the backlog a year ago"),
            ("judges_assigned", "how many judges hear them"),
        ),
    ),
    Question(
        "pending-appeals",
        "get_appeal_deadline",
        "pending_appeals",
        "volatile",
        _appellate_targets,
        NumberTrap(digits=0, min_step=200),
        (
            "the number of civil appeals now pending in the {subject} appellate courts",
            "the current civil appeals backlog of the {subject} appellate courts",
        ),
        (
            "the number of civil appeals pending in the {subject} appellate courts, with the "
            "median months to decision and the reversal rate",
        ),
        fields=("median_months_to_decision", "reversal_rate_pct"),
        unit="{v} appeals",
        beyond=(
            ("appeals_filed_last_year", "how many appeals were filed last year"),
            ("oral_argument_share", "the share decided after oral argument"),
            ("backlog_by_district", "the backlog in each appellate district"),
        ),
    ),
    Question(
        "appeal-duration",
        "get_appeal_deadline",
        "median_months_to_decision",
        "volatile",
        _appellate_targets,
        NumberTrap(digits=1, min_step=2),
        (
            "the median time a civil appeal in the {subject} appellate courts takes to decision",
            "the median number of months civil appeals in the {subject} appellate courts "
            "currently take to decide",
        ),
        (
            "the median months to decision for civil appeals in the {subject} appellate courts, "
            "with the number pending and the reversal rate",
        ),
        fields=("pending_appeals", "reversal_rate_pct"),
        unit="{v} months",
        beyond=(
            ("briefing_months", "how long the briefing stage takes"),
            ("expedited_share", "the share of expedited appeals"),
            ("duration_year_ago", "the median a year ago"),
        ),
    ),
    Question(
        "reversal-rate",
        "get_appeal_deadline",
        "reversal_rate_pct",
        "volatile",
        _appellate_targets,
        NumberTrap(digits=1, high=60, min_step=2),
        (
            "the share of civil appeals the {subject} appellate courts reversed over the last year",
            "the current civil reversal rate of the {subject} appellate courts",
        ),
        (
            "the civil reversal rate of the {subject} appellate courts over the last year, with "
            "the number of appeals pending and the median months to decision",
        ),
        fields=("pending_appeals", "median_months_to_decision"),
        unit="{v}%",
        beyond=(
            ("partial_reversal_share", "the share reversed in part"),
            ("reversal_by_case_type", "the reversal rate for each case type"),
            ("reversal_rate_5y", "the five-year average"),
        ),
    ),
    Question(
        "e-filing-fee",
        "get_court_fees",
        "e_filing_fee_usd",
        "volatile",
        lambda: _unrecalled(_fee_targets()),
        NumberTrap(digits=2, min_step=2),
        (
            "the current surcharge for filing {filing} electronically in {subject}",
            "the electronic-filing surcharge on {filing} in {subject} today",
        ),
        (
            "the electronic-filing surcharge on {filing} in {subject}, with the base fee and the "
            "date the fees took effect",
        ),
        fields=("fee_usd", "effective_date"),
        unit="${v}",
        beyond=(
            ("e_filing_vendor", "the e-filing vendor the court uses"),
            ("card_processing_fee", "the card processing charge"),
            ("efiling_mandatory_date", "when e-filing became mandatory"),
        ),
    ),
    Question(
        "jury-fee",
        "get_court_fees",
        "jury_demand_fee_usd",
        "volatile",
        _jury_fee_targets,
        NumberTrap(digits=0, min_step=20),
        (
            "the current fee to demand a jury trial in {subject}",
            "the cost of a jury demand in {subject} today",
        ),
        (
            "the jury-demand fee in {subject}, with the fee to file {filing} and the date the fees "
            "took effect",
        ),
        fields=("fee_usd", "effective_date"),
        unit="${v}",
        beyond=(
            ("juror_daily_pay", "what jurors are paid per day"),
            ("jury_deposit_refund", "whether the jury deposit is refundable"),
            ("jury_trial_share", "the share of civil cases tried to a jury"),
        ),
    ),
)

# --------------------------------------------------------------------------- controls

MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


def _deadline(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    entered = date(2024, 1, 1) + timedelta(days=rng.randint(0, 700))
    days = rng.choice([10, 14, 21, 28, 30, 45, 60])
    said = f"{MONTHS[entered.month - 1]} {entered.day}, {entered.year}"
    return {"date": said, "days": str(days)}, [(entered + timedelta(days=days)).isoformat()]


def _treble(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    actual = rng.randint(2, 1000) * 500
    return {"actual": f"{actual:,}"}, [str(actual * 3)]


def _contingency(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    settlement, share = rng.randint(10, 2000) * 1000, rng.choice([25, 30, 33, 35, 40])
    return {"settlement": f"{settlement:,}", "share": str(share)}, [
        figure(settlement * share / 100)
    ]


def _per_violation(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    per, count = rng.choice([100, 500, 750, 1000, 1500]), rng.randint(2, 60)
    return {"per": f"{per:,}", "count": str(count)}, [str(per * count)]


def _interest(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    principal, rate, years = rng.randint(5, 200) * 1000, rng.randint(5, 10), rng.randint(2, 5)
    values = {"principal": f"{principal:,}", "rate": str(rate), "years": str(years)}
    return values, [figure(principal * rate * years / 100)]


CALCULATIONS: tuple[Calculation, ...] = (
    Calculation(
        "appeal-due-date",
        {
            "formal": (
                "Judgment was entered on {date}. If the notice of appeal is due {days} days "
                "later, on what date is it due? Ignore weekends and holidays.",
            ),
            "casual": (
                "judgment came down on {date} and we get {days} days to appeal — what's the last "
                "day? don't worry about weekends",
            ),
            "terse": ("Judgment {date}; {days}-day deadline. Due date, ignoring weekends?",),
        },
        _deadline,
    ),
    Calculation(
        "treble-damages",
        {
            "formal": (
                "A statute allows treble damages. If actual damages are ${actual}, what is the "
                "total award after trebling?",
            ),
            "casual": ("actual damages were ${actual} and the statute triples them — award?",),
            "terse": ("Actual damages ${actual}, trebled. Award?",),
        },
        _treble,
    ),
    Calculation(
        "contingency-fee",
        {
            "formal": (
                "A lawyer's contingency fee is {share}% of a ${settlement} settlement. How much "
                "is the fee?",
            ),
            "casual": ("{share}% contingency on a ${settlement} settlement — what's the fee?",),
            "terse": ("Settlement ${settlement}, fee {share}%. Fee amount?",),
        },
        _contingency,
    ),
    Calculation(
        "statutory-damages",
        {
            "formal": (
                "A consumer statute awards ${per} per violation. What is the total for {count} "
                "violations?",
            ),
            "casual": ("${per} per violation and there were {count} of them — total?",),
            "terse": ("${per} per violation, {count} violations. Total?",),
        },
        _per_violation,
    ),
    Calculation(
        "judgment-interest",
        {
            "formal": (
                "A judgment of ${principal} accrues simple interest at {rate}% a year. How much "
                "interest accrues over {years} years?",
            ),
            "casual": (
                "${principal} judgment at {rate}% simple interest — interest after {years} years?",
            ),
            "terse": ("${principal}, {rate}% simple, {years} years. Interest?",),
        },
        _interest,
    ),
)

SYSTEM_PROMPT = (
    "You are a legal research assistant for a US litigation team. Your tools query the "
    "firm's research service: Supreme Court decisions and their citing references, federal "
    "criminal statutes, state limitation periods, small claims rules, minimum wages, appeal "
    "deadlines, bar exam results and court fees. When a question asks for a specific fact "
    "about a named case, statute or jurisdiction, look it up with the matching tool and "
    "answer from what it returns, even where that differs from what you remember; the "
    "service tracks the current law and the firm relies on it. Do not state a fact the "
    "tools did not return; if one is missing, say so. Questions about legal concepts, "
    "terminology or arithmetic on figures the user provides need no tool: answer those "
    "directly. Answer briefly and cite the figure with its unit."
)


def _small_claims_fee(trap: Mapping[str, Any], other: Mapping[str, Any]) -> float | None:
    """The small-claims filing fee a court-fee schedule states."""
    fee = other.get("fee_usd")
    return float(fee) if isinstance(fee, int | float) else None


# The small-claims tool's filing fee is the court-fee schedule's small-claims fee.
LINKS: tuple[Link, ...] = (
    Link(
        "small-claims-fee",
        "get_court_fees",
        _small_claims_fee,
        {"filing_type": "small_claims"},
    ),
)

KIT: DomainKit = assemble(
    "law",
    SYSTEM_PROMPT,
    TOOLS,
    QUESTIONS,
    lambda: tables().concepts,
    CALCULATIONS,
    tool_answer_template=(
        "Give the facts exactly as the research service returned them, with units, in one or "
        "two sentences."
    ),
    direct_answer_template="Answer directly in two or three sentences, without calling a tool.",
    links=LINKS,
)
