"""How a ToolFailBench episode is set up: the domain's role prompt and its tools."""

from __future__ import annotations

from toolchaos.suites.toolfailbench.domains import get_domain
from toolchaos.suites.toolfailbench.env import FailEnv
from toolchaos.suites.toolfailbench.types import FailTask


def fail_system(task: FailTask) -> str:
    """The system prompt: the domain's role, then the two answer formats."""
    domain = get_domain(task.domain)
    return (
        f"{domain.system_prompt}\n\nWhen you used a tool: {domain.tool_answer_template}\n"
        f"When no tool is needed: {domain.direct_answer_template}"
    )


def fail_env(task: FailTask) -> FailEnv:
    """The episode's tools: all nine of the domain, the task's trap on its expected call."""
    return FailEnv(task)
