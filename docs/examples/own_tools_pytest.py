"""The agent of ``own_tools_agent.py`` under the toolchaos pytest plugin, offline.

Run it::

    pytest docs/examples/own_tools_pytest.py --toolchaos-store runs/pytest

Each marked test runs clean, then under its plan with seeds ``seed + i``; it fails when the
pass rate under hazard is credibly below ``min_pass_rate`` (a 95% Wilson interval).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from own_tools_agent import TEMP_C, get_weather, weather_agent, weather_backup


def run_agent(toolchaos: Any) -> str:
    """The agent on this run's toolbox (clean or under the plan)."""
    episode = toolchaos.toolbox([get_weather, weather_backup], model="scripted")

    async def call(tool: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
        observation = episode.call(tool, arguments)
        return observation.ok, observation.content

    return anyio.run(weather_agent, call)


@pytest.mark.toolchaos(plan="transient", runs=5, min_pass_rate=0.8)
def test_agent_survives_transient_errors(toolchaos: Any) -> None:
    """A 503, a gateway timeout or a rate limit on the first calls: the agent retries."""
    assert run_agent(toolchaos) == str(TEMP_C)


@pytest.mark.toolchaos(
    plan={"profile": "outage", "fallbacks": {"get_weather": "weather_backup"}},
    runs=5,
    min_pass_rate=0.8,
)
def test_agent_falls_back_when_the_service_is_down(toolchaos: Any) -> None:
    """The weather service is down for good: the agent switches to the backup."""
    assert run_agent(toolchaos) == str(TEMP_C)
