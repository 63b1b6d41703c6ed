"""Clients for OpenAI and every OpenAI-compatible endpoint (vLLM, SGLang, llama.cpp, Ollama).

One official ``openai`` SDK client per base URL, used round-robin with a concurrency limit
per URL; our own retries (the SDK's are off) so that Retry-After, the harness/model split
and the cache behave the same for every provider. Keys come only from the environment.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import openai
from pydantic import ValidationError

from toolchaos.core.errors import BadInput, HarnessFault
from toolchaos.core.types import Message, ToolCall, Usage
from toolchaos.models.base import (
    ModelRequest,
    ModelResponse,
    SharedClientFactory,
    cached_with_retries,
)
from toolchaos.models.config import ModelEntry
from toolchaos.models.prompt_mode import parse_tool_calls, prompt_messages
from toolchaos.models.transport import (
    EndpointPool,
    ModelFatal,
    ResponseCache,
    RetryPolicy,
    Transient,
    redact,
    retry_after,
)

OPENAI_URL = "https://api.openai.com/v1"
CONNECTIONS_PER_POOL = 16


def to_openai_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """Our messages in the chat-completions wire format (reasoning is never sent back)."""
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "tool":
            out.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content or ""})
        elif m.role == "assistant" and m.tool_calls:
            out.append(
                {
                    "role": "assistant",
                    "content": m.content,
                    "tool_calls": [
                        {
                            "id": c.id,
                            "type": "function",
                            "function": {"name": c.name, "arguments": c.arguments},
                        }
                        for c in m.tool_calls
                    ],
                }
            )
        else:
            out.append({"role": m.role, "content": m.content or ""})
    return out


class OpenAICompatClient:
    """A model behind the chat-completions API.

    Args:
        entry: The model entry (spec, URLs, key variable, sampling, limits).
        model: The model name sent to the endpoint.
        api_key: The key read from the environment (or a placeholder for local servers).
        cache: Where responses are cached, if anywhere.
    """

    def __init__(
        self, entry: ModelEntry, model: str, api_key: str, cache: ResponseCache | None
    ) -> None:
        self.entry = entry
        self.model = model
        self.api_key = api_key
        self.cache = cache
        self.prompt_mode = bool(entry.prompt_mode)
        self.policy = RetryPolicy(max_retries=entry.max_retries, base_s=entry.backoff_s)
        self.pool = EndpointPool(entry.base_urls, entry.concurrency)
        # several small connection pools per URL: httpcore scans a pool on every request,
        # so one pool of 64 connections costs more than four of 16
        shards = max(1, -(-entry.concurrency // CONNECTIONS_PER_POOL))
        self.clients = {
            url: [
                openai.AsyncOpenAI(
                    base_url=url, api_key=api_key, max_retries=0, timeout=entry.timeout_s
                )
                for _ in range(shards)
            ]
            for url in entry.base_urls
        }
        self._turn = 0
        self.succeeded = False

    def body(self, request: ModelRequest) -> dict[str, Any]:
        """The request body sent to the endpoint."""
        messages = request.messages
        body: dict[str, Any] = {
            "model": self.model,
            "temperature": self.entry.temperature
            if self.entry.temperature is not None
            else request.temperature,
            "max_tokens": self.entry.max_tokens or request.max_tokens,
        }
        if request.seed is not None:
            body["seed"] = request.seed
        if self.prompt_mode:
            rendered = prompt_messages(messages, request.tools, request.tool_choice)
            body["messages"] = to_openai_messages(rendered)
        else:
            body["messages"] = to_openai_messages(messages)
            if request.tools:
                body["tools"] = [t.to_openai() for t in request.tools]
                choice = request.tool_choice
                if choice in ("auto", "none", "required"):
                    body["tool_choice"] = choice
                else:
                    body["tool_choice"] = {"type": "function", "function": {"name": choice}}
        return body

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Ask the endpoint (or the cache) for the next assistant message."""
        body = self.body(request)
        return await cached_with_retries(
            self.cache,
            {"spec": self.entry.spec, "body": body},
            lambda: self._send(body),
            self.policy,
        )

    async def _send(self, body: dict[str, Any]) -> ModelResponse:
        url, limit = self.pool.pick()
        async with limit:
            loop = asyncio.get_running_loop()
            start = loop.time()
            try:
                # the body is already in wire format: post it as it is and read the JSON
                # ourselves; the SDK's request transform and response models cost more CPU
                # a request than the rest of an episode (bench/README.md, runner)
                self._turn += 1
                pool = self.clients[url]
                text = await pool[self._turn % len(pool)].post(
                    "/chat/completions", body=body, cast_to=str
                )
                completion = json.loads(text)
            except openai.AuthenticationError as exc:
                where = f"${self.entry.api_key_env}" if self.entry.api_key_env else "no key"
                raise ModelFatal(
                    f"{url} rejected the API key ({where}): {self._why(exc)}"
                ) from None
            except openai.PermissionDeniedError as exc:
                raise ModelFatal(
                    f"{url} refused access to {self.model!r}: {self._why(exc)}"
                ) from None
            except openai.NotFoundError:
                raise ModelFatal(f"model {self.model!r} is not served at {url}") from None
            except openai.RateLimitError as exc:
                raise Transient(
                    f"{url}: 429 rate limited", retry_after(exc.response.headers)
                ) from None
            except openai.BadRequestError as exc:
                raise HarnessFault(f"{url} rejected the request: {self._why(exc)}") from None
            except openai.APIStatusError as exc:
                if exc.status_code >= 500 or exc.status_code in (408, 409):
                    raise Transient(
                        f"{url}: HTTP {exc.status_code}", retry_after(exc.response.headers)
                    ) from None
                raise HarnessFault(f"{url}: HTTP {exc.status_code}: {self._why(exc)}") from None
            except openai.APITimeoutError:
                raise Transient(f"{url}: request timed out") from None
            except openai.APIConnectionError as exc:
                if not self.succeeded and _refused(exc):
                    raise ModelFatal(f"cannot reach {url}: connection refused") from None
                raise Transient(f"{url}: connection failed: {exc}") from None
            except (openai.APIResponseValidationError, json.JSONDecodeError, ValidationError):
                raise Transient(f"{url}: malformed response body") from None
            latency = loop.time() - start
        if not isinstance(completion, dict):
            raise Transient(f"{url}: malformed response body")
        choices = completion.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise Transient(f"{url}: the response had no choices")
        self.succeeded = True
        return completion_response(completion, latency, prompt_mode=self.prompt_mode)

    def _why(self, exc: openai.APIStatusError) -> str:
        return redact(str(exc.message), self.api_key)


