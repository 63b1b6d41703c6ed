"""Static tables the government world draws from: the city, its streets, fee schedules.

Only data lives here; every choice among these entries (who lives where, which fines are
unpaid, how long the queue is) is made by the world's seeded generator in
:mod:`toolchaos.domains.government.world`. Amounts are US dollars, distances kilometres,
durations business days unless a name says otherwise.
"""

from __future__ import annotations

from typing import NamedTuple

CITY = "Riverton"
STATE = "RV"

FIRST_NAMES: tuple[str, ...] = (
    "Maria", "James", "Aisha", "Wei", "Olivia", "Mateo", "Priya", "Daniel", "Fatima",
    "Liam", "Sofia", "Noah", "Hannah", "Omar", "Grace", "Lucas", "Mei", "Ethan", "Zara",
    "Samuel", "Elena", "Kwame", "Chloe", "Diego", "Nadia", "Ravi", "Ingrid", "Tomas",
    "Leila", "Marcus",
)  # fmt: skip
LAST_NAMES: tuple[str, ...] = (
    "Garcia", "Okafor", "Nguyen", "Schmidt", "Patel", "Kowalski", "Haddad", "Johnson",
    "Lindqvist", "Moreno", "Chen", "Abernathy", "Tanaka", "Osei", "Fitzgerald", "Rossi",
    "Delgado", "Novak", "Brennan", "Ivanova", "Mbeki", "Larsen", "Castillo", "Whitfield",
)  # fmt: skip
EMAIL_DOMAINS: tuple[str, ...] = ("mailbox.org", "riverton.net", "gmail.com", "fastmail.com")


class Street(NamedTuple):
    """A street, the waste-collection zone it lies in, its ward and a point on it."""

    name: str
    zone: str
    ward: int
    latitude_deg: float
    longitude_deg: float


STREETS: tuple[Street, ...] = (
    Street("Maple Avenue", "A", 1, 42.3612, -71.0921),
    Street("Harbor Street", "A", 1, 42.3580, -71.0870),
    Street("Cedar Lane", "B", 2, 42.3701, -71.1010),
    Street("Quincy Road", "B", 2, 42.3745, -71.0962),
    Street("Elm Court", "C", 3, 42.3522, -71.1105),
    Street("Orchard Way", "C", 3, 42.3488, -71.1152),
    Street("Foundry Street", "D", 4, 42.3811, -71.0803),
    Street("Willow Drive", "D", 4, 42.3856, -71.0877),
    Street("Prospect Hill Road", "E", 5, 42.3429, -71.0950),
    Street("Lakeview Terrace", "E", 5, 42.3390, -71.1013),
    Street("Mill Pond Road", "F", 6, 42.3655, -71.1220),
    Street("Station Square", "F", 6, 42.3690, -71.1185),
)

# Zone -> (weekday of trash and recycling collection, 0 = Monday; recycling week parity:
# recycling comes on ISO weeks whose number has this parity).
ZONES: dict[str, tuple[int, int]] = {
    "A": (0, 0),
    "B": (1, 1),
    "C": (2, 0),
    "D": (3, 1),
    "E": (4, 0),
    "F": (1, 0),
}
COLLECTION_CONTRACTOR = "GreenCycle Municipal Services"
# Yard waste is collected weekly with trash from this date on (spring season).
YARD_WASTE_SEASON_START = "2026-04-06"

# City holidays: offices are closed, and waste collection slides one day that week.
HOLIDAYS: dict[str, str] = {
    "2026-01-01": "New Year's Day",
    "2026-01-19": "Martin Luther King Jr. Day",
    "2026-02-16": "Presidents' Day",
    "2026-03-17": "Evacuation Day",
    "2026-03-31": "Cesar Chavez Day",
    "2026-04-20": "Patriots' Day",
    "2026-05-25": "Memorial Day",
    "2026-06-19": "Juneteenth",
    "2026-07-03": "Independence Day (observed)",
    "2026-09-07": "Labor Day",
    "2026-11-03": "Election Day",
    "2026-11-11": "Veterans Day",
    "2026-11-26": "Thanksgiving Day",
    "2026-12-25": "Christmas Day",
}


