"""Constants the health world is drawn from: people, drugs, places, foods, tests, vaccines.

Values are realistic: generic drug strengths and US average acquisition prices per unit,
per-serving nutrition facts close to the national food composition tables, adult
laboratory reference ranges in conventional US units, and CDC-style travel vaccine advice.
"""

from __future__ import annotations

from typing import NamedTuple

FIRST_NAMES: dict[tuple[str, str], tuple[str, ...]] = {
    ("adult", "male"): (
        "Daniel",
        "Marcus",
        "Hiroshi",
        "Tomás",
        "Omar",
        "Victor",
        "Samuel",
        "Jamal",
    ),
    ("adult", "female"): ("Priya", "Elena", "Amara", "Grace", "Leah", "Nadia", "Ingrid", "Rosa"),
    ("child", "male"): ("Leo", "Eli", "Noah", "Kai", "Theo"),
    ("child", "female"): ("Maya", "Zoe", "Aisha", "Ivy", "Lucia"),
    ("senior", "male"): ("Harold", "Walter", "Arthur"),
    ("senior", "female"): ("Margaret", "Evelyn", "Dorothy"),
}
LAST_NAMES = (
    "Okafor",
    "Lindqvist",
    "Moreno",
    "Tanaka",
    "Brennan",
    "Haddad",
    "Kowalski",
    "Nguyen",
    "Castellano",
    "Whitfield",
    "Park",
    "Dubois",
    "Reyes",
    "Sandoval",
)
EMAIL_DOMAINS = ("mailbox.org", "fastmail.com", "proton.me", "gmail.com")

CITIES = ("Seattle", "Bellevue", "Redmond", "Kirkland", "Renton", "Shoreline")


class Drug(NamedTuple):
    """A generic drug product: strength, dose form, class, tier and unit price (USD)."""

    name: str
    brand: str
    strength: str
    strength_mg: float
    form: str
    drug_class: str
    tier: int
    unit_price_usd: float
    rx_only: bool
    times_per_day: int


