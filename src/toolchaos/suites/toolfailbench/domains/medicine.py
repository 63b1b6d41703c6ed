"""Medicine: a clinical pharmacology reference for hospital pharmacists."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

from pydantic import BaseModel

from toolchaos.core.tools import array, boolean, choice, integer, nullable, number, record, string
from toolchaos.suites.toolfailbench._kit import (
    Calculation,
    Call,
    Concept,
    DomainKit,
    LabelTrap,
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


class Drug(BaseModel):
    """A drug and the figures people remember about it (US labelling where it matters)."""

    name: str
    brand: str
    drug_class: str
    half_life_h: float
    usual_dose_mg: float | None
    doses_per_day: int | None
    max_daily_mg: int | None
    bioavailability_pct: int | None
    protein_binding_pct: int | None
    egfr_cutoff: int | None
    approval_year: int
    us_status: str
    top_event: str | None
    top_event_pct: float | None
    unit_price_usd: float | None
    dose_form: str
    active_trials: int | None
    elimination: str


class Interaction(BaseModel):
    """A documented drug pair and its usual severity rating."""

    a: str
    b: str
    severity: str
    mechanism: str


class Tables(BaseModel):
    """The medicine data table."""

    drugs: list[Drug]
    interactions: list[Interaction]
    concepts: list[Concept]


@cache
def tables() -> Tables:
    """The curated medicine table (loaded on first use)."""
    return Tables.model_validate(load_table("medicine"))


@cache
def _drugs() -> dict[str, Drug]:
    return {canon_text(d.name): d for d in tables().drugs}


def _drug(call: Call, param: str = "drug") -> Drug | None:
    return _drugs().get(canon_text(str(call.args[param])))


@cache
def brand_aliases() -> dict[str, str]:
    """Canonical text of every brand name -> its generic name ("pradaxa" -> "dabigatran")."""
    generics = set(_drugs())
    return {
        canon_text(d.brand): d.name
        for d in tables().drugs
        if d.brand and canon_text(d.brand) not in generics
    }


ALIASES = {"drug": brand_aliases}
PAIR_ALIASES = {"drug_a": brand_aliases, "drug_b": brand_aliases}


def _name(call: Call, param: str = "drug") -> str:
    return str(call.args[param]).strip().lower()


@cache
def _pairs() -> dict[frozenset[str], Interaction]:
    return {frozenset((canon_text(i.a), canon_text(i.b))): i for i in tables().interactions}


# A trap severity is clearly another rating: never "none", never the neighbour of a
# serious rating.
SEVERITY_TRAPS = {
    "none": ("major", "contraindicated"),
    "minor": ("major", "contraindicated"),
    "moderate": ("minor", "contraindicated"),
    "major": ("minor",),
    "contraindicated": ("minor", "moderate"),
}
MANAGEMENT = {
    "none": "No action needed.",
    "minor": "Usually no change needed; watch for the effect.",
    "moderate": "Monitor closely and adjust doses or timing.",
    "major": "Avoid the combination if possible; otherwise monitor intensively.",
    "contraindicated": "Do not combine.",
}
MECHANISMS = (
    "altered hepatic metabolism",
    "competition for renal excretion",
    "additive pharmacodynamic effects",
    "reduced absorption",
)
STATUS_TRAPS = ("withdrawn", "suspended", "restricted")
SUPPLY_STATUSES = ("available", "constrained", "backordered")
SUPPLY_ALIASES = {"backordered": ["back-ordered", "on backorder"]}
AGENCIES = {"US": "FDA", "EU": "EMA", "UK": "MHRA", "CA": "Health Canada", "JP": "PMDA"}
CONDITIONS = (
    "severe hepatic impairment",
    "active bleeding",
    "pregnancy",
    "severe heart failure",
    "history of angioedema",
    "myasthenia gravis",
    "uncontrolled seizures",
    "severe hypotension",
)
EVENTS = ("nausea", "headache", "dizziness", "fatigue", "rash", "diarrhea", "insomnia")
DRUG = string("Generic (INN) name of the drug, e.g. atorvastatin.", minLength=2)
DATE = string("ISO date, YYYY-MM-DD.", format="date")


def _nice(value: float) -> float | int:
    """A dose as a label would state it."""
    if value >= 100:
        return int(round(value, -1))
    if value >= 10:
        return round(value)
    return round(value, 1)


# --------------------------------------------------------------------------- tools


def _dosage(call: Call) -> dict[str, object]:
    d, row = call.draw, _drug(call)
    population = str(call.args["population"])
    factor = {"adult": 1.0, "pediatric": 0.5, "geriatric": 0.75, "renal_impairment": 0.5}
    usual_base = (row.usual_dose_mg if row else None) or d.choice("usual", [5, 10, 25, 50, 100])
    per_day = (row.doses_per_day if row else None) or d.choice("per_day", [1, 2, 3, 4])
    max_base = (row.max_daily_mg if row else None) or usual_base * per_day * d.choice(
        "headroom", [1, 2]
    )
    max_daily = call.keyed("max_daily_dose_mg", lambda: _nice(max_base * factor[population]))
    usual = min(_nice(usual_base * factor[population]), max_daily)
    return {
        "drug": _name(call),
        "population": population,
        "route": "oral",
        "dose_form": row.dose_form if row else "tablet",
        "usual_dose_mg": usual,
        "doses_per_day": max(1, min(per_day, int(max_daily // usual))),
        "max_daily_dose_mg": max_daily,
        "weight_based": population == "pediatric",
    }


def _interaction(call: Call) -> dict[str, object]:
    d = call.draw
    a, b = _name(call, "drug_a"), _name(call, "drug_b")
    row = _pairs().get(frozenset((canon_text(a), canon_text(b))))
    severity = call.keyed(
        "severity",
        lambda: row.severity if row else d.choice("severity", ["none", "minor", "moderate"]),
    )
    if row is not None and (row.severity == "none") == (severity == "none"):
        mechanism = row.mechanism
    elif severity == "none":
        mechanism = "no clinically relevant interaction is documented"
    else:
        mechanism = d.choice("mechanism", MECHANISMS)
    return {
        "drug_a": a,
        "drug_b": b,
        "severity": severity,
        "mechanism": mechanism,
        "management": MANAGEMENT[severity],
        "evidence": d.choice("evidence", ["established", "probable", "suspected"]),
        "documented_cases": 0
        if severity == "none"
        else call.keyed("documented_cases", lambda: d.integer("cases", 4, 400)),
    }


def _contraindications(call: Call) -> dict[str, object]:
    d, row = call.draw, _drug(call)
    cutoff = call.keyed(
        "renal_cutoff_egfr",
        lambda: row.egfr_cutoff if row else d.choice("cutoff", [None, 30, 45]),
    )
    return {
        "drug": _name(call),
        "absolute": ["known hypersensitivity to the drug", *d.sample("abs", CONDITIONS, 2)],
        "relative": d.sample("rel", CONDITIONS[::-1], 2),
        "renal_cutoff_egfr": cutoff,
        "dose_reduction_egfr": cutoff + 5 * d.integer("reduce", 2, 6) if cutoff else None,
        "hepatic_impairment": d.choice("hepatic", ["avoid", "use with caution", "no change"]),
        "boxed_warning": d.flag("boxed", 0.3),
    }


def _half_life(call: Call) -> dict[str, object]:
    d, row = call.draw, _drug(call)
    hours = call.keyed(
        "half_life_hours", lambda: row.half_life_h if row else d.uniform("half", 0.5, 48, 1)
    )
    return {
        "drug": _name(call),
        "half_life_hours": hours,
        "time_to_steady_state_hours": round(hours * 5, 1),
        "elimination_route": row.elimination if row else d.choice("route", ["renal", "hepatic"]),
        "active_metabolite": d.flag("metabolite", 0.4),
        "removed_by_dialysis": d.flag("dialysis", 0.3),
    }


def _approval(call: Call) -> dict[str, object]:
    d, row = call.draw, _drug(call)
    region = str(call.args["region"])

    def current() -> str:
        if row is None:
            return "approved"
        return row.us_status if region == "US" else d.choice("other", [row.us_status, "approved"])

    status = call.keyed("status", current)
    first = (row.approval_year if row else d.integer("year", 1960, 2020)) + (
        0 if region == "US" else d.integer("lag", 0, 5)
    )
    changed = None
    if status != "approved":
        changed = d.day_in("changed", d.integer("changed_year", min(first + 2, 2024), 2024))
    return {
        "drug": _name(call),
        "region": region,
        "agency": AGENCIES[region],
        "status": status,
        "first_approval_year": first,
        "status_changed": changed,
        "brand_names": [row.brand] if row else [],
        "generic_available": d.flag("generic", 0.8) if status == "approved" else False,
    }


def _adverse_events(call: Call) -> dict[str, object]:
    d, row = call.draw, _drug(call)
    event = (row.top_event if row else None) or d.choice("event", EVENTS)
    rate = call.keyed(
        "incidence_pct",
        lambda: (row.top_event_pct if row else None) or d.uniform("rate", 2, 25, 1),
    )
    others = d.sample("others", [e for e in EVENTS if e != event], 4)
    reports = call.keyed("reports_last_year", lambda: d.integer("reports", 300, 40000))
    return {
        "drug": _name(call),
        "most_common_event": event,
        "incidence_pct": rate,
        "other_events": [
            {"event": e, "incidence_pct": round(rate * float(d.uniform(e, 0.15, 0.9, 3)), 1)}
            for e in others
        ],
        "serious_event_rate_pct": d.uniform("serious", 0.5, 6, 1),
        "reports_last_year": reports,
        "serious_reports_last_year": call.keyed(
            "serious_reports_last_year",
            lambda: round(reports * float(d.uniform("serious_share", 0.1, 0.35, 3))),
        ),
    }


def _pharmacokinetics(call: Call) -> dict[str, object]:
    d, row = call.draw, _drug(call)
    bioavailability = call.keyed(
        "oral_bioavailability_pct",
        lambda: (row.bioavailability_pct if row else None) or d.integer("f", 10, 95),
    )
    binding = row.protein_binding_pct if row else None
    return {
        "drug": _name(call),
        "oral_bioavailability_pct": bioavailability,
        "protein_binding_pct": binding if binding is not None else d.integer("binding", 5, 99),
        "tmax_hours": d.uniform("tmax", 0.5, 4, 1),
        "volume_of_distribution_l_per_kg": d.uniform("vd", 0.1, 12, 2),
        "clearance_ml_min": d.integer("clearance", 20, 900),
    }


def _price(call: Call) -> dict[str, object]:
    d, row = call.draw, _drug(call)
    quantity = int(call.args["quantity"])
    unit = call.keyed(
        "unit_price_usd",
        lambda: (
            d.near("price", row.unit_price_usd, 0.1)
            if row and row.unit_price_usd
            else d.uniform("price", 0.05, 12)
        ),
    )
    if "total_price_usd" in call.override:  # a trapped total moves the unit price with it
        unit = round(float(call.override["total_price_usd"]) / quantity, 2)
    # a curated drug is ordinarily in supply; a trap reports a shortage as fresh news
    supply = "available" if row or not d.flag("short", 0.1) else "constrained"
    return {
        "drug": _name(call),
        "dose_form": row.dose_form if row else "tablet",
        "quantity": quantity,
        "unit_price_usd": unit,
        "total_price_usd": call.keyed("total_price_usd", lambda: round(unit * quantity, 2)),
        "acquisition_cost_usd": call.keyed(
            "acquisition_cost_usd", lambda: round(unit * float(d.uniform("nadac", 0.2, 0.7, 3)), 3)
        ),
        "plan_coverage_pct": call.keyed("plan_coverage_pct", lambda: d.integer("coverage", 35, 97)),
        "supply_status": call.keyed("supply_status", lambda: supply),
        "generic_available": d.flag("generic", 0.75),
        "marketed_in_us": row.us_status == "approved" if row else True,
        "as_of": d.day("as_of", -6, 0),
    }


def _trials(call: Call) -> dict[str, object]:
    d, row = call.draw, _drug(call)
    status = str(call.args["status"])
    scale = {"recruiting": 1.0, "active": 1.6, "completed": 3.0, "all": 6.0}[status]
    base = (row.active_trials if row else None) or d.integer("base", 2, 60)
    count = call.keyed(
        "trial_count", lambda: max(1, round(base * scale * float(d.uniform("n", 0.85, 1.15, 3))))
    )
    return {
        "drug": _name(call),
        "status_filter": status,
        "trial_count": count,
        "phase3_count": call.keyed(
            "phase3_count", lambda: max(1, round(count * float(d.uniform("phase3", 0.08, 0.3, 3))))
        ),
        "sponsor_count": call.keyed(
            "sponsor_count",
            lambda: max(1, round(count * float(d.uniform("sponsors", 0.3, 0.7, 3)))),
        ),
        "registered_last_90d": call.keyed(
            "registered_last_90d",
            lambda: max(1, round(count * float(d.uniform("new", 0.05, 0.2, 3)))),
        ),
        "latest_trial_id": f"NCT0{d.integer('nct', 6_400_000, 6_999_999)}",
        "latest_start_date": d.day("start", -200, -3),
    }


TOOLS: tuple[ToolDef, ...] = (
    declare(
        "get_drug_dosage",
        "Labelled oral dosing of a drug for a patient population: usual single dose, doses "
        "per day and the daily maximum, in milligrams.",
        {
            "drug": DRUG,
            "population": choice(
                ("adult", "pediatric", "geriatric", "renal_impairment"),
                "Patient population the dosing applies to.",
                default="adult",
            ),
        },
        {
            "drug": string("The drug as requested."),
            "population": string("Population the dosing applies to."),
            "route": string("Route of administration."),
            "dose_form": string("Dose form."),
            "usual_dose_mg": number("Usual single dose in mg."),
            "doses_per_day": integer("Usual doses per day."),
            "max_daily_dose_mg": number("Maximum total daily dose in mg."),
            "weight_based": boolean("Whether doses are given per kg of body weight."),
        },
        _dosage,
        aliases=ALIASES,
        optional=("population",),
    ),
    declare(
        "check_drug_interaction",
        "Look up the documented interaction between two drugs: its severity rating, "
        "mechanism and management advice.",
        {"drug_a": DRUG, "drug_b": DRUG},
        {
            "drug_a": string("First drug as requested."),
            "drug_b": string("Second drug as requested."),
            "severity": string("Severity rating of the interaction."),
            "mechanism": string("How the interaction arises."),
            "management": string("What prescribers should do."),
            "evidence": string("Strength of the evidence."),
            "documented_cases": integer("Case reports and studies on file."),
        },
        _interaction,
        aliases=PAIR_ALIASES,
        unordered=("drug_a", "drug_b"),
    ),
    declare(
        "get_contraindications",
        "Conditions in which a drug must not or should not be used, including the kidney "
        "function (eGFR) thresholds for stopping or reducing it.",
        {"drug": DRUG},
        {
            "drug": string("The drug as requested."),
            "absolute": array(string("A condition."), "Conditions that rule the drug out."),
            "relative": array(string("A condition."), "Conditions that call for caution."),
            "renal_cutoff_egfr": nullable(
                number("eGFR (mL/min/1.73 m2) below which the drug must not be used.")
            ),
            "dose_reduction_egfr": nullable(
                number("eGFR (mL/min/1.73 m2) below which the dose must be reduced.")
            ),
            "hepatic_impairment": string("Advice for hepatic impairment."),
            "boxed_warning": boolean("Whether the label carries a boxed warning."),
        },
        _contraindications,
        aliases=ALIASES,
    ),
    declare(
        "get_half_life",
        "Elimination kinetics of a drug in adults: half-life, time to steady state and the "
        "main elimination route.",
        {"drug": DRUG},
        {
            "drug": string("The drug as requested."),
            "half_life_hours": number("Elimination half-life in hours."),
            "time_to_steady_state_hours": number("Hours to reach steady state."),
            "elimination_route": string("Main elimination route."),
            "active_metabolite": boolean("Whether an active metabolite contributes."),
            "removed_by_dialysis": boolean("Whether haemodialysis removes the drug."),
        },
        _half_life,
        aliases=ALIASES,
    ),
    declare(
        "get_approval_status",
        "Regulatory status of a drug with one agency: whether it may be marketed, when it "
        "was first authorised and when its status last changed.",
        {
            "drug": DRUG,
            "region": choice(tuple(AGENCIES), "Regulatory region.", default="US"),
        },
        {
            "drug": string("The drug as requested."),
            "region": string("Region."),
            "agency": string("Regulator of the region."),
            "status": string("Current marketing status."),
            "first_approval_year": integer("Year of first authorisation in the region."),
            "status_changed": nullable(DATE),
            "brand_names": array(string("A brand name."), "Brand names on the market."),
            "generic_available": boolean("Whether a generic is marketed."),
        },
        _approval,
        aliases=ALIASES,
        optional=("region",),
    ),
    declare(
        "get_adverse_events",
        "Adverse events reported with a drug: the most common one with its incidence in "
        "clinical trials, other frequent events and post-marketing report volume.",
        {"drug": DRUG},
        {
            "drug": string("The drug as requested."),
            "most_common_event": string("Most frequently reported adverse event."),
            "incidence_pct": number("Incidence of that event in percent of patients."),
            "other_events": array(
                record(
                    {
                        "event": string("Adverse event."),
                        "incidence_pct": number("Incidence in percent."),
                    }
                ),
                "Other frequent events.",
            ),
            "serious_event_rate_pct": number("Serious adverse events in percent of patients."),
            "reports_last_year": integer("Post-marketing reports received last year."),
            "serious_reports_last_year": integer(
                "Reports among them classed as serious (hospitalisation, disability, death)."
            ),
        },
        _adverse_events,
        aliases=ALIASES,
    ),
    declare(
        "get_pharmacokinetics",
        "Pharmacokinetic parameters of a drug after an oral dose.",
        {"drug": DRUG},
        {
            "drug": string("The drug as requested."),
            "oral_bioavailability_pct": number("Oral bioavailability in percent."),
            "protein_binding_pct": number("Plasma protein binding in percent."),
            "tmax_hours": number("Time to peak plasma concentration in hours."),
            "volume_of_distribution_l_per_kg": number("Volume of distribution in L/kg."),
            "clearance_ml_min": number("Total clearance in mL/min."),
        },
        _pharmacokinetics,
        aliases=ALIASES,
    ),
    declare(
        "get_drug_price",
        "Average US pharmacy acquisition price of a drug per dispensed unit and for a "
        "given quantity, in US dollars.",
        {
            "drug": DRUG,
            "quantity": integer(
                "Number of units (tablets, capsules, pens) to price.",
                minimum=1,
                maximum=1000,
                default=30,
            ),
        },
        {
            "drug": string("The drug as requested."),
            "dose_form": string("Unit priced."),
            "quantity": integer("Units priced."),
            "unit_price_usd": number("Average price per unit, USD."),
            "total_price_usd": number("Price of the quantity, USD."),
            "acquisition_cost_usd": number(
                "Average price pharmacies paid per unit in this week's acquisition-cost survey, "
                "USD."
            ),
            "plan_coverage_pct": integer(
                "Share of Medicare drug plans that list the drug on their formulary, percent."
            ),
            "supply_status": choice(
                SUPPLY_STATUSES, "Current US supply status of the drug (from the shortage list)."
            ),
            "generic_available": boolean("Whether a generic is marketed."),
            "marketed_in_us": boolean("Whether the drug is currently sold in the US."),
            "as_of": DATE,
        },
        _price,
        aliases=ALIASES,
        optional=("quantity",),
    ),
    declare(
        "get_clinical_trials",
        "Registered clinical trials that study a drug, filtered by recruitment status.",
        {
            "drug": DRUG,
            "status": choice(
                ("recruiting", "active", "completed", "all"),
                "Recruitment status to count.",
                default="recruiting",
            ),
        },
        {
            "drug": string("The drug as requested."),
            "status_filter": string("Status counted."),
            "trial_count": integer("Trials with that status."),
            "phase3_count": integer("Phase 3 trials among them."),
            "sponsor_count": integer("Distinct sponsors."),
            "registered_last_90d": integer("Trials among them registered in the last 90 days."),
            "latest_trial_id": string("Registry identifier of the newest trial."),
            "latest_start_date": DATE,
        },
        _trials,
        aliases=ALIASES,
        optional=("status",),
    ),
)

# --------------------------------------------------------------------------- questions


def _rows() -> list[Drug]:
    return tables().drugs


def _dose_targets() -> list[Target]:
    return [
        Target(
            d.name,
            d.name,
            {"drug": d.name},
            d.max_daily_mg,
            digits=-1 if d.max_daily_mg >= 200 else 0,
        )
        for d in _rows()
        if d.max_daily_mg is not None and d.max_daily_mg >= 10
    ]


def _interaction_targets() -> list[Target]:
    return [
        Target(f"{i.a} and {i.b}", f"{i.a} and {i.b}", {"drug_a": i.a, "drug_b": i.b}, i.severity)
        for i in tables().interactions
    ]


def _renal_targets() -> list[Target]:
    return [
        Target(d.name, d.name, {"drug": d.name}, d.egfr_cutoff) for d in _rows() if d.egfr_cutoff
    ]


def _half_life_targets() -> list[Target]:
    return [Target(d.name, d.name, {"drug": d.name}, d.half_life_h) for d in _rows()]


def _status_targets() -> list[Target]:
    return [Target(d.name, d.name, {"drug": d.name}, d.us_status) for d in _rows()]


def _event_targets() -> list[Target]:
    return [
        Target(d.name, d.name, {"drug": d.name}, d.top_event_pct, {"event": d.top_event})
        for d in _rows()
        if d.top_event and d.top_event_pct
    ]


def _bioavailability_targets() -> list[Target]:
    return [
        Target(d.name, d.name, {"drug": d.name}, d.bioavailability_pct)
        for d in _rows()
        if d.bioavailability_pct and d.bioavailability_pct >= 10
    ]


def _price_targets() -> list[Target]:
    return [
        Target(
            d.name,
            d.name,
            {"drug": d.name},
            d.unit_price_usd,
            {"form": d.dose_form},
            aliases=_brand(d),
        )
        for d in _rows()
        if d.unit_price_usd and d.unit_price_usd >= 0.04 and d.us_status == "approved"
    ]


def _brand(d: Drug) -> tuple[str, ...]:
    return (d.brand,) if d.brand else ()


def _report_targets() -> list[Target]:
    return [
        Target(d.name, d.name, {"drug": d.name}, None, aliases=_brand(d))
        for d in _rows()
        if d.us_status == "approved"
    ]


def _case_count_targets() -> list[Target]:
    brands = {d.name: d.brand for d in _rows() if d.brand}
    out = []
    for i in tables().interactions:
        if i.severity == "none":
            continue
        alias = f"{brands[i.a]} and {i.b}" if i.a in brands else None
        subject = f"{i.a} and {i.b}"
        args = {"drug_a": i.a, "drug_b": i.b}
        out.append(Target(subject, subject, args, None, aliases=(alias,) if alias else ()))
    return out


def _trial_targets() -> list[Target]:
    return [
        Target(d.name, d.name, {"drug": d.name}, d.active_trials, aliases=_brand(d))
        for d in _rows()
        if d.active_trials and d.active_trials >= 10
    ]


def _unrecalled(targets: list[Target]) -> list[Target]:
    """``targets`` with no recalled prior: the tool's own ordinary value stands in."""
    return [replace(t, prior=None) for t in targets]


