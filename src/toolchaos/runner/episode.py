"""Play one planned episode and turn whatever happens into a storable Episode."""

from __future__ import annotations

from typing import Any

from toolchaos.agents.native import LoopConfig
from toolchaos.core.errors import BadInput, HarnessFault
from toolchaos.core.types import Episode, EpisodeStatus, FaultOrigin
from toolchaos.models.base import ModelFactory
from toolchaos.models.transport import ModelFatal, ModelUnavailable
from toolchaos.runner.plan import PlannedEpisode
from toolchaos.suites import Suite, get_suite


async def play(
    item: PlannedEpisode,
    factory: ModelFactory,
    config: LoopConfig,
    suite: Suite[Any, Any] | None = None,
) -> Episode:
    """Play ``item``; a harness fault yields an ``error`` episode, never a wrong answer.

    A model provider that fails mid-episode once the client's retries are spent
    (:class:`~toolchaos.models.transport.ModelUnavailable`) yields an ``indeterminate``
    one (fault origin ``provider``), its partial trace kept.

    ``suite`` is the task's suite with the run's options set (by default the registered
    one, with none).
    """
    found: dict[str, Any] = {}
    env: Any = None
    try:
        client = factory.for_episode(item.task, item.arm, item.sample)
        suite = get_suite(item.task.suite) if suite is None else suite
        env = suite.make_env(item.task, item.arm)
        result = await suite.protocols[item.protocol](item.task, item.arm, env, client, config)
    except ModelFatal:
        raise  # the model cannot be used at all: stop the run, store nothing for this one
    except ModelUnavailable as exc:  # a fault toolchaos did not inject decided it
        found["status"] = EpisodeStatus.INDETERMINATE
        found["error"] = f"{FaultOrigin.PROVIDER}: {exc}"
    except Exception as exc:  # invariant 3: anything but a ToolError is the harness's
        kind = "harness" if isinstance(exc, HarnessFault | BadInput) else "unexpected"
        found["status"] = EpisodeStatus.ERROR
        found["error"] = f"{kind}: {type(exc).__name__}: {exc}"
    else:
        found["messages"] = result.messages
        found["final_answer"] = result.final_answer
        found["usage"] = result.usage
        found["turns"] = result.turns
    if env is not None:
        found["trace"] = env.trace
        found["hazard_events"] = list(env.hazard_events)
        if "status" not in found:
            found["end_state"] = env.end_state()
    # built once, with everything: setting fields one by one on a model costs more
    return Episode(
        key=item.key,
        suite=item.task.suite,
        task_id=item.task.id,
        model=item.model,
        protocol=item.protocol,
        arm=item.arm,
        sample=item.sample,
        **found,
    )
