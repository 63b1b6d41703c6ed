"""The lifestyle tools: groceries, recipes, restaurants, services, pets, home and gifts.

Searches and simple listings are declared through the shared shapes; prices, ratings,
recipe scaling and unit conversion, table and appointment availability, pet food
portions, due dates and the chore rota are written by hand. Parameters that name a
store, item, recipe, restaurant, provider, pet, plant, chore or contact take the record's
id or its exact name (any case). Refusals are :class:`ToolError`: 404 for an unknown id
or name, 409 for a record in the wrong state or a clash, 422 for a request that breaks a
rule.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any, Literal, cast

from toolchaos.core.errors import ToolError
from toolchaos.core.tools import Param, Tool, tool
from toolchaos.core.types import ToolKind
from toolchaos.core.values import is_number
from toolchaos.core.world import Row, World
from toolchaos.domains import _shapes as shapes
from toolchaos.domains._common import (
    bounded_text,
    calendar_date,
    clock_arg,
    conflict,
    dec,
    enum_schema,
    find_key,
    int_arg,
    listing,
    money,
    not_found,
    row_json,
    stamp,
    stored_key,
    unprocessable,
)
from toolchaos.domains._shapes import Filter
from toolchaos.domains.lifestyle import data
from toolchaos.domains.lifestyle.world import (
    BOOKING_DAYS_AHEAD,
    SERVICE_DAYS_AHEAD,
    WEEKDAYS,
    Booking,
    Chore,
    Contact,
    GiftIdea,
    Item,
    LifestyleWorld,
    ListEntry,
    MaintenanceTask,
    Occasion,
    Pet,
    Plant,
    Provider,
    Recipe,
    Reservation,
    Restaurant,
    ShoppingList,
    Store,
    add_months,
    hhmm,
    minutes_of,
    next_birthday,
    price_key,
    seating_times,
    work_times,
)

MAX_NAME_CHARS = 60
MAX_NOTE_CHARS = 200
MAX_PARTY = 12
MAX_LIST_QUANTITY = 50
UNITS = tuple(data.VOLUME_ML) + tuple(data.MASS_G)
ACTIVITY_FACTORS: dict[str, dict[str, float]] = {
    "dog": {"low": 1.4, "normal": 1.6, "high": 2.0},
    "cat": {"low": 1.0, "normal": 1.2, "high": 1.4},
    "rabbit": {"low": 1.1, "normal": 1.3, "high": 1.5},
}
WORK_END_TEXT = "17:00"
YOUNG_FACTOR = 1.25  # animals under one year old need more energy per kg


def _life(world: World) -> LifestyleWorld:
    return cast(LifestyleWorld, world)


# -- shared resolution and parsing --------------------------------------------------------


def _resolve(
    rows: dict[str, Any], value: Any, name_field: str, entity: str, param: str, hint: str
) -> Any:
    """The row a name-or-id parameter names: an id in any case, or the exact name."""
    if not isinstance(value, str) or not value.strip():
        raise unprocessable(f"{param} must be a non-empty string")
    key = find_key(rows, value)
    if key is not None:
        return rows[key]
    wanted = value.strip().casefold()
    found = [r for r in rows.values() if getattr(r, name_field).casefold() == wanted]
    if not found:
        raise not_found(entity, value)
    if len(found) > 1:  # pragma: no cover - names are unique in generated worlds
        raise conflict(f"{entity} name '{value}' is ambiguous; {hint}")
    return found[0]


def resolve_store(world: World, value: Any, param: str = "store") -> Store:
    """The store a ``store`` parameter names (id or name)."""
    hint = "pass the store_id"
    return cast(Store, _resolve(_life(world).stores, value, "name", "Store", param, hint))


def resolve_item(world: World, value: Any, param: str = "item") -> Item:
    """The item an ``item`` parameter names (id or exact product name)."""
    hint = "pass the item_id from search_items"
    return cast(Item, _resolve(_life(world).items, value, "name", "Item", param, hint))


def resolve_recipe(world: World, value: Any, param: str = "recipe") -> Recipe:
    """The recipe a ``recipe`` parameter names (id or exact title)."""
    hint = "pass the recipe_id from search_recipes"
    return cast(Recipe, _resolve(_life(world).recipes, value, "name", "Recipe", param, hint))


def resolve_restaurant(world: World, value: Any, param: str = "restaurant") -> Restaurant:
    """The restaurant a ``restaurant`` parameter names (id or exact name)."""
    hint = "pass the restaurant_id from search_restaurants"
    rows = _life(world).restaurants
    return cast(Restaurant, _resolve(rows, value, "name", "Restaurant", param, hint))


def resolve_provider(world: World, value: Any, param: str = "provider") -> Provider:
    """The provider a ``provider`` parameter names (id or exact name)."""
    hint = "pass the provider_id from search_providers"
    rows = _life(world).providers
    return cast(Provider, _resolve(rows, value, "name", "Provider", param, hint))


def resolve_pet(world: World, value: Any, param: str = "pet") -> Pet:
    """The pet a ``pet`` parameter names (id or name)."""
    hint = "pass the pet_id from list_pets"
    return cast(Pet, _resolve(_life(world).pets, value, "name", "Pet", param, hint))


def resolve_plant(world: World, value: Any, param: str = "plant") -> Plant:
    """The plant a ``plant`` parameter names (id or nickname)."""
    hint = "pass the plant_id from list_plants"
    return cast(Plant, _resolve(_life(world).plants, value, "nickname", "Plant", param, hint))


def resolve_chore(world: World, value: Any, param: str = "chore") -> Chore:
    """The chore a ``chore`` parameter names (id or name)."""
    hint = "pass the chore_id from list_chores"
    return cast(Chore, _resolve(_life(world).chores, value, "name", "Chore", param, hint))


def resolve_contact(world: World, value: Any, param: str = "contact") -> Contact:
    """The contact a ``contact`` parameter names (id or full name)."""
    hint = "pass the contact_id from list_contacts"
    rows = _life(world).contacts
    return cast(Contact, _resolve(rows, value, "name", "Contact", param, hint))


def _iso_day(value: Any, param: str) -> date:
    if not isinstance(value, str):
        raise unprocessable(f"{param} must be a date written YYYY-MM-DD")
    day = calendar_date(value.strip())
    if day is None:
        raise unprocessable(f"{param} must be a valid date written YYYY-MM-DD, got '{value}'")
    return day


def _ahead(world: World, day: date, param: str, days: int = BOOKING_DAYS_AHEAD) -> None:
    today = _life(world).today()
    if day < today:
        raise unprocessable(f"{param} {day.isoformat()} is in the past")
    if day > today + timedelta(days=days):
        raise unprocessable(f"{param} can be at most {days} days from today")


def _done_day(
    world: World, value: Any, param: str, last: str, since: str = "the last time it was done"
) -> date:
    """The day something was done: not in the future, nor before it was last done."""
    day = _iso_day(value, param)
    if day > _life(world).today():
        raise unprocessable(f"{param} {day.isoformat()} is in the future")
    if day.isoformat() < last:
        raise unprocessable(f"{param} is before {since} ({last})")
    return day


def _contains(value: str | None, have: str) -> bool:
    return value is None or value.strip().casefold() in have.casefold()


def _same(value: str | None, have: str) -> bool:
    return value is None or value.strip().casefold() == have.casefold()


def _ranked(rows: Iterable[Any], query: str | None, name_field: str = "name") -> list[Any]:
    """Rows whose name contains ``query``, an exact match first, then by name."""
    wanted = (query or "").strip().casefold()
    found = [r for r in rows if wanted in getattr(r, name_field).casefold()]
    return sorted(
        found, key=lambda r: (getattr(r, name_field).casefold() != wanted, getattr(r, name_field))
    )


# -- groceries -------------------------------------------------------------------------------


def _item_view(world: World, row: Row) -> dict[str, Any]:
    return row_json(row)


search_items = shapes.search(
    "search_items",
    "items",
    "Search the grocery catalog by product name; use it to find the item_id other tools "
    "accept. Every filter given must match. Each item has item_id, name, category, "
    "package_size and package_unit (one package: g, ml, l or each), grams_per_cup (weight "
    "of one US cup, for baking staples; null otherwise) and kcal_per_100g (pet foods; "
    "null otherwise). Sorted by name; up to 50 in 'results', with 'count' and 'total'.",
    [
        Filter("query", "name", "Part of the product name (case-insensitive).", op="contains"),
        Filter(
            "category",
            "category",
            "Only items of this category.",
            schema=enum_schema(data.ITEM_CATEGORIES),
        ),
    ],
    sort_by="name",
    limit=50,
)


def _price(world: World, source: shapes.Source, store: str, item: str) -> dict[str, Any]:
    w = _life(world)
    st = resolve_store(w, store)
    it = resolve_item(w, item)
    row = w.table(source.table).get(price_key(st.store_id, it.item_id))
    if row is None:  # pragma: no cover - every store prices every item
        raise not_found("Price", f"{st.store_id}:{it.item_id}")
    extra = {k: v for k, v in row_json(row).items() if k not in ("store_id", "item_id")}
    return {
        "store_id": st.store_id,
        "store_name": st.name,
        "item_id": it.item_id,
        "item_name": it.name,
        "package_size": it.package_size,
        "package_unit": it.package_unit,
        **extra,
        "source": source.name,
    }


_PRICE_ARGS = """
    Args:
        world: The lifestyle services (not shown to the agent).
        store: The store id (e.g. 'ST-42') or its name, e.g. 'FreshMart'.
        item: The item id (e.g. 'ITM-123') or the exact product name, e.g. 'Whole milk'.
