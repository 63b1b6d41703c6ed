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

from typing import TYPE_CHECKING

from toolchaos.core.lazy import lazy_exports

if TYPE_CHECKING:
    from toolchaos.suites.own_tools.suite import SUITE
    from toolchaos.suites.own_tools.task import VERDICT_FAIL, VERDICT_PASS

_EXPORTS: dict[str, str] = {"SUITE": "suite", "VERDICT_PASS": "task", "VERDICT_FAIL": "task"}


__getattr__ = lazy_exports(__name__, _EXPORTS)


__all__ = ["SUITE", "VERDICT_FAIL", "VERDICT_PASS"]
