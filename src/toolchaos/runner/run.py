"""Run a plan: concurrent episodes, atomic commits, resume, progress and a manifest."""

from __future__ import annotations

import difflib
import fcntl
import json
import os
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, field_validator
from rich.console import Console

from toolchaos._version import __version__
from toolchaos.agents.native import LoopConfig
from toolchaos.core.clock import utc_now
from toolchaos.core.errors import BadInput
from toolchaos.core.jsonutil import digest, dumps
from toolchaos.core.types import REPLAYABLE, EpisodeStatus, TaskSpec
from toolchaos.env.runtime import ARMS
from toolchaos.models.base import PROVIDERS, ModelFactory, is_local, is_scripted
from toolchaos.models.config import ModelEntry, check_base_urls
from toolchaos.runner.executor import (
    EXECUTORS,
    Committer,
    build_factories,
    make_executor,
    play_all,
)
from toolchaos.runner.plan import PlannedEpisode, make_plan
from toolchaos.runner.shard import Shard
from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.suites import SUITES, configured_suite, get_suite
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
    suite_options: dict[str, Any] = Field(default_factory=dict)
    """The suite's own options (``-T key=value``), checked by its options model."""
    subset: int | None = None
    workers: int = 1
    # how and where episodes play: none of these is in the fingerprint, so a run may be
    # resumed, sharded and merged whatever executor played each part of it
    shard: Shard | None = None
    executor: str = "local"
    scheduler: str | None = None
    rate_limits: dict[str, int] = Field(default_factory=dict)

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

    def identity(self, dataset_hash: str) -> dict[str, Any]:
        """What must match for a directory to resume this run.

        The suite's options are part of it only when some differ from their defaults, so
        a run without any keeps the fingerprint it had before suites took options.
        """
        found = {
            "suite": self.suite,
            "dataset": dataset_hash,
            "models": sorted(self.specs),
            "arms": sorted(self.arms),
            "samples": self.samples,
            "protocol": self.protocol,
            "loop": self.loop.model_dump(),
        }
        if self.suite_options:
            found["options"] = dict(sorted(self.suite_options.items()))
        return found

    def fingerprint(self, dataset_hash: str) -> str:
        """A digest of :meth:`identity`."""
        return digest(self.identity(dataset_hash))


class RunInterrupted(Exception):
    """The user stopped a run (Ctrl-C); what was committed stays and a rerun resumes.

    Args:
        out: The run directory.
        played: Episodes committed by this invocation before it stopped.
        stored: Episodes the directory holds now.
        planned: Episodes the run plans in all.
    """

    def __init__(self, out: Path, played: int, stored: int, planned: int) -> None:
        super().__init__(
            f"interrupted: {out} holds {stored} of {planned} planned episodes ({played} "
            "played this time); run the same command again to resume"
        )
        self.out, self.played, self.stored, self.planned = out, played, stored, planned


class RunSummary(BaseModel):
    """What a run did this time."""

    out: str
    planned: int
    skipped: int
    played: int
    errors: int
    seconds: float
    stored_errors: int = 0
    """Episodes of the plan stored as ``error`` or ``indeterminate`` before and not played
    again this time."""
    indeterminate: int = 0
    """Episodes played this time that a fault toolchaos did not inject decided (a model
    provider that failed mid-episode after its retries)."""
    first_error: str | None = None
    """The error of the first episode this time that ended as a harness error."""


def _default_group(spec: str) -> dict[str, str]:
    """Family and tier a spec gets when the user gave none."""
    if is_scripted(spec):
        return {"tier": "baseline", "family": "scripted"}
    if is_local(spec):
        return {"tier": "local", "family": spec.split("/", 1)[1].split("-")[0]}
    return {}


