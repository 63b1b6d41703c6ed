"""Tests of the government domain: the seeded world, custom rules, writes and the notes."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from conftest import DomainTools, all_keys
from toolchaos.core.types import ToolKind
from toolchaos.domains import DOMAINS
from toolchaos.domains.government import DOMAIN, data
from toolchaos.domains.government.world import (
    GovernmentWorld,
    add_business_days,
    business_days_between,
    fine_late_fee,
    next_collection,
    renewal_late_fee,
    tax_on,
)

DOMAINS.setdefault("government", "toolchaos.domains.government:DOMAIN")

SEED = 7
SEEDS = [0, 1, 7, 42]
WAIT_TOOLS = ("get_office_wait_time", "get_office_wait_time_311", "get_office_wait_time_crowd")
domain_tools = DomainTools(DOMAIN)
call, refused = domain_tools.call, domain_tools.refused


@pytest.fixture
def base() -> GovernmentWorld:
    world = DOMAIN.world(SEED)
    assert isinstance(world, GovernmentWorld)
    return world


@pytest.fixture
def world(base: GovernmentWorld) -> GovernmentWorld:
    return base.fork()


def first_resident(world: GovernmentWorld) -> Any:
    return sorted(world.residents.values(), key=lambda r: r.resident_id)[0]


# -- the world and its rules -------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_world_tables_are_consistent(seed: int) -> None:
    world = GovernmentWorld.build(seed)
    assert len(world.residents) >= 30 and len(world.citations) >= 30
    assert len({r.name for r in world.residents.values()}) == len(world.residents)
    for table in ("permit_applications", "benefit_applications", "service_requests", "citations"):
        for row in world.table(table).values():
            assert row.resident_id in world.residents
    for car in world.vehicles.values():
        assert car.resident_id in world.residents
    assert set(world.tax_profiles) == set(world.residents) == set(world.voters)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_three_wait_sources_agree_and_stamp_times(seed: int) -> None:
    world = GovernmentWorld.build(seed)
    for office_id in world.offices:
        rows = [world.table(t)[office_id] for t in ("waits_portal", "waits_311", "waits_crowd")]
        assert len({(r.wait_minutes, r.processing_days) for r in rows}) == 1
        assert len({r.as_of for r in rows}) == 3


def test_business_days_skip_weekends_and_holidays() -> None:
    friday = date(2026, 3, 13)
    assert add_business_days(friday, 1) == date(2026, 3, 16)
    # 2026-03-17 is a city holiday
    assert add_business_days(date(2026, 3, 16), 1) == date(2026, 3, 18)
    assert business_days_between(friday, date(2026, 3, 18)) == 2
    assert business_days_between(friday, friday) == 0


def test_tax_on_follows_the_brackets() -> None:
    assert tax_on(10000, "single") == 1000.0
    assert tax_on(50000, "single") == pytest.approx(1192.5 + 4386.0 + 1525 * 0.22)
    assert tax_on(0, "married_joint") == 0.0


def test_late_fees() -> None:
    due = date(2026, 3, 1)
    assert fine_late_fee(100.0, due, due) == 0.0
    assert fine_late_fee(100.0, due, due + timedelta(days=1)) == 10.0
    assert fine_late_fee(100.0, due, due + timedelta(days=400)) == 50.0
    assert renewal_late_fee(due, due) == 0.0
    assert renewal_late_fee(due, due + timedelta(days=31)) == 35.0
    assert renewal_late_fee(due, due + timedelta(days=900)) == data.LATE_CAP_USD


def test_collection_slides_after_a_holiday() -> None:
    # zone B collects on Tuesdays; Tuesday 2026-03-17 is a holiday, so pickup is Wednesday
    assert next_collection("B", "trash", date(2026, 3, 16)) == date(2026, 3, 18)
    assert next_collection("A", "trash", date(2026, 3, 3)) == date(2026, 3, 9)
    yard = next_collection("A", "yard_waste", date(2026, 3, 2))
    assert yard >= date.fromisoformat(data.YARD_WASTE_SEASON_START)


# -- reads ---------------------------------------------------------------------------------


def test_residents_resolve_by_name_or_id(base: GovernmentWorld) -> None:
    res = first_resident(base)
    by_id = call(base, "get_resident", resident=res.resident_id.lower())
    by_name = call(base, "get_resident", resident=res.name.upper())
    assert by_id == by_name and by_id["resident_id"] == res.resident_id
    assert (
        call(base, "search_residents", query=res.name)["results"][0]["resident_id"]
        == res.resident_id
    )
    refused(base, "get_resident", 404, resident="Nobody Atall")


def test_wait_sources_return_the_same_facts(base: GovernmentWorld) -> None:
    office = next(iter(base.offices.values()))
    results = [call(base, t, office=office.name) for t in WAIT_TOOLS]
    assert {(r["wait_minutes"], r["processing_days"]) for r in results} == {
        (results[0]["wait_minutes"], results[0]["processing_days"])
    }
    assert all(set(r) == set(results[0]) for r in results)
    assert len({r["source"] for r in results}) == 3
    refused(base, "get_office_wait_time", 404, office="Ministry of Magic")


def test_decision_date_and_its_v2(base: GovernmentWorld) -> None:
    v1 = call(base, "estimate_decision_date", permit_type="FNC-RES", start_date="2026-03-13")
    v2 = call(base, "estimate_decision_date_v2", permit_code="fnc-res", submitted_on="2026-03-13")
    assert v1 == v2
    assert v1["business_days"] == 5
    assert v1["decision_date"] == add_business_days(date(2026, 3, 13), 5).isoformat()
    fast = call(base, "estimate_decision_date", permit_type="BLD-RES", expedited=True)
    assert fast["business_days"] == 8
    refused(base, "estimate_decision_date", 422, permit_type="FNC-RES", start_date="13/03/2026")


def test_calculate_tax_and_its_v2(base: GovernmentWorld) -> None:
    v1 = call(base, "calculate_tax", taxable_income_usd=60000, filing_status="single")
    v2 = call(base, "calculate_tax_v2", income_usd=60000, status="single")
    assert v1 == v2 and v1["tax_usd"] == tax_on(60000, "single")
    assert v1["marginal_rate_pct"] == 22.0
    refused(base, "calculate_tax", 422, taxable_income_usd=-1, filing_status="single")


def test_tax_return_uses_the_larger_deduction(base: GovernmentWorld) -> None:
    for res in list(base.residents.values())[:10]:
        out = call(base, "estimate_tax_return", resident=res.resident_id)
        assert out["deduction_used_usd"] == max(
            out["standard_deduction_usd"], out["itemized_deductions_usd"]
        )
        assert out["tax_usd"] == tax_on(out["taxable_income_usd"], out["filing_status"])
        assert out["refund_usd"] == 0 or out["amount_owed_usd"] == 0


def test_eligibility_follows_income_and_household(base: GovernmentWorld) -> None:
    for res in list(base.residents.values())[:10]:
        out = call(base, "check_benefit_eligibility", resident=res.name, program="FOOD")
        limit = (
            data.POVERTY_BASE_USD + data.POVERTY_PER_PERSON_USD * (res.household_size - 1)
        ) * 1.3
        assert out["income_limit_usd"] == pytest.approx(limit, abs=0.01)
        assert out["eligible"] == (res.annual_income_usd <= out["income_limit_usd"])
        assert (out["monthly_benefit_usd"] > 0) == out["eligible"]


def test_renewal_quote_and_its_v2(base: GovernmentWorld) -> None:
    today = base.today()
    late = next(
        c for c in base.vehicles.values() if date.fromisoformat(c.registration_expires) < today
    )
    v1 = call(base, "quote_registration_renewal", plate=late.plate, term_years=2)
    v2 = call(base, "quote_registration_renewal_v2", plate_number=late.plate, years=2)
    assert v1 == v2
    assert v1["late_penalty_usd"] > 0 and v1["days_late"] > 0
    assert v1["total_fee_usd"] == pytest.approx(
        v1["base_fee_usd"] + v1["weight_surcharge_usd"] + v1["late_penalty_usd"]
    )
    early = next(
        c
        for c in base.vehicles.values()
        if date.fromisoformat(c.registration_expires) > today + timedelta(days=100)
    )
    refused(base, "quote_registration_renewal", 422, plate=early.plate)


def test_collection_schedule_and_contractor_agree(base: GovernmentWorld) -> None:
    res = first_resident(base)
    city = call(base, "get_collection_schedule", address=res.address)
    contractor = call(base, "get_collection_schedule_contractor", address=res.address)
    shared = set(city) - {"source"}
    assert shared <= set(contractor)
    assert {k: city[k] for k in shared} == {k: contractor[k] for k in shared}
    assert city["zone"] == res.zone
    refused(base, "get_collection_schedule", 404, address="1 Nowhere Road")


def test_polling_place_and_state_portal_agree(base: GovernmentWorld) -> None:
    voter = next(v for v in base.voters.values() if v.registered)
    election = next(iter(base.elections))
    city = call(base, "lookup_polling_place", resident=voter.resident_id, election_id=election)
    state = call(
        base, "lookup_polling_place_state", resident=voter.resident_id, election_id=election
    )
    assert {k: v for k, v in city.items() if k != "source"} == {
        k: v for k, v in state.items() if k != "source"
    }
    unregistered = next((v for v in base.voters.values() if not v.registered), None)
    if unregistered is not None:
        refused(
            base,
            "lookup_polling_place",
            409,
            resident=unregistered.resident_id,
            election_id=election,
        )


def test_citation_amount_due_includes_late_fee(base: GovernmentWorld) -> None:
    for cit in base.citations.values():
        out = call(base, "get_citation", citation_id=cit.citation_id)
        if cit.status == "unpaid":
            assert out["amount_due_usd"] == pytest.approx(cit.amount_usd + out["late_fee_usd"])
        else:
            assert out["amount_due_usd"] == 0


# -- writes ----------------------------------------------------------------------------------


def test_apply_for_permit_then_withdraw(world: GovernmentWorld) -> None:
    res = first_resident(world)
    code = next(
        p.code
        for p in world.permit_types.values()
        if not any(
            a.resident_id == res.resident_id and a.permit_type == p.code
            for a in world.permit_applications.values()
        )
    )
    app = call(world, "apply_for_permit", resident=res.name, permit_type=code, expedited=True)
    assert app["status"] == "submitted" and app["expedited"]
    assert app["fee_usd"] == pytest.approx(world.permit_types[code].base_fee_usd * 1.5)
    refused(world, "apply_for_permit", 409, resident=res.name, permit_type=code)
    assert domain_tools.verified_records(
        world, "apply_for_permit", {"resident": res.name, "permit_type": code}
    )
    out = call(world, "withdraw_permit_application", application_id=app["application_id"])
    assert out["status"] == "withdrawn"
    refused(world, "withdraw_permit_application", 409, application_id=app["application_id"])


def test_book_appointment_takes_the_slot(world: GovernmentWorld) -> None:
    res = first_resident(world)
    slot = next(s for s in world.slots.values() if s.available)
    args = {"resident": res.resident_id, "slot_id": slot.slot_id, "service": "consultation"}
    apt = call(world, "book_appointment", **args)
    assert apt["status"] == "booked" and not world.slots[slot.slot_id].available
    assert domain_tools.verified_records(world, "book_appointment", args)
    refused(world, "book_appointment", 409, **args)


def test_benefit_application_rules(world: GovernmentWorld) -> None:
    for res in world.residents.values():
        check = call(world, "check_benefit_eligibility", resident=res.resident_id, program="HEAT")
        taken = any(
            a.resident_id == res.resident_id and a.program_id == "HEAT"
            for a in world.benefit_applications.values()
        )
        if taken:
            continue
        if not check["eligible"]:
            refused(world, "apply_for_benefit", 422, resident=res.resident_id, program="HEAT")
            continue
        out = call(world, "apply_for_benefit", resident=res.resident_id, program="HEAT")
        assert out["monthly_benefit_usd"] == check["monthly_benefit_usd"]
        refused(world, "apply_for_benefit", 409, resident=res.resident_id, program="HEAT")
        return
    pytest.fail("no eligible resident")  # pragma: no cover


def test_deduction_only_before_filing(world: GovernmentWorld) -> None:
    unfiled = next(p for p in world.tax_profiles.values() if p.return_status == "not_filed")
    filed = next(p for p in world.tax_profiles.values() if p.return_status != "not_filed")
    before = call(world, "estimate_tax_return", resident=unfiled.resident_id)
    args = {"resident": unfiled.resident_id, "kind": "charitable", "amount_usd": 50000}
    call(world, "add_tax_deduction", **args)
    after = call(world, "estimate_tax_return", resident=unfiled.resident_id)
    assert after["itemized_deductions_usd"] == pytest.approx(
        before["itemized_deductions_usd"] + 50000
    )
    assert domain_tools.verified_records(world, "add_tax_deduction", args)
    refused(
        world, "add_tax_deduction", 409, resident=filed.resident_id, kind="medical", amount_usd=10
    )


def test_pay_and_contest_citations(world: GovernmentWorld) -> None:
    unpaid = [c for c in world.citations.values() if c.status == "unpaid"]
    first, second = unpaid[0], unpaid[1]
    due = call(world, "get_citation", citation_id=first.citation_id)["amount_due_usd"]
    refused(world, "pay_citation", 422, citation_id=first.citation_id, amount_usd=due - 1)
    paid = call(world, "pay_citation", citation_id=first.citation_id, amount_usd=due)
    assert paid["status"] == "paid" and paid["paid_usd"] == due
    refused(world, "pay_citation", 409, citation_id=first.citation_id, amount_usd=due)
    contested = call(
        world, "contest_citation", citation_id=second.citation_id, reason="Meter broken"
    )
    expected = add_business_days(world.today(), data.HEARING_BUSINESS_DAYS).isoformat()
    assert contested["status"] == "contested" and contested["court_date"] == expected


def test_renew_mail_ballot_id_and_service_request(world: GovernmentWorld) -> None:
    today = world.today()
    car = next(
        c for c in world.vehicles.values() if date.fromisoformat(c.registration_expires) < today
    )
    quote = call(world, "quote_registration_renewal", plate=car.plate)
    renewed = call(world, "renew_vehicle_registration", plate=car.plate)
    assert (
        world.vehicles[car.plate].registration_expires
        == quote["new_expiry"]
        == renewed["new_expiry"]
    )

    voter = next(v for v in world.voters.values() if v.registered)
    election = sorted(world.elections)[-1]
    if not any(
        b.resident_id == voter.resident_id and b.election_id == election
        for b in world.ballot_requests.values()
    ):
        call(world, "request_mail_ballot", resident=voter.resident_id, election_id=election)
        refused(world, "request_mail_ballot", 409, resident=voter.resident_id, election_id=election)

    res = first_resident(world)
    office = next(o for o in world.offices.values() if o.kind == "passports")
    app = call(
        world,
        "apply_for_id_document",
        resident=res.name,
        service_code="PPC-NEW",
        office=office.name,
    )
    assert app["estimated_ready"] == add_business_days(today, 30).isoformat()
    dmv = next(o for o in world.offices.values() if o.kind == "motor_vehicles")
    refused(
        world,
        "apply_for_id_document",
        422,
        resident=res.name,
        service_code="PPB-NEW",
        office=dmv.name,
    )

    args = {"resident": res.name, "category": "pothole", "address": f"7 {data.STREETS[0].name}"}
    req = call(world, "create_service_request", **args)
    assert req["target_date"] == add_business_days(today, 5).isoformat()
    assert domain_tools.verified_records(
        world, "create_service_request", {**args, "address": args["address"]}
    )
    refused(world, "create_service_request", 409, **args)


def test_reads_change_nothing(world: GovernmentWorld) -> None:
    res = first_resident(world)
    calls = [
        ("search_offices", {"kind": "tax"}),
        ("list_permit_applications", {"resident": res.name}),
        ("list_income_records", {"resident": res.name}),
        ("get_refund_status", {"resident": res.name}),
        ("list_id_documents", {"resident": res.name}),
        ("list_service_requests", {"status": "open"}),
    ]
    domain_tools.check_reads_change_nothing(world, calls)


# -- notes ----------------------------------------------------------------------------------


def test_notes_fields_are_returned(base: GovernmentWorld) -> None:
    car = next(iter(base.vehicles.values()))
    voter = next(v for v in base.voters.values() if v.registered)
    keys = all_keys(call(base, "get_office_wait_time", office=next(iter(base.offices))))
    keys |= all_keys(
        call(
            base,
            "lookup_polling_place",
            resident=voter.resident_id,
            election_id=next(iter(base.elections)),
        )
    )
    keys |= all_keys(call(base, "list_vehicles", resident=car.resident_id))
    keys |= all_keys(call(base, "list_citations", status="unpaid"))
    late = next(
        c
        for c in base.vehicles.values()
        if date.fromisoformat(c.registration_expires) < base.today()
    )
    keys |= all_keys(call(base, "quote_registration_renewal", plate=late.plate))
    resident = next(iter(base.residents))
    keys |= all_keys(call(base, "check_benefit_eligibility", resident=resident, program="TRANSIT"))
    keys |= all_keys(call(base, "list_id_services", document="passport_book", speed="routine"))
    keys |= all_keys(call(base, "list_permit_types"))
    keys |= all_keys(call(base, "calculate_tax", taxable_income_usd=50000, filing_status="single"))
    for filer in list(base.residents)[:40]:  # some are owed a refund, some owe
        keys |= all_keys(call(base, "estimate_tax_return", resident=filer))
    assert set(DOMAIN.notes.unit_conversions) <= keys
    for tool, entry in DOMAIN.notes.sources.items():
        assert set(entry.fields) <= all_keys(call(base, tool, office=next(iter(base.offices))))


@pytest.mark.parametrize("tool", sorted(DOMAIN.notes.resolvers))
def test_resolvers_find_the_id(base: GovernmentWorld, tool: str) -> None:
    how = DOMAIN.notes.resolvers[tool]
    name = (
        first_resident(base).name
        if how.param == "resident"
        else next(iter(base.offices.values())).name
    )
    found = call(base, how.tool, **{how.query_param: name})
    assert found["results"][0][how.id_path[-1]]


def test_every_write_has_a_verifier() -> None:
    writes = {n for n, t in DOMAIN.tools.items() if t.kind is ToolKind.WRITE}
    assert writes == set(DOMAIN.notes.write_verifiers)
