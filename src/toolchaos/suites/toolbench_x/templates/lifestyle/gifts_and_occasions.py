"""Lifestyle subtopic "gifts and occasions": birthdays, planned occasions, gift prices."""

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
    _extreme,
    _items,
    _source,
    _stores,
)


def plan_birthday_with_gift(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: find the contact -> plan the birthday -> note a gift."""
    contact = ctx.pick("contacts")
    view = ctx.read("list_contacts", name_contains=contact.name)["results"][0]
    if any(
        o.contact_id == contact.contact_id and o.kind == "birthday" for o in ctx.rows("occasions")
    ):
        raise NoFit("that birthday is already planned")
    budget = ctx.rng.choice([25, 30, 40, 50, 60, 80])
    gift = _items(ctx, 1, "gifts")[0]
    prompt = ctx.say(
        "Set up {who}'s next birthday as an occasion with a ${b} budget, and note a {gift} "
        "as the gift idea.",
        "Plan {who}'s upcoming birthday (budget ${b}) and add '{gift}' to its gift ideas.",
        "Add {who}'s birthday to my occasions, ${b} to spend, with {gift} as the first idea.",
        who=contact.name,
        b=budget,
        gift=gift.name.lower(),
    )
    steps = [
        RefStep(tool="list_contacts", args={"name_contains": contact.name}),
        RefStep(
            tool="create_occasion",
            args={
                "contact": ref(0, "results", 0, "contact_id"),
                "kind": "birthday",
                "date": ref(0, "results", 0, "next_birthday"),
                "budget_usd": budget,
            },
        ),
        RefStep(
            tool="add_gift_idea",
            args={"occasion_id": ref(1, "occasion_id"), "item": gift.name},
        ),
    ]
    if view["contact_id"] != contact.contact_id:
        raise NoFit("name search finds someone else first")
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def gift_idea_price(ctx: TemplateContext) -> Draft:
    """Sequential: the person's occasion -> its gift idea -> the gift's price at a store."""
    with_ideas = {g.occasion_id for g in ctx.rows("gift_ideas")}
    occasion = ctx.pick("occasions", lambda o: o.occasion_id in with_ideas)
    contact = ctx.world.table("contacts")[occasion.contact_id]
    store = _stores(ctx, 1)[0]
    tool, source, named = _source(ctx, PRICE_SOURCES)
    prompt = ctx.say_source(
        named,
        "What's the gift idea I noted for {who}'s {kind} going to cost at {store}? Use {source}.",
        "For {who}'s {kind}, look up the gift idea I saved and price it at {store} ({source}).",
        "Price check: the gift I'm planning for {who} ({kind}), at {store}, by {source}.",
        who=contact.name,
        kind=occasion.kind,
        store=store.name,
        source=source,
    )
    steps = [
        RefStep(tool="list_occasions", args={"contact": contact.name, "kind": occasion.kind}),
        RefStep(tool="list_gift_ideas", args={"occasion_id": ref(0, "results", 0, "occasion_id")}),
        RefStep(tool=tool, args={"store": store.name, "item": ref(1, "results", 0, "item_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "price_usd"]], round=2))


def gift_basket(ctx: TemplateContext) -> Draft:
    """Parallel: three to six gift items at one store; the total."""
    return _basket_total(
        ctx,
        "gifts",
        "I'm putting together a gift basket: {items} from {store}. Total, going by {source}?",
        "What would {items} cost all together at {store} ({source})?",
    )


def soonest_birthday(ctx: TemplateContext) -> Draft:
    """Parallel: three to six contacts looked up by name; the fewest (or most) days to go."""
    people = ctx.sample("contacts", ctx.count(3, 6))
    op, words = _extreme(ctx, "soonest", "furthest away")
    prompt = ctx.say(
        "Of {names}, whose birthday is {words}? Tell me how many days from today.",
        "How many days until the {words} birthday among {names}?",
        names=listing([p.name for p in people]),
        words=words,
    )
    steps = [RefStep(tool="list_contacts", args={"name_contains": p.name}) for p in people]
    refs = [[i, "results", 0, "days_until_birthday"] for i in range(len(people))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def gift_across_stores(ctx: TemplateContext) -> Draft:
    """Mixture: the occasion's gift idea -> its price at two to five stores -> the cheapest."""
    with_ideas = {g.occasion_id for g in ctx.rows("gift_ideas")}
    occasion = ctx.pick("occasions", lambda o: o.occasion_id in with_ideas)
    contact = ctx.world.table("contacts")[occasion.contact_id]
    stores = _stores(ctx, ctx.count(2, 5))
    tool, source, named = _source(ctx, PRICE_SOURCES)
    prompt = ctx.say_source(
        named,
        "I could buy the gift idea for {who}'s {kind} at {stores}. Where is it cheapest? Give "
        "me the lowest price per {source}.",
        "Shop around for the gift I noted for {who}'s {kind} at {stores} ({source}); "
        "what's the best price?",
        who=contact.name,
        kind=occasion.kind,
        stores=listing([s.name for s in stores]),
        source=source,
    )
    steps = [
        RefStep(tool="list_occasions", args={"contact": contact.name, "kind": occasion.kind}),
        RefStep(tool="list_gift_ideas", args={"occasion_id": ref(0, "results", 0, "occasion_id")}),
    ]
    steps += [
        RefStep(tool=tool, args={"store": s.name, "item": ref(1, "results", 0, "item_id")})
        for s in stores
    ]
    answer = AnswerSpec(op="min", refs=[[2 + i, "price_usd"] for i in range(len(stores))], round=2)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="gifts and occasions",
    templates={
        "sequential": [plan_birthday_with_gift, gift_idea_price],
        "parallel": [gift_basket, soonest_birthday],
        "mixture": [gift_across_stores],
    },
)
