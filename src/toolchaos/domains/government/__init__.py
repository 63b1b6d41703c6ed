"""The government domain (topic "government and public services"): a city and its residents.

Residents of the City of Riverton apply for permits, file taxes, claim benefits, renew
vehicle registrations and passports, put out their bins, pay or contest fines, vote and
report problems to 311. Every hazard variant has a real place to fit:

- the walk-in wait and processing time of every office (``wait_minutes``,
  ``processing_days``) come from three independent sources that agree in the clean world
  and stamp ``as_of``: the agency portal (``get_office_wait_time``, authoritative), the
  311 status feed and the LineWatch crowd reports; the portal falls back to the 311 feed;
- ``get_collection_schedule`` falls back to the waste contractor's route system and
  ``lookup_polling_place`` to the state voter portal, each with the same keys;
- ``estimate_decision_date``, ``calculate_tax`` and ``quote_registration_renewal`` have a
  v2 with renamed parameters and the same result keys (v1 still works);
- every ``resident`` parameter takes a name or an id (``search_residents`` returns the
  id), and every ``office`` parameter likewise (``search_offices``);
- each write that creates or changes a record has a read that lists it;
- dates read into answers (decision dates, collection days, court dates, refund
  deposits) suit locale drift; listings (applications, citations, 311 requests) suit
  pagination; fees, waits and distances suit unit changes.
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
from toolchaos.domains._notes import CENTS, FRACTION, resolver, same_params, sources
from toolchaos.domains.government.tools import TOOLS
from toolchaos.domains.government.world import GovernmentWorld

_WAIT_TOOLS = ("get_office_wait_time", "get_office_wait_time_311", "get_office_wait_time_crowd")
_AUTHORITATIVE = "get_office_wait_time"


_RESIDENT_TOOLS = (
    "get_resident",
    "list_appointments",
    "book_appointment",
    "list_permit_applications",
    "apply_for_permit",
    "list_income_records",
    "list_deductions",
    "add_tax_deduction",
    "estimate_tax_return",
    "get_refund_status",
    "check_benefit_eligibility",
    "list_benefit_applications",
    "apply_for_benefit",
    "list_vehicles",
    "list_id_documents",
    "list_id_applications",
    "apply_for_id_document",
    "list_citations",
    "get_voter_registration",
    "lookup_polling_place",
    "lookup_polling_place_state",
    "request_mail_ballot",
    "create_service_request",
)
_OFFICE_TOOLS = (*_WAIT_TOOLS, "list_appointment_slots")

DOMAIN = Domain(
    name="government",
    topic="government and public services",
    world_type=GovernmentWorld,
    tools=tool_map(TOOLS),
    notes=DomainNotes(
        fallbacks={
            "get_office_wait_time": Fallback(
                tool="get_office_wait_time_311", args_map={"office": "office"}
            ),
            "get_collection_schedule": Fallback(
                tool="get_collection_schedule_contractor",
                args_map={"address": "address", "from_date": "from_date"},
            ),
            "lookup_polling_place": Fallback(
                tool="lookup_polling_place_state",
                args_map={"resident": "resident", "election_id": "election_id"},
            ),
        },
        v2={
            "estimate_decision_date": V2Tool(
                tool="estimate_decision_date_v2",
                args_map={
                    "permit_code": "permit_type",
                    "submitted_on": "start_date",
                    "expedited": "expedited",
                },
            ),
            "calculate_tax": V2Tool(
                tool="calculate_tax_v2",
                args_map={"income_usd": "taxable_income_usd", "status": "filing_status"},
            ),
            "quote_registration_renewal": V2Tool(
                tool="quote_registration_renewal_v2",
                args_map={
                    "plate_number": "plate",
                    "renew_on": "renewal_date",
                    "years": "term_years",
                },
            ),
        },
        unit_conversions={
            "wait_minutes": UnitConversion(to_unit="h", factor=1 / 60),
            "distance_km": UnitConversion(to_unit="mi", factor=0.621371),
            "weight_kg": UnitConversion(to_unit="lb", factor=2.20462),
            "total_fee_usd": UnitConversion(to_unit="cents", factor=100.0),
            "amount_due_usd": UnitConversion(to_unit="cents", factor=100.0),
            **dict.fromkeys(
                (
                    "fee_usd",
                    "base_fee_usd",
                    "tax_usd",
                    "monthly_benefit_usd",
                    "refund_usd",
                    "late_penalty_usd",
                    "amount_owed_usd",
                    "deduction_used_usd",
                ),
                CENTS,
            ),
            **dict.fromkeys(("marginal_rate_pct", "effective_rate_pct"), FRACTION),
        },
        resolvers={
            **{
                name: resolver("resident", "search_residents", "resident_id")
                for name in _RESIDENT_TOOLS
            },
            **{name: resolver("office", "search_offices", "office_id") for name in _OFFICE_TOOLS},
        },
        write_verifiers={
            "book_appointment": WriteVerifier(
                tool="list_appointments",
                args_map={"resident": "resident"},
                match={"slot_id": "slot_id", "service": "service"},
            ),
            "apply_for_permit": WriteVerifier(
                tool="list_permit_applications",
                args_map={"resident": "resident"},
                match={"permit_type": "permit_type"},
            ),
            "withdraw_permit_application": WriteVerifier(
                tool="list_permit_applications",
                args_map={"application_id": "application_id"},
                match={"application_id": "application_id"},
            ),
            "add_tax_deduction": WriteVerifier(
                tool="list_deductions",
                args_map={"resident": "resident"},
                match={"kind": "kind", "amount_usd": "amount_usd"},
            ),
            "apply_for_benefit": WriteVerifier(
                tool="list_benefit_applications",
                args_map={"resident": "resident"},
                match={"program_id": "program"},
            ),
            "renew_vehicle_registration": WriteVerifier(
                tool="list_vehicles", args_map={"plate": "plate"}, match={"plate": "plate"}
            ),
            "apply_for_id_document": WriteVerifier(
                tool="list_id_applications",
                args_map={"resident": "resident"},
                match={"service_code": "service_code"},
            ),
            "pay_citation": WriteVerifier(
                tool="list_citations",
                args_map={"citation_id": "citation_id"},
                match={"citation_id": "citation_id"},
            ),
            "contest_citation": WriteVerifier(
                tool="list_citations",
                args_map={"citation_id": "citation_id"},
                match={"citation_id": "citation_id"},
            ),
            "request_mail_ballot": WriteVerifier(
                tool="get_voter_registration",
                args_map={"resident": "resident"},
                records_key="ballot_requests",
                match={"election_id": "election_id"},
            ),
            "create_service_request": WriteVerifier(
                tool="list_service_requests",
                args_map={"address_contains": "address"},
                match={"category": "category", "address": "address"},
            ),
        },
        sources=sources(same_params(_WAIT_TOOLS, "office"), ["wait_minutes", "processing_days"]),
    ),
)

__all__ = ["DOMAIN", "GovernmentWorld"]