class OfficeSpec(NamedTuple):
    """A public office: its name, kind, street address and typical load."""

    name: str
    kind: str
    address: str
    ward: int
    wait_minutes: int
    processing_days: int


OFFICE_KINDS: tuple[str, ...] = (
    "permits",
    "tax",
    "benefits",
    "motor_vehicles",
    "passports",
    "waste",
    "court",
    "elections",
    "city_services",
)

OFFICES: tuple[OfficeSpec, ...] = (
    OfficeSpec("Riverton Permit Center", "permits", "1 City Hall Plaza", 1, 35, 12),
    OfficeSpec("Eastside Permit Counter", "permits", "410 Foundry Street", 4, 20, 15),
    OfficeSpec("Downtown Taxpayer Assistance Center", "tax", "55 Harbor Street", 1, 45, 21),
    OfficeSpec("Northgate Tax Help Office", "tax", "18 Willow Drive", 4, 30, 24),
    OfficeSpec("Riverton Human Services Center", "benefits", "200 Cedar Lane", 2, 60, 30),
    OfficeSpec("Westfield Family Resource Office", "benefits", "77 Mill Pond Road", 6, 40, 28),
    OfficeSpec("Southport Benefits Office", "benefits", "9 Lakeview Terrace", 5, 50, 32),
    OfficeSpec("Riverton Motor Vehicle Service Center", "motor_vehicles", "300 Quincy Road",
               2, 55, 7),
    OfficeSpec("Harbor Point Motor Vehicle Office", "motor_vehicles", "12 Harbor Street", 1,
               40, 9),
    OfficeSpec("Lakeview Express Tags", "motor_vehicles", "140 Lakeview Terrace", 5, 15, 5),
    OfficeSpec("Main Post Office Passport Acceptance", "passports", "25 Station Square", 6,
               35, 40),
    OfficeSpec("Riverton Passport Agency", "passports", "88 Orchard Way", 3, 70, 12),
    OfficeSpec("City Clerk Passport Desk", "passports", "1 City Hall Plaza", 1, 25, 42),
    OfficeSpec("Transfer Station and Recycling Drop-off", "waste", "500 Mill Pond Road", 6,
               10, 2),
    OfficeSpec("Household Hazardous Waste Depot", "waste", "61 Foundry Street", 4, 20, 3),
    OfficeSpec("Riverton Municipal Court", "court", "2 Court Square", 3, 50, 18),
    OfficeSpec("Traffic Division Courthouse", "court", "340 Prospect Hill Road", 5, 35, 16),
    OfficeSpec("Board of Elections Main Office", "elections", "1 City Hall Plaza", 1, 15, 5),
    OfficeSpec("Early Voting Center at Central Library", "elections", "150 Elm Court", 3,
               25, 3),
    OfficeSpec("City Hall Service Desk", "city_services", "1 City Hall Plaza", 1, 20, 6),
    OfficeSpec("Eastside Neighborhood Service Center", "city_services", "22 Willow Drive", 4,
               15, 8),
    OfficeSpec("Westside Neighborhood Service Center", "city_services", "60 Station Square",
               6, 25, 7),
)  # fmt: skip

SLOT_TIMES: tuple[str, ...] = ("09:00", "10:30", "13:00", "14:30", "16:00")
APPOINTMENT_SERVICES: tuple[str, ...] = (
    "consultation",
    "document_drop_off",
    "in_person_application",
    "identity_verification",
)

PORTAL_SOURCE = "Riverton agency portal (queue system)"
FEED_311_SOURCE = "Riverton 311 service-status feed"
CROWD_SOURCE = "LineWatch crowd-reported waits"


class PermitTypeSpec(NamedTuple):
    """A kind of permit or licence the city issues."""

    code: str
    name: str
    category: str
    base_fee_usd: float
    processing_business_days: int
    validity_months: int


