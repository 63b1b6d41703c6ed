"""Output drift v2: what each variant does per tier, and that it passes the build's gates.

The runtime tests use the fixture domain; the gate tests propose each variant on real
tasks of two domains and play every scripted policy under the hazard.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from conftest import FIXTURE, make_task, variant_tasks
from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import HazardFamily, HazardSpec, RecoveryStep, TaskSpec, Tier, ToolCall
from toolchaos.domains import DomainNotes, UnitConversion, get_domain
from toolchaos.env.runtime import Env
from toolchaos.hazards import VARIANTS, Proposal, build_hazard
from toolchaos.hazards.output_drift import (
    DETAIL_FLAG,
    SemanticDrift,
    UnitChange,
    WithheldField,
)
from toolchaos.suites.toolbench_x import CHANGELOG_TOOL, make_env
from toolchaos.suites.toolbench_x.generate import draft_to_task, raw_candidates
from toolchaos.suites.toolbench_x.pipeline import gate_problem
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync, replay_reference

DRIFT = HazardFamily.OUTPUT_DRIFT


def spec(variant: str, tier: Tier | None = None, **params: Any) -> HazardSpec:
    return HazardSpec(family=DRIFT, variant=variant, tool="get_weather", params=params, tier=tier)


def call(env: Env, name: str, **arguments: Any) -> Any:
    return env.call(ToolCall(id="c", name=name, arguments=dumps(arguments))).content


def hazard_env(hazard: HazardSpec, tools: list[str] | None = None) -> Env:
    task = make_task(hazard=hazard)
    if tools is not None:
        task = task.model_copy(update={"tools": tools})
    return make_env(task, "hazard")


def clean_weather(city: str = "Oslo") -> dict[str, Any]:
    result = call(Env(make_task(), "clean"), "get_weather", city=city)
    assert isinstance(result, dict)
    return result


# -- unit change ---------------------------------------------------------------------------
def test_a_labelled_unit_change_names_its_unit_and_keeps_the_digits_to_convert_back() -> None:
    clean = clean_weather()
    env = hazard_env(spec("unit_change", "explicit", field="humidity_pct", factor=1 / 60, unit="h"))
    seen = call(env, "get_weather", city="Oslo")
    assert seen["units"] == {"humidity_pct": "h"}
    assert seen["humidity_pct"] != clean["humidity_pct"]
    # 8 significant digits: converting back lands on the documented value after rounding
    assert round(seen["humidity_pct"] * 60, 4) == clean["humidity_pct"]


def test_a_silent_unit_change_leaves_no_label_and_no_changelog() -> None:
    clean = clean_weather()
    hazard = spec("unit_change", "silent", field="humidity_pct", factor=100.0, unit="basis points")
    env = hazard_env(hazard, tools=["get_weather", CHANGELOG_TOOL])
    seen = call(env, "get_weather", city="Oslo")
    assert "units" not in seen and "notice" not in seen
    assert seen["humidity_pct"] == clean["humidity_pct"] * 100
    assert call(env, CHANGELOG_TOOL, tool="get_weather")["entries"] == []
    assert env.layer.events[0].detail == "field 'humidity_pct' reported in basis points"


def test_a_v1_unit_change_plays_labelled() -> None:
    assert UnitChange.tiers[0] == "explicit"
    assert build_hazard(spec("unit_change", None, field="temp_c", factor=2, unit="x")).explicit


def fixture_proposals(cls: type, task_id: str) -> list[Proposal]:
    task = next(t for t in variant_tasks() if t.id == task_id)
    results = replay_reference(task).results
    return list(cls.propose(task, FIXTURE, random.Random(0), results))


def test_the_silent_tier_is_offered_only_where_magnitude_tells_the_units_apart() -> None:
    # fixture humidity (20-90 %) as a fraction of 1: the factor shrinks, never silent
    humid = fixture_proposals(UnitChange, "fx-humidity")
    assert {(p.spec.params["field"], p.spec.tier) for p in humid} == {("humidity_pct", "explicit")}
    # temperatures scaled by 1.8: clean and drifted ranges overlap, so no bound exists
    assert not [p for p in fixture_proposals(SemanticDrift, "fx-sum")]


def test_a_market_rate_conversion_is_never_proposed() -> None:
    task = next(t for t in variant_tasks() if t.id == "fx-humidity")
    results = replay_reference(task).results
    rate = UnitConversion(to_unit="EUR", factor=0.92, fixed=False)
    notes = DomainNotes(unit_conversions={"humidity_pct": rate})
    domain = type(FIXTURE)(
        name="fixture-rate",
        topic="weather",
        world_type=FIXTURE.world_type,
        tools=FIXTURE.tools,
        notes=notes,
    )
    for cls in (UnitChange, SemanticDrift):
        assert cls.propose(task, domain, random.Random(0), results) == []


# -- semantic drift ------------------------------------------------------------------------
def semantic(announce: str) -> HazardSpec:
    return spec(
        "semantic_drift",
        "implicit",
        field="humidity_pct",
        factor=0.01,
        unit="fraction of 1",
        since="2026-02-11",
        announce=announce,
    )


def test_semantic_drift_keeps_the_name_and_the_changelog_says_what_changed() -> None:
    clean = clean_weather()
    env = hazard_env(semantic("changelog"), tools=["get_weather", CHANGELOG_TOOL])
    seen = call(env, "get_weather", city="Oslo")
    assert seen["humidity_pct"] == pytest.approx(clean["humidity_pct"] / 100)
    assert "units" not in seen and "notice" not in seen
    entries = call(env, CHANGELOG_TOOL, tool="get_weather")["entries"]
    assert entries == [
        "2026-02-11: 'humidity_pct' in get_weather results is now reported in fraction of 1 "
        "(a value of 1 in the documented unit now reads 0.01); the field name is unchanged."
    ]
    assert call(env, CHANGELOG_TOOL, tool="list_cities")["entries"] == []
    task = make_task(hazard=semantic("changelog"))
    clean_env = make_env(
        task.model_copy(update={"tools": ["get_weather", CHANGELOG_TOOL]}), "clean"
    )
    assert call(clean_env, CHANGELOG_TOOL, tool="get_weather")["entries"] == []


def test_semantic_drift_with_a_notice_says_it_in_the_result() -> None:
    seen = call(hazard_env(semantic("notice")), "get_weather", city="Oslo")
    assert seen["notice"] == "'humidity_pct' is now reported in fraction of 1."
    assert "units" not in seen


def test_semantic_drift_proposals_carry_a_dated_entry_and_a_bound_the_oracle_reads() -> None:
    proposals = fixture_proposals(SemanticDrift, "fx-humidity")
    assert {p.spec.params["announce"] for p in proposals} == {"changelog", "notice"}
    for proposal in proposals:
        assert proposal.spec.tier == "implicit"
        since = proposal.spec.params["since"]
        assert "2026-01-21" <= since <= "2026-02-27"  # 3 to 40 days before the world's start
        (step,) = proposal.spec.recovery
        assert step.action == "convert"
        # the humidity of one city (20-90) against the same as a fraction: apart by far
        assert 0.9 < step.params["beyond"] < 20
    again = fixture_proposals(SemanticDrift, "fx-humidity")
    assert [p.spec for p in again] == [p.spec for p in proposals]  # seeded, not the clock


# -- withheld field ------------------------------------------------------------------------
def withheld(tier: Tier) -> HazardSpec:
    return spec("withheld_field", tier, field="temp_c", flag=DETAIL_FLAG, since="2026-02-09")


def test_a_withheld_field_is_missing_from_every_summary_and_comes_with_the_option() -> None:
    clean = clean_weather()
    env = hazard_env(withheld("implicit"), tools=["get_weather", CHANGELOG_TOOL])
    for _ in range(2):  # a blind second call does not bring it back
        summary = call(env, "get_weather", city="Oslo")
        assert "temp_c" not in summary and "note" not in summary
    full = call(env, "get_weather", city="Oslo", detail=True)
    assert full == clean | {"as_of": full["as_of"]}
    assert call(env, CHANGELOG_TOOL, tool="get_weather")["entries"] == [
        "2026-02-09: get_weather answers with a summary by default; pass detail=true for the "
        "full record (the summary may leave out 'temp_c')."
    ]
    assert [e.detail for e in env.layer.events] == ["field 'temp_c' withheld from the summary"] * 2


def test_the_option_is_documented_optional_and_only_on_the_hazards_tool() -> None:
    env = hazard_env(withheld("implicit"))
    docs = {s.name: s.parameters for s in env.toolbox()}
    option = docs["get_weather"]["properties"][DETAIL_FLAG]
    assert option["type"] == "boolean"
    assert DETAIL_FLAG not in docs["get_weather"].get("required", [])
    assert DETAIL_FLAG not in docs["list_cities"]["properties"]


def test_an_explicit_withheld_field_says_how_to_get_it() -> None:
    summary = call(hazard_env(withheld("explicit")), "get_weather", city="Oslo")
    assert "temp_c" not in summary
    assert "try again with detail=true" in summary["note"]


def test_a_field_another_key_carries_is_not_withheld() -> None:
    task = next(t for t in variant_tasks() if t.id == "fx-humidity")
    results = replay_reference(task).results
    proposed = WithheldField.propose(task, FIXTURE, random.Random(0), results)
    assert "humidity_pct" in {p.spec.params["field"] for p in proposed}
    carried = {0: {**results[0], "relative_humidity": results[0]["humidity_pct"]}}
    proposed = WithheldField.propose(task, FIXTURE, random.Random(0), carried)
    assert "humidity_pct" not in {p.spec.params["field"] for p in proposed}


def test_a_withheld_field_is_never_proposed_on_a_write() -> None:
    task = next(t for t in variant_tasks() if t.id == "fx-alert")
    results = replay_reference(task).results
    assert WithheldField.propose(task, FIXTURE, random.Random(0), results) == []


# -- the build's gates on real tasks -------------------------------------------------------
V2 = sorted(v for (f, v), cls in VARIANTS.items() if f is DRIFT and not cls.legacy)
LEGACY = sorted(v for (f, v), cls in VARIANTS.items() if f is DRIFT and cls.legacy)


def test_only_the_consequential_variants_are_proposed() -> None:
    assert V2 == ["semantic_drift", "unit_change", "withheld_field"]
    assert LEGACY == [
        "locale_date",
        "missing_field",
        "nested_shape",
        "number_as_string",
        "renamed_field",
    ]


@cache
def domain_tasks(domain: str) -> tuple[TaskSpec, ...]:
    tasks = []
    for cand in raw_candidates(0, 1, [domain]):
        if cand.draft is None:
            continue
        try:
            task = draft_to_task(
                cand.draft, cand.subtopic, cand.workflow, cand.label, 0, cand.template
            )
        except (ValueError, KeyError):  # a candidate the screen would drop
            continue
        tasks.append(task)
    return tuple(tasks)


def gated(variant: str, domain: str) -> list[tuple[Proposal, TaskSpec]]:
    """Proposals of ``variant`` on the domain's tasks that pass every gate, hazarded."""
    cls = VARIANTS[(DRIFT, variant)]
    passed = []
    for task in domain_tasks(domain):
        results = replay_reference(task).results
        for proposal in cls.propose(task, get_domain(domain), random.Random(0), results):
            trial, gate, _ = gate_problem(task, proposal, random.Random(0))
            if not gate:
                passed.append((proposal, trial))
    return passed


