"""Run a plan: concurrent episodes, atomic commits, resume, progress and a manifest."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
from collections.abc import Iterator
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

from toolchaos import __version__
from toolchaos.agents.native import LoopConfig
from toolchaos.core.errors import BadInput
from toolchaos.core.jsonutil import digest, dumps
from toolchaos.core.types import EpisodeStatus, TaskSpec
from toolchaos.env.runtime import ARMS
from toolchaos.models.base import ModelFactory, make_factory
from toolchaos.models.config import ModelEntry
from toolchaos.models.transport import ResponseCache
from toolchaos.runner.episode import play
from toolchaos.runner.plan import PROTOCOL, PROTOCOLS, PlannedEpisode, make_plan
from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.suites import get_suite
from toolchaos.suites.base import file_hash, stratified_subset

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
    protocol: str = PROTOCOL
    subset: int | None = None

    @field_validator("models", mode="before")
    @classmethod
    def _specs(cls, value: Any) -> Any:
        entries = [ModelEntry(spec=v) if isinstance(v, str) else v for v in value]
        return [
            e.model_copy(update={"tier": "baseline", "family": "scripted"})
            if isinstance(e, ModelEntry) and e.spec.startswith("scripted/") and not e.tier
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


def prepare(config: RunConfig) -> tuple[list[TaskSpec], str, Path, list[ModelFactory]]:
    """Check the config and load what it names, raising BadInput on any bad value."""
    suite = get_suite(config.suite)
    for arm in config.arms:
        if arm not in ARMS:
            raise BadInput(f"unknown arm {arm!r}; known arms: {', '.join(ARMS)}")
    if config.protocol not in PROTOCOLS:
        raise BadInput(f"unknown protocol {config.protocol!r}; known: {', '.join(PROTOCOLS)}")
    if config.samples < 1 or config.concurrency < 1:
        raise BadInput("--samples and --concurrency must be at least 1")
    specs = config.specs
    if len(set(specs)) != len(specs):
        raise BadInput("the same model spec is named twice")
    cache = ResponseCache(Path(config.cache_path)) if config.cache_path else None
    factories = [make_factory(entry, cache) for entry in config.models]
    path = Path(config.tasks_path) if config.tasks_path else suite.default_path()
    tasks = suite.load(path)
    if config.subset is not None:
        if config.subset < 1:
            raise BadInput("--subset must be at least 1")
        tasks = stratified_subset(tasks, config.subset)
    if config.limit is not None:
        tasks = tasks[: config.limit]
    return tasks, file_hash(path), path, factories


def run(config: RunConfig, out: Path, console: Console | None = None) -> RunSummary:
    """Play every planned episode not yet stored in ``out``, then write the manifest."""
    console = console or Console(stderr=True)
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
            store.set_meta("fingerprint", fingerprint)
            store.put_tasks(tasks)
            started = _now()
            manifest = _manifest(config, path, dataset_hash, started, None)
            (out / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2) + "\n")
            store.set_meta("models", json.dumps([m.model_dump() for m in config.models]))
            plan = make_plan(config.specs, tasks, config.arms, config.samples, config.protocol)
            done = store.keys(EpisodeStatus.FINISHED) if config.retry_errors else store.keys()
            todo = [item for item in plan if item.key not in done]
            by_spec = {f.spec: f for f in factories}
            loop = asyncio.new_event_loop()
            try:
                elapsed, errors = loop.run_until_complete(
                    _execute(todo, by_spec, store, config, console)
                )
            finally:
                loop.close()
            manifest = _manifest(config, path, dataset_hash, started, _now())
            manifest["episodes"] = store.count()
            (out / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2) + "\n")
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


async def _execute(
    todo: list[PlannedEpisode],
    factories: dict[str, ModelFactory],
    store: Store,
    config: RunConfig,
    console: Console,
) -> tuple[float, int]:
    queue: asyncio.Queue[PlannedEpisode] = asyncio.Queue()
    for item in todo:
        queue.put_nowait(item)
    errors = 0
    loop = asyncio.get_running_loop()
    start = loop.time()
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:.0f} ep/s"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not todo,
    )

    limits = {
        spec: asyncio.Semaphore(
            int(getattr(factory, "episode_concurrency", 0) or config.concurrency)
        )
        for spec, factory in factories.items()
    }

    async def worker(bar: Any) -> None:
        nonlocal errors
        while not queue.empty():
            item = queue.get_nowait()
            async with limits[item.model]:
                episode = await play(item, factories[item.model], config.loop)
            store.put(episode)
            if episode.status is EpisodeStatus.ERROR:
                errors += 1
            elapsed = max(loop.time() - start, 1e-9)
            done = len(todo) - queue.qsize()
            progress.update(bar, advance=1, rate=done / elapsed)

    with progress:
        bar = progress.add_task(f"{config.suite}", total=len(todo), rate=0.0)
        try:
            async with asyncio.TaskGroup() as group:
                for _ in range(min(config.concurrency, max(len(todo), 1))):
                    group.create_task(worker(bar))
        except* BadInput as failures:
            raise failures.exceptions[0] from None
    return loop.time() - start, errors
