"""The episode runtime: one world, one toolbox, one hazard layer, one trace.

Every call is parsed, validated against the toolbox schemas, passed through the hazard
layer and run on the episode's own world. ToolErrors become observations; any other
exception from a tool is a harness fault and ends the episode as ``error``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from toolchaos.core.errors import BadInput, HarnessFault, ToolError
from toolchaos.core.tools import Tool
from toolchaos.core.types import (
    FaultOrigin,
    HazardEvent,
    Observation,
    TaskSpec,
    ToolCall,
    ToolSpec,
    TraceEntry,
)
from toolchaos.core.writes import written_state
from toolchaos.domains import Domain, get_domain, make_world
from toolchaos.env.hazard_layer import HazardLayer
from toolchaos.env.validation import parse_arguments
from toolchaos.hazards import Hazard, HazardContext, PendingCall, build_hazard

HAZARD_ARMS = ("hazard", "hint", "oracle-label")
ARMS = ("clean", "hazard", "hint", "oracle-label")

RuntimeTool = Callable[[HazardLayer], Tool]
"""A tool the runtime answers itself rather than the domain: built per episode from its
hazard layer (a suite's service changelog, ``suites/toolbench_x/changelog.py``)."""


class Env:
    """The environment of one episode.

    Args:
        task: The task being run.
        arm: The arm; the hazard plan is active in every arm but ``clean``.
        domain: The task's domain (looked up by name when omitted).
        runtime_tools: Tools the task may name that the runtime answers itself, by name;
            every other tool of the task is its domain's.

    Raises:
        BadInput: When the task names a tool that is neither its domain's nor a runtime
            tool.
    """

    def __init__(
        self,
        task: TaskSpec,
        arm: str,
        domain: Domain | None = None,
        runtime_tools: Mapping[str, RuntimeTool] | None = None,
    ) -> None:
        self.task = task
        self.arm = arm
        self.domain = domain or get_domain(task.domain)
        self.world = make_world(task, self.domain)
        self.hazard: Hazard | None = None
        if task.hazard is not None and arm in HAZARD_ARMS:
            self.hazard = build_hazard(task.hazard)
            patch = self.hazard.world_patch()
            if patch:
                self.world.apply_patch(patch)
        self.layer = HazardLayer([self.hazard] if self.hazard is not None else [])
        runtime = runtime_tools or {}
        self.tools: dict[str, Tool] = {}
        for name in task.tools:
            if name in runtime:
                self.tools[name] = runtime[name](self.layer)
            elif name in self.domain.tools:
                self.tools[name] = self.domain.tools[name]
            else:
                raise BadInput(
                    f"task {task.id} offers tool {name!r}, which domain {self.domain.name} "
                    "does not have (nor does this env answer it)"
                )
        self.ctx: HazardContext = self.layer.ctx
        self.ordinals: Counter[str] = self.layer.ordinals
        self.trace: list[TraceEntry] = []
        specs = [t.spec for t in self.tools.values()]
        self._visible = self.layer.visible_specs(specs)
        self._by_name = {s.name: s for s in self._visible}

    @property
    def hazard_events(self) -> list[HazardEvent]:
        """Every hazard firing so far, in order."""
        return self.ctx.events

    def toolbox(self) -> list[ToolSpec]:
        """The tool specs as the agent sees them in this arm."""
        return self._visible

    def call(self, call: ToolCall) -> Observation:
        """Run one tool call and return what the agent observes."""
        fired_before = len(self.ctx.events)
        ordinal = 0
        try:
            spec = self._by_name.get(call.name)
            if spec is None:
                names = ", ".join(sorted(self._by_name))
                raise ToolError(
                    f"Unknown tool '{call.name}'. Available tools: {names}.",
                    code=404,
                    kind="unknown_tool",
                )
            arguments = parse_arguments(call.name, call.arguments)
            try:
                pending = self.layer.admit(spec, call.name, arguments)
            finally:
                ordinal = self.layer.last_ordinal
            content, ok = self._execute(pending), True
        except ToolError as err:
            content, ok = err.to_payload(), False
        observation = Observation(
            call_id=call.id,
            tool=call.name,
            ok=ok,
            content=content,
            hazard_events=self.ctx.events[fired_before:],
        )
        fault = FaultOrigin.INJECTED if observation.hazard_events else None
        self.trace.append(
            TraceEntry(call=call, observation=observation, ordinal=ordinal, fault=fault)
        )
        return observation

    def _execute(self, pending: PendingCall) -> Any:
        tool = self.tools.get(pending.tool) or self.domain.tools.get(pending.tool)
        if tool is None:
            raise HarnessFault(f"hazard redirected a call to unknown tool {pending.tool!r}")
        try:
            result = tool(self.world, **pending.arguments)
        except ToolError:
            raise
        except Exception as exc:
            raise HarnessFault(f"tool {pending.tool!r} raised {type(exc).__name__}: {exc}") from exc
        return self.layer.settle(pending, result)

    def end_state(self) -> str:
        """The world's state now, as the task's scoring compares it.

        For a task whose reference names its expected writes, the fields they are about
        (:func:`toolchaos.core.writes.written_state`); otherwise the digest of the whole
        world.
        """
        expected = self.task.reference.expected_writes
        if expected is not None:
            return written_state(self.world, expected)
        return self.world.state_hash()
