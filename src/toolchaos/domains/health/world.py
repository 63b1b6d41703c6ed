"""The health world: one household's members, medicines, care, activity, food, sleep, labs.

Tables (each keyed by the row's id unless noted):

- ``members``: the primary user and family (spouse, children, a parent), first names unique;
- ``medications``: a catalog of generic drugs; ``price_index``, ``price_discount`` and
  ``price_marketplace`` are three independent price services keyed by medication id that
  agree on ``unit_price_usd`` in the clean world, each with its own ``as_of``;
- ``prescriptions``, ``pharmacies`` and ``refills`` (refill requests, written by tools);
- ``clinics``, ``doctors``, ``slots`` (bookable times for the next two weeks) and
  ``appointments``; ``wait_clinic``, ``wait_crowd`` and ``wait_maps`` report each walk-in
  clinic's current wait from three independent services;
- ``activity`` and ``activity_backup`` (keyed ``"{member_id}:{date}"``): daily totals from
  the wearable cloud and, as an independent backup, the phone's health app; ``workouts``;
- ``foods`` with ``nutrition_national``, ``nutrition_label`` and ``nutrition_community``
  (three food databases that agree per serving in the clean world); ``meals`` (the log);
- ``sleep`` (keyed ``"{member_id}:{date}"``, the date the sleeper woke up);
- ``lab_results`` with reference ranges; ``vaccinations``; ``destinations`` (travel advice);
- ``plans`` (keyed by member id, with this year's accumulators) and ``claims``.

Dates are ISO ``YYYY-MM-DD`` and times ``HH:MM``, in the household's local time, which is
the world's clock; timestamps are ISO strings ending in ``Z``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any, ClassVar, Self

from pydantic import Field

from toolchaos.core.world import Row, World
from toolchaos.domains._common import money, stamp
from toolchaos.domains.health import data

HISTORY_DAYS = 14
MEAL_DAYS = 7
SLOT_DAYS = 14
HR_ZONES: tuple[tuple[int, str, float, float], ...] = (
    (1, "recovery", 0.50, 0.60),
    (2, "endurance", 0.60, 0.70),
    (3, "tempo", 0.70, 0.80),
    (4, "threshold", 0.80, 0.90),
    (5, "maximum", 0.90, 1.01),
)
BMI_CATEGORIES: tuple[tuple[float, str], ...] = (
    (18.5, "underweight"),
    (25.0, "healthy weight"),
    (30.0, "overweight"),
    (999.0, "obesity"),
)


# -- the domain's arithmetic ----------------------------------------------------------------


def age_on(birth: date, day: date) -> int:
    """Whole years between ``birth`` and ``day``."""
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def bmi(weight_kg: float, height_cm: float) -> float:
    """Body-mass index, kg/m², to one decimal."""
    return round(weight_kg / (height_cm / 100) ** 2, 1)


def bmi_category(value: float) -> str:
    """The WHO adult category of a BMI."""
    for top, name in BMI_CATEGORIES:
        if value < top:
            return name
    return BMI_CATEGORIES[-1][1]  # pragma: no cover


def bmr_kcal(weight_kg: float, height_cm: float, age: int, sex: str) -> int:
    """Basal metabolic rate by the Mifflin-St Jeor equation, kcal per day."""
    base = 10 * weight_kg + 6.25 * height_cm - 5 * age
    return round(base + (5 if sex == "male" else -161))


def max_heart_rate(age: int) -> int:
    """Age-predicted maximum heart rate (Tanaka: 208 - 0.7 x age), beats per minute."""
    return round(208 - 0.7 * age)


def heart_rate_zone(heart_rate: float, max_hr: int) -> tuple[int, str, float]:
    """The training zone (0 below zone 1) and share of maximum of a heart rate."""
    share = heart_rate / max_hr
    for number, name, low, high in HR_ZONES:
        if low <= share < high:
            return number, name, round(share * 100, 1)
    if share >= 1.0:
        return 5, "maximum", round(share * 100, 1)
    return 0, "resting", round(share * 100, 1)


def workout_kcal(met: float, weight_kg: float, minutes: int) -> int:
    """Energy of a workout: MET x body weight (kg) x hours."""
    return round(met * weight_kg * minutes / 60)


def cost_share(
    allowed: float, deductible_left: float, coinsurance_pct: int, oop_left: float
) -> dict[str, float]:
    """Split an allowed amount between member and plan.

    The member pays the deductible still open first, then ``coinsurance_pct`` of the
    rest; the member's total never exceeds what is left of the out-of-pocket maximum.
    """
    amount, ded_left, oop = (
        Decimal(str(allowed)),
        Decimal(str(deductible_left)),
        Decimal(str(oop_left)),
    )
    deductible = min(amount, max(ded_left, Decimal(0)))
    coinsurance = (amount - deductible) * Decimal(coinsurance_pct) / Decimal(100)
    member = min(deductible + coinsurance, max(oop, Decimal(0)))
    if member < deductible:
        deductible, coinsurance = member, Decimal(0)
    else:
        coinsurance = member - deductible
    return {
        "deductible_applied_usd": money(deductible),
        "coinsurance_usd": money(coinsurance),
        "member_pays_usd": money(member),
        "plan_pays_usd": money(amount - Decimal(str(money(member)))),
    }


def key_of(member_id: str, day: str) -> str:
    """The key of a member's daily row (activity, sleep)."""
    return f"{member_id}:{day}"


