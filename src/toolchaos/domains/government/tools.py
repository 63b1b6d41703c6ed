"""The government tools: offices, permits, taxes, benefits, vehicles, IDs, waste, fines, votes.

They also cover residents and 311 service requests.

Lookups, searches and most record-keeping writes are declared through the shared shapes;
wait times, business-day decision dates, tax owed, benefit eligibility, renewal quotes
with late penalties, collection days and polling places are written by hand. Every
parameter named ``resident`` takes a resident id or the resident's full name, and every
``office`` an office id or its full name (``search_residents`` and ``search_offices``
return the ids). Refusals are :class:`ToolError`: 404 for an unknown id or name, 409 for
a record in the wrong state or a duplicate, 422 for a request that breaks a rule.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from datetime import date, timedelta
from typing import Any, Literal, Protocol, TypeVar, cast

from toolchaos.core.tools import Param, Tool
from toolchaos.core.types import ToolKind
from toolchaos.core.values import is_number
from toolchaos.core.world import Row, World
from toolchaos.domains import _shapes as shapes
from toolchaos.domains._common import (
    bounded_text,
    check_choice,
    conflict,
    date_arg,
    enum_schema,
    find_key,
    haversine_km,
    is_integer,
    listing,
    money,
    not_found,
    row_json,
    stamp,
    stored_key,
    unprocessable,
)
from toolchaos.domains._shapes import Filter, phrased_tool
from toolchaos.domains.government import data
from toolchaos.domains.government.world import (
    Appointment,
    BallotRequest,
    BenefitApplication,
    Citation,
    Deduction,
    GovernmentWorld,
    IdApplication,
    Office,
    PermitApplication,
    Program,
    Resident,
    ServiceRequest,
    Vehicle,
    add_business_days,
    business_days_between,
    fine_late_fee,
    marginal_rate,
    next_collection,
    poverty_guideline,
    renewal_late_fee,
    tax_on,
)

MAX_TEXT_CHARS = 300
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday")
RESIDENT_DOC = (
    "The resident: a resident id (e.g. 'RES-12345') or their full name as registered, "
    "e.g. 'Maria Garcia' (search_residents returns the id)."
)
OFFICE_DOC = (
    "The office: an office id (e.g. 'OFF-123') or its full name, e.g. 'Riverton Permit "
    "Center' (search_offices returns the id)."
)
_WAIT_DOC = (
    "office_id, office_name, kind, wait_minutes (current queue time for a walk-in, "
    "minutes), processing_days (typical business days to complete the office's main "
    "service), as_of (UTC time the figures were last updated), detail and source"
)


_QUOTE_KEYS = (
    "plate, vehicle_class, weight_kg, registration_expires, renewal_date, term_years, "
    "days_late, base_fee_usd, weight_surcharge_usd (per started 500 kg over the threshold), "
    "late_penalty_usd (a flat fee plus a monthly amount once expired, capped), "
    "total_fee_usd and new_expiry"
)
_CITATION_DOC = (
    "citation_id, resident_id, plate, violation_code, description, kind (parking or "
    "traffic), amount_usd (the fine), issued_on, due_date, location, status (unpaid, paid, "
    "contested, dismissed), paid_usd, paid_on, court_date and courtroom (for a contested "
    "citation), late_fee_usd (a share of the fine per started 30 days past due, capped) "
    "and amount_due_usd (what must be paid today; zero unless unpaid)"
)
DOC_PHRASES = {
    "resident": RESIDENT_DOC,
    "office": OFFICE_DOC,
    "wait": _WAIT_DOC,
    "quote": _QUOTE_KEYS,
    "citations": _CITATION_DOC,
}


def _gov(world: World) -> GovernmentWorld:
    return cast(GovernmentWorld, world)


_tool = phrased_tool(DOC_PHRASES)


# -- residents and offices ------------------------------------------------------------------


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class _Owned(Protocol):
    @property
    def resident_id(self) -> str: ...


_NamedRow = TypeVar("_NamedRow", bound=_Named)
_OwnedRow = TypeVar("_OwnedRow", bound=_Owned)


def _by_name_or_id(table: dict[str, _NamedRow], value: str, param: str, entity: str) -> _NamedRow:
    """The row whose id or (unique, case- and space-insensitive) full name is ``value``."""
    if not isinstance(value, str) or not value.strip():
        raise unprocessable(f"{param} must not be empty")
    key = find_key(table, value)
    if key is not None:
        return table[key]
    wanted = " ".join(value.split()).casefold()
    matches = [row for row in table.values() if row.name.casefold() == wanted]
    if len(matches) != 1:
        raise not_found(entity, value)
    return matches[0]


def resolve_resident(world: World, value: str, param: str = "resident") -> Resident:
    """Return the resident a name-or-id parameter names, or raise 404/422."""
    return _by_name_or_id(_gov(world).residents, value, param, "Resident")


def resolve_office(world: World, value: str, param: str = "office") -> Office:
    """Return the office a name-or-id parameter names, or raise 404/422."""
    return _by_name_or_id(_gov(world).offices, value, param, "Office")


def _resident_rows(
    world: GovernmentWorld,
    resident: str,
    table: Mapping[str, _OwnedRow],
    order: Callable[[_OwnedRow], Any],
    reverse: bool = False,
) -> tuple[Resident, list[_OwnedRow]]:
    """The resident a parameter names and their rows of ``table``, sorted by ``order``."""
    res = resolve_resident(world, resident)
    rows = [row for row in table.values() if row.resident_id == res.resident_id]
    return res, sorted(rows, key=order, reverse=reverse)


def _resident_view(world: World, row: Row) -> dict[str, Any]:
    res = cast(Resident, row)
    out = row_json(res)
    out.pop("latitude_deg")
    out.pop("longitude_deg")
    return out


@_tool()
def search_residents(world: GovernmentWorld, query: str, ward: int | None = None) -> dict[str, Any]:
    """Search the city's resident register by name; returns the resident_id other tools take.

    Matches every resident whose full name contains the query (case-insensitive). Each
    result has resident_id, name, email, address, street, ward, zone (waste-collection
    zone), date_of_birth, household_size and annual_income_usd. Sorted by name, in
    'results', with 'count' and 'total'.

    Args:
        world: The city's systems (not shown to the agent).
        query: Part of the resident's name, e.g. 'Garcia'.
        ward: Only residents of this ward.
    """
    wanted = " ".join(query.split()).casefold()
    if not wanted:
        raise unprocessable("query must not be empty")
    rows = [r for r in world.residents.values() if wanted in r.name.casefold()]
    if ward is not None:
        rows = [r for r in rows if r.ward == ward]
    rows.sort(key=lambda r: (r.name, r.resident_id))
    return listing(rows, 20, lambda r: _resident_view(world, r))


@_tool()
def get_resident(world: GovernmentWorld, resident: str) -> dict[str, Any]:
    """Get one resident's record.

    Returns resident_id, name, email, address, street, ward, zone (waste-collection zone),
    date_of_birth (YYYY-MM-DD), age (whole years today), household_size (people in the
    household) and annual_income_usd (household income, US dollars).

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
    """
    res = resolve_resident(world, resident)
    return {**_resident_view(world, res), "age": _age(world, res)}


def _age(world: GovernmentWorld, res: Resident) -> int:
    born, today = date.fromisoformat(res.date_of_birth), world.today()
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


@_tool()
def search_offices(
    world: GovernmentWorld,
    query: str | None = None,
    kind: Literal[
        "permits",
        "tax",
        "benefits",
        "motor_vehicles",
        "passports",
        "waste",
        "court",
        "elections",
        "city_services",
    ]
    | None = None,
) -> dict[str, Any]:
    """Find public offices by name and kind; returns the office_id other tools take.

    Each result has office_id, name, kind, address, ward, opens_at and closes_at (HH:MM,
    local time, business days only) and phone. Sorted by name, in 'results', with 'count'
    and 'total'.

    Args:
        world: The city's systems (not shown to the agent).
        query: Part of the office's name (case-insensitive), e.g. 'Passport'.
        kind: Only offices of this kind.
    """
    rows = sorted(world.offices.values(), key=lambda o: o.name)
    if query is not None:
        wanted = " ".join(query.split()).casefold()
        rows = [o for o in rows if wanted in o.name.casefold()]
    if kind is not None:
        rows = [o for o in rows if o.kind == kind]
    return listing(rows, 30, row_json)


def _wait(world: GovernmentWorld, source: shapes.Source, office: str) -> dict[str, Any]:
    found = resolve_office(world, office)
    reading = world.table(source.table)[found.office_id]
    return {
        "office_id": found.office_id,
        "office_name": found.name,
        "kind": found.kind,
        "wait_minutes": reading.wait_minutes,
        "processing_days": reading.processing_days,
        "as_of": reading.as_of,
        "detail": reading.detail,
        "source": source.name,
    }


_OFFICE_ARGS = """
    Args:
        world: The city's systems (not shown to the agent).
        office: {office}
