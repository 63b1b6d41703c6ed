"""The AST allow-list a generated tool module must pass before it is ever run.

The check reads the source and never executes it. It refuses, with a reason naming
the line: an import outside :data:`ALLOWED_IMPORTS`, any name or attribute that starts
with an underscore (dunder access and private internals), the builtins that reach I/O,
code or objects by name (:data:`FORBIDDEN_NAMES`), clock reads (``now``, ``today``...),
and the unordered sets whose iteration order changes from process to process.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

ALLOWED_IMPORTS = frozenset(
    {"math", "re", "datetime", "decimal", "statistics", "itertools", "functools", "collections"}
)
"""The only modules a generated tool may import (pure computation, no I/O, no clock)."""

FORBIDDEN_NAMES = frozenset(
    {
        "eval",
        "exec",
        "compile",
        "open",
        "input",
        "breakpoint",
        "help",
        "getattr",
        "setattr",
        "delattr",
        "hasattr",
        "globals",
        "locals",
        "vars",
        "dir",
        "type",
        "object",
        "memoryview",
        "id",
        "hash",
        "set",
        "frozenset",
        "print",
        "exit",
        "quit",
    }
)
"""Builtins a generated tool may not name: I/O, dynamic code, reflection by name, object
identity and hash order (``set`` iterates in an order that differs between processes)."""

CLOCK_ATTRIBUTES = frozenset({"now", "today", "utcnow", "time", "monotonic", "perf_counter"})
"""Attributes that read a clock: a world has its own (invariant 1)."""


@dataclass(frozen=True)
class Refusal:
    """Why a generated module is refused: the line and one sentence."""

    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


def check_source(source: str) -> list[Refusal]:
    """Every reason the allow-list refuses ``source`` (empty: it may go to the sandbox)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return [Refusal(exc.lineno or 0, f"does not parse: {exc.msg}")]
    out: list[Refusal] = []

    def refuse(node: ast.AST, reason: str) -> None:
        out.append(Refusal(getattr(node, "lineno", 0), reason))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in ALLOWED_IMPORTS:
                    refuse(node, f"imports {alias.name}, which is not allowed")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level or module.split(".")[0] not in ALLOWED_IMPORTS:
                refuse(node, f"imports from {module or '.'}, which is not allowed")
            for alias in node.names:
                if alias.name.startswith("_") or alias.name == "*":
                    refuse(node, f"imports {alias.name} from {module}")
        elif isinstance(node, ast.Name):
            if node.id.startswith("_"):
                refuse(node, f"names {node.id} (underscore names are not allowed)")
            elif node.id in FORBIDDEN_NAMES:
                refuse(node, f"uses {node.id}, which is not allowed")
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("_"):
                refuse(node, f"reads attribute {node.attr} (underscore attributes are not allowed)")
            elif node.attr in CLOCK_ATTRIBUTES:
                refuse(node, f"reads the clock ({node.attr}); a world keeps its own time")
        elif isinstance(node, ast.Set | ast.SetComp):
            refuse(node, "builds a set, whose order differs between processes")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name.startswith("_"):
                refuse(node, f"defines {node.name} (underscore names are not allowed)")
            if isinstance(node, ast.AsyncFunctionDef):
                refuse(node, f"defines async {node.name}; tools are plain functions")
        elif isinstance(node, ast.arg) and node.arg.startswith("_"):
            refuse(node, f"takes parameter {node.arg} (underscore names are not allowed)")
        elif isinstance(node, ast.Global | ast.Nonlocal):
            refuse(node, "declares global or nonlocal state; a tool keeps its state in the world")
        elif isinstance(node, ast.Await | ast.Yield | ast.YieldFrom):
            refuse(node, "awaits or yields; tools are plain functions")
    out.sort(key=lambda r: r.line)
    return out
