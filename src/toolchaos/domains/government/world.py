"""The government world: a city's residents and the public services they deal with.

Tables (each keyed by the row's id):

- ``residents``: ~40 people of the City of Riverton with a home address (its street gives
  the waste-collection zone and the ward), household size, income and birth date;
- ``offices``: permit counters, tax help, benefits, motor-vehicle, passport, waste, court,
  elections and city-service offices;
- ``waits_portal``, ``waits_311``, ``waits_crowd``: the current queue time and typical
  processing time of every office from three independent sources (the agency portal is
  authoritative). They agree in the clean world and each stamps its own ``as_of``;
- ``slots`` and ``appointments``: bookable appointment slots and the bookings made;
- ``permit_types`` and ``permit_applications``; ``income_records``, ``deductions`` and
  ``tax_profiles`` (one per resident, tax year 2025); ``programs`` and
  ``benefit_applications``; ``vehicles``; ``id_documents`` and ``id_applications``;
  ``citations`` (parking and traffic fines, with court dates when contested);
  ``elections``, ``polling_places``, ``voters`` and ``ballot_requests``;
  ``service_requests`` (311).

Dates are ISO ``YYYY-MM-DD`` and timestamps UTC ISO strings ending in ``Z``, relative to
:attr:`World.EPOCH` (a Monday). Business days skip weekends and the city's holidays.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import ClassVar, Self

from pydantic import Field

from toolchaos.core.world import Row, World
from toolchaos.domains._common import money, people, stamp
from toolchaos.domains.government import data

# -- calendar and money rules ---------------------------------------------------------------


def is_business_day(day: date) -> bool:
    """Whether city offices are open on ``day`` (a weekday that is not a city holiday)."""
    return day.weekday() < 5 and day.isoformat() not in data.HOLIDAYS


def add_business_days(start: date, days: int) -> date:
    """The date ``days`` business days after ``start`` (``start`` itself not counted)."""
    current = start
    left = days
    while left > 0:
        current += timedelta(days=1)
        if is_business_day(current):
            left -= 1
    return current


def business_days_between(start: date, end: date) -> int:
    """Business days after ``start`` up to and including ``end`` (0 if ``end <= start``)."""
    count, current = 0, start
    while current < end:
        current += timedelta(days=1)
        count += is_business_day(current)
    return count


def tax_on(taxable_income: float, filing_status: str) -> float:
    """Federal income tax on ``taxable_income`` under the 2025 brackets, in dollars."""
    tax, lower = 0.0, 0.0
    for upper, rate in data.TAX_BRACKETS[filing_status]:
        top = taxable_income if upper is None else min(taxable_income, upper)
        if top > lower:
            tax += (top - lower) * rate
        if upper is None or taxable_income <= upper:
            break
        lower = upper
    return money(tax)


def marginal_rate(taxable_income: float, filing_status: str) -> float:
    """The bracket rate that applies to the last dollar of ``taxable_income``."""
    for upper, rate in data.TAX_BRACKETS[filing_status]:
        if upper is None or taxable_income <= upper:
            return rate
    return data.TAX_BRACKETS[filing_status][-1][1]  # pragma: no cover


def poverty_guideline(household_size: int) -> float:
    """The annual poverty guideline for a household of ``household_size`` people."""
    return data.POVERTY_BASE_USD + data.POVERTY_PER_PERSON_USD * (household_size - 1)


def renewal_late_fee(expires: date, renew_on: date) -> float:
    """The late penalty for renewing a registration that expired before ``renew_on``."""
    if renew_on <= expires:
        return 0.0
    months = math.ceil((renew_on - expires).days / 30)
    return min(data.LATE_CAP_USD, data.LATE_FLAT_USD + data.LATE_PER_MONTH_USD * months)


def fine_late_fee(amount: float, due: date, on: date) -> float:
    """The late fee of a fine of ``amount`` due on ``due`` when paid on ``on``."""
    if on <= due:
        return 0.0
    periods = math.ceil((on - due).days / 30)
    return money(min(amount * data.FINE_LATE_CAP_SHARE, amount * data.FINE_LATE_SHARE * periods))


def next_collection(zone: str, kind: str, start: date) -> date:
    """The next collection of ``kind`` (trash, recycling, yard_waste) on or after ``start``.

    Trash comes weekly on the zone's day, recycling every other week (by ISO week parity)
    and yard waste weekly with trash from the season start. A city holiday on or before
    the collection day in the same week slides that week's collection one day later.
    """
    weekday, parity = data.ZONES[zone]
    season = date.fromisoformat(data.YARD_WASTE_SEASON_START)
    monday = start - timedelta(days=start.weekday())
    for week in range(0, 60):
        first = monday + timedelta(weeks=week)
        day = first + timedelta(days=weekday)
        holidays = [
            first + timedelta(days=i)
            for i in range(weekday + 1)
            if (first + timedelta(days=i)).isoformat() in data.HOLIDAYS
        ]
        if holidays:
            day += timedelta(days=1)
        if kind == "recycling" and first.isocalendar().week % 2 != parity:
            continue
        if kind == "yard_waste" and day < season:
            continue
        if day >= start:
            return day
    raise ValueError(f"no {kind} collection found")  # pragma: no cover


# -- rows -----------------------------------------------------------------------------------


class Resident(Row):
    """A resident of the city and their household."""

    resident_id: str
    name: str
    email: str
    address: str
    street: str
    ward: int
    zone: str
    latitude_deg: float
    longitude_deg: float
    date_of_birth: str
    household_size: int
    annual_income_usd: float


class Office(Row):
    """A public office residents visit."""

    office_id: str
    name: str
    kind: str
    address: str
    ward: int
    opens_at: str
    closes_at: str
    phone: str


class WaitReading(Row):
    """One source's latest queue time and processing time for an office."""

    office_id: str
    wait_minutes: int
    processing_days: int
    as_of: str
    detail: str


