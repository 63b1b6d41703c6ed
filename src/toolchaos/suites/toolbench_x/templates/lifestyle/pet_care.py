"""Lifestyle subtopic "pet care": food portions and costs, vaccinations, vet visits."""

from __future__ import annotations

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
    when,
)
from toolchaos.suites.toolbench_x.templates.lifestyle._helpers import (
    PRICE_SOURCES,
    _book_listed,
    _extreme,
    _free_service,
    _listed_total,
    _rate_each,
    _source,
    _stores,
)

_ACTIVITY = {"low": "pretty lazy", "normal": "normally active", "high": "very active"}


def food_bag_price(ctx: TemplateContext) -> Draft:
    """Sequential: find the pet -> its portion (and food) -> that food's price at a store."""
    pet = ctx.pick("pets")
    activity = ctx.rng.choice(sorted(_ACTIVITY))
    store = _stores(ctx, 1)[0]
    tool, source, named = _source(ctx, PRICE_SOURCES)
    prompt = ctx.say_source(
        named,
        "{pet} is {how} these days. Work out the daily portion of the food {pet} eats, and "
        "tell me what a bag of that food costs at {store} ({source}).",
        "I need to restock {pet}'s usual food. Check the portion for a {how} pet, then get "
        "me the package price at {store} from {source}.",
        pet=pet.name,
        how=_ACTIVITY[activity],
        store=store.name,
        source=source,
    )
    steps = [
        RefStep(tool="list_pets", args={"name": pet.name}),
        RefStep(
            tool="compute_food_portion",
            args={"pet": ref(0, "results", 0, "pet_id"), "activity": activity},
        ),
        RefStep(tool=tool, args={"store": store.name, "item": ref(1, "food_item_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "price_usd"]], round=2))


def book_vet_visit(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the pet -> its vet's services that day -> book the earliest."""
    pet = ctx.pick("pets")
    day = ctx.day(ctx.rng.randint(1, 21))
    services, k = _free_service(ctx, pet.vet_id, day, "the vet has nothing free that day")
    service = services[k]["name"]
    prompt = ctx.say(
        "Book {pet} a {service} at the usual vet on {day}, earliest slot they have.",
        "{pet} needs a {service}. Please book it with our regular vet clinic on {day}, at the "
        "first free time.",
        "Can you get {pet} in at our vet for a {service} on {day}? Take the earliest opening.",
        pet=pet.name,
        service=service.lower(),
        day=when(day),
    )
    steps = [
        RefStep(tool="list_pets", args={"name": pet.name}),
        RefStep(
            tool="list_services",
            args={"provider": ref(0, "results", 0, "vet_id"), "date": day},
        ),
        _book_listed(1, k, ref(1, "date")),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def daily_food_for_three(ctx: TemplateContext) -> Draft:
    """Parallel: portions for three to six pets; the total (or largest) daily grams."""
    pets = ctx.sample("pets", ctx.count(3, 6))
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "How many grams of food do they get through in a day all together?",
        "max": "Which of them eats the most, and how many grams a day is that?",
    }[op]
    prompt = ctx.say(
        "{names} are all normally active. " + question,
        "Thinking about {names} at normal activity: " + question,
        names=listing([p.name for p in pets]),
    )
    steps = [RefStep(tool="compute_food_portion", args={"pet": p.name}) for p in pets]
    answer = AnswerSpec(op=op, refs=[[i, "daily_food_g"] for i in range(len(pets))], round=1)
    return Draft(prompt, steps, answer)


def vet_clinic_ratings(ctx: TemplateContext) -> Draft:
    """Parallel: one guide's rating of three to five vet clinics; the highest or lowest."""
    vets = ctx.sample("providers", ctx.count(3, 5), lambda p: p.category == "veterinary")
    return _rate_each(
        ctx,
        vets,
        ("lowest", "highest"),
        "We might switch vets. On {guide}, what's the {words} rating among {names}?",
        "Compare {names} on {guide} for me: the {words} star rating?",
    )


def soonest_booster(ctx: TemplateContext) -> Draft:
    """Mixture: pets of a species -> each one's vaccinations -> the soonest booster."""
    species = ctx.rng.choice(["dog", "cat"])
    pets = ctx.read("list_pets", species=species)["results"]
    if len(pets) < 2:
        raise NoFit(f"fewer than two {species}s")
    op, words = _extreme(ctx, "soonest", "latest")
    prompt = ctx.say(
        "Across all our {s}s, how many days until the {words} next-due booster shot?",
        "Check every {s} we have: of each one's next booster, how many days away is the {words}?",
        s=species,
        words=words,
    )
    steps = [RefStep(tool="list_pets", args={"species": species})]
    steps += [
        RefStep(tool="list_vaccinations", args={"pet": ref(0, "results", i, "pet_id")})
        for i in range(len(pets))
    ]
    refs = [[1 + i, "results", 0, "days_until_due"] for i in range(len(pets))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def food_cost_all_pets(ctx: TemplateContext) -> Draft:
    """Mixture: the pets -> the price of each one's food at a store -> total."""
    species = ctx.rng.choice(["dog", "cat", None])
    pets = ctx.read("list_pets", **({"species": species} if species else {}))["results"]
    if len(pets) < 2:
        raise NoFit("too few pets")
    store = _stores(ctx, 1)[0]
    tool, source, named = _source(ctx, PRICE_SOURCES)
    who = f"our {species}s" if species else "all our pets"
    prompt = ctx.say_source(
        named,
        "If I buy one bag of each food {who} eat at {store}, what's the total? Go by "
        "{source}, one bag per animal.",
        "Restock day: one package of the usual food for each of {who}, bought at {store}. "
        "Total cost by {source}?",
        who=who,
        store=store.name,
        source=source,
    )
    args = {"species": species} if species else {}
    listing = RefStep(tool="list_pets", args=args)
    return _listed_total(
        prompt, listing, tool, store, list(range(len(pets))), id_field="food_item_id"
    )


SUBTOPIC = Subtopic(
    name="pet care",
    templates={
        "sequential": [food_bag_price, book_vet_visit],
        "parallel": [daily_food_for_three, vet_clinic_ratings],
        "mixture": [soonest_booster, food_cost_all_pets],
    },
)
