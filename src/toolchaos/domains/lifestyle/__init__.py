"""The lifestyle domain (topic "lifestyle and daily activities").

Groceries, cooking, eating out, pets, home upkeep, plants, local services, chores and
gifts.

It gives every hazard variant a real place to fit:

- shelf prices come from three independent services that agree in the clean world and
  stamp ``as_of`` (the store catalog ``get_item_price``, authoritative; ShelfScout
  ``compare_item_price``; ReceiptPal ``get_receipt_price``), and so do star ratings of
  restaurants and providers (LocalLens ``get_rating_locallens``, authoritative;
  ``get_rating_starboard``; ``get_rating_towntalk``): cross-source conflicts;
- ``get_item_price`` falls back to ``compare_item_price`` and ``get_rating_locallens`` to
  ``get_rating_starboard`` (same keys): outages;
- ``scale_recipe`` and ``convert_units`` have a v2 with renamed parameters and the same
  result keys (v1 still works): deprecated tools;
- ``daily_food_g``, ``per_meal_g``, ``weight_kg`` and ``distance_km`` are numbers with a
  unit in their name: unit changes;
- items, recipes, restaurants, providers, pets, plants, chores and contacts are taken by
  id or by name, and a search or listing tool returns the id: ambiguous entities;
- every write that creates or changes a record has a read that lists it: timeouts after a
  committed write (creating a shopping list or an occasion feeds a second write);
- next watering, maintenance, vaccination and birthday dates are read into answers
  (locale dates), and listings (pantry, reservations, plants, chores) feed answers from
  their later rows (pagination).
"""

from __future__ import annotations

from toolchaos.domains import (
    Domain,
    DomainNotes,
    Fallback,
    UnitConversion,
    V2Tool,
    WriteVerifier,
    tool_map,
)
from toolchaos.domains._notes import CENTS, SECONDS, resolver, same_params, sources
from toolchaos.domains.lifestyle.tools import TOOLS
from toolchaos.domains.lifestyle.world import LifestyleWorld

PRICE_TOOLS = ("get_item_price", "compare_item_price", "get_receipt_price")
RATING_TOOLS = ("get_rating_locallens", "get_rating_starboard", "get_rating_towntalk")


_ITEM = ("search_items", "item_id")
_RECIPE = ("search_recipes", "recipe_id")
_RESTAURANT = ("search_restaurants", "restaurant_id")
_PROVIDER = ("search_providers", "provider_id")
_G_TO_OZ = UnitConversion(to_unit="oz", factor=0.035274)

DOMAIN = Domain(
    name="lifestyle",
    topic="lifestyle and daily activities",
    world_type=LifestyleWorld,
    tools=tool_map(TOOLS),
    notes=DomainNotes(
        fallbacks={
            "get_item_price": Fallback(
                tool="compare_item_price", args_map={"store": "store", "item": "item"}
            ),
            "get_receipt_price": Fallback(
                tool="compare_item_price", args_map={"store": "store", "item": "item"}
            ),
            "get_rating_locallens": Fallback(
                tool="get_rating_starboard", args_map={"business": "business"}
            ),
        },
        v2={
            "scale_recipe": V2Tool(
                tool="scale_recipe_v2",
                args_map={"recipe_ref": "recipe", "target_servings": "servings"},
            ),
            "convert_units": V2Tool(
                tool="convert_units_v2",
                args_map={
                    "amount": "quantity",
                    "source_unit": "from_unit",
                    "target_unit": "to_unit",
                    "ingredient": "ingredient",
                },
            ),
        },
        unit_conversions={
            "daily_food_g": _G_TO_OZ,
            "per_meal_g": _G_TO_OZ,
            "weight_kg": UnitConversion(to_unit="lb", factor=2.20462),
            "distance_km": UnitConversion(to_unit="mi", factor=0.621371),
            **dict.fromkeys(("price_usd", "total_usd"), CENTS),
            **dict.fromkeys(("total_minutes",), SECONDS),
        },
        resolvers={
            **{t: resolver("item", *_ITEM) for t in (*PRICE_TOOLS, "add_list_item")},
            "add_gift_idea": resolver("item", *_ITEM),
            "get_recipe": resolver("recipe", *_RECIPE),
            "scale_recipe": resolver("recipe", *_RECIPE),
            "scale_recipe_v2": resolver("recipe_ref", *_RECIPE),
            **{t: resolver("business", *_RESTAURANT) for t in RATING_TOOLS},
            **{
                t: resolver("restaurant", *_RESTAURANT)
                for t in ("check_table_availability", "create_reservation", "list_reservations")
            },
            "list_services": resolver("provider", *_PROVIDER),
            "list_bookings": resolver("provider", *_PROVIDER),
            "list_vaccinations": resolver("pet", "list_pets", "pet_id", "name"),
            "compute_food_portion": resolver("pet", "list_pets", "pet_id", "name"),
            "get_watering_schedule": resolver(
                "plant", "list_plants", "plant_id", "nickname_contains"
            ),
            "log_watering": resolver("plant", "list_plants", "plant_id", "nickname_contains"),
            "get_chore_rota": resolver("chore", "list_chores", "chore_id", "name_contains"),
            "complete_chore": resolver("chore", "list_chores", "chore_id", "name_contains"),
            "list_occasions": resolver("contact", "list_contacts", "contact_id", "name_contains"),
            "create_occasion": resolver("contact", "list_contacts", "contact_id", "name_contains"),
        },
        write_verifiers={
            "create_shopping_list": WriteVerifier(
                tool="list_shopping_lists",
                args_map={"name_contains": "name"},
                match={"name": "name"},
            ),
            "add_list_item": WriteVerifier(
                tool="get_shopping_list",
                args_map={"list_id": "list_id"},
                records_key="entries",
                match={"quantity": "quantity"},
            ),
            "create_reservation": WriteVerifier(
                tool="list_reservations",
                args_map={"restaurant": "restaurant"},
                match={
                    "date": "date",
                    "time": "time",
                    "party_size": "party_size",
                    "guest_name": "guest_name",
                },
            ),
            "cancel_reservation": WriteVerifier(
                tool="list_reservations", args_map={}, match={"reservation_id": "reservation_id"}
            ),
            "book_service": WriteVerifier(
                tool="list_bookings",
                args_map={"service_id": "service_id"},
                match={"service_id": "service_id", "date": "date", "time": "time"},
            ),
            "complete_maintenance_task": WriteVerifier(
                tool="list_maintenance_tasks",
                args_map={},
                match={"task_id": "task_id", "last_done": "done_on"},
            ),
            "log_watering": WriteVerifier(
                tool="list_plants", args_map={}, match={"last_watered": "watered_on"}
            ),
            "complete_chore": WriteVerifier(
                tool="list_chores", args_map={}, match={"last_done": "done_on"}
            ),
            "create_occasion": WriteVerifier(
                tool="list_occasions",
                args_map={"contact": "contact"},
                match={"kind": "kind", "date": "date", "budget_usd": "budget_usd"},
            ),
            "add_gift_idea": WriteVerifier(
                tool="list_gift_ideas",
                args_map={"occasion_id": "occasion_id"},
                match={"occasion_id": "occasion_id"},
            ),
        },
        sources={
            **sources(same_params(PRICE_TOOLS, "store", "item"), ["price_usd"]),
            **sources(same_params(RATING_TOOLS, "business"), ["rating_stars"]),
        },
    ),
)

__all__ = ["DOMAIN", "LifestyleWorld"]
