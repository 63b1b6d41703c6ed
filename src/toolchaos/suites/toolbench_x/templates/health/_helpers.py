"""Helpers the health subtopics share: reading the world, naming people, dates, checks.

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
    when,
)

TOPIC = "health and wellness"
DOMAIN = "health"
RELATION_WORDS = {"spouse": "partner", "child": "kid", "parent": "parent"}
_PROBE = Subtopic(name="probe", topic=TOPIC, domain=DOMAIN, templates={})

__all__ = [
    "DOMAIN",
    "TOPIC",
    "AnswerSpec",
    "Draft",
    "NoFit",
    "RefStep",
    "Subtopic",
    "TemplateContext",
    "finish",
    "member",
    "members",
    "owner",
    "unique_max",
    "when",
    "who",
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


def who(m: Any) -> str:
    """How the primary user names a person as an object: 'me' or 'Maya'."""
    return "me" if m.relationship == "self" else m.first_name


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

    domain = get_domain(DOMAIN)
    names = set(tools)
    for tool in tools:
        for section in ("fallbacks", "v2", "resolvers", "write_verifiers"):
            entry = domain.notes[section].get(tool)
            if entry is not None:
                names.add(entry["tool"])
        names.update(domain.notes["sources"].get(tool, {}).get("alternatives", []))
    texts = []
    for name in sorted(names):
        spec = domain.tools[name].spec
        texts.append(f"{spec.name} {spec.description} {dumps(spec.parameters)}")
    return texts
