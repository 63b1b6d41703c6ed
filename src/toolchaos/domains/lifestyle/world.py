"""The lifestyle world: groceries, recipes, restaurants, services, pets, home and gifts.

Tables (each keyed by the row's id unless noted):

- ``stores`` and ``items``: five grocery stores and ~75 products (food, pet, garden,
  household, gifts), with package sizes and, for baking staples, grams per cup;
- ``prices``, ``price_compare``, ``price_receipts``: the shelf price of every item at every
  store (keyed ``"{store_id}:{item_id}"``) from three independent services: the store's own
  catalog (authoritative), the ShelfScout comparison site and ReceiptPal's shopper
  receipts. They agree on ``price_usd`` in the clean world and each stamps its ``as_of``;
- ``pantry`` (keyed by item id), ``shopping_lists`` and ``list_entries``;
- ``recipes`` with their ingredients (quantities in g, ml, cup, tbsp, tsp or each);
- ``restaurants`` and ``reservations``; ``providers`` (plumbers, salons, vets, ...),
  their ``services`` and ``bookings``;
- ``ratings_locallens``, ``ratings_starboard``, ``ratings_towntalk``: the star rating of
  every restaurant and provider (keyed by its id) from three independent guides that agree
  on ``rating_stars`` in the clean world; LocalLens is authoritative;
- ``pets`` and ``vaccinations``; ``maintenance`` (home upkeep tasks); ``plants``;
  ``members`` and ``chores`` (a rota); ``contacts``, ``occasions`` and ``gift_ideas``.

Dates are ISO ``YYYY-MM-DD`` days and timestamps UTC ISO strings ending in ``Z``, all
relative to :attr:`World.EPOCH`, the world's "now" at clock zero.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, ClassVar, Self

from pydantic import Field

from toolchaos.core.world import Row, World
from toolchaos.domains._common import money, stamp
from toolchaos.domains.lifestyle import data

WEEKDAYS: tuple[str, ...] = (
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
)
SLOT_MINUTES = 30
LAST_SEATING_BEFORE_CLOSE = 90
BOOKING_DAYS_AHEAD = 60
SERVICE_DAYS_AHEAD = 400
WORK_START, WORK_END = "09:00", "17:00"


# -- rows --------------------------------------------------------------------------------


class Store(Row):
    """A grocery store."""

    store_id: str
    name: str
    neighborhood: str
    delivery_fee_usd: float
    opens_at: str
    closes_at: str


class Item(Row):
    """A product sold in packages of ``package_size`` ``package_unit``."""

    item_id: str
    name: str
    category: str
    package_size: float
    package_unit: str
    grams_per_cup: float | None
    kcal_per_100g: float | None


class CatalogPrice(Row):
    """The store's own catalog price of one item (authoritative)."""

    store_id: str
    item_id: str
    price_usd: float
    as_of: str
    on_sale: bool


class ComparePrice(Row):
    """The ShelfScout comparison site's price of one item at one store."""

    store_id: str
    item_id: str
    price_usd: float
    as_of: str
    listing_rank: int


class ReceiptPrice(Row):
    """The price shoppers' scanned receipts show for one item at one store."""

    store_id: str
    item_id: str
    price_usd: float
    as_of: str
    receipt_count: int


class PantryItem(Row):
    """What the household has of one item at home."""

    item_id: str
    quantity: float
    unit: str
    expires_on: str | None


class ShoppingList(Row):
    """A named shopping list for one store."""

    list_id: str
    name: str
    store_id: str
    created_at: str


class ListEntry(Row):
    """One line of a shopping list: ``quantity`` packages of an item."""

    entry_id: str
    list_id: str
    item_id: str
    quantity: int


class Ingredient(Row):
    """One ingredient line of a recipe."""

    item_id: str
    name: str
    quantity: float
    unit: str


class Recipe(Row):
    """A recipe for ``servings`` people."""

    recipe_id: str
    name: str
    cuisine: str
    servings: int
    prep_minutes: int
    cook_minutes: int
    kcal_per_serving: int
    ingredients: list[Ingredient]


class Restaurant(Row):
    """A restaurant taking reservations in 30-minute slots."""

    restaurant_id: str
    name: str
    cuisine: str
    neighborhood: str
    price_level: int
    distance_km: float
    opens_at: str
    closes_at: str
    closed_on: str | None
    seats_per_slot: int


