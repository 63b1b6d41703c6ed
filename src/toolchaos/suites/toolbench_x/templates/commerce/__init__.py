"""Commerce subtopics: order tracking, returns and refunds, subscriptions and billing.

Each template picks entities from the seeded world and writes the request a customer or
shop assistant would make; the answer comes from replaying the path, never from here.
"""

SUBTOPIC_ORDER = (
    "order_tracking",
    "returns_and_refunds",
    "subscriptions_and_billing",
    "product_search_and_comparison",
    "coupons_and_promotions",
)
