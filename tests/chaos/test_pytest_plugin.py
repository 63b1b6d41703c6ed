"""The pytest plugin in a pytester sandbox: a passing, a failing and an interval-limited test."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

# the plugin's summary imports numpy (through statsmodels); pytester's in-process runs
# unload what a run imported, and numpy cannot be loaded twice in one process
import statsmodels.stats.proportion  # noqa: F401

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


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ("runs=0", "runs of @pytest.mark.toolchaos must be a positive whole number, not 0"),
        ("runs=-3", "must be a positive whole number, not -3"),
        ('runs="twenty"', "must be a positive whole number, not 'twenty'"),
        ("runs=True", "must be a positive whole number, not True"),
        (
            "min_pass_rate=1.5",
            "min_pass_rate of @pytest.mark.toolchaos must be a number from 0 to 1, not 1.5",
        ),
        ("clean_runs=-1", "clean_runs of @pytest.mark.toolchaos must be a whole number, 0 or more"),
        ("run=5", "has no argument 'run' (did you mean 'runs'?); it takes plan, runs"),
        ("min_passrate=0.5", "(did you mean 'min_pass_rate'?)"),
        ('plan="no-such-profile"', "no-such-profile"),
    ],
)
def test_bad_marker_arguments_are_one_sentence_setup_errors(
    pytester: pytest.Pytester, arguments: str, message: str
) -> None:
    pytester.makepyfile(
        TOOLS
        + f"""
import pytest

@pytest.mark.toolchaos({arguments})
def test_agent(toolchaos):
    assert naive_agent(toolchaos.toolbox([get_weather])) == 21.5
"""
    )
    result = pytester.runpytest(*ARGS)
    result.assert_outcomes(errors=1)  # neither passed nor counted as the agent's failure
    out = result.stdout.str()
    assert message in " ".join(out.split())
    assert "Traceback" not in out and "ValueError" not in out
    assert "under hazard" not in out


def test_each_run_gets_fresh_function_scoped_fixtures(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        TOOLS
        + """
import pytest

MADE = {"module": 0, "function": 0, "torn_down": 0}

@pytest.fixture(scope="module")
def shared():
    MADE["module"] += 1
    return []

@pytest.fixture
def notes():
    MADE["function"] += 1
    yield []
    MADE["torn_down"] += 1

@pytest.fixture
def mine(notes):
    return notes

@pytest.mark.toolchaos(plan="transient", runs=3, clean_runs=2)
def test_agent(toolchaos, notes, mine, shared, tmp_path):
    assert notes == [] and mine is notes   # a list the previous run filled is not seen
    notes.append(1)
    shared.append(tmp_path)
    assert len(set(shared)) == len(shared)  # each run its own tmp_path
    assert retrying_agent(toolchaos.toolbox([get_weather])) == 21.5

def test_counts():
    assert MADE == {"module": 1, "function": 5, "torn_down": 5}
"""
    )
    result = pytester.runpytest(*ARGS)
    result.assert_outcomes(passed=2)


def test_a_plan_that_does_not_fit_the_tools_is_a_setup_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        TOOLS
        + """
import pytest

PLAN = {"hazards": [{"family": "execution_failure", "variant": "transient", "tool": "get_stock"}]}

@pytest.mark.toolchaos(plan=PLAN, runs=4)
def test_agent(toolchaos):
    assert retrying_agent(toolchaos.toolbox([get_weather])) == 21.5
"""
    )
    store = pytester.path / "run"
    result = pytester.runpytest(*ARGS, f"--toolchaos-store={store}")
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    assert "the plan does not fit the test's tools" in out and "get_stock" in out
    assert "hazard run" not in out and "clean run" not in out and "under hazard" not in out
    from toolchaos.runner.store import Store

    opened = Store.open_existing(store, read_only=True)
    assert opened.count() == 0  # no run was stored as the agent's failure
    opened.close()


MARKED_PAIR = """
import pytest

@pytest.mark.toolchaos(plan="transient", runs=3, clean_runs=1)
def test_recovers(toolchaos):
    assert retrying_agent(toolchaos.toolbox([get_weather])) == 21.5

@pytest.mark.toolchaos(plan="transient", runs=3, clean_runs=1, min_pass_rate=0.9)
def test_gives_up(toolchaos):
    assert naive_agent(toolchaos.toolbox([get_weather])) == 21.5
