import json

import pytest

from conftest import make_task, outage
from toolchaos.core.errors import HarnessFault
from toolchaos.core.types import ToolCall
from toolchaos.env.runtime import Env


def call(env: Env, name: str, args: object, raw: str | None = None) -> dict:
    obs = env.call(
        ToolCall(id="c1", name=name, arguments=raw if raw is not None else json.dumps(args))
    )
    return {"ok": obs.ok, "content": obs.content}


def message(result: dict) -> str:
    assert result["ok"] is False
    return result["content"]["error"]["message"]


@pytest.fixture
def env() -> Env:
    return Env(make_task(), "clean")


def test_valid_call_returns_the_result(env: Env) -> None:
    result = call(env, "get_weather", {"city": "Oslo"})
    assert result["ok"] and result["content"]["city"] == "Oslo"
    assert env.trace[0].ordinal == 1


def test_unknown_tool_is_answered_like_an_api(env: Env) -> None:
    text = message(call(env, "get_wether", {"city": "Oslo"}))
    assert text == (
        "Unknown tool 'get_wether'. Available tools: get_alert, get_weather, "
        "get_weather_backup, list_cities, set_alert."
    )


def test_missing_extra_and_ill_typed_arguments(env: Env) -> None:
    assert message(call(env, "get_weather", {})) == "Missing required parameter: 'city'."
    assert (
        message(call(env, "get_weather", {"city": "Oslo", "unit": "F"}))
        == "Unrecognized request argument supplied: 'unit'."
    )
    assert (
        message(call(env, "get_weather", {"city": 12}))
        == "Invalid type for parameter 'city': expected string, but got integer."
    )
    assert message(call(env, "list_cities", {"order": "size"})) == (
        "Invalid value for parameter 'order': 'size'. Supported values are: 'name', 'temp'."
    )
    assert message(call(env, "get_weather", None, raw='{"city": "Oslo"')).startswith(
        "Invalid JSON in arguments for 'get_weather':"
    )
    assert message(call(env, "get_weather", None, raw="[1]")) == (
        "Arguments for 'get_weather' must be a JSON object."
    )
    # rejected calls never reach the service, so they take no ordinal
    assert env.ordinals["get_weather"] == 0


def test_tool_errors_are_observations(env: Env) -> None:
    result = call(env, "get_weather", {"city": "Atlantis"})
    assert result["content"]["error"] == {
        "code": 404,
        "type": "not_found",
        "message": "city 'Atlantis' not found",
    }


def test_write_changes_only_the_episode_world(env: Env) -> None:
    before = env.end_state()
    assert call(env, "set_alert", {"city": "Oslo", "threshold_c": 20})["ok"]
    assert env.end_state() != before
    assert Env(make_task(), "clean").end_state() == before


def test_clean_arm_has_no_hazard_and_hazard_arm_has() -> None:
    task = make_task(hazard=outage())
    assert Env(task, "clean").hazard is None
    for arm in ("hazard", "hint", "oracle-label"):
        assert Env(task, arm).hazard is not None


def test_other_exceptions_are_harness_faults(env: Env) -> None:
    env.world.cities = None  # type: ignore[assignment]  # break the world on purpose
    with pytest.raises(HarnessFault, match="get_weather"):
        call(env, "get_weather", {"city": "Oslo"})