PERMIT_TYPES: tuple[PermitTypeSpec, ...] = (
    PermitTypeSpec("BLD-RES", "Residential building permit", "building", 425.0, 15, 12),
    PermitTypeSpec("BLD-DEM", "Demolition permit", "building", 610.0, 20, 6),
    PermitTypeSpec("ELE-RES", "Residential electrical permit", "building", 145.0, 6, 6),
    PermitTypeSpec("PLM-RES", "Residential plumbing permit", "building", 135.0, 7, 6),
    PermitTypeSpec("FNC-RES", "Fence permit", "building", 85.0, 5, 6),
    PermitTypeSpec("TRE-RMV", "Tree removal permit", "building", 60.0, 9, 3),
    PermitTypeSpec("SGN-COM", "Commercial sign permit", "business", 210.0, 11, 24),
    PermitTypeSpec("HOM-OCC", "Home occupation permit", "business", 95.0, 8, 12),
    PermitTypeSpec("FDT-LIC", "Food truck licence", "business", 380.0, 14, 12),
    PermitTypeSpec("STR-LIC", "Short-term rental licence", "business", 265.0, 18, 12),
    PermitTypeSpec("VND-LIC", "Street vendor licence", "business", 150.0, 10, 12),
    PermitTypeSpec("CAF-SWK", "Sidewalk cafe licence", "business", 320.0, 16, 12),
    PermitTypeSpec("EVT-BLK", "Block party permit", "events", 40.0, 4, 1),
    PermitTypeSpec("EVT-SPC", "Special event permit", "events", 275.0, 13, 1),
    PermitTypeSpec("DOG-LIC", "Dog licence", "animals", 25.0, 2, 12),
    PermitTypeSpec("CHK-KEP", "Backyard chicken keeping permit", "animals", 50.0, 6, 12),
)
PERMIT_CATEGORIES: tuple[str, ...] = ("building", "business", "events", "animals")
EXPEDITE_MULTIPLIER = 1.5  # expedited review costs half the base fee again ...
EXPEDITE_DAY_SHARE = 0.5  # ... and takes half the business days, rounded up

# 2025 federal income tax brackets: (upper bound of the bracket, rate). None = no bound.
TAX_BRACKETS: dict[str, tuple[tuple[float | None, float], ...]] = {
    "single": (
        (11925, 0.10), (48475, 0.12), (103350, 0.22), (197300, 0.24),
        (250525, 0.32), (626350, 0.35), (None, 0.37),
    ),
    "married_joint": (
        (23850, 0.10), (96950, 0.12), (206700, 0.22), (394600, 0.24),
        (501050, 0.32), (751600, 0.35), (None, 0.37),
    ),
    "head_of_household": (
        (17000, 0.10), (64850, 0.12), (103350, 0.22), (197300, 0.24),
        (250500, 0.32), (626350, 0.35), (None, 0.37),
    ),
}  # fmt: skip
STANDARD_DEDUCTION: dict[str, float] = {
    "single": 15750.0,
    "married_joint": 31500.0,
    "head_of_household": 23625.0,
}
FILING_STATUSES: tuple[str, ...] = tuple(TAX_BRACKETS)
TAX_YEAR = 2025
INCOME_KINDS: tuple[str, ...] = ("W-2", "1099-NEC", "1099-INT", "1099-DIV")
DEDUCTION_KINDS: tuple[str, ...] = (
    "mortgage_interest",
    "charitable",
    "state_and_local_tax",
    "medical",
)
EMPLOYERS: tuple[str, ...] = (
    "Riverton Public Schools", "Harborview Hospital", "Atlas Logistics", "Northbank Credit Union",
    "Cedar & Co. Architects", "Riverton Transit Authority", "BrightPath Software",
    "Greenleaf Grocers", "Mill Pond Brewing", "Summit Insurance Group",
)  # fmt: skip
BANKS: tuple[str, ...] = ("Northbank Credit Union", "Harbor Savings Bank", "Civic First Bank")
RETURN_STATUSES: tuple[str, ...] = ("not_filed", "filed", "accepted", "refund_sent")
REFUND_BUSINESS_DAYS = 15  # direct deposit after acceptance

# 2025 HHS poverty guideline (48 states): base for one person, plus each extra person.
POVERTY_BASE_USD = 15650.0
POVERTY_PER_PERSON_USD = 5500.0


class ProgramSpec(NamedTuple):
    """A benefits programme: income limit as a share of the poverty guideline, and rules."""

    code: str
    name: str
    category: str
    limit_pct_of_poverty: int
    min_age: int
    min_household: int
    base_monthly_usd: float
    per_person_monthly_usd: float


