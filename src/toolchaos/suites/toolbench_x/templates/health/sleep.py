"""Sleep and recovery: nights of sleep, overnight heart rate, caffeine before bed."""

from __future__ import annotations

from datetime import date, timedelta

from toolchaos.suites.toolbench_x.generate import listing, ref
from toolchaos.suites.toolbench_x.templates.health._helpers import (
    AnswerSpec,
    Draft,
    NoFit,
    RefStep,
    Subtopic,
    TemplateContext,
    find_member,
    finish,
    meal_nutrients,
    member,
    owner,
    subject,
    their,
    then_each,
    when,
    who,
)
from toolchaos.suites.toolbench_x.templates.health.nutrition import NUTRITION_SOURCES

SLEEP_FIELDS = {
    "asleep_minutes": "minutes asleep",
    "deep_minutes": "minutes of deep sleep",
    "rem_minutes": "minutes of REM sleep",
    "hrv_ms": "overnight HRV (ms)",
    "recovery_score": "recovery score",
    "efficiency_pct": "sleep efficiency (%)",
}
DRINKS = (
    "Brewed coffee",
    "Espresso",
    "Latte with whole milk",
    "Green tea",
    "Black tea",
    "Cola",
    "Energy drink",
    "Dark chocolate 70-85%",
)


def resting_share(ctx: TemplateContext) -> Draft:
    """Sequential: find the member -> a night's sleep -> its resting HR as share of max."""
    m = member(ctx)
    d = ctx.day(-ctx.rng.randint(0, 13))
    prompt = ctx.say(
        "What was {whose} overnight resting heart rate on the night ending {day}, as a "
        "percent of {whose} maximum heart rate?",
        "Recovery check for {name}: take the resting heart rate from the sleep record for "
        "the morning of {day} and express it as a percent of max heart rate.",
        whose=owner(m),
        name=who(m),
        day=when(d),
    )
    steps = [
        *find_member(m, "get_sleep_record", date=d),
        RefStep(
            tool="compute_heart_rate_zone",
            args={"member": ref(1, "member_id"), "heart_rate_bpm": ref(1, "resting_hr_bpm")},
        ),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "percent_of_max"]])))


def night_after_workout(ctx: TemplateContext) -> Draft:
    """Sequential: find the member -> the workout on a day -> the sleep that followed."""
    workout = ctx.pick("workouts")
    m = ctx.world.table("members")[workout.member_id]
    morning = (date.fromisoformat(workout.date) + timedelta(days=1)).isoformat()
    if morning > ctx.day(0):
        raise NoFit("the night after has not happened")
    same = ctx.read(
        "list_workouts", member=m.member_id, from_date=workout.date, to_date=workout.date
    )["results"]
    if len(same) != 1:
        raise NoFit("several workouts that day")
    field = ctx.rng.choice(sorted(SLEEP_FIELDS))
    prompt = ctx.say(
        "{Name} did a {type} on {day}. What was the {what} the night after (waking up on "
        "{morning})?",
        "After {whose} {type} workout on {day}, how did the night go? I need the {what} for "
        "the sleep ending {morning}.",
        Name=subject(m),
        whose=owner(m),
        type=workout.type,
        day=when(workout.date),
        morning=morning,
        what=SLEEP_FIELDS[field],
    )
    steps = [
        *find_member(m, "list_workouts", from_date=workout.date, to_date=workout.date),
        RefStep(
            tool="get_sleep_record",
            args={"member": ref(1, "results", 0, "member_id"), "date": morning},
        ),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]])))


def sleep_before_latest_workout(ctx: TemplateContext) -> Draft:
    """Sequential: find the member -> workouts of a type -> sleep the night before the latest.

    A night's record is dated by the morning one woke up, so the night before a workout
    is the record dated the workout's day; the date comes from the workout list.
    """
    workout = ctx.pick("workouts")
    m = ctx.world.table("members")[workout.member_id]
    history = ctx.read("list_workouts", member=m.member_id, type=workout.type)["results"]
    last = history[-1]["date"]
    if last < ctx.day(-13) or last > ctx.day(0):
        raise NoFit("no sleep record for that night")
    field = ctx.rng.choice(sorted(SLEEP_FIELDS))
    prompt = ctx.say(
        "How did {name} sleep the night before {their} most recent {type} workout? Give me "
        "the {what}, from the record dated that morning.",
        "The night leading into {whose} latest {type} session (the sleep record dated that "
        "day): what was the {what}?",
        name=who(m),
        their=their(m),
        whose=owner(m),
        type=workout.type,
        what=SLEEP_FIELDS[field],
    )
    steps = find_member(m, "list_workouts", type=workout.type)
    steps.append(
        RefStep(
            tool="get_sleep_record",
            args={
                "member": ref(0, "results", 0, "member_id"),
                "date": ref(1, "results", len(history) - 1, "date"),
            },
        )
    )
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=1)))


