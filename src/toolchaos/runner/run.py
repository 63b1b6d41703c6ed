"""Run a plan: concurrent episodes, atomic commits, resume, progress and a manifest."""

from __future__ import annotations

import asyncio
import fcntl
import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, field_validator
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from toolchaos._version import __version__
from toolchaos.agents.native import LoopConfig
from toolchaos.core.errors import BadInput, HarnessFault
from toolchaos.core.jsonutil import digest, dumps
from toolchaos.core.types import Episode, EpisodeStatus, TaskSpec
from toolchaos.env.runtime import ARMS
from toolchaos.models.base import ModelFactory, make_factory
from toolchaos.models.config import ModelEntry
from toolchaos.models.transport import ResponseCache
from toolchaos.runner.episode import play
from toolchaos.runner.plan import PlannedEpisode, make_plan
from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.suites import REGISTRY, get_suite
from toolchaos.suites.base import stratified_subset

MANIFEST_NAME = "manifest.json"
LOCK_NAME = ".lock"


class RunConfig(BaseModel):
    """Everything that defines a run; its fingerprint decides whether a directory resumes."""

    suite: str
    models: list[ModelEntry]
    arms: list[str] = Field(default_factory=lambda: ["clean", "hazard"])
    samples: int = 1
    limit: int | None = None
    concurrency: int = 8
    tasks_path: str | None = None
    loop: LoopConfig = Field(default_factory=LoopConfig)
    retry_errors: bool = False
    cache_path: str | None = None
    protocol: str = ""  # empty: the suite's own protocol
    subset: int | None = None
    workers: int = 1

    @field_validator("models", mode="before")
    @classmethod
    def _specs(cls, value: Any) -> Any:
        entries = [ModelEntry(spec=v) if isinstance(v, str) else v for v in value]
        return [
            e.model_copy(update=_default_group(e.spec))
            if isinstance(e, ModelEntry) and not e.tier
            else e
            for e in entries
        ]

    @property
    def specs(self) -> list[str]:
        """The model specs, in order."""
        return [m.spec for m in self.models]

    def fingerprint(self, dataset_hash: str) -> str:
        """A digest of what must match for a directory to resume this run."""
        return digest(
            {
                "suite": self.suite,
                "dataset": dataset_hash,
                "models": sorted(self.specs),
                "arms": sorted(self.arms),
                "samples": self.samples,
                "protocol": self.protocol,
                "loop": self.loop.model_dump(),
            }
        )


class RunSummary(BaseModel):
    """What a run did this time."""

    out: str
    planned: int
    skipped: int
    played: int
    errors: int
    seconds: float


def _default_group(spec: str) -> dict[str, str]:
    """Family and tier a spec gets when the user gave none."""
    if spec.startswith("scripted/"):
        return {"tier": "baseline", "family": "scripted"}
    if spec.startswith("local/"):
        return {"tier": "local", "family": spec.split("/", 1)[1].split("-")[0]}
    return {}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@contextmanager
def run_lock(directory: Path) -> Iterator[None]:
    """Hold an exclusive lock on a run directory, refusing a second process."""
    path = directory / LOCK_NAME
    handle = path.open("a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise BadInput(f"{directory} is in use by another toolchaos process") from None
    try:
        yield
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


def with_defaults(config: RunConfig) -> RunConfig:
    """Fill what the suite decides when the user did not: its protocol and arms."""
    suite = get_suite(config.suite)
    update: dict[str, Any] = {}
    if not config.protocol:
        update["protocol"] = suite.protocol
    if suite.arms == ("clean",):
        update["arms"] = ["clean"]
    return config.model_copy(update=update) if update else config


def prepare(config: RunConfig) -> tuple[list[TaskSpec], str, Path, list[ModelFactory]]:
    """Check the config and load what it names, raising BadInput on any bad value."""
    suite = get_suite(config.suite)
    if config.protocol not in suite.protocols:
        known = {p for name in REGISTRY for p in get_suite(name).protocols}
        if config.protocol not in known:
            raise BadInput(
                f"unknown protocol {config.protocol!r}; known: {', '.join(sorted(known))}"
            )
        raise BadInput(
            f"protocol {config.protocol!r} does not fit suite {suite.name!r} "
            f"(it plays {', '.join(repr(p) for p in suite.protocols)})"
        )
    for arm in config.arms:
        if arm not in ARMS:
            raise BadInput(f"unknown arm {arm!r}; known arms: {', '.join(ARMS)}")
    if config.samples < 1 or config.concurrency < 1 or config.workers < 1:
        raise BadInput("--samples, --concurrency and --workers must be at least 1")
    specs = config.specs
    if len(set(specs)) != len(specs):
        raise BadInput("the same model spec is named twice")
    factories = _factories(config)
    path = Path(config.tasks_path) if config.tasks_path else suite.default_path()
    tasks = suite.load(path)
    if config.subset is not None:
        if config.subset < 1:
            raise BadInput("--subset must be at least 1")
        tasks = stratified_subset(tasks, config.subset, suite.stratum)
    if config.limit is not None:
        tasks = tasks[: config.limit]
    return tasks, suite.dataset_hash(path), path, factories


def _factories(config: RunConfig) -> list[ModelFactory]:
    cache = ResponseCache(Path(config.cache_path)) if config.cache_path else None
    return [make_factory(entry, cache) for entry in config.models]


def _write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    try:
        (out / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2) + "\n")
    except OSError as exc:
        raise BadInput(
            f"cannot write {out / MANIFEST_NAME}: {exc.strerror}; the stored episodes are intact"
        ) from None


