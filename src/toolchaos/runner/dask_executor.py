"""Play a run on a dask.distributed cluster (the ``dask`` extra).

The plan is cut into batches; a batch is one dask task that runs its own event loop and
plays its episodes with the local executor's loop (:func:`play_all`), model clients built
inside the worker (a model client is never pickled, only the run's config). Each finished
batch comes back to the coordinator as episode JSON, and the coordinator commits every
episode in its own transaction, as a local run does: the store, its lock, resume and the
manifest stay on the coordinator's machine and work unchanged.

A worker that dies takes its running batches with it; the scheduler plays them again on
another worker (up to ``distributed.scheduler.allowed-failures`` times). Episodes are
deterministic, so a replayed batch gives the same episodes, and nothing is committed
before its batch has finished. Per-provider limits are ``distributed.Semaphore`` leases on
the scheduler, shared by every worker of the run (and by every shard of the run that uses
the same cluster); a dead worker's leases are released after the scheduler's lease
timeout (``distributed.scheduler.locks.lease-timeout``, 30 s by default).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from distributed import Client, LocalCluster, Semaphore, as_completed

from toolchaos._version import __version__
from toolchaos.core.errors import BadInput, HarnessFault
from toolchaos.core.jsonutil import digest
from toolchaos.core.types import Episode
from toolchaos.runner.executor import OpenSink, build_factories, play_all, whole_commits
from toolchaos.runner.limits import Limiter, limit_factories
from toolchaos.runner.plan import PlannedEpisode

if TYPE_CHECKING:
    from toolchaos.runner.run import RunConfig

CONNECT_TIMEOUT_S = 30
BATCHES_PER_THREAD = 4  # small enough that a dead worker costs little, big enough to fill


class DaskExecutor:
    """Plays batches of episodes as dask tasks; this process commits them."""

    def execute(self, todo: list[PlannedEpisode], config: RunConfig, open_sink: OpenSink) -> None:
        """Play ``todo`` on the cluster ``config`` names (or a LocalCluster it starts)."""
        if not todo:
            with open_sink():
                return
        with _client(config) as client:
            threads = max(
                1, sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())
            )
            per_batch = -(-config.concurrency // threads)
            batch_config = config.model_copy(
                update={"concurrency": per_batch, "workers": 1, "executor": "local"}
            )
            size = batch_size(len(todo), per_batch, threads)
            batches = [todo[i : i + size] for i in range(0, len(todo), size)]
            run_id = limit_prefix(config)
            tag = uuid.uuid4().hex[:8]
            futures = [
                client.submit(
                    play_batch,
                    batch,
                    batch_config,
                    run_id,
                    __version__,
                    key=f"toolchaos-batch-{tag}-{i}",
                    pure=False,
                )
                for i, batch in enumerate(batches)
            ]
            try:
                with whole_commits(open_sink) as commit:
                    for future in as_completed(futures):
                        for text in _result(future):
                            commit(text)
                        future.release()
            finally:
                client.cancel(futures)


def batch_size(todo: int, per_batch: int, threads: int) -> int:
    """Episodes per dask task.

    At least two rounds of the batch's concurrency, and about ``BATCHES_PER_THREAD``
    batches per worker thread when the plan is large.
    """
    spread = -(-todo // (threads * BATCHES_PER_THREAD))
    return max(1, min(todo, max(2 * per_batch, spread)))


def limit_prefix(config: RunConfig) -> str:
    """What the scheduler's limit semaphores of this run are named by.

    Every shard and every resumption of one run gets the same name, so they share limits
    on one cluster; another run gets other names.
    """
    keep = config.model_dump(
        exclude={"shard", "executor", "scheduler", "workers", "concurrency", "rate_limits"}
    )
    return f"toolchaos-limit-{digest(keep)[:12]}"


def _result(future: Any) -> list[str]:
    try:
        found: list[str] = future.result()
    except BadInput:
        raise
    except Exception as exc:
        raise HarnessFault(f"a dask task failed: {type(exc).__name__}: {exc}") from None
    return found


@contextmanager
def _client(config: RunConfig) -> Iterator[Client]:
    """A client of the cluster ``--scheduler`` names, or of a LocalCluster started here."""
    if config.executor == "dask":
        try:
            client = Client(config.scheduler, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError) as exc:
            raise BadInput(
                f"cannot reach the dask scheduler at {config.scheduler}: {exc}"
            ) from None
        try:
            yield client
        finally:
            client.close()
        return
    cluster = LocalCluster(
        n_workers=config.workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    try:
        with Client(cluster) as client:
            yield client
    finally:
        cluster.close()


# -- inside a worker ---------------------------------------------------------------------

_SEMAPHORES: dict[tuple[str, int], Any] = {}
_RELEASES = ThreadPoolExecutor(max_workers=4, thread_name_prefix="toolchaos-release")


class DaskLimiter:
    """The leases of one limit on the scheduler, waited for without blocking the loop."""

    def __init__(self, semaphore: Any, waiters: ThreadPoolExecutor) -> None:
        self._semaphore = semaphore
        self._waiters = waiters

    async def acquire(self) -> None:
        """Wait for a lease (on a waiter thread: the dask call blocks)."""
        await asyncio.get_running_loop().run_in_executor(self._waiters, self._semaphore.acquire)

    def release(self) -> None:
        """Give the lease back (in the background: nothing waits for it)."""
        _RELEASES.submit(self._semaphore.release)


def play_batch(
    batch: list[PlannedEpisode], config: RunConfig, run_id: str, version: str
) -> list[str]:
    """One dask task: play ``batch`` on this worker with its own event loop.

    Args:
        batch: The episodes to play.
        config: The run's config (its concurrency is this batch's).
        run_id: The prefix of the run's limit semaphores.
        version: The coordinator's toolchaos version, which this worker must run too.

    Returns:
        Each finished episode as JSON.
    """
    if version != __version__:
        raise BadInput(
            f"a dask worker runs toolchaos {__version__}, the coordinator {version}; install "
            "the same version everywhere"
        )
    factories = {f.spec: f for f in build_factories(config)}
    waiters = ThreadPoolExecutor(max_workers=max(1, config.concurrency))

    def limiter(name: str, leases: int) -> Limiter:
        # one Semaphore object per worker process and limit: each one refreshes its leases
        key = (f"{run_id}-{name}", leases)
        if key not in _SEMAPHORES:
            _SEMAPHORES[key] = Semaphore(max_leases=leases, name=key[0])
        return DaskLimiter(_SEMAPHORES[key], waiters)

    limited = limit_factories(factories, config.rate_limits, limiter)
    played: list[Episode] = []
    try:
        asyncio.run(play_all(batch, limited, config, played.append))
    finally:
        waiters.shutdown(wait=False, cancel_futures=True)
    return [episode.model_dump_json() for episode in played]
