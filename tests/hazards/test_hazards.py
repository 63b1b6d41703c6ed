import json

import pytest

from conftest import HAZARDS, make_task, transient
from toolchaos.core.errors import BadInput
from toolchaos.core.types import HazardFamily, HazardSpec, ToolCall
from toolchaos.env.runtime import Env
from toolchaos.hazards import build_hazard
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync


def weather(env: Env, city: str = "Oslo") -> dict:
    obs = env.call(ToolCall(id="c", name="get_weather", arguments=json.dumps({"city": city})))
    return obs.content


def test_transient_fires_on_the_planned_ordinals_only() -> None:
    env = Env(make_task(hazard=transient(k=2, error="rate_limit")), "hazard")
    first, second, third = weather(env), weather(env), weather(env)
    assert first["error"]["code"] == 429 and first["error"]["retry_after"] == 1
    assert second["error"]["code"] == 429
    assert third["city"] == "Oslo"
    assert [e.ordinal for e in env.hazard_events] == [1, 2]
    assert env.hazard_events[0].family is HazardFamily.EXECUTION_FAILURE


@pytest.mark.parametrize("error,code", [("503", 503), ("timeout", 504), ("rate_limit", 429)])
def test_transient_error_kinds(error: str, code: int) -> None:
    env = Env(make_task(hazard=transient(k=1, error=error)), "hazard")
    assert weather(env)["error"]["code"] == code


def test_outage_fails_every_call_and_the_fallback_works() -> None:
    env = Env(make_task(hazard=HAZARDS["outage"]()), "hazard")
    for _ in range(4):
        assert weather(env)["error"]["code"] == 503
    backup = env.call(ToolCall(id="b", name="get_weather_backup", arguments='{"city": "Oslo"}'))
    assert backup.ok and not backup.hazard_events
    assert len(env.hazard_events) == 4


def test_renamed_field_and_unit_change_alter_the_result() -> None:
    clean = weather(Env(make_task(), "clean"))
    renamed = weather(Env(make_task(hazard=HAZARDS["renamed_field"]()), "hazard"))
    assert "temp_c" not in renamed and renamed["tempC"] == clean["temp_c"]
    converted = weather(Env(make_task(hazard=HAZARDS["unit_change"]()), "hazard"))
    assert converted["temp_c"] == round(clean["temp_c"] * 1.8, 4)
    assert converted["units"] == {"temp_c": "F-offset"}


@pytest.mark.parametrize("variant", sorted(HAZARDS))
def test_recipe_recovers_and_naive_fails(variant: str) -> None:
    task = make_task(hazard=HAZARDS[variant]())
    oracle = play_sync(task, "oracle", "hazard")
    assert oracle.hazard_events, "the hazard must fire on the oracle's path"
    assert episode_correct(oracle, task), oracle.final_answer
    assert not episode_correct(play_sync(task, "naive", "hazard"), task)
    assert episode_correct(play_sync(task, "naive", "clean"), task)


@pytest.mark.parametrize("variant", sorted(HAZARDS))
def test_retry_baseline_recovers_exactly_transient_failures(variant: str) -> None:
    task = make_task(hazard=HAZARDS[variant]())
    assert episode_correct(play_sync(task, "retry", "hazard"), task) == (variant == "transient")


def test_same_plan_same_events() -> None:
    task = make_task(hazard=transient(k=2))
    runs = [play_sync(task, "oracle", "hazard").hazard_events for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]
    assert len(runs[0]) == 2


def test_unknown_variant_is_bad_input() -> None:
    spec = HazardSpec(family=HazardFamily.OUTPUT_DRIFT, variant="nope", tool="get_weather")
    with pytest.raises(BadInput, match="unknown hazard variant output_drift/nope"):
        build_hazard(spec)
