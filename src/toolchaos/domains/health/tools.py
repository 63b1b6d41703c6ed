"""The health tools: members, medicines and prices, pharmacies, care, tracking, labs, cover.

Searches, lookups and the record-keeping writes are declared through the shared shapes;
dose schedules, body metrics, heart-rate zones, slot search across clinics, travel vaccine
checks and insurance cost sharing are written by hand. A parameter named ``member`` takes
a member id or the person's full or first name; ``medication``, ``clinic``, ``pharmacy``
and ``food`` take an id or the exact name (the search tools return the ids). Refusals are
:class:`ToolError`: 404 for an unknown id or name, 409 for a record in the wrong state,
422 for a request that breaks a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any, Literal, cast

from toolchaos.core.tools import Param, Tool
from toolchaos.core.values import is_number
from toolchaos.core.world import Row, World
from toolchaos.domains import _shapes as shapes
from toolchaos.domains._common import (
    check_choice,
    clock_minutes,
    clock_text,
    conflict,
    date_arg,
    enum_schema,
    find_key,
    is_integer,
    listing,
    money,
    not_found,
    row_json,
    stamp,
    stored_key,
    unprocessable,
)
from toolchaos.domains._shapes import phrased_tool
from toolchaos.domains.health import data
from toolchaos.domains.health.world import (
    HR_ZONES,
    SLOT_DAYS,
    Appointment,
    HealthWorld,
    Meal,
    Member,
    Prescription,
    Refill,
    Slot,
    Workout,
    bmi,
    bmi_category,
    bmr_kcal,
    cost_share,
    heart_rate_zone,
    key_of,
    max_heart_rate,
    workout_kcal,
)

MEMBER_DOC = (
    "The family member: a member id (e.g. 'MBR-1234'), or the person's full or first name "
    "as search_members shows it."
)
SPECIALTIES = tuple(sorted({s for _, specs, _, _ in data.CLINICS for s in specs}))
WORKOUT_TYPES = tuple(sorted(data.WORKOUT_TYPES))
MEALS = tuple(m for m, _, _ in data.MEAL_SLOTS)
PRIMARY_CARE = ("primary care", "pediatrics", "urgent care", "travel medicine", "lab draw")
MAX_PICKUP_DAYS = 14
MAX_REASON_CHARS = 120
NUTRIENT_FIELDS = (
    "calories_kcal",
    "protein_g",
    "carbs_g",
    "fat_g",
    "fiber_g",
    "sodium_mg",
    "caffeine_mg",
)
_NUTRITION_DOC = (
    "food_id, name, serving (the standard serving), servings, calories_kcal (kcal), "
    "protein_g, carbs_g, fat_g and fiber_g (grams), sodium_mg and caffeine_mg (milligrams), "
    "all for the number of servings asked, plus source and as_of (when the entry was last "
    "updated, UTC)"
)
_PRICE_DOC = (
    "medication_id, name, strength, quantity, unit_price_usd (per tablet or capsule, cash "
    "price), total_price_usd (quantity x unit price, to the cent), source and as_of (UTC)"
)
_WAIT_DOC = (
    "clinic_id, clinic_name, wait_minutes (expected wait before being seen right now), "
    "source and as_of (UTC)"
)

_RX_DOC = (
    "prescription_id, member_id, member_name, medication_id, medication_name, strength, "
    "form, instructions, units_per_dose, doses_per_day, dose_times (HH:MM, local), "
    "units_per_day, units_on_hand, days_supply_left (whole days the tablets on hand last), "
    "runs_out_on (YYYY-MM-DD), next_dose_at (YYYY-MM-DDTHH:MM local, null when none is "
    "due), quantity_per_fill, refills_left, last_fill_date, pharmacy_id, pharmacy_name, "
    "prescriber_name and status (active or expired)"
)

_REFILL_DOC = (
    "refill_id, prescription_id, member_id, medication_id, medication_name, pharmacy_id, "
    "pharmacy_name, quantity, pickup_date, copay_usd, status (requested, ready, picked_up, "
    "cancelled) and created_at"
)

_SLOTS_DOC = (
    "Each has slot_id, date, start_time (HH:MM local), duration_min, specialty, doctor_id, "
    "doctor_name, clinic_id, clinic_name and city. Sorted by date and time, earliest first; "
    "up to 25 in 'results', with 'count' and 'total'."
)

_APT_DOC = (
    "appointment_id, member_id, member_name, slot_id, doctor_id, doctor_name, clinic_id, "
    "clinic_name, specialty, date, start_time, reason, status (scheduled, cancelled), "
    "created_at and copay_usd (the plan's copay for the visit)"
)

_ACTIVITY_DOC = (
    "member_id, member_name, date, steps, distance_km, active_minutes, floors, "
    "calories_burned_kcal (total energy burned that day, kcal) and resting_hr_bpm"
)

_MEAL_DOC = "meal_id, member_id, date, meal, time (HH:MM local), food_id, food_name and servings"

_SLEEP_DOC = (
    "member_id, member_name, date (the morning of waking), bedtime and wake_time (HH:MM "
    "local), time_in_bed_minutes, asleep_minutes, deep_minutes, rem_minutes, "
    "light_minutes, awake_minutes, efficiency_pct (asleep / in bed), resting_hr_bpm, "
    "hrv_ms (overnight heart-rate variability) and recovery_score (1-100)"
)

_LAB_DOC = (
    "result_id, member_id, test_code, test_name, panel, value, unit, ref_low and ref_high "
    "(the reference range, in the result's unit), flag (low, normal, high), collected_on "
    "(YYYY-MM-DD), lab_name and ordered_by"
)


def _health(world: World) -> HealthWorld:
    return cast(HealthWorld, world)


# -- resolving names and checking arguments ------


def resolve_member(world: World, value: str, param: str = "member") -> Member:
    """The member a name-or-id parameter names, or a 404/422."""
    members = _health(world).members
    if not isinstance(value, str) or not value.strip():
        raise unprocessable(f"{param} must not be empty")
    key = find_key(members, value)
    if key is not None:
        return members[key]
    wanted = value.strip().casefold()
    for member in members.values():
        if wanted in (member.name.casefold(), member.first_name.casefold()):
            return member
    raise not_found("Member", value)


def _of_member(world: World, member: str | None) -> shapes.Only:
    """The listing filter keeping the rows of the member ``member`` names, when given."""
    return shapes.Only("member_id", member, lambda v: resolve_member(world, v).member_id)


def _by_name(world: World, table: str, value: str, entity: str, param: str) -> Any:
    rows = world.table(table)
    if not isinstance(value, str) or not value.strip():
        raise unprocessable(f"{param} must not be empty")
    key = find_key(rows, value)
    if key is not None:
        return rows[key]
    wanted = value.strip().casefold()
    for row in rows.values():
        names = {row.name.casefold()}
        if table == "medications":
            names.add(row.brand.casefold())
        if wanted in names:
            return row
    raise not_found(entity, value)


def _history_day(world: HealthWorld, value: Any, param: str = "date") -> str:
    day = date_arg(value, param).isoformat()
    dates = world.history_dates()
    if day not in dates:
        raise not_found("Record", f"{day} (records cover {dates[0]} to {dates[-1]})")
    return day


def _name_query(rows: Sequence[Any], query: str, *fields: str) -> list[Any]:
    """Rows whose fields contain the query; exact matches first, then by name."""
    wanted = query.strip().casefold()
    found = [r for r in rows if any(wanted in str(getattr(r, f)).casefold() for f in fields)]
    return sorted(
        found,
        key=lambda r: (all(str(getattr(r, f)).casefold() != wanted for f in fields), r.name),
    )


DOC_PHRASES = {
    "member": MEMBER_DOC,
    "nutrition": _NUTRITION_DOC,
    "price": _PRICE_DOC,
    "wait": _WAIT_DOC,
    "rx": _RX_DOC,
    "refills": _REFILL_DOC,
    "slots": _SLOTS_DOC,
    "appointments": _APT_DOC,
    "activity": _ACTIVITY_DOC,
    "sleep": _SLEEP_DOC,
    "labs": _LAB_DOC,
}


_tool = phrased_tool(DOC_PHRASES)

# The Args of each multi-source family, shared by its services (see ``shapes.source_tools``).
_PRICE_ARGS = """
    Args:
        world: The health service (not shown to the agent).
        medication: A medication id (e.g. 'MED-1234') or its exact generic or brand name.
        quantity: How many tablets or capsules (default 30).