DRUGS: tuple[Drug, ...] = (
    Drug("atorvastatin", "Lipitor", "20 mg", 20, "tablet", "statin", 1, 0.0412, True, 1),
    Drug("rosuvastatin", "Crestor", "10 mg", 10, "tablet", "statin", 1, 0.0718, True, 1),
    Drug("simvastatin", "Zocor", "40 mg", 40, "tablet", "statin", 1, 0.0361, True, 1),
    Drug("lisinopril", "Zestril", "10 mg", 10, "tablet", "ACE inhibitor", 1, 0.0287, True, 1),
    Drug("losartan", "Cozaar", "50 mg", 50, "tablet", "ARB", 1, 0.0815, True, 1),
    Drug(
        "amlodipine", "Norvasc", "5 mg", 5, "tablet", "calcium channel blocker", 1, 0.0198, True, 1
    ),
    Drug(
        "metoprolol succinate",
        "Toprol XL",
        "50 mg",
        50,
        "tablet",
        "beta blocker",
        1,
        0.1634,
        True,
        1,
    ),
    Drug("hydrochlorothiazide", "Microzide", "25 mg", 25, "tablet", "diuretic", 1, 0.0176, True, 1),
    Drug("metformin", "Glucophage", "500 mg", 500, "tablet", "biguanide", 1, 0.0231, True, 2),
    Drug("glipizide", "Glucotrol", "5 mg", 5, "tablet", "sulfonylurea", 1, 0.0532, True, 2),
    Drug(
        "levothyroxine",
        "Synthroid",
        "50 mcg",
        0.05,
        "tablet",
        "thyroid hormone",
        1,
        0.1485,
        True,
        1,
    ),
    Drug(
        "omeprazole",
        "Prilosec",
        "20 mg",
        20,
        "capsule",
        "proton pump inhibitor",
        1,
        0.0594,
        True,
        1,
    ),
    Drug(
        "pantoprazole",
        "Protonix",
        "40 mg",
        40,
        "tablet",
        "proton pump inhibitor",
        1,
        0.0702,
        True,
        1,
    ),
    Drug("famotidine", "Pepcid", "20 mg", 20, "tablet", "H2 blocker", 1, 0.0489, True, 2),
    Drug("sertraline", "Zoloft", "50 mg", 50, "tablet", "SSRI", 1, 0.0396, True, 1),
    Drug("escitalopram", "Lexapro", "10 mg", 10, "tablet", "SSRI", 1, 0.0453, True, 1),
    Drug("fluoxetine", "Prozac", "20 mg", 20, "capsule", "SSRI", 1, 0.0624, True, 1),
    Drug("bupropion XL", "Wellbutrin XL", "150 mg", 150, "tablet", "NDRI", 2, 0.2871, True, 1),
    Drug("trazodone", "Desyrel", "50 mg", 50, "tablet", "antidepressant", 1, 0.0437, True, 1),
    Drug("gabapentin", "Neurontin", "300 mg", 300, "capsule", "anticonvulsant", 1, 0.0583, True, 3),
    Drug(
        "amoxicillin",
        "Amoxil",
        "500 mg",
        500,
        "capsule",
        "penicillin antibiotic",
        1,
        0.0916,
        True,
        3,
    ),
    Drug(
        "doxycycline",
        "Vibramycin",
        "100 mg",
        100,
        "capsule",
        "tetracycline antibiotic",
        1,
        0.2412,
        True,
        2,
    ),
    Drug(
        "azithromycin",
        "Zithromax",
        "250 mg",
        250,
        "tablet",
        "macrolide antibiotic",
        1,
        0.6318,
        True,
        1,
    ),
    Drug("prednisone", "Deltasone", "10 mg", 10, "tablet", "corticosteroid", 1, 0.0441, True, 1),
    Drug(
        "montelukast", "Singulair", "10 mg", 10, "tablet", "leukotriene blocker", 1, 0.0779, True, 1
    ),
    Drug("cetirizine", "Zyrtec", "10 mg", 10, "tablet", "antihistamine", 1, 0.0312, False, 1),
    Drug("loratadine", "Claritin", "10 mg", 10, "tablet", "antihistamine", 1, 0.0264, False, 1),
    Drug("ibuprofen", "Motrin", "600 mg", 600, "tablet", "NSAID", 1, 0.0521, True, 3),
    Drug("naproxen", "Naprosyn", "500 mg", 500, "tablet", "NSAID", 1, 0.0867, True, 2),
    Drug("tamsulosin", "Flomax", "0.4 mg", 0.4, "capsule", "alpha blocker", 1, 0.0641, True, 1),
    Drug("clopidogrel", "Plavix", "75 mg", 75, "tablet", "antiplatelet", 1, 0.0518, True, 1),
    Drug("apixaban", "Eliquis", "5 mg", 5, "tablet", "anticoagulant", 3, 8.3127, True, 2),
    Drug(
        "allopurinol",
        "Zyloprim",
        "100 mg",
        100,
        "tablet",
        "xanthine oxidase inhibitor",
        1,
        0.0476,
        True,
        1,
    ),
    Drug("methylphenidate ER", "Concerta", "18 mg", 18, "tablet", "stimulant", 2, 1.1843, True, 1),
    Drug("sumatriptan", "Imitrex", "50 mg", 50, "tablet", "triptan", 2, 0.3529, True, 1),
    Drug(
        "atovaquone-proguanil",
        "Malarone",
        "250/100 mg",
        250,
        "tablet",
        "antimalarial",
        2,
        1.4562,
        True,
        1,
    ),
)

# Pairs of drug classes (or drugs) with a documented interaction: (a, b, severity, advice).
INTERACTIONS: tuple[tuple[str, str, str, str], ...] = (
    (
        "clopidogrel",
        "omeprazole",
        "major",
        "omeprazole reduces clopidogrel activation; prefer pantoprazole",
    ),
    ("apixaban", "naproxen", "major", "NSAIDs raise bleeding risk with anticoagulants"),
    ("apixaban", "ibuprofen", "major", "NSAIDs raise bleeding risk with anticoagulants"),
    ("clopidogrel", "ibuprofen", "moderate", "NSAIDs add to bleeding risk"),
    ("sertraline", "trazodone", "moderate", "additive serotonergic effect"),
    ("escitalopram", "trazodone", "moderate", "additive serotonergic effect"),
    ("fluoxetine", "trazodone", "moderate", "additive serotonergic effect"),
    ("lisinopril", "ibuprofen", "moderate", "NSAIDs blunt ACE inhibitor effect on blood pressure"),
    ("losartan", "naproxen", "moderate", "NSAIDs blunt ARB effect and strain the kidneys"),
    ("simvastatin", "amlodipine", "moderate", "limit simvastatin to 20 mg daily with amlodipine"),
    (
        "levothyroxine",
        "omeprazole",
        "minor",
        "acid suppression may reduce levothyroxine absorption",
    ),
    ("metformin", "hydrochlorothiazide", "minor", "thiazides may raise blood glucose"),
)

