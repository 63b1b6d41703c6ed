"""Reviews and ratings: what the three aggregators say, and the user's own reviews."""

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
from toolchaos.suites.toolbench_x.templates.media._helpers import (
    RATING_SOURCES,
    digits,
    listed,
    rating_ask,
    rating_field,
    title_finds,
)

_KIND_TABLES = {"film": "films", "series": "series", "album": "albums", "game": "games",
                "book": "books", "podcast": "podcasts"}  # fmt: skip
_STARS = {1: "one star", 2: "two stars", 3: "three stars", 4: "four stars", 5: "five stars"}


def review_then_watchlist(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: find the title -> post a review -> add it to the watchlist."""
    kind = ctx.rng.choice(["film", "series"])
    reviewed = {r.item_id for r in ctx.rows("reviews")}
    listed = {w.item_id for w in ctx.rows("watchlist")}
    row = ctx.pick(
        _KIND_TABLES[kind],
        lambda r: r.model_dump()[f"{kind}_id"] not in reviewed | listed,
    )
    item_id = row.model_dump()[f"{kind}_id"]
    if not title_finds(ctx, row.title, item_id):
        raise NoFit("title not found first")
    stars = ctx.rng.randint(1, 5)
    priority = ctx.rng.choice(["high", "normal", "low"])
    text = ctx.rng.choice(["Gripping from start to finish.", "Slow but worth it.",
                           "Not my cup of tea.", "The ending stayed with me."])  # fmt: skip
    prompt = ctx.say(
        'Post my review of the {kind} {title}: {stars}, text "{text}". Then put it on my '
        "watchlist at {priority} priority so I rewatch it.",
        'Rate {title} ({kind}) {stars} with the comment "{text}", and add it to my '
        "watchlist ({priority} priority).",
        kind=kind,
        title=row.title,
        stars=_STARS[stars],
        text=text,
        priority=priority,
    )
    steps = [
        RefStep(tool="search_catalog", args={"query": row.title, "kind": kind}),
        RefStep(
            tool="submit_review",
            args={"item": ref(0, "results", 0, "item_id"), "stars": stars, "text": text},
        ),
        RefStep(tool="add_to_watchlist", args={"item": ref(1, "item_id"), "priority": priority}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def my_review_vs_critics(ctx: TemplateContext) -> Draft:
    """Sequential: my reviews of a kind -> the catalogue entry -> an aggregator's score."""
    kind = ctx.rng.choice(["film", "album", "game"])
    mine = ctx.read("list_my_reviews", kind=kind)["results"]
    if not mine:
        raise NoFit("no review of that kind")
    index = ctx.rng.randrange(len(mine))
    review = mine[index]
    if sum(r["stars"] == review["stars"] for r in mine) != 1:
        raise NoFit("star count not unique")
    ask = rating_ask(ctx, "value")
    prompt = ask.say(
        ctx,
        "I gave one {kind} {stars} in my reviews. Find it in the catalogue and tell me "
        "what {source} says: its {words}.",
        "Which {kind} did I rate {stars}? Look it up and give me its {source} {words}, "
        "so I can see if the critics agree.",
        kind=kind,
        stars=_STARS[review["stars"]],
        **ask.phrases(),
    )
    steps = [
        RefStep(tool="list_my_reviews", args={"kind": kind}),
        RefStep(
            tool="search_catalog",
            args={"query": ref(0, "results", index, "title"), "kind": kind},
        ),
    ]
    if not title_finds(ctx, str(review["title"]), str(review["item_id"])):
        raise NoFit("title not found first")
    return ask.draft(prompt, steps, [ref(1, "results", 0, "item_id")])


def three_aggregators(ctx: TemplateContext) -> Draft:
    """Parallel: one item on all three aggregators; the highest or lowest figure."""
    kind = ctx.rng.choice(sorted(_KIND_TABLES))
    row = ctx.pick(_KIND_TABLES[kind])
    field, words = rating_field(ctx)
    op = ctx.rng.choice(["max", "min"])
    prompt = ctx.say(
        "Check the {kind} '{title}' on CriticHub, FanPulse and ReelMeter. What's the "
        "{word} {words} any of them gives?",
        "Cross-check '{title}' ({kind}) across all three review aggregators and report "
        "the {word} {words}.",
        kind=kind,
        title=row.title,
        words=words,
        word={"max": "highest", "min": "lowest"}[op],
    )
    steps = [RefStep(tool=tool, args={"item": row.title}) for tool in sorted(RATING_SOURCES)]
    answer = AnswerSpec(op=op, refs=[[i, field] for i in range(3)], round=digits(field))
    return Draft(prompt, steps, answer)


def mixed_kinds_best(ctx: TemplateContext) -> Draft:
    """Parallel: one aggregator on three to six items of different kinds; best or worst."""
    kinds = ctx.rng.sample(sorted(_KIND_TABLES), ctx.count(3, 6))
    rows = [ctx.pick(_KIND_TABLES[k]) for k in kinds]
    ask = rating_ask(ctx)
    ask.require_unique(ctx, [r.title for r in rows])
    pairs = list(zip(kinds, rows, strict=True))
    prompt = ask.say(
        ctx,
        "Weekend options: {options}. Which has the {word} {source} {words}? Give the number.",
        "On {source}, what's the {word} {words} among {titles}?",
        options=listing([f"the {k} '{r.title}'" for k, r in pairs]),
        titles=listing([f"'{r.title}' ({k})" for k, r in pairs]),
        **ask.phrases(),
    )
    return ask.draft(prompt, [], [r.title for r in rows])


def my_reviewed_items_scores(ctx: TemplateContext) -> Draft:
    """Mixture: my reviews -> an aggregator's score of each reviewed item -> best or worst."""
    mine = ctx.read("list_my_reviews")["results"]
    ask = rating_ask(ctx)
    prompt = ask.say(
        ctx,
        "Of everything I've reviewed, what's the {word} {source} {words}?",
        "Go through all my reviews and look each item up on {source}. What's the {word} "
        "{words} among them?",
        **ask.phrases(),
    )
    listing = RefStep(tool="list_my_reviews", args={})
    return ask.draft(prompt, [listing], listed(len(mine), "item_id"))


_FRAGMENTS = ("Paper", "Night", "Long", "Salt", "Signal", "Glass", "Winter", "Blue",
              "Harbor", "Static", "Moon", "Velvet", "Ghost", "Lantern", "Orchard")  # fmt: skip


def fragment_titles_scores(ctx: TemplateContext) -> Draft:
    """Mixture: catalogue search by a word -> an aggregator's score of each hit -> best."""
    fragment = ctx.rng.choice(_FRAGMENTS)
    found = ctx.read("search_catalog", query=fragment)["results"]
    if not 2 <= len(found) <= 5:
        raise NoFit("need two to five titles")
    ask = rating_ask(ctx)
    prompt = ask.say(
        ctx,
        "Everything in the catalogue with '{frag}' in its title: what's the {word} "
        "{source} {words}?",
        "Search the catalogue for '{frag}' and check each result on {source}. Report the "
        "{word} {words}.",
        frag=fragment,
        **ask.phrases(),
    )
    listing = RefStep(tool="search_catalog", args={"query": fragment})
    return ask.draft(prompt, [listing], listed(len(found), "item_id"))


SUBTOPIC = Subtopic(
    name="reviews and ratings",
    templates={
        "sequential": [review_then_watchlist, my_review_vs_critics],
        "parallel": [three_aggregators, mixed_kinds_best],
        "mixture": [my_reviewed_items_scores, fragment_titles_scores],
    },
)
