"""Tools: pure functions of their arguments with a JSON schema the agent sees.

Every tool an agent sees, in either suite, gets its spec from :func:`tool_spec`, which
refuses a tool or a parameter without a description. Three declarations lead there:

- ``@tool`` reads the schema from a function's signature and Google-style docstring
  (a ToolBench-X tool: a function of a world and its arguments);
- :func:`make_tool` takes the parameters as data; the shared tool shapes in
  ``toolchaos.domains._shapes`` build their tools with it;
- a suite whose tools have no world (ToolFailBench: a pure function of the validated
  arguments, with a declared output schema) calls :func:`tool_spec` itself, with
  parameters described by the schema builders below (:func:`string`, :func:`choice`,
  :func:`record`...), which also describe its output.

The schema builders are the only ones: :func:`json_schema_for` and :func:`tool_spec` are
written with the same primitives, so a parameter reads the same whichever way it was
declared.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

import docstring_parser

from toolchaos.core.types import ToolKind, ToolSpec

ToolFn = Callable[..., Any]


class SchemaError(ValueError):
    """A tool cannot be declared as written (undocumented parameter, unsupported type...)."""


@dataclass(frozen=True)
class Param:
    """One tool parameter: its name, JSON schema, description and whether it is required."""

    name: str
    schema: dict[str, Any]
    description: str
    required: bool = True

    @classmethod
    def described(cls, name: str, schema: dict[str, Any], required: bool = True) -> Param:
        """A parameter whose schema already carries its description (built by :func:`string`...).

        The description keeps its place in the schema, so the agent reads the keywords in
        the order they were written.
        """
        return cls(name, schema, str(schema.get("description", "")), required)


@dataclass(frozen=True)
class Tool:
    """An executable tool: its spec plus the function that runs it on a world."""

    spec: ToolSpec
    fn: ToolFn

    @property
    def name(self) -> str:
        """The tool's name."""
        return self.spec.name

    @property
    def kind(self) -> ToolKind:
        """READ or WRITE."""
        return self.spec.kind

    def __call__(self, world: Any, /, **arguments: Any) -> Any:
        """Run the tool on ``world``."""
        return self.fn(world, **arguments)


def foreign_spec(name: str, description: str, parameters: dict[str, Any]) -> ToolSpec:
    """A tool spec exactly as another system wrote it, so the agent sees what it shows.

    For a published release, an MCP server or a user's OpenAI tool schema. Every spec
    toolchaos declares itself comes from :func:`tool_spec`.
    """
    return ToolSpec(name=name, description=description, parameters=parameters)


def tool_spec(
    name: str, description: str, params: Sequence[Param], kind: ToolKind = ToolKind.READ
) -> ToolSpec:
    """Build the spec an agent sees of a tool; every tool's spec is built here.

    Args:
        name: The tool name the agent sees.
        description: What the tool does.
        params: Its parameters, in the order the agent sees them.
        kind: READ for tools that only look, WRITE for tools that change a world.

    Returns:
        The spec, whose parameters are a closed object.

    Raises:
        SchemaError: The tool or one of its parameters has no description.
    """
    if not description.strip():
        raise SchemaError(f"tool {name!r} has no description")
    properties: dict[str, Any] = {}
    for p in params:
        if not p.description.strip():
            raise SchemaError(f"parameter {p.name!r} of tool {name!r} has no description")
        properties[p.name] = _described(p.schema, p.description.strip())
    parameters = _closed_object(properties, [p.name for p in params if p.required])
    return ToolSpec(name=name, description=description.strip(), parameters=parameters, kind=kind)


def make_tool(
    name: str,
    description: str,
    params: list[Param],
    fn: ToolFn,
    kind: ToolKind = ToolKind.READ,
) -> Tool:
    """Build a :class:`Tool` from its parts; every parameter must carry a description."""
    return Tool(spec=tool_spec(name, description, params, kind), fn=fn)


# --------------------------------------------------------------------------- schemas

_SCALARS: tuple[tuple[type, str], ...] = (
    (str, "string"),
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
)


