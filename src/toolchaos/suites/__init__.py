"""Benchmark suites. Each registers its :class:`Suite` with one line here (imported lazily)."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from toolchaos.core.errors import BadInput
from toolchaos.suites.base import Suite

REGISTRY: dict[str, str] = {
    "toolbench-x": "toolchaos.suites.toolbench_x.suite:SUITE",
    "toolfailbench": "toolchaos.suites.toolfailbench.suite:SUITE",
    "own-tools": "toolchaos.suites.own_tools.suite:SUITE",
}


@cache
def get_suite(name: str) -> Suite[Any, Any]:
    """Return the registered suite ``name``."""
    target = REGISTRY.get(name)
    if target is None:
        raise BadInput(f"unknown suite {name!r}; known suites: {', '.join(sorted(REGISTRY))}")
    module, attr = target.split(":")
    suite: Suite[Any, Any] = getattr(importlib.import_module(module), attr)
    return suite


__all__ = ["REGISTRY", "Suite", "get_suite"]
