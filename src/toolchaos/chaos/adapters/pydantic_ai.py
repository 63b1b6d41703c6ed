"""The Pydantic AI adapter: a wrapper toolset that puts a hazard plan in front of yours.

>>> toolset = ChaosToolset([get_weather, weather_backup], "outage", store="runs/pai")
>>> agent = Agent(model, toolsets=[toolset])              # doctest: +SKIP
>>> episode = toolset.episode()                            # or toolset.episode("clean")
>>> result = agent.run_sync("Weather in Oslo?")           # doctest: +SKIP
>>> episode.finish(result.output, passed=...)              # doctest: +SKIP

``get_tools`` lists the toolbox of the current episode (a drift may rewrite a schema);
``call_tool`` runs each call through :meth:`toolchaos.chaos.ChaosEpisode.begin`, the
wrapped toolset, then :meth:`~toolchaos.chaos.ChaosEpisode.end`. The arguments the model
sent reach the plan as they are (the listed tools accept any object, because a drifted
backend accepts what the docs do not say); the arguments the plan admits are validated by
your tool's own validator before it runs. A result is returned as the tool's return; an
error body is raised as ``ToolFailed`` (the model sees it, and no retry budget is spent).
One toolset serves one episode at a time. Needs the ``pydantic-ai`` extra
(``pydantic-ai-slim>=2.0``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from toolchaos.chaos.adapters._common import AdapterSession, PlanSource, missing_extra, result_value
from toolchaos.chaos.engine import ChaosEpisode
from toolchaos.chaos.python import spec_from_openai
from toolchaos.chaos.record import RunRecorder
from toolchaos.core.errors import ToolError
from toolchaos.core.types import Episode, ToolSpec

try:
    from pydantic import ValidationError
    from pydantic_ai import RunContext
    from pydantic_ai.exceptions import ApprovalRequired, CallDeferred, ModelRetry, ToolFailed
    from pydantic_ai.tools import ToolDefinition
    from pydantic_ai.toolsets import AbstractToolset, FunctionToolset, WrapperToolset
    from pydantic_ai.toolsets.abstract import ToolsetTool
    from pydantic_core import SchemaValidator, core_schema
except ModuleNotFoundError as exc:
    raise missing_extra("Pydantic AI", "pydantic-ai", exc) from None

__all__ = ["ChaosToolset", "spec_of"]

ANY_ARGUMENTS = SchemaValidator(core_schema.dict_schema(core_schema.str_schema()))
"""The listed tools' validator: the plan sees the arguments exactly as the model sent them."""


def spec_of(tool_def: ToolDefinition) -> ToolSpec:
    """The documented spec of a Pydantic AI tool definition."""
    return spec_from_openai(
        {
            "name": tool_def.name,
            "description": tool_def.description or "",
            "parameters": dict(tool_def.parameters_json_schema),
        }
    )


def _outputs(defs: list[ToolDefinition]) -> dict[str, dict[str, Any]]:
    """The result schemas the toolset knows (a typed function's, an MCP ``outputSchema``)."""
    return {d.name: d.return_schema for d in defs if d.return_schema}


@dataclass
class _Listing:
    """The wrapped toolset's tools as last listed (shared by the copies a run makes)."""

    tools: dict[str, ToolsetTool[Any]] = field(default_factory=dict)


