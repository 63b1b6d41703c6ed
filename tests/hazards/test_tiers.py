"""What the agent sees of each specification-drift, invocation and execution variant, per tier.

The explicit tier's error names its fix; the implicit tier's says only what is wrong, and
the service changelog (``read_changelog``) names the fix; the silent tier raises nothing.
Played on the fixture domain through the real env.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import make_task
from toolchaos.core.types import HazardFamily, HazardSpec, RecoveryStep, TaskSpec, Tier, ToolCall
from toolchaos.domains import get_domain
from toolchaos.env.runtime import Env
from toolchaos.hazards.execution_failure import _twice_differs
from toolchaos.suites.toolbench_x import CHANGELOG_TOOL, make_env
from toolchaos.suites.toolbench_x.reading import spelled_out
from toolchaos.suites.toolbench_x.recovery import adapt_arguments
from toolchaos.suites.toolbench_x.validate import replay_reference

SPEC = HazardFamily.SPECIFICATION_DRIFT
INVOCATION = HazardFamily.INVOCATION_ERROR
EXECUTION = HazardFamily.EXECUTION_FAILURE
SINCE = "2026-02-10"


def _env(
    family: HazardFamily,
    variant: str,
    tool: str,
    params: dict[str, Any],
    tier: Tier,
    arm: str = "hazard",
    writes: bool = False,
) -> Env:
    spec = HazardSpec(family=family, variant=variant, tool=tool, params=params, tier=tier)
    task = make_task(hazard=spec, writes=writes)
    tools = [*task.tools, "get_weather_v2", "get_forecast", "list_alerts", CHANGELOG_TOOL]
    return make_env(task.model_copy(update={"tools": tools}), arm)


def _call(env: Env, tool: str, /, **args: Any) -> dict[str, Any]:
    content: dict[str, Any] = env.call(
        ToolCall(id="c", name=tool, arguments=json.dumps(args))
    ).content
    return content


def _error(env: Env, tool: str, /, **args: Any) -> str:
    content = _call(env, tool, **args)
    assert "error" in content, content
    return str(content["error"]["message"])


def _changelog(env: Env, tool: str) -> list[str]:
    entries: list[str] = _call(env, CHANGELOG_TOOL, tool=tool)["entries"]
    return entries


def _both(family: HazardFamily, variant: str, tool: str, params: dict[str, Any]) -> list[Env]:
    return [_env(family, variant, tool, params, tier) for tier in ("explicit", "implicit")]


def test_renamed_parameter() -> None:
    params = {"param": "city", "to": "cityName", "since": SINCE}
    explicit, implicit = _both(SPEC, "renamed_parameter", "get_weather", params)
    assert "renamed to 'cityName'" in _error(explicit, "get_weather", city="Oslo")
    message = _error(implicit, "get_weather", city="Oslo")
    assert message == "Unrecognized request argument supplied: 'city'."
    [entry] = _changelog(implicit, "get_weather")
    assert entry.startswith(SINCE) and "'city' renamed to 'cityName'" in entry
    assert _call(implicit, "get_weather", cityName="Oslo")["city"] == "Oslo"
    assert _changelog(implicit, "get_alert") == []
    clean = _env(SPEC, "renamed_parameter", "get_weather", params, "implicit", arm="clean")
    assert _changelog(clean, "get_weather") == []


def test_changed_enum() -> None:
    mapping = {"metric": "UNITS_METRIC", "imperial": "UNITS_IMPERIAL"}
    params = {"param": "units", "mapping": mapping, "since": SINCE}
    explicit, implicit = _both(SPEC, "changed_enum", "get_weather", params)
    assert "'UNITS_METRIC', 'UNITS_IMPERIAL'" in _error(
        explicit, "get_weather", city="Oslo", units="metric"
    )
    message = _error(implicit, "get_weather", city="Oslo", units="metric")
    assert message == "Invalid value for parameter 'units': 'metric'."
    [entry] = _changelog(implicit, "get_weather")
    assert "'metric' -> 'UNITS_METRIC'" in entry and entry.startswith(SINCE)
    assert _call(implicit, "get_weather", city="Oslo", units="UNITS_METRIC")["city"] == "Oslo"


def test_deprecated_tool() -> None:
    params = {"v2": "get_weather_v2", "since": SINCE}
    explicit, implicit = _both(SPEC, "deprecated_tool", "get_weather", params)
    assert "Use 'get_weather_v2'" in _error(explicit, "get_weather", city="Oslo")
    message = _error(implicit, "get_weather", city="Oslo")
    assert message == "Gone: 'get_weather' has been retired." and "v2" not in message
    assert "get_weather_v2" in _changelog(implicit, "get_weather")[0]
    assert _call(implicit, "get_weather_v2", location="Oslo")["city"] == "Oslo"


def test_parameter_format() -> None:
    params = {"param": "date", "format": "DD/MM/YYYY", "since": SINCE}
    explicit, implicit = _both(SPEC, "parameter_format", "get_forecast", params)
    assert "DD/MM/YYYY" in _error(explicit, "get_forecast", city="Oslo", date="2026-03-06")
    message = _error(implicit, "get_forecast", city="Oslo", date="2026-03-06")
    assert message == "Invalid date format for parameter 'date'."
    assert "DD/MM/YYYY" in _changelog(implicit, "get_forecast")[0]
    assert _call(implicit, "get_forecast", city="Oslo", date="06/03/2026")["date"] == "2026-03-06"


@pytest.mark.parametrize(
    ("fmt", "written", "order"),
    [("MM/DD/YYYY", "03/06/2026", "month first"), ("DD.MM.YYYY", "06.03.2026", "day first")],
)
def test_parameter_format_plays_the_format_its_spec_names(
    fmt: str, written: str, order: str
) -> None:
    params = {"param": "date", "format": fmt, "since": SINCE}
    explicit, implicit = _both(SPEC, "parameter_format", "get_forecast", params)
    assert f"Expected a date as {fmt}." in _error(
        explicit, "get_forecast", city="Oslo", date="2026-03-06"
    )
    assert f"{fmt} ({order})" in _changelog(implicit, "get_forecast")[0]
    assert "DD/MM/YYYY" not in _changelog(implicit, "get_forecast")[0]
    assert _call(implicit, "get_forecast", city="Oslo", date=written)["date"] == "2026-03-06"
    # the old day-first form is not what this backend reads
    if fmt == "MM/DD/YYYY":
        assert (
            _call(implicit, "get_forecast", city="Oslo", date="06/03/2026")["date"] == "2026-06-03"
        )
    fix = RecoveryStep(action="adapt", params={"reformat_args": {"date": fmt}})
    assert adapt_arguments({"date": "2026-03-06"}, fix.params) == {"date": written}
    assert spelled_out(fix, f"Expected a date as {fmt}.")


def test_strict_format() -> None:
    params = {"param": "city", "rule": "upper-case id", "since": SINCE}
    explicit, implicit = _both(INVOCATION, "strict_format", "get_weather", params)
    assert "upper-case letters" in _error(explicit, "get_weather", city="c-101")
    message = _error(implicit, "get_weather", city="c-101")
    assert message.endswith("does not match the required format.") and "upper" not in message
    assert "upper-case letters" in _changelog(implicit, "get_weather")[0]
    assert _call(implicit, "get_weather", city="C-101")["city"] == "Oslo"


def test_missing_argument() -> None:
    params = {"param": "units", "default": "metric", "since": SINCE}
    explicit, implicit = _both(INVOCATION, "missing_argument", "get_weather", params)
    message = _error(explicit, "get_weather", city="Oslo")
    assert "'units'" in message and '"metric"' in message
    message = _error(implicit, "get_weather", city="Oslo")
    assert "units" not in message and "metric" not in message
    assert "'units' is now required" in _changelog(implicit, "get_weather")[0]
    assert _call(implicit, "get_weather", city="Oslo", units="metric")["city"] == "Oslo"


@pytest.mark.parametrize("error", ["503", "timeout", "rate_limit"])
def test_transient(error: str) -> None:
    params = {"error": error, "k": 1}
    explicit, implicit = _both(EXECUTION, "transient", "get_weather", params)
    assert any(
        word in _error(explicit, "get_weather", city="Oslo").lower()
        for word in ("try again", "retry after")
    )
    message = _error(implicit, "get_weather", city="Oslo")
    assert message in ("Service Unavailable.", "Gateway Timeout.", "Too Many Requests.")
    assert _changelog(implicit, "get_weather") == []


def test_outage() -> None:
    params = {"fallback": "get_weather_backup"}
    explicit, implicit = _both(EXECUTION, "outage", "get_weather", params)
    assert "Use 'get_weather_backup'" in _error(explicit, "get_weather", city="Oslo")
    assert "backup" not in _error(implicit, "get_weather", city="Oslo")


def test_pagination_per_tier() -> None:
    params = {"page_size": 2, "since": SINCE}
    explicit = _env(EXECUTION, "paginated", "list_cities", params, "explicit")
    first = _call(explicit, "list_cities")
    assert first["next_page"] == 2 and "Pass page=2" in first["note"]
    implicit = _env(EXECUTION, "paginated", "list_cities", params, "implicit")
    first = _call(implicit, "list_cities")
    assert first["has_more"] is True and "note" not in first and "next_page" not in first
    second = _call(implicit, "list_cities", cursor=first["next_cursor"])
    by_name = [
        r["city_id"]
        for r in _call(_env(EXECUTION, "paginated", "x", params, "implicit"), "list_cities")[
            "results"
        ]
    ]
    assert [r["city_id"] for r in first["results"] + second["results"]] == by_name[:4]
    assert "Invalid cursor" in _error(implicit, "list_cities", cursor="nonsense")
    assert "'cursor'" in _changelog(implicit, "list_cities")[0]
    silent = _env(EXECUTION, "paginated", "list_cities", params, "silent")
    first = _call(silent, "list_cities")
    assert first["count"] == 2  # a listing's own 'total' (this one has none) stays the full count
    assert not {"next_page", "next_cursor", "has_more", "note"} & set(first)
    assert _call(silent, "list_cities", page=3)["results"][0]["city_id"] == by_name[4]
    assert "'page'" in _changelog(silent, "list_cities")[0]
    assert _changelog(explicit, "list_cities") == []


def test_timeout_after_write_names_the_verifier_only_when_explicit() -> None:
    params = {"verifier": "list_alerts"}
    for tier in ("explicit", "implicit"):
        env = _env(EXECUTION, "timeout_after_write", "set_alert", params, tier, writes=True)
        message = _error(env, "set_alert", city="Oslo", threshold_c=25.0)
        assert "may or may not have been processed" in message
        assert ("list_alerts" in message) == (tier == "explicit")
        # the write committed before the timeout
        assert len(_call(env, "list_alerts", city="Oslo")["results"]) == 1


def _alert_task() -> TaskSpec:
    from conftest import variant_tasks

    task: TaskSpec = next(t for t in variant_tasks() if t.id == "fx-alert")
    return task


def test_a_timeout_after_write_needs_a_write_a_blind_retry_duplicates() -> None:
    task, fixture = _alert_task(), get_domain("fixture")
    assert replay_reference(task).answer == task.reference.answer
    assert _twice_differs(task, fixture, 0)  # set_alert twice: two alerts
    assert not _twice_differs(task, fixture, 1)  # update_alert twice: the same end state
