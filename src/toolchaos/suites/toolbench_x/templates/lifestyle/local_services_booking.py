"""Lifestyle subtopic "local services booking": haircuts, cleaners, groomers, ratings."""

from __future__ import annotations

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref, when
from toolchaos.suites.toolbench_x.templates.lifestyle._helpers import (
    DOMAIN,
    RATING_SOURCES,
    TOPIC,
    _source,
)

_PERSONAL = ("hair salon", "cleaning", "pet grooming")
_NOTES = ("", "Please ring the side door.", "Parking is on the street.", "")


def book_earliest(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the provider -> its services that day -> book the earliest."""
    provider = ctx.pick("providers", lambda p: p.category in _PERSONAL)
    day = ctx.day(ctx.rng.randint(1, 14))
    services = ctx.read("list_services", provider=provider.provider_id, date=day)["results"]
    free = [i for i, s in enumerate(services) if s["available_times"]]
    if not free:
        raise NoFit("nothing free that day")
    k = ctx.rng.choice(free)
    note = ctx.rng.choice(_NOTES)
    args = {"note": note} if note else {}
    tail = f' Add the note "{note}"' if note else ""
    prompt = ctx.say(
        "Book me a {svc} at {pro} on {day}, whatever the earliest time is.{tail}",
        "Can you get me in at {pro} for a {svc} on {day}? First free slot is fine.{tail}",
        "I'd like the earliest {svc} appointment {pro} has on {day}.{tail}",
        svc=services[k]["name"].lower(),
        pro=provider.name,
        day=when(day),
        tail=tail,
    )
    steps = [
        RefStep(tool="search_providers", args={"query": provider.name}),
        RefStep(
            tool="list_services",
            args={"provider": ref(0, "results", 0, "provider_id"), "date": day},
        ),
        RefStep(
            tool="book_service",
            args={
                "service_id": ref(1, "results", k, "service_id"),
                "date": ref(1, "date"),
                "time": ref(1, "results", k, "available_times", 0),
                **args,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def rated_local_pick(ctx: TemplateContext) -> Draft:
    """Sequential: providers in a neighborhood -> the first one's rating -> its prices."""
    provider = ctx.pick("providers", lambda p: p.category in _PERSONAL)
    hood = provider.neighborhood
    found = ctx.read("search_providers", category=provider.category, neighborhood=hood)
    first = found["results"][0]
    tool, guide = _source(ctx, RATING_SOURCES)
    prompt = ctx.say(
        "Find the {cat} place in {hood} that comes first alphabetically, check its {guide} "
        "rating, and tell me the price of its cheapest service.",
        "In {hood}, take the first {cat} business by name, look it up on {guide}, then give "
        "me its lowest service price.",
        cat=provider.category,
        hood=hood,
        guide=guide,
    )
    steps = [
        RefStep(
            tool="search_providers",
            args={"category": provider.category, "neighborhood": hood},
        ),
        RefStep(tool=tool, args={"business": ref(0, "results", 0, "provider_id")}),
        RefStep(tool="list_services", args={"provider": ref(1, "business_id")}),
    ]
    if not first:
        raise NoFit("nobody there")
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "results", 0, "price_usd"]]))


def cheapest_haircut(ctx: TemplateContext) -> Draft:
    """Parallel: three providers' prices for the same service; the lowest or highest."""
    category = ctx.rng.choice(_PERSONAL)
    service = ctx.pick(
        "services", lambda s: ctx.world.table("providers")[s.provider_id].category == category
    ).name
    offering = sorted(
        {
            s.provider_id
            for s in ctx.rows("services")
            if s.name == service
            and ctx.world.table("providers")[s.provider_id].category == category
        }
    )
    if len(offering) < 3:
        raise NoFit("fewer than three providers offer it")
    providers = [ctx.world.table("providers")[p] for p in ctx.rng.sample(offering, 3)]
    refs = []
    for i, p in enumerate(providers):
        rows = ctx.read("list_services", provider=p.provider_id)["results"]
        refs.append([i, "results", [r["name"] for r in rows].index(service), "price_usd"])
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "cheapest", "max": "priciest"}[op]
    prompt = ctx.say(
        "What's the {words} {svc} among {a}, {b} and {c}?",
        "Compare the price of a {svc} at {a}, {b} and {c}; what does the {words} one charge?",
        svc=service.lower(),
        a=providers[0].name,
        b=providers[1].name,
        c=providers[2].name,
        words=words,
    )
    steps = [RefStep(tool="list_services", args={"provider": p.name}) for p in providers]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def guide_check_three(ctx: TemplateContext) -> Draft:
    """Parallel: one guide's rating of three personal-service providers; max or min."""
    category = ctx.rng.choice(_PERSONAL)
    pros = ctx.sample("providers", 3, lambda p: p.category == category)
    tool, guide = _source(ctx, RATING_SOURCES)
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "lowest", "max": "highest"}[op]
    prompt = ctx.say(
        "Before I book: what's the {words} {guide} score among {a}, {b} and {c}?",
        "I'm choosing a {cat} between {a}, {b} and {c}. Give me the {words} {guide} rating.",
        words=words,
        guide=guide,
        cat=category,
        a=pros[0].name,
        b=pros[1].name,
        c=pros[2].name,
    )
    steps = [RefStep(tool=tool, args={"business": p.name}) for p in pros]
    answer = AnswerSpec(op=op, refs=[[i, "rating_stars"] for i in range(3)], round=1)
    return Draft(prompt, steps, answer)


def best_in_neighborhood(ctx: TemplateContext) -> Draft:
    """Mixture: providers of a category -> one guide's rating of each -> max or min."""
    category = ctx.rng.choice(_PERSONAL)
    found = ctx.read("search_providers", category=category)["results"]
    tool, guide = _source(ctx, RATING_SOURCES)
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "weakest", "max": "best"}[op]
    prompt = ctx.say(
        "Of every {cat} business listed, what's the {words} rating on {guide}?",
        "Pull {guide} ratings for all the {cat} providers and tell me the {words} score.",
        cat=category,
        words=words,
        guide=guide,
    )
    steps = [RefStep(tool="search_providers", args={"category": category})]
    steps += [
        RefStep(tool=tool, args={"business": ref(0, "results", i, "provider_id")})
        for i in range(len(found))
    ]
    refs = [[1 + i, "rating_stars"] for i in range(len(found))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def two_providers_ratings(ctx: TemplateContext) -> Draft:
    """Mixture: search two providers by name -> the authoritative rating of each."""
    pros = ctx.sample("providers", 2, lambda p: p.category in _PERSONAL)
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "lower", "max": "better"}[op]
    prompt = ctx.say(
        "{a} or {b}? Give me the {words} of their LocalLens ratings.",
        "What's the {words} LocalLens score between {a} and {b}?",
        a=pros[0].name,
        b=pros[1].name,
        words=words,
    )
    steps = [RefStep(tool="search_providers", args={"query": p.name}) for p in pros]
    steps += [
        RefStep(tool="get_rating_locallens", args={"business": ref(i, "results", 0, "provider_id")})
        for i in range(2)
    ]
    answer = AnswerSpec(op=op, refs=[[2, "rating_stars"], [3, "rating_stars"]], round=1)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="local services booking",
    topic=TOPIC,
    domain=DOMAIN,
    templates={
        "sequential": [book_earliest, rated_local_pick],
        "parallel": [cheapest_haircut, guide_check_three],
        "mixture": [best_in_neighborhood, two_providers_ratings],
    },
)
