"""Scripted baselines: policies that play a task from its reference, as model clients.

They answer the same requests an LLM gets and read tool results only from the messages
they are sent, so every protocol, the store and the scoring see them exactly as they see
a real model. ``oracle`` follows the reference and the recovery recipe; ``naive`` follows
the reference and never recovers; ``retry`` repeats a failed call up to 3 times with the
same arguments and never switches; ``no-tool`` answers at once.

Three more stand in for a capable model's easy strategies, and the build's validity gates
play them (docs/toolbench-x.md): each reads results as a model does (:func:`reading.lenient_view`).
``lenient`` never recovers; ``follower`` applies a recipe step only where the error or
result spells its fix out (:func:`reading.spelled_out`), so a task it solves is
``explicit``; ``bypasser`` answers an error by dropping optional arguments, then by
calling each other tool of the toolbox that takes the same argument names.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from toolchaos.core.jsonutil import dumps
from toolchaos.core.reference import Unresolved, compute_answer, ref_steps, resolve
from toolchaos.core.types import Message, RecoveryAction, RecoveryStep, TaskSpec, ToolCall, Usage
from toolchaos.domains import get_domain
from toolchaos.hazards.propose import read_paths
from toolchaos.models.base import ModelRequest, ModelResponse
from toolchaos.suites.toolbench_x import recovery
from toolchaos.suites.toolbench_x.reading import lenient_view, spelled_out
from toolchaos.suites.toolbench_x.recovery import Call, Handled, StepState

Mode = Literal["oracle", "naive", "retry", "no-tool", "lenient", "follower", "bypasser"]
MODES: tuple[Mode, ...] = (
    "oracle",
    "naive",
    "retry",
    "no-tool",
    "lenient",
    "follower",
    "bypasser",
)
GATE_MODES: tuple[Mode, ...] = ("lenient", "follower", "bypasser")
"""The policies standing in for a capable model's easy strategies (the build's gate c)."""
GIVE_UP = "I could not complete the task with the tools available."
RETRY_LIMIT = 3
_NAIVE_RETRY = [RecoveryStep(action=RecoveryAction.RETRY, params={"max_attempts": RETRY_LIMIT + 1})]


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
        self.states: dict[int, StepState] = {}
        self.pending: dict[str, tuple[int, Call]] = {}
        self.queue: list[tuple[int, Call]] = []
        self.calls_made = 0
        self.planned: list[ToolCall] = []
        self.seen = 0
        self.lenient = mode in GATE_MODES
        # what a lenient reader looks for (only the gate policies read leniently)
        self.wanted: set[str] = set()
        self.numbers: frozenset[str] = frozenset()
        if self.lenient:
            self.wanted = {k for path in read_paths(task) for k in path[1:] if isinstance(k, str)}
            self.numbers = frozenset(
                str(path[-1])
                for path in task.reference.answer_spec.refs
                if isinstance(path[-1], str)
            )
        # the earlier steps each step's arguments refer to (the reference does not change)
        self.needs = [ref_steps(step.args) for step in self.steps]
        self.bypass: dict[int, list[Call]] = {}
        self.following: dict[int, list[RecoveryStep]] = {}
        if mode in ("oracle", "follower") and task.hazard is not None:
            self.recipe = task.hazard.recovery
        elif mode == "retry":
            self.recipe = _NAIVE_RETRY
        else:
            self.recipe = []

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Read new tool results from the messages, then call tools or answer."""
        return self.respond(request)

    def respond(self, request: ModelRequest) -> ModelResponse:
        """The synchronous core of :meth:`complete`."""
        self._read(request.messages)
        if request.phase == "decide":
            return self._decide()
        if request.phase == "fill":
            chosen = [c for c in self.planned if c.name == request.tool_choice]
            self.planned = [c for c in self.planned if c.name != request.tool_choice]
            message = Message(role="assistant", tool_calls=chosen)
            return ModelResponse(message=message, usage=Usage(calls=1), finish_reason="tool_calls")
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
            index, call = self.pending.pop(message.tool_call_id)
            state = self.states[index]
            try:
                content = json.loads(message.content or "null")
            except json.JSONDecodeError:
                content = {"error": {"message": message.content}}
            recipe = self._recipe(index, message.content or "", call)
            if isinstance(content, dict) and "error" in content:
                handled = recovery.on_error(recipe, state, call)
                if handled.failed and self.mode == "bypasser":
                    handled = self._bypass(index, state, call)
            else:
                if self.lenient:
                    content = lenient_view(content, self.wanted, self.numbers)
                if call.purpose == "bypass":
                    handled = Handled(result=content, finished=True)
                else:
                    handled = recovery.on_result(recipe, state, call, content)
            self._apply(index, handled)
        self.seen = len(messages)

    def _recipe(self, index: int, seen: str, call: Call) -> list[RecoveryStep]:
        """The recipe for a step: the oracle's and follower's apply to the hazard's target.

        The follower keeps only the steps whose fix ``seen`` (the observation) spells out;
        the answer to a call a fix made (a lookup, a check) is read with the steps it was
        following when it made it.
        """
        hazard = self.task.hazard
        if self.mode in ("oracle", "follower") and (
            hazard is None or self.steps[index].tool != hazard.tool
        ):
            return []
        if self.mode == "follower":
            if call.purpose != "main":
                return self.following.get(index, [])
            self.following[index] = [step for step in self.recipe if spelled_out(step, seen)]
            return self.following[index]
        return self.recipe

    def _bypass(self, index: int, state: StepState, call: Call) -> Handled:
        """After an error: the call without optional arguments, then the toolbox's other tools."""
        if index not in self.bypass:
            self.bypass[index] = self._detours(call)
        if not self.bypass[index]:
            return Handled(failed=True)
        return Handled(calls=[self.bypass[index].pop(0)])

    def _detours(self, call: Call) -> list[Call]:
        domain = get_domain(self.task.domain)
        failing = domain.tools[call.tool].spec if call.tool in domain.tools else None
        detours: list[Call] = []
        if failing is not None:
            required = set(failing.parameters.get("required", []))
            bare = {k: v for k, v in call.arguments.items() if k in required}
            if bare != call.arguments:
                detours.append(Call(call.tool, bare, "bypass"))
        for name in self.task.tools:
            tool = domain.tools.get(name)
            if tool is None or name == call.tool:
                continue
            if failing is not None and tool.kind is not failing.kind:
                continue
            params = set(tool.spec.parameters.get("properties", {}))
            needed = set(tool.spec.parameters.get("required", []))
            if not (params & set(call.arguments)) or not needed <= set(call.arguments):
                continue
            args = {k: v for k, v in call.arguments.items() if k in params}
            detours.append(Call(name, args, "bypass"))
        return detours

    def _apply(self, index: int, handled: Handled) -> None:
        if handled.failed:
            self.failed.add(index)
        elif handled.finished:
            self.results[index] = handled.result
        else:
            self.queue.extend((index, call) for call in handled.calls)

    # -- choosing the next calls ----------------------------------------------------------
    def _next_calls(self) -> list[ToolCall]:
        batch = list(self.queue)
        self.queue.clear()
        for index, step in enumerate(self.steps):
            if index in self.states or index in self.failed:
                continue
            needs = self.needs[index]
            if needs & self.failed:
                self.failed.add(index)
                continue
            if not needs <= self.results.keys():
                continue
            try:
                arguments = resolve(step.args, self.results)
            except Unresolved:
                self.failed.add(index)
                continue
            self.states[index] = StepState(index, step.tool, arguments)
            batch.append((index, self.states[index].main_call()))
        calls = []
        for index, call in batch:
            if call.purpose == "main":
                self.states[index].attempts += 1
            self.calls_made += 1
            call_id = f"call_{index}_{self.calls_made}"
            self.pending[call_id] = (index, call)
            calls.append(ToolCall(id=call_id, name=call.tool, arguments=dumps(call.arguments)))
        return calls

    def _decide(self) -> ModelResponse:
        """The decision protocol's first request: say which tool comes next, or finish."""
        if self.mode != "no-tool" and not self.planned:
            self.planned = self._next_calls()
        if self.planned:
            step = self.pending[self.planned[0].id][0]
            action = "retry" if self.states[step].attempts > 1 else "call_tool"
            if self.states[step].tool != self.steps[step].tool:
                action = "fallback"
            decision = {"action": action, "tool": self.planned[0].name}
        else:
            decision = {"action": "finish", "answer": self._final_text()}
        message = Message(role="assistant", content=dumps(decision))
        return ModelResponse(message=message, usage=Usage(calls=1))

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
