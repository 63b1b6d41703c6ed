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

from typing import Any

from toolchaos.domains import Domain, tool_map
from toolchaos.domains.lifestyle.tools import TOOLS
from toolchaos.domains.lifestyle.world import LifestyleWorld

PRICE_TOOLS = ("get_item_price", "compare_item_price", "get_receipt_price")
RATING_TOOLS = ("get_rating_locallens", "get_rating_starboard", "get_rating_towntalk")


def _source(tool: str, family: tuple[str, ...], fields: list[str]) -> dict[str, Any]:
    alternatives = [t for t in family if t != tool]
    params = ("store", "item") if family == PRICE_TOOLS else ("business",)
    return {
        "alternatives": alternatives,
        "args_map": {alt: {p: p for p in params} for alt in alternatives},
        "fields": fields,
        "time_field": "as_of",
        "authoritative": family[0],
    }


def _resolver(param: str, tool: str, query_param: str, id_field: str) -> dict[str, Any]:
    return {
        "param": param,
        "tool": tool,
        "query_param": query_param,
        "id_path": ["results", 0, id_field],
    }


_ITEM = ("search_items", "query", "item_id")
_RECIPE = ("search_recipes", "query", "recipe_id")
_RESTAURANT = ("search_restaurants", "query", "restaurant_id")
_PROVIDER = ("search_providers", "query", "provider_id")
_G_TO_OZ = {"to_unit": "oz", "factor": 0.035274}

DOMAIN = Domain(
    name="lifestyle",
    topic="lifestyle and daily activities",
    world_type=LifestyleWorld,
    tools=tool_map(TOOLS),
    notes={
        "fallbacks": {
            "get_item_price": {
                "tool": "compare_item_price",
                "args_map": {"store": "store", "item": "item"},
            },
            "get_receipt_price": {
                "tool": "compare_item_price",
                "args_map": {"store": "store", "item": "item"},
            },
            "get_rating_locallens": {
                "tool": "get_rating_starboard",
                "args_map": {"business": "business"},
            },
        },
        "v2": {
            "scale_recipe": {
                "tool": "scale_recipe_v2",
                "args_map": {"recipe_ref": "recipe", "target_servings": "servings"},
            },
            "convert_units": {
                "tool": "convert_units_v2",
                "args_map": {
                    "amount": "quantity",
                    "source_unit": "from_unit",
                    "target_unit": "to_unit",
                    "ingredient": "ingredient",
                },
            },
        },
        "unit_conversions": {
            "daily_food_g": dict(_G_TO_OZ),
            "per_meal_g": dict(_G_TO_OZ),
            "weight_kg": {"to_unit": "lb", "factor": 2.20462},
            "distance_km": {"to_unit": "mi", "factor": 0.621371},
        },
        "resolvers": {
            **{t: _resolver("item", *_ITEM) for t in (*PRICE_TOOLS, "add_list_item")},
            "add_gift_idea": _resolver("item", *_ITEM),
            "get_recipe": _resolver("recipe", *_RECIPE),
            "scale_recipe": _resolver("recipe", *_RECIPE),
            "scale_recipe_v2": _resolver("recipe_ref", *_RECIPE),
            **{t: _resolver("business", *_RESTAURANT) for t in RATING_TOOLS},
            **{
                t: _resolver("restaurant", *_RESTAURANT)
                for t in ("check_table_availability", "create_reservation", "list_reservations")
            },
            "list_services": _resolver("provider", *_PROVIDER),
            "list_bookings": _resolver("provider", *_PROVIDER),
            "list_vaccinations": _resolver("pet", "list_pets", "name", "pet_id"),
            "compute_food_portion": _resolver("pet", "list_pets", "name", "pet_id"),
            "get_watering_schedule": _resolver(
                "plant", "list_plants", "nickname_contains", "plant_id"
            ),
            "log_watering": _resolver("plant", "list_plants", "nickname_contains", "plant_id"),
            "get_chore_rota": _resolver("chore", "list_chores", "name_contains", "chore_id"),
            "complete_chore": _resolver("chore", "list_chores", "name_contains", "chore_id"),
            "list_occasions": _resolver("contact", "list_contacts", "name_contains", "contact_id"),
            "create_occasion": _resolver("contact", "list_contacts", "name_contains", "contact_id"),
        },
        "write_verifiers": {
            "create_shopping_list": {
                "tool": "list_shopping_lists",
                "args_map": {"name_contains": "name"},
                "list": "results",
                "match": {"name": "name"},
            },
            "add_list_item": {
                "tool": "get_shopping_list",
                "args_map": {"list_id": "list_id"},
                "list": "entries",
                "match": {"quantity": "quantity"},
            },
            "create_reservation": {
                "tool": "list_reservations",
                "args_map": {"restaurant": "restaurant"},
                "list": "results",
                "match": {
                    "date": "date",
                    "time": "time",
                    "party_size": "party_size",
                    "guest_name": "guest_name",
                },
            },
            "cancel_reservation": {
                "tool": "list_reservations",
                "args_map": {},
                "list": "results",
                "match": {"reservation_id": "reservation_id"},
            },
            "book_service": {
                "tool": "list_bookings",
                "args_map": {"service_id": "service_id"},
                "list": "results",
                "match": {"service_id": "service_id", "date": "date", "time": "time"},
            },
            "complete_maintenance_task": {
                "tool": "list_maintenance_tasks",
                "args_map": {},
                "list": "results",
                "match": {"task_id": "task_id", "last_done": "done_on"},
            },
            "log_watering": {
                "tool": "list_plants",
                "args_map": {},
                "list": "results",
                "match": {"last_watered": "watered_on"},
            },
            "complete_chore": {
                "tool": "list_chores",
                "args_map": {},
                "list": "results",
                "match": {"last_done": "done_on"},
            },
            "create_occasion": {
                "tool": "list_occasions",
                "args_map": {"contact": "contact"},
                "list": "results",
                "match": {"kind": "kind", "date": "date", "budget_usd": "budget_usd"},
            },
            "add_gift_idea": {
                "tool": "list_gift_ideas",
                "args_map": {"occasion_id": "occasion_id"},
                "list": "results",
                "match": {"occasion_id": "occasion_id"},
            },
        },
        "sources": {
            **{t: _source(t, PRICE_TOOLS, ["price_usd"]) for t in PRICE_TOOLS},
            **{t: _source(t, RATING_TOOLS, ["rating_stars"]) for t in RATING_TOOLS},
        },
    },
)

__all__ = ["DOMAIN", "LifestyleWorld"]
