"""Static tables the commerce world draws from: names, places, catalogue items, plans.

Only data lives here; every choice among these entries is made by the world's seeded
generator in :mod:`toolchaos.domains.commerce.world`.
"""

from __future__ import annotations

from typing import NamedTuple

FIRST_NAMES: tuple[str, ...] = (
    "Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Isabella",
    "Lucas", "Mia", "Mateo", "Amelia", "Ethan", "Harper", "Benjamin", "Evelyn", "Henry",
    "Abigail", "Daniel", "Priya", "Arjun", "Mei", "Hiroshi", "Fatima", "Omar", "Chloe",
    "Samuel", "Grace", "Gabriel", "Zoe", "Diego", "Lucia", "Andre", "Nadia", "Tomas",
    "Aisha", "Kenji", "Rosa", "Victor", "Hannah", "Caleb", "Leah", "Marcus", "Ingrid",
    "Rafael", "Yara", "Owen", "Clara", "Julian",
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

STREET_NAMES: tuple[str, ...] = (
    "Maple", "Oak", "Cedar", "Pine", "Elm", "Washington", "Lake", "Hill", "Park", "Sunset",
    "Willow", "Ridge", "Highland", "Jefferson", "Lincoln", "Magnolia", "River", "Meadow",
)  # fmt: skip

STREET_SUFFIXES: tuple[str, ...] = ("St", "Ave", "Rd", "Blvd", "Ln", "Dr", "Ct", "Way")


class City(NamedTuple):
    """A US city customers live in, with its phone area code, ZIP prefix and sales tax."""

    name: str
    state: str
    area_code: str
    zip_prefix: str
    tax_rate_pct: float


CITIES: tuple[City, ...] = (
    City("Seattle", "WA", "206", "981", 10.25),
    City("Portland", "OR", "503", "972", 0.0),
    City("San Francisco", "CA", "415", "941", 8.625),
    City("Los Angeles", "CA", "213", "900", 9.5),
    City("San Diego", "CA", "619", "921", 7.75),
    City("Phoenix", "AZ", "602", "850", 8.6),
    City("Denver", "CO", "303", "802", 8.81),
    City("Austin", "TX", "512", "787", 8.25),
    City("Houston", "TX", "713", "770", 8.25),
    City("Chicago", "IL", "312", "606", 10.25),
    City("Minneapolis", "MN", "612", "554", 8.025),
    City("Nashville", "TN", "615", "372", 9.25),
    City("Atlanta", "GA", "404", "303", 8.9),
    City("Miami", "FL", "305", "331", 7.0),
    City("Charlotte", "NC", "704", "282", 7.25),
    City("Boston", "MA", "617", "021", 6.25),
    City("New York", "NY", "212", "100", 8.875),
    City("Philadelphia", "PA", "215", "191", 8.0),
    City("Columbus", "OH", "614", "432", 7.5),
    City("Salt Lake City", "UT", "801", "841", 7.75),
)

US_STATES: frozenset[str] = frozenset((
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN",
    "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH",
    "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT",
    "VT", "VA", "WA", "WV", "WI", "WY",
))  # fmt: skip

FULFILLMENT_CENTERS: tuple[str, ...] = ("Reno, NV, US", "Columbus, OH, US", "Allentown, PA, US")

CARRIER_HUBS: tuple[str, ...] = (
    "Louisville, KY, US", "Memphis, TN, US", "Dallas, TX, US", "Chicago, IL, US",
    "Atlanta, GA, US", "Ontario, CA, US", "Philadelphia, PA, US", "Salt Lake City, UT, US",
)  # fmt: skip


class Service(NamedTuple):
    """A carrier service level: its name, the tracking-number service code and transit days."""

    name: str
    code: str
    min_days: int
    max_days: int


SERVICES: tuple[Service, ...] = (
    Service("UPS Ground", "03", 3, 5),
    Service("UPS 2nd Day Air", "02", 2, 2),
    Service("UPS Next Day Air", "01", 1, 1),
)


class CatalogItem(NamedTuple):
    """A kind of product: its noun, price range in dollars and weight range in kilograms."""

    noun: str
    price_lo: int
    price_hi: int
    weight_lo: float
    weight_hi: float


CATALOG: dict[str, tuple[CatalogItem, ...]] = {
    "Electronics": (
        CatalogItem("Wireless Earbuds", 39, 179, 0.1, 0.3),
        CatalogItem("Bluetooth Speaker", 29, 149, 0.4, 1.6),
        CatalogItem("USB-C Charging Hub", 19, 69, 0.1, 0.4),
        CatalogItem("Noise-Cancelling Headphones", 99, 349, 0.3, 0.6),
        CatalogItem("Smart Plug 4-Pack", 24, 49, 0.3, 0.6),
        CatalogItem("Portable Power Bank", 25, 89, 0.2, 0.6),
    ),
    "Home & Kitchen": (
        CatalogItem("Pour-Over Coffee Kettle", 29, 89, 0.7, 1.3),
        CatalogItem("Cast Iron Skillet", 24, 79, 2.0, 3.6),
        CatalogItem("Chef's Knife", 39, 159, 0.2, 0.4),
        CatalogItem("Linen Duvet Cover", 59, 189, 1.0, 2.1),
        CatalogItem("Glass Food Storage Set", 19, 59, 1.5, 3.0),
        CatalogItem("Air Fryer", 69, 179, 4.0, 6.5),
    ),
    "Outdoors": (
        CatalogItem("Trekking Poles", 39, 129, 0.4, 0.7),
        CatalogItem("Insulated Water Bottle", 19, 45, 0.3, 0.6),
        CatalogItem("Two-Person Tent", 129, 399, 1.8, 3.2),
        CatalogItem("Headlamp", 15, 59, 0.1, 0.2),
        CatalogItem("Camp Stove", 39, 139, 0.5, 1.6),
        CatalogItem("Down Sleeping Bag", 149, 429, 0.8, 1.6),
    ),
    "Apparel": (
        CatalogItem("Merino Crew Socks", 14, 29, 0.1, 0.2),
        CatalogItem("Rain Shell Jacket", 89, 249, 0.3, 0.6),
        CatalogItem("Organic Cotton Hoodie", 45, 95, 0.5, 0.9),
        CatalogItem("Trail Running Shoes", 89, 169, 0.5, 0.9),
        CatalogItem("Wool Beanie", 15, 39, 0.1, 0.2),
    ),
    "Beauty": (
        CatalogItem("Vitamin C Serum", 18, 68, 0.1, 0.2),
        CatalogItem("Mineral Sunscreen SPF 50", 12, 36, 0.1, 0.3),
        CatalogItem("Hydrating Face Cream", 19, 72, 0.1, 0.3),
        CatalogItem("Bamboo Hair Brush", 9, 29, 0.1, 0.2),
    ),
    "Toys & Games": (
        CatalogItem("Wooden Building Blocks", 24, 69, 1.0, 2.5),
        CatalogItem("Strategy Board Game", 29, 79, 0.8, 2.0),
        CatalogItem("1000-Piece Jigsaw Puzzle", 14, 29, 0.5, 0.9),
        CatalogItem("Remote Control Car", 39, 119, 0.6, 1.5),
    ),
    "Office": (
        CatalogItem("Ergonomic Desk Chair", 179, 499, 12.0, 20.0),
        CatalogItem("Mechanical Keyboard", 69, 189, 0.8, 1.3),
        CatalogItem("Dotted Notebook 3-Pack", 12, 29, 0.5, 0.9),
        CatalogItem("LED Desk Lamp", 29, 89, 0.8, 1.8),
    ),
    "Pet Supplies": (
        CatalogItem("Orthopedic Dog Bed", 49, 149, 2.0, 5.0),
        CatalogItem("Cat Scratching Post", 29, 89, 2.5, 6.0),
        CatalogItem("Grain-Free Dog Food 12 lb", 39, 69, 5.4, 5.6),
        CatalogItem("Automatic Pet Feeder", 59, 139, 1.5, 3.0),
    ),
}

BRANDS: tuple[str, ...] = (
    "Northwind", "Alder & Co", "Brightline", "Cobalt", "Evergreen", "Fable", "Halcyon",
    "Kestrel", "Lumen", "Meridian", "Nimbus", "Orchard", "Pioneer", "Quill", "Sable",
    "Tidewater", "Umber", "Vantage", "Wren", "Zephyr",
)  # fmt: skip

COUPON_WORDS: tuple[str, ...] = (
    "WELCOME", "SPRING", "FLASH", "HOLIDAY", "VIP", "SAVE", "GEARUP", "COZY", "TECH",
    "SUMMER", "FRESH", "BUNDLE", "LOYAL", "THANKS", "WEEKEND", "CAMPOUT", "PAWS", "STUDY",
    "GLOW", "PLAYTIME",
)  # fmt: skip


class Plan(NamedTuple):
    """A subscription plan: its name, billing interval and price per billing period."""

    name: str
    billing_interval: str
    price_usd: float


PLANS: tuple[Plan, ...] = (
    Plan("Coffee Club", "monthly", 24.00),
    Plan("Pantry Essentials Box", "monthly", 39.99),
    Plan("Pet Food Autoship", "monthly", 54.50),
    Plan("Premium Membership", "monthly", 12.99),
    Plan("Premium Membership", "annual", 119.00),
    Plan("Razor Refill Club", "monthly", 9.49),
    Plan("Skincare Sampler", "monthly", 19.95),
    Plan("Kids Activity Crate", "monthly", 29.95),
    Plan("Outdoor Gear Box", "annual", 249.00),
)

RETURN_REASONS: tuple[str, ...] = (
    "damaged",
    "defective",
    "wrong_item",
    "not_as_described",
    "no_longer_needed",
    "other",
)

CANCELLATION_REASONS: tuple[str, ...] = (
    "too_expensive",
    "not_using_enough",
    "switched_provider",
    "moving",
    "other",
)
