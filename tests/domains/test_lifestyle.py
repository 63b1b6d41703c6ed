"""Tests of the lifestyle domain: the seeded world, the custom logic, writes and notes."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import pairwise
from typing import Any

import pytest

from conftest import DomainTools, forks_of
from toolchaos.core.types import ToolKind
from toolchaos.domains.lifestyle import DOMAIN, PRICE_TOOLS, RATING_TOOLS
from toolchaos.domains.lifestyle.world import LifestyleWorld, add_months, next_birthday

SEED = 7
SEEDS = [0, 1, 7, 42, 2026]
domain_tools = DomainTools(DOMAIN)
call, refused = domain_tools.call, domain_tools.refused


def day(world: LifestyleWorld, offset: int) -> str:
    return (world.now().date() + timedelta(days=offset)).isoformat()


def first(world: LifestyleWorld, table: str, where: Any = None) -> Any:
    rows = world.table(table)
    return next(rows[k] for k in sorted(rows) if where is None or where(rows[k]))


def read_calls(world: LifestyleWorld) -> list[tuple[str, dict[str, Any]]]:
    """One valid call of every READ tool."""
    store, item = first(world, "stores"), first(world, "items")
    rest, prov = first(world, "restaurants"), first(world, "providers")
    pet, plant = first(world, "pets"), first(world, "plants")
    return [
        ("search_items", {"query": "milk"}),
        ("get_item_price", {"store": store.name, "item": item.name}),
        ("compare_item_price", {"store": store.store_id, "item": item.item_id}),
        ("get_receipt_price", {"store": store.store_id, "item": item.item_id}),
        ("list_pantry", {}),
        ("list_shopping_lists", {}),
        ("get_shopping_list", {"list_id": "LST-00001"}),
        ("search_recipes", {"query": "bread"}),
        ("get_recipe", {"recipe": first(world, "recipes").recipe_id}),
        ("scale_recipe", {"recipe": first(world, "recipes").name, "servings": 9}),
        ("scale_recipe_v2", {"recipe_ref": first(world, "recipes").name, "target_servings": 9}),
        ("convert_units", {"quantity": 1, "from_unit": "cup", "to_unit": "ml"}),
        ("convert_units_v2", {"amount": 1, "source_unit": "cup", "target_unit": "ml"}),
        ("get_rating_locallens", {"business": rest.name}),
        ("get_rating_starboard", {"business": prov.provider_id}),
        ("get_rating_towntalk", {"business": rest.restaurant_id}),
        ("search_restaurants", {"cuisine": "thai"}),
        ("check_table_availability", {"restaurant": rest.name, "date": day(world, 3)}),
        ("list_reservations", {}),
        ("search_providers", {"category": "veterinary"}),
        ("list_services", {"provider": prov.name, "date": day(world, 2)}),
        ("list_bookings", {}),
        ("list_pets", {}),
        ("list_vaccinations", {"pet": pet.name}),
        ("compute_food_portion", {"pet": pet.pet_id}),
        ("list_maintenance_tasks", {}),
        ("list_plants", {}),
        ("get_watering_schedule", {"plant": plant.nickname}),
        ("list_chores", {}),
        ("get_chore_rota", {"chore": "CHR-01"}),
        ("list_contacts", {}),
        ("list_occasions", {}),
        ("list_gift_ideas", {"occasion_id": "OCC-00001"}),
    ]


# -- the domain as declared ----------------------------------------------------------------


def test_read_calls_cover_every_read_tool(base: LifestyleWorld) -> None:
    reads = {name for name, t in DOMAIN.tools.items() if t.kind is ToolKind.READ}
    assert {name for name, _ in read_calls(base)} == reads
    assert 25 <= len(DOMAIN.tools) <= 45


def test_read_tools_do_not_change_the_world(world: LifestyleWorld) -> None:
    domain_tools.check_reads_change_nothing(world, read_calls(world))
    for name, result in domain_tools.read_results(world, read_calls(world)):
        assert isinstance(result, dict), name


# -- the seeded world ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_world_tables_are_consistent(seed: int) -> None:
    w = LifestyleWorld.build(seed)
    assert len(w.stores) == 5 and len(w.items) >= 70 and len(w.recipes) >= 20
    assert len(w.restaurants) == 30 and len(w.providers) >= 40
    assert len(w.prices) == len(w.stores) * len(w.items)
    for recipe in w.recipes.values():
        assert all(ing.item_id in w.items for ing in recipe.ingredients)
    names = [r.name.casefold() for r in [*w.restaurants.values(), *w.providers.values()]]
    assert not any(a != b and a in b for a in names for b in names)
    for pet in w.pets.values():
        assert w.items[pet.food_item_id].kcal_per_100g
        assert w.providers[pet.vet_id].category == "veterinary"
    assert w.id_counters["RES"] == len(w.reservations)
    assert w.id_counters["BKG"] == len(w.bookings)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_three_price_services_agree(seed: int) -> None:
    w = LifestyleWorld.build(seed)
    for store in w.stores.values():
        for item in list(w.items.values())[:20]:
            got = [call(w, t, store=store.store_id, item=item.item_id) for t in PRICE_TOOLS]
            assert len({g["price_usd"] for g in got}) == 1
            assert len({g["source"] for g in got}) == 3
            assert all(g["as_of"].endswith("Z") for g in got)
            assert set(got[0]) - {"on_sale"} <= set(got[1]) | {"on_sale"}


@pytest.mark.parametrize("seed", SEEDS)
def test_the_three_rating_guides_agree(seed: int) -> None:
    w = LifestyleWorld.build(seed)
    for business in [*w.restaurants, *w.providers]:
        got = [call(w, t, business=business) for t in RATING_TOOLS]
        assert len({g["rating_stars"] for g in got}) == 1
        assert {g["business_id"] for g in got} == {business}


def test_dates_helpers() -> None:
    assert add_months(date(2026, 1, 31), 1) == date(2026, 2, 28)
    assert add_months(date(2025, 11, 15), 3) == date(2026, 2, 15)
    assert next_birthday("1990-03-02", date(2026, 3, 2)) == (date(2026, 3, 2), 36)
    assert next_birthday("1990-03-01", date(2026, 3, 2)) == (date(2027, 3, 1), 37)
    assert next_birthday("2000-02-29", date(2026, 1, 10)) == (date(2026, 3, 1), 26)


# -- custom logic ----------------------------------------------------------------------------


def test_names_and_ids_resolve_and_unknowns_refuse(base: LifestyleWorld) -> None:
    store, item = first(base, "stores"), first(base, "items")
    by_name = call(base, "get_item_price", store=store.name.upper(), item=f" {item.name} ")
    by_id = call(base, "get_item_price", store=store.store_id.lower(), item=item.item_id)
    assert by_name == by_id
    refused(base, "get_item_price", 404, store="Atlantis Mart", item=item.item_id)
    refused(base, "get_item_price", 404, store=store.name, item="Unicorn steak")
    refused(base, "get_rating_locallens", 404, business="Nowhere Bistro")
    refused(base, "get_rating_locallens", 422, business="  ")


def test_scaling_and_its_v2(base: LifestyleWorld) -> None:
    recipe = first(base, "recipes")
    got = call(base, "scale_recipe", recipe=recipe.name, servings=recipe.servings * 3)
    assert got["factor"] == 3
    for ing, line in zip(recipe.ingredients, got["ingredients"], strict=True):
        assert line["quantity"] == round(ing.quantity * 3, 2)
    v2 = call(base, "scale_recipe_v2", recipe_ref=recipe.recipe_id, target_servings=got["servings"])
    assert v2 == got
    refused(base, "scale_recipe", 422, recipe=recipe.name, servings=0)


def test_unit_conversion(base: LifestyleWorld) -> None:
    cup = call(base, "convert_units", quantity=1, from_unit="cup", to_unit="ml")
    assert cup["converted_quantity"] == 236.59
    tbsp = call(base, "convert_units", quantity=3, from_unit="tsp", to_unit="tbsp")
    assert tbsp["converted_quantity"] == 1.0
    flour = call(
        base,
        "convert_units",
        quantity=2,
        from_unit="cup",
        to_unit="g",
        ingredient="All-purpose flour",
    )
    assert flour["converted_quantity"] == 240.0 and flour["grams_per_cup"] == 120.0
    back = call(
        base,
        "convert_units",
        quantity=240,
        from_unit="g",
        to_unit="cup",
        ingredient="All-purpose flour",
    )
    assert back["converted_quantity"] == 2.0
    v2 = call(
        base, "convert_units_v2", amount=2, source_unit="cup", target_unit="g",
        ingredient="All-purpose flour",
    )  # fmt: skip
    assert v2 == flour
    refused(base, "convert_units", 422, quantity=1, from_unit="cup", to_unit="g")
    refused(base, "convert_units", 422, quantity=-1, from_unit="g", to_unit="kg")


def test_shopping_list_cost_across_stores(base: LifestyleWorld) -> None:
    lst = base.shopping_lists["LST-00001"]
    for store in base.stores.values():
        got = call(base, "get_shopping_list", list_id=lst.list_id, store=store.name)
        expected = 0.0
        for e in got["entries"]:
            price = call(base, "get_item_price", store=store.store_id, item=e["item_id"])
            assert e["unit_price_usd"] == price["price_usd"]
            expected += price["price_usd"] * e["quantity"]
        assert got["total_usd"] == pytest.approx(expected, abs=0.011)
    refused(base, "get_shopping_list", 404, list_id="LST-99999")


def test_food_portion_formula(base: LifestyleWorld) -> None:
    pet = first(base, "pets")
    got = call(base, "compute_food_portion", pet=pet.name, activity="normal", meals_per_day=3)
    factor = {"dog": 1.6, "cat": 1.2, "rabbit": 1.3}[pet.species]
    age = (base.now().date() - date.fromisoformat(pet.birth_date)).days / 365.25
    kcal = 70 * pet.weight_kg**0.75 * factor * (1.25 if round(age, 1) < 1 else 1)
    assert got["daily_kcal"] == round(kcal, 1)
    food = base.items[pet.food_item_id]
    assert got["daily_food_g"] == round(kcal / food.kcal_per_100g * 100, 1)
    assert got["per_meal_g"] == round(got["daily_food_g"] / 3, 1)
    high = call(base, "compute_food_portion", pet=pet.pet_id, activity="high")
    assert high["daily_food_g"] > got["daily_food_g"]
    refused(base, "compute_food_portion", 422, pet=pet.pet_id, meals_per_day=9)


def test_vaccinations_and_maintenance_due_dates(base: LifestyleWorld) -> None:
    pet = first(base, "pets")
    for v in call(base, "list_vaccinations", pet=pet.pet_id)["results"]:
        given = date.fromisoformat(v["given_on"])
        assert v["next_due_date"] == add_months(given, v["interval_months"]).isoformat()
    for t in call(base, "list_maintenance_tasks")["results"]:
        due = date.fromisoformat(t["last_done"]) + timedelta(days=t["interval_days"])
        assert t["next_due"] == due.isoformat()
        assert t["overdue"] == (due < base.now().date())


def test_watering_schedule(base: LifestyleWorld) -> None:
    for plant in base.plants.values():
        got = call(base, "get_watering_schedule", plant=plant.nickname, days=21)
        dates = [date.fromisoformat(d) for d in got["watering_dates"]]
        assert dates[0] >= base.now().date()
        assert all((b - a).days == plant.watering_interval_days for a, b in pairwise(dates))
        assert got["waterings_in_window"] == len(dates)


def test_chore_rota_rotates(world: LifestyleWorld) -> None:
    chore = first(world, "chores")
    rota = call(world, "get_chore_rota", chore=chore.chore_id, occurrences=8)["schedule"]
    members = [t["member_id"] for t in rota]
    n = len(chore.rota)
    assert members == [chore.rota[(chore.next_index + i) % n] for i in range(8)]
    a, b = world.fork(), world.fork()
    done = call(a, "complete_chore", chore=chore.name, done_on=day(a, 0))
    assert done["completed_by"] == a.members[members[0]].name
    assert done["next_assignee_id"] == members[1]
    assert call(b, "list_chores")["results"][0]["next_assignee_id"] == members[0]
    assert a.state_hash() != b.state_hash() == world.state_hash()
    refused(world, "complete_chore", 422, chore=chore.name, done_on=day(world, 2))


# -- writes ----------------------------------------------------------------------------------


def test_reservation_lifecycle(world: LifestyleWorld) -> None:
    rest = first(world, "restaurants", lambda r: r.closed_on is None)
    when = day(world, 5)
    free = call(world, "check_table_availability", restaurant=rest.name, date=when, party_size=4)
    args = {
        "restaurant": rest.name,
        "date": when,
        "time": free["first_available_time"],
        "party_size": 4,
        "guest_name": "Test Guest",
    }
    made = call(world, "create_reservation", **args)
    assert made["status"] == "confirmed" and made["restaurant_id"] == rest.restaurant_id
    assert domain_tools.verified_records(world, "create_reservation", args)
    cancelled = call(world, "cancel_reservation", reservation_id=made["reservation_id"])
    assert cancelled["status"] == "cancelled"
    refused(world, "cancel_reservation", 409, reservation_id=made["reservation_id"])
    refused(world, "create_reservation", 422, **{**args, "time": "03:00"})
    refused(world, "create_reservation", 422, **{**args, "date": day(world, -1)})


def test_a_full_slot_refuses_a_reservation(world: LifestyleWorld) -> None:
    rest = first(world, "restaurants", lambda r: r.closed_on is None)
    when = day(world, 6)
    slot = call(world, "check_table_availability", restaurant=rest.restaurant_id, date=when)
    time = slot["available_times"][0]
    args = {"restaurant": rest.restaurant_id, "date": when, "time": time, "guest_name": "G"}
    while True:
        free = call(
            world, "check_table_availability", restaurant=rest.name, date=when, party_size=2
        )
        if time not in free["available_times"]:
            break
        call(world, "create_reservation", party_size=2, **args)
    refused(world, "create_reservation", 409, party_size=2, **args)


def test_booking_and_overlap(world: LifestyleWorld) -> None:
    prov = first(world, "providers", lambda p: p.category == "cleaning")
    when = next(
        day(world, i) for i in range(1, 8) if date.fromisoformat(day(world, i)).weekday() < 5
    )
    service = call(world, "list_services", provider=prov.name, date=when)["results"][0]
    args = {
        "service_id": service["service_id"],
        "date": when,
        "time": service["available_times"][0],
    }
    booked = call(world, "book_service", **args)
    assert booked["status"] == "confirmed" and booked["provider_id"] == prov.provider_id
    assert domain_tools.verified_records(world, "book_service", args)
    refused(world, "book_service", 409, **args)
    sunday = next(
        day(world, i) for i in range(1, 8) if date.fromisoformat(day(world, i)).weekday() == 6
    )
    refused(world, "book_service", 422, **{**args, "date": sunday})


def test_list_and_gift_writes_and_verifiers(base: LifestyleWorld) -> None:
    with forks_of(base) as (w, _):
        made = call(w, "create_shopping_list", name="Brunch", store="FreshMart")
        assert domain_tools.verified_records(w, "create_shopping_list", {"name": "Brunch"})
        args = {"list_id": made["list_id"], "item": "Large eggs", "quantity": 2}
        entry = call(w, "add_list_item", **args)
        assert entry["quantity"] == 2
        assert domain_tools.verified_records(w, "add_list_item", args)
        refused(w, "add_list_item", 409, **args)
        refused(w, "create_shopping_list", 409, name="brunch", store="FreshMart")
        contact = first(w, "contacts")
        when, _ = next_birthday(contact.birthday, w.now().date())
        occ_args = {
            "contact": contact.name,
            "kind": "birthday",
            "date": when.isoformat(),
            "budget_usd": 40,
        }
        if not any(o.contact_id == contact.contact_id for o in w.occasions.values()):
            occ = call(w, "create_occasion", **occ_args)
            assert domain_tools.verified_records(w, "create_occasion", occ_args)
            refused(w, "create_occasion", 409, **occ_args)
            gift = call(w, "add_gift_idea", occasion_id=occ["occasion_id"], item="Scented candle")
            assert gift["item_name"] == "Scented candle"
            refused(w, "add_gift_idea", 409, occasion_id=occ["occasion_id"], item="Scented candle")


def test_maintenance_and_watering_writes(world: LifestyleWorld) -> None:
    task = first(world, "maintenance")
    args = {"task_id": task.task_id, "done_on": day(world, 0)}
    got = call(world, "complete_maintenance_task", **args)
    assert got["next_due"] == day(world, task.interval_days)
    assert domain_tools.verified_records(world, "complete_maintenance_task", args)
    refused(world, "complete_maintenance_task", 422, task_id=task.task_id, done_on=day(world, 1))
    plant = first(world, "plants")
    watered = call(world, "log_watering", plant=plant.nickname, watered_on=day(world, 0))
    assert watered["next_watering_date"] == day(world, plant.watering_interval_days)
    refused(world, "log_watering", 422, plant=plant.plant_id, watered_on="03/02/2026")


# -- notes -----------------------------------------------------------------------------------


def test_fallbacks_and_v2_return_the_same_keys(base: LifestyleWorld) -> None:
    store, item = first(base, "stores"), first(base, "items")
    rest = first(base, "restaurants")
    primary = call(base, "get_item_price", store=store.name, item=item.name)
    backup = call(base, "compare_item_price", store=store.name, item=item.name)
    assert set(primary) - {"on_sale"} <= set(backup)
    assert primary["price_usd"] == backup["price_usd"]
    main = call(base, "get_rating_locallens", business=rest.name)
    alt = call(base, "get_rating_starboard", business=rest.name)
    assert set(main) == set(alt) and main["rating_stars"] == alt["rating_stars"]
    for tool, how in DOMAIN.notes.v2.items():
        assert DOMAIN.tools[how.tool].spec.description.startswith("Version 2"), tool


def test_resolvers_find_the_named_record(base: LifestyleWorld) -> None:
    for tool, how in DOMAIN.notes.resolvers.items():
        assert how.param in DOMAIN.tools[tool].spec.parameters["properties"], tool
    item = first(base, "items")
    found = call(base, "search_items", query=item.name)
    assert found["results"][0]["item_id"] == item.item_id
    rest = first(base, "restaurants")
    assert call(base, "search_restaurants", query=rest.name)["results"][0]["restaurant_id"] == (
        rest.restaurant_id
    )
