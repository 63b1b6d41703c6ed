"""The package's layers, as docs/architecture.md ("Layers") lists them, are the real ones.

Every reference one module makes to another counts: an ``import`` or ``from ... import``
at module level, inside a function or under ``if TYPE_CHECKING``, and a string naming a
module (``"toolchaos.suites.scripted:make_factory"``), as the registries do. The rules:

- every package is listed in the architecture document, and imports only packages listed
  above it (a registry's string may point anywhere: that is how a lower layer is told,
  lazily, about an implementation above it);
- no import cycle between packages;
- a generic layer (listed above the suites) never names a suite, except the suite
  registry in ``toolchaos.suites``, which names each suite's package;
- a suite never names another suite;
- nothing outside a suite names a module inside it: the suite's package (its
  ``__init__``, which exports the suite's public names) and the ``Suite`` it registers
  are its interface (a reach-in names anything else).

The checker is :func:`violations`, a function of module sources, so a test can feed it
a module that does what the rules forbid.
"""

from __future__ import annotations

import ast
import functools
import re
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import toolchaos
from toolchaos.suites import SUITES as SUITE_REGISTRY

ROOT = Path(toolchaos.__file__).parent
ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
MODULE_PATH = re.compile(r"toolchaos(?:\.\w+)*(?::\w+)?")
SUITE_INTERFACE = "toolchaos.suites"  # the registry module: the one generic module naming suites


@dataclass(frozen=True)
class Reference:
    """One module naming another: by an import, or in a string."""

    source: str
    target: str
    line: int
    by_string: bool


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(("toolchaos", *parts)).removesuffix(".__init__")


def sources_of(root: Path = ROOT) -> dict[str, str]:
    """Every module of the installed package: name -> source."""
    return {module_name(p, root): p.read_text(encoding="utf-8") for p in root.rglob("*.py")}


@functools.cache
def references(module: str, source: str, is_package: bool = False) -> tuple[Reference, ...]:
    """What ``module`` names: its imports (with ``from m import n`` as ``m`` and ``m.n``)
    and every string that is a module path. Cached: each test walks the whole package
    with one module added or changed, so only that module is parsed again."""
    found: list[Reference] = []
    here = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's own package
                parent = here[: len(here) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            if base.split(".")[0] == "toolchaos":
                found.append(Reference(module, base, node.lineno, False))
                found.extend(
                    Reference(module, f"{base}.{a.name}", node.lineno, False) for a in node.names
                )
        elif isinstance(node, ast.Import):
            found.extend(
                Reference(module, a.name, node.lineno, False)
                for a in node.names
                if a.name.split(".")[0] == "toolchaos"
            )
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and MODULE_PATH.fullmatch(node.value)
            and node.value != "toolchaos"
        ):
            target = node.value.partition(":")[0]
            found.append(Reference(module, target, node.lineno, True))
    return tuple(found)


def resolve(target: str, modules: Collection[str]) -> str | None:
    """The module a name refers to (``from pkg import name`` of a non-module: ``pkg``)."""
    while target not in modules and "." in target:
        target = target.rsplit(".", 1)[0]
    return target if target in modules else None


def layer(module: str, suites: Collection[str]) -> str:
    """The layer a module belongs to: a suite's package, or the first level under toolchaos."""
    for suite in suites:
        if module == suite or module.startswith(suite + "."):
            return suite
    return ".".join(module.split(".")[:2])


def documented_order(text: str) -> list[str]:
    """The layers the architecture document lists under "Layers", top (lowest) first.

    One layer a line, two spaces in, inside the section's first code block: ``core/``
    is ``toolchaos.core``, ``suites/toolbench_x/`` a suite, ``cli.py`` a module,
    ``__init__.py`` the package itself.
    """
    section = text.split("\n## Layers\n", 1)[1]
    block = section.split("```", 2)[1]
    order: list[str] = []
    for line in block.splitlines():
        match = re.match(r"  (\S+)", line)
        if match is None or line.startswith("   "):
            continue
        name = match.group(1).removesuffix("/").removesuffix(".py")
        order.append("toolchaos" if name == "__init__" else "toolchaos." + name.replace("/", "."))
    return order