# -- rows --------------------------------------------------------------------------------


class Member(Row):
    """A person in the household: the primary user or a family member."""

    member_id: str
    name: str
    first_name: str
    relationship: str
    birth_date: str
    sex: str
    height_cm: float
    weight_kg: float
    email: str


class Medication(Row):
    """A drug product in the catalog."""

    medication_id: str
    name: str
    brand: str
    strength: str
    form: str
    drug_class: str
    tier: int
    rx_only: bool


class PriceIndex(Row):
    """The national drug price index's current unit price (authoritative)."""

    medication_id: str
    unit_price_usd: float
    as_of: str
    survey_week: str


class PriceDiscount(Row):
    """The discount network's current unit price."""

    medication_id: str
    unit_price_usd: float
    as_of: str
    network_pharmacies: int


class PriceMarketplace(Row):
    """The pharmacy marketplace's current unit price."""

    medication_id: str
    unit_price_usd: float
    as_of: str
    listings: int


class Prescription(Row):
    """A member's prescription: dose, schedule, supply on hand and refills."""

    prescription_id: str
    member_id: str
    medication_id: str
    units_per_dose: int
    times_per_day: int
    dose_times: list[str]
    quantity_per_fill: int
    refills_left: int
    units_on_hand: int
    last_fill_date: str
    pharmacy_id: str
    prescriber_id: str
    status: str
    instructions: str


class Pharmacy(Row):
    """A pharmacy the household can use."""

    pharmacy_id: str
    name: str
    chain: str
    city: str
    address: str
    phone: str
    opens_at: str
    closes_at: str
    drive_thru: bool


class Refill(Row):
    """A refill request at a pharmacy."""

    refill_id: str
    prescription_id: str
    member_id: str
    medication_id: str
    pharmacy_id: str
    quantity: int
    pickup_date: str
    copay_usd: float
    status: str
    created_at: str


class Clinic(Row):
    """A clinic with its specialties."""

    clinic_id: str
    name: str
    city: str
    address: str
    phone: str
    specialties: list[str]
    walk_in: bool
    travel_vaccines: bool


class Doctor(Row):
    """A clinician at one clinic."""

    doctor_id: str
    name: str
    specialty: str
    clinic_id: str
    accepting_new_patients: bool


class Slot(Row):
    """A bookable appointment time."""

    slot_id: str
    doctor_id: str
    clinic_id: str
    specialty: str
    date: str
    start_time: str
    duration_min: int
    booked: bool


class Appointment(Row):
    """A member's appointment."""

    appointment_id: str
    member_id: str
    slot_id: str
    doctor_id: str
    clinic_id: str
    specialty: str
    date: str
    start_time: str
    reason: str
    status: str
    created_at: str


class WaitClinic(Row):
    """The clinic's own check-in system: the current walk-in wait (authoritative)."""

    clinic_id: str
    wait_minutes: int
    as_of: str
    patients_waiting: int


class WaitCrowd(Row):
    """Crowd-reported walk-in wait."""

    clinic_id: str
    wait_minutes: int
    as_of: str
    reports: int


class WaitMaps(Row):
    """A maps service's busyness-based wait estimate."""

    clinic_id: str
    wait_minutes: int
    as_of: str
    busyness_pct: int


class DailyActivity(Row):
    """One member's activity totals for one day (wearable cloud)."""

    member_id: str
    date: str
    steps: int
    distance_km: float
    active_minutes: int
    floors: int
    calories_burned_kcal: int
    resting_hr_bpm: int


class BackupActivity(Row):
    """The same day's totals as the phone's health app recorded them."""

    member_id: str
    date: str
    steps: int
    distance_km: float
    active_minutes: int
    floors: int
    calories_burned_kcal: int
    resting_hr_bpm: int
    synced_at: str


class Workout(Row):
    """One recorded workout."""

    workout_id: str
    member_id: str
    date: str
    type: str
    start_time: str
    duration_min: int
    distance_km: float | None
    avg_hr_bpm: int
    calories_kcal: int


class Food(Row):
    """A food in the catalog, with its standard serving."""

    food_id: str
    name: str
    serving: str


class NutritionFacts(Row):
    """Per-serving nutrition facts of one food in one database."""

    food_id: str
    calories_kcal: float
    protein_g: float
    carbs_g: float
    fat_g: float
    fiber_g: float
    sodium_mg: float
    caffeine_mg: float
    as_of: str
    entry_note: str


class Meal(Row):
    """One food logged at one meal."""

    meal_id: str
    member_id: str
    date: str
    meal: str
    time: str
    food_id: str
    servings: float


class SleepRecord(Row):
    """One night's sleep, dated by the morning the sleeper woke up."""

    member_id: str
    date: str
    bedtime: str
    wake_time: str
    time_in_bed_minutes: int
    asleep_minutes: int
    deep_minutes: int
    rem_minutes: int
    light_minutes: int
    awake_minutes: int
    efficiency_pct: float
    resting_hr_bpm: int
    hrv_ms: int
    recovery_score: int


