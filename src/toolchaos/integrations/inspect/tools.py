"""Hazards on your own Inspect tools: a tool source whose calls run through a hazard plan.

>>> chaos = ChaosInspectTools([get_weather(), weather_backup()], "outage", store="runs/insp")
>>> Task(                                                          # doctest: +SKIP
...     dataset=dataset,
...     solver=[use_tools(chaos), generate()],                     # or react(tools=[chaos])
...     scorer=chaos.scorer(match()),
... )

:class:`ChaosInspectTools` is an Inspect ``ToolSource``: Inspect resolves it inside each
sample (``use_tools`` once, ``react`` every turn), and it answers with that sample's tools,
bound to that sample's :class:`~toolchaos.chaos.ChaosEpisode` (opened at the sample's first
listing or call, in the arm of the sample's ``toolchaos_arm`` metadata, else the default
arm). A call runs through :meth:`~toolchaos.chaos.ChaosEpisode.begin`, your tool, then
:meth:`~toolchaos.chaos.ChaosEpisode.end`; an error body is raised as Inspect's
``ToolError``, so the model sees it as a tool error. :meth:`ChaosInspectTools.scorer` wraps
your scorer: its score is the episode's verdict, and the episode is stored then.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_ai._util.registry import registry_info, set_registry_info, set_registry_params
from inspect_ai.model import get_model
from inspect_ai.scorer import Score, Scorer, Target, value_to_float
from inspect_ai.solver import TaskState
from inspect_ai.solver._task_state import sample_state
from inspect_ai.tool import Tool, ToolDef, ToolError, ToolParams, ToolResult

from toolchaos.chaos.adapters._common import AdapterSession, PlanSource, result_value
from toolchaos.chaos.engine import ChaosEpisode
from toolchaos.chaos.python import spec_from_openai
from toolchaos.chaos.record import RunRecorder
from toolchaos.core.errors import BadInput
from toolchaos.core.errors import ToolError as ChaosToolError
from toolchaos.core.types import Episode, ToolSpec
from toolchaos.integrations.inspect.solver import model_spec

__all__ = ["ARM_KEY", "ChaosInspectTools", "spec_of"]

ARM_KEY = "toolchaos_arm"
"""The sample metadata key that picks a sample's arm (``hazard`` or ``clean``)."""


def spec_of(tool: ToolDef) -> ToolSpec:
    """The documented spec of an Inspect tool definition."""
    return spec_from_openai(
        {
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.parameters.model_dump(exclude_none=True),
        }
    )


