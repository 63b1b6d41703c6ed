"""Static tables the personal-finance world draws from: people, merchants, payees, lenders.

Only data lives here; every choice among these entries is made by the world's seeded
generator in :mod:`toolchaos.domains.personal_finance.world`.
"""

from __future__ import annotations

from typing import NamedTuple

FIRST_NAMES: tuple[str, ...] = (
    "Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "James", "Isabella",
    "Lucas", "Mia", "Mateo", "Amelia", "Ethan", "Harper", "Benjamin", "Evelyn", "Henry",
    "Priya", "Arjun", "Mei", "Hiroshi", "Fatima", "Omar", "Chloe", "Samuel", "Grace",
    "Gabriel", "Zoe", "Diego", "Lucia", "Andre", "Nadia", "Tomas", "Aisha", "Kenji", "Rosa",
    "Victor", "Hannah", "Ingrid", "Rafael", "Yara", "Owen", "Clara", "Julian", "Astrid",
)  # fmt: skip

LAST_NAMES: tuple[str, ...] = (
    "Smith", "Johnson", "Williams", "Brown", "Garcia", "Miller", "Davis", "Martinez",
    "Wilson", "Anderson", "Taylor", "Moore", "Martin", "Lee", "Thompson", "White", "Harris",
    "Clark", "Lewis", "Walker", "Young", "King", "Wright", "Nguyen", "Hill", "Flores",
    "Green", "Patel", "Kim", "Chen", "Okafor", "Novak", "Schmidt", "Rossi", "Tanaka",
    "Kowalski", "Haddad", "Lindqvist", "Dubois", "Moreau",
)  # fmt: skip

EMAIL_DOMAINS: tuple[str, ...] = (
    "gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "fastmail.com",
)  # fmt: skip

CITIES: tuple[str, ...] = (
    "Seattle", "Portland", "San Francisco", "Denver", "Austin", "Chicago", "Minneapolis",
    "Atlanta", "Boston", "New York", "Philadelphia", "Columbus",
)  # fmt: skip


class Currency(NamedTuple):
    """A quoted currency and the rough number of its units one US dollar buys."""

    code: str
    name: str
    per_usd: float
    decimals: int


# Eight quoted currencies besides the dollar.
CURRENCIES: tuple[Currency, ...] = (
    Currency("EUR", "euro", 0.9215, 2),
    Currency("GBP", "pound sterling", 0.7893, 2),
    Currency("JPY", "Japanese yen", 149.62, 0),
    Currency("CAD", "Canadian dollar", 1.3584, 2),
    Currency("CHF", "Swiss franc", 0.8817, 2),
    Currency("AUD", "Australian dollar", 1.5342, 2),
    Currency("MXN", "Mexican peso", 17.085, 2),
    Currency("SEK", "Swedish krona", 10.462, 2),
)


class Merchant(NamedTuple):
    """A merchant: name, spending category, price range and where it charges."""

    name: str
    category: str
    lo: float
    hi: float
    city: str = ""
    country: str = "US"
    currency: str = "USD"


DOMESTIC_MERCHANTS: tuple[Merchant, ...] = (
    Merchant("Whole Foods Market", "groceries", 18, 185),
    Merchant("Trader Joe's", "groceries", 12, 120),
    Merchant("Safeway", "groceries", 9, 140),
    Merchant("Kroger", "groceries", 15, 160),
    Merchant("Sprouts Farmers Market", "groceries", 10, 95),
    Merchant("Blue Bottle Coffee", "dining", 4, 18),
    Merchant("Chipotle Mexican Grill", "dining", 9, 32),
    Merchant("Sweetgreen", "dining", 11, 28),
    Merchant("Shake Shack", "dining", 10, 42),
    Merchant("Olive Garden", "dining", 28, 110),
    Merchant("Panera Bread", "dining", 8, 30),
    Merchant("Uber", "transport", 7, 58),
    Merchant("Lyft", "transport", 6, 52),
    Merchant("Chevron", "transport", 25, 78),
    Merchant("Metro Transit", "transport", 3, 40),
    Merchant("ParkMobile", "transport", 2, 24),
    Merchant("Amazon", "shopping", 8, 260),
    Merchant("Target", "shopping", 12, 190),
    Merchant("Best Buy", "shopping", 20, 640),
    Merchant("REI Co-op", "shopping", 25, 340),
    Merchant("IKEA", "shopping", 15, 420),
    Merchant("AMC Theatres", "entertainment", 12, 65),
    Merchant("Ticketmaster", "entertainment", 45, 320),
    Merchant("Steam", "entertainment", 5, 70),
    Merchant("Barnes & Noble", "entertainment", 9, 60),
    Merchant("Delta Air Lines", "travel", 140, 780),
    Merchant("Marriott Hotels", "travel", 150, 620),
    Merchant("Airbnb", "travel", 120, 900),
    Merchant("Hertz", "travel", 60, 380),
    Merchant("CVS Pharmacy", "health", 6, 85),
    Merchant("Walgreens", "health", 5, 70),
    Merchant("One Medical", "health", 40, 220),
    Merchant("Equinox", "health", 90, 260),
    Merchant("Netflix", "subscriptions", 15.49, 15.49),
    Merchant("Spotify", "subscriptions", 11.99, 11.99),
    Merchant("Apple iCloud", "subscriptions", 2.99, 9.99),
    Merchant("The New York Times", "subscriptions", 17.0, 17.0),
)

