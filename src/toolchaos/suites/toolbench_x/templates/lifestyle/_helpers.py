"""Helpers and constants shared by the lifestyle subtopic templates.

Besides the entity pickers, the helpers hold the task shapes several subtopics ask with
their own words: a basket priced at one store, one guide's rating of a few businesses or
of every business a search finds, the same service quoted by a few providers, booking
the first free time, and the items of a listing priced at one store. Where a shape takes
a few entities it takes a number the rng draws (:meth:`TemplateContext.count`), so one
shape yields several task logics.
"""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, TemplateContext, listing, ref

PRICE_SOURCES = {
    "get_item_price": "the store's own catalog",
    "compare_item_price": "ShelfScout",
    "get_receipt_price": "ReceiptPal receipts",
}
RATING_SOURCES = {
    "get_rating_locallens": "LocalLens",
    "get_rating_starboard": "StarBoard",
    "get_rating_towntalk": "TownTalk",
}


def _a(noun: str) -> str:
    """``noun`` with its indefinite article: 'a haircut', 'an oven cleaning'."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _stores(ctx: TemplateContext, k: int) -> list[Any]:
    return ctx.sample("stores", k)


def _items(ctx: TemplateContext, k: int, category: str | None = None) -> list[Any]:
    return ctx.sample("items", k, lambda i: category is None or i.category == category)


def _source(ctx: TemplateContext, sources: dict[str, str]) -> tuple[str, str, bool]:
    """One source tool, how a person names it, and whether the request names it.

    About half the requests name no source and read one the docs do not call
    authoritative (``ctx.choose_source``); they are phrased with ``ctx.say_source``.
    """
    tool, named = ctx.choose_source(sources)
    return tool, sources[tool], named


def _extreme(ctx: TemplateContext, low: str, high: str) -> tuple[str, str]:
    """A min or max question, and the word a person asks it with (``low`` for min)."""
    op = ctx.rng.choice(["min", "max"])
    return op, {"min": low, "max": high}[op]


def _basket_total(
    ctx: TemplateContext, category: str | None, *phrasings: str, lower: bool = True
) -> Draft:
    """Parallel: three to seven items (of a category) at one store, by one price source; total.

    The phrasings name the items {items} (lower-cased unless ``lower`` is false), the
    store {store} and the price source {source}.
    """
    items = _items(ctx, ctx.count(3, 7), category)
    store = _stores(ctx, 1)[0]
    tool, source, named = _source(ctx, PRICE_SOURCES)
    names = listing([i.name.lower() if lower else i.name for i in items])
    prompt = ctx.say_source(named, *phrasings, items=names, store=store.name, source=source)
    steps = [RefStep(tool=tool, args={"store": store.name, "item": i.name}) for i in items]
    answer = AnswerSpec(op="sum", refs=[[i, "price_usd"] for i in range(len(items))], round=2)
    return Draft(prompt, steps, answer)


def _rate_each(
    ctx: TemplateContext,
    businesses: list[Any],
    words: tuple[str, str],
    *phrasings: str,
    **values: Any,
) -> Draft:
    """Parallel: one guide's rating of a few businesses looked up by name; min or max.

    The phrasings name the businesses {names}, the guide {guide} and the extreme
    {words} (``words`` is the min word, then the max word), plus ``values``.
    """
    tool, guide, named = _source(ctx, RATING_SOURCES)
    op, word = _extreme(ctx, *words)
    names = listing([x.name for x in businesses])
    prompt = ctx.say_source(
        named, *phrasings, words=word, slot="guide", guide=guide, names=names, **values
    )
    steps = [RefStep(tool=tool, args={"business": x.name}) for x in businesses]
    refs = [[i, "rating_stars"] for i in range(len(businesses))]
    answer = AnswerSpec(op=op, refs=refs, round=1)
    return Draft(prompt, steps, answer)


def _rate_each_found(
    ctx: TemplateContext,
    search: RefStep,
    id_field: str,
    found: int,
    words: tuple[str, str],
    *phrasings: str,
    **values: Any,
) -> Draft:
    """Mixture: a search -> one guide's rating of each of the ``found`` rows -> min or max.

    The phrasings name the guide {guide} and the extreme {words}, plus ``values``.
    """
    tool, guide, named = _source(ctx, RATING_SOURCES)
    op, word = _extreme(ctx, *words)
    prompt = ctx.say_source(named, *phrasings, words=word, slot="guide", guide=guide, **values)
    steps = [search]
    steps += [
        RefStep(tool=tool, args={"business": ref(0, "results", i, id_field)}) for i in range(found)
    ]
    refs = [[1 + i, "rating_stars"] for i in range(found)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def _locallens_of_each(
    ctx: TemplateContext,
    search_tool: str,
    id_field: str,
    businesses: list[Any],
    words: tuple[str, str],
    *phrasings: str,
) -> Draft:
    """Mixture: search a few businesses by name -> the authoritative rating of each -> min/max.

    The phrasings name the businesses {names} and the extreme {words}.
    """
    op, word = _extreme(ctx, *words)
    k = len(businesses)
    prompt = ctx.say(*phrasings, names=listing([x.name for x in businesses]), words=word)
    steps = [RefStep(tool=search_tool, args={"query": x.name}) for x in businesses]
    steps += [
        RefStep(tool="get_rating_locallens", args={"business": ref(i, "results", 0, id_field)})
        for i in range(k)
    ]
    answer = AnswerSpec(op=op, refs=[[k + i, "rating_stars"] for i in range(k)], round=1)
    return Draft(prompt, steps, answer)


def _quotes(
    ctx: TemplateContext, categories: tuple[str, ...], words: tuple[str, str], *phrasings: str
) -> Draft:
    """Parallel: three to five providers of a category quote one service they offer; min/max.

    The phrasings name the service {svc} (or, with its article, {a_svc}), the providers
    {names} and the extreme {words}.
    """
    category = ctx.rng.choice(categories)
    providers = ctx.world.table("providers")
    service = ctx.pick("services", lambda s: providers[s.provider_id].category == category).name
    offering = sorted(
        {
            s.provider_id
            for s in ctx.rows("services")
            if s.name == service and providers[s.provider_id].category == category
        }
    )
    if len(offering) < 3:
        raise NoFit("fewer than three providers offer it")
    chosen = [providers[p] for p in ctx.rng.sample(offering, ctx.count(3, min(5, len(offering))))]
    refs = []
    for i, p in enumerate(chosen):
        rows = ctx.read("list_services", provider=p.provider_id)["results"]
        refs.append([i, "results", [r["name"] for r in rows].index(service), "price_usd"])
    op, word = _extreme(ctx, *words)
    names = listing([p.name for p in chosen])
    svc = service.lower()
    prompt = ctx.say(*phrasings, svc=svc, a_svc=_a(svc), names=names, words=word)
    steps = [RefStep(tool="list_services", args={"provider": p.name}) for p in chosen]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def _free_service(
    ctx: TemplateContext, provider_id: str, day: str, why: str
) -> tuple[list[dict[str, Any]], int]:
    """A provider's services on a day and the index of one, at random, with a free time."""
    services: list[dict[str, Any]] = ctx.read("list_services", provider=provider_id, date=day)[
        "results"
    ]
    free = [i for i, s in enumerate(services) if s["available_times"]]
    if not free:
        raise NoFit(why)
    return services, ctx.rng.choice(free)