class ChaosInspectTools:
    """Your Inspect tools with a hazard plan in front of them, one episode per sample.

    Args:
        tools: Inspect tools (``@tool`` instances) or ``ToolDef`` objects.
        plan: A profile name, a plan file, a dict or a :class:`HazardPlan`.
        seed: Overrides the plan's seed.
        store: A run directory (or recorder) every finished episode is stored in.
        target: The id the episodes are stored under (default: the plan's label).
        model: The agent's name in the store (default: ``inspect/<Inspect's model>``).
        arm: The arm of a sample whose metadata names none.
        lenient: List each tool's parameters without ``required`` and with extra
            properties allowed. Inspect validates every call against the listed schema
            before the tool runs, so without this a call the plan's backend expects but
            the (stale) docs do not (a renamed parameter, a new enum value) is refused by
            Inspect and never reaches the plan; with it, every call reaches the plan, which
            validates strictly against the backend's schema in every arm.

    Raises:
        BadInput: The plan does not fit the tools, or an arm is unknown.
    """

    def __init__(
        self,
        tools: Sequence[Tool | ToolDef],
        plan: PlanSource = "transient",
        *,
        seed: int | None = None,
        store: str | Path | RunRecorder | None = None,
        target: str | None = None,
        model: str | None = None,
        arm: str = "hazard",
        lenient: bool = True,
    ) -> None:
        self.originals = {
            d.name: d for d in (t if isinstance(t, ToolDef) else ToolDef(t) for t in tools)
        }
        if not self.originals:
            raise BadInput("ChaosInspectTools needs at least one tool")
        self.session = AdapterSession(plan, seed=seed, store=store, target=target, arm=arm)
        self.engine = self.session.bind([spec_of(d) for d in self.originals.values()])
        self.model = model
        self.lenient = lenient
        self._episodes: dict[str, ChaosEpisode] = {}

    # -- the sample's episode ------------------------------------------------------------------
    def episode(self, state: TaskState | None = None) -> ChaosEpisode:
        """The episode of ``state``'s sample (default: the running one), opened on first use.

        Raises:
            RuntimeError: Called outside an Inspect sample.
        """
        state = state or sample_state()
        if state is None:
            raise RuntimeError("ChaosInspectTools is used inside an Inspect sample only")
        episode = self._episodes.get(state.uuid)
        if episode is None:
            arm = str(state.metadata.get(ARM_KEY, self.session.arm))
            if arm not in ("hazard", "clean"):
                raise BadInput(f"sample metadata {ARM_KEY} must be hazard or clean, not {arm!r}")
            model = self.model or model_spec(get_model())
            episode = self.engine.episode(arm, model=model)
            self._episodes[state.uuid] = episode
        return episode

    def finish(
        self, state: TaskState, *, passed: bool | None = None, error: str | None = None
    ) -> Episode:
        """Finish and store the episode of ``state``'s sample, with its final answer."""
        episode = self.episode(state)
        del self._episodes[state.uuid]
        return episode.finish(state.output.completion, passed=passed, error=error)

    def close(self) -> None:
        """Close the run store, if it was opened from a directory."""
        self.session.close()

    # -- the tool source ----------------------------------------------------------------------
    async def tools(self) -> list[Tool]:
        """The running sample's tools, as its episode shows them (a drift may rewrite one)."""
        episode = self.episode()
        listed = []
        for spec in episode.toolbox():
            base = self.originals.get(spec.name)
            if base is None:
                continue
            parameters = dict(spec.parameters)
            if self.lenient:
                parameters.update(required=[], additionalProperties=True)
            listed.append(
                ToolDef(
                    self._runner(episode, spec.name),
                    name=spec.name,
                    description=spec.description,
                    parameters=ToolParams.model_validate(parameters),
                    parallel=base.parallel,
                    viewer=base.viewer,
                    model_input=base.model_input,
                    max_output=base.max_output,
                    options=base.options,
                ).as_tool()
            )
        return listed

    def _runner(self, episode: ChaosEpisode, name: str) -> Tool:
        originals = self.originals

        async def execute(**kwargs: Any) -> ToolResult:
            state = episode.begin(name, kwargs)
            if state.pending is None:
                raise ToolError(episode.end(state).to_text())
            pending = state.pending
            original = originals.get(pending.tool)
            try:
                if original is None:
                    raise ChaosToolError(
                        f"Unknown tool '{pending.tool}'.", code=404, kind="unknown_tool"
                    )
                result = await original.tool(**pending.arguments)
            except ChaosToolError as err:
                observation = episode.end(state, error=err)
            except ToolError as err:  # your tool's own error channel
                error = ChaosToolError(err.message, code=400, kind="tool_error")
                observation = episode.end(state, error=error)
            except Exception as exc:  # your tool failed: logged as an upstream fault
                episode.raised(state, exc)
                raise
            else:
                observation = episode.end(state, result_value(result))
            if not observation.ok:
                raise ToolError(observation.to_text())
            content = observation.content
            return content if isinstance(content, str) else observation.to_text()

        return execute

    # -- the verdict --------------------------------------------------------------------------
    def scorer(self, inner: Scorer) -> Scorer:
        """Your scorer, whose score is the episode's verdict; the episode is stored then.

        A score that converts to 1.0 (``C``, ``True``, ``1``) passes, any other number
        fails, a score of another kind (a dict, say) leaves the verdict to the report.
        The score's metadata gains ``toolchaos``: the episode's key, arm and hazard events.
        """

        async def score(state: TaskState, target: Target) -> Score | None:
            result = await inner(state, target)
            passed = _passed(result) if result is not None else None
            episode = self.finish(state, passed=passed)
            if result is not None:
                result.metadata = {
                    **(result.metadata or {}),
                    "toolchaos": {
                        "key": episode.key,
                        "arm": episode.arm,
                        "calls": len(episode.trace),
                        "hazard_events": [
                            json.loads(e.model_dump_json()) for e in episode.hazard_events
                        ],
                    },
                }
            return result

        # the wrapper is the inner scorer to Inspect: same name, same metrics
        info = registry_info(inner)
        set_registry_info(score, info)
        set_registry_params(score, {})
        return score


def _passed(score: Score) -> bool | None:
    if isinstance(score.value, str | int | float | bool):
        return value_to_float()(score.value) >= 1.0
    return None
