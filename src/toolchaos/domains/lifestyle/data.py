"""Static tables the lifestyle world draws from: groceries, recipes, places, people, homes.

Only data lives here; every choice among these entries (prices, ratings, dates, who owns
which pet) is made by the world's seeded generator in
:mod:`toolchaos.domains.lifestyle.world`.
"""

from __future__ import annotations

from typing import NamedTuple


class Item(NamedTuple):
    """A product a store sells.

    ``base_price_usd`` is a typical shelf price of one package; ``grams_per_cup`` is the
    weight of one US cup of the item (for cup <-> gram conversion), ``kcal_per_100g`` the
    energy of a pet food.
    """

    name: str
    category: str
    package_size: float
    package_unit: str
    base_price_usd: float
    grams_per_cup: float | None = None
    kcal_per_100g: float | None = None


ITEMS: tuple[Item, ...] = (
    # produce
    Item("Yellow onions", "produce", 1000, "g", 2.49),
    Item("Garlic", "produce", 100, "g", 0.99),
    Item("Carrots", "produce", 1000, "g", 1.79),
    Item("Roma tomatoes", "produce", 500, "g", 2.29),
    Item("Baby spinach", "produce", 140, "g", 3.49),
    Item("Lemons", "produce", 4, "each", 2.99),
    Item("Limes", "produce", 6, "each", 2.49),
    Item("Russet potatoes", "produce", 2270, "g", 3.99),
    Item("Red bell peppers", "produce", 3, "each", 3.99),
    Item("Fresh basil", "produce", 20, "g", 2.49),
    Item("Avocados", "produce", 4, "each", 4.99),
    Item("Bananas", "produce", 6, "each", 1.69),
    Item("Cremini mushrooms", "produce", 227, "g", 2.99),
    Item("Fresh ginger", "produce", 150, "g", 1.49),
    # dairy and eggs
    Item("Whole milk", "dairy", 1890, "ml", 3.79, grams_per_cup=245),
    Item("Unsalted butter", "dairy", 454, "g", 4.99, grams_per_cup=227),
    Item("Large eggs", "dairy", 12, "each", 3.89),
    Item("Cheddar cheese", "dairy", 227, "g", 4.29, grams_per_cup=113),
    Item("Parmesan cheese", "dairy", 140, "g", 5.49, grams_per_cup=100),
    Item("Plain Greek yogurt", "dairy", 907, "g", 5.99, grams_per_cup=245),
    Item("Heavy cream", "dairy", 473, "ml", 4.49, grams_per_cup=238),
    # pantry and baking
    Item("All-purpose flour", "pantry", 2270, "g", 3.99, grams_per_cup=120),
    Item("Granulated sugar", "pantry", 1810, "g", 3.49, grams_per_cup=200),
    Item("Brown sugar", "pantry", 907, "g", 2.79, grams_per_cup=213),
    Item("Rolled oats", "pantry", 1190, "g", 4.49, grams_per_cup=90),
    Item("Jasmine rice", "pantry", 2270, "g", 6.99, grams_per_cup=185),
    Item("Spaghetti", "pantry", 454, "g", 1.59),
    Item("Extra virgin olive oil", "pantry", 500, "ml", 8.99, grams_per_cup=216),
    Item("Canned chickpeas", "pantry", 425, "g", 1.19),
    Item("Crushed tomatoes", "pantry", 794, "g", 2.49),
    Item("Coconut milk", "pantry", 400, "ml", 2.29, grams_per_cup=226),
    Item("Soy sauce", "pantry", 296, "ml", 3.29),
    Item("Baking soda", "pantry", 454, "g", 1.29, grams_per_cup=220),
    Item("Dark chocolate chips", "pantry", 283, "g", 3.99, grams_per_cup=170),
    Item("Honey", "pantry", 340, "g", 5.49, grams_per_cup=340),
    Item("Red lentils", "pantry", 907, "g", 3.79, grams_per_cup=192),
    Item("Vegetable broth", "pantry", 946, "ml", 2.99, grams_per_cup=240),
    Item("Ground cumin", "pantry", 45, "g", 3.49),
    Item("Curry powder", "pantry", 50, "g", 3.99),
    Item("Corn tortillas", "pantry", 30, "each", 2.99),
    # meat and fish
    Item("Chicken thighs", "meat", 900, "g", 8.99),
    Item("Ground beef", "meat", 454, "g", 6.49),
    Item("Salmon fillets", "meat", 454, "g", 11.99),
    Item("Firm tofu", "meat", 397, "g", 2.49),
    Item("Bacon", "meat", 340, "g", 6.99),
    # pet supplies
    Item("Adult dog kibble", "pet", 6800, "g", 34.99, kcal_per_100g=365),
    Item("Senior dog kibble", "pet", 6800, "g", 38.99, kcal_per_100g=330),
    Item("Puppy kibble", "pet", 4500, "g", 29.99, kcal_per_100g=400),
    Item("Indoor cat dry food", "pet", 3200, "g", 21.99, kcal_per_100g=370),
    Item("Kitten dry food", "pet", 1400, "g", 12.99, kcal_per_100g=410),
    Item("Clumping cat litter", "pet", 9000, "g", 14.99),
    Item("Rabbit pellets", "pet", 2300, "g", 11.49, kcal_per_100g=260),
    Item("Dog dental chews", "pet", 30, "each", 17.99),
    # garden
    Item("Potting mix", "garden", 8, "l", 9.99),
    Item("Liquid plant food", "garden", 240, "ml", 7.49),
    Item("Slow-release fertilizer", "garden", 1000, "g", 12.99),
    Item("Tomato seedlings", "garden", 4, "each", 6.99),
    Item("Terracotta pot 20 cm", "garden", 1, "each", 5.49),
    Item("Neem oil spray", "garden", 473, "ml", 9.49),
    # household
    Item("Dish soap", "household", 828, "ml", 3.49),
    Item("Laundry detergent", "household", 2660, "ml", 12.99),
    Item("Paper towels", "household", 6, "each", 8.99),
    Item("All-purpose cleaner", "household", 946, "ml", 3.99),
    Item("Trash bags", "household", 40, "each", 9.49),
    Item("Microfiber cloths", "household", 12, "each", 11.99),
    Item("HVAC air filter", "household", 1, "each", 14.99),
    Item("Dishwasher tablets", "household", 45, "each", 13.49),
    # gifts
    Item("Box of chocolates", "gifts", 1, "each", 19.99),
    Item("Scented candle", "gifts", 1, "each", 16.99),
    Item("Bouquet of tulips", "gifts", 1, "each", 24.99),
    Item("Bottle of red wine", "gifts", 1, "each", 17.99),
    Item("Gift card", "gifts", 1, "each", 25.00),
    Item("Succulent trio", "gifts", 1, "each", 21.99),
    Item("Coffee sampler", "gifts", 1, "each", 29.99),
)