def graph(
    sources: Mapping[str, str], suites: Collection[str], packages: Collection[str] = ()
) -> tuple[dict[str, dict[str, set[str]]], list[tuple[Reference, str]]]:
    """(layer -> imported layer -> importing modules, every reference with its module)."""
    modules = set(sources)
    is_package = set(packages) | {m.rsplit(".", 1)[0] for m in modules if "." in m}
    imports: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    named: list[tuple[Reference, str]] = []
    for module, source in sources.items():
        for ref in references(module, source, module in is_package):
            target = resolve(ref.target, modules)
            if target is None:
                continue
            named.append((ref, target))
            a, b = layer(module, suites), layer(target, suites)
            if a != b and not ref.by_string:
                imports[a][b].add(module)
    return imports, named


def violations(
    sources: Mapping[str, str],
    suites: Collection[str],
    order: Sequence[str],
    packages: Collection[str] = (),
) -> list[str]:
    """Every breach of the rules in this module's docstring, one sentence each."""
    imports, named = graph(sources, suites, packages)
    problems: list[str] = []
    rank = {name: i for i, name in enumerate(order)}
    first_suite = min(rank[s] for s in suites)
    layers = {layer(m, suites) for m in sources}
    problems += [f"{name} is not listed in docs/architecture.md" for name in layers - set(rank)]
    for a, targets in imports.items():
        for b, modules in targets.items():
            if a in rank and b in rank and rank[b] > rank[a]:
                problems += [f"{m} imports {b}, listed below {a}" for m in sorted(modules)]
    for ref, target in named:
        a, b = layer(ref.source, suites), layer(target, suites)
        if b not in suites or a == b:
            continue
        where = f"{ref.source}:{ref.line}"
        if a in suites:
            problems.append(f"{where}: suite {a} names another suite, {target}")
        elif target != b:
            problems.append(f"{where}: reaches into {target}; use {b} (its public names)")
        elif rank.get(a, first_suite) < first_suite and not (
            ref.source == SUITE_INTERFACE and ref.by_string
        ):
            problems.append(f"{where}: the generic layer {a} names the suite {b}")
    return sorted(set(problems))


def cycles(imports: Mapping[str, Mapping[str, object]]) -> list[str]:
    found: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        for nxt in sorted(imports.get(node, {})):
            if nxt == path[0]:
                found.append([*path, nxt])
            elif nxt not in path and nxt > path[0]:  # each cycle once, from its least node
                visit(nxt, [*path, nxt])

    for start in sorted(imports):
        visit(start, [start])
    return [" -> ".join(c) for c in found]


SUITES = tuple(sorted(target.partition(":")[0] for target in SUITE_REGISTRY.values()))
ORDER = documented_order(ARCHITECTURE.read_text(encoding="utf-8"))
SOURCES = sources_of()
PACKAGES = {module_name(p).removesuffix(".__init__") for p in ROOT.rglob("__init__.py")}


def test_the_package_keeps_every_rule() -> None:
    assert violations(SOURCES, SUITES, ORDER, PACKAGES) == []


def test_no_import_cycle_between_packages() -> None:
    imports, _ = graph(SOURCES, SUITES, PACKAGES)
    assert cycles(imports) == []


def test_the_document_lists_every_package_once_and_every_suite() -> None:
    assert len(ORDER) == len(set(ORDER))
    listed = set(ORDER)
    assert {"toolchaos.chaos", "toolchaos.cli", "toolchaos.ext", "toolchaos.api"} <= listed
    assert "toolchaos.integrations" in listed
    assert {layer(m, SUITES) for m in SOURCES} == listed
    # every folder under suites/ is a registered suite, registered by its package
    folders = {module_name(p.parent) for p in (ROOT / "suites").glob("*/__init__.py")}
    assert folders == set(SUITES)
    assert set(SUITES) <= listed


