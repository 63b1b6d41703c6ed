"""The ToolFailBench two-step protocol.

Call 1 offers the tools with ``tool_choice="auto"``. If the model called tools, their
returns are appended and call 2 asks for the answer with ``tool_choice="none"``. With
``rounds > 1`` the model may call tools again before the last, tool-free call (beyond the
paper's single round). Sampling: temperature 0, max_tokens 1024, seed 42 by default.
"""

from __future__ import annotations

from typing import Protocol

from toolchaos.agents.native import LoopConfig, LoopResult, tool_message
from toolchaos.core.types import Message, Observation, ToolCall, ToolSpec, Usage
from toolchaos.models.base import ModelClient
from toolchaos.suites.toolfailbench.types import FailTask


class ToolEnv(Protocol):
    """What the protocol needs from an environment: its role prompt, tools and calls."""

    def system(self) -> str:
        """The system prompt of the episode."""
        ...

    def toolbox(self) -> list[ToolSpec]:
        """The tools the model sees."""
        ...

    def call(self, call: ToolCall) -> Observation:
        """Run one call."""
        ...


async def run_two_step(
    task: FailTask, arm: str, env: ToolEnv, client: ModelClient, config: LoopConfig
) -> LoopResult:
    """Play one single-turn task: tool rounds (at most ``config.rounds``), then the answer."""
    rounds = config.rounds
    messages = [
        Message(role="system", content=env.system()),
        Message(role="user", content=task.prompt),
    ]
    usage = Usage()
    turns = 0
    final = ""
    for _ in range(max(1, rounds)):
        turns += 1
        response = await client.complete(config.request(messages, env.toolbox(), "auto"))
        usage.add(response.usage)
        messages.append(response.message)
        if not response.message.tool_calls:
            final = (response.message.content or "").strip()
            return LoopResult(messages=messages, final_answer=final, usage=usage, turns=turns)
        for call in response.message.tool_calls:
            observation = env.call(call)
            messages.append(tool_message(call, observation))
    turns += 1
    response = await client.complete(config.request(messages, env.toolbox(), "none"))
    usage.add(response.usage)
    messages.append(response.message)
    final = (response.message.content or "").strip()
    return LoopResult(messages=messages, final_answer=final, usage=usage, turns=turns)
