"""The run plan: every (model, task, arm, sample) an invocation must play."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PROTOCOL = "native"


@dataclass(frozen=True)
class PlannedEpisode:
    """One episode to play."""

    model: str
    task: Any  # a TaskSpec, or a suite's own task type
    arm: str
    sample: int
    protocol: str = PROTOCOL

    @property
    def key(self) -> str:
        """The episode's unique key in the store."""
        return episode_key(
            self.task.suite, self.model, self.protocol, self.task.id, self.arm, self.sample
        )


def episode_key(suite: str, model: str, protocol: str, task_id: str, arm: str, sample: int) -> str:
    """Build the store key of one episode."""
    return f"{suite}|{model}|{protocol}|{task_id}|{arm}|{sample}"


def make_plan(
    models: list[str],
    tasks: list[Any],
    arms: list[str],
    samples: int,
    protocol: str = PROTOCOL,
) -> list[PlannedEpisode]:
    """Cross models x tasks x arms x samples, in a stable order.

    A task without a hazard has nothing to vary between the hazard arms, so it is planned
    in the ``clean`` arm only.
    """
    plan = []
    for model in models:
        for task in tasks:
            for arm in arms:
                if arm != "clean" and getattr(task, "hazard", None) is None:
                    continue
                for sample in range(samples):
                    plan.append(PlannedEpisode(model, task, arm, sample, protocol))
    return plan