class Slot(Row):
    """A bookable appointment slot at an office."""

    slot_id: str
    office_id: str
    date: str
    time: str
    available: bool


class Appointment(Row):
    """A booking a resident made for a slot."""

    appointment_id: str
    resident_id: str
    office_id: str
    slot_id: str
    date: str
    time: str
    service: str
    status: str
    booked_at: str


class PermitType(Row):
    """A permit or licence the city issues."""

    code: str
    name: str
    category: str
    base_fee_usd: float
    processing_business_days: int
    validity_months: int
    office_id: str


class PermitApplication(Row):
    """A resident's application for a permit."""

    application_id: str
    resident_id: str
    permit_type: str
    site_address: str
    submitted_on: str
    expedited: bool
    fee_usd: float
    status: str
    decision_due: str


class IncomeRecord(Row):
    """One income statement (W-2 or 1099) of a resident for the tax year."""

    record_id: str
    resident_id: str
    tax_year: int
    payer: str
    kind: str
    amount_usd: float
    withheld_usd: float


class Deduction(Row):
    """An itemized deduction a resident claims for the tax year."""

    deduction_id: str
    resident_id: str
    tax_year: int
    kind: str
    amount_usd: float
    description: str


class TaxProfile(Row):
    """A resident's filing for the tax year: status and where the return is."""

    resident_id: str
    tax_year: int
    filing_status: str
    return_status: str
    filed_on: str | None
    accepted_on: str | None
    refund_bank: str


class Program(Row):
    """A benefits programme and its eligibility rule."""

    program_id: str
    name: str
    category: str
    limit_pct_of_poverty: int
    min_age: int
    min_household: int
    base_monthly_usd: float
    per_person_monthly_usd: float
    office_id: str


class BenefitApplication(Row):
    """A resident's application to a programme."""

    benefit_application_id: str
    resident_id: str
    program_id: str
    submitted_on: str
    status: str
    monthly_benefit_usd: float
    decision_due: str


class Vehicle(Row):
    """A registered vehicle."""

    plate: str
    resident_id: str
    make: str
    model: str
    year: int
    vehicle_class: str
    weight_kg: int
    registration_expires: str


class IdDocument(Row):
    """An identity document a resident holds."""

    document_id: str
    resident_id: str
    document: str
    number: str
    issued_on: str
    expires_on: str


class IdApplication(Row):
    """An application for a new or renewed identity document."""

    id_application_id: str
    resident_id: str
    service_code: str
    document: str
    speed: str
    office_id: str
    fee_usd: float
    submitted_on: str
    estimated_ready: str
    status: str


