"""The ``scripted/<mode>`` provider: every suite's scripted baselines as model clients.

Each suite names its baselines (:attr:`Suite.baselines`). ToolBench-X has ``oracle``,
``naive``, ``retry`` and ``no-tool``; ToolFailBench adds ``skip``, ``ignore``,
``fabricate`` and ``overuse``, one per failure mode. A mode a suite lacks plays as that
suite's fallback (ToolBench-X plays the ToolFailBench modes like ``naive``).
"""

from __future__ import annotations

from typing import Any

from toolchaos.core.errors import BadInput
from toolchaos.models.base import ModelClient
from toolchaos.models.config import ModelEntry
from toolchaos.models.transport import ResponseCache
from toolchaos.suites import SUITES, get_suite


def known_modes() -> tuple[str, ...]:
    """Every mode some registered suite has, in registration order."""
    modes: dict[str, None] = {}
    for name in SUITES:
        modes.update(dict.fromkeys(get_suite(name).baselines))
    return tuple(modes)


class ScriptedFactory:
    """Builds a fresh scripted policy for every episode, from the task's suite."""

    def __init__(self, mode: str) -> None:
        modes = known_modes()
        if mode not in modes:
            raise BadInput(f"unknown scripted policy {mode!r}; known: {', '.join(modes)}")
        self.mode = mode
        self.spec = f"scripted/{mode}"

    def for_episode(self, task: Any, arm: str, sample: int) -> ModelClient:
        """Return a new policy playing ``task``."""
        return get_suite(task.suite).baseline(task, self.mode)


def make_factory(
    name: str, entry: ModelEntry, cache: ResponseCache | None = None
) -> ScriptedFactory:
    """Provider entry point for ``scripted/<name>`` (scripted runs never need a cache)."""
    return ScriptedFactory(name)
