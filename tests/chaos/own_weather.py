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


def station_offline(city: str) -> dict[str, Any]:
    """Current weather in a city (a tool that fails: it raises, not a ToolError).

    Args:
        city: The city name.
    """
    raise RuntimeError(f"station offline in {city}")


station_offline.__name__ = "get_weather"  # the name the scripted agents call


def assert_upstream_fault(trace: list[Any], finish: Any) -> None:
    """The one call of ``trace`` is the tool's own failure, and the episode indeterminate.

    ``finish`` closes the episode and returns it.
    """
    from toolchaos.core.types import EpisodeStatus, FaultOrigin

    (entry,) = trace
    assert entry.fault is FaultOrigin.UPSTREAM and not entry.observation.ok
    assert entry.observation.content["error"]["type"] == "tool_raised"
    assert "station offline in Oslo" in entry.observation.content["error"]["message"]
    episode = finish()
    assert episode.status is EpisodeStatus.INDETERMINATE
    assert episode.error and episode.error.startswith("upstream: ")