class Citation(Row):
    """A parking or traffic citation."""

    citation_id: str
    resident_id: str
    plate: str
    violation_code: str
    description: str
    kind: str
    amount_usd: float
    issued_on: str
    due_date: str
    location: str
    status: str
    paid_usd: float
    paid_on: str | None
    court_date: str | None
    courtroom: str | None


class Election(Row):
    """An election residents vote in."""

    election_id: str
    name: str
    date: str
    kind: str
    registration_deadline: str
    mail_ballot_deadline: str
    polls_open: str
    polls_close: str


class PollingPlace(Row):
    """A polling place serving one ward."""

    polling_place_id: str
    name: str
    address: str
    ward: int
    latitude_deg: float
    longitude_deg: float
    accessible: bool


class Voter(Row):
    """A resident's voter registration."""

    resident_id: str
    voter_id: str
    registered: bool
    party: str
    precinct: str
    registered_on: str | None


class BallotRequest(Row):
    """A request for a mail ballot for one election."""

    ballot_request_id: str
    resident_id: str
    election_id: str
    mailing_address: str
    requested_on: str
    status: str


class ServiceRequest(Row):
    """A 311 service request."""

    request_id: str
    resident_id: str
    category: str
    address: str
    description: str
    status: str
    opened_on: str
    target_date: str
    closed_on: str | None


# -- the world ------------------------------------------------------------------------------


class GovernmentWorld(World):
    """Residents, offices, permits, taxes, benefits, vehicles, IDs, fines, votes and 311."""

    TABLES: ClassVar[tuple[str, ...]] = (
        "residents",
        "offices",
        "waits_portal",
        "waits_311",
        "waits_crowd",
        "slots",
        "appointments",
        "permit_types",
        "permit_applications",
        "income_records",
        "deductions",
        "tax_profiles",
        "programs",
        "benefit_applications",
        "vehicles",
        "id_documents",
        "id_applications",
        "citations",
        "elections",
        "polling_places",
        "voters",
        "ballot_requests",
        "service_requests",
    )

    residents: dict[str, Resident] = Field(default_factory=dict)
    offices: dict[str, Office] = Field(default_factory=dict)
    waits_portal: dict[str, WaitReading] = Field(default_factory=dict)
    waits_311: dict[str, WaitReading] = Field(default_factory=dict)
    waits_crowd: dict[str, WaitReading] = Field(default_factory=dict)
    slots: dict[str, Slot] = Field(default_factory=dict)
    appointments: dict[str, Appointment] = Field(default_factory=dict)
    permit_types: dict[str, PermitType] = Field(default_factory=dict)
    permit_applications: dict[str, PermitApplication] = Field(default_factory=dict)
    income_records: dict[str, IncomeRecord] = Field(default_factory=dict)
    deductions: dict[str, Deduction] = Field(default_factory=dict)
    tax_profiles: dict[str, TaxProfile] = Field(default_factory=dict)
    programs: dict[str, Program] = Field(default_factory=dict)
    benefit_applications: dict[str, BenefitApplication] = Field(default_factory=dict)
    vehicles: dict[str, Vehicle] = Field(default_factory=dict)
    id_documents: dict[str, IdDocument] = Field(default_factory=dict)
    id_applications: dict[str, IdApplication] = Field(default_factory=dict)
    citations: dict[str, Citation] = Field(default_factory=dict)
    elections: dict[str, Election] = Field(default_factory=dict)
    polling_places: dict[str, PollingPlace] = Field(default_factory=dict)
    voters: dict[str, Voter] = Field(default_factory=dict)
    ballot_requests: dict[str, BallotRequest] = Field(default_factory=dict)
    service_requests: dict[str, ServiceRequest] = Field(default_factory=dict)

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Build every table from ``rng`` alone; the same seed gives the same world."""
        gen = _Generator(rng, cls.EPOCH)
        gen.run()
        return cls(seed=seed, id_counters=gen.counters, **gen.tables)

    def today(self) -> date:
        """The world's current calendar date."""
        return self.now().date()


