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
point estimate is). The terminal summary lists every marked test, clean vs under hazard
(also under pytest-xdist: each result travels with its test's report), and each test's
pass rates are written as properties of its junit XML test case.

Every run gets fresh function-scoped fixtures (a ``tmp_path``, a ``monkeypatch``, your own);
wider-scoped fixtures are shared by the runs. Marker arguments are checked before the
test is set up: a bad value or an unknown key is one sentence and a setup error, and so is
a plan that does not fit the test's tools (never counted as the agent's failures).
Installed as the ``toolchaos`` entry point of ``pytest11``.
"""

from __future__ import annotations

import difflib
import inspect
import numbers
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from toolchaos.chaos.plan import HazardPlan
    from toolchaos.chaos.python import ToolboxEpisode
    from toolchaos.chaos.record import RunRecorder

MARKER = "toolchaos"
RESULTS = pytest.StashKey[list["ChaosResult"]]()
RECORDER = pytest.StashKey["RunRecorder | None"]()
OPTIONS = pytest.StashKey["MarkerOptions"]()
PLAN: pytest.StashKey[HazardPlan] = pytest.StashKey()
"""A marked test's plan, read once at setup and given to every run's toolbox."""
RESULT = pytest.StashKey["ChaosResult"]()
SETUP_ERROR = pytest.StashKey[str]()
REPORT_FIELD = "toolchaos_result"
"""The attribute of a test's call report that carries its result (to the xdist controller)."""


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
    signature = ", ".join(f"{key}={DEFAULTS[key]!r}" for key in KEYS)
    config.addinivalue_line(
        "markers",
        f"{MARKER}({signature}): run the test under a toolchaos hazard plan and judge its "
        "pass rate",
    )
    config.stash[RESULTS] = []
    config.stash[RECORDER] = None
    config.pluginmanager.register(_Collector(config), "toolchaos-results")
    directory = config.getoption("--toolchaos-store", None)
    if directory:
        from toolchaos.chaos.record import RunRecorder

        config.stash[RECORDER] = RunRecorder(Path(directory))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Close the store."""
    recorder = config.stash.get(RECORDER, None)
    if recorder is not None:
        recorder.close()


class MarkerError(Exception):
    """A ``@pytest.mark.toolchaos`` argument that is wrong (one sentence)."""


@dataclass(frozen=True)
class MarkerOptions:
    """The checked arguments of one ``@pytest.mark.toolchaos`` marker.

    Its fields are the marker's keys (:data:`KEYS`), their defaults the marker's.
    """

    plan: Any = "transient"
    runs: int = 20
    min_pass_rate: float = 0.8
    clean_runs: int | None = None
    seed: int | None = None

    @classmethod
    def of(cls, marker: pytest.Mark) -> MarkerOptions:
        """Check a marker's arguments.

        Raises:
            MarkerError: An unknown key (with the nearest known one), a second positional
                argument, or a value of the wrong kind or range.
        """
        given = dict(marker.kwargs)
        for key in given:
            if key not in KEYS:
                near = difflib.get_close_matches(key, KEYS, n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                raise MarkerError(
                    f"@pytest.mark.toolchaos has no argument {key!r}{hint}; "
                    f"it takes {', '.join(KEYS)}"
                )
        if len(marker.args) > 1:
            raise MarkerError(
                "@pytest.mark.toolchaos takes one positional argument (the plan), "
                f"not {len(marker.args)}"
            )
        if marker.args:
            if "plan" in given:
                raise MarkerError("@pytest.mark.toolchaos got the plan twice")
            given["plan"] = marker.args[0]
        runs = _whole(given, "runs", least=1)
        clean_runs = _whole(given, "clean_runs", least=0)
        seed = _whole(given, "seed", least=None)
        rate = given.get("min_pass_rate", DEFAULTS["min_pass_rate"])
        usable = isinstance(rate, numbers.Real) and not isinstance(rate, bool)
        if not usable or not 0 <= float(rate) <= 1:
            raise MarkerError(
                f"min_pass_rate of @pytest.mark.toolchaos must be a number from 0 to 1, "
                f"not {rate!r}"
            )
        return cls(given.get("plan", DEFAULTS["plan"]), runs, float(rate), clean_runs, seed)


KEYS = tuple(f.name for f in fields(MarkerOptions))
"""The marker's keys, in order."""
DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(MarkerOptions)}
"""The value of each key a marker leaves out."""


def _whole(given: dict[str, Any], key: str, least: int | None) -> Any:
    """A whole-number marker argument (None allowed where the default is None)."""
    default = DEFAULTS[key]
    value = given.get(key, default)
    if value is None and default is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or (least is not None and value < least)
    ):
        kind = {1: "a positive whole number", 0: "a whole number, 0 or more"}.get(
            least if least is not None else -1, "a whole number"
        )
        raise MarkerError(f"{key} of @pytest.mark.toolchaos must be {kind}, not {value!r}")
    return value


