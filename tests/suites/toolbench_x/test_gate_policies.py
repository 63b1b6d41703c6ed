"""The gate policies (lenient, follower, bypasser), the reading they share and the changelog."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from conftest import make_task, outage, renamed, transient
from toolchaos.core.types import HazardFamily, HazardSpec, RecoveryStep
from toolchaos.hazards import VARIANTS, HazardContext, register_hazard
from toolchaos.hazards.specification_drift import RenamedParameter
from toolchaos.suites.toolbench_x import CHANGELOG_TOOL
from toolchaos.suites.toolbench_x.baselines import GATE_MODES
from toolchaos.suites.toolbench_x.reading import lenient_view, snake, spelled_out
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync


def _solves(mode: str, spec: HazardSpec | None, arm: str = "hazard") -> bool:
    task = make_task(hazard=spec)
    return episode_correct(play_sync(task, mode, arm), task)


def test_snake_case_and_lenient_reading() -> None:
    assert snake("weightKg") == "weight_kg"
    seen = lenient_view(
        {"data": {"tempC": "21.5", "station_id": "04217", "when": "05.03.2026"}},
        wanted={"temp_c", "station_id"},
        numbers=frozenset({"temp_c"}),
    )
    assert seen["temp_c"] == 21.5  # unwrapped, found under its camel name, read as a number
    assert seen["station_id"] == "04217"  # an id stays a string
    assert seen["when"] == "2026-03-05"


def test_a_field_is_found_under_a_key_of_the_same_meaning_only_when_unique() -> None:
    one = lenient_view({"shipping_weight_kg": 3}, wanted={"weight_kg"})
    assert one["weight_kg"] == 3
    two = lenient_view({"net_weight": 3, "gross_weight": 4}, wanted={"weight_kg"})
    assert "weight_kg" not in two


def test_an_envelope_holding_a_wanted_key_is_not_unwrapped() -> None:
    assert lenient_view({"item": {"x": 1}}, wanted={"item"}) == {"item": {"x": 1}}


@pytest.mark.parametrize(
    ("step", "text", "expected"),
    [
        (RecoveryStep(action="retry"), "503 Service Unavailable. Retry after 2 s.", True),
        (RecoveryStep(action="retry"), "503 Service Unavailable.", False),
        (
            RecoveryStep(action="adapt", params={"rename_args": {"city": "cityName"}}),
            "Unrecognized request argument supplied: 'city'. It is now 'cityName'.",
            True,
        ),
        (
            RecoveryStep(action="adapt", params={"rename_args": {"city": "cityName"}}),
            "Unrecognized request argument supplied: 'city'.",
            False,
        ),
        (RecoveryStep(action="fallback", params={"tool": "backup"}), "use backup", True),
        (RecoveryStep(action="consult"), "read the changelog", False),
    ],
)
def test_spelled_out(step: RecoveryStep, text: str, expected: bool) -> None:
    assert spelled_out(step, text) is expected


@pytest.mark.parametrize("mode", GATE_MODES)
def test_every_gate_policy_solves_the_clean_task(mode: str) -> None:
    assert _solves(mode, None, "clean")
    assert _solves(mode, outage(), "clean")


def test_the_lenient_reader_sees_through_a_renamed_field_but_not_an_outage() -> None:
    assert not _solves("naive", renamed())
    assert _solves("lenient", renamed())
    assert not _solves("lenient", outage())


def test_the_follower_retries_only_when_the_error_says_so() -> None:
    assert _solves("follower", transient(1, "429"))  # the 429 names a retry-after
    assert _solves("oracle", transient(1, "503"))


def test_the_bypasser_takes_another_tool_with_the_same_arguments() -> None:
    # the fixture's backup takes `city` like get_weather: a name-matching switch gets through
    assert not _solves("naive", outage())
    assert _solves("bypasser", outage())
    assert not _solves("lenient", outage())


class _QuietRename(RenamedParameter):
    """A renamed parameter whose error says only what is wrong; the changelog says the fix."""

    variant = "quiet_rename_for_tests"
    tiers = ("implicit",)

    def intercept(self, call: Any, ctx: HazardContext) -> None:
        from toolchaos.core.errors import ToolError

        old = self.spec.params["param"]
        if self.fires(call.tool, call.ordinal) and old in call.arguments:
            self.log(ctx, call.tool, call.ordinal, "renamed")
            raise ToolError(f"Unrecognized request argument supplied: '{old}'.", code=400)

    def changelog(self, tool: str) -> list[str]:
        if tool != self.spec.tool:
            return []
        return [f"2026-02-10: '{self.spec.params['param']}' is now '{self.spec.params['to']}'."]


@pytest.fixture
def quiet_rename() -> Iterator[None]:
    """The test variant, registered for one test only (the catalogue stays as shipped)."""
    register_hazard(_QuietRename)
    yield
    del VARIANTS[(_QuietRename.family, _QuietRename.variant)]


def _quiet(recipe: list[RecoveryStep]) -> HazardSpec:
    return HazardSpec(
        family=HazardFamily.SPECIFICATION_DRIFT,
        variant="quiet_rename_for_tests",
        tool="get_weather",
        params={"param": "city", "to": "cityName"},
        recovery=recipe,
        tier="implicit",
    )


@pytest.mark.usefixtures("quiet_rename")
def test_an_implicit_hazard_is_recovered_by_consulting_the_changelog_only() -> None:
    adapt = RecoveryStep(action="adapt", params={"rename_args": {"city": "cityName"}})
    consult = RecoveryStep(action="consult")
    task = make_task(hazard=_quiet([consult, adapt]))
    # no backup in this toolbox: a tool taking the same arguments would let the bypasser out
    tools = [t for t in task.tools if t != "get_weather_backup"]
    task = task.model_copy(update={"tools": [*tools, CHANGELOG_TOOL]})
    oracle = play_sync(task, "oracle", "hazard")
    assert episode_correct(oracle, task)
    assert CHANGELOG_TOOL in [e.call.name for e in oracle.trace]
    changelog = next(e for e in oracle.trace if e.call.name == CHANGELOG_TOOL)
    assert "cityName" in str(changelog.observation.content)
    for mode in ("naive", *GATE_MODES):
        assert not episode_correct(play_sync(task, mode, "hazard"), task), mode
    # in the clean arm the changelog has nothing to say
    clean = play_sync(task, "oracle", "clean")
    assert episode_correct(clean, task)