@dataclass
class _Generator:
    """Draws the tables in a fixed order from one generator, so a seed fixes every byte."""

    rng: random.Random
    epoch: datetime
    tables: dict[str, dict[str, Row]] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)

    @property
    def today(self) -> date:
        return self.epoch.date()

    def day(self, offset: int) -> str:
        return (self.today + timedelta(days=offset)).isoformat()

    def put(self, table: str, key: str, row: Row) -> None:
        self.tables.setdefault(table, {})[key] = row

    def run(self) -> None:
        for name in GovernmentWorld.TABLES:
            self.tables[name] = {}
        self.residents()
        self.offices()
        self.slots()
        self.permits()
        self.taxes()
        self.benefits()
        self.vehicles()
        self.ids()
        self.citations()
        self.elections()
        self.service_requests()

    # -- people and offices -------------------------------------------------------------

    def residents(self) -> None:
        rng = self.rng
        names = people(rng, data.FIRST_NAMES, data.LAST_NAMES, data.EMAIL_DOMAINS)
        numbers = rng.sample(range(10000, 100000), 40)
        for number in numbers:
            name, email = next(names)
            street = rng.choice(data.STREETS)
            size = rng.choices((1, 2, 3, 4, 5, 6), weights=(5, 6, 4, 4, 2, 1))[0]
            income = round(rng.uniform(9000, 60000) + rng.uniform(0, 22000) * size, -2)
            born = self.today - timedelta(days=rng.randint(19 * 365, 84 * 365))
            rid = f"RES-{number}"
            self.put(
                "residents",
                rid,
                Resident(
                    resident_id=rid,
                    name=name,
                    email=email,
                    address=f"{rng.randint(2, 480)} {street.name}",
                    street=street.name,
                    ward=street.ward,
                    zone=street.zone,
                    latitude_deg=round(street.latitude_deg + rng.uniform(-0.002, 0.002), 5),
                    longitude_deg=round(street.longitude_deg + rng.uniform(-0.002, 0.002), 5),
                    date_of_birth=born.isoformat(),
                    household_size=size,
                    annual_income_usd=income,
                ),
            )

    def offices(self) -> None:
        rng = self.rng
        numbers = rng.sample(range(100, 1000), len(data.OFFICES))
        now = self.epoch
        for number, spec in zip(numbers, data.OFFICES, strict=True):
            oid = f"OFF-{number}"
            opens, closes = rng.choice((("08:30", "16:30"), ("09:00", "17:00"), ("08:00", "16:00")))
            self.put(
                "offices",
                oid,
                Office(
                    office_id=oid,
                    name=spec.name,
                    kind=spec.kind,
                    address=spec.address,
                    ward=spec.ward,
                    opens_at=opens,
                    closes_at=closes,
                    phone=f"(617) 555-{rng.randint(1000, 9999)}",
                ),
            )
            wait = max(5, spec.wait_minutes + 5 * rng.randint(-3, 4))
            days = max(1, spec.processing_days + rng.randint(-2, 3))
            portal_at = now - timedelta(minutes=rng.randint(1, 9))
            feed_at = now - timedelta(minutes=rng.randint(10, 40))
            crowd_at = now - timedelta(minutes=rng.randint(41, 95))
            # The sources agree on the figures and differ only in when and how they read
            # them; the crowd detail is drawn last, after the three timestamps.
            readings = (
                ("waits_portal", portal_at, f"tickets waiting: {max(1, wait // 4)}"),
                ("waits_311", feed_at, "relayed from the departmental status board"),
                ("waits_crowd", crowd_at, f"{rng.randint(3, 40)} visitor reports"),
            )
            for table, at, detail in readings:
                self.put(
                    table,
                    oid,
                    WaitReading(
                        office_id=oid,
                        wait_minutes=wait,
                        processing_days=days,
                        as_of=stamp(at),
                        detail=detail,
                    ),
                )

    def slots(self) -> None:
        rng = self.rng
        days: list[date] = []
        current = self.today
        while len(days) < 7:
            current = add_business_days(current, 1)
            days.append(current)
        number = 0
        for oid in self.tables["offices"]:
            for day in days:
                for time in data.SLOT_TIMES:
                    number += 1
                    sid = f"SLT-{number:05d}"
                    self.put(
                        "slots",
                        sid,
                        Slot(
                            slot_id=sid,
                            office_id=oid,
                            date=day.isoformat(),
                            time=time,
                            available=rng.random() < 0.6,
                        ),
                    )
        residents = sorted(self.tables["residents"])
        taken = [s for s in self.tables["slots"].values() if not s.available]  # type: ignore[attr-defined]
        for n, slot in enumerate(rng.sample(taken, 12), start=1):
            aid = f"APT-{n:05d}"
            self.put(
                "appointments",
                aid,
                Appointment(
                    appointment_id=aid,
                    resident_id=rng.choice(residents),
                    office_id=slot.office_id,  # type: ignore[attr-defined]
                    slot_id=slot.slot_id,  # type: ignore[attr-defined]
                    date=slot.date,  # type: ignore[attr-defined]
                    time=slot.time,  # type: ignore[attr-defined]
                    service=rng.choice(data.APPOINTMENT_SERVICES),
                    status="booked",
                    booked_at=stamp(self.epoch - timedelta(days=rng.randint(1, 20))),
                ),
            )
        self.counters["APT"] = 12

    def office_of(self, kind: str) -> list[str]:
        return sorted(
            oid
            for oid, o in self.tables["offices"].items()
            if o.kind == kind  # type: ignore[attr-defined]
        )

    # -- permits --------------------------------------------------------------------------

    def permits(self) -> None:
        rng = self.rng
        permit_offices = self.office_of("permits")
        for spec in data.PERMIT_TYPES:
            self.put(
                "permit_types",
                spec.code,
                PermitType(
                    code=spec.code,
                    name=spec.name,
                    category=spec.category,
                    base_fee_usd=spec.base_fee_usd,
                    processing_business_days=spec.processing_business_days,
                    validity_months=spec.validity_months,
                    office_id=rng.choice(permit_offices),
                ),
            )
        residents = list(self.tables["residents"].values())
        statuses = ("submitted", "under_review", "approved", "rejected", "withdrawn")
        for n in range(1, 41):
            who = rng.choice(residents)
            spec = rng.choice(data.PERMIT_TYPES)
            submitted = self.today - timedelta(days=rng.randint(1, 45))
            expedited = rng.random() < 0.2
            days = math.ceil(spec.processing_business_days * data.EXPEDITE_DAY_SHARE)
            days = days if expedited else spec.processing_business_days
            fee = spec.base_fee_usd * (data.EXPEDITE_MULTIPLIER if expedited else 1)
            due = add_business_days(submitted, days)
            status = rng.choices(statuses, weights=(3, 4, 3, 1, 1))[0]
            if due < self.today and status in ("submitted", "under_review"):
                status = "approved"
            aid = f"PA-{n:05d}"
            self.put(
                "permit_applications",
                aid,
                PermitApplication(
                    application_id=aid,
                    resident_id=who.resident_id,  # type: ignore[attr-defined]
                    permit_type=spec.code,
                    site_address=who.address,  # type: ignore[attr-defined]
                    submitted_on=submitted.isoformat(),
                    expedited=expedited,
                    fee_usd=money(fee),
                    status=status,
                    decision_due=due.isoformat(),
                ),
            )
        self.counters["PA"] = 40

    # -- taxes ----------------------------------------------------------------------------

    def taxes(self) -> None:
        rng = self.rng
        record, deduction = 0, 0
        for rid, res in self.tables["residents"].items():
            size = res.household_size  # type: ignore[attr-defined]
            status = (
                "single"
                if size == 1
                else rng.choice(("married_joint", "married_joint", "head_of_household"))
            )
            income = res.annual_income_usd  # type: ignore[attr-defined]
            parts = [income] if rng.random() < 0.5 else [round(income * 0.8, -2)]
            if round(income - parts[0], 2) > 0:
                parts.append(round(income - parts[0], 2))
            for i, amount in enumerate(parts):
                record += 1
                kind = "W-2" if i == 0 else rng.choice(data.INCOME_KINDS[1:])
                rate = rng.uniform(0.06, 0.14) if kind == "W-2" else rng.choice((0.0, 0.05))
                key = f"INC-{record:05d}"
                self.put(
                    "income_records",
                    key,
                    IncomeRecord(
                        record_id=key,
                        resident_id=rid,
                        tax_year=data.TAX_YEAR,
                        payer=rng.choice(data.EMPLOYERS if kind == "W-2" else data.BANKS),
                        kind=kind,
                        amount_usd=money(amount),
                        withheld_usd=money(amount * rate),
                    ),
                )
            for _ in range(rng.choice((0, 0, 1, 2, 3))):
                deduction += 1
                kind = rng.choice(data.DEDUCTION_KINDS)
                high = {"mortgage_interest": 16000, "state_and_local_tax": 9000}.get(kind, 4000)
                key = f"DED-{deduction:05d}"
                self.put(
                    "deductions",
                    key,
                    Deduction(
                        deduction_id=key,
                        resident_id=rid,
                        tax_year=data.TAX_YEAR,
                        kind=kind,
                        amount_usd=money(rng.uniform(300, high)),
                        description={
                            "mortgage_interest": "Form 1098 mortgage interest",
                            "charitable": "Donations to registered charities",
                            "state_and_local_tax": "State income and property tax",
                            "medical": "Out-of-pocket medical expenses",
                        }[kind],
                    ),
                )
            ret = rng.choices(data.RETURN_STATUSES, weights=(4, 2, 2, 2))[0]
            filed = accepted = None
            if ret != "not_filed":
                filed_day = add_business_days(self.today - timedelta(days=rng.randint(25, 40)), 0)
                filed = filed_day.isoformat()
                if ret in ("accepted", "refund_sent"):
                    accepted = add_business_days(filed_day, rng.randint(1, 4)).isoformat()
            self.put(
                "tax_profiles",
                rid,
                TaxProfile(
                    resident_id=rid,
                    tax_year=data.TAX_YEAR,
                    filing_status=status,
                    return_status=ret,
                    filed_on=filed,
                    accepted_on=accepted,
                    refund_bank=rng.choice(data.BANKS),
                ),
            )
        self.counters["INC"] = record
        self.counters["DED"] = deduction

    # -- benefits ---------------------------------------------------------------------------

    def benefits(self) -> None:
        rng = self.rng
        benefit_offices = self.office_of("benefits")
        for spec in data.PROGRAMS:
            self.put(
                "programs",
                spec.code,
                Program(
                    program_id=spec.code,
                    name=spec.name,
                    category=spec.category,
                    limit_pct_of_poverty=spec.limit_pct_of_poverty,
                    min_age=spec.min_age,
                    min_household=spec.min_household,
                    base_monthly_usd=spec.base_monthly_usd,
                    per_person_monthly_usd=spec.per_person_monthly_usd,
                    office_id=rng.choice(benefit_offices),
                ),
            )
        residents = list(self.tables["residents"].values())
        seen: set[tuple[str, str]] = set()
        n = 0
        while n < 18:
            who = rng.choice(residents)
            spec = rng.choice(data.PROGRAMS)
            key = (who.resident_id, spec.code)  # type: ignore[attr-defined]
            if key in seen:
                continue
            seen.add(key)
            n += 1
            submitted = self.today - timedelta(days=rng.randint(2, 60))
            size = who.household_size  # type: ignore[attr-defined]
            bid = f"BA-{n:05d}"
            self.put(
                "benefit_applications",
                bid,
                BenefitApplication(
                    benefit_application_id=bid,
                    resident_id=who.resident_id,  # type: ignore[attr-defined]
                    program_id=spec.code,
                    submitted_on=submitted.isoformat(),
                    status=rng.choice(("pending", "approved", "approved", "denied")),
                    monthly_benefit_usd=money(
                        spec.base_monthly_usd + spec.per_person_monthly_usd * (size - 1)
                    ),
                    decision_due=add_business_days(submitted, 30).isoformat(),
                ),
            )
        self.counters["BA"] = n

    # -- vehicles and ids ---------------------------------------------------------------------

    def vehicles(self) -> None:
        rng = self.rng
        residents = sorted(self.tables["residents"])
        owners = rng.sample(residents, 28)
        owners += rng.sample(owners, 8)
        plates: set[str] = set()
        for rid in owners:
            plate = ""
            while not plate or plate in plates:
                plate = f"{rng.randint(1, 9)}{rng.choice('ABCDEFGHJKLMNPRSTVWXY')}" + (
                    f"{rng.choice('ABCDEFGHJKLMNPRSTVWXY')}{rng.randint(10, 99)}"
                )
            plates.add(plate)
            make, model, klass, weight = rng.choice(data.VEHICLE_MODELS)
            expires = self.today + timedelta(days=rng.randint(-150, 200))
            self.put(
                "vehicles",
                plate,
                Vehicle(
                    plate=plate,
                    resident_id=rid,
                    make=make,
                    model=model,
                    year=rng.randint(2008, 2025),
                    vehicle_class=klass,
                    weight_kg=weight + rng.randint(-40, 60),
                    registration_expires=expires.isoformat(),
                ),
            )

    def ids(self) -> None:
        rng = self.rng
        number = 0
        for rid in sorted(self.tables["residents"]):
            kinds = ["driver_licence" if rng.random() < 0.8 else "state_id"]
            if rng.random() < 0.6:
                kinds.append("passport_book")
            if rng.random() < 0.15:
                kinds.append("passport_card")
            for kind in kinds:
                number += 1
                years = 10 if kind.startswith("passport") else 5
                expires = self.today + timedelta(days=rng.randint(-300, 900))
                issued = expires - timedelta(days=365 * years)
                did = f"DOC-{number:05d}"
                prefix = {"passport_book": "P", "passport_card": "C"}.get(kind, "S")
                self.put(
                    "id_documents",
                    did,
                    IdDocument(
                        document_id=did,
                        resident_id=rid,
                        document=kind,
                        number=f"{prefix}{rng.randint(10000000, 99999999)}",
                        issued_on=issued.isoformat(),
                        expires_on=expires.isoformat(),
                    ),
                )
        passport_offices = self.office_of("passports")
        residents = sorted(self.tables["residents"])
        for n in range(1, 11):
            spec = rng.choice(data.ID_SERVICES)
            submitted = self.today - timedelta(days=rng.randint(1, 30))
            ready = add_business_days(submitted, spec.processing_business_days)
            key = f"IDA-{n:05d}"
            self.put(
                "id_applications",
                key,
                IdApplication(
                    id_application_id=key,
                    resident_id=rng.choice(residents),
                    service_code=spec.code,
                    document=spec.document,
                    speed=spec.speed,
                    office_id=rng.choice(passport_offices),
                    fee_usd=spec.fee_usd,
                    submitted_on=submitted.isoformat(),
                    estimated_ready=ready.isoformat(),
                    status="ready" if ready <= self.today else "processing",
                ),
            )
        self.counters["IDA"] = 10

    # -- fines ------------------------------------------------------------------------------

    def citations(self) -> None:
        rng = self.rng
        vehicles = sorted(self.tables["vehicles"].values(), key=lambda v: v.plate)  # type: ignore[attr-defined]
        numbers = rng.sample(range(100000, 1000000), 45)
        for number in numbers:
            car = rng.choice(vehicles)
            spec = rng.choice(data.VIOLATIONS)
            issued = self.today - timedelta(days=rng.randint(3, 120))
            due = issued + timedelta(days=data.FINE_DUE_DAYS)
            status = rng.choices(("unpaid", "paid", "contested", "dismissed"), (6, 3, 2, 1))[0]
            court = room = paid_on = None
            paid = 0.0
            if status == "contested":
                court = add_business_days(self.today, rng.randint(3, 25)).isoformat()
                room = rng.choice(data.COURTROOMS)
            if status == "paid":
                paid_on = min(self.today, issued + timedelta(days=rng.randint(1, 40)))
                paid = spec.amount_usd + fine_late_fee(spec.amount_usd, due, paid_on)
            street = rng.choice(data.STREETS).name
            cid = f"CIT-{number}"
            self.put(
                "citations",
                cid,
                Citation(
                    citation_id=cid,
                    resident_id=car.resident_id,  # type: ignore[attr-defined]
                    plate=car.plate,  # type: ignore[attr-defined]
                    violation_code=spec.code,
                    description=spec.description,
                    kind=spec.kind,
                    amount_usd=spec.amount_usd,
                    issued_on=issued.isoformat(),
                    due_date=due.isoformat(),
                    location=f"{rng.randint(1, 480)} {street}",
                    status=status,
                    paid_usd=money(paid),
                    paid_on=paid_on.isoformat() if paid_on else None,
                    court_date=court,
                    courtroom=room,
                ),
            )

    # -- elections ----------------------------------------------------------------------------

    def elections(self) -> None:
        rng = self.rng
        plan = (
            ("Ward 3 Special Council Election", 22, "special"),
            ("Riverton Municipal Preliminary", 71, "primary"),
            ("State Primary", 190, "primary"),
            ("General Election", 246, "general"),
        )
        for n, (name, offset, kind) in enumerate(plan, start=1):
            day = self.today + timedelta(days=offset + rng.randint(0, 3))
            while day.weekday() != 1:  # American elections fall on a Tuesday
                day += timedelta(days=1)
            if kind == "general":
                day = date(2026, 11, 3)
            eid = f"EL-{day.year}-{n:02d}"
            self.put(
                "elections",
                eid,
                Election(
                    election_id=eid,
                    name=name if kind != "general" else f"{day.year} General Election",
                    date=day.isoformat(),
                    kind=kind,
                    registration_deadline=(day - timedelta(days=10)).isoformat(),
                    mail_ballot_deadline=(day - timedelta(days=5)).isoformat(),
                    polls_open="07:00",
                    polls_close="20:00",
                ),
            )
        for n, spec in enumerate(data.POLLING_PLACES, start=1):
            pid = f"PP-{n:03d}"
            self.put(
                "polling_places",
                pid,
                PollingPlace(
                    polling_place_id=pid,
                    name=spec.name,
                    address=spec.address,
                    ward=spec.ward,
                    latitude_deg=spec.latitude_deg,
                    longitude_deg=spec.longitude_deg,
                    accessible=rng.random() < 0.85,
                ),
            )
        requests = 0
        elections = sorted(self.tables["elections"])
        for rid, res in self.tables["residents"].items():
            registered = rng.random() < 0.85
            ward = res.ward  # type: ignore[attr-defined]
            self.put(
                "voters",
                rid,
                Voter(
                    resident_id=rid,
                    voter_id=f"V{rng.randint(1000000, 9999999)}",
                    registered=registered,
                    party=rng.choice(data.PARTIES) if registered else "",
                    precinct=f"{ward}-{rng.randint(1, 3)}",
                    registered_on=self.day(-rng.randint(60, 4000)) if registered else None,
                ),
            )
            if registered and rng.random() < 0.2:
                requests += 1
                key = f"BR-{requests:05d}"
                self.put(
                    "ballot_requests",
                    key,
                    BallotRequest(
                        ballot_request_id=key,
                        resident_id=rid,
                        election_id=rng.choice(elections[:2]),
                        mailing_address=res.address,  # type: ignore[attr-defined]
                        requested_on=self.day(-rng.randint(1, 20)),
                        status="mailed",
                    ),
                )
        self.counters["BR"] = requests

    # -- 311 --------------------------------------------------------------------------------

    def service_requests(self) -> None:
        rng = self.rng
        residents = list(self.tables["residents"].values())
        for n in range(1, 46):
            who = rng.choice(residents)
            spec = rng.choice(data.SERVICE_CATEGORIES)
            opened = self.today - timedelta(days=rng.randint(0, 40))
            target = add_business_days(opened, spec.sla_business_days)
            status = rng.choice(data.SERVICE_STATUSES)
            closed = None
            if status == "closed":
                closed = min(self.today, opened + timedelta(days=rng.randint(1, 20))).isoformat()
            street = rng.choice(data.STREETS).name
            place = who.address if rng.random() < 0.5 else f"{rng.randint(1, 480)} {street}"  # type: ignore[attr-defined]
            key = f"SR-{n:05d}"
            self.put(
                "service_requests",
                key,
                ServiceRequest(
                    request_id=key,
                    resident_id=who.resident_id,  # type: ignore[attr-defined]
                    category=spec.code,
                    address=place,
                    description=spec.label,
                    status=status,
                    opened_on=opened.isoformat(),
                    target_date=target.isoformat(),
                    closed_on=closed,
                ),
            )
        self.counters["SR"] = 45
