"""The registries of extensions: entries registered in code, then installed packages' entry points.

Each kind of extension has one registry (domains, suites, model providers, hazard
variants) and one entry-point group a package declares its extensions in (``GROUPS``).
A registry is read like the dict it replaced; on its first lookup it reads its group's
entry points, once per process. An entry point's value is a ``module:attribute`` target,
imported only when that entry is used, so an installed package costs nothing until one
of its extensions is asked for.

A package needs no decorator to be found: the entry point is its registration line. The
decorators (:func:`toolchaos.domains.register_domain`,
:func:`toolchaos.suites.register_suite`, :func:`toolchaos.models.base.register_provider`,
:func:`toolchaos.hazards.register_hazard`) register a factory from code, for a script or
a notebook, and mark what an entry point names.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import (
    Callable,
    ItemsView,
    Iterator,
    KeysView,
    Mapping,
    MutableMapping,
    ValuesView,
)
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any, TypeVar, overload

from toolchaos.core.errors import BadInput

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

GROUPS: dict[str, str] = {
    "domain": "toolchaos.domains",
    "suite": "toolchaos.suites",
    "provider": "toolchaos.providers",
    "hazard": "toolchaos.hazards",
}
"""The entry-point group of each kind of extension."""


@cache
def _all_entry_points() -> Any:
    # one scan of the installed distributions serves every group; Python 3.11 returns
    # SelectableGroups, 3.12 EntryPoints, and both select by group
    return entry_points()


def installed(group: str) -> tuple[EntryPoint, ...]:
    """The entry points installed packages declare in ``group``, read once per process.

    In (name, value, package) order, so which of two packages claiming one name wins does
    not depend on the order the interpreter found them in.
    """
    found: list[EntryPoint] = list(_all_entry_points().select(group=group))
    return tuple(sorted(found, key=lambda ep: (ep.name, ep.value, package_of(ep))))


def rescan() -> None:
    """Forget the installed entry points read so far (a registry already read keeps its own)."""
    _all_entry_points.cache_clear()


def package_of(entry: EntryPoint) -> str:
    """The name of the distribution that declares ``entry`` ("" if unknown)."""
    dist = getattr(entry, "dist", None)
    return str(dist.name) if dist is not None else ""


class Registry(MutableMapping[K, V]):
    """One kind of extension by name: what code registered, then what packages declare.

    It behaves as the dict it replaced (``in``, ``[]``, ``get``, iteration, ``len``); any
    read first reads the entry points of its group, once. Writing (``[]=``, ``del``)
    reads none, so a module can register while the package imports it.

    Args:
        kind: The kind of extension, as messages name it (``domain``).
        group: Its entry-point group (``toolchaos.domains``).
        entries: The entries registered in code, by name.
        adopt: How one entry point joins the registry. By default its name maps to its
            value (the ``module:attribute`` target, imported when first used).
    """

    def __init__(
        self,
        kind: str,
        group: str,
        entries: Mapping[K, V] | None = None,
        adopt: Callable[[EntryPoint], None] | None = None,
    ) -> None:
        self.kind = kind
        self.group = group
        self._entries: dict[K, V] = dict(entries or {})
        self._adopt = adopt
        self._read = False
        self.origins: dict[K, str] = {}
        """The package each entry that came from an entry point was declared by."""

    def _load(self) -> None:
        if self._read:
            return
        self._read = True  # before adopting: an entry point's module may read the registry
        for entry in installed(self.group):
            if self._adopt is not None:
                self._adopt(entry)
            else:
                self.declare(entry.name, entry.value, package_of(entry))  # type: ignore[arg-type]

    def declare(self, name: K, target: V, package: str) -> None:
        """Add an entry an installed package declares; a name already taken keeps its entry.

        The loser of a clash is named in a warning, so a package cannot silently replace a
        built-in extension or another package's.
        """
        held = self._entries.get(name)
        if held is not None and held != target:
            owner = self.origins.get(name, "toolchaos")
            warnings.warn(
                f"toolchaos: {self.kind} {name!r} of package {package or '?'} ({target}) is "
                f"ignored: the name is taken by {owner} ({held})",
                stacklevel=2,
            )
            return
        self._entries[name] = target
        self.origins[name] = package

    def register(self, name: K, target: V) -> None:
        """Register ``target`` under ``name`` from code (what the decorators call).

        The same target again is a no-op, and so is a target in the module of an entry
        point that already declared ``name`` (that module is being imported for its entry).
        Any other target under a name a package declared is ignored with a warning naming
        the package, as :meth:`declare` does for a clash between packages.

        Raises:
            ValueError: ``name`` is registered in code to another target.
        """
        self._load()
        held = self._entries.get(name)
        if held is None:
            self._entries[name] = target
        elif held == target:
            return
        elif name not in self.origins:
            raise ValueError(f"{self.kind} {name!r} is already registered as {held}")
        elif str(held).partition(":")[0] != str(target).partition(":")[0]:
            warnings.warn(
                f"toolchaos: {self.kind} {name!r} registered in code ({target}) is ignored: "
                f"the name is taken by package {self.origins[name] or '?'} ({held})",
                stacklevel=3,
            )

    def registered(self, name: K) -> V | None:
        """The entry ``name`` holds so far, without reading the entry points."""
        return self._entries.get(name)

    def origin(self, name: K) -> str:
        """Where the entry ``name`` comes from, for messages: ``package hello-ext`` or ``""``."""
        package = self.origins.get(name)
        return f"package {package}" if package else ""

    def __getitem__(self, name: K) -> V:
        self._load()
        return self._entries[name]

    def __setitem__(self, name: K, value: V) -> None:
        self._entries[name] = value

    def __delitem__(self, name: K) -> None:
        del self._entries[name]
        self.origins.pop(name, None)

    def __iter__(self) -> Iterator[K]:
        self._load()
        return iter(self._entries)

    def __len__(self) -> int:
        self._load()
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        self._load()
        return name in self._entries

    # the dict's own views and lookups (the mixins' generic ones cost a call per entry)
    @overload
    def get(self, name: K, /) -> V | None: ...
    @overload
    def get(self, name: K, default: V | T, /) -> V | T: ...
    def get(self, name: K, default: Any = None, /) -> Any:
        """The entry ``name``, else ``default``."""
        self._load()
        return self._entries.get(name, default)

    def keys(self) -> KeysView[K]:
        """The names."""
        self._load()
        return self._entries.keys()

    def values(self) -> ValuesView[V]:
        """The entries."""
        self._load()
        return self._entries.values()

    def items(self) -> ItemsView[K, V]:
        """(name, entry) pairs."""
        self._load()
        return self._entries.items()

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {self._entries!r})"


def import_target(target: str) -> Any:
    """The object a ``module:attribute`` target names (the attribute may be dotted).

    Raises:
        ImportError: The module cannot be imported.
        AttributeError: It has no such attribute.
        ValueError: ``target`` is not ``module:attribute``.
    """
    module, sep, attr = target.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"{target!r} is not module:attribute")
    found: Any = importlib.import_module(module)
    for part in attr.split("."):
        found = getattr(found, part)
    return found


def resolve(registry: Registry[str, str], name: str, expected: type[T]) -> T:
    """Import the registered ``name`` and return its object of type ``expected``.

    The target may name the object itself or a factory (a function of no arguments, as
    the decorators register) returning it; the object's own ``name`` must be ``name``.

    Raises:
        BadInput: ``name`` is not registered, cannot be imported, or is not an ``expected``.
    """
    target = registry.get(name)
    if target is None:
        known = ", ".join(sorted(registry))
        raise BadInput(f"unknown {registry.kind} {name!r}; known {registry.kind}s: {known}")
    where = registry.origin(name)
    label = f"{registry.kind} {name!r}" + (f" of {where}" if where else "")
    try:
        found = import_target(target)
    except (ImportError, AttributeError, ValueError) as exc:
        raise BadInput(f"{label} cannot be loaded from {target}: {exc}") from None
    if not isinstance(found, expected) and callable(found) and not isinstance(found, type):
        found = found()
    if not isinstance(found, expected):
        raise BadInput(f"{label} names {target}, which is no {expected.__name__}")
    own = getattr(found, "name", name)
    if own != name:
        raise BadInput(f"{label} names {target}, whose name is {own!r}, not {name!r}")
    return found


@overload
def registrar(registry: Registry[str, Any], arg: F) -> F: ...
@overload
def registrar(registry: Registry[str, Any], arg: str | None) -> Callable[[F], F]: ...
def registrar(registry: Registry[str, Any], arg: F | str | None) -> F | Callable[[F], F]:
    """The decorator of one registry: ``@register_x`` or ``@register_x("name")``.

    It registers the decorated module-level function (or class) as ``module:qualname``
    under the given name, else under the function's own name.
    """

    def mark(factory: F, name: str | None) -> F:
        qualname = factory.__qualname__
        if "<locals>" in qualname:
            raise TypeError(f"register a module-level {registry.kind} factory, not {qualname}")
        registry.register(name or factory.__name__, f"{factory.__module__}:{qualname}")
        return factory

    if callable(arg):
        return mark(arg, None)
    return lambda factory: mark(factory, arg)


__all__ = [
    "GROUPS",
    "Registry",
    "import_target",
    "installed",
    "registrar",
    "rescan",
    "resolve",
]