PROGRAMS: tuple[ProgramSpec, ...] = (
    ProgramSpec("FOOD", "Riverton Food Assistance", "food", 130, 0, 1, 95.0, 88.0),
    ProgramSpec("HEAT", "Home Energy Assistance", "utilities", 200, 0, 1, 60.0, 12.5),
    ProgramSpec("WATER", "Water Bill Discount", "utilities", 175, 0, 1, 18.0, 4.0),
    ProgramSpec("CHILD", "Child Care Subsidy", "family", 250, 0, 2, 310.0, 45.0),
    ProgramSpec("RENT", "Emergency Rental Assistance", "housing", 150, 0, 1, 420.0, 65.0),
    ProgramSpec("SENIOR", "Senior Property Tax Relief", "housing", 300, 65, 1, 75.0, 0.0),
    ProgramSpec("TRANSIT", "Reduced Transit Fare", "transport", 200, 0, 1, 32.0, 0.0),
    ProgramSpec("YOUTH", "Summer Youth Meals", "food", 185, 0, 3, 40.0, 20.0),
)
PROGRAM_CATEGORIES: tuple[str, ...] = (
    "food",
    "utilities",
    "family",
    "housing",
    "transport",
)

VEHICLE_MODELS: tuple[tuple[str, str, str, int], ...] = (
    ("Toyota", "Camry", "passenger", 1480), ("Honda", "Civic", "passenger", 1310),
    ("Ford", "F-150", "light_truck", 2050), ("Subaru", "Outback", "passenger", 1660),
    ("Tesla", "Model 3", "passenger", 1760), ("Chevrolet", "Silverado", "light_truck", 2270),
    ("Hyundai", "Ioniq 5", "passenger", 2010), ("Harley-Davidson", "Street Glide",
    "motorcycle", 375), ("Yamaha", "MT-07", "motorcycle", 184), ("Ram", "1500",
    "light_truck", 2380), ("Volkswagen", "Jetta", "passenger", 1380), ("Kia", "Telluride",
    "passenger", 1950), ("Toyota", "Tacoma", "light_truck", 1990), ("Nissan", "Leaf",
    "passenger", 1580),
)  # fmt: skip
VEHICLE_CLASSES: tuple[str, ...] = ("passenger", "light_truck", "motorcycle")
# Annual registration fee by class, and a surcharge per started 500 kg above 1,800 kg.
REGISTRATION_FEE_USD: dict[str, float] = {
    "passenger": 62.0,
    "light_truck": 88.0,
    "motorcycle": 41.0,
}
WEIGHT_SURCHARGE_USD = 14.0
WEIGHT_SURCHARGE_FROM_KG = 1800
LATE_FLAT_USD = 15.0  # once the registration has expired ...
LATE_PER_MONTH_USD = 10.0  # ... plus this per started 30 days past expiry
LATE_CAP_USD = 75.0
RENEWAL_WINDOW_DAYS = 90  # a registration can be renewed this many days before it expires


class IdServiceSpec(NamedTuple):
    """An identity-document service: document, speed, fee and processing time."""

    code: str
    document: str
    speed: str
    fee_usd: float
    processing_business_days: int


ID_SERVICES: tuple[IdServiceSpec, ...] = (
    IdServiceSpec("PPB-NEW", "passport_book", "routine", 165.0, 30),
    IdServiceSpec("PPB-NEW-X", "passport_book", "expedited", 225.0, 12),
    IdServiceSpec("PPB-RNW", "passport_book", "routine", 130.0, 28),
    IdServiceSpec("PPB-RNW-X", "passport_book", "expedited", 190.0, 11),
    IdServiceSpec("PPC-NEW", "passport_card", "routine", 65.0, 30),
    IdServiceSpec("PPC-RNW", "passport_card", "routine", 30.0, 28),
    IdServiceSpec("SID-NEW", "state_id", "routine", 26.0, 8),
    IdServiceSpec("SID-RNW", "state_id", "routine", 18.5, 6),
    IdServiceSpec("DL-RNW", "driver_licence", "routine", 42.0, 7),
    IdServiceSpec("DL-RNW-X", "driver_licence", "expedited", 67.0, 2),
)
ID_DOCUMENTS: tuple[str, ...] = ("passport_book", "passport_card", "state_id", "driver_licence")


