"""Lifestyle subtopic "local services booking": haircuts, cleaners, groomers, ratings."""

from __future__ import annotations

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref, when
from toolchaos.suites.toolbench_x.templates.lifestyle._helpers import (
    RATING_SOURCES,
    _a,
    _book_listed,
    _free_service,
    _locallens_of_each,
    _quotes,
    _rate_each,
    _rate_each_found,
    _source,
)

_PERSONAL = ("hair salon", "cleaning", "pet grooming")
_NOTES = ("", "Please ring the side door.", "Parking is on the street.", "")


def book_earliest(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the provider -> its services that day -> book the earliest."""
    provider = ctx.pick("providers", lambda p: p.category in _PERSONAL)
    day = ctx.day(ctx.rng.randint(1, 14))
    services, k = _free_service(ctx, provider.provider_id, day, "nothing free that day")
    note = ctx.rng.choice(_NOTES)
    args = {"note": note} if note else {}
    tail = f' Add the note "{note}"' if note else ""
    prompt = ctx.say(
        "Book me {a_svc} at {pro} on {day}, whatever the earliest time is.{tail}",
        "Can you get me in at {pro} for {a_svc} on {day}? First free slot is fine.{tail}",
        "I'd like the earliest {svc} appointment {pro} has on {day}.{tail}",
        svc=services[k]["name"].lower(),
        a_svc=_a(services[k]["name"].lower()),
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
        _book_listed(1, k, ref(1, "date"), **args),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def rated_local_pick(ctx: TemplateContext) -> Draft:
    """Sequential: providers in a neighborhood -> the first one's rating -> its prices."""
    provider = ctx.pick("providers", lambda p: p.category in _PERSONAL)
    hood = provider.neighborhood
    found = ctx.read("search_providers", category=provider.category, neighborhood=hood)
    first = found["results"][0]
    tool, guide, named = _source(ctx, RATING_SOURCES)
    prompt = ctx.say_source(
        named,
        "Find the {cat} place in {hood} that comes first alphabetically, check its {guide} "
        "rating, and tell me the price of its cheapest service.",
        "In {hood}, take the first {cat} business by name, look it up on {guide}, then give "
        "me its lowest service price.",
        cat=provider.category,
        hood=hood,
        slot="guide",
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
    """Parallel: three to five providers' prices for the same service; the lowest or highest."""
    return _quotes(
        ctx,
        _PERSONAL,
        ("cheapest", "priciest"),
        "What's the {words} {svc} among {names}?",
        "Compare the price of {a_svc} at {names}; what does the {words} one charge?",
    )


def guide_check_three(ctx: TemplateContext) -> Draft:
    """Parallel: one guide's rating of three to five personal-service providers; max or min."""
    category = ctx.rng.choice(_PERSONAL)
    pros = ctx.sample("providers", ctx.count(3, 5), lambda p: p.category == category)
    return _rate_each(
        ctx,
        pros,
        ("lowest", "highest"),
        "Before I book: what's the {words} {guide} score among {names}?",
        "I'm choosing a {cat}: what's the {words} {guide} rating among {names}?",
        cat=category,
    )


def best_in_neighborhood(ctx: TemplateContext) -> Draft:
    """Mixture: providers of a category -> one guide's rating of each -> max or min."""
    category = ctx.rng.choice(_PERSONAL)
    found = ctx.read("search_providers", category=category)["results"]
    return _rate_each_found(
        ctx,
        RefStep(tool="search_providers", args={"category": category}),
        "provider_id",
        len(found),
        ("weakest", "best"),
        "Of every {cat} business listed, what's the {words} rating on {guide}?",
        "Pull {guide} ratings for all the {cat} providers and tell me the {words} score.",
        cat=category,
    )


def two_providers_ratings(ctx: TemplateContext) -> Draft:
    """Mixture: search two to five providers by name -> the authoritative rating of each."""
    pros = ctx.sample("providers", ctx.count(2, 5), lambda p: p.category in _PERSONAL)
    return _locallens_of_each(
        ctx,
        "search_providers",
        "provider_id",
        pros,
        ("lowest", "best"),
        "Give me the {words} of the LocalLens ratings of {names}; I'm torn between them.",
        "What's the {words} LocalLens score of {names}?",
    )


SUBTOPIC = Subtopic(
    name="local services booking",
    templates={
        "sequential": [book_earliest, rated_local_pick],
        "parallel": [cheapest_haircut, guide_check_three],
        "mixture": [best_in_neighborhood, two_providers_ratings],
    },
)
