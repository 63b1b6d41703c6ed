"""What variants' proposers read off a task: its path's tools, the refs it reads, its answer.

Shared by the ``propose`` classmethods of the family modules; each works on the unhazarded
task and the results of its reference steps in the clean world.
"""

from __future__ import annotations

from typing import Any

from toolchaos.core.reference import Unresolved, follow, is_ref
from toolchaos.core.types import TaskSpec
from toolchaos.hazards.base import Results

NUMERIC_OPS = ("value", "sum", "min", "max")
"""Answer ops whose answer is a number read from a result field."""


def step_tools(task: TaskSpec) -> list[str]:
    """The distinct tools of the task's reference path, in order."""
    seen: list[str] = []
    for step in task.reference.steps:
        if step.tool not in seen:
            seen.append(step.tool)
    return seen


def tool_count(task: TaskSpec, tool: str) -> int:
    """How many steps of the task's reference path call ``tool``."""
    return sum(step.tool == tool for step in task.reference.steps)


def read_paths(task: TaskSpec) -> list[list[Any]]:
    """Every ref path the task's path reads: argument refs and answer refs."""
    paths: list[list[Any]] = []

    def walk(value: Any) -> None:
        if is_ref(value):
            paths.append(list(value["$ref"]))
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for step in task.reference.steps:
        walk(step.args)
    paths.extend(list(r) for r in task.reference.answer_spec.refs)
    walk(task.reference.answer_spec.labels)
    return paths


def value_at(results: Results, path: list[Any]) -> Any:
    """The clean value a ref path reaches, or None where it reaches nothing."""
    try:
        return follow(results, path)
    except Unresolved:
        return None


def answer_fields(task: TaskSpec, results: Results) -> list[tuple[int, str, Any]]:
    """(step, field, clean value) for every answer ref that ends in a field name."""
    out = []
    for path in task.reference.answer_spec.refs:
        if isinstance(path[-1], str):
            out.append((int(path[0]), str(path[-1]), value_at(results, list(path))))
    return out


def camel(name: str) -> str:
    """The camelCase form of a name: ``temp_c`` -> ``tempC``, ``city`` -> ``cityValue``."""
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest) if rest else f"{name}Value"
