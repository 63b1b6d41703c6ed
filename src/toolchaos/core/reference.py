"""Resolve the oracle path's refs and compute an answer from step results.

Refs are data (``{"$ref": [step, key, ...]}``), never code: nothing here evaluates text.
"""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec


class Unresolved(LookupError):
    """A ref points at a step that has no result, or a key the result does not have."""


def follow(results: dict[int, Any], path: list[Any]) -> Any:
    """Return the value at ``path`` (``[step, key, ...]``) in ``results``."""
    if not path or path[0] not in results:
        raise Unresolved(f"no result for step {path[0] if path else '?'}")
    value = results[path[0]]
    for key in path[1:]:
        try:
            value = value[key]
        except (KeyError, IndexError, TypeError) as exc:
            raise Unresolved(f"missing {key!r} in result of step {path[0]}") from exc
    return value


def is_ref(value: Any) -> bool:
    """Return whether ``value`` is a ref object."""
    return isinstance(value, dict) and set(value) == {"$ref"}


def ref_steps(value: Any) -> set[int]:
    """Return the step indices that ``value`` (an argument tree) depends on."""
    if is_ref(value):
        return {int(value["$ref"][0])}
    if isinstance(value, dict):
        return set().union(*(ref_steps(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(ref_steps(v) for v in value))
    return set()


def resolve(value: Any, results: dict[int, Any]) -> Any:
    """Replace every ref in ``value`` by the value it points at."""
    if is_ref(value):
        return follow(results, list(value["$ref"]))
    if isinstance(value, dict):
        return {k: resolve(v, results) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, results) for v in value]
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Unresolved(f"expected a number, got {value!r}")
    return float(value)


def format_value(value: Any, digits: int | None) -> str:
    """Render an answer value: numbers rounded to ``digits``, whole numbers without ``.0``."""
    if isinstance(value, float):
        if digits is not None:
            value = round(value, digits)
        if value == int(value):
            return str(int(value))
        return f"{value:.{digits}f}".rstrip("0").rstrip(".") if digits is not None else repr(value)
    return str(value)


def compute_answer(spec: AnswerSpec, results: dict[int, Any]) -> str:
    """Compute the answer text that ``spec`` describes from the step results."""
    if spec.op == "none":
        return ""
    values = [follow(results, list(r)) for r in spec.refs]
    if spec.op == "value":
        if not values:
            raise Unresolved("value answer needs one ref")
        result: Any = values[0]
    elif spec.op == "count":
        result = len(values[0]) if len(values) == 1 and isinstance(values[0], list) else len(values)
    elif spec.op == "sum":
        result = sum(_number(v) for v in values)
    elif spec.op == "min":
        result = min(_number(v) for v in values)
    elif spec.op == "max":
        result = max(_number(v) for v in values)
    else:
        numbers = [_number(v) for v in values]
        best = max(numbers) if spec.op == "argmax" else min(numbers)
        index = numbers.index(best)
        labels = [resolve(label, results) for label in spec.labels]
        result = labels[index]
    if isinstance(result, int | float) and not isinstance(result, bool):
        result = float(result)
    text = format_value(result, spec.round)
    return f"{text} {spec.unit}".strip()
