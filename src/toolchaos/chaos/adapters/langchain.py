"""The LangChain 1.x adapter: an agent middleware that puts a hazard plan in front of tools.

>>> chaos = ChaosMiddleware([get_weather, weather_backup], "outage", store="runs/lc")
>>> agent = create_agent(model, [get_weather, weather_backup], middleware=[chaos])  # doctest: +SKIP
>>> episode = chaos.episode()                        # or chaos.episode("clean")
>>> state = agent.invoke({"messages": [("user", "Weather in Oslo?")]})  # doctest: +SKIP
>>> episode.finish(state["messages"][-1].text, passed=...)              # doctest: +SKIP

``wrap_model_call`` shows the model the toolbox of the current episode (a drift may
rewrite a schema); ``wrap_tool_call`` runs each call through
:meth:`toolchaos.chaos.ChaosEpisode.begin`, the agent's tool node, then
:meth:`~toolchaos.chaos.ChaosEpisode.end`, and answers with a ``ToolMessage`` whose content
is the observation as JSON text (``status="error"`` for an error body). Both have async
twins, for ``ainvoke``/``astream``. One middleware serves one episode at a time: make one
per agent run that runs concurrently. Needs the ``langchain`` extra (``langchain>=1.0``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolchaos.chaos.adapters._common import AdapterSession, PlanSource, missing_extra, result_value
from toolchaos.chaos.engine import ChaosEpisode
from toolchaos.chaos.python import spec_from_openai
from toolchaos.chaos.record import RunRecorder
from toolchaos.core.errors import ToolError
from toolchaos.core.types import Episode, Observation, ToolSpec

try:
    from langchain.agents.middleware import (
        AgentMiddleware,
        ModelRequest,
        ModelResponse,
        ToolCallRequest,
    )
    from langchain_core.messages import AIMessage, ToolCall, ToolMessage
    from langchain_core.tools import BaseTool
    from langchain_core.tools import tool as as_tool
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from langgraph.types import Command
except ModuleNotFoundError as exc:
    raise missing_extra("LangChain", "langchain", exc) from None

if TYPE_CHECKING:
    from toolchaos.chaos.engine import _Call

__all__ = ["ChaosMiddleware", "spec_of"]

ToolHandler = Callable[[ToolCallRequest], "ToolMessage | Command[Any]"]
AsyncToolHandler = Callable[[ToolCallRequest], "Awaitable[ToolMessage | Command[Any]]"]
ModelResult = ModelResponse[Any] | AIMessage | Any


def spec_of(tool: BaseTool) -> ToolSpec:
    """The documented spec of a LangChain tool (its OpenAI tool schema)."""
    return spec_from_openai(convert_to_openai_tool(tool))


class ChaosMiddleware(AgentMiddleware[Any, Any, Any]):
    """A hazard plan in front of a LangChain agent's tools.

    Args:
        tools: The agent's tools (``BaseTool`` objects, or functions, made into tools the way
            ``create_agent`` makes them). Give ``create_agent`` the same tools: calls to
            any other tool pass through untouched.
        plan: A profile name, a plan file, a dict or a :class:`HazardPlan`.
        seed: Overrides the plan's seed.
        store: A run directory (or recorder) every finished episode is stored in.
        target: The id the episodes are stored under (default: the plan's label).
        model: The agent's name in the store.
        arm: The arm of an episode opened by a call when none is open.
    """

    def __init__(
        self,
        tools: Sequence[BaseTool | Callable[..., Any]],
        plan: PlanSource = "transient",
        *,
        seed: int | None = None,
        store: str | Path | RunRecorder | None = None,
        target: str | None = None,
        model: str = "agent",
        arm: str = "hazard",
    ) -> None:
        super().__init__()
        made = [t if isinstance(t, BaseTool) else as_tool(t) for t in tools]
        self.chaos_tools: dict[str, BaseTool] = {t.name: t for t in made}
        self.session = AdapterSession(
            plan, seed=seed, store=store, target=target, model=model, arm=arm
        )
        self.engine = self.session.bind([spec_of(t) for t in made])

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

    # -- what the model sees ------------------------------------------------------------------
    def _with_toolbox(self, request: ModelRequest[Any]) -> ModelRequest[Any]:
        visible = {s.name: s.to_openai() for s in self.current.toolbox()}
        tools: list[BaseTool | dict[str, Any]] = []
        for tool in request.tools:
            if not (isinstance(tool, BaseTool) and tool.name in self.chaos_tools):
                tools.append(tool)  # a built-in or a tool the plan was not bound to
            elif tool.name in visible:
                tools.append(visible.pop(tool.name))
        tools.extend(visible.values())
        return request.override(tools=tools)

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResult:
        """Show the model the current episode's toolbox."""
        return handler(self._with_toolbox(request))

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResult:
        """Show the model the current episode's toolbox."""
        return await handler(self._with_toolbox(request))

    # -- the calls ----------------------------------------------------------------------------
    def _begin(self, request: ToolCallRequest) -> tuple[ChaosEpisode, _Call] | None:
        call = request.tool_call
        episode = self.current
        if call["name"] not in {s.name for s in episode.toolbox()}:
            return None
        return episode, episode.begin(call["name"], dict(call.get("args") or {}), call.get("id"))

    def _forward(self, request: ToolCallRequest, state: _Call) -> ToolCallRequest:
        """The request the tool node runs: the backend's tool and the translated arguments."""
        assert state.pending is not None
        pending = state.pending
        call = ToolCall(
            name=pending.tool,
            args=dict(pending.arguments),
            id=request.tool_call.get("id"),
            type="tool_call",
        )
        tool = self.chaos_tools.get(pending.tool)
        if tool is not None and (request.tool is None or request.tool.name != pending.tool):
            return request.override(tool_call=call, tool=tool)
        return request.override(tool_call=call)

    def _settle(
        self,
        request: ToolCallRequest,
        episode: ChaosEpisode,
        state: _Call,
        response: ToolMessage | Command[Any] | ToolError,
    ) -> ToolMessage | Command[Any]:
        if isinstance(response, ToolError):
            return _message(request, episode.end(state, error=response))
        if isinstance(response, ToolMessage):
            if response.status == "error":  # the tool node's own error text
                error = ToolError(response.text, code=400, kind="tool_error")
                return _message(request, episode.end(state, error=error), response.artifact)
            observation = episode.end(state, result_value(response.content))
            return _message(request, observation, response.artifact)
        # a Command updates the graph's state: counted and logged, passed on unaltered
        episode.end(state, {"command": repr(response.update)})
        return response

    def wrap_tool_call(self, request: ToolCallRequest, handler: ToolHandler) -> Any:
        """Run one tool call through the current episode's hazard plan."""
        begun = self._begin(request)
        if begun is None:
            return handler(request)
        episode, state = begun
        if state.pending is None:
            return _message(request, episode.end(state))
        try:
            response: ToolMessage | Command[Any] | ToolError = handler(
                self._forward(request, state)
            )
        except ToolError as err:
            response = err
        except Exception as exc:  # your tool failed: logged as an upstream fault
            episode.raised(state, exc)
            raise
        return self._settle(request, episode, state, response)

    async def awrap_tool_call(self, request: ToolCallRequest, handler: AsyncToolHandler) -> Any:
        """Run one tool call through the current episode's hazard plan."""
        begun = self._begin(request)
        if begun is None:
            return await handler(request)
        episode, state = begun
        if state.pending is None:
            return _message(request, episode.end(state))
        try:
            response: ToolMessage | Command[Any] | ToolError = await handler(
                self._forward(request, state)
            )
        except ToolError as err:
            response = err
        except Exception as exc:  # your tool failed: logged as an upstream fault
            episode.raised(state, exc)
            raise
        return self._settle(request, episode, state, response)


def _message(
    request: ToolCallRequest, observation: Observation, artifact: Any = None
) -> ToolMessage:
    """The observation as the tool message the agent reads."""
    return ToolMessage(
        content=observation.to_text(),
        tool_call_id=request.tool_call.get("id") or observation.call_id,
        name=request.tool_call["name"],
        status="success" if observation.ok else "error",
        artifact=artifact,
    )
