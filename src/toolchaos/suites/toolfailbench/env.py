"""A per-episode tool environment for one ToolFailBench task.

For a built-in domain it offers the domain's nine tools and answers each call with
:func:`tool_return`: the task's trap for the expected call, the tool's own data otherwise.
Unparseable arguments, unknown tools and schema violations come back as error
observations, the way a real API answers them.

For a task imported from the v5 release it plays as the paper's harness does: it offers
the release's tools and system prompt (as written, with no answer formats appended); a
call of the expected tool, by name, gets the release's mock return whatever its
arguments, which are checked against the release's schema (the violations are kept on
the call's trace entry, stored with the episode), never refused; a call of any other
tool gets a clear error (the release defines no other returns). So a tool skip
means the expected tool was never called. Both fit the ``toolbox()`` / ``call()`` shape
the two-step protocol expects.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from toolchaos.core.errors import ToolError
from toolchaos.core.types import Observation, ToolCall, ToolSpec, TraceEntry
from toolchaos.env.validation import parse_arguments, validator_for
from toolchaos.suites.toolfailbench.domains import fail_domain
from toolchaos.suites.toolfailbench.importer import release_domain
from toolchaos.suites.toolfailbench.returns import tool_return
from toolchaos.suites.toolfailbench.types import FailTask


def schema_violations(spec: ToolSpec, arguments: Any) -> list[str]:
    """Every way ``arguments`` break the parameter schema of ``spec``, one sentence each."""
    if not isinstance(arguments, dict):
        return [f"the arguments are not a JSON object: {str(arguments)[:80]!r}"]
    out = []
    errors = validator_for(spec).iter_errors(arguments)
    for error in sorted(errors, key=lambda e: (len(e.absolute_path), str(e.validator), e.message)):
        where = ".".join(str(p) for p in error.absolute_path)
        out.append(f"{where}: {error.message}" if where else error.message)
    return out


class FailEnv:
    """The tools of one task's domain, with the task's trap on its expected call.

    Args:
        task: The task being run: of a built-in domain, or imported from the v5 release
            (its ``metadata["release_domain"]`` carries the release's tools and prompt).
    """

    def __init__(self, task: FailTask) -> None:
        self.task = task
        release = release_domain(task)
        self.release = release is not None
        self.domain = release or fail_domain(task.domain)
        self.trace: list[TraceEntry] = []

    hazard_events: tuple[()] = ()  # ToolFailBench injects no hazards

    def system(self) -> str:
        """The system prompt: the domain's role, then its answer formats if it has any."""
        domain = self.domain
        if not (domain.tool_answer_template or domain.direct_answer_template):
            return domain.system_prompt
        return (
            f"{domain.system_prompt}\n\nWhen you used a tool: "
            f"{domain.tool_answer_template}\nWhen no tool is needed: "
            f"{domain.direct_answer_template}"
        )

    def end_state(self) -> None:
        """Single-turn tasks change no world."""
        return None

    def toolbox(self) -> list[ToolSpec]:
        """The tools the agent sees: all of the domain's, whatever the task."""
        return list(self.domain.tools)

    @property
    def schema_violations(self) -> int:
        """How many schema violations the expected tool's calls carried (from the trace)."""
        expected = self.task.expected_tool
        return sum(len(e.violations) for e in self.trace if e.call.name == expected)

    def call(self, call: ToolCall) -> Observation:
        """Run one call and record it in ``trace``, with the schema rules its arguments broke.

        A known tool's arguments are checked against its parameter schema
        (:func:`schema_violations`) and the violations kept on the trace entry, so they
        are stored with the episode: a built-in tool then refuses the call with a 400, a
        release task's expected tool serves it anyway.
        """
        spec = self.domain.tool(call.name)
        violations = [] if spec is None else schema_violations(spec, _arguments(call))
        try:
            if self.release:
                content = self._release_return(call)
            else:
                arguments = parse_arguments(call.name, call.arguments)
                content = tool_return(self.task.domain, self.task, call.name, arguments)
            observation = Observation(call_id=call.id, tool=call.name, ok=True, content=content)
        except ToolError as err:
            observation = Observation(
                call_id=call.id, tool=call.name, ok=False, content=err.to_payload()
            )
        self.trace.append(
            TraceEntry(
                call=call,
                observation=observation,
                ordinal=len(self.trace) + 1,
                violations=violations,
            )
        )
        return observation

    def _release_return(self, call: ToolCall) -> Any:
        """The release's mock return for its expected tool; a clear error for any other."""
        if self.domain.tool(call.name) is None:
            names = ", ".join(self.domain.tool_names)
            raise ToolError(
                f"Unknown tool '{call.name}'. Available tools: {names}.",
                code=404,
                kind="unknown_tool",
            )
        if call.name != self.task.expected_tool:
            raise ToolError(
                f"'{call.name}' returned no data for this request.",
                code=501,
                kind="not_implemented",
            )
        return copy.deepcopy(self.task.trap_return)


def _arguments(call: ToolCall) -> Any:
    """The call's arguments as parsed JSON, or the raw text when it is not JSON."""
    try:
        return json.loads(call.arguments.strip() or "{}")
    except json.JSONDecodeError:
        return call.arguments
