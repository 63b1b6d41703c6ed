"""Simulated domains. Each lives in its own folder and registers with one line here.

The registry maps a domain name to ``"module:attribute"`` of its :class:`Domain` object and
imports it only when asked, so loading one domain never imports the others.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from toolchaos.core.errors import BadInput
from toolchaos.core.tools import Tool
from toolchaos.core.world import World

REGISTRY: dict[str, str] = {
    "commerce": "toolchaos.domains.commerce:DOMAIN",
}


@dataclass(frozen=True)
class Domain:
    """A domain: its world type and its tools, keyed by name."""

    name: str
    topic: str
    world_type: type[World]
    tools: dict[str, Tool]
    notes: dict[str, Any] = field(default_factory=dict)

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
    target = REGISTRY.get(name)
    if target is None:
        known = ", ".join(sorted(REGISTRY))
        raise BadInput(f"unknown domain {name!r}; known domains: {known}")
    module, attr = target.split(":")
    domain: Domain = getattr(importlib.import_module(module), attr)
    return domain
