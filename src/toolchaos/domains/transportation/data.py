"""Static tables the transportation world draws from: cities, stations, lines, names.

Only data lives here; every choice among these entries (timetables, fares, seats, delays,
passengers, bookings) is made by the world's seeded generator in
:mod:`toolchaos.domains.transportation.world`.
"""

from __future__ import annotations

from typing import NamedTuple


class City(NamedTuple):
    """A city on the network, with its US state."""

    name: str
    state: str


CITIES: tuple[City, ...] = (
    City("Boston", "MA"),
    City("Providence", "RI"),
    City("Hartford", "CT"),
    City("New Haven", "CT"),
    City("New York", "NY"),
    City("Philadelphia", "PA"),
    City("Baltimore", "MD"),
    City("Washington", "DC"),
)


class StationSpec(NamedTuple):
    """A station: its code, name, city, the modes calling there and its position."""

    code: str
    name: str
    city: str
    modes: tuple[str, ...]
    lat_deg: float
    lon_deg: float


RAIL = ("rail",)
BUS = ("bus",)
BOTH = ("rail", "bus")

# Several names recur in different cities ("Union Station", "Penn Station", "Airport
# Station"): a name alone does not identify a station there.
STATIONS: tuple[StationSpec, ...] = (
    StationSpec("BOS", "South Station", "Boston", BOTH, 42.3519, -71.0552),
    StationSpec("BBY", "Back Bay", "Boston", RAIL, 42.3473, -71.0753),
    StationSpec("BON", "North Station", "Boston", RAIL, 42.3656, -71.0616),
    StationSpec("BOA", "Airport Station", "Boston", BUS, 42.3656, -71.0096),
    StationSpec("PVD", "Union Station", "Providence", RAIL, 41.8290, -71.4134),
    StationSpec("PVK", "Kennedy Plaza", "Providence", BUS, 41.8255, -71.4108),
    StationSpec("PVA", "Airport Station", "Providence", BOTH, 41.7240, -71.4283),
    StationSpec("HFD", "Union Station", "Hartford", BOTH, 41.7688, -72.6818),
    StationSpec("HFA", "Airport Station", "Hartford", BUS, 41.9389, -72.6832),
    StationSpec("WHF", "West Hartford", "Hartford", RAIL, 41.7620, -72.7420),
    StationSpec("NHV", "Union Station", "New Haven", BOTH, 41.2980, -72.9262),
    StationSpec("STS", "State Street", "New Haven", RAIL, 41.3046, -72.9217),
    StationSpec("NHT", "Temple Street Terminal", "New Haven", BUS, 41.3065, -72.9270),
    StationSpec("NYP", "Penn Station", "New York", RAIL, 40.7506, -73.9935),
    StationSpec("GCT", "Grand Central", "New York", RAIL, 40.7527, -73.9772),
    StationSpec("PAB", "Port Authority Bus Terminal", "New York", BUS, 40.7570, -73.9903),
    StationSpec("JAM", "Jamaica", "New York", RAIL, 40.6995, -73.8087),
    StationSpec("NYA", "Airport Station", "New York", RAIL, 40.6413, -73.7781),
    StationSpec("PHL", "30th Street Station", "Philadelphia", BOTH, 39.9557, -75.1820),
    StationSpec("PHS", "Suburban Station", "Philadelphia", RAIL, 39.9540, -75.1670),
    StationSpec("PHB", "Filbert Street Terminal", "Philadelphia", BUS, 39.9526, -75.1562),
    StationSpec("PHA", "Airport Station", "Philadelphia", RAIL, 39.8760, -75.2450),
    StationSpec("BAL", "Penn Station", "Baltimore", RAIL, 39.3074, -76.6157),
    StationSpec("CMY", "Camden Yards", "Baltimore", RAIL, 39.2857, -76.6210),
    StationSpec("BWI", "Airport Station", "Baltimore", BOTH, 39.1920, -76.6940),
    StationSpec("BAB", "Haines Street Terminal", "Baltimore", BUS, 39.2730, -76.6330),
    StationSpec("WAS", "Union Station", "Washington", BOTH, 38.8977, -77.0063),
    StationSpec("NCR", "New Carrollton", "Washington", RAIL, 38.9480, -76.8720),
    StationSpec("ALX", "Alexandria", "Washington", RAIL, 38.8062, -77.0621),
    StationSpec("DCA", "Airport Station", "Washington", BUS, 38.8512, -77.0402),
)