ITEM_CATEGORIES: tuple[str, ...] = (
    "produce",
    "dairy",
    "pantry",
    "meat",
    "pet",
    "garden",
    "household",
    "gifts",
)


class Store(NamedTuple):
    """A store: its name, neighbourhood, price level (multiplier) and delivery fee."""

    name: str
    neighborhood: str
    price_factor: float
    delivery_fee_usd: float
    opens_at: str
    closes_at: str


STORES: tuple[Store, ...] = (
    Store("FreshMart", "Riverside", 1.0, 5.99, "07:00", "22:00"),
    Store("Corner Grocer", "Old Town", 1.12, 3.99, "08:00", "21:00"),
    Store("BulkBarn Warehouse", "Eastfield", 0.86, 9.99, "09:00", "20:00"),
    Store("GreenLeaf Organics", "Maple Heights", 1.24, 6.49, "08:00", "20:00"),
    Store("ValuePlus Market", "Southgate", 0.93, 4.99, "07:00", "23:00"),
)

# The three independent price services; the store's own catalog is authoritative.
PRICE_CATALOG = "store catalog"
PRICE_COMPARE = "ShelfScout price comparison"
PRICE_RECEIPTS = "ReceiptPal shopper receipts"


class Recipe(NamedTuple):
    """A recipe with its ingredients as (item name, quantity, unit)."""

    name: str
    cuisine: str
    servings: int
    prep_minutes: int
    cook_minutes: int
    kcal_per_serving: int
    ingredients: tuple[tuple[str, float, str], ...]


