"""The OpenAI Agents SDK adapter: your ``FunctionTool`` objects behind a hazard plan.

>>> chaos = ChaosAgentTools([get_weather, weather_backup], "outage", store="runs/agents")
>>> run = chaos.episode()                                        # or chaos.episode("clean")
>>> agent = Agent(name="weather", tools=run.tools, model=model)  # doctest: +SKIP
>>> result = await Runner.run(agent, "Weather in Oslo?")          # doctest: +SKIP
>>> run.finish(result.final_output, passed=...)                   # doctest: +SKIP

Each episode gets its own ``FunctionTool`` list: the toolbox as the agent sees it in that
arm (a drift may rewrite a schema), each tool's ``on_invoke_tool`` running the call
through :meth:`toolchaos.chaos.ChaosEpisode.begin`, the original tool's invocation, then
:meth:`~toolchaos.chaos.ChaosEpisode.end`. The tool returns the observation as JSON text;
an error (injected or yours) is the error body, like a real API's. Needs the
``openai-agents`` extra (``openai-agents>=0.24``).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from toolchaos.chaos.adapters._common import AdapterSession, PlanSource, missing_extra, result_value
from toolchaos.chaos.engine import ChaosEpisode
from toolchaos.chaos.python import spec_from_openai
from toolchaos.chaos.record import RunRecorder
from toolchaos.core.errors import BadInput, ToolError
from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import Episode, HazardEvent, ToolSpec

try:
    from agents import FunctionTool, Tool, function_tool
    from agents.tool_context import ToolContext
except ModuleNotFoundError as exc:
    raise missing_extra("OpenAI Agents SDK", "openai-agents", exc) from None

__all__ = ["AgentsEpisode", "ChaosAgentTools", "spec_of", "wrap_function_tools"]

Invoker = Callable[[ToolContext[Any], str], Awaitable[Any]]


def spec_of(tool: FunctionTool) -> ToolSpec:
    """The documented spec of a ``FunctionTool``: its name, description and JSON schema."""
    return spec_from_openai(
        {
            "name": tool.name,
            "description": tool.description,
            "parameters": json.loads(json.dumps(tool.params_json_schema)),
        }
    )


def wrap_function_tools(
    tools: Sequence[FunctionTool], episode: ChaosEpisode, *, strict: bool | None = None
) -> list[FunctionTool]:
    """The tools as ``episode`` shows them, each call running through its hazard plan.

    Args:
        tools: The original tools (the ones ``episode``'s engine was built on).
        episode: The episode the calls go to.
        strict: Overrides each tool's ``strict_json_schema``. Strict mode constrains the
            model to the listed schema, so a drift whose docs are stale (not announced)
            can only be followed with ``strict=False``.
    """
    originals = {t.name: t for t in tools}

    async def run(ctx: ToolContext[Any], tool: str, arguments: dict[str, Any]) -> Any:
        original = originals.get(tool)
        if original is None:
            raise ToolError(f"Unknown tool '{tool}'.", code=404, kind="unknown_tool")
        return result_value(await original.on_invoke_tool(ctx, dumps(arguments)))

    def invoker(name: str) -> Invoker:
        async def on_invoke_tool(ctx: ToolContext[Any], arguments: str) -> str:
            state = episode.begin(name, arguments, ctx.tool_call_id or None)
            if state.pending is None:
                return episode.end(state).to_text()
            pending = state.pending
            try:
                result = await run(ctx, pending.tool, pending.arguments)
            except ToolError as err:
                return episode.end(state, error=err).to_text()
            except Exception as exc:  # your tool failed: logged as an upstream fault
                episode.raised(state, exc)
                raise
            return episode.end(state, result).to_text()

        return on_invoke_tool

    wrapped = []
    for spec in episode.toolbox():
        base = originals.get(spec.name)
        options = _kept_options(base) if base is not None else {}
        if strict is not None:
            options["strict_json_schema"] = strict
        wrapped.append(
            FunctionTool(
                name=spec.name,
                description=spec.description,
                params_json_schema=json.loads(json.dumps(spec.parameters)),
                on_invoke_tool=invoker(spec.name),
                **options,
            )
        )
    return wrapped


def _kept_options(tool: FunctionTool) -> dict[str, Any]:
    """What the wrapped tool keeps of the original: its public settings.

    Its output schema is left out: an output hazard may change the result's shape.
    """
    return {
        "strict_json_schema": tool.strict_json_schema,
        "is_enabled": tool.is_enabled,
        "tool_input_guardrails": tool.tool_input_guardrails,
        "tool_output_guardrails": tool.tool_output_guardrails,
        "needs_approval": tool.needs_approval,
        "timeout_seconds": tool.timeout_seconds,
        "timeout_behavior": tool.timeout_behavior,
        "timeout_error_function": tool.timeout_error_function,
    }


class ChaosAgentTools:
    """Your Agents SDK tools with a hazard plan in front of them.

    Args:
        tools: ``FunctionTool`` objects, or plain functions (made into tools with
            ``function_tool(fn, failure_error_function=None)``, so a ToolError they raise
            is shown to the agent like an injected one). Other tools (hosted tools,
            handoffs) are passed through untouched in :attr:`AgentsEpisode.tools`.
        plan: A profile name, a plan file, a dict or a :class:`HazardPlan`.
        seed: Overrides the plan's seed.
        store: A run directory (or recorder) every finished episode is stored in.
        target: The id the episodes are stored under (default: the plan's label).
        model: The agent's name in the store.
        strict: Overrides each tool's ``strict_json_schema`` (see :func:`wrap_function_tools`).

    A ``FunctionTool`` built by ``function_tool`` with the SDK's default failure formatter
    turns every exception of its function into the SDK's generic error text: that text is
    then the tool's result as far as the plan knows. Build it with
    ``failure_error_function=None`` for your ToolErrors to count as errors.
    """

    def __init__(
        self,
        tools: Sequence[Tool | Callable[..., Any]],
        plan: PlanSource = "transient",
        *,
        seed: int | None = None,
        store: str | Path | RunRecorder | None = None,
        target: str | None = None,
        model: str = "agent",
        strict: bool | None = None,
    ) -> None:
        function_tools: list[FunctionTool] = []
        self.passthrough: list[Tool] = []
        for tool in tools:
            if isinstance(tool, FunctionTool):
                function_tools.append(tool)
            elif inspect.isfunction(tool) or inspect.ismethod(tool):
                # without a failure formatter, a ToolError the function raises reaches the plan
                function_tools.append(function_tool(tool, failure_error_function=None))
            else:
                self.passthrough.append(tool)  # type: ignore[arg-type]
        if not function_tools:
            raise BadInput("ChaosAgentTools needs at least one FunctionTool or function")
        self.tools = function_tools
        self.strict = strict
        self.session = AdapterSession(plan, seed=seed, store=store, target=target, model=model)
        self.engine = self.session.bind([spec_of(t) for t in function_tools])
        self._current: AgentsEpisode | None = None

    def episode(self, arm: str = "hazard", *, sample: int | None = None) -> AgentsEpisode:
        """Open one episode (``clean`` runs the same tools without the plan).

        Its :attr:`AgentsEpisode.tools` are bound to it: give them to the agent.
        """
        episode = self.session.episode(arm, sample=sample)
        tools = wrap_function_tools(self.tools, episode, strict=self.strict)
        self._current = AgentsEpisode(episode, [*tools, *self.passthrough])
        return self._current

    @property
    def current(self) -> AgentsEpisode:
        """The episode opened last (a new one in the hazard arm when none is open)."""
        if self._current is None or self._current.episode.finished is not None:
            return self.episode()
        return self._current

    def finish(
        self, final_answer: Any = "", *, passed: bool | None = None, error: str | None = None
    ) -> Episode:
        """Finish and store the episode opened last (see :meth:`AgentsEpisode.finish`).

        Raises:
            BadInput: No episode was opened.
        """
        if self._current is None:
            raise BadInput("no episode is open: call episode() and give its tools to the agent")
        return self._current.finish(final_answer, passed=passed, error=error)

    def close(self) -> None:
        """Close the run store, if it was opened from a directory."""
        self.session.close()


class AgentsEpisode:
    """One episode over :class:`ChaosAgentTools`: pass :attr:`tools` to your ``Agent``."""

    def __init__(self, episode: ChaosEpisode, tools: list[Tool]) -> None:
        self.episode = episode
        self.tools = tools

    @property
    def hazard_events(self) -> list[HazardEvent]:
        """The hazard events so far."""
        return self.episode.hazard_events

    def finish(
        self, final_answer: Any = "", *, passed: bool | None = None, error: str | None = None
    ) -> Episode:
        """Close and store the episode (see :meth:`ChaosEpisode.finish`)."""
        answer = final_answer if isinstance(final_answer, str) else dumps(final_answer)
        return self.episode.finish(answer, passed=passed, error=error)
