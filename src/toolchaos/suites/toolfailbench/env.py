"""A per-episode tool environment for one ToolFailBench task.

For a built-in domain it offers the domain's nine tools and answers each call with
:func:`tool_return`: the task's trap for the expected call, the tool's own data otherwise.
For a task imported from a v5 release it offers the release's tools and system prompt;
the expected tool returns the release's mock return, and any other tool answers with a
clear error (the release defines no other returns). Unparseable arguments, unknown tools
and schema violations come back as error observations, the way a real API answers them.
It fits the ``toolbox()`` / ``call()`` shape the two-step protocol expects.
"""

from __future__ import annotations

import copy
from typing import Any

from toolchaos.core.errors import ToolError
from toolchaos.core.types import Observation, ToolCall, ToolSpec, TraceEntry
from toolchaos.env.validation import check_arguments, parse_arguments
from toolchaos.suites.toolfailbench.domains import fail_domain
from toolchaos.suites.toolfailbench.importer import RELEASE_DOMAIN
from toolchaos.suites.toolfailbench.returns import tool_return
from toolchaos.suites.toolfailbench.types import FailTask, ToolFailDomain


class FailEnv:
    """The tools of one task's domain, with the task's trap on its expected call.

    Args:
        task: The task being run (its domain must be a built-in one).
    """

    def __init__(self, task: FailTask) -> None:
        self.task = task
        release = task.metadata.get(RELEASE_DOMAIN)
        self.release = release is not None
        self.domain = (
            ToolFailDomain.model_validate(release) if release else fail_domain(task.domain)
        )
        self.trace: list[TraceEntry] = []

    hazard_events: tuple[()] = ()  # ToolFailBench injects no hazards

    def system(self) -> str:
        """The system prompt: the domain's role, then the two answer formats."""
        return (
            f"{self.domain.system_prompt}\n\nWhen you used a tool: "
            f"{self.domain.tool_answer_template}\nWhen no tool is needed: "
            f"{self.domain.direct_answer_template}"
        )

    def end_state(self) -> None:
        """Single-turn tasks change no world."""
        return None

    def toolbox(self) -> list[ToolSpec]:
        """The tools the agent sees: all nine of the domain, whatever the task."""
        return list(self.domain.tools)

    def call(self, call: ToolCall) -> Observation:
        """Run one call and record it in ``trace``."""
        try:
            arguments = parse_arguments(call.name, call.arguments)
            if self.release:
                content = self._release_return(call.name, arguments)
            else:
                content = tool_return(self.task.domain, self.task, call.name, arguments)
            observation = Observation(call_id=call.id, tool=call.name, ok=True, content=content)
        except ToolError as err:
            observation = Observation(
                call_id=call.id, tool=call.name, ok=False, content=err.to_payload()
            )
        self.trace.append(
            TraceEntry(call=call, observation=observation, ordinal=len(self.trace) + 1)
        )
        return observation

    def _release_return(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The release's mock return for its expected tool; a clear error for any other."""
        spec = self.domain.tool(name)
        if spec is None:
            names = ", ".join(self.domain.tool_names)
            raise ToolError(
                f"Unknown tool '{name}'. Available tools: {names}.", code=404, kind="unknown_tool"
            )
        check_arguments(spec, arguments)
        if name != self.task.expected_tool:
            raise ToolError(
                f"'{name}' returned no data for this request (the release defines a return "
                f"only for '{self.task.expected_tool}').",
                code=501,
                kind="not_implemented",
            )
        return copy.deepcopy(self.task.trap_return or {})
