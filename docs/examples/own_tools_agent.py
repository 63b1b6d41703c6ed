"""An agent on its own MCP server, behind the toolchaos proxy, offline.

Run it (needs ``pip install 'toolchaos[mcp]'``)::

    python docs/examples/own_tools_agent.py runs/example
    python docs/examples/own_tools_agent.py runs/example --model local/qwen2.5-coder-0.5b
    toolchaos report runs/example

The MCP server below has a weather tool and a backup provider. By default the agent is a
small tool-calling loop whose decisions are scripted (a stand-in for a model): it calls
the weather tool, retries a transient error, follows a renamed parameter and falls back to
the backup when the error says the service is down. With ``--model`` a real model decides
instead, through toolchaos's model clients (:func:`toolchaos.chaos.model_client`):
``local/qwen2.5-coder-0.5b`` is the embedded model (``pip install 'toolchaos[local]'`` and
``toolchaos models pull qwen2.5-coder-0.5b``); when its extra or its file is missing, the
example says so and runs the scripted decisions. Each agent runs once clean and once under
each profile, through :func:`toolchaos.chaos.proxy.open_proxy`; every episode lands in the
run store, ``toolchaos report`` writes the report beside it, and the last line says where.
``own_tools_pytest.py`` runs the scripted agent under the pytest plugin.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio

TEMP_C = 21.5
PLANS: dict[str, Any] = {
    "transient": "transient",
    "drift": "drift",
    "outage": {"profile": "outage", "fallbacks": {"get_weather": "weather_backup"}},
}


def get_weather(city: str) -> dict[str, Any]:
    """Current weather in a city.

    Args:
        city: The city name.
    """
    return {"city": city, "temp_c": TEMP_C}


def weather_backup(city: str) -> dict[str, Any]:
    """The backup weather provider.

    Args:
        city: The city name.
    """
    return {"city": city, "temp_c": TEMP_C}


def weather_server() -> Any:
    """The MCP server with both tools (imported here: only the proxy run needs ``mcp``)."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("weather")
    server.tool()(get_weather)
    server.tool()(weather_backup)
    return server


Call = Callable[[str, dict[str, Any]], Awaitable[tuple[bool, Any]]]
"""Runs one tool call: ``(tool, arguments) -> (ok, body)``."""
Agent = Callable[[Call, list[Any]], Awaitable[str]]
"""An agent: ``(call, toolbox as ToolSpecs) -> final answer``."""
QUESTION = "What is the temperature in Oslo right now, in degrees Celsius? Answer with the number."


async def weather_agent(call: Call, city: str = "Oslo") -> str:
    """The agent's loop: its next move depends only on what the last call returned."""
    tool, arguments = "get_weather", {"city": city}
    for _ in range(6):
        ok, body = await call(tool, arguments)
        if ok:
            body = body.get("data", body) if isinstance(body, dict) else body
            return str(body["temp_c"])
        message = body["error"]["message"]
        if "renamed to '" in message:  # the backend names the parameter it now expects
            arguments = {message.split("renamed to '")[1].split("'")[0]: city}
        elif "maintenance" in message:  # down for good: switch to the backup provider
            tool, arguments = "weather_backup", {"city": city}
    return "unknown"


async def scripted_agent(call: Call, toolbox: list[Any]) -> str:
    """The scripted decisions (they need no toolbox: the errors say what to do)."""
    return await weather_agent(call)


def model_agent(client: Any, max_turns: int = 6) -> Agent:
    """A tool loop whose decisions come from a toolchaos model client (e.g. the local model)."""
    from toolchaos.ext import Message, ModelRequest

    async def agent(call: Call, toolbox: list[Any]) -> str:
        messages = [
            Message(role="system", content="Answer by calling the weather tools you are given."),
            Message(role="user", content=QUESTION),
        ]
        for _ in range(max_turns):
            response = await client.complete(ModelRequest(messages=messages, tools=toolbox))
            reply = response.message
            messages.append(reply)
            if not reply.tool_calls:
                return reply.content or ""
            for tool_call in reply.tool_calls:
                try:
                    arguments = json.loads(tool_call.arguments or "{}")
                except json.JSONDecodeError:
                    arguments = {}
                _, body = await call(
                    tool_call.name, arguments if isinstance(arguments, dict) else {}
                )
                messages.append(
                    Message(
                        role="tool",
                        content=json.dumps(body),
                        tool_call_id=tool_call.id,
                        name=tool_call.name,
                    )
                )
        return messages[-1].content or ""

    return agent


def choose_agent(model: str | None) -> tuple[str, Agent]:
    """``(model name stored, agent)``: the model's loop if it can load, else the scripted one."""
    if model is None:
        return "scripted", scripted_agent
    from toolchaos.chaos import model_client
    from toolchaos.ext import BadInput

    try:
        client = model_client(model)
    except BadInput as exc:  # the extra is not installed, or the model file is not pulled
        print(f"{model} is not available ({exc}); running the scripted decisions instead")
        return "scripted", scripted_agent
    return model, model_agent(client)


def passed(answer: str) -> bool:
    """The verdict: the answer states the true temperature."""
    return str(TEMP_C) in answer


def mcp_call(client: Any) -> Call:
    """The agent's tool calls over an MCP client."""

    async def call(tool: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
        result = await client.call_tool(tool, arguments)
        return not result.is_error, json.loads(result.content[0].text)

    return call


async def main(store: str, model: str | None = None) -> Path:
    """Run the agent clean and under each plan, storing every episode in ``store``.

    Args:
        store: The run directory.
        model: A model spec (``local/qwen2.5-coder-0.5b``) to decide instead of the script.

    Returns:
        The report written into the run directory (``report.md``, beside its CSVs).
    """
    from mcp import Client

    from toolchaos.chaos.proxy import open_proxy

    name_stored, agent = choose_agent(model)
    server = weather_server()
    for name, plan in PLANS.items():
        for arm in ("clean", "hazard"):
            options: dict[str, Any] = {"arm": arm, "store": store, "target": f"weather-{name}"}
            async with (
                open_proxy(Client(server), plan, model=name_stored, **options) as proxy,
                Client(proxy.server) as client,
            ):
                answer = await agent(mcp_call(client), proxy.episode.toolbox())
                fired = [e.variant for e in proxy.episode.hazard_events]
                # the verdict is ours to give; the proxy stores the episode as finished here
                proxy.episode.finish(answer, passed=passed(answer))
            print(f"{name:10} {arm:7} answer={answer[:40]!r:42} hazards={fired}")
    where = Path(store).resolve()
    # `toolchaos report DIR` writes report.md (and a CSV per table) into the run directory
    command = [sys.executable, "-m", "toolchaos.cli", "report", str(where), "--no-figures"]
    subprocess.run(command, check=True, capture_output=True)  # noqa: S603 (our own CLI)
    report = where / "report.md"
    print(f"episodes: {where / 'episodes.sqlite'}; report: {report}")
    return report


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", nargs="?", default="runs/own-tools-example")
    parser.add_argument(
        "--model",
        help="a model spec to decide instead of the script, e.g. local/qwen2.5-coder-0.5b",
    )
    args = parser.parse_args()
    anyio.run(main, args.store, args.model)
