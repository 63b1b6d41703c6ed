"""An MCP server that forwards to your MCP server and applies a hazard plan on the way.

``toolchaos proxy --plan PLAN -- UPSTREAM`` (or :func:`open_proxy` from Python) connects to
the upstream (a stdio command, a streamable-HTTP URL, or an in-process ``Server``), lists
its tools once, and serves them through one :class:`~toolchaos.chaos.engine.ChaosEpisode`:
``tools/list`` returns the toolbox as the agent sees it (drift may rewrite it) and
``tools/call`` runs through the same hazard layer as the suites before, and after, the
upstream call. Needs the ``mcp`` extra (the official SDK, 2.x).

Nothing is lost: with a store, the episode's row is claimed when the session starts and
every call is appended as it is answered (an injected error, the upstream's result, its
JSON-RPC error, or its death), so SIGTERM, SIGHUP, SIGINT or even SIGKILL keep every call
answered before. The upstream's death is reported on stderr and to the client as an MCP
error naming it; it is respawned up to ``restarts`` times, after which the proxy stops.

MCP clients may cache ``tools/list``: every listing the proxy sends carries ``ttlMs: 0``
and ``cacheScope: private`` (SEP-2549), so a client that honours the hints re-lists, and a
proxied tool with a drifted output has its ``outputSchema`` left out, so a client that
validates structured results does not reject what the drifted backend sends.
"""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import os
import signal
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import anyio
import anyio.abc
import anyio.lowlevel
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.server import Server
from mcp.server.caching import CacheHint
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from mcp_types import (
    CONNECTION_CLOSED,
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    SERVER_INFO_META_KEY,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import TypeAdapter

from toolchaos.chaos.engine import ChaosEngine, ChaosEpisode, ToolFault
from toolchaos.chaos.plan import HazardPlan, load_plan
from toolchaos.chaos.record import RunRecorder
from toolchaos.core.errors import BadInput, ToolError
from toolchaos.core.jsonutil import dumps
from toolchaos.core.tools import foreign_spec
from toolchaos.core.types import HazardFamily, ToolSpec

NO_CACHE = CacheHint(ttl_ms=0, scope="private")
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
"""The MCP log levels, least severe first."""
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


LAUNCHERS = frozenset({"python", "python3", "node", "npx", "uvx", "uv", "deno", "bun", "bunx"})
"""Programs whose script or package argument is shown beside them in messages."""
SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".sh")


def describe(upstream: Upstream) -> str:
    """The upstream as shown in messages: a URL without credentials, or its program.

    A command shows its program's name and, for a launcher (``python``, ``node``, ``npx``,
    ``uvx``...), the script or package it runs: the module after ``-m``, else the first
    argument that names a script file or a scoped package (``@org/server``), else a
    launcher's first argument when it is no option. Nothing else is shown: an option's
    value may be a token (``--api-key SECRET``), and so may another program's argument.
    """
    if isinstance(upstream, str) and upstream.startswith(("http://", "https://")):
        scheme, _, rest = upstream.partition("://")
        host = rest.split("/", 1)[0].rsplit("@", 1)[-1]
        return f"{scheme}://{host}"
    if isinstance(upstream, str):
        upstream = [upstream]
    if isinstance(upstream, Server | Client):
        return type(upstream).__name__
    command = list(upstream)
    if not command:
        return "?"
    program = Path(command[0]).name
    launcher = program.split(".exe")[0].rstrip("0123456789.") in LAUNCHERS
    shown = _script_of(command[1:]) if launcher else None
    return program if shown is None else f"{program} {shown}"


def _script_of(args: list[str]) -> str | None:
    """The script or package a launcher runs, if it can be told from an option's value."""
    for before, arg in zip(["", *args], args, strict=False):
        if before == "-m" and not arg.startswith("-"):
            return arg
    for arg in args:
        if arg.endswith(SCRIPT_SUFFIXES) or (arg.startswith("@") and "/" in arg):
            return arg
    if args and not args[0].startswith("-") and args[0] not in ("run", "x", "dlx"):
        return args[0]
    return None


def tool_spec_of(tool: types.Tool) -> ToolSpec:
    """The toolchaos spec of an upstream MCP tool."""
    schema = dict(tool.input_schema)
    schema.setdefault("properties", {})
    return foreign_spec(tool.name, tool.description or "", schema)


