"""Benchmark suites. Each registers its :class:`Suite` with one line here (imported lazily).

The registry (:data:`SUITES`) names each suite's package and its ``SUITE`` attribute (the
package's public names are the suite's interface; ``tests/test_layers.py``). Another
installed package adds its suites through the ``toolchaos.suites`` entry-point group
(read on the first lookup; :mod:`toolchaos.core.registry`), or from code with
:func:`register_suite`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, overload

from toolchaos.core.errors import BadInput
from toolchaos.core.registry import GROUPS, Registry, registrar, resolve
from toolchaos.suites.base import Suite

SUITES: Registry[str, str] = Registry(
    "suite",
    GROUPS["suite"],
    {
        "toolbench-x": "toolchaos.suites.toolbench_x:SUITE",
        "toolfailbench": "toolchaos.suites.toolfailbench:SUITE",
        "own-tools": "toolchaos.suites.own_tools:SUITE",
    },
)


F = TypeVar("F", bound=Callable[[], Suite[Any, Any]])


@overload
def register_suite(factory: F, /) -> F: ...
@overload
def register_suite(name: str | None = None, /) -> Callable[[F], F]: ...
def register_suite(arg: F | str | None = None, /) -> F | Callable[[F], F]:
    """Decorator: register a function of no arguments that returns a :class:`Suite`.

    ``@register_suite("name")`` registers it under ``name`` (the suite's ``name``, as
    ``toolchaos run NAME`` takes it), ``@register_suite`` under the function's own name.
    An installed package needs no decorator: its ``toolchaos.suites`` entry point is
    the registration.
    """
    return registrar(SUITES, arg)


@cache
def get_suite(name: str) -> Suite[Any, Any]:
    """Return the registered suite ``name`` (built once by a factory)."""
    suite: Suite[Any, Any] = resolve(SUITES, name, Suite)
    return suite


def configured_suite(name: str, options: Mapping[str, Any] | None = None) -> Suite[Any, Any]:
    """The registered suite ``name`` with its options (``-T key=value``) set.

    Raises:
        BadInput: An option the suite does not declare, or a value its model refuses.
    """
    return get_suite(name).with_options(options or {})


def suite_of_file(path: Path) -> str:
    """The suite a JSONL task file belongs to, from the ``suite`` of its first task.

    A line that does not say is left for the suite's loader to refuse with file and line;
    a file that names no known suite is refused here.
    """
    try:
        with path.open("rb") as handle:
            first = next((line for line in handle if line.strip()), b"")
    except FileNotFoundError:
        raise BadInput(f"task file {path} does not exist") from None
    except IsADirectoryError:
        raise BadInput(f"{path} is a directory; give --suite for a release folder") from None
    except OSError as exc:
        raise BadInput(f"cannot read task file {path}: {exc.strerror or exc}") from None
    try:
        named = json.loads(first).get("suite")
    except (ValueError, AttributeError):
        named = None
    if named in SUITES:
        return str(named)
    if named is None:
        return "toolbench-x"  # the loader names what is wrong with the first line
    raise BadInput(
        f"{path}, line 1, field suite: unknown suite {named!r}; known suites: "
        f"{', '.join(sorted(SUITES))}"
    )


__all__ = [
    "SUITES",
    "Suite",
    "configured_suite",
    "get_suite",
    "register_suite",
    "suite_of_file",
]
