"""Argument validation against a tool's JSON schema, worded like a real API's errors."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from toolchaos.core.errors import ToolError
from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import ToolSpec

_JSON_TYPES = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    list: "array",
    dict: "object",
    type(None): "null",
}


@lru_cache(maxsize=4096)
def _validator(schema_text: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_text))


def validator_for(spec: ToolSpec) -> Draft202012Validator:
    """Return a cached validator for the spec's parameter schema."""
    return _validator(dumps(spec.parameters))


MALFORMED_ARGUMENTS = "malformed_arguments"
"""The error type of a tool call whose arguments are not a JSON object: the model's mistake."""


def parse_arguments(tool: str, raw: str) -> dict[str, Any]:
    """Parse the raw argument text a model wrote; reject non-JSON and non-objects."""
    text = raw.strip() or "{}"
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToolError(
            f"Invalid JSON in arguments for '{tool}': {exc.msg} "
            f"(line {exc.lineno} column {exc.colno}).",
            code=400,
            kind=MALFORMED_ARGUMENTS,
        ) from None
    if not isinstance(value, dict):
        raise ToolError(
            f"Arguments for '{tool}' must be a JSON object.", code=400, kind=MALFORMED_ARGUMENTS
        )
    return value


def _describe(error: ValidationError, tool: str) -> str:
    instance: Any = error.instance
    expected: Any = error.validator_value
    schema: Any = error.schema
    where = ".".join(str(p) for p in error.absolute_path)
    if error.validator == "required":
        missing = [r for r in expected if r not in (instance or {})]
        name = missing[0] if missing else "?"
        return f"Missing required parameter: '{name}'."
    if error.validator == "additionalProperties":
        allowed = set(schema.get("properties", {}))
        extra = sorted(k for k in instance if k not in allowed)
        names = ", ".join(f"'{k}'" for k in extra)
        return f"Unrecognized request argument supplied: {names}."
    if error.validator == "type":
        got = _JSON_TYPES.get(type(instance), type(instance).__name__)
        want = expected
        return f"Invalid type for parameter '{where}': expected {want}, but got {got}."
    if error.validator == "enum":
        values = ", ".join(f"'{v}'" for v in expected)
        return (
            f"Invalid value for parameter '{where}': '{instance}'. Supported values are: {values}."
        )
    return f"Invalid value for parameter '{where}': {error.message}."


def check_arguments(spec: ToolSpec, arguments: dict[str, Any]) -> None:
    """Raise a 400 ToolError describing the first problem with ``arguments``, if any."""
    errors = sorted(
        validator_for(spec).iter_errors(arguments),
        key=lambda e: (len(e.absolute_path), str(e.validator)),
    )
    if errors:
        raise ToolError(_describe(errors[0], spec.name), code=400, kind="invalid_request_error")
