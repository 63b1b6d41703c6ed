"""What ``toolchaos runs`` lists: the run directories under some folders, one line each.

A run directory is one holding a store (:data:`toolchaos.runner.store.STORE_NAME`); its
line comes from the store (episodes, harness errors, models that played) and from its
manifest (suite, arms, start and end), so a run still playing, or one whose manifest is
gone, is listed too. Nothing is written and no lock is taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel

from toolchaos.core.errors import BadInput
from toolchaos.core.types import EpisodeStatus
from toolchaos.runner.run import read_manifest
from toolchaos.runner.store import STORE_NAME, Store


class RunListing(BaseModel):
    """One run directory, as ``toolchaos runs`` shows it."""

    directory: str
    suite: str
    models: list[str]
    arms: list[str]
    episodes: int
    errors: int
    """Episodes stored as harness errors (``run --retry-errors`` plays them again)."""
    indeterminate: int = 0
    """Episodes stored as ``indeterminate``: decided by a fault toolchaos did not inject
    (``run --retry-errors`` plays them again too)."""
    started: str | None
    ended: str | None
    """None: the run was stopped, or is still playing (or its manifest is gone)."""


def find_runs(folders: Iterable[Path]) -> list[Path]:
    """Every run directory at or under ``folders``, each once, in path order per folder.

    Raises:
        BadInput: a folder does not exist or is a file.
    """
    found: dict[Path, None] = {}
    for folder in folders:
        if not folder.exists():
            raise BadInput(f"{folder} does not exist")
        if not folder.is_dir():
            raise BadInput(f"{folder} is a file, not a folder of runs")
        stores = sorted(folder.rglob(STORE_NAME))
        found.update(dict.fromkeys(store.parent for store in stores))
    return list(found)


def describe_run(directory: Path) -> RunListing:
    """The listing of one run directory, from its store and manifest."""
    manifest = read_manifest(directory)
    store = Store.open_existing(directory, read_only=True)
    try:
        rows = store.summaries()
    finally:
        store.close()
    played = list(dict.fromkeys(str(r["model"]) for r in rows))
    planned = [str(m["spec"]) for m in manifest.get("models", []) if isinstance(m, dict)]
    suites = sorted({str(r["suite"]) for r in rows})
    arms = manifest.get("arms") or sorted({str(r["arm"]) for r in rows})
    return RunListing(
        directory=str(directory),
        suite=str(manifest.get("suite") or ",".join(suites) or "-"),
        models=list(dict.fromkeys([*planned, *played])),
        arms=[str(a) for a in arms],
        episodes=len(rows),
        errors=sum(r["status"] == EpisodeStatus.ERROR for r in rows),
        indeterminate=sum(r["status"] == EpisodeStatus.INDETERMINATE for r in rows),
        started=manifest.get("started"),
        ended=manifest.get("ended"),
    )


def list_runs(folders: Iterable[Path]) -> list[RunListing]:
    """The listing of every run directory at or under ``folders``."""
    return [describe_run(directory) for directory in find_runs(folders)]