DOSE_TIMES: dict[int, tuple[str, ...]] = {
    1: ("08:00",),
    2: ("08:00", "20:00"),
    3: ("08:00", "14:00", "20:00"),
}

PHARMACY_CHAINS = (
    "CareWay Pharmacy",
    "Greenleaf Drugs",
    "MedPoint Pharmacy",
    "Cascade Apothecary",
    "Summit Rx",
    "Harbor Health Pharmacy",
)
STREETS = (
    "Pine St",
    "Main St",
    "NE 8th St",
    "Bothell Way",
    "Rainier Ave S",
    "Lake City Way",
    "Market St",
    "Aurora Ave N",
    "156th Ave NE",
    "Central Way",
    "Sunset Blvd",
    "Union Ave NE",
)

CLINICS: tuple[tuple[str, tuple[str, ...], bool, bool], ...] = (
    # (name, specialties, walk_in, travel_vaccines)
    ("Evergreen Family Medicine", ("primary care", "pediatrics"), False, False),
    ("Lakeside Primary Care", ("primary care", "lab draw"), False, False),
    ("Northgate Urgent Care", ("urgent care", "lab draw"), True, False),
    ("Eastside Travel & Wellness", ("travel medicine", "primary care"), True, True),
    ("Cascade Dermatology", ("dermatology",), False, False),
    ("Puget Sound Cardiology", ("cardiology",), False, False),
    ("Redmond Pediatrics", ("pediatrics",), False, False),
    ("Summit Sports Medicine", ("sports medicine", "physical therapy"), False, False),
    ("Harborview Walk-In Clinic", ("urgent care", "travel medicine"), True, True),
    ("Kirkland Endocrine Center", ("endocrinology", "lab draw"), False, False),
    ("Renton Community Health", ("primary care", "lab draw", "pediatrics"), True, False),
    ("Shoreline Women's Health", ("obstetrics and gynecology",), False, False),
)

DOCTOR_FIRST = (
    "Anjali",
    "Benjamin",
    "Carmen",
    "David",
    "Esther",
    "Farid",
    "Gabriela",
    "Henry",
    "Isabel",
    "Jun",
    "Katarzyna",
    "Luis",
    "Meera",
    "Nathan",
    "Olivia",
    "Rahul",
    "Sofia",
    "Thomas",
    "Uma",
    "Wei",
    "Yusuf",
    "Zara",
)
DOCTOR_LAST = (
    "Abernathy",
    "Bhattacharya",
    "Chen",
    "Delgado",
    "Eriksen",
    "Fitzgerald",
    "Gupta",
    "Holloway",
    "Ibrahim",
    "Jansen",
    "Kim",
    "Lopez",
    "Mensah",
    "Novak",
    "Olsen",
    "Petrov",
    "Quinn",
    "Rossi",
    "Sato",
    "Thornton",
)
SLOT_TIMES = (
    "08:30",
    "09:00",
    "09:30",
    "10:00",
    "10:30",
    "11:00",
    "13:00",
    "13:30",
    "14:00",
    "14:30",
    "15:00",
    "15:30",
    "16:00",
)
VISIT_REASONS = (
    "annual physical",
    "follow-up visit",
    "skin check",
    "knee pain",
    "blood pressure check",
    "medication review",
    "sore throat",
    "travel consultation",
    "fasting lipid panel",
)

# Workout types: (name, MET value, km per minute or None for non-distance workouts).
WORKOUT_TYPES: dict[str, tuple[float, float | None]] = {
    "run": (9.8, 0.165),
    "walk": (3.5, 0.083),
    "cycle": (7.5, 0.33),
    "swim": (6.0, 0.04),
    "strength": (5.0, None),
    "yoga": (2.5, None),
    "hiit": (8.0, None),
}


class Food(NamedTuple):
    """A food per serving: kcal, protein/carbs/fat/fiber (g), sodium and caffeine (mg)."""

    name: str
    serving: str
    calories_kcal: float
    protein_g: float
    carbs_g: float
    fat_g: float
    fiber_g: float
    sodium_mg: float
    caffeine_mg: float


