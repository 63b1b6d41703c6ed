"""A local HTTP server that speaks the OpenAI chat-completions API, with scripted replies.

Tests and benchmarks point the official ``openai`` SDK (or any HTTP client) at
``FakeOpenAI.base_url`` instead of the real service. What the server answers is decided by a
``Responder`` supplied by the test; transport and model faults are injected per reply or at a
seeded rate with a ``FaultPlan``. Only the standard library is used, and the wire format
follows the real API closely enough that the SDK parses the replies, maps the error statuses
to its exception classes and honours ``Retry-After``.

Run ``python -m toolchaos.testing.fake_openai --port 8099 --delay 0.2`` to serve a responder
that always answers with a short text from a separate process.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import signal
import socket
import struct
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import FrameType, TracebackType
from typing import Any, Final, Literal, Self, get_args
from urllib.parse import urlsplit

__all__ = [
    "CREATED",
    "FAULT_KINDS",
    "FakeOpenAI",
    "FaultKind",
    "FaultPlan",
    "Reply",
    "Responder",
    "echo_tool_then_answer",
    "estimate_tokens",
    "main",
    "scripted",
]

FaultKind = Literal[
    "429",
    "429-no-retry-after",
    "500",
    "503",
    "reset",
    "timeout",
    "malformed",
    "truncated",
    "empty-choices",
    "bad-tool-args",
]
"""A fault the server can inject in place of (or into) a normal reply."""

FAULT_KINDS: Final[tuple[FaultKind, ...]] = get_args(FaultKind)
"""Every fault kind, in a fixed order."""

CREATED: Final[int] = 1_700_000_000
"""The ``created`` timestamp of every completion: fixed so that replies are reproducible."""

_MALFORMED_BODY: Final[bytes] = b'{"id": "chatcmpl-?", "object": chat.completion, <oops>'
_DISCONNECTS: Final = (BrokenPipeError, ConnectionError, TimeoutError)


@dataclass(frozen=True)
class Reply:
    """What the fake model answers to one chat-completions request.

    Attributes:
        content: The assistant's text, or None (typical alongside tool calls).
        tool_calls: ``(function name, arguments as JSON text)`` pairs; the server gives them
            deterministic ids ``call_<request index>_<k>``.
        reasoning: Sent as ``reasoning_content`` on the message, as some servers do.
        fault: A fault to inject for this request instead of answering normally.
    """

    content: str | None = None
    tool_calls: list[tuple[str, str]] = field(default_factory=list)
    reasoning: str | None = None
    fault: FaultKind | None = None

    def __post_init__(self) -> None:
        if self.fault is not None and self.fault not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {self.fault!r}; expected one of {FAULT_KINDS}")

    @classmethod
    def call(
        cls,
        name: str,
        arguments: Mapping[str, Any] | str | None = None,
        *,
        content: str | None = None,
    ) -> Self:
        """Builds a reply with a single tool call.

        Args:
            name: The function to call.
            arguments: The call's arguments, as a mapping (serialised to JSON) or as JSON
                text sent verbatim; None means no arguments (``{}``).
            content: Optional text sent alongside the call.

        Returns:
            The reply.
        """
        if arguments is None:
            arguments = {}
        text = arguments if isinstance(arguments, str) else json.dumps(dict(arguments))
        return cls(content=content, tool_calls=[(name, text)])


Responder = Callable[[dict[str, Any], int], Reply]
"""Decides the reply to a request: ``(request body, request index) -> Reply``.