"""


def test_the_summary_survives_xdist(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("xdist")
    # only the two plugins this needs, named below: the other installed ones triple the
    # start-up of each of the three processes
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytester.makepyfile(TOOLS + MARKED_PAIR)
    result = pytester.runpytest_subprocess(*ARGS, "-p", "xdist", "-n", "2", timeout=60)
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "test_recovers (plan transient, threshold 0.80)" in out
    assert "test_gives_up (plan transient, threshold 0.90)" in out
    assert "under hazard: 3/3 = 1.00" in out and "under hazard: 0/3 = 0.00" in out


def test_pass_rates_are_junit_properties(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(TOOLS + MARKED_PAIR)
    xml = pytester.path / "junit.xml"
    pytester.runpytest(*ARGS, f"--junitxml={xml}").assert_outcomes(passed=1, failed=1)
    root = ET.parse(xml).getroot()  # noqa: S314 (the XML is the one pytest just wrote)
    cases = {
        case.get("name"): {p.get("name"): p.get("value") for p in case.iter("property")}
        for case in root.iter("testcase")
    }
    recovers, gives_up = cases["test_recovers"], cases["test_gives_up"]
    expected = {
        "plan": "transient",
        "clean_runs": "1",
        "hazard_runs": "3",
        "hazard_pass_rate": "1.0",
        "family_execution_failure_pass_rate": "1.0",
    }
    assert {k: recovers[f"toolchaos_{k}"] for k in expected} == expected
    shown = {k: gives_up[f"toolchaos_{k}"] for k in ("hazard_pass_rate", "min_pass_rate")}
    assert shown == {"hazard_pass_rate": "0.0", "min_pass_rate": "0.9"}
    assert gives_up["toolchaos_hazard_interval"].startswith("[0.0000, ")


def test_the_plan_file_is_read_once_at_setup(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", plan="profile: transient\nseed: 3\n")
    pytester.makepyfile(
        TOOLS
        + """
import pathlib
import pytest

@pytest.mark.toolchaos(plan="plan.yaml", runs=3, clean_runs=1)
def test_agent(toolchaos):
    pathlib.Path("plan.yaml").unlink(missing_ok=True)  # later runs must not need it
    assert retrying_agent(toolchaos.toolbox([get_weather])) == 21.5
"""
    )
    result = pytester.runpytest(*ARGS)
    result.assert_outcomes(passed=1)
    assert "test_agent (plan plan.yaml, threshold 0.80)" in result.stdout.str()


def test_the_marker_keys_and_defaults_have_one_source(pytester: pytest.Pytester) -> None:
    from dataclasses import fields

    from toolchaos.chaos.pytest_plugin import DEFAULTS, KEYS, MarkerOptions

    assert KEYS == ("plan", "runs", "min_pass_rate", "clean_runs", "seed")
    assert {f.name: f.default for f in fields(MarkerOptions)} == DEFAULTS
    result = pytester.runpytest(*ARGS, "--markers")
    signature = ", ".join(f"{k}={DEFAULTS[k]!r}" for k in KEYS)
    assert f"@pytest.mark.toolchaos({signature})" in result.stdout.str()
    # a marker that leaves everything out takes exactly the dataclass's defaults
    options = MarkerOptions.of(pytest.mark.toolchaos.mark)
    assert options == MarkerOptions()


def test_every_run_under_everything_meets_its_transient(pytester: pytest.Pytester) -> None:
    # issue #30: a drift rejection used up call 1, so the transient fired in 9 of 20 runs
    pytester.makepyfile(
        TOOLS
        + """
import re
import pytest

def following_agent(episode, tries=6):
    key = "city"
    for _ in range(tries):
        observation = episode.call("get_weather", {key: "Oslo"})
        if observation.ok:
            return observation.content.get("temp_c") or observation.content["data"]["temp_c"]
        renamed = re.search(r"renamed to '(\\w+)'", observation.content["error"]["message"])
        key = renamed.group(1) if renamed else key
    return None

@pytest.mark.toolchaos(plan="everything", runs=8, clean_runs=1)
def test_agent(toolchaos):
    episode = toolchaos.toolbox([get_weather])
    assert following_agent(episode) == 21.5
    fired = [e.variant for e in episode.hazard_events]
    assert "transient" in fired and "renamed_parameter" in fired
"""
    )
    result = pytester.runpytest(*ARGS)
    result.assert_outcomes(passed=1)
    out = result.stdout.str()
    assert "execution_failure: 8/8" in out and "specification_drift: 8/8" in out
