"""Helpers the health subtopics share: reading the world, naming people, dates, checks.

Several templates build the same call paths with other words: one call per row of an
earlier listing (:func:`then_each`), the wait at every clinic of a specialty, the
nutrition of every logged food of a meal, the cash price of every listed fill, and
"search the clinic -> its free slots -> book the first". Those paths are written once
here; the subtopic modules keep only their wording and their choices.

Templates read the world only to pick entities that make a well-posed request; the answer
always comes from replaying the reference path. :func:`finish` replays a draft once more
to refuse one whose answer would leak into the prompt or into any tool description.
"""

from __future__ import annotations

from typing import Any

from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.scoring.answer import leaks
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    draft_to_task,
    ref,
    template_domain,
    when,
)

RELATION_WORDS = {"spouse": "partner", "child": "kid", "parent": "parent"}
_PROBE = Subtopic(name="probe", templates={}, domain=template_domain(__name__))

__all__ = [
    "AnswerSpec",
    "Draft",
    "NoFit",
    "RefStep",
    "Subtopic",
    "TemplateContext",
    "book_first_slot",
    "find_member",
    "finish",
    "meal_nutrients",
    "member",
    "members",
    "owner",
    "price_each",
    "price_of_fill",
    "require_free_slot",
    "subject",
    "their",
    "then_each",
    "unique_max",
    "wait_at_each_clinic",
    "when",
    "who",
    "window",
]


def members(ctx: TemplateContext, where: Any = None) -> list[Any]:
    """The household members passing ``where``."""
    return ctx.rows("members", where)


def member(ctx: TemplateContext, where: Any = None) -> Any:
    """One household member passing ``where``, chosen by the rng."""
    return ctx.pick("members", where)


def owner(m: Any) -> str:
    """How the primary user says whose record it is: 'my' or 'Maya's'."""
    return "my" if m.relationship == "self" else f"{m.first_name}'s"


def their(m: Any) -> str:
    """The possessive pronoun for ``m`` after their name: 'my', 'her' or 'his'."""
    return "my" if m.relationship == "self" else ("her" if m.sex == "female" else "his")


def who(m: Any) -> str:
    """How the primary user names a person as an object: 'me' or 'Maya'."""
    return "me" if m.relationship == "self" else m.first_name


def subject(m: Any) -> str:
    """How the primary user names a person as a subject: 'I' or 'Maya'."""
    return "I" if m.relationship == "self" else m.first_name


_FIRST_PERSON = {"has": "have", "is": "am", "does": "do", "was": "was"}


def verb(m: Any, third: str) -> str:
    """A verb agreeing with :func:`subject`: ``verb(m, "needs")`` is 'need' for 'I'."""
    if m.relationship != "self":
        return third
    return _FIRST_PERSON.get(third, third.removesuffix("s"))


def window(
    ctx: TemplateContext, starts: tuple[int, int], spans: tuple[int, int]
) -> tuple[str, str]:
    """A window of days ahead, as ISO dates: its first day and its last day.

    The first day is ``starts`` (low, high) days from today, drawn first; the window then
    lasts ``spans`` (low, high) days more.
    """
    start = ctx.rng.randint(*starts)
    return ctx.day(start), ctx.day(start + ctx.rng.randint(*spans))


def find_member(m: Any, tool: str, **args: Any) -> list[RefStep]:
    """Find ``m`` by first name -> ``tool`` for the member found (then ``args``)."""
    return [
        RefStep(tool="search_members", args={"query": m.first_name}),
        RefStep(tool=tool, args={"member": ref(0, "results", 0, "member_id"), **args}),
    ]


def price_of_fill(tool: str, i: int) -> list[RefStep]:
    """The ``i``-th prescription listed by step 0 -> the cash price (``tool``) of a full fill."""
    return [
        RefStep(
            tool="get_prescription",
            args={"prescription_id": ref(0, "results", i, "prescription_id")},
        ),
        RefStep(
            tool=tool,
            args={"medication": ref(1, "medication_id"), "quantity": ref(1, "quantity_per_fill")},
        ),
    ]


def then_each(
    lead: list[RefStep], tool: str, calls: list[dict[str, Any]], field: str
) -> tuple[list[RefStep], list[list[Any]]]:
    """The steps ``lead``, then ``tool`` once per argument set in ``calls``.

    Returns the steps and the answer refs to ``field`` in each of those calls' results.
    """
    steps = [*lead, *(RefStep(tool=tool, args=args) for args in calls)]
    refs: list[list[Any]] = [[len(lead) + i, field] for i in range(len(calls))]
    return steps, refs


