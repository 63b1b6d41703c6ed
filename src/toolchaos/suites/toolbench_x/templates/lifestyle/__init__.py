"""Lifestyle subtopics: cooking, shopping, eating out, pets, home, services and gifts.

Each template picks recipes, stores, restaurants, pets and household records from the
seeded world and writes the request a person running a household would make; the
answer comes from replaying the path, never from here. Templates read the world through
READ tools (``_read``) only to choose entities that make a well-posed task (a free table,
an open appointment slot, an occasion not planned yet), never to write the answer.
"""

SUBTOPIC_ORDER = (
    "recipes_and_cooking",
    "grocery_shopping",
    "restaurant_reservations",
    "pet_care",
    "home_maintenance",
    "plants_and_gardening",
    "local_services_booking",
    "household_chores",
    "gifts_and_occasions",
)
