"""A small MCP server to try the toolchaos proxy on (docs/own-tools.md, the quickstart).

Three tools over a fixed table, nothing from the network or the clock:

- ``get_weather(city, units="metric")``: the current reading (typed: its output schema
  says ``temp_c`` is a number, ``city`` a string);
- ``weather_backup(city)``: a second provider of the same reading (a fallback);
- ``list_cities()``: the cities it knows.

``python docs/examples/weather_mcp_server.py`` serves it on stdio (what an MCP host or
``toolchaos proxy -- python docs/examples/weather_mcp_server.py`` starts);
``python docs/examples/weather_mcp_server.py --http 8000`` over streamable HTTP at
``http://127.0.0.1:8000/mcp``. Needs the ``mcp`` SDK (``pip install -e '.[mcp]'``).
"""

from __future__ import annotations

import sys

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel

READINGS = {"Oslo": 21.5, "Lisbon": 27.0, "Reykjavik": 9.5}
AS_OF = "2026-03-05T12:00:00Z"

server = MCPServer("example-weather")


class Reading(BaseModel):
    """One weather reading."""

    city: str
    temp_c: float
    as_of: str


def _reading(city: str) -> Reading:
    if city not in READINGS:
        known = ", ".join(sorted(READINGS))
        raise ValueError(f"no station for {city!r}; known cities: {known}")
    return Reading(city=city, temp_c=READINGS[city], as_of=AS_OF)


@server.tool()
def get_weather(city: str, units: str = "metric") -> Reading:
    """Current weather in a city.

    Args:
        city: The city name, e.g. Oslo.
        units: metric (the only one this station reports; temp_c is in degrees Celsius).
    """
    return _reading(city)


@server.tool()
def weather_backup(city: str) -> Reading:
    """The backup weather provider: the same reading from an independent station.

    Args:
        city: The city name, e.g. Oslo.
    """
    return _reading(city)


@server.tool()
def list_cities() -> list[str]:
    """The cities the station reports on."""
    return sorted(READINGS)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--http"]:
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run()