def result_value(result: types.CallToolResult) -> Any:
    """An upstream result as the hazards see it (and the trace stores it), as JSON data.

    Its structured content; else the text of a lone text block (parsed when it is JSON);
    else its content blocks as JSON (images, audio, resources, links, several blocks).
    """
    if result.structured_content is not None:
        return result.structured_content
    if len(result.content) == 1 and isinstance(result.content[0], types.TextContent):
        text = result.content[0].text
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text
    return [
        block.model_dump(mode="json", by_alias=True, exclude_none=True) for block in result.content
    ]


def altered_result(result: types.CallToolResult, value: Any) -> types.CallToolResult:
    """``result`` carrying ``value``, which a hazard made of :func:`result_value` of it.

    Everything the hazard did not change stays as the upstream sent it: the blocks that
    are not text, each block's annotations and ``_meta``, the result's ``_meta``.
    """
    shown = value if isinstance(value, str) else dumps(value)
    if result.structured_content is not None:
        others = [b for b in result.content if not isinstance(b, types.TextContent)]
        structured = value if isinstance(value, dict) else None
        content: list[Any] = [types.TextContent(text=shown), *others]
        return result.model_copy(update={"content": content, "structured_content": structured})
    if len(result.content) == 1 and isinstance(result.content[0], types.TextContent):
        block = result.content[0].model_copy(update={"text": shown})
        return result.model_copy(update={"content": [block]})
    try:
        blocks = _CONTENT_BLOCKS.validate_python(value)
    except (ValueError, TypeError):
        blocks = [types.TextContent(text=shown)]
    return result.model_copy(update={"content": blocks})


def as_served(result: _Answer, ctx: ServerRequestContext[Any]) -> _Answer:
    """An upstream's answer as the proxy's client gets it: as it came, but for one stamp.

    On a 2026-07-28 link the upstream stamps its ``serverInfo`` into each result's
    ``_meta``; a client that spoke the handshake-era protocol to the proxy would not have
    got that stamp from the server itself, so it is taken out (a modern client keeps it).
    """
    meta = result.meta
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS or not meta:
        return result
    if SERVER_INFO_META_KEY not in meta:
        return result
    rest = {k: v for k, v in meta.items() if k != SERVER_INFO_META_KEY}
    return result.model_copy(update={"meta": rest or None})


_Answer = TypeVar("_Answer", bound=types.Result)
_CONTENT_BLOCKS: TypeAdapter[list[types.ContentBlock]] = TypeAdapter(list[types.ContentBlock])


class UpstreamDied(Exception):
    """The upstream closed its connection: the process exited or crashed, the server went away.

    Args:
        generation: The connection that died (0 the first, then one more per restart).
    """

    def __init__(self, generation: int) -> None:
        super().__init__(generation)
        self.generation = generation


