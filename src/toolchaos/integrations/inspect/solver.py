"""The solver: plays a toolchaos task's protocol with Inspect's model."""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from toolchaos.agents.native import LoopConfig
from toolchaos.integrations.inspect import EPISODE_KEY
from toolchaos.integrations.inspect.model import InspectModelClient, to_inspect_messages
from toolchaos.models.base import ModelClient
from toolchaos.runner.episode import play
from toolchaos.runner.plan import PlannedEpisode
from toolchaos.suites import configured_suite

MODEL_PREFIX = "inspect/"


class _OneClient:
    """The factory of one episode: the Inspect model's client."""

    def __init__(self, spec: str, client: ModelClient) -> None:
        self.spec = spec
        self.client = client

    def for_episode(self, task: Any, arm: str, sample: int) -> ModelClient:
        return self.client


def model_spec(model: object) -> str:
    """The toolchaos model spec of an Inspect model (``inspect/openai/gpt-4o``)."""
    return MODEL_PREFIX + str(model)


@solver
def toolchaos_protocol(max_turns: int = 10, rounds: int = 1) -> Solver:
    """Play the sample's toolchaos task in its arm, with the suite's protocol.

    The episode runs in the suite's own env (``Suite.make_env``): the hazard, its events,
    recovery and the end state are toolchaos's; the model is Inspect's. The played
    episode is kept in the sample store (``toolchaos_episode``) for the scorer and for
    ``toolchaos import-inspect``.

    Args:
        max_turns: Tool-loop turns before the final prompt.
        rounds: ToolFailBench: tool rounds before the answer.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = state.metadata
        suite = configured_suite(meta["toolchaos_suite"], meta.get("toolchaos_options"))
        task = suite.parse_task(meta["toolchaos_task"])
        model = get_model()
        spec = model_spec(model)
        item = PlannedEpisode(
            spec, task, meta["toolchaos_arm"], state.epoch - 1, meta["toolchaos_protocol"]
        )
        client = InspectModelClient(model)
        loop = LoopConfig(max_turns=max_turns, rounds=rounds)
        episode = await play(item, _OneClient(spec, client), loop, suite)
        state.store.set(EPISODE_KEY, episode.model_dump_json())
        state.messages = to_inspect_messages(episode.messages)
        state.output = ModelOutput.from_content(model=str(model), content=episode.final_answer)
        if episode.error:
            state.output.error = episode.error
        state.completed = True
        return state

    return solve
