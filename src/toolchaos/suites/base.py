"""The one place a benchmark plugs in: what a suite is and what it contributes.

A suite is a :class:`Suite`: its name, its shipped task file and task model, the arms and
protocols it plays, its scripted baselines, the options it takes (``-T key=value``, a
pydantic model), how an episode's env is built, how its task set is built, and what it
adds to a report (a :class:`SuiteReport`). The generic layers
(runner, report, scripted provider, CLI) reach a suite only through this interface and
the registry in :mod:`toolchaos.suites`; they never import a suite's own modules.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import (
    Awaitable,
    Callable,
    Collection,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from toolchaos.agents.native import LoopConfig, LoopResult
from toolchaos.core.errors import BadInput
from toolchaos.core.types import TaskSpec
from toolchaos.env.base import EpisodeEnv
from toolchaos.models.base import ModelClient

if TYPE_CHECKING:
    import pandas as pd
    from rich.console import Console

    from toolchaos.scoring.judging import JudgeTally
    from toolchaos.suites.review import ReviewDesk

TaskT = TypeVar("TaskT", bound=BaseModel)
EnvT = TypeVar("EnvT", bound=EpisodeEnv)

EpisodeProtocol = Callable[[TaskT, str, EnvT, ModelClient, LoopConfig], Awaitable[LoopResult]]
"""A protocol: ``async (task, arm, env, client, config) -> LoopResult``."""

Baseline = Callable[[TaskT, str], ModelClient]
"""A scripted baseline: ``(task, mode) -> client`` playing that task in that mode."""

CellLink = Callable[[Mapping[str, Any], str], dict[str, str] | None]
"""Given a table row and a column, the trace-viewer filter of the episodes behind the cell
(keys ``model``, ``arm``, ``family``, ``workflow``, ``label``), or None. The report adds
the table's suite."""


@dataclass
class ReportTable:
    """One table of a report: a file name stem, a title, the data and its cell links.

    ``suite`` names the suite whose episodes stand behind every cell (the report sets it
    for a suite's own tables), so a cell's link opens that suite's episodes only; a table
    with a ``suite`` column links each row to its own suite instead.
    """

    name: str
    title: str
    frame: pd.DataFrame
    link: CellLink | None = None
    note: str = ""
    suite: str = ""


@dataclass
class FigureSpec:
    """One figure of a report: drawn on a fresh matplotlib Figure by ``draw``."""

    name: str
    title: str
    draw: Callable[[Any], None]
    size: tuple[float, float] = (8.0, 4.5)
    rendered: dict[str, bytes] = field(default_factory=dict, repr=False, compare=False)


def _empty_frame() -> pd.DataFrame:
    import pandas as pd  # pandas costs 0.2 s to import: not at the start of every command

    return pd.DataFrame()


@dataclass
class Contribution:
    """A suite's part of a report.

    ``headline`` holds the few numbers that matter most, one line each (a title line,
    then one line per model), which a report ends with and ``report --summary`` prints.
    """

    tables: list[ReportTable] = field(default_factory=list)
    figures: list[FigureSpec] = field(default_factory=list)
    labels: pd.DataFrame = field(default_factory=_empty_frame)
    notes: list[str] = field(default_factory=list)
    headline: list[str] = field(default_factory=list)


class EpisodeReader(Protocol):
    """What a suite's report may read from a run's store (``runner.store.Store`` has it)."""

    def episode_json(
        self, *, arms: Collection[str] | None = None, keys: Collection[str] | None = None
    ) -> Iterator[tuple[str, str]]:
        """``(key, stored JSON)`` of stored episodes, in key order."""
        ...

    def judgements(self, earlier: bool = False) -> list[dict[str, Any]]:
        """Every stored judge label (``earlier``: those a re-judging replaced)."""
        ...

    def get_meta(self, key: str) -> str | None:
        """One run metadata value."""
        ...


@dataclass
class RunData:
    """What one run directory holds for one suite: its tasks, scored episodes, model entries."""

    run: str
    store: EpisodeReader
    tasks: dict[str, Any]
    frame: pd.DataFrame
    entries: dict[str, Any] = field(default_factory=dict)


