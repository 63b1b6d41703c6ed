"""What a ToolFailBench tool returns: the task's trap for its expected call, data otherwise.

Returns are per tool, as the suite's design asks. The task's expected tool, called with
the task's expected arguments, returns the task's stored ``trap_return``. Every other call
(another tool, or the expected tool with other arguments) returns that tool's own
deterministic, plausible data for those arguments, so no two tools answer alike and the
trap is never handed to every call.

Arguments are compared in a canonical form: defaults filled in from the schema, strings
folded to lowercase letters and digits ("aapl" == "AAPL", "18 USC 1343" ==
"18 U.S.C. § 1343"), integral floats as ints, and order-free arguments (the two drugs of
an interaction check) sorted, and an entity named by an alias the tool knows resolved to
its canonical name ("Visa" is V, "Pradaxa" is dabigatran, "D.C. v. Heller" is District of
Columbia v. Heller, "Austin" is Austin, TX), so a faithful call by alias gets the trap.
An extra optional argument with a non-default value asks a
different question and gets the tool's own data.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from toolchaos.core.errors import BadInput, ToolError
from toolchaos.core.jsonutil import dumps
from toolchaos.env.validation import check_arguments
from toolchaos.suites.toolfailbench._kit import Call, Draw, ToolDef, canonical
from toolchaos.suites.toolfailbench.domains import domain_kit
from toolchaos.suites.toolfailbench.types import FailTask


def _with_defaults(tool: ToolDef, arguments: Mapping[str, Any]) -> dict[str, Any]:
    filled = tool.resolve(arguments)
    for name, schema in tool.spec.parameters.get("properties", {}).items():
        if name not in filled and "default" in schema:
            filled[name] = schema["default"]
    return filled


def canonical_arguments(tool: ToolDef, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments as compared and hashed: canonical values, order-free ones sorted."""
    canon: dict[str, Any] = canonical(_with_defaults(tool, arguments))
    if tool.unordered:
        values = sorted((canon.get(n) for n in tool.unordered), key=dumps)
        canon.update(zip(tool.unordered, values, strict=True))
    return canon


def arguments_match(tool: ToolDef, expected: Mapping[str, Any], given: Mapping[str, Any]) -> bool:
    """Whether ``given`` asks the same thing of ``tool`` as ``expected``."""
    return canonical_arguments(tool, expected) == canonical_arguments(tool, given)


def own_return(
    domain: str,
    tool_name: str,
    arguments: Mapping[str, Any],
    override: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The tool's own data for valid ``arguments`` (with ``override`` for a trap's key field)."""
    tool = domain_kit(domain).tools[tool_name]
    key = f"{domain}|{tool_name}|{dumps(canonical_arguments(tool, arguments))}"
    return tool.produce(Call(_with_defaults(tool, arguments), Draw(key), dict(override or {})))


def tool_return(
    domain: str, task: FailTask | None, tool_name: str, arguments: Mapping[str, Any]
) -> dict[str, Any]:
    """What tool ``tool_name`` returns for ``arguments`` within ``task``.

    Args:
        domain: A built-in domain name (``finance``, ``medicine``, ``law``,
            ``cybersecurity``, ``real_estate``).
        task: The task being run, or None outside a task (every tool then returns its
            own data).
        tool_name: The tool the agent called.
        arguments: The parsed arguments of the call.

    Returns:
        A fresh copy of ``task.trap_return`` when the call is the task's expected call,
        else the tool's own deterministic data for these arguments.

    Raises:
        BadInput: The domain is unknown, or the task belongs to another domain.
        ToolError: The domain has no tool ``tool_name`` (404, ``unknown_tool``) or the
            arguments break its schema (400); the agent sees these as tool errors.
    """
    kit = domain_kit(domain)
    if task is not None and task.domain != domain:
        raise BadInput(f"task {task.id} belongs to domain {task.domain!r}, not {domain!r}")
    tool = kit.tools.get(tool_name)
    if tool is None:
        names = ", ".join(sorted(kit.tools))
        raise ToolError(
            f"Unknown tool '{tool_name}'. Available tools: {names}.",
            code=404,
            kind="unknown_tool",
        )
    if not isinstance(arguments, Mapping):
        raise ToolError(f"Arguments for '{tool_name}' must be a JSON object.", code=400)
    check_arguments(tool.spec, dict(arguments))
    if (
        task is not None
        and task.trap_return is not None
        and task.expected_tool == tool_name
        and arguments_match(tool, task.expected_arguments, arguments)
    ):
        return copy.deepcopy(task.trap_return)
    return own_return(domain, tool_name, arguments)
