"""What every framework adapter shares: the engine, the current episode, the missing extra."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from toolchaos.chaos.engine import ARMS, ChaosEngine, ChaosEpisode
from toolchaos.chaos.plan import HazardPlan, load_plan
from toolchaos.chaos.record import RunRecorder
from toolchaos.core.errors import BadInput
from toolchaos.core.types import Episode, ToolSpec

PlanSource = str | Path | HazardPlan | dict[str, Any]


class MissingExtra(BadInput, ImportError):
    """An adapter's framework is not installed (one sentence naming the extra)."""


def missing_extra(adapter: str, extra: str, exc: ImportError) -> MissingExtra:
    """The error an adapter module raises when its framework is not installed.

    Only a missing module means a missing extra: a name the installed version lacks is an
    ImportError of its own (the pin in ``pyproject.toml`` says which versions fit).
    """
    return MissingExtra(
        f"the {adapter} adapter needs the optional extra: pip install 'toolchaos[{extra}]' "
        f"({exc.name or extra} is not installed)"
    )


def result_value(value: Any) -> Any:
    """A framework's tool output as data the hazard layer can alter.

    Frameworks hand tool results to the model as text; JSON text is parsed back so an
    output hazard can rename or convert its fields. Any other text stays as it is.
    """
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


class AdapterSession:
    """A hazard plan, the engine it becomes on a framework's tools, and the current episode.

    The engine is bound once, when the framework's tools are known (at construction for
    most adapters; at the first listing for a Pydantic AI toolset of unknown tools). Calls
    go to the current episode: the one :meth:`episode` opened last, or, when there is none
    or it has finished, a new one in the session's default arm.

    Args:
        plan: A profile name, a plan file, a dict or a :class:`HazardPlan`.
        seed: Overrides the plan's seed.
        store: A run directory (or recorder) every finished episode is stored in.
        target: The id the episodes are stored under (default: the plan's label).
        model: The agent's name in the store.
        arm: The arm of an episode opened implicitly (``hazard`` or ``clean``).
    """

    def __init__(
        self,
        plan: PlanSource = "transient",
        *,
        seed: int | None = None,
        store: str | Path | RunRecorder | None = None,
        target: str | None = None,
        model: str = "agent",
        arm: str = "hazard",
    ) -> None:
        if arm not in ARMS:
            raise BadInput(f"arm must be one of {', '.join(ARMS)}, not {arm!r}")
        self.plan = load_plan(plan)  # a bad plan fails here, before the agent runs
        self.seed = seed
        self.recorder = RunRecorder(store) if isinstance(store, str | Path) else store
        self._owns_recorder = isinstance(store, str | Path)
        self.target = target
        self.model = model
        self.arm = arm
        self.engine: ChaosEngine | None = None
        self._current: ChaosEpisode | None = None

    def bind(
        self, tools: Sequence[ToolSpec], outputs: Mapping[str, Mapping[str, Any]] | None = None
    ) -> ChaosEngine:
        """The engine on these tools (made on the first call; later calls return it).

        ``outputs`` are the tools' result schemas where the framework knows them: a hazard
        on a field they type as it cannot change is refused here (``BadInput``).
        """
        if self.engine is None:
            self.engine = ChaosEngine(
                tools,
                self.plan,
                seed=self.seed,
                recorder=self.recorder,
                target=self.target,
                outputs=outputs,
            )
        return self.engine

    def _engine(self) -> ChaosEngine:
        if self.engine is None:
            raise BadInput(
                "the adapter has not seen its tools yet: a toolset whose tools are known only "
                "once listed (an MCP server) binds its plan at the agent's first listing, so "
                "give the arm to the adapter (arm=...) and call finish() after the run"
            )
        return self.engine

    def episode(self, arm: str | None = None, *, sample: int | None = None) -> ChaosEpisode:
        """Open an episode (``hazard`` applies the plan, ``clean`` runs without it).

        Every call the framework makes from now on goes to it, until it finishes.
        """
        chosen = self.arm if arm is None else arm
        if chosen not in ARMS:
            raise BadInput(f"arm must be one of {', '.join(ARMS)}, not {chosen!r}")
        self._current = self._engine().episode(chosen, model=self.model, sample=sample)
        return self._current

    @property
    def current(self) -> ChaosEpisode:
        """The episode calls go to (a new one in the default arm when none is open)."""
        if self._current is None or self._current.finished is not None:
            return self.episode()
        return self._current

    def finish(
        self, final_answer: str = "", *, passed: bool | None = None, error: str | None = None
    ) -> Episode:
        """Finish and store the current episode (see :meth:`ChaosEpisode.finish`).

        Raises:
            RuntimeError: No episode was opened, explicitly or by a call.
        """
        if self._current is None:
            raise RuntimeError("no episode is open: the agent made no call and none was opened")
        return self._current.finish(final_answer, passed=passed, error=error)

    def close(self) -> None:
        """Close the run store, if the session opened it from a directory."""
        if self.recorder is not None and self._owns_recorder:
            self.recorder.close()