def read_manifest(directory: Path) -> dict[str, Any]:
    """A run directory's manifest; empty when it has none or it is not a JSON object."""
    try:
        found = json.loads((directory / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


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
    """Fill what the suite decides when the user did not: its protocol and arms.

    The suite's options are checked by its options model and kept as they differ from
    its defaults (BadInput names a bad one).
    """
    suite = get_suite(config.suite)
    update: dict[str, Any] = {}
    options = suite.parse_options(config.suite_options)
    if options != config.suite_options:
        update["suite_options"] = options
    if not config.protocol:
        update["protocol"] = suite.protocol
    if suite.arms == ("clean",) and "arms" not in config.model_fields_set:
        update["arms"] = ["clean"]
    return config.model_copy(update=update) if update else config


def planned(
    config: RunConfig, tasks: list[TaskSpec], store: Store | None
) -> tuple[list[PlannedEpisode], set[str]]:
    """The run's plan (its shard's share) and the keys of the stored episodes it skips.

    Every stored episode is skipped, or only the finished ones under ``--retry-errors``
    (so ``error`` and ``indeterminate`` ones are played again);
    with no store nothing is.
    """
    plan = make_plan(config.specs, tasks, config.arms, config.samples, config.protocol)
    if config.shard is not None:
        plan = config.shard.select(plan)
    if store is None:
        return plan, set()
    done = store.keys(EpisodeStatus.FINISHED) if config.retry_errors else store.keys()
    return plan, done


def prepare(
    config: RunConfig, clients: bool = True
) -> tuple[list[TaskSpec], str, Path, list[ModelFactory]]:
    """Check the config and load what it names, raising BadInput on any bad value.

    With ``clients=False`` no model factory is built (no key or endpoint is needed): what
    ``run --dry-run`` uses to count and price the plan.
    """
    suite = configured_suite(config.suite, config.suite_options)
    if not suite.protocols:
        raise BadInput(
            f"suite {suite.name} is not played by `toolchaos run`: its episodes come from your "
            "own agent, through `toolchaos proxy`, an adapter or the pytest plugin "
            "(docs/own-tools.md), and `toolchaos report` reads them"
        )
    if config.protocol not in suite.protocols:
        known = {p for name in SUITES for p in get_suite(name).protocols}
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
        if arm not in suite.arms:
            raise BadInput(
                f"suite {suite.name} has no {arm!r} arm (it plays {', '.join(suite.arms)})"
            )
    if len(set(config.arms)) != len(config.arms):
        raise BadInput("the same arm is named twice in --arms")
    if not config.arms:
        raise BadInput(f"--arms names no arm; give one or more of {', '.join(suite.arms)}")
    if config.loop.max_turns < 1 or config.loop.rounds < 1:
        raise BadInput("--max-turns and --rounds must be at least 1")
    if config.samples < 1 or config.concurrency < 1 or config.workers < 1:
        raise BadInput("--samples, --concurrency and --workers must be at least 1")
    _check_execution(config)
    specs = config.specs
    if len(set(specs)) != len(specs):
        raise BadInput("the same model spec is named twice")
    for entry in config.models:
        check_base_urls(entry)
    _check_limit_names(config)
    factories = _factories(config) if clients else []
    path = Path(config.tasks_path) if config.tasks_path else suite.default_path()
    tasks = suite.load(path)
    if config.subset is not None:
        if config.subset < 1:
            raise BadInput("--subset must be at least 1")
        if config.subset > len(tasks):
            raise BadInput(
                f"--subset {config.subset} is more than the {len(tasks)} tasks in {path.name}; "
                f"give at most {len(tasks)}, or leave --subset out to play every task"
            )
        tasks = stratified_subset(tasks, config.subset, suite.stratum)
    if config.limit is not None:
        if config.limit < 1:
            raise BadInput("--max-tasks (a number of tasks) must be at least 1")
        tasks = tasks[: config.limit]
    return tasks, suite.dataset_hash(path), path, factories


def _factories(config: RunConfig) -> list[ModelFactory]:
    return build_factories(config)


def _check_execution(config: RunConfig) -> None:
    """Refuse an executor, scheduler or limit that cannot work, before anything is written."""
    if config.executor not in EXECUTORS:
        raise BadInput(f"unknown executor {config.executor!r}; known: {', '.join(EXECUTORS)}")
    if config.executor == "dask" and not config.scheduler:
        raise BadInput("--executor dask needs --scheduler ADDRESS (e.g. tcp://10.0.0.5:8786)")
    if config.executor != "dask" and config.scheduler:
        raise BadInput("--scheduler is only for --executor dask")
    for name, leases in config.rate_limits.items():
        if leases < 1:
            raise BadInput(f"--rate-limit {name}={leases}: a limit must be at least 1")


def _check_limit_names(config: RunConfig) -> None:
    """Refuse a rate limit that names no provider and no model of the run.

    Such a limit would never apply, so a misspelt provider (``opneai=4``) must not pass
    silently; a known provider without a model in this run is fine (a models file may
    limit providers the run does not use).
    """
    for name in config.rate_limits:
        if name in PROVIDERS or name in config.specs:
            continue
        known = sorted({*PROVIDERS, *config.specs})
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise BadInput(
            f"the limit {name}={config.rate_limits[name]} names no provider "
            f"({', '.join(sorted(PROVIDERS))}) and no model of this run{hint}"
        )


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
            identity = config.identity(dataset_hash)
            if stored is not None and stored != fingerprint:
                held = _held_identity(store, out)
                if not _adds_models(held, identity):
                    raise BadInput(
                        f"{out} holds another run's store ({_difference(held, identity)}); "
                        "choose a new --out directory"
                    )
                # a model joins the run: the plan grows, the stored episodes stay as they are
                identity = identity | {"models": sorted({*held["models"], *identity["models"]})}
                fingerprint = digest(identity)
            _check_temperatures(store, config, out)
            _check_shard(store, config, out, fresh=stored is None)
            selections = _selections(store, config, out, console)
            started = _started(store, out, fresh=stored is None)
            models = _all_models(store, config)
            store.set_meta("fingerprint", fingerprint)
            store.set_meta("identity", dumps(identity))
            store.set_meta("toolchaos_version", __version__)
            store.set_meta("selections", json.dumps(selections))
            store.set_meta("started", started)
            if config.shard is not None:
                store.set_meta("shard", str(config.shard))
            store.put_tasks(tasks)
            manifest = _manifest(config, models, path, dataset_hash, started, None)
            _write_manifest(out, manifest | _held(store, config, selections))
            store.set_meta("models", json.dumps([m.model_dump() for m in models]))
            plan, done = planned(config, tasks, store)
            todo = [item for item in plan if item.key not in done]
            failed = (
                set().union(*(store.keys(status) for status in REPLAYABLE))
                if not config.retry_errors
                else set()
            )
            stored_errors = sum(item.key in failed for item in plan)
            per_model = Counter(item.model for item in todo)
            commit = Committer(
                store, console, config.suite, {s: per_model[s] for s in config.specs}
            )
            try:
                with store.checkpoints_apart():
                    make_executor(config, factories).execute(todo, config, commit.open)
            except KeyboardInterrupt:
                # the manifest keeps ended: null, so a report says the run is unfinished
                raise RunInterrupted(out, commit.done, store.count(), len(plan)) from None
            elapsed, errors = commit.elapsed(), commit.errors
            manifest = _manifest(config, models, path, dataset_hash, started, utc_now())
            _write_manifest(out, manifest | _held(store, config, selections))
        finally:
            store.close()
    return RunSummary(
        out=str(out),
        planned=len(plan),
        skipped=len(plan) - len(todo),
        played=len(todo),
        errors=errors,
        seconds=round(elapsed, 3),
        stored_errors=stored_errors,
        indeterminate=commit.indeterminate,
        first_error=commit.first_error,
    )


def _held(
    store: Store, config: RunConfig, selections: list[dict[str, int | None]]
) -> dict[str, Any]:
    """What the manifest says the directory holds: its selections, tasks and episodes.

    ``subset`` and ``limit`` stay at the top level while one selection was played; after
    another, they are left out and ``selections`` lists each.
    """
    tasks = store.task_count(config.suite)
    found: dict[str, Any] = {"selections": selections, "tasks": tasks, "episodes": store.count()}
    return found | selections[0] if len(selections) == 1 else found


def _selection(config: RunConfig) -> dict[str, int | None]:
    """Which of the task file's tasks a run plays: ``--subset`` and ``--limit``."""
    return {"subset": config.subset, "limit": config.limit}


def _selections(
    store: Store, config: RunConfig, out: Path, console: Console
) -> list[dict[str, int | None]]:
    """Every selection of tasks (``--subset``, ``--limit``) played into ``out``, in order.

    Another selection than the stored ones adds its tasks to the run (the plan grows,
    nothing stored is touched), so the manifest lists them all rather than the last one.
    Stores written before the selections were kept are read through their manifest.
    """
    text = store.get_meta("selections")
    held: list[dict[str, int | None]] = json.loads(text) if text is not None else []
    if text is None and store.count():
        manifest = read_manifest(out)
        if {"subset", "limit"} <= set(manifest):
            held = [{"subset": manifest["subset"], "limit": manifest["limit"]}]
    wanted = _selection(config)
    if wanted in held:
        return held
    if held:
        before = " and ".join(_selection_text(h) for h in held)
        console.print(
            f"note: {out} holds a run of {before}; {_selection_text(wanted)} adds its tasks "
            "to it (the manifest lists every selection)",
            markup=False,
            highlight=False,
        )
    return [*held, wanted]


def _selection_text(selection: dict[str, int | None]) -> str:
    shown = [f"--{k} {v}" for k, v in selection.items() if v is not None]
    return " ".join(shown) or "every task"


def _started(store: Store, out: Path, *, fresh: bool) -> str:
    """When the run in ``out`` first started: kept in the store, else its old manifest's."""
    held = store.get_meta("started")
    if held is not None:
        return held
    if not fresh:
        manifest = read_manifest(out)
        if isinstance(manifest.get("started"), str):
            return str(manifest["started"])
    return utc_now()


def _all_models(store: Store, config: RunConfig) -> list[ModelEntry]:
    """Every model of the run: those stored before (in order), then this invocation's new ones.

    This invocation's entry of a model replaces its stored one (the temperature check
    keeps the two alike where it matters).
    """
    mine = {entry.spec: entry for entry in config.models}
    found: list[ModelEntry] = []
    for item in json.loads(store.get_meta("models") or "[]"):
        entry = ModelEntry.model_validate(item)
        if all(f.spec != entry.spec for f in found):
            found.append(mine.pop(entry.spec, entry))
    return found + list(mine.values())


# how a difference in a run's identity is named, and how the manifest spells each part
_IDENTITY_NAMES = {
    "suite": ("suite", "suite"),
    "dataset": ("task file", "dataset_sha256"),
    "models": ("models", "models"),
    "arms": ("arms", "arms"),
    "samples": ("samples", "samples"),
    "protocol": ("protocol", "protocol"),
    "loop": ("loop settings", "loop"),
    "options": ("suite options", "suite_options"),
}
_UNSET_PARTS: dict[str, Any] = {"options": {}}
"""The parts an identity leaves out at their default (a run without suite options)."""


def _held_identity(store: Store, out: Path) -> dict[str, Any]:
    """The identity of the run stored in ``out``.

    Stores written before the identity was kept are read through their manifest (only
    the parts it records).
    """
    text = store.get_meta("identity")
    if text is not None:
        found: dict[str, Any] = json.loads(text)
        return found
    held: dict[str, Any] = {}
    manifest = read_manifest(out)
    for part, (_, field) in _IDENTITY_NAMES.items():
        if field in manifest:
            held[part] = manifest[field]
    if isinstance(held.get("models"), list):
        held["models"] = sorted(
            m["spec"] if isinstance(m, dict) else str(m) for m in held["models"]
        )
    if isinstance(held.get("arms"), list):
        held["arms"] = sorted(held["arms"])
    return held


def _same(a: Any, b: Any) -> bool:
    return bool(json.loads(dumps(a)) == json.loads(dumps(b)))


def _adds_models(held: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Whether ``wanted`` is the held run with other models (which then join it)."""
    held, wanted = _UNSET_PARTS | held, _UNSET_PARTS | wanted
    if set(held) != set(_IDENTITY_NAMES) or not isinstance(held.get("models"), list):
        return False
    return all(_same(held[part], wanted[part]) for part in _IDENTITY_NAMES if part != "models")


def _difference(held: dict[str, Any], wanted: dict[str, Any]) -> str:
    """Say how the run held (:func:`_held_identity`) differs from the one asked for."""
    found = []
    held, wanted = _UNSET_PARTS | held, _UNSET_PARTS | wanted
    for part, (name, _) in _IDENTITY_NAMES.items():
        if part not in held or _same(held[part], wanted[part]):
            continue
        if part == "dataset":
            found.append("another task file")
        elif part in ("loop", "options"):
            found.append(f"{name} {_changed(held[part], wanted[part])}")
        else:
            found.append(f"{name} {_shown(held[part])}, not {_shown(wanted[part])}")
    if not found:
        return "a different suite, dataset, models, arms, samples or protocol"
    return "; ".join(found)


def _shown(value: Any) -> str:
    return ",".join(str(v) for v in value) if isinstance(value, list) else str(value)


def _changed(held: Any, wanted: Any) -> str:
    """The loop settings that differ, as ``name held -> wanted``."""
    if not isinstance(held, dict) or not isinstance(wanted, dict):
        return "differ"
    names = sorted(k for k in {*held, *wanted} if held.get(k) != wanted.get(k))
    return ", ".join(f"{k} {held.get(k)} (asked {wanted.get(k)})" for k in names) or "differ"


def _check_shard(store: Store, config: RunConfig, out: Path, *, fresh: bool) -> None:
    """Refuse to resume a directory with another shard than the one it holds."""
    held = store.get_meta("shard") or ""
    wanted = str(config.shard) if config.shard is not None else ""
    if held == wanted or (fresh and store.count() == 0):
        return
    have = f"shard {held}" if held else "an unsharded run"
    asked = f"shard {wanted}" if wanted else "the whole run"
    raise BadInput(f"{out} holds {have}, not {asked}; choose a new --out directory")


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
    config: RunConfig,
    models: list[ModelEntry],
    path: Path,
    dataset_hash: str,
    started: str,
    ended: str | None,
) -> dict[str, Any]:
    return {
        "toolchaos_version": __version__,
        "suite": config.suite,
        "dataset_file": str(path),
        "dataset_sha256": dataset_hash,
        "models": [m.model_dump(exclude_defaults=True) for m in models],
        "protocol": config.protocol,
        "arms": config.arms,
        "samples": config.samples,
        "concurrency": config.concurrency,
        "loop": json.loads(dumps(config.loop.model_dump())),
        **({"suite_options": config.suite_options} if config.suite_options else {}),
        "started": started,
        "ended": ended,
    } | _execution(config)


def _execution(config: RunConfig) -> dict[str, Any]:
    """What the manifest records of how a run played (only what differs from the default)."""
    found: dict[str, Any] = {}
    if config.shard is not None:
        found["shard"] = str(config.shard)
    if config.executor != "local":
        found["executor"] = config.executor
        found["workers"] = config.workers
    if config.rate_limits:
        found["rate_limits"] = dict(sorted(config.rate_limits.items()))
    return found


__all__ = [
    "MANIFEST_NAME",
    "RunConfig",
    "RunInterrupted",
    "RunSummary",
    "play_all",
    "read_manifest",
    "run",
    "run_lock",
]
