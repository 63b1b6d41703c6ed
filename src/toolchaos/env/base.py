"""What every episode environment offers a protocol, whichever suite builds it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from toolchaos.core.types import HazardEvent, Observation, ToolCall, ToolSpec, TraceEntry


class EpisodeEnv(Protocol):
    """The tools of one episode as the agent sees them, and what happened to them.

    :class:`toolchaos.env.runtime.Env` is one; a suite may bring its own.
    """

    trace: list[TraceEntry]

    @property
    def hazard_events(self) -> Sequence[HazardEvent]:
        """The hazard events fired so far."""
        ...

    def toolbox(self) -> list[ToolSpec]:
        """The tool specs the agent sees."""
        ...

    def call(self, call: ToolCall) -> Observation:
        """Run one tool call; errors come back as observations."""
        ...

    def end_state(self) -> str | None:
        """The world's end state (a hash), or None where nothing can change."""
        ...
