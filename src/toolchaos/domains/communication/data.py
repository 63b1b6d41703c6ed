"""Static tables the communication world draws from: people, countries, rates, senders.

Only data lives here; every choice among these entries (and every measured value) is made
by the world's seeded generator in :mod:`toolchaos.domains.communication.world`.
"""

from __future__ import annotations

from typing import NamedTuple


class Country(NamedTuple):
    """A country with its dialling code, UTC offset and the carrier's list prices there.

    ``utc_offset_hours`` is the offset at the world's epoch (early March); prices are in
    US dollars.
    ``data_per_mb`` and ``roaming_call_per_min`` are what using the phone costs while
    there; ``intl_call_per_min`` and ``sms`` what calling or texting a number there from
    home costs; ``daypass`` the price of a 24-hour roaming day pass (None: no pass sold).
    """

    code: str
    name: str
    dial_code: str
    utc_offset_hours: float
    cities: tuple[str, ...]
    data_per_mb: float
    roaming_call_per_min: float
    intl_call_per_min: float
    sms: float
    daypass: float | None


HOME_COUNTRY = "US"
HOME_OFFSET_HOURS = -5.0  # the user's own time zone (US Eastern, before the March change)

COUNTRIES: tuple[Country, ...] = (
    Country("US", "United States", "+1", -5, ("Boston", "Chicago", "Denver", "Seattle",
            "Austin", "New York"), 0.0, 0.0, 0.0, 0.0, None),
    Country("CA", "Canada", "+1", -5, ("Toronto", "Montreal", "Ottawa"), 0.1, 0.25, 0.05,
            0.05, 5.0),
    Country("MX", "Mexico", "+52", -6, ("Mexico City", "Guadalajara", "Monterrey"), 0.12,
            0.3, 0.08, 0.1, 5.0),
    Country("GB", "United Kingdom", "+44", 0, ("London", "Manchester", "Edinburgh"), 0.2,
            0.45, 0.1, 0.25, 10.0),
    Country("FR", "France", "+33", 1, ("Paris", "Lyon", "Marseille"), 0.2, 0.45, 0.12,
            0.25, 10.0),
    Country("DE", "Germany", "+49", 1, ("Berlin", "Munich", "Hamburg"), 0.2, 0.45, 0.11,
            0.25, 10.0),
    Country("ES", "Spain", "+34", 1, ("Madrid", "Barcelona", "Valencia"), 0.2, 0.45, 0.13,
            0.25, 10.0),
    Country("IT", "Italy", "+39", 1, ("Rome", "Milan", "Naples"), 0.2, 0.5, 0.14, 0.25, 10.0),
    Country("NL", "Netherlands", "+31", 1, ("Amsterdam", "Rotterdam", "Utrecht"), 0.2, 0.45,
            0.12, 0.25, 10.0),
    Country("SE", "Sweden", "+46", 1, ("Stockholm", "Gothenburg"), 0.2, 0.45, 0.12, 0.25, 10.0),
    Country("PL", "Poland", "+48", 1, ("Warsaw", "Krakow"), 0.25, 0.5, 0.16, 0.3, 10.0),
    Country("GR", "Greece", "+30", 2, ("Athens", "Thessaloniki"), 0.25, 0.55, 0.18, 0.3, 10.0),
    Country("TR", "Turkey", "+90", 3, ("Istanbul", "Ankara"), 0.8, 1.5, 0.35, 0.5, 12.0),
    Country("IN", "India", "+91", 5.5, ("Mumbai", "Bengaluru", "Delhi"), 0.9, 1.7, 0.25,
            0.4, 12.0),
    Country("JP", "Japan", "+81", 9, ("Tokyo", "Osaka", "Kyoto"), 0.6, 1.2, 0.3, 0.4, 12.0),
    Country("KR", "South Korea", "+82", 9, ("Seoul", "Busan"), 0.6, 1.2, 0.28, 0.4, 12.0),
    Country("SG", "Singapore", "+65", 8, ("Singapore",), 0.5, 1.0, 0.22, 0.35, 12.0),
    Country("AU", "Australia", "+61", 11, ("Sydney", "Melbourne", "Brisbane"), 0.5, 1.0,
            0.24, 0.35, 12.0),
    Country("BR", "Brazil", "+55", -3, ("Sao Paulo", "Rio de Janeiro"), 0.7, 1.4, 0.3, 0.45,
            12.0),
    Country("AR", "Argentina", "+54", -3, ("Buenos Aires", "Cordoba"), 0.8, 1.5, 0.32, 0.45,
            12.0),
    Country("ZA", "South Africa", "+27", 2, ("Cape Town", "Johannesburg"), 1.0, 1.8, 0.38,
            0.5, 15.0),
    Country("KE", "Kenya", "+254", 3, ("Nairobi", "Mombasa"), 1.5, 2.5, 0.45, 0.6, None),
    Country("EG", "Egypt", "+20", 2, ("Cairo", "Alexandria"), 1.2, 2.2, 0.42, 0.55, None),
    Country("AE", "United Arab Emirates", "+971", 4, ("Dubai", "Abu Dhabi"), 1.1, 2.0, 0.4,
            0.5, 15.0),
    Country("IS", "Iceland", "+354", 0, ("Reykjavik",), 0.3, 0.6, 0.2, 0.3, 10.0),
    Country("NZ", "New Zealand", "+64", 13, ("Auckland", "Wellington"), 0.5, 1.0, 0.26, 0.35,
            12.0),
)  # fmt: skip