RECIPES: tuple[Recipe, ...] = (
    Recipe("Classic Pancakes", "american", 4, 10, 15, 310, (
        ("All-purpose flour", 1.5, "cup"), ("Whole milk", 1.25, "cup"),
        ("Large eggs", 1, "each"), ("Unsalted butter", 3, "tbsp"),
        ("Granulated sugar", 1, "tbsp"), ("Baking soda", 0.5, "tsp"))),
    Recipe("Chocolate Chip Cookies", "american", 24, 15, 12, 180, (
        ("All-purpose flour", 2.25, "cup"), ("Unsalted butter", 1, "cup"),
        ("Brown sugar", 0.75, "cup"), ("Granulated sugar", 0.75, "cup"),
        ("Large eggs", 2, "each"), ("Dark chocolate chips", 2, "cup"),
        ("Baking soda", 1, "tsp"))),
    Recipe("Spaghetti Bolognese", "italian", 4, 15, 45, 620, (
        ("Spaghetti", 400, "g"), ("Ground beef", 450, "g"), ("Yellow onions", 150, "g"),
        ("Carrots", 100, "g"), ("Garlic", 10, "g"), ("Crushed tomatoes", 794, "g"),
        ("Extra virgin olive oil", 2, "tbsp"), ("Parmesan cheese", 40, "g"))),
    Recipe("Chickpea Curry", "indian", 4, 10, 30, 420, (
        ("Canned chickpeas", 850, "g"), ("Coconut milk", 400, "ml"),
        ("Yellow onions", 150, "g"), ("Garlic", 10, "g"), ("Fresh ginger", 15, "g"),
        ("Curry powder", 2, "tbsp"), ("Crushed tomatoes", 400, "g"),
        ("Jasmine rice", 1.5, "cup"))),
    Recipe("Red Lentil Soup", "middle eastern", 6, 10, 35, 290, (
        ("Red lentils", 1.5, "cup"), ("Vegetable broth", 1500, "ml"),
        ("Yellow onions", 150, "g"), ("Carrots", 150, "g"), ("Ground cumin", 2, "tsp"),
        ("Lemons", 1, "each"), ("Extra virgin olive oil", 2, "tbsp"))),
    Recipe("Baked Salmon with Potatoes", "scandinavian", 2, 10, 30, 560, (
        ("Salmon fillets", 340, "g"), ("Russet potatoes", 500, "g"), ("Lemons", 1, "each"),
        ("Extra virgin olive oil", 2, "tbsp"), ("Garlic", 6, "g"))),
    Recipe("Chicken Tacos", "mexican", 4, 20, 20, 480, (
        ("Chicken thighs", 600, "g"), ("Corn tortillas", 12, "each"), ("Limes", 2, "each"),
        ("Avocados", 2, "each"), ("Red bell peppers", 1, "each"), ("Ground cumin", 1, "tsp"),
        ("Yellow onions", 100, "g"))),
    Recipe("Mushroom Risotto", "italian", 4, 10, 35, 450, (
        ("Jasmine rice", 1.5, "cup"), ("Cremini mushrooms", 227, "g"),
        ("Vegetable broth", 1000, "ml"), ("Parmesan cheese", 50, "g"),
        ("Unsalted butter", 2, "tbsp"), ("Yellow onions", 100, "g"), ("Garlic", 6, "g"))),
    Recipe("Overnight Oats", "american", 2, 5, 0, 330, (
        ("Rolled oats", 1, "cup"), ("Whole milk", 1, "cup"),
        ("Plain Greek yogurt", 0.5, "cup"), ("Honey", 2, "tbsp"), ("Bananas", 1, "each"))),
    Recipe("Tofu Stir-Fry", "chinese", 3, 15, 15, 390, (
        ("Firm tofu", 397, "g"), ("Red bell peppers", 2, "each"), ("Carrots", 150, "g"),
        ("Soy sauce", 3, "tbsp"), ("Fresh ginger", 10, "g"), ("Garlic", 6, "g"),
        ("Jasmine rice", 1, "cup"))),
    Recipe("Spinach Omelette", "french", 1, 5, 8, 340, (
        ("Large eggs", 3, "each"), ("Baby spinach", 30, "g"), ("Cheddar cheese", 30, "g"),
        ("Unsalted butter", 1, "tbsp"))),
    Recipe("Banana Bread", "american", 10, 15, 60, 260, (
        ("All-purpose flour", 1.75, "cup"), ("Bananas", 3, "each"),
        ("Brown sugar", 0.5, "cup"), ("Unsalted butter", 0.33, "cup"),
        ("Large eggs", 2, "each"), ("Baking soda", 1, "tsp"))),
    Recipe("Tomato Basil Bruschetta", "italian", 6, 15, 5, 150, (
        ("Roma tomatoes", 500, "g"), ("Fresh basil", 15, "g"), ("Garlic", 6, "g"),
        ("Extra virgin olive oil", 3, "tbsp"))),
    Recipe("Creamy Mushroom Pasta", "italian", 4, 10, 20, 590, (
        ("Spaghetti", 400, "g"), ("Cremini mushrooms", 227, "g"), ("Heavy cream", 1, "cup"),
        ("Parmesan cheese", 50, "g"), ("Garlic", 10, "g"), ("Unsalted butter", 2, "tbsp"))),
    Recipe("Breakfast Burritos", "mexican", 4, 10, 15, 520, (
        ("Large eggs", 8, "each"), ("Bacon", 200, "g"), ("Cheddar cheese", 100, "g"),
        ("Corn tortillas", 8, "each"), ("Red bell peppers", 1, "each"))),
    Recipe("Coconut Rice", "thai", 4, 5, 20, 350, (
        ("Jasmine rice", 2, "cup"), ("Coconut milk", 400, "ml"),
        ("Granulated sugar", 1, "tbsp"))),
    Recipe("Honey Ginger Salmon", "japanese", 2, 10, 15, 510, (
        ("Salmon fillets", 340, "g"), ("Honey", 2, "tbsp"), ("Soy sauce", 2, "tbsp"),
        ("Fresh ginger", 10, "g"), ("Garlic", 6, "g"))),
    Recipe("Cheesy Potato Gratin", "french", 6, 20, 60, 380, (
        ("Russet potatoes", 1200, "g"), ("Heavy cream", 1.5, "cup"),
        ("Cheddar cheese", 150, "g"), ("Garlic", 6, "g"), ("Unsalted butter", 1, "tbsp"))),
    Recipe("Greek Yogurt Parfait", "greek", 2, 5, 0, 280, (
        ("Plain Greek yogurt", 1.5, "cup"), ("Honey", 2, "tbsp"),
        ("Rolled oats", 0.5, "cup"), ("Bananas", 1, "each"))),
    Recipe("Beef and Bean Chili", "tex-mex", 6, 15, 60, 540, (
        ("Ground beef", 900, "g"), ("Canned chickpeas", 425, "g"),
        ("Crushed tomatoes", 794, "g"), ("Yellow onions", 200, "g"),
        ("Red bell peppers", 2, "each"), ("Ground cumin", 1, "tbsp"), ("Garlic", 10, "g"))),
    Recipe("Guacamole", "mexican", 4, 10, 0, 210, (
        ("Avocados", 3, "each"), ("Limes", 1, "each"), ("Yellow onions", 50, "g"),
        ("Roma tomatoes", 100, "g"))),
    Recipe("Shortbread", "scottish", 16, 15, 25, 140, (
        ("All-purpose flour", 2, "cup"), ("Unsalted butter", 1, "cup"),
        ("Granulated sugar", 0.5, "cup"))),
)  # fmt: skip