"""

get_office_wait_time, get_office_wait_time_311, get_office_wait_time_crowd = shapes.source_tools(
    _wait,
    _OFFICE_ARGS,
    shapes.Source(
        "get_office_wait_time",
        "waits_portal",
        data.PORTAL_SOURCE,
        """Current walk-in wait and typical processing time of an office, from the agency portal.

    The agency portal reads the office's own queue system and is the authoritative
    source: when wait-time sources disagree, its figures prevail. Returns {wait}. The
    311 status feed (get_office_wait_time_311) and the LineWatch crowd reports
    (get_office_wait_time_crowd) publish the same fields independently; if the portal is
    unavailable, get_office_wait_time_311 serves the same figures under the same keys.
    """,
    ),
    shapes.Source(
        "get_office_wait_time_311",
        "waits_311",
        data.FEED_311_SOURCE,
        """Wait and processing time of an office as relayed by the city's 311 status feed.

    Returns {wait}. Updated from departmental status boards every half hour or so; the
    agency portal (get_office_wait_time) is authoritative where they disagree.
    """,
    ),
    shapes.Source(
        "get_office_wait_time_crowd",
        "waits_crowd",
        data.CROWD_SOURCE,
        """Wait and processing time of an office from LineWatch, a crowd-reporting app.

    Returns {wait}. Built from visitors' reports; the agency portal
    (get_office_wait_time) is authoritative where they disagree.
    """,
    ),
    declare=_tool,
)


# -- appointments -----------------------------------------------------------------------------


@_tool()
def list_appointment_slots(
    world: GovernmentWorld, office: str, date: str | None = None
) -> dict[str, Any]:
    """List the open appointment slots of an office over the coming business days.

    Each slot has slot_id, office_id, date (YYYY-MM-DD), time (HH:MM, local) and
    available (always true here). Sorted by date and time, in 'results', with 'count' and
    'total'.

    Args:
        world: The city's systems (not shown to the agent).
        office: {office}
        date: Only slots on this day, YYYY-MM-DD.
    """
    found = resolve_office(world, office)
    rows = [s for s in world.slots.values() if s.office_id == found.office_id and s.available]
    if date is not None:
        wanted = date_arg(date, "date").isoformat()
        rows = [s for s in rows if s.date == wanted]
    rows.sort(key=lambda s: (s.date, s.time))
    return listing(rows, 50, row_json, office_id=found.office_id, office_name=found.name)


def _appointment_view(world: World, row: Row) -> dict[str, Any]:
    apt = cast(Appointment, row)
    office = _gov(world).offices.get(apt.office_id)
    return {**row_json(apt), "office_name": office.name if office else None}


@_tool()
def list_appointments(
    world: GovernmentWorld,
    resident: str,
    status: Literal["booked", "cancelled"] | None = None,
) -> dict[str, Any]:
    """List a resident's appointments at city offices, soonest first.

    Each has appointment_id, resident_id, office_id, office_name, slot_id, date, time,
    service, status and booked_at. In 'results', with 'count' and 'total'.

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
        status: Only appointments in this status.
    """
    res, rows = _resident_rows(
        world, resident, world.appointments, lambda a: (a.date, a.time, a.appointment_id)
    )
    if status is not None:
        rows = [a for a in rows if a.status == status]
    return listing(rows, 50, lambda a: _appointment_view(world, a), resident_id=res.resident_id)


@_tool(ToolKind.WRITE)
def book_appointment(
    world: GovernmentWorld,
    resident: str,
    slot_id: str,
    service: Literal[
        "consultation", "document_drop_off", "in_person_application", "identity_verification"
    ],
) -> dict[str, Any]:
    """Book an open appointment slot for a resident.

    Refused (409) if the slot is taken or the resident already has a booking at that
    office on that day. Returns the appointment: appointment_id, resident_id, office_id,
    office_name, slot_id, date, time, service, status and booked_at.

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
        slot_id: The slot to book, e.g. 'SLT-00042' (from list_appointment_slots).
        service: What the visit is for.
    """
    res = resolve_resident(world, resident)
    check_choice("service", service, data.APPOINTMENT_SERVICES)
    key = stored_key(world.slots, slot_id, "Slot")
    slot = world.slots[key]
    if not slot.available:
        raise conflict(f"Slot {slot.slot_id} is already taken")
    for apt in world.appointments.values():
        if (
            apt.resident_id == res.resident_id
            and apt.status == "booked"
            and (apt.office_id, apt.date) == (slot.office_id, slot.date)
        ):
            raise conflict(
                f"{res.name} already has appointment {apt.appointment_id} at this office on "
                f"{apt.date}",
                appointment_id=apt.appointment_id,
            )
    apt_id = world.next_id("APT")
    row = Appointment(
        appointment_id=apt_id,
        resident_id=res.resident_id,
        office_id=slot.office_id,
        slot_id=slot.slot_id,
        date=slot.date,
        time=slot.time,
        service=service,
        status="booked",
        booked_at=stamp(world.now()),
    )
    world.update("slots", key, available=False)
    world.insert("appointments", apt_id, row)
    return _appointment_view(world, row)


# -- permits and licences ------------------------------------------------------------------------

list_permit_types = shapes.search(
    "list_permit_types",
    "permit_types",
    "List the permits and licences the city issues. Every filter given must match. Each "
    "has code, name, category, base_fee_usd (US dollars), processing_business_days "
    "(standard review time), validity_months and office_id (the office that reviews it). "
    "Sorted by name, in 'results', with 'count' and 'total'.",
    [
        Filter(
            "category",
            "category",
            "Only permits of this category.",
            schema=enum_schema(data.PERMIT_CATEGORIES),
        ),
        Filter(
            "name_contains", "name", "Part of the permit's name (case-insensitive).", op="contains"
        ),
    ],
    sort_by="name",
    limit=50,
)


def _permit_code(world: World, value: Any, param: str) -> str:
    return stored_key(_gov(world).permit_types, value, "Permit type")


def _decision(
    world: GovernmentWorld, permit_type: str, start: str | None, expedited: bool, param: str
) -> dict[str, Any]:
    code = _permit_code(world, permit_type, param)
    permit = world.permit_types[code]
    begin = world.today() if start is None else date_arg(start, "start date")
    days = permit.processing_business_days
    if expedited:
        days = math.ceil(days * data.EXPEDITE_DAY_SHARE)
    decided = add_business_days(begin, days)
    return {
        "permit_type": code,
        "permit_name": permit.name,
        "start_date": begin.isoformat(),
        "expedited": bool(expedited),
        "business_days": days,
        "decision_date": decided.isoformat(),
        "calendar_days": (decided - begin).days,
    }


@_tool()
def estimate_decision_date(
    world: GovernmentWorld, permit_type: str, start_date: str | None = None, expedited: bool = False
) -> dict[str, Any]:
    """When a permit application would be decided: business days from a start date.

    Counts the permit's review time in business days after the start date, skipping
    weekends and city holidays; expedited review takes half the days (rounded up).
    Returns permit_type, permit_name, start_date, expedited, business_days,
    decision_date (YYYY-MM-DD) and calendar_days. estimate_decision_date_v2 is the newer
    version of this endpoint; this one still works.

    Args:
        world: The city's systems (not shown to the agent).
        permit_type: The permit code, e.g. 'FNC-RES' (from list_permit_types).
        start_date: The day the application is (or was) submitted, YYYY-MM-DD; default today.
        expedited: Whether expedited review is (or was) requested.
    """
    return _decision(world, permit_type, start_date, expedited, "permit_type")


@_tool(name="estimate_decision_date_v2")
def estimate_decision_date_v2(
    world: GovernmentWorld,
    permit_code: str,
    submitted_on: str | None = None,
    expedited: bool = False,
) -> dict[str, Any]:
    """Version 2 of estimate_decision_date: the same estimate with renamed parameters.

    Takes permit_code (was permit_type) and submitted_on (was start_date); returns the
    keys estimate_decision_date returns: permit_type, permit_name, start_date, expedited,
    business_days, decision_date and calendar_days.

    Args:
        world: The city's systems (not shown to the agent).
        permit_code: The permit code, e.g. 'FNC-RES' (from list_permit_types).
        submitted_on: The submission day, YYYY-MM-DD; default today.
        expedited: Whether expedited review is (or was) requested.
    """
    return _decision(world, permit_code, submitted_on, expedited, "permit_code")


def _permit_view(world: World, row: Row) -> dict[str, Any]:
    app = cast(PermitApplication, row)
    permit = _gov(world).permit_types.get(app.permit_type)
    return {
        **row_json(app),
        "permit_name": permit.name if permit else None,
        "office_id": permit.office_id if permit else None,
    }


@_tool()
def list_permit_applications(
    world: GovernmentWorld,
    resident: str | None = None,
    status: Literal["submitted", "under_review", "approved", "rejected", "withdrawn"] | None = None,
    application_id: str | None = None,
) -> dict[str, Any]:
    """List permit and licence applications, newest first. Give resident or application_id.

    Each has application_id, resident_id, permit_type (code), permit_name, site_address,
    submitted_on, expedited, fee_usd (US dollars), status, decision_due (YYYY-MM-DD) and
    office_id (the reviewing office). In 'results', with 'count' and 'total'.

    Args:
        world: The city's systems (not shown to the agent).
        resident: Only this resident's applications. {resident}
        status: Only applications in this status.
        application_id: Only this application, e.g. 'PA-00042'.
    """
    if resident is None and application_id is None:
        raise unprocessable("give resident or application_id")
    rows = list(world.permit_applications.values())
    if resident is not None:
        res = resolve_resident(world, resident)
        rows = [a for a in rows if a.resident_id == res.resident_id]
    if application_id is not None:
        wanted = application_id.strip().casefold()
        rows = [a for a in rows if a.application_id.casefold() == wanted]
    if status is not None:
        rows = [a for a in rows if a.status == status]
    rows.sort(key=lambda a: (a.submitted_on, a.application_id), reverse=True)
    return listing(rows, 50, lambda a: _permit_view(world, a))


def _build_permit(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _gov(world)
    res = resolve_resident(w, args["resident"])
    code = _permit_code(w, args["permit_type"], "permit_type")
    permit = w.permit_types[code]
    expedited = bool(args.get("expedited") or False)
    site = bounded_text(args.get("site_address") or res.address, "site_address", MAX_TEXT_CHARS)
    for app in w.permit_applications.values():
        if (
            app.resident_id == res.resident_id
            and app.permit_type == code
            and app.status in ("submitted", "under_review")
        ):
            raise conflict(
                f"{res.name} already has a pending {permit.name} application "
                f"({app.application_id})",
                application_id=app.application_id,
            )
    estimate = _decision(w, code, None, expedited, "permit_type")
    fee = permit.base_fee_usd * (data.EXPEDITE_MULTIPLIER if expedited else 1)
    key = w.next_id("PA")
    row = PermitApplication(
        application_id=key,
        resident_id=res.resident_id,
        permit_type=code,
        site_address=site,
        submitted_on=w.today().isoformat(),
        expedited=expedited,
        fee_usd=money(fee),
        status="submitted",
        decision_due=estimate["decision_date"],
    )
    return key, row


apply_for_permit = shapes.create(
    "apply_for_permit",
    "permit_applications",
    "Submit a permit or licence application for a resident today. Expedited review costs "
    "half the base fee again and halves the review time. Refused (409) if the resident "
    "already has a pending application for the same permit. Returns the application: "
    "application_id, resident_id, permit_type, permit_name, site_address, submitted_on, "
    "expedited, fee_usd, status, decision_due and office_id (the reviewing office).",
    [
        Param("resident", {"type": "string"}, RESIDENT_DOC),
        Param("permit_type", {"type": "string"}, "The permit code (from list_permit_types)."),
        Param(
            "site_address",
            {"type": "string"},
            "Where the work or activity takes place; default the resident's address.",
            required=False,
        ),
        Param(
            "expedited",
            {"type": "boolean"},
            "Request expedited review (default false).",
            required=False,
        ),
    ],
    _build_permit,
    view=_permit_view,
)


def _withdraw(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    app = cast(PermitApplication, row)
    if app.status not in ("submitted", "under_review"):
        raise conflict(f"Application {app.application_id} is {app.status} and cannot be withdrawn")
    return {"status": "withdrawn"}


withdraw_permit_application = shapes.update(
    "withdraw_permit_application",
    "permit_applications",
    "application_id",
    "Permit application",
    "Withdraw a pending (submitted or under_review) permit application. Refused (409) "
    "otherwise. Returns the application with status 'withdrawn'.",
    "The application id, e.g. 'PA-00042'.",
    [],
    _withdraw,
    view=_permit_view,
)


# -- taxes ------------------------------------------------------------------------------------


def _filing_status(value: Any, param: str) -> str:
    check_choice(param, value, data.FILING_STATUSES)
    return str(value)


@_tool()
def list_income_records(world: GovernmentWorld, resident: str) -> dict[str, Any]:
    """List a resident's income statements (W-2 and 1099 forms) for tax year 2025.

    Each has record_id, resident_id, tax_year, payer, kind, amount_usd (income, US
    dollars) and withheld_usd (federal tax withheld). In 'results' (by record_id), with
    'count', 'total', total_income_usd and total_withheld_usd.

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
    """
    res, rows = _resident_rows(world, resident, world.income_records, lambda r: r.record_id)
    return listing(
        rows,
        50,
        row_json,
        resident_id=res.resident_id,
        total_income_usd=money(sum(r.amount_usd for r in rows)),
        total_withheld_usd=money(sum(r.withheld_usd for r in rows)),
    )


@_tool()
def list_deductions(world: GovernmentWorld, resident: str) -> dict[str, Any]:
    """List the itemized deductions a resident claims for tax year 2025.

    Each has deduction_id, resident_id, tax_year, kind, amount_usd and description. In
    'results' (by deduction_id), with 'count', 'total' and total_itemized_usd.

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
    """
    res, rows = _resident_rows(world, resident, world.deductions, lambda d: d.deduction_id)
    return listing(
        rows,
        50,
        row_json,
        resident_id=res.resident_id,
        total_itemized_usd=money(sum(d.amount_usd for d in rows)),
    )


def _build_deduction(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _gov(world)
    res = resolve_resident(w, args["resident"])
    kind = args["kind"]
    check_choice("kind", kind, data.DEDUCTION_KINDS)
    amount = args["amount_usd"]
    if not is_number(amount) or not 0 < amount <= 1_000_000:
        raise unprocessable("amount_usd must be a positive number of dollars")
    profile = w.tax_profiles[res.resident_id]
    if profile.return_status != "not_filed":
        raise conflict(
            f"The {data.TAX_YEAR} return of {res.name} is already {profile.return_status}; "
            "deductions can no longer be added"
        )
    key = w.next_id("DED")
    row = Deduction(
        deduction_id=key,
        resident_id=res.resident_id,
        tax_year=data.TAX_YEAR,
        kind=kind,
        amount_usd=money(amount),
        description=bounded_text(
            args.get("description"), "description", MAX_TEXT_CHARS, required=False
        ),
    )
    return key, row


add_tax_deduction = shapes.create(
    "add_tax_deduction",
    "deductions",
    "Claim an itemized deduction on a resident's 2025 return. Only while the return is "
    "not yet filed (409 otherwise). Returns the deduction: deduction_id, resident_id, "
    "tax_year, kind, amount_usd and description.",
    [
        Param("resident", {"type": "string"}, RESIDENT_DOC),
        Param("kind", enum_schema(data.DEDUCTION_KINDS), "The kind of deduction."),
        Param("amount_usd", {"type": "number"}, "The amount, US dollars."),
        Param(
            "description",
            {"type": "string"},
            "A short note, e.g. 'Food bank donation' (default empty).",
            required=False,
        ),
    ],
    _build_deduction,
)


def _tax(income: Any, status: Any, income_param: str, status_param: str) -> dict[str, Any]:
    if not is_number(income) or not 0 <= income <= 1e9:
        raise unprocessable(f"{income_param} must be a non-negative number of dollars")
    filing = _filing_status(status, status_param)
    tax = tax_on(float(income), filing)
    return {
        "taxable_income_usd": money(income),
        "filing_status": filing,
        "tax_usd": tax,
        "marginal_rate_pct": round(marginal_rate(float(income), filing) * 100, 1),
        "effective_rate_pct": round(tax / income * 100, 2) if income else 0.0,
    }


@_tool()
def calculate_tax(
    world: GovernmentWorld,
    taxable_income_usd: float,
    filing_status: Literal["single", "married_joint", "head_of_household"],
) -> dict[str, Any]:
    """Federal income tax on a taxable income under the 2025 brackets.

    Returns taxable_income_usd, filing_status, tax_usd (US dollars),
    marginal_rate_pct and effective_rate_pct. calculate_tax_v2 is the newer version of
    this endpoint; this one still works.

    Args:
        world: The city's systems (not shown to the agent).
        taxable_income_usd: Income after deductions, US dollars.
        filing_status: The filing status.
    """
    return _tax(taxable_income_usd, filing_status, "taxable_income_usd", "filing_status")


@_tool(name="calculate_tax_v2")
def calculate_tax_v2(
    world: GovernmentWorld,
    income_usd: float,
    status: Literal["single", "married_joint", "head_of_household"],
) -> dict[str, Any]:
    """Version 2 of calculate_tax: the same computation with renamed parameters.

    Takes income_usd (was taxable_income_usd) and status (was filing_status); returns the
    keys calculate_tax returns: taxable_income_usd, filing_status, tax_usd,
    marginal_rate_pct and effective_rate_pct.

    Args:
        world: The city's systems (not shown to the agent).
        income_usd: Income after deductions, US dollars.
        status: The filing status.
    """
    return _tax(income_usd, status, "income_usd", "status")


def tax_summary(world: GovernmentWorld, res: Resident) -> dict[str, Any]:
    """A resident's 2025 return as the tax office computes it."""
    profile = world.tax_profiles[res.resident_id]
    incomes = [r for r in world.income_records.values() if r.resident_id == res.resident_id]
    itemized = sum(
        d.amount_usd for d in world.deductions.values() if d.resident_id == res.resident_id
    )
    gross = money(sum(r.amount_usd for r in incomes))
    withheld = money(sum(r.withheld_usd for r in incomes))
    standard = data.STANDARD_DEDUCTION[profile.filing_status]
    used = max(standard, money(itemized))
    taxable = money(max(0.0, gross - used))
    tax = tax_on(taxable, profile.filing_status)
    return {
        "resident_id": res.resident_id,
        "tax_year": data.TAX_YEAR,
        "filing_status": profile.filing_status,
        "gross_income_usd": gross,
        "itemized_deductions_usd": money(itemized),
        "standard_deduction_usd": standard,
        "deduction_method": "itemized" if itemized > standard else "standard",
        "deduction_used_usd": money(used),
        "taxable_income_usd": taxable,
        "tax_usd": tax,
        "withheld_usd": withheld,
        "refund_usd": money(max(0.0, withheld - tax)),
        "amount_owed_usd": money(max(0.0, tax - withheld)),
    }