class Rating(Row):
    """One guide's rating of a business (restaurant or service provider)."""

    business_id: str
    rating_stars: float
    review_count: int
    as_of: str


class Reservation(Row):
    """A table reservation."""

    reservation_id: str
    restaurant_id: str
    date: str
    time: str
    party_size: int
    guest_name: str
    status: str
    created_at: str


class Provider(Row):
    """A local service business (plumber, salon, vet, ...)."""

    provider_id: str
    name: str
    category: str
    neighborhood: str
    phone: str
    works_saturday: bool
    callout_fee_usd: float


class Service(Row):
    """A service one provider offers, with its duration and price."""

    service_id: str
    provider_id: str
    name: str
    duration_minutes: int
    price_usd: float


class Booking(Row):
    """An appointment for one service."""

    booking_id: str
    service_id: str
    provider_id: str
    date: str
    time: str
    note: str
    status: str
    created_at: str


class Pet(Row):
    """A household pet."""

    pet_id: str
    name: str
    species: str
    breed: str
    birth_date: str
    weight_kg: float
    food_item_id: str
    vet_id: str


class Vaccination(Row):
    """A vaccine a pet was given and how often it needs a booster."""

    vaccination_id: str
    pet_id: str
    vaccine: str
    given_on: str
    interval_months: int


class MaintenanceTask(Row):
    """A recurring home upkeep task."""

    task_id: str
    appliance: str
    room: str
    task: str
    interval_days: int
    last_done: str
    provider_category: str | None


class Plant(Row):
    """A plant the household looks after."""

    plant_id: str
    nickname: str
    species: str
    spot: str
    light: str
    watering_interval_days: int
    last_watered: str
    fertilize_interval_days: int
    last_fertilized: str


class Member(Row):
    """A person in the household chore rota."""

    member_id: str
    name: str


class Chore(Row):
    """A recurring chore done in turn by the members of its rota."""

    chore_id: str
    name: str
    every_days: int
    minutes: int
    rota: list[str]
    next_index: int
    last_done: str


class Contact(Row):
    """A person the user buys gifts for."""

    contact_id: str
    name: str
    relation: str
    birthday: str
    favorite_category: str


class Occasion(Row):
    """An occasion to plan a gift for."""

    occasion_id: str
    contact_id: str
    kind: str
    date: str
    budget_usd: float
    created_at: str


class GiftIdea(Row):
    """A gift idea (a catalog item) noted for an occasion."""

    gift_id: str
    occasion_id: str
    item_id: str
    note: str
    created_at: str


# -- the world ---------------------------------------------------------------------------


class LifestyleWorld(World):
    """A household's everyday life: shopping, cooking, eating out, pets, home and gifts."""

    TABLES: ClassVar[tuple[str, ...]] = (
        "stores",
        "items",
        "prices",
        "price_compare",
        "price_receipts",
        "pantry",
        "shopping_lists",
        "list_entries",
        "recipes",
        "restaurants",
        "ratings_locallens",
        "ratings_starboard",
        "ratings_towntalk",
        "reservations",
        "providers",
        "services",
        "bookings",
        "pets",
        "vaccinations",
        "maintenance",
        "plants",
        "members",
        "chores",
        "contacts",
        "occasions",
        "gift_ideas",
    )

    stores: dict[str, Store] = Field(default_factory=dict)
    items: dict[str, Item] = Field(default_factory=dict)
    prices: dict[str, CatalogPrice] = Field(default_factory=dict)
    price_compare: dict[str, ComparePrice] = Field(default_factory=dict)
    price_receipts: dict[str, ReceiptPrice] = Field(default_factory=dict)
    pantry: dict[str, PantryItem] = Field(default_factory=dict)
    shopping_lists: dict[str, ShoppingList] = Field(default_factory=dict)
    list_entries: dict[str, ListEntry] = Field(default_factory=dict)
    recipes: dict[str, Recipe] = Field(default_factory=dict)
    restaurants: dict[str, Restaurant] = Field(default_factory=dict)
    ratings_locallens: dict[str, Rating] = Field(default_factory=dict)
    ratings_starboard: dict[str, Rating] = Field(default_factory=dict)
    ratings_towntalk: dict[str, Rating] = Field(default_factory=dict)
    reservations: dict[str, Reservation] = Field(default_factory=dict)
    providers: dict[str, Provider] = Field(default_factory=dict)
    services: dict[str, Service] = Field(default_factory=dict)
    bookings: dict[str, Booking] = Field(default_factory=dict)
    pets: dict[str, Pet] = Field(default_factory=dict)
    vaccinations: dict[str, Vaccination] = Field(default_factory=dict)
    maintenance: dict[str, MaintenanceTask] = Field(default_factory=dict)
    plants: dict[str, Plant] = Field(default_factory=dict)
    members: dict[str, Member] = Field(default_factory=dict)
    chores: dict[str, Chore] = Field(default_factory=dict)
    contacts: dict[str, Contact] = Field(default_factory=dict)
    occasions: dict[str, Occasion] = Field(default_factory=dict)
    gift_ideas: dict[str, GiftIdea] = Field(default_factory=dict)

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Build every table from ``rng`` alone; the same seed gives the same world."""
        gen = _Generator(rng, cls.EPOCH)
        gen.groceries()
        gen.recipes()
        gen.restaurants()
        gen.providers()
        gen.ratings()
        gen.reservations()
        gen.bookings()
        gen.pets()
        gen.home()
        gen.chores()
        gen.gifts()
        t = gen.tables
        counters = {
            "LST": len(t["shopping_lists"]),
            "ENT": len(t["list_entries"]),
            "RES": len(t["reservations"]),
            "BKG": len(t["bookings"]),
            "OCC": len(t["occasions"]),
            "GFT": len(t["gift_ideas"]),
        }
        return cls(seed=seed, id_counters=counters, **t)

    def today(self) -> date:
        """The world's current UTC calendar date."""
        return self.now().date()