# Volume units in millilitres and mass units in grams (US customary where they differ).
VOLUME_ML: dict[str, float] = {
    "ml": 1.0,
    "l": 1000.0,
    "tsp": 4.92892,
    "tbsp": 14.7868,
    "fl_oz": 29.5735,
    "cup": 236.588,
}
MASS_G: dict[str, float] = {"g": 1.0, "kg": 1000.0, "oz": 28.3495, "lb": 453.592}

NEIGHBORHOODS: tuple[str, ...] = (
    "Riverside",
    "Old Town",
    "Eastfield",
    "Maple Heights",
    "Southgate",
    "Harbor Point",
    "Northside",
)

CUISINES: tuple[str, ...] = (
    "italian",
    "japanese",
    "mexican",
    "indian",
    "thai",
    "french",
    "american",
    "chinese",
    "greek",
    "korean",
)

# Restaurant name patterns per cuisine; "{w}" is one of NAME_WORDS.
RESTAURANT_PATTERNS: dict[str, tuple[str, ...]] = {
    "italian": ("Trattoria {w}", "{w} Osteria", "Pasta {w}"),
    "japanese": ("Sushi {w}", "{w} Izakaya", "Ramen {w}"),
    "mexican": ("Cantina {w}", "{w} Taqueria"),
    "indian": ("{w} Tandoor", "Spice of {w}"),
    "thai": ("{w} Thai Kitchen", "Bangkok {w}"),
    "french": ("Bistro {w}", "Le Petit {w}"),
    "american": ("{w} Diner", "{w} Grill House", "The {w} Tavern"),
    "chinese": ("{w} Dumpling House", "Golden {w}"),
    "greek": ("Taverna {w}", "{w} Mezze"),
    "korean": ("Seoul {w}", "{w} BBQ"),
}

