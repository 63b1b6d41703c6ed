"""Static tables the productivity world draws from: people, offices, projects, rooms, data.

Only data lives here; every choice among these entries (and every generated number) is
made by the world's seeded generator in :mod:`toolchaos.domains.productivity.world`.
"""

from __future__ import annotations

from typing import NamedTuple


class Office(NamedTuple):
    """An office: its city, IANA time zone and UTC offset at the world's epoch (early March).

    The offsets are those in effect on 2 March 2026: before the northern clock change,
    during southern summer time.
    """

    city: str
    timezone: str
    utc_offset_hours: float


OFFICES: tuple[Office, ...] = (
    Office("New York", "America/New_York", -5),
    Office("San Francisco", "America/Los_Angeles", -8),
    Office("Toronto", "America/Toronto", -5),
    Office("Sao Paulo", "America/Sao_Paulo", -3),
    Office("London", "Europe/London", 0),
    Office("Berlin", "Europe/Berlin", 1),
    Office("Bengaluru", "Asia/Kolkata", 5.5),
    Office("Singapore", "Asia/Singapore", 8),
    Office("Sydney", "Australia/Sydney", 11),
)

FIRST_NAMES: tuple[str, ...] = (
    "Priya", "Marcus", "Elena", "Tomasz", "Aisha", "Kenji", "Sofia", "Liam", "Fatima",
    "Diego", "Hannah", "Ravi", "Chloe", "Oluwaseun", "Mei", "Jonas", "Amara", "Lucas",
    "Ingrid", "Mateo", "Noor", "Ethan", "Yuki", "Gabriel", "Zara", "Felix", "Leila",
    "Samuel", "Ana", "Victor",
)  # fmt: skip
LAST_NAMES: tuple[str, ...] = (
    "Raman", "Okafor", "Petrova", "Kowalski", "Haddad", "Tanaka", "Rossi", "Brennan",
    "Nasser", "Alvarez", "Becker", "Iyer", "Dubois", "Adeyemi", "Chen", "Lindqvist",
    "Mensah", "Moreau", "Halvorsen", "Ortega", "Siddiqui", "Walsh", "Nakamura", "Silva",
    "Kaur", "Hoffmann", "Farouk", "Osei", "Costa", "Novak",
)  # fmt: skip
EMAIL_DOMAIN = "northbeam.io"

# team -> job titles, and each team's share of the people
TEAMS: dict[str, tuple[str, ...]] = {
    "Engineering": ("Software Engineer", "Senior Software Engineer", "Engineering Manager"),
    "Design": ("Product Designer", "UX Researcher"),
    "Product": ("Product Manager", "Senior Product Manager"),
    "Data": ("Data Analyst", "Data Scientist", "Analytics Engineer"),
    "Marketing": ("Growth Marketer", "Content Strategist"),
    "Operations": ("Operations Lead", "Project Coordinator"),
}
# Local working windows people keep (start, end), 24-hour local time
WORK_WINDOWS: tuple[tuple[str, str], ...] = (
    ("08:00", "16:00"),
    ("08:30", "17:00"),
    ("09:00", "17:00"),
    ("09:00", "17:30"),
    ("09:30", "18:00"),
    ("10:00", "18:30"),
)

# (project name, client) -- internal projects bill nobody
PROJECTS: tuple[tuple[str, str], ...] = (
    ("Atlas Migration", "Northwind Traders"),
    ("Beacon Mobile App", "Harbor Health"),
    ("Cobalt Data Platform", "Internal"),
    ("Delta Checkout Redesign", "Lumen Retail"),
    ("Ember Onboarding Flow", "Internal"),
    ("Fjord Billing Revamp", "Polar Logistics"),
    ("Granite Security Audit", "Summit Bank"),
    ("Helix Search Relaunch", "Lumen Retail"),
    ("Iris Analytics Portal", "Kestrel Media"),
    ("Juno Partner API", "Polar Logistics"),
    ("Kite Marketing Site", "Internal"),
    ("Lark Support Console", "Harbor Health"),
)
PROJECT_STATUSES = ("active", "on_hold", "completed")

