"""A generated world domain: a data-driven world and tools that run only in the sandbox.

A :class:`DomainSpec` is what a generation run stores for one subtopic: the world's
tables (each a field schema and its seeded rows, as data) and the tool module's source.
:func:`build_domain` turns it into an ordinary :class:`~toolchaos.domains.Domain`:

- the world is a :class:`~toolchaos.core.world.World` subclass made from the schema,
  whose ``generate`` returns the stored rows (the same bytes for every seed), so it
  forks, hashes and patches like a shipped world;
- each tool's spec is read from the source's AST (signature and docstring, through
  :func:`~toolchaos.core.tools.tool_spec`), never by importing it; its body runs in
  :func:`~.sandbox.run_sandboxed` on the world's tables as JSON, and the tables the call
  changed are written back through the world's own ``insert``/``update``/``delete``.

A tool that refuses (``ToolError``) is an observation the agent sees (invariant 3); a
tool that crashes is answered as a real API's 500; one the sandbox kills (time, memory)
is a harness fault, stored as an ``error`` episode.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any, ClassVar, Literal

import docstring_parser
from pydantic import BaseModel, create_model

from toolchaos.core.errors import BadInput, ToolError
from toolchaos.core.tools import Param, SchemaError, Tool, json_schema_for, tool_spec
from toolchaos.core.types import ToolKind
from toolchaos.core.world import Row, World
from toolchaos.domains import Domain
from toolchaos.suites.toolbench_x.generation.check import check_source
from toolchaos.suites.toolbench_x.generation.sandbox import Limits, run_sandboxed

FieldType = Literal["string", "integer", "number", "boolean", "list"]
_PY: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "list": list[str],
}
_ANNOTATIONS: dict[str, Any] = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "list[str]": list[str],
    "list[int]": list[int],
    "list[float]": list[float],
}


class TableSpec(BaseModel):
    """One table of a generated world: its fields' types and its seeded rows by key."""

    fields: dict[str, FieldType]
    rows: dict[str, dict[str, Any]]


class DomainSpec(BaseModel):
    """A generated domain as stored: its name, topic, tables and tool module."""

    name: str
    topic: str
    tables: dict[str, TableSpec]
    source: str


class GeneratedToolError(ValueError):
    """A generated tool module cannot be declared (refused by the check, or no spec)."""


def parse_tools(source: str) -> list[tuple[str, Any]]:
    """The (name, spec) of every top-level tool function of ``source``, read from its AST.

    A tool is a function whose first parameter is the world's tables (``db``), whose
    other parameters are annotated (``str``, ``int``, ``float``, ``bool``, ``list[str]``
    ...) and described in the docstring's ``Args:``; ``@write`` marks one that changes
    the world (``@read`` or nothing: it only reads).

    Raises:
        GeneratedToolError: The allow-list refuses the source, or a tool is malformed.
    """
    refusals = check_source(source)
    if refusals:
        raise GeneratedToolError("; ".join(str(r) for r in refusals))
    out = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        kinds = [d.id for d in node.decorator_list if isinstance(d, ast.Name)]
        if len(kinds) != len(node.decorator_list) or not set(kinds) <= {"read", "write"}:
            raise GeneratedToolError(f"{node.name}: only @read or @write may decorate a tool")
        kind = ToolKind.WRITE if "write" in kinds else ToolKind.READ
        doc = docstring_parser.parse(ast.get_docstring(node) or "")
        described = {p.arg_name: p.description or "" for p in doc.params}
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or not args.args:
            raise GeneratedToolError(f"{node.name}: a tool takes db and named parameters only")
        with_default = args.args[len(args.args) - len(args.defaults) :]
        defaults = dict(zip([a.arg for a in with_default], args.defaults, strict=True))
        params = []
        for arg in args.args[1:]:
            text = ast.unparse(arg.annotation) if arg.annotation else ""
            if text not in _ANNOTATIONS:
                raise GeneratedToolError(f"{node.name}: parameter {arg.arg} has type {text!r}")
            schema = json_schema_for(_ANNOTATIONS[text])
            default = defaults.get(arg.arg)
            if default is not None:
                try:
                    value = ast.literal_eval(default)
                except ValueError:
                    raise GeneratedToolError(f"{node.name}: {arg.arg}'s default") from None
                if value is not None:
                    schema["default"] = value
            params.append(
                Param(arg.arg, schema, described.get(arg.arg, ""), required=default is None)
            )
        text = "\n\n".join(p for p in (doc.short_description, doc.long_description) if p)
        try:
            spec = tool_spec(node.name, text, params, kind)
        except SchemaError as exc:
            raise GeneratedToolError(str(exc)) from None
        out.append((node.name, spec))
    if not out:
        raise GeneratedToolError("the module defines no tool")
    return out


