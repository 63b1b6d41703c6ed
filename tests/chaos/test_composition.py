"""Hazard composition on your own tools (issue #30 item 4).

Each hazard counts only the calls that reach it, so a drift rejection never spends a
transient error's planned call; the drift profile renames only a required parameter; a
hazard that cannot change the field it names is refused before any call, and one that
changed nothing stores no event; a plan sets a hazard's tier.
"""

from __future__ import annotations

from typing import Any

import pytest
from own_weather import TOOLS, TRUE_TEMP
from pydantic import BaseModel

from toolchaos.chaos import ChaosToolbox, load_plan, resolve_plan, spec_from_function
from toolchaos.core.errors import BadInput

SPECS = [spec_from_function(f) for f in TOOLS]


def hazard(family: str, variant: str, tool: str = "get_weather", **params: Any) -> dict[str, Any]:
    return {"family": family, "variant": variant, "tool": tool, "params": params}


def codes(episode: Any, calls: list[dict[str, Any]]) -> list[Any]:
    out = []
    for arguments in calls:
        observation = episode.call("get_weather", arguments)
        out.append(None if observation.ok else observation.content["error"]["code"])
    return out


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("order", ["drift_first", "transient_first"])
def test_planned_k_transients_fire_exactly_k_times_under_drift(k: int, order: str) -> None:
    drift = hazard("specification_drift", "renamed_parameter", param="city")
    transient = {
        **hazard("execution_failure", "transient", error="503", k=k),
        "ordinals": list(range(1, k + 1)),
    }
    hazards = [drift, transient] if order == "drift_first" else [transient, drift]
    episode = ChaosToolbox(TOOLS, {"hazards": hazards}).episode()
    # the agent first uses the documented (stale) name twice, then the new one
    seen = codes(episode, [{"city": "Oslo"}, {"city": "Oslo"}] + [{"city_v2": "Oslo"}] * (k + 1))
    assert seen[:2] == [400, 400]  # the drift's rejections
    assert seen[2:] == [503] * k + [None]  # every planned transient, then the tool
    fired = [e.variant for e in episode.hazard_events]
    assert fired.count("transient") == k
    assert [e.ordinal for e in episode.hazard_events if e.variant == "transient"] == list(
        range(1, k + 1)
    )


def test_a_schema_error_reaches_no_hazard() -> None:
    transient = {**hazard("execution_failure", "transient", error="503"), "ordinals": [1]}
    episode = ChaosToolbox(TOOLS, {"hazards": [transient]}).episode()
    assert codes(episode, [{"city": 3}, {"city": "Oslo"}, {"city": "Oslo"}]) == [400, 503, None]


def test_the_everything_profile_fires_every_planned_transient() -> None:
    for seed in range(6):
        episode = ChaosToolbox(TOOLS, "everything", seed=seed).episode()
        specs = episode.episode.engine.specs
        planned = {s.tool: s.params["k"] for s in specs if s.variant == "transient"}
        renamed = {s.tool: s.params["to"] for s in specs if s.variant == "renamed_parameter"}
        for tool, k in planned.items():
            for _ in range(k + 2):  # the stale name, then the new one, until it answers
                episode.call(tool, {"city": "Oslo"})
                episode.call(tool, {renamed[tool]: "Oslo"})
        fired = [(e.tool, e.variant) for e in episode.hazard_events]
        for tool, k in planned.items():
            assert fired.count((tool, "transient")) == k, (seed, tool)


def test_the_drift_profile_renames_only_a_required_parameter() -> None:
    for seed in range(20):
        specs = resolve_plan(load_plan("drift"), SPECS, seed=seed)
        renames = {s.tool: s.params["param"] for s in specs if s.variant == "renamed_parameter"}
        assert renames["get_weather"] == "city", seed  # never the optional `units`


def test_a_tool_with_only_optional_parameters_gets_an_output_drift() -> None:
    def git_log(max_count: int = 10, start_timestamp: str = "") -> dict[str, Any]:
        """The commit log.

        Args:
            max_count: How many commits.
            start_timestamp: Only commits after this time.
        """
        return {"commits": []}

    specs = resolve_plan(load_plan("drift"), [spec_from_function(git_log)])
    assert [(s.family.value, s.variant) for s in specs] == [("output_drift", "nested_shape")]
    # asked for by name, an optional parameter is renamed
    plan = {
        "hazards": [
            hazard("specification_drift", "renamed_parameter", "git_log", param="start_timestamp")
        ]
    }
    assert resolve_plan(load_plan(plan), [spec_from_function(git_log)])[0].params["param"] == (
        "start_timestamp"
    )