TASK_VERBS: tuple[str, ...] = (
    "Draft", "Review", "Fix", "Migrate", "Test", "Document", "Design", "Refactor",
    "Benchmark", "Prototype", "Audit", "Localize",
)  # fmt: skip
TASK_OBJECTS: tuple[str, ...] = (
    "login timeout", "invoice export", "search ranking", "onboarding emails",
    "payment webhook", "dashboard filters", "release checklist", "user permissions",
    "CSV importer", "error pages", "mobile navigation", "API rate limits",
    "audit log", "pricing page", "data retention policy", "notification settings",
    "sprint report", "accessibility issues", "cache layer", "SSO integration",
)  # fmt: skip
PRIORITIES = ("low", "medium", "high", "urgent")
TASK_STATUSES = ("todo", "in_progress", "blocked", "done")

# (room name, capacity, has video) per office that has rooms
ROOMS: dict[str, tuple[tuple[str, int, bool], ...]] = {
    "New York": (("Hudson", 12, True), ("Liberty", 6, True), ("Brooklyn", 4, False),
                 ("Empire", 20, True)),
    "London": (("Thames", 10, True), ("Kew", 4, False), ("Soho", 6, True),
               ("Greenwich", 16, True)),
    "Berlin": (("Spree", 8, True), ("Tiergarten", 14, True), ("Kreuzberg", 4, False)),
    "Bengaluru": (("Nilgiri", 10, True), ("Kaveri", 6, True), ("Lalbagh", 18, True)),
    "San Francisco": (("Presidio", 8, True), ("Embarcadero", 12, True),
                      ("Mission", 4, False)),
}  # fmt: skip
ROOM_OPEN = "08:00"  # rooms are bookable 08:00-18:00 local time
ROOM_CLOSE = "18:00"

EVENT_TITLES: tuple[str, ...] = (
    "Weekly sync", "Design review", "Sprint planning", "Customer call", "Roadmap review",
    "Retro", "Architecture review", "Hiring debrief", "Budget check-in", "Demo prep",
    "Incident review", "Launch readiness", "Data quality review", "Content planning",
)  # fmt: skip
EVENT_MINUTES = (30, 30, 45, 60, 60, 90)

DOC_KINDS = ("spec", "meeting_notes", "runbook", "retro", "plan", "report")
DOC_TITLES: dict[str, tuple[str, ...]] = {
    "spec": ("Technical spec", "Product requirements", "API design"),
    "meeting_notes": ("Kickoff notes", "Client call notes", "Weekly sync notes"),
    "runbook": ("Deployment runbook", "On-call runbook"),
    "retro": ("Sprint retro", "Launch retro"),
    "plan": ("Launch plan", "Test plan", "Rollout plan"),
    "report": ("Status report", "Risk assessment"),
}
WORDS_PER_MINUTE = 230  # reading speed used for reading_minutes

TIME_NOTES: tuple[str, ...] = (
    "implementation", "code review", "client meeting", "planning", "bug fixing",
    "documentation", "testing", "research", "design work", "deployment",
)  # fmt: skip

# -- data and analytics -------------------------------------------------------------------

SALES_REGIONS = ("North America", "Latin America", "EMEA", "APAC")
SALES_CHANNELS = ("Online", "Retail", "Partner")
# monthly revenue scale per region (USD) and per channel (share)
REGION_REVENUE = {"North America": 420_000, "Latin America": 95_000, "EMEA": 310_000,
                  "APAC": 180_000}  # fmt: skip
CHANNEL_SHARE = {"Online": 0.5, "Retail": 0.3, "Partner": 0.2}
TRAFFIC_SOURCES = ("organic", "paid", "email", "social", "referral")
TRAFFIC_SESSIONS = {"organic": 5200, "paid": 2600, "email": 1100, "social": 1500,
                    "referral": 700}  # fmt: skip
TICKET_TEAMS = ("Billing", "Technical", "Account")

# (dataset id, name, description)
DATASETS: tuple[tuple[str, str, str], ...] = (
    ("DS-SALES", "Regional sales", "Monthly sales by region and channel, last 12 months."),
    ("DS-TRAFFIC", "Web traffic", "Daily website traffic by acquisition source, last 28 days."),
    ("DS-TICKETS", "Support tickets", "Weekly support tickets by team, last 12 weeks."),
)