FOODS: tuple[Food, ...] = (
    Food("Oatmeal, cooked", "1 cup (234 g)", 166, 5.9, 28.1, 3.6, 4.0, 9, 0),
    Food("Banana", "1 medium (118 g)", 105, 1.3, 27.0, 0.4, 3.1, 1, 0),
    Food("Greek yogurt, plain nonfat", "1 container (170 g)", 100, 17.3, 6.1, 0.7, 0.0, 61, 0),
    Food("Scrambled eggs", "2 large eggs (122 g)", 182, 12.2, 2.0, 13.4, 0.0, 176, 0),
    Food("Whole wheat toast", "1 slice (32 g)", 81, 4.0, 13.8, 1.1, 1.9, 146, 0),
    Food("Avocado", "half (100 g)", 160, 2.0, 8.5, 14.7, 6.7, 7, 0),
    Food("Blueberries", "1 cup (148 g)", 84, 1.1, 21.4, 0.5, 3.6, 1, 0),
    Food("Apple", "1 medium (182 g)", 95, 0.5, 25.1, 0.3, 4.4, 2, 0),
    Food("Almonds", "1 oz (28 g)", 164, 6.0, 6.1, 14.2, 3.5, 0, 0),
    Food("Peanut butter", "2 tbsp (32 g)", 191, 7.1, 7.1, 16.4, 1.6, 147, 0),
    Food("Grilled chicken breast", "4 oz (113 g)", 187, 35.2, 0.0, 4.1, 0.0, 84, 0),
    Food("Salmon, baked", "4 oz (113 g)", 233, 25.0, 0.0, 14.0, 0.0, 69, 0),
    Food("Brown rice, cooked", "1 cup (195 g)", 218, 4.5, 45.8, 1.6, 3.5, 2, 0),
    Food("Quinoa, cooked", "1 cup (185 g)", 222, 8.1, 39.4, 3.6, 5.2, 13, 0),
    Food("Black beans, canned", "1/2 cup (130 g)", 114, 7.6, 20.4, 0.5, 7.5, 461, 0),
    Food("Broccoli, steamed", "1 cup (156 g)", 55, 3.7, 11.2, 0.6, 5.1, 64, 0),
    Food("Spinach salad", "2 cups (60 g)", 14, 1.7, 2.2, 0.2, 1.3, 48, 0),
    Food("Turkey sandwich", "1 sandwich (220 g)", 352, 24.6, 37.8, 11.2, 4.3, 1180, 0),
    Food("Cheese pizza", "1 slice (107 g)", 285, 12.2, 35.7, 10.4, 2.5, 640, 0),
    Food("Spaghetti with marinara", "1 cup (250 g)", 262, 9.1, 49.6, 3.2, 4.6, 570, 0),
    Food("Beef burrito", "1 burrito (240 g)", 493, 24.8, 55.9, 19.4, 6.8, 1160, 0),
    Food("Chicken noodle soup", "1 cup (248 g)", 62, 3.2, 7.3, 2.4, 0.5, 866, 0),
    Food("Sushi roll, California", "8 pieces (240 g)", 262, 8.8, 38.1, 7.9, 3.5, 580, 0),
    Food("Cheddar cheese", "1 oz (28 g)", 113, 7.0, 0.4, 9.3, 0.0, 174, 0),
    Food("Potato chips", "1 oz (28 g)", 152, 1.9, 15.0, 9.8, 1.3, 147, 0),
    Food("Protein bar", "1 bar (60 g)", 210, 20.0, 23.0, 7.0, 3.0, 190, 0),
    Food("Orange juice", "8 fl oz (248 g)", 112, 1.7, 25.8, 0.5, 0.5, 2, 0),
    Food("Whole milk", "1 cup (244 g)", 149, 7.7, 11.7, 7.9, 0.0, 105, 0),
    Food("Brewed coffee", "8 fl oz (237 g)", 2, 0.3, 0.0, 0.0, 0.0, 5, 95),
    Food("Espresso", "1 shot (30 g)", 3, 0.2, 0.5, 0.1, 0.0, 4, 63),
    Food("Latte with whole milk", "12 fl oz (360 g)", 180, 10.0, 14.4, 9.5, 0.0, 150, 126),
    Food("Green tea", "8 fl oz (245 g)", 2, 0.5, 0.0, 0.0, 0.0, 2, 28),
    Food("Black tea", "8 fl oz (240 g)", 2, 0.0, 0.7, 0.0, 0.0, 7, 47),
    Food("Cola", "12 fl oz can (368 g)", 140, 0.0, 39.0, 0.0, 0.0, 45, 34),
    Food("Energy drink", "8.4 fl oz can (260 g)", 110, 0.0, 28.0, 0.0, 0.0, 105, 80),
    Food("Dark chocolate 70-85%", "1 oz (28 g)", 170, 2.2, 13.0, 12.1, 3.1, 6, 23),
    Food("Ice cream, vanilla", "1/2 cup (66 g)", 137, 2.3, 15.6, 7.3, 0.5, 53, 0),
    Food("Red wine", "5 fl oz (147 g)", 125, 0.1, 3.8, 0.0, 0.0, 6, 0),
    Food("Hummus", "1/4 cup (62 g)", 102, 4.9, 8.9, 5.9, 3.7, 235, 0),
    Food("Baby carrots", "1 cup (128 g)", 45, 0.8, 10.5, 0.2, 3.7, 100, 0),
)
MEAL_SLOTS: tuple[tuple[str, str, str], ...] = (
    # (meal, earliest time, latest time)
    ("breakfast", "06:30", "09:00"),
    ("lunch", "11:45", "13:30"),
    ("snack", "15:00", "16:30"),
    ("dinner", "18:00", "20:00"),
)
BREAKFAST_FOODS = (
    "Oatmeal, cooked",
    "Banana",
    "Greek yogurt, plain nonfat",
    "Scrambled eggs",
    "Whole wheat toast",
    "Blueberries",
    "Orange juice",
    "Brewed coffee",
    "Latte with whole milk",
    "Whole milk",
    "Avocado",
    "Black tea",
)
LUNCH_FOODS = (
    "Turkey sandwich",
    "Spinach salad",
    "Chicken noodle soup",
    "Sushi roll, California",
    "Black beans, canned",
    "Quinoa, cooked",
    "Grilled chicken breast",
    "Apple",
    "Cola",
    "Green tea",
    "Hummus",
)
SNACK_FOODS = (
    "Almonds",
    "Protein bar",
    "Potato chips",
    "Apple",
    "Baby carrots",
    "Espresso",
    "Dark chocolate 70-85%",
    "Energy drink",
    "Cheddar cheese",
    "Peanut butter",
    "Green tea",
)
DINNER_FOODS = (
    "Salmon, baked",
    "Brown rice, cooked",
    "Broccoli, steamed",
    "Cheese pizza",
    "Spaghetti with marinara",
    "Beef burrito",
    "Grilled chicken breast",
    "Red wine",
    "Ice cream, vanilla",
    "Quinoa, cooked",
    "Dark chocolate 70-85%",
)