NAME_WORDS: tuple[str, ...] = (
    "Aurora", "Basilico", "Cedar", "Cobalt", "Copper", "Daisy", "Ember", "Fig", "Garnet",
    "Harbor", "Indigo", "Juniper", "Kestrel", "Laurel", "Lotus", "Magnolia", "Marigold",
    "Nutmeg", "Olive", "Orchid", "Pepper", "Quince", "Saffron", "Sage", "Sparrow",
    "Tamarind", "Thistle", "Umber", "Velvet", "Willow", "Zephyr",
)  # fmt: skip

# Service providers: category -> (name patterns, services as (name, minutes, price)).
PROVIDER_CATEGORIES: dict[str, tuple[tuple[str, ...], tuple[tuple[str, int, float], ...]]] = {
    "plumbing": (
        ("{w} Plumbing", "{w} Pipe & Drain"),
        (("Leak repair", 60, 145.0), ("Drain unclogging", 60, 119.0),
         ("Water heater flush", 90, 165.0)),
    ),
    "hvac": (
        ("{w} Heating & Air", "{w} Climate Care"),
        (("Furnace tune-up", 90, 129.0), ("AC inspection", 60, 99.0),
         ("Duct cleaning", 180, 349.0)),
    ),
    "electrical": (
        ("{w} Electric", "{w} Wiring Co."),
        (("Outlet installation", 60, 135.0), ("Smoke detector check", 45, 79.0),
         ("Panel inspection", 90, 189.0)),
    ),
    "cleaning": (
        ("{w} Cleaning Crew", "{w} Maids"),
        (("Standard clean (2 bed)", 120, 140.0), ("Deep clean (2 bed)", 240, 260.0),
         ("Oven cleaning", 90, 95.0), ("Window washing", 120, 150.0)),
    ),
    "hair salon": (
        ("{w} Hair Studio", "{w} Barbers"),
        (("Haircut", 45, 38.0), ("Haircut and beard trim", 60, 52.0),
         ("Color and cut", 120, 145.0), ("Kids haircut", 30, 24.0)),
    ),
    "lawn care": (
        ("{w} Lawn & Garden", "{w} Landscaping"),
        (("Lawn mowing", 60, 55.0), ("Hedge trimming", 90, 95.0),
         ("Gutter cleaning", 120, 175.0)),
    ),
    "pet grooming": (
        ("{w} Pet Spa", "{w} Grooming"),
        (("Dog bath and brush", 60, 55.0), ("Full dog groom", 120, 95.0),
         ("Nail trim", 15, 18.0), ("Cat groom", 60, 70.0)),
    ),
    "veterinary": (
        ("{w} Veterinary Clinic", "{w} Animal Hospital"),
        (("Wellness exam", 30, 68.0), ("Vaccination visit", 30, 45.0),
         ("Dental cleaning", 120, 320.0)),
    ),
}  # fmt: skip