class UpstreamLink:
    """The proxy's connection to its upstream, respawned when it dies, ``restarts`` times.

    Each connection is held open by a task of the link's own task group (an MCP client's
    transport must be closed by the task that opened it), so a call handler can replace a
    dead connection while the proxy keeps serving.

    Args:
        upstream: What :func:`upstream_client` connects to.
        env: Extra environment for a stdio command.
        restarts: How many times a dead upstream is respawned before the proxy gives up.
    """

    def __init__(self, upstream: Upstream, env: dict[str, str] | None, restarts: int) -> None:
        self.upstream = upstream
        self.env = env
        self.label = describe(upstream)
        self.restarts = restarts
        self.restarted = 0
        self.generation = 0
        self.alive = False
        self.client: Client | None = None
        self.capabilities = types.ServerCapabilities()
        """What the upstream serves (the proxy serves the same)."""
        self.on_log: Callable[[types.LoggingMessageNotificationParams], Awaitable[None]] | None
        self.on_log = None
        self._close: anyio.Event | None = None
        self._closed: anyio.Event | None = None
        self._lock = anyio.Lock()
        self._group: anyio.abc.TaskGroup | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[list[types.Tool]]:
        """Connect, yield the upstream's tools, and close the connection on exit.

        Raises:
            BadInput: The upstream cannot be reached or listed (one sentence).
        """
        async with anyio.create_task_group() as group:
            self._group = group
            try:
                yield await self._connect()
            finally:
                await self._disconnect()

    async def _connect(self) -> list[types.Tool]:
        if self._group is None:
            raise RuntimeError("UpstreamLink.running() is not entered")
        try:
            tools: list[types.Tool] = await self._group.start(self._hold)
        except Exception as exc:  # transports raise OSError, httpx errors, groups
            raise BadInput(
                f"cannot reach the upstream MCP server {self.label}: {_reason(exc)}"
            ) from None
        self.alive = True
        return tools

    async def _hold(self, *, task_status: anyio.abc.TaskStatus[list[types.Tool]]) -> None:
        """Open one connection, hand its listing over, and keep it open until told to close."""
        client = upstream_client(self.upstream, self.env)
        if client.logging_callback is None:  # the upstream's log messages reach the client
            client.logging_callback = self._log
            client.log_level = client.log_level or "debug"  # the client's setLevel rules
        close, closed = anyio.Event(), anyio.Event()
        started = False
        try:
            async with client:
                tools = await _all_tools(client)
                self.client, self._close, self._closed = client, close, closed
                self.capabilities = client.server_capabilities
                started = True
                task_status.started(tools)
                await close.wait()
        except Exception:
            if not started:
                raise
            # a dead transport may fail while closing: the death is reported by the calls
        finally:
            closed.set()

    async def _log(self, params: types.LoggingMessageNotificationParams) -> None:
        """Forward the upstream's log message to the client the proxy serves."""
        if self.on_log is not None:
            await self.on_log(params)

    async def _disconnect(self) -> None:
        close, closed = self._close, self._closed
        self.alive = False
        if close is not None and closed is not None:
            close.set()
            await closed.wait()

    async def call(
        self,
        tool: str,
        arguments: dict[str, Any],
        *,
        meta: types.RequestParamsMeta | None = None,
        progress: Any = None,
    ) -> types.CallToolResult:
        """Call a tool upstream (with the client's ``_meta`` and a progress callback).

        Raises:
            UpstreamDied: The connection is gone (the call got no answer).
            MCPError: The upstream answered with a JSON-RPC error.
        """
        return await self.request(
            lambda client: client.call_tool(tool, arguments, progress_callback=progress, meta=meta)
        )

    async def request(self, send: Callable[[Client], Awaitable[_Result]]) -> _Result:
        """Send one request upstream with ``send(client)``, telling its death apart.

        Raises:
            UpstreamDied: The connection is gone (the request got no answer).
            MCPError: The upstream answered with a JSON-RPC error.
        """
        generation, client = self.generation, self.client
        if not self.alive or client is None:
            raise UpstreamDied(generation)
        try:
            return await send(client)
        except MCPError as exc:
            if exc.code != CONNECTION_CLOSED:
                raise
            failure: Exception = exc
        except Exception as exc:  # a closed stream, a refused HTTP connection, an OSError
            failure = exc
        if await _still_answers(client):  # alive: the failure was this request's own
            raise failure
        raise UpstreamDied(generation)

    async def revive(self, died: UpstreamDied) -> bool:
        """Respawn the upstream after ``died``, if a restart is left; whether it is back."""
        async with self._lock:
            if died.generation != self.generation:
                return self.alive  # another call already saw this death
            await self._disconnect()
            if self.restarted >= self.restarts or isinstance(self.upstream, Client):
                return False
            self.restarted += 1
            self.generation += 1
            try:
                await self._connect()
            except BadInput as exc:
                _say(f"{exc}; it is not restarted again")
                self.restarted = self.restarts
                return False
            return True


_Result = TypeVar("_Result")


async def _all_tools(client: Client) -> list[types.Tool]:
    """Every tool the upstream lists, page after page."""
    listing = await client.list_tools()
    tools = list(listing.tools)
    while listing.next_cursor:
        listing = await client.list_tools(cursor=listing.next_cursor)
        tools += listing.tools
    return tools


async def _still_answers(client: Client) -> bool:
    """Whether the upstream still answers (a -32000 may be the server's own error code).

    The probe is a ``tools/list``, which every server answers in every protocol version
    (``ping`` is gone from the newest).
    """
    try:
        with anyio.fail_after(5):
            await client.list_tools()
    except Exception:
        return False
    return True


def _say(line: str) -> None:
    """One line on stderr (stdout is the MCP wire)."""
    print(f"toolchaos proxy: {line}", file=sys.stderr, flush=True)


