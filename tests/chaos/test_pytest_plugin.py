"""The pytest plugin in a pytester sandbox: a passing, a failing and an interval-limited test."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

TOOLS = '''
def get_weather(city: str) -> dict:
    """Weather.

    Args:
        city: The city.
    """
    return {"temp_c": 21.5}


def retrying_agent(episode, tries=4):
    for _ in range(tries):
        observation = episode.call("get_weather", {"city": "Oslo"})
        if observation.ok:
            return observation.content["temp_c"]
    return None


def naive_agent(episode):
    return retrying_agent(episode, tries=1)
'''

ARGS = ("-p", "no:toolchaos", "-p", "toolchaos.chaos.pytest_plugin", "-p", "no:cacheprovider")


def test_a_recovering_agent_passes(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        TOOLS
        + """
import pytest

@pytest.mark.toolchaos(plan="transient", runs=6, min_pass_rate=0.8)
def test_agent(toolchaos):
    assert retrying_agent(toolchaos.toolbox([get_weather])) == 21.5
"""
    )
    result = pytester.runpytest(*ARGS)
    result.assert_outcomes(passed=1)
    out = result.stdout.str()
    assert "test_agent (plan transient, threshold 0.80)" in out
    assert "clean:        6/6 = 1.00" in out
    assert "under hazard: 6/6 = 1.00 [0.61, 1.00]" in out
    assert "execution_failure: 6/6" in out


def test_a_naive_agent_fails(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        TOOLS
        + """
import pytest

@pytest.mark.toolchaos(plan="transient", runs=6, min_pass_rate=0.8)
def test_agent(toolchaos):
    assert naive_agent(toolchaos.toolbox([get_weather])) == 21.5
"""
    )
    result = pytester.runpytest(*ARGS)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "the upper bound of the 95% interval is below 0.80" in out
    assert "pass rate under hazard 0/6 = 0.00" in out
    assert "hazard run 1: AssertionError" in out
    assert "clean:        6/6 = 1.00" in out


INTERVAL_LIMITED = """
import pytest

RUNS = iter(range(100))

@pytest.mark.toolchaos(plan="transient", runs=5, clean_runs=1, min_pass_rate=0.9)
def test_agent(toolchaos):
    episode = toolchaos.toolbox([get_weather])
    assert retrying_agent(episode) == 21.5
    if episode.hazard_events:
        assert next(RUNS) != 0  # the first hazarded run fails: 4 of 5 pass
"""


def test_interval_limited_passes_unless_strict(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(TOOLS + INTERVAL_LIMITED)
    lenient = pytester.runpytest(*ARGS)
    lenient.assert_outcomes(passed=1)  # 4/5 = 0.80, but the interval reaches 0.96 >= 0.90
    assert "under hazard: 4/5 = 0.80 [0.38, 0.96]" in lenient.stdout.str()
    strict = pytester.runpytest(*ARGS, "--toolchaos-strict")
    strict.assert_outcomes(failed=1)
    assert (
        "under hazard 4/5 = 0.80 [0.38, 0.96]: the pass rate is below 0.90" in strict.stdout.str()
    )


def test_runs_are_stored_for_the_report(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        TOOLS
        + """
import pytest

@pytest.mark.toolchaos(plan="transient", runs=2, clean_runs=1)
def test_agent(toolchaos):
    assert retrying_agent(toolchaos.toolbox([get_weather])) == 21.5
"""
    )
    store = pytester.path / "run"
    pytester.runpytest(*ARGS, f"--toolchaos-store={store}").assert_outcomes(passed=1)
    from toolchaos.report.tables import build_report

    table = build_report([store]).tables["own_tools_pass"]
    assert list(table["n"]) == [1, 2] and list(table["pass_rate"]) == [1.0, 1.0]
