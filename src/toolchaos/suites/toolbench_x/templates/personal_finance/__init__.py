"""Personal-finance subtopics: spending and budgets, loans and payments, currency exchange.

Each template picks entities from the seeded world and writes the request an account
holder (or their adviser) would make; the answer comes from replaying the path, never
from here. Templates only read the world, through the domain's own READ tools where a
precondition needs a computed figure.
"""

SUBTOPIC_ORDER = (
    "spending_and_budgets",
    "loans_and_payments",
    "currency_exchange",
    "savings_and_interest",
    "credit_cards",
)
