"""The measured tier: held to each clause of the definitions in docs/toolbench-x.md."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from toolchaos.core.types import HazardFamily, HazardSpec, RecoveryStep, TaskSpec
from toolchaos.suites.base import to_jsonl
from toolchaos.suites.toolbench_x.pipeline import build_toolbench_x
from toolchaos.suites.toolbench_x.suite import SUITE
from toolchaos.suites.toolbench_x.tiers import (
    TIER_OF_SOURCE,
    Clue,
    Observations,
    TierFigures,
    fix_clues,
    fix_places,
    fix_source,
    main,
    measure_tasks,
    measured_tier,
    observe,
    places_table,
    tier_table,
)

DOCS = Path(__file__).parents[3] / "docs" / "toolbench-x.md"


def spec(family: HazardFamily, variant: str, *steps: RecoveryStep, **params: object) -> HazardSpec:
    return HazardSpec(
        family=family, variant=variant, tool="get_customer", params=params, recovery=list(steps)
    )


RENAMED = spec(
    HazardFamily.SPECIFICATION_DRIFT,
    "renamed_parameter",
    RecoveryStep(action="consult"),
    RecoveryStep(action="adapt", params={"rename_args": {"customer": "customerId"}}),
)
RENAME_FIX = fix_clues(RENAMED)
UNIT = spec(
    HazardFamily.OUTPUT_DRIFT,
    "unit_change",
    RecoveryStep(action="convert", params={"field": "fine_usd", "divide_by": 100, "unit": "cents"}),
)
UNIT_FIX = fix_clues(UNIT)
BARE = '{"error":{"code":400,"message":"Unrecognized request argument supplied: \'customer\'."}}'


# --- explicit: the error or the result names the fix ---------------------------------


def test_an_error_that_names_the_fix_is_explicit() -> None:
    named = "Unrecognized argument 'customer': it was renamed to 'customerId'."
    obs = Observations(fix=RENAME_FIX, errors=(named,))
    assert (measured_tier(obs), fix_source(obs)) == ("explicit", "error")


def test_a_result_notice_that_names_the_fix_is_explicit() -> None:
    obs = Observations(fix=UNIT_FIX, notices=("units.fine_usd: cents",))
    assert (measured_tier(obs), fix_source(obs)) == ("explicit", "result")
    said = Observations(fix=UNIT_FIX, notices=("notice: 'fine_usd' is now reported in cents.",))
    assert measured_tier(said) == "explicit"


def test_an_error_that_only_says_what_is_wrong_is_not_explicit() -> None:
    obs = Observations(fix=RENAME_FIX, errors=(BARE,))
    assert measured_tier(obs) == "implicit"
    # the old name in the error is what is wrong, not the fix
    assert fix_source(obs) == "probing"


def test_the_fix_in_the_docs_or_changelog_is_not_explicit_even_beside_an_error() -> None:
    changelog = ("2026-01-26: get_customer: parameter 'customer' renamed to 'customerId'.",)
    obs = Observations(fix=RENAME_FIX, errors=(BARE,), changelog=changelog)
    assert (measured_tier(obs), fix_source(obs)) == ("implicit", "changelog")


def test_an_error_naming_the_fix_wins_over_the_changelog() -> None:
    named = "Unrecognized argument 'customer'; send 'customerId'."
    changelog = ("parameter 'customer' renamed to 'customerId'.",)
    obs = Observations(fix=RENAME_FIX, errors=(named,), changelog=changelog)
    assert fix_source(obs) == "error"


# --- implicit: it says what is wrong, not how; the fix is in docs, changelog or probing --


def test_a_fix_only_in_the_docs_is_implicit() -> None:
    docs = ('Look up a customer. {"properties":{"customerId":{"type":"string"}}}',)
    obs = Observations(fix=RENAME_FIX, errors=(BARE,), docs=docs)
    assert (measured_tier(obs), fix_source(obs)) == ("implicit", "docs")


def test_a_fix_only_in_the_changelog_is_implicit_even_without_an_error() -> None:
    # a unit change nothing in the result announces, but the changelog does: the agent
    # must go and read it, so it is not silent
    changelog = ("2026-02-13: 'fine_usd' in get_customer results is now reported in cents.",)
    obs = Observations(fix=UNIT_FIX, changelog=changelog)
    assert (measured_tier(obs), fix_source(obs)) == ("implicit", "changelog")


def test_an_error_with_the_fix_nowhere_is_found_by_probing() -> None:
    retry = fix_clues(
        spec(
            HazardFamily.EXECUTION_FAILURE,
            "transient",
            RecoveryStep(action="retry", params={"max_attempts": 3}),
        )
    )
    bare = Observations(fix=retry, errors=('{"error":{"code":503,"message":"Unavailable."}}',))
    assert (measured_tier(bare), fix_source(bare)) == ("implicit", "probing")
    told = Observations(fix=retry, errors=("Too Many Requests: retry after 2 s.",))
    assert measured_tier(told) == "explicit"


def test_a_fix_shown_only_in_the_answer_to_a_probe_is_found_by_probing() -> None:
    probed = '{"error":{"code":400,"message":"Missing required parameter: \'customerId\'."}}'
    obs = Observations(fix=RENAME_FIX, errors=(BARE,), probes=(probed,))
    assert (measured_tier(obs), fix_source(obs), fix_places(obs)) == (
        "implicit",
        "probing",
        ("probing",),
    )
    # a probe whose answer says nothing of the fix is still probing, never the data
    blind = Observations(fix=RENAME_FIX, probes=(BARE,))
    assert fix_places(blind) == ("probing",) and fix_source(blind) == "probing"


def test_every_place_that_names_the_fix_is_counted() -> None:
    entry = "2026-02-10: get_customer: parameter 'customer' renamed to 'customerId'."
    docs = ('Look a customer up.\n{"properties":{"customerId":{"type":"string"}}}',)
    obs = Observations(fix=RENAME_FIX, errors=(BARE,), docs=docs, changelog=(entry,))
    assert fix_places(obs) == ("docs", "changelog")
    assert fix_source(obs) == fix_places(obs)[0]
    told = BARE.replace("'.\"}}", "'; it is now 'customerId'.\"}}")
    both = Observations(fix=RENAME_FIX, errors=(told,), changelog=(entry,))
    assert fix_places(both) == ("error", "changelog")
    assert fix_places(Observations(fix=RENAME_FIX, errors=(BARE,))) == ("probing",)
    assert fix_places(Observations(fix=RENAME_FIX)) == ("data",)


def test_the_places_table_has_a_column_per_place_any_family_uses() -> None:
    found = {"specification_drift": {"changelog": 3, "probing": 5}, "output_drift": {"data": 2}}
    table = places_table(TierFigures(found=found)).splitlines()
    assert table[0] == (
        "| family | found in the changelog | found by probing | found only in the data |"
    )
    assert table[2:] == ["| output_drift | 0 | 0 | 2 |", "| specification_drift | 3 | 5 | 0 |"]


def test_a_notice_that_says_more_exists_without_saying_how_is_implicit() -> None:
    pages = fix_clues(
        spec(
            HazardFamily.EXECUTION_FAILURE,
            "paginated",
            RecoveryStep(action="next_page", params={"param": "cursor", "list": "results"}),
        )
    )
    # next_cursor names the token, not the parameter it goes back in
    obs = Observations(fix=pages, notices=("has_more: true", "next_cursor: c1fc59424c02"))
    assert (measured_tier(obs), fix_source(obs)) == ("implicit", "probing")
    log = ("pass a response's next_cursor back as 'cursor' for the next page.",)
    assert fix_source(Observations(fix=pages, notices=obs.notices, changelog=log)) == "changelog"


# --- silent: no error, only a cue; the change is announced nowhere --------------------


def test_nothing_said_and_nothing_written_is_silent() -> None:
    docs = ("The late fee of a loan: fine_usd (US dollars), fee_per_day_usd.",)
    obs = Observations(fix=UNIT_FIX, docs=docs)
    assert (measured_tier(obs), fix_source(obs)) == ("silent", "data")


def test_silent_ends_where_anything_is_said() -> None:
    assert measured_tier(Observations(fix=UNIT_FIX, errors=("Unprocessable.",))) == "implicit"
    assert measured_tier(Observations(fix=UNIT_FIX, notices=("notice: figures revised",))) == (
        "implicit"
    )
    assert measured_tier(Observations(fix=UNIT_FIX, docs=("fine_usd is now in cents.",))) == (
        "implicit"
    )


def test_a_hazard_without_clues_is_silent_or_probing_never_explicit() -> None:
    assert measured_tier(Observations(fix=())) == "silent"
    assert measured_tier(Observations(fix=(), errors=("anything at all",))) == "implicit"


# --- what names a fix -------------------------------------------------------------------


def test_a_clue_needs_every_one_of_its_parts() -> None:
    fill = fix_clues(
        spec(
            HazardFamily.INVOCATION_ERROR,
            "missing_argument",
            RecoveryStep(action="adapt", params={"fill_args": {"baseline": "control"}}),
        )
    )
    said = ("2026-02-09: 'baseline' is now required; the default is no longer applied.",)
    assert fix_source(Observations(fix=fill, changelog=said)) == "data"
    docs = ('{"baseline":{"default":"control","type":"string"}}',)
    assert fix_source(Observations(fix=fill, docs=docs)) == "docs"
    flag = fix_clues(
        spec(
            HazardFamily.INVOCATION_ERROR,
            "missing_argument",
            RecoveryStep(action="adapt", params={"fill_args": {"expedited": False}}),
        )
    )
    assert fix_source(Observations(fix=flag, docs=('{"expedited":{"default":false}}',))) == "docs"


def test_a_unit_mentioned_near_the_field_is_not_the_unit_of_the_field() -> None:
    gb = fix_clues(
        spec(
            HazardFamily.OUTPUT_DRIFT,
            "unit_change",
            RecoveryStep(action="convert", params={"field": "projected_gb", "unit": "MB"}),
        )
    )
    near = ("projected_gb (used plus projected, 1 GB = 1024 MB, two decimals)",)
    assert fix_source(Observations(fix=gb, docs=near)) == "data"
    assert fix_source(Observations(fix=gb, notices=("units.projected_gb: MB",))) == "result"


def test_a_canonical_id_is_shown_by_an_example_of_its_shape_not_by_an_echo() -> None:
    task = _task_with_arg("get_weather_alert", "alert_id", "alr-00001")
    strict = HazardSpec(
        family=HazardFamily.INVOCATION_ERROR,
        variant="strict_format",
        tool="get_weather_alert",
        params={"param": "alert_id"},
        recovery=[RecoveryStep(action="adapt", params={"normalize_args": {"alert_id": "upper"}})],
    )
    clues = fix_clues(strict, task)
    echo = "Invalid value for parameter 'alert_id': 'alr-00001' does not match the format."
    assert fix_source(Observations(fix=clues, errors=(echo,))) == "probing"
    docs = ("The alert id, e.g. 'ALR-00042'.",)
    assert fix_source(Observations(fix=clues, errors=(echo,), docs=docs)) == "docs"
    longer = ("The alert id, e.g. 'ALR-00042-X'.",)
    assert fix_source(Observations(fix=clues, errors=(echo,), docs=longer)) == "probing"


def test_a_source_to_trust_must_be_named_with_a_claim_of_authority() -> None:
    cross = fix_clues(
        spec(
            HazardFamily.CROSS_SOURCE_CONFLICT,
            "authoritative",
            RecoveryStep(action="cross_check", params={"alternatives": ["get_reference_rate"]}),
        )
    )
    fallback = ("If the board is unavailable, get_reference_rate quotes the same pairs.",)
    assert fix_source(Observations(fix=cross, docs=fallback)) == "data"
    claim = ("The central bank's rate (get_reference_rate) prevails where they disagree.",)
    assert fix_source(Observations(fix=cross, docs=claim)) == "docs"


def test_clue_patterns_are_case_sensitive_unless_marked() -> None:
    assert Clue("x", (r"ALR",)).named_in("ALR-1") and not Clue("x", (r"ALR",)).named_in("alr-1")
    assert Clue("x", (r"(?i:retry)",)).named_in("RETRY later")


def _task_with_arg(tool: str, name: str, value: str) -> TaskSpec:
    base = next(t for t in _shipped() if any(s.tool == tool for s in t.reference.steps))
    steps = [
        s.model_copy(update={"args": {**s.args, name: value}}) if s.tool == tool else s
        for s in base.reference.steps
    ]
    return base.model_copy(update={"reference": base.reference.model_copy(update={"steps": steps})})


# --- observed on real tasks -------------------------------------------------------------


@cache
def _shipped() -> list[TaskSpec]:
    return SUITE.load(SUITE.version_path("v2"))  # frozen: the docs' figures are v2's


def _first(variant: str, **params: object) -> TaskSpec:
    return next(
        t
        for t in _shipped()
        if t.hazard is not None
        and t.hazard.variant == variant
        and all(t.hazard.params.get(k) == v for k, v in params.items())
    )


@pytest.mark.parametrize(
    ("variant", "params", "source"),
    [
        ("renamed_parameter", {}, "changelog"),
        ("transient", {}, "probing"),
        ("unit_change", {"unit": "h"}, "result"),
        ("semantic_drift", {"announce": "notice"}, "result"),
        ("semantic_drift", {"announce": "changelog"}, "changelog"),
        ("withheld_field", {}, "docs"),
        ("stale_source", {}, "data"),
    ],
)
def test_a_replayed_task_shows_its_fix_where_its_hazard_puts_it(
    variant: str, params: dict[str, object], source: str
) -> None:
    task = _first(variant, **params)
    obs = observe(task)
    assert fix_source(obs) == source, (task.id, obs)


def test_the_observations_are_what_the_agent_is_shown() -> None:
    task = _first("renamed_parameter")
    assert task.hazard is not None
    obs = observe(task)
    assert obs.errors and all("error" in json.loads(e) for e in obs.errors)
    assert obs.changelog and all(task.hazard.tool in entry for entry in obs.changelog)
    assert len(obs.docs) == 1 and task.hazard.tool not in obs.docs[0].split("\n")[0]
    clean = Observations(fix=obs.fix)  # no error, no notice: this task is never silent
    assert measured_tier(clean) == "silent" != measured_tier(obs)


def test_a_task_without_a_hazard_is_refused() -> None:
    task = _shipped()[0].model_copy(update={"hazard": None})
    with pytest.raises(ValueError, match="no hazard"):
        observe(task)


# --- the build and the command ----------------------------------------------------------


def test_the_build_reports_the_measured_tiers_of_what_it_selects() -> None:
    tasks, report = build_toolbench_x(0, per_cell=1, domains=["weather"])
    figures = report.measured
    assert sum(n for mix in figures.measured.values() for n in mix.values()) == len(tasks)
    for family, mix in figures.measured.items():
        assert sum(figures.sources[family].values()) == sum(mix.values())
        by_source: dict[str, int] = {}
        for source, n in figures.sources[family].items():
            tier = TIER_OF_SOURCE[source]  # type: ignore[index]
            by_source[tier] = by_source.get(tier, 0) + n
        assert by_source == mix
        declared: dict[str, int] = {}
        for pair, n in figures.confusion[family].items():
            declared[pair.split("->")[0]] = declared.get(pair.split("->")[0], 0) + n
        assert declared == report.tiers[family]
        # every task has a place its fix is found, and its first place is its source
        assert set(figures.sources[family]) <= set(figures.found[family])
        for place, n in figures.found[family].items():
            assert figures.sources[family].get(place, 0) <= n <= sum(mix.values())
    # the measured tiers are reported, never written into the tasks
    assert [t.hazard.tier for t in tasks if t.hazard] == [
        t.hazard.tier for t in build_toolbench_x(0, per_cell=1, domains=["weather"])[0] if t.hazard
    ]


def test_the_command_prints_the_table_and_refuses_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = tmp_path / "tasks.jsonl"
    sample.write_text(to_jsonl(_shipped()[:12]), encoding="utf-8")
    assert main([str(sample)]) == 0
    table = capsys.readouterr().out
    assert table.startswith("| family |") and "fix " in table
    assert "| family | found " in table
    assert main([str(sample), "--json"]) == 0
    counted = json.loads(capsys.readouterr().out)
    assert sum(sum(m.values()) for m in counted["measured"].values()) == 12
    assert sum(sum(m.values()) for m in counted["found"].values()) >= 12
    assert main([str(tmp_path / "missing.jsonl")]) == 2
    assert main(["--verbose"]) == 2
    assert "usage" in capsys.readouterr().err
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not json\n", encoding="utf-8")
    assert main([str(broken)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


@pytest.mark.slow
def test_the_figures_in_the_docs_are_the_shipped_v2_measured() -> None:
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"^\| family \| explicit->.*?(?=\n\n)", text, re.MULTILINE | re.DOTALL)
    assert found, "docs/toolbench-x.md has no measured-tier table"
    assert found.group(0) == tier_table(measure_tasks(_shipped()))
