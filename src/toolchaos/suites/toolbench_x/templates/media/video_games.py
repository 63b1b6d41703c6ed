"""Video games: the store's prices and platforms, and how games are rated."""

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
    best_rated,
    listed,
    rating_ask,
    unique_top,
)

_PLATFORM_NAMES = {"pc": "PC", "playstation": "PlayStation", "xbox": "Xbox", "switch": "Switch"}


def cheapest_similar_rating(ctx: TemplateContext) -> Draft:
    """Sequential: a game -> store games of its genre on a platform -> rating of the cheapest."""
    game = ctx.pick("games")
    platform = ctx.rng.choice(sorted(_PLATFORM_NAMES))
    found = ctx.read("search_games", genre=game.genre, platform=platform)["results"]
    if len(found) < 2:
        raise NoFit("too few games of that genre")
    prices = [g["price_usd"] for g in found]
    unique_top(prices, "min")
    index = prices.index(min(prices))
    ask = rating_ask(ctx, "value")
    prompt = ask.say(
        ctx,
        "I liked {game}. What's the cheapest {platform} game in the same genre, and how "
        "does it rate? Give me its {source} {words}.",
        "Find games of the same genre as {game} that run on {platform}; for the "
        "cheapest one, tell me the {source} {words}.",
        game=game.title,
        platform=_PLATFORM_NAMES[platform],
        **ask.phrases(),
    )
    steps = [
        RefStep(tool="search_games", args={"query": game.title}),
        RefStep(
            tool="search_games",
            args={"genre": ref(0, "results", 0, "genre"), "platform": platform},
        ),
    ]
    if ctx.read("search_games", query=game.title)["results"][0]["game_id"] != game.game_id:
        raise NoFit("the title search finds another game first")
    return ask.draft(prompt, steps, [ref(1, "results", index, "game_id")])


def studio_catalogue_rating(ctx: TemplateContext) -> Draft:
    """Sequential: catalogue search -> the game in the store -> its rating on a source."""
    game = ctx.pick("games")
    ask = rating_ask(ctx, "value")
    word = game.title.split()[-1]
    found = ctx.read("search_catalog", query=word, kind="game")["results"]
    if len(found) != 1:
        raise NoFit("the word is not specific")
    prompt = ask.say(
        ctx,
        "There's a game with '{word}' in the title. Find it in the store and tell me its "
        "{source} {words}.",
        "Look up the store listing of the game with '{word}' in its title, then give me its "
        "{source} {words}.",
        word=word,
        **ask.phrases(),
    )
    steps = [
        RefStep(tool="search_catalog", args={"query": word, "kind": "game"}),
        RefStep(tool="search_games", args={"query": ref(0, "results", 0, "title")}),
    ]
    return ask.draft(prompt, steps, [ref(1, "results", 0, "game_id")])


def cart_total(ctx: TemplateContext) -> Draft:
    """Parallel: three to seven games in the store; total, priciest or cheapest price."""
    games = ctx.sample("games", ctx.count(3, 7))
    for g in games:
        found = ctx.read("search_games", query=g.title)["results"]
        if found[0]["game_id"] != g.game_id:
            raise NoFit("title not specific")
    op = ctx.rng.choice(["sum", "max", "min"])
    if op != "sum":
        unique_top([g.price_usd for g in games], op)
    question = {
        "sum": "What does the cart come to?",
        "max": "What does the most expensive of them cost?",
        "min": "What does the cheapest of them cost?",
    }[op]
    prompt = ctx.say(
        "My cart: {names}. " + question,
        "Price check on {names} in the game store. " + question,
        names=listing([g.title for g in games]),
    )
    steps = [RefStep(tool="search_games", args={"query": g.title}) for g in games]
    refs = [[i, "results", 0, "price_usd"] for i in range(len(games))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


best_game_of = best_rated(
    "best_game_of",
    "games",
    "game_id",
    (
        "Of {titles}, which game reviews {word} on {source}? Tell me its {words}.",
        "Gift shortlist: {titles}. What's the {word} {source} {words} among them?",
    ),
    ("best", "worst"),
)


def best_in_genre_on_platform(ctx: TemplateContext) -> Draft:
    """Mixture: store games of a genre on a platform -> rating of each -> best or worst."""
    genre = ctx.rng.choice(sorted({g.genre for g in ctx.rows("games")}))
    platform = ctx.rng.choice(sorted(_PLATFORM_NAMES))
    found = ctx.read("search_games", genre=genre, platform=platform)["results"]
    if len(found) < 2:
        raise NoFit("too few games")
    ask = rating_ask(ctx)
    prompt = ask.say(
        ctx,
        "Among the {genre} games on {platform}, what's the {word} {source} {words}?",
        "List {platform} games in the {genre} genre and look each up on {source}. Give "
        "me the {word} {words}.",
        genre=genre,
        platform=_PLATFORM_NAMES[platform],
        **ask.phrases(),
    )
    listing = RefStep(tool="search_games", args={"genre": genre, "platform": platform})
    return ask.draft(prompt, [listing], listed(len(found), "game_id"))


def budget_games_rating(ctx: TemplateContext) -> Draft:
    """Mixture: games under a price on a platform -> each rating -> best."""
    platform = ctx.rng.choice(sorted(_PLATFORM_NAMES))
    budget = ctx.rng.choice([15, 20, 25, 30])
    found = ctx.read("search_games", platform=platform, max_price_usd=budget)["results"]
    if not 2 <= len(found) <= 6:
        raise NoFit("need two to six games")
    ask = rating_ask(ctx, "max")
    prompt = ask.say(
        ctx,
        "I have ${budget} to spend on a {platform} game. Of the ones at or under that "
        "price, what's the best {source} {words}?",
        "Cheap {platform} games (max ${budget}): check each on {source} and give me the "
        "top {words}.",
        budget=budget,
        platform=_PLATFORM_NAMES[platform],
        **ask.phrases(),
    )
    listing = RefStep(tool="search_games", args={"platform": platform, "max_price_usd": budget})
    return ask.draft(prompt, [listing], listed(len(found), "game_id"))


SUBTOPIC = Subtopic(
    name="video games",
    templates={
        "sequential": [cheapest_similar_rating, studio_catalogue_rating],
        "parallel": [cart_total, best_game_of],
        "mixture": [best_in_genre_on_platform, budget_games_rating],
    },
)
