"""The pytest plugin: run an agent test N times under a hazard plan and judge the pass rate.

.. code-block:: python

    @pytest.mark.toolchaos(plan="drift", runs=20, min_pass_rate=0.8)
    def test_agent_survives_drift(toolchaos):
        episode = toolchaos.toolbox([get_weather])
        assert my_agent(episode) == "21.5"

The test runs ``clean_runs`` times without the plan (default: ``runs``), then ``runs``
times under it, run ``i`` with seed ``seed + i``. Its pass rate under hazard gets a 95%
Wilson interval, overall and per hazard family that fired; the test fails when an
interval's upper bound is below ``min_pass_rate`` (with ``--toolchaos-strict``: when the
point estimate is). The terminal summary lists every marked test, clean vs under hazard.
Installed as the ``toolchaos`` entry point of ``pytest11``.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from toolchaos.chaos.python import ToolboxEpisode
    from toolchaos.chaos.record import RunRecorder

MARKER = "toolchaos"
RESULTS = pytest.StashKey[list["ChaosResult"]]()
RECORDER = pytest.StashKey["RunRecorder | None"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's command-line options."""
    group = parser.getgroup("toolchaos", "hazards on your own tools")
    group.addoption(
        "--toolchaos-strict",
        action="store_true",
        help="fail a toolchaos test when its pass rate, not its interval, is below the threshold",
    )
    group.addoption(
        "--toolchaos-store",
        metavar="DIR",
        default=None,
        help="store every run's episodes in this run directory (read it with toolchaos report)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker and open the store, if any."""
    config.addinivalue_line(
        "markers",
        f"{MARKER}(plan, runs=20, min_pass_rate=0.8, clean_runs=None, seed=None): run the "
        "test under a toolchaos hazard plan and judge its pass rate",
    )
    config.stash[RESULTS] = []
    config.stash[RECORDER] = None
    directory = config.getoption("--toolchaos-store", None)
    if directory:
        from toolchaos.chaos.record import RunRecorder

        config.stash[RECORDER] = RunRecorder(Path(directory))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Close the store."""
    recorder = config.stash.get(RECORDER, None)
    if recorder is not None:
        recorder.close()


class ChaosFixture:
    """The ``toolchaos`` fixture: the tools of the current run of a marked test.

    Outside a marked test it plays clean with the ``transient`` plan's tools (so a test
    can run unmarked).
    """

    def __init__(self, nodeid: str, recorder: RunRecorder | None) -> None:
        self.nodeid = nodeid
        self.recorder = recorder
        self.plan: Any = "transient"
        self.arm = "clean"
        self.seed: int | None = None
        self.episodes: list[ToolboxEpisode] = []

    def start(self, plan: Any, arm: str, seed: int | None) -> None:
        """Begin one run of the test."""
        self.plan, self.arm, self.seed = plan, arm, seed
        self.episodes = []

    def toolbox(self, functions: Any, **options: Any) -> ToolboxEpisode:
        """An episode over your Python tools in this run's arm (see :class:`ChaosToolbox`)."""
        from toolchaos.chaos.python import ChaosToolbox

        options.setdefault("target", self.nodeid)
        box = ChaosToolbox(functions, self.plan, seed=self.seed, store=self.recorder, **options)
        episode = box.episode(self.arm)
        self.episodes.append(episode)
        return episode

    def families(self) -> set[str]:
        """The hazard families that fired in this run."""
        return {e.family.value for ep in self.episodes for e in ep.hazard_events}

    def end(self, passed: bool) -> None:
        """Store this run's episodes with the test's verdict."""
        for episode in self.episodes:
            episode.finish(passed=passed)


@pytest.fixture
def toolchaos(request: pytest.FixtureRequest) -> ChaosFixture:
    """The tools of the current run of a ``@pytest.mark.toolchaos`` test."""
    return ChaosFixture(request.node.nodeid, request.config.stash.get(RECORDER, None))


