"""Helpers and constants shared by the devices subtopic templates."""

from __future__ import annotations

from datetime import date
from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, TemplateContext, listing, ref

# The security subtopics name their topic; the others take the domain's own.
SECURITY = "security and privacy"
MEMBERS = ("Maya", "Daniel", "Priya", "Leo")
NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight")
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


def spoken_names(items: list[Any]) -> dict[str, str]:
    """:func:`names` as a person says them (:func:`the`): "the Kitchen Light", "Leo's iPad"."""
    return {key: the(name) for key, name in names(items).items()}


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
    ctx: TemplateContext,
    sources: dict[str, str],
    ops: dict[str, str],
    phrasings: tuple[str, ...],
    plain: tuple[str, ...],
) -> Draft:
    """Parallel: three to six breaches from one source; an aggregate of their record counts.

    About half the requests name no source (``plain``) and read one the docs do not call
    authoritative (:meth:`TemplateContext.choose_source`).

    Args:
        ctx: The template context.
        sources: Each breach tool with the words that name its source.
        ops: Each answer operation with the words that ask for it.
        phrasings: The request's phrasings naming the source, with {all} (the breaches
            listed), {n} and {N} (how many, in words), {source} and {words}.
        plain: The same request's phrasings naming no source (no {source}).
    """
    k = ctx.count(3, 6)
    breaches = ctx.sample("breaches", k)
    tool, named = ctx.choose_source(sources)
    op, words = extreme(ctx, ops)
    prompt = ctx.say(
        *(phrasings if named else plain),
        all=listing([b.service for b in breaches]),
        n=NUMBERS[k],
        N=NUMBERS[k].capitalize(),
        source=sources[tool],
        words=words,
    )
    steps = [RefStep(tool=tool, args={"breach": b.service}) for b in breaches]
    refs = [[i, "records_affected"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def find_device(ctx: TemplateContext, device: Any) -> tuple[str, RefStep]:
    """How a person names ``device`` (:func:`the`) and the step that finds its id.

    Half the time, when the device is on the Wi-Fi under a hostname no other client
    shares, the person knows it only by that hostname: the router's client list
    (list_network_clients) then finds it instead of the device search. Either step's
    ``results[0].device_id`` is the device's id.
    """
    hosts = [c for c in ctx.rows("clients", lambda c: c.device_id == device.device_id)]
    if hosts and ctx.rng.random() < 0.5:
        host = hosts[0].hostname
        same = ctx.rows("clients", lambda c: host in c.hostname)
        if len(same) == 1:
            words = f"the device that joins our Wi-Fi as '{host}'"
            return words, RefStep(tool="list_network_clients", args={"query": host})
    return the(device.name), RefStep(tool="search_devices", args={"query": device.name})


def _newest_notices(ctx: TemplateContext) -> dict[str, str]:
    """Each member whose most recent breach notice is unambiguous -> its account id."""
    out = {}
    for member in MEMBERS:
        rows = ctx.read("list_breach_notices", member=member)["results"]
        if len(rows) == 1 or (len(rows) > 1 and rows[0]["disclosed_on"] != rows[1]["disclosed_on"]):
            out[member] = rows[0]["account_id"]
    return out


def pick_account(ctx: TemplateContext, where: Any = None) -> tuple[Any, str, RefStep]:
    """An account passing ``where``, how a person names it, and the step that finds its id.

    Usually the person names the service and member and search_accounts finds it. Some
    draws take the account a member's most recent breach notice is about, named only that
    way, so the notices (list_breach_notices) must be read first. Either step's
    ``results[0].account_id`` is the account's id.
    """
    newest = _newest_notices(ctx)
    notified = set(newest.values())
    if ctx.rng.random() < 0.4:
        acc = ctx.pick(
            "accounts", lambda a: a.account_id in notified and (where is None or where(a))
        )
        words = f"the account in {acc.member}'s most recent data-breach notice"
        return acc, words, RefStep(tool="list_breach_notices", args={"member": acc.member})
    acc = ctx.pick("accounts", where)
    step = RefStep(tool="search_accounts", args={"query": f"{acc.service}, {acc.member}"})
    return acc, spoken_account(acc), step


def the(name: str) -> str:
    """A device, room or drive as a person names it: "the Kitchen Light", "Maya's iPhone"."""
    return name if "'s " in name.split(" ", 1)[0] + " " else f"the {name}"


def cap(text: str) -> str:
    """``text`` with its first letter upper-case (the rest untouched, unlike str.capitalize)."""
    return text[:1].upper() + text[1:]