class LabTest(NamedTuple):
    """A laboratory test with its unit, reference range and a typical adult spread."""

    code: str
    name: str
    unit: str
    ref_low: float
    ref_high: float
    mean: float
    spread: float
    digits: int


LAB_TESTS: tuple[LabTest, ...] = (
    LabTest("LDL", "LDL cholesterol", "mg/dL", 0, 99, 112, 28, 0),
    LabTest("HDL", "HDL cholesterol", "mg/dL", 40, 100, 54, 12, 0),
    LabTest("CHOL", "Total cholesterol", "mg/dL", 100, 199, 192, 32, 0),
    LabTest("TRIG", "Triglycerides", "mg/dL", 0, 149, 128, 45, 0),
    LabTest("A1C", "Hemoglobin A1c", "%", 4.0, 5.6, 5.6, 0.5, 1),
    LabTest("GLU", "Fasting glucose", "mg/dL", 70, 99, 96, 13, 0),
    LabTest("TSH", "Thyroid stimulating hormone", "mIU/L", 0.4, 4.0, 2.3, 1.3, 2),
    LabTest("VITD", "Vitamin D, 25-hydroxy", "ng/mL", 30, 100, 31, 11, 0),
    LabTest("HGB", "Hemoglobin", "g/dL", 12.0, 17.5, 14.2, 1.4, 1),
    LabTest("CREA", "Creatinine", "mg/dL", 0.6, 1.3, 0.95, 0.2, 2),
    LabTest("ALT", "Alanine aminotransferase", "U/L", 7, 56, 28, 12, 0),
    LabTest("FERR", "Ferritin", "ng/mL", 24, 336, 110, 70, 0),
)
PANELS: dict[str, tuple[str, ...]] = {
    "lipid panel": ("LDL", "HDL", "CHOL", "TRIG"),
    "metabolic panel": ("GLU", "CREA", "ALT"),
    "diabetes screen": ("A1C", "GLU"),
    "thyroid check": ("TSH",),
    "annual bloodwork": ("HGB", "VITD", "FERR", "TSH"),
}
LABS = ("Quest Diagnostics", "LabCorp", "Sonora Clinical Lab")

