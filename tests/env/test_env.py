import json

import pytest

from conftest import make_task, outage
from toolchaos.core.errors import BadInput, HarnessFault
from toolchaos.core.tools import Param, Tool, string, tool_spec
from toolchaos.core.types import ToolCall
from toolchaos.env.hazard_layer import HazardLayer
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


def test_a_runtime_tool_is_answered_from_the_episodes_hazard_layer() -> None:
    """The env is generic: a suite passes the tools its runtime answers (tests/test_layers.py)."""
    spec = tool_spec(
        "what_fired", "Which hazards are active.", [Param.described("tool", string("A tool."))]
    )

    def what_fired(layer: HazardLayer) -> Tool:
        return Tool(spec=spec, fn=lambda world, tool: {"hazards": len(layer.hazards)})

    task = make_task(hazard=outage())
    task = task.model_copy(update={"tools": [*task.tools, "what_fired"]})
    hazarded = Env(task, "hazard", runtime_tools={"what_fired": what_fired})
    clean = Env(task, "clean", runtime_tools={"what_fired": what_fired})
    assert call(hazarded, "what_fired", {"tool": "x"})["content"] == {"hazards": 1}
    assert call(clean, "what_fired", {"tool": "x"})["content"] == {"hazards": 0}
    assert "what_fired" in [s.name for s in hazarded.toolbox()]


def test_a_tool_neither_the_domain_nor_the_env_has_is_one_sentence() -> None:
    task = make_task()
    task = task.model_copy(update={"tools": [*task.tools, "read_changelog"]})
    with pytest.raises(BadInput, match="offers tool 'read_changelog', which domain fixture"):
        Env(task, "clean")
