"""The engine and the plain-Python adapter: each family's effect, determinism, the store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from own_weather import TOOLS, TRUE_TEMP, assert_upstream_fault, station_offline

from toolchaos.chaos import ChaosToolbox
from toolchaos.core.errors import ToolError
from toolchaos.report.tables import build_report


def hazard(family: str, variant: str, tool: str = "get_weather", **params: Any) -> dict[str, Any]:
    return {"family": family, "variant": variant, "tool": tool, "params": params}


def test_clean_arm_runs_the_tools_untouched() -> None:
    episode = ChaosToolbox(TOOLS, "everything").episode("clean")
    observation = episode.call("get_weather", {"city": "Oslo"})
    assert observation.ok and observation.content["temp_c"] == TRUE_TEMP
    assert episode.hazard_events == []


def test_spec_drift_rejects_the_documented_name_and_maps_the_new_one_back() -> None:
    plan = {"hazards": [hazard("specification_drift", "renamed_parameter", param="city")]}
    episode = ChaosToolbox(TOOLS, plan).episode()
    assert "city" in episode.toolbox()[0].parameters["properties"]  # stale docs
    rejected = episode.call("get_weather", {"city": "Oslo"})
    assert not rejected.ok and "renamed to 'city_v2'" in rejected.content["error"]["message"]
    fixed = episode.call("get_weather", {"city_v2": "Oslo"})
    assert fixed.ok and fixed.content["city"] == "Oslo"


def test_announced_drift_rewrites_the_schema_the_agent_sees() -> None:
    plan = {
        "hazards": [hazard("specification_drift", "renamed_parameter", param="city", announce=True)]
    }
    episode = ChaosToolbox(TOOLS, plan).episode()
    props = episode.toolbox()[0].parameters["properties"]
    assert "city_v2" in props and "city" not in props
    assert episode.call("get_weather", {"city_v2": "Oslo"}).ok


def test_invocation_error_validates_strictly() -> None:
    plan = {"hazards": [hazard("invocation_error", "missing_argument", param="units")]}
    episode = ChaosToolbox(TOOLS, plan).episode()
    assert episode.call("get_weather", {"city": "Oslo"}).content["error"]["message"] == (
        "Missing required parameter: 'units'."
    )
    assert episode.call("get_weather", {"city": "Oslo", "units": "metric"}).ok
    # the schema is enforced in every arm, like a real API
    clean = ChaosToolbox(TOOLS, plan).episode("clean")
    assert "Invalid type" in clean.call("get_weather", {"city": 3}).content["error"]["message"]


def test_execution_failure_then_success() -> None:
    plan = {
        "hazards": [{**hazard("execution_failure", "transient", error="503"), "ordinals": [1, 2]}]
    }
    episode = ChaosToolbox(TOOLS, plan).episode()
    codes = [
        episode.call("get_weather", {"city": "Oslo"}).content.get("error", {}).get("code")
        for _ in range(3)
    ]
    assert codes == [503, 503, None]
    stand_in = ChaosToolbox(TOOLS, plan).episode().function("get_weather")
    with pytest.raises(ToolError, match="Service Unavailable"):
        stand_in(city="Oslo")


def test_output_drift_rewrites_the_result() -> None:
    plan = {
        "hazards": [hazard("output_drift", "unit_change", field="temp_c", factor=1.8, unit="F-ish")]
    }
    observation = ChaosToolbox(TOOLS, plan).episode().call("get_weather", {"city": "Oslo"})
    assert observation.content["temp_c"] == round(TRUE_TEMP * 1.8, 4)
    assert observation.content["units"] == {"temp_c": "F-ish"}


def test_cross_source_conflict_perturbs_one_source() -> None:
    plan = {
        "profile": "conflict",
        "sources": [
            {"tools": ["get_weather", "weather_backup", "weather_third"], "field": "temp_c"}
        ],
    }
    episode = ChaosToolbox(TOOLS, plan).episode()
    temps = [episode.call(t.__name__, {"city": "Oslo"}).content["temp_c"] for t in TOOLS]
    assert sorted(temps).count(TRUE_TEMP) == 2  # one outlier, the majority is right
    majority = max(set(temps), key=temps.count)
    assert majority == TRUE_TEMP


def test_same_plan_same_perturbations_call_for_call() -> None:
    def play() -> list[Any]:
        episode = ChaosToolbox(TOOLS, "everything", seed=5).episode()
        out = []
        for name in ["get_weather", "get_weather", "weather_backup", "get_weather"]:
            observation = episode.call(name, {"city": "Oslo"})
            out.append((observation.content, [e.model_dump() for e in observation.hazard_events]))
        return out

    assert play() == play()


def test_upstream_never_sees_arguments_the_agent_did_not_send() -> None:
    seen: list[dict[str, Any]] = []

    def get_weather(city: str, units: str = "metric") -> dict[str, Any]:
        """Weather.

        Args:
            city: City.
            units: Units.
        """
        seen.append({"city": city, "units": units})
        return {"temp_c": 1.0}

    episode = ChaosToolbox([get_weather], "everything", seed=2).episode()
    for args in ({"city": "Oslo"}, {"city_v2": "Oslo"}, {"units": "imperial", "city": "Rome"}):
        for _ in range(3):
            episode.call("get_weather", args)
    assert all(s["city"] in ("Oslo", "Rome") for s in seen)


def naive_agent(episode: Any) -> str:
    observation = episode.call("get_weather", {"city": "Oslo"})
    return str(observation.content.get("temp_c", "unknown"))


def recovering_agent(episode: Any) -> str:
    for _ in range(4):
        observation = episode.call("get_weather", {"city": "Oslo"})
        if observation.ok:
            return str(observation.content["temp_c"])
        if (
            observation.content["error"]["code"] == 503
            and "maintenance" in observation.content["error"]["message"]
        ):
            return str(episode.call("weather_backup", {"city": "Oslo"}).content["temp_c"])
    return "unknown"


def test_store_and_report_show_events_and_recovery(tmp_path: Path) -> None:
    plan = {"profile": "outage", "fallbacks": {"get_weather": "weather_backup"}}
    box = ChaosToolbox(
        TOOLS, plan, store=tmp_path / "run", target="weather-agent", model="recoverer"
    )
    naive = ChaosToolbox(
        TOOLS, plan, store=box.engine.recorder, target="weather-agent", model="naive"
    )
    for agent, source in ((recovering_agent, box), (naive_agent, naive)):
        for arm in ("clean", "hazard"):
            episode = source.episode(arm)
            answer = agent(episode)
            episode.finish(answer, passed=answer == str(TRUE_TEMP))
    assert box.engine.recorder is not None
    box.engine.recorder.close()
    report = build_report([tmp_path / "run"])
    passes = report.tables["own_tools_pass"].set_index(["model", "arm"])["pass_rate"]
    assert passes[("recoverer", "hazard")] == 1.0 and passes[("naive", "hazard")] == 0.0
    assert passes[("naive", "clean")] == 1.0
    events = report.tables["own_tools_events"]
    assert set(events["variant"]) == {"outage"}
    moves = dict(zip(events["model"], events["next_move"], strict=False))
    assert moves == {"recoverer": "switch", "naive": "terminate"}
    assert "maintenance" in events["agent_saw"].iloc[0]
    actions = report.tables["own_tools_actions"].set_index("model")
    assert actions.loc["recoverer", "recovered"] == 1.0


def test_a_tool_that_raises_is_an_upstream_fault_and_still_propagates() -> None:
    episode = ChaosToolbox([station_offline], "transient").episode("clean")
    with pytest.raises(RuntimeError, match="station offline"):
        episode.call("get_weather", {"city": "Oslo"})
    assert_upstream_fault(episode.episode.trace, episode.episode.finish)