VACCINES: dict[str, int | None] = {
    # vaccine -> months until the next dose or booster is due (None: lifelong)
    "Influenza": 12,
    "COVID-19": 12,
    "Tdap": 120,
    "Hepatitis A": None,
    "Hepatitis B": None,
    "Typhoid": 24,
    "Yellow fever": None,
    "MMR": None,
    "Japanese encephalitis": None,
    "Rabies": None,
    "Meningococcal ACWY": 60,
    "Cholera": 24,
}


class Destination(NamedTuple):
    """Travel health advice for one country."""

    country: str
    code: str
    required: tuple[str, ...]
    recommended: tuple[str, ...]
    malaria_risk: bool


DESTINATIONS: tuple[Destination, ...] = (
    Destination(
        "Kenya", "KE", ("Yellow fever",), ("Hepatitis A", "Typhoid", "Tdap", "Rabies"), True
    ),
    Destination("Tanzania", "TZ", (), ("Hepatitis A", "Typhoid", "Yellow fever", "Cholera"), True),
    Destination("Brazil", "BR", (), ("Yellow fever", "Hepatitis A", "Typhoid"), True),
    Destination("Peru", "PE", (), ("Hepatitis A", "Typhoid", "Yellow fever"), True),
    Destination(
        "India", "IN", (), ("Hepatitis A", "Typhoid", "Hepatitis B", "Japanese encephalitis"), True
    ),
    Destination("Thailand", "TH", (), ("Hepatitis A", "Typhoid", "Japanese encephalitis"), False),
    Destination(
        "Vietnam",
        "VN",
        (),
        ("Hepatitis A", "Typhoid", "Hepatitis B", "Japanese encephalitis"),
        True,
    ),
    Destination(
        "Ghana", "GH", ("Yellow fever",), ("Hepatitis A", "Typhoid", "Meningococcal ACWY"), True
    ),
    Destination("Saudi Arabia", "SA", ("Meningococcal ACWY",), ("Hepatitis A", "Typhoid"), False),
    Destination("Mexico", "MX", (), ("Hepatitis A", "Typhoid"), False),
    Destination("Egypt", "EG", (), ("Hepatitis A", "Typhoid", "Hepatitis B"), False),
    Destination("Japan", "JP", (), ("Hepatitis A", "Japanese encephalitis"), False),
    Destination("Colombia", "CO", (), ("Yellow fever", "Hepatitis A", "Typhoid"), True),
    Destination("Indonesia", "ID", (), ("Hepatitis A", "Typhoid", "Rabies"), True),
    Destination("France", "FR", (), ("MMR",), False),
)

PLANS: tuple[tuple[str, float, float, int, float, float], ...] = (
    # (plan name, individual deductible, out-of-pocket max, coinsurance %, PCP copay, specialist)
    ("Evergreen Silver PPO", 2500.0, 7500.0, 20, 30.0, 60.0),
)
RX_TIER_COPAYS: dict[int, float] = {1: 10.0, 2: 45.0, 3: 90.0}
CLAIM_SERVICES: tuple[tuple[str, float, float], ...] = (
    # (service, billed low, billed high) in USD
    ("office visit", 180.0, 320.0),
    ("specialist visit", 260.0, 480.0),
    ("lab work", 90.0, 540.0),
    ("x-ray", 210.0, 650.0),
    ("MRI", 1400.0, 3200.0),
    ("urgent care visit", 190.0, 420.0),
    ("physical therapy session", 140.0, 260.0),
    ("vaccination", 60.0, 240.0),
    ("emergency room visit", 1800.0, 4200.0),
)

PRICE_PROVIDERS = {
    "index": "National Drug Price Index",
    "discount": "ScriptSaver discount network",
    "marketplace": "PillMarket pharmacy marketplace",
}
NUTRITION_PROVIDERS = {
    "national": "National Food Composition Database",
    "label": "LabelScan packaged-food database",
    "community": "CalorieCrowd community database",
}
WAIT_PROVIDERS = {
    "clinic": "clinic check-in system",
    "crowd": "WaitWatch crowd reports",
    "maps": "maps live busyness estimate",
}
