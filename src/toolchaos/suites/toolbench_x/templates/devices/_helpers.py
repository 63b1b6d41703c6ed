"""Helpers and constants shared by the devices subtopic templates."""

from __future__ import annotations

from datetime import date
from typing import Any

from toolchaos.suites.toolbench_x.generate import NoFit, TemplateContext

TECH = "technology and devices"
SECURITY = "security and privacy"
DOMAIN = "devices"
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
