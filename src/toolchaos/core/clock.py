"""The harness's one reading of the wall clock: when a run started or a label was stored.

Domains and hazards never read it (their time is the world's seeded date); only what
records a run's own history does.
"""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    """The time now in UTC, to the second, in ISO 8601 (``2026-12-03T15:59:54+00:00``)."""
    return datetime.now(UTC).isoformat(timespec="seconds")
