"""Whether another tool of an episode contradicts a task's trapped value.

A careful agent may cross-check a trap: look the same market up in the affordability tool,
the same court in the fee schedule. If that second tool says otherwise, the task punishes
care: an answer that weighs both reads as ignoring the trap. The v3 build refuses such a
draw (:mod:`toolchaos.suites.toolfailbench.generate`), and its report counts what this
module finds on the shipped tasks (0).

Two kinds of contradiction are looked for, on every call of another tool about the task's
entity (an argument set of some question's target sharing a string argument with the
expected call, and each :class:`~toolchaos.suites.toolfailbench._kit.Link` call):

- the other return has a field of the same name as the trapped one, with another value;
- a link of the domain derives the trapped quantity from the other return (income times
  the price-to-income ratio is a median price) and it lies more than :data:`TOLERANCE`
  (relative) from the trap.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from toolchaos.core.errors import ToolError
from toolchaos.core.jsonutil import dumps
from toolchaos.env.validation import check_arguments
from toolchaos.suites.toolfailbench._kit import DomainKit, Link, canonical
from toolchaos.suites.toolfailbench.domains import domain_kit
from toolchaos.suites.toolfailbench.returns import canonical_arguments, tool_return
from toolchaos.suites.toolfailbench.types import FailTask

TOLERANCE = 0.12
"""How far (relative) a value another tool implies may lie from the trap: the tools' own
data agree to a few percent (each draws near the same table row), a trap lies 15% or more
from its prior."""


@dataclass(frozen=True)
class Contradiction:
    """Another tool's call whose return states the trapped quantity otherwise."""

    tool: str
    arguments: dict[str, Any]
    field: str
    value: Any

    def describe(self) -> str:
        """One line for a report: the call and what it says."""
        return f"{self.tool}({dumps(self.arguments)}) gives {self.field} = {self.value!r}"


@cache
def _target_calls(domain: str) -> dict[str, list[dict[str, Any]]]:
    """Every distinct argument set of the domain's question targets, by tool."""
    kit = domain_kit(domain)
    calls: dict[str, dict[str, dict[str, Any]]] = {}
    for question in kit.questions:
        tool = kit.tools[question.tool]
        for target in question.targets():
            key = dumps(canonical_arguments(tool, target.arguments))
            calls.setdefault(question.tool, {}).setdefault(key, dict(target.arguments))
    return {name: list(found.values()) for name, found in calls.items()}


def _links(kit: DomainKit, question: str) -> list[Link]:
    return [link for link in kit.links if link.question == question]


def linked(kit: DomainKit, question: str) -> bool:
    """Whether another tool states or implies ``question``'s key value.

    Such a question is trapped only with the tool's own current value (a remembered
    prior), never with an invented one another tool would contradict.
    """
    asked = next(q for q in kit.questions if q.name == question)
    if _links(kit, question):
        return True
    return any(
        asked.key in tool.output.get("properties", {})
        for name, tool in kit.tools.items()
        if name != asked.tool
    )


def _link_call(kit: DomainKit, task: FailTask, link: Link) -> dict[str, Any] | None:
    params = kit.tools[link.tool].spec.parameters.get("properties", {})
    arguments = {k: v for k, v in task.expected_arguments.items() if k in params}
    arguments.update(link.fixed)
    try:
        check_arguments(kit.tools[link.tool].spec, arguments)
    except ToolError:
        return None
    return arguments


def related_calls(task: FailTask) -> list[tuple[str, dict[str, Any]]]:
    """The calls of other tools about the task's entity (see the module docstring)."""
    shared = {
        (name, canonical(value))
        for name, value in task.expected_arguments.items()
        if isinstance(value, str)
    }
    calls: list[tuple[str, dict[str, Any]]] = []
    for name, argument_sets in sorted(_target_calls(task.domain).items()):
        if name == task.expected_tool:
            continue
        for arguments in argument_sets:
            if any((k, canonical(v)) in shared for k, v in arguments.items()):
                calls.append((name, arguments))
    return calls


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _differs(trap: Any, value: Any) -> bool:
    a, b = _number(trap), _number(value)
    if a is not None and b is not None:
        return abs(a - b) > 1e-9 * max(1.0, abs(a))
    return bool(canonical(trap) != canonical(value))


def contradictions(task: FailTask) -> list[Contradiction]:
    """What other tools of the task's episode say against its trapped value (none is best)."""
    if task.trap_return is None or task.expected_tool is None:
        return []
    kit = domain_kit(task.domain)
    key = str(task.metadata.get("key_field", ""))
    trap = task.trap_return.get(key)
    found: list[Contradiction] = []
    for name, arguments in related_calls(task):
        data = tool_return(task.domain, task, name, arguments)
        if key in data and _differs(trap, data[key]):
            found.append(Contradiction(name, arguments, key, data[key]))
    question = str(task.metadata.get("question", ""))
    wanted = _number(trap)
    for link in _links(kit, question):
        call = _link_call(kit, task, link)
        if call is None or wanted is None:
            continue
        data = tool_return(task.domain, task, link.tool, call)
        implied = link.implied(task.trap_return, data)
        if implied is not None and abs(implied - wanted) > TOLERANCE * abs(wanted):
            found.append(Contradiction(link.tool, call, f"implied {key}", round(implied, 4)))
    return found


def checked_calls(task: FailTask) -> int:
    """How many calls :func:`contradictions` makes for ``task`` (for the build report)."""
    if task.trap_return is None:
        return 0
    kit = domain_kit(task.domain)
    question = str(task.metadata.get("question", ""))
    links = [link for link in _links(kit, question) if _link_call(kit, task, link) is not None]
    return len(related_calls(task)) + len(links)


def describe(found: list[Contradiction]) -> str:
    """The contradictions as one sentence (empty when there are none)."""
    return "; ".join(c.describe() for c in found)


__all__ = [
    "TOLERANCE",
    "Contradiction",
    "checked_calls",
    "contradictions",
    "describe",
    "linked",
    "related_calls",
]