def _status_trial_targets(status: str) -> list[Target]:
    return [
        replace(t, arguments={**t.arguments, "status": status}, prior=None)
        for t in _trial_targets()
    ]


def _supply_targets() -> list[Target]:
    return [replace(t, prior="available") for t in _price_targets()]


def _acquisition_targets() -> list[Target]:
    return [replace(t, prior=None) for t in _price_targets() if float(t.prior or 0) >= 0.2]


def _ninety_day_targets() -> list[Target]:
    return [
        replace(
            t,
            arguments={**t.arguments, "quantity": 90},
            prior=round(float(t.prior or 0) * 90, 2),
        )
        for t in _price_targets()
    ]


QUESTIONS: tuple[Question, ...] = (
    Question(
        "max-daily-dose",
        "get_drug_dosage",
        "max_daily_dose_mg",
        "stable",
        _dose_targets,
        NumberTrap(digits=0, min_step=2),
        (
            "the maximum daily dose of {subject} for adults",
            "the highest recommended total daily dose of {subject} for an adult",
        ),
        ("the usual adult single dose, doses per day and maximum daily dose of {subject}",),
        fields=("usual_dose_mg",),
        unit="{v} mg",
        beyond=(
            ("poison_center_calls", "how many poison-center calls involved it last year"),
            ("prescriptions_last_year", "how many prescriptions were filled last year"),
            ("average_prescribed_dose_mg", "the average daily dose actually prescribed"),
        ),
    ),
    Question(
        "interaction-severity",
        "check_drug_interaction",
        "severity",
        "stable",
        _interaction_targets,
        LabelTrap(lambda prior: SEVERITY_TRAPS[prior]),
        (
            "the severity rating of the interaction between {subject}",
            "the interaction severity recorded for {subject}",
        ),
        (
            "the severity rating, mechanism and number of documented cases of the interaction "
            "between {subject}",
        ),
        fields=("documented_cases",),
        anchor="{u}",
    ),
    Question(
        "renal-cutoff",
        "get_contraindications",
        "renal_cutoff_egfr",
        "stable",
        _renal_targets,
        NumberTrap(digits=0, high=90, min_step=5),
        (
            "the eGFR below which {subject} is contraindicated",
            "the kidney-function (eGFR) cutoff below which {subject} must not be used",
        ),
        (
            "the eGFR below which {subject} is contraindicated, the eGFR below which its dose "
            "must be reduced, and whether it carries a boxed warning",
        ),
        fields=("dose_reduction_egfr",),
        unit="{v} mL/min/1.73 m²",
        beyond=(
            ("excluded_patient_share_pct", "the share of patients the cutoff excludes"),
            ("renal_adverse_reports", "how many renal adverse-event reports it has"),
            ("average_user_egfr", "the average eGFR of the people taking it"),
        ),
    ),
    Question(
        "half-life",
        "get_half_life",
        "half_life_hours",
        "stable",
        _half_life_targets,
        NumberTrap(digits=1),
        ("the elimination half-life of {subject}", "the plasma half-life of {subject} in adults"),
        (
            "the elimination half-life, the time to reach steady state and the main "
            "elimination route of {subject}",
        ),
        fields=("time_to_steady_state_hours",),
        unit="{v} hours",
    ),
    Question(
        "approval-status",
        "get_approval_status",
        "status",
        "stable",
        _status_targets,
        LabelTrap(lambda prior: STATUS_TRAPS),
        (
            "the current FDA approval status of {subject}",
            "the present regulatory status of {subject} in the United States",
        ),
        (
            "the FDA status of {subject}, the year it was first authorised and the date its "
            "status last changed",
        ),
        fields=("status_changed",),
        anchor="{u}",
        beyond=(
            ("prescriptions_last_year", "how many prescriptions were filled last year"),
            ("recalled_lots", "how many lots were recalled"),
            ("pending_lawsuits", "how many lawsuits over it are pending"),
        ),
    ),
    Question(
        "adverse-event-rate",
        "get_adverse_events",
        "incidence_pct",
        "stable",
        _event_targets,
        NumberTrap(digits=1, high=95),
        (
            "the incidence of {event} reported with {subject}",
            "the share of patients on {subject} who report {event}",
        ),
        (
            "the most common adverse event of {subject} with its incidence, the rate of serious "
            "adverse events and the number of reports filed last year",
        ),
        fields=("serious_event_rate_pct", "reports_last_year"),
        unit="{v}%",
    ),
    Question(
        "bioavailability",
        "get_pharmacokinetics",
        "oral_bioavailability_pct",
        "stable",
        _bioavailability_targets,
        NumberTrap(digits=0, high=100, min_step=5),
        (
            "the oral bioavailability of {subject}",
            "the fraction of an oral dose of {subject} that reaches the systemic circulation",
        ),
        (
            "the oral bioavailability, time to peak concentration and volume of distribution "
            "of {subject}",
        ),
        fields=("tmax_hours", "volume_of_distribution_l_per_kg"),
        unit="{v}%",
    ),
    Question(
        "unit-price",
        "get_drug_price",
        "unit_price_usd",
        "volatile",
        _price_targets,
        NumberTrap(digits=2),
        (
            "the current average price per {form} of {subject}",
            "the average cost of one {form} of {subject} today",
        ),
        (
            "the price per {form} of {subject}, the cost of a thirty-unit supply and whether a "
            "generic is available",
        ),
        fields=("total_price_usd",),
        unit="${v} per {form}",
        beyond=(
            ("medicaid_reimbursement", "the Medicaid reimbursement rate"),
            ("price_change_12m", "how much the price has changed over the last twelve months"),
            ("cheapest_pharmacy", "which pharmacy chain has the lowest price"),
        ),
    ),
    Question(
        "recruiting-trials",
        "get_clinical_trials",
        "trial_count",
        "volatile",
        _trial_targets,
        NumberTrap(digits=0, min_step=3),
        (
            "the number of clinical trials currently recruiting that study {subject}",
            "the count of recruiting clinical trials involving {subject}",
        ),
        (
            "the number of recruiting clinical trials of {subject}, how many of them are in "
            "phase three, and the identifier of the most recently registered one",
        ),
        fields=("phase3_count", "latest_trial_id"),
        unit="{v} trials",
        beyond=(
            ("trial_sites", "the number of trial sites"),
            ("planned_enrollment", "the total planned enrollment"),
            ("largest_trial_sponsor", "the lead sponsor of the largest trial"),
        ),
    ),
    Question(
        "adverse-reports",
        "get_adverse_events",
        "reports_last_year",
        "volatile",
        _report_targets,
        NumberTrap(digits=0, min_step=50),
        (
            "the number of adverse-event reports filed for {subject} over the past year",
            "the count of adverse-event reports {subject} drew in the last twelve months",
        ),
        (
            "the number of adverse-event reports filed for {subject} over the past year, its "
            "most common adverse event with that event's incidence and the serious-event rate",
        ),
        fields=("incidence_pct", "serious_event_rate_pct"),
        unit="{v} reports",
        beyond=(
            ("fatal_reports", "how many of those reports involved a death"),
            ("reports_change_pct", "how the report count changed from the year before"),
            ("top_reporting_country", "which country filed the most reports"),
        ),
    ),
    Question(
        "interaction-cases",
        "check_drug_interaction",
        "documented_cases",
        "volatile",
        _case_count_targets,
        NumberTrap(digits=0, min_step=5),
        (
            "the number of documented cases of the interaction between {subject}",
            "the count of case reports documenting the interaction between {subject}",
        ),
        (
            "the number of documented cases of the interaction between {subject} together with "
            "its severity rating and the strength of the evidence",
        ),
        fields=("severity", "evidence"),
        unit="{v} cases",
        beyond=(
            ("hospitalizations", "how many of those cases led to hospitalisation"),
            ("first_case_year", "the year the first case was reported"),
            ("safety_communication", "whether the FDA has issued a safety communication on it"),
        ),
    ),
    Question(
        "phase3-trials",
        "get_clinical_trials",
        "phase3_count",
        "volatile",
        lambda: _unrecalled(_trial_targets()),
        NumberTrap(digits=0, min_step=2),
        (
            "the number of phase three trials of {subject} currently recruiting",
            "the count of recruiting phase three clinical trials studying {subject}",
        ),
        (
            "the number of recruiting phase three trials of {subject}, with the number of "
            "recruiting trials overall and of distinct sponsors",
        ),
        fields=("trial_count", "sponsor_count"),
        unit="{v} trials",
        beyond=(
            ("phase3_primary_endpoints", "the primary endpoints of those trials"),
            ("expected_readout_dates", "when the first of them is expected to read out"),
            ("phase3_countries", "the countries they recruit in"),
        ),
    ),
    Question(
        "trial-sponsors",
        "get_clinical_trials",
        "sponsor_count",
        "volatile",
        lambda: _unrecalled(_trial_targets()),
        NumberTrap(digits=0, min_step=2),
        (
            "the number of distinct sponsors running recruiting trials of {subject}",
            "the count of different sponsors currently recruiting for trials of {subject}",
        ),
        (
            "the number of distinct sponsors of recruiting trials of {subject}, with the "
            "number of those trials and how many are in phase three",
        ),
        fields=("trial_count", "phase3_count"),
        unit="{v} sponsors",
        beyond=(
            ("industry_sponsor_share", "the share of industry sponsors"),
            ("academic_sponsor_names", "the names of the academic sponsors"),
            ("sponsor_funding_total", "the sponsors' total funding"),
        ),
    ),
    Question(
        "new-trials",
        "get_clinical_trials",
        "registered_last_90d",
        "volatile",
        lambda: _unrecalled(_trial_targets()),
        NumberTrap(digits=0, min_step=2),
        (
            "the number of recruiting trials of {subject} registered in the last ninety days",
            "the count of recruiting trials of {subject} newly registered over the past ninety "
            "days",
        ),
        (
            "the number of recruiting trials of {subject} registered in the last ninety days, "
            "with the identifier and start date of the newest",
        ),
        fields=("latest_trial_id", "latest_start_date"),
        unit="{v} trials",
        beyond=(
            ("new_trial_indications", "the indications the new trials study"),
            ("new_trial_sponsors", "who sponsors the new trials"),
            ("withdrawn_trials_90d", "how many trials were withdrawn in the same period"),
        ),
    ),
    Question(
        "completed-trials",
        "get_clinical_trials",
        "trial_count",
        "volatile",
        lambda: _status_trial_targets("completed"),
        NumberTrap(digits=0, min_step=3),
        (
            "the number of completed clinical trials of {subject} on the registry",
            "the count of clinical trials of {subject} listed as completed",
        ),
        (
            "the number of completed clinical trials of {subject}, how many were phase three "
            "and how many distinct sponsors ran them",
        ),
        fields=("phase3_count", "sponsor_count"),
        unit="{v} trials",
        beyond=(
            ("trials_with_results", "how many posted results"),
            ("terminated_trials", "how many were terminated early"),
            ("median_trial_duration", "the median trial duration"),
        ),
    ),
    Question(
        "active-trials",
        "get_clinical_trials",
        "trial_count",
        "volatile",
        lambda: _status_trial_targets("active"),
        NumberTrap(digits=0, min_step=3),
        (
            "the number of clinical trials of {subject} that are active but no longer recruiting",
            "the count of trials of {subject} currently active and closed to enrolment",
        ),
        (
            "the number of active, no-longer-recruiting trials of {subject}, with how many are "
            "phase three and the number of sponsors",
        ),
        fields=("phase3_count", "sponsor_count"),
        unit="{v} trials",
        beyond=(
            ("primary_completion_dates", "when they are due to complete"),
            ("enrolled_patients", "how many patients they enrolled"),
            ("active_trial_regions", "the regions they run in"),
        ),
    ),
    Question(
        "registered-trials",
        "get_clinical_trials",
        "trial_count",
        "volatile",
        lambda: _status_trial_targets("all"),
        NumberTrap(digits=0, min_step=5),
        (
            "the total number of clinical trials of {subject} registered to date",
            "the count of all clinical trials of {subject} the registry lists",
        ),
        (
            "the total number of registered clinical trials of {subject}, with how many are "
            "phase three and how many distinct sponsors they have",
        ),
        fields=("phase3_count", "sponsor_count"),
        unit="{v} trials",
        beyond=(
            ("trials_by_phase", "the breakdown by every phase"),
            ("first_trial_year", "the year the first trial was registered"),
            ("pediatric_trials", "how many include children"),
        ),
    ),
    Question(
        "supply-status",
        "get_drug_price",
        "supply_status",
        "volatile",
        _supply_targets,
        LabelTrap(lambda prior: SUPPLY_STATUSES, lambda label: SUPPLY_ALIASES.get(label, [])),
        (
            "the current US supply status of {subject}",
            "the present shortage-list status of {subject} in the US",
        ),
        ("the current US supply status of {subject}, with its price per {form} and as-of date",),
        fields=("unit_price_usd", "as_of"),
        beyond=(
            ("shortage_reason", "the reason given for any shortage"),
            ("expected_recovery_date", "when supply is expected to recover"),
            ("affected_manufacturers", "which manufacturers are affected"),
        ),
    ),
    Question(
        "plan-coverage",
        "get_drug_price",
        "plan_coverage_pct",
        "volatile",
        lambda: _unrecalled(_price_targets()),
        NumberTrap(digits=0, high=100, min_step=10),
        (
            "the share of Medicare drug plans that currently cover {subject}",
            "the percentage of Medicare drug plans with {subject} on their formulary",
        ),
        (
            "the share of Medicare drug plans covering {subject}, with its price per {form} and "
            "the cost of a thirty-unit supply",
        ),
        fields=("unit_price_usd", "total_price_usd"),
        unit="{v}%",
        beyond=(
            ("typical_copay", "the typical copay on those plans"),
            ("prior_auth_share", "how many plans require prior authorisation"),
            ("coverage_tier", "the formulary tier it usually sits on"),
        ),
    ),
    Question(
        "acquisition-cost",
        "get_drug_price",
        "acquisition_cost_usd",
        "volatile",
        _acquisition_targets,
        NumberTrap(digits=3, min_step=0.01),
        (
            "this week's average pharmacy acquisition cost per {form} of {subject}",
            "the average price pharmacies currently pay for one {form} of {subject}",
        ),
        (
            "the average pharmacy acquisition cost per {form} of {subject}, with its retail "
            "price per {form} and the survey date",
        ),
        fields=("unit_price_usd", "as_of"),
        unit="${v} per {form}",
        beyond=(
            ("acquisition_cost_trend", "how the acquisition cost moved over the last quarter"),
            ("wholesaler_markup", "the typical wholesaler markup"),
            ("dispensing_fee", "the typical dispensing fee"),
        ),
    ),
    Question(
        "ninety-day-cost",
        "get_drug_price",
        "total_price_usd",
        "volatile",
        _ninety_day_targets,
        NumberTrap(digits=2, min_step=1),
        (
            "the current cash price of a ninety-{form} supply of {subject}",
            "the pharmacy cash price of ninety {form}s of {subject}",
        ),
        (
            "the cash price of a ninety-{form} supply of {subject}, with its price per {form} and "
            "the as-of date",
        ),
        fields=("unit_price_usd", "as_of"),
        unit="${v}",
        beyond=(
            ("mail_order_price", "the mail-order price for the same supply"),
            ("coupon_price", "the price with a manufacturer coupon"),
            ("insured_out_of_pocket", "the typical out-of-pocket cost with insurance"),
        ),
    ),
    Question(
        "serious-reports",
        "get_adverse_events",
        "serious_reports_last_year",
        "volatile",
        lambda: _unrecalled(_report_targets()),
        NumberTrap(digits=0, min_step=30),
        (
            "the number of serious adverse-event reports filed for {subject} over the past year",
            "the count of serious adverse-event reports {subject} drew in the last twelve months",
        ),
        (
            "the number of serious adverse-event reports filed for {subject} over the past year, "
            "with the total report count and its most common adverse event",
        ),
        fields=("reports_last_year", "most_common_event"),
        unit="{v} reports",
        beyond=(
            ("serious_outcome_breakdown", "the breakdown of serious outcomes"),
            ("serious_reports_trend", "how the serious-report count changed from the prior year"),
            ("reporter_types", "who filed the reports"),
        ),
    ),
)