def run(config: RunConfig, out: Path, console: Console | None = None) -> RunSummary:
    """Play every planned episode not yet stored in ``out``, then write the manifest."""
    console = console or Console(stderr=True)
    config = with_defaults(config)
    tasks, dataset_hash, path, factories = prepare(config)
    fingerprint = config.fingerprint(dataset_hash)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"cannot create output directory {out}: {exc.strerror}") from None
    if not os.access(out, os.W_OK):
        raise BadInput(f"output directory {out} is not writable")
    with run_lock(out):
        store = Store(out / STORE_NAME)
        try:
            stored = store.get_meta("fingerprint")
            if stored is not None and stored != fingerprint:
                raise BadInput(
                    f"{out} holds another run's store (a different suite, dataset, models, arms "
                    "or samples); choose a new --out directory"
                )
            _check_temperatures(store, config, out)
            store.set_meta("fingerprint", fingerprint)
            store.put_tasks(tasks)
            started = _now()
            _write_manifest(out, _manifest(config, path, dataset_hash, started, None))
            store.set_meta("models", json.dumps([m.model_dump() for m in config.models]))
            plan = make_plan(config.specs, tasks, config.arms, config.samples, config.protocol)
            done = store.keys(EpisodeStatus.FINISHED) if config.retry_errors else store.keys()
            todo = [item for item in plan if item.key not in done]
            by_spec = {f.spec: f for f in factories}
            if config.workers > 1 and len(todo) > 1:
                elapsed, errors = _execute_in_processes(todo, store, config, console)
            else:
                loop = asyncio.new_event_loop()
                try:
                    elapsed, errors = loop.run_until_complete(
                        _execute(todo, by_spec, store, config, console)
                    )
                finally:
                    loop.close()
            manifest = _manifest(config, path, dataset_hash, started, _now())
            manifest["episodes"] = store.count()
            _write_manifest(out, manifest)
        finally:
            store.close()
    return RunSummary(
        out=str(out),
        planned=len(plan),
        skipped=len(plan) - len(todo),
        played=len(todo),
        errors=errors,
        seconds=round(elapsed, 3),
    )


def _check_temperatures(store: Store, config: RunConfig, out: Path) -> None:
    """Refuse to resume a model at another temperature than its stored episodes had.

    A report reads a run's temperatures from its stored model entries, so mixing two in
    one directory would mislabel the earlier episodes. Unset means the protocol's own.
    """
    default = config.loop.temperature
    stored = {
        item["spec"]: item.get("temperature")
        for item in json.loads(store.get_meta("models") or "[]")
    }
    for entry in config.models:
        if entry.spec not in stored:
            continue
        before = stored[entry.spec]
        before = default if before is None else before
        now = default if entry.temperature is None else entry.temperature
        if before != now:
            raise BadInput(
                f"{out} holds {entry.spec} at temperature {before:g}, not {now:g}; choose a "
                "new --out directory for another temperature"
            )


def _manifest(
    config: RunConfig, path: Path, dataset_hash: str, started: str, ended: str | None
) -> dict[str, Any]:
    return {
        "toolchaos_version": __version__,
        "suite": config.suite,
        "dataset_file": str(path),
        "dataset_sha256": dataset_hash,
        "models": [m.model_dump(exclude_defaults=True) for m in config.models],
        "protocol": config.protocol,
        "arms": config.arms,
        "samples": config.samples,
        "limit": config.limit,
        "subset": config.subset,
        "concurrency": config.concurrency,
        "loop": json.loads(dumps(config.loop.model_dump())),
        "started": started,
        "ended": ended,
    }


