"""Executors: where the planned episodes of a run are played.

The coordinator (:func:`toolchaos.runner.run.run`) owns the store, the lock and the
manifest; an executor only plays episodes and hands each finished one back to the
coordinator, which commits it in its own transaction. So resume, the lock and the
manifest behave the same whichever executor plays.

Three executors: ``local`` (this process's event loop, or ``--workers`` forked processes
on this machine; the default), ``dask`` (an existing dask.distributed cluster,
``--scheduler ADDRESS``) and ``dask-local`` (a LocalCluster on 127.0.0.1 with
``--workers`` processes), the last two in :mod:`toolchaos.runner.dask_executor`.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column

from toolchaos.core.errors import BadInput, HarnessFault
from toolchaos.core.types import Episode, EpisodeStatus
from toolchaos.models.base import ModelFactory, make_factory
from toolchaos.models.transport import ResponseCache
from toolchaos.runner.episode import play
from toolchaos.runner.limits import AsyncLimiter, Limiter, PollingLimiter, limit_factories
from toolchaos.runner.plan import PlannedEpisode
from toolchaos.runner.store import Store
from toolchaos.suites import configured_suite

if TYPE_CHECKING:
    from toolchaos.runner.run import RunConfig

EXECUTORS = ("local", "dask", "dask-local")

YIELD_EVERY_S = 0.002
"""How long a worker plays episodes that never wait before it yields to the event loop."""

Sink = Callable[[Episode], None]
"""Takes one finished episode (the coordinator commits it)."""

OpenSink = Callable[[], AbstractContextManager[Sink]]
"""Opens the coordinator's progress bar and returns the sink; an executor opens it once,
after it has started whatever it starts (so no process forks while the bar renders)."""


@contextmanager
def whole_commits(open_sink: OpenSink) -> Iterator[Callable[[str], None]]:
    """Open the sink of a loop that commits episodes sent as JSON, outside asyncio.

    Yields ``commit(text)``, which reads one episode's JSON and hands it to the sink. Python
    raises KeyboardInterrupt wherever its code runs, so one that arrived in the middle of
    that would surface from inside it (pydantic even wraps it in a serialization error,
    which then no longer reads as a Ctrl-C). Here a Ctrl-C that arrives during a commit is
    raised once the commit has ended, and at once otherwise, as asyncio.Runner does for
    the loop that plays in this process.
    """
    with open_sink() as sink:

        def commit(text: str) -> None:
            sink(Episode.model_validate_json(text))

        if (
            threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        ):
            yield commit  # not ours to change: a program's own handler, or no signals here
            return
        committing = False
        pending = False

        def on_sigint(signum: int, frame: object) -> None:
            nonlocal pending
            if not committing:
                raise KeyboardInterrupt
            pending = True

        def guarded(text: str) -> None:
            nonlocal committing
            committing = True
            try:
                commit(text)
            finally:
                committing = False
            if pending:
                raise KeyboardInterrupt

        signal.signal(signal.SIGINT, on_sigint)
        try:
            yield guarded
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)


class Executor(Protocol):
    """Plays planned episodes somewhere and hands each finished one to the coordinator."""

    def execute(self, todo: list[PlannedEpisode], config: RunConfig, open_sink: OpenSink) -> None:
        """Play every episode of ``todo``; pass each to the sink, in this process.

        Raises:
            BadInput: The model cannot be used at all (the run stops).
            HarnessFault: A worker failed in a way the executor could not recover from.
        """
        ...


def make_executor(config: RunConfig, factories: list[ModelFactory] | None = None) -> Executor:
    """The executor ``config.executor`` names (a dask one needs the ``dask`` extra).

    Args:
        config: The run's config.
        factories: Model factories already built in this process (the local executor
            plays with them instead of building its own).
    """
    if config.executor == "local":
        return LocalExecutor(factories)
    if config.executor in ("dask", "dask-local"):
        try:
            from toolchaos.runner.dask_executor import DaskExecutor
        except ImportError as exc:
            raise BadInput(
                f"--executor {config.executor} needs the optional extra: pip install "
                f"'toolchaos[dask]' ({exc.name} is not installed)"
            ) from None
        return DaskExecutor()
    raise BadInput(f"unknown executor {config.executor!r}; known: {', '.join(EXECUTORS)}")


def build_factories(config: RunConfig) -> list[ModelFactory]:
    """The model factories of a run (built where the episodes play, never pickled)."""
    cache = ResponseCache(Path(config.cache_path)) if config.cache_path else None
    return [make_factory(entry, cache) for entry in config.models]


def progress_bar(console: Console, disable: bool) -> Progress:
    """The run's progress bars: one per suite and model, with episodes, rate and ETA.

    Every column but the label keeps its width (no count, time or ETA is ever cut); a label
    too long for the terminal is shortened by :func:`fit_label` before it is added.
    """
    whole = Column(no_wrap=True)
    return Progress(
        TextColumn("{task.description}", style="bold", markup=False, table_column=whole),
        BarColumn(bar_width=None if console.width >= 100 else BAR_WIDTH),
        MofNCompleteColumn(table_column=Column(no_wrap=True)),
        TextColumn("{task.fields[rate]} ep/s", table_column=Column(no_wrap=True)),
        TimeElapsedColumn(table_column=Column(no_wrap=True)),
        TextColumn("ETA", table_column=Column(no_wrap=True)),
        TimeRemainingColumn(table_column=Column(no_wrap=True)),
        console=console,
        disable=disable,
    )


BAR_WIDTH = 6
"""The bar's width on a terminal narrower than 100 columns (the counts matter more)."""