class Operator(NamedTuple):
    """A carrier: its name, mode, service-number prefix and average speed in km/h."""

    name: str
    mode: str
    prefix: str
    speed_kmh: float
    departures: tuple[int, int]


INTERCITY = Operator("Atlantic Rail", "rail", "AR", 112.0, (4, 6))
COMMUTER = Operator("Coastal Commuter", "rail", "CC", 74.0, (3, 5))
COACH = Operator("Liberty Coach", "bus", "LC", 68.0, (3, 5))

# Each pair is served in both directions as two routes.
LINES: tuple[tuple[Operator, str, str], ...] = (
    (INTERCITY, "BOS", "PVD"),
    (INTERCITY, "PVD", "NHV"),
    (INTERCITY, "NHV", "NYP"),
    (INTERCITY, "NYP", "PHL"),
    (INTERCITY, "PHL", "BAL"),
    (INTERCITY, "BAL", "WAS"),
    (INTERCITY, "NHV", "HFD"),
    (INTERCITY, "BOS", "NYP"),
    (INTERCITY, "NYP", "WAS"),
    (COMMUTER, "BBY", "PVA"),
    (COMMUTER, "STS", "GCT"),
    (COMMUTER, "HFD", "WHF"),
    (COMMUTER, "NYP", "JAM"),
    (COMMUTER, "JAM", "NYA"),
    (COMMUTER, "PHS", "PHA"),
    (COMMUTER, "CMY", "WAS"),
    (COMMUTER, "BWI", "NCR"),
    (COMMUTER, "ALX", "WAS"),
    (COACH, "BOS", "PVK"),
    (COACH, "BOS", "PAB"),
    (COACH, "PVK", "HFD"),
    (COACH, "HFD", "NHT"),
    (COACH, "NHT", "PAB"),
    (COACH, "PAB", "PHB"),
    (COACH, "PHB", "BAB"),
    (COACH, "BAB", "WAS"),
    (COACH, "BOA", "PVA"),
    (COACH, "HFA", "HFD"),
    (COACH, "BWI", "DCA"),
)

# Rail sells three classes; a coach sells economy only.
FARE_CLASSES: tuple[str, ...] = ("economy", "business", "first")
CLASS_MULTIPLIER: dict[str, float] = {"economy": 1.0, "business": 1.65, "first": 2.3}
FARE_PER_KM_USD: dict[str, float] = {"rail": 0.21, "bus": 0.11}
BOOKING_FEE_USD: dict[str, float] = {"rail": 4.0, "bus": 2.5}

# Per passenger-km emission factors, kg CO2e.
CO2_KG_PER_KM: dict[str, float] = {
    "rail": 0.035,
    "bus": 0.027,
    "car": 0.171,
    "taxi": 0.149,
    "flight": 0.246,
}

RIDE_TYPES: tuple[str, ...] = ("standard", "shared", "xl", "premium")
RIDE_MULTIPLIER: dict[str, float] = {"standard": 1.0, "shared": 0.72, "xl": 1.45, "premium": 1.9}
RIDE_CO2_SHARE: dict[str, float] = {"standard": 1.0, "shared": 0.5, "xl": 1.3, "premium": 1.1}

FIRST_NAMES: tuple[str, ...] = (
    "Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Isabella",
    "Lucas", "Mia", "Mateo", "Amelia", "Ethan", "Harper", "Benjamin", "Evelyn", "Henry",
    "Abigail", "Daniel", "Priya", "Arjun", "Mei", "Hiroshi", "Fatima", "Omar", "Chloe",
    "Samuel", "Grace", "Gabriel", "Zoe", "Diego", "Lucia", "Andre", "Nadia", "Tomas",
    "Aisha", "Kenji", "Rosa", "Victor", "Hannah", "Caleb", "Leah", "Marcus", "Ingrid",
)  # fmt: skip

LAST_NAMES: tuple[str, ...] = (
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis",
    "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson",
    "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White",
    "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen",
    "King", "Wright", "Scott", "Nguyen", "Hill", "Flores", "Green", "Patel", "Kim", "Chen",
    "Okafor", "Novak", "Schmidt", "Rossi", "Tanaka", "Kowalski", "Haddad",
)  # fmt: skip

EMAIL_DOMAINS: tuple[str, ...] = (
    "gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "fastmail.com",
)  # fmt: skip

LOYALTY_TIERS: tuple[str, ...] = ("none", "silver", "gold")
CANCELLATION_REASONS: tuple[str, ...] = (
    "change_of_plans",
    "found_alternative",
    "illness",
    "schedule_conflict",
    "other",
)
