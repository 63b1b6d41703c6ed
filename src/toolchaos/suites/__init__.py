"""Benchmark suites. Each registers its :class:`Suite` with one line here (imported lazily).

The registry (:data:`SUITES`) names each suite's package and its ``SUITE`` attribute (the
package's public names are the suite's interface; ``tests/test_layers.py``).
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from toolchaos.core.errors import BadInput
from toolchaos.suites.base import Suite

SUITES: dict[str, str] = {
    "toolbench-x": "toolchaos.suites.toolbench_x:SUITE",
    "toolfailbench": "toolchaos.suites.toolfailbench:SUITE",
    "own-tools": "toolchaos.suites.own_tools:SUITE",
}


@cache
def get_suite(name: str) -> Suite[Any, Any]:
    """Return the registered suite ``name``."""
    target = SUITES.get(name)
    if target is None:
        raise BadInput(f"unknown suite {name!r}; known suites: {', '.join(sorted(SUITES))}")
    module, attr = target.split(":")
    suite: Suite[Any, Any] = getattr(importlib.import_module(module), attr)
    return suite


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


__all__ = ["SUITES", "Suite", "get_suite", "suite_of_file"]
