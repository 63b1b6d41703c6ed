"""The health domain (topic "health and wellness"): one household's care and tracking.

A primary user and their family take medicines on schedules, refill them at pharmacies,
book visits across clinics, log workouts, meals and sleep, get lab results and travel
vaccines, and claim on one health plan. Every hazard family has a real place to fit:

- fallbacks: the wearable's ``get_daily_activity`` has the phone app's
  ``get_daily_activity_backup``; the three multi-source facts below fall back from the
  authoritative source to a second one;
- v2: ``get_prescription`` (``rx_id``), ``find_appointment_slots`` (``service``,
  ``start_date``, ``end_date``, ``clinic_ref``) and ``get_sleep_record`` (``member_ref``,
  ``wake_date``) each have a v2 with renamed parameters and the same result keys;
- unit conversions: distances (km), body weight and height, energy (kcal) and sodium (mg);
- resolvers: every ``member`` takes a name or an id (``search_members``), and medication,
  clinic and food parameters take a name or an id (``search_medications``,
  ``search_clinics``, ``search_foods``);
- write verifiers: refills, bookings, cancellations, workouts and meals each have a read
  that lists what they wrote;
- sources: drug cash prices (the National Drug Price Index is authoritative), clinic wait
  times (the clinic's own check-in system) and nutrition facts (the National Food
  Composition Database) each come from three independent services that agree in the
  clean world and stamp ``as_of``.
"""

from __future__ import annotations

from toolchaos.domains import (
    Domain,
    DomainNotes,
    Fallback,
    UnitConversion,
    V2Tool,
    WriteVerifier,
    tool_map,
)
from toolchaos.domains._notes import CENTS, FRACTION, SECONDS, resolver, sources
from toolchaos.domains.health.tools import NUTRIENT_FIELDS, TOOLS
from toolchaos.domains.health.world import HealthWorld

_FAMILIES: dict[str, tuple[tuple[str, ...], dict[str, str], list[str]]] = {
    # authoritative source first: (tools, parameter map, numeric fact fields)
    "price": (
        ("get_drug_price", "get_drug_price_discount", "get_drug_price_marketplace"),
        {"medication": "medication", "quantity": "quantity"},
        ["unit_price_usd", "total_price_usd"],
    ),
    "wait": (
        ("get_clinic_wait_time", "get_wait_time_crowd", "get_wait_time_maps"),
        {"clinic": "clinic"},
        ["wait_minutes"],
    ),
    "nutrition": (
        ("get_food_nutrition", "get_food_nutrition_label", "get_food_nutrition_community"),
        {"food": "food", "servings": "servings"},
        list(NUTRIENT_FIELDS),
    ),
}


_MEMBER_TOOLS = (
    "get_member",
    "compute_heart_rate_zone",
    "list_prescriptions",
    "list_refills",
    "list_appointments",
    "book_appointment",
    "get_daily_activity",
    "get_daily_activity_backup",
    "list_workouts",
    "log_workout",
    "list_meals",
    "log_meal",
    "get_sleep_record",
    "list_lab_results",
    "list_vaccinations",
    "check_travel_vaccines",
    "get_insurance_plan",
    "list_claims",
    "estimate_cost",
)
_KCAL_TO_KJ = UnitConversion(to_unit="kJ", factor=4.184)

DOMAIN = Domain(
    name="health",
    topic="health and wellness",
    world_type=HealthWorld,
    tools=tool_map(TOOLS),
    notes=DomainNotes(
        fallbacks={
            "get_daily_activity": Fallback(
                tool="get_daily_activity_backup", args_map={"member": "member", "date": "date"}
            ),
            "get_drug_price": Fallback(
                tool="get_drug_price_discount",
                args_map={"medication": "medication", "quantity": "quantity"},
            ),
            "get_clinic_wait_time": Fallback(
                tool="get_wait_time_crowd", args_map={"clinic": "clinic"}
            ),
            "get_food_nutrition": Fallback(
                tool="get_food_nutrition_label", args_map={"food": "food", "servings": "servings"}
            ),
        },
        v2={
            "get_prescription": V2Tool(
                tool="get_prescription_v2", args_map={"rx_id": "prescription_id"}
            ),
            "find_appointment_slots": V2Tool(
                tool="find_appointment_slots_v2",
                args_map={
                    "service": "specialty",
                    "start_date": "from_date",
                    "end_date": "to_date",
                    "clinic_ref": "clinic",
                    "city": "city",
                },
            ),
            "get_sleep_record": V2Tool(
                tool="get_sleep_record_v2", args_map={"member_ref": "member", "wake_date": "date"}
            ),
        },
        unit_conversions={
            "distance_km": UnitConversion(to_unit="mi", factor=0.621371),
            "weight_kg": UnitConversion(to_unit="lb", factor=2.20462),
            "height_cm": UnitConversion(to_unit="in", factor=0.393701),
            "calories_kcal": _KCAL_TO_KJ,
            "calories_burned_kcal": _KCAL_TO_KJ,
            "sodium_mg": UnitConversion(to_unit="g", factor=0.001),
            **dict.fromkeys(
                (
                    "total_price_usd",
                    "member_pays_usd",
                    "plan_pays_usd",
                    "deductible_met_usd",
                    "oop_remaining_usd",
                ),
                CENTS,
            ),
            **dict.fromkeys(
                ("wait_minutes", "deep_minutes", "active_minutes", "asleep_minutes"), SECONDS
            ),
            **dict.fromkeys(("efficiency_pct",), FRACTION),
        },
        resolvers={
            **{name: resolver("member", "search_members", "member_id") for name in _MEMBER_TOOLS},
            "get_sleep_record_v2": resolver("member_ref", "search_members", "member_id"),
            **{
                name: resolver("medication", "search_medications", "medication_id")
                for name in _FAMILIES["price"][0]
            },
            **{
                name: resolver("clinic", "search_clinics", "clinic_id")
                for name in _FAMILIES["wait"][0]
            },
            "find_appointment_slots": resolver("clinic", "search_clinics", "clinic_id"),
            "find_appointment_slots_v2": resolver("clinic_ref", "search_clinics", "clinic_id"),
            **{
                name: resolver("food", "search_foods", "food_id")
                for name in (*_FAMILIES["nutrition"][0], "log_meal")
            },
        },
        write_verifiers={
            "request_refill": WriteVerifier(
                tool="list_refills",
                args_map={"prescription_id": "prescription_id"},
                match={"prescription_id": "prescription_id", "pickup_date": "pickup_date"},
            ),
            "book_appointment": WriteVerifier(
                tool="list_appointments",
                args_map={"member": "member"},
                match={"slot_id": "slot_id", "reason": "reason"},
            ),
            "cancel_appointment": WriteVerifier(
                tool="list_appointments", args_map={}, match={"appointment_id": "appointment_id"}
            ),
            "log_workout": WriteVerifier(
                tool="list_workouts",
                args_map={"member": "member", "from_date": "date", "to_date": "date"},
                match={"date": "date", "type": "type", "duration_min": "duration_min"},
            ),
            "log_meal": WriteVerifier(
                tool="list_meals",
                args_map={"member": "member", "date": "date"},
                match={"date": "date", "meal": "meal", "time": "time"},
            ),
        },
        sources={
            tool: note
            for tools, args, fields in _FAMILIES.values()
            for tool, note in sources({t: tuple(args) for t in tools}, fields).items()
        },
    ),
)

__all__ = ["DOMAIN", "HealthWorld"]