def _described(schema: dict[str, Any], description: str, **keywords: Any) -> dict[str, Any]:
    # A description the schema already holds is replaced in place (a dict keeps a key's
    # first position), so a schema built by string() and the like reads as written.
    return {**schema, "description": description, **keywords}


def _enum(values: Sequence[Any]) -> dict[str, Any]:
    kind = "integer" if all(isinstance(v, int) for v in values) else "string"
    return {"type": kind, "enum": list(values)}


def _array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def _closed_object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def string(description: str, **keywords: Any) -> dict[str, Any]:
    """A described string; ``keywords`` add JSON-schema keywords (``pattern``, ``format``...)."""
    return _described(json_schema_for(str), description, **keywords)


def number(description: str, **keywords: Any) -> dict[str, Any]:
    """A described number; ``keywords`` add JSON-schema keywords (``minimum``...)."""
    return _described(json_schema_for(float), description, **keywords)


def integer(description: str, **keywords: Any) -> dict[str, Any]:
    """A described integer; ``keywords`` add JSON-schema keywords (``minimum``, ``default``...)."""
    return _described(json_schema_for(int), description, **keywords)


def boolean(description: str, **keywords: Any) -> dict[str, Any]:
    """A described boolean."""
    return _described(json_schema_for(bool), description, **keywords)


def choice(values: Sequence[Any], description: str, **keywords: Any) -> dict[str, Any]:
    """A described string or integer restricted to ``values`` (integer when all are ints)."""
    return _described(_enum(values), description, **keywords)


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` that also admits null."""
    return {**schema, "type": [schema["type"], "null"]}


def array(items: dict[str, Any], description: str) -> dict[str, Any]:
    """A described array of ``items``."""
    return _described(_array(items), description)


def record(fields: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """An object whose fields are all required and closed to others (a tool's output)."""
    return _closed_object(fields, list(fields))


def json_schema_for(annotation: Any) -> dict[str, Any]:
    """Return the JSON schema of a Python annotation used for a tool parameter."""
    origin = get_origin(annotation)
    for scalar, kind in _SCALARS:
        if annotation is scalar:
            return {"type": kind}
    if origin is Literal:
        return _enum(get_args(annotation))
    if origin in (list, tuple) or annotation is list:
        args = get_args(annotation)
        return _array(json_schema_for(args[0])) if args else {"type": "array"}
    if origin is dict or annotation is dict:
        return {"type": "object"}
    if origin in (typing.Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        if len(members) == 1:
            return json_schema_for(members[0])
    raise SchemaError(f"unsupported parameter type {annotation!r}")


def tool(kind: ToolKind = ToolKind.READ, name: str | None = None) -> Callable[[ToolFn], Tool]:
    """Declare a tool from a function ``fn(world, arg1, ...)``.

    The first parameter receives the world and is not part of the schema. Every other
    parameter needs a type annotation and a description in the docstring's ``Args:``.

    Args:
        kind: READ for tools that only look, WRITE for tools that change the world.
        name: The tool name the agent sees; defaults to the function name.

    Returns:
        A decorator turning the function into a :class:`Tool`.
    """

    def decorate(fn: ToolFn) -> Tool:
        tool_name = name or fn.__name__
        doc = docstring_parser.parse(inspect.getdoc(fn) or "")
        described = {p.arg_name: (p.description or "") for p in doc.params}
        hints = typing.get_type_hints(fn)
        params: list[Param] = []
        signature = inspect.signature(fn)
        for i, (pname, parameter) in enumerate(signature.parameters.items()):
            if i == 0:
                continue
            if pname not in hints:
                raise SchemaError(f"parameter {pname!r} of tool {tool_name!r} has no type")
            if not described.get(pname, "").strip():
                raise SchemaError(
                    f"parameter {pname!r} of tool {tool_name!r} is not described in the "
                    "docstring's Args section"
                )
            schema = json_schema_for(hints[pname])
            has_default = parameter.default is not inspect.Parameter.empty
            if has_default and parameter.default is not None:
                schema["default"] = parameter.default
            params.append(Param(pname, schema, described[pname], required=not has_default))
        text = "\n\n".join(part for part in (doc.short_description, doc.long_description) if part)
        return make_tool(tool_name, text, params, fn, kind)

    return decorate
