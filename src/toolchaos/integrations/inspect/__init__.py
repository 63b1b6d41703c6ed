"""Inspect AI adapter (the ``inspect`` extra): toolchaos tasks as Inspect tasks.

``inspect eval toolchaos/toolbench_x`` and ``inspect eval toolchaos/toolfailbench`` run a
suite's tasks with Inspect's model (``inspect eval toolchaos/suite -T name=SUITE`` any
registered suite's, an installed package's too, with its own options as more ``-T``):
the solver plays the suite's own protocol, so hazards, recovery and end states are
toolchaos's, and the scorer's metadata carries the suite's labels. ``toolchaos
import-inspect LOG --out DIR`` turns the eval logs into a run store that ``toolchaos
report`` reads. :class:`ChaosInspectTools`
(:mod:`toolchaos.integrations.inspect.tools`) puts a hazard plan on your own Inspect tools.

Nothing outside this package imports it (the CLI only lazily).
"""

from typing import Any

EPISODE_KEY = "toolchaos_episode"
"""The sample store key under which the solver keeps the played episode (JSON)."""

__all__ = ["EPISODE_KEY", "ChaosInspectTools"]


def __getattr__(name: str) -> Any:
    # lazy: the submodules import this package for EPISODE_KEY
    if name == "ChaosInspectTools":
        from toolchaos.integrations.inspect.tools import ChaosInspectTools

        return ChaosInspectTools
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
