"""Template helpers shared by the government subtopics.

Templates read the world through READ tools (:func:`read`) or its rows only to choose
entities that make a well-posed task. The office-wait factories build the templates that
read the three wait-time sources, which most subtopics share with their own phrasing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, TemplateContext, ref

NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight")
WAIT_SOURCES = {
    "get_office_wait_time": "the agency portal",
    "get_office_wait_time_311": "the 311 status feed",
    "get_office_wait_time_crowd": "the LineWatch app",
}
WAIT_FIELDS = {
    ("wait_minutes", "min"): "the shortest walk-in wait (minutes)",
    ("wait_minutes", "max"): "the longest walk-in wait (minutes)",
    ("processing_days", "min"): "the quickest typical processing time (business days)",
    ("processing_days", "max"): "the slowest typical processing time (business days)",
}


def resident(ctx: TemplateContext, where: Callable[[Any], bool] | None = None) -> Any:
    """A resident (passing ``where``) whose name search finds them first."""
    res = ctx.pick("residents", where)
    found = ctx.read("search_residents", query=res.name)
    if found["results"][0]["resident_id"] != res.resident_id:
        raise NoFit(f"{res.name!r} is not found first by name")
    return res


def residents(
    ctx: TemplateContext, k: int, where: Callable[[Any], bool] | None = None
) -> list[Any]:
    """``k`` distinct residents passing ``where``."""
    return ctx.sample("residents", k, where)


def offices(ctx: TemplateContext, kind: str) -> list[Any]:
    """The offices of one kind, in the order search_offices lists them (by name)."""
    return sorted(ctx.rows("offices", lambda o: o.kind == kind), key=lambda o: o.name)


def first_name(res: Any) -> str:
    """The resident's given name, for friendly prompts."""
    return str(res.name.split()[0])


def found_by_name(res: Any, tool: str, param: str = "resident", **args: Any) -> list[RefStep]:
    """Steps: search ``res`` by name, then ``tool`` with the id found as ``param``.

    Pairs with :func:`resident`, which only picks residents the search finds first.
    """
    return [
        RefStep(tool="search_residents", args={"query": res.name}),
        RefStep(tool=tool, args={param: ref(0, "results", 0, "resident_id"), **args}),
    ]


Template = Callable[[TemplateContext], Draft]


def _wait_source(ctx: TemplateContext) -> tuple[str, bool]:
    """A wait-time source tool and whether the prompt names it.

    About half the prompts name no source and read one the docs do not call authoritative
    (:meth:`TemplateContext.choose_source`); the others name a source, the authoritative
    portal drawn more often.
    """
    return ctx.choose_source(WAIT_SOURCES, weights=(3, 2, 2))


def _distinct_wait_figure(
    ctx: TemplateContext, chosen: list[Any], same: str
) -> tuple[str, str, str, bool]:
    """Draw a (field, op) of WAIT_FIELDS and a source; NoFit(``same``) if no office differs.

    Returns:
        The field, the op, the source tool and whether the prompt names it.
    """
    field, op = ctx.rng.choice(sorted(WAIT_FIELDS))
    tool, named = _wait_source(ctx)
    values = [ctx.read(tool, office=o.office_id)[field] for o in chosen]
    if len(set(values)) == 1:
        raise NoFit(same)
    return field, op, tool, named


def office_waits_mixture(kind: str, lead_ins: tuple[str, ...], name: str) -> Template:
    """Mixture: search the offices of ``kind`` -> one source's figures for each -> min/max."""

    def template(ctx: TemplateContext) -> Draft:
        found = offices(ctx, kind)
        if len(found) < 2:
            raise NoFit(f"fewer than two {kind} offices")
        field, op, tool, named = _distinct_wait_figure(
            ctx, found, "every office has the same figure"
        )
        phrasings = (
            (
                "{lead} Across all of them, what's {words}, according to {source}?",
                "{lead} Check {source} for every one and tell me {words}.",
                "{lead} Going by {source}, which figure is {words} among them? Just the number.",
            )
            if named
            else (
                "{lead} Across all of them, what's {words}?",
                "{lead} Check every one and tell me {words}.",
                "{lead} Which figure is {words} among them? Just the number.",
            )
        )
        prompt = ctx.say(
            *phrasings,
            lead=ctx.rng.choice(lead_ins),
            words=WAIT_FIELDS[(field, op)],
            source=WAIT_SOURCES[tool],
        )
        steps = [RefStep(tool="search_offices", args={"kind": kind})]
        steps += [
            RefStep(tool=tool, args={"office": ref(0, "results", i, "office_id")})
            for i in range(len(found))
        ]
        refs = [[1 + i, field] for i in range(len(found))]
        return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))

    template.__name__ = name
    return template