def fit_label(suite: str, model: str, total: int, width: int) -> str:
    """A bar's label, ``SUITE MODEL``, shortened to what the other columns leave.

    The other columns (bar, ``N/M``, rate, elapsed, ETA) keep their full width on a
    ``width``-column line; a model name that does not fit keeps its head and its tail
    around an ellipsis, so a long name still shows its provider and how it ends
    (``openai-compat/meta-…-70B-Instruct``).
    """
    counts = 2 * len(str(total)) + 1
    # bar, counts, "0.25 ep/s", "0:00:00", "ETA", "0:00:00", a column to spare
    others = BAR_WIDTH + counts + 10 + 7 + 3 + 7 + 1
    room = max(width - others - len(suite) - 1, 9)
    if len(model) > room:
        head = (room - 1) // 2
        model = f"{model[:head]}…{model[len(model) - (room - 1 - head) :]}"
    return f"{suite} {model}"


def rate_text(done: int, seconds: float) -> str:
    """Episodes per second as a bar shows it: ``12`` from 10 up, ``0.25`` below."""
    rate = done / max(seconds, 1e-9)
    return f"{rate:.0f}" if rate >= 10 else f"{rate:.2f}"


class Committer:
    """Commits each played episode, counts harness errors and advances the progress bars.

    Args:
        store: The run's store.
        console: Where the bars are drawn.
        suite: The suite's name, which leads each bar's label.
        todo: The episodes to play per model spec (one bar each, in this order).
    """

    def __init__(self, store: Store, console: Console, suite: str, todo: Mapping[str, int]) -> None:
        self.store = store
        self.console = console
        self.suite = suite
        self.todo = {model: n for model, n in todo.items() if n}
        self.total = sum(self.todo.values())
        self.start = time.perf_counter()
        self.errors = 0
        self.indeterminate = 0
        self.first_error: str | None = None
        self.done = 0
        self._done: dict[str, int] = dict.fromkeys(self.todo, 0)
        self._progress: Progress | None = None
        self._bars: dict[str, Any] = {}
        self._shown: dict[str, int] = dict.fromkeys(self.todo, 0)
        self._next_draw = 0.0

    @contextmanager
    def open(self) -> Iterator[Sink]:
        """Show the progress bars while episodes are committed."""
        # nothing is drawn on a quiet console: no refresh thread either
        with progress_bar(self.console, disable=not self.total or self.console.quiet) as progress:
            self._progress = progress
            self._bars = {
                model: progress.add_task(
                    fit_label(self.suite, model, n, self.console.width), total=n, rate="0"
                )
                for model, n in self.todo.items()
            }
            self.start = time.perf_counter()
            try:
                yield self
            finally:
                self._draw()
                self._progress = None

    def __call__(self, episode: Episode) -> None:
        """Commit ``episode`` (one transaction) and advance its model's bar."""
        self.store.put(episode)
        if episode.status is EpisodeStatus.ERROR:
            self.errors += 1
            if self.first_error is None:
                self.first_error = episode.error or "no message"
        elif episode.status is EpisodeStatus.INDETERMINATE:
            self.indeterminate += 1
        self.done += 1
        if episode.model in self._done:
            self._done[episode.model] += 1
        # the bars are redrawn ten times a second at most, so a fast scripted run does not
        # pay for an update per episode (the counts above are always exact)
        if time.perf_counter() >= self._next_draw:
            self._draw()

    def _draw(self) -> None:
        """Bring every bar up to the episodes committed so far."""
        self._next_draw = time.perf_counter() + 0.1
        if self._progress is None:
            return
        elapsed = max(self.elapsed(), 1e-9)
        for model, bar in self._bars.items():
            done = self._done[model]
            if done == self._shown[model]:
                continue
            shown = rate_text(done, elapsed)
            self._progress.update(bar, advance=done - self._shown[model], rate=shown)
            self._shown[model] = done

    def elapsed(self) -> float:
        """Seconds since the first episode could start."""
        return time.perf_counter() - self.start