@dataclass(init=False)
class ChaosToolset(WrapperToolset[Any]):
    """A hazard plan in front of a Pydantic AI toolset.

    Args:
        wrapped: Your toolset, or tools (functions or ``Tool`` objects) for a ``FunctionToolset``.
        plan: A profile name, a plan file, a dict or a :class:`HazardPlan`.
        seed: Overrides the plan's seed.
        store: A run directory (or recorder) every finished episode is stored in.
        target: The id the episodes are stored under (default: the plan's label).
        model: The agent's name in the store.
        arm: The arm of an episode opened by a call when none is open.
        session: An :class:`AdapterSession` to share (the others are then ignored).

    The plan is bound to the tools when they are first known: at once for a
    ``FunctionToolset``, at the first listing for any other toolset (an MCP server, say);
    a plan that does not fit them fails there, as ``BadInput``.
    """

    session: AdapterSession
    listing: _Listing

    def __init__(
        self,
        wrapped: AbstractToolset[Any] | Sequence[Callable[..., Any]],
        plan: PlanSource = "transient",
        *,
        seed: int | None = None,
        store: str | Path | RunRecorder | None = None,
        target: str | None = None,
        model: str = "agent",
        arm: str = "hazard",
        session: AdapterSession | None = None,
        listing: _Listing | None = None,
    ) -> None:
        if not isinstance(wrapped, AbstractToolset):
            wrapped = FunctionToolset(list(wrapped))
        self.wrapped = wrapped
        self.session = session or AdapterSession(
            plan, seed=seed, store=store, target=target, model=model, arm=arm
        )
        self.listing = listing or _Listing()
        if isinstance(wrapped, FunctionToolset) and self.session.engine is None:
            defs = [t.tool_def for t in wrapped.tools.values()]
            self.session.bind([spec_of(d) for d in defs], _outputs(defs))

    # -- episodes -----------------------------------------------------------------------------
    def episode(self, arm: str | None = None, *, sample: int | None = None) -> ChaosEpisode:
        """Open the episode the agent's next calls go to (``clean``: without the plan)."""
        return self.session.episode(arm, sample=sample)

    @property
    def current(self) -> ChaosEpisode:
        """The episode calls go to (opened in the default arm when none is open)."""
        return self.session.current

    def finish(
        self, final_answer: str = "", *, passed: bool | None = None, error: str | None = None
    ) -> Episode:
        """Finish and store the current episode."""
        return self.session.finish(final_answer, passed=passed, error=error)

    def close(self) -> None:
        """Close the run store, if it was opened from a directory."""
        self.session.close()

    # -- the toolset --------------------------------------------------------------------------
    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        """The current episode's toolbox, over the wrapped toolset's tools."""
        originals = await self.wrapped.get_tools(ctx)
        self.listing.tools = dict(originals)
        defs = [t.tool_def for t in originals.values()]
        self.session.bind([spec_of(d) for d in defs], _outputs(defs))
        listed: dict[str, ToolsetTool[Any]] = {}
        for spec in self.current.toolbox():
            base = originals.get(spec.name)
            if base is None:
                continue
            tool_def = replace(
                base.tool_def,
                description=spec.description,
                parameters_json_schema=spec.parameters,
            )
            listed[spec.name] = replace(
                base,
                toolset=self,
                tool_def=tool_def,
                args_validator=ANY_ARGUMENTS,
                args_validator_func=None,
            )
        for name, tool in originals.items():
            listed.setdefault(name, tool)  # a tool the plan was not bound to: untouched
        return listed

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        """Run one call through the current episode's hazard plan."""
        episode = self.current
        if name not in {s.name for s in episode.toolbox()}:
            return await self.wrapped.call_tool(name, tool_args, ctx, tool)
        state = episode.begin(name, tool_args, ctx.tool_call_id)
        if state.pending is None:
            raise ToolFailed(episode.end(state).to_text())
        pending = state.pending
        original = self.listing.tools.get(pending.tool)
        try:
            if original is None:
                raise ToolError(f"Unknown tool '{pending.tool}'.", code=404, kind="unknown_tool")
            arguments = await _validated(original, pending.arguments, ctx)
            result = await self.wrapped.call_tool(
                pending.tool, arguments, replace(ctx, tool_name=pending.tool), original
            )
        except ToolError as err:
            observation = episode.end(state, error=err)
        except (ModelRetry, ToolFailed) as exc:  # the framework's own error channel
            episode.end(state, error=ToolError(_message(exc), code=400, kind="tool_error"))
            raise
        except (CallDeferred, ApprovalRequired):  # the framework's control flow, not a failure
            raise
        except Exception as exc:  # your tool failed: logged as an upstream fault
            episode.raised(state, exc)
            raise
        else:
            observation = episode.end(state, result_value(result))
        if not observation.ok:
            raise ToolFailed(observation.to_text())
        return observation.content


async def _validated(
    tool: ToolsetTool[Any], arguments: dict[str, Any], ctx: RunContext[Any]
) -> dict[str, Any]:
    """The admitted arguments through the tool's own validator (a ToolError if they fail)."""
    try:
        validated: dict[str, Any] = tool.args_validator.validate_python(arguments)
    except ValidationError as exc:
        first = exc.errors()[0] if exc.errors() else {"msg": str(exc)}
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise ToolError(f"Invalid arguments: {where} {first['msg']}".strip()) from None
    if tool.args_validator_func is not None:
        check = tool.args_validator_func(ctx, **validated)
        if hasattr(check, "__await__"):
            await check
    return validated


def _message(exc: ModelRetry | ToolFailed) -> str:
    return str(exc.message) if isinstance(exc.message, str) else repr(exc.message)
