"""Simulated domains. Each lives in its own folder and registers with one line here.

The registry (:data:`DOMAINS`) maps a domain name to ``"module:attribute"`` of its
:class:`Domain` object and imports it only when asked, so loading one domain never
imports the others. The line is all a suite needs too: ToolBench-X finds a domain's
subtopic templates by its name.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache

from toolchaos.core.errors import BadInput
from toolchaos.core.tools import Tool
from toolchaos.core.types import TaskSpec
from toolchaos.core.world import World
from toolchaos.domains.notes import (
    DomainNotes,
    Fallback,
    InvalidNotes,
    Resolver,
    Sources,
    UnitConversion,
    V2Tool,
    WriteVerifier,
    check_notes,
)

DOMAINS: dict[str, str] = {
    "commerce": "toolchaos.domains.commerce:DOMAIN",
    "communication": "toolchaos.domains.communication:DOMAIN",
    "devices": "toolchaos.domains.devices:DOMAIN",
    "government": "toolchaos.domains.government:DOMAIN",
    "health": "toolchaos.domains.health:DOMAIN",
    "lifestyle": "toolchaos.domains.lifestyle:DOMAIN",
    "media": "toolchaos.domains.media:DOMAIN",
    "personal_finance": "toolchaos.domains.personal_finance:DOMAIN",
    "productivity": "toolchaos.domains.productivity:DOMAIN",
    "transportation": "toolchaos.domains.transportation:DOMAIN",
    "weather": "toolchaos.domains.weather:DOMAIN",
}


@dataclass(frozen=True)
class Domain:
    """A domain: its topic, world type, tools keyed by name, and notes for the hazard layer.

    ``topic`` is the topic its tasks fall under, unless a subtopic names another.

    ``notes`` (:class:`DomainNotes`) tells the hazard assigner where a variant can fit:
    fallbacks, v2 tools, unit conversions, name-to-id resolvers, write verifiers and
    independent sources (see :mod:`toolchaos.domains.notes` for each shape). Every note
    names real tools of the domain; nothing there is a stub. Building a domain checks
    that: a note naming a tool or a parameter the domain does not have raises
    :class:`InvalidNotes`.
    """

    name: str
    topic: str
    world_type: type[World]
    tools: dict[str, Tool]
    notes: DomainNotes = field(default_factory=DomainNotes)

    def __post_init__(self) -> None:
        check_notes(self.name, self.notes, self.tools)

    def world(self, seed: int) -> World:
        """Return the shared base world for ``seed`` (fork it before an episode)."""
        return _base_world(self.world_type, seed)


@cache
def _base_world(world_type: type[World], seed: int) -> World:
    return world_type.build(seed)


def tool_map(tools: list[Tool]) -> dict[str, Tool]:
    """Index tools by name, refusing duplicates."""
    out: dict[str, Tool] = {}
    for t in tools:
        if t.name in out:
            raise ValueError(f"duplicate tool name {t.name!r}")
        out[t.name] = t
    return out


@cache
def get_domain(name: str) -> Domain:
    """Import and return the registered domain ``name``."""
    target = DOMAINS.get(name)
    if target is None:
        known = ", ".join(sorted(DOMAINS))
        raise BadInput(f"unknown domain {name!r}; known domains: {known}")
    module, attr = target.split(":")
    domain: Domain = getattr(importlib.import_module(module), attr)
    return domain


def make_world(task: TaskSpec, domain: Domain | None = None) -> World:
    """Return a fresh world for ``task``: the domain's seeded world, forked and patched."""
    domain = domain or get_domain(task.domain)
    world = domain.world(task.world_seed).fork()
    if task.world_patch:
        world.apply_patch(task.world_patch)
        # the episode starts from the patched state: only its own writes count as written
        world = world.fork()
    return world


__all__ = [
    "DOMAINS",
    "Domain",
    "DomainNotes",
    "Fallback",
    "InvalidNotes",
    "Resolver",
    "Sources",
    "UnitConversion",
    "V2Tool",
    "WriteVerifier",
    "get_domain",
    "make_world",
    "tool_map",
]