class ViolationSpec(NamedTuple):
    """A parking or traffic violation and its fine."""

    code: str
    description: str
    kind: str
    amount_usd: float


VIOLATIONS: tuple[ViolationSpec, ...] = (
    ViolationSpec("P-101", "Expired meter", "parking", 35.0),
    ViolationSpec("P-104", "No parking - street cleaning", "parking", 50.0),
    ViolationSpec("P-110", "Resident permit area without permit", "parking", 45.0),
    ViolationSpec("P-122", "Fire hydrant within 10 feet", "parking", 100.0),
    ViolationSpec("P-130", "Double parking", "parking", 65.0),
    ViolationSpec("P-145", "Accessible space without placard", "parking", 250.0),
    ViolationSpec("T-201", "Speeding 1-10 over limit (camera)", "traffic", 75.0),
    ViolationSpec("T-202", "Speeding 11-20 over limit (camera)", "traffic", 150.0),
    ViolationSpec("T-215", "Red light (camera)", "traffic", 120.0),
    ViolationSpec("T-230", "School bus stop-arm (camera)", "traffic", 300.0),
)
FINE_DUE_DAYS = 30
FINE_LATE_SHARE = 0.10  # per started 30 days past due ...
FINE_LATE_CAP_SHARE = 0.50  # ... up to this share of the fine
COURTROOMS: tuple[str, ...] = ("Courtroom 2A", "Courtroom 2B", "Courtroom 3C", "Hearing Room 1")
HEARING_BUSINESS_DAYS = 10  # a contested citation is heard this many business days later


class ServiceCategorySpec(NamedTuple):
    """A 311 request category and the target resolution time in business days."""

    code: str
    label: str
    sla_business_days: int


SERVICE_CATEGORIES: tuple[ServiceCategorySpec, ...] = (
    ServiceCategorySpec("pothole", "Pothole repair", 5),
    ServiceCategorySpec("streetlight_out", "Streetlight outage", 7),
    ServiceCategorySpec("graffiti", "Graffiti removal", 10),
    ServiceCategorySpec("missed_collection", "Missed trash or recycling pickup", 2),
    ServiceCategorySpec("bulky_item_pickup", "Bulky item pickup", 8),
    ServiceCategorySpec("abandoned_vehicle", "Abandoned vehicle", 12),
    ServiceCategorySpec("tree_trimming", "Street tree trimming", 20),
    ServiceCategorySpec("sidewalk_repair", "Sidewalk repair", 25),
    ServiceCategorySpec("noise_complaint", "Noise complaint", 3),
)
SERVICE_STATUSES: tuple[str, ...] = ("open", "in_progress", "closed")


class PollingPlaceSpec(NamedTuple):
    """A polling place and the ward whose precincts vote there."""

    name: str
    address: str
    ward: int
    latitude_deg: float
    longitude_deg: float


POLLING_PLACES: tuple[PollingPlaceSpec, ...] = (
    PollingPlaceSpec("Harbor Elementary School Gym", "40 Harbor Street", 1, 42.3591, -71.0852),
    PollingPlaceSpec("Cedar Lane Community Center", "215 Cedar Lane", 2, 42.3712, -71.0996),
    PollingPlaceSpec("Central Library Auditorium", "150 Elm Court", 3, 42.3530, -71.1090),
    PollingPlaceSpec("Foundry Fire Station 4", "380 Foundry Street", 4, 42.3829, -71.0821),
    PollingPlaceSpec("Lakeview Senior Center", "120 Lakeview Terrace", 5, 42.3401, -71.0998),
    PollingPlaceSpec("Station Square Armory", "5 Station Square", 6, 42.3671, -71.1201),
)
STATE_VOTER_PORTAL = "RV Secretary of State voter portal"
CITY_ELECTIONS_SOURCE = "Riverton Board of Elections"
PARTIES: tuple[str, ...] = ("Democratic", "Republican", "Unenrolled", "Green", "Libertarian")
