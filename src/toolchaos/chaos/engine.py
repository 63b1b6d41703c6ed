"""The engine: a hazard plan bound to your toolbox, one episode at a time.

:class:`ChaosEngine` resolves a plan against the documented tool specs once;
:meth:`ChaosEngine.episode` opens a :class:`ChaosEpisode` with its own hazard state and call
ordinals. Every call goes through the same hazard layer as the suites' runtime
(:class:`toolchaos.env.hazard_layer.HazardLayer`): the agent sees the drifted toolbox, a
call is validated strictly against the backend's schema, may be rejected or edited, then
runs wherever the tool lives (a Python function, an upstream MCP server, a framework's
tool), and its result may be altered. The episode keeps the trace, and on
:meth:`ChaosEpisode.finish` becomes an :class:`~toolchaos.core.types.Episode` in a run store;
a *live* episode (``episode(..., live=True)``, the MCP proxy's) is in the store from its
start, each call appended as it is answered.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from toolchaos.chaos.plan import HazardPlan, load_plan, resolve_plan
from toolchaos.chaos.record import RunRecorder
from toolchaos.core.errors import ToolError
from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import (
    Episode,
    EpisodeStatus,
    FaultOrigin,
    HazardEvent,
    HazardSpec,
    Message,
    Observation,
    ToolCall,
    ToolSpec,
    TraceEntry,
    indeterminate_reason,
)
from toolchaos.env.hazard_layer import HazardLayer
from toolchaos.env.validation import parse_arguments
from toolchaos.hazards import PendingCall, build_hazard

Runner = Callable[[str, dict[str, Any]], Any]
"""Runs a call on the real tool: ``(tool name, arguments) -> result``."""
AsyncRunner = Callable[[str, dict[str, Any]], Awaitable[Any]]

ARMS = ("clean", "hazard")


class ChaosEngine:
    """A plan bound to a toolbox.

    Args:
        tools: The tools as documented (the specs the agent would see without hazards).
        plan: A profile name, a plan file, a dict or a :class:`HazardPlan`.
        seed: Overrides the plan's seed.
        recorder: Where finished episodes are stored (none: they are only returned).
        target: The id the episodes are stored under (default: the plan's label).
        outputs: The JSON Schema of each tool's result where it is known (an MCP tool's
            ``outputSchema``): a hazard that cannot change the field it names is refused.
    """

    def __init__(
        self,
        tools: Sequence[ToolSpec],
        plan: str | Path | HazardPlan | dict[str, Any],
        *,
        seed: int | None = None,
        recorder: RunRecorder | None = None,
        target: str | None = None,
        outputs: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        self.tools = list(tools)
        self.plan = load_plan(plan)
        self.seed = self.plan.seed if seed is None else seed
        self.specs: list[HazardSpec] = resolve_plan(self.plan, self.tools, self.seed, outputs)
        for spec in self.specs:
            build_hazard(spec)  # an unknown variant fails here, not mid-episode
        self.recorder = recorder
        self.target = target or self.plan.label
        self._samples = itertools.count()

    def episode(
        self,
        arm: str = "hazard",
        *,
        model: str = "agent",
        sample: int | None = None,
        live: bool = False,
    ) -> ChaosEpisode:
        """Open one episode: ``hazard`` applies the plan, ``clean`` runs without it.

        Args:
            arm: ``hazard`` or ``clean``.
            model: The agent's name in the store.
            sample: Where the store starts looking for a free sample number.
            live: Store the episode as it plays (with a recorder): its row is claimed now,
                under a key no other process can take, and every call is appended as it
                is answered, so nothing is lost when the process is killed. Otherwise
                the episode is stored once, by :meth:`ChaosEpisode.finish`.
        """
        if arm not in ARMS:
            raise ValueError(f"arm must be one of {ARMS}, not {arm!r}")
        hazards = [build_hazard(s) for s in self.specs] if arm == "hazard" else []
        episode = ChaosEpisode(
            self,
            HazardLayer(hazards, unseen_events=False),
            arm=arm,
            model=model,
            sample=next(self._samples) if sample is None else sample,
        )
        if live and self.recorder is not None:
            claimed = self.recorder.open(self, episode.snapshot())
            episode.sample, episode.live_key = claimed.sample, claimed.key
        return episode


class ChaosEpisode:
    """One episode of your agent on your tools: its hazard state, ordinals and trace."""

    def __init__(
        self, engine: ChaosEngine, layer: HazardLayer, *, arm: str, model: str, sample: int
    ) -> None:
        self.engine = engine
        self.layer = layer
        self.arm = arm
        self.model = model
        self.sample = sample
        self.trace: list[TraceEntry] = []
        self.messages: list[Message] = []
        self._visible = [_announced(s, layer) for s in layer.visible_specs(list(engine.tools))]
        self._by_name = {s.name: s for s in self._visible}
        self._ids = itertools.count(1)
        self.finished: Episode | None = None
        self.live_key: str | None = None
        """The store key of a live episode (its calls are stored as they are answered)."""

    @property
    def hazard_events(self) -> list[HazardEvent]:
        """Every hazard firing so far, in order."""
        return self.layer.events

    def toolbox(self) -> list[ToolSpec]:
        """The tool specs as the agent sees them in this arm (drift rewrites them)."""
        return self._visible

    def openai_tools(self) -> list[dict[str, Any]]:
        """The toolbox as OpenAI ``tools`` entries."""
        return [s.to_openai() for s in self._visible]

    def end_state(self) -> str | None:
        """Own tools have no world to hash."""
        return None

    # -- the two halves of a call, around wherever the tool runs ----------------------------
    def begin(
        self, name: str, arguments: str | dict[str, Any], call_id: str | None = None
    ) -> _Call:
        """Admit a call: the hazards and strict validation run; the tool has not run yet."""
        raw = arguments if isinstance(arguments, str) else dumps(arguments)
        call = ToolCall(id=call_id or f"call_{next(self._ids)}", name=name, arguments=raw)
        state = _Call(call, len(self.layer.events))
        try:
            spec = self._by_name.get(name)
            if spec is None:
                names = ", ".join(sorted(self._by_name))
                raise ToolError(
                    f"Unknown tool '{name}'. Available tools: {names}.",
                    code=404,
                    kind="unknown_tool",
                )
            parsed = arguments if isinstance(arguments, dict) else parse_arguments(name, raw)
            try:
                state.pending = self.layer.admit(spec, name, dict(parsed))
            finally:
                state.ordinal = self.layer.last_ordinal
        except ToolError as err:
            state.error = err
        # no await since fired_before: these are this call's own events, whatever else
        # is in flight (a proxy serves concurrent calls from one layer)
        state.events = self.layer.events[state.fired_before :]
        return state

    def end(
        self,
        state: _Call,
        result: Any = None,
        error: ToolError | None = None,
        *,
        fault: str | None = None,
    ) -> Observation:
        """Settle a call with the tool's result (or its ToolError) and log it.

        ``fault`` names who failed the call when the error is not a hazard's or the tool's
        answer (``upstream``: the MCP server behind a proxy died or sent a protocol error);
        a call a hazard fired on is marked ``injected``.
        """
        error = state.error or error
        settled_from = len(self.layer.events)
        if error is None and state.pending is not None:
            try:
                content = self.layer.settle(state.pending, result)
                observation = Observation(
                    call_id=state.call.id, tool=state.call.name, ok=True, content=content
                )
            except ToolError as err:
                error = err
        if error is not None:
            observation = Observation(
                call_id=state.call.id, tool=state.call.name, ok=False, content=error.to_payload()
            )
        observation.hazard_events = [*state.events, *self.layer.events[settled_from:]]
        origin = FaultOrigin(fault) if fault is not None else None
        if origin is None and observation.hazard_events:
            origin = FaultOrigin.INJECTED
        entry = TraceEntry(
            call=state.call, observation=observation, ordinal=state.ordinal, fault=origin
        )
        self.trace.append(entry)
        recorder = self.engine.recorder
        if self.live_key is not None and recorder is not None and self.finished is None:
            recorder.append(self.live_key, entry, observation.hazard_events)
        return observation

    def call(
        self, name: str, arguments: str | dict[str, Any], run: Runner, call_id: str | None = None
    ) -> Observation:
        """Run one call through the plan; ``run(tool, arguments)`` runs the real tool.

        A ToolError raised by ``run`` becomes an error observation like an injected one;
        any other exception is logged as the tool's own failure (:meth:`raised`) and
        propagates.
        """
        state = self.begin(name, arguments, call_id)
        if state.pending is None:
            return self.end(state)
        try:
            result = run(state.pending.tool, state.pending.arguments)
        except ToolError as err:
            return self.end(state, error=err, fault=_fault_of(err))
        except Exception as exc:
            self.raised(state, exc)
            raise
        return self.end(state, result)

    async def acall(
        self,
        name: str,
        arguments: str | dict[str, Any],
        run: AsyncRunner,
        call_id: str | None = None,
    ) -> Observation:
        """:meth:`call` for a tool that runs asynchronously (an MCP upstream, an async tool).

        A call cancelled while the tool runs (the client gave up, a signal stopped the
        process) is logged as ``cancelled`` before the cancellation goes on.
        """
        state = self.begin(name, arguments, call_id)
        if state.pending is None:
            return self.end(state)
        try:
            result = await run(state.pending.tool, state.pending.arguments)
        except ToolError as err:
            return self.end(state, error=err, fault=_fault_of(err))
        except asyncio.CancelledError:
            stopped = ToolError(
                "The call was cancelled before the tool answered.", code=499, kind="cancelled"
            )
            self.end(state, error=stopped, fault="cancelled")
            raise
        except Exception as exc:
            self.raised(state, exc)
            raise
        return self.end(state, result)

    def raised(self, state: _Call, exc: BaseException) -> Observation:
        """Log a call whose real tool raised something other than a ToolError.

        That is the user's tool failing, not a hazard and not the tool's answer: the call is
        an ``upstream`` fault, so an episode it ends is ``indeterminate``. The caller
        re-raises, so the framework handles the exception as it would without toolchaos.
        """
        failure = ToolError(
            f"The tool raised {type(exc).__name__}: {exc}", code=500, kind="tool_raised"
        )
        return self.end(state, error=failure, fault=FaultOrigin.UPSTREAM)

    def finish(
        self,
        final_answer: str = "",
        *,
        passed: bool | None = None,
        error: str | None = None,
    ) -> Episode:
        """Close the episode and store it (once) in the engine's run store, if any.

        Args:
            final_answer: The agent's final answer.
            passed: Your verdict on the episode (None: the report matches the plan's
                reference answer, if the target has one).
            error: A harness fault (your test setup broke, not the agent): stored with
                status ``error`` and counted apart.
        """
        if self.finished is not None:
            return self.finished
        from toolchaos.suites.own_tools import VERDICT_FAIL, VERDICT_PASS

        verdict = None if passed is None else (VERDICT_PASS if passed else VERDICT_FAIL)
        recorder = self.engine.recorder
        finished = self.snapshot(final_answer, verdict=verdict, error=error)
        if recorder is not None and self.live_key is not None:
            finished = recorder.settle(finished)
        elif recorder is not None:
            finished = recorder.record(self.engine, finished)
        self.finished = finished
        return finished

    def snapshot(
        self, final_answer: str = "", *, verdict: str | None = None, error: str | None = None
    ) -> Episode:
        """The episode as it stands (what :meth:`finish` stores, without storing it)."""
        sample = self.sample
        trace = list(self.trace)
        reason = None if error else indeterminate_reason(trace)
        if error:
            status = EpisodeStatus.ERROR
        elif reason is not None:
            status = EpisodeStatus.INDETERMINATE
        else:
            status = EpisodeStatus.FINISHED
        return Episode(
            key=self.live_key or episode_key(self.engine.target, self.model, self.arm, sample),
            suite="own-tools",
            task_id=self.engine.target,
            model=self.model,
            protocol="own",
            arm=self.arm,
            sample=sample,
            status=status,
            error=error or reason,
            messages=list(self.messages),
            trace=trace,
            hazard_events=list(self.layer.events),
            final_answer=final_answer,
            end_state=verdict,
            turns=len(self.trace),
        )


class _Call:
    """A call between :meth:`ChaosEpisode.begin` and :meth:`ChaosEpisode.end`."""

    def __init__(self, call: ToolCall, fired_before: int) -> None:
        self.call = call
        self.fired_before = fired_before
        self.pending: PendingCall | None = None
        self.error: ToolError | None = None
        self.ordinal = 0
        self.events: list[HazardEvent] = []
        """The events :meth:`ChaosEpisode.begin` fired for this call."""


class ToolFault(ToolError):
    """A ToolError that is not the tool's answer: ``fault`` names who failed the call.

    A runner raises it for a failure around the tool (``upstream``: the MCP server behind a
    proxy died or answered with a protocol error), so the trace tells it from the tool's own
    errors and from the hazards'.
    """

    def __init__(self, message: str, *, fault: str, **options: Any) -> None:
        super().__init__(message, **options)
        self.fault = fault


def _fault_of(error: ToolError) -> str | None:
    return error.fault if isinstance(error, ToolFault) else None


def _announced(spec: ToolSpec, layer: HazardLayer) -> ToolSpec:
    """The spec with the backend's view of every hazard whose plan says ``announce: true``.

    By default a drifted backend disagrees with the documentation (the docs are stale);
    an announced drift updates the documentation too, so an agent that reads its toolbox
    copes and one with hard-coded arguments does not.
    """
    for hazard in layer.hazards:
        if hazard.spec.params.get("announce"):
            spec = hazard.backend_spec(spec)
    return spec


def episode_key(target: str, model: str, arm: str, sample: int) -> str:
    """The store key of an own-tools episode."""
    return f"own-tools|{target}|{model}|{arm}|{sample}"
