"""Own-tools episodes into the run store the suites use, so ``toolchaos report DIR`` reads them."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolchaos._version import __version__
from toolchaos.core.types import Episode, HazardEvent, TraceEntry
from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.suites import get_suite

if TYPE_CHECKING:
    from toolchaos.chaos.engine import ChaosEngine

OWN_TOOLS = "own-tools"


class RunRecorder:
    """A run directory that own-tools episodes are committed to, one transaction each.

    Only what the agent sent and saw is stored (tool calls, observations, hazard events):
    never the headers or the environment a proxy or an adapter was configured with.

    Args:
        directory: The run directory (created when missing; an existing run is extended).
        model: The model name written when an episode names none.
    """

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.store = Store(self.directory / STORE_NAME)
        self._lock = threading.Lock()
        self._tasks: set[str] = set()
        if self.store.get_meta("suite") is None:
            self.store.set_meta("suite", OWN_TOOLS)
            self.store.set_meta("version", __version__)
            self.store.set_meta("started", datetime.now(UTC).isoformat())
        self._write_manifest()

    def _write_manifest(self) -> None:
        path = self.directory / "manifest.json"
        if not path.exists():
            manifest = {
                "suite": OWN_TOOLS,
                "version": __version__,
                "recorded_by": "toolchaos.chaos",
            }
            path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")

    def record(self, engine: ChaosEngine, episode: Episode) -> Episode:
        """Store the engine's target (once) and one finished episode, under a free sample.

        Returns the episode as stored (its sample and key chosen atomically in the store).
        """
        from toolchaos.chaos.engine import episode_key

        with self._lock:
            self._put_target(engine)
            target, model, arm = episode.task_id, episode.model, episode.arm
            return self.store.put_numbered(
                episode, lambda sample: episode_key(target, model, arm, sample)
            )

    def open(self, engine: ChaosEngine, episode: Episode) -> Episode:
        """Claim the row of an episode that is starting (:meth:`record` of it, empty).

        Its calls are then appended one by one (:meth:`append`) and :meth:`settle` writes
        its end, so a session that is killed keeps every call it answered.
        """
        return self.record(engine, episode)

    def append(self, key: str, entry: TraceEntry, events: Sequence[HazardEvent]) -> None:
        """Append one answered call (and the hazard events it fired) to an open episode."""
        with self._lock:
            self.store.append_call(key, entry, events)

    def settle(self, episode: Episode) -> Episode:
        """Write the end of an episode opened with :meth:`open` (its verdict, answer, status)."""
        with self._lock:
            self.store.put(episode)
        return episode

    def _put_target(self, engine: ChaosEngine) -> None:
        if engine.target not in self._tasks:
            task = get_suite(OWN_TOOLS).task_model.model_validate(_task(engine))
            self.store.put_tasks([task])
            self._tasks.add(engine.target)

    def close(self) -> None:
        """Close the store."""
        self.store.set_meta("ended", datetime.now(UTC).isoformat())
        self.store.close()

    def __enter__(self) -> RunRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _task(engine: ChaosEngine) -> dict[str, Any]:
    return {
        "id": engine.target,
        "suite": OWN_TOOLS,
        "plan": engine.plan.model_dump(mode="json"),
        "toolbox": [t.model_dump(mode="json") for t in engine.tools],
        "hazards": [s.model_dump(mode="json") for s in engine.specs],
        "metadata": {"seed": engine.seed},
    }
