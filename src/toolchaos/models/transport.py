"""What API clients share: error kinds, retries with backoff, endpoint limits, the cache.

A transient failure (429, 5xx, a timeout, a reset connection, a malformed body, empty
choices) is retried with exponential backoff and jitter, honouring Retry-After. When the
retries run out the episode ends ``indeterminate`` (a provider fault toolchaos did not
inject), never as the model's wrong answer. A fatal failure (a rejected key, an unknown
model, an endpoint that cannot be reached at all) stops the run with one clear sentence.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from toolchaos.core.errors import BadInput, HarnessFault

T = TypeVar("T")


class ModelFatal(BadInput):
    """The model cannot be used at all: a wrong key, an unknown model, a dead endpoint."""


class ModelUnavailable(HarnessFault):
    """Retries ran out on transient failures; the episode is stored as ``indeterminate``."""


class Transient(Exception):
    """A failure worth retrying, with the server's Retry-After when it sent one."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RetryPolicy(BaseModel):
    """Exponential backoff with full jitter, capped, honouring Retry-After."""

    max_retries: int = 5
    base_s: float = 0.5
    cap_s: float = 30.0

    def delay(self, attempt: int, retry_after: float | None, rng: random.Random) -> float:
        """Seconds to wait before retry number ``attempt`` (1-based)."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.cap_s)
        return rng.uniform(0, min(self.cap_s, self.base_s * 2 ** (attempt - 1)))


async def with_retries(
    call: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    rng: random.Random,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> T:
    """Run ``call``, retrying :class:`Transient` failures as ``policy`` says."""
    attempt = 0
    while True:
        try:
            return await call()
        except Transient as exc:
            attempt += 1
            if attempt > policy.max_retries:
                raise ModelUnavailable(
                    f"gave up after {policy.max_retries} retries: {exc}"
                ) from exc
            await sleep(policy.delay(attempt, exc.retry_after, rng))


def retry_after(headers: Mapping[str, str] | None) -> float | None:
    """The server's Retry-After header, in seconds, if it sent a usable one."""
    value = headers.get("retry-after") if headers is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def redact(text: str, secret: str | None) -> str:
    """Remove a key from a message before it can reach a log, a store or a report."""
    return text.replace(secret, "***") if secret else text


class ResponseCache:
    """A SQLite cache of model responses keyed by request hash.

    Replaying from it reproduces episodes byte for byte: the stored response, with its
    recorded usage and latency, is returned as it was.
    """

    def __init__(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=60
            )
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute(
                "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, data TEXT NOT NULL)"
            )
        except (OSError, sqlite3.DatabaseError) as exc:
            raise BadInput(f"cannot use response cache {path}: {exc}") from None

    def get(self, key: str) -> str | None:
        """The cached response text, or None."""
        row = self.conn.execute("SELECT data FROM responses WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def put(self, key: str, data: str) -> None:
        """Store a response."""
        self.conn.execute("INSERT OR REPLACE INTO responses VALUES (?, ?)", (key, data))


class EndpointPool:
    """Round-robin over base URLs, with a concurrency limit per URL."""

    def __init__(self, urls: list[str], concurrency: int) -> None:
        self.urls = urls
        self.concurrency = concurrency
        self._next = 0
        self._limits: dict[str, asyncio.Semaphore] = {}

    def pick(self) -> tuple[str, asyncio.Semaphore]:
        """The next URL and its semaphore."""
        url = self.urls[self._next % len(self.urls)]
        self._next += 1
        if url not in self._limits:
            self._limits[url] = asyncio.Semaphore(self.concurrency)
        return url, self._limits[url]