# Two merchants abroad per quoted currency; prices are in the local currency.
FOREIGN_MERCHANTS: tuple[Merchant, ...] = (
    Merchant("Cafe de Flore", "dining", 14, 75, "Paris", "FR", "EUR"),
    Merchant("Galeries Lafayette", "shopping", 40, 480, "Paris", "FR", "EUR"),
    Merchant("Pret A Manger Soho", "dining", 6, 24, "London", "GB", "GBP"),
    Merchant("Liberty London", "shopping", 35, 410, "London", "GB", "GBP"),
    Merchant("Lawson Shibuya", "dining", 600, 4200, "Tokyo", "JP", "JPY"),
    Merchant("Tokyu Hands Shinjuku", "shopping", 1500, 36000, "Tokyo", "JP", "JPY"),
    Merchant("Tim Hortons Queen St", "dining", 5, 26, "Toronto", "CA", "CAD"),
    Merchant("Fairmont Royal York", "travel", 240, 690, "Toronto", "CA", "CAD"),
    Merchant("Confiserie Sprungli", "dining", 12, 90, "Zurich", "CH", "CHF"),
    Merchant("Swiss Federal Railways", "travel", 30, 240, "Zurich", "CH", "CHF"),
    Merchant("Bondi Icebergs", "dining", 45, 260, "Sydney", "AU", "AUD"),
    Merchant("Qantas Lounge Shop", "shopping", 20, 210, "Sydney", "AU", "AUD"),
    Merchant("Taqueria Orinoco", "dining", 160, 980, "Mexico City", "MX", "MXN"),
    Merchant("El Palacio de Hierro", "shopping", 700, 8600, "Mexico City", "MX", "MXN"),
    Merchant("Ahlens City", "shopping", 250, 3400, "Stockholm", "SE", "SEK"),
    Merchant("Vete-Katten", "dining", 90, 520, "Stockholm", "SE", "SEK"),
)


class Payee(NamedTuple):
    """A company people pay bills to, and the usual size of its bill."""

    name: str
    category: str
    lo: float
    hi: float
    varies: bool


PAYEES: tuple[Payee, ...] = (
    Payee("Pacific Gas and Electric", "utilities", 48, 240, True),
    Payee("City Water Utility", "utilities", 28, 95, True),
    Payee("Metro Waste Services", "utilities", 22, 46, False),
    Payee("Comcast Xfinity", "internet", 55, 120, False),
    Payee("Verizon Wireless", "phone", 45, 160, False),
    Payee("T-Mobile", "phone", 40, 140, False),
    Payee("State Farm Insurance", "insurance", 85, 260, False),
    Payee("Geico", "insurance", 70, 210, False),
    Payee("Greenway Property Management", "housing", 1250, 2900, False),
    Payee("Lakeside HOA", "housing", 120, 420, False),
    Payee("Sunrun Solar", "utilities", 65, 180, False),
    Payee("Bright Horizons Childcare", "childcare", 850, 1900, False),
)


class LoanKind(NamedTuple):
    """A kind of loan: lenders, principal range (rounding step), APR range and terms."""

    lenders: tuple[str, ...]
    principal_lo: int
    principal_hi: int
    step: int
    apr_lo: float
    apr_hi: float
    terms: tuple[int, ...]


LOAN_KINDS: dict[str, LoanKind] = {
    "auto": LoanKind(
        ("Ally Auto", "Capital One Auto", "Toyota Financial"),
        14000, 52000, 250, 3.9, 9.4, (36, 48, 60, 72),
    ),
    "mortgage": LoanKind(
        ("Rocket Mortgage", "Wells Fargo Home", "Chase Home Lending"),
        180000, 720000, 1000, 5.25, 7.4, (180, 360),
    ),
    "student": LoanKind(
        ("Sallie Mae", "Nelnet", "SoFi Student"),
        9000, 68000, 100, 3.7, 7.9, (120,),
    ),
    "personal": LoanKind(
        ("LendingClub", "Marcus by Goldman Sachs", "Discover Personal"),
        2500, 24000, 100, 7.9, 18.9, (24, 36, 60),
    ),
}  # fmt: skip

CARD_NAMES: tuple[str, ...] = (
    "Travel Rewards Visa", "Cash Back Mastercard", "Everyday Amex", "Platinum Visa",
    "Dining Rewards Card",
)  # fmt: skip
CHECKING_NAMES: tuple[str, ...] = ("Everyday Checking", "Primary Checking", "Joint Checking")
SAVINGS_NAMES: tuple[str, ...] = ("Rainy Day Savings", "High-Yield Savings", "Vacation Fund")
EMPLOYERS: tuple[str, ...] = (
    "Acme Robotics", "Northwind Health", "Bluebird Logistics", "Cedar Analytics",
    "Harbor City Schools", "Summit Engineering", "Lumen Media", "Orchard Foods",
)  # fmt: skip