@_tool()
def estimate_tax_return(world: GovernmentWorld, resident: str) -> dict[str, Any]:
    """Compute a resident's 2025 federal return from their income records and deductions.

    Uses the larger of the standard deduction for the filing status and the itemized
    total, then the 2025 brackets. Returns resident_id, tax_year, filing_status,
    gross_income_usd, itemized_deductions_usd, standard_deduction_usd, deduction_method,
    deduction_used_usd, taxable_income_usd, tax_usd, withheld_usd, refund_usd (0 when tax
    is owed) and amount_owed_usd (0 when a refund is due). All amounts US dollars.

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
    """
    return tax_summary(world, resolve_resident(world, resident))


@_tool()
def get_refund_status(world: GovernmentWorld, resident: str) -> dict[str, Any]:
    """Where a resident's 2025 return and refund stand.

    Returns resident_id, return_status (not_filed, filed, accepted, refund_sent),
    filed_on and accepted_on (YYYY-MM-DD or null), refund_usd, refund_bank and
    expected_deposit_date (business days after acceptance; null until accepted or when
    no refund is due).

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
    """
    res = resolve_resident(world, resident)
    profile = world.tax_profiles[res.resident_id]
    summary = tax_summary(world, res)
    deposit = None
    if profile.accepted_on is not None and summary["refund_usd"] > 0:
        accepted = date.fromisoformat(profile.accepted_on)
        deposit = add_business_days(accepted, data.REFUND_BUSINESS_DAYS).isoformat()
    return {
        "resident_id": res.resident_id,
        "return_status": profile.return_status,
        "filed_on": profile.filed_on,
        "accepted_on": profile.accepted_on,
        "refund_usd": summary["refund_usd"],
        "refund_bank": profile.refund_bank,
        "expected_deposit_date": deposit,
    }