@dataclass
class ChaosResult:
    """The runs of one marked test."""

    nodeid: str
    plan: str
    threshold: float
    clean: list[bool] = field(default_factory=list)
    hazard: list[bool] = field(default_factory=list)
    families: dict[str, list[bool]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def _rate(runs: list[bool]) -> Any:
    from toolchaos.stats.agreement import wilson

    return wilson(sum(runs), len(runs))


def _shown(runs: list[bool]) -> str:
    rate = _rate(runs)
    if rate.rate is None:
        return "-"
    return f"{rate.k}/{rate.n} = {rate.rate:.2f} [{rate.low:.2f}, {rate.high:.2f}]"


def _once(function: Any, arguments: dict[str, Any]) -> str | None:
    """Run the test body once: None when it passed, else the first line of why it failed."""
    try:
        function(**arguments)
    except (Exception, pytest.fail.Exception) as exc:
        text = str(exc).strip().splitlines()
        return f"{type(exc).__name__}: {text[0] if text else ''}".strip()
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Play a marked test clean and under its plan, and judge its pass rate."""
    marker = pyfuncitem.get_closest_marker(MARKER)
    if marker is None:
        return None
    fixture = pyfuncitem.funcargs.get("toolchaos")
    if not isinstance(fixture, ChaosFixture):
        pytest.fail(
            "a @pytest.mark.toolchaos test must take the `toolchaos` fixture", pytrace=False
        )
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        pytest.fail("@pytest.mark.toolchaos runs plain (not async) test functions", pytrace=False)
    options = dict(marker.kwargs)
    plan = options.get("plan", marker.args[0] if marker.args else "transient")
    runs = int(options.get("runs", 20))
    given = options.get("clean_runs")
    clean_runs = runs if given is None else int(given)
    threshold = float(options.get("min_pass_rate", 0.8))
    from toolchaos.chaos.plan import load_plan

    try:
        base_seed = (
            int(options["seed"]) if options.get("seed") is not None else load_plan(plan).seed
        )
    except Exception as exc:  # BadInput: one sentence
        pytest.fail(f"toolchaos: {exc}", pytrace=False)
    names = pyfuncitem._fixtureinfo.argnames
    arguments = {name: pyfuncitem.funcargs[name] for name in names}
    result = ChaosResult(pyfuncitem.nodeid, str(plan), threshold)
    for arm, count, outcomes in (
        ("clean", clean_runs, result.clean),
        ("hazard", runs, result.hazard),
    ):
        for i in range(count):
            fixture.start(plan, arm, base_seed + i)
            failure = _once(pyfuncitem.obj, arguments)
            fixture.end(failure is None)
            outcomes.append(failure is None)
            if failure is not None and len(result.failures) < 3:
                result.failures.append(f"{arm} run {i + 1}: {failure}")
            if arm == "hazard":
                for family in fixture.families() or {"none fired"}:
                    result.families.setdefault(family, []).append(failure is None)
    pyfuncitem.config.stash[RESULTS].append(result)
    strict = bool(pyfuncitem.config.getoption("--toolchaos-strict"))
    short = _short_of(result, strict)
    if short:
        lines = [f"toolchaos: {line}" for line in short] + result.failures
        pytest.fail("\n".join(lines), pytrace=False)
    return True


def _short_of(result: ChaosResult, strict: bool) -> list[str]:
    """Why the test falls short of its threshold (nothing when it holds)."""
    out = []
    for name, runs in [("under hazard", result.hazard)] + [
        (f"under {family}", r) for family, r in sorted(result.families.items())
    ]:
        rate = _rate(runs)
        if rate.rate is None:
            continue
        value = rate.rate if strict else rate.high
        if value < result.threshold:
            what = "pass rate" if strict else "upper bound of the 95% interval"
            out.append(
                f"pass rate {name} {_shown(runs)}: the {what} is below {result.threshold:.2f}"
            )
    return out


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """List each marked test's pass rate clean vs under hazard."""
    results = config.stash.get(RESULTS, [])
    if not results:
        return
    terminalreporter.section("toolchaos")
    for result in results:
        terminalreporter.write_line(
            f"{result.nodeid} (plan {result.plan}, threshold {result.threshold:.2f})"
        )
        terminalreporter.write_line(f"  clean:        {_shown(result.clean)}")
        terminalreporter.write_line(f"  under hazard: {_shown(result.hazard)}")
        for family, runs in sorted(result.families.items()):
            terminalreporter.write_line(f"    {family}: {_shown(runs)}")
