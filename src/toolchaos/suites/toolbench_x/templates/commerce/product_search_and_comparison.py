"""Commerce subtopic "product search and comparison": finding products, comparing prices."""

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
from toolchaos.suites.toolbench_x.templates.commerce._helpers import PRICE_SOURCES


def _named(ctx: TemplateContext, where: Any = None) -> Any:
    """A product whose full name finds it alone in search_products."""
    product = ctx.pick("products", where)
    found = ctx.read("search_products", name_contains=product.name)
    if found["total"] != 1:
        raise NoFit(f"{product.name!r} is not a unique name")
    return product


def cheapest_match_price(ctx: TemplateContext) -> Draft:
    """Sequential: search a category under a budget -> cheapest product -> a source's price."""
    category = ctx.rng.choice(sorted({p.category for p in ctx.rows("products")}))
    prices = sorted(p.price_usd for p in ctx.rows("products", lambda p: p.category == category))
    if len(prices) < 3:
        raise NoFit("too few products in the category")
    budget = int(prices[ctx.rng.randint(1, len(prices) - 1)]) + 1
    tool, named = ctx.choose_source(PRICE_SOURCES)
    where = " " + PRICE_SOURCES[tool] if named else ""
    prompt = ctx.say(
        "Find the cheapest {cat} item under ${budget}, look it up, and tell me its price{where}.",
        "I have ${budget} to spend in {cat}. Take the lowest-priced product in that range "
        "and check what it costs{where}.",
        "Search {cat} up to ${budget}; for the cheapest hit, what is the price{where}?",
        cat=category,
        budget=budget,
        where=where,
    )
    steps = [
        RefStep(
            tool="search_products", args={"category": category, "max_price_usd": float(budget)}
        ),
        RefStep(tool="get_product", args={"product_id": ref(0, "results", 0, "product_id")}),
        RefStep(tool=tool, args={"product_id": ref(1, "product_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "price_usd"]], round=2))


def named_product_elsewhere(ctx: TemplateContext) -> Draft:
    """Sequential: search by name -> the product -> its price from an independent source."""
    product = _named(ctx)
    unnamed = ctx.unnamed_source(PRICE_SOURCES)
    tool = unnamed or ctx.rng.choice(["get_price_pricewatch", "get_price_marketplace"])
    phrasings = (
        (
            "Before I buy the {name}, what price does it show {where}?",
            "Can you find the {name} in the shop and then check its price {where}?",
            "Look up the {name} and tell me how much it is {where}, in dollars.",
        )
        if unnamed is None
        else (
            "Before I buy the {name}, what does it cost?",
            "Can you find the {name} in the shop and check its price?",
            "Look up the {name} and tell me how much it is, in dollars.",
        )
    )
    prompt = ctx.say(*phrasings, name=product.name, where=PRICE_SOURCES[tool])
    steps = [
        RefStep(tool="search_products", args={"name_contains": product.name}),
        RefStep(tool="get_product", args={"product_id": ref(0, "results", 0, "product_id")}),
        RefStep(tool=tool, args={"product_id": ref(1, "product_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "price_usd"]], round=2))


def wishlist_extreme(ctx: TemplateContext) -> Draft:
    """Parallel: k wishlist items by id; the highest, lowest or total price."""
    k = ctx.count(3, 6)
    items = ctx.sample("products", k)
    op = ctx.rng.choice(["max", "min", "sum"])
    words = {
        "max": "the most expensive of them costs",
        "min": "the cheapest of them costs",
        "sum": "they all cost together",
    }[op]
    prompt = ctx.say(
        "My wishlist has items {all}. How much {words} right now?",
        "Compare products {all} for me: what {words}, in US dollars?",
        "I saved item numbers {all}. Tell me what {words}.",
        all=listing([p.product_id for p in items]),
        words=words,
    )
    tool = ctx.unnamed_source(PRICE_SOURCES) or "get_product"
    steps = [RefStep(tool=tool, args={"product_id": p.product_id}) for p in items]
    answer = AnswerSpec(op=op, refs=[[i, "price_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def heaviest_to_ship(ctx: TemplateContext) -> Draft:
    """Parallel: k products by id; the heaviest or lightest shipping weight."""
    k = ctx.count(3, 6)
    items = ctx.sample("products", k)
    weights = [p.weight_kg for p in items]
    op = ctx.rng.choice(["max", "min"])
    if weights.count(max(weights) if op == "max" else min(weights)) != 1:
        raise NoFit("no single extreme weight")
    words = {"max": "heaviest", "min": "lightest"}[op]
    prompt = ctx.say(
        "I'm comparing shipping for items {all}. What does the {words} one weigh in kg?",
        "Of products {all}, what's the shipping weight of the {words}?",
        all=listing([p.product_id for p in items]),
        words=words,
    )
    steps = [RefStep(tool="get_product", args={"product_id": p.product_id}) for p in items]
    answer = AnswerSpec(op=op, refs=[[i, "weight_kg"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def compare_two_by_name(ctx: TemplateContext) -> Draft:
    """Mixture: search k products by name -> each product's record -> price comparison."""
    k = ctx.count(2, 4)
    chosen: list[Any] = []
    for _ in range(k):
        taken = {p.product_id for p in chosen}
        chosen.append(_named(ctx, lambda p, taken=taken: p.product_id not in taken))
    op = ctx.rng.choice(["max", "min", "sum"])
    words = {
        "max": "the price of the most expensive one",
        "min": "the price of the cheapest one",
        "sum": "what they cost together",
    }[op]
    if k == 2:
        words = words.replace("most expensive", "more expensive").replace("cheapest", "cheaper")
    names = listing([f"the {p.name}" for p in chosen])
    unnamed = ctx.unnamed_source(PRICE_SOURCES)
    prompt = ctx.say(
        "I can't decide between {all}. Tell me {words}.",
        "Compare {all}{where}: give me {words}, in dollars.",
        "Look up {all}; I want {words}.",
        all=names,
        words=words,
        where="" if unnamed else " in the catalogue",
    )
    tool = unnamed or "get_product"
    steps = [RefStep(tool="search_products", args={"name_contains": p.name}) for p in chosen]
    steps += [
        RefStep(tool=tool, args={"product_id": ref(i, "results", 0, "product_id")})
        for i in range(k)
    ]
    answer = AnswerSpec(op=op, refs=[[k + i, "price_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def budget_shortlist_price(ctx: TemplateContext) -> Draft:
    """Mixture: search a category under a budget -> each hit -> a source's min or max price."""
    category = ctx.rng.choice(sorted({p.category for p in ctx.rows("products")}))
    prices = sorted(p.price_usd for p in ctx.rows("products", lambda p: p.category == category))
    count = ctx.rng.randint(2, 4)
    if len(prices) <= count:
        raise NoFit("too few products in the category")
    budget = int(prices[count - 1]) + 1
    hits = ctx.read("search_products", category=category, max_price_usd=float(budget))
    if not 2 <= hits["total"] <= 4:
        raise NoFit("the shortlist is not two to four products")
    op = ctx.rng.choice(["max", "min"])
    words = {"max": "the priciest", "min": "the cheapest"}[op]
    unnamed = ctx.unnamed_source(PRICE_SOURCES)
    tool = unnamed or ctx.rng.choice(["get_price_pricewatch", "get_price_marketplace"])
    phrasings = (
        (
            "Shortlist every {cat} product up to ${budget}, then check each one {where}. What "
            "does {words} cost there?",
            "For all {cat} items priced at most ${budget}, look up their prices {where} and "
            "give me {words} price.",
        )
        if unnamed is None
        else (
            "Shortlist every {cat} product up to ${budget} and check each one's current "
            "price. What does {words} cost?",
            "For all {cat} items priced at most ${budget}, look up what each costs now and "
            "give me {words} price.",
        )
    )
    prompt = ctx.say(
        *phrasings, cat=category, budget=budget, where=PRICE_SOURCES[tool], words=words
    )
    steps = [
        RefStep(tool="search_products", args={"category": category, "max_price_usd": float(budget)})
    ]
    steps += [
        RefStep(tool=tool, args={"product_id": ref(0, "results", i, "product_id")})
        for i in range(hits["total"])
    ]
    refs = [[1 + i, "price_usd"] for i in range(hits["total"])]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="product search and comparison",
    templates={
        "sequential": [cheapest_match_price, named_product_elsewhere],
        "parallel": [wishlist_extreme, heaviest_to_ship],
        "mixture": [compare_two_by_name, budget_shortlist_price],
    },
)