async def play_all(
    todo: list[PlannedEpisode],
    factories: Mapping[str, ModelFactory],
    config: RunConfig,
    sink: Sink,
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

    turn = [time.perf_counter() + YIELD_EVERY_S]
    suite = configured_suite(config.suite, config.suite_options)

    async def worker() -> None:
        while not queue.empty():
            item = queue.get_nowait()
            async with limits[item.model]:
                episode = await play(item, factories[item.model], config.loop, suite)
            sink(episode)
            # a scripted episode never waits: yield now and then, so the other workers and
            # a cancellation (Ctrl-C) get their turn (a yield after every episode cost 6%
            # of a scripted run)
            if time.perf_counter() >= turn[0]:
                turn[0] = time.perf_counter() + YIELD_EVERY_S
                await asyncio.sleep(0)

    # what exists before the first episode (tasks, base worlds, tools) lives for the whole
    # run: kept out of the collector's sight, a full collection need not walk it again
    # (unless the program froze objects of its own, which are not ours to unfreeze)
    freeze = gc.get_freeze_count() == 0
    if freeze:
        gc.freeze()
    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(min(config.concurrency, max(len(todo), 1))):
                group.create_task(worker())
    except* BadInput as failures:
        raise failures.exceptions[0] from None
    finally:
        if freeze:
            gc.unfreeze()


def _async_limiter(name: str, leases: int) -> Limiter:
    return AsyncLimiter(leases)


class LocalExecutor:
    """This process's event loop, or ``config.workers`` forked processes on this machine."""

    def __init__(self, factories: list[ModelFactory] | None = None) -> None:
        self.factories = factories

    def execute(self, todo: list[PlannedEpisode], config: RunConfig, open_sink: OpenSink) -> None:
        """Play ``todo`` here (one event loop) or in forked worker processes."""
        # built here, forked workers inherit it
        configured_suite(config.suite, config.suite_options).prepare([i.task for i in todo])
        if config.workers > 1 and len(todo) > 1:
            self._in_processes(todo, config, open_sink)
            return
        built = self.factories if self.factories is not None else build_factories(config)
        factories = {f.spec: f for f in built}
        # asyncio.Runner turns Ctrl-C into a cancellation of the episodes in flight (none
        # is committed half-way) and raises KeyboardInterrupt once they are all cancelled
        with asyncio.Runner() as runner, open_sink() as sink:
            # the limiters bind to this loop: build them inside it
            async def main() -> None:
                limited = limit_factories(factories, config.rate_limits, _async_limiter)
                await play_all(todo, limited, config, sink)

            runner.run(main())

    def _in_processes(
        self, todo: list[PlannedEpisode], config: RunConfig, open_sink: OpenSink
    ) -> None:
        """Shard ``todo`` over ``config.workers`` processes; this one only commits episodes."""
        # fork: children inherit what this process registered (domains, suites, providers)
        # and their shard of planned episodes, tasks included, without reloading the dataset
        context = multiprocessing.get_context("fork")
        results: Any = context.Queue(maxsize=4096)
        workers = min(config.workers, len(todo))
        child = config.model_copy(update={"concurrency": -(-config.concurrency // workers)})
        # one semaphore per limit, shared by every fork, so a limit holds across them
        shared = {name: context.BoundedSemaphore(n) for name, n in config.rate_limits.items()}
        processes = [
            context.Process(
                target=_child_main, args=(child, todo[k::workers], results, shared), daemon=True
            )
            for k in range(workers)
        ]
        finished = 0
        # start the workers before the progress bar's refresh thread, so none forks mid-render
        for process in processes:
            process.start()
        try:
            with whole_commits(open_sink) as commit:
                while finished < len(processes):
                    kind, payload = results.get()
                    if kind == "episode":
                        commit(payload)
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


def _child_main(
    config: RunConfig, shard: list[PlannedEpisode], results: Any, shared: dict[str, Any]
) -> None:
    """A worker process: play its shard and send every episode back as JSON."""
    try:
        factories = {f.spec: f for f in build_factories(config)}
        limited = limit_factories(
            factories, config.rate_limits, lambda name, n: PollingLimiter(shared[name])
        )
        sink = lambda episode: results.put(("episode", episode.model_dump_json()))  # noqa: E731
        asyncio.run(play_all(shard, limited, config, sink))
    except BadInput as exc:
        results.put(("fatal", str(exc)))
    except KeyboardInterrupt:  # Ctrl-C reaches every process; the parent says what is stored
        pass
    except Exception as exc:  # reported to the parent, which stops the run
        results.put(("crash", f"{type(exc).__name__}: {exc}"))
    finally:
        results.put(("done", ""))
