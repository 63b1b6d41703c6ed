"""The hazard plan: validation, profiles, determinism and the JSON Schema in the docs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from own_weather import TOOLS

from toolchaos.chaos import ChaosToolbox, load_plan, resolve_plan, spec_from_function
from toolchaos.chaos.schema import schema_text
from toolchaos.core.errors import BadInput

DOCS = Path(__file__).parents[2] / "docs" / "hazard-plan.schema.json"
SPECS = [spec_from_function(f) for f in TOOLS]
ON = "tool: get_weather"


def test_schema_in_docs_is_in_sync() -> None:
    assert DOCS.read_text(encoding="utf-8") == schema_text(), (
        "run: python -m toolchaos.chaos.schema"
    )


@pytest.mark.parametrize("profile", ["transient", "drift", "outage", "everything"])
def test_profiles_resolve_deterministically(profile: str) -> None:
    plan = load_plan(profile)
    first = resolve_plan(plan, SPECS)
    assert first, profile
    assert [s.model_dump() for s in first] == [s.model_dump() for s in resolve_plan(plan, SPECS)]


def test_conflict_profile_needs_sources_and_uses_them() -> None:
    with pytest.raises(BadInput, match="sources"):
        resolve_plan(load_plan("conflict"), SPECS)
    plan = load_plan(
        {
            "profile": "conflict",
            "sources": [
                {"tools": ["get_weather", "weather_backup", "weather_third"], "field": "temp_c"}
            ],
        }
    )
    (spec,) = resolve_plan(plan, SPECS)
    assert spec.variant == "corrupted_outlier" and spec.params["field"] == "temp_c"


def test_yaml_and_json_files(tmp_path: Path) -> None:
    yml = tmp_path / "mine.yaml"
    yml.write_text(
        "seed: 3\nhazards:\n  - family: execution_failure\n    variant: transient\n"
        "    tool: get_weather\n    ordinals: [1, 2]\n",
        encoding="utf-8",
    )
    plan = load_plan(yml)
    assert plan.name == "mine" and plan.seed == 3
    (spec,) = resolve_plan(plan, SPECS)
    assert spec.ordinals == [1, 2] and spec.params["error"] == "503"
    js = tmp_path / "mine.json"
    js.write_text(json.dumps(plan.model_dump(mode="json")), encoding="utf-8")
    assert load_plan(js) == plan


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("hazards: [1", "line 1: not valid YAML"),
        ("seed: 1\nhazards:\n  - tool: [get_time\n", "line 4: not valid YAML"),
        ("- a\n- b\n", "mapping at the top level"),
        ("profile: chaos\n", "field profile"),
        (
            "hazards:\n  - {family: output_drift, variant: teleport, tool: get_weather}\n",
            "field hazards.0.variant: output_drift has no variant 'teleport'",
        ),
        (
            "hazards:\n  - {family: execution_failure, variant: transiant, tool: get_weather}\n",
            "no variant 'transiant'; did you mean 'transient'?",
        ),
        (
            "hazards:\n  - {family: output_drift, variant: nested_shape, tool: get_time}\n",
            "not offered",
        ),
        (f"hazards:\n  - {{family: output_drift, variant: renamed_field, {ON}}}", "params.field"),
        (
            "hazards:\n  - {family: specification_drift, variant: renamed_parameter,"
            f" {ON}, params: {{param: town}}}}\n",
            "does not have",
        ),
        (
            f"hazards:\n  - {{family: execution_failure, variant: transient, {ON}, ordinals: [0]}}",
            "at 1",
        ),
        (
            "hazards:\n  - {family: specification_drift, variant: renamed_parameter,"
            f" {ON}, params: {{param: city, too: cityName}}}}\n",
            "takes no parameter params.too",
        ),
        ("fallbacks: {get_weather: nowhere}\n", "not offered"),
        ("surprise: 1\n", "field surprise"),
    ],
)
def test_bad_plans_give_one_sentence(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(BadInput, match=message) as info:
        ChaosToolbox(TOOLS, path)
    text = str(info.value)
    assert "\n" not in text and text.count(". ") == 0


def test_missing_file_or_profile() -> None:
    with pytest.raises(BadInput, match="neither a plan file nor a profile"):
        load_plan("no-such-plan.yaml")
