"""Own tools: episodes of an agent builder's own agent on their own tools, under a plan.

Nothing here plays an episode: :mod:`toolchaos.chaos` (the engine, the adapters, the
pytest plugin and the MCP proxy) records them; this suite gives the store a task model
and ``toolchaos report`` its tables.

Importing this package is cheap; the names below load their modules on first use. Code
outside the suite imports these, never the modules behind them (``tests/test_layers.py``).

Public names:
    SUITE: the suite (``suite``).
    VERDICT_PASS, VERDICT_FAIL: the labels of a caller's own verdict (``task``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolchaos.suites.own_tools.suite import SUITE
    from toolchaos.suites.own_tools.task import VERDICT_FAIL, VERDICT_PASS

_EXPORTS: dict[str, str] = {"SUITE": "suite", "VERDICT_PASS": "task", "VERDICT_FAIL": "task"}


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = ["SUITE", "VERDICT_FAIL", "VERDICT_PASS"]