class LabResult(Row):
    """One laboratory result with its reference range."""

    result_id: str
    member_id: str
    test_code: str
    test_name: str
    panel: str
    value: float
    unit: str
    ref_low: float
    ref_high: float
    flag: str
    collected_on: str
    lab_name: str
    ordered_by: str


class Vaccination(Row):
    """One vaccine dose given to a member."""

    vaccination_id: str
    member_id: str
    vaccine: str
    dose_number: int
    date_given: str
    next_due_on: str | None
    given_at: str
    lot_number: str


class Destination(Row):
    """Travel vaccine advice for one country."""

    code: str
    country: str
    required: list[str]
    recommended: list[str]
    malaria_risk: bool


class Plan(Row):
    """A member's health plan and this year's accumulators."""

    member_id: str
    plan_name: str
    plan_id: str
    deductible_usd: float
    deductible_met_usd: float
    oop_max_usd: float
    oop_met_usd: float
    coinsurance_pct: int
    copay_primary_usd: float
    copay_specialist_usd: float


class Claim(Row):
    """A processed or pending insurance claim."""

    claim_id: str
    member_id: str
    service_date: str
    provider: str
    service: str
    billed_usd: float
    allowed_usd: float
    plan_paid_usd: float
    member_owes_usd: float
    status: str


# -- the world ---------------------------------------------------------------------------


class HealthWorld(World):
    """A household's health records, the care around it and its daily tracking."""

    TABLES: ClassVar[tuple[str, ...]] = (
        "members",
        "medications",
        "price_index",
        "price_discount",
        "price_marketplace",
        "prescriptions",
        "pharmacies",
        "refills",
        "clinics",
        "doctors",
        "slots",
        "appointments",
        "wait_clinic",
        "wait_crowd",
        "wait_maps",
        "activity",
        "activity_backup",
        "workouts",
        "foods",
        "nutrition_national",
        "nutrition_label",
        "nutrition_community",
        "meals",
        "sleep",
        "lab_results",
        "vaccinations",
        "destinations",
        "plans",
        "claims",
    )

    members: dict[str, Member] = Field(default_factory=dict)
    medications: dict[str, Medication] = Field(default_factory=dict)
    price_index: dict[str, PriceIndex] = Field(default_factory=dict)
    price_discount: dict[str, PriceDiscount] = Field(default_factory=dict)
    price_marketplace: dict[str, PriceMarketplace] = Field(default_factory=dict)
    prescriptions: dict[str, Prescription] = Field(default_factory=dict)
    pharmacies: dict[str, Pharmacy] = Field(default_factory=dict)
    refills: dict[str, Refill] = Field(default_factory=dict)
    clinics: dict[str, Clinic] = Field(default_factory=dict)
    doctors: dict[str, Doctor] = Field(default_factory=dict)
    slots: dict[str, Slot] = Field(default_factory=dict)
    appointments: dict[str, Appointment] = Field(default_factory=dict)
    wait_clinic: dict[str, WaitClinic] = Field(default_factory=dict)
    wait_crowd: dict[str, WaitCrowd] = Field(default_factory=dict)
    wait_maps: dict[str, WaitMaps] = Field(default_factory=dict)
    activity: dict[str, DailyActivity] = Field(default_factory=dict)
    activity_backup: dict[str, BackupActivity] = Field(default_factory=dict)
    workouts: dict[str, Workout] = Field(default_factory=dict)
    foods: dict[str, Food] = Field(default_factory=dict)
    nutrition_national: dict[str, NutritionFacts] = Field(default_factory=dict)
    nutrition_label: dict[str, NutritionFacts] = Field(default_factory=dict)
    nutrition_community: dict[str, NutritionFacts] = Field(default_factory=dict)
    meals: dict[str, Meal] = Field(default_factory=dict)
    sleep: dict[str, SleepRecord] = Field(default_factory=dict)
    lab_results: dict[str, LabResult] = Field(default_factory=dict)
    vaccinations: dict[str, Vaccination] = Field(default_factory=dict)
    destinations: dict[str, Destination] = Field(default_factory=dict)
    plans: dict[str, Plan] = Field(default_factory=dict)
    claims: dict[str, Claim] = Field(default_factory=dict)

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Build every table from ``rng`` alone; the same seed gives the same world."""
        gen = _Generator(rng, cls.EPOCH)
        tables = gen.run()
        counters = {"RF": len(tables["refills"]), "APT": len(tables["appointments"])}
        counters |= {"WK": len(tables["workouts"]), "ML": len(tables["meals"])}
        return cls(seed=seed, id_counters=counters, **tables)

    def today(self) -> date:
        """The world's current calendar date."""
        return self.now().date()

    def history_dates(self) -> list[str]:
        """The days with activity and sleep records, oldest first (yesterday is last)."""
        start = self.today() - timedelta(days=HISTORY_DAYS)
        return [(start + timedelta(days=i)).isoformat() for i in range(HISTORY_DAYS)]

    def user(self) -> str | None:
        """The household's primary user, whom "I", "me" and "my" in a request mean."""
        me = next(m for m in self.members.values() if m.relationship == "self")
        return me.name

    def age(self, member: Member) -> int:
        """A member's age today."""
        return age_on(date.fromisoformat(member.birth_date), self.today())


