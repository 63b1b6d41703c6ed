"""Helpers the communication subtopic templates share.

They read the seeded world (through READ tools or the tables) only to choose entities
that make a well-posed task: a contact abroad, an email whose subject finds it, a line
that is projected over its allowance. Nothing here computes an answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from toolchaos.core.reference import format_value
from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.scoring.answer import leaks
from toolchaos.suites.toolbench_x.generate import NoFit, TemplateContext, ref

HOME = "US"

RATE_SOURCES = {
    "get_roaming_rates": "the carrier's tariff sheet",
    "get_roaming_rates_roamcompare": "RoamCompare",
    "get_roaming_rates_tariffwatch": "TariffWatch",
}
REP_SOURCES = {
    "check_sender_reputation": "MailTrust",
    "check_sender_reputation_spamscope": "SpamScope",
    "check_sender_reputation_senderbase": "SenderBase",
}
CALL_RATE = "intl_call_per_min_usd"
SMS_RATE = "sms_usd"


def rate_tool(ctx: TemplateContext) -> tuple[str, bool]:
    """One of the three rate sources and whether the prompt names it.

    About half the prompts name no source and read a source the docs do not call
    authoritative (:meth:`TemplateContext.choose_source`); the others keep their source,
    the carrier's own sheet most often.
    """
    return ctx.choose_source(RATE_SOURCES, weights=(2, 1, 1))


def rep_tool(ctx: TemplateContext) -> tuple[str, bool]:
    """One of the three reputation services and whether the prompt names it.

    As :func:`rate_tool`: about half name none and read a non-authoritative service; the
    others name theirs, MailTrust most often.
    """
    return ctx.choose_source(REP_SOURCES, weights=(2, 1, 1))


def rate_pick(ctx: TemplateContext, fields: Iterable[str]) -> tuple[str, str, bool]:
    """A rate source (see :func:`rate_tool`), one of ``fields`` to ask about, and if named."""
    tool, named = rate_tool(ctx)
    return tool, str(ctx.rng.choice(sorted(fields))), named


def rep_pick(
    ctx: TemplateContext, fields: Mapping[str, tuple[str, int | None]]
) -> tuple[str, str, str, int | None, bool]:
    """A reputation service and a field of ``fields``: (tool, field, words, digits, named)."""
    tool, named = rep_tool(ctx)
    field = ctx.rng.choice(sorted(fields))
    words, digits = fields[field]
    return tool, field, words, digits, named


def rate_source_words(tool: str, named: bool = True) -> str:
    """How a person names a rate source in a request ('' for the carrier or when unnamed)."""
    if tool == "get_roaming_rates" or not named:
        return ""
    return f" (going by {RATE_SOURCES[tool]})"


def rep_source_words(tool: str, named: bool = True) -> str:
    """How a person names a reputation service in a request ('' when unnamed)."""
    return f" according to {REP_SOURCES[tool]}" if named else ""


def contacts(ctx: TemplateContext, where: Any = None) -> list[Any]:
    """Contacts passing ``where``, in id order."""
    return ctx.rows("contacts", where)


def abroad(contact: Any) -> bool:
    """Whether a contact lives outside the home country."""
    return bool(contact.country != HOME)


def finds_first(ctx: TemplateContext, tool: str, key: str, row_id: str, **args: Any) -> bool:
    """Whether the listing ``tool(**args)`` puts the row whose ``key`` is ``row_id`` first."""
    found = ctx.read(tool, **args)["results"]
    return bool(found and found[0][key] == row_id)


def findable(ctx: TemplateContext, contact: Any) -> bool:
    """Whether searching the contact's full name finds it first."""
    return finds_first(ctx, "search_contacts", "contact_id", contact.contact_id, query=contact.name)


def pick_contact(ctx: TemplateContext, where: Any = None) -> Any:
    """A contact passing ``where`` whose full name finds it first in search_contacts."""
    row = ctx.pick("contacts", where)
    if not findable(ctx, row):
        raise NoFit(f"{row.name!r} does not find itself first")
    return row


def country_name(ctx: TemplateContext, code: str) -> str:
    """The country's name for a prompt."""
    return str(ctx.world.table("countries")[code].name)


def sold_pass(ctx: TemplateContext, code: str) -> bool:
    """Whether the carrier sells a roaming day pass for ``code``."""
    return ctx.world.table("rates_carrier")[code].daypass_usd is not None


def roaming_countries(ctx: TemplateContext) -> list[Any]:
    """Every country with roaming rates (all but the home country)."""
    return ctx.rows("countries", lambda c: c.code != HOME)


def group_chats(ctx: TemplateContext) -> list[Any]:
    """The group chats, in id order."""
    return ctx.rows("chats", lambda c: c.kind == "group")


def contact_row(ctx: TemplateContext, contact_id: str) -> Any:
    """The contact row of ``contact_id``."""
    return ctx.world.table("contacts")[contact_id]


def unique_subject_email(ctx: TemplateContext, where: Any = None) -> Any:
    """An email passing ``where`` whose subject search finds only it."""
    email = ctx.pick("emails", where)
    found = ctx.read("search_emails", subject_contains=email.subject)
    if found["total"] != 1:
        raise NoFit(f"subject {email.subject!r} is not unique")
    return email


def line_owners(ctx: TemplateContext) -> list[Any]:
    """The lines on the plan, in id order."""
    return ctx.rows("lines")


def op_words(ctx: TemplateContext, high: str, low: str) -> tuple[str, str]:
    """A min or max question: (op, words)."""
    op = ctx.rng.choice(["max", "min"])
    return op, high if op == "max" else low


def clear_of(prompt: str, *values: float) -> None:
    """Refuse (NoFit) a draw whose prompt already spells one of the candidate answers.

    Prompts that carry numbers (trip days, megabytes, minutes) could otherwise state the
    answer by chance, which the leakage check would reject after the cell is filled.
    """
    for value in values:
        if leaks(format_value(float(value), 2), prompt):
            raise NoFit(f"the prompt spells {value}")


def rates_via_cards(
    tool: str, field: str, contacts: Sequence[Any], first: int
) -> tuple[list[RefStep], list[list[Any]]]:
    """Steps that open each contact's card, then read ``tool`` for each card's country.

    ``contacts`` are names or refs; ``first`` is the index the first card step takes in
    the template's path. Returns the steps and the answer refs to ``field`` of each rate.
    """
    n = len(contacts)
    steps = [RefStep(tool="get_contact", args={"contact": c}) for c in contacts]
    steps += [RefStep(tool=tool, args={"country": ref(first + i, "country")}) for i in range(n)]
    return steps, [[first + n + i, field] for i in range(n)]


Extreme = Literal["argmax", "argmin"]


def single_extreme_offset(ctx: TemplateContext, offsets: Sequence[float]) -> Extreme:
    """Draw argmax or argmin over UTC offsets; NoFit unless one person alone holds it."""
    ops: list[Extreme] = ["argmax", "argmin"]
    op = ctx.rng.choice(ops)
    best = max(offsets) if op == "argmax" else min(offsets)
    if offsets.count(best) != 1:
        raise NoFit("no single extreme time zone")
    return op


def city_by_offset(op: Extreme, first: int, n: int) -> AnswerSpec:
    """The city of the card (steps ``first`` to ``first + n - 1``) whose offset is ``op``."""
    return AnswerSpec(
        op=op,
        refs=[[first + i, "utc_offset_hours"] for i in range(n)],
        labels=[ref(first + i, "city") for i in range(n)],
    )