"""
_CLINIC_ARGS = """
    Args:
        world: The health service (not shown to the agent).
        clinic: A clinic id (e.g. 'CL-123') or its exact name.
"""
_ACTIVITY_ARGS = """
    Args:
        world: The health service (not shown to the agent).
        member: {member}
        date: The day, YYYY-MM-DD.
"""
_FOOD_ARGS = """
    Args:
        world: The health service (not shown to the agent).
        food: A food id (e.g. 'FD-1234') or the exact food name.
        servings: How many standard servings (default 1; halves are fine).
"""


# -- members and body metrics ------


def _member_view(world: World, member: Member) -> dict[str, Any]:
    return {
        "member_id": member.member_id,
        "name": member.name,
        "first_name": member.first_name,
        "relationship": member.relationship,
        "birth_date": member.birth_date,
        "age_years": _health(world).age(member),
        "sex": member.sex,
    }


@_tool()
def search_members(world: HealthWorld, query: str) -> dict[str, Any]:
    """Find household members by name; use it to get the member_id other tools accept.

    Matches every member whose full name contains the query (case-insensitive), exact
    matches first. Each result has member_id, name, first_name, relationship (self,
    spouse, child, parent), birth_date, age_years and sex. Results in 'results', with
    'count' and 'total'.

    Args:
        world: The health service (not shown to the agent).
        query: Part of a name, e.g. 'Maya'.
    """
    if not query.strip():
        raise unprocessable("query must not be empty")
    rows = _name_query(list(world.members.values()), query, "name", "first_name")
    return listing(rows, 20, lambda m: _member_view(world, m))


@_tool()
def get_member(world: HealthWorld, member: str) -> dict[str, Any]:
    """A member's profile and body metrics.

    Returns member_id, name, first_name, relationship, birth_date, age_years, sex,
    height_cm, weight_kg, bmi (kg/m², one decimal), bmi_category (underweight, healthy
    weight, overweight, obesity), bmr_kcal (basal metabolic rate, Mifflin-St Jeor, kcal
    per day) and max_hr_bpm (age-predicted maximum heart rate, 208 - 0.7 x age).

    Args:
        world: The health service (not shown to the agent).
        member: {member}
    """
    m = resolve_member(world, member)
    age = world.age(m)
    value = bmi(m.weight_kg, m.height_cm)
    return {
        **_member_view(world, m),
        "height_cm": m.height_cm,
        "weight_kg": m.weight_kg,
        "bmi": value,
        "bmi_category": bmi_category(value),
        "bmr_kcal": bmr_kcal(m.weight_kg, m.height_cm, age, m.sex),
        "max_hr_bpm": max_heart_rate(age),
    }


@_tool()
def compute_heart_rate_zone(world: HealthWorld, member: str, heart_rate_bpm: int) -> dict[str, Any]:
    """The training zone a heart rate falls in for one member.

    Zones are shares of the member's age-predicted maximum (208 - 0.7 x age): 1 recovery
    50-60%, 2 endurance 60-70%, 3 tempo 70-80%, 4 threshold 80-90%, 5 maximum 90% and up;
    below 50% is zone 0 (resting). Returns member_id, name, heart_rate_bpm, max_hr_bpm,
    zone, zone_name, percent_of_max and zone_low_bpm / zone_high_bpm (the bounds of the
    zone, bpm).

    Args:
        world: The health service (not shown to the agent).
        member: {member}
        heart_rate_bpm: The heart rate, beats per minute (30 to 230).
    """
    m = resolve_member(world, member)
    if not is_integer(heart_rate_bpm) or not 30 <= heart_rate_bpm <= 230:
        raise unprocessable("heart_rate_bpm must be an integer from 30 to 230")
    max_hr = max_heart_rate(world.age(m))
    zone, name, share = heart_rate_zone(heart_rate_bpm, max_hr)
    low, high = (0.0, 0.5) if zone == 0 else HR_ZONES[zone - 1][2:]
    return {
        "member_id": m.member_id,
        "name": m.name,
        "heart_rate_bpm": heart_rate_bpm,
        "max_hr_bpm": max_hr,
        "zone": zone,
        "zone_name": name,
        "percent_of_max": share,
        "zone_low_bpm": round(max_hr * low),
        "zone_high_bpm": round(max_hr * min(high, 1.0)),
    }


# -- medications, prescriptions and prices ------


@_tool()
def search_medications(world: HealthWorld, query: str) -> dict[str, Any]:
    """Search the drug catalog by generic or brand name; returns the medication_id.

    Exact name matches come first. Each result has medication_id, name (generic), brand,
    strength, form (tablet or capsule), drug_class, tier (insurance formulary tier 1-3)
    and rx_only.

    Args:
        world: The health service (not shown to the agent).
        query: Part of a generic or brand name, e.g. 'statin' or 'Lipitor'.
    """
    if not query.strip():
        raise unprocessable("query must not be empty")
    rows = _name_query(list(world.medications.values()), query, "name", "brand", "drug_class")
    return listing(rows, 20, row_json)


def prescription_view(world: World, row: Row) -> dict[str, Any]:
    """A prescription with its dose schedule worked out for today."""
    w = _health(world)
    rx = cast(Prescription, row)
    med = w.medications[rx.medication_id]
    per_day = rx.units_per_dose * rx.times_per_day
    days_left = rx.units_on_hand // per_day
    now = w.now()
    today = now.date()
    later = [t for t in rx.dose_times if (clock_minutes(t) or 0) > now.hour * 60 + now.minute]
    if rx.status != "active" or days_left == 0:
        next_dose = None
    elif later:
        next_dose = f"{today.isoformat()}T{later[0]}"
    else:
        next_dose = f"{(today + timedelta(days=1)).isoformat()}T{rx.dose_times[0]}"
    pharmacy = w.pharmacies[rx.pharmacy_id]
    prescriber = w.doctors.get(rx.prescriber_id)
    return {
        "prescription_id": rx.prescription_id,
        "member_id": rx.member_id,
        "member_name": w.members[rx.member_id].name,
        "medication_id": med.medication_id,
        "medication_name": med.name,
        "strength": med.strength,
        "form": med.form,
        "instructions": rx.instructions,
        "units_per_dose": rx.units_per_dose,
        "doses_per_day": rx.times_per_day,
        "dose_times": list(rx.dose_times),
        "units_per_day": per_day,
        "units_on_hand": rx.units_on_hand,
        "days_supply_left": days_left,
        "runs_out_on": (today + timedelta(days=days_left)).isoformat(),
        "next_dose_at": next_dose,
        "quantity_per_fill": rx.quantity_per_fill,
        "refills_left": rx.refills_left,
        "last_fill_date": rx.last_fill_date,
        "pharmacy_id": pharmacy.pharmacy_id,
        "pharmacy_name": pharmacy.name,
        "prescriber_name": prescriber.name if prescriber else None,
        "status": rx.status,
    }


@_tool()
def list_prescriptions(
    world: HealthWorld, member: str, status: Literal["active", "expired"] | None = None
) -> dict[str, Any]:
    """List a member's prescriptions, sorted by medication name.

    Each has {rx}. Results in 'results', with 'count' and 'total'.

    Args:
        world: The health service (not shown to the agent).
        member: {member}
        status: Only prescriptions in this status.
    """
    m = resolve_member(world, member)
    rows = [r for r in world.prescriptions.values() if r.member_id == m.member_id]
    if status is not None:
        rows = [r for r in rows if r.status == status]
    rows.sort(key=lambda r: (world.medications[r.medication_id].name, r.prescription_id))
    return listing(
        rows, 50, lambda r: prescription_view(world, r), member_id=m.member_id, member_name=m.name
    )


get_prescription = shapes.lookup(
    "get_prescription",
    "prescriptions",
    "prescription_id",
    "Prescription",
    f"Get one prescription with its dose schedule worked out for today: {_RX_DOC}. "
    "get_prescription_v2 is the newer version of this endpoint; this one still works.",
    "The prescription id, e.g. 'RX-123456'.",
    view=prescription_view,
)

get_prescription_v2 = shapes.lookup(
    "get_prescription_v2",
    "prescriptions",
    "rx_id",
    "Prescription",
    "Version 2 of get_prescription: the same prescription and dose schedule with the "
    f"parameter renamed (rx_id, was prescription_id). Returns the same keys: {_RX_DOC}.",
    "The prescription id, e.g. 'RX-123456'.",
    view=prescription_view,
)


def _price(
    world: HealthWorld, source: shapes.Source, medication: str, quantity: int = 30
) -> dict[str, Any]:
    med = _by_name(world, "medications", medication, "Medication", "medication")
    if not is_integer(quantity) or not 1 <= quantity <= 1000:
        raise unprocessable("quantity must be an integer from 1 to 1000")
    row = world.table(source.table)[med.medication_id]
    return {
        "medication_id": med.medication_id,
        "name": med.name,
        "strength": med.strength,
        "quantity": quantity,
        "unit_price_usd": row.unit_price_usd,
        "total_price_usd": money(row.unit_price_usd * quantity),
        "source": source.name,
        "as_of": row.as_of,
        source.extra: getattr(row, source.extra),
    }


get_drug_price, get_drug_price_discount, get_drug_price_marketplace = shapes.source_tools(
    _price,
    _PRICE_ARGS,
    shapes.Source(
        "get_drug_price",
        "price_index",
        data.PRICE_PROVIDERS["index"],
        """Cash price of a medication from the National Drug Price Index (authoritative).

    The index is the reference price; ScriptSaver (get_drug_price_discount) and PillMarket
    (get_drug_price_marketplace) report the same facts independently, and when sources
    disagree the index is authoritative. If this service is unavailable,
    get_drug_price_discount serves the same keys. Returns {price}, plus survey_week.
    """,
        extra="survey_week",
    ),
    shapes.Source(
        "get_drug_price_discount",
        "price_discount",
        data.PRICE_PROVIDERS["discount"],
        """Cash price of a medication from the ScriptSaver discount network.

    An independent second source for get_drug_price with the same keys: {price}, plus
    network_pharmacies.
    """,
        extra="network_pharmacies",
    ),
    shapes.Source(
        "get_drug_price_marketplace",
        "price_marketplace",
        data.PRICE_PROVIDERS["marketplace"],
        """Cash price of a medication on the PillMarket pharmacy marketplace.

    An independent third source for get_drug_price with the same keys: {price}, plus
    listings.
    """,
        extra="listings",
    ),
    declare=_tool,
)


# -- pharmacies and refills ------

search_pharmacies = shapes.search(
    "search_pharmacies",
    "pharmacies",
    "Find pharmacies by name and city, sorted by name; returns the pharmacy_id. Every "
    "filter given must match. Each has pharmacy_id, name, chain, city, address, phone, "
    "opens_at and closes_at (HH:MM local) and drive_thru.",
    [
        shapes.Filter("query", "name", "Part of the pharmacy name.", op="contains"),
        shapes.Filter(
            "city", "city", "Only pharmacies in this city.", schema=enum_schema(data.CITIES)
        ),
    ],
    sort_by="name",
)


def _refill_view(world: World, row: Row) -> dict[str, Any]:
    w = _health(world)
    refill = cast(Refill, row)
    out: dict[str, Any] = refill.model_dump(mode="json")
    out["medication_name"] = w.medications[refill.medication_id].name
    out["pharmacy_name"] = w.pharmacies[refill.pharmacy_id].name
    return out


@_tool()
def list_refills(
    world: HealthWorld,
    member: str | None = None,
    prescription_id: str | None = None,
    status: Literal["requested", "ready", "picked_up", "cancelled"] | None = None,
) -> dict[str, Any]:
    """List refill requests, sorted by refill_id (the order they were made).

    Every filter given must match.

    Each has {refills}. Results in 'results', with 'count' and 'total'.

    Args:
        world: The health service (not shown to the agent).
        member: Only this member's refills. {member}
        prescription_id: Only refills of this prescription, e.g. 'RX-123456'.
        status: Only refills in this status.
    """
    rows = shapes.filtered_rows(
        world.refills.values(),
        "refill_id",
        _of_member(world, member),
        shapes.Only(
            "prescription_id",
            prescription_id,
            lambda rx: stored_key(world.prescriptions, rx, "Prescription"),
        ),
        shapes.Only("status", status),
    )
    return listing(rows, 50, lambda r: _refill_view(world, r))


def refill_copay(world: HealthWorld, rx: Prescription) -> float:
    """The member's copay for one fill: the tier copay, never more than the cash price."""
    med = world.medications[rx.medication_id]
    cash = money(world.price_index[med.medication_id].unit_price_usd * rx.quantity_per_fill)
    return min(data.RX_TIER_COPAYS[med.tier], cash)


