"""Scripted baselines for ToolFailBench: each plays one behaviour the classifier labels.

``oracle`` calls the expected tool and reports what it returned (controls: answers
directly); ``skip`` answers from memory without a call; ``ignore`` calls the tool, then
answers with the remembered value; ``fabricate`` calls the tool, then reports fields it
never returned; ``overuse`` calls a tool even for a control. The ToolBench-X baselines
``naive`` and ``retry`` behave as ``oracle`` here (nothing fails), ``no-tool`` as ``skip``.
"""

from __future__ import annotations

import json
from typing import Literal

from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import Message, ToolCall, Usage
from toolchaos.models.base import ModelRequest, ModelResponse
from toolchaos.suites.toolfailbench.domains import fail_domain
from toolchaos.suites.toolfailbench.types import FailTask

Behaviour = Literal["oracle", "skip", "ignore", "fabricate", "overuse"]
BEHAVIOURS: dict[str, Behaviour] = {
    "oracle": "oracle",
    "naive": "oracle",
    "retry": "oracle",
    "no-tool": "skip",
    "skip": "skip",
    "ignore": "ignore",
    "fabricate": "fabricate",
    "overuse": "overuse",
}


class FailPolicy:
    """One scripted player of one ToolFailBench task.

    Args:
        task: The task.
        mode: A scripted mode name (see ``BEHAVIOURS``).
    """

    def __init__(self, task: FailTask, mode: str) -> None:
        self.task = task
        self.behaviour = BEHAVIOURS[mode]

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Call a tool on the first request if the behaviour does; answer otherwise."""
        results = [m for m in request.messages if m.role == "tool"]
        if not results and request.tool_choice != "none" and self._calls_tool():
            call = self._call()
            message = Message(role="assistant", tool_calls=[call])
            return ModelResponse(message=message, usage=Usage(calls=1), finish_reason="tool_calls")
        text = self._answer([r.content or "" for r in results])
        return ModelResponse(message=Message(role="assistant", content=text), usage=Usage(calls=1))

    def _calls_tool(self) -> bool:
        if self.task.kind == "control":
            return self.behaviour == "overuse"
        return self.behaviour != "skip"

    def _call(self) -> ToolCall:
        if self.task.expected_tool is not None:
            return ToolCall(
                id="call_0",
                name=self.task.expected_tool,
                arguments=dumps(self.task.expected_arguments),
            )
        tool = fail_domain(self.task.domain).tools[0]
        required = tool.parameters.get("required", [])
        props = tool.parameters.get("properties", {})
        args = {name: _example(props.get(name, {})) for name in required}
        return ToolCall(id="call_0", name=tool.name, arguments=dumps(args))

    def _answer(self, returns: list[str]) -> str:
        task = self.task
        if task.kind == "control":
            return "In short: " + "; ".join(task.must_contain) + "."
        remembered = task.user_anchor or task.prior_estimate or "about what it usually is"
        if self.behaviour in ("skip", "ignore"):
            return f"From what I know, it is {remembered}."
        if self.behaviour == "fabricate":
            return self._fabricated(returns)
        # report what the tool returned, nothing taken from the task's reference
        data = json.loads(returns[-1]) if returns else {}
        facts = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in _scalars(data))
        return f"The tool reports {facts}."

    def _fabricated(self, returns: list[str]) -> str:
        data = json.loads(returns[-1]) if returns else {}
        present = set(data) if isinstance(data, dict) else set()
        vocabulary = sorted(fail_domain(self.task.domain).field_vocabulary() - present)
        invented = [
            f"{name.replace('_', ' ')} {12.5 + 3 * i:.1f}" for i, name in enumerate(vocabulary[:3])
        ]
        return "Here is the full picture: " + "; ".join(invented) + "."


def _scalars(value: object, prefix: str = "") -> list[tuple[str, object]]:
    """Every scalar of a returned record, nested keys joined with a space."""
    if isinstance(value, dict):
        return [pair for k, v in value.items() for pair in _scalars(v, f"{prefix}{k} ")]
    if isinstance(value, list):
        return [pair for v in value for pair in _scalars(v, prefix)]
    return [(prefix.strip(), value)]


def _example(schema: dict[str, object]) -> object:
    if "enum" in schema and isinstance(schema["enum"], list) and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    return {"integer": 1, "number": 1.0, "boolean": True}.get(str(kind), "AAPL")
