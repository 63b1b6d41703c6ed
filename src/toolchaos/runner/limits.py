"""Per-provider limits on model requests in flight, held across every worker of a run.

A limit names a provider (``openai``, ``anthropic``, ``openai-compat``, ``scripted``, ...)
or one model spec (``openai/gpt-4o``) and caps how many requests to it are in flight at
once, over the whole run: every episode, every worker process, every dask worker. A
request counts against every limit that matches its model. The lease is held for the
whole request, retries and backoff included, so a limit is also the most connections a
run opens to that provider.

Where the lease lives depends on the executor: an ``asyncio.Semaphore`` in one process, a
``multiprocessing`` semaphore shared by the ``--workers`` forks, a
``distributed.Semaphore`` on the dask scheduler (released when its worker dies, after the
scheduler's lease timeout).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any, Protocol

import yaml

from toolchaos.core.errors import BadInput
from toolchaos.core.types import TaskSpec
from toolchaos.models.base import ModelClient, ModelFactory, ModelRequest, ModelResponse


class Limiter(Protocol):
    """One limit's leases: acquired before a model request, released after it."""

    async def acquire(self) -> None:
        """Wait for a lease."""
        ...

    def release(self) -> None:
        """Give the lease back."""
        ...


class AsyncLimiter:
    """The leases of one limit inside one event loop."""

    def __init__(self, leases: int) -> None:
        self._semaphore = asyncio.Semaphore(leases)

    async def acquire(self) -> None:
        """Wait for a lease."""
        await self._semaphore.acquire()

    def release(self) -> None:
        """Give the lease back."""
        self._semaphore.release()


class PollingLimiter:
    """The leases of a semaphore shared between processes (``multiprocessing``).

    A blocking acquire would stall the event loop, so it polls without blocking and
    sleeps a little between tries.
    """

    def __init__(self, semaphore: Any, poll_s: float = 0.002) -> None:
        self._semaphore = semaphore
        self._poll_s = poll_s

    async def acquire(self) -> None:
        """Wait for a lease."""
        wait = self._poll_s
        while not self._semaphore.acquire(False):
            await asyncio.sleep(wait)
            wait = min(wait * 2, 0.05)

    def release(self) -> None:
        """Give the lease back."""
        self._semaphore.release()


def parse_limits(values: list[str]) -> dict[str, int]:
    """``["openai=40,anthropic=20"]`` as ``{"openai": 40, "anthropic": 20}``.

    Raises:
        BadInput: On a part that is not ``NAME=N`` with N at least 1.
    """
    limits: dict[str, int] = {}
    for value in values:
        for part in value.split(","):
            part = part.strip()
            if not part:
                continue
            name, sep, number = part.partition("=")
            name = name.strip()
            if not sep or not name or not number.strip().isdigit() or int(number) < 1:
                raise BadInput(
                    f"--rate-limit {part!r} must look like PROVIDER=N with N at least 1, "
                    "e.g. openai=40 (a number of tasks is --max-tasks N)"
                )
            limits[name] = int(number)
    return limits


def load_limits(path: Path) -> dict[str, int]:
    """The top-level ``limits:`` mapping of a models file (``{}`` when it has none)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}  # load_models_file names the problem with the file
    found = data.get("limits") if isinstance(data, dict) else None
    if found is None:
        return {}
    if not isinstance(found, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 1
        for k, v in found.items()
    ):
        raise BadInput(f"{path}: 'limits' must map provider names to whole numbers of at least 1")
    return dict(found)


def matching(spec: str, limits: Mapping[str, int]) -> list[str]:
    """The limits a model spec's requests count against, in a stable order."""
    provider = spec.split("/", 1)[0]
    return sorted(name for name in limits if name in (provider, spec))


class LimitedClient:
    """A model client whose every request holds a lease of each of its limits."""

    def __init__(self, inner: ModelClient, limiters: list[Limiter]) -> None:
        self.inner = inner
        self.limiters = limiters

    def __getattr__(self, name: str) -> Any:
        # scripted baselines and protocols may read attributes of their client
        return getattr(self.inner, name)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Wait for the leases (always in the same order, so none deadlock), then ask."""
        async with AsyncExitStack() as stack:
            for limiter in self.limiters:
                await limiter.acquire()
                stack.callback(limiter.release)
            return await self.inner.complete(request)


class LimitedFactory:
    """A model factory whose clients hold a lease of each of the spec's limits."""

    def __init__(self, inner: ModelFactory, limiters: list[Limiter]) -> None:
        self.inner = inner
        self.spec = inner.spec
        self.limiters = limiters
        self.episode_concurrency = getattr(inner, "episode_concurrency", 0)

    def for_episode(self, task: TaskSpec, arm: str, sample: int) -> ModelClient:
        """The inner factory's client, behind the leases."""
        return LimitedClient(self.inner.for_episode(task, arm, sample), self.limiters)


def limit_factories(
    factories: Mapping[str, ModelFactory],
    limits: Mapping[str, int],
    make: Callable[[str, int], Limiter],
) -> dict[str, ModelFactory]:
    """Wrap each factory whose spec a limit matches; one limiter per limit, shared.

    Args:
        factories: The run's factories by spec.
        limits: Leases by limit name.
        make: Builds the limiter of one limit (name, leases) where the executor keeps it.
    """
    limiters: dict[str, Limiter] = {}
    wrapped: dict[str, ModelFactory] = {}
    for spec, factory in factories.items():
        names = matching(spec, limits)
        if not names:
            wrapped[spec] = factory
            continue
        for name in names:
            if name not in limiters:
                limiters[name] = make(name, limits[name])
        wrapped[spec] = LimitedFactory(factory, [limiters[n] for n in names])
    return wrapped