# -- benefits ---------------------------------------------------------------------------------

list_benefit_programs = shapes.search(
    "list_benefit_programs",
    "programs",
    "List the city's benefits programmes. Each has program_id, name, category, "
    "limit_pct_of_poverty (the income limit as a percentage of the federal poverty "
    "guideline for the household's size), min_age, min_household, base_monthly_usd, "
    "per_person_monthly_usd (added per household member beyond the first) and office_id. "
    "Sorted by name, in 'results', with 'count' and 'total'.",
    [
        Filter(
            "category",
            "category",
            "Only programmes of this category.",
            schema=enum_schema(data.PROGRAM_CATEGORIES),
        ),
        Filter("name_contains", "name", "Part of the programme's name.", op="contains"),
    ],
    sort_by="name",
)


def _program(world: GovernmentWorld, value: Any) -> Program:
    key = find_key(world.programs, value) if isinstance(value, str) else None
    if key is None and isinstance(value, str):
        wanted = " ".join(value.split()).casefold()
        key = next((k for k, p in world.programs.items() if p.name.casefold() == wanted), None)
    if key is None:
        raise not_found("Program", str(value))
    return world.programs[key]


def eligibility(world: GovernmentWorld, res: Resident, program: Program) -> dict[str, Any]:
    """Whether ``res`` qualifies for ``program``, the limit and the estimated benefit."""
    size = res.household_size
    limit = money(poverty_guideline(size) * program.limit_pct_of_poverty / 100)
    age = _age(world, res)
    reasons = []
    if res.annual_income_usd > limit:
        reasons.append("household income is above the limit")
    if age < program.min_age:
        reasons.append("applicant is below the minimum age")
    if size < program.min_household:
        reasons.append("household is smaller than the programme requires")
    eligible = not reasons
    benefit = program.base_monthly_usd + program.per_person_monthly_usd * (size - 1)
    return {
        "resident_id": res.resident_id,
        "program_id": program.program_id,
        "program_name": program.name,
        "household_size": size,
        "annual_income_usd": res.annual_income_usd,
        "income_limit_usd": limit,
        "eligible": eligible,
        "reasons": reasons,
        "monthly_benefit_usd": money(benefit) if eligible else 0.0,
    }


