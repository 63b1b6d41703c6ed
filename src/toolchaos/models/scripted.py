"""The ``scripted/<mode>`` provider: the baselines as model clients.

ToolBench-X modes: ``oracle``, ``naive``, ``retry``, ``no-tool``. ToolFailBench adds
``skip``, ``ignore``, ``fabricate`` and ``overuse``, one per failure mode; on a
ToolBench-X task those four play like ``naive``.
"""

from __future__ import annotations

from typing import Any

from toolchaos.agents.baselines import MODES, ScriptedPolicy
from toolchaos.core.errors import BadInput
from toolchaos.models.base import ModelClient
from toolchaos.models.config import ModelEntry
from toolchaos.models.transport import ResponseCache

FAIL_MODES = ("skip", "ignore", "fabricate", "overuse")
ALL_MODES = (*MODES, *FAIL_MODES)


class ScriptedFactory:
    """Builds a fresh scripted policy for every episode, for the task's suite."""

    def __init__(self, mode: str) -> None:
        if mode not in ALL_MODES:
            raise BadInput(f"unknown scripted policy {mode!r}; known: {', '.join(ALL_MODES)}")
        self.mode = mode
        self.spec = f"scripted/{mode}"

    def for_episode(self, task: Any, arm: str, sample: int) -> ModelClient:
        """Return a new policy playing ``task``."""
        if getattr(task, "suite", "") == "toolfailbench":
            from toolchaos.agents.fail_baselines import FailPolicy

            return FailPolicy(task, self.mode)
        mode = self.mode if self.mode in MODES else "naive"
        return ScriptedPolicy(task, mode)


def make_factory(
    name: str, entry: ModelEntry, cache: ResponseCache | None = None
) -> ScriptedFactory:
    """Provider entry point for ``scripted/<name>`` (scripted runs never need a cache)."""
    return ScriptedFactory(name)