def three_nights(ctx: TemplateContext) -> Draft:
    """Parallel: one member's sleep on three to seven mornings; min, max or total of a field."""
    m = member(ctx)
    dates = sorted(ctx.day(-k) for k in ctx.rng.sample(range(0, 14), ctx.count(3, 7)))
    field = ctx.rng.choice(sorted(SLEEP_FIELDS))
    op = ctx.rng.choice(["min", "max"] + (["sum"] if field.endswith("_minutes") else []))
    words = {"min": "the lowest", "max": "the highest", "sum": "the total"}[op]
    prompt = ctx.say(
        "Across the nights ending {days}, what was {words} {what} for {name}?",
        "Compare {whose} sleep on the mornings of {days}: {words} {what}?",
        days=listing(dates),
        words=words,
        what=SLEEP_FIELDS[field],
        name=who(m),
        whose=owner(m),
    )
    steps = [
        RefStep(tool="get_sleep_record", args={"member": m.first_name, "date": d}) for d in dates
    ]
    answer = AnswerSpec(op=op, refs=[[i, field] for i in range(len(dates))], round=1)
    return finish(Draft(prompt, steps, answer))


def afternoon_caffeine(ctx: TemplateContext) -> Draft:
    """Parallel: three to five drinks or treats; the caffeine in them altogether."""
    items = ctx.rng.sample(DRINKS, ctx.count(3, 5))
    amounts = [ctx.rng.choice((1.0, 1.0, 2.0, 0.5)) for _ in items]
    tool, named = ctx.choose_source(NUTRITION_SOURCES)
    words = {0.5: "half a serving", 1.0: "one serving", 2.0: "two servings"}
    prompt = ctx.say(
        *(
            (
                "I can't sleep. Since lunch I've had {had}. How much caffeine is that in "
                "total, per {source}?",
                "Caffeine audit before bed: {audit}. Total mg according to {source}?",
            )
            if named
            else (
                "I can't sleep. Since lunch I've had {had}. How much caffeine is that in total?",
                "Caffeine audit before bed: {audit}. How many mg is that in total?",
            )
        ),
        had=listing([f"{words[n]} of {f.lower()}" for f, n in zip(items, amounts, strict=True)]),
        audit=listing([f"{f.lower()} ({words[n]})" for f, n in zip(items, amounts, strict=True)]),
        source=NUTRITION_SOURCES[tool],
    )
    steps = [
        RefStep(tool=tool, args={"food": f, "servings": n})
        for f, n in zip(items, amounts, strict=True)
    ]
    answer = AnswerSpec(op="sum", refs=[[i, "caffeine_mg"] for i in range(len(items))], round=1)
    return finish(Draft(prompt, steps, answer))


def caffeine_before_bad_night(ctx: TemplateContext) -> Draft:
    """Mixture: the day's afternoon snack log -> caffeine of each item -> total."""
    caffeinated = {f.food_id for f in ctx.rows("foods") if f.name in DRINKS}
    entry = ctx.pick("meals", lambda e: e.food_id in caffeinated and e.meal in ("snack", "dinner"))
    m = ctx.world.table("members")[entry.member_id]
    log = ctx.read("list_meals", member=m.member_id, date=entry.date, meal=entry.meal)["results"]
    tool, named = ctx.choose_source(NUTRITION_SOURCES)
    prompt = ctx.say(
        *(
            (
                "{Name} slept badly after {day}. How much caffeine was in everything logged "
                "for {meal} that day? Use {source}.",
                "Add up the caffeine (mg) in {whose} {meal} log on {day}, per {source}; I "
                "suspect it wrecked the night's sleep.",
            )
            if named
            else (
                "{Name} slept badly after {day}. How much caffeine was in everything logged "
                "for {meal} that day?",
                "Add up the caffeine (mg) in {whose} {meal} log on {day}; I suspect it wrecked "
                "the night's sleep.",
            )
        ),
        Name=subject(m),
        whose=owner(m),
        meal=entry.meal,
        day=when(entry.date),
        source=NUTRITION_SOURCES[tool],
    )
    steps, refs = meal_nutrients(tool, m, entry, len(log), "caffeine_mg")
    return finish(Draft(prompt, steps, AnswerSpec(op="sum", refs=refs, round=1)))


def best_recovery(ctx: TemplateContext) -> Draft:
    """Mixture: find the member -> sleep on three to seven mornings -> best or worst of a field."""
    m = member(ctx)
    dates = sorted(ctx.day(-k) for k in ctx.rng.sample(range(0, 14), ctx.count(3, 7)))
    field = ctx.rng.choice(["recovery_score", "hrv_ms", "deep_minutes", "efficiency_pct"])
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "worst (lowest)", "max": "best (highest)"}[op]
    prompt = ctx.say(
        "Which was {whose} {words} {what} over the mornings of {days}? Just the number.",
        "For {name}, give me the {words} {what} among the sleep records of {days}.",
        whose=owner(m),
        name=who(m),
        words=words,
        what=SLEEP_FIELDS[field],
        days=listing(dates),
    )
    lead = [RefStep(tool="search_members", args={"query": m.first_name})]
    nights = [{"member": ref(0, "results", 0, "member_id"), "date": d} for d in dates]
    steps, refs = then_each(lead, "get_sleep_record", nights, field)
    return finish(Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1)))


SUBTOPIC = Subtopic(
    name="sleep and recovery",
    templates={
        "sequential": [resting_share, night_after_workout, sleep_before_latest_workout],
        "parallel": [three_nights, afternoon_caffeine],
        "mixture": [caffeine_before_bad_night, best_recovery],
    },
)