def errand_waits_parallel(kinds: tuple[str, str, str], story: str, name: str) -> Template:
    """Parallel: one office of each of three kinds, named; total (or longest) walk-in wait."""

    def template(ctx: TemplateContext) -> Draft:
        chosen = [ctx.rng.choice(offices(ctx, kind)) for kind in kinds]
        op = ctx.rng.choice(["sum", "max"])
        tool, named = _wait_source(ctx)
        question = {
            "sum": "how many minutes of queueing should I expect in total",
            "max": "what's the longest single walk-in wait I'll face, in minutes",
        }[op]
        phrasings = (
            (
                story + " Going by {source}, {question}?",
                story + " According to {source}, {question}?",
                story + " Use {source}'s current waits: {question}?",
            )
            if named
            else (
                story + " " + question[0].upper() + question[1:] + "?",
                story + " Looking at the current walk-in waits, {question}?",
            )
        )
        prompt = ctx.say(
            *phrasings,
            a=chosen[0].name,
            b=chosen[1].name,
            c=chosen[2].name,
            source=WAIT_SOURCES[tool],
            question=question,
        )
        steps = [RefStep(tool=tool, args={"office": o.name}) for o in chosen]
        refs = [[i, "wait_minutes"] for i in range(3)]
        return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))

    template.__name__ = name
    return template


def office_kind_parallel(kind: str, story: str, name: str) -> Template:
    """Parallel: every office of one kind (three), named; min/max of a wait-time field."""

    def template(ctx: TemplateContext) -> Draft:
        found = offices(ctx, kind)
        if len(found) < 3:
            raise NoFit(f"fewer than three {kind} offices")
        chosen = ctx.rng.sample(found, 3)
        field, op, tool, named = _distinct_wait_figure(
            ctx, chosen, "the three offices have the same figure"
        )
        phrasings = (
            (
                story + " Per {source}, what is {words}?",
                story + " Compare them on {source} and give me {words}.",
            )
            if named
            else (
                story + " What is {words}?",
                story + " Compare the three and give me {words}.",
            )
        )
        prompt = ctx.say(
            *phrasings,
            a=chosen[0].name,
            b=chosen[1].name,
            c=chosen[2].name,
            source=WAIT_SOURCES[tool],
            words=WAIT_FIELDS[(field, op)],
        )
        steps = [RefStep(tool=tool, args={"office": o.name}) for o in chosen]
        return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, field] for i in range(3)]))

    template.__name__ = name
    return template


OFFICE_FIGURES = {
    "wait_minutes": "the walk-in wait there, in minutes",
    "processing_days": "the typical processing time there, in business days",
}


def resident_office_wait(
    table: str, listing_tool: str, thing: Callable[[Any], str], stories: tuple[str, ...], name: str
) -> Template:
    """Sequential: a resident by name -> their one record in ``table`` -> its office's figure.

    ``listing_tool`` lists the resident's records of ``table`` (each with an ``office_id``);
    a story of ``stories`` says what the record is ({name}, {thing}: ``thing(record)``).
    """

    def template(ctx: TemplateContext) -> Draft:
        owners = Counter(r.resident_id for r in ctx.rows(table))
        res = resident(ctx, lambda r: owners[r.resident_id] == 1)
        record = next(r for r in ctx.rows(table) if r.resident_id == res.resident_id)
        field = ctx.rng.choice(sorted(OFFICE_FIGURES))
        tool, named = _wait_source(ctx)
        questions = (
            ("Going by {source}, what's {words}?", "What does {source} give as {words}?")
            if named
            else ("What's {words}?", "Can you tell me {words}?")
        )
        prompt = ctx.say(
            *(f"{story} {question}" for story in stories for question in questions),
            name=res.name,
            thing=thing(record),
            source=WAIT_SOURCES[tool],
            words=OFFICE_FIGURES[field],
        )
        steps = found_by_name(res, listing_tool)
        steps.append(RefStep(tool=tool, args={"office": ref(1, "results", 0, "office_id")}))
        return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))

    template.__name__ = name
    return template


def distinct_residents(
    ctx: TemplateContext, k: int, where: Callable[[Any], bool] | None = None
) -> list[Any]:
    """``k`` different residents (passing ``where``), each found first by their name."""
    chosen: list[Any] = []

    def fits(res: Any) -> bool:
        new = all(res.resident_id != r.resident_id for r in chosen)
        return new and (where is None or where(res))

    for _ in range(k):
        chosen.append(resident(ctx, fits))
    return chosen
