"""Nutrition and meal logging: what a meal contained, plate totals, logging food."""

from __future__ import annotations

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
    when,
)

NUTRITION_SOURCES = {
    "get_food_nutrition": "the national food database",
    "get_food_nutrition_label": "LabelScan",
    "get_food_nutrition_community": "CalorieCrowd",
}
NUTRIENTS = {
    "calories_kcal": "energy (kcal)",
    "protein_g": "protein (g)",
    "carbs_g": "carbohydrate (g)",
    "fat_g": "fat (g)",
    "fiber_g": "fiber (g)",
    "sodium_mg": "sodium (mg)",
}
SERVINGS = (0.5, 1.0, 1.5, 2.0)


def _servings(n: float) -> str:
    return {0.5: "half a serving", 1.0: "one serving", 1.5: "1.5 servings", 2.0: "two servings"}[n]


def logged_item(ctx: TemplateContext) -> Draft:
    """Sequential: find the member -> a meal's log -> nutrition of one logged food."""
    entry = ctx.pick("meals")
    m = ctx.world.table("members")[entry.member_id]
    log = ctx.read("list_meals", member=m.member_id, date=entry.date, meal=entry.meal)["results"]
    i = [e["meal_id"] for e in log].index(entry.meal_id)
    food = ctx.world.table("foods")[entry.food_id].name
    nutrient = ctx.rng.choice(sorted(NUTRIENTS))
    tool, named = ctx.choose_source(NUTRITION_SOURCES)
    prompt = ctx.say(
        *(
            (
                "How much {what} was in the {food} {name} logged for {meal} on {day}, going "
                "by {source}? Count the servings that were logged.",
                "{Whose} {meal} on {day} included {food}. Using {source}, what's the {what} "
                "for the amount logged?",
            )
            if named
            else (
                "How much {what} was in the {food} {name} logged for {meal} on {day}? Count "
                "the servings that were logged.",
                "{Whose} {meal} on {day} included {food}. What's the {what} for the amount logged?",
            )
        ),
        what=NUTRIENTS[nutrient],
        food=food.lower(),
        name=subject(m),
        Whose=owner(m).capitalize(),
        meal=entry.meal,
        day=when(entry.date),
        source=NUTRITION_SOURCES[tool],
    )
    steps = [
        *find_member(m, "list_meals", date=entry.date, meal=entry.meal),
        RefStep(
            tool=tool,
            args={
                "food": ref(1, "results", i, "food_id"),
                "servings": ref(1, "results", i, "servings"),
            },
        ),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, nutrient]], round=1)))


def look_up_then_log(ctx: TemplateContext) -> Draft:
    """Sequential, writes: search the food -> its national entry -> log it for a meal."""
    food = ctx.pick("foods")
    m = member(ctx)
    meal = ctx.rng.choice(["breakfast", "lunch", "snack", "dinner"])
    time = {"breakfast": "07:45", "lunch": "12:30", "snack": "15:40", "dinner": "19:10"}[meal]
    servings = ctx.rng.choice(SERVINGS)
    d = ctx.day(-ctx.rng.randint(0, 3))
    prompt = ctx.say(
        "Find {food} in the national food database and log {amount} of it for {whose} "
        "{meal} on {day} at {time}.",
        "{Name} had {amount} of {food} for {meal} at {time} on {day}. Check the national "
        "database entry and add it to the food log.",
        food=food.name.lower(),
        amount=_servings(servings),
        whose=owner(m),
        Name=subject(m),
        meal=meal,
        day=when(d),
        time=time,
    )
    steps = [
        RefStep(tool="search_foods", args={"query": food.name}),
        RefStep(
            tool="get_food_nutrition",
            args={"food": ref(0, "results", 0, "food_id"), "servings": servings},
        ),
        RefStep(
            tool="log_meal",
            args={
                "member": m.first_name,
                "date": d,
                "meal": meal,
                "time": time,
                "food": ref(1, "food_id"),
                "servings": ref(1, "servings"),
            },
        ),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="none"), writes=True))