# --------------------------------------------------------------------------- controls


def _weight_dose(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    per_kg, weight = rng.choice([2, 5, 10, 15, 20, 25]), rng.randint(8, 95)
    return {"per_kg": str(per_kg), "weight": str(weight)}, [str(per_kg * weight)]


def _remaining(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    dose = rng.choice([100, 200, 400, 800, 1000, 1600])
    half, k = rng.choice([2, 3, 4, 5, 6, 8, 12]), rng.randint(2, 4)
    values = {"dose": str(dose), "half": str(half), "elapsed": str(half * k)}
    return values, [figure(dose / 2**k)]


def _daily(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    dose, interval = rng.choice([25, 50, 100, 250, 500]), rng.choice([4, 6, 8, 12])
    return {"dose": str(dose), "interval": str(interval)}, [figure(dose * 24 / interval)]


def _infusion(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    volume, hours = rng.choice([250, 500, 1000]), rng.choice([2, 4, 5, 8, 10])
    return {"volume": str(volume), "hours": str(hours)}, [figure(volume / hours)]


def _concentration(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    mg, ml = rng.randint(2, 20) * 50, rng.choice([5, 10, 20, 25, 50])
    return {"mg": str(mg), "ml": str(ml)}, [figure(mg / ml)]


CALCULATIONS: tuple[Calculation, ...] = (
    Calculation(
        "weight-based-dose",
        {
            "formal": (
                "A patient weighing {weight} kg is prescribed {per_kg} mg/kg of a drug. How many "
                "milligrams is that single dose?",
            ),
            "casual": ("{per_kg} mg per kg for a {weight} kg patient — how many mg is that?",),
            "terse": ("{per_kg} mg/kg, {weight} kg. Dose in mg?",),
        },
        _weight_dose,
    ),
    Calculation(
        "amount-remaining",
        {
            "formal": (
                "A single {dose} mg dose of a drug with a half-life of {half} hours is given. "
                "Assuming first-order elimination and complete absorption, how many milligrams "
                "remain in the body after {elapsed} hours?",
            ),
            "casual": (
                "drug with a {half}-hour half-life, one {dose} mg dose — how much is left after "
                "{elapsed} hours?",
            ),
            "terse": ("Dose {dose} mg, half-life {half} h. Amount left after {elapsed} h, in mg?",),
        },
        _remaining,
    ),
    Calculation(
        "daily-total",
        {
            "formal": (
                "A patient takes {dose} mg every {interval} hours around the clock. What is the "
                "total daily dose in milligrams?",
            ),
            "casual": ("{dose} mg every {interval} hours — how much is that per day?",),
            "terse": ("{dose} mg every {interval} h. Daily total in mg?",),
        },
        _daily,
    ),
    Calculation(
        "infusion-rate",
        {
            "formal": (
                "{volume} mL of fluid is to be infused evenly over {hours} hours. What rate in mL "
                "per hour is needed?",
            ),
            "casual": ("running {volume} mL over {hours} hours — what's the hourly rate?",),
            "terse": ("{volume} mL over {hours} h. Rate in mL/h?",),
        },
        _infusion,
    ),
    Calculation(
        "concentration",
        {
            "formal": (
                "{mg} mg of a drug is dissolved to make {ml} mL of solution. What is the "
                "concentration in mg per mL?",
            ),
            "casual": ("{mg} mg made up to {ml} mL — what's that in mg per mL?",),
            "terse": ("{mg} mg in {ml} mL. Concentration in mg/mL?",),
        },
        _concentration,
    ),
)

SYSTEM_PROMPT = (
    "You are a clinical pharmacology assistant for hospital pharmacists. Your tools query "
    "the pharmacy's drug reference: dosing, interactions, contraindications, half-lives, "
    "regulatory status, adverse-event data, pharmacokinetics, prices and clinical trials. "
    "When a question asks for a specific value about a named drug or drug pair, look it up "
    "with the matching tool and answer from what the tool returns, even where it differs "
    "from what you recall; the reference reflects current labelling. Never supply a value "
    "the tools did not return; if something is missing, say so. General pharmacology, "
    "terminology and arithmetic on numbers the user gives need no tool: answer those "
    "directly. Keep answers brief and give every value with its unit."
)

KIT: DomainKit = assemble(
    "medicine",
    SYSTEM_PROMPT,
    TOOLS,
    QUESTIONS,
    lambda: tables().concepts,
    CALCULATIONS,
    tool_answer_template=(
        "State the looked-up values exactly as the tool gave them, with units, in one or two "
        "sentences."
    ),
    direct_answer_template="Answer directly and briefly from general knowledge, without a tool.",
)
