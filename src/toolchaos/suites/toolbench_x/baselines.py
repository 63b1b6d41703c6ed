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

Six more each try one shortcut a capable model takes instead of diagnosing
(:data:`CHEAP_MODES`, read off what the agent is shown by :mod:`.cheap`):
``changelog-reader`` reads the changelog of a tool that errs and applies a fix the entry
(with the docs about the tool: its own and any other tool's that names it) spells out, and
reads those docs for a fix even where no changelog is offered; ``authority-seeker`` calls
the tool whose docs claim authority, primary status or freshness instead of its sibling;
``name-passer`` skips a lookup and passes the name or email where the next tool's docs
accept one for an id;
``retry-twice`` repeats a failed call twice and pages when a result says more exist;
``doc-example`` rewrites arguments in the shape of the docs' examples, fills the
documented defaults and, when a result lacks a field it needs, asks again with a
documented option that promises the full record; ``prior-step`` answers from an earlier
result that already holds the asked field for the same entity. ``capable`` does all of
them at once, and reads, follows and bypasses as the three gate policies do. Every one of
them reads results leniently.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from toolchaos.core.jsonutil import dumps
from toolchaos.core.reference import Unresolved, compute_answer, ref_steps, resolve
from toolchaos.core.types import (
    Message,
    RecoveryAction,
    RecoveryStep,
    TaskSpec,
    ToolCall,
    ToolKind,
    ToolSpec,
    Usage,
)
from toolchaos.domains import get_domain
from toolchaos.hazards.propose import read_paths
from toolchaos.models.base import ModelRequest, ModelResponse
from toolchaos.suites.toolbench_x import cheap, recovery
from toolchaos.suites.toolbench_x.changelog import CHANGELOG_TOOL
from toolchaos.suites.toolbench_x.reading import lenient_view, spelled_out
from toolchaos.suites.toolbench_x.recovery import Call, Handled, StepState

Mode = Literal[
    "oracle",
    "naive",
    "retry",
    "no-tool",
    "lenient",
    "follower",
    "bypasser",
    "changelog-reader",
    "authority-seeker",
    "name-passer",
    "retry-twice",
    "doc-example",
    "prior-step",
    "capable",
]
GATE_MODES: tuple[Mode, ...] = ("lenient", "follower", "bypasser")
"""The policies standing in for a capable model's easy strategies (the build's gate c)."""
CHEAP_MODES: tuple[Mode, ...] = (
    "changelog-reader",
    "authority-seeker",
    "name-passer",
    "retry-twice",
    "doc-example",
    "prior-step",
)
"""The policies that each take one cheap road past a hazard (issue #24; the cheap gates)."""
MODES: tuple[Mode, ...] = (
    "oracle",
    "naive",
    "retry",
    "no-tool",
    *GATE_MODES,
    *CHEAP_MODES,
    "capable",
)
STRATEGIES: dict[str, frozenset[str]] = {
    "follower": frozenset({"follow"}),
    "bypasser": frozenset({"bypass"}),
    "changelog-reader": frozenset({"changelog"}),
    "authority-seeker": frozenset({"authority"}),
    "name-passer": frozenset({"names"}),
    "retry-twice": frozenset({"retry", "paging"}),
    "doc-example": frozenset({"examples"}),
    "prior-step": frozenset({"prior"}),
}
"""The shortcuts each policy takes; ``capable`` takes every one of them."""
STRATEGIES["capable"] = frozenset().union(*STRATEGIES.values())
_COUNT_ARGUMENTS = ("limit", "max_results", "top", "count", "n", "page_size")
CHEAP_RETRIES = 2
"""How many times ``retry-twice`` repeats a failed call."""
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
        self.strategies = STRATEGIES.get(mode, frozenset())
        self.cheap = mode in CHEAP_MODES or mode == "capable"
        self.lenient = mode in GATE_MODES or self.cheap
        # what the agent is shown of each tool (read from the first request)
        self.docs: dict[str, ToolSpec] = {}
        # name-passer: each step's arguments with names for ids, and the lookups skipped
        self.args_of: dict[int, Any] = {}
        self.skipped: set[int] = set()
        self.reverted: set[int] = set()
        self.retries: dict[int, int] = {}
        self.paging: dict[int, RecoveryStep] = {}
        self.unpaged: set[int] = set()
        self.changelogs: dict[str, Any] = {}  # capable remembers what it has read
        self.raw: dict[int, Any] = {}  # results as they came, before a lenient reading
        self.planned_names = False
        # what a lenient reader looks for (the gate and cheap policies read leniently)
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
        learns = mode == "follower" or bool(self.strategies & {"follow", "changelog"})
        if mode == "oracle" and task.hazard is not None:
            self.recipe = task.hazard.recovery
        elif learns and task.hazard is not None:
            self.recipe = [_as_shown(step, task.prompt) for step in task.hazard.recovery]
        elif mode == "retry":
            self.recipe = _NAIVE_RETRY
        else:
            self.recipe = []

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Read new tool results from the messages, then call tools or answer."""
        return self.respond(request)

    def respond(self, request: ModelRequest) -> ModelResponse:
        """The synchronous core of :meth:`complete`."""
        if not self.docs and request.tools:
            self.docs = {spec.name: spec for spec in request.tools}
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
                elif handled.failed and self.cheap:
                    handled = self._cheap_error(index, state, call, content)
            else:
                self.raw[index] = content
                if self.lenient:
                    content = lenient_view(content, self.wanted, self.numbers)
                if call.purpose == "bypass":
                    handled = Handled(result=content, finished=True)
                elif call.purpose == "consult" and self.cheap:
                    handled = self._consulted(index, state, content)
                else:
                    full = self._full_record(index, call, content)
                    if full is not None:
                        recipe = [*recipe, full]
                    if self._pages(index, call):
                        step = self.paging.get(index) or cheap.paging_step(content)
                        if step is not None:
                            self.paging[index] = step
                            recipe = [*recipe, step]
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
        learns = bool(self.strategies & {"follow", "changelog"})
        if (self.mode in ("oracle", "follower") or learns) and (
            hazard is None or self.steps[index].tool != hazard.tool
        ):
            return []
        if self.mode == "follower":
            if call.purpose != "main":
                return self.following.get(index, [])
            self.following[index] = [step for step in self.recipe if spelled_out(step, seen)]
            return self.following[index]
        if learns:
            if call.purpose == "main" and "follow" in self.strategies:
                self._learn(index, [step for step in self.recipe if spelled_out(step, seen)])
            return self.following.get(index, [])
        return self.recipe

    def _learn(self, index: int, steps: list[RecoveryStep]) -> None:
        """Add recipe steps the agent has now read the fix of (kept in recipe order)."""
        known = [*self.following.get(index, []), *steps]
        self.following[index] = [step for step in self.recipe if step in known]

    # -- the cheap roads -------------------------------------------------------------------
    def _pages(self, index: int, call: Call) -> bool:
        """Whether retry-twice asks for the next page after this result.

        Not where the call asked for a number of results itself (``limit``), nor after the
        tool refused a page.
        """
        if "paging" not in self.strategies or call.purpose != "main":
            return False
        if index in self.unpaged:
            return False
        return not any(k in call.arguments for k in _COUNT_ARGUMENTS)

    def _full_record(self, index: int, call: Call, content: Any) -> RecoveryStep | None:
        """Doc-example: a ``requery`` asking for the full record, where a field is missing.

        When the result lacks a field the path reads from this step and the tool's docs
        offer a boolean option promising the whole record (:func:`cheap.full_record_option`),
        the call is made again with it, once.
        """
        if "examples" not in self.strategies or call.purpose != "main":
            return None
        spec = self.docs.get(call.tool)
        option = cheap.full_record_option(spec, call.arguments) if spec is not None else None
        if option is None:
            return None
        fields = [str(p[-1]) for p in read_paths(self.task) if p[0] == index and len(p) > 1]
        missing = [f for f in fields if isinstance(f, str) and not recovery.has_key(content, f)]
        if not missing:
            return None
        params = {"field": missing[0], "flag": option}
        return RecoveryStep(action=RecoveryAction.REQUERY, params=params)

    def _cheap_error(self, index: int, state: StepState, call: Call, error: Any = None) -> Handled:
        """After an error no followed fix repairs: the shortcuts of this policy, in turn.

        Two retries, the changelog, the docs' examples and defaults, the lookup a passed
        name skipped, then the bypass. ``capable`` retries only an error that reads as
        passing (a 5xx, 408 or 429, a timeout), so its ten turns go to the other roads, and
        reads a tool's changelog once for all its calls.
        """
        s = self.strategies
        if index in self.paging and index not in self.unpaged:
            # the tool takes no page: the first page is the whole answer
            self.unpaged.add(index)
            state.pages.clear()
            return Handled(calls=[state.main_call()])
        if call.purpose == "main":
            passing = self.mode != "capable" or cheap.reads_as_passing(error)
            if "retry" in s and passing and self.retries.get(index, 0) < CHEAP_RETRIES:
                self.retries[index] = self.retries.get(index, 0) + 1
                return Handled(calls=[state.main_call()])
            offered = CHANGELOG_TOOL in self.task.tools
            if "changelog" in s and offered and "changelog" not in state.done:
                state.done.add("changelog")
                if state.tool in self.changelogs:
                    return self._consulted(index, state, self.changelogs[state.tool])
                return Handled(calls=[Call(CHANGELOG_TOOL, {"tool": state.tool}, "consult")])
            if "changelog" in s and "docs" not in state.done:
                state.done.add("docs")
                handled = self._read_docs(index, state)
                if handled is not None:
                    return handled
            spec = self.docs.get(state.tool)
            if "examples" in s and spec is not None and "examples" not in state.done:
                state.done.add("examples")
                shaped = cheap.as_documented(state.arguments, spec)
                if shaped != state.arguments:
                    state.arguments = shaped
                    return Handled(calls=[state.main_call()])
            if index in self.args_of and index not in self.reverted:
                return self._revert_names(index)
        if "bypass" in s and call.purpose in ("main", "bypass"):
            return self._bypass(index, state, call)
        return Handled(failed=True)

    def _docs_about(self, tool: str) -> str:
        """The docs an agent reads about a failing ``tool``, each under its tool's name.

        Its own, and every other offered tool's that names it ("Version 2 of ...", "the
        backup of ...").
        """
        texts = []
        for name, spec in self.docs.items():
            if name == tool or cheap.names_tool(spec.description, tool):
                texts.append(f"{name}: {spec.description} {dumps(spec.parameters)}")
        return " ".join(texts)

    def _read_docs(self, index: int, state: StepState) -> Handled | None:
        """After an error: apply a fix the docs about the tool spell out (None if none)."""
        hazard = self.task.hazard
        if hazard is None or self.steps[index].tool != hazard.tool:
            return None
        text = self._docs_about(state.tool)
        known = list(self.following.get(index, []))
        self._learn(index, [step for step in self.recipe if spelled_out(step, text)])
        if self.following.get(index, []) == known:
            return None
        handled = recovery.on_error(self.following[index], state, state.main_call())
        return None if handled.failed else handled

    def _consulted(self, index: int, state: StepState, content: Any) -> Handled:
        """The changelog entry is read: apply a fix it (with the docs about it) spells out."""
        if self.mode == "capable":
            self.changelogs[state.tool] = content
        text = f"{dumps(content)} {self._docs_about(state.tool)}"
        hazard = self.task.hazard
        if hazard is not None and self.steps[index].tool == hazard.tool:
            self._learn(index, [step for step in self.recipe if spelled_out(step, text)])
        handled = recovery.on_error(self.following.get(index, []), state, state.main_call())
        if handled.failed:
            return self._cheap_error(index, state, state.main_call())
        return handled

    def _plan_names(self) -> None:
        """Name-passer: where a step takes an id a lookup found, pass the name looked up.

        Only where the taking tool's docs say the parameter accepts a name or an email and
        the lookup was asked one string; a lookup all of whose ids are passed this way, and
        that the answer does not read, is never called.
        """
        self.planned_names = True
        domain = get_domain(self.task.domain)
        uses: dict[int, int] = {}
        passed: dict[int, int] = {}
        for k, step in enumerate(self.steps):
            spec = self.docs.get(step.tool)
            args = dict(step.args)
            for param, value in step.args.items():
                if not (isinstance(value, dict) and "$ref" in value):
                    continue
                path = list(value["$ref"])
                j = int(path[0])
                names = [v for v in self.steps[j].args.values() if isinstance(v, str)]
                if (
                    spec is not None
                    and cheap.id_like(path)
                    and len(names) == 1
                    and len(self.steps[j].args) == 1
                    and cheap.accepts_name(spec, param)
                ):
                    args[param] = names[0]
                    passed[j] = passed.get(j, 0) + 1
            if args != step.args:
                self.args_of[k] = args
                self.needs[k] = ref_steps(args)
            for j in ref_steps(step.args):
                uses[j] = uses.get(j, 0) + _count_refs(step.args, j)
        read = {int(r[0]) for r in self.task.reference.answer_spec.refs if r}
        for j, count in passed.items():
            tool = domain.tools.get(self.steps[j].tool)
            reads = tool is not None and tool.kind is ToolKind.READ
            if count == uses.get(j) and j not in read and reads:
                self.skipped.add(j)

    def _revert_names(self, index: int) -> Handled:
        """A passed name was refused: look the ids up after all, then call again."""
        self.reverted.add(index)
        original = self.steps[index].args
        self.args_of.pop(index)
        self.needs[index] = ref_steps(original)
        self.skipped -= self.needs[index]
        del self.states[index]
        return Handled()

    def _from_earlier(self, index: int, arguments: dict[str, Any]) -> dict[str, Any] | None:
        """Prior-step: step ``index``'s answer fields as an earlier result already gave them.

        Only for a read step whose result nothing but the answer reads, and only where an
        earlier result, as it came, has a record about the same entity (it holds every
        argument of the step) with each asked field under its own name and one value.
        """
        if any(index in needs for needs in self.needs):
            return None
        tool = get_domain(self.task.domain).tools.get(self.steps[index].tool)
        if tool is None or tool.kind is not ToolKind.READ:
            return None
        spec = self.task.reference.answer_spec
        # the answer reads the step's fields, and its labels (the argmax's arrival time) too
        labels = [
            label["$ref"] for label in spec.labels if isinstance(label, dict) and "$ref" in label
        ]
        refs = [list(r) for r in (*spec.refs, *labels) if r and r[0] == index]
        # a field of one record: not a count, nor the n-th entry of a listing
        if not refs or not all(
            isinstance(r[-1], str) and all(k == 0 for k in r[1:] if isinstance(k, int))
            for r in refs
        ):
            return None
        tools = get_domain(self.task.domain).tools
        writes = [
            i
            for i, step in enumerate(self.steps[:index])
            if step.tool in tools and tools[step.tool].kind is not ToolKind.READ
        ]
        since = max(writes, default=0)
        tree: Any = {}
        for ref in refs:
            found, value = cheap.earlier_value(str(ref[-1]), arguments, self.raw, index, since)
            if not found:
                return None
            tree = cheap.put(tree, ref[1:], value)
        return tree if isinstance(tree, dict) else None

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
        if handled.failed and "prior" in self.strategies and index in self.states:
            earlier = self._from_earlier(index, self.states[index].arguments)
            if earlier is not None:
                handled = Handled(result=earlier, finished=True)
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
        if "names" in self.strategies and not self.planned_names:
            self._plan_names()
        for index, step in enumerate(self.steps):
            if index in self.states or index in self.failed or index in self.skipped:
                continue
            needs = self.needs[index]
            if needs & self.failed:
                self.failed.add(index)
                continue
            if not needs <= self.results.keys():
                continue
            try:
                arguments = resolve(self.args_of.get(index, step.args), self.results)
            except Unresolved:
                self.failed.add(index)
                continue
            self.states[index] = StepState(index, *self._tool_for(step.tool, arguments))
            if "prior" in self.strategies:
                earlier = self._from_earlier(index, arguments)
                if earlier is not None:
                    self.results[index] = earlier
                    continue
            batch.append((index, self.states[index].main_call()))
        calls = []
        for index, call in batch:
            if call.purpose == "main":
                self.states[index].attempts += 1
            self.calls_made += 1
            # a probe is marked in its id, so a replay can tell what probing showed
            kind = "probe" if call.purpose == "probe" else "call"
            call_id = f"{kind}_{index}_{self.calls_made}"
            self.pending[call_id] = (index, call)
            calls.append(ToolCall(id=call_id, name=call.tool, arguments=dumps(call.arguments)))
        return calls

    def _tool_for(self, tool: str, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The tool to call for a step: authority-seeker switches to the one docs say prevails."""
        if "authority" not in self.strategies:
            return tool, arguments
        other = cheap.authority_of(tool, self.docs)
        if other is None or other == tool:
            return tool, arguments
        params = self.docs[other].parameters
        args = {k: v for k, v in arguments.items() if k in params.get("properties", {})}
        if not set(params.get("required", [])) <= set(args):
            return tool, arguments
        return other, args

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


def _as_shown(step: RecoveryStep, prompt: str) -> RecoveryStep:
    """A recipe step as a policy that is not the oracle can play it once it reads the fix.

    A lookup it is pointed to answers with candidates: it takes the one whose listing the
    request names, else the first (:func:`recovery._candidates`), never the oracle's pick,
    and opens no candidate's record (what a probing recipe does).
    """
    if step.action != RecoveryAction.RESOLVE:
        return step
    params = {k: v for k, v in step.params.items() if k != "probe"}
    return step.model_copy(update={"params": {**params, "choose_by": prompt}})


def _count_refs(value: Any, step: int) -> int:
    """How many refs to ``step`` an argument tree holds."""
    if isinstance(value, dict):
        if "$ref" in value:
            return int(int(value["$ref"][0]) == step)
        return sum(_count_refs(v, step) for v in value.values())
    if isinstance(value, list):
        return sum(_count_refs(v, step) for v in value)
    return 0
