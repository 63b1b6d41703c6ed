"""The hazard layer around one tool call, shared by the suite ``Env`` and the chaos engine.

A call is *admitted* (each hazard may reject it before validation, the backend's schema
validates it, its ordinal is counted, each hazard may reject or edit it), then it runs
wherever its tool lives (a seeded world, a user's function, an upstream MCP server), then
it is *settled* (each hazard may alter the result). Splitting the steps lets an async
caller await the tool between them while the ordinal is assigned without an await.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from toolchaos.core.errors import ToolError
from toolchaos.core.types import HazardEvent, ToolSpec
from toolchaos.env.validation import check_arguments
from toolchaos.hazards import Hazard, HazardContext, PendingCall


class HazardLayer:
    """The hazards of one episode, their per-episode state and the call ordinals.

    Args:
        hazards: The active hazards, applied in this order (none in a clean arm).
    """

    def __init__(self, hazards: Sequence[Hazard] = ()) -> None:
        self.hazards = list(hazards)
        self.ctx = HazardContext()
        self.ordinals: Counter[str] = Counter()
        self.last_ordinal = 0
        """The ordinal the last admitted (or hazard-rejected) call took; 0 if none."""

    @property
    def events(self) -> list[HazardEvent]:
        """Every hazard firing so far, in order."""
        return self.ctx.events

    def visible_specs(self, specs: list[ToolSpec]) -> list[ToolSpec]:
        """The toolbox as the agent sees it, each hazard rewriting the documentation."""
        for hazard in self.hazards:
            specs = hazard.visible_specs(specs)
        return specs

    def admit(self, spec: ToolSpec, name: str, arguments: dict[str, Any]) -> PendingCall:
        """Pass a parsed call through the hazards and the backend's schema.

        A rejection by a hazard's ``intercept`` counts as reaching the service (it takes
        an ordinal); a schema error does not. Raises the ToolError the agent sees.
        """
        pending = PendingCall(name, arguments, self.ordinals[name] + 1)
        self.last_ordinal = 0
        for hazard in self.hazards:
            try:
                hazard.intercept(pending, self.ctx)
            except ToolError:
                self.ordinals[name] += 1
                self.last_ordinal = pending.ordinal
                raise
            spec = hazard.backend_spec(spec)
        check_arguments(spec, arguments)
        self.ordinals[name] += 1
        self.last_ordinal = pending.ordinal
        for hazard in self.hazards:
            hazard.before_call(pending, self.ctx)
        return pending

    def changelog(self, tool: str) -> list[str]:
        """What the active hazards announce about ``tool`` in the service's changelog."""
        return [entry for hazard in self.hazards for entry in hazard.changelog(tool)]

    def settle(self, pending: PendingCall, result: Any) -> Any:
        """The result the agent sees, after each hazard's ``after_call``."""
        for hazard in self.hazards:
            result = hazard.after_call(pending, result, self.ctx)
        return result