class Reading(BaseModel):
    city: str
    temp_c: float


def typed_weather(city: str) -> Reading:
    """Typed weather.

    Args:
        city: The city name.
    """
    return Reading(city=city, temp_c=TRUE_TEMP)


@pytest.mark.parametrize(
    ("variant", "params"),
    [
        ("number_as_string", {"field": "city"}),
        ("unit_change", {"field": "city", "factor": 100, "unit": "cents"}),
    ],
)
def test_a_hazard_on_a_field_of_the_wrong_type_is_refused(
    variant: str, params: dict[str, Any]
) -> None:
    plan = {"hazards": [hazard("output_drift", variant, "typed_weather", **params)]}
    with pytest.raises(BadInput) as caught:
        ChaosToolbox([typed_weather], plan)
    message = str(caught.value)
    assert message == (
        f"hazard output_drift/{variant} on 'typed_weather' cannot change field 'city': the "
        "tool's output schema gives it as string, and it changes only a number or integer"
    )
    # the numeric field is accepted; an MCP tool's outputSchema is read the same way
    ok = {
        "hazards": [
            hazard("output_drift", variant, "typed_weather", **{**params, "field": "temp_c"})
        ]
    }
    assert ChaosToolbox([typed_weather], ok).engine.specs
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    with pytest.raises(BadInput, match="cannot change field 'city'"):
        resolve_plan(
            load_plan(plan), [spec_from_function(typed_weather)], outputs={"typed_weather": schema}
        )


def test_a_drift_that_changed_nothing_stores_no_event(tmp_path: Any) -> None:
    # get_weather's result is untyped: the plan cannot know `city` is text until it runs
    plan = {
        "hazards": [
            hazard("output_drift", "unit_change", field="city", factor=100, unit="cents"),
            hazard("output_drift", "number_as_string", field="city"),
        ]
    }
    box = ChaosToolbox(TOOLS, plan, store=tmp_path / "run")
    episode = box.episode()
    for _ in range(4):
        assert episode.call("get_weather", {"city": "Oslo"}).content["city"] == "Oslo"
    stored = episode.finish("21.5")
    assert episode.hazard_events == [] and stored.hazard_events == []
    assert all(entry.observation.hazard_events == [] for entry in stored.trace)


def test_a_plan_sets_the_outage_tier() -> None:
    def call_once(plan: dict[str, Any]) -> str:
        episode = ChaosToolbox(TOOLS, plan).episode()
        return str(episode.call("get_weather", {"city": "Oslo"}).content["error"]["message"])

    profile = {"profile": "outage", "fallbacks": {"get_weather": "weather_backup"}}
    named = call_once(profile)  # a fallback exists: the error names it
    assert named.endswith("Use 'weather_backup' until it is back.")
    unnamed = call_once({**profile, "tier": "implicit"})
    assert unnamed.endswith("No estimate for recovery is available.")
    entry = hazard("execution_failure", "outage", fallback="weather_backup")
    assert call_once({"hazards": [{**entry, "tier": "explicit"}]}).endswith("until it is back.")
    assert call_once({"hazards": [entry]}).endswith("No estimate for recovery is available.")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            {**hazard("execution_failure", "outage"), "tier": "explicit"},
            "hazard execution_failure/outage on 'get_weather' at tier explicit names its "
            "fallback in the error: it needs params.fallback",
        ),
        (
            {**hazard("execution_failure", "transient", error="503"), "tier": "silent"},
            "hazard execution_failure/transient on 'get_weather' has no tier 'silent' "
            "(it plays: explicit, implicit)",
        ),
    ],
)
def test_a_tier_the_hazard_cannot_play_is_one_sentence(entry: dict[str, Any], message: str) -> None:
    with pytest.raises(BadInput) as caught:
        ChaosToolbox(TOOLS, {"hazards": [entry]})
    assert str(caught.value) == message
    with pytest.raises(BadInput, match=r"field hazards\.0\.tier"):
        load_plan({"hazards": [{**entry, "tier": "loud"}]})
