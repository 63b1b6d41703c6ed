"""Prompt-mode tools: describe the tools in the system prompt, parse calls from the text.

For models served without native tool calling (small local models, some servers). The
model is asked to answer with a JSON object per call; this module finds such calls in
bare JSON, in fenced ```json blocks and in <tool_call> tags, several per message, and
records which path parsed each call. Parsing is data only: nothing is evaluated.
"""

from __future__ import annotations

import json
import re
from typing import Any

from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import Message, ToolCall, ToolSpec

_TAG = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)
_FENCE = re.compile(r"```(?:json|tool_call)?\s*\n?(.*?)```", re.DOTALL)

INSTRUCTIONS = (
    "You can call tools. To call one, write a JSON object with its name and arguments "
    'inside tags, for example <tool_call>{"name": "tool_name", "arguments": {"param": '
    '"value"}}</tool_call>. Several calls may go in one reply, one tag each. The results '
    "come back in the next message. When you have what you need, reply in plain text with "
    "the final answer and no tool call."
)


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def _signature(spec: ToolSpec, compact: bool = False) -> str:
    props: dict[str, Any] = spec.parameters.get("properties", {})
    required = set(spec.parameters.get("required", []))
    params = []
    for name, schema in props.items():
        kind = schema.get("type", "any")
        if "enum" in schema:
            kind = "|".join(str(v) for v in schema["enum"])
        flag = "" if name in required else "?"
        params.append(f"{name}{flag}: {kind}")
    if compact:
        notes = [
            f"{name}: {_first_sentence(str(schema['description']))}"
            for name, schema in props.items()
            if schema.get("description")
        ]
        tail = f" ({'; '.join(notes)})" if notes else ""
        return f"- {spec.name}({', '.join(params)}): {_first_sentence(spec.description)}{tail}"
    lines = [f"- {spec.name}({', '.join(params)}): {spec.description}"]
    for name, schema in props.items():
        lines.append(f"    {name}: {schema.get('description', '')}")
    return "\n".join(lines)


def describe_tools(tools: list[ToolSpec], compact: bool = False) -> str:
    """The tools as readable signatures, one block each (one line each when compact).

    The compact form keeps every parameter, its type, enum values and whether it is
    required, and shortens the descriptions to their first sentence: for small local
    models the prompt is most of an episode's cost.
    """
    return "\n".join(_signature(spec, compact) for spec in tools)


def system_with_tools(system: str, tools: list[ToolSpec], compact: bool = False) -> str:
    """Prompt-mode system prompt: fixed instructions, then the tools, then ``system``.

    The order follows what changes least: the instructions are the same in every
    episode, the tools are the same in every arm of a task, and the system prompt
    carries the arm's hint. Requests that share a prefix let llama.cpp reuse its KV
    cache instead of evaluating those tokens again.
    """
    if not tools:
        return system
    return f"{INSTRUCTIONS}\n\n# Tools\n{describe_tools(tools, compact)}\n\n{system}"


def _as_call(value: Any) -> tuple[str, str] | None:
    if not isinstance(value, dict):
        return None
    name = value.get("name") or value.get("tool") or value.get("function")
    if isinstance(name, dict):  # {"function": {"name":..., "arguments":...}}
        value, name = name, name.get("name")
    if not isinstance(name, str):
        return None
    arguments = value.get("arguments", value.get("parameters", {}))
    text = arguments if isinstance(arguments, str) else dumps(arguments)
    return name, text


def _json_objects(text: str) -> list[Any]:
    """Every top-level JSON value that can be decoded from ``text``, in order."""
    decoder = json.JSONDecoder()
    out, i = [], 0
    while i < len(text):
        start = text.find("{", i)
        if start < 0:
            break
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            i = start + 1
            continue
        out.append(value)
        i = end
    return out


def parse_tool_calls(text: str, prefix: str = "call") -> tuple[str, list[ToolCall]]:
    """Find tool calls in a model's text reply.

    Returns the text outside the calls (the model's prose) and the calls, each tagged
    with the path that parsed it: ``tag``, ``fence`` or ``bare``. A tag or fence whose
    body is not valid JSON is kept as a call with the raw text as arguments only when a
    name can be recovered; otherwise it stays in the prose.
    """
    calls: list[ToolCall] = []
    remainder = text

    def add(name: str, arguments: str, path: str) -> None:
        calls.append(
            ToolCall(id=f"{prefix}_{len(calls)}", name=name, arguments=arguments, parsed_by=path)
        )

    for path, pattern in (("tag", _TAG), ("fence", _FENCE)):
        for match in pattern.finditer(remainder):
            body = match.group(1)
            found = [c for c in map(_as_call, _json_objects(body)) if c is not None]
            if not found:
                name = re.search(r'"name"\s*:\s*"([^"]+)"', body)
                if name is None:
                    continue
                found = [(name.group(1), body)]  # keep the model's broken JSON as data
            for name_, args in found:
                add(name_, args, path)
        remainder = pattern.sub("", remainder) if calls else remainder
    if not calls:
        for value in _json_objects(text):
            bare = _as_call(value)
            if bare is not None:
                add(bare[0], bare[1], "bare")
        if calls:
            remainder = ""
    return remainder.strip(), calls


def render_history(messages: list[Message]) -> list[Message]:
    """Turn native tool messages into plain text turns for a prompt-mode model."""
    out: list[Message] = []
    for message in messages:
        if message.role == "assistant" and message.tool_calls:
            tags = "".join(_tag(c) for c in message.tool_calls)
            text = f"{message.content or ''}{tags}".strip()
            out.append(Message(role="assistant", content=text))
        elif message.role == "tool":
            text = f"<tool_result name={json.dumps(message.name)}>{message.content}</tool_result>"
            if (
                out
                and out[-1].role == "user"
                and (out[-1].content or "").startswith("<tool_result")
            ):
                out[-1] = Message(role="user", content=f"{out[-1].content}\n{text}")
            else:
                out.append(Message(role="user", content=text))
        else:
            out.append(message.model_copy(update={"tool_calls": [], "reasoning": None}))
    return out


def _tag(call: ToolCall) -> str:
    if _valid_json(call.arguments):
        body = f'{{"name": {json.dumps(call.name)}, "arguments": {call.arguments}}}'
    else:
        body = call.arguments  # the model's own broken text, shown back as it was
    return f"<tool_call>{body}</tool_call>"


def _valid_json(text: str) -> bool:
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    return True


def prompt_messages(
    messages: list[Message],
    tools: list[ToolSpec],
    tool_choice: str,
    compact: bool = False,
    keep_tools: bool = False,
) -> list[Message]:
    """The whole conversation as a prompt-mode model should see it.

    With ``keep_tools`` the tools stay described when ``tool_choice`` is ``none`` (the
    final-answer request), so that request extends the previous one token for token and
    a local model reuses its KV cache instead of evaluating the conversation again.
    """
    rendered = render_history(messages)
    describe = tool_choice != "none" or keep_tools
    if rendered and rendered[0].role == "system" and describe:
        system = system_with_tools(rendered[0].content or "", tools, compact)
        rendered[0] = rendered[0].model_copy(update={"content": system})
    return rendered
