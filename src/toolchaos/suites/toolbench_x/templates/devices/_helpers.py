"""Helpers and constants shared by the devices subtopic templates."""

from __future__ import annotations

from datetime import date
from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, TemplateContext, ref

# The security subtopics name their topic; the others take the domain's own.
SECURITY = "security and privacy"
MEMBERS = ("Maya", "Daniel", "Priya", "Leo")
CATEGORY_WORDS = {
    "thermostat": "thermostat",
    "light": "light",
    "plug": "smart plug",
    "camera": "camera",
    "speaker": "speaker",
    "tv": "TV",
    "phone": "phone",
    "laptop": "laptop",
    "tablet": "tablet",
    "router": "router",
    "vacuum": "robot vacuum",
    "purifier": "air purifier",
    "nas": "NAS",
    "console": "game console",
    "lock": "smart lock",
}


def when(iso: str) -> str:
    """A date as people write it in a request: weekday, month and day, and ISO date."""
    return f"{date.fromisoformat(iso):%A %B} {date.fromisoformat(iso).day} ({iso})"


def devices(ctx: TemplateContext, where: Any = None) -> list[Any]:
    """Devices passing ``where``, in id order."""
    return ctx.rows("devices", where)


def pick_devices(ctx: TemplateContext, k: int, where: Any = None) -> list[Any]:
    """``k`` distinct devices passing ``where``."""
    return ctx.sample("devices", k, where)


def names(items: list[Any]) -> dict[str, str]:
    """``{"a": name, "b": name, "c": name}`` for prompts about three records."""
    return {key: item.name for key, item in zip("abcdef", items, strict=False)}


def extreme(ctx: TemplateContext, words: dict[str, str]) -> tuple[str, str]:
    """A random ``min`` or ``max`` and the words that ask for it."""
    op = ctx.rng.choice(sorted(words))
    return op, words[op]


def unique_extreme(values: list[Any], op: str) -> None:
    """Refuse a draw whose minimum or maximum is shared (the question would be ill-posed)."""
    best = max(values) if op in ("max", "argmax") else min(values)
    if values.count(best) != 1:
        raise NoFit("no single extreme")


def account_query(ctx: TemplateContext, acc: Any) -> str:
    """How to name an account in a call: the service, with the member if it is shared."""
    shared = sum(a.service == acc.service for a in ctx.rows("accounts"))
    return acc.service if shared == 1 else f"{acc.service}, {acc.member}"


def spoken_account(acc: Any) -> str:
    """How a person names an account: "Maya's StreamNest account"."""
    return f"{acc.member}'s {acc.service} account"


def owner_words(device: Any) -> str:
    """'Maya's' or 'the household's' for a device's owner."""
    return "our shared" if device.owner == "shared" else f"{device.owner}'s"


def each_listed(
    prompt: str,
    listing: RefStep,
    count: int,
    call: tuple[str, str, str],
    field: str,
    op: str,
    digits: int | None = None,
) -> Draft:
    """Mixture: a listing, then one call on each of its results; ``op`` over one field.

    Args:
        prompt: The request.
        listing: The step that lists the records.
        count: How many records it lists.
        call: ``(tool, param, id_field)``: the tool called on each record, with ``param``
            set to that result's ``id_field``.
        field: The field of each call's result the answer is computed over.
        op: The answer's operation (sum, max, min...).
        digits: Decimals to round the answer to, if any.
    """
    tool, param, id_field = call
    steps = [listing]
    steps += [
        RefStep(tool=tool, args={param: ref(0, "results", i, id_field)}) for i in range(count)
    ]
    refs = [[1 + i, field] for i in range(count)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=digits))


def breach_sizes(
    ctx: TemplateContext, sources: dict[str, str], ops: dict[str, str], *phrasings: str
) -> Draft:
    """Parallel: three breaches from one source; an aggregate of their record counts.

    Args:
        ctx: The template context.
        sources: Each breach tool with the words that name its source.
        ops: Each answer operation with the words that ask for it.
        *phrasings: The request's phrasings, with {a}, {b}, {c}, {source} and {words}.
    """
    breaches = ctx.sample("breaches", 3)
    tool = ctx.rng.choice(sorted(sources))
    op, words = extreme(ctx, ops)
    prompt = ctx.say(
        *phrasings,
        a=breaches[0].service,
        b=breaches[1].service,
        c=breaches[2].service,
        source=sources[tool],
        words=words,
    )
    steps = [RefStep(tool=tool, args={"breach": b.service}) for b in breaches]
    refs = [[i, "records_affected"] for i in range(3)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))
