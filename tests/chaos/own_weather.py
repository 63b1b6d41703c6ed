"""Own tools for the chaos tests: a small weather service with three sources of one fact."""

from __future__ import annotations

from typing import Any

TRUE_TEMP = 21.5


def get_weather(city: str, units: str = "metric") -> dict[str, Any]:
    """Current weather in a city.

    Args:
        city: The city name.
        units: metric or imperial.
    """
    return {"city": city, "temp_c": TRUE_TEMP, "as_of": "2026-03-05T12:00:00Z"}


def weather_backup(city: str) -> dict[str, Any]:
    """The backup weather provider.

    Args:
        city: The city name.
    """
    return {"city": city, "temp_c": TRUE_TEMP, "as_of": "2026-03-05T12:00:00Z"}


def weather_third(city: str) -> dict[str, Any]:
    """A third weather provider.

    Args:
        city: The city name.
    """
    return {"city": city, "temp_c": TRUE_TEMP, "as_of": "2026-03-05T12:00:00Z"}


TOOLS = [get_weather, weather_backup, weather_third]
