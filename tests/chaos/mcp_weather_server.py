"""A real MCP server for the proxy tests.

``python mcp_weather_server.py`` serves it on stdio; ``python mcp_weather_server.py --http
PORT`` over streamable HTTP at ``http://127.0.0.1:PORT/mcp``.
"""

from __future__ import annotations

import sys
from typing import Any

from mcp.server.mcpserver import MCPServer

TRUE_TEMP = 21.5

server = MCPServer("weather")


@server.tool()
def get_weather(city: str) -> dict[str, Any]:
    """Current weather in a city."""
    return {"city": city, "temp_c": TRUE_TEMP, "as_of": "2026-03-05T12:00:00Z"}


@server.tool()
def weather_backup(city: str) -> dict[str, Any]:
    """The backup weather provider."""
    return {"city": city, "temp_c": TRUE_TEMP, "as_of": "2026-03-05T12:00:00Z"}


if __name__ == "__main__":
    if sys.argv[1:2] == ["--http"]:
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run()