def completion_response(
    completion: dict[str, Any], latency: float, *, prompt_mode: bool, default_id: str = ""
) -> ModelResponse:
    """The assistant message of a chat-completions response body (parsed JSON).

    Args:
        completion: The response body; its first choice must be a dict.
        latency: Seconds the request took.
        prompt_mode: Parse tool calls from the text instead of ``tool_calls``.
        default_id: Stands in for a missing completion id in prompt-mode call ids.
    """
    choice = completion["choices"][0]
    raw = choice.get("message")
    raw = raw if isinstance(raw, dict) else {}
    content = raw.get("content") if isinstance(raw.get("content"), str) else None
    reasoning = raw.get("reasoning_content") or raw.get("reasoning")
    calls = []
    for i, c in enumerate(raw.get("tool_calls") or []):
        function = c.get("function") if isinstance(c, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            continue
        arguments = function.get("arguments")
        calls.append(
            ToolCall(
                id=str(c.get("id") or f"call_{i}"),
                name=function["name"],
                arguments=arguments if isinstance(arguments, str) and arguments else "{}",
            )
        )
    if prompt_mode and content:
        content, calls = parse_tool_calls(
            content, prefix=f"call_{completion.get('id', default_id)}"
        )
    usage = Usage(latency_s=round(latency, 4), calls=1)
    counts = completion.get("usage")
    if isinstance(counts, dict):
        usage.input_tokens = _count(counts.get("prompt_tokens"))
        usage.output_tokens = _count(counts.get("completion_tokens"))
        details = counts.get("prompt_tokens_details")
        if isinstance(details, dict):
            usage.cached_input_tokens = _count(details.get("cached_tokens"))
    message = Message(
        role="assistant",
        content=content or None,
        tool_calls=calls,
        reasoning=reasoning if isinstance(reasoning, str) else None,
    )
    finish = choice.get("finish_reason")
    served = completion.get("model")
    return ModelResponse(
        message=message,
        usage=usage,
        finish_reason=finish if isinstance(finish, str) else "stop",
        model=served if isinstance(served, str) else "",
    )


def _count(value: Any) -> int:
    """A token count from a response, 0 when missing or not a whole number."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _refused(exc: openai.APIConnectionError) -> bool:
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, ConnectionRefusedError):
            return True
        text = str(cause).lower()
        if "connection refused" in text or "connect call failed" in text:
            return True
        cause = cause.__cause__ or cause.__context__
    return False


class OpenAICompatFactory(SharedClientFactory):
    """Builds the shared client of one ``openai/`` or ``openai-compat/`` model."""

    def __init__(self, name: str, entry: ModelEntry, cache: ResponseCache | None = None) -> None:
        provider = entry.spec.split("/", 1)[0]
        self.spec = entry.spec
        if provider == "openai":
            entry = entry.model_copy(
                update={
                    "base_urls": entry.base_urls or [OPENAI_URL],
                    "api_key_env": entry.api_key_env or "OPENAI_API_KEY",
                }
            )
            key = os.environ.get(entry.api_key_env or "")
            if not key:
                raise BadInput(f"set {entry.api_key_env} in the environment to run {entry.spec}")
        else:
            if not entry.base_urls:
                raise BadInput(f"{entry.spec} needs --base-url (the endpoint's /v1 URL)")
            key = os.environ.get(entry.api_key_env or "OPENAI_API_KEY") or "not-needed"
        if entry.prompt_mode is None:
            entry = entry.model_copy(update={"prompt_mode": False})
        self.client = OpenAICompatClient(entry, name, key, cache)


def make_factory(
    name: str, entry: ModelEntry, cache: ResponseCache | None = None
) -> OpenAICompatFactory:
    """Provider entry point for ``openai/<model>`` and ``openai-compat/<model>``."""
    return OpenAICompatFactory(name, entry, cache)