def _world_type(spec: DomainSpec) -> type[World]:
    fields: dict[str, Any] = {}
    rows: dict[str, type[Row]] = {}
    for table, shape in spec.tables.items():
        row_fields: dict[str, Any] = {name: (_PY[kind], ...) for name, kind in shape.fields.items()}
        row_type = create_model(f"{table.title()}Row", __base__=Row, **row_fields)
        rows[table] = row_type
        fields[table] = (dict[str, row_type], {})

    def generate(cls: type[World], rng: random.Random, seed: int) -> World:
        tables = {
            name: {key: rows[name].model_validate(row) for key, row in shape.rows.items()}
            for name, shape in spec.tables.items()
        }
        return cls(seed=seed, **tables)

    world = create_model(f"{spec.name.title().replace('_', '')}World", __base__=World, **fields)
    world.TABLES = tuple(spec.tables)
    world.generate = classmethod(generate)  # type: ignore[assignment,method-assign]
    return world


def _tables(world: World) -> dict[str, dict[str, Any]]:
    return {
        name: {key: row.model_dump(mode="json") for key, row in world.table(name).items()}
        for name in world.TABLES
    }


def _write_back(world: World, before: dict[str, dict[str, Any]], after: Any) -> None:
    if not isinstance(after, dict):
        raise RuntimeError("the tool left the world's tables in a shape that is not a dict")
    for name, old in before.items():
        new = after.get(name, {})
        for key in old:
            if key not in new:
                world.delete(name, key)
        for key, row in new.items():
            if old.get(key) != row:
                row_type = type(world).model_fields[name].annotation.__args__[1]  # type: ignore[union-attr]
                try:
                    world.insert(name, key, row_type.model_validate(row))
                except ValueError as exc:
                    raise ToolError(f"Internal Server Error: bad record: {exc}", code=500) from None


def _sandboxed(name: str, source: str, limits: Limits) -> Any:
    def call(world: World, /, **arguments: Any) -> Any:
        before = _tables(world)
        result = run_sandboxed(source, name, limits=limits, state=before, **arguments)
        if result.outcome == "tool_error":
            value = result.value or {}
            raise ToolError(str(value.get("message", "")), code=int(value.get("code", 400)))
        if result.outcome == "error":
            raise ToolError(f"Internal Server Error ({result.reason.split(':')[0]})", code=500)
        if result.outcome != "ok":
            raise RuntimeError(f"the sandbox stopped {name}: {result.reason}")
        _write_back(world, before, result.state)
        return result.value

    return call


def build_domain(spec: DomainSpec, limits: Limits | None = None) -> Domain:
    """The :class:`Domain` of a generated spec (its tools run in the sandbox).

    Raises:
        GeneratedToolError: The tool module is refused or malformed.
    """
    limits = limits or Limits()
    tools = {
        name: Tool(spec=tool, fn=_sandboxed(name, spec.source, limits))
        for name, tool in parse_tools(spec.source)
    }
    return Domain(name=spec.name, topic=spec.topic, world_type=_world_type(spec), tools=tools)


class _Loaded:
    """The generated domains loaded in this process, by name (``DOMAINS`` points here)."""

    specs: ClassVar[dict[str, tuple[DomainSpec, Limits | None]]] = {}

    def __getattr__(self, name: str) -> Any:
        if name not in self.specs:
            raise AttributeError(name)
        spec, limits = self.specs[name]
        return lambda: build_domain(spec, limits)


LOADED = _Loaded()


def register_generated(spec: DomainSpec, limits: Limits | None = None) -> None:
    """Register ``spec`` in :data:`~toolchaos.domains.DOMAINS` for this process.

    ``get_domain(spec.name)`` then builds it (once), with its tools run under ``limits``.
    """
    from toolchaos.domains import DOMAINS

    DOMAINS.register(spec.name, f"{__name__}:LOADED.{spec.name}")
    _Loaded.specs[spec.name] = (spec, limits)


def load_generated(folder: Path) -> list[str]:
    """Register every generated domain stored as ``folder/<name>.json``; their names.

    Raises:
        BadInput: A stored domain does not parse (one sentence naming the file).
    """
    names = []
    for file in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            spec = DomainSpec.model_validate_json(file.read_text(encoding="utf-8"))
        except (ValueError, OSError) as exc:
            first = str(exc).splitlines()[0]
            raise BadInput(f"generated domain {file} cannot be read: {first}") from None
        try:
            register_generated(spec)
        except ValueError as exc:
            raise BadInput(f"generated domain {file}: {exc}") from None
        names.append(spec.name)
    return names
