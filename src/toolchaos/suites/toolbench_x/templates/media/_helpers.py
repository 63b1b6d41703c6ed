"""Template helpers shared by the media subtopics.

Templates read the seeded world through READ tools (:func:`read`) only to choose
entities that make a well-posed task (a unique earliest screening, a show that is on
air, a loan that is overdue), never to write the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Template,
    TemplateContext,
    listing,
    ref,
)

RATING_SOURCES = {
    "get_ratings": "CriticHub",
    "get_ratings_fanpulse": "FanPulse",
    "get_ratings_reelmeter": "ReelMeter",
}
RATING_FIELDS = {
    "score_pct": "score (percent of positive reviews)",
    "avg_rating": "average rating out of 10",
}
PRICE_SOURCES = {
    "get_ticket_price": "the venue box office",
    "get_resale_price_ticketnest": "TicketNest",
    "get_resale_price_seatswap": "SeatSwap",
}
TIERS = ("general", "balcony", "floor", "vip")


def rating_source(ctx: TemplateContext) -> tuple[str, str, bool]:
    """A rating tool, the name a person would use for it, and whether the request names it.

    About half the requests name no aggregator and read one the docs do not call
    authoritative (``ctx.choose_source``).
    """
    tool, named = ctx.choose_source(RATING_SOURCES)
    return tool, RATING_SOURCES[tool], named


def rating_field(ctx: TemplateContext) -> tuple[str, str]:
    """A rating field and how a person names it."""
    field = ctx.rng.choice(sorted(RATING_FIELDS))
    return field, RATING_FIELDS[field]


def digits(field: str) -> int | None:
    """How an answer about a rating field is rounded."""
    return 1 if field == "avg_rating" else None


def unique_top(values: list[Any], op: str) -> None:
    """Refuse a draw whose max or min is shared."""
    best = max(values) if op == "max" else min(values)
    if values.count(best) != 1:
        raise NoFit(f"no unique {op}")


def listed(count: int, key: str) -> list[dict[str, list[Any]]]:
    """Refs to ``key`` of each of the first ``count`` results of step 0 (a listing)."""
    return [ref(0, "results", i, key) for i in range(count)]


@dataclass(frozen=True)
class RatingAsk:
    """What a rating request asks for: one aggregator's figure and what to do with it.

    Every rating template draws the aggregator, the figure and (for a comparison) the
    extreme the same way, calls the aggregator once per item and answers from those
    calls; this object keeps that in one place.
    """

    tool: str
    source: str
    field: str
    words: str
    op: str
    named: bool = True

    def say(self, ctx: TemplateContext, *phrasings: str, **values: Any) -> str:
        """The request in one of ``phrasings``, naming the aggregator only if ``named``."""
        return ctx.say_source(self.named, *phrasings, **values)

    def phrases(self, high: str = "highest", low: str = "lowest") -> dict[str, str]:
        """The prompt fields ``source``, ``words`` and (for max or min) ``word``."""
        out = {"source": self.source, "words": self.words}
        if self.op in ("max", "min"):
            out["word"] = {"max": high, "min": low}[self.op]
        return out

    def require_unique(self, ctx: TemplateContext, items: list[str]) -> None:
        """Refuse a draw whose items share the wanted max or min figure."""
        unique_top([ctx.read(self.tool, item=item)[self.field] for item in items], self.op)

    def draft(self, prompt: str, before: list[RefStep], items: list[Any]) -> Draft:
        """The steps ``before``, then one rating call per item, answered from those calls."""
        steps = [*before, *(RefStep(tool=self.tool, args={"item": item}) for item in items)]
        refs = [[len(before) + i, self.field] for i in range(len(items))]
        return Draft(prompt, steps, AnswerSpec(op=self.op, refs=refs, round=digits(self.field)))


def rating_ask(ctx: TemplateContext, op: str | None = None) -> RatingAsk:
    """Draw an aggregator and a figure, then ``max`` or ``min`` unless ``op`` is given."""
    tool, source, named = rating_source(ctx)
    field, words = rating_field(ctx)
    if op is None:
        op = ctx.rng.choice(["max", "min"])
    return RatingAsk(tool, source, field, words, op, named)


def best_rated(
    name: str,
    table: str,
    key: str,
    phrasings: tuple[str, ...],
    extremes: tuple[str, str] = ("highest", "lowest"),
    quote: str = "",
) -> Template:
    """Parallel: one aggregator's rating of three to seven ``table`` rows by title; max or min.

    Args:
        name: The template's name, for build reports.
        table: The catalogue table the items come from.
        key: The id field of that table (uniqueness is checked by id).
        phrasings: Ways to ask, with fields ``titles`` (the titles listed, each in
            ``quote``), ``source``, ``words`` and ``word``.
        extremes: How the request words the max and the min.
        quote: What the request puts around each title.
    """

    def template(ctx: TemplateContext) -> Draft:
        rows = ctx.sample(table, ctx.count(3, 7))
        ask = rating_ask(ctx)
        ask.require_unique(ctx, [getattr(r, key) for r in rows])
        titles = [r.title for r in rows]
        prompt = ask.say(ctx, *phrasings, titles=listing(titles, quote), **ask.phrases(*extremes))
        return ask.draft(prompt, [], titles)

    template.__name__ = name
    return template


def title_finds(ctx: TemplateContext, title: str, item_id: str) -> bool:
    """Whether search_catalog on the exact title returns this item first."""
    found = ctx.read("search_catalog", query=title)
    return bool(found["results"] and found["results"][0]["item_id"] == item_id)
