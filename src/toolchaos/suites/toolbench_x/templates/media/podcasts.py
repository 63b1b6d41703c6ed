"""Podcasts: feeds, catching up on episodes, listening time and podcast ratings."""

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
from toolchaos.suites.toolbench_x.templates.media._helpers import (
    best_rated,
    rating_ask,
    unique_top,
)

_WORDS = ("Deep", "Kitchen", "Noise", "Northwest", "Notes", "Game", "Money", "Backstage",
          "History", "Mindful", "Screen", "Build")  # fmt: skip


def _by_word(ctx: TemplateContext, word: str) -> list[dict[str, object]]:
    return list(ctx.read("search_catalog", query=word, kind="podcast")["results"])


def catch_up_minutes(ctx: TemplateContext) -> Draft:
    """Sequential: search the podcast -> its feed -> minutes of episodes newer than one."""
    word = ctx.rng.choice(_WORDS)
    found = _by_word(ctx, word)
    if len(found) != 1:
        raise NoFit("the word does not single out a podcast")
    feed = ctx.read("list_podcast_episodes", podcast=str(found[0]["item_id"]))["results"]
    index = ctx.rng.randint(2, min(8, len(feed) - 1))
    if feed[index]["published_on"] == feed[index - 1]["published_on"]:
        raise NoFit("two episodes share a day")
    number = feed[index]["number"]
    prompt = ctx.say(
        "I stopped at episode {n} of that podcast with '{word}' in its name. How many "
        "minutes of newer episodes do I have to catch up on?",
        "Catch-up time: I last heard episode #{n} of the '{word}' podcast. Total length "
        "of everything released after it, in minutes?",
        n=number,
        word=word,
    )
    steps = [
        RefStep(tool="search_catalog", args={"query": word, "kind": "podcast"}),
        RefStep(tool="list_podcast_episodes", args={"podcast": ref(0, "results", 0, "item_id")}),
        RefStep(
            tool="list_podcast_episodes",
            args={
                "podcast": ref(1, "podcast_id"),
                "published_after": ref(1, "results", index, "published_on"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "total_duration_min"]]))


def podcast_rating_via_search(ctx: TemplateContext) -> Draft:
    """Sequential: search the podcast -> its feed (host check) -> its rating."""
    word = ctx.rng.choice(_WORDS)
    found = _by_word(ctx, word)
    if len(found) != 1:
        raise NoFit("the word does not single out a podcast")
    ask = rating_ask(ctx, "value")
    prompt = ask.say(
        ctx,
        "A friend recommended a podcast with '{word}' in the title. Pull up its feed and "
        "tell me its {source} {words}.",
        "There's a show with '{word}' in its name; find it, open its episode feed, and "
        "give me the podcast's {source} {words}.",
        word=word,
        **ask.phrases(),
    )
    steps = [
        RefStep(tool="search_catalog", args={"query": word, "kind": "podcast"}),
        RefStep(tool="list_podcast_episodes", args={"podcast": ref(0, "results", 0, "item_id")}),
    ]
    return ask.draft(prompt, steps, [ref(1, "podcast_id")])


def listening_since(ctx: TemplateContext) -> Draft:
    """Parallel: three to seven feeds since a day; total or longest backlog in minutes."""
    shows = ctx.sample("podcasts", ctx.count(3, 7))
    since = ctx.day(-ctx.rng.randint(10, 40))
    values = [
        ctx.read("list_podcast_episodes", podcast=p.podcast_id, published_after=since)[
            "total_duration_min"
        ]
        for p in shows
    ]
    if min(values) == 0:
        raise NoFit("a podcast published nothing")
    op = ctx.rng.choice(["sum", "max"])
    if op == "max":
        unique_top(values, "max")
    question = {
        "sum": "How many minutes of new episodes is that in total?",
        "max": "Which has the biggest backlog? Give its total minutes.",
    }[op]
    prompt = ctx.say(
        "I haven't listened to any of {names} since {day}. " + question,
        "Backlog check for {names}, counting episodes published after {day}. " + question,
        names=listing([s.title for s in shows]),
        day=when(since),
    )
    steps = [
        RefStep(tool="list_podcast_episodes", args={"podcast": p.title, "published_after": since})
        for p in shows
    ]
    refs = [[i, "total_duration_min"] for i in range(len(shows))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


best_podcast_of = best_rated(
    "best_podcast_of",
    "podcasts",
    "podcast_id",
    (
        "New commute, new podcast: I'm choosing from {titles}. What's the {word} {source} "
        "{words} among them?",
        "Look up {titles} on {source} and tell me the {word} {words}.",
    ),
)


_FRAGMENTS = ("The", "in", "ll", "es", "ie", "or", "ea", "ck", "ni", "st", "ee", "al")


def fragment_backlog(ctx: TemplateContext) -> Draft:
    """Mixture: search podcasts by a fragment -> each feed since a day -> total minutes."""
    fragment = ctx.rng.choice(_FRAGMENTS)
    found = _by_word(ctx, fragment)
    if not 2 <= len(found) <= 4:
        raise NoFit("need two to four podcasts")
    since = ctx.day(-ctx.rng.randint(7, 30))
    op = ctx.rng.choice(["sum", "max"])
    question = {"sum": "total minutes", "max": "the largest single backlog, in minutes"}[op]
    prompt = ctx.say(
        "Every podcast whose title contains '{frag}': how much has come out since {day}? "
        "Give me " + question + ".",
        "Find the podcasts with '{frag}' in the name and add up what they've released "
        "after {day}; I want " + question + ".",
        frag=fragment,
        day=when(since),
    )
    steps = [RefStep(tool="search_catalog", args={"query": fragment, "kind": "podcast"})]
    steps += [
        RefStep(
            tool="list_podcast_episodes",
            args={"podcast": ref(0, "results", i, "item_id"), "published_after": since},
        )
        for i in range(len(found))
    ]
    refs = [[1 + i, "total_duration_min"] for i in range(len(found))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def two_feeds_then_ratings(ctx: TemplateContext) -> Draft:
    """Mixture: two to five feeds (independent) -> each podcast's rating -> the best one."""
    shows = ctx.sample("podcasts", ctx.count(2, 5))
    ask = rating_ask(ctx, "max")
    ask.require_unique(ctx, [p.podcast_id for p in shows])
    prompt = ask.say(
        ctx,
        "Open the feeds of {names}, then tell me the best {source} {words} among them.",
        "I'm choosing between {names}. Check each feed is live and give me the "
        "highest {source} {words}.",
        names=listing([p.title for p in shows]),
        **ask.phrases(),
    )
    feeds = [RefStep(tool="list_podcast_episodes", args={"podcast": p.title}) for p in shows]
    return ask.draft(prompt, feeds, [ref(i, "podcast_id") for i in range(len(shows))])


SUBTOPIC = Subtopic(
    name="podcasts",
    templates={
        "sequential": [catch_up_minutes, podcast_rating_via_search],
        "parallel": [listening_since, best_podcast_of],
        "mixture": [fragment_backlog, two_feeds_then_ratings],
    },
)
