"""Play one planned episode and turn whatever happens into a storable Episode."""

from __future__ import annotations

from typing import Any

from toolchaos.agents.native import LoopConfig
from toolchaos.core.errors import BadInput, HarnessFault
from toolchaos.core.types import Episode, EpisodeStatus
from toolchaos.models.base import ModelFactory
from toolchaos.models.transport import ModelFatal
from toolchaos.runner.plan import PlannedEpisode
from toolchaos.suites import get_suite


async def play(item: PlannedEpisode, factory: ModelFactory, config: LoopConfig) -> Episode:
    """Play ``item``; a harness fault yields an ``error`` episode, never a wrong answer."""
    episode = Episode(
        key=item.key,
        suite=item.task.suite,
        task_id=item.task.id,
        model=item.model,
        protocol=item.protocol,
        arm=item.arm,
        sample=item.sample,
    )
    env: Any = None
    try:
        client = factory.for_episode(item.task, item.arm, item.sample)
        suite = get_suite(item.task.suite)
        env = suite.make_env(item.task, item.arm)
        result = await suite.protocols[item.protocol](item.task, item.arm, env, client, config)
    except ModelFatal:
        raise  # the model cannot be used at all: stop the run, store nothing for this one
    except Exception as exc:  # invariant 3: anything but a ToolError is the harness's
        episode.status = EpisodeStatus.ERROR
        kind = "harness" if isinstance(exc, HarnessFault | BadInput) else "unexpected"
        episode.error = f"{kind}: {type(exc).__name__}: {exc}"
    else:
        episode.messages = result.messages
        episode.final_answer = result.final_answer
        episode.usage = result.usage
        episode.turns = result.turns
    if env is not None:
        episode.trace = env.trace
        episode.hazard_events = list(env.hazard_events)
        if episode.status is EpisodeStatus.FINISHED:
            episode.end_state = env.end_state()
    return episode