# KPI: (name, dashboard, unit, higher is better, typical value, monthly drift)
KPIS: tuple[tuple[str, str, str, bool, float, float], ...] = (
    ("Weekly active users", "Growth", "users", True, 48_000, 0.03),
    ("New signups", "Growth", "signups", True, 6_200, 0.05),
    ("Activation rate", "Growth", "percent", True, 41.5, 0.02),
    ("Monthly recurring revenue", "Revenue", "usd", True, 1_250_000, 0.02),
    ("Average order value", "Revenue", "usd", True, 86.4, 0.02),
    ("Net revenue retention", "Revenue", "percent", True, 108.2, 0.01),
    ("Churn rate", "Revenue", "percent", False, 2.9, 0.06),
    ("First response time", "Support", "minutes", False, 42.0, 0.08),
    ("Customer satisfaction", "Support", "percent", True, 91.3, 0.01),
    ("Ticket backlog", "Support", "tickets", False, 310, 0.1),
    ("Crash-free sessions", "Product", "percent", True, 99.2, 0.002),
    ("Feature adoption", "Product", "percent", True, 27.8, 0.04),
)
GROSS_REVENUE_KPI = "Gross sales revenue"  # the KPI derived from the sales dataset
KPI_MONTHS = 12  # monthly periods ending with the last full month

WAREHOUSE = "Snowflake warehouse (nightly load, system of record)"
REALTIME = "Pulse streaming analytics"
BI_CACHE = "Lookout BI extract cache"

TIMESHEETS = "Northbeam Timesheets (system of record)"
PAYROLL = "PayGrid payroll export"
TRACKER = "Trackly project tracker"

EXPERIMENT_PLATFORM = "Splitwise experiment platform (system of record)"
PRODUCT_ANALYTICS = "Pulse product analytics"
EXPERIMENT_WAREHOUSE = "Snowflake warehouse experiment tables"

# (experiment name, primary metric, control conversion rate)
EXPERIMENTS: tuple[tuple[str, str, float], ...] = (
    ("One-page checkout", "checkout conversion", 0.031),
    ("Annual plan discount banner", "upgrade rate", 0.018),
    ("Onboarding checklist", "activation", 0.22),
    ("Pricing page social proof", "trial starts", 0.054),
    ("Shorter signup form", "signup completion", 0.37),
    ("Smart search suggestions", "search to purchase", 0.082),
    ("Free shipping threshold", "checkout conversion", 0.029),
    ("Dark mode default", "7-day retention", 0.44),
    ("Referral reward boost", "referral sends", 0.061),
    ("Live chat on pricing", "demo requests", 0.012),
)
EXPERIMENT_STATUSES = ("running", "completed")

# (survey name, audience, segment kind, questions: (text, scale max))
SURVEYS: tuple[tuple[str, str, str, tuple[tuple[str, int], ...]], ...] = (
    (
        "Q1 employee engagement",
        "employees",
        "team",
        (
            ("I would recommend this company as a place to work.", 10),
            ("I have the tools I need to do my job well.", 5),
            ("My workload is manageable.", 5),
            ("I understand how my work supports our goals.", 5),
        ),
    ),
    (
        "Customer satisfaction February",
        "customers",
        "plan",
        (
            ("How likely are you to recommend us to a colleague?", 10),
            ("How satisfied are you with the product overall?", 5),
            ("How satisfied are you with support?", 5),
        ),
    ),
    (
        "Onboarding experience",
        "new customers",
        "plan",
        (
            ("How easy was it to get started?", 5),
            ("How useful was the setup checklist?", 5),
            ("How likely are you to recommend us?", 10),
        ),
    ),
    (
        "Remote work pulse",
        "employees",
        "team",
        (
            ("Meetings across time zones are scheduled fairly.", 5),
            ("I can focus without interruptions.", 5),
            ("How likely are you to recommend remote work here?", 10),
        ),
    ),
)
CUSTOMER_PLANS = ("Free", "Pro", "Enterprise")
