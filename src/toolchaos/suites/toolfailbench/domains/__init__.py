"""The five ToolFailBench domains, one module each, imported only when asked for.

Each module exposes ``KIT``: the domain as the agent sees it (role prompt, nine tools,
answer formats), the tool bodies, the trap questions and the controls.
"""

from __future__ import annotations

import importlib
from functools import cache

from toolchaos.core.errors import BadInput
from toolchaos.suites.toolfailbench._kit import DomainKit
from toolchaos.suites.toolfailbench.types import DOMAINS, ToolFailDomain

MODULES: dict[str, str] = {
    name: f"toolchaos.suites.toolfailbench.domains.{name}" for name in DOMAINS
}


@cache
def domain_kit(name: str) -> DomainKit:
    """Everything the suite knows about domain ``name`` (tools, bodies, questions, controls)."""
    module = MODULES.get(name)
    if module is None:
        raise BadInput(
            f"unknown ToolFailBench domain {name!r}; known domains: {', '.join(DOMAINS)}"
        )
    kit: DomainKit = importlib.import_module(module).KIT
    return kit


def fail_domain(name: str) -> ToolFailDomain:
    """Domain ``name`` as the agent sees it: role prompt, nine tools, answer formats."""
    return domain_kit(name).domain


__all__ = ["MODULES", "domain_kit", "fail_domain"]
