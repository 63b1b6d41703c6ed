"""The hazard layer around one tool call, shared by the suite ``Env`` and the chaos engine.

A call is *admitted* (each hazard may reject it before validation, the backend's schema
validates it, its ordinal is counted, each hazard may reject or edit it), then it runs
wherever its tool lives (a seeded world, a user's function, an upstream MCP server), then
it is *settled* (each hazard may alter the result). Splitting the steps lets an async
caller await the tool between them while the ordinal is assigned without an await.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from toolchaos.core.errors import ToolError
from toolchaos.core.types import HazardEvent, ToolSpec
from toolchaos.env.validation import check_arguments
from toolchaos.hazards import Hazard, HazardContext, PendingCall


class HazardLayer:
    """The hazards of one episode, their per-episode state and the call ordinals.

    Each hazard keeps its own ordinals: it counts only the calls of its tool that reach
    it, so one hazard rejecting a call never spends another's planned call (a renamed
    parameter's rejection of call 1 leaves a transient error planned on call 1 for the
    next call that gets that far). A call reaches a hazard that rejects it; otherwise it
    reaches a hazard whose hook it passes: an ``intercept``-only hazard once the call
    validates, a ``before_call`` one once its ``before_call`` ran, an ``after_call``-only
    one once the tool runs. A schema error reaches none. With one hazard (every suite
    task) its ordinals are the tool's.

    Args:
        hazards: The active hazards, applied in this order (none in a clean arm).
        unseen_events: Keep the event of an ``after_call`` that left the result as it was
            (the suites' runtime does; the chaos engine stores only what the agent saw).
    """

    def __init__(self, hazards: Sequence[Hazard] = (), *, unseen_events: bool = True) -> None:
        self.hazards = list(hazards)
        self.ctx = HazardContext()
        self.unseen_events = unseen_events
        self.ordinals: Counter[str] = Counter()
        """Each tool's calls that reached the service (a hazard's rejection or validated)."""
        self.reached: list[Counter[str]] = [Counter() for _ in self.hazards]
        """Each hazard's own ordinals: the calls of each tool that reached it."""
        self._stage = [_stage(h) for h in self.hazards]
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
        the tool's next ordinal, and the rejecting hazard's); a schema error does not.
        Raises the ToolError the agent sees.
        """
        own = [counts[name] + 1 for counts in self.reached]
        pending = PendingCall(name, arguments, self.ordinals[name] + 1, reached=own)
        tool_ordinal = pending.ordinal
        self.last_ordinal = 0
        for i, hazard in enumerate(self.hazards):
            pending.ordinal = own[i]
            try:
                hazard.intercept(pending, self.ctx)
            except ToolError:
                self._count(name, tool_ordinal, [i])
                raise
            finally:
                pending.ordinal = tool_ordinal
            spec = hazard.backend_spec(spec)
        check_arguments(spec, arguments)
        for i, hazard in enumerate(self.hazards):
            pending.ordinal = own[i]
            try:
                hazard.before_call(pending, self.ctx)
            except ToolError:
                passed = [j for j, stage in enumerate(self._stage) if stage == _VALIDATED]
                acted = [j for j in range(i) if self._stage[j] == _BEFORE]
                self._count(name, tool_ordinal, sorted({i, *passed, *acted}))
                raise
            finally:
                pending.ordinal = tool_ordinal
        self._count(name, tool_ordinal, range(len(self.hazards)))
        return pending

    def _count(self, name: str, tool_ordinal: int, hazards: Iterable[int]) -> None:
        self.ordinals[name] += 1
        self.last_ordinal = tool_ordinal
        for i in hazards:
            self.reached[i][name] += 1

    def changelog(self, tool: str) -> list[str]:
        """What the active hazards announce about ``tool`` in the service's changelog."""
        return [entry for hazard in self.hazards for entry in hazard.changelog(tool)]

    def settle(self, pending: PendingCall, result: Any) -> Any:
        """The result the agent sees, after each hazard's ``after_call``.

        Each hook sees the call under its hazard's own ordinal. Without
        ``unseen_events``, the events of a hook that returned the result unchanged (a
        number-as-string drift on a field that is already text) are dropped: the agent
        never saw them.
        """
        tool_ordinal = pending.ordinal
        own = pending.reached or [tool_ordinal] * len(self.hazards)
        try:
            for i, hazard in enumerate(self.hazards):
                pending.ordinal = own[i]
                fired = len(self.ctx.events)
                altered = hazard.after_call(pending, result, self.ctx)
                if not self.unseen_events and altered == result:
                    del self.ctx.events[fired:]
                result = altered
        finally:
            pending.ordinal = tool_ordinal
        return result


_VALIDATED, _BEFORE, _RUN = "validated", "before_call", "run"


def _stage(hazard: Hazard) -> str:
    """Where a call has reached ``hazard`` when it passes: its last hook before the tool."""
    kind = type(hazard)
    if kind.before_call is not Hazard.before_call:
        return _BEFORE
    if kind.intercept is not Hazard.intercept:
        return _VALIDATED
    return _RUN
