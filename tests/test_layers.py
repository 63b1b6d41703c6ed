"""The package's layers: generic packages never import a suite, and no package cycle exists.

Every ``import`` and ``from ... import`` in every module counts, at module level or inside
a function or an ``if TYPE_CHECKING`` block. A suite is reached only through the suite
registry (``toolchaos.suites.REGISTRY`` names it as a string) and the ``Suite`` interface.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import toolchaos

ROOT = Path(toolchaos.__file__).parent
GENERIC = (
    "core",
    "domains",
    "hazards",
    "env",
    "agents",
    "models",
    "runner",
    "scoring",
    "stats",
    "report",
    "suites",  # the registry and the Suite interface, not a suite
    "testing",
)
SUITES = (
    "toolchaos.suites.toolbench_x",
    "toolchaos.suites.toolfailbench",
    "toolchaos.suites.own_tools",
)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    name = ".".join(("toolchaos", *parts))
    return name.removesuffix(".__init__")


def package(module: str) -> str:
    """The layer a module belongs to: a suite's folder, or the first level under toolchaos."""
    for suite in SUITES:
        if module == suite or module.startswith(suite + "."):
            return suite
    parts = module.split(".")
    return ".".join(parts[:2])


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("toolchaos"):
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("toolchaos"))
    return found


def edges() -> dict[str, dict[str, set[str]]]:
    """package -> imported package -> the modules that import it."""
    graph: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    modules = {module_name(p) for p in ROOT.rglob("*.py")}
    packages = {m for m in modules} | {m.rsplit(".", 1)[0] for m in modules}
    for path in ROOT.rglob("*.py"):
        source = module_name(path)
        for target in imports(path):
            while target not in packages and "." in target:
                target = target.rsplit(".", 1)[0]  # `from pkg import name` of a non-module
            a, b = package(source), package(target)
            if a != b:
                graph[a][b].add(source)
    return graph


def test_generic_packages_never_import_a_suite() -> None:
    graph = edges()
    bad = [
        f"{module} imports {target}"
        for layer in GENERIC
        for target, modules in graph.get(f"toolchaos.{layer}", {}).items()
        if target in SUITES
        for module in sorted(modules)
    ]
    assert bad == []


def test_suites_never_import_each_other() -> None:
    graph = edges()
    for suite in SUITES:
        others = set(SUITES) - {suite}
        assert not others & set(graph.get(suite, {})), suite


def test_no_import_cycle_between_packages() -> None:
    graph = edges()
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, {})):
            if nxt == path[0]:
                cycles.append([*path, nxt])
            elif nxt not in path and nxt > path[0]:  # each cycle once, from its least node
                visit(nxt, [*path, nxt])

    for start in sorted(graph):
        visit(start, [start])
    shown = [" -> ".join(c) for c in cycles]
    assert shown == []


def test_the_walk_sees_imports_at_every_level() -> None:
    """The checks above would pass vacuously if the walk missed nested imports."""
    graph = edges()
    # the runner reaches the registry, the registry's base reaches env, the CLI (lazily,
    # inside its commands) reaches the report
    assert "toolchaos.suites" in graph["toolchaos.runner"]
    assert "toolchaos.env" in graph["toolchaos.suites"]
    assert "toolchaos.report" in graph["toolchaos.cli"]
    assert "toolchaos.runner" in graph[SUITES[1]]