The request index counts every chat-completions request the server has parsed, from 0,
including ones answered with a fault or rejected (wrong key, unknown model).
"""


def scripted(replies: Sequence[Reply]) -> Responder:
    """Answers the i-th request with the i-th reply; the last reply repeats.

    Args:
        replies: The replies in order; at least one.

    Returns:
        The responder.

    Raises:
        ValueError: If ``replies`` is empty.
    """
    if not replies:
        raise ValueError("scripted() needs at least one reply")
    script = tuple(replies)

    def respond(request_body: dict[str, Any], request_index: int) -> Reply:
        del request_body
        return script[min(request_index, len(script) - 1)]

    return respond


def echo_tool_then_answer(
    name: str | None = None,
    arguments: Mapping[str, Any] | str | None = None,
    answer: str | None = None,
) -> Responder:
    """Calls a tool, then answers once the tool's result is in the conversation.

    The decision is read from the request, not from the request index, so one server can
    serve many conversations at once: if the last message has role ``tool`` the reply is
    text, otherwise it is the tool call.

    Args:
        name: The tool to call; None means the first tool the request offers.
        arguments: The call's arguments, as a mapping or JSON text; None means ``{}``.
        answer: The final text; None echoes the content of the last tool message.

    Returns:
        The responder.
    """

    def respond(request_body: dict[str, Any], request_index: int) -> Reply:
        del request_index
        messages = request_body.get("messages") or []
        last = messages[-1] if messages else {}
        if isinstance(last, dict) and last.get("role") == "tool":
            return Reply(content=answer if answer is not None else _content_text(last))
        tool_name = name if name is not None else _first_tool_name(request_body)
        return Reply.call(tool_name, arguments)

    return respond


@dataclass(frozen=True)
class FaultPlan:
    """Injects faults into a fraction of requests, drawn from a seeded generator.

    Each request draws once from the generator; with probability ``rate`` it gets a fault
    chosen uniformly from ``kinds``. The same seed gives the same fault for each request
    index, whatever the timing of the requests.

    Attributes:
        rate: Probability that a request gets a fault, in [0, 1].
        seed: Seed of the ``random.Random`` the server draws from.
        kinds: The fault kinds to choose from; at least one.
    """

    rate: float
    seed: int
    kinds: Sequence[FaultKind]

    def __post_init__(self) -> None:
        if not 0.0 <= self.rate <= 1.0:
            raise ValueError(f"fault rate must be in [0, 1], got {self.rate}")
        if not self.kinds:
            raise ValueError("a FaultPlan needs at least one fault kind")
        unknown = [kind for kind in self.kinds if kind not in FAULT_KINDS]
        if unknown:
            raise ValueError(f"unknown fault kinds {unknown}; expected some of {FAULT_KINDS}")

    def draw(self, rng: random.Random) -> FaultKind | None:
        """Draws the fault (or None) for the next request.

        Args:
            rng: The generator, seeded with ``self.seed`` and advanced once per request.

        Returns:
            The fault kind, or None for a normal reply.
        """
        if rng.random() < self.rate:
            return rng.choice(list(self.kinds))
        return None

    def sequence(self, n: int) -> list[FaultKind | None]:
        """Returns the faults the server will inject into its first ``n`` requests.

        Args:
            n: How many requests.

        Returns:
            One entry per request index.
        """
        rng = random.Random(self.seed)
        return [self.draw(rng) for _ in range(n)]


def estimate_tokens(text: str) -> int:
    """Estimates a token count as one token per four characters, rounded up.

    Args:
        text: The text.

    Returns:
        The estimate; 0 for empty text.
    """
    return (len(text) + 3) // 4


class FakeOpenAI:
    """An OpenAI-compatible chat-completions server on 127.0.0.1, for tests and benchmarks.

    Example:
        >>> with FakeOpenAI(scripted([Reply(content="hi")]), models=["m1"]) as server:
        ...     client = openai.OpenAI(base_url=server.base_url, api_key="x")

    Endpoints: ``POST /v1/chat/completions``, ``GET /v1/models`` and
    ``GET /v1/models/{id}``. Every request is served on its own thread.
    """

    def __init__(
        self,
        responder: Responder,
        *,
        models: Sequence[str] | None = None,
        api_key: str | None = None,
        delay_s: float = 0.0,
        faults: FaultPlan | None = None,
        timeout_s: float = 5.0,
        port: int = 0,
    ) -> None:
        """Configures the server; ``start()`` (or ``with``) binds and serves it.

        Args:
            responder: Decides the reply to each chat-completions request.
            models: Model names listed by ``/v1/models``; a chat request for another model
                gets 404. None accepts any model and lists none.
            api_key: If set, requests must carry ``Authorization: Bearer <api_key>`` or get
                401.
            delay_s: Seconds to wait before answering each chat-completions request.
            faults: Faults injected at a seeded rate, on top of those in the replies.
            timeout_s: How long the ``"timeout"`` fault waits before answering; set it
                longer than the client's timeout.
            port: TCP port to bind; 0 picks a free one.

        Raises:
            ValueError: If ``delay_s`` or ``timeout_s`` is negative.
        """
        if delay_s < 0 or timeout_s < 0:
            raise ValueError("delay_s and timeout_s must be non-negative")
        self.responder = responder
        self.models = tuple(models) if models is not None else None
        self.api_key = api_key
        self.delay_s = delay_s
        self.faults = faults
        self.timeout_s = timeout_s
        self._port = port
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._rng = random.Random(faults.seed) if faults is not None else None
        self._requests: list[dict[str, Any]] = []
        self._injected: list[FaultKind | None] = []
        self._errors: list[str] = []
        self._connections: set[socket.socket] = set()
        self._active = 0
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> Self:
        """Binds the port and starts serving in a daemon thread.

        Returns:
            The server itself.

        Raises:
            RuntimeError: If the server was already started.
        """
        if self._httpd is not None or self._stopping.is_set():
            raise RuntimeError("a FakeOpenAI server can be started only once")
        self._httpd = _Server(self, ("127.0.0.1", self._port))
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"fake-openai:{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stops serving, closes open connections and waits for in-flight handlers.

        Requests still waiting (``delay_s`` or the ``"timeout"`` fault) are woken and
        answered at once; their clients may already be gone. Safe to call twice.

        Args:
            timeout: Upper bound in seconds on the wait for handler threads.
        """
        httpd = self._httpd
        with self._lock:
            self._stopping.set()
            connections = list(self._connections)
        if httpd is None:
            return
        httpd.shutdown()
        httpd.server_close()
        for connection in connections:
            _shutdown_quietly(connection)
        if self._thread is not None:
            self._thread.join(timeout)
        with self._idle:
            self._idle.wait_for(lambda: self._active == 0, timeout=timeout)
        self._httpd = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    # -- what tests look at ----------------------------------------------------------------

    @property
    def port(self) -> int:
        """The bound TCP port; RuntimeError if the server is not running."""
        if self._httpd is None:
            raise RuntimeError("the server is not running; call start() or use `with`")
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """The server root, e.g. ``http://127.0.0.1:53211``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """The API base URL to give a client, e.g. ``http://127.0.0.1:53211/v1``."""
        return f"{self.url}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        """A snapshot of the chat-completions request bodies received, in arrival order."""
        with self._lock:
            return list(self._requests)

    @property
    def count(self) -> int:
        """How many chat-completions requests were received."""
        with self._lock:
            return len(self._requests)

    @property
    def injected_faults(self) -> list[FaultKind | None]:
        """The fault applied to each request index (None for a normal reply)."""
        with self._lock:
            return list(self._injected)

    @property
    def errors(self) -> list[str]:
        """Unexpected handler errors (a raising responder, a server bug); disconnects excluded."""
        with self._lock:
            return list(self._errors)

    # -- used by the handler ---------------------------------------------------------------

    def _record(self, body: dict[str, Any]) -> tuple[int, FaultKind | None]:
        with self._lock:
            index = len(self._requests)
            self._requests.append(body)
            planned = None
            if self.faults is not None and self._rng is not None:
                planned = self.faults.draw(self._rng)
            self._injected.append(planned)
            return index, planned

    def _set_applied_fault(self, index: int, fault: FaultKind | None) -> None:
        with self._lock:
            self._injected[index] = fault

    def _record_error(self, message: str) -> None:
        with self._lock:
            self._errors.append(message)

    def _open(self, connection: socket.socket) -> None:
        with self._lock:
            self._active += 1
            self._connections.add(connection)
            stopping = self._stopping.is_set()
        if stopping:
            _shutdown_quietly(connection)

    def _close(self, connection: socket.socket) -> None:
        with self._idle:
            self._active -= 1
            self._connections.discard(connection)
            self._idle.notify_all()

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024

    def __init__(self, owner: FakeOpenAI, address: tuple[str, int]) -> None:
        self.owner = owner
        super().__init__(address, _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, _DISCONNECTS):
            return
        self.owner._record_error(f"{type(exc).__name__}: {exc}")


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    server_version = "FakeOpenAI/1.0"
    sys_version = ""
    timeout = 120.0
    # TCP_NODELAY, as real API servers set it: the headers and the body go out in two
    # writes, and with Nagle's algorithm the second waits for the client's delayed ACK
    # (about 40 ms on Linux), which would add that much to every response
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        """Logs nothing: the fake must keep test and benchmark output clean."""

    def setup(self) -> None:
        super().setup()
        self.server.owner._open(self.connection)

    def finish(self) -> None:
        try:
            super().finish()
        except OSError:
            pass
        finally:
            self.server.owner._close(self.connection)

    # -- routing ---------------------------------------------------------------------------

    def do_GET(self) -> None:
        """Serves the model list and single-model lookups."""
        self._guarded(self._get)

    def do_POST(self) -> None:
        """Serves chat completions."""
        self._guarded(self._post)

    def _guarded(self, handle: Callable[[], None]) -> None:
        try:
            handle()
        except _DISCONNECTS:
            self.close_connection = True

    def _get(self) -> None:
        owner = self.server.owner
        path = urlsplit(self.path).path.rstrip("/")
        if not self._authorized():
            return
        models = owner.models or ()
        if path == "/v1/models":
            data = [_model_object(name) for name in models]
            self._send_json(200, {"object": "list", "data": data})
        elif path.startswith("/v1/models/") and path.removeprefix("/v1/models/") in models:
            self._send_json(200, _model_object(path.removeprefix("/v1/models/")))
        elif path.startswith("/v1/models/"):
            self._model_not_found(path.removeprefix("/v1/models/"))
        else:
            self._not_found()

    def _post(self) -> None:
        owner = self.server.owner
        raw = self._read_body()
        if raw is None:
            return
        path = urlsplit(self.path).path.rstrip("/")
        if path != "/v1/chat/completions":
            self._not_found()
            return
        try:
            body = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError):
            body = None
        if not isinstance(body, dict):
            if self._authorized():
                self._send_error(400, "We could not parse the JSON body of your request.")
            return
        index, planned = owner._record(body)
        if not self._authorized():
            owner._set_applied_fault(index, None)
            return
        model = body.get("model")
        if not isinstance(model, str) or not isinstance(body.get("messages"), list):
            owner._set_applied_fault(index, None)
            self._send_error(400, "A chat completion needs a 'model' string and 'messages' list.")
            return
        if owner.models is not None and model not in owner.models:
            owner._set_applied_fault(index, None)
            self._model_not_found(model)
            return
        if body.get("stream"):
            owner._set_applied_fault(index, None)
            self._send_error(400, "FakeOpenAI does not implement streaming (stream=true).")
            return
        try:
            reply = owner.responder(body, index)
        except Exception as exc:
            owner._set_applied_fault(index, None)
            owner._record_error(f"responder raised {type(exc).__name__}: {exc}")
            self._send_error(500, f"The fake's responder raised {type(exc).__name__}: {exc}")
            return
        fault = reply.fault if reply.fault is not None else planned
        owner._set_applied_fault(index, fault)
        owner._wait(owner.delay_s)
        self._answer(body, index, reply, fault)

    # -- replies and faults ----------------------------------------------------------------

    def _answer(
        self, body: dict[str, Any], index: int, reply: Reply, fault: FaultKind | None
    ) -> None:
        owner = self.server.owner
        if fault == "429":
            self._send_error(
                429,
                "Rate limit reached for requests. Please try again in 1s.",
                error_type="requests",
                code="rate_limit_exceeded",
                headers={"Retry-After": "1"},
            )
        elif fault == "429-no-retry-after":
            self._send_error(
                429,
                "Rate limit reached for requests.",
                error_type="requests",
                code="rate_limit_exceeded",
            )
        elif fault == "500":
            self._send_error(
                500,
                "The server had an error while processing your request. Sorry about that!",
                error_type="server_error",
            )
        elif fault == "503":
            self._send_error(
                503,
                "The engine is currently overloaded, please try again later.",
                error_type="server_error",
            )
        elif fault == "reset":
            self._reset()
        elif fault == "malformed":
            self._send_bytes(200, _MALFORMED_BODY)
        else:
            if fault == "timeout":
                owner._wait(owner.timeout_s)
            if fault == "bad-tool-args":
                reply = _with_bad_tool_args(reply, body)
            completion = _completion(body, index, reply, empty=fault == "empty-choices")
            payload = json.dumps(completion).encode()
            if fault == "truncated":
                payload = payload[: len(payload) // 2]
            self._send_bytes(200, payload, {"x-request-id": f"req_{index}"})

    def _reset(self) -> None:
        """Closes the connection without a response; SO_LINGER 0 makes the close an RST."""
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        # The socket's fd is released only when rfile (a makefile() reference) closes too.
        self.rfile.close()
        self.connection.close()

    # -- HTTP plumbing ---------------------------------------------------------------------

    def _read_body(self) -> bytes | None:
        length_header = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            return self._read_chunked()
        try:
            length = int(length_header) if length_header is not None else 0
        except ValueError:
            length = -1
        if length < 0:
            self.close_connection = True
            self._send_error(400, "Invalid Content-Length header.")
            return None
        return self.rfile.read(length)

    def _read_chunked(self) -> bytes:
        parts: list[bytes] = []
        while True:
            size_line = self.rfile.readline(65537)
            size = int(size_line.split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(parts)
            parts.append(self.rfile.read(size))
            self.rfile.readline(65537)

    def _authorized(self) -> bool:
        expected = self.server.owner.api_key
        if expected is None:
            return True
        header = self.headers.get("Authorization", "")
        if header == f"Bearer {expected}":
            return True
        if header:
            message = "Incorrect API key provided. You can find your API key in your settings."
        else:
            message = "You didn't provide an API key (Authorization: Bearer ...)."
        self._send_error(401, message, code="invalid_api_key")
        return False

    def _model_not_found(self, model: str) -> None:
        self._send_error(404, f"The model '{model}' does not exist", code="model_not_found")

    def _not_found(self) -> None:
        self._send_error(404, f"Invalid URL ({self.command} {self.path})")

    def _send_error(
        self,
        status: int,
        message: str,
        *,
        error_type: str = "invalid_request_error",
        code: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        error = {"message": message, "type": error_type, "param": None, "code": code}
        self._send_bytes(status, json.dumps({"error": error}).encode(), headers)

    def _send_json(self, status: int, payload: Mapping[str, Any]) -> None:
        self._send_bytes(status, json.dumps(payload).encode())

    def _send_bytes(
        self, status: int, payload: bytes, headers: Mapping[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(payload)


# -- wire format ---------------------------------------------------------------------------


def _completion(
    body: dict[str, Any], index: int, reply: Reply, *, empty: bool = False
) -> dict[str, Any]:
    """Builds the chat.completion object for one reply."""
    prompt_text = "".join(_message_text(m) for m in body["messages"] if isinstance(m, dict))
    reply_text = "".join(
        [reply.content or "", reply.reasoning or ""]
        + [name + arguments for name, arguments in reply.tool_calls]
    )
    prompt_tokens = estimate_tokens(prompt_text)
    completion_tokens = 0 if empty else estimate_tokens(reply_text)
    message: dict[str, Any] = {"role": "assistant", "content": reply.content, "refusal": None}
    if reply.reasoning is not None:
        message["reasoning_content"] = reply.reasoning
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": f"call_{index}_{k}",
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
            for k, (name, arguments) in enumerate(reply.tool_calls)
        ]
    choice = {
        "index": 0,
        "message": message,
        "logprobs": None,
        "finish_reason": "tool_calls" if reply.tool_calls else "stop",
    }
    return {
        "id": f"chatcmpl-{index}",
        "object": "chat.completion",
        "created": CREATED,
        "model": body["model"],
        "choices": [] if empty else [choice],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
        "system_fingerprint": "fp_fake",
    }


def _with_bad_tool_args(reply: Reply, body: dict[str, Any]) -> Reply:
    """Returns the reply with its first tool call's arguments made invalid JSON."""
    if not reply.tool_calls:
        return Reply(
            content=reply.content,
            tool_calls=[(_first_tool_name(body), '{"arguments": ')],
            reasoning=reply.reasoning,
        )
    name, arguments = reply.tool_calls[0]
    # Cutting the closing brace is the typical model mistake; the fallbacks cover odd inputs.
    for broken in (arguments[:-1], "{" + arguments, '{"'):
        if not _is_json(broken):
            break
    return Reply(
        content=reply.content,
        tool_calls=[(name, broken), *reply.tool_calls[1:]],
        reasoning=reply.reasoning,
    )


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    return True


