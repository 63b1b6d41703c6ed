"""Lifestyle subtopic "recipes and cooking": scaling, unit conversion and menu costs."""

from __future__ import annotations

from typing import Any

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
    _extreme,
    _listed_total,
    _source,
    _stores,
)


def _cup_lines(recipe: Any) -> list[int]:
    """Ingredient lines measured in cups whose item has a known weight per cup."""
    return [i for i, ing in enumerate(recipe.ingredients) if ing.unit == "cup"]


def grams_for_a_crowd(ctx: TemplateContext) -> Draft:
    """Sequential: find the recipe -> scale it -> convert one cup line to grams."""
    recipe = ctx.pick("recipes", lambda r: bool(_cup_lines(r)))
    line = ctx.rng.choice(_cup_lines(recipe))
    ingredient = recipe.ingredients[line]
    servings = ctx.rng.choice([n for n in (2, 3, 5, 6, 8, 10, 12, 16, 30) if n != recipe.servings])
    unit = ctx.rng.choice(["g", "oz"])
    words = {"g": "grams", "oz": "ounces"}[unit]
    prompt = ctx.say(
        "I'm making {recipe} for {n} people instead of the usual amount. How many {words} of "
        "{ing} will I need? My scale doesn't do cups.",
        "Scale our {recipe} recipe to {n} servings and tell me the {ing} in {words}, please.",
        "For {n} servings of {recipe}, what's the {ing} quantity converted from cups to {words}?",
        recipe=recipe.name,
        n=servings,
        ing=ingredient.name.lower(),
        words=words,
    )
    steps = [
        RefStep(tool="search_recipes", args={"query": recipe.name}),
        RefStep(
            tool="scale_recipe",
            args={"recipe": ref(0, "results", 0, "recipe_id"), "servings": servings},
        ),
        RefStep(
            tool="convert_units",
            args={
                "quantity": ref(1, "ingredients", line, "quantity"),
                "from_unit": "cup",
                "to_unit": unit,
                "ingredient": ref(1, "ingredients", line, "item_id"),
            },
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "converted_quantity"]], round=2)
    return Draft(prompt, steps, answer)


def ingredient_price_for_recipe(ctx: TemplateContext) -> Draft:
    """Sequential: find the recipe -> its ingredients -> one ingredient's shelf price."""
    recipe = ctx.pick("recipes")
    line = ctx.rng.randrange(len(recipe.ingredients))
    ingredient = recipe.ingredients[line]
    store = _stores(ctx, 1)[0]
    tool, source, named = _source(ctx, PRICE_SOURCES)
    prompt = ctx.say_source(
        named,
        "I want to cook {recipe} tonight. Look the recipe up and tell me what a package of "
        "its {ing} costs at {store}, going by {source}.",
        "Pull up my {recipe} recipe; I still need the {ing}. What's the price of one package "
        "at {store} according to {source}?",
        "Check the ingredients of {recipe} and price the {ing} at {store} ({source}).",
        recipe=recipe.name,
        ing=ingredient.name.lower(),
        store=store.name,
        source=source,
    )
    steps = [
        RefStep(tool="search_recipes", args={"query": recipe.name}),
        RefStep(tool="get_recipe", args={"recipe": ref(0, "results", 0, "recipe_id")}),
        RefStep(
            tool=tool,
            args={"store": store.name, "item": ref(1, "ingredients", line, "item_id")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "price_usd"]], round=2))