def _build_refill(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _health(world)
    key = stored_key(w.prescriptions, args["prescription_id"], "Prescription")
    rx = w.prescriptions[key]
    pickup = date_arg(args["pickup_date"], "pickup_date")
    today = w.today()
    if not today < pickup <= today + timedelta(days=MAX_PICKUP_DAYS):
        raise unprocessable(f"pickup_date must be from tomorrow to {MAX_PICKUP_DAYS} days ahead")
    if rx.status != "active":
        raise conflict(f"Prescription {key} has expired; ask the prescriber for a new one")
    if rx.refills_left < 1:
        raise conflict(f"Prescription {key} has no refills left")
    for other in w.refills.values():
        if other.prescription_id == key and other.status in ("requested", "ready"):
            raise conflict(
                f"Refill {other.refill_id} for this prescription is already {other.status}",
                refill_id=other.refill_id,
            )
    pharmacy_id = rx.pharmacy_id
    if args.get("pharmacy") is not None:
        pharmacy_id = _by_name(
            w, "pharmacies", args["pharmacy"], "Pharmacy", "pharmacy"
        ).pharmacy_id
    refill_id = w.next_id("RF")
    w.update("prescriptions", key, refills_left=rx.refills_left - 1)
    row = Refill(
        refill_id=refill_id,
        prescription_id=key,
        member_id=rx.member_id,
        medication_id=rx.medication_id,
        pharmacy_id=pharmacy_id,
        quantity=rx.quantity_per_fill,
        pickup_date=pickup.isoformat(),
        copay_usd=refill_copay(w, rx),
        status="requested",
        created_at=stamp(w.now()),
    )
    return refill_id, row


request_refill = shapes.create(
    "request_refill",
    "refills",
    "Request a refill of an active prescription for pickup on a given day, at the "
    "prescription's own pharmacy or another one. Uses one of the refills left. Refused "
    "(409) for an expired prescription, one with no refills left, or one with a refill "
    "already requested or ready. The copay is the formulary tier copay (tier 1 $10, tier "
    "2 $45, tier 3 $90), never more than the cash price. Returns the refill: "
    f"{_REFILL_DOC}.",
    [
        Param("prescription_id", {"type": "string"}, "The prescription id, e.g. 'RX-123456'."),
        Param(
            "pickup_date",
            {"type": "string"},
            f"Pickup day, YYYY-MM-DD, from tomorrow up to {MAX_PICKUP_DAYS} days ahead.",
        ),
        Param(
            "pharmacy",
            {"type": "string"},
            "A pharmacy id (e.g. 'PH-123') or exact name; default: the prescription's own.",
            required=False,
        ),
    ],
    _build_refill,
    view=_refill_view,
)


# -- clinics, slots and appointments ------


@_tool()
def search_clinics(
    world: HealthWorld,
    query: str | None = None,
    specialty: str | None = None,
    city: str | None = None,
) -> dict[str, Any]:
    """Find clinics by name, specialty and city; returns the clinic_id. Filters combine.

    Exact name matches first, then by name. Each has clinic_id, name, city, address,
    phone, specialties, walk_in (takes patients without an appointment) and
    travel_vaccines (gives travel vaccines).

    Args:
        world: The health service (not shown to the agent).
        query: Part of the clinic name.
        specialty: Only clinics offering this specialty, e.g. 'dermatology'.
        city: Only clinics in this city.
    """
    rows = list(world.clinics.values())
    rows = _name_query(rows, query, "name") if query else sorted(rows, key=lambda c: c.name)
    if specialty is not None:
        rows = [c for c in rows if specialty.strip().casefold() in c.specialties]
    if city is not None:
        rows = [c for c in rows if c.city.casefold() == city.strip().casefold()]
    return listing(rows, 20, row_json)


def _slot_view(world: World, slot: Slot) -> dict[str, Any]:
    w = _health(world)
    clinic = w.clinics[slot.clinic_id]
    return {
        "slot_id": slot.slot_id,
        "date": slot.date,
        "start_time": slot.start_time,
        "duration_min": slot.duration_min,
        "specialty": slot.specialty,
        "doctor_id": slot.doctor_id,
        "doctor_name": w.doctors[slot.doctor_id].name,
        "clinic_id": clinic.clinic_id,
        "clinic_name": clinic.name,
        "city": clinic.city,
    }


def _find_slots(
    world: HealthWorld,
    specialty: str,
    from_date: str | None,
    to_date: str | None,
    clinic: str | None,
    city: str | None,
    names: tuple[str, str, str],
) -> dict[str, Any]:
    check_choice(names[0], specialty, SPECIALTIES)
    today = world.today()
    start = date_arg(from_date, names[1]) if from_date is not None else today + timedelta(days=1)
    end = date_arg(to_date, names[2]) if to_date is not None else today + timedelta(days=SLOT_DAYS)
    if end < start:
        raise unprocessable(f"{names[2]} must not be before {names[1]}")
    rows = [
        s
        for s in world.slots.values()
        if not s.booked
        and s.specialty == specialty
        and start.isoformat() <= s.date <= end.isoformat()
    ]
    if clinic is not None:
        found = _by_name(world, "clinics", clinic, "Clinic", "clinic")
        rows = [s for s in rows if s.clinic_id == found.clinic_id]
    if city is not None:
        rows = [s for s in rows if world.clinics[s.clinic_id].city.casefold() == city.casefold()]
    rows.sort(key=lambda s: (s.date, s.start_time, s.slot_id))
    return listing(rows, 25, lambda s: _slot_view(world, s))


@_tool()
def find_appointment_slots(
    world: HealthWorld,
    specialty: str,
    from_date: str | None = None,
    to_date: str | None = None,
    clinic: str | None = None,
    city: str | None = None,
) -> dict[str, Any]:
    """Search free appointment slots across all clinics for one specialty.

    Slots exist for the next 14 days (weekdays). find_appointment_slots_v2 is the newer
    version of this endpoint; this one still works. {slots}

    Args:
        world: The health service (not shown to the agent).
        specialty: The kind of visit, e.g. 'primary care', 'dermatology' or 'lab draw'.
        from_date: First day to search, YYYY-MM-DD (default tomorrow).
        to_date: Last day to search, YYYY-MM-DD, inclusive (default 14 days ahead).
        clinic: Only this clinic: a clinic id (e.g. 'CL-123') or its exact name.
        city: Only clinics in this city.
    """
    names = ("specialty", "from_date", "to_date")
    return _find_slots(world, specialty, from_date, to_date, clinic, city, names)


@_tool(name="find_appointment_slots_v2")
def find_appointment_slots_v2(
    world: HealthWorld,
    service: str,
    start_date: str | None = None,
    end_date: str | None = None,
    clinic_ref: str | None = None,
    city: str | None = None,
) -> dict[str, Any]:
    """Version 2 of find_appointment_slots, with renamed parameters and the same results.

    Takes service (was specialty), start_date and end_date (were from_date and to_date)
    and clinic_ref (was clinic). {slots}

    Args:
        world: The health service (not shown to the agent).
        service: The kind of visit, e.g. 'primary care', 'dermatology' or 'lab draw'.
        start_date: First day to search, YYYY-MM-DD (default tomorrow).
        end_date: Last day to search, YYYY-MM-DD, inclusive (default 14 days ahead).
        clinic_ref: Only this clinic: a clinic id (e.g. 'CL-123') or its exact name.
        city: Only clinics in this city.
    """
    names = ("service", "start_date", "end_date")
    return _find_slots(world, service, start_date, end_date, clinic_ref, city, names)


def visit_copay(world: HealthWorld, member_id: str, specialty: str) -> float:
    """The plan's copay for a visit of this specialty."""
    plan = world.plans[member_id]
    return plan.copay_primary_usd if specialty in PRIMARY_CARE else plan.copay_specialist_usd


def _appointment_view(world: World, row: Row) -> dict[str, Any]:
    w = _health(world)
    apt = cast(Appointment, row)
    out: dict[str, Any] = apt.model_dump(mode="json")
    out["member_name"] = w.members[apt.member_id].name
    out["doctor_name"] = w.doctors[apt.doctor_id].name
    out["clinic_name"] = w.clinics[apt.clinic_id].name
    out["copay_usd"] = visit_copay(w, apt.member_id, apt.specialty)
    return out


@_tool()
def list_appointments(
    world: HealthWorld,
    member: str | None = None,
    status: Literal["scheduled", "cancelled"] | None = None,
) -> dict[str, Any]:
    """List appointments, sorted by appointment_id. Every filter given must match.

    Each has {appointments}. Results in 'results', with 'count' and 'total'.

    Args:
        world: The health service (not shown to the agent).
        member: Only this member's appointments. {member}
        status: Only appointments in this status.
    """
    rows = shapes.filtered_rows(
        world.appointments.values(),
        "appointment_id",
        _of_member(world, member),
        shapes.Only("status", status),
    )
    return listing(rows, 100, lambda a: _appointment_view(world, a))


def _build_appointment(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _health(world)
    member = resolve_member(w, args["member"])
    key = stored_key(w.slots, args["slot_id"], "Slot")
    slot = w.slots[key]
    reason = str(args.get("reason") or "").strip()
    if not reason:
        raise unprocessable("reason must not be empty")
    if len(reason) > MAX_REASON_CHARS:
        raise unprocessable(f"reason must be at most {MAX_REASON_CHARS} characters")
    if slot.booked:
        raise conflict(f"Slot {key} is already booked; search for another")
    for other in w.appointments.values():
        if (
            other.member_id == member.member_id
            and other.status == "scheduled"
            and (other.date, other.start_time) == (slot.date, slot.start_time)
        ):
            raise conflict(
                f"{member.name} already has appointment {other.appointment_id} at that time",
                appointment_id=other.appointment_id,
            )
    w.update("slots", key, booked=True)
    apt_id = w.next_id("APT")
    row = Appointment(
        appointment_id=apt_id,
        member_id=member.member_id,
        slot_id=key,
        doctor_id=slot.doctor_id,
        clinic_id=slot.clinic_id,
        specialty=slot.specialty,
        date=slot.date,
        start_time=slot.start_time,
        reason=reason,
        status="scheduled",
        created_at=stamp(w.now()),
    )
    return apt_id, row


book_appointment = shapes.create(
    "book_appointment",
    "appointments",
    "Book a free slot (from find_appointment_slots) for a member. Refused (409) if the "
    "slot is taken or the member already has an appointment at that time. Returns the "
    f"appointment: {_APT_DOC}.",
    [
        Param("member", {"type": "string"}, MEMBER_DOC),
        Param("slot_id", {"type": "string"}, "The slot id, e.g. 'SL-12345'."),
        Param(
            "reason",
            {"type": "string"},
            f"Why the member is coming, at most {MAX_REASON_CHARS} characters.",
        ),
    ],
    _build_appointment,
    view=_appointment_view,
)


def _cancel_changes(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    apt = cast(Appointment, row)
    if apt.status != "scheduled":
        raise conflict(f"Appointment {apt.appointment_id} is already {apt.status}")
    if apt.slot_id in _health(world).slots:
        world.update("slots", apt.slot_id, booked=False)
    return {"status": "cancelled"}


cancel_appointment = shapes.update(
    "cancel_appointment",
    "appointments",
    "appointment_id",
    "Appointment",
    "Cancel a scheduled appointment and free its slot. Refused (409) if it is already "
    f"cancelled. Returns the appointment: {_APT_DOC}.",
    "The appointment id, e.g. 'APT-00042'.",
    [],
    _cancel_changes,
    view=_appointment_view,
)


def _wait(world: HealthWorld, source: shapes.Source, clinic: str) -> dict[str, Any]:
    found = _by_name(world, "clinics", clinic, "Clinic", "clinic")
    row = world.table(source.table)[found.clinic_id]
    return {
        "clinic_id": found.clinic_id,
        "clinic_name": found.name,
        "wait_minutes": row.wait_minutes,
        "source": source.name,
        "as_of": row.as_of,
        source.extra: getattr(row, source.extra),
    }


get_clinic_wait_time, get_wait_time_crowd, get_wait_time_maps = shapes.source_tools(
    _wait,
    _CLINIC_ARGS,
    shapes.Source(
        "get_clinic_wait_time",
        "wait_clinic",
        data.WAIT_PROVIDERS["clinic"],
        """Current wait at a clinic from its own check-in system (authoritative).

    WaitWatch (get_wait_time_crowd) and the maps estimate (get_wait_time_maps) report the
    same fact independently; when they disagree, the clinic's own check-in system is
    authoritative. If it is unavailable, get_wait_time_crowd serves the same keys.
    Returns {wait}, plus patients_waiting.
    """,
        extra="patients_waiting",
    ),
    shapes.Source(
        "get_wait_time_crowd",
        "wait_crowd",
        data.WAIT_PROVIDERS["crowd"],
        """Current wait at a clinic from WaitWatch crowd reports.

    An independent second source for get_clinic_wait_time with the same keys: {wait},
    plus reports (how many patients reported).
    """,
        extra="reports",
    ),
    shapes.Source(
        "get_wait_time_maps",
        "wait_maps",
        data.WAIT_PROVIDERS["maps"],
        """Current wait at a clinic estimated from a maps service's live busyness.

    An independent third source for get_clinic_wait_time with the same keys: {wait},
    plus busyness_pct.
    """,
        extra="busyness_pct",
    ),
    declare=_tool,
)


# -- activity and workouts ------


def _activity(world: HealthWorld, source: shapes.Source, member: str, date: str) -> dict[str, Any]:
    m = resolve_member(world, member)
    wanted = _history_day(world, date)
    row = world.table(source.table)[key_of(m.member_id, wanted)]
    out: dict[str, Any] = {"member_name": m.name, **row.model_dump(mode="json")}
    return out


get_daily_activity, get_daily_activity_backup = shapes.source_tools(
    _activity,
    _ACTIVITY_ARGS,
    shapes.Source(
        "get_daily_activity",
        "activity",
        "",
        """A member's activity totals for one day, from the wearable cloud.

    Days from 14 days ago to yesterday are available. Returns {activity}. If this service
    is unavailable, get_daily_activity_backup returns the same facts under the same keys
    from the phone's health app.
    """,
    ),
    shapes.Source(
        "get_daily_activity_backup",
        "activity_backup",
        "",
        """A member's activity totals for one day, from the phone's health app (backup).

    An independent second source for get_daily_activity with the same keys: {activity},
    plus synced_at.
    """,
    ),
    declare=_tool,
)


def _workout_view(world: World, row: Row) -> dict[str, Any]:
    out: dict[str, Any] = cast(Workout, row).model_dump(mode="json")
    return out


@_tool()
def list_workouts(
    world: HealthWorld,
    member: str,
    from_date: str | None = None,
    to_date: str | None = None,
    type: Literal["cycle", "hiit", "run", "strength", "swim", "walk", "yoga"] | None = None,
) -> dict[str, Any]:
    """List a member's workouts, oldest first. Every filter given must match.

    Each has workout_id, member_id, date, type, start_time, duration_min, distance_km
    (null for workouts without distance), avg_hr_bpm (null if not recorded) and
    calories_kcal. Results in 'results', with 'count' and 'total'.

    Args:
        world: The health service (not shown to the agent).
        member: {member}
        from_date: First day, YYYY-MM-DD (inclusive).
        to_date: Last day, YYYY-MM-DD (inclusive).
        type: Only workouts of this type.
    """
    m = resolve_member(world, member)
    rows = [w for w in world.workouts.values() if w.member_id == m.member_id]
    if from_date is not None:
        start = date_arg(from_date, "from_date").isoformat()
        rows = [w for w in rows if w.date >= start]
    if to_date is not None:
        end = date_arg(to_date, "to_date").isoformat()
        rows = [w for w in rows if w.date <= end]
    if type is not None:
        rows = [w for w in rows if w.type == type]
    rows.sort(key=lambda w: (w.date, w.start_time, w.workout_id))
    return listing(rows, 50, lambda w: _workout_view(world, w))


def _build_workout(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _health(world)
    member = resolve_member(w, args["member"])
    day = date_arg(args["date"], "date")
    today = w.today()
    if not today - timedelta(days=14) <= day <= today:
        raise unprocessable("date must be today or within the last 14 days")
    kind = args["type"]
    check_choice("type", kind, WORKOUT_TYPES)
    minutes = args["duration_min"]
    if not is_integer(minutes) or not 5 <= minutes <= 600:
        raise unprocessable("duration_min must be an integer from 5 to 600")
    start = clock_text(args.get("start_time") or "07:00", "start_time")
    distance = args.get("distance_km")
    met, per_minute = data.WORKOUT_TYPES[kind]
    if distance is not None:
        if per_minute is None:
            raise unprocessable(f"a {kind} workout has no distance")
        if not is_number(distance) or not 0 < distance <= 300:
            raise unprocessable("distance_km must be a number above 0 and at most 300")
        distance = round(float(distance), 2)
    workout_id = w.next_id("WK")
    row = Workout(
        workout_id=workout_id,
        member_id=member.member_id,
        date=day.isoformat(),
        type=kind,
        start_time=start,
        duration_min=minutes,
        distance_km=distance,
        avg_hr_bpm=0,
        calories_kcal=workout_kcal(met, member.weight_kg, minutes),
    )
    return workout_id, row


log_workout = shapes.create(
    "log_workout",
    "workouts",
    "Record a workout for a member, today or within the last 14 days. calories_kcal is "
    "worked out from the activity's MET value, the member's weight and the duration. "
    "Returns the workout: workout_id, member_id, date, type, start_time, duration_min, "
    "distance_km, avg_hr_bpm (0 when logged by hand) and calories_kcal.",
    [
        Param("member", {"type": "string"}, MEMBER_DOC),
        Param("date", {"type": "string"}, "The day of the workout, YYYY-MM-DD."),
        Param("type", enum_schema(WORKOUT_TYPES), "The kind of workout."),
        Param("duration_min", {"type": "integer"}, "Duration in minutes, 5 to 600."),
        Param(
            "distance_km",
            {"type": "number"},
            "Distance covered, km (only for run, walk, cycle and swim).",
            required=False,
        ),
        Param(
            "start_time",
            {"type": "string", "default": "07:00"},
            "Start time, HH:MM local (default 07:00).",
            required=False,
        ),
    ],
    _build_workout,
    view=_workout_view,
)


# -- food, nutrition and meals ------


@_tool()
def search_foods(world: HealthWorld, query: str) -> dict[str, Any]:
    """Search the food catalog by name; returns the food_id other tools accept.

    Exact name matches first, then by name. Each has food_id, name and serving (the
    standard serving the nutrition facts are given for).

    Args:
        world: The health service (not shown to the agent).
        query: Part of a food name, e.g. 'yogurt'.
    """
    if not query.strip():
        raise unprocessable("query must not be empty")
    rows = _name_query(list(world.foods.values()), query, "name")
    return listing(rows, 20, row_json)


def _nutrition(
    world: HealthWorld, source: shapes.Source, food: str, servings: float = 1.0
) -> dict[str, Any]:
    found = _by_name(world, "foods", food, "Food", "food")
    if not is_number(servings) or not 0 < servings <= 20:
        raise unprocessable("servings must be a number above 0 and at most 20")
    facts = world.table(source.table)[found.food_id]
    out: dict[str, Any] = {
        "food_id": found.food_id,
        "name": found.name,
        "serving": found.serving,
        "servings": servings,
    }
    for name in NUTRIENT_FIELDS:
        out[name] = round(getattr(facts, name) * servings, 1)
    out["source"] = source.name
    out["as_of"] = facts.as_of
    return out


get_food_nutrition, get_food_nutrition_label, get_food_nutrition_community = shapes.source_tools(
    _nutrition,
    _FOOD_ARGS,
    shapes.Source(
        "get_food_nutrition",
        "nutrition_national",
        data.NUTRITION_PROVIDERS["national"],
        """Nutrition facts of a food from the National Food Composition Database (authoritative).

    LabelScan (get_food_nutrition_label) and CalorieCrowd (get_food_nutrition_community)
    hold the same facts independently; when they disagree, the national database is
    authoritative. If it is unavailable, get_food_nutrition_label serves the same keys.
    Returns {nutrition}.
    """,
    ),
    shapes.Source(
        "get_food_nutrition_label",
        "nutrition_label",
        data.NUTRITION_PROVIDERS["label"],
        """Nutrition facts of a food from the LabelScan packaged-food database.

    An independent second source for get_food_nutrition with the same keys: {nutrition}.
    """,
    ),
    shapes.Source(
        "get_food_nutrition_community",
        "nutrition_community",
        data.NUTRITION_PROVIDERS["community"],
        """Nutrition facts of a food from the CalorieCrowd community database.

    An independent third source for get_food_nutrition with the same keys: {nutrition}.
    """,
    ),
    declare=_tool,
)


def _meal_view(world: World, row: Row) -> dict[str, Any]:
    meal = cast(Meal, row)
    out: dict[str, Any] = meal.model_dump(mode="json")
    out["food_name"] = _health(world).foods[meal.food_id].name
    return out


@_tool()
def list_meals(
    world: HealthWorld,
    member: str,
    date: str,
    meal: Literal["breakfast", "lunch", "snack", "dinner"] | None = None,
) -> dict[str, Any]:
    """A member's food log for one day, in the order eaten.

    Each entry has meal_id, member_id, date, meal, time (HH:MM local), food_id, food_name
    and servings; nutrition facts come from get_food_nutrition. Results in 'results',
    with 'count' and 'total'.

    Args:
        world: The health service (not shown to the agent).
        member: {member}
        date: The day, YYYY-MM-DD.
        meal: Only this meal.
    """
    m = resolve_member(world, member)
    day = date_arg(date, "date").isoformat()
    rows = [r for r in world.meals.values() if r.member_id == m.member_id and r.date == day]
    if meal is not None:
        rows = [r for r in rows if r.meal == meal]
    rows.sort(key=lambda r: (r.time, r.meal_id))
    return listing(rows, 50, lambda r: _meal_view(world, r))


def _build_meal(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _health(world)
    member = resolve_member(w, args["member"])
    day = date_arg(args["date"], "date")
    today = w.today()
    if not today - timedelta(days=14) <= day <= today:
        raise unprocessable("date must be today or within the last 14 days")
    check_choice("meal", args["meal"], MEALS)
    found = _by_name(w, "foods", args["food"], "Food", "food")
    servings = args.get("servings", 1.0)
    if not is_number(servings) or not 0 < servings <= 20:
        raise unprocessable("servings must be a number above 0 and at most 20")
    at = clock_text(args["time"], "time")
    meal_id = w.next_id("ML")
    row = Meal(
        meal_id=meal_id,
        member_id=member.member_id,
        date=day.isoformat(),
        meal=args["meal"],
        time=at,
        food_id=found.food_id,
        servings=float(servings),
    )
    return meal_id, row


log_meal = shapes.create(
    "log_meal",
    "meals",
    "Add a food to a member's food log, today or within the last 14 days. Returns the "
    f"entry: {_MEAL_DOC}.",
    [
        Param("member", {"type": "string"}, MEMBER_DOC),
        Param("date", {"type": "string"}, "The day, YYYY-MM-DD."),
        Param("meal", enum_schema(MEALS), "Which meal."),
        Param("time", {"type": "string"}, "When it was eaten, HH:MM local."),
        Param("food", {"type": "string"}, "A food id (e.g. 'FD-1234') or the exact food name."),
        Param(
            "servings",
            {"type": "number", "default": 1.0},
            "How many standard servings (default 1).",
            required=False,
        ),
    ],
    _build_meal,
    view=_meal_view,
)


# -- sleep ------


def _sleep(world: HealthWorld, member: str, day: str, params: tuple[str, str]) -> dict[str, Any]:
    m = resolve_member(world, member, params[0])
    wanted = date_arg(day, params[1]).isoformat()
    row = world.sleep.get(key_of(m.member_id, wanted))
    if row is None:
        raise not_found("Sleep record", f"{m.name} on {wanted}")
    out: dict[str, Any] = {"member_name": m.name, **row.model_dump(mode="json")}
    return out


@_tool()
def get_sleep_record(world: HealthWorld, member: str, date: str) -> dict[str, Any]:
    """One night's sleep for a member, dated by the morning they woke up.

    Nights of the last 14 mornings (today included) are available. get_sleep_record_v2 is
    the newer version of this endpoint; this one still works. Returns {sleep}.

    Args:
        world: The health service (not shown to the agent).
        member: {member}
        date: The morning of waking, YYYY-MM-DD.
    """
    return _sleep(world, member, date, ("member", "date"))


@_tool(name="get_sleep_record_v2")
def get_sleep_record_v2(world: HealthWorld, member_ref: str, wake_date: str) -> dict[str, Any]:
    """Version 2 of get_sleep_record, with renamed parameters and the same result keys.

    Takes member_ref (was member) and wake_date (was date). Returns {sleep}.

    Args:
        world: The health service (not shown to the agent).
        member_ref: {member}
        wake_date: The morning of waking, YYYY-MM-DD.
    """
    return _sleep(world, member_ref, wake_date, ("member_ref", "wake_date"))


# -- lab results ------


@_tool()
def list_lab_results(
    world: HealthWorld,
    member: str,
    test_code: str | None = None,
    flag: Literal["low", "normal", "high"] | None = None,
) -> dict[str, Any]:
    """A member's lab results, newest first. Every filter given must match.

    Each has {labs}. Test codes: LDL, HDL, CHOL, TRIG, A1C, GLU, TSH, VITD, HGB, CREA,
    ALT, FERR. Results in 'results', with 'count' and 'total'.

    Args:
        world: The health service (not shown to the agent).
        member: {member}
        test_code: Only this test, e.g. 'LDL' (case-insensitive).
        flag: Only results with this flag.
    """
    m = resolve_member(world, member)
    rows = [r for r in world.lab_results.values() if r.member_id == m.member_id]
    if test_code is not None:
        rows = [r for r in rows if r.test_code.casefold() == test_code.strip().casefold()]
    if flag is not None:
        rows = [r for r in rows if r.flag == flag]
    rows.sort(key=lambda r: (r.collected_on, r.test_code), reverse=True)
    return listing(rows, 50, row_json, member_id=m.member_id, member_name=m.name)


get_lab_result = shapes.lookup(
    "get_lab_result",
    "lab_results",
    "result_id",
    "Lab result",
    f"Get one lab result by its id: {_LAB_DOC}.",
    "The result id, e.g. 'LAB-12345'.",
)


# -- vaccinations and travel ------


@_tool()
def list_vaccinations(
    world: HealthWorld, member: str, vaccine: str | None = None
) -> dict[str, Any]:
    """A member's vaccination record, oldest dose first.

    Each dose has vaccination_id, member_id, vaccine, dose_number, date_given,
    next_due_on (when a booster or the next dose is due, YYYY-MM-DD; null if none is
    needed), given_at and lot_number. Results in 'results', with 'count' and 'total'.

    Args:
        world: The health service (not shown to the agent).
        member: {member}
        vaccine: Only this vaccine, e.g. 'Typhoid' (case-insensitive).
    """
    m = resolve_member(world, member)
    rows = [v for v in world.vaccinations.values() if v.member_id == m.member_id]
    if vaccine is not None:
        rows = [v for v in rows if v.vaccine.casefold() == vaccine.strip().casefold()]
    rows.sort(key=lambda v: (v.date_given, v.vaccination_id))
    return listing(rows, 50, row_json, member_id=m.member_id, member_name=m.name)


def vaccine_status(world: HealthWorld, member_id: str, vaccine: str, on: date) -> str:
    """Whether a member is covered by a vaccine on a day: covered, due or missing."""
    doses = [
        v for v in world.vaccinations.values() if v.member_id == member_id and v.vaccine == vaccine
    ]
    if not doses:
        return "missing"
    last = max(doses, key=lambda v: v.date_given)
    if last.next_due_on is not None and last.next_due_on <= on.isoformat():
        return "due"
    return "covered"


@_tool()
def check_travel_vaccines(
    world: HealthWorld, member: str, country: str, travel_date: str
) -> dict[str, Any]:
    """Compare a member's vaccination record with the advice for a destination.

    A vaccine counts as covered when a dose is on record and no booster falls due on or
    before the travel date. Returns member_id, name, country, travel_date, malaria_risk,
    required and recommended (the advice), covered, due (a booster is due by the travel
    date) and missing (never given) lists, and needed_count (due + missing, required and
    recommended together).

    Args:
        world: The health service (not shown to the agent).
        member: {member}
        country: The destination country name or ISO code, e.g. 'Kenya' or 'KE'.
        travel_date: The departure day, YYYY-MM-DD.
    """
    m = resolve_member(world, member)
    wanted = country.strip().casefold()
    dest = next(
        (
            d
            for d in world.destinations.values()
            if wanted in (d.code.casefold(), d.country.casefold())
        ),
        None,
    )
    if dest is None:
        raise not_found("Destination", country)
    day = date_arg(travel_date, "travel_date")
    if day < world.today():
        raise unprocessable("travel_date must not be in the past")
    status = {
        v: vaccine_status(world, m.member_id, v, day) for v in dest.required + dest.recommended
    }
    return {
        "member_id": m.member_id,
        "name": m.name,
        "country": dest.country,
        "travel_date": day.isoformat(),
        "malaria_risk": dest.malaria_risk,
        "required": list(dest.required),
        "recommended": list(dest.recommended),
        "covered": [v for v, s in status.items() if s == "covered"],
        "due": [v for v, s in status.items() if s == "due"],
        "missing": [v for v, s in status.items() if s == "missing"],
        "needed_count": sum(s != "covered" for s in status.values()),
    }


# -- insurance ------


def _plan_view(world: HealthWorld, member: Member) -> dict[str, Any]:
    plan = world.plans[member.member_id]
    out: dict[str, Any] = plan.model_dump(mode="json")
    out["member_name"] = member.name
    out["deductible_remaining_usd"] = money(max(plan.deductible_usd - plan.deductible_met_usd, 0))
    out["oop_remaining_usd"] = money(max(plan.oop_max_usd - plan.oop_met_usd, 0))
    return out


@_tool()
def get_insurance_plan(world: HealthWorld, member: str) -> dict[str, Any]:
    """A member's health plan and how much of this year's limits is used.

    Returns member_id, member_name, plan_name, plan_id, deductible_usd,
    deductible_met_usd, deductible_remaining_usd, oop_max_usd (out-of-pocket maximum),
    oop_met_usd, oop_remaining_usd, coinsurance_pct (the member's share after the
    deductible), copay_primary_usd and copay_specialist_usd.

    Args:
        world: The health service (not shown to the agent).
        member: {member}
    """
    return _plan_view(world, resolve_member(world, member))


@_tool()
def list_claims(
    world: HealthWorld,
    member: str | None = None,
    status: Literal["paid", "processing", "denied"] | None = None,
) -> dict[str, Any]:
    """Insurance claims this plan year, oldest service first. Every filter given must match.

    Each has claim_id, member_id, service_date, provider, service, billed_usd,
    allowed_usd (the plan's negotiated amount), plan_paid_usd, member_owes_usd and status
    (paid, processing, denied). Results in 'results', with 'count' and 'total'.

    Args:
        world: The health service (not shown to the agent).
        member: Only this member's claims. {member}
        status: Only claims in this status.
    """
    rows = shapes.filtered_rows(
        world.claims.values(),
        lambda c: (c.service_date, c.claim_id),
        _of_member(world, member),
        shapes.Only("status", status),
    )
    return listing(rows, 50, row_json)


@_tool()
def estimate_cost(world: HealthWorld, member: str, allowed_usd: float) -> dict[str, Any]:
    """Estimate what a member pays for a service with a given allowed amount.

    Uses this year's accumulators: the member pays what is left of the deductible first,
    then coinsurance_pct of the rest, never more than what is left of the out-of-pocket
    maximum. Returns member_id, allowed_usd, deductible_applied_usd, coinsurance_usd,
    member_pays_usd and plan_pays_usd.

    Args:
        world: The health service (not shown to the agent).
        member: {member}
        allowed_usd: The plan's allowed amount for the service, in dollars.
    """
    m = resolve_member(world, member)
    if not is_number(allowed_usd) or not 0 < allowed_usd <= 1_000_000:
        raise unprocessable("allowed_usd must be a number above 0 and at most 1000000")
    plan = world.plans[m.member_id]
    split = cost_share(
        allowed_usd,
        plan.deductible_usd - plan.deductible_met_usd,
        plan.coinsurance_pct,
        plan.oop_max_usd - plan.oop_met_usd,
    )
    return {"member_id": m.member_id, "allowed_usd": money(allowed_usd), **split}


TOOLS: list[Tool] = [
    search_members,
    get_member,
    compute_heart_rate_zone,
    search_medications,
    list_prescriptions,
    get_prescription,
    get_prescription_v2,
    get_drug_price,
    get_drug_price_discount,
    get_drug_price_marketplace,
    search_pharmacies,
    list_refills,
    request_refill,
    search_clinics,
    find_appointment_slots,
    find_appointment_slots_v2,
    list_appointments,
    book_appointment,
    cancel_appointment,
    get_clinic_wait_time,
    get_wait_time_crowd,
    get_wait_time_maps,
    get_daily_activity,
    get_daily_activity_backup,
    list_workouts,
    log_workout,
    search_foods,
    get_food_nutrition,
    get_food_nutrition_label,
    get_food_nutrition_community,
    list_meals,
    log_meal,
    get_sleep_record,
    get_sleep_record_v2,
    list_lab_results,
    get_lab_result,
    list_vaccinations,
    check_travel_vaccines,
    get_insurance_plan,
    list_claims,
    estimate_cost,
]
