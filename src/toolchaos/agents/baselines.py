"""Scripted baselines: policies that play a task from its reference, as model clients.

They answer the same requests an LLM gets and read tool results only from the messages
they are sent, so every protocol, the store and the scoring see them exactly as they see
a real model. ``oracle`` follows the reference and the recovery recipe; ``naive`` follows
the reference and never recovers; ``retry`` repeats a failed call up to 3 times with the
same arguments; ``no-tool`` answers at once.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Literal

from toolchaos.agents import recovery
from toolchaos.core.jsonutil import dumps
from toolchaos.core.reference import Unresolved, compute_answer, ref_steps, resolve
from toolchaos.core.types import Message, TaskSpec, ToolCall, Usage
from toolchaos.models.base import ModelRequest, ModelResponse

Mode = Literal["oracle", "naive", "retry", "no-tool"]
MODES: tuple[Mode, ...] = ("oracle", "naive", "retry", "no-tool")
GIVE_UP = "I could not complete the task with the tools available."
RETRY_LIMIT = 3


class ScriptedPolicy:
    """One scripted player of one task (build a new one per episode).

    Args:
        task: The task to play.
        mode: Which baseline to be.
    """

    def __init__(self, task: TaskSpec, mode: Mode) -> None:
        self.task = task
        self.mode = mode
        self.steps = task.reference.steps
        self.results: dict[int, Any] = {}
        self.failed: set[int] = set()
        self.pending: dict[str, tuple[int, str, dict[str, Any]]] = {}
        self.issued: set[int] = set()
        self.attempts: Counter[int] = Counter()
        self.queue: list[tuple[int, str, dict[str, Any]]] = []
        self.seen = 0
        self.recipe = task.hazard.recovery if task.hazard is not None else []

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Read new tool results from the messages, then call tools or answer."""
        return self.respond(request)

    def respond(self, request: ModelRequest) -> ModelResponse:
        """The synchronous core of :meth:`complete`."""
        self._read(request.messages)
        if self.mode == "no-tool" or request.tool_choice == "none":
            return self._answer()
        calls = self._next_calls()
        if not calls:
            return self._answer()
        message = Message(role="assistant", tool_calls=calls)
        return ModelResponse(message=message, usage=Usage(calls=1), finish_reason="tool_calls")

    # -- reading observations -------------------------------------------------------------
    def _read(self, messages: list[Message]) -> None:
        for message in messages[self.seen :]:
            if message.role != "tool" or message.tool_call_id not in self.pending:
                continue
            step, tool, arguments = self.pending.pop(message.tool_call_id)
            try:
                content = json.loads(message.content or "null")
            except json.JSONDecodeError:
                content = {"error": {"message": message.content}}
            if isinstance(content, dict) and "error" in content:
                self._on_error(step, tool, arguments, content)
            else:
                if self.mode == "oracle":
                    content = recovery.on_result(self.recipe, content)
                self.results[step] = content
        self.seen = len(messages)

    def _on_error(self, step: int, tool: str, arguments: dict[str, Any], error: Any) -> None:
        retry: recovery.Retry | None = None
        if self.mode == "oracle":
            retry = recovery.on_error(self.recipe, tool, arguments, self.attempts[step], error)
        elif self.mode == "retry" and self.attempts[step] <= RETRY_LIMIT:
            retry = recovery.Retry(tool, arguments)
        if retry is None:
            self.failed.add(step)
        else:
            self.queue.append((step, retry.tool, retry.arguments))

    # -- choosing the next calls ----------------------------------------------------------
    def _next_calls(self) -> list[ToolCall]:
        batch = list(self.queue)
        self.queue.clear()
        for index, step in enumerate(self.steps):
            if index in self.issued or index in self.failed:
                continue
            needs = ref_steps(step.args)
            if needs & self.failed:
                self.failed.add(index)
                continue
            if not needs <= set(self.results):
                continue
            try:
                arguments = resolve(step.args, self.results)
            except Unresolved:
                self.failed.add(index)
                continue
            self.issued.add(index)
            batch.append((index, step.tool, arguments))
        calls = []
        for index, tool, arguments in batch:
            self.attempts[index] += 1
            call_id = f"call_{index}_{self.attempts[index]}"
            self.pending[call_id] = (index, tool, arguments)
            calls.append(ToolCall(id=call_id, name=tool, arguments=dumps(arguments)))
        return calls

    def _answer(self) -> ModelResponse:
        text = self._final_text()
        return ModelResponse(message=Message(role="assistant", content=text), usage=Usage(calls=1))

    def _final_text(self) -> str:
        if self.mode == "no-tool":
            return "I can't look that up, so I can't give a definite answer."
        if self.failed:
            return GIVE_UP
        spec = self.task.reference.answer_spec
        if spec.op == "none":
            return "Done."
        try:
            return f"The answer is {compute_answer(spec, self.results)}."
        except Unresolved:
            return GIVE_UP