FIRST_NAMES: tuple[str, ...] = (
    "Aisha", "Alejandro", "Amara", "Anders", "Beatriz", "Carmen", "Chen", "Chloe", "Dmitri",
    "Elena", "Emeka", "Farah", "Giulia", "Hana", "Hiroshi", "Ingrid", "Isaac", "Jonas",
    "Kavya", "Laila", "Lars", "Leila", "Lucas", "Mai", "Marta", "Mateo", "Nadia", "Noor",
    "Olga", "Omar", "Priya", "Rafael", "Ravi", "Rosa", "Sofia", "Tariq", "Thomas", "Yara",
    "Yusuf", "Zoe", "Ben", "Grace", "Hannah", "Jack", "Megan", "Nathan", "Owen", "Ruth",
)  # fmt: skip

LAST_NAMES: tuple[str, ...] = (
    "Abara", "Andersson", "Bianchi", "Brennan", "Castillo", "Dubois", "Eriksen", "Fischer",
    "Garcia", "Haddad", "Ivanova", "Jensen", "Kaur", "Kim", "Kowalski", "Lopez", "Mendes",
    "Moreau", "Nakamura", "Novak", "Okafor", "Olsen", "Patel", "Petrov", "Quinn", "Rossi",
    "Sato", "Schmidt", "Silva", "Tanaka", "Torres", "Walsh", "Weber", "Yilmaz", "Zhang",
)  # fmt: skip

PERSONAL_DOMAINS: tuple[str, ...] = ("gmail.com", "outlook.com", "proton.me", "fastmail.com")

# (company, email domain)
COMPANIES: tuple[tuple[str, str], ...] = (
    ("Northwind Analytics", "northwind-analytics.com"),
    ("Bluefin Logistics", "bluefinlogistics.com"),
    ("Harbor & Pine Legal", "harborpine.law"),
    ("Quanta Health", "quantahealth.io"),
    ("Lumen Studio", "lumenstudio.design"),
    ("Orchard Capital", "orchardcap.com"),
    ("Kite Robotics", "kiterobotics.ai"),
    ("Meridian Press", "meridianpress.org"),
)

GROUPS: tuple[tuple[str, str], ...] = (
    ("Family", "Parents, siblings and cousins"),
    ("Work", "Colleagues and clients"),
    ("Book Club", "Second-Thursday book club"),
    ("Soccer Team", "Sunday league five-a-side"),
    ("Neighbors", "People on our street"),
    ("College Friends", "Class of 2014"),
    ("Travel Buddies", "Trips and group bookings"),
)

EMAIL_LABELS: tuple[str, ...] = (
    "work", "personal", "receipts", "travel", "finance", "follow-up", "important",
)  # fmt: skip

# Subject patterns by label; "{topic}" is one of SUBJECT_TOPICS.
SUBJECT_PATTERNS: dict[str, tuple[str, ...]] = {
    "work": ("Q1 planning: {topic}", "Draft for review: {topic}", "Notes from the {topic} sync",
             "Action items - {topic}"),
    "personal": ("Photos from the {topic}", "Dinner plans after the {topic}",
                 "Catching up about the {topic}"),
    "receipts": ("Your receipt for {topic}", "Order confirmation: {topic}"),
    "travel": ("Itinerary update: {topic}", "Boarding pass for {topic}",
               "Hotel booking confirmed - {topic}"),
    "finance": ("Statement ready: {topic}", "Invoice attached for {topic}"),
    "follow-up": ("Following up on the {topic}", "Quick question about the {topic}"),
    "important": ("Signature needed: {topic}", "Deadline reminder - {topic}"),
}  # fmt: skip

SUBJECT_TOPICS: tuple[str, ...] = (
    "Lisbon offsite", "vendor contract", "budget forecast", "design sprint", "hiring plan",
    "kitchen renovation", "spring conference", "data migration", "board meeting",
    "lease renewal", "marketing launch", "wedding weekend", "quarterly audit",
    "product roadmap", "insurance claim", "tax documents", "client workshop",
    "security review", "team retreat", "annual report", "ski trip", "garden party",
)  # fmt: skip

ATTACHMENT_KINDS: tuple[tuple[str, int, int], ...] = (
    ("pdf", 80, 4200),
    ("xlsx", 30, 1800),
    ("docx", 25, 900),
    ("jpg", 600, 5200),
    ("zip", 900, 18000),
)