def _content_text(message: Mapping[str, Any]) -> str:
    """The text of a message's content, whether a string or a list of content parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def _message_text(message: Mapping[str, Any]) -> str:
    """The characters of a request message that count towards the prompt-token estimate."""
    text = _content_text(message)
    for call in message.get("tool_calls") or []:
        function = call.get("function", {}) if isinstance(call, dict) else {}
        text += str(function.get("name", "")) + str(function.get("arguments", ""))
    return text


def _first_tool_name(body: Mapping[str, Any]) -> str:
    for tool in body.get("tools") or []:
        if isinstance(tool, dict) and isinstance(tool.get("function"), dict):
            return str(tool["function"].get("name", "unknown_tool"))
    return "unknown_tool"


def _model_object(name: str) -> dict[str, Any]:
    return {"id": name, "object": "model", "created": CREATED, "owned_by": "fake"}


def _shutdown_quietly(connection: socket.socket) -> None:
    with contextlib.suppress(OSError):
        connection.shutdown(socket.SHUT_RDWR)


# -- command line --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Serves a fake that always answers with a short text, until SIGINT or SIGTERM.

    Prints the base URL on stdout once listening, so a parent process can wait for it.

    Args:
        argv: Command-line arguments; None reads ``sys.argv``.

    Returns:
        The exit status.
    """
    parser = argparse.ArgumentParser(
        prog="python -m toolchaos.testing.fake_openai",
        description="Serve a fake OpenAI chat-completions API on 127.0.0.1.",
    )
    parser.add_argument("--port", type=int, default=8099, help="TCP port; 0 picks a free one")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before each reply")
    parser.add_argument("--text", default="OK.", help="the text every reply carries")
    parser.add_argument("--model", action="append", help="accepted model name (repeatable)")
    parser.add_argument("--api-key", default=None, help="require this bearer key")
    args = parser.parse_args(argv)

    done = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        del signum, frame
        done.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    server = FakeOpenAI(
        scripted([Reply(content=args.text)]),
        models=args.model,
        api_key=args.api_key,
        delay_s=args.delay,
        port=args.port,
    )
    with server:
        print(server.base_url, flush=True)
        while not done.wait(0.5):
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