def _progress(console: Console, disable: bool) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:.0f} ep/s"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=disable,
    )


async def play_all(
    todo: list[PlannedEpisode],
    factories: dict[str, ModelFactory],
    config: RunConfig,
    sink: Callable[[Episode], None],
) -> None:
    """Play ``todo`` with ``config.concurrency`` episodes in flight; hand each to ``sink``.

    A fatal model problem (BadInput) stops every worker and propagates.
    """
    queue: asyncio.Queue[PlannedEpisode] = asyncio.Queue()
    for item in todo:
        queue.put_nowait(item)
    limits = {
        spec: asyncio.Semaphore(
            int(getattr(factory, "episode_concurrency", 0) or config.concurrency)
        )
        for spec, factory in factories.items()
    }

    async def worker() -> None:
        while not queue.empty():
            item = queue.get_nowait()
            async with limits[item.model]:
                episode = await play(item, factories[item.model], config.loop)
            sink(episode)

    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(min(config.concurrency, max(len(todo), 1))):
                group.create_task(worker())
    except* BadInput as failures:
        raise failures.exceptions[0] from None


class _Committer:
    """Commits each played episode, counts harness errors and advances the progress bar."""

    def __init__(self, store: Store, progress: Progress, suite: str, total: int) -> None:
        self.store = store
        self.progress = progress
        self.bar = progress.add_task(suite, total=total, rate=0.0)
        self.start = time.perf_counter()
        self.errors = 0

    def __call__(self, episode: Episode) -> None:
        self.store.put(episode)
        self.errors += episode.status is EpisodeStatus.ERROR
        done = self.progress.tasks[0].completed + 1
        rate = done / max(self.elapsed(), 1e-9)
        self.progress.update(self.bar, advance=1, rate=rate)

    def elapsed(self) -> float:
        """Seconds since the first episode could start."""
        return time.perf_counter() - self.start


async def _execute(
    todo: list[PlannedEpisode],
    factories: dict[str, ModelFactory],
    store: Store,
    config: RunConfig,
    console: Console,
) -> tuple[float, int]:
    with _progress(console, disable=not todo) as progress:
        commit = _Committer(store, progress, config.suite, len(todo))
        await play_all(todo, factories, config, commit)
    return commit.elapsed(), commit.errors


def _execute_in_processes(
    todo: list[PlannedEpisode], store: Store, config: RunConfig, console: Console
) -> tuple[float, int]:
    """Shard ``todo`` over ``config.workers`` processes; this one only commits episodes."""
    # fork: children inherit what this process registered (domains, suites, providers) and
    # their shard of planned episodes, tasks included, without reloading the dataset
    context = multiprocessing.get_context("fork")
    results: Any = context.Queue(maxsize=4096)
    workers = min(config.workers, len(todo))
    child = config.model_copy(update={"concurrency": -(-config.concurrency // workers)})
    processes = [
        context.Process(target=_child_main, args=(child, todo[k::workers], results), daemon=True)
        for k in range(workers)
    ]
    finished = 0
    # start the workers before the progress bar's refresh thread, so none forks mid-render
    for process in processes:
        process.start()
    try:
        with _progress(console, disable=not todo) as progress:
            commit = _Committer(store, progress, config.suite, len(todo))
            while finished < len(processes):
                kind, payload = results.get()
                if kind == "episode":
                    commit(Episode.model_validate_json(payload))
                elif kind == "fatal":
                    raise BadInput(payload)
                elif kind == "crash":
                    raise HarnessFault(f"a worker process failed: {payload}")
                else:
                    finished += 1
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
            process.join(timeout=10)
    return commit.elapsed(), commit.errors


def _child_main(config: RunConfig, shard: list[PlannedEpisode], results: Any) -> None:
    """A worker process: play its shard and send every episode back as JSON."""
    try:
        by_spec = {f.spec: f for f in _factories(config)}
        sink = lambda episode: results.put(("episode", episode.model_dump_json()))  # noqa: E731
        asyncio.run(play_all(shard, by_spec, config, sink))
    except BadInput as exc:
        results.put(("fatal", str(exc)))
    except Exception as exc:  # reported to the parent, which stops the run
        results.put(("crash", f"{type(exc).__name__}: {exc}"))
    finally:
        results.put(("done", ""))