@_tool()
def check_benefit_eligibility(
    world: GovernmentWorld, resident: str, program: str
) -> dict[str, Any]:
    """Check a resident against a programme's eligibility rule.

    The income limit is the programme's percentage of the federal poverty guideline for
    the household's size; some programmes also need a minimum age or household size.
    Returns resident_id, program_id, program_name, household_size, annual_income_usd,
    income_limit_usd, eligible, reasons (why not, empty when eligible) and
    monthly_benefit_usd (the estimated monthly benefit, 0 when not eligible).

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
        program: The programme id (e.g. 'FOOD') or its full name.
    """
    return eligibility(world, resolve_resident(world, resident), _program(world, program))


def _benefit_view(world: World, row: Row) -> dict[str, Any]:
    app = cast(BenefitApplication, row)
    program = _gov(world).programs.get(app.program_id)
    return {**row_json(app), "program_name": program.name if program else None}


@_tool()
def list_benefit_applications(
    world: GovernmentWorld,
    resident: str,
    status: Literal["pending", "approved", "denied"] | None = None,
) -> dict[str, Any]:
    """List a resident's benefits applications, newest first.

    Each has benefit_application_id, resident_id, program_id, program_name, submitted_on,
    status, monthly_benefit_usd and decision_due. In 'results', with 'count' and 'total'.

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
        status: Only applications in this status.
    """
    res, rows = _resident_rows(
        world,
        resident,
        world.benefit_applications,
        lambda a: (a.submitted_on, a.benefit_application_id),
        reverse=True,
    )
    if status is not None:
        rows = [a for a in rows if a.status == status]
    return listing(rows, 50, lambda a: _benefit_view(world, a), resident_id=res.resident_id)


