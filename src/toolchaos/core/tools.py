"""Tools: pure functions of (world, arguments) with a JSON schema the agent sees.

``@tool`` builds the schema from a function's signature and Google-style docstring and
refuses a parameter the docstring does not describe. The shared tool shapes in
``toolchaos.domains._shapes`` build tools from a few lines of data through the same
:func:`make_tool`, so every tool is one :class:`Tool` whatever its origin.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable
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


def make_tool(
    name: str,
    description: str,
    params: list[Param],
    fn: ToolFn,
    kind: ToolKind = ToolKind.READ,
) -> Tool:
    """Build a :class:`Tool` from its parts; every parameter must carry a description."""
    if not description.strip():
        raise SchemaError(f"tool {name!r} has no description")
    properties: dict[str, Any] = {}
    required: list[str] = []
    for p in params:
        if not p.description.strip():
            raise SchemaError(f"parameter {p.name!r} of tool {name!r} has no description")
        properties[p.name] = {**p.schema, "description": p.description.strip()}
        if p.required:
            required.append(p.name)
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    spec = ToolSpec(name=name, description=description.strip(), parameters=schema, kind=kind)
    return Tool(spec=spec, fn=fn)


def json_schema_for(annotation: Any) -> dict[str, Any]:
    """Return the JSON schema of a Python annotation used for a tool parameter."""
    origin = get_origin(annotation)
    if annotation is str:
        return {"type": "string"}
    if annotation is bool:
        return {"type": "boolean"}
    if annotation is int:
        return {"type": "integer"}
    if annotation is float:
        return {"type": "number"}
    if origin is Literal:
        values = list(get_args(annotation))
        kind = "integer" if all(isinstance(v, int) for v in values) else "string"
        return {"type": kind, "enum": values}
    if origin in (list, tuple) or annotation is list:
        args = get_args(annotation)
        schema: dict[str, Any] = {"type": "array"}
        if args:
            schema["items"] = json_schema_for(args[0])
        return schema
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