def _t(minutes: int) -> str:
    whole = minutes % (24 * 60)
    return f"{whole // 60:02d}:{whole % 60:02d}"


def _m(text: str) -> int:
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


@dataclass
class _Generator:
    """Draws the tables in a fixed order from one generator, so a seed fixes every byte."""

    rng: random.Random
    epoch: datetime
    t: dict[str, dict[str, Any]] = field(default_factory=dict)

    def run(self) -> dict[str, dict[str, Any]]:
        self.today = self.epoch.date()
        for name in HealthWorld.TABLES:
            self.t[name] = {}
        self.members()
        self.medications()
        self.places()
        self.prescriptions()
        self.care()
        self.activity()
        self.food()
        self.sleep()
        self.labs()
        self.vaccines()
        self.insurance()
        return self.t

    def ids(self, prefix: str, count: int, low: int, high: int) -> list[str]:
        width = len(str(high - 1))
        return [f"{prefix}-{n:0{width}d}" for n in self.rng.sample(range(low, high), count)]

    def stamp_ago(self, unit: str, low: int, high: int) -> str:
        """The stamp of a moment ``low`` to ``high`` ``unit`` (drawn) before the epoch."""
        return stamp(self.epoch - timedelta(**{unit: self.rng.randint(low, high)}))

    # -- people --------
    def members(self) -> None:
        rng = self.rng
        last = rng.choice(data.LAST_NAMES)
        self_sex, spouse_sex = rng.choice((("male", "female"), ("female", "male")))
        spouse_last = rng.choice((last, last, rng.choice(data.LAST_NAMES)))
        plan = [
            ("adult", self_sex, last, "self", rng.randint(34, 52)),
            ("adult", spouse_sex, spouse_last, "spouse", rng.randint(33, 54)),
            ("child", rng.choice(("male", "female")), last, "child", rng.randint(12, 17)),
            ("child", rng.choice(("male", "female")), last, "child", rng.randint(7, 11)),
            (
                "senior",
                rng.choice(("male", "female")),
                rng.choice(data.LAST_NAMES),
                "parent",
                rng.randint(68, 82),
            ),
        ]
        people = []
        used: set[str] = set()
        for group, sex, surname, relation, age in plan:
            first = rng.choice([n for n in data.FIRST_NAMES[(group, sex)] if n not in used])
            used.add(first)
            people.append((first, surname, relation, age, sex))
        for member_id, (first, surname, relation, age, sex) in zip(
            self.ids("MBR", len(people), 1000, 10000), people, strict=True
        ):
            birth = self.today - timedelta(days=age * 365 + rng.randint(20, 340))
            if relation == "child":
                height = 120 + (age - 7) * 6.5 + rng.uniform(-5, 5)
                weight = 22 + (age - 7) * 4.6 + rng.uniform(-3, 4)
            else:
                height = rng.gauss(178 if sex == "male" else 164, 6)
                weight = (height / 100) ** 2 * rng.uniform(20.5, 31.5)
            name = f"{first} {surname}"
            self.t["members"][member_id] = Member(
                member_id=member_id,
                name=name,
                first_name=first,
                relationship=relation,
                birth_date=birth.isoformat(),
                sex=sex,
                height_cm=round(height, 1),
                weight_kg=round(weight, 1),
                email=f"{first.lower()}.{surname.lower()}@{rng.choice(data.EMAIL_DOMAINS)}",
            )

    def _members(self) -> list[Member]:
        return list(self.t["members"].values())

    # -- medications and prices --------
    def medications(self) -> None:
        rng = self.rng
        for med_id, drug in zip(
            self.ids("MED", len(data.DRUGS), 1000, 10000), data.DRUGS, strict=True
        ):
            self.t["medications"][med_id] = Medication(
                medication_id=med_id,
                name=drug.name,
                brand=drug.brand,
                strength=drug.strength,
                form=drug.form,
                drug_class=drug.drug_class,
                tier=drug.tier,
                rx_only=drug.rx_only,
            )
            price = round(drug.unit_price_usd * rng.uniform(0.9, 1.1), 4)
            week = self.today - timedelta(days=self.today.weekday() + 7)
            self.t["price_index"][med_id] = PriceIndex(
                medication_id=med_id,
                unit_price_usd=price,
                as_of=self.stamp_ago("hours", 20, 60),
                survey_week=week.isoformat(),
            )
            self.t["price_discount"][med_id] = PriceDiscount(
                medication_id=med_id,
                unit_price_usd=price,
                as_of=self.stamp_ago("minutes", 30, 600),
                network_pharmacies=rng.randint(800, 4200),
            )
            self.t["price_marketplace"][med_id] = PriceMarketplace(
                medication_id=med_id,
                unit_price_usd=price,
                as_of=self.stamp_ago("minutes", 5, 300),
                listings=rng.randint(3, 40),
            )

    # -- pharmacies and clinics --------
    def places(self) -> None:
        rng = self.rng
        combos = [(chain, city) for chain in data.PHARMACY_CHAINS for city in data.CITIES]
        chosen = rng.sample(combos, 12)
        for ph_id, (chain, city) in zip(self.ids("PH", 12, 100, 1000), chosen, strict=True):
            hours = rng.choice((("08:00", "21:00"), ("09:00", "19:00"), ("07:00", "22:00")))
            self.t["pharmacies"][ph_id] = Pharmacy(
                pharmacy_id=ph_id,
                name=f"{chain} {city}",
                chain=chain,
                city=city,
                address=f"{rng.randint(100, 19999)} {rng.choice(data.STREETS)}, {city}, WA",
                phone=f"(425) 555-{rng.randint(1000, 9999)}",
                opens_at=hours[0],
                closes_at=hours[1],
                drive_thru=rng.random() < 0.5,
            )
        for cl_id, (name, specialties, walk_in, travel) in zip(
            self.ids("CL", len(data.CLINICS), 100, 1000), data.CLINICS, strict=True
        ):
            city = rng.choice(data.CITIES)
            self.t["clinics"][cl_id] = Clinic(
                clinic_id=cl_id,
                name=name,
                city=city,
                address=f"{rng.randint(100, 19999)} {rng.choice(data.STREETS)}, {city}, WA",
                phone=f"(206) 555-{rng.randint(1000, 9999)}",
                specialties=list(specialties),
                walk_in=walk_in,
                travel_vaccines=travel,
            )
            self._wait(cl_id)

    def _wait(self, clinic_id: str) -> None:
        rng = self.rng
        wait = rng.randint(8, 95)
        self.t["wait_clinic"][clinic_id] = WaitClinic(
            clinic_id=clinic_id,
            wait_minutes=wait,
            as_of=self.stamp_ago("minutes", 1, 6),
            patients_waiting=max(1, wait // 12),
        )
        self.t["wait_crowd"][clinic_id] = WaitCrowd(
            clinic_id=clinic_id,
            wait_minutes=wait,
            as_of=self.stamp_ago("minutes", 5, 40),
            reports=rng.randint(2, 30),
        )
        self.t["wait_maps"][clinic_id] = WaitMaps(
            clinic_id=clinic_id,
            wait_minutes=wait,
            as_of=self.stamp_ago("minutes", 10, 60),
            busyness_pct=min(100, 20 + wait),
        )

    # -- prescriptions --------
    def prescriptions(self) -> None:
        rng = self.rng
        meds = list(self.t["medications"].values())
        counts = {"self": 4, "spouse": 3, "child": 1, "parent": 6}
        plan: list[tuple[Member, Medication]] = []
        for member in self._members():
            n = counts[member.relationship] + rng.randint(0, 1)
            pool = [m for m in meds if m.rx_only]
            for med in rng.sample(pool, n):
                plan.append((member, med))
        # doctors exist only after care(); prescribers are filled in there
        pharmacies = sorted(self.t["pharmacies"])
        for rx_id, (member, med) in zip(
            self.ids("RX", len(plan), 100000, 1000000), plan, strict=True
        ):
            drug = next(d for d in data.DRUGS if d.name == med.name)
            per_dose = 2 if drug.strength_mg in (5, 10) and rng.random() < 0.15 else 1
            times = drug.times_per_day
            fill = rng.choice((30, 90)) * per_dose * times
            used_days = rng.randint(3, 88 if fill >= 90 * per_dose * times else 28)
            on_hand = max(0, fill - used_days * per_dose * times)
            status = "expired" if rng.random() < 0.12 else "active"
            unit = "tablet" if med.form == "tablet" else "capsule"
            word = {1: "once", 2: "twice", 3: "three times"}[times]
            units = f"{per_dose} {unit}{'s' if per_dose > 1 else ''}"
            self.t["prescriptions"][rx_id] = Prescription(
                prescription_id=rx_id,
                member_id=member.member_id,
                medication_id=med.medication_id,
                units_per_dose=per_dose,
                times_per_day=times,
                dose_times=list(data.DOSE_TIMES[times]),
                quantity_per_fill=fill,
                refills_left=0 if status == "expired" else rng.randint(1, 5),
                units_on_hand=on_hand,
                last_fill_date=(self.today - timedelta(days=used_days)).isoformat(),
                pharmacy_id=rng.choice(pharmacies),
                prescriber_id="",
                status=status,
                instructions=f"Take {units} by mouth {word} daily",
            )

    # -- clinics, doctors, slots, appointments --------
    def care(self) -> None:
        rng = self.rng
        names = [(f, last) for f in data.DOCTOR_FIRST for last in data.DOCTOR_LAST]
        picked = rng.sample(names, 30)
        specialist_pairs = [
            (cl, spec) for cl in self.t["clinics"].values() for spec in cl.specialties
        ]
        ids = self.ids("DR", len(picked), 1000, 10000)
        for i, (dr_id, (first, last)) in enumerate(zip(ids, picked, strict=True)):
            clinic, spec = specialist_pairs[i % len(specialist_pairs)]
            self.t["doctors"][dr_id] = Doctor(
                doctor_id=dr_id,
                name=f"Dr. {first} {last}",
                specialty=spec,
                clinic_id=clinic.clinic_id,
                accepting_new_patients=rng.random() < 0.8,
            )
        prescribers = [d for d in self.t["doctors"].values() if d.specialty not in ("lab draw",)]
        for rx_id, rx in list(self.t["prescriptions"].items()):
            doc = rng.choice(prescribers)
            self.t["prescriptions"][rx_id] = rx.model_copy(update={"prescriber_id": doc.doctor_id})
        numbers = iter(rng.sample(range(10000, 100000), 4000))
        for doc in self.t["doctors"].values():
            for offset in range(1, SLOT_DAYS + 1):
                day = self.today + timedelta(days=offset)
                if day.weekday() >= 5:
                    continue
                for start in sorted(rng.sample(data.SLOT_TIMES, rng.randint(0, 3))):
                    slot_id = f"SL-{next(numbers)}"
                    self.t["slots"][slot_id] = Slot(
                        slot_id=slot_id,
                        doctor_id=doc.doctor_id,
                        clinic_id=doc.clinic_id,
                        specialty=doc.specialty,
                        date=day.isoformat(),
                        start_time=start,
                        duration_min=30 if doc.specialty != "lab draw" else 15,
                        booked=rng.random() < 0.25,
                    )
        booked = [s for s in self.t["slots"].values() if s.booked]
        members = self._members()
        for number, slot in enumerate(sorted(rng.sample(booked, 6), key=lambda s: s.slot_id), 1):
            apt_id = f"APT-{number:05d}"
            created = self.epoch - timedelta(days=rng.randint(1, 20), minutes=rng.randint(0, 900))
            self.t["appointments"][apt_id] = Appointment(
                appointment_id=apt_id,
                member_id=rng.choice(members).member_id,
                slot_id=slot.slot_id,
                doctor_id=slot.doctor_id,
                clinic_id=slot.clinic_id,
                specialty=slot.specialty,
                date=slot.date,
                start_time=slot.start_time,
                reason=rng.choice(data.VISIT_REASONS),
                status="scheduled",
                created_at=stamp(created),
            )
        rxs = [r for r in self.t["prescriptions"].values() if r.status == "active"]
        for number, rx in enumerate(rng.sample(rxs, 4), 1):
            ref_id = f"RF-{number:05d}"
            drug_tier = self.t["medications"][rx.medication_id].tier
            self.t["refills"][ref_id] = Refill(
                refill_id=ref_id,
                prescription_id=rx.prescription_id,
                member_id=rx.member_id,
                medication_id=rx.medication_id,
                pharmacy_id=rx.pharmacy_id,
                quantity=rx.quantity_per_fill,
                pickup_date=(self.today + timedelta(days=rng.randint(1, 4))).isoformat(),
                copay_usd=data.RX_TIER_COPAYS[drug_tier],
                status=rng.choice(("requested", "ready")),
                created_at=self.stamp_ago("hours", 2, 70),
            )

    # -- activity and workouts --------
    def activity(self) -> None:
        rng = self.rng
        today = self.today
        workout_ids = 0
        for member in self._members():
            age = age_on(date.fromisoformat(member.birth_date), today)
            base_steps = rng.randint(4500, 12500)
            resting = rng.randint(54, 72) + (6 if age > 65 else 0)
            stride = member.height_cm * 0.415 / 100
            bmr = bmr_kcal(member.weight_kg, member.height_cm, age, member.sex)
            favourite = rng.sample(sorted(data.WORKOUT_TYPES), 3)
            for offset in range(HISTORY_DAYS, 0, -1):
                day = (today - timedelta(days=offset)).isoformat()
                steps = max(800, round(rng.gauss(base_steps, base_steps * 0.3)))
                facts = {
                    "member_id": member.member_id,
                    "date": day,
                    "steps": steps,
                    "distance_km": round(steps * stride / 1000, 2),
                    "active_minutes": max(0, round(steps / 130 + rng.gauss(0, 8))),
                    "floors": rng.randint(0, 22),
                    "calories_burned_kcal": round(
                        bmr * 1.15 + steps * 0.045 * member.weight_kg / 70
                    ),
                    "resting_hr_bpm": resting + rng.randint(-3, 3),
                }
                key = key_of(member.member_id, day)
                self.t["activity"][key] = DailyActivity(**facts)
                synced = datetime.combine(
                    date.fromisoformat(day), datetime.min.time(), self.epoch.tzinfo
                )
                self.t["activity_backup"][key] = BackupActivity(
                    **facts,
                    synced_at=stamp(synced + timedelta(days=1, minutes=rng.randint(5, 400))),
                )
                if rng.random() < 0.45:
                    kind = rng.choice(favourite)
                    met, km_per_min = data.WORKOUT_TYPES[kind]
                    minutes = rng.choice((20, 25, 30, 35, 40, 45, 50, 60, 75))
                    workout_ids += 1
                    wk_id = f"WK-{workout_ids:05d}"
                    max_hr = max_heart_rate(age)
                    self.t["workouts"][wk_id] = Workout(
                        workout_id=wk_id,
                        member_id=member.member_id,
                        date=day,
                        type=kind,
                        start_time=rng.choice(
                            ("06:30", "07:00", "12:15", "17:30", "18:00", "19:15")
                        ),
                        duration_min=minutes,
                        distance_km=None
                        if km_per_min is None
                        else round(minutes * km_per_min * rng.uniform(0.85, 1.15), 2),
                        avg_hr_bpm=round(max_hr * rng.uniform(0.58, 0.86)),
                        calories_kcal=workout_kcal(met, member.weight_kg, minutes),
                    )

    # -- food and meals --------
    def food(self) -> None:
        rng = self.rng
        by_name: dict[str, str] = {}
        for food_id, food in zip(
            self.ids("FD", len(data.FOODS), 1000, 10000), data.FOODS, strict=True
        ):
            by_name[food.name] = food_id
            self.t["foods"][food_id] = Food(food_id=food_id, name=food.name, serving=food.serving)
            facts = {
                "food_id": food_id,
                "calories_kcal": float(food.calories_kcal),
                "protein_g": food.protein_g,
                "carbs_g": food.carbs_g,
                "fat_g": food.fat_g,
                "fiber_g": food.fiber_g,
                "sodium_mg": float(food.sodium_mg),
                "caffeine_mg": float(food.caffeine_mg),
            }
            release = self.epoch - timedelta(days=rng.randint(20, 120))
            self.t["nutrition_national"][food_id] = NutritionFacts(
                **facts, as_of=stamp(release), entry_note=f"release {release:%Y-%m}"
            )
            self.t["nutrition_label"][food_id] = NutritionFacts(
                **facts,
                as_of=self.stamp_ago("days", 2, 60),
                entry_note="scanned label",
            )
            self.t["nutrition_community"][food_id] = NutritionFacts(
                **facts,
                as_of=self.stamp_ago("days", 1, 30),
                entry_note=f"{rng.randint(12, 900)} confirmations",
            )
        pools = {
            "breakfast": data.BREAKFAST_FOODS,
            "lunch": data.LUNCH_FOODS,
            "snack": data.SNACK_FOODS,
            "dinner": data.DINNER_FOODS,
        }
        number = 0
        for member in self._members():
            for offset in range(MEAL_DAYS, 0, -1):
                day = (self.today - timedelta(days=offset)).isoformat()
                for meal, earliest, latest in data.MEAL_SLOTS:
                    if meal == "snack" and rng.random() < 0.4:
                        continue
                    at = _t(rng.randrange(_m(earliest), _m(latest) + 1, 5))
                    for name in rng.sample(pools[meal], rng.randint(1, 3)):
                        number += 1
                        meal_id = f"ML-{number:05d}"
                        self.t["meals"][meal_id] = Meal(
                            meal_id=meal_id,
                            member_id=member.member_id,
                            date=day,
                            meal=meal,
                            time=at,
                            food_id=by_name[name],
                            servings=rng.choice((1.0, 1.0, 1.0, 0.5, 1.5, 2.0)),
                        )

    # -- sleep --------
    def sleep(self) -> None:
        rng = self.rng
        for member in self._members():
            usual_bed = rng.randint(21 * 60 + 30, 24 * 60 + 15)
            hrv_base = rng.randint(28, 85)
            resting = rng.randint(50, 66)
            for offset in range(HISTORY_DAYS, 0, -1):
                day = (self.today - timedelta(days=offset - 1)).isoformat()
                bed = usual_bed + rng.randint(-50, 70)
                in_bed = rng.randint(390, 560)
                awake = rng.randint(10, 75)
                asleep = in_bed - awake
                deep = round(asleep * rng.uniform(0.12, 0.23))
                rem = round(asleep * rng.uniform(0.18, 0.26))
                hrv = max(15, round(rng.gauss(hrv_base, 9)))
                rhr = resting + rng.randint(-3, 5)
                efficiency = round(100 * asleep / in_bed, 1)
                score = round(
                    min(
                        100,
                        max(1, 0.45 * efficiency + 40 * hrv / hrv_base - 2 * (rhr - resting) - 5),
                    )
                )
                self.t["sleep"][key_of(member.member_id, day)] = SleepRecord(
                    member_id=member.member_id,
                    date=day,
                    bedtime=_t(bed),
                    wake_time=_t(bed + in_bed),
                    time_in_bed_minutes=in_bed,
                    asleep_minutes=asleep,
                    deep_minutes=deep,
                    rem_minutes=rem,
                    light_minutes=asleep - deep - rem,
                    awake_minutes=awake,
                    efficiency_pct=efficiency,
                    resting_hr_bpm=rhr,
                    hrv_ms=hrv,
                    recovery_score=score,
                )

    # -- labs --------
    def labs(self) -> None:
        rng = self.rng
        tests = {t.code: t for t in data.LAB_TESTS}
        doctors = [
            d
            for d in self.t["doctors"].values()
            if d.specialty in ("primary care", "endocrinology", "cardiology")
        ]
        rows = []
        for member in self._members():
            if member.relationship == "child":
                panels = rng.sample(["annual bloodwork", "metabolic panel"], 1)
            else:
                panels = rng.sample(sorted(data.PANELS), rng.randint(3, 4))
            shift = {code: rng.gauss(0, 0.6) for code in tests}
            for panel in panels:
                draws = 2 if member.relationship != "child" and rng.random() < 0.6 else 1
                days = sorted(rng.sample(range(20, 700), draws))
                for ago in days:
                    collected = (self.today - timedelta(days=ago)).isoformat()
                    lab = rng.choice(data.LABS)
                    doctor = rng.choice(doctors).name
                    for code in data.PANELS[panel]:
                        test = tests[code]
                        raw = test.mean + test.spread * (shift[code] + rng.gauss(0, 0.5))
                        value = round(max(raw, test.mean * 0.25), test.digits)
                        flag = (
                            "low"
                            if value < test.ref_low
                            else "high"
                            if value > test.ref_high
                            else "normal"
                        )
                        rows.append(
                            (
                                member.member_id,
                                test,
                                panel,
                                float(value),
                                flag,
                                collected,
                                lab,
                                doctor,
                            )
                        )
        for result_id, row in zip(self.ids("LAB", len(rows), 10000, 100000), rows, strict=True):
            member_id, test, panel, value, flag, collected, lab, doctor = row
            self.t["lab_results"][result_id] = LabResult(
                result_id=result_id,
                member_id=member_id,
                test_code=test.code,
                test_name=test.name,
                panel=panel,
                value=value,
                unit=test.unit,
                ref_low=float(test.ref_low),
                ref_high=float(test.ref_high),
                flag=flag,
                collected_on=collected,
                lab_name=lab,
                ordered_by=doctor,
            )

    # -- vaccinations and destinations --------
    def vaccines(self) -> None:
        rng = self.rng
        for dest in data.DESTINATIONS:
            self.t["destinations"][dest.code] = Destination(
                code=dest.code,
                country=dest.country,
                required=list(dest.required),
                recommended=list(dest.recommended),
                malaria_risk=dest.malaria_risk,
            )
        clinics = [c.name for c in self.t["clinics"].values()]
        rows = []
        for member in self._members():
            for vaccine in rng.sample(sorted(data.VACCINES), rng.randint(4, 7)):
                months = data.VACCINES[vaccine]
                doses = rng.randint(1, 2) if vaccine in ("Hepatitis A", "Hepatitis B", "MMR") else 1
                given = self.today - timedelta(days=rng.randint(40, 2600))
                for dose in range(1, doses + 1):
                    when = given + timedelta(days=(dose - 1) * 180)
                    if when >= self.today:
                        continue
                    due = None
                    if months is not None:
                        due = (when + timedelta(days=round(months * 30.44))).isoformat()
                    rows.append((member.member_id, vaccine, dose, when.isoformat(), due))
        ids = self.ids("VX", len(rows), 10000, 100000)
        for vx_id, (member_id, vaccine, dose, given_on, due) in zip(ids, rows, strict=True):
            self.t["vaccinations"][vx_id] = Vaccination(
                vaccination_id=vx_id,
                member_id=member_id,
                vaccine=vaccine,
                dose_number=dose,
                date_given=given_on,
                next_due_on=due,
                given_at=rng.choice(clinics),
                lot_number=f"{rng.choice('ABCDEFHJKM')}{rng.randint(10000, 99999)}",
            )

    # -- insurance --------
    def insurance(self) -> None:
        rng = self.rng
        name, deductible, oop_max, coins, pcp, spec = data.PLANS[0]
        plan_id = f"EVG-{rng.randint(100000, 999999)}"
        year_start = date(self.today.year, 1, 1)
        span = (self.today - year_start).days
        claims = []
        for member in self._members():
            for _ in range(rng.randint(2, 6)):
                service, low, high = rng.choice(data.CLAIM_SERVICES)
                billed = round(rng.uniform(low, high), 2)
                allowed = round(billed * rng.uniform(0.45, 0.8), 2)
                when = year_start + timedelta(days=rng.randint(0, max(span - 1, 0)))
                claims.append((when.isoformat(), member.member_id, service, billed, allowed))
        claims.sort()
        met = {m.member_id: [0.0, 0.0] for m in self._members()}
        providers = [c.name for c in self.t["clinics"].values()]
        ids = self.ids("CLM", len(claims), 100000, 1000000)
        for claim_id, (served, member_id, service, billed, allowed) in zip(
            ids, claims, strict=True
        ):
            ded_met, oop_met = met[member_id]
            status = (
                "processing" if served >= (self.today - timedelta(days=10)).isoformat() else "paid"
            )
            if rng.random() < 0.07:
                status = "denied"
            if status == "denied":
                split = {
                    "member_pays_usd": 0.0,
                    "plan_pays_usd": 0.0,
                    "deductible_applied_usd": 0.0,
                }
                allowed = 0.0
            else:
                split = cost_share(allowed, deductible - ded_met, coins, oop_max - oop_met)
                if status == "paid":
                    met[member_id] = [
                        money(ded_met + split["deductible_applied_usd"]),
                        money(oop_met + split["member_pays_usd"]),
                    ]
            self.t["claims"][claim_id] = Claim(
                claim_id=claim_id,
                member_id=member_id,
                service_date=served,
                provider=rng.choice(providers),
                service=service,
                billed_usd=billed,
                allowed_usd=allowed,
                plan_paid_usd=split["plan_pays_usd"],
                member_owes_usd=split["member_pays_usd"],
                status=status,
            )
        for member in self._members():
            ded_met, oop_met = met[member.member_id]
            self.t["plans"][member.member_id] = Plan(
                member_id=member.member_id,
                plan_name=name,
                plan_id=plan_id,
                deductible_usd=deductible,
                deductible_met_usd=ded_met,
                oop_max_usd=oop_max,
                oop_met_usd=oop_met,
                coinsurance_pct=coins,
                copay_primary_usd=pcp,
                copay_specialist_usd=spec,
            )