def _book_listed(step: int, k: int, day: Any, **extra: Any) -> RefStep:
    """Book service ``k`` of the ``list_services`` at ``step``, at its first free time."""
    return RefStep(
        tool="book_service",
        args={
            "service_id": ref(step, "results", k, "service_id"),
            "date": day,
            "time": ref(step, "results", k, "available_times", 0),
            **extra,
        },
    )


def _listed_total(
    prompt: str,
    listing: RefStep,
    tool: str,
    store: Any,
    lines: list[int],
    key: str = "results",
    id_field: str = "item_id",
) -> Draft:
    """Mixture: a listing -> the price of some of its items (``lines``) at one store -> sum."""
    steps = [listing]
    steps += [
        RefStep(tool=tool, args={"store": store.name, "item": ref(0, key, i, id_field)})
        for i in lines
    ]
    refs = [[1 + k, "price_usd"] for k in range(len(lines))]
    return Draft(prompt, steps, AnswerSpec(op="sum", refs=refs, round=2))


def _list_at_stores(lst: Any, stores: list[Any]) -> list[RefStep]:
    """Find a shopping list by name, then price it at each of ``stores``."""
    steps = [RefStep(tool="list_shopping_lists", args={"name_contains": lst.name})]
    steps += [
        RefStep(
            tool="get_shopping_list",
            args={"list_id": ref(0, "results", 0, "list_id"), "store": s.name},
        )
        for s in stores
    ]
    return steps