class ReportOptions(BaseModel):
    """Report settings a suite may read (each suite ignores what is not its own).

    Attributes:
        thresholds: ToolBench-X failure-behaviour thresholds as the CLI takes them
            (``default``, ``median`` or ``TAU_A,TAU_R``), or an already parsed rule.
        rules: ToolFailBench: the rule set the rule classifier labels with (``toolchaos``
            or ``paper``); the report names it.
    """

    model_config = {"arbitrary_types_allowed": True}

    thresholds: Any = None
    rules: str = "toolchaos"


class SuiteReport(Protocol):
    """The report contributor of one suite (built fresh for every report)."""

    def score(
        self, summaries: list[dict[str, Any]], tasks: Mapping[str, Any], store: EpisodeReader
    ) -> pd.DataFrame:
        """Score the suite's episode summaries of one run: one row per episode.

        The frame has at least the columns the shared tables read
        (:mod:`toolchaos.scoring.tables`): key, suite, model, protocol, arm, task_id,
        sample, status, error, correct, vote_key, family, workflow, and the usage columns.
        """
        ...

    def read_run(self, data: RunData) -> None:
        """Read what the suite needs from one run while its store is open."""
        ...

    def finish(self, frame: pd.DataFrame) -> Contribution:
        """Compute the suite's tables from its scored episodes of every run."""
        ...


class BuildOptions(BaseModel):
    """How to build a suite's task set.

    Attributes:
        seed: The generation seed (same seed, same bytes).
        per_cell: ToolBench-X: tasks per (subtopic, workflow type).
        keep_all: ToolBench-X: keep every validated task instead of the shipped sizes.
    """

    seed: int = 0
    per_cell: int = 5
    keep_all: bool = False


class BuildResult(BaseModel):
    """A built task set and its build report (written beside it as FILE.build.json)."""

    model_config = {"arbitrary_types_allowed": True}

    tasks: list[Any]
    report_json: str
    summary: str
    warnings: list[str] = []


class Problem(BaseModel):
    """One validator's finding about one task."""

    task_id: str
    check: str
    reason: str