# (name, sender domain, category, issues per week)
NEWSLETTERS: tuple[tuple[str, str, str, float], ...] = (
    ("Morning Brew Digest", "brewdigest.news", "news", 5.0),
    ("The Weekly Byte", "weeklybyte.dev", "tech", 1.0),
    ("Product Hunt Daily", "producthuntmail.com", "tech", 7.0),
    ("Atlas Obscura Weekly", "atlasobscura-mail.com", "travel", 1.0),
    ("Cheap Flights Alerts", "cheapflightsalerts.com", "travel", 3.0),
    ("Runners World Notes", "runnersnotes.com", "health", 2.0),
    ("Green Thumb Gardener", "greenthumbmail.org", "lifestyle", 1.0),
    ("Market Close Recap", "marketclose.co", "finance", 5.0),
    ("Indie Game Roundup", "indiegameroundup.net", "entertainment", 1.0),
    ("Local Events Boston", "bostonevents.city", "local", 2.0),
    ("Recipe of the Day", "dailyrecipes.kitchen", "lifestyle", 7.0),
    ("AI Research Digest", "airesearchdigest.ai", "tech", 2.0),
    ("Deal Hunters Club", "dealhuntersclub.shop", "shopping", 10.0),
    ("Science Friday Mail", "scifridaymail.org", "science", 1.0),
    ("The Design Letter", "thedesignletter.com", "design", 0.5),
    ("Crypto Pulse", "cryptopulse.biz", "finance", 14.0),
    ("Parenting Today", "parentingtoday.family", "lifestyle", 2.0),
    ("Weekend Reads", "weekendreads.press", "news", 1.0),
)

NEWSLETTER_CATEGORIES: tuple[str, ...] = tuple(sorted({n[2] for n in NEWSLETTERS}))

GROUP_CHAT_TITLES: tuple[str, ...] = (
    "Family Dinner Crew", "Project Falcon", "Book Club Chat", "Sunday Soccer",
    "Street Watch", "College Reunion 2026", "Iceland Trip", "Design Team",
    "Climbing Saturdays", "Board Games Night",
)  # fmt: skip

CHAT_LINES: tuple[str, ...] = (
    "Running ten minutes late, sorry!", "Can someone send the address again?",
    "I booked the table for eight.", "Has anyone seen the latest draft?",
    "Great job today, everyone.", "Who's bringing snacks this time?",
    "Sharing the photos in a minute.", "Let's move the call to Thursday.",
    "I can't make it this week.", "The tickets are confirmed.",
    "Reminder: bring your own water.", "Agenda is in the shared folder.",
    "Happy birthday!!", "Does 7pm work for everyone?", "Traffic is terrible, leaving now.",
    "Sent you the invoice.", "Voting closes tonight.", "Thanks for organizing this.",
)  # fmt: skip

VOICEMAIL_LINES: tuple[str, ...] = (
    "Hi, it's me, call me back when you get a chance.",
    "Just confirming our appointment tomorrow morning.",
    "Your package is ready for pickup at the front desk.",
    "Quick question about the invoice, please ring me.",
    "Calling about the weekend plans, talk soon.",
    "The meeting moved to three o'clock, see you there.",
    "Please call the office regarding your renewal.",
)

PLAN = {
    "plan_name": "Connect Family 4",
    "monthly_fee_usd": 140.0,
    "overage_per_gb_usd": 15.0,
}

# The lines on the family plan: (owner, monthly data allowance in GB, typical MB a day).
LINES: tuple[tuple[str, float, int], ...] = (
    ("Jordan", 15.0, 520),
    ("Sam", 10.0, 380),
    ("Maya", 5.0, 210),
    ("Leo", 8.0, 300),
)

# code -> (name, extra GB, price in US dollars)
DATA_ADDONS: dict[str, tuple[str, float, float]] = {
    "DATA1": ("1 GB top-up", 1.0, 10.0),
    "DATA3": ("3 GB top-up", 3.0, 25.0),
    "DATA5": ("5 GB top-up", 5.0, 35.0),
    "DATA10": ("10 GB top-up", 10.0, 60.0),
}

MEETING_ROOMS: tuple[tuple[str, int, int, bool], ...] = (
    # (name, capacity, max duration in minutes, recording allowed)
    ("Huddle Room", 4, 45, False),
    ("Team Standup", 12, 60, True),
    ("Project Falcon Bridge", 25, 120, True),
    ("Client Showcase", 50, 90, True),
    ("All Hands Hall", 300, 180, True),
    ("Family Hangout", 10, 240, False),
    ("Book Club Lounge", 15, 120, False),
    ("Interview Booth", 5, 60, True),
)

MEETING_TITLES: tuple[str, ...] = (
    "Weekly sync", "Design review", "Budget check-in", "Client onboarding",
    "Sprint retro", "Interview: backend engineer", "Family catch-up", "Book discussion",
    "Roadmap planning", "Vendor demo", "1:1 with manager", "Trip planning call",
    "Quarterly business review", "Security briefing",
)  # fmt: skip

RATE_SOURCES = {
    "carrier": "Carrier tariff sheet",
    "roamcompare": "RoamCompare",
    "tariffwatch": "TariffWatch",
}
REPUTATION_SOURCES = {
    "mailtrust": "MailTrust",
    "spamscope": "SpamScope",
    "senderbase": "SenderBase",
}