class PlanDoesNotFit(Exception):
    """The plan (or the tools) of a marked test cannot be bound: a setup error."""


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Check a marked test's marker and plan before its fixtures are set up."""
    marker = item.get_closest_marker(MARKER)
    if marker is None:
        return
    from toolchaos.chaos.plan import load_plan
    from toolchaos.core.errors import BadInput

    try:
        options = MarkerOptions.of(marker)
        plan = load_plan(options.plan)
    except (MarkerError, BadInput) as exc:
        pytest.fail(f"toolchaos: {exc}", pytrace=False)
    item.stash[OPTIONS] = options
    item.stash[PLAN] = plan


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
        from toolchaos.core.errors import BadInput

        options.setdefault("target", self.nodeid)
        try:
            box = ChaosToolbox(functions, self.plan, seed=self.seed, store=self.recorder, **options)
        except BadInput as exc:
            raise PlanDoesNotFit(str(exc)) from None
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
    except PlanDoesNotFit:
        raise
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
    options = pyfuncitem.stash[OPTIONS]  # both set at setup, which ran
    plan = pyfuncitem.stash[PLAN]
    base_seed = options.seed if options.seed is not None else plan.seed
    clean_runs = options.runs if options.clean_runs is None else options.clean_runs
    shown = options.plan if isinstance(options.plan, str | Path) else plan.label
    result = ChaosResult(pyfuncitem.nodeid, str(shown), options.min_pass_rate)
    first = True
    for arm, count, outcomes in (
        ("clean", clean_runs, result.clean),
        ("hazard", options.runs, result.hazard),
    ):
        for i in range(count):
            if not first:
                _fresh_function_fixtures(pyfuncitem)
            first = False
            fixture = pyfuncitem.funcargs["toolchaos"]
            assert isinstance(fixture, ChaosFixture)
            fixture.start(plan, arm, base_seed + i)
            names = pyfuncitem._fixtureinfo.argnames
            arguments = {name: pyfuncitem.funcargs[name] for name in names}
            try:
                failure = _once(pyfuncitem.obj, arguments)
            except PlanDoesNotFit as exc:
                pyfuncitem.stash[SETUP_ERROR] = str(exc)
                pytest.fail(
                    f"toolchaos: the plan does not fit the test's tools: {exc} "
                    "(a setup error: no run is counted)",
                    pytrace=False,
                )
            fixture.end(failure is None)
            outcomes.append(failure is None)
            if failure is not None and len(result.failures) < 3:
                result.failures.append(f"{arm} run {i + 1}: {failure}")
            if arm == "hazard":
                for family in fixture.families() or {"none fired"}:
                    result.families.setdefault(family, []).append(failure is None)
    pyfuncitem.stash[RESULT] = result
    pyfuncitem.user_properties.extend(_properties(result))
    strict = bool(pyfuncitem.config.getoption("--toolchaos-strict"))
    short = _short_of(result, strict)
    if short:
        lines = [f"toolchaos: {line}" for line in short] + result.failures
        pytest.fail("\n".join(lines), pytrace=False)
    return True


def _fresh_function_fixtures(item: pytest.Function) -> None:
    """Tear down the test's function-scoped fixtures and set them up again, for a new run.

    Wider-scoped fixtures stay; a fixture that depends on a function-scoped one is torn
    down with it (pytest registers it as a finalizer of what it requested). pytest has no
    public call for this, so it goes through the test's fixture request (pytest 8 and 9;
    ``tests/chaos/test_pytest_plugin.py`` fails when that changes).
    """
    from _pytest.tmpdir import tmppath_result_key

    request = item._request
    active = request._fixture_defs
    function_scoped = [
        name for name, fixturedef in active.items() if fixturedef.scope == "function"
    ]
    for name in reversed(function_scoped):
        # tmp_path's teardown reads (and drops) the outcome pytest records per phase
        item.stash.setdefault(tmppath_result_key, {"setup": True})
        active[name].finish(request)  # type: ignore[arg-type]
    for name in function_scoped:
        del active[name]
        item.funcargs.pop(name, None)
    request._fillfixtures()


def _properties(result: ChaosResult) -> list[tuple[str, object]]:
    """The junit XML properties of a marked test: its runs and pass rates."""
    out: list[tuple[str, object]] = [
        ("toolchaos_plan", result.plan),
        ("toolchaos_min_pass_rate", result.threshold),
    ]
    groups = [("clean", result.clean), ("hazard", result.hazard)]
    groups += [(f"family_{family}", runs) for family, runs in sorted(result.families.items())]
    for name, runs in groups:
        rate = _rate(runs)
        out.append((f"toolchaos_{name}_runs", rate.n))
        if rate.rate is not None:
            out.append((f"toolchaos_{name}_pass_rate", round(rate.rate, 4)))
            out.append((f"toolchaos_{name}_interval", f"[{rate.low:.4f}, {rate.high:.4f}]"))
    return out


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Carry a marked test's result (and a setup error of its plan) on its call report."""
    report = yield
    if call.when == "call":
        result = item.stash.get(RESULT, None)
        if result is not None:
            setattr(report, REPORT_FIELD, asdict(result))
        if SETUP_ERROR in item.stash:
            report.toolchaos_setup_error = item.stash[SETUP_ERROR]
    return report


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> Any:
    """A plan that does not fit the test's tools is shown as an error, not a failure."""
    if getattr(report, "toolchaos_setup_error", None) and report.failed:
        return "error", "E", "ERROR"
    return None


class _Collector:
    """Collects each marked test's result from its report, where reports are logged.

    That is the process that writes the summary and the junit XML: the only one without
    pytest-xdist, the controller with it (the workers' results reach it on the reports).
    """

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        data = getattr(report, REPORT_FIELD, None)
        if data is not None and report.when == "call":
            self.config.stash[RESULTS].append(ChaosResult(**data))


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
