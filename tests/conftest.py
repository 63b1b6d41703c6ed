"""Shared fixtures: a tiny weather domain and hand-made tasks over it, fast and offline."""

from __future__ import annotations

import fcntl
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Self

import pytest
from hypothesis import HealthCheck, settings

from toolchaos.core.errors import ToolError
from toolchaos.core.tools import tool
from toolchaos.core.types import (
    AnswerSpec,
    HazardFamily,
    HazardSpec,
    RecoveryStep,
    Reference,
    RefStep,
    TaskSpec,
    ToolKind,
)
from toolchaos.core.world import Row, World
from toolchaos.domains import (
    DOMAINS,
    Domain,
    DomainNotes,
    Fallback,
    Resolver,
    Sources,
    UnitConversion,
    V2Tool,
    WriteVerifier,
    tool_map,
)

if TYPE_CHECKING:
    from toolchaos.runner.run import RunSummary

# Fuzzing: a bounded number of examples in `make test`, many more in `make fuzz`
# (HYPOTHESIS_PROFILE=fuzz). Examples are derandomized in CI so a run is repeatable.
FUZZ_SCALE = {"default": 1, "fuzz": 50}
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile(
    "fuzz", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=False
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the tests marked slow first (in their order), then the rest.

    ``make test`` spreads the tests over pytest-xdist workers as they finish; a long test
    handed out last would keep one worker busy while the others idle.
    """
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def fuzz_examples(base: int) -> int:
    """How many examples a fuzz test draws under the active profile."""
    return base * FUZZ_SCALE.get(os.environ.get("HYPOTHESIS_PROFILE", "default"), 1)


class City(Row):
    city_id: str
    name: str
    temp_c: float
    humidity: int


class Alert(Row):
    alert_id: str
    city_id: str
    threshold_c: float


class WeatherWorld(World):
    TABLES = ("cities", "alerts")
    cities: dict[str, City]
    alerts: dict[str, Alert]

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        names = ["Oslo", "Lima", "Pune", "Kobe", "Nice"]
        cities = {
            f"C-{101 + i}": City(
                city_id=f"C-{101 + i}",
                name=n,
                temp_c=round(rng.uniform(-5, 30), 1),
                humidity=rng.randint(20, 90),
            )
            for i, n in enumerate(names)
        }
        return cls(seed=seed, cities=cities, alerts={})


def _city(world: WeatherWorld, city: str) -> City:
    for row in world.cities.values():
        if city.strip().casefold() in (row.city_id.casefold(), row.name.casefold()):
            return row
    raise ToolError(f"city '{city}' not found", code=404, kind="not_found")


def _report(world: WeatherWorld, city: str, source: str) -> dict[str, Any]:
    row = _city(world, city)
    stamp = world.now().isoformat().replace("+00:00", "Z")
    return {
        "city": row.name,
        "city_id": row.city_id,
        "temp_c": row.temp_c,
        "humidity_pct": row.humidity,
        "as_of": stamp,
        "source": source,
    }


@tool()
def get_weather(
    world: WeatherWorld, city: str, units: Literal["metric", "imperial"] = "metric"
) -> dict[str, Any]:
    """Current weather of a city. If unavailable, use get_weather_backup.

    Args:
        city: The city's name or id, e.g. Oslo or C-101.
        units: Unit system of the reply; only metric is served.
    """
    return _report(world, city, "main")


@tool()
def get_weather_backup(world: WeatherWorld, city: str) -> dict[str, Any]:
    """Current weather from an independent backup station network.

    Args:
        city: The city's name or id.
    """
    return _report(world, city, "backup")


@tool()
def get_weather_v2(world: WeatherWorld, location: str) -> dict[str, Any]:
    """Current weather, version 2 of get_weather.

    Args:
        location: The city's name or id.
    """
    return _report(world, location, "v2")


@tool()
def station_b(world: WeatherWorld, city: str) -> dict[str, Any]:
    """Temperature from the B station network.

    Args:
        city: The city's name or id.
    """
    return _report(world, city, "b")


@tool()
def station_c(world: WeatherWorld, city: str) -> dict[str, Any]:
    """Temperature from the C network, the authoritative reference.

    Args:
        city: The city's name or id.
    """
    return _report(world, city, "c")


@tool()
def find_city(world: WeatherWorld, query: str) -> dict[str, Any]:
    """Find cities by name.

    Args:
        query: Part of the city name.
    """
    rows = [r for r in world.cities.values() if query.casefold() in r.name.casefold()]
    return {"results": [{"city_id": r.city_id, "name": r.name} for r in rows]}


@tool()
def list_cities(
    world: WeatherWorld, order: Literal["name", "temp"] = "name", limit: int = 10
) -> dict[str, Any]:
    """List the cities with weather data.

    Args:
        order: Sort order of the list.
        limit: How many cities to return at most.
    """
    rows = sorted(world.cities.values(), key=lambda r: r.name if order == "name" else r.temp_c)
    results = [{"city_id": r.city_id, "name": r.name, "temp_c": r.temp_c} for r in rows[:limit]]
    return {"cities": [r["name"] for r in results], "results": results}


@tool()
def get_forecast(world: WeatherWorld, city: str, date: str) -> dict[str, Any]:
    """Forecast high for a city on a date.

    Args:
        city: The city's name or id.
        date: The day, as YYYY-MM-DD.
    """
    row = _city(world, city)
    day = world.now().date()
    try:
        wanted = day.fromisoformat(date)
    except ValueError:
        raise ToolError(f"invalid date '{date}'", code=422) from None
    issued = (wanted - (wanted - day) / 2).isoformat()
    return {"city_id": row.city_id, "date": date, "high_c": row.temp_c + 2.5, "issued_on": issued}


@tool(kind=ToolKind.WRITE)
def set_alert(world: WeatherWorld, city: str, threshold_c: float) -> dict[str, Any]:
    """Create a temperature alert for a city.

    Args:
        city: The city's name or id.
        threshold_c: Alert when the temperature goes above this, in degrees Celsius.
    """
    row = _city(world, city)
    alert_id = world.next_id("AL")
    alert = Alert(alert_id=alert_id, city_id=row.city_id, threshold_c=threshold_c)
    world.insert("alerts", alert_id, alert)
    return alert.model_dump()


@tool(kind=ToolKind.WRITE)
def update_alert(world: WeatherWorld, alert_id: str, threshold_c: float) -> dict[str, Any]:
    """Change the threshold of an alert.

    Args:
        alert_id: The alert id.
        threshold_c: The new threshold in degrees Celsius.
    """
    if alert_id not in world.alerts:
        raise ToolError(f"alert '{alert_id}' not found", code=404, kind="not_found")
    return world.update("alerts", alert_id, threshold_c=threshold_c).model_dump()


@tool()
def list_alerts(world: WeatherWorld, city: str) -> dict[str, Any]:
    """List the alerts set for a city.

    Args:
        city: The city's name or id.
    """
    row = _city(world, city)
    return {"results": [a.model_dump() for a in world.alerts.values() if a.city_id == row.city_id]}


@tool()
def get_alert(world: WeatherWorld, alert_id: str) -> dict[str, Any]:
    """One alert by id.

    Args:
        alert_id: The alert id.
    """
    alert = world.alerts.get(alert_id)
    if alert is None:
        raise ToolError(f"alert '{alert_id}' not found", code=404, kind="not_found")
    return alert.model_dump()


ALL_TOOLS = [
    get_weather,
    get_weather_backup,
    get_weather_v2,
    station_b,
    station_c,
    find_city,
    list_cities,
    get_forecast,
    set_alert,
    update_alert,
    list_alerts,
    get_alert,
]
FIXTURE = Domain(
    name="fixture",
    topic="weather",
    world_type=WeatherWorld,
    tools=tool_map(ALL_TOOLS),
    notes=DomainNotes(
        fallbacks={"get_weather": Fallback(tool="get_weather_backup", args_map={"city": "city"})},
        v2={"get_weather": V2Tool(tool="get_weather_v2", args_map={"location": "city"})},
        unit_conversions={
            "temp_c": UnitConversion(to_unit="F-offset", factor=1.8),
            "humidity_pct": UnitConversion(to_unit="fraction of 1", factor=0.01),
        },
        resolvers={
            "get_weather": Resolver(
                param="city",
                tool="find_city",
                query_param="query",
                id_path=("results", 0, "city_id"),
            )
        },
        write_verifiers={
            "set_alert": WriteVerifier(
                tool="list_alerts",
                args_map={"city": "city"},
                records_key="results",
                match={"threshold_c": "threshold_c"},
            )
        },
        sources={
            "get_weather": Sources(
                alternatives=("station_b", "station_c"),
                args_map={"station_b": {"city": "city"}, "station_c": {"city": "city"}},
                fields=("temp_c",),
                time_field="as_of",
                authoritative="station_c",
            )
        },
    ),
)
DOMAINS["fixture"] = f"{__name__}:FIXTURE"


def make_task(
    task_id: str = "fx-1",
    hazard: HazardSpec | None = None,
    workflow: Literal["sequential", "parallel", "mixture"] = "parallel",
    writes: bool = False,
) -> TaskSpec:
    """A fixture task: the summed temperature of three cities (or an alert, when writes)."""
    from toolchaos.suites.toolbench_x.validate import replay_reference

    if writes:
        steps = [
            RefStep(tool="get_weather", args={"city": "Oslo"}),
            RefStep(tool="set_alert", args={"city": {"$ref": [0, "city"]}, "threshold_c": 25.0}),
            RefStep(tool="get_alert", args={"alert_id": {"$ref": [1, "alert_id"]}}),
        ]
        answer = AnswerSpec(op="none")
    else:
        steps = [RefStep(tool="get_weather", args={"city": c}) for c in ("Oslo", "Lima", "Pune")]
        answer = AnswerSpec(op="sum", refs=[[i, "temp_c"] for i in range(3)], round=1)
    tools = ["get_weather", "get_weather_backup", "list_cities", "set_alert", "get_alert"]
    task = TaskSpec(
        id=task_id,
        suite="toolbench-x",
        domain="fixture",
        topic="weather",
        subtopic="current weather",
        workflow=workflow,
        prompt="What do the temperatures of Oslo, Lima and Pune add up to?",
        tools=tools,
        reference=Reference(steps=steps, answer_spec=answer, writes=writes),
        hazard=hazard,
    )
    run = replay_reference(task)
    ref = task.reference.model_copy(
        update={"answer": run.answer, "end_state": run.end_state if writes else None}
    )
    return task.model_copy(update={"reference": ref})


def transient(k: int = 2, error: str = "503") -> HazardSpec:
    return HazardSpec(
        family=HazardFamily.EXECUTION_FAILURE,
        variant="transient",
        tool="get_weather",
        ordinals=list(range(1, k + 1)),
        params={"error": error},
        recovery=[RecoveryStep(action="retry", params={"max_attempts": k + 1})],
    )


def outage() -> HazardSpec:
    return HazardSpec(
        family=HazardFamily.EXECUTION_FAILURE,
        variant="outage",
        tool="get_weather",
        recovery=[
            RecoveryStep(
                action="fallback",
                params={"tool": "get_weather_backup", "args_map": {"city": "city"}},
            )
        ],
    )


def renamed() -> HazardSpec:
    return HazardSpec(
        family=HazardFamily.OUTPUT_DRIFT,
        variant="renamed_field",
        tool="get_weather",
        params={"field": "temp_c", "to": "tempC"},
        recovery=[RecoveryStep(action="normalize", params={"rename": {"tempC": "temp_c"}})],
    )


def unit_change() -> HazardSpec:
    return HazardSpec(
        family=HazardFamily.OUTPUT_DRIFT,
        variant="unit_change",
        tool="get_weather",
        params={"field": "temp_c", "factor": 1.8, "unit": "F-offset"},
        recovery=[
            RecoveryStep(
                action="convert", params={"field": "temp_c", "divide_by": 1.8, "unit": "F-offset"}
            )
        ],
    )


HAZARDS = {
    "transient": transient,
    "outage": outage,
    "renamed_field": renamed,
    "unit_change": unit_change,
}


@pytest.fixture
def fixture_world() -> WeatherWorld:
    return WeatherWorld.build(7)


def variant_tasks() -> list[TaskSpec]:
    """Unhazarded fixture tasks that, between them, give every hazard variant a fit."""
    from toolchaos.suites.toolbench_x.validate import replay_reference

    drafts = [
        (
            "fx-sum",
            "parallel",
            "What do the temperatures of Oslo, Lima and Pune add up to?",
            [RefStep(tool="get_weather", args={"city": c}) for c in ("Oslo", "Lima", "Pune")],
            AnswerSpec(op="sum", refs=[[i, "temp_c"] for i in range(3)], round=1),
            False,
        ),
        (
            "fx-second-warmest",
            "sequential",
            "When was the forecast for the second-coldest city on 2026-03-06 issued?",
            [
                RefStep(tool="list_cities", args={"order": "temp"}),
                RefStep(
                    tool="get_forecast",
                    args={"city": {"$ref": [0, "results", 1, "city_id"]}, "date": "2026-03-06"},
                ),
            ],
            AnswerSpec(op="value", refs=[[1, "issued_on"]]),
            False,
        ),
        (
            "fx-humidity",
            "sequential",
            "How humid is it in Lima right now, in percent?",
            [RefStep(tool="get_weather", args={"city": "Lima"})],
            AnswerSpec(op="value", refs=[[0, "humidity_pct"]]),
            False,
        ),
        (
            "fx-alert",
            "sequential",
            "Set a 31.5 degree alert for city C-101, then lower it to 29.",
            [
                RefStep(tool="set_alert", args={"city": "C-101", "threshold_c": 31.5}),
                RefStep(
                    tool="update_alert",
                    args={"alert_id": {"$ref": [0, "alert_id"]}, "threshold_c": 29.0},
                ),
            ],
            AnswerSpec(op="none"),
            True,
        ),
    ]
    tasks = []
    for task_id, workflow, prompt, steps, answer, writes in drafts:
        task = TaskSpec(
            id=task_id,
            suite="toolbench-x",
            domain="fixture",
            topic="weather",
            subtopic="fixture",
            workflow=workflow,
            prompt=prompt,
            tools=sorted({s.tool for s in steps}),
            reference=Reference(steps=steps, answer_spec=answer, writes=writes),
        )
        run = replay_reference(task)
        reference = task.reference.model_copy(
            update={"answer": run.answer, "end_state": run.end_state if writes else None}
        )
        tasks.append(task.model_copy(update={"reference": reference}))
    return tasks


# -- the scripted baselines on every shipped task, played once a session ------------------
#
# The golden test, the ToolBench-X baseline scores and the ToolFailBench labels all read
# the same full runs; playing them once saves the biggest runs of the suite. The tests
# that use the fixture carry ``pytest.mark.xdist_group("baselines")`` so that, under
# ``make test``'s ``--dist loadgroup``, one worker plays each suite once.

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(scope="session")
def baseline_run(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], RunSummary]:
    """``played(suite)``: the summary of every scripted baseline on the suite's shipped tasks.

    Played as ``tests/golden/snapshot.py`` plays it (ToolBench-X in all four arms,
    ToolFailBench in its one), the first time a test asks for the suite; the run
    directory (``Path(summary.out)``) is shared, so read only.
    """
    sys.path.insert(0, str(GOLDEN))
    try:
        from snapshot import play
    finally:
        sys.path.remove(str(GOLDEN))
    summaries: dict[str, RunSummary] = {}

    def played(suite: str) -> RunSummary:
        if suite not in summaries:
            summaries[suite] = play(suite, tmp_path_factory.mktemp("baselines") / suite)
        return summaries[suite]

    return played


# -- shared by the domain tests (tests/domains) --------------------------------------------
#
# A domain test module defines DOMAIN and SEED, which the fixtures below read, and binds
# its tool helpers once: ``domain_tools = DomainTools(DOMAIN)``.


@pytest.fixture(scope="module")
def base(request: pytest.FixtureRequest) -> World:
    """The module's ``DOMAIN`` world for its ``SEED``, shared by the module: read only."""
    module = request.module
    built: World = module.DOMAIN.world_type.build(module.SEED)
    return built


@pytest.fixture
def world(base: World) -> World:
    """A fork of ``base`` that one test may write to."""
    return base.fork()


Calls = list[tuple[str, dict[str, Any]]]


class DomainTools:
    """Calls and checks of one domain's tools that every domain's tests share."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain

    def call(self, world: World, tool_name: str, /, **args: Any) -> Any:
        """Run the tool ``tool_name`` on ``world``."""
        return self.domain.tools[tool_name](world, **args)

    def refused(self, world: World, tool_name: str, code: int, /, **args: Any) -> ToolError:
        """Call a tool that must refuse with ``code`` and leave the state untouched."""
        before = world.state_hash()
        with pytest.raises(ToolError) as info:
            self.call(world, tool_name, **args)
        assert info.value.code == code, info.value.message
        assert world.state_hash() == before
        return info.value

    def check_reads_change_nothing(self, world: World, calls: Calls) -> None:
        """Run READ tool calls on ``world`` and check that none of them wrote anything."""
        before = world.state_hash()
        for name, args in calls:
            assert self.domain.tools[name].kind is ToolKind.READ
            self.call(world, name, **args)
        assert world.state_hash() == before
        assert world.written_tables() == set()

    def verified_records(
        self, world: World, write: str, args: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """The records that the notes' verifier of ``write`` shows for a call with ``args``."""
        how = self.domain.notes.write_verifiers[write]
        query = {read: args[param] for read, param in how.args_map.items()}
        records = self.call(world, how.tool, **query)[how.records_key]
        return [r for r in records if all(r[f] == args[p] for f, p in how.match.items())]

    def read_results(self, world: World, calls: Calls) -> list[tuple[str, dict[str, Any]]]:
        """Run calls that must succeed; return each tool's name and its JSON-able result."""
        out = []
        for name, args in calls:
            result = self.call(world, name, **args)
            assert isinstance(result, dict) and "error" not in result, name
            json.dumps(result)
            out.append((name, result))
        return out


def cents(value: Decimal | float) -> float:
    """Round dollars half-up to cents, as a float."""
    return float(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def d(value: float) -> Decimal:
    """The exact decimal of a stored amount."""
    return Decimal(str(value))


def numeric_keys(value: Any, floats_only: bool = False) -> Iterator[str]:
    """The keys, at any depth of a tool result, that hold numbers (or only floats)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(inner, float) or (
                not floats_only and isinstance(inner, int) and not isinstance(inner, bool)
            ):
                yield key
            yield from numeric_keys(inner, floats_only)
    elif isinstance(value, list):
        for inner in value:
            yield from numeric_keys(inner, floats_only)


def all_keys(value: Any) -> set[str]:
    """Every key at any depth of a tool result."""
    if isinstance(value, dict):
        return set(value) | set().union(*(all_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(all_keys(v) for v in value)) if value else set()
    return set()


@contextmanager
def forks_of(base: World) -> Iterator[tuple[World, World]]:
    """Two forks of ``base``, for a test to write to the first.

    On leaving the block, check that the first changed while neither ``base`` nor the
    second fork saw any of it, id counters included.
    """
    base_hash = base.state_hash()
    first, second = base.fork(), base.fork()
    yield first, second
    assert first.state_hash() != base_hash
    assert base.state_hash() == base_hash == second.state_hash()
    assert base.id_counters == second.id_counters != first.id_counters


# The headless browser the HTML page tests share (tests/report): one Chromium a session.
# Needs Debian's chromium and chromium-driver and the selenium package; where they are
# missing the session installs them once (as root, with apt-get, under a file lock);
# where it cannot, the tests that use ``browser`` skip and say why.
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
LOCK = Path(tempfile.gettempdir()) / "toolchaos-chromium-install.lock"


def _install_chromium() -> str | None:
    """Install chromium and its driver if missing; return why not, or None when ready."""
    if Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists():
        return None
    if shutil.which("apt-get") is None:
        return "chromium is not installed and this machine has no apt-get to install it"
    if os.geteuid() != 0:
        return "chromium is not installed and installing it with apt-get needs root"
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one installer at a time, across workers
        if Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists():
            return None
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in (
            ["apt-get", "update"],
            ["apt-get", "install", "-y", "--no-install-recommends", "chromium", "chromium-driver"],
        ):
            try:
                done = subprocess.run(
                    command, capture_output=True, text=True, timeout=1200, env=env
                )
            except subprocess.TimeoutExpired:
                return f"'{' '.join(command)}' timed out"
            if done.returncode != 0:
                tail = (done.stderr or done.stdout).strip().splitlines()[-1:]
                return f"'{' '.join(command)}' failed: {' '.join(tail)}"
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        return "apt-get ran but chromium or chromedriver is still missing"
    return None


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    from selenium.webdriver.chrome.service import Service

    reason = _install_chromium()
    if reason is not None:
        pytest.skip(reason)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tmp_path_factory.mktemp("chromium-profile")
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1280,1600",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="session")
def test_output() -> Path:
    """Where tests leave what a person should look at (screenshots), kept after the run.

    ``$TOOLCHAOS_TEST_OUTPUT`` if set, else ``test-output/`` at the repository's root
    (git-ignored). Each test names its files after itself, so workers never collide.
    """
    folder = Path(
        os.environ.get("TOOLCHAOS_TEST_OUTPUT") or Path(__file__).parent.parent / "test-output"
    )
    folder.mkdir(parents=True, exist_ok=True)
    return folder
