"""What the store keeps about one own-tools target: its toolbox and the hazards applied."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from toolchaos.core.types import HazardSpec, ToolSpec

SUITE_NAME = "own-tools"

VERDICT_PASS = "verdict:pass"  # noqa: S105 (a verdict, not a password)
VERDICT_FAIL = "verdict:fail"
"""Own tools have no world to hash: an episode's ``end_state`` carries the caller's verdict."""


class OwnToolsTask(BaseModel):
    """One target an agent was run against (a test, a script, a proxied server).

    Attributes:
        id: The target's id (a pytest node id, a name the caller chose).
        suite: Always ``own-tools``.
        plan: The hazard plan as given (its JSON).
        toolbox: The tools as documented, before any hazard rewrote them.
        hazards: The hazard specs the plan resolved to on this toolbox.
        answer: A reference answer, when the caller has one and gives no verdict.
        metadata: Anything else the caller wants to keep (never secrets).
    """

    id: str
    suite: Literal["own-tools"] = "own-tools"
    plan: dict[str, Any] = Field(default_factory=dict)
    toolbox: list[ToolSpec] = Field(default_factory=list)
    hazards: list[HazardSpec] = Field(default_factory=list)
    answer: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)
