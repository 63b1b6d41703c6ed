"""Public names a package loads from its modules on first use (PEP 562)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports each public name from its module when asked.

    Args:
        package: The package's ``__name__``.
        exports: Each public name and the submodule of ``package`` that defines it.

    Returns:
        The function to bind as the package's ``__getattr__``; any other name raises
        ``AttributeError`` as a module attribute lookup does.
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return __getattr__