def fastest_of_three(ctx: TemplateContext) -> Draft:
    """Parallel: three to seven recipes by name; the shortest or longest total time."""
    recipes = ctx.sample("recipes", ctx.count(3, 7))
    op, words = _extreme(ctx, "quickest", "slowest")
    prompt = ctx.say(
        "Short on time tonight: of {names}, how many minutes does the {words} one "
        "take, prep and cooking included?",
        "Of our {names} recipes, what's the total time in minutes of the {words} to make?",
        "I have to pick between {names}. How long (total minutes) does the {words} of them take?",
        names=listing([r.name for r in recipes]),
        words=words,
    )
    steps = [RefStep(tool="get_recipe", args={"recipe": r.name}) for r in recipes]
    refs = [[i, "total_minutes"] for i in range(len(recipes))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def party_menu_calories(ctx: TemplateContext) -> Draft:
    """Parallel: scale three to seven recipes to a party size; total calories of the menu."""
    recipes = ctx.sample("recipes", ctx.count(3, 7))
    guests = ctx.rng.choice([6, 8, 10, 12, 14, 20])
    prompt = ctx.say(
        "We're hosting {n} people and serving {names}, one serving each of every "
        "dish. How many kcal does the whole spread add up to?",
        "Party for {n}: {names}, each scaled to {n} servings. What's the total "
        "calorie count of everything?",
        n=guests,
        names=listing([r.name for r in recipes]),
    )
    steps = [
        RefStep(tool="scale_recipe", args={"recipe": r.name, "servings": guests}) for r in recipes
    ]
    refs = [[i, "total_kcal"] for i in range(len(recipes))]
    return Draft(prompt, steps, AnswerSpec(op="sum", refs=refs))


def recipe_shopping_cost(ctx: TemplateContext) -> Draft:
    """Mixture: the recipe -> prices of several of its ingredients at one store -> sum."""
    recipe = ctx.pick("recipes", lambda r: len(r.ingredients) >= 4)
    lines = sorted(
        ctx.rng.sample(
            range(len(recipe.ingredients)), ctx.count(2, min(5, len(recipe.ingredients)))
        )
    )
    store = _stores(ctx, 1)[0]
    tool, source, named = _source(ctx, PRICE_SOURCES)
    names = [recipe.ingredients[i].name.lower() for i in lines]
    listed = listing(names)
    prompt = ctx.say_source(
        named,
        "I'm out of {listed} for {recipe}. What will one package of each cost in total at "
        "{store}? Use {source} prices.",
        "Shopping for {recipe}: I need the {listed}. Add up one package of each at {store} "
        "({source}).",
        listed=listed,
        recipe=recipe.name,
        store=store.name,
        source=source,
    )
    lead = RefStep(tool="get_recipe", args={"recipe": recipe.name})
    return _listed_total(prompt, lead, tool, store, lines, key="ingredients")


def dry_weight_of_cups(ctx: TemplateContext) -> Draft:
    """Mixture: the recipe -> two to four cup lines converted to grams -> total weight."""
    recipe = ctx.pick("recipes", lambda r: len(_cup_lines(r)) >= 2)
    cups = _cup_lines(recipe)
    lines = sorted(ctx.rng.sample(cups, ctx.count(2, min(4, len(cups)))))
    names = [recipe.ingredients[i].name.lower() for i in lines]
    if any(ctx.read("search_items", query=n)["total"] < 1 for n in names):
        raise NoFit("ingredient not in the catalog")
    prompt = ctx.say(
        "For {recipe}, how many grams do {the_lines} weigh together? The recipe "
        "gives them in cups.",
        "I weigh everything when baking. In {recipe}, convert {the_lines} from cups "
        "to grams and give me the combined weight.",
        recipe=recipe.name,
        the_lines=listing([f"the {n}" for n in names]),
    )
    steps = [RefStep(tool="get_recipe", args={"recipe": recipe.name})]
    steps += [
        RefStep(
            tool="convert_units",
            args={
                "quantity": ref(0, "ingredients", i, "quantity"),
                "from_unit": "cup",
                "to_unit": "g",
                "ingredient": ref(0, "ingredients", i, "item_id"),
            },
        )
        for i in lines
    ]
    refs = [[1 + k, "converted_quantity"] for k in range(len(lines))]
    answer = AnswerSpec(op="sum", refs=refs, round=2)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="recipes and cooking",
    templates={
        "sequential": [grams_for_a_crowd, ingredient_price_for_recipe],
        "parallel": [fastest_of_three, party_menu_calories],
        "mixture": [recipe_shopping_cost, dry_weight_of_cups],
    },
)