class ChaosProxy:
    """The proxy of one upstream connection: the episode and the MCP server in front of it.

    In the clean arm every answer is the upstream's own, unchanged: tool results with all
    their content blocks, the tool listing with its titles, annotations and ``_meta``,
    resources, prompts and completions (served when the upstream serves them). In the
    hazard arm a hazard changes only what it names: an injected error replaces a call's
    result, a result-altering hazard replaces the data it alters, drift rewrites a tool's
    description or input schema; the rest is forwarded as it came.
    """

    def __init__(
        self,
        link: UpstreamLink,
        tools: list[types.Tool],
        engine: ChaosEngine,
        episode: ChaosEpisode,
        *,
        per_session: bool = False,
    ) -> None:
        self.link = link
        self.upstream_tools = {t.name: t for t in tools}
        self._documented = {t.name: tool_spec_of(t) for t in tools}
        self.engine = engine
        self.episode = episode
        """The episode being played: the only one on stdio, the latest begun over HTTP."""
        self.per_session = per_session
        self.episodes: list[ChaosEpisode] = [] if per_session else [episode]
        """Every episode this proxy played (over HTTP: one per client session)."""
        self._of_session: dict[Any, ChaosEpisode] = {}
        self.gone = anyio.Event()
        """Set once the upstream is dead for good."""
        self.lost = anyio.Event()
        """Set once the upstream is dead for good and the call it failed was answered."""
        self.lost_on: types.RequestId | None = None
        self.exit_code = 0
        altered = {s.tool for s in engine.specs if s.family in RESULT_ALTERING}
        self._drop_output_schema = altered if episode.arm == "hazard" else set()
        served = link.capabilities
        handlers: dict[str, Any] = {}
        if served.resources is not None:
            handlers["on_list_resources"] = self._forwarding(
                types.ListResourcesRequest, types.ListResourcesResult
            )
            handlers["on_list_resource_templates"] = self._forwarding(
                types.ListResourceTemplatesRequest, types.ListResourceTemplatesResult
            )
            handlers["on_read_resource"] = self._forwarding(
                types.ReadResourceRequest, types.ReadResourceResult
            )
        if served.prompts is not None:
            handlers["on_list_prompts"] = self._forwarding(
                types.ListPromptsRequest, types.ListPromptsResult
            )
            handlers["on_get_prompt"] = self._forwarding(
                types.GetPromptRequest, types.GetPromptResult
            )
        if served.completions is not None:
            handlers["on_completion"] = self._forwarding(
                types.CompleteRequest, types.CompleteResult
            )
        if served.logging is not None:
            handlers["on_set_logging_level"] = self._set_logging_level
        self._session: Any = None  # the client's session, once it has sent a request
        self._log_level = 0  # every message, until the client sets a level
        link.on_log = self._forward_log
        self.server: Server[Any] = Server(
            "toolchaos-proxy",
            cache_hints={"tools/list": NO_CACHE},
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            **handlers,
        )
        self.server.add_notification_handler(VERDICT_METHOD, Verdict, self._verdict)

    def episode_of(self, ctx: ServerRequestContext[Any]) -> ChaosEpisode:
        """The episode of the client session ``ctx`` belongs to (begun at its first call).

        On stdio there is one session and one episode. Over HTTP each session has its own,
        stored under its own key; after a session's verdict, its next call begins another.
        A session is told by its ``Mcp-Session-Id`` (a handshake-era client's); the
        stateless 2026-07-28 protocol has none, so such a host names its session in each
        request's ``_meta`` as ``toolchaos/session`` (requests naming none share one).
        """
        key = session_key(ctx) if self.per_session else "stdio"
        episode = self._of_session.get(key, None if self.per_session else self.episode)
        if episode is None or episode.finished is not None:
            template = self.episode
            episode = self.engine.episode(template.arm, model=template.model, live=True)
            self._of_session[key] = self.episode = episode
            self.episodes.append(episode)
        return episode

    async def _verdict(self, ctx: ServerRequestContext[Any], params: Verdict) -> None:
        """The host's verdict on the session's episode: stored, and the episode closed."""
        episode = self.episode_of(ctx)
        episode.finish(params.answer, passed=params.passed)

    def close(self) -> None:
        """Close every episode still open (with no verdict: it is reported unscored)."""
        for episode in self.episodes:
            episode.finish()

    def _forwarding(self, request: Any, result: Any) -> Any:
        """A handler sending the client's request upstream as it is and its answer back."""

        async def forward(ctx: ServerRequestContext[Any], params: Any) -> Any:
            self._session = ctx.session
            try:
                answer = await self.link.request(
                    lambda client: client.session.send_request(request(params=params), result)
                )
                return as_served(answer, ctx)
            except UpstreamDied as died:
                back = await self.link.revive(died)
                label = self.link.label
                raise MCPError(
                    INTERNAL_ERROR,
                    f"The upstream MCP server {label} exited during this {ctx.method} request"
                    f" (no result): {'restarted; retry' if back else 'not restarted'}.",
                    {"upstream": label, "restarted": back},
                ) from None

        return forward

    async def _set_logging_level(
        self, ctx: ServerRequestContext[Any], params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        """Keep the client's log level: the upstream sends everything, the proxy filters.

        (A 2026-07-28 upstream has no ``logging/setLevel``; the link opts in to every level.)
        """
        self._log_level = LOG_LEVELS.index(params.level)
        return types.EmptyResult()

    async def _forward_log(self, params: types.LoggingMessageNotificationParams) -> None:
        if self._session is not None and LOG_LEVELS.index(params.level) >= self._log_level:
            await self._session.send_log_message(params.level, params.data, params.logger)

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        tools = []
        for spec in self.episode.toolbox():
            upstream = self.upstream_tools.get(spec.name)
            if upstream is None:  # a tool the plan adds (none does yet): described afresh
                tools.append(
                    types.Tool(
                        name=spec.name, description=spec.description, input_schema=spec.parameters
                    )
                )
                continue
            documented = self._documented[spec.name]
            changed: dict[str, Any] = {}
            if spec.description != documented.description:
                changed["description"] = spec.description
            if spec.parameters != documented.parameters:
                changed["input_schema"] = spec.parameters
            if spec.name in self._drop_output_schema:
                changed["output_schema"] = None
            tools.append(upstream.model_copy(update=changed) if changed else upstream)
        return types.ListToolsResult(tools=tools, ttl_ms=0, cache_scope="private")

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        self._session = ctx.session
        forward = _Forward(self, ctx, params.meta)
        episode = self.episode_of(ctx)
        observation = await episode.acall(params.name, params.arguments or {}, forward)
        if forward.answer is not None:
            raise forward.answer
        raw = forward.raw
        if raw is not None and (not observation.ok) == bool(raw.is_error):
            if raw.is_error or observation.content == forward.value:
                return as_served(raw, ctx)  # no hazard changed it: the upstream's own answer
            return as_served(altered_result(raw, observation.content), ctx)
        text = dumps(observation.content)
        structured = observation.content if isinstance(observation.content, dict) else None
        return types.CallToolResult(
            content=[types.TextContent(text=text)],
            structured_content=structured if observation.ok else None,
            is_error=not observation.ok,
        )

    async def upstream_lost(
        self, ctx: ServerRequestContext[Any], tool: str, died: UpstreamDied
    ) -> MCPError:
        """After a call the upstream's death failed: respawn it or give up; the client's error."""
        label = self.link.label
        _say(f"the upstream MCP server {label} closed its connection (it exited or crashed)")
        back = await self.link.revive(died)
        if back:
            link = self.link
            outcome = f"restarted (restart {link.restarted} of {link.restarts}); retry the call"
            _say(f"the upstream MCP server {label} is {outcome.split(';')[0]}")
        else:
            outcome = "not restarted; the proxy stops"
            self.gone.set()
            if self.lost_on is None:
                _say(f"the upstream MCP server {label} is gone; the proxy stops")
                self.exit_code = 1
                self.lost_on = ctx.request_id
        message = (
            f"The upstream MCP server {label} exited during this call to {tool} (no result): "
            f"{outcome}."
        )
        return MCPError(INTERNAL_ERROR, message, {"upstream": label, "restarted": back})

    def answered(self, message: SessionMessage) -> None:
        """The server sent ``message``: after the last call of a lost upstream, stop."""
        if self.lost_on is not None and getattr(message.message, "id", None) == self.lost_on:
            self.lost.set()


SESSION_META_KEY = "toolchaos/session"
"""The ``_meta`` key a stateless (2026-07-28) HTTP client names its session with."""


def session_key(ctx: ServerRequestContext[Any]) -> str:
    """Which client session a request over HTTP belongs to (see :meth:`ChaosProxy.episode_of`)."""
    headers = getattr(ctx.request, "headers", None)
    found = headers.get("mcp-session-id") if headers is not None else None
    if found:
        return f"http:{found}"
    named = (ctx.meta or {}).get(SESSION_META_KEY)
    return "stateless" if named is None else f"meta:{named}"


VERDICT_METHOD = "notifications/toolchaos/verdict"
"""The notification a host or test sends the proxy to give its verdict on the session."""


class Verdict(types.NotificationParams):
    """The params of a verdict: ``{"passed": true, "answer": "..."}`` (both optional).

    ``passed`` is the host's pass or fail (omitted: the report checks ``answer`` against
    the plan's reference answer, if the target has one, else the episode is unscored).
    """

    passed: bool | None = None
    answer: str = ""


class _Forward:
    """Runs one admitted call upstream for :meth:`ChaosEpisode.acall`, keeping what came back.

    ``raw`` is the upstream's result and ``value`` its data before any hazard saw it;
    ``answer`` is the MCP error the client gets instead of a result (the upstream's own
    JSON-RPC error, forwarded as it is, or its death). Failures reach the trace as
    :class:`~toolchaos.chaos.engine.ToolFault` (fault ``upstream``), a result the upstream
    marked an error as the tool's own error.
    """

    def __init__(
        self,
        proxy: ChaosProxy,
        ctx: ServerRequestContext[Any],
        meta: types.RequestParamsMeta | None,
    ) -> None:
        self.proxy = proxy
        self.ctx = ctx
        self.meta = meta
        self.raw: types.CallToolResult | None = None
        self.value: Any = None
        self.answer: MCPError | None = None

    async def __call__(self, tool: str, arguments: dict[str, Any]) -> Any:
        link = self.proxy.link
        meta = dict(self.meta or {})
        token = meta.pop("progress_token", None)  # the upstream gets a token of its own
        try:
            result = await link.call(
                tool,
                arguments,
                meta=cast(types.RequestParamsMeta, meta) if meta else None,
                progress=None if token is None else self._progress(token),
            )
        except MCPError as exc:  # the upstream's own protocol error, forwarded as it is
            self.answer = exc
            raise ToolFault(
                exc.message, code=exc.code, kind="upstream_error", fault="upstream"
            ) from None
        except UpstreamDied as died:
            self.answer = await self.proxy.upstream_lost(self.ctx, tool, died)
            message = self.answer.message
            raise ToolFault(message, code=502, kind="upstream_exited", fault="upstream") from None
        except Exception as exc:  # a result the SDK cannot read: still the upstream's
            message = f"the upstream MCP server {link.label} failed: {_reason(exc)}"
            self.answer = MCPError(INTERNAL_ERROR, message)
            raise ToolFault(message, code=502, kind="upstream_error", fault="upstream") from None
        self.raw, self.value = result, result_value(result)
        if result.is_error:
            value = self.value
            message = value if isinstance(value, str) else dumps(value)
            raise ToolError(message, code=400, kind="tool_error")
        return copy.deepcopy(self.value)  # a hazard may edit what it gets in place

    def _progress(self, token: Any) -> Any:
        """Forward the upstream's progress on this call to the client, under its token."""
        session, request_id = self.ctx.session, self.ctx.request_id
        related = None if request_id is None else str(request_id)

        async def report(progress: float, total: float | None, message: str | None) -> None:
            await session.send_progress_notification(
                token, progress, total, message, related_request_id=related
            )

        return report


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
    restarts: int = 0,
    per_session: bool = False,
) -> AsyncIterator[ChaosProxy]:
    """Connect to ``upstream`` and yield the proxy (its ``server`` is the MCP server to serve).

    With ``store``, the episode's row is claimed now and each call is stored as it is
    answered; the episode is closed (with no verdict) when the context ends.

    Args:
        upstream: A URL, a command line, an in-process ``Server`` or a ``Client``.
        plan: A profile name, a plan file, a dict or a :class:`HazardPlan`.
        arm: ``hazard`` (the plan) or ``clean``.
        seed: Overrides the plan's seed.
        store: The run directory (or recorder) the episode is stored in, as it plays.
        target: The id the episode is stored under (default: the plan's label).
        model: The agent's name in the store.
        env: Extra environment for a stdio command (never logged or stored).
        restarts: How many times an upstream that dies is respawned (a command, a URL or
            an in-process server; a given ``Client`` cannot be). Past that, each call
            gets an MCP error naming the upstream, and ``proxy.lost`` is set.
        per_session: One episode per client session (the HTTP server's), each begun at
            the session's first call; otherwise one episode, begun now.

    Raises:
        BadInput: The upstream cannot be reached or listed (one sentence), or the plan
            does not fit its tools.
    """
    chosen = load_plan(plan)  # a bad plan file fails before anything is started
    link = UpstreamLink(upstream, env, restarts)
    try:
        async with link.running() as tools:
            recorder = RunRecorder(store) if isinstance(store, str | Path) else store
            try:
                specs = [tool_spec_of(t) for t in tools]
                # a hazard on a field the upstream's output schema types otherwise is
                # refused now, at the first sight of its tools
                outputs = {t.name: dict(t.output_schema) for t in tools if t.output_schema}
                engine = ChaosEngine(
                    specs, chosen, seed=seed, recorder=recorder, target=target, outputs=outputs
                )
                episode = engine.episode(arm, model=model, live=not per_session)
                proxy = ChaosProxy(link, tools, engine, episode, per_session=per_session)
                try:
                    yield proxy
                finally:
                    proxy.close()
            finally:
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


STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name)
)
"""What stops a proxy at once (SIGHUP: the terminal or host that started it went away)."""


class _StdinLines:
    """The lines of this process's stdin, read by a daemon thread from the descriptor itself.

    The SDK's stdio transport reads stdin in a worker thread that cannot be interrupted,
    so a signal would wait for the client's next line (Ctrl-C hung the proxy). A daemon
    thread reading fd 0 directly (no buffered file whose lock shutdown would need) never
    holds the process back, and :meth:`end` makes the stream end as if stdin had closed.
    """

    def __init__(self) -> None:
        self._send, self._receive = anyio.create_memory_object_stream[str](16)
        self.outbox: _Outbox | None = None
        """Where the refusal of a line that is no JSON-RPC message is written."""

    def start(self) -> None:
        token = anyio.lowlevel.current_token()
        threading.Thread(
            target=self._read, args=(token,), name="toolchaos-stdin", daemon=True
        ).start()

    def _read(self, token: anyio.lowlevel.EventLoopToken) -> None:
        pending = b""
        try:
            while chunk := os.read(0, 65536):
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    anyio.from_thread.run(
                        self._send.send, line.decode("utf-8", "replace"), token=token
                    )
            if pending:
                anyio.from_thread.run(
                    self._send.send, pending.decode("utf-8", "replace"), token=token
                )
            anyio.from_thread.run_sync(self._send.close, token=token)
        except Exception:  # the loop has closed the stream or ended: nobody reads any more
            return

    def end(self) -> None:
        """End the stream (what stdin's end would do)."""
        self._send.close()

    def __bool__(self) -> bool:
        return True

    async def __aiter__(self) -> AsyncIterator[str]:
        async with self._receive:
            async for line in self._receive:
                if not line.strip():
                    continue
                refusal = _refusal(line)
                if refusal is None:
                    yield line + "\n"
                elif self.outbox is not None:
                    await self.outbox.send(SessionMessage(refusal))