class NoOptions(BaseModel):
    """The options of a suite that declares none."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class Ranking:
    """What a suite's leaderboard ranks models by, for the noise-floor tables.

    Args:
        metric: Its name in the report (``CTUR``).
        where: Scored-frame columns and the value an episode must have to count
            (``{"arm": "hazard"}``); a leaderboard per arm among what is left.
        table: The name of the suite's own report table that ranks or compares the
            models in full (``toolfailbench_leaderboard``), shown under the ranking on
            the leaderboard site's index; empty for none.
    """

    metric: str = "accuracy"
    where: Mapping[str, str] = field(default_factory=dict)
    table: str = ""


@dataclass(frozen=True)
class Suite(Generic[TaskT, EnvT]):
    """A benchmark suite.

    Args:
        name: The suite's CLI name (``toolbench-x``).
        package: The package whose ``data/`` folder holds the shipped tasks.
        data_file: The file name of the shipped task set inside ``data/``.
        arms: The arms this suite runs by default.
        task_model: The pydantic model of one stored task (one JSONL line).
        protocol: The protocol its episodes play by default.
        protocols: Every protocol it can play, by the name ``--protocol`` takes.
        baselines: Its scripted baselines by mode (``scripted/<mode>``).
        baseline_fallback: The mode that plays a mode this suite does not have (another
            suite's baseline), or None to refuse it.
        label_order: The order its per-episode labels are offered in the trace viewer
            (labels not named here follow, sorted).
        version: The name of the shipped task set's version (``v2``).
        versions: Earlier shipped task sets still loadable, by version name: their file
            inside ``data/`` (``{"v1": "v1/tasks.jsonl"}``).
        options_model: The pydantic model of the options it takes, as ``toolchaos run
            SUITE -T key=value`` and the Inspect task ``toolchaos/suite`` give them (each
            field an option; its description is its help).
        options: The options set on this suite (:meth:`with_options`); None: the model's
            defaults (:attr:`settings`).
        ranking: What its leaderboard ranks by (the report's noise-floor tables).
    """

    name: str
    package: str
    data_file: str
    arms: tuple[str, ...]
    task_model: type[TaskT]
    protocol: str
    protocols: Mapping[str, EpisodeProtocol[TaskT, EnvT]]
    baselines: Mapping[str, Baseline[TaskT]] = field(default_factory=dict)
    baseline_fallback: str | None = None
    label_order: tuple[str, ...] = ()
    version: str = "v1"
    versions: Mapping[str, str] = field(default_factory=dict)
    options_model: type[BaseModel] = NoOptions
    options: BaseModel | None = None
    ranking: Ranking = field(default_factory=Ranking)

    @property
    def settings(self) -> BaseModel:
        """The options this suite plays with: those set, else the model's defaults."""
        return self.options if self.options is not None else self.options_model()

    def parse_options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Check ``-T`` options against :attr:`options_model`; return those not at default.

        Values may be strings (as a command line gives them): the model converts them.
        The result is JSON data, so two spellings of one setting (``-T n=3`` and the
        default left out) give one run fingerprint.

        Raises:
            BadInput: One sentence naming an option the suite does not take, or a value
                its model refuses and why.
        """
        fields = self.options_model.model_fields
        for key in values:
            if key not in fields:
                if not fields:
                    raise BadInput(f"suite {self.name} takes no -T options (-T {key}=...)")
                known = "; ".join(_option_help(name, info) for name, info in fields.items())
                raise BadInput(f"suite {self.name} has no option {key!r}; its options: {known}")
        try:
            parsed = self.options_model.model_validate(dict(values))
        except ValidationError as exc:
            first = exc.errors()[0]
            key = ".".join(str(p) for p in first["loc"]) or "options"
            given = values.get(str(first["loc"][0]), "") if first["loc"] else ""
            raise BadInput(
                f"suite {self.name}: -T {key}={given} is refused: {first['msg'][:1].lower()}"
                f"{first['msg'][1:]}"
            ) from None
        found: dict[str, Any] = parsed.model_dump(mode="json", exclude_defaults=True)
        return found

    def with_options(self, values: Mapping[str, Any]) -> Suite[TaskT, EnvT]:
        """This suite with ``values`` as its options (itself when every one is a default).

        Raises:
            BadInput: See :meth:`parse_options`.
        """
        chosen = self.parse_options(values)
        if not chosen and self.options is None:
            return self
        return dataclasses.replace(self, options=self.options_model.model_validate(chosen))

    def default_path(self) -> Path:
        """The path of the task file shipped inside the installed package."""
        return Path(str(resources.files(self.package).joinpath("data", self.data_file)))

    def version_path(self, version: str) -> Path:
        """The shipped task file of ``version`` (the current one, or an earlier one kept).

        Raises:
            BadInput: The suite ships no task set of that version.
        """
        if version == self.version:
            return self.default_path()
        if version not in self.versions:
            known = ", ".join([self.version, *self.versions])
            raise BadInput(f"suite {self.name} has no dataset {version!r}; it ships {known}")
        parts = self.versions[version].split("/")
        return Path(str(resources.files(self.package).joinpath("data", *parts)))

    def load(self, path: Path | None = None) -> list[TaskT]:
        """Load the shipped task set, or the task file at ``path``."""
        return load_jsonl(path or self.default_path(), self.task_model, self.name)

    def parse_task(self, text: str) -> TaskT:
        """One stored task of this suite, from its JSON."""
        return self.task_model.model_validate_json(text)

    def make_env(self, task: TaskT, arm: str) -> EnvT:
        """The environment one episode of ``task`` plays in."""
        raise NotImplementedError

    def prepare(self, tasks: Sequence[TaskT]) -> None:
        """Build what the episodes of ``tasks`` share, before the first one plays.

        The runner calls it once before its episodes start, so a first episode does not
        stall the others in flight while it builds (by default there is nothing to build).
        """

    def stratum(self, task: TaskT) -> tuple[str, str]:
        """The stratum a stratified subset spreads ``task`` over."""
        return ("", "")

    def describe(self, task: TaskT) -> list[str]:
        """How ``toolchaos tasks`` lists ``task`` after its id: a headline, then details.

        Plain text (never markup), one string a line.
        """
        return [str(getattr(task, "prompt", ""))]

    def task_facets(self, task: TaskT) -> dict[str, set[str]]:
        """The values ``task`` has for each filter ``toolchaos tasks`` offers.

        Keys are the filters' option names without dashes (``type``, ``hazard``,
        ``subtopic``, ``domain``, ``mode``); a filter the suite does not name is refused.
        """
        return {}

    def task_stats(self, tasks: Sequence[TaskT]) -> dict[str, Any]:
        """What ``toolchaos tasks --stats`` prints: ``n`` and counts by the suite's facets."""
        return {"n": len(tasks)}

    def baseline(self, task: TaskT, mode: str) -> ModelClient:
        """A fresh scripted baseline in ``mode`` playing ``task``."""
        maker = self.baselines.get(mode)
        if maker is None and self.baseline_fallback is not None:
            maker = self.baselines[self.baseline_fallback]
        if maker is None:
            raise BadInput(f"suite {self.name} has no scripted baseline {mode!r}")
        return maker(task, mode)

    def report(self, options: ReportOptions) -> SuiteReport | None:
        """This suite's report contributor, or None (its episodes are left out, with a note)."""
        return None

    def build(self, options: BuildOptions) -> BuildResult:
        """Build this suite's task set (the shipped one with the default options)."""
        raise BadInput(f"suite {self.name} cannot be built")

    def validate(self, task: TaskT) -> list[Problem]:
        """The shipping validators' problems with ``task`` (none: it passes)."""
        return []

    def validate_set(self, tasks: Sequence[TaskT]) -> list[Problem]:
        """Problems only the whole set shows (a task that repeats another); none here."""
        return []

    def judge(
        self,
        directory: Path,
        judges: list[Any],
        concurrency: int,
        limit: int | None,
        rubric: str | None = None,
        console: Console | None = None,
        rejudge: bool = False,
    ) -> JudgeTally:
        """Have LLM judges label this suite's stored episodes of a run (a bar on ``console``).

        ``rubric`` names the judges' rubric where the suite has more than one; ``rejudge``
        relabels a run other judges labelled, keeping their labels to compare. Returns how
        many episodes were judged and how many of each judge's replies held a verdict.
        """
        raise BadInput(f"suite {self.name} has no LLM judges")

    def review_desk(self) -> ReviewDesk:
        """What ``toolchaos review`` shows and records for this suite's tasks.

        A :class:`toolchaos.suites.review.ReviewDesk`; a suite without one refuses.
        """
        raise BadInput(f"suite {self.name} has no human review workflow")

    def dataset_hash(self, path: Path) -> str:
        """SHA-256 of the task file (or of every file of a task directory, in order)."""
        if path.is_dir():
            digest = hashlib.sha256()
            for file in sorted(p for p in path.rglob("*") if p.is_file()):
                digest.update(str(file.relative_to(path)).encode())
                digest.update(file.read_bytes())
            return digest.hexdigest()
        return file_hash(path)


def _option_help(name: str, info: Any) -> str:
    """One option as an error lists it: ``budget (int, default 6): what it sets``."""
    kind = getattr(info.annotation, "__name__", str(info.annotation))
    default = "" if info.is_required() else f", default {info.default!r}"
    about = f": {info.description}" if info.description else ""
    return f"{name} ({kind}{default}){about}"


T = TypeVar("T", bound=BaseModel)


def load_jsonl(path: Path, model: type[T], suite: str | None = None) -> list[T]:
    """Read a JSONL task file of ``model`` rows.

    Any bad line raises BadInput naming the file, the line and the field; so do a task of
    another suite, a repeated id and an empty file.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BadInput(f"task file {path} does not exist") from None
    except OSError as exc:
        raise BadInput(f"cannot read task file {path}: {exc.strerror or exc}") from None
    tasks: list[T] = []
    seen: set[str] = set()
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadInput(
                f"{path}, line {number}: not UTF-8 text (byte {exc.start + 1} of the line)"
            ) from None
        if not line.strip():
            continue
        try:
            task = model.model_validate_json(line)
        except ValidationError as exc:
            _refuse_other_shape(path, number, line, suite)
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            if not re.fullmatch(r"[\w.-]+", where):  # a field named oddly: show it quoted
                where = json.dumps(where)
            problem = first["msg"]
            if first["type"].startswith("json"):
                raise BadInput(f"{path}, line {number}: not valid JSON ({problem})") from None
            raise BadInput(f"{path}, line {number}, field {where}: {problem}") from None
        task_suite, task_id = getattr(task, "suite", None), str(getattr(task, "id", ""))
        if suite is not None and task_suite != suite:
            if _is_suite(task_suite):
                raise BadInput(_other_suite(path, number, str(task_suite), suite))
            raise BadInput(f"{path}, line {number}, field suite: {task_suite!r} is not {suite!r}")
        if task_id in seen:
            raise BadInput(f"{path}, line {number}, field id: duplicate task id {task_id!r}")
        seen.add(task_id)
        tasks.append(task)
    if not tasks:
        raise BadInput(f"task file {path} holds no tasks")
    return tasks


def _refuse_other_shape(path: Path, number: int, line: str, suite: str | None) -> None:
    """Name in plain words a line that is no task of ``suite`` at all.

    A JSON array (a whole task list on one line, or the ``[`` that opens one) and a task
    of another suite get a sentence of their own instead of the first field that fails.
    """
    if line.lstrip().startswith("["):
        raise BadInput(
            f"{path}, line {number}: a JSON array; expected one task per line (JSONL), each "
            "a JSON object"
        )
    try:
        named = json.loads(line).get("suite")
    except (ValueError, AttributeError):
        return
    if suite is not None and named != suite and _is_suite(named):
        raise BadInput(_other_suite(path, number, str(named), suite))


def _is_suite(name: object) -> bool:
    """Tell whether ``name`` is a registered suite's (a misspelt one is a field error)."""
    from toolchaos.suites import SUITES  # the registry imports this module

    return isinstance(name, str) and name in SUITES


def _other_suite(path: Path, number: int, named: str, suite: str) -> str:
    """The sentence for a task file of another suite than the one it was given to."""
    return (
        f"{path}: this is a {named} task file, not a {suite} one (line {number} is a {named} task)"
    )


def to_jsonl(tasks: Iterable[BaseModel]) -> str:
    """Serialize tasks as JSONL, one task a line, in id order (byte-stable)."""
    ordered = sorted(tasks, key=lambda t: str(getattr(t, "id", "")))
    return "".join(t.model_dump_json() + "\n" for t in ordered)


def load_tasks(path: Path, suite: str | None = None) -> list[TaskSpec]:
    """Read a ToolBench-X JSONL task file (see :func:`load_jsonl`)."""
    return load_jsonl(path, TaskSpec, suite)


def stratified_order(
    tasks: list[Any], stratum: Callable[[Any], tuple[str, str]], seed: int = 0
) -> list[Any]:
    """Every task, in rounds over the suite's strata (``stratum``), shuffled with a seed.

    A stratum is a pair (outer, inner): ToolBench-X's (workflow type, hazard family),
    ToolFailBench's (domain, target mode). Each round takes the next task of every
    stratum (each stratum's tasks shuffled with the seed), in :func:`_stratum_turns`
    order: outer values take turns and each one's inner values come least-used first.
    So a prefix of the order as long as the number of outer values holds each of them
    once, one as long as the number of strata holds every stratum, and any prefix is
    spread as evenly as the strata's sizes allow.
    """
    strata: dict[tuple[str, str], list[Any]] = {}
    for task in sorted(tasks, key=lambda t: t.id):
        strata.setdefault(stratum(task), []).append(task)
    rng = random.Random(seed)
    for key in sorted(strata):
        rng.shuffle(strata[key])
    queues = [strata[key] for key in _stratum_turns(list(strata))]
    order: list[Any] = []
    for depth in range(max((len(q) for q in queues), default=0)):
        order.extend(queue[depth] for queue in queues if depth < len(queue))
    return order


def _stratum_turns(keys: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The strata in the order each round visits them.

    Outer values take turns (in sorted order); at its turn, an outer value gives the
    stratum of its own not yet visited whose inner value has been visited least so
    far (ties by name), so the first turns cover the inner values too.
    """
    inner_of: dict[str, list[str]] = {}
    for outer, inner in sorted(keys):
        inner_of.setdefault(outer, []).append(inner)
    used: Counter[str] = Counter()
    turns: list[tuple[str, str]] = []
    while any(inner_of.values()):
        for outer, inners in inner_of.items():
            if not inners:
                continue
            inner = min(inners, key=lambda name: (used[name], name))
            inners.remove(inner)
            used[inner] += 1
            turns.append((outer, inner))
    return turns


def stratified_subset(
    tasks: list[Any], n: int, stratum: Callable[[Any], tuple[str, str]], seed: int = 0
) -> list[Any]:
    """``n`` tasks spread evenly over the suite's strata (``stratum``), chosen with a seed.

    The first ``n`` of :func:`stratified_order`, so a small subset still covers every
    workflow and hazard family; returned in id order.
    """
    return sorted(stratified_order(tasks, stratum, seed)[: max(n, 0)], key=lambda t: t.id)


def file_hash(path: Path) -> str:
    """SHA-256 of a file's bytes (recorded in every run manifest)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
