"""The ``scripted/<mode>`` provider: every suite's scripted baselines as model clients.

Each suite names its baselines (:attr:`Suite.baselines`). ToolBench-X has ``oracle``,
``naive``, ``retry`` and ``no-tool``; ToolFailBench adds ``skip``, ``ignore``,
``fabricate`` and ``overuse``, one per failure mode. A mode a suite lacks plays as that
suite's fallback (ToolBench-X plays the ToolFailBench modes like ``naive``).

``coin`` is every suite's: a stochastic policy for measuring noise. Each episode it plays
the suite's ``oracle`` with probability p and its ``no-tool`` otherwise, from a hash of
(seed, suite, task, arm, sample), so an episode plays the same way on every rerun while
two seeds are two draws of one policy. ``scripted/coin`` has p = 0.5 and seed 0;
``scripted/coin-70@3`` p = 0.70 and seed 3.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from toolchaos.core.errors import BadInput
from toolchaos.models.base import ModelClient
from toolchaos.models.config import ModelEntry
from toolchaos.models.transport import ResponseCache
from toolchaos.suites import SUITES, get_suite

COIN = re.compile(r"coin(?:-(?P<percent>\d{1,3}))?(?:@(?P<seed>\d{1,9}))?")
"""``coin``, ``coin-<percent right>``, either with ``@<seed>``."""


def known_modes() -> tuple[str, ...]:
    """Every mode some registered suite has, in registration order, then ``coin``."""
    modes: dict[str, None] = {}
    for name in SUITES:
        modes.update(dict.fromkeys(get_suite(name).baselines))
    return (*modes, "coin")


class CoinPolicy:
    """Plays ``oracle`` with probability ``p`` per episode, else ``no-tool`` (seeded)."""

    def __init__(self, p: float, seed: int) -> None:
        self.p = p
        self.seed = seed

    def heads(self, task: Any, arm: str, sample: int) -> bool:
        """Whether this episode plays right: a uniform draw from the episode's identity."""
        text = f"{self.seed}|{task.suite}|{task.id}|{arm}|{sample}"
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") / 2**64 < self.p


def coin_policy(mode: str) -> CoinPolicy | None:
    """The coin policy ``mode`` names, None for another mode.

    Raises:
        BadInput: For a coin whose percentage is above 100.
    """
    found = COIN.fullmatch(mode)
    if found is None:
        return None
    percent = int(found["percent"] or 50)
    if percent > 100:
        raise BadInput(f"scripted/{mode}: the coin's percentage must be 0 to 100, not {percent}")
    return CoinPolicy(percent / 100, int(found["seed"] or 0))


class ScriptedFactory:
    """Builds a fresh scripted policy for every episode, from the task's suite."""

    def __init__(self, mode: str) -> None:
        modes = known_modes()
        self.coin = coin_policy(mode)
        if mode not in modes and self.coin is None:
            raise BadInput(f"unknown scripted policy {mode!r}; known: {', '.join(modes)}")
        self.mode = mode
        self.spec = f"scripted/{mode}"

    def for_episode(self, task: Any, arm: str, sample: int) -> ModelClient:
        """Return a new policy playing ``task``."""
        suite = get_suite(task.suite)
        if self.coin is not None:
            mode = "oracle" if self.coin.heads(task, arm, sample) else "no-tool"
            return suite.baseline(task, mode)
        return suite.baseline(task, self.mode)


def make_factory(
    name: str, entry: ModelEntry, cache: ResponseCache | None = None
) -> ScriptedFactory:
    """Provider entry point for ``scripted/<name>`` (scripted runs never need a cache)."""
    return ScriptedFactory(name)
