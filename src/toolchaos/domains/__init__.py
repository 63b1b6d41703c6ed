"""Simulated domains. Each lives in its own folder and registers with one line here.

The registry (:data:`DOMAINS`) maps a domain name to ``"module:attribute"`` of its
:class:`Domain` object (or of a function returning one) and imports it only when asked,
so loading one domain never imports the others. The line is all a suite needs too:
ToolBench-X finds a domain's subtopic templates by its name. Another installed package
adds its domains through the ``toolchaos.domains`` entry-point group (read on the first
lookup; :mod:`toolchaos.core.registry`), or from code with :func:`register_domain`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TypeVar, overload

from toolchaos.core.registry import GROUPS, Registry, registrar, resolve
from toolchaos.core.tools import Tool
from toolchaos.core.types import TaskSpec
from toolchaos.core.world import FROZEN_RELEASE, World
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

DOMAINS: Registry[str, str] = Registry(
    "domain",
    GROUPS["domain"],
    {
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
    },
)


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


F = TypeVar("F", bound=Callable[[], "Domain"])


@overload
def register_domain(factory: F, /) -> F: ...
@overload
def register_domain(name: str | None = None, /) -> Callable[[F], F]: ...
def register_domain(arg: F | str | None = None, /) -> F | Callable[[F], F]:
    """Decorator: register a function of no arguments that returns a :class:`Domain`.

    ``@register_domain`` registers it under its own name, ``@register_domain("name")``
    under ``name`` (which must be the domain's ``name``). An installed package needs no
    decorator: its ``toolchaos.domains`` entry point is the registration.
    """
    return registrar(DOMAINS, arg)


@cache
def get_domain(name: str) -> Domain:
    """Import and return the registered domain ``name`` (built once by a factory)."""
    return resolve(DOMAINS, name, Domain)


def make_world(task: TaskSpec, domain: Domain | None = None) -> World:
    """Return a fresh world for ``task``: the domain's seeded world, forked and patched.

    The world shows the tool behaviour of the task's release (its ``release`` metadata;
    a task without one predates releases and gets the frozen one), so a shipped v2 task
    replays the tools it was built on after a tool is fixed for v3.
    """
    domain = domain or get_domain(task.domain)
    world = domain.world(task.world_seed).fork()
    world.release = int(task.metadata.get("release", FROZEN_RELEASE))
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
    "register_domain",
    "tool_map",
]
