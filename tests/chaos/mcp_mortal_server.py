"""A real MCP server that can fail the way production servers do, for the proxy tests.

``python mcp_mortal_server.py [--die-after N]`` serves on stdio. ``get_weather`` answers
like the weather server's; ``get_station`` answers an unknown station with a JSON-RPC
error (not a tool result); ``get_alerts`` always answers with a -32000 error;
``get_forecast`` takes a minute. With ``--die-after N`` the process exits (code 3) on the
call after its N-th, before answering it, as a crashing server would.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

TRUE_TEMP = 21.5
DIE_AFTER = int(sys.argv[sys.argv.index("--die-after") + 1]) if "--die-after" in sys.argv else 0

server = MCPServer("mortal-weather")
calls = 0


def _count() -> None:
    global calls
    calls += 1
    if DIE_AFTER and calls > DIE_AFTER:
        os._exit(3)


@server.tool()
def get_weather(city: str) -> dict[str, Any]:
    """Current weather in a city."""
    _count()
    return {"city": city, "temp_c": TRUE_TEMP, "call": calls}


@server.tool()
def get_station(station_id: str) -> dict[str, Any]:
    """A weather station by its id (only ``OSL-1`` exists)."""
    _count()
    if station_id != "OSL-1":
        raise MCPError(INVALID_PARAMS, f"no station {station_id!r}")
    return {"id": station_id, "city": "Oslo"}


@server.tool()
async def get_forecast(city: str) -> dict[str, Any]:
    """A forecast that takes a minute to compute."""
    import anyio

    _count()
    await anyio.sleep(60)
    return {"city": city}


@server.tool()
def get_alerts(city: str) -> dict[str, Any]:
    """Weather alerts for a city (the alert service is always busy)."""
    _count()
    raise MCPError(-32000, "alert service busy")  # the code the SDK uses for a closed link


if __name__ == "__main__":
    server.run()
