"""The ``anthropic/<model>`` provider (optional extra: ``pip install 'toolchaos[anthropic]'``).

Same contract as the OpenAI-compatible client: our retries and cache, keys only from the
environment (ANTHROPIC_API_KEY), fatal errors stop the run with one sentence.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import anthropic

from toolchaos.core.errors import BadInput, HarnessFault
from toolchaos.core.types import Message, ToolCall, Usage
from toolchaos.models.base import (
    ModelRequest,
    ModelResponse,
    SharedClientFactory,
    cached_with_retries,
)
from toolchaos.models.config import ModelEntry
from toolchaos.models.transport import (
    ModelFatal,
    ResponseCache,
    RetryPolicy,
    Transient,
    redact,
    retry_after,
)


def to_anthropic(messages: list[Message]) -> tuple[str, list[dict[str, Any]]]:
    """Split off the system prompt and convert the turns to content blocks."""
    system = "\n\n".join(m.content or "" for m in messages if m.role == "system")
    turns: list[dict[str, Any]] = []

    def push(role: str, block: dict[str, Any]) -> None:
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].append(block)
        else:
            turns.append({"role": role, "content": [block]})

    for m in messages:
        if m.role == "user":
            push("user", {"type": "text", "text": m.content or ""})
        elif m.role == "assistant":
            if m.content:
                push("assistant", {"type": "text", "text": m.content})
            for call in m.tool_calls:
                try:
                    arguments = json.loads(call.arguments)
                except json.JSONDecodeError:
                    arguments = {"_unparsed": call.arguments}
                push(
                    "assistant",
                    {"type": "tool_use", "id": call.id, "name": call.name, "input": arguments},
                )
        elif m.role == "tool":
            push(
                "user",
                {"type": "tool_result", "tool_use_id": m.tool_call_id, "content": m.content or ""},
            )
    return system, turns


class AnthropicClient:
    """A Claude model behind the Messages API."""

    def __init__(
        self, entry: ModelEntry, model: str, api_key: str, cache: ResponseCache | None
    ) -> None:
        self.entry = entry
        self.model = model
        self.api_key = api_key
        self.cache = cache
        self.policy = RetryPolicy(max_retries=entry.max_retries, base_s=entry.backoff_s)
        url = entry.base_urls[0] if entry.base_urls else None
        self.client = anthropic.AsyncAnthropic(
            api_key=api_key, base_url=url, max_retries=0, timeout=entry.timeout_s
        )
        self.limit = asyncio.Semaphore(entry.concurrency)

    def body(self, request: ModelRequest) -> dict[str, Any]:
        """The Messages API request body."""
        system, turns = to_anthropic(request.messages)
        body: dict[str, Any] = {
            "model": self.model,
            "system": system,
            "messages": turns,
            "max_tokens": self.entry.max_tokens or request.max_tokens,
            "temperature": self.entry.temperature
            if self.entry.temperature is not None
            else request.temperature,
        }
        if request.tools and request.tool_choice != "none":
            body["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters}
                for t in request.tools
            ]
            if request.tool_choice == "required":
                body["tool_choice"] = {"type": "any"}
            elif request.tool_choice != "auto":
                body["tool_choice"] = {"type": "tool", "name": request.tool_choice}
        return body

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Ask the API (or the cache) for the next assistant message."""
        body = self.body(request)
        return await cached_with_retries(
            self.cache,
            {"spec": self.entry.spec, "body": body},
            lambda: self._send(body),
            self.policy,
        )

    async def _send(self, body: dict[str, Any]) -> ModelResponse:
        async with self.limit:
            loop = asyncio.get_running_loop()
            start = loop.time()
            try:
                reply = await self.client.messages.create(**body)
            except anthropic.AuthenticationError:
                raise ModelFatal("Anthropic rejected the API key in $ANTHROPIC_API_KEY") from None
            except anthropic.NotFoundError:
                raise ModelFatal(f"model {self.model!r} is not available from Anthropic") from None
            except anthropic.RateLimitError as exc:
                raise Transient("429 rate limited", retry_after(exc.response.headers)) from None
            except anthropic.BadRequestError as exc:
                raise HarnessFault(f"request rejected: {redact(str(exc), self.api_key)}") from None
            except anthropic.APIStatusError as exc:
                if exc.status_code >= 500:
                    raise Transient(
                        f"HTTP {exc.status_code}", retry_after(exc.response.headers)
                    ) from None
                raise HarnessFault(f"HTTP {exc.status_code}") from None
            except (anthropic.APITimeoutError, anthropic.APIConnectionError) as exc:
                raise Transient(f"connection problem: {type(exc).__name__}") from None
            latency = loop.time() - start
        text, calls, reasoning = [], [], []
        for block in reply.content:
            if block.type == "text":
                text.append(block.text)
            elif block.type == "tool_use":
                calls.append(
                    ToolCall(id=block.id, name=block.name, arguments=json.dumps(block.input))
                )
            elif block.type == "thinking":
                reasoning.append(getattr(block, "thinking", ""))
        usage = Usage(
            input_tokens=reply.usage.input_tokens,
            output_tokens=reply.usage.output_tokens,
            latency_s=round(latency, 4),
            calls=1,
        )
        message = Message(
            role="assistant",
            content="".join(text) or None,
            tool_calls=calls,
            reasoning="\n".join(reasoning) or None,
        )
        served = getattr(reply, "model", "")
        return ModelResponse(
            message=message,
            usage=usage,
            finish_reason=reply.stop_reason or "stop",
            model=served if isinstance(served, str) else "",
        )


class AnthropicFactory(SharedClientFactory):
    """Builds the shared client of one ``anthropic/<model>``."""

    def __init__(self, name: str, entry: ModelEntry, cache: ResponseCache | None = None) -> None:
        self.spec = entry.spec
        variable = entry.api_key_env or "ANTHROPIC_API_KEY"
        key = os.environ.get(variable)
        if not key:
            raise BadInput(f"set {variable} in the environment to run {entry.spec}")
        self.client = AnthropicClient(entry, name, key, cache)


def make_factory(
    name: str, entry: ModelEntry, cache: ResponseCache | None = None
) -> AnthropicFactory:
    """Provider entry point for ``anthropic/<model>``."""
    return AnthropicFactory(name, entry, cache)