@pytest.mark.parametrize(
    ("variant", "domain", "tiers"),
    [
        ("unit_change", "media", {"explicit", "silent"}),
        # a notice naming the field's new unit spells the conversion out: explicit
        ("semantic_drift", "media", {"implicit", "explicit"}),
        ("withheld_field", "government", {"implicit", "explicit"}),
    ],
)
def test_variant_passes_the_gates_on_real_tasks(variant: str, domain: str, tiers: set[str]) -> None:
    passed = gated(variant, domain)
    assert len({trial.reference.answer + trial.id for _, trial in passed}) >= 3
    assert {trial.hazard.tier for _, trial in passed if trial.hazard} == tiers
    for _, trial in passed[:6]:
        assert trial.hazard is not None
        assert episode_correct(play_sync(trial, "oracle", "hazard"), trial)
        for mode in ("naive", "lenient", "bypasser"):
            assert not episode_correct(play_sync(trial, mode, "hazard"), trial), (mode, trial.id)
        follower = episode_correct(play_sync(trial, "follower", "hazard"), trial)
        assert follower == (trial.hazard.tier == "explicit"), trial.id
        for mode in ("oracle", "lenient", "follower", "bypasser"):
            assert episode_correct(play_sync(trial, mode, "clean"), trial), (mode, trial.id)


def test_a_silent_unit_change_recipe_converts_only_past_its_bound() -> None:
    passed = [p for p, t in gated("unit_change", "media") if t.hazard and t.hazard.tier == "silent"]
    assert passed
    for proposal in passed:
        (step,) = proposal.spec.recovery
        assert step == RecoveryStep(action="convert", params=step.params)
        assert proposal.spec.params["factor"] >= 60
        assert step.params["beyond"] > 0
