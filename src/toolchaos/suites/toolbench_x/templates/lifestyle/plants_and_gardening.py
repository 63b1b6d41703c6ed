"""Lifestyle subtopic "plants and gardening": watering schedules and garden supplies."""

from __future__ import annotations

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
)
from toolchaos.suites.toolbench_x.templates.lifestyle._helpers import (
    PRICE_SOURCES,
    _basket_total,
    _listed_total,
    _source,
    _stores,
)


def water_and_feed(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the plant -> log today's watering -> its new schedule."""
    today = ctx.day(0)
    plant = ctx.pick("plants", lambda p: p.last_watered < today)
    fed = ctx.rng.random() < 0.5
    days = ctx.rng.choice([7, 10, 14, 21, 30])
    extra = " I gave it plant food too." if fed else ""
    prompt = ctx.say(
        "I just watered the {plant}." + extra + " Log it and show me its watering dates for "
        "the next {d} days.",
        "Record today's watering for my {plant}." + extra + " Then list when it needs water "
        "over the coming {d} days.",
        plant=plant.nickname.lower(),
        d=days,
    )
    steps = [
        RefStep(tool="list_plants", args={"nickname_contains": plant.nickname}),
        RefStep(
            tool="log_watering",
            args={
                "plant": ref(0, "results", 0, "plant_id"),
                "watered_on": ctx.day(0),
                "fertilized": fed,
            },
        ),
        RefStep(tool="get_watering_schedule", args={"plant": ref(1, "plant_id"), "days": days}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def waterings_for_three(ctx: TemplateContext) -> Draft:
    """Parallel: watering schedules of three to six plants; total waterings in a window."""
    plants = ctx.sample("plants", ctx.count(3, 6))
    days = ctx.rng.choice([10, 14, 21, 28, 30])
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "how many waterings is that in total across them",
        "max": "what's the most waterings any one of them needs",
    }[op]
    prompt = ctx.say(
        "I'm away a lot over the next {d} days. For {the_plants}, {q}?",
        "Plant-sitter planning, next {d} days: {plants}. Counting from today, {q}?",
        d=days,
        the_plants=listing([f"the {p.nickname.lower()}" for p in plants]),
        plants=listing([p.nickname.lower() for p in plants]),
        q=question,
    )
    steps = [
        RefStep(tool="get_watering_schedule", args={"plant": p.nickname, "days": days})
        for p in plants
    ]
    answer = AnswerSpec(op=op, refs=[[i, "waterings_in_window"] for i in range(len(plants))])
    return Draft(prompt, steps, answer)


def garden_supplies(ctx: TemplateContext) -> Draft:
    """Parallel: three to six garden supplies at one store; the total."""
    return _basket_total(
        ctx,
        "garden",
        "Spring repotting: I need {items} from {store}. Total for one of each, by {source}?",
        "What do {items} cost together at {store}, according to {source}?",
    )


def spot_watering_load(ctx: TemplateContext) -> Draft:
    """Mixture: plants in one spot -> each one's schedule -> total waterings."""
    spots = sorted({p.spot for p in ctx.rows("plants")})
    spot = ctx.rng.choice(spots)
    plants = ctx.read("list_plants", spot=spot)["results"]
    if len(plants) < 2:
        raise NoFit("fewer than two plants there")
    days = ctx.rng.choice([7, 14, 21, 30])
    prompt = ctx.say(
        "How many times in total will I water the plants in the {spot} over the next {d} days?",
        "Count the waterings for every plant in the {spot} across the coming {d} days, all "
        "added up.",
        spot=spot.lower(),
        d=days,
    )
    steps = [RefStep(tool="list_plants", args={"spot": spot})]
    steps += [
        RefStep(
            tool="get_watering_schedule",
            args={"plant": ref(0, "results", i, "plant_id"), "days": days},
        )
        for i in range(len(plants))
    ]
    refs = [[1 + i, "waterings_in_window"] for i in range(len(plants))]
    return Draft(prompt, steps, AnswerSpec(op="sum", refs=refs))


def garden_aisle_cost(ctx: TemplateContext) -> Draft:
    """Mixture: search garden supplies -> the price of a few at one store -> total."""
    found = ctx.read("search_items", category="garden")["results"]
    picks = sorted(ctx.rng.sample(range(len(found)), ctx.rng.choice([2, 3])))
    store = _stores(ctx, 1)[0]
    tool, source, named = _source(ctx, PRICE_SOURCES)
    names = [found[i]["name"].lower() for i in picks]
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    prompt = ctx.say_source(
        named,
        "From the garden section, I want the {listed}. What's that at {store} ({source})?",
        "Price up {listed} from the garden supplies at {store}; give me the total per {source}.",
        listed=listed,
        store=store.name,
        source=source,
    )
    listing = RefStep(tool="search_items", args={"category": "garden"})
    return _listed_total(prompt, listing, tool, store, picks)


SUBTOPIC = Subtopic(
    name="plants and gardening",
    templates={
        "sequential": [water_and_feed],
        "parallel": [waterings_for_three, garden_supplies],
        "mixture": [spot_watering_load, garden_aisle_cost],
    },
)
