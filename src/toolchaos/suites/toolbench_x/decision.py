"""The policy-decision protocol of the ToolBench-X paper's harness.

Each turn has two requests. First the model chooses a step as a JSON object (call a
tool, retry, fall back to another tool, or finish with an answer), with tools described
but not callable; then, unless it finished, a second request forces a call of the chosen
tool (``tool_choice`` names it) so the model fills in the arguments. Results go back as
tool messages. Decisions that are not valid JSON are the model's mistakes: they stay in
the conversation and count as turns.
"""

from __future__ import annotations

from typing import Any

from toolchaos.agents.native import (
    LoopConfig,
    LoopResult,
    ask_final_answer,
    opening_messages,
    tool_message,
)
from toolchaos.core.jsonutil import object_in
from toolchaos.core.types import Message, TaskSpec, ToolCall, Usage
from toolchaos.env.runtime import Env
from toolchaos.models.base import ModelClient

ACTIONS = ("call_tool", "retry", "fallback", "finish")
DECIDE_PROMPT = (
    "Choose your next step and reply with one JSON object only, no other text: "
    '{"action": "call_tool" | "retry" | "fallback" | "finish", "tool": "<a tool name, '
    'unless you finish>", "answer": "<your final answer, when you finish>"}. '
    "call_tool calls a tool; retry calls a tool that just failed again; fallback calls a "
    "different tool instead of one that failed; finish ends the task with your answer."
)
MAX_INVALID = 2


def parse_decision(text: str | None) -> dict[str, Any] | None:
    """The decision object in a reply, or None when there is no valid one."""
    value = object_in(text)
    if value is None or value.get("action") not in ACTIONS:
        return None
    if value["action"] != "finish" and not isinstance(value.get("tool"), str):
        return None
    return value


async def run_decision(
    task: TaskSpec, arm: str, env: Env, client: ModelClient, config: LoopConfig
) -> LoopResult:
    """Play one episode with the two-request decision protocol."""
    messages = opening_messages(task, arm)
    usage = Usage()
    final = ""
    turns = 0
    invalid = 0
    names = {spec.name for spec in env.toolbox()}
    while turns < config.max_turns:
        turns += 1
        messages.append(Message(role="user", content=DECIDE_PROMPT))
        response = await client.complete(config.request(messages, env.toolbox(), "none", "decide"))
        usage.add(response.usage)
        messages.append(Message(role="assistant", content=response.message.content or ""))
        decision = parse_decision(response.message.content)
        if decision is None:
            invalid += 1
            if invalid >= MAX_INVALID:
                break
            continue
        if decision["action"] == "finish":
            final = str(decision.get("answer") or "").strip()
            break
        tool = decision["tool"]
        if tool not in names:
            observation = env.call(ToolCall(id=f"decision_{turns}", name=tool, arguments="{}"))
            messages.append(Message(role="user", content=observation.to_text()))
            continue
        response = await client.complete(config.request(messages, env.toolbox(), tool, "fill"))
        usage.add(response.usage)
        messages.append(response.message)
        for call in response.message.tool_calls:
            observation = env.call(call)
            messages.append(tool_message(call, observation))
    if not final:
        final = await ask_final_answer(messages, env.toolbox(), client, config, usage)
    return LoopResult(messages=messages, final_answer=final, usage=usage, turns=turns)
