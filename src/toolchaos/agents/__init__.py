"""The protocols every suite may play; a suite adds its own through its ``Suite``.

A protocol is ``async (task, arm, env, client, config) -> LoopResult``. The env comes
from the task's suite.
"""

from __future__ import annotations

from toolchaos.agents.native import LoopConfig, LoopResult, run_native

PROTOCOLS = {"native": run_native}

__all__ = ["PROTOCOLS", "LoopConfig", "LoopResult"]
