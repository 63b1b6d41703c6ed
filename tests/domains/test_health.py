"""Tests of the health domain: the seeded world, every tool, writes, forks and the notes."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

import pytest

from conftest import DomainTools, all_keys, forks_of, numeric_keys
from toolchaos.core.reference import follow
from toolchaos.core.types import ToolKind
from toolchaos.domains import DOMAINS
from toolchaos.domains.health import DOMAIN
from toolchaos.domains.health.world import (
    HealthWorld,
    bmi,
    bmr_kcal,
    cost_share,
    heart_rate_zone,
    key_of,
    max_heart_rate,
    workout_kcal,
)

DOMAINS.setdefault("health", "toolchaos.domains.health:DOMAIN")

SEED = 7
SEEDS = [0, 1, 7, 42, 2026]
SOURCE_FAMILIES = {
    "price": ("get_drug_price", "get_drug_price_discount", "get_drug_price_marketplace"),
    "wait": ("get_clinic_wait_time", "get_wait_time_crowd", "get_wait_time_maps"),
    "nutrition": ("get_food_nutrition", "get_food_nutrition_label", "get_food_nutrition_community"),
}
domain_tools = DomainTools(DOMAIN)
call, refused = domain_tools.call, domain_tools.refused


# -- helpers -------------------------------------------------------------------------------


def day(world: HealthWorld, offset: int) -> str:
    return (world.today() + timedelta(days=offset)).isoformat()


def primary(world: HealthWorld) -> Any:
    return next(m for m in world.members.values() if m.relationship == "self")


def refillable(world: HealthWorld) -> Any:
    busy = {r.prescription_id for r in world.refills.values() if r.status in ("requested", "ready")}
    return next(
        rx
        for rx in world.prescriptions.values()
        if rx.status == "active" and rx.refills_left > 0 and rx.prescription_id not in busy
    )


def free_slot(world: HealthWorld) -> Any:
    return next(s for s in sorted(world.slots.values(), key=lambda s: s.slot_id) if not s.booked)


def read_calls(world: HealthWorld) -> list[tuple[str, dict[str, Any]]]:
    """One valid call of every READ tool, on records drawn from the world."""
    me = primary(world)
    rx = next(iter(world.prescriptions))
    med = next(iter(world.medications.values()))
    clinic = next(iter(world.clinics.values()))
    food = next(iter(world.foods.values()))
    yesterday = day(world, -1)
    return [
        ("search_members", {"query": me.first_name}),
        ("get_member", {"member": me.first_name}),
        ("compute_heart_rate_zone", {"member": me.member_id, "heart_rate_bpm": 140}),
        ("search_medications", {"query": med.name}),
        ("list_prescriptions", {"member": me.name}),
        ("get_prescription", {"prescription_id": rx}),
        ("get_prescription_v2", {"rx_id": rx}),
        ("get_drug_price", {"medication": med.name, "quantity": 90}),
        ("get_drug_price_discount", {"medication": med.name, "quantity": 90}),
        ("get_drug_price_marketplace", {"medication": med.name, "quantity": 90}),
        ("search_pharmacies", {}),
        ("list_refills", {}),
        ("search_clinics", {"specialty": "primary care"}),
        ("find_appointment_slots", {"specialty": "primary care"}),
        ("find_appointment_slots_v2", {"service": "primary care"}),
        ("list_appointments", {}),
        ("get_clinic_wait_time", {"clinic": clinic.name}),
        ("get_wait_time_crowd", {"clinic": clinic.name}),
        ("get_wait_time_maps", {"clinic": clinic.name}),
        ("get_daily_activity", {"member": me.first_name, "date": yesterday}),
        ("get_daily_activity_backup", {"member": me.first_name, "date": yesterday}),
        ("list_workouts", {"member": me.first_name}),
        ("search_foods", {"query": food.name}),
        ("get_food_nutrition", {"food": food.name, "servings": 1.5}),
        ("get_food_nutrition_label", {"food": food.name, "servings": 1.5}),
        ("get_food_nutrition_community", {"food": food.name, "servings": 1.5}),
        ("list_meals", {"member": me.first_name, "date": yesterday}),
        ("get_sleep_record", {"member": me.first_name, "date": yesterday}),
        ("get_sleep_record_v2", {"member_ref": me.first_name, "wake_date": yesterday}),
        ("list_lab_results", {"member": me.first_name}),
        ("get_lab_result", {"result_id": next(iter(world.lab_results))}),
        ("list_vaccinations", {"member": me.first_name}),
        (
            "check_travel_vaccines",
            {"member": me.first_name, "country": "Kenya", "travel_date": day(world, 30)},
        ),
        ("get_insurance_plan", {"member": me.first_name}),
        ("list_claims", {}),
        ("estimate_cost", {"member": me.first_name, "allowed_usd": 800.0}),
    ]


# -- the domain as declared ----------------------------------------------------------------


def test_read_calls_cover_every_read_tool(base: HealthWorld) -> None:
    reads = {name for name, t in DOMAIN.tools.items() if t.kind is ToolKind.READ}
    assert {name for name, _ in read_calls(base)} == reads
    assert 25 <= len(DOMAIN.tools) <= 45


@pytest.mark.parametrize("name", sorted(DOMAIN.tools))
def test_shared_phrases_are_filled_into_the_docs(name: str) -> None:
    spec = DOMAIN.tools[name].spec
    assert "{" not in spec.description
    for prop, schema in spec.parameters["properties"].items():
        assert "{" not in schema["description"], f"{name}.{prop} has an unfilled phrase"


# -- the seeded world ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_world_tables_are_consistent(seed: int) -> None:
    w = HealthWorld.build(seed)
    members = list(w.members.values())
    assert [m.relationship for m in members] == ["self", "spouse", "child", "child", "parent"]
    assert len({m.first_name for m in members}) == len(members)
    assert all(re.fullmatch(r"MBR-\d{4}", k) for k in w.members)
    assert all(re.fullmatch(r"RX-\d{6}", k) for k in w.prescriptions)
    assert len(w.medications) >= 30 and len(w.foods) >= 30 and len(w.slots) >= 200
    for rx in w.prescriptions.values():
        assert rx.member_id in w.members and rx.medication_id in w.medications
        assert rx.prescriber_id in w.doctors and rx.pharmacy_id in w.pharmacies
        assert 0 <= rx.units_on_hand <= rx.quantity_per_fill
        assert len(rx.dose_times) == rx.times_per_day
    for slot in w.slots.values():
        assert slot.clinic_id == w.doctors[slot.doctor_id].clinic_id
        assert slot.specialty in w.clinics[slot.clinic_id].specialties
        assert day(w, 1) <= slot.date <= day(w, 14)
    for apt in w.appointments.values():
        assert w.slots[apt.slot_id].booked
    for m in members:
        for d in w.history_dates():
            assert w.activity[key_of(m.member_id, d)].model_dump() == {
                k: v
                for k, v in w.activity_backup[key_of(m.member_id, d)].model_dump().items()
                if k != "synced_at"
            }
        night = w.sleep[key_of(m.member_id, day(w, 0))]
        assert night.asleep_minutes == night.deep_minutes + night.rem_minutes + night.light_minutes
        assert night.asleep_minutes + night.awake_minutes == night.time_in_bed_minutes
    for result in w.lab_results.values():
        expected = (
            "low"
            if result.value < result.ref_low
            else "high"
            if result.value > result.ref_high
            else "normal"
        )
        assert result.flag == expected
    for plan in w.plans.values():
        assert 0 <= plan.deductible_met_usd <= plan.deductible_usd
        assert plan.deductible_met_usd <= plan.oop_met_usd <= plan.oop_max_usd
    for claim in w.claims.values():
        if claim.status != "denied":
            assert claim.member_owes_usd + claim.plan_paid_usd == pytest.approx(claim.allowed_usd)
    assert w.id_counters == {
        "RF": len(w.refills),
        "APT": len(w.appointments),
        "WK": len(w.workouts),
        "ML": len(w.meals),
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_the_three_sources_of_each_fact_agree(seed: int) -> None:
    w = HealthWorld.build(seed)
    for med in w.medications.values():
        quotes = [
            call(w, t, medication=med.medication_id, quantity=45) for t in SOURCE_FAMILIES["price"]
        ]
        assert len({(q["unit_price_usd"], q["total_price_usd"]) for q in quotes}) == 1
        assert len({q["source"] for q in quotes}) == 3
    for clinic in w.clinics.values():
        waits = [call(w, t, clinic=clinic.clinic_id) for t in SOURCE_FAMILIES["wait"]]
        assert len({r["wait_minutes"] for r in waits}) == 1
    for food in w.foods.values():
        facts = [call(w, t, food=food.food_id, servings=2) for t in SOURCE_FAMILIES["nutrition"]]
        assert len({tuple(f[k] for k in ("calories_kcal", "caffeine_mg")) for f in facts}) == 1
        for f in facts:
            assert f["as_of"].endswith("Z") and f["as_of"] <= w.now().isoformat()


# -- the domain's arithmetic ---------------------------------------------------------------------


def test_body_metrics_formulas() -> None:
    assert bmi(70.0, 175.0) == 22.9
    assert bmr_kcal(70.0, 175.0, 40, "male") == 1599  # 700 + 1093.75 - 200 + 5
    assert bmr_kcal(60.0, 165.0, 30, "female") == 1320  # 600 + 1031.25 - 150 - 161
    assert max_heart_rate(40) == 180
    assert heart_rate_zone(135, 180) == (3, "tempo", 75.0)
    assert heart_rate_zone(80, 180)[0] == 0
    assert heart_rate_zone(185, 180)[:2] == (5, "maximum")
    assert workout_kcal(9.8, 70.0, 30) == 343


@pytest.mark.parametrize(
    ("allowed", "ded_left", "oop_left", "member", "plan"),
    [
        (1000.0, 2500.0, 7500.0, 1000.0, 0.0),  # all within the deductible
        (1000.0, 400.0, 7500.0, 520.0, 480.0),  # 400 deductible + 20% of 600
        (1000.0, 0.0, 7500.0, 200.0, 800.0),  # coinsurance only
        (1000.0, 0.0, 150.0, 150.0, 850.0),  # capped by the out-of-pocket maximum
        (1000.0, 800.0, 300.0, 300.0, 700.0),  # the cap bites inside the deductible
    ],
)
def test_cost_share(
    allowed: float, ded_left: float, oop_left: float, member: float, plan: float
) -> None:
    split = cost_share(allowed, ded_left, 20, oop_left)
    assert split["member_pays_usd"] == member and split["plan_pays_usd"] == plan
    assert split["deductible_applied_usd"] + split["coinsurance_usd"] == pytest.approx(member)


def test_member_profile_and_heart_rate_zone(base: HealthWorld) -> None:
    me = primary(base)
    profile = call(base, "get_member", member=me.first_name.upper())
    age = base.age(me)
    assert profile["bmi"] == bmi(me.weight_kg, me.height_cm)
    assert profile["max_hr_bpm"] == max_heart_rate(age)
    assert profile["bmr_kcal"] == bmr_kcal(me.weight_kg, me.height_cm, age, me.sex)
    zone = call(base, "compute_heart_rate_zone", member=me.member_id, heart_rate_bpm=150)
    assert zone["zone_low_bpm"] <= 150 < zone["zone_high_bpm"] or zone["zone"] == 5
    refused(base, "compute_heart_rate_zone", 422, member=me.member_id, heart_rate_bpm=400)
    refused(base, "get_member", 404, member="Nobody Here")
    refused(base, "get_member", 422, member="  ")


def test_prescription_schedule(base: HealthWorld) -> None:
    for rx in base.prescriptions.values():
        got = call(base, "get_prescription", prescription_id=rx.prescription_id.lower())
        per_day = rx.units_per_dose * rx.times_per_day
        assert got["units_per_day"] == per_day
        assert got["days_supply_left"] == rx.units_on_hand // per_day
        runs_out = date.fromisoformat(got["runs_out_on"])
        assert runs_out == base.today() + timedelta(days=got["days_supply_left"])
        assert got == call(base, "get_prescription_v2", rx_id=rx.prescription_id)
        if rx.status == "active" and got["days_supply_left"]:
            # the world's clock reads 09:00: the 08:00 dose is past, 14:00 and 20:00 are not
            expected = {1: day(base, 1) + "T08:00", 2: day(base, 0) + "T20:00"}
            expected[3] = day(base, 0) + "T14:00"
            assert got["next_dose_at"] == expected[rx.times_per_day]
        else:
            assert got["next_dose_at"] is None
    refused(base, "get_prescription", 404, prescription_id="RX-000000")


def test_names_and_ids_resolve(base: HealthWorld) -> None:
    me = primary(base)
    for text in (me.member_id, me.member_id.lower(), me.name, me.first_name.lower()):
        assert call(base, "get_insurance_plan", member=text)["member_id"] == me.member_id
    med = next(iter(base.medications.values()))
    for text in (med.medication_id, med.name.upper(), med.brand):
        assert call(base, "get_drug_price", medication=text)["medication_id"] == med.medication_id
    found = call(base, "search_members", query=me.first_name)
    assert found["results"][0]["member_id"] == me.member_id
    refused(base, "get_drug_price", 404, medication="unobtainium")
    refused(base, "get_drug_price", 422, medication=med.name, quantity=0)
    refused(base, "get_food_nutrition", 422, food="Banana", servings=0)
    refused(base, "get_clinic_wait_time", 404, clinic="Nowhere Clinic")


def test_read_tools_do_not_change_the_world(world: HealthWorld) -> None:
    domain_tools.check_reads_change_nothing(world, read_calls(world))


def test_results_are_json(base: HealthWorld) -> None:
    assert len(domain_tools.read_results(base, read_calls(base))) == len(read_calls(base))


def test_slot_search_across_clinics(base: HealthWorld) -> None:
    found = call(base, "find_appointment_slots", specialty="primary care", to_date=day(base, 7))
    clinics = {r["clinic_id"] for r in found["results"]}
    assert len(clinics) >= 2
    keys = [(r["date"], r["start_time"]) for r in found["results"]]
    assert keys == sorted(keys)
    assert all(r["date"] <= day(base, 7) for r in found["results"])
    assert found == call(
        base, "find_appointment_slots_v2", service="primary care", end_date=day(base, 7)
    )
    refused(base, "find_appointment_slots", 422, specialty="astrology")
    refused(base, "find_appointment_slots", 422, specialty="primary care", from_date="03/04/2026")


def test_history_reads(base: HealthWorld) -> None:
    me = primary(base)
    refused(base, "get_daily_activity", 404, member=me.first_name, date=day(base, 0))
    refused(base, "get_daily_activity", 422, member=me.first_name, date="2026-02-30")
    meals = call(base, "list_meals", member=me.first_name, date=day(base, -1))
    times = [m["time"] for m in meals["results"]]
    assert times == sorted(times) and meals["total"] >= 3
    labs = call(base, "list_lab_results", member=me.first_name)["results"]
    assert [r["collected_on"] for r in labs] == sorted(
        (r["collected_on"] for r in labs), reverse=True
    )


def test_travel_vaccine_check(base: HealthWorld) -> None:
    me = primary(base)
    got = call(
        base, "check_travel_vaccines", member=me.first_name, country="ke", travel_date=day(base, 30)
    )
    advised = got["required"] + got["recommended"]
    assert sorted(got["covered"] + got["due"] + got["missing"]) == sorted(advised)
    assert got["needed_count"] == len(got["due"]) + len(got["missing"])
    refused(
        base,
        "check_travel_vaccines",
        404,
        member=me.first_name,
        country="Atlantis",
        travel_date=day(base, 5),
    )
    refused(
        base,
        "check_travel_vaccines",
        422,
        member=me.first_name,
        country="Kenya",
        travel_date=day(base, -5),
    )


def test_estimate_cost_uses_the_accumulators(base: HealthWorld) -> None:
    me = primary(base)
    plan = call(base, "get_insurance_plan", member=me.first_name)
    got = call(base, "estimate_cost", member=me.first_name, allowed_usd=1500)
    assert got == {
        "member_id": me.member_id,
        "allowed_usd": 1500.0,
        **cost_share(1500, plan["deductible_remaining_usd"], 20, plan["oop_remaining_usd"]),
    }


# -- writes ----------------------------------------------------------------------------------


def test_request_refill(world: HealthWorld) -> None:
    rx = refillable(world)
    got = call(
        world, "request_refill", prescription_id=rx.prescription_id, pickup_date=day(world, 2)
    )
    assert got["status"] == "requested" and got["quantity"] == rx.quantity_per_fill
    assert got["refill_id"] == f"RF-{len(world.refills):05d}"
    assert world.prescriptions[rx.prescription_id].refills_left == rx.refills_left - 1
    assert got["copay_usd"] <= 90.0
    error = refused(
        world, "request_refill", 409, prescription_id=rx.prescription_id, pickup_date=day(world, 3)
    )
    assert error.details["refill_id"] == got["refill_id"]


def test_request_refill_refusals(world: HealthWorld) -> None:
    rx = refillable(world)
    refused(
        world, "request_refill", 422, prescription_id=rx.prescription_id, pickup_date=day(world, 0)
    )
    refused(
        world, "request_refill", 422, prescription_id=rx.prescription_id, pickup_date=day(world, 30)
    )
    refused(world, "request_refill", 404, prescription_id="RX-000000", pickup_date=day(world, 2))
    expired = next((r for r in world.prescriptions.values() if r.status == "expired"), None)
    if expired is not None:
        refused(
            world,
            "request_refill",
            409,
            prescription_id=expired.prescription_id,
            pickup_date=day(world, 2),
        )
    refused(
        world,
        "request_refill",
        404,
        prescription_id=rx.prescription_id,
        pickup_date=day(world, 2),
        pharmacy="Nowhere Drugs",
    )


def test_book_and_cancel_appointment(world: HealthWorld) -> None:
    me = primary(world)
    slot = free_slot(world)
    got = call(
        world, "book_appointment", member=me.first_name, slot_id=slot.slot_id, reason="check-up"
    )
    assert (got["date"], got["start_time"], got["status"]) == (
        slot.date,
        slot.start_time,
        "scheduled",
    )
    assert world.slots[slot.slot_id].booked
    refused(
        world, "book_appointment", 409, member=me.first_name, slot_id=slot.slot_id, reason="again"
    )
    refused(world, "book_appointment", 422, member=me.first_name, slot_id=slot.slot_id, reason=" ")
    cancelled = call(world, "cancel_appointment", appointment_id=got["appointment_id"])
    assert cancelled["status"] == "cancelled" and not world.slots[slot.slot_id].booked
    refused(world, "cancel_appointment", 409, appointment_id=got["appointment_id"])
    refused(world, "cancel_appointment", 404, appointment_id="APT-99999")


def test_log_workout_and_meal(world: HealthWorld) -> None:
    me = primary(world)
    got = call(
        world,
        "log_workout",
        member=me.first_name,
        date=day(world, 0),
        type="run",
        duration_min=30,
        distance_km=5,
    )
    assert got["calories_kcal"] == workout_kcal(9.8, me.weight_kg, 30)
    assert got["distance_km"] == 5.0 and got["start_time"] == "07:00"
    refused(
        world,
        "log_workout",
        422,
        member=me.first_name,
        date=day(world, 1),
        type="run",
        duration_min=30,
    )
    refused(
        world,
        "log_workout",
        422,
        member=me.first_name,
        date=day(world, 0),
        type="yoga",
        duration_min=30,
        distance_km=2,
    )
    meal = call(
        world,
        "log_meal",
        member=me.member_id,
        date=day(world, 0),
        meal="lunch",
        time="12:05",
        food="Banana",
        servings=2,
    )
    assert meal["food_name"] == "Banana" and meal["servings"] == 2.0
    refused(
        world,
        "log_meal",
        422,
        member=me.member_id,
        date=day(world, 0),
        meal="lunch",
        time="25:00",
        food="Banana",
    )
    refused(
        world,
        "log_meal",
        404,
        member=me.member_id,
        date=day(world, 0),
        meal="lunch",
        time="12:00",
        food="Ambrosia",
    )


def test_fork_writes_never_leak_into_the_base(base: HealthWorld) -> None:
    with forks_of(base) as (first, second):
        call(
            first,
            "request_refill",
            prescription_id=refillable(first).prescription_id,
            pickup_date=day(first, 2),
        )
        call(
            first,
            "book_appointment",
            member=primary(first).first_name,
            slot_id=free_slot(first).slot_id,
            reason="x",
        )
    assert len(second.refills) == len(base.refills) == len(first.refills) - 1
    assert second.slots == base.slots


# -- the notes the hazard layer reads ----------------------------------------------------------


def test_fallback_and_v2_return_the_same_keys(base: HealthWorld) -> None:
    me = primary(base)
    args = {
        "get_daily_activity": {"member": me.first_name, "date": day(base, -2)},
        "get_drug_price": {"medication": "metformin", "quantity": 60},
        "get_clinic_wait_time": {"clinic": next(iter(base.clinics.values())).name},
        "get_food_nutrition": {"food": "Espresso", "servings": 2.0},
        "get_prescription": {"prescription_id": next(iter(base.prescriptions))},
        "find_appointment_slots": {"specialty": "dermatology", "from_date": day(base, 2)},
        "get_sleep_record": {"member": me.first_name, "date": day(base, -3)},
    }
    volatile = {"source", "as_of", "survey_week", "patients_waiting"}
    for key in ("fallbacks", "v2"):
        for tool, alt in getattr(DOMAIN.notes, key).items():
            first = call(base, tool, **args[tool])
            mapped = {
                new: args[tool][old] for new, old in alt.args_map.items() if old in args[tool]
            }
            second = call(base, alt.tool, **mapped)
            for fact in set(first) - volatile:
                assert second[fact] == first[fact], (tool, fact)


def test_unit_conversions_cover_fields_the_tools_return(base: HealthWorld) -> None:
    seen: set[str] = set()
    for name, args in read_calls(base):
        seen |= set(numeric_keys(call(base, name, **args)))
    for field, conversion in DOMAIN.notes.unit_conversions.items():
        assert field in seen, f"no tool returns {field}"
        assert conversion.factor > 0 and conversion.to_unit
    assert len(DOMAIN.notes.unit_conversions) >= 3


@pytest.mark.parametrize("tool", sorted(DOMAIN.notes.resolvers))
def test_resolvers_turn_a_name_into_its_id(base: HealthWorld, tool: str) -> None:
    how = DOMAIN.notes.resolvers[tool]
    names = {
        "search_members": (primary(base).first_name, primary(base).member_id),
        "search_medications": (
            "metformin",
            next(m.medication_id for m in base.medications.values() if m.name == "metformin"),
        ),
        "search_clinics": (next(iter(base.clinics.values())).name, next(iter(base.clinics))),
        "search_foods": (
            "Banana",
            next(f.food_id for f in base.foods.values() if f.name == "Banana"),
        ),
    }
    name, wanted = names[how.tool]
    found = call(base, how.tool, **{how.query_param: name})
    assert follow({0: found}, [0, *how.id_path]) == wanted
    assert DOMAIN.tools[tool].spec.parameters["properties"][how.param]["type"] == "string"


def test_write_verifiers_find_the_record_a_write_made(world: HealthWorld) -> None:
    me = primary(world)
    booked = call(
        world,
        "book_appointment",
        member=me.first_name,
        slot_id=free_slot(world).slot_id,
        reason="visit",
    )
    writes = {
        "request_refill": {
            "prescription_id": refillable(world).prescription_id,
            "pickup_date": day(world, 3),
        },
        "book_appointment": {
            "member": me.first_name,
            "slot_id": free_slot(world).slot_id,
            "reason": "visit",
        },
        "cancel_appointment": {"appointment_id": booked["appointment_id"]},
        "log_workout": {
            "member": me.first_name,
            "date": day(world, 0),
            "type": "yoga",
            "duration_min": 35,
        },
        "log_meal": {
            "member": me.first_name,
            "date": day(world, 0),
            "meal": "snack",
            "time": "16:10",
            "food": "Apple",
        },
    }
    assert set(writes) == set(DOMAIN.notes.write_verifiers)
    for tool, args in writes.items():
        created = call(world, tool, **args)
        assert domain_tools.verified_records(world, tool, args)[-1] == created, tool


@pytest.mark.parametrize("tool", sorted(DOMAIN.notes.sources))
def test_sources_fields_appear_in_every_source(base: HealthWorld, tool: str) -> None:
    how = DOMAIN.notes.sources[tool]
    family = next(f for f in SOURCE_FAMILIES.values() if tool in f)
    assert how.authoritative == family[0] and how.time_field == "as_of"
    assert sorted(how.alternatives) == sorted(t for t in family if t != tool)
    args = {
        "medication": "atorvastatin",
        "quantity": 30,
        "clinic": next(iter(base.clinics.values())).name,
        "food": "Latte with whole milk",
        "servings": 1.5,
    }
    params = DOMAIN.tools[tool].spec.parameters["properties"]
    first = call(base, tool, **{p: args[p] for p in params})
    for alt in how.alternatives:
        other = call(base, alt, **{new: args[old] for new, old in how.args_map[alt].items()})
        for field in how.fields:
            assert other[field] == first[field]
        assert other["as_of"] != first["as_of"] or alt == tool


def test_every_field_named_in_notes_is_returned(base: HealthWorld) -> None:
    keys: set[str] = set()
    for name, args in read_calls(base):
        keys |= all_keys(call(base, name, **args))
    for how in DOMAIN.notes.sources.values():
        assert set(how.fields) | {how.time_field} <= keys
    for how in DOMAIN.notes.write_verifiers.values():
        assert set(how.match) <= keys
    for how in DOMAIN.notes.resolvers.values():
        assert how.id_path[-1] in keys
