"""Simulated domains. Each lives in its own folder and registers with one line here.

The registry maps a domain name to ``"module:attribute"`` of its :class:`Domain` object and
imports it only when asked, so loading one domain never imports the others. The line is
all a suite needs too: ToolBench-X finds a domain's subtopic templates by its name.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from toolchaos.core.errors import BadInput
from toolchaos.core.tools import Tool
from toolchaos.core.types import TaskSpec
from toolchaos.core.world import World

REGISTRY: dict[str, str] = {
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

    ``notes`` tells the hazard assigner where a variant can fit. Every entry names real
    tools of the domain; nothing here is a stub. Keys (all optional):

    - ``fallbacks``: ``{tool: {"tool": alt, "args_map": {alt_param: tool_param}}}``, an
      independent alternative serving the same facts under the same result keys (outage).
    - ``v2``: ``{tool: {"tool": v2_tool, "args_map": {v2_param: tool_param}}}``, the newer
      version of a tool, returning the same result keys (deprecated tool replaced by v2).
    - ``unit_conversions``: ``{field: {"to_unit": str, "factor": float}}`` for numeric
      result fields (drifted value = documented value * factor).
    - ``resolvers``: ``{tool: {"param": p, "tool": search_tool, "query_param": q,
      "id_path": [...]}}``, where ``tool`` accepts a name or an id in ``p`` and
      ``search_tool(q=name)`` returns the id at ``id_path`` (ambiguous entity).
    - ``write_verifiers``: ``{write_tool: {"tool": read_tool, "args_map": {read_param:
      write_param}, "list": key, "match": {record_field: write_param}}}``, a read that shows
      whether a write already happened (timeout after a committed write).
    - ``sources``: ``{tool: {"alternatives": [t2, t3], "args_map": {t2: {p2: p}, ...},
      "fields": [numeric fact fields], "time_field": "as_of", "authoritative": name}}``,
      independent sources of the same facts under the same keys, each stamping the time
      its data was last updated (cross-source conflicts).
    """

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


def make_world(task: TaskSpec, domain: Domain | None = None) -> World:
    """Return a fresh world for ``task``: the domain's seeded world, forked and patched."""
    domain = domain or get_domain(task.domain)
    world = domain.world(task.world_seed).fork()
    if task.world_patch:
        world.apply_patch(task.world_patch)
    return world
