"""Argument validation against a tool's JSON schema, worded like a real API's errors."""

from __future__ import annotations

import json
from collections.abc import Callable
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


Check = Callable[[dict[str, Any]], bool]
"""A fast test that arguments are valid: True only where the schema validator finds no error."""

# exact types only: a bool is no integer, and a float that is whole is left to jsonschema
_FAST_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}
_ANNOTATIONS = frozenset({"description", "default", "title", "examples"})


def _property_check(schema: Any) -> Callable[[Any], bool] | None:
    """A test of one parameter value, or None when its schema has a keyword not handled here."""
    if not isinstance(schema, dict) or set(schema) - _ANNOTATIONS - {"type", "enum", "minimum"}:
        return None
    kinds = _FAST_TYPES.get(schema["type"]) if isinstance(schema.get("type"), str) else None
    if "type" in schema and kinds is None:
        return None
    enum = schema.get("enum")
    if enum is not None and not (isinstance(enum, list) and all(type(e) is str for e in enum)):
        return None
    words = frozenset(enum) if enum is not None else None
    minimum = schema.get("minimum")
    if minimum is not None and type(minimum) not in (int, float):
        return None

    def check(value: Any) -> bool:
        if kinds is not None and type(value) not in kinds:
            return False
        if words is not None and not (type(value) is str and value in words):
            return False
        return minimum is None or (type(value) in (int, float) and not value < minimum)

    return check


@lru_cache(maxsize=4096)
def _fast_check(schema_text: str) -> Check | None:
    """Compile a tool's parameter schema into a plain-Python test, where it is simple enough.

    The schemas tools are declared with (a closed object of typed, enumerated or bounded
    scalars) are; anything else (nested objects, ``anyOf``, formats) returns None and is
    left to jsonschema. A False from the test is not an error message: the caller asks
    jsonschema for the exact error then.
    """
    schema = json.loads(schema_text)
    if set(schema) - _ANNOTATIONS - {"type", "properties", "required", "additionalProperties"}:
        return None
    if schema.get("type", "object") != "object":
        return None
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    closed = schema.get("additionalProperties", True)
    if (
        not isinstance(properties, dict)
        or not isinstance(required, list)
        or type(closed) is not bool
    ):
        return None
    checks = {name: _property_check(sub) for name, sub in properties.items()}
    if any(c is None for c in checks.values()):
        return None
    needed = tuple(required)

    def check(arguments: dict[str, Any]) -> bool:
        for name in needed:
            if name not in arguments:
                return False
        for name, value in arguments.items():
            test = checks.get(name)
            if test is None:
                if closed is False:
                    return False
            elif not test(value):
                return False
        return True

    return check


# parameter schema -> its fast check, by identity; the entry holds the schema, so an id is
# never reused while it is cached (specs are immutable, and hazards build theirs per call)
_BY_IDENTITY: dict[int, tuple[dict[str, Any], Check | None]] = {}


def _fast_check_for(spec: ToolSpec) -> Check | None:
    parameters = spec.parameters
    held = _BY_IDENTITY.get(id(parameters))
    if held is not None and held[0] is parameters:
        return held[1]
    check = _fast_check(dumps(parameters))
    if len(_BY_IDENTITY) >= 4096:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[id(parameters)] = (parameters, check)
    return check


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
    check = _fast_check_for(spec)
    if check is not None and check(arguments):
        return
    errors = sorted(
        validator_for(spec).iter_errors(arguments),
        key=lambda e: (len(e.absolute_path), str(e.validator)),
    )
    if errors:
        raise ToolError(_describe(errors[0], spec.name), code=400, kind="invalid_request_error")
