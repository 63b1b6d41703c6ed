"""The ``scripted/<mode>`` provider: the baselines as model clients."""

from __future__ import annotations

from toolchaos.agents.baselines import MODES, Mode, ScriptedPolicy
from toolchaos.core.errors import BadInput
from toolchaos.core.types import TaskSpec
from toolchaos.models.config import ModelEntry
from toolchaos.models.transport import ResponseCache


class ScriptedFactory:
    """Builds a fresh :class:`ScriptedPolicy` for every episode."""

    def __init__(self, mode: str) -> None:
        if mode not in MODES:
            raise BadInput(f"unknown scripted policy {mode!r}; known: {', '.join(MODES)}")
        self.mode: Mode = mode
        self.spec = f"scripted/{mode}"

    def for_episode(self, task: TaskSpec, arm: str, sample: int) -> ScriptedPolicy:
        """Return a new policy playing ``task``."""
        return ScriptedPolicy(task, self.mode)


def make_factory(
    name: str, entry: ModelEntry, cache: ResponseCache | None = None
) -> ScriptedFactory:
    """Provider entry point for ``scripted/<name>`` (scripted runs never need a cache)."""
    return ScriptedFactory(name)