"""


get_item_price, compare_item_price, get_receipt_price = shapes.source_tools(
    _price,
    _PRICE_ARGS,
    shapes.Source(
        "get_item_price",
        "prices",
        data.PRICE_CATALOG,
        """The shelf price of one item at one store, from the store's own catalog.

    The store catalog is authoritative: when price services disagree, its price
    prevails. Returns store_id, store_name, item_id, item_name, package_size and
    package_unit (one package), price_usd (US dollars per package), as_of (UTC time the
    price was last updated), on_sale and source. ShelfScout (compare_item_price) and
    ReceiptPal (get_receipt_price) report the same price independently; if this service
    is unavailable, compare_item_price serves the same facts under the same keys.
    """,
    ),
    shapes.Source(
        "compare_item_price",
        "price_compare",
        data.PRICE_COMPARE,
        """The price of one item at one store according to the ShelfScout comparison site.

    An independent second source for get_item_price with the same keys: store_id,
    store_name, item_id, item_name, package_size, package_unit, price_usd (US dollars per
    package), as_of (UTC time ShelfScout last checked the shelf) and source, plus its own
    listing_rank. The store catalog (get_item_price) is authoritative where they disagree.
    """,
    ),
    shapes.Source(
        "get_receipt_price",
        "price_receipts",
        data.PRICE_RECEIPTS,
        """The price of one item at one store as seen on shoppers' receipts (ReceiptPal).

    A third independent source with the same keys as get_item_price: store_id,
    store_name, item_id, item_name, package_size, package_unit, price_usd (US dollars per
    package), as_of (UTC time of the latest receipt) and source, plus receipt_count. The
    store catalog (get_item_price) is authoritative where they disagree.
    """,
    ),
)


@tool()
def list_pantry(
    world: LifestyleWorld,
    category: Literal["produce", "dairy", "pantry", "meat"] | None = None,
    expiring_within_days: int | None = None,
) -> dict[str, Any]:
    """List what is in the household pantry, soonest expiry first.

    Each entry has item_id, item_name, category, quantity and unit (what is left, in the
    item's package unit), expires_on (YYYY-MM-DD) and days_left (from today; negative if
    expired). Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        category: Only items of this category.
        expiring_within_days: Only items expiring within this many days from today (0 to 365).
    """
    today = world.today()
    if expiring_within_days is not None:
        int_arg(expiring_within_days, "expiring_within_days", 0, 365)
    out = []
    for entry in world.pantry.values():
        item = world.items[entry.item_id]
        left = (date.fromisoformat(entry.expires_on) - today).days if entry.expires_on else None
        if category is not None and item.category != category:
            continue
        if expiring_within_days is not None and (left is None or left > expiring_within_days):
            continue
        out.append(
            {
                "item_id": item.item_id,
                "item_name": item.name,
                "category": item.category,
                "quantity": entry.quantity,
                "unit": entry.unit,
                "expires_on": entry.expires_on,
                "days_left": left,
            }
        )
    out.sort(key=lambda e: (e["expires_on"] or "9999", e["item_name"]))
    return listing(out, 50, lambda e: e)


def _list_view(world: World, row: Row) -> dict[str, Any]:
    w = _life(world)
    lst = cast(ShoppingList, row)
    return {
        **row_json(lst),
        "store_name": w.stores[lst.store_id].name,
        "entry_count": sum(e.list_id == lst.list_id for e in w.list_entries.values()),
    }


list_shopping_lists = shapes.search(
    "list_shopping_lists",
    "shopping_lists",
    "List the household's shopping lists, sorted by list_id (the order they were made). "
    "Each has list_id, name, store_id "
    "and store_name (where the list is meant to be bought), created_at (UTC) and "
    "entry_count. Up to 50 in 'results', with 'count' and 'total'. get_shopping_list "
    "shows one list's entries and cost.",
    [Filter("name_contains", "name", "Part of the list name (case-insensitive).", op="contains")],
    view=_list_view,
    sort_by="list_id",
    limit=50,
)


def _entry_view(world: World, entry: ListEntry) -> dict[str, Any]:
    return {
        "entry_id": entry.entry_id,
        "list_id": entry.list_id,
        "item_id": entry.item_id,
        "item_name": _life(world).items[entry.item_id].name,
        "quantity": entry.quantity,
    }


@tool()
def get_shopping_list(
    world: LifestyleWorld, list_id: str, store: str | None = None
) -> dict[str, Any]:
    """One shopping list with each entry priced at a store, and the list's total cost.

    Prices come from the store catalog. Without store, the list's own store is used; give
    another store to see what the same list would cost there. Returns list_id, name,
    store_id and store_name (the list's store), priced_store_id and priced_store_name,
    'entries' (entry_id, list_id, item_id, item_name, quantity in packages,
    unit_price_usd and line_total_usd, oldest first), entry_count and total_usd (US
    dollars, before delivery).

    Args:
        world: The lifestyle services (not shown to the agent).
        list_id: The list id, e.g. 'LST-00002' (from list_shopping_lists).
        store: Price the list at this store instead (id or name, e.g. 'Corner Grocer').
    """
    key = stored_key(world.shopping_lists, list_id, "Shopping list")
    lst = world.shopping_lists[key]
    priced = resolve_store(world, store) if store is not None else world.stores[lst.store_id]
    entries = []
    total = dec(0)
    for entry in sorted(world.list_entries.values(), key=lambda e: e.entry_id):
        if entry.list_id != key:
            continue
        unit = world.prices[price_key(priced.store_id, entry.item_id)].price_usd
        line = dec(unit) * entry.quantity
        total += line
        entries.append(
            {**_entry_view(world, entry), "unit_price_usd": unit, "line_total_usd": money(line)}
        )
    return {
        "list_id": key,
        "name": lst.name,
        "store_id": lst.store_id,
        "store_name": world.stores[lst.store_id].name,
        "priced_store_id": priced.store_id,
        "priced_store_name": priced.name,
        "entries": entries,
        "entry_count": len(entries),
        "total_usd": money(total),
    }


def _build_list(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _life(world)
    name = bounded_text(args["name"], "name", MAX_NAME_CHARS)
    store = resolve_store(w, args["store"])
    for other in w.shopping_lists.values():
        if other.name.casefold() == name.casefold():
            raise conflict(
                f"A shopping list named '{other.name}' already exists ({other.list_id})",
                list_id=other.list_id,
            )
    list_id = w.next_id("LST")
    row = ShoppingList(
        list_id=list_id, name=name, store_id=store.store_id, created_at=stamp(w.now())
    )
    return list_id, row


create_shopping_list = shapes.create(
    "create_shopping_list",
    "shopping_lists",
    "Create an empty shopping list for a store. Names are unique (case-insensitive, at "
    f"most {MAX_NAME_CHARS} characters; 409 otherwise). Returns the list: list_id, name, "
    "store_id, store_name, created_at and entry_count. Add items with add_list_item.",
    [
        Param("name", {"type": "string"}, "The list name, e.g. 'Sunday brunch'."),
        Param("store", {"type": "string"}, "The store id or name, e.g. 'FreshMart'."),
    ],
    _build_list,
    view=_list_view,
)


@tool(ToolKind.WRITE)
def add_list_item(
    world: LifestyleWorld, list_id: str, item: str, quantity: int = 1
) -> dict[str, Any]:
    """Add an item to a shopping list, as a number of packages.

    An item can be on a list only once (409 otherwise). Returns the new entry: entry_id,
    list_id, item_id, item_name and quantity.

    Args:
        world: The lifestyle services (not shown to the agent).
        list_id: The list id, e.g. 'LST-00002'.
        item: The item id (e.g. 'ITM-123') or the exact product name.
        quantity: How many packages, 1 to 50 (default 1).
    """
    key = stored_key(world.shopping_lists, list_id, "Shopping list")
    it = resolve_item(world, item)
    quantity = int_arg(quantity, "quantity", 1, MAX_LIST_QUANTITY)
    for entry in world.list_entries.values():
        if entry.list_id == key and entry.item_id == it.item_id:
            raise conflict(
                f"{it.name} is already on list {key} ({entry.entry_id})", entry_id=entry.entry_id
            )
    entry_id = world.next_id("ENT")
    row = ListEntry(entry_id=entry_id, list_id=key, item_id=it.item_id, quantity=quantity)
    world.insert("list_entries", entry_id, row)
    return _entry_view(world, row)


# -- recipes ---------------------------------------------------------------------------------


def _recipe_summary(recipe: Recipe) -> dict[str, Any]:
    return {
        "recipe_id": recipe.recipe_id,
        "name": recipe.name,
        "cuisine": recipe.cuisine,
        "servings": recipe.servings,
        "prep_minutes": recipe.prep_minutes,
        "cook_minutes": recipe.cook_minutes,
        "total_minutes": recipe.prep_minutes + recipe.cook_minutes,
        "kcal_per_serving": recipe.kcal_per_serving,
    }


@tool()
def search_recipes(
    world: LifestyleWorld,
    query: str | None = None,
    cuisine: str | None = None,
    max_total_minutes: int | None = None,
) -> dict[str, Any]:
    """Search the household recipe box; use it to find the recipe_id other tools accept.

    Every filter given must match. Each recipe has recipe_id, name, cuisine, servings,
    prep_minutes, cook_minutes, total_minutes and kcal_per_serving. An exact title match
    comes first, then by name; up to 30 in 'results', with 'count' and 'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        query: Part of the recipe title (case-insensitive).
        cuisine: Only recipes of this cuisine, e.g. 'italian'.
        max_total_minutes: Only recipes ready (prep plus cooking) within this many minutes.
    """
    rows = [r for r in _ranked(world.recipes.values(), query) if _same(cuisine, r.cuisine)]
    if max_total_minutes is not None:
        rows = [r for r in rows if r.prep_minutes + r.cook_minutes <= max_total_minutes]
    return listing(rows, 30, _recipe_summary)


def _ingredients(recipe: Recipe, factor: float) -> list[dict[str, Any]]:
    return [
        {
            "item_id": ing.item_id,
            "name": ing.name,
            "quantity": round(ing.quantity * factor, 2),
            "unit": ing.unit,
        }
        for ing in recipe.ingredients
    ]


@tool()
def get_recipe(world: LifestyleWorld, recipe: str) -> dict[str, Any]:
    """One recipe in full: its summary and its ingredients.

    Returns recipe_id, name, cuisine, servings, prep_minutes, cook_minutes,
    total_minutes, kcal_per_serving and 'ingredients' (item_id, name, quantity, unit: g,
    ml, cup, tbsp, tsp or each).

    Args:
        world: The lifestyle services (not shown to the agent).
        recipe: The recipe id (e.g. 'RCP-123') or its exact title, e.g. 'Banana Bread'.
    """
    found = resolve_recipe(world, recipe)
    return {**_recipe_summary(found), "ingredients": _ingredients(found, 1.0)}


def _scaled(world: World, recipe: Any, servings: Any, names: tuple[str, str]) -> dict[str, Any]:
    found = resolve_recipe(world, recipe, names[0])
    servings = int_arg(servings, names[1], 1, 100)
    factor = servings / found.servings
    return {
        "recipe_id": found.recipe_id,
        "name": found.name,
        "original_servings": found.servings,
        "servings": servings,
        "factor": round(factor, 4),
        "total_kcal": found.kcal_per_serving * servings,
        "ingredients": _ingredients(found, factor),
    }


@tool()
def scale_recipe(world: LifestyleWorld, recipe: str, servings: int) -> dict[str, Any]:
    """Scale a recipe's ingredients to a number of servings.

    Every quantity is multiplied by servings / original servings and rounded to 2
    decimals, in the recipe's own units. Returns recipe_id, name, original_servings,
    servings, factor, total_kcal (for all servings) and 'ingredients' (item_id, name,
    quantity, unit). scale_recipe_v2 is the newer version; this one still works.

    Args:
        world: The lifestyle services (not shown to the agent).
        recipe: The recipe id (e.g. 'RCP-123') or its exact title.
        servings: How many servings to make, 1 to 100.
    """
    return _scaled(world, recipe, servings, ("recipe", "servings"))


@tool(name="scale_recipe_v2")
def scale_recipe_v2(world: LifestyleWorld, recipe_ref: str, target_servings: int) -> dict[str, Any]:
    """Version 2 of scale_recipe: the same scaling with renamed parameters.

    Takes recipe_ref (was recipe) and target_servings (was servings); returns the keys
    scale_recipe returns: recipe_id, name, original_servings, servings, factor,
    total_kcal and 'ingredients'.

    Args:
        world: The lifestyle services (not shown to the agent).
        recipe_ref: The recipe id (e.g. 'RCP-123') or its exact title.
        target_servings: How many servings to make, 1 to 100.
    """
    return _scaled(world, recipe_ref, target_servings, ("recipe_ref", "target_servings"))


def _convert(
    world: World, quantity: Any, source: Any, target: Any, ingredient: Any, names: tuple[str, ...]
) -> dict[str, Any]:
    if not is_number(quantity) or not 0 < quantity <= 1_000_000:
        raise unprocessable(f"{names[0]} must be a number above 0 and at most 1000000")
    for unit, param in ((source, names[1]), (target, names[2])):
        if unit not in UNITS:
            raise unprocessable(f"{param} must be one of: {', '.join(UNITS)}")
    grams_per_cup: float | None = None
    item_name = None
    if ingredient is not None:
        item = resolve_item(world, ingredient, names[3])
        grams_per_cup, item_name = item.grams_per_cup, item.name
    if source in data.VOLUME_ML and target in data.VOLUME_ML:
        result = quantity * data.VOLUME_ML[source] / data.VOLUME_ML[target]
    elif source in data.MASS_G and target in data.MASS_G:
        result = quantity * data.MASS_G[source] / data.MASS_G[target]
    else:
        if grams_per_cup is None:
            raise unprocessable(
                "converting between volume and weight needs an ingredient with a known "
                "grams_per_cup (a baking staple such as 'All-purpose flour')"
            )
        g_per_ml = grams_per_cup / data.VOLUME_ML["cup"]
        if source in data.VOLUME_ML:
            grams = quantity * data.VOLUME_ML[source] * g_per_ml
            result = grams / data.MASS_G[target]
        else:
            ml = quantity * data.MASS_G[source] / g_per_ml
            result = ml / data.VOLUME_ML[target]
    return {
        "quantity": quantity,
        "from_unit": source,
        "to_unit": target,
        "converted_quantity": round(result, 2),
        "ingredient": item_name,
        "grams_per_cup": grams_per_cup,
    }


@tool()
def convert_units(
    world: LifestyleWorld,
    quantity: float,
    from_unit: Literal["ml", "l", "tsp", "tbsp", "fl_oz", "cup", "g", "kg", "oz", "lb"],
    to_unit: Literal["ml", "l", "tsp", "tbsp", "fl_oz", "cup", "g", "kg", "oz", "lb"],
    ingredient: str | None = None,
) -> dict[str, Any]:
    """Convert a kitchen quantity between units (US customary cups, spoons and ounces).

    Volume to volume and weight to weight need no ingredient; volume to weight (e.g. cups
    of flour to grams) needs the ingredient, whose grams_per_cup is used. Returns
    quantity, from_unit, to_unit, converted_quantity (2 decimals), ingredient (its name,
    or null) and grams_per_cup (or null). convert_units_v2 is the newer version; this one
    still works.

    Args:
        world: The lifestyle services (not shown to the agent).
        quantity: The amount to convert, above 0.
        from_unit: The unit the amount is in.
        to_unit: The unit wanted.
        ingredient: The item id or exact product name, needed between volume and weight.
    """
    names = ("quantity", "from_unit", "to_unit", "ingredient")
    return _convert(world, quantity, from_unit, to_unit, ingredient, names)


@tool(name="convert_units_v2")
def convert_units_v2(
    world: LifestyleWorld,
    amount: float,
    source_unit: Literal["ml", "l", "tsp", "tbsp", "fl_oz", "cup", "g", "kg", "oz", "lb"],
    target_unit: Literal["ml", "l", "tsp", "tbsp", "fl_oz", "cup", "g", "kg", "oz", "lb"],
    ingredient: str | None = None,
) -> dict[str, Any]:
    """Version 2 of convert_units: the same conversion with renamed parameters.

    Takes amount (was quantity), source_unit (was from_unit) and target_unit (was
    to_unit); returns the keys convert_units returns: quantity, from_unit, to_unit,
    converted_quantity, ingredient and grams_per_cup.

    Args:
        world: The lifestyle services (not shown to the agent).
        amount: The amount to convert, above 0.
        source_unit: The unit the amount is in.
        target_unit: The unit wanted.
        ingredient: The item id or exact product name, needed between volume and weight.
    """
    names = ("amount", "source_unit", "target_unit", "ingredient")
    return _convert(world, amount, source_unit, target_unit, ingredient, names)


# -- ratings (restaurants and providers) --------------------------------------------------------


def _rating(world: World, source: shapes.Source, business: str) -> dict[str, Any]:
    w = _life(world)
    if not isinstance(business, str) or not business.strip():
        raise unprocessable("business must be a non-empty string")
    try:
        rest = resolve_restaurant(w, business, "business")
        kind, business_id, name = "restaurant", rest.restaurant_id, rest.name
    except ToolError as error:
        if error.code != 404:
            raise
        prov = resolve_provider(w, business, "business")
        kind, business_id, name = "provider", prov.provider_id, prov.name
    rating = w.table(source.table)[business_id]
    return {
        "business_id": business_id,
        "name": name,
        "kind": kind,
        "rating_stars": rating.rating_stars,
        "review_count": rating.review_count,
        "as_of": rating.as_of,
        "source": source.name,
    }


_RATING_ARGS = """
    Args:
        world: The lifestyle services (not shown to the agent).
        business: A restaurant id ('RST-123') or provider id ('PRO-123'), or its exact name.
"""


get_rating_locallens, get_rating_starboard, get_rating_towntalk = shapes.source_tools(
    _rating,
    _RATING_ARGS,
    shapes.Source(
        "get_rating_locallens",
        "ratings_locallens",
        data.RATING_LOCALLENS,
        """The LocalLens rating of a restaurant or a service provider, from verified visits.

    LocalLens is the authoritative guide: when rating guides disagree, its rating
    prevails. StarBoard (get_rating_starboard) and TownTalk (get_rating_towntalk) rate the
    same businesses independently; if LocalLens is unavailable, get_rating_starboard
    serves the same facts under the same keys. Returns business_id, name, kind
    ('restaurant' or 'provider'), rating_stars (out of 5), review_count, as_of (UTC time
    the rating was last updated) and source.
    """,
    ),
    shapes.Source(
        "get_rating_starboard",
        "ratings_starboard",
        data.RATING_STARBOARD,
        """The StarBoard rating of a restaurant or a service provider.

    An independent second rating guide with the same keys as get_rating_locallens:
    business_id, name, kind, rating_stars (out of 5), review_count, as_of (UTC) and
    source. LocalLens (get_rating_locallens) is authoritative where they disagree.
    """,
    ),
    shapes.Source(
        "get_rating_towntalk",
        "ratings_towntalk",
        data.RATING_TOWNTALK,
        """The TownTalk community rating of a restaurant or a service provider.

    A third independent rating guide with the same keys as get_rating_locallens:
    business_id, name, kind, rating_stars (out of 5), review_count, as_of (UTC) and
    source. LocalLens (get_rating_locallens) is authoritative where they disagree.
    """,
    ),
)


# -- restaurants and reservations -------------------------------------------------------------


@tool()
def search_restaurants(
    world: LifestyleWorld,
    query: str | None = None,
    cuisine: str | None = None,
    neighborhood: str | None = None,
    max_price_level: int | None = None,
) -> dict[str, Any]:
    """Search restaurants; use it to find the restaurant_id other tools accept.

    Every filter given must match. Each restaurant has restaurant_id, name, cuisine,
    neighborhood, price_level (1 to 4, cheap to expensive), distance_km (from home,
    kilometres), opens_at and closes_at (HH:MM, local time) and closed_on (a weekday it is
    closed, or null). An exact name match comes first, then by name; up to 40 in
    'results', with 'count' and 'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        query: Part of the restaurant name (case-insensitive).
        cuisine: Only restaurants of this cuisine, e.g. 'thai'.
        neighborhood: Only restaurants in this neighborhood, e.g. 'Old Town'.
        max_price_level: Only restaurants at or below this price level (1 to 4).
    """
    rows = [
        r
        for r in _ranked(world.restaurants.values(), query)
        if _same(cuisine, r.cuisine) and _same(neighborhood, r.neighborhood)
    ]
    if max_price_level is not None:
        rows = [r for r in rows if r.price_level <= max_price_level]
    return listing(
        rows, 40, lambda r: {k: v for k, v in row_json(r).items() if k != "seats_per_slot"}
    )


def _booked_seats(world: LifestyleWorld, restaurant_id: str, day: str, time: str) -> int:
    return sum(
        r.party_size
        for r in world.reservations.values()
        if r.restaurant_id == restaurant_id
        and r.date == day
        and r.time == time
        and r.status == "confirmed"
    )


def _free_times(world: LifestyleWorld, rest: Restaurant, day: date, party: int) -> list[str]:
    if rest.closed_on == WEEKDAYS[day.weekday()]:
        return []
    iso = day.isoformat()
    return [
        t
        for t in seating_times(rest)
        if _booked_seats(world, rest.restaurant_id, iso, t) + party <= rest.seats_per_slot
    ]


@tool()
def check_table_availability(
    world: LifestyleWorld, restaurant: str, date: str, party_size: int = 2
) -> dict[str, Any]:
    """The reservation times still free at a restaurant on a day for a party.

    Slots are every 30 minutes from opening until 90 minutes before closing. Returns
    restaurant_id, name, date, weekday, party_size, open (false on its closing day),
    available_times (HH:MM, earliest first) and first_available_time (null if none).

    Args:
        world: The lifestyle services (not shown to the agent).
        restaurant: The restaurant id (e.g. 'RST-123') or its exact name.
        date: The day, YYYY-MM-DD, from today up to 60 days ahead.
        party_size: How many people, 1 to 12 (default 2).
    """
    rest = resolve_restaurant(world, restaurant)
    day = _iso_day(date, "date")
    _ahead(world, day, "date")
    party = int_arg(party_size, "party_size", 1, MAX_PARTY)
    times = _free_times(world, rest, day, party)
    return {
        "restaurant_id": rest.restaurant_id,
        "name": rest.name,
        "date": day.isoformat(),
        "weekday": WEEKDAYS[day.weekday()],
        "party_size": party,
        "open": rest.closed_on != WEEKDAYS[day.weekday()],
        "available_times": times,
        "first_available_time": times[0] if times else None,
    }


def _reservation_view(world: World, row: Row) -> dict[str, Any]:
    res = cast(Reservation, row)
    return {**row_json(res), "restaurant_name": _life(world).restaurants[res.restaurant_id].name}


@tool()
def list_reservations(
    world: LifestyleWorld,
    restaurant: str | None = None,
    status: Literal["confirmed", "cancelled", "completed"] | None = None,
    date: str | None = None,
) -> dict[str, Any]:
    """List table reservations, oldest first. Every filter given must match.

    Each has reservation_id, restaurant_id, restaurant_name, date (YYYY-MM-DD), time
    (HH:MM), party_size, guest_name, status (confirmed, cancelled, completed) and
    created_at (UTC). Up to 100 in 'results', with 'count' and 'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        restaurant: Only reservations at this restaurant (id or exact name).
        status: Only reservations in this status.
        date: Only reservations on this day, YYYY-MM-DD.
    """
    rows = shapes.filtered_rows(
        world.reservations.values(),
        "reservation_id",
        shapes.Only(
            "restaurant_id", restaurant, lambda v: resolve_restaurant(world, v).restaurant_id
        ),
        shapes.Only("status", status),
        shapes.Only("date", date, lambda v: _iso_day(v, "date").isoformat()),
    )
    return listing(rows, 100, lambda r: _reservation_view(world, r))


def _build_reservation(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _life(world)
    rest = resolve_restaurant(w, args["restaurant"])
    day = _iso_day(args["date"], "date")
    _ahead(w, day, "date")
    time = hhmm(clock_arg(args["time"], "time"))
    party = int_arg(args["party_size"], "party_size", 1, MAX_PARTY)
    guest = bounded_text(args["guest_name"], "guest_name", MAX_NAME_CHARS)
    if rest.closed_on == WEEKDAYS[day.weekday()]:
        raise unprocessable(f"{rest.name} is closed on {rest.closed_on}s")
    if time not in seating_times(rest):
        raise unprocessable(
            f"{rest.name} seats guests every 30 minutes from {rest.opens_at} until 90 minutes "
            f"before closing ({rest.closes_at}); {time} is not a seating time"
        )
    if _booked_seats(w, rest.restaurant_id, day.isoformat(), time) + party > rest.seats_per_slot:
        raise conflict(f"{rest.name} has no table for {party} at {time} on {day.isoformat()}")
    reservation_id = w.next_id("RES")
    row = Reservation(
        reservation_id=reservation_id,
        restaurant_id=rest.restaurant_id,
        date=day.isoformat(),
        time=time,
        party_size=party,
        guest_name=guest,
        status="confirmed",
        created_at=stamp(w.now()),
    )
    return reservation_id, row


create_reservation = shapes.create(
    "create_reservation",
    "reservations",
    "Reserve a table. The time must be one of the restaurant's free seating times (see "
    "check_table_availability): 422 if it is closed that day or the time is not a seating "
    "time, 409 if the slot has no room for the party. Returns the reservation: "
    "reservation_id, restaurant_id, restaurant_name, date, time, party_size, guest_name, "
    "status and created_at.",
    [
        Param("restaurant", {"type": "string"}, "The restaurant id or its exact name."),
        Param("date", {"type": "string"}, "The day, YYYY-MM-DD, up to 60 days ahead."),
        Param("time", {"type": "string"}, "The seating time, HH:MM (24-hour, local)."),
        Param("party_size", {"type": "integer"}, "How many people, 1 to 12."),
        Param("guest_name", {"type": "string"}, "The name the table is held under."),
    ],
    _build_reservation,
    view=_reservation_view,
)


def _cancel_reservation(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    res = cast(Reservation, row)
    if res.status != "confirmed":
        raise conflict(f"Reservation {res.reservation_id} is {res.status} and cannot be cancelled")
    return {"status": "cancelled"}


cancel_reservation = shapes.update(
    "cancel_reservation",
    "reservations",
    "reservation_id",
    "Reservation",
    "Cancel a confirmed reservation (409 if it is already cancelled or completed). Returns "
    "the reservation with status 'cancelled'.",
    "The reservation id, e.g. 'RES-00012'.",
    [],
    _cancel_reservation,
    view=_reservation_view,
)


# -- local services -----------------------------------------------------------------------------


@tool()
def search_providers(
    world: LifestyleWorld,
    query: str | None = None,
    category: Literal[
        "plumbing",
        "hvac",
        "electrical",
        "cleaning",
        "hair salon",
        "lawn care",
        "pet grooming",
        "veterinary",
    ]
    | None = None,
    neighborhood: str | None = None,
) -> dict[str, Any]:
    """Search local service providers; use it to find the provider_id other tools accept.

    Every filter given must match. Each provider has provider_id, name, category,
    neighborhood, phone, works_saturday (weekday hours are 09:00-17:00; closed Sundays)
    and callout_fee_usd (US dollars added to every booking). An exact name match comes
    first, then by name; up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        query: Part of the provider name (case-insensitive).
        category: Only providers of this category.
        neighborhood: Only providers based in this neighborhood, e.g. 'Northside'.
    """
    rows = [
        r
        for r in _ranked(world.providers.values(), query)
        if (category is None or r.category == category) and _same(neighborhood, r.neighborhood)
    ]
    return listing(rows, 50, row_json)


def _works_on(provider: Provider, day: date) -> bool:
    return day.weekday() < 5 or (day.weekday() == 5 and provider.works_saturday)


def _busy(world: LifestyleWorld, provider_id: str, day: str) -> list[tuple[int, int]]:
    out = []
    for b in world.bookings.values():
        if b.provider_id == provider_id and b.date == day and b.status == "confirmed":
            start = minutes_of(b.time)
            out.append((start, start + world.services[b.service_id].duration_minutes))
    return out


def _open_times(world: LifestyleWorld, provider: Provider, minutes: int, day: date) -> list[str]:
    if not _works_on(provider, day):
        return []
    busy = _busy(world, provider.provider_id, day.isoformat())
    return [
        t
        for t in work_times(minutes)
        if all(minutes_of(t) + minutes <= start or minutes_of(t) >= end for start, end in busy)
    ]


@tool()
def list_services(world: LifestyleWorld, provider: str, date: str | None = None) -> dict[str, Any]:
    """The services a provider offers, with prices and, for a given day, free start times.

    Returns provider_id, provider_name, category, callout_fee_usd, date (or null) and
    'results': service_id, name, duration_minutes, price_usd (US dollars, before the
    call-out fee) and available_times (HH:MM start times still free that day, when date is
    given; otherwise null), cheapest first, with 'count' and 'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        provider: The provider id (e.g. 'PRO-123') or its exact name.
        date: A day to check free start times, YYYY-MM-DD, up to 400 days ahead.
    """
    prov = resolve_provider(world, provider)
    day = None
    if date is not None:
        day = _iso_day(date, "date")
        _ahead(world, day, "date", SERVICE_DAYS_AHEAD)
    rows = sorted(
        (s for s in world.services.values() if s.provider_id == prov.provider_id),
        key=lambda s: (s.price_usd, s.service_id),
    )

    def view(s: Any) -> dict[str, Any]:
        times = _open_times(world, prov, s.duration_minutes, day) if day else None
        return {
            "service_id": s.service_id,
            "name": s.name,
            "duration_minutes": s.duration_minutes,
            "price_usd": s.price_usd,
            "available_times": times,
        }

    return listing(
        rows,
        20,
        view,
        provider_id=prov.provider_id,
        provider_name=prov.name,
        category=prov.category,
        callout_fee_usd=prov.callout_fee_usd,
        date=day.isoformat() if day else None,
    )


def _booking_view(world: World, row: Row) -> dict[str, Any]:
    w = _life(world)
    b = cast(Booking, row)
    service = w.services[b.service_id]
    provider = w.providers[b.provider_id]
    return {
        **row_json(b),
        "service_name": service.name,
        "provider_name": provider.name,
        "end_time": hhmm(minutes_of(b.time) + service.duration_minutes),
        "total_usd": money(dec(service.price_usd) + dec(provider.callout_fee_usd)),
    }


@tool()
def list_bookings(
    world: LifestyleWorld,
    provider: str | None = None,
    service_id: str | None = None,
    status: Literal["confirmed", "cancelled", "completed"] | None = None,
) -> dict[str, Any]:
    """List service appointments, oldest first. Every filter given must match.

    Each has booking_id, service_id, service_name, provider_id, provider_name, date
    (YYYY-MM-DD), time and end_time (HH:MM), note, status, created_at (UTC) and total_usd
    (price plus call-out fee). Up to 100 in 'results', with 'count' and 'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        provider: Only bookings with this provider (id or exact name).
        service_id: Only bookings of this service, e.g. 'SRV-1234'.
        status: Only bookings in this status.
    """
    rows = shapes.filtered_rows(
        world.bookings.values(),
        "booking_id",
        shapes.Only("provider_id", provider, lambda v: resolve_provider(world, v).provider_id),
        # Unlike the other ids here, an unknown service_id is no 404: it matches no
        # booking (find_key gives None), so the listing comes back empty.
        shapes.Only(
            "service_id",
            service_id,
            lambda v: find_key(world.services, v) if isinstance(v, str) else None,
        ),
        shapes.Only("status", status),
    )
    return listing(rows, 100, lambda b: _booking_view(world, b))


def _build_booking(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _life(world)
    key = stored_key(w.services, args["service_id"], "Service")
    service = w.services[key]
    provider = w.providers[service.provider_id]
    day = _iso_day(args["date"], "date")
    _ahead(w, day, "date", SERVICE_DAYS_AHEAD)
    time = hhmm(clock_arg(args["time"], "time"))
    note = bounded_text(args.get("note"), "note", MAX_NOTE_CHARS, required=False)
    if not _works_on(provider, day):
        raise unprocessable(f"{provider.name} does not work on {WEEKDAYS[day.weekday()]}s")
    if time not in work_times(service.duration_minutes):
        raise unprocessable(
            f"{service.name} must start on the hour or half hour and end by {WORK_END_TEXT}"
        )
    if time not in _open_times(w, provider, service.duration_minutes, day):
        raise conflict(f"{provider.name} is already booked at {time} on {day.isoformat()}")
    booking_id = w.next_id("BKG")
    row = Booking(
        booking_id=booking_id,
        service_id=key,
        provider_id=provider.provider_id,
        date=day.isoformat(),
        time=time,
        note=note,
        status="confirmed",
        created_at=stamp(w.now()),
    )
    return booking_id, row


book_service = shapes.create(
    "book_service",
    "bookings",
    "Book an appointment for a provider's service. Providers work 09:00-17:00 on weekdays "
    "(and Saturdays if works_saturday); the service must start on the hour or half hour, "
    "end by 17:00 and not overlap another booking of the provider (409). Returns the "
    "booking: booking_id, service_id, service_name, provider_id, provider_name, date, "
    "time, end_time, note, status, created_at and total_usd.",
    [
        Param("service_id", {"type": "string"}, "The service id, e.g. 'SRV-1234'."),
        Param("date", {"type": "string"}, "The day, YYYY-MM-DD, up to 400 days ahead."),
        Param("time", {"type": "string"}, "The start time, HH:MM (24-hour)."),
        Param(
            "note",
            {"type": "string"},
            f"A note for the provider, at most {MAX_NOTE_CHARS} characters (default empty).",
            required=False,
        ),
    ],
    _build_booking,
    view=_booking_view,
)


# -- pets ---------------------------------------------------------------------------------------


def _age_years(birth: str, today: date) -> float:
    return round((today - date.fromisoformat(birth)).days / 365.25, 1)


def _pet_view(world: World, row: Row) -> dict[str, Any]:
    w = _life(world)
    pet = cast(Pet, row)
    return {
        **row_json(pet),
        "age_years": _age_years(pet.birth_date, w.today()),
        "food_name": w.items[pet.food_item_id].name,
        "vet_name": w.providers[pet.vet_id].name,
    }


list_pets = shapes.search(
    "list_pets",
    "pets",
    "List the household's pets. Every filter given must match. Each has pet_id, name, "
    "species, breed, birth_date (YYYY-MM-DD), age_years, weight_kg (kilograms), "
    "food_item_id and food_name (the food it eats), vet_id and vet_name (its veterinary "
    "clinic, a provider). Sorted by name; up to 20 in 'results', with 'count' and 'total'.",
    [
        Filter("name", "name", "Part of the pet's name (case-insensitive).", op="contains"),
        Filter(
            "species",
            "species",
            "Only pets of this species.",
            schema=enum_schema(("dog", "cat", "rabbit")),
        ),
    ],
    view=_pet_view,
    sort_by="name",
)


@tool()
def list_vaccinations(world: LifestyleWorld, pet: str) -> dict[str, Any]:
    """A pet's vaccinations and when each booster is due, soonest due first.

    Returns pet_id, pet_name and 'results': vaccination_id, vaccine, given_on
    (YYYY-MM-DD), interval_months, next_due_date (given_on plus the interval),
    days_until_due (negative when overdue) and overdue, with 'count' and 'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        pet: The pet id (e.g. 'PET-03') or its name.
    """
    found = resolve_pet(world, pet)
    today = world.today()
    out = []
    for vac in world.vaccinations.values():
        if vac.pet_id != found.pet_id:
            continue
        due = add_months(date.fromisoformat(vac.given_on), vac.interval_months)
        out.append(
            {
                "vaccination_id": vac.vaccination_id,
                "vaccine": vac.vaccine,
                "given_on": vac.given_on,
                "interval_months": vac.interval_months,
                "next_due_date": due.isoformat(),
                "days_until_due": (due - today).days,
                "overdue": due < today,
            }
        )
    out.sort(key=lambda v: (v["next_due_date"], v["vaccine"]))
    return listing(out, 20, lambda v: v, pet_id=found.pet_id, pet_name=found.name)


@tool()
def compute_food_portion(
    world: LifestyleWorld,
    pet: str,
    activity: Literal["low", "normal", "high"] = "normal",
    meals_per_day: int = 2,
) -> dict[str, Any]:
    """How much of its usual food a pet needs a day, from its weight and activity.

    Energy need is the resting need 70 x weight_kg^0.75 kcal times an activity factor
    (dogs 1.4/1.6/2.0, cats 1.0/1.2/1.4, rabbits 1.1/1.3/1.5 for low/normal/high), times
    1.25 for animals under one year. Returns pet_id, name, weight_kg, food_item_id,
    food_name, kcal_per_100g, daily_kcal, daily_food_g (grams a day), meals_per_day,
    per_meal_g (grams per meal) and bag_days (whole days one package lasts).

    Args:
        world: The lifestyle services (not shown to the agent).
        pet: The pet id (e.g. 'PET-03') or its name.
        activity: The pet's activity level (default normal).
        meals_per_day: How many meals the daily amount is split into, 1 to 4 (default 2).
    """
    found = resolve_pet(world, pet)
    meals = int_arg(meals_per_day, "meals_per_day", 1, 4)
    factors = ACTIVITY_FACTORS[found.species]
    if activity not in factors:
        raise unprocessable(f"activity must be one of: {', '.join(factors)}")
    food = world.items[found.food_item_id]
    kcal_per_100g = food.kcal_per_100g or 0.0
    young = _age_years(found.birth_date, world.today()) < 1
    daily_kcal = 70 * found.weight_kg**0.75 * factors[activity] * (YOUNG_FACTOR if young else 1)
    daily_g = round(daily_kcal / kcal_per_100g * 100, 1)
    return {
        "pet_id": found.pet_id,
        "name": found.name,
        "weight_kg": found.weight_kg,
        "food_item_id": food.item_id,
        "food_name": food.name,
        "kcal_per_100g": kcal_per_100g,
        "daily_kcal": round(daily_kcal, 1),
        "daily_food_g": daily_g,
        "meals_per_day": meals,
        "per_meal_g": round(daily_g / meals, 1),
        "bag_days": math.floor(food.package_size / daily_g),
    }


# -- home maintenance ---------------------------------------------------------------------------


def _task_view(world: World, row: Row) -> dict[str, Any]:
    task = cast(MaintenanceTask, row)
    due = date.fromisoformat(task.last_done) + timedelta(days=task.interval_days)
    left = (due - _life(world).today()).days
    return {
        **row_json(task),
        "next_due": due.isoformat(),
        "days_until_due": left,
        "overdue": left < 0,
    }


@tool()
def list_maintenance_tasks(
    world: LifestyleWorld, appliance: str | None = None, due_within_days: int | None = None
) -> dict[str, Any]:
    """List the home's recurring upkeep tasks and when each is next due, by task_id.

    Each has task_id, appliance, room, task, interval_days, last_done (YYYY-MM-DD),
    next_due (last_done plus the interval), days_until_due (negative when overdue),
    overdue and provider_category (the kind of provider to book, or null for a
    do-it-yourself task). Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        appliance: Only tasks for an appliance whose name contains this (case-insensitive).
        due_within_days: Only tasks due within this many days from today (overdue included).
    """
    rows = sorted(world.maintenance.values(), key=lambda t: t.task_id)
    views = [_task_view(world, t) for t in rows if _contains(appliance, t.appliance)]
    if due_within_days is not None:
        int_arg(due_within_days, "due_within_days", 0, 3650)
        views = [v for v in views if v["days_until_due"] <= due_within_days]
    return listing(views, 50, lambda v: v)


def _complete_task(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    task = cast(MaintenanceTask, row)
    day = _done_day(
        world,
        args["done_on"],
        "done_on",
        task.last_done,
    )
    return {"last_done": day.isoformat()}


complete_maintenance_task = shapes.update(
    "complete_maintenance_task",
    "maintenance",
    "task_id",
    "Maintenance task",
    "Record that an upkeep task was done; its next due date moves to done_on plus the "
    "interval. done_on must not be in the future nor before the previous time. Returns the "
    "task as list_maintenance_tasks shows it (with the new next_due).",
    "The task id, e.g. 'MNT-04'.",
    [Param("done_on", {"type": "string"}, "The day it was done, YYYY-MM-DD.")],
    _complete_task,
    view=_task_view,
)


# -- plants -------------------------------------------------------------------------------------


def _plant_view(world: World, row: Row) -> dict[str, Any]:
    plant = cast(Plant, row)
    today = _life(world).today()
    water = date.fromisoformat(plant.last_watered) + timedelta(days=plant.watering_interval_days)
    feed = date.fromisoformat(plant.last_fertilized) + timedelta(days=plant.fertilize_interval_days)
    return {
        **row_json(plant),
        "next_watering_date": max(water, today).isoformat(),
        "days_overdue": max(0, (today - water).days),
        "next_fertilizing_date": max(feed, today).isoformat(),
    }


list_plants = shapes.search(
    "list_plants",
    "plants",
    "List the household's plants, by plant_id. Every filter given must match. Each has "
    "plant_id, nickname, species, spot, light, watering_interval_days, last_watered, "
    "next_watering_date (today if overdue), days_overdue, fertilize_interval_days, "
    "last_fertilized and next_fertilizing_date (dates YYYY-MM-DD). Up to 50 in 'results', "
    "with 'count' and 'total'.",
    [
        Filter("nickname_contains", "nickname", "Part of the plant's nickname.", op="contains"),
        Filter("spot", "spot", "Only plants in this spot, e.g. 'Balcony'."),
    ],
    view=_plant_view,
    sort_by="plant_id",
    limit=50,
)


@tool()
def get_watering_schedule(world: LifestyleWorld, plant: str, days: int = 14) -> dict[str, Any]:
    """A plant's watering dates over the coming days, from its last watering and interval.

    An overdue plant is due today. Returns plant_id, nickname, watering_interval_days,
    next_watering_date, watering_dates (YYYY-MM-DD within the window, from today),
    waterings_in_window and next_fertilizing_date.

    Args:
        world: The lifestyle services (not shown to the agent).
        plant: The plant id (e.g. 'PLT-04') or its nickname, e.g. 'Kitchen basil'.
        days: The window length in days, from today, 1 to 90 (default 14).
    """
    found = resolve_plant(world, plant)
    window = int_arg(days, "days", 1, 90)
    view = _plant_view(world, found)
    today = world.today()
    first = date.fromisoformat(view["next_watering_date"])
    dates = []
    when = first
    while (when - today).days < window:
        dates.append(when.isoformat())
        when += timedelta(days=found.watering_interval_days)
    return {
        "plant_id": found.plant_id,
        "nickname": found.nickname,
        "watering_interval_days": found.watering_interval_days,
        "next_watering_date": view["next_watering_date"],
        "watering_dates": dates,
        "waterings_in_window": len(dates),
        "next_fertilizing_date": view["next_fertilizing_date"],
    }


@tool(ToolKind.WRITE)
def log_watering(
    world: LifestyleWorld, plant: str, watered_on: str, fertilized: bool = False
) -> dict[str, Any]:
    """Record that a plant was watered (and optionally fed) on a day.

    watered_on must not be in the future nor before the last watering. Returns the plant
    as list_plants shows it, with its new next_watering_date.

    Args:
        world: The lifestyle services (not shown to the agent).
        plant: The plant id (e.g. 'PLT-04') or its nickname.
        watered_on: The day it was watered, YYYY-MM-DD.
        fertilized: Whether it was also given plant food that day (default false).
    """
    found = resolve_plant(world, plant)
    day = _done_day(world, watered_on, "watered_on", found.last_watered, "the last watering")
    changes: dict[str, Any] = {"last_watered": day.isoformat()}
    if fertilized is True:
        changes["last_fertilized"] = day.isoformat()
    return _plant_view(world, world.update("plants", found.plant_id, **changes))


# -- household chores ---------------------------------------------------------------------------


def _chore_view(world: World, row: Row) -> dict[str, Any]:
    w = _life(world)
    chore = cast(Chore, row)
    nxt = chore.rota[chore.next_index]
    due = date.fromisoformat(chore.last_done) + timedelta(days=chore.every_days)
    return {
        "chore_id": chore.chore_id,
        "name": chore.name,
        "every_days": chore.every_days,
        "minutes": chore.minutes,
        "rota": [w.members[m].name for m in chore.rota],
        "next_assignee": w.members[nxt].name,
        "next_assignee_id": nxt,
        "last_done": chore.last_done,
        "next_due": max(due, w.today()).isoformat(),
    }


@tool()
def list_chores(
    world: LifestyleWorld, name_contains: str | None = None, member: str | None = None
) -> dict[str, Any]:
    """List the household chores and whose turn each is, by chore_id.

    Each has chore_id, name, every_days, minutes (per time), rota (member names in turn
    order), next_assignee and next_assignee_id (whose turn is next), last_done and
    next_due (YYYY-MM-DD; today if overdue). Up to 50 in 'results', with 'count' and
    'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        name_contains: Part of the chore name (case-insensitive).
        member: Only chores whose rota includes this member (id like 'MEM-2', or name).
    """
    rows = [c for c in sorted(world.chores.values(), key=lambda c: c.chore_id)]
    rows = [c for c in rows if _contains(name_contains, c.name)]
    if member is not None:
        who = cast(Any, _resolve(world.members, member, "name", "Member", "member", "use an id"))
        rows = [c for c in rows if who.member_id in c.rota]
    return listing(rows, 50, lambda c: _chore_view(world, c))


@tool()
def get_chore_rota(world: LifestyleWorld, chore: str, occurrences: int = 4) -> dict[str, Any]:
    """The upcoming turns of a chore: who does it on which day, in rota order.

    The first turn is on next_due (today if overdue), then every every_days days, each
    going to the next member of the rota. Returns chore_id, name, every_days, minutes,
    'schedule' (date YYYY-MM-DD, member_id, member_name) and minutes_by_member_id (total
    minutes each member spends over the schedule).

    Args:
        world: The lifestyle services (not shown to the agent).
        chore: The chore id (e.g. 'CHR-03') or its exact name.
        occurrences: How many turns to show, 1 to 20 (default 4).
    """
    found = resolve_chore(world, chore)
    count = int_arg(occurrences, "occurrences", 1, 20)
    first = date.fromisoformat(_chore_view(world, found)["next_due"])
    schedule = []
    minutes: dict[str, int] = {}
    for i in range(count):
        member_id = found.rota[(found.next_index + i) % len(found.rota)]
        schedule.append(
            {
                "date": (first + timedelta(days=i * found.every_days)).isoformat(),
                "member_id": member_id,
                "member_name": world.members[member_id].name,
            }
        )
        minutes[member_id] = minutes.get(member_id, 0) + found.minutes
    return {
        "chore_id": found.chore_id,
        "name": found.name,
        "every_days": found.every_days,
        "minutes": found.minutes,
        "schedule": schedule,
        "minutes_by_member_id": dict(sorted(minutes.items())),
    }


@tool(ToolKind.WRITE)
def complete_chore(world: LifestyleWorld, chore: str, done_on: str) -> dict[str, Any]:
    """Record that the member whose turn it was did a chore; the rota moves on.

    done_on must not be in the future nor before the last time. Returns the chore as
    list_chores shows it (new last_done, next_due and next_assignee) plus completed_by.

    Args:
        world: The lifestyle services (not shown to the agent).
        chore: The chore id (e.g. 'CHR-03') or its exact name.
        done_on: The day it was done, YYYY-MM-DD.
    """
    found = resolve_chore(world, chore)
    day = _done_day(
        world,
        done_on,
        "done_on",
        found.last_done,
    )
    by = world.members[found.rota[found.next_index]].name
    new = world.update(
        "chores",
        found.chore_id,
        last_done=day.isoformat(),
        next_index=(found.next_index + 1) % len(found.rota),
    )
    return {**_chore_view(world, new), "completed_by": by}


# -- gifts and occasions ------------------------------------------------------------------------


def _contact_view(world: World, row: Row) -> dict[str, Any]:
    contact = cast(Contact, row)
    today = _life(world).today()
    when, turning = next_birthday(contact.birthday, today)
    return {
        **row_json(contact),
        "next_birthday": when.isoformat(),
        "turning": turning,
        "days_until_birthday": (when - today).days,
    }


@tool()
def list_contacts(
    world: LifestyleWorld,
    name_contains: str | None = None,
    relation: Literal["family", "friend", "colleague", "neighbor"] | None = None,
    birthday_within_days: int | None = None,
) -> dict[str, Any]:
    """List the people the user keeps gift notes for. Every filter given must match.

    Each has contact_id, name, relation, birthday (YYYY-MM-DD, with the birth year),
    favorite_category (a catalog category they like), next_birthday (YYYY-MM-DD, today or
    later), turning (the age they turn then) and days_until_birthday. Sorted by name; up
    to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        name_contains: Part of the person's name (case-insensitive).
        relation: Only people of this relation.
        birthday_within_days: Only people whose next birthday is within this many days.
    """
    rows = sorted(world.contacts.values(), key=lambda c: c.name)
    views = [
        _contact_view(world, c)
        for c in rows
        if _contains(name_contains, c.name) and (relation is None or c.relation == relation)
    ]
    if birthday_within_days is not None:
        int_arg(birthday_within_days, "birthday_within_days", 0, 366)
        views = [v for v in views if v["days_until_birthday"] <= birthday_within_days]
    return listing(views, 50, lambda v: v)


def _occasion_view(world: World, row: Row) -> dict[str, Any]:
    w = _life(world)
    occ = cast(Occasion, row)
    return {
        **row_json(occ),
        "contact_name": w.contacts[occ.contact_id].name,
        "days_until": (date.fromisoformat(occ.date) - w.today()).days,
    }


@tool()
def list_occasions(
    world: LifestyleWorld,
    contact: str | None = None,
    kind: Literal["birthday", "anniversary", "housewarming", "graduation"] | None = None,
) -> dict[str, Any]:
    """List planned occasions, sorted by occasion_id (the order they were planned).

    Every filter given must match.

    Each has occasion_id, contact_id, contact_name, kind, date (YYYY-MM-DD), budget_usd
    (gift budget, US dollars), created_at (UTC) and days_until. Up to 50 in 'results',
    with 'count' and 'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        contact: Only occasions for this person (contact id or full name).
        kind: Only occasions of this kind.
    """
    rows = shapes.filtered_rows(
        world.occasions.values(),
        "occasion_id",
        shapes.Only("contact_id", contact, lambda v: resolve_contact(world, v).contact_id),
        shapes.Only("kind", kind),
    )
    return listing(rows, 50, lambda o: _occasion_view(world, o))


def _build_occasion(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _life(world)
    who = resolve_contact(w, args["contact"])
    kind = args["kind"]
    if kind not in data.OCCASION_KINDS:
        raise unprocessable(f"kind must be one of: {', '.join(data.OCCASION_KINDS)}")
    day = _iso_day(args["date"], "date")
    _ahead(w, day, "date", 366)
    budget = args["budget_usd"]
    if not is_number(budget) or not 0 < budget <= 10_000:
        raise unprocessable("budget_usd must be a number above 0 and at most 10000")
    for other in w.occasions.values():
        if (other.contact_id, other.kind, other.date) == (who.contact_id, kind, day.isoformat()):
            raise conflict(
                f"Occasion {other.occasion_id} already plans this {kind} for {who.name}",
                occasion_id=other.occasion_id,
            )
    occasion_id = w.next_id("OCC")
    row = Occasion(
        occasion_id=occasion_id,
        contact_id=who.contact_id,
        kind=kind,
        date=day.isoformat(),
        budget_usd=money(budget),
        created_at=stamp(w.now()),
    )
    return occasion_id, row


create_occasion = shapes.create(
    "create_occasion",
    "occasions",
    "Plan an occasion (birthday, anniversary, ...) for a contact, with a gift budget. The "
    "date must be from today up to 366 days ahead; 409 if the same occasion is already "
    "planned. Returns the occasion: occasion_id, contact_id, contact_name, kind, date, "
    "budget_usd, created_at and days_until.",
    [
        Param("contact", {"type": "string"}, "The contact id (e.g. 'CON-04') or full name."),
        Param("kind", enum_schema(data.OCCASION_KINDS), "The kind of occasion."),
        Param("date", {"type": "string"}, "The day, YYYY-MM-DD."),
        Param("budget_usd", {"type": "number"}, "The gift budget in US dollars."),
    ],
    _build_occasion,
    view=_occasion_view,
)


def _gift_view(world: World, row: Row) -> dict[str, Any]:
    gift = cast(GiftIdea, row)
    return {**row_json(gift), "item_name": _life(world).items[gift.item_id].name}


@tool()
def list_gift_ideas(world: LifestyleWorld, occasion_id: str) -> dict[str, Any]:
    """The gift ideas noted for one occasion, oldest first.

    Returns 'results' (gift_id, occasion_id, item_id, item_name, note, created_at) with
    'count' and 'total'.

    Args:
        world: The lifestyle services (not shown to the agent).
        occasion_id: The occasion id, e.g. 'OCC-00003'.
    """
    key = stored_key(world.occasions, occasion_id, "Occasion")
    rows = sorted(
        (g for g in world.gift_ideas.values() if g.occasion_id == key), key=lambda g: g.gift_id
    )
    return listing(rows, 50, lambda g: _gift_view(world, g))


@tool(ToolKind.WRITE)
def add_gift_idea(
    world: LifestyleWorld, occasion_id: str, item: str, note: str = ""
) -> dict[str, Any]:
    """Note a catalog item as a gift idea for an occasion.

    An item can be noted once per occasion (409 otherwise). Returns the idea: gift_id,
    occasion_id, item_id, item_name, note and created_at.

    Args:
        world: The lifestyle services (not shown to the agent).
        occasion_id: The occasion id, e.g. 'OCC-00003'.
        item: The item id (e.g. 'ITM-123') or the exact product name.
        note: A note, at most 200 characters (default empty).
    """
    key = stored_key(world.occasions, occasion_id, "Occasion")
    it = resolve_item(world, item)
    text = bounded_text(note, "note", MAX_NOTE_CHARS, required=False)
    for gift in world.gift_ideas.values():
        if gift.occasion_id == key and gift.item_id == it.item_id:
            raise conflict(f"{it.name} is already a gift idea for {key}", gift_id=gift.gift_id)
    gift_id = world.next_id("GFT")
    row = GiftIdea(
        gift_id=gift_id,
        occasion_id=key,
        item_id=it.item_id,
        note=text,
        created_at=stamp(world.now()),
    )
    world.insert("gift_ideas", gift_id, row)
    return _gift_view(world, row)


TOOLS: list[Tool] = [
    search_items,
    get_item_price,
    compare_item_price,
    get_receipt_price,
    list_pantry,
    list_shopping_lists,
    get_shopping_list,
    create_shopping_list,
    add_list_item,
    search_recipes,
    get_recipe,
    scale_recipe,
    scale_recipe_v2,
    convert_units,
    convert_units_v2,
    get_rating_locallens,
    get_rating_starboard,
    get_rating_towntalk,
    search_restaurants,
    check_table_availability,
    list_reservations,
    create_reservation,
    cancel_reservation,
    search_providers,
    list_services,
    list_bookings,
    book_service,
    list_pets,
    list_vaccinations,
    compute_food_portion,
    list_maintenance_tasks,
    complete_maintenance_task,
    list_plants,
    get_watering_schedule,
    log_watering,
    list_chores,
    get_chore_rota,
    complete_chore,
    list_contacts,
    list_occasions,
    create_occasion,
    list_gift_ideas,
    add_gift_idea,
]
