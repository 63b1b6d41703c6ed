"""Shared tool shapes: a domain declares tools as data and these build them.

The shapes are look up by key, search with filters, list related rows, aggregate a field,
create a row, update a row, keep the rows a listing's filters ask for, and serve one fact
from several independent sources. Each returns a :class:`~toolchaos.core.tools.Tool` built
through :func:`~toolchaos.core.tools.make_tool`, so it validates and documents itself the
same way a hand-written ``@tool`` does.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from toolchaos.core.errors import ToolError
from toolchaos.core.tools import Param, Tool, ToolFn, make_tool, tool
from toolchaos.core.types import ToolKind
from toolchaos.core.world import Row, World
from toolchaos.domains._common import listing, row_json, stored_key

RowView = Callable[[World, Row], dict[str, Any]]
Declare = Callable[..., Callable[[ToolFn], Tool]]

_R = TypeVar("_R")


def phrased_tool(phrases: Mapping[str, str]) -> Callable[..., Callable[[ToolFn], Tool]]:
    """Return a ``@tool`` that first fills a domain's shared phrases into the docstring.

    A domain writes ``{device}`` (say) in many tools' ``Args:`` and result descriptions
    and keeps the wording once, in ``phrases``. The returned decorator factory takes the
    same arguments as :func:`~toolchaos.core.tools.tool`.

    Args:
        phrases: The phrase of each placeholder name; read when a tool is declared.

    Returns:
        ``decorator(kind=ToolKind.READ, name=None)``, used as ``@_tool()`` or
        ``@_tool(ToolKind.WRITE)``.
    """

    def declare(
        kind: ToolKind = ToolKind.READ, name: str | None = None
    ) -> Callable[[ToolFn], Tool]:
        def decorate(fn: ToolFn) -> Tool:
            fn.__doc__ = (fn.__doc__ or "").format(**phrases)
            return tool(kind, name)(fn)

        return decorate

    return declare


def default_view(world: World, row: Row) -> dict[str, Any]:
    """Return a row as the JSON an API would send."""
    return row_json(row)


@dataclass(frozen=True)
class Filter:
    """A search filter: the parameter the agent passes and how it matches a row field.

    ``op`` is ``eq`` (case-insensitive for strings), ``contains`` (substring, case-folded),
    ``min`` (field >= value) or ``max`` (field <= value).
    """

    param: str
    field: str
    description: str
    schema: dict[str, Any] = dataclasses.field(default_factory=lambda: {"type": "string"})
    op: Literal["eq", "contains", "min", "max"] = "eq"
    required: bool = False

    def matches(self, row: Row, value: Any) -> bool:
        """Return whether ``row`` passes this filter for ``value``."""
        have = getattr(row, self.field)
        if self.op == "eq":
            if isinstance(have, str) and isinstance(value, str):
                return have.casefold() == value.casefold()
            return bool(have == value)
        if self.op == "contains":
            return str(value).casefold() in str(have).casefold()
        if have is None:
            return False
        if self.op == "min":
            return bool(have >= value)
        return bool(have <= value)


def matching_rows(
    world: World, table: str, filters: list[Filter], args: dict[str, Any]
) -> list[Row]:
    """The rows of ``table`` that pass every filter the caller gave a value for."""
    rows: list[Row] = list(world.table(table).values())
    for f in filters:
        if f.param in args and args[f.param] is not None:
            rows = [r for r in rows if f.matches(r, args[f.param])]
    return rows


def filter_params(filters: list[Filter]) -> list[Param]:
    """The tool parameters that a list of filters exposes."""
    return [Param(f.param, f.schema, f.description, f.required) for f in filters]


def lookup(
    name: str,
    table: str,
    key_param: str,
    entity: str,
    description: str,
    key_description: str,
    view: RowView = default_view,
) -> Tool:
    """Build a READ tool that returns one row by its key, or a 404 ToolError."""

    def run(world: World, **args: Any) -> dict[str, Any]:
        key = stored_key(world.table(table), args[key_param], entity)
        return view(world, world.table(table)[key])

    return make_tool(
        name, description, [Param(key_param, {"type": "string"}, key_description)], run
    )


def search(
    name: str,
    table: str,
    description: str,
    filters: list[Filter],
    view: RowView = default_view,
    sort_by: str | None = None,
    limit: int = 20,
) -> Tool:
    """Build a READ tool that returns the rows matching every given filter."""

    def run(world: World, **args: Any) -> dict[str, Any]:
        rows = matching_rows(world, table, filters, args)
        if sort_by is not None:
            rows.sort(key=lambda r: getattr(r, sort_by))
        return listing(rows, limit, lambda r: view(world, r))

    return make_tool(name, description, filter_params(filters), run)


def aggregate(
    name: str,
    table: str,
    description: str,
    value_field: str,
    op: Literal["sum", "avg", "count", "max", "min"],
    filters: list[Filter],
    result_key: str,
    digits: int = 2,
) -> Tool:
    """Build a READ tool that aggregates ``value_field`` over the rows matching the filters."""

    def run(world: World, **args: Any) -> dict[str, Any]:
        rows = matching_rows(world, table, filters, args)
        values = [getattr(r, value_field) for r in rows]
        if op == "count":
            result: float | int = len(values)
        elif not values:
            raise ToolError("no records match the given filters", code=404, kind="not_found")
        elif op == "sum":
            result = round(sum(values), digits)
        elif op == "avg":
            result = round(sum(values) / len(values), digits)
        elif op == "max":
            result = max(values)
        else:
            result = min(values)
        return {result_key: result, "matched": len(values)}

    return make_tool(name, description, filter_params(filters), run)


Builder = Callable[[World, dict[str, Any]], tuple[str, Row]]


def create(
    name: str,
    table: str,
    description: str,
    params: list[Param],
    build: Builder,
    view: RowView = default_view,
) -> Tool:
    """Build a WRITE tool that validates its arguments, builds a row and inserts it.

    ``build(world, args)`` returns ``(key, row)`` or raises ToolError; it is where a domain
    puts its business rules.
    """

    def run(world: World, **args: Any) -> dict[str, Any]:
        key, row = build(world, args)
        world.insert(table, key, row)
        return view(world, row)

    return make_tool(name, description, params, run, ToolKind.WRITE)


Updater = Callable[[World, Row, dict[str, Any]], dict[str, Any]]


def update(
    name: str,
    table: str,
    key_param: str,
    entity: str,
    description: str,
    key_description: str,
    params: list[Param],
    changes: Updater,
    view: RowView = default_view,
) -> Tool:
    """Build a WRITE tool that changes fields of one row.

    ``changes(world, row, args)`` returns the fields to set or raises ToolError.
    """

    def run(world: World, **args: Any) -> dict[str, Any]:
        key = stored_key(world.table(table), args[key_param], entity)
        row = world.table(table)[key]
        new = world.update(table, key, **changes(world, row, args))
        return view(world, new)

    key = Param(key_param, {"type": "string"}, key_description)
    return make_tool(name, description, [key, *params], run, ToolKind.WRITE)


# -- listings of one table, narrowed by optional arguments ---------------------------------


@dataclass(frozen=True)
class Only:
    """One optional filter of a listing tool: keep the rows whose ``field`` is wanted.

    Attributes:
        field: The row attribute compared.
        arg: What the agent passed; None (not given) keeps every row.
        resolve: Turns ``arg`` into the wanted value, e.g. a member's name into its
            member_id, raising the tool's 404 for an unknown one; by default ``arg`` itself.
    """

    field: str
    arg: Any
    resolve: Callable[[Any], Any] | None = None


def filtered_rows(rows: Iterable[_R], order: str | Callable[[_R], Any], *only: Only) -> list[_R]:
    """The rows in ``order`` that pass every filter given an argument, resolved in turn.

    Args:
        rows: Every row of the table listed.
        order: The field the rows are sorted by, or a sort key.
        *only: The filters, in the order their arguments are resolved (and so refused).

    Returns:
        The kept rows, sorted.
    """
    key = order if callable(order) else (lambda row: getattr(row, order))
    kept = sorted(rows, key=key)
    for f in only:
        if f.arg is None:
            continue
        wanted = f.arg if f.resolve is None else f.resolve(f.arg)
        kept = [row for row in kept if getattr(row, f.field) == wanted]
    return kept


# -- one fact from several independent sources ---------------------------------------------


@dataclass(frozen=True)
class Source:
    """One of the independent sources a fact comes from, served by its own READ tool.

    Attributes:
        tool: The tool's name.
        table: The world table holding this source's rows.
        name: The source's name, as the tool returns it.
        about: The tool's description: a docstring without ``Args:`` (a domain's
            ``phrased_tool`` fills its phrases in).
        extra: The key of the one field only this source reports, in a family that has one.
    """

    tool: str
    table: str
    name: str
    about: str
    extra: str = ""


def source_tools(
    read: Callable[..., dict[str, Any]], args_doc: str, *sources: Source, declare: Declare = tool
) -> list[Tool]:
    """The READ tools of a fact's independent sources: the same parameters and keys.

    Every tool runs ``read(world, source, **args)``; its parameters are those of ``read``
    after ``source``, so the schema is built from ``read``'s signature and ``args_doc``.

    Args:
        read: Resolves the arguments and returns the fact as ``source`` reports it.
        args_doc: The ``Args:`` section every tool of the family shares.
        *sources: The sources, authoritative first.
        declare: The ``@tool`` that declares each tool, e.g. a domain's ``phrased_tool``.

    Returns:
        One READ tool a source, in the order given.
    """
    signature = inspect.signature(read)
    world, _source, *params = signature.parameters.values()
    hints = typing.get_type_hints(read)
    shown = [world, *params]

    def build(src: Source) -> Tool:
        def run(world: World, **args: Any) -> dict[str, Any]:
            return read(world, src, **args)

        run.__signature__ = signature.replace(parameters=shown)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: hints[p.name] for p in shown if p.name in hints}
        run.__doc__ = inspect.cleandoc(src.about) + "\n\n" + inspect.cleandoc(args_doc)
        return declare(name=src.tool)(run)

    return [build(src) for src in sources]