def price_key(store_id: str, item_id: str) -> str:
    """The key of one item's price at one store in the three price tables."""
    return f"{store_id}:{item_id}"


def add_months(day: date, months: int) -> date:
    """``day`` plus ``months`` calendar months (the day clipped to the month's end)."""
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for last in (31, 30, 29, 28):
        try:
            return date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise ValueError(f"no valid day in {year}-{month}")  # pragma: no cover


def next_birthday(birthday: str, today: date) -> tuple[date, int]:
    """The next date (today or later) of a birthday and the age the person turns then."""
    born = date.fromisoformat(birthday)
    for year in (today.year, today.year + 1):
        try:
            when = born.replace(year=year)
        except ValueError:  # 29 February in a common year: celebrated on 1 March
            when = date(year, 3, 1)
        if when >= today:
            return when, year - born.year
    raise AssertionError("unreachable")  # pragma: no cover


def hhmm(minutes: int) -> str:
    """Minutes after midnight as ``HH:MM``."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def minutes_of(text: str) -> int:
    """``HH:MM`` as minutes after midnight."""
    return int(text[:2]) * 60 + int(text[3:5])


def seating_times(restaurant: Restaurant) -> list[str]:
    """The reservation slots of a restaurant: every 30 minutes until 90 before closing."""
    start, end = minutes_of(restaurant.opens_at), minutes_of(restaurant.closes_at)
    return [hhmm(m) for m in range(start, end - LAST_SEATING_BEFORE_CLOSE + 1, SLOT_MINUTES)]


def work_times(duration_minutes: int) -> list[str]:
    """Appointment start times (on the hour and half hour) that end by closing time."""
    start, end = minutes_of(WORK_START), minutes_of(WORK_END)
    return [hhmm(m) for m in range(start, end - duration_minutes + 1, 30)]


@dataclass
class _Generator:
    """Draws the tables in a fixed order from one generator, so a seed fixes every byte."""

    rng: random.Random
    epoch: datetime
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)  # business names in use, case-folded

    def put(self, table: str, key: str, row: Row) -> None:
        self.tables.setdefault(table, {})[key] = row

    def day(self, offset: int) -> str:
        return (self.epoch.date() + timedelta(days=offset)).isoformat()

    def ids(self, prefix: str, count: int, low: int, high: int) -> list[str]:
        width = len(str(high - 1))
        return [f"{prefix}-{n:0{width}d}" for n in sorted(self.rng.sample(range(low, high), count))]

    # -- groceries -------------------------------------------------------------------------

    def groceries(self) -> None:
        rng = self.rng
        for t in ("prices", "price_compare", "price_receipts", "pantry"):
            self.tables.setdefault(t, {})
        store_ids = self.ids("ST", len(data.STORES), 10, 100)
        for store_id, store in zip(store_ids, data.STORES, strict=True):
            self.put(
                "stores",
                store_id,
                Store(
                    store_id=store_id,
                    name=store.name,
                    neighborhood=store.neighborhood,
                    delivery_fee_usd=store.delivery_fee_usd,
                    opens_at=store.opens_at,
                    closes_at=store.closes_at,
                ),
            )
        item_ids = self.ids("ITM", len(data.ITEMS), 100, 1000)
        rng.shuffle(item_ids)
        for item_id, item in zip(item_ids, data.ITEMS, strict=True):
            self.put(
                "items",
                item_id,
                Item(
                    item_id=item_id,
                    name=item.name,
                    category=item.category,
                    package_size=float(item.package_size),
                    package_unit=item.package_unit,
                    grams_per_cup=item.grams_per_cup,
                    kcal_per_100g=item.kcal_per_100g,
                ),
            )
        hour = self.epoch.replace(minute=0, second=0, microsecond=0)
        for store_id, store in zip(store_ids, data.STORES, strict=True):
            for item_id, item in zip(item_ids, data.ITEMS, strict=True):
                raw = item.base_price_usd * store.price_factor * rng.uniform(0.9, 1.1)
                price = max(0.49, round(raw, 1) - 0.01)
                key = price_key(store_id, item_id)
                catalog_at = hour - timedelta(hours=rng.randint(1, 20))
                self.put(
                    "prices",
                    key,
                    CatalogPrice(
                        store_id=store_id,
                        item_id=item_id,
                        price_usd=money(price),
                        as_of=stamp(catalog_at),
                        on_sale=rng.random() < 0.1,
                    ),
                )
                self.put(
                    "price_compare",
                    key,
                    ComparePrice(
                        store_id=store_id,
                        item_id=item_id,
                        price_usd=money(price),
                        as_of=stamp(catalog_at + timedelta(minutes=rng.randint(5, 50))),
                        listing_rank=rng.randint(1, 5),
                    ),
                )
                self.put(
                    "price_receipts",
                    key,
                    ReceiptPrice(
                        store_id=store_id,
                        item_id=item_id,
                        price_usd=money(price),
                        as_of=stamp(self.epoch - timedelta(minutes=rng.randint(10, 300))),
                        receipt_count=rng.randint(3, 180),
                    ),
                )
        food = [
            i
            for i in self.tables["items"].values()
            if i.category in ("produce", "dairy", "pantry", "meat")
        ]
        for item in sorted(rng.sample(food, 18), key=lambda i: i.item_id):
            packages = rng.choice((0.25, 0.5, 0.75, 1.0, 1.5, 2.0))
            perishable = item.category in ("produce", "dairy", "meat")
            expires = self.day(rng.randint(2, 20)) if perishable else self.day(rng.randint(60, 400))
            self.put(
                "pantry",
                item.item_id,
                PantryItem(
                    item_id=item.item_id,
                    quantity=round(item.package_size * packages, 1),
                    unit=item.package_unit,
                    expires_on=expires,
                ),
            )
        lists = (("Weekly groceries", 6), ("Party snacks", 4), ("Cleaning restock", 3))
        household = [i for i in self.tables["items"].values() if i.category == "household"]
        number = 0
        for index, (name, count) in enumerate(lists, start=1):
            list_id = f"LST-{index:05d}"
            self.put(
                "shopping_lists",
                list_id,
                ShoppingList(
                    list_id=list_id,
                    name=name,
                    store_id=rng.choice(store_ids),
                    created_at=stamp(self.epoch - timedelta(days=rng.randint(1, 9), hours=3)),
                ),
            )
            pool = household if name == "Cleaning restock" else food
            for item in rng.sample(pool, count):
                number += 1
                entry_id = f"ENT-{number:05d}"
                self.put(
                    "list_entries",
                    entry_id,
                    ListEntry(
                        entry_id=entry_id,
                        list_id=list_id,
                        item_id=item.item_id,
                        quantity=rng.choice((1, 1, 2, 3)),
                    ),
                )

    def recipes(self) -> None:
        by_name = {i.name: i.item_id for i in self.tables["items"].values()}
        recipe_ids = self.ids("RCP", len(data.RECIPES), 100, 1000)
        for recipe_id, recipe in zip(recipe_ids, data.RECIPES, strict=True):
            self.put(
                "recipes",
                recipe_id,
                Recipe(
                    recipe_id=recipe_id,
                    name=recipe.name,
                    cuisine=recipe.cuisine,
                    servings=recipe.servings,
                    prep_minutes=recipe.prep_minutes,
                    cook_minutes=recipe.cook_minutes,
                    kcal_per_serving=recipe.kcal_per_serving,
                    ingredients=[
                        Ingredient(item_id=by_name[name], name=name, quantity=qty, unit=unit)
                        for name, qty, unit in recipe.ingredients
                    ],
                ),
            )

    # -- places ----------------------------------------------------------------------------

    def _names(self, patterns: tuple[str, ...], taken: set[str]) -> str:
        options = sorted({p.format(w=w) for p in patterns for w in data.NAME_WORDS})
        self.rng.shuffle(options)
        for name in options:
            folded = name.casefold()
            if not any(folded in t or t in folded for t in taken):
                taken.add(folded)
                return name
        raise RuntimeError("ran out of names")  # pragma: no cover

    def restaurants(self) -> None:
        rng = self.rng
        taken = self.taken
        ids = self.ids("RST", 30, 100, 1000)
        for index, restaurant_id in enumerate(ids):
            cuisine = data.CUISINES[index % len(data.CUISINES)]
            lunch = rng.random() < 0.4
            self.put(
                "restaurants",
                restaurant_id,
                Restaurant(
                    restaurant_id=restaurant_id,
                    name=self._names(data.RESTAURANT_PATTERNS[cuisine], taken),
                    cuisine=cuisine,
                    neighborhood=rng.choice(data.NEIGHBORHOODS),
                    price_level=rng.choice((1, 2, 2, 3, 3, 4)),
                    distance_km=round(rng.uniform(0.4, 12.0), 1),
                    opens_at="11:30" if lunch else rng.choice(("17:00", "17:30", "18:00")),
                    closes_at=rng.choice(("22:00", "22:30", "23:00")),
                    closed_on=rng.choice((None, "monday", "tuesday", None)),
                    seats_per_slot=rng.choice((8, 10, 12, 16)),
                ),
            )

    def providers(self) -> None:
        rng = self.rng
        taken = self.taken
        ids = self.ids("PRO", 2 * 3 * len(data.PROVIDER_CATEGORIES), 100, 1000)
        service_ids = iter(self.ids("SRV", 200, 1000, 10000))
        categories = [c for c in data.PROVIDER_CATEGORIES for _ in range(3)]
        for provider_id, category in zip(ids, categories * 2, strict=False):
            patterns, services = data.PROVIDER_CATEGORIES[category]
            level = rng.uniform(0.85, 1.25)
            self.put(
                "providers",
                provider_id,
                Provider(
                    provider_id=provider_id,
                    name=self._names(patterns, taken),
                    category=category,
                    neighborhood=rng.choice(data.NEIGHBORHOODS),
                    phone=f"555-{rng.randint(100, 999)}-{rng.randint(1000, 9999)}",
                    works_saturday=rng.random() < 0.5,
                    callout_fee_usd=money(rng.choice((0, 0, 25, 35, 49))),
                ),
            )
            for name, minutes, price in rng.sample(services, rng.randint(2, len(services))):
                service_id = next(service_ids)
                self.put(
                    "services",
                    service_id,
                    Service(
                        service_id=service_id,
                        provider_id=provider_id,
                        name=name,
                        duration_minutes=minutes,
                        price_usd=money(round(price * level)),
                    ),
                )

    def ratings(self) -> None:
        rng = self.rng
        for t in ("ratings_locallens", "ratings_starboard", "ratings_towntalk"):
            self.tables.setdefault(t, {})
        businesses = sorted(self.tables["restaurants"]) + sorted(self.tables["providers"])
        for business_id in businesses:
            stars = round(rng.uniform(3.1, 4.9), 1)
            for table, lag_hours in (
                ("ratings_locallens", (2, 30)),
                ("ratings_starboard", (1, 12)),
                ("ratings_towntalk", (6, 72)),
            ):
                self.put(
                    table,
                    business_id,
                    Rating(
                        business_id=business_id,
                        rating_stars=stars,
                        review_count=rng.randint(12, 900),
                        as_of=stamp(self.epoch - timedelta(hours=rng.randint(*lag_hours))),
                    ),
                )

    def reservations(self) -> None:
        rng = self.rng
        self.tables.setdefault("reservations", {})
        restaurants = list(self.tables["restaurants"].values())
        names = [f"{f} {ln}" for f in data.FIRST_NAMES[:8] for ln in data.LAST_NAMES[:4]]
        number = 0
        for offset in range(-3, 14):
            day = self.epoch.date() + timedelta(days=offset)
            for rest in rng.sample(restaurants, 4):
                if rest.closed_on == WEEKDAYS[day.weekday()]:
                    continue
                slot = rng.choice(seating_times(rest))
                number += 1
                reservation_id = f"RES-{number:05d}"
                past = offset < 0
                self.put(
                    "reservations",
                    reservation_id,
                    Reservation(
                        reservation_id=reservation_id,
                        restaurant_id=rest.restaurant_id,
                        date=day.isoformat(),
                        time=slot,
                        party_size=rng.randint(2, 6),
                        guest_name=rng.choice(names) if rng.random() < 0.6 else "Alex Moreau",
                        status="completed"
                        if past
                        else rng.choice(("confirmed",) * 5 + ("cancelled",)),
                        created_at=stamp(
                            datetime.combine(day, datetime.min.time(), self.epoch.tzinfo)
                            - timedelta(days=rng.randint(2, 20))
                        ),
                    ),
                )

    def bookings(self) -> None:
        rng = self.rng
        self.tables.setdefault("bookings", {})
        services = list(self.tables["services"].values())
        number = 0
        for offset in range(-5, 21):
            day = self.epoch.date() + timedelta(days=offset)
            if day.weekday() == 6:
                continue
            for service in rng.sample(services, 3):
                provider = self.tables["providers"][service.provider_id]
                if day.weekday() == 5 and not provider.works_saturday:
                    continue
                number += 1
                booking_id = f"BKG-{number:05d}"
                self.put(
                    "bookings",
                    booking_id,
                    Booking(
                        booking_id=booking_id,
                        service_id=service.service_id,
                        provider_id=service.provider_id,
                        date=day.isoformat(),
                        time=rng.choice(work_times(service.duration_minutes)),
                        note="",
                        status="completed" if offset < 0 else "confirmed",
                        created_at=stamp(self.epoch - timedelta(days=rng.randint(6, 30))),
                    ),
                )

    # -- household -------------------------------------------------------------------------

    def pets(self) -> None:
        rng = self.rng
        by_name = {i.name: i.item_id for i in self.tables["items"].values()}
        vets = sorted(k for k, p in self.tables["providers"].items() if p.category == "veterinary")
        kinds = rng.sample(data.PET_KINDS, 7)
        names = rng.sample(data.PET_NAMES, len(kinds))
        today = self.epoch.date()
        vaccination = 0
        for index, (kind, name) in enumerate(zip(kinds, names, strict=True), start=1):
            species, breed, low, high, foods = kind
            pet_id = f"PET-{index:02d}"
            age_days = rng.randint(200, 12 * 365)
            food = foods[0]
            if species == "dog" and age_days > 8 * 365 and "Senior dog kibble" in foods:
                food = "Senior dog kibble"
            elif species == "cat" and age_days < 365 and "Kitten dry food" in foods:
                food = "Kitten dry food"
            self.put(
                "pets",
                pet_id,
                Pet(
                    pet_id=pet_id,
                    name=name,
                    species=species,
                    breed=breed,
                    birth_date=(today - timedelta(days=age_days)).isoformat(),
                    weight_kg=round(rng.uniform(low, high), 1),
                    food_item_id=by_name[food],
                    vet_id=rng.choice(vets),
                ),
            )
            for vaccine, months in data.VACCINES[species]:
                vaccination += 1
                given = today - timedelta(days=rng.randint(30, months * 30 + 60))
                vid = f"VAC-{vaccination:03d}"
                self.put(
                    "vaccinations",
                    vid,
                    Vaccination(
                        vaccination_id=vid,
                        pet_id=pet_id,
                        vaccine=vaccine,
                        given_on=given.isoformat(),
                        interval_months=months,
                    ),
                )

    def home(self) -> None:
        rng = self.rng
        for index, (appliance, room, task, interval, category) in enumerate(
            data.MAINTENANCE, start=1
        ):
            task_id = f"MNT-{index:02d}"
            self.put(
                "maintenance",
                task_id,
                MaintenanceTask(
                    task_id=task_id,
                    appliance=appliance,
                    room=room,
                    task=task,
                    interval_days=interval,
                    last_done=self.day(-rng.randint(5, interval + 20)),
                    provider_category=category,
                ),
            )
        picks = rng.sample(data.PLANTS, 12)
        spots = list(data.PLANT_SPOTS)
        nicknames: set[str] = set()
        for index, (species, short, water, light, feed) in enumerate(picks, start=1):
            plant_id = f"PLT-{index:02d}"
            outdoor = light == "full sun"
            spot = rng.choice(
                [s for s in spots if (s in ("Balcony", "Front porch", "Back garden")) == outdoor]
            )
            nickname = f"{spot} {short}"
            while nickname.casefold() in nicknames:  # pragma: no cover - rare
                nickname = f"{rng.choice(spots)} {short}"
            nicknames.add(nickname.casefold())
            self.put(
                "plants",
                plant_id,
                Plant(
                    plant_id=plant_id,
                    nickname=nickname,
                    species=species,
                    spot=spot,
                    light=light,
                    watering_interval_days=water,
                    last_watered=self.day(-rng.randint(0, water + 3)),
                    fertilize_interval_days=feed,
                    last_fertilized=self.day(-rng.randint(1, feed + 10)),
                ),
            )

    def chores(self) -> None:
        rng = self.rng
        members = []
        for index, name in enumerate(data.HOUSEHOLD, start=1):
            member_id = f"MEM-{index}"
            members.append(member_id)
            self.put("members", member_id, Member(member_id=member_id, name=name))
        for index, (name, every, minutes) in enumerate(data.CHORES, start=1):
            chore_id = f"CHR-{index:02d}"
            rota = rng.sample(members, rng.randint(2, 4))
            self.put(
                "chores",
                chore_id,
                Chore(
                    chore_id=chore_id,
                    name=name,
                    every_days=every,
                    minutes=minutes,
                    rota=rota,
                    next_index=rng.randrange(len(rota)),
                    last_done=self.day(-rng.randint(0, every)),
                ),
            )

    def gifts(self) -> None:
        rng = self.rng
        today = self.epoch.date()
        for t in ("occasions", "gift_ideas"):
            self.tables.setdefault(t, {})
        names: set[str] = set()
        firsts = rng.sample(data.FIRST_NAMES, 16)
        for index, first in enumerate(firsts, start=1):
            last = rng.choice(data.LAST_NAMES)
            names.add(f"{first} {last}")
            contact_id = f"CON-{index:02d}"
            born = date(rng.randint(1950, 2012), rng.randint(1, 12), rng.randint(1, 28))
            self.put(
                "contacts",
                contact_id,
                Contact(
                    contact_id=contact_id,
                    name=f"{first} {last}",
                    relation=rng.choice(data.RELATIONS),
                    birthday=born.isoformat(),
                    favorite_category=rng.choice(("gifts", "gifts", "garden", "pantry", "pet")),
                ),
            )
        contacts = sorted(self.tables["contacts"])
        for index, contact_id in enumerate(rng.sample(contacts, 6), start=1):
            occasion_id = f"OCC-{index:05d}"
            contact = self.tables["contacts"][contact_id]
            kind = rng.choice(data.OCCASION_KINDS)
            when = (
                next_birthday(contact.birthday, today)[0]
                if kind == "birthday"
                else (today + timedelta(days=rng.randint(5, 80)))
            )
            self.put(
                "occasions",
                occasion_id,
                Occasion(
                    occasion_id=occasion_id,
                    contact_id=contact_id,
                    kind=kind,
                    date=when.isoformat(),
                    budget_usd=money(rng.choice((25, 30, 40, 50, 60, 75, 100))),
                    created_at=stamp(self.epoch - timedelta(days=rng.randint(1, 40))),
                ),
            )
        gifts = sorted(k for k, i in self.tables["items"].items() if i.category == "gifts")
        for index, occasion_id in enumerate(sorted(self.tables["occasions"])[:4], start=1):
            gift_id = f"GFT-{index:05d}"
            self.put(
                "gift_ideas",
                gift_id,
                GiftIdea(
                    gift_id=gift_id,
                    occasion_id=occasion_id,
                    item_id=rng.choice(gifts),
                    note="",
                    created_at=stamp(self.epoch - timedelta(days=rng.randint(1, 10))),
                ),
            )
