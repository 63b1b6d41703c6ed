"""Government subtopics: one module per subtopic of "government and public services".

Each template picks residents, offices and records from the seeded City of Riverton and
writes the request a resident (or a caseworker helping one) would make; the answer comes
from replaying the path, never from here.
"""

SUBTOPIC_ORDER = (
    "permits_and_licences",
    "tax_filing_and_refunds",
    "benefits_and_assistance",
    "vehicle_registration",
    "passports_and_ids",
    "waste_collection",
    "fines_and_court_dates",
    "elections_and_voting",
    "city_service_requests",
)
