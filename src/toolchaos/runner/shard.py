"""Shards: a deterministic slice of a run's plan, for one job of a batch scheduler.

``--shard I/N`` (I from 1 to N) plays the planned episodes whose key falls in slice I of
N, into its own run directory; ``toolchaos merge`` joins the N stores into one. An
episode's slice is decided by a digest of its key alone, so it does not depend on the
order of the plan, on the other episodes or on the machine: every job of an array agrees
on who plays what, and together the N slices cover the plan exactly once.
"""

from __future__ import annotations

import hashlib
import re

from pydantic import BaseModel

from toolchaos.core.errors import BadInput
from toolchaos.runner.plan import PlannedEpisode

_SHARD = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


class Shard(BaseModel, frozen=True):
    """Slice ``index`` (1-based) of ``count``."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"2/8"`` as a shard; BadInput on anything else."""
        match = _SHARD.fullmatch(text)
        if match is None:
            raise BadInput(f"--shard {text!r} must look like I/N, e.g. 1/4")
        index, count = int(match.group(1)), int(match.group(2))
        if count < 1 or not 1 <= index <= count:
            raise BadInput(f"--shard {text!r}: I must be between 1 and N (N at least 1)")
        return cls(index=index, count=count)

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, key: str) -> bool:
        """Whether the episode with this store key belongs to this shard."""
        digest = hashlib.sha256(key.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1

    def select(self, plan: list[PlannedEpisode]) -> list[PlannedEpisode]:
        """This shard's episodes of ``plan``, in plan order."""
        return [item for item in plan if self.holds(item.key)]