# The three independent rating guides; LocalLens (verified visits) is authoritative.
RATING_LOCALLENS = "LocalLens verified reviews"
RATING_STARBOARD = "StarBoard"
RATING_TOWNTALK = "TownTalk community"

FIRST_NAMES: tuple[str, ...] = (
    "Maya", "Liam", "Noah", "Ava", "Ethan", "Zoe", "Lucas", "Priya", "Omar", "Hannah",
    "Mateo", "Grace", "Ines", "Kenji", "Leah", "Samir", "Nora", "Felix", "Chloe", "Diego",
    "Amara", "Tobias", "Yara", "Ruth",
)  # fmt: skip
LAST_NAMES: tuple[str, ...] = (
    "Okafor", "Lindqvist", "Moreau", "Haddad", "Tanaka", "Kowalski", "Fernandes", "Brennan",
    "Nakamura", "Sørensen", "Achebe", "Castillo", "Whitfield", "Rahman", "Delgado", "Novak",
)  # fmt: skip
RELATIONS: tuple[str, ...] = ("family", "friend", "colleague", "neighbor")
OCCASION_KINDS: tuple[str, ...] = ("birthday", "anniversary", "housewarming", "graduation")

HOUSEHOLD: tuple[str, ...] = ("Alex", "Jordan", "Sam", "Riley")

# Pets: (species, breed, typical weight range kg, food item names it may eat).
PET_KINDS: tuple[tuple[str, str, float, float, tuple[str, ...]], ...] = (
    ("dog", "Labrador Retriever", 25, 36, ("Adult dog kibble", "Senior dog kibble")),
    ("dog", "Beagle", 9, 14, ("Adult dog kibble", "Senior dog kibble")),
    ("dog", "Border Collie", 14, 20, ("Adult dog kibble",)),
    ("dog", "French Bulldog", 9, 13, ("Adult dog kibble", "Puppy kibble")),
    ("cat", "Domestic Shorthair", 3.5, 6, ("Indoor cat dry food", "Kitten dry food")),
    ("cat", "Maine Coon", 5.5, 9, ("Indoor cat dry food",)),
    ("cat", "Siamese", 3, 5, ("Indoor cat dry food",)),
    ("rabbit", "Holland Lop", 1.4, 2, ("Rabbit pellets",)),
)
PET_NAMES: tuple[str, ...] = (
    "Biscuit", "Luna", "Milo", "Pepper", "Olive", "Waffles", "Juniper", "Mochi", "Rocket",
    "Hazel", "Pickles", "Ziggy",
)  # fmt: skip
# Vaccines per species: (name, booster interval in months).
VACCINES: dict[str, tuple[tuple[str, int], ...]] = {
    "dog": (("Rabies", 36), ("DHPP", 36), ("Bordetella", 12), ("Leptospirosis", 12)),
    "cat": (("Rabies", 12), ("FVRCP", 36), ("FeLV", 12)),
    "rabbit": (("RHDV2", 12),),
}

