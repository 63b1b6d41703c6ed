"""Health subtopics: one module each, over one household's care and daily tracking.

Each module's templates pick members, prescriptions, clinics, foods and days from the
seeded world and phrase the request the way the household's primary user would; answers
come from replaying the reference path. Many templates read a fact that three services
serve (drug prices, clinic waits, nutrition facts), so cross-source conflicts fit often.
"""

SUBTOPIC_ORDER = (
    "medications",
    "refills",
    "appointments",
    "fitness",
    "nutrition",
    "sleep",
    "labs",
    "vaccinations",
    "insurance",
)
