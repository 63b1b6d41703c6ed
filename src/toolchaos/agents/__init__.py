"""Protocols that drive a conversation, and the scripted baselines.

A protocol is ``async (task, arm, env, client, config) -> LoopResult``; it registers here
under the name ``--protocol`` takes. The env comes from the task's suite.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from toolchaos.agents.decision import run_decision
from toolchaos.agents.native import LoopConfig, LoopResult, run_native
from toolchaos.agents.two_step import run_two_step

Protocol = Callable[[Any, str, Any, Any, LoopConfig], Awaitable[LoopResult]]
PROTOCOLS: dict[str, Protocol] = {
    "native": run_native,
    "decision": run_decision,
    "two-step": run_two_step,
}

__all__ = ["PROTOCOLS", "Protocol"]
