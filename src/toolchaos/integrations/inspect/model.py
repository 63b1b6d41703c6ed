"""Inspect's model as a toolchaos model client, and messages converted both ways."""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    Model,
)
from inspect_ai.tool import ToolCall as InspectToolCall
from inspect_ai.tool import ToolChoice, ToolFunction, ToolInfo, ToolParams

from toolchaos.core.errors import HarnessFault
from toolchaos.core.types import Message, ToolCall, ToolSpec, Usage
from toolchaos.models.base import ModelRequest, ModelResponse


def to_inspect_messages(messages: list[Message]) -> list[ChatMessage]:
    """Our conversation as Inspect chat messages (reasoning is never sent back)."""
    out: list[ChatMessage] = []
    for m in messages:
        text = m.content or ""
        if m.role == "system":
            out.append(ChatMessageSystem(content=text))
        elif m.role == "user":
            out.append(ChatMessageUser(content=text))
        elif m.role == "tool":
            out.append(ChatMessageTool(content=text, tool_call_id=m.tool_call_id, function=m.name))
        else:
            calls = [
                InspectToolCall(id=c.id, function=c.name, arguments=_arguments(c.arguments))
                for c in m.tool_calls
            ]
            out.append(ChatMessageAssistant(content=text, tool_calls=calls or None))
    return out


def from_inspect_messages(messages: list[ChatMessage]) -> list[Message]:
    """Inspect chat messages as our conversation (for a policy that reads Inspect's)."""
    out: list[Message] = []
    for m in messages:
        if isinstance(m, ChatMessageTool):
            out.append(
                Message(role="tool", content=m.text, tool_call_id=m.tool_call_id, name=m.function)
            )
        elif isinstance(m, ChatMessageAssistant):
            calls = [
                ToolCall(id=c.id, name=c.function, arguments=json.dumps(c.arguments))
                for c in m.tool_calls or []
            ]
            out.append(Message(role="assistant", content=m.text or None, tool_calls=calls))
        else:
            out.append(Message(role=m.role, content=m.text))
    return out


def _arguments(text: str) -> dict[str, Any]:
    try:
        found = json.loads(text)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def to_tool_info(spec: ToolSpec) -> ToolInfo:
    """One tool spec as Inspect describes a tool to its model."""
    return ToolInfo(
        name=spec.name,
        description=spec.description,
        parameters=ToolParams.model_validate(spec.parameters),
    )


def to_tool_choice(choice: str) -> ToolChoice:
    """Our tool choice (auto, none, required, or a tool's name) in Inspect's words."""
    named: dict[str, ToolChoice] = {"auto": "auto", "none": "none", "required": "any"}
    return named.get(choice) or ToolFunction(name=choice)


class InspectModelClient:
    """Asks Inspect's model (``get_model()`` in a solver) for the next assistant message.

    Inspect does the transport: its retries, rate limits, cache and model logging; what
    comes back is turned into our message, tool calls with their arguments as JSON text.
    """

    def __init__(self, model: Model) -> None:
        self.model = model

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Ask the model for the next message of ``request``."""
        output = await self.model.generate(
            to_inspect_messages(request.messages),
            tools=[to_tool_info(t) for t in request.tools],
            tool_choice=to_tool_choice(request.tool_choice) if request.tools else None,
            config=GenerateConfig(
                temperature=request.temperature, max_tokens=request.max_tokens, seed=request.seed
            ),
        )
        if output.error:
            raise HarnessFault(f"the Inspect model failed: {output.error}")
        reply = output.message
        calls = [
            ToolCall(
                id=c.id,
                name=c.function,
                # a call Inspect could not parse stays unparseable: our env answers it
                arguments=json.dumps(c.arguments) if c.parse_error is None else c.parse_error,
            )
            for c in reply.tool_calls or []
        ]
        usage = Usage(latency_s=round(output.time or 0.0, 4), calls=1)
        if output.usage is not None:
            usage.input_tokens = output.usage.input_tokens
            usage.output_tokens = output.usage.output_tokens
        message = Message(role="assistant", content=reply.text or None, tool_calls=calls)
        return ModelResponse(message=message, usage=usage, finish_reason=output.stop_reason)
