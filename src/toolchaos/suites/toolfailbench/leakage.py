"""Leakage checks: nothing the agent sees may give away a task's answer.

For a tool-required task, no normalized form of the trap value or of any ``must_contain``
value may appear in the prompt, in the domain's tool descriptions (names, descriptions
and parameter schemas) or in the domain's system prompt and answer formats; otherwise a
model could answer without the tool, or echo the text and look faithful. For a control,
whose answer may well use words of the tool descriptions, no ``must_contain`` value may
appear in its own prompt (the question must not contain its answer).

Matching is ``toolchaos.scoring.answer.leaks``: normalized tokens at token boundaries, so
"12" does not leak through "2012" and "$4,000" leaks through "4000 mg".
"""

from __future__ import annotations

from toolchaos.core.jsonutil import dumps
from toolchaos.scoring.answer import leaks
from toolchaos.suites.toolfailbench.types import FailTask, ToolFailDomain


def tool_text(domain: ToolFailDomain) -> str:
    """Everything the agent reads about the domain's tools, as one text."""
    return "\n".join(dumps(t.to_openai()) for t in domain.tools)


def prompt_text(domain: ToolFailDomain) -> str:
    """The domain's system prompt and answer formats, as one text."""
    return "\n".join(
        [domain.system_prompt, domain.tool_answer_template, domain.direct_answer_template]
    )


def answer_values(task: FailTask) -> list[str]:
    """The values a task's answer hinges on: trap value, then ``must_contain`` entries."""
    values = [task.trap_value] if task.trap_value else []
    return list(dict.fromkeys([*values, *task.must_contain]))


def leak_problems(task: FailTask, domain: ToolFailDomain | None = None) -> list[str]:
    """Every place where a task's answer shows in what the agent sees.

    Args:
        task: The task to check.
        domain: The domain whose tools and prompts the agent sees; the built-in domain of
            ``task.domain`` when None (pass the imported domain for a v5 task).

    Returns:
        One sentence per leak, e.g. ``"task tfb-finance-skip-001: trap value '118.42'
        appears in the prompt"``; empty when nothing leaks.
    """
    if domain is None:
        from toolchaos.suites.toolfailbench.domains import fail_domain

        domain = fail_domain(task.domain)
    places = {"the prompt": task.prompt}
    if task.needs_tool:
        values = answer_values(task)
        places["the tool descriptions"] = tool_text(domain)
        places["the system prompt or answer formats"] = prompt_text(domain)
    else:
        values = list(task.must_contain)
    problems = []
    for value in values:
        what = "trap value" if value == task.trap_value else "must_contain value"
        for where, text in places.items():
            if leaks(value, text):
                problems.append(f"task {task.id}: {what} {value!r} appears in {where}")
    return problems
