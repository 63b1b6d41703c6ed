"""The native tool loop: the model calls tools through the API's tool interface.

The runner owns the conversation. Each turn asks the model client for the next message,
hands its tool calls to the episode's env and appends the observations. When the turns
run out, or the model stops with an empty answer, one final request without tools asks
for the answer.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from toolchaos.core.types import Message, Observation, TaskSpec, ToolCall, ToolSpec, Usage
from toolchaos.env.runtime import Env
from toolchaos.models.base import ModelClient, ModelRequest

DEFAULT_SYSTEM = (
    "You are an assistant that completes the user's request by calling the tools you are "
    "given. Call tools whenever the answer depends on data you do not have, use what they "
    "return, and finish with a short final answer that states the result plainly."
)
FINAL_PROMPT = (
    "Please stop calling tools now and give your final answer to the original request in "
    "one or two sentences."
)
ORACLE_LABEL = (
    "Reliability note: during this task one of the tools may be affected by a problem of "
    "this kind: {family}."
)


class LoopConfig(BaseModel):
    """Settings of the native tool loop."""

    max_turns: int = 10
    rounds: int = 1
    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int | None = 42

    def request(
        self,
        messages: list[Message],
        tools: list[ToolSpec],
        tool_choice: str,
        phase: Literal["act", "decide", "fill"] = "act",
    ) -> ModelRequest:
        """A request for the next message, sampled with these settings."""
        return ModelRequest(
            messages=messages,
            tools=tools,
            tool_choice=tool_choice,
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            seed=self.seed,
            phase=phase,
        )


class LoopResult(BaseModel):
    """What the loop produced: the conversation, the answer, usage and turn count."""

    messages: list[Message]
    final_answer: str
    usage: Usage
    turns: int


def opening_messages(task: TaskSpec, arm: str) -> list[Message]:
    """The system and user messages an episode starts with in ``arm``."""
    system = task.system or DEFAULT_SYSTEM
    if task.hazard is not None:
        if arm == "hint" and task.hints is not None and task.hints.delivery == "start":
            system += "\n\n" + (task.hints.detailed or task.hints.minimal)
        elif arm == "oracle-label":
            system += "\n\n" + ORACLE_LABEL.format(
                family=task.hazard.family.value.replace("_", " ")
            )
    return [Message(role="system", content=system), Message(role="user", content=task.prompt)]


def tool_message(call: ToolCall, observation: Observation) -> Message:
    """The tool message that hands ``observation`` of ``call`` back to the model."""
    return Message(role="tool", tool_call_id=call.id, name=call.name, content=observation.to_text())


async def ask_final_answer(
    messages: list[Message],
    tools: list[ToolSpec],
    client: ModelClient,
    config: LoopConfig,
    usage: Usage,
) -> str:
    """Ask for the final answer with tools off, append the reply and return its text."""
    messages.append(Message(role="user", content=FINAL_PROMPT))
    response = await client.complete(config.request(messages, tools, "none"))
    usage.add(response.usage)
    messages.append(response.message)
    return (response.message.content or "").strip()


async def run_native(
    task: TaskSpec, arm: str, env: Env, client: ModelClient, config: LoopConfig
) -> LoopResult:
    """Play one episode of ``task`` with ``client`` in ``env``."""
    messages = opening_messages(task, arm)
    usage = Usage()
    final = ""
    turns = 0
    hint_pending = (
        arm == "hint"
        and task.hazard is not None
        and task.hints is not None
        and task.hints.delivery == "first_anomaly"
    )
    while turns < config.max_turns:
        turns += 1
        response = await client.complete(config.request(messages, env.toolbox(), "auto"))
        usage.add(response.usage)
        messages.append(response.message)
        if not response.message.tool_calls:
            final = (response.message.content or "").strip()
            break
        anomaly = False
        for call in response.message.tool_calls:
            observation = env.call(call)
            anomaly = anomaly or not observation.ok or bool(observation.hazard_events)
            messages.append(tool_message(call, observation))
        if hint_pending and anomaly and task.hints is not None:
            messages.append(Message(role="user", content=task.hints.detailed or task.hints.minimal))
            hint_pending = False
    if not final:
        final = await ask_final_answer(messages, env.toolbox(), client, config, usage)
    return LoopResult(messages=messages, final_answer=final, usage=usage, turns=turns)