def _build_benefit(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _gov(world)
    res = resolve_resident(w, args["resident"])
    program = _program(w, args["program"])
    for app in w.benefit_applications.values():
        if (
            app.resident_id == res.resident_id
            and app.program_id == program.program_id
            and app.status in ("pending", "approved")
        ):
            raise conflict(
                f"{res.name} already has a {app.status} {program.name} application "
                f"({app.benefit_application_id})",
                benefit_application_id=app.benefit_application_id,
            )
    check = eligibility(w, res, program)
    if not check["eligible"]:
        raise unprocessable(
            f"{res.name} is not eligible for {program.name}: " + "; ".join(check["reasons"])
        )
    key = w.next_id("BA")
    row = BenefitApplication(
        benefit_application_id=key,
        resident_id=res.resident_id,
        program_id=program.program_id,
        submitted_on=w.today().isoformat(),
        status="pending",
        monthly_benefit_usd=check["monthly_benefit_usd"],
        decision_due=add_business_days(w.today(), 30).isoformat(),
    )
    return key, row


apply_for_benefit = shapes.create(
    "apply_for_benefit",
    "benefit_applications",
    "Apply to a benefits programme for a resident. Refused (422) if the resident is not "
    "eligible, and (409) if a pending or approved application for that programme exists. "
    "Returns the application: benefit_application_id, resident_id, program_id, "
    "program_name, submitted_on, status, monthly_benefit_usd and decision_due.",
    [
        Param("resident", {"type": "string"}, RESIDENT_DOC),
        Param("program", {"type": "string"}, "The programme id (e.g. 'FOOD') or its full name."),
    ],
    _build_benefit,
    view=_benefit_view,
)


# -- vehicles ------------------------------------------------------------------------------------


def _vehicle_view(world: World, row: Row) -> dict[str, Any]:
    car = cast(Vehicle, row)
    expires = date.fromisoformat(car.registration_expires)
    return {**row_json(car), "registration_expired": expires < _gov(world).today()}


@_tool()
def list_vehicles(
    world: GovernmentWorld, resident: str | None = None, plate: str | None = None
) -> dict[str, Any]:
    """List registered vehicles by owner or plate. Give at least one filter.

    Each has plate, resident_id (owner), make, model, year, vehicle_class, weight_kg
    (kilograms), registration_expires (YYYY-MM-DD) and registration_expired. Sorted by
    plate, in 'results', with 'count' and 'total'.

    Args:
        world: The city's systems (not shown to the agent).
        resident: Only vehicles of this owner. {resident}
        plate: Only the vehicle with this plate (case-insensitive).
    """
    if resident is None and plate is None:
        raise unprocessable("give resident or plate")
    rows = sorted(world.vehicles.values(), key=lambda v: v.plate)
    if resident is not None:
        res = resolve_resident(world, resident)
        rows = [v for v in rows if v.resident_id == res.resident_id]
    if plate is not None:
        rows = [v for v in rows if v.plate.casefold() == plate.strip().casefold()]
    return listing(rows, 50, lambda v: _vehicle_view(world, v))


def renewal_quote(
    world: GovernmentWorld, car: Vehicle, renew_on: date, years: int
) -> dict[str, Any]:
    """The fee to renew ``car``'s registration on ``renew_on`` for ``years`` years."""
    expires = date.fromisoformat(car.registration_expires)
    base = data.REGISTRATION_FEE_USD[car.vehicle_class]
    over = max(0, car.weight_kg - data.WEIGHT_SURCHARGE_FROM_KG)
    surcharge = data.WEIGHT_SURCHARGE_USD * math.ceil(over / 500)
    late = renewal_late_fee(expires, renew_on)
    new_expiry = date(expires.year + years, expires.month, min(expires.day, 28))
    return {
        "plate": car.plate,
        "vehicle_class": car.vehicle_class,
        "weight_kg": car.weight_kg,
        "registration_expires": car.registration_expires,
        "renewal_date": renew_on.isoformat(),
        "term_years": years,
        "days_late": max(0, (renew_on - expires).days),
        "base_fee_usd": money(base * years),
        "weight_surcharge_usd": money(surcharge * years),
        "late_penalty_usd": money(late),
        "total_fee_usd": money((base + surcharge) * years + late),
        "new_expiry": new_expiry.isoformat(),
    }


def _quote(world: GovernmentWorld, plate: Any, on: str | None, years: Any) -> dict[str, Any]:
    key = stored_key(world.vehicles, plate.strip() if isinstance(plate, str) else plate, "Vehicle")
    car = world.vehicles[key]
    renew_on = world.today() if on is None else date_arg(on, "renewal date")
    if not is_integer(years) or years not in (1, 2):
        raise unprocessable("the term must be 1 or 2 years")
    if renew_on < world.today():
        raise unprocessable("the renewal date must not be in the past")
    expires = date.fromisoformat(car.registration_expires)
    if renew_on < expires - timedelta(days=data.RENEWAL_WINDOW_DAYS):
        raise unprocessable(
            f"{car.plate} can be renewed from {expires - timedelta(days=data.RENEWAL_WINDOW_DAYS)}"
        )
    return renewal_quote(world, car, renew_on, years)


@_tool()
def quote_registration_renewal(
    world: GovernmentWorld, plate: str, renewal_date: str | None = None, term_years: int = 1
) -> dict[str, Any]:
    """Quote the fee to renew a vehicle registration, with any late penalty.

    A registration can be renewed within the window before it expires, or any time after
    (late). Returns {quote}. Amounts in US dollars. quote_registration_renewal_v2 is the
    newer version of this endpoint; this one still works.

    Args:
        world: The city's systems (not shown to the agent).
        plate: The plate number, e.g. '7KMX42'.
        renewal_date: The day of renewal, YYYY-MM-DD; default today.
        term_years: Renewal term, 1 or 2 years (default 1).
    """
    return _quote(world, plate, renewal_date, term_years)


@_tool(name="quote_registration_renewal_v2")
def quote_registration_renewal_v2(
    world: GovernmentWorld, plate_number: str, renew_on: str | None = None, years: int = 1
) -> dict[str, Any]:
    """Version 2 of quote_registration_renewal: the same quote with renamed parameters.

    Takes plate_number (was plate), renew_on (was renewal_date) and years (was
    term_years); returns the keys quote_registration_renewal returns: {quote}.

    Args:
        world: The city's systems (not shown to the agent).
        plate_number: The plate number, e.g. '7KMX42'.
        renew_on: The day of renewal, YYYY-MM-DD; default today.
        years: Renewal term, 1 or 2 years (default 1).
    """
    return _quote(world, plate_number, renew_on, years)


@_tool(ToolKind.WRITE)
def renew_vehicle_registration(
    world: GovernmentWorld, plate: str, term_years: int = 1
) -> dict[str, Any]:
    """Renew a vehicle's registration today and pay the quoted fee.

    Refused (422) before the renewal window opens. Returns the quote that was charged
    (as quote_registration_renewal) with the vehicle's new registration_expires.

    Args:
        world: The city's systems (not shown to the agent).
        plate: The plate number, e.g. '7KMX42'.
        term_years: Renewal term, 1 or 2 years (default 1).
    """
    quote = _quote(world, plate, None, term_years)
    world.update("vehicles", quote["plate"], registration_expires=quote["new_expiry"])
    return {**quote, "registration_expires": quote["new_expiry"]}


# -- passports and ids ----------------------------------------------------------------------------


@_tool()
def list_id_documents(world: GovernmentWorld, resident: str) -> dict[str, Any]:
    """List the identity documents a resident holds.

    Each has document_id, resident_id, document (passport_book, passport_card, state_id,
    driver_licence), number, issued_on, expires_on (YYYY-MM-DD) and expired. Sorted by
    expires_on, in 'results', with 'count' and 'total'.

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
    """
    res, rows = _resident_rows(
        world, resident, world.id_documents, lambda d: (d.expires_on, d.document_id)
    )
    today = world.today().isoformat()
    return listing(
        rows,
        50,
        lambda d: {**row_json(d), "expired": d.expires_on < today},
        resident_id=res.resident_id,
    )


@_tool()
def list_id_services(
    world: GovernmentWorld,
    document: Literal["passport_book", "passport_card", "state_id", "driver_licence"] | None = None,
    speed: Literal["routine", "expedited"] | None = None,
) -> dict[str, Any]:
    """List identity-document services with their fees and processing times.

    Each has service_code, document, speed, fee_usd (US dollars) and
    processing_business_days. Cheapest first, in 'results', with 'count' and 'total'.

    Args:
        world: The city's systems (not shown to the agent).
        document: Only services for this document.
        speed: Only routine or only expedited services.
    """
    rows = [
        s for s in data.ID_SERVICES if document in (None, s.document) and speed in (None, s.speed)
    ]
    if world.release >= 3:  # v1 and v2 tasks were built on the unsorted list
        rows.sort(key=lambda s: (s.fee_usd, s.code))
    return listing(
        rows,
        50,
        lambda s: {
            "service_code": s.code,
            "document": s.document,
            "speed": s.speed,
            "fee_usd": s.fee_usd,
            "processing_business_days": s.processing_business_days,
        },
    )


def _id_app_view(world: World, row: Row) -> dict[str, Any]:
    app = cast(IdApplication, row)
    office = _gov(world).offices.get(app.office_id)
    return {**row_json(app), "office_name": office.name if office else None}


@_tool()
def list_id_applications(world: GovernmentWorld, resident: str) -> dict[str, Any]:
    """List a resident's passport and ID applications, newest first.

    Each has id_application_id, resident_id, service_code, document, speed, office_id,
    office_name, fee_usd, submitted_on, estimated_ready (YYYY-MM-DD) and status. In
    'results', with 'count' and 'total'.

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
    """
    res, rows = _resident_rows(
        world,
        resident,
        world.id_applications,
        lambda a: (a.submitted_on, a.id_application_id),
        reverse=True,
    )
    return listing(rows, 50, lambda a: _id_app_view(world, a), resident_id=res.resident_id)


def _build_id_app(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _gov(world)
    res = resolve_resident(w, args["resident"])
    code = args["service_code"]
    spec = next((s for s in data.ID_SERVICES if s.code == str(code).strip().upper()), None)
    if spec is None:
        raise not_found("ID service", str(code))
    office = resolve_office(w, args["office"])
    wanted = "motor_vehicles" if spec.document in ("state_id", "driver_licence") else "passports"
    if office.kind != wanted:
        raise unprocessable(f"{office.name} does not accept {spec.document} applications")
    for app in w.id_applications.values():
        if (
            app.resident_id == res.resident_id
            and app.document == spec.document
            and app.status == "processing"
        ):
            raise conflict(
                f"{res.name} already has a {spec.document} application in process "
                f"({app.id_application_id})",
                id_application_id=app.id_application_id,
            )
    key = w.next_id("IDA")
    row = IdApplication(
        id_application_id=key,
        resident_id=res.resident_id,
        service_code=spec.code,
        document=spec.document,
        speed=spec.speed,
        office_id=office.office_id,
        fee_usd=spec.fee_usd,
        submitted_on=w.today().isoformat(),
        estimated_ready=add_business_days(w.today(), spec.processing_business_days).isoformat(),
        status="processing",
    )
    return key, row


apply_for_id_document = shapes.create(
    "apply_for_id_document",
    "id_applications",
    "Submit a passport or ID application for a resident at an office today. Passport "
    "services are accepted at passport offices, state IDs and driver licences at "
    "motor-vehicle offices (422 otherwise); refused (409) if the same document is already "
    "being processed. Returns the application: id_application_id, resident_id, "
    "service_code, document, speed, office_id, office_name, fee_usd, submitted_on, "
    "estimated_ready and status.",
    [
        Param("resident", {"type": "string"}, RESIDENT_DOC),
        Param("service_code", {"type": "string"}, "The service code (from list_id_services)."),
        Param("office", {"type": "string"}, OFFICE_DOC),
    ],
    _build_id_app,
    view=_id_app_view,
)


# -- waste collection -----------------------------------------------------------------------------


def _schedule(world: GovernmentWorld, address: str, from_date: str | None) -> dict[str, Any]:
    text = " ".join(str(address).split())
    if not text:
        raise unprocessable("address must not be empty")
    street = next(
        (s for s in data.STREETS if s.name.casefold() in text.casefold()),
        None,
    )
    if street is None:
        raise not_found("Address", address)
    start = world.today() if from_date is None else date_arg(from_date, "from_date")
    weekday = data.ZONES[street.zone][0]
    trash = next_collection(street.zone, "trash", start)
    recycling = next_collection(street.zone, "recycling", start)
    return {
        "address": text,
        "zone": street.zone,
        "collection_weekday": WEEKDAYS[weekday],
        "from_date": start.isoformat(),
        "next_trash_date": trash.isoformat(),
        "next_recycling_date": recycling.isoformat(),
        "next_yard_waste_date": next_collection(street.zone, "yard_waste", start).isoformat(),
        "days_until_trash": (trash - start).days,
        "days_until_recycling": (recycling - start).days,
    }


@_tool()
def get_collection_schedule(
    world: GovernmentWorld, address: str, from_date: str | None = None
) -> dict[str, Any]:
    """Waste-collection zone and next pickup dates for a street address, from the city.

    Trash is collected weekly on the zone's weekday, recycling every other week, yard
    waste weekly in season; a holiday earlier in the week (or on the day) slides that
    week's pickup one day later. Returns address, zone, collection_weekday, from_date,
    next_trash_date, next_recycling_date and next_yard_waste_date (YYYY-MM-DD, on or after
    from_date), days_until_trash and days_until_recycling (calendar days from from_date),
    plus source. If this service is unavailable,
    get_collection_schedule_contractor serves the same dates under the same keys.

    Args:
        world: The city's systems (not shown to the agent).
        address: A street address in the city, e.g. '12 Maple Avenue'.
        from_date: Find pickups on or after this day, YYYY-MM-DD; default today.
    """
    return {**_schedule(world, address, from_date), "source": "Riverton Public Works"}


@_tool()
def get_collection_schedule_contractor(
    world: GovernmentWorld, address: str, from_date: str | None = None
) -> dict[str, Any]:
    """Next pickup dates for an address from the city's waste contractor's route system.

    An independent source for get_collection_schedule with the same keys: address, zone,
    collection_weekday, from_date, next_trash_date, next_recycling_date,
    next_yard_waste_date, days_until_trash and days_until_recycling, plus source and route.

    Args:
        world: The city's systems (not shown to the agent).
        address: A street address in the city, e.g. '12 Maple Avenue'.
        from_date: Find pickups on or after this day, YYYY-MM-DD; default today.
    """
    out = _schedule(world, address, from_date)
    return {
        **out,
        "source": data.COLLECTION_CONTRACTOR,
        "route": f"R-{out['zone']}{len(out['address']) % 7 + 1}",
    }


# -- fines and court dates -------------------------------------------------------------------------


def _citation_view(world: World, row: Row) -> dict[str, Any]:
    cit = cast(Citation, row)
    today = _gov(world).today()
    late = 0.0
    due = 0.0
    if cit.status == "unpaid":
        late = fine_late_fee(cit.amount_usd, date.fromisoformat(cit.due_date), today)
        due = money(cit.amount_usd + late)
    return {**row_json(cit), "late_fee_usd": late, "amount_due_usd": due}


@_tool()
def list_citations(
    world: GovernmentWorld,
    resident: str | None = None,
    plate: str | None = None,
    status: Literal["unpaid", "paid", "contested", "dismissed"] | None = None,
    citation_id: str | None = None,
) -> dict[str, Any]:
    """List parking and traffic citations. Every filter given must match.

    Each has {citations}. Sorted by issued_on, in 'results', with 'count' and 'total'.

    Args:
        world: The city's systems (not shown to the agent).
        resident: Only citations of vehicles this resident owns. {resident}
        plate: Only citations of this plate (case-insensitive).
        status: Only citations in this status.
        citation_id: Only this citation.
    """
    rows = sorted(world.citations.values(), key=lambda c: (c.issued_on, c.citation_id))
    if resident is not None:
        res = resolve_resident(world, resident)
        rows = [c for c in rows if c.resident_id == res.resident_id]
    if plate is not None:
        rows = [c for c in rows if c.plate.casefold() == plate.strip().casefold()]
    if status is not None:
        rows = [c for c in rows if c.status == status]
    if citation_id is not None:
        rows = [c for c in rows if c.citation_id.casefold() == citation_id.strip().casefold()]
    return listing(rows, 50, lambda c: _citation_view(world, c))


get_citation = shapes.lookup(
    "get_citation",
    "citations",
    "citation_id",
    "Citation",
    f"Get one citation: {_CITATION_DOC}.",
    "The citation id, e.g. 'CIT-123456'.",
    view=_citation_view,
)


@_tool(ToolKind.WRITE)
def pay_citation(world: GovernmentWorld, citation_id: str, amount_usd: float) -> dict[str, Any]:
    """Pay an unpaid citation in full today.

    amount_usd must equal the citation's amount_due_usd (fine plus any late fee), 422
    otherwise; 409 if the citation is not unpaid. Returns the citation, now paid.

    Args:
        world: The city's systems (not shown to the agent).
        citation_id: The citation id, e.g. 'CIT-123456'.
        amount_usd: The amount paid, US dollars.
    """
    key = stored_key(world.citations, citation_id, "Citation")
    view = _citation_view(world, world.citations[key])
    if view["status"] != "unpaid":
        raise conflict(f"Citation {key} is {view['status']} and cannot be paid")
    if not is_number(amount_usd) or abs(amount_usd - view["amount_due_usd"]) > 0.005:
        raise unprocessable("amount_usd must equal the amount due shown for this citation")
    new = world.update(
        "citations",
        key,
        status="paid",
        paid_usd=view["amount_due_usd"],
        paid_on=world.today().isoformat(),
    )
    return _citation_view(world, new)


@_tool(ToolKind.WRITE)
def contest_citation(world: GovernmentWorld, citation_id: str, reason: str) -> dict[str, Any]:
    """Contest an unpaid citation and get a court hearing date.

    The hearing is set a fixed number of business days from today, in the first
    courtroom free that day. 409 unless the citation is unpaid. Returns the citation with
    status 'contested', court_date and courtroom.

    Args:
        world: The city's systems (not shown to the agent).
        citation_id: The citation id, e.g. 'CIT-123456'.
        reason: Why the citation is contested.
    """
    key = stored_key(world.citations, citation_id, "Citation")
    cit = world.citations[key]
    bounded_text(reason, "reason", MAX_TEXT_CHARS)
    if cit.status != "unpaid":
        raise conflict(f"Citation {key} is {cit.status} and cannot be contested")
    hearing = add_business_days(world.today(), data.HEARING_BUSINESS_DAYS).isoformat()
    busy = [c.courtroom for c in world.citations.values() if c.court_date == hearing]
    room = next((r for r in data.COURTROOMS if busy.count(r) < 3), data.COURTROOMS[-1])
    new = world.update("citations", key, status="contested", court_date=hearing, courtroom=room)
    return _citation_view(world, new)


# -- elections ----------------------------------------------------------------------------------


@_tool()
def list_elections(
    world: GovernmentWorld, kind: Literal["special", "primary", "general"] | None = None
) -> dict[str, Any]:
    """List upcoming elections, soonest first.

    Each has election_id, name, date, kind, registration_deadline, mail_ballot_deadline
    (the last day to request a mail ballot), polls_open and polls_close (HH:MM). In
    'results', with 'count' and 'total'.

    Args:
        world: The city's systems (not shown to the agent).
        kind: Only elections of this kind.
    """
    rows = shapes.filtered_rows(world.elections.values(), "date", shapes.Only("kind", kind))
    return listing(rows, 20, row_json)


@_tool()
def get_voter_registration(world: GovernmentWorld, resident: str) -> dict[str, Any]:
    """A resident's voter registration and mail-ballot requests.

    Returns resident_id, voter_id, registered, party, precinct, registered_on, ward and
    ballot_requests (each with ballot_request_id, election_id, mailing_address,
    requested_on and status).

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
    """
    res, requests = _resident_rows(
        world, resident, world.ballot_requests, lambda b: b.ballot_request_id
    )
    voter = world.voters[res.resident_id]
    return {
        **row_json(voter),
        "ward": res.ward,
        "ballot_requests": [row_json(b) for b in requests],
    }


def _election(world: GovernmentWorld, election_id: str) -> Any:
    return world.elections[stored_key(world.elections, election_id, "Election")]


def _polling(
    world: GovernmentWorld, resident: str, election_id: str, source: str
) -> dict[str, Any]:
    res = resolve_resident(world, resident)
    election = _election(world, election_id)
    voter = world.voters[res.resident_id]
    if not voter.registered:
        raise conflict(f"{res.name} is not registered to vote")
    place = next(p for p in world.polling_places.values() if p.ward == res.ward)
    distance = haversine_km(
        res.latitude_deg, res.longitude_deg, place.latitude_deg, place.longitude_deg
    )
    return {
        "resident_id": res.resident_id,
        "election_id": election.election_id,
        "election_date": election.date,
        "precinct": voter.precinct,
        "polling_place_id": place.polling_place_id,
        "polling_place": place.name,
        "address": place.address,
        "accessible": place.accessible,
        "polls_open": election.polls_open,
        "polls_close": election.polls_close,
        "distance_km": round(distance, 2),
        "source": source,
    }


@_tool()
def lookup_polling_place(world: GovernmentWorld, resident: str, election_id: str) -> dict[str, Any]:
    """Where a registered resident votes in person in an election, from the city.

    Returns resident_id, election_id, election_date, precinct, polling_place_id,
    polling_place (name), address, accessible, polls_open, polls_close, distance_km
    (straight-line kilometres from the resident's home) and source. 409 if the resident
    is not registered. If this service is unavailable, lookup_polling_place_state serves
    the same facts under the same keys.

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
        election_id: The election, e.g. 'EL-2026-01' (from list_elections).
    """
    return _polling(world, resident, election_id, data.CITY_ELECTIONS_SOURCE)


@_tool()
def lookup_polling_place_state(
    world: GovernmentWorld, resident: str, election_id: str
) -> dict[str, Any]:
    """Where a registered resident votes, from the state's voter portal (independent source).

    Same keys as lookup_polling_place: resident_id, election_id, election_date, precinct,
    polling_place_id, polling_place, address, accessible, polls_open, polls_close,
    distance_km (kilometres) and source.

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
        election_id: The election, e.g. 'EL-2026-01' (from list_elections).
    """
    return _polling(world, resident, election_id, data.STATE_VOTER_PORTAL)


@_tool(ToolKind.WRITE)
def request_mail_ballot(
    world: GovernmentWorld, resident: str, election_id: str, mailing_address: str | None = None
) -> dict[str, Any]:
    """Request a mail ballot for a registered resident for one election.

    Refused (409) if not registered or already requested for that election, and (422)
    after the election's mail_ballot_deadline. Returns the request: ballot_request_id,
    resident_id, election_id, mailing_address, requested_on and status.

    Args:
        world: The city's systems (not shown to the agent).
        resident: {resident}
        election_id: The election, e.g. 'EL-2026-01' (from list_elections).
        mailing_address: Where to mail the ballot; default the resident's address.
    """
    res = resolve_resident(world, resident)
    election = _election(world, election_id)
    if not world.voters[res.resident_id].registered:
        raise conflict(f"{res.name} is not registered to vote")
    if world.today().isoformat() > election.mail_ballot_deadline:
        raise unprocessable(f"the mail-ballot deadline for {election.name} has passed")
    for b in world.ballot_requests.values():
        if b.resident_id == res.resident_id and b.election_id == election.election_id:
            raise conflict(
                f"{res.name} already requested a mail ballot ({b.ballot_request_id})",
                ballot_request_id=b.ballot_request_id,
            )
    key = world.next_id("BR")
    row = BallotRequest(
        ballot_request_id=key,
        resident_id=res.resident_id,
        election_id=election.election_id,
        mailing_address=bounded_text(
            mailing_address or res.address, "mailing_address", MAX_TEXT_CHARS
        ),
        requested_on=world.today().isoformat(),
        status="requested",
    )
    world.insert("ballot_requests", key, row)
    return row_json(row)


# -- 311 service requests ------------------------------------------------------------------------


@_tool()
def list_service_categories(world: GovernmentWorld) -> dict[str, Any]:
    """List 311 request categories and their target resolution times.

    Each has category, label and sla_business_days (business days to resolve). In
    'results', with 'count' and 'total'.

    Args:
        world: The city's systems (not shown to the agent).
    """
    return listing(
        list(data.SERVICE_CATEGORIES),
        50,
        lambda c: {"category": c.code, "label": c.label, "sla_business_days": c.sla_business_days},
    )


def _request_view(world: World, row: Row) -> dict[str, Any]:
    req = cast(ServiceRequest, row)
    today = _gov(world).today()
    target = date.fromisoformat(req.target_date)
    overdue = req.status != "closed" and target < today
    return {
        **row_json(req),
        "overdue": overdue,
        "business_days_overdue": business_days_between(target, today) if overdue else 0,
    }


_SERVICE_CODES = tuple(c.code for c in data.SERVICE_CATEGORIES)
list_service_requests = shapes.search(
    "list_service_requests",
    "service_requests",
    "List 311 service requests. Every filter given must match. Each has request_id, "
    "resident_id, category, address, description, status (open, in_progress, closed), "
    "opened_on, target_date (YYYY-MM-DD), closed_on, overdue and business_days_overdue. "
    "Sorted by request_id, in 'results', with 'count' and 'total'.",
    [
        Filter(
            "resident_id", "resident_id", "Only requests of this resident id, e.g. 'RES-12345'."
        ),
        Filter(
            "status",
            "status",
            "Only requests in this status.",
            schema=enum_schema(data.SERVICE_STATUSES),
        ),
        Filter(
            "category",
            "category",
            "Only requests of this category.",
            schema=enum_schema(_SERVICE_CODES),
        ),
        Filter(
            "address_contains", "address", "Part of the address (case-insensitive).", op="contains"
        ),
    ],
    view=_request_view,
    sort_by="request_id",
    limit=50,
)

get_service_request = shapes.lookup(
    "get_service_request",
    "service_requests",
    "request_id",
    "Service request",
    "Get one 311 service request: request_id, resident_id, category, address, "
    "description, status, opened_on, target_date, closed_on, overdue and "
    "business_days_overdue.",
    "The request id, e.g. 'SR-00042'.",
    view=_request_view,
)


def _build_request(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _gov(world)
    res = resolve_resident(w, args["resident"])
    category = args["category"]
    check_choice("category", category, _SERVICE_CODES)
    spec = next(c for c in data.SERVICE_CATEGORIES if c.code == category)
    address = bounded_text(args.get("address") or res.address, "address", MAX_TEXT_CHARS)
    if not any(s.name.casefold() in address.casefold() for s in data.STREETS):
        raise unprocessable(f"'{address}' is not a street address in {data.CITY}")
    for req in w.service_requests.values():
        if (
            req.status != "closed"
            and req.category == category
            and req.address.casefold() == address.casefold()
        ):
            raise conflict(
                f"Request {req.request_id} already covers {spec.label.lower()} at {req.address}",
                request_id=req.request_id,
            )
    key = w.next_id("SR")
    row = ServiceRequest(
        request_id=key,
        resident_id=res.resident_id,
        category=category,
        address=address,
        description=bounded_text(
            args.get("description") or spec.label, "description", MAX_TEXT_CHARS
        ),
        status="open",
        opened_on=w.today().isoformat(),
        target_date=add_business_days(w.today(), spec.sla_business_days).isoformat(),
        closed_on=None,
    )
    return key, row


create_service_request = shapes.create(
    "create_service_request",
    "service_requests",
    "Open a 311 service request. The target date is the category's resolution time in "
    "business days from today. Refused (409) if an open request of the same category "
    "already covers that address. Returns the request: request_id, resident_id, "
    "category, address, description, status, opened_on, target_date, closed_on, overdue "
    "and business_days_overdue.",
    [
        Param("resident", {"type": "string"}, RESIDENT_DOC),
        Param("category", enum_schema(_SERVICE_CODES), "The request category."),
        Param(
            "address",
            {"type": "string"},
            "Where the problem is, a street address; default the resident's address.",
            required=False,
        ),
        Param(
            "description",
            {"type": "string"},
            "What is wrong (default the category's label).",
            required=False,
        ),
    ],
    _build_request,
    view=_request_view,
)


TOOLS: list[Tool] = [
    search_residents,
    get_resident,
    search_offices,
    get_office_wait_time,
    get_office_wait_time_311,
    get_office_wait_time_crowd,
    list_appointment_slots,
    list_appointments,
    book_appointment,
    list_permit_types,
    estimate_decision_date,
    estimate_decision_date_v2,
    list_permit_applications,
    apply_for_permit,
    withdraw_permit_application,
    list_income_records,
    list_deductions,
    add_tax_deduction,
    calculate_tax,
    calculate_tax_v2,
    estimate_tax_return,
    get_refund_status,
    list_benefit_programs,
    check_benefit_eligibility,
    list_benefit_applications,
    apply_for_benefit,
    list_vehicles,
    quote_registration_renewal,
    quote_registration_renewal_v2,
    renew_vehicle_registration,
    list_id_documents,
    list_id_services,
    list_id_applications,
    apply_for_id_document,
    get_collection_schedule,
    get_collection_schedule_contractor,
    list_citations,
    get_citation,
    pay_citation,
    contest_citation,
    list_elections,
    get_voter_registration,
    lookup_polling_place,
    lookup_polling_place_state,
    request_mail_ballot,
    list_service_categories,
    list_service_requests,
    get_service_request,
    create_service_request,
]