def _refusal(line: str) -> types.JSONRPCError | None:
    """The JSON-RPC error for a line that is not a JSON-RPC message (None: it is one).

    -32700 for a line that is not JSON, -32600 for JSON that is no JSON-RPC message (with
    the request's id when it has a usable one), as JSON-RPC 2.0 says; the SDK would drop
    either in silence, and the client would wait for an answer forever.
    """
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return _error(
            None, PARSE_ERROR, f"Parse error: {exc.msg} (line {exc.lineno} column {exc.colno})"
        )
    try:
        types.jsonrpc_message_adapter.validate_python(data, by_name=False)
    except ValueError:
        found = data.get("id") if isinstance(data, dict) else None
        request_id = found if isinstance(found, str | int) and not isinstance(found, bool) else None
        return _error(request_id, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")
    return None


def _error(request_id: types.RequestId | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(
        jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message)
    )


class _Outbox:
    """The server's write stream, telling the proxy what has been sent."""

    def __init__(self, inner: Any, proxy: ChaosProxy) -> None:
        self.inner = inner
        self.proxy = proxy

    async def send(self, item: SessionMessage, /) -> None:
        await self.inner.send(item)
        self.proxy.answered(item)

    async def aclose(self) -> None:
        await self.inner.aclose()

    async def __aenter__(self) -> _Outbox:
        await self.inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self.inner.__aexit__(*exc)  # type: ignore[no-any-return]


class _OneLineUpstreamNoise(logging.Filter):
    """The mcp client logs an upstream's non-JSON-RPC line with a traceback: say it in one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            errors = getattr(error, "errors", None)
            found = errors()[0].get("input") if callable(errors) else None
            line = f": {str(found)[:200]!r}" if found is not None else ""
            record.msg = f"toolchaos proxy: the upstream wrote a line that is not JSON-RPC{line}"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


def quiet_upstream_noise() -> None:
    """Make the mcp stdio client's reports of a malformed upstream line one line each."""
    logger = logging.getLogger("mcp.client.stdio")
    if not any(isinstance(f, _OneLineUpstreamNoise) for f in logger.filters):
        logger.addFilter(_OneLineUpstreamNoise())


async def serve_stdio(
    upstream: Upstream,
    plan: str | Path | HazardPlan | dict[str, Any],
    **options: Any,
) -> int:
    """Serve the proxy over this process's stdin/stdout until the client disconnects.

    SIGTERM, SIGHUP and SIGINT stop it at once (every answered call is already stored);
    an upstream that is dead for good stops it after the call it failed is answered.

    Returns:
        The exit code: 0 when the client disconnected, 1 when the upstream was lost,
        128 + the signal's number when a signal stopped it.
    """
    from mcp.server.stdio import stdio_server

    quiet_upstream_noise()
    stdin = _StdinLines()
    stopped_by: list[int] = []
    async with open_proxy(upstream, plan, **options) as proxy, anyio.create_task_group() as group:

        async def on_signal() -> None:
            with anyio.open_signal_receiver(*STOP_SIGNALS) as signals:
                async for signum in signals:
                    stopped_by.append(signum)
                    _say(f"stopped by {signal.Signals(signum).name}")
                    group.cancel_scope.cancel()  # the transport's tasks too: they are inside
                    return

        async def on_lost() -> None:
            await proxy.lost.wait()
            stdin.end()  # the server ends as at stdin's end, its answers written

        if sys.platform != "win32":  # the event loop has no signal handlers there
            group.start_soon(on_signal)
        group.start_soon(on_lost)
        stdin.start()
        async with stdio_server(stdin=stdin) as (read, write):  # type: ignore[arg-type]
            options_ = proxy.server.create_initialization_options()
            stdin.outbox = _Outbox(write, proxy)
            await proxy.server.run(read, stdin.outbox, options_)
        group.cancel_scope.cancel()
    if stopped_by:
        return 128 + stopped_by[0]
    return proxy.exit_code


async def serve_http(
    upstream: Upstream,
    plan: str | Path | HazardPlan | dict[str, Any],
    *,
    port: int,
    host: str = "127.0.0.1",
    **options: Any,
) -> int:
    """Serve the proxy as a streamable-HTTP MCP server on ``http://HOST:PORT/mcp``.

    One upstream connection serves every client session; each session is its own episode
    (its own key in the store), begun at its first call and closed by its verdict
    (:data:`VERDICT_METHOD`) or when the proxy stops. SIGTERM and SIGINT stop it after the
    requests in flight are answered; an upstream dead for good stops it too.

    Returns:
        128 + the signal's number when a signal stopped it, 1 when the upstream was lost.
    """
    import uvicorn
    from mcp.server.streamable_http_manager import (
        StreamableHTTPASGIApp,
        StreamableHTTPSessionManager,
    )
    from starlette.applications import Starlette
    from starlette.routing import Route

    quiet_upstream_noise()
    async with open_proxy(upstream, plan, per_session=True, **options) as proxy:
        manager = StreamableHTTPSessionManager(app=proxy.server)

        @asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            async with manager.run():
                yield

        endpoint = StreamableHTTPASGIApp(manager)
        app = Starlette(routes=[Route("/mcp", endpoint=endpoint)], lifespan=lifespan)
        config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
        web = _uvicorn_server()(config)
        stopped_by: list[int] = []

        async def on_signal() -> None:
            with anyio.open_signal_receiver(*STOP_SIGNALS) as signals:
                async for signum in signals:
                    stopped_by.append(signum)
                    _say(f"stopped by {signal.Signals(signum).name}")
                    web.should_exit = True  # the requests in flight are answered first
                    return

        async def announce() -> None:
            while not web.started:
                await anyio.sleep(0.02)
            _say(f"serving http://{host}:{port}/mcp")

        async def on_gone() -> None:
            await proxy.gone.wait()
            web.should_exit = True

        async with anyio.create_task_group() as group:
            group.start_soon(announce)
            group.start_soon(on_gone)
            if sys.platform != "win32":
                group.start_soon(on_signal)
            await web.serve()
            group.cancel_scope.cancel()
    if stopped_by:
        return 128 + stopped_by[0]
    return proxy.exit_code


def _uvicorn_server() -> type[Any]:
    import uvicorn

    class Web(uvicorn.Server):
        """A uvicorn server leaving the signals to the proxy (which stores, then stops it)."""

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    return Web
