"""Recovery recipes as code: how each recipe action repairs a failed or drifted call.

A recipe is data on the task (:class:`~toolchaos.core.types.RecoveryStep` list). The
oracle baseline and the build's solvability check both apply it through this module, so
"the recipe recovers" is tested by replaying it, never by reading it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from toolchaos.core.types import RecoveryStep
from toolchaos.hazards.base import transform_keys


@dataclass
class Retry:
    """What to do next about a failed call: call ``tool`` with ``arguments`` again."""

    tool: str
    arguments: dict[str, Any]


def on_error(
    recipe: list[RecoveryStep],
    tool: str,
    arguments: dict[str, Any],
    attempts: int,
    error: dict[str, Any],
) -> Retry | None:
    """Return the recovering call for an error, or None when the recipe has none.

    Args:
        recipe: The task's recovery steps.
        tool: The tool that failed.
        arguments: The arguments it was called with.
        attempts: How many times this step has been attempted so far.
        error: The error payload the agent saw.
    """
    for step in recipe:
        if step.action == "retry" and attempts < int(step.params.get("max_attempts", 3)):
            return Retry(tool, arguments)
        if step.action == "fallback" and tool != step.params["tool"]:
            mapping: dict[str, str] = step.params.get("args_map", {})
            mapped = {new: arguments[old] for new, old in mapping.items() if old in arguments}
            return Retry(str(step.params["tool"]), mapped)
    return None


def on_result(recipe: list[RecoveryStep], result: Any) -> Any:
    """Undo output drift in ``result`` as the recipe says (a no-op on an undrifted result)."""
    for step in recipe:
        if step.action == "normalize":
            result = transform_keys(result, _renamer(step.params.get("rename", {})))
        elif step.action == "convert":
            result = _convert_back(
                result, str(step.params["field"]), float(step.params["divide_by"])
            )
    return result


def _renamer(renames: dict[str, str]) -> Callable[[str, Any], tuple[str, Any] | None]:
    return lambda k, v: (renames[k], v) if k in renames else None


def _convert_back(value: Any, name: str, factor: float) -> Any:
    if isinstance(value, dict):
        out = {k: _convert_back(v, name, factor) for k, v in value.items()}
        units = out.get("units")
        if isinstance(units, dict) and name in units and isinstance(out.get(name), int | float):
            out[name] = round(out[name] / factor, 4)
            rest = {k: v for k, v in units.items() if k != name}
            if rest:
                out["units"] = rest
            else:
                out.pop("units")
        return out
    if isinstance(value, list):
        return [_convert_back(v, name, factor) for v in value]
    return value