def test_the_walk_sees_imports_at_every_level_and_registry_strings() -> None:
    """The rules above would hold vacuously if the walk missed nested imports or strings."""
    imports, named = graph(SOURCES, SUITES, PACKAGES)
    # the runner reaches the registry, the registry's base reaches env, the CLI (lazily,
    # inside its commands) reaches the report
    assert "toolchaos.suites" in imports["toolchaos.runner"]
    assert "toolchaos.env" in imports["toolchaos.suites"]
    assert "toolchaos.report" in imports["toolchaos.cli"]
    assert "toolchaos.runner" in imports[SUITES[1]]
    strings = {(ref.source, target) for ref, target in named if ref.by_string}
    assert ("toolchaos.models.base", "toolchaos.suites.scripted") in strings
    assert ("toolchaos.domains", "toolchaos.domains.weather") in strings
    assert {("toolchaos.suites", suite) for suite in SUITES} <= strings


def _with(module: str, source: str) -> dict[str, str]:
    return {**SOURCES, module: source}


def test_a_reach_into_a_suite_is_refused() -> None:
    """From every kind of outside module, by import at any level or by a registry string."""
    suite = "toolchaos.suites.toolbench_x"
    cases = {
        "toolchaos.ext_extra": "from toolchaos.suites.toolbench_x.generate import Draft\n",
        "toolchaos.chaos.extra": (
            "def f():\n    from toolchaos.suites.toolbench_x import audit\n    return audit\n"
        ),
        "toolchaos.cli_extra": "import toolchaos.suites.toolbench_x.audit\n",
        "toolchaos.integrations.extra": 'X = {"a": "toolchaos.suites.toolbench_x.suite:SUITE"}\n',
    }
    for module, source in cases.items():
        top = layer(module, SUITES)
        order = [*ORDER, top] if top not in ORDER else ORDER
        found = violations(_with(module, source), SUITES, order, PACKAGES)
        assert len(found) == 1 and f"reaches into {suite}." in found[0], (module, found)
    # the suite's own package is its interface: naming it is fine from above the suites
    fine = _with("toolchaos.cli_extra", "from toolchaos.suites.toolbench_x import Draft\n")
    assert violations(fine, SUITES, [*ORDER, "toolchaos.cli_extra"], PACKAGES) == []


def test_a_generic_layer_naming_a_suite_is_refused() -> None:
    source = 'PROVIDERS = {"x": "toolchaos.suites.toolfailbench:SUITE"}\n'
    found = violations(_with("toolchaos.models.extra", source), SUITES, ORDER, PACKAGES)
    assert found == [
        "toolchaos.models.extra:1: the generic layer toolchaos.models names the suite "
        "toolchaos.suites.toolfailbench"
    ]
    found = violations(
        _with("toolchaos.report.extra", "import toolchaos.suites.own_tools\n"),
        SUITES,
        ORDER,
        PACKAGES,
    )
    assert any("names the suite toolchaos.suites.own_tools" in p for p in found), found
    assert any("imports toolchaos.suites.own_tools, listed below" in p for p in found), found


def test_one_suite_naming_another_or_an_upward_import_is_refused() -> None:
    source = "from toolchaos.suites.toolfailbench import FailTask\n"
    found = violations(_with("toolchaos.suites.own_tools.extra", source), SUITES, ORDER)
    assert any("suite toolchaos.suites.own_tools names another suite" in p for p in found)
    found = violations(_with("toolchaos.core.extra", "import toolchaos.runner\n"), SUITES, ORDER)
    assert found == ["toolchaos.core.extra imports toolchaos.runner, listed below toolchaos.core"]
    found = violations(_with("toolchaos.newpkg", "X = 1\n"), SUITES, ORDER)
    assert found == ["toolchaos.newpkg is not listed in docs/architecture.md"]