def plate_total(ctx: TemplateContext) -> Draft:
    """Parallel: three to seven foods with servings; total (or most) of one nutrient."""
    foods = ctx.sample("foods", ctx.count(3, 7))
    amounts = [ctx.rng.choice(SERVINGS) for _ in foods]
    nutrient = ctx.rng.choice(sorted(NUTRIENTS))
    tool, named = ctx.choose_source(NUTRITION_SOURCES)
    op = ctx.rng.choice(["sum", "sum", "max"])
    ask = {
        "sum": "how much {what} is that altogether",
        "max": "which item brings the most {what}, and how much is it",
    }[op]
    prompt = ctx.say(
        *(
            (
                "My plate: {plate}. Per {source}, " + ask + "?",
                "I ate {plate}. Using {source}, " + ask + "?",
            )
            if named
            else ("My plate: {plate}. Tell me " + ask + ".", "I ate {plate}. Tell me " + ask + ".")
        ),
        plate=listing(
            [f"{_servings(n)} of {f.name.lower()}" for f, n in zip(foods, amounts, strict=True)]
        ),
        what=NUTRIENTS[nutrient],
        source=NUTRITION_SOURCES[tool],
    )
    steps = [
        RefStep(tool=tool, args={"food": f.name, "servings": n})
        for f, n in zip(foods, amounts, strict=True)
    ]
    answer = AnswerSpec(op=op, refs=[[i, nutrient] for i in range(len(foods))], round=1)
    return finish(Draft(prompt, steps, answer))


def meal_total(ctx: TemplateContext) -> Draft:
    """Mixture: a meal's food log -> nutrition of each entry -> total of one nutrient."""
    entry = ctx.pick("meals")
    m = ctx.world.table("members")[entry.member_id]
    log = ctx.read("list_meals", member=m.member_id, date=entry.date, meal=entry.meal)["results"]
    if len(log) < 2:
        raise NoFit("a one-item meal")
    nutrient = ctx.rng.choice(sorted(NUTRIENTS))
    tool, named = ctx.choose_source(NUTRITION_SOURCES)
    prompt = ctx.say(
        *(
            (
                "How much {what} did {name} get from {meal} on {day}? Add up every logged "
                "item (with its servings) using {source}.",
                "Total the {what} in {whose} logged {meal} for {day}, by {source}.",
            )
            if named
            else (
                "How much {what} did {name} get from {meal} on {day}? Add up every logged "
                "item with its servings.",
                "Total the {what} in {whose} logged {meal} for {day}.",
            )
        ),
        what=NUTRIENTS[nutrient],
        name=subject(m),
        whose=owner(m),
        meal=entry.meal,
        day=when(entry.date),
        source=NUTRITION_SOURCES[tool],
    )
    steps, refs = meal_nutrients(tool, m, entry, len(log), nutrient)
    return finish(Draft(prompt, steps, AnswerSpec(op="sum", refs=refs, round=1)))


def two_searched_foods(ctx: TemplateContext) -> Draft:
    """Mixture: search two to five foods -> their nutrition -> total or most of a nutrient."""
    foods = ctx.sample("foods", ctx.count(2, 5))
    k = len(foods)
    amounts = [ctx.rng.choice(SERVINGS) for _ in foods]
    nutrient = ctx.rng.choice(sorted(NUTRIENTS))
    op = ctx.rng.choice(["sum", "max"])
    ask = {"sum": "how much {what} in total", "max": "the most {what} any one of them has"}[op]
    prompt = ctx.say(
        "I'm planning a snack of {plate}. From the national food database, " + ask + "?",
        "Look up {looked} in the national database: " + ask + "?",
        plate=listing(
            [f"{_servings(n)} of {f.name.lower()}" for f, n in zip(foods, amounts, strict=True)]
        ),
        looked=listing(
            [f"{f.name.lower()} ({_servings(n)})" for f, n in zip(foods, amounts, strict=True)]
        ),
        what=NUTRIENTS[nutrient],
    )
    steps = [RefStep(tool="search_foods", args={"query": f.name}) for f in foods]
    steps += [
        RefStep(
            tool="get_food_nutrition",
            args={"food": ref(i, "results", 0, "food_id"), "servings": amounts[i]},
        )
        for i in range(k)
    ]
    answer = AnswerSpec(op=op, refs=[[k + i, nutrient] for i in range(k)], round=1)
    return finish(Draft(prompt, steps, answer))


SUBTOPIC = Subtopic(
    name="nutrition and meal logging",
    templates={
        "sequential": [logged_item, look_up_then_log],
        "parallel": [plate_total],
        "mixture": [meal_total, two_searched_foods],
    },
)
