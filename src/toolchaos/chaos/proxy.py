"""An MCP server that forwards to your MCP server and applies a hazard plan on the way.

``toolchaos proxy --plan PLAN -- UPSTREAM`` (or :func:`open_proxy` from Python) connects to
the upstream (a stdio command, a streamable-HTTP URL, or an in-process ``Server``), lists
its tools once, and serves them through one :class:`~toolchaos.chaos.engine.ChaosEpisode`:
``tools/list`` returns the toolbox as the agent sees it (drift may rewrite it) and
``tools/call`` runs through the same hazard layer as the suites before, and after, the
upstream call. Needs the ``mcp`` extra (the official SDK, 2.x).

MCP clients may cache ``tools/list``: every listing the proxy sends carries ``ttlMs: 0``
and ``cacheScope: private`` (SEP-2549), so a client that honours the hints re-lists, and a
proxied tool with a drifted output has its ``outputSchema`` left out, so a client that
validates structured results does not reject what the drifted backend sends.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.server import Server
from mcp.server.caching import CacheHint
from mcp.server.context import ServerRequestContext

from toolchaos.chaos.engine import ChaosEngine, ChaosEpisode
from toolchaos.chaos.plan import HazardPlan, load_plan
from toolchaos.chaos.record import RunRecorder
from toolchaos.core.errors import BadInput, ToolError
from toolchaos.core.jsonutil import dumps
from toolchaos.core.tools import foreign_spec
from toolchaos.core.types import HazardFamily, ToolSpec

NO_CACHE = CacheHint(ttl_ms=0, scope="private")
RESULT_ALTERING = frozenset({HazardFamily.OUTPUT_DRIFT, HazardFamily.CROSS_SOURCE_CONFLICT})

Upstream = str | Sequence[str] | Server[Any] | Client
"""A URL (streamable HTTP), a command line (stdio), an in-process server, or a client."""


def upstream_client(upstream: Upstream, env: dict[str, str] | None = None) -> Client:
    """A (not yet entered) MCP client for ``upstream``.

    Args:
        upstream: ``http(s)://...`` for streamable HTTP, a command and its arguments for
            stdio, an in-process ``Server``, or a client as it is.
        env: Extra environment for a stdio command (never logged or stored).
    """
    if isinstance(upstream, Client):
        return upstream
    if isinstance(upstream, Server):
        return Client(upstream, cache=None)
    if isinstance(upstream, str):
        if upstream.startswith(("http://", "https://")):
            return Client(upstream, cache=None)
        upstream = [upstream]
    command = list(upstream)
    if not command:
        raise BadInput("toolchaos proxy needs an upstream: a URL or a command after --")
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    return Client(params, cache=None)


def describe(upstream: Upstream) -> str:
    """The upstream as shown in messages: a URL without credentials, or the command name."""
    if isinstance(upstream, str) and upstream.startswith(("http://", "https://")):
        scheme, _, rest = upstream.partition("://")
        host = rest.split("/", 1)[0].rsplit("@", 1)[-1]
        return f"{scheme}://{host}"
    if isinstance(upstream, str):
        return upstream
    if isinstance(upstream, Server | Client):
        return type(upstream).__name__
    return str(next(iter(upstream), "?"))


def tool_spec_of(tool: types.Tool) -> ToolSpec:
    """The toolchaos spec of an upstream MCP tool."""
    schema = dict(tool.input_schema)
    schema.setdefault("properties", {})
    return foreign_spec(tool.name, tool.description or "", schema)


def result_value(result: types.CallToolResult) -> Any:
    """An upstream result as JSON data: its structured content, else its (JSON) text."""
    if result.structured_content is not None:
        return result.structured_content
    texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
    if len(texts) == 1:
        try:
            return json.loads(texts[0])
        except json.JSONDecodeError:
            return texts[0]
    return texts


class ChaosProxy:
    """The proxy of one upstream connection: the episode and the MCP server in front of it."""

    def __init__(
        self, client: Client, tools: list[types.Tool], engine: ChaosEngine, episode: ChaosEpisode
    ) -> None:
        self.client = client
        self.upstream_tools = {t.name: t for t in tools}
        self.engine = engine
        self.episode = episode
        altered = {s.tool for s in engine.specs if s.family in RESULT_ALTERING}
        self._drop_output_schema = altered if episode.arm == "hazard" else set()
        self.server: Server[Any] = Server(
            "toolchaos-proxy",
            cache_hints={"tools/list": NO_CACHE},
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        tools = []
        for spec in self.episode.toolbox():
            upstream = self.upstream_tools.get(spec.name)
            output = upstream.output_schema if upstream is not None else None
            if spec.name in self._drop_output_schema:
                output = None
            tools.append(
                types.Tool(
                    name=spec.name,
                    description=spec.description,
                    input_schema=spec.parameters,
                    output_schema=output,
                )
            )
        return types.ListToolsResult(tools=tools, ttl_ms=0, cache_scope="private")

    async def _run(self, tool: str, arguments: dict[str, Any]) -> Any:
        result = await self.client.call_tool(tool, arguments)
        value = result_value(result)
        if result.is_error:
            message = value if isinstance(value, str) else dumps(value)
            raise ToolError(message, code=400, kind="tool_error")
        return value

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        observation = await self.episode.acall(params.name, params.arguments or {}, self._run)
        text = dumps(observation.content)
        structured = observation.content if isinstance(observation.content, dict) else None
        return types.CallToolResult(
            content=[types.TextContent(text=text)],
            structured_content=structured if observation.ok else None,
            is_error=not observation.ok,
        )


@asynccontextmanager
async def open_proxy(
    upstream: Upstream,
    plan: str | Path | HazardPlan | dict[str, Any],
    *,
    arm: str = "hazard",
    seed: int | None = None,
    store: str | Path | RunRecorder | None = None,
    target: str | None = None,
    model: str = "agent",
    env: dict[str, str] | None = None,
) -> AsyncIterator[ChaosProxy]:
    """Connect to ``upstream`` and yield the proxy (its ``server`` is the MCP server to serve).

    The episode is stored (if ``store``) when the context ends, with no verdict.

    Raises:
        BadInput: The upstream cannot be reached or listed (one sentence), or the plan
            does not fit its tools.
    """
    chosen = load_plan(plan)  # a bad plan file fails before anything is started
    client = upstream_client(upstream, env)
    try:
        async with AsyncExitStack() as stack:
            try:
                await stack.enter_async_context(client)
                listing = await client.list_tools()
            except Exception as exc:  # transports raise OSError, httpx errors, groups
                where = describe(upstream)
                raise BadInput(
                    f"cannot reach the upstream MCP server {where}: {_reason(exc)}"
                ) from None
            recorder = RunRecorder(store) if isinstance(store, str | Path) else store
            specs = [tool_spec_of(t) for t in listing.tools]
            engine = ChaosEngine(specs, chosen, seed=seed, recorder=recorder, target=target)
            proxy = ChaosProxy(
                client, list(listing.tools), engine, engine.episode(arm, model=model)
            )
            try:
                yield proxy
            finally:
                proxy.episode.finish()
                if recorder is not None and not isinstance(store, RunRecorder):
                    recorder.close()
    except BaseExceptionGroup as group:
        bad = _bad_input(group)
        if bad is None:
            raise
        raise bad from None


def _bad_input(group: BaseExceptionGroup[BaseException]) -> BadInput | None:
    """The BadInput a transport's task group wrapped, if any."""
    for exc in group.exceptions:
        if isinstance(exc, BadInput):
            return exc
        if isinstance(exc, BaseExceptionGroup):
            found = _bad_input(exc)
            if found is not None:
                return found
    return None


def _reason(exc: BaseException) -> str:
    """The innermost message of an exception (or of the first in a group)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__).rstrip(".")


async def serve_stdio(
    upstream: Upstream,
    plan: str | Path | HazardPlan | dict[str, Any],
    **options: Any,
) -> None:
    """Serve the proxy over this process's stdin/stdout until the client disconnects."""
    from mcp.server.stdio import stdio_server

    async with open_proxy(upstream, plan, **options) as proxy, stdio_server() as (read, write):
        await proxy.server.run(read, write, proxy.server.create_initialization_options())
