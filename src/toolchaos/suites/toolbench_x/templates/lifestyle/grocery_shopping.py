"""Lifestyle subtopic "grocery shopping": shelf prices, shopping lists and the pantry."""

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
    _list_at_stores,
    _listed_total,
    _source,
    _stores,
)

_NEW_LISTS = (
    "Sunday brunch",
    "Camping trip",
    "Game night",
    "Baking day",
    "Picnic",
    "Office snacks",
    "Holiday dinner",
)


def new_list_total(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: create a list -> add an item -> read the list's cost."""
    taken = {s.name.casefold() for s in ctx.rows("shopping_lists")}
    name = ctx.rng.choice([n for n in _NEW_LISTS if n.casefold() not in taken])
    store = _stores(ctx, 1)[0]
    item = _items(ctx, 1)[0]
    quantity = ctx.rng.randint(1, 4)
    prompt = ctx.say(
        "Start a new shopping list called '{name}' for {store} and put {q} x {item} on it.",
        "Make me a '{name}' list at {store}, add {q} packages of {item}, and show me what it "
        "comes to.",
        "Create a shopping list '{name}' (store: {store}) with {item}, quantity {q}.",
        name=name,
        store=store.name,
        item=item.name,
        q=quantity,
    )
    steps = [
        RefStep(tool="create_shopping_list", args={"name": name, "store": store.name}),
        RefStep(
            tool="add_list_item",
            args={"list_id": ref(0, "list_id"), "item": item.name, "quantity": quantity},
        ),
        RefStep(tool="get_shopping_list", args={"list_id": ref(1, "list_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def last_item_price(ctx: TemplateContext) -> Draft:
    """Sequential: find the list -> its entries -> price of the newest entry at its store."""
    lst = ctx.pick("shopping_lists")
    tool, source, named = _source(ctx, PRICE_SOURCES)
    entries = ctx.read("get_shopping_list", list_id=lst.list_id)["entries"]
    prompt = ctx.say_source(
        named,
        "The last thing I added to my '{name}' list: what does one package of it cost at the "
        "store that list is for? Go by {source}.",
        "Check my '{name}' shopping list and price its most recently added item at the list's "
        "own store, using {source}.",
        "On my '{name}' list, how much is the newest entry at the list's store according to "
        "{source}?",
        name=lst.name,
        source=source,
    )
    steps = [
        RefStep(tool="list_shopping_lists", args={"name_contains": lst.name}),
        RefStep(tool="get_shopping_list", args={"list_id": ref(0, "results", 0, "list_id")}),
        RefStep(
            tool=tool,
            args={
                "store": ref(1, "store_id"),
                "item": ref(1, "entries", len(entries) - 1, "item_id"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "price_usd"]], round=2))


def cheapest_store(ctx: TemplateContext) -> Draft:
    """Parallel: one item at three to five stores; the lowest (or highest) shelf price."""
    item = _items(ctx, 1)[0]
    stores = _stores(ctx, ctx.count(3, 5))
    tool, source, named = _source(ctx, PRICE_SOURCES)
    op, words = _extreme(ctx, "cheapest", "most expensive")
    prompt = ctx.say_source(
        named,
        "What's the {words} price for {item} among {stores}? Use {source}.",
        "Price check on {item} at {stores} ({source}): give me the {words} one.",
        "I'm comparing {item} across {stores}. What's the {words} shelf price, per {source}?",
        item=item.name,
        stores=listing([s.name for s in stores]),
        words=words,
        source=source,
    )
    steps = [RefStep(tool=tool, args={"store": s.name, "item": item.name}) for s in stores]
    answer = AnswerSpec(op=op, refs=[[i, "price_usd"] for i in range(len(stores))], round=2)
    return Draft(prompt, steps, answer)


def basket_at_one_store(ctx: TemplateContext) -> Draft:
    """Parallel: three to six items at one store; the basket total."""
    return _basket_total(
        ctx,
        None,
        "Quick run to {store} for {items}, one of each. What's the total, by {source} prices?",
        "How much will {items} cost together at {store}? Use {source}.",
        "Add up one package each of {items} at {store} ({source}).",
        lower=False,
    )


def list_at_other_stores(ctx: TemplateContext) -> Draft:
    """Mixture: find the list -> its cost at two to four other stores -> the min or max."""
    lst = ctx.pick("shopping_lists")
    stores = ctx.sample("stores", ctx.count(2, 4), lambda s: s.store_id != lst.store_id)
    op, words = _extreme(ctx, "cheapest", "priciest")
    prompt = ctx.say(
        "Would my '{name}' list be cheaper elsewhere? Price it at {stores} and tell me "
        "the {words} total.",
        "What would my '{name}' shopping list come to at each of {stores}? Give me the "
        "{words} of those totals.",
        name=lst.name,
        stores=listing([s.name for s in stores]),
        words=words,
    )
    answer = AnswerSpec(op=op, refs=[[1 + i, "total_usd"] for i in range(len(stores))], round=2)
    return Draft(prompt, _list_at_stores(lst, stores), answer)


def restock_expiring(ctx: TemplateContext) -> Draft:
    """Mixture: pantry items expiring soon -> the price of each at one store -> sum."""
    days = ctx.rng.choice([5, 6, 7, 8, 9, 10, 12])
    expiring = ctx.read("list_pantry", expiring_within_days=days)["results"]
    if not 2 <= len(expiring) <= 8:
        raise NoFit("too few or too many pantry items expiring")
    store = _stores(ctx, 1)[0]
    tool, source, named = _source(ctx, PRICE_SOURCES)
    prompt = ctx.say_source(
        named,
        "Everything in my pantry that expires within {d} days needs replacing. What would one "
        "package of each cost at {store}, by {source}?",
        "Look at what's expiring in the pantry in the next {d} days and total up restocking "
        "one of each at {store} ({source} prices).",
        d=days,
        store=store.name,
        source=source,
    )
    lead = RefStep(tool="list_pantry", args={"expiring_within_days": days})
    return _listed_total(prompt, lead, tool, store, list(range(len(expiring))))


SUBTOPIC = Subtopic(
    name="grocery shopping",
    templates={
        "sequential": [new_list_total, last_item_price],
        "parallel": [cheapest_store, basket_at_one_store],
        "mixture": [list_at_other_stores, restock_expiring],
    },
)