# Home appliances and their recurring maintenance: (appliance, room, task, interval days,
# provider category or None for a do-it-yourself task).
MAINTENANCE: tuple[tuple[str, str, str, int, str | None], ...] = (
    ("Furnace", "basement", "Replace HVAC filter", 90, None),
    ("Furnace", "basement", "Annual furnace tune-up", 365, "hvac"),
    ("Central air conditioner", "outside", "AC inspection", 365, "hvac"),
    ("Water heater", "basement", "Flush water heater", 365, "plumbing"),
    ("Refrigerator", "kitchen", "Clean condenser coils", 180, None),
    ("Refrigerator", "kitchen", "Replace water filter", 180, None),
    ("Dishwasher", "kitchen", "Clean dishwasher filter", 30, None),
    ("Washing machine", "laundry room", "Run drum cleaning cycle", 30, None),
    ("Clothes dryer", "laundry room", "Clean dryer vent", 365, None),
    ("Smoke detectors", "whole house", "Test smoke detectors", 30, None),
    ("Smoke detectors", "whole house", "Professional detector check", 365, "electrical"),
    ("Electrical panel", "garage", "Panel inspection", 730, "electrical"),
    ("Gutters", "outside", "Gutter cleaning", 180, "lawn care"),
    ("Range hood", "kitchen", "Degrease range hood filter", 90, None),
    ("Oven", "kitchen", "Deep clean oven", 120, "cleaning"),
    ("Kitchen sink", "kitchen", "Clear drain", 120, "plumbing"),
)

# House plants and garden plants: (species, short name, watering interval days, light,
# fertilize interval days).
PLANTS: tuple[tuple[str, str, int, str, int], ...] = (
    ("Monstera deliciosa", "monstera", 7, "bright indirect", 30),
    ("Snake plant", "snake plant", 14, "low", 60),
    ("Fiddle leaf fig", "fiddle fig", 7, "bright indirect", 30),
    ("Pothos", "pothos", 7, "medium", 30),
    ("Peace lily", "peace lily", 5, "low", 45),
    ("ZZ plant", "zz plant", 14, "low", 90),
    ("Basil", "basil", 2, "full sun", 14),
    ("Rosemary", "rosemary", 4, "full sun", 30),
    ("Tomato", "tomatoes", 2, "full sun", 14),
    ("Aloe vera", "aloe", 21, "bright direct", 90),
    ("Boston fern", "fern", 3, "medium", 30),
    ("Orchid", "orchid", 7, "bright indirect", 14),
    ("Lavender", "lavender", 7, "full sun", 60),
    ("Spider plant", "spider plant", 7, "medium", 30),
)
PLANT_SPOTS: tuple[str, ...] = (
    "Kitchen",
    "Living room",
    "Bedroom",
    "Balcony",
    "Office",
    "Bathroom",
    "Front porch",
    "Back garden",
    "Hallway",
)

# Household chores: (name, every N days, minutes).
CHORES: tuple[tuple[str, int, int], ...] = (
    ("Take out recycling", 7, 10),
    ("Vacuum living room", 7, 30),
    ("Clean bathroom", 7, 45),
    ("Mop kitchen floor", 7, 25),
    ("Water house plants", 3, 15),
    ("Change bed sheets", 14, 20),
    ("Wipe kitchen counters", 1, 10),
    ("Do laundry", 4, 60),
    ("Grocery run", 7, 75),
    ("Clean fridge", 30, 40),
    ("Dust shelves", 14, 20),
    ("Mow the lawn", 10, 50),
)