def wait_at_each_clinic(
    tool: str, specialty: str, count: int
) -> tuple[list[RefStep], list[list[Any]]]:
    """The clinics offering ``specialty``, then the wait (from ``tool``) at each of ``count``."""
    lead = [RefStep(tool="search_clinics", args={"specialty": specialty})]
    calls = [{"clinic": ref(0, "results", i, "clinic_id")} for i in range(count)]
    return then_each(lead, tool, calls, "wait_minutes")


def meal_nutrients(
    tool: str, m: Any, entry: Any, count: int, nutrient: str
) -> tuple[list[RefStep], list[list[Any]]]:
    """One logged meal of ``m``, then the nutrition (from ``tool``) of each of its entries."""
    lead = [
        RefStep(
            tool="list_meals",
            args={"member": m.first_name, "date": entry.date, "meal": entry.meal},
        )
    ]
    calls = [
        {"food": ref(0, "results", i, "food_id"), "servings": ref(0, "results", i, "servings")}
        for i in range(count)
    ]
    return then_each(lead, tool, calls, nutrient)


def price_each(
    listing: RefStep, tool: str, count: int, quantity: str
) -> tuple[list[RefStep], list[list[Any]]]:
    """A listing of fills, then the cash price (from ``tool``) of each of its rows.

    Each row names its drug by medication_id and its size by the ``quantity`` key.
    """
    calls = [
        {
            "medication": ref(0, "results", i, "medication_id"),
            "quantity": ref(0, "results", i, quantity),
        }
        for i in range(count)
    ]
    return then_each([listing], tool, calls, "total_price_usd")


def require_free_slot(
    ctx: TemplateContext, specialty: str, clinic_id: str, days: tuple[str, str], what: str
) -> None:
    """Refuse (NoFit: 'no free <what>') a clinic with no free ``specialty`` slot in ``days``."""
    found = ctx.read(
        "find_appointment_slots",
        specialty=specialty,
        clinic=clinic_id,
        from_date=days[0],
        to_date=days[1],
    )
    if not found["results"]:
        raise NoFit(f"no free {what}")


def book_first_slot(
    search: dict[str, Any], specialty: str, days: tuple[str, str], member_name: str, reason: str
) -> list[RefStep]:
    """Find the clinic (``search_clinics`` with ``search``) -> its free slots -> book the first."""
    return [
        RefStep(tool="search_clinics", args=search),
        RefStep(
            tool="find_appointment_slots",
            args={
                "specialty": specialty,
                "clinic": ref(0, "results", 0, "clinic_id"),
                "from_date": days[0],
                "to_date": days[1],
            },
        ),
        RefStep(
            tool="book_appointment",
            args={
                "member": member_name,
                "slot_id": ref(1, "results", 0, "slot_id"),
                "reason": reason,
            },
        ),
    ]


def unique_max(values: list[float], op: str = "max") -> None:
    """Refuse (NoFit) a draw whose best value is shared, so argmax/argmin is well-posed."""
    best = max(values) if op in ("max", "argmax") else min(values)
    if values.count(best) != 1:
        raise NoFit("no single best value")


def finish(draft: Draft) -> Draft:
    """Return ``draft`` after checking its answer leaks nowhere the agent looks.

    Replays the draft in a clean world; refuses (NoFit) a draft whose answer appears in
    the prompt or in the description of any tool of the domain.
    """
    try:
        task = draft_to_task(draft, _PROBE, "sequential", "probe", 0)
    except ValueError as exc:
        raise NoFit(f"the path does not run: {exc}") from None
    answer = task.reference.answer
    if not answer:
        if not draft.writes:
            raise NoFit("empty answer")
        return draft
    if answer.isdigit() and int(answer) < 10:
        raise NoFit("a one-digit answer is too easily found in error messages")
    if leaks(answer, draft.prompt):
        raise NoFit("the answer appears in the prompt")
    if any(leaks(answer, text) for text in _tool_texts(task.tools)):
        raise NoFit("the answer appears in a tool description")
    return draft


def _tool_texts(tools: list[str]) -> list[str]:
    """The descriptions of the path's tools and of every tool a hazard could add to them."""
    from toolchaos.domains import get_domain

    domain = get_domain(_PROBE.domain)
    names = set(tools)
    for tool in tools:
        names |= domain.notes.companions(tool)
    texts = []
    for name in sorted(names & set(domain.tools)):  # the runtime's changelog is no domain tool
        spec = domain.tools[name].spec
        texts.append(f"{spec.name} {spec.description} {dumps(spec.parameters)}")
    return texts
