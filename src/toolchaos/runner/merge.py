"""Merge run stores: the shards of one run (``run --shard I/N``) into one run directory.

Only stores of one run merge: the same suite and dataset, the same config (models and
their settings, arms, samples, protocol, loop) and the same toolchaos version; anything
else is refused with one sentence, before anything is written. An episode key found in
several stores with the same stored episode is kept once; a finished episode replaces a
harness ``error`` of the same key (as ``--retry-errors`` would); two different finished
episodes of one key are a conflict and refused. The merged directory is an ordinary run
directory: ``toolchaos report`` reads it as it would a single run's, and rerunning the
run (unsharded) on it plays whatever no shard played.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from toolchaos.core.errors import BadInput
from toolchaos.core.types import REPLAYABLE
from toolchaos.runner.run import MANIFEST_NAME, read_manifest, run_lock
from toolchaos.runner.store import STORE_NAME, Store


class MergeSummary(BaseModel):
    """What a merge did."""

    out: str
    sources: int
    episodes: int
    added: int
    duplicates: int
    replaced_errors: int


@dataclass
class _Source:
    directory: Path
    store: Store
    manifest: dict[str, Any]

    def meta(self, key: str) -> str | None:
        return self.store.get_meta(key)

    @property
    def version(self) -> str | None:
        found = self.meta("toolchaos_version") or self.manifest.get("toolchaos_version")
        return str(found) if found else None

    @property
    def dataset(self) -> str | None:
        found = self.manifest.get("dataset_sha256")
        return str(found) if found else None


def _models(source: _Source) -> list[Any]:
    found: list[Any] = json.loads(source.meta("models") or "[]")
    return sorted(found, key=lambda m: json.dumps(m, sort_keys=True))


def check_compatible(first: _Source, other: _Source) -> None:
    """Refuse two stores that are not parts of one run, in one sentence."""
    a, b = first.directory, other.directory
    if first.meta("fingerprint") is None or other.meta("fingerprint") is None:
        empty = a if first.meta("fingerprint") is None else b
        raise BadInput(f"{empty} holds no started run; nothing to merge")
    if first.manifest.get("suite") != other.manifest.get("suite") or (
        first.dataset and other.dataset and first.dataset != other.dataset
    ):
        raise BadInput(
            f"{a} and {b} are runs of different datasets; only the shards of one run merge"
        )
    if first.version != other.version:
        raise BadInput(
            f"{a} was written by toolchaos {first.version or 'unknown'} and {b} by "
            f"{other.version or 'unknown'}; only stores of one toolchaos version merge"
        )
    if first.meta("fingerprint") != other.meta("fingerprint") or _models(first) != _models(other):
        raise BadInput(
            f"{a} and {b} are runs of different configs (models, their settings, arms, "
            "samples, protocol or loop); only the shards of one run merge"
        )


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def merge(sources: list[Path], out: Path) -> MergeSummary:
    """Merge the run stores of ``sources`` into the run directory ``out``.

    ``out`` may be new, or hold a part of the same run already (merging again adds only
    what is new). Nothing is written unless every store is compatible and no key
    conflicts; then everything is written in one transaction.

    Raises:
        BadInput: Stores of different runs, a conflicting episode or task, or an
            unusable directory.
    """
    if not sources:
        raise BadInput("name at least one run directory to merge")
    resolved = {s.resolve() for s in sources}
    if len(resolved) != len(sources):
        raise BadInput("the same run directory is named twice")
    if out.resolve() in resolved:
        raise BadInput(f"--out {out} is one of the stores to merge; choose a new directory")
    opened: list[_Source] = []
    try:
        for directory in sources:
            store = Store.open_existing(directory, read_only=True)
            opened.append(_Source(directory, store, read_manifest(directory)))
        for other in opened[1:]:
            check_compatible(opened[0], other)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BadInput(f"cannot create output directory {out}: {exc.strerror}") from None
        with run_lock(out):
            target = Store(out / STORE_NAME)
            try:
                return _merge_into(opened, _Source(out, target, read_manifest(out)))
            finally:
                target.close()
    finally:
        for source in opened:
            source.store.close()


def _judge_entries(sources: list[_Source]) -> str | None:
    """The judges' model entries (meta ``judges``) of every store, one per spec.

    A later store's entry of a spec wins; None when no store holds any.
    """
    by_spec: dict[str, Any] = {}
    for source in sources:
        for entry in json.loads(source.meta("judges") or "[]"):
            by_spec[str(entry["spec"])] = entry
    return json.dumps([by_spec[s] for s in sorted(by_spec)]) if by_spec else None


def _merge_into(sources: list[_Source], target: _Source) -> MergeSummary:
    first = sources[0]
    existing = target.meta("fingerprint") is not None
    if existing:
        check_compatible(target, first)
    # pass 1: which store's row each key takes, and every conflict, before writing
    chosen: dict[str, tuple[int, str, str]] = {}  # key -> (source, status, digest)
    duplicates = replaced = 0
    everyone = [target, *sources] if existing else list(sources)
    for index, source in enumerate(everyone):
        rows = source.store.conn.execute("SELECT key, status, data FROM episodes ORDER BY key")
        for key, status, data in rows:
            mine = (index, status, _digest(data))
            held = chosen.get(key)
            if held is None:
                chosen[key] = mine
            elif held[2] == mine[2]:
                duplicates += 1
            elif held[1] in REPLAYABLE:
                chosen[key] = mine
                replaced += 1
            elif status in REPLAYABLE:
                replaced += 1
            else:
                raise BadInput(
                    f"{everyone[held[0]].directory} and {source.directory} hold different "
                    f"episodes for {key}; a key must be played by one shard only"
                )
    tasks = _tasks(everyone)
    judgements = _judgements(everyone)
    # pass 2: write everything in one transaction
    added = 0
    conn = target.store.conn
    with target.store._transaction():
        conn.executemany("INSERT OR REPLACE INTO tasks VALUES (?, ?, ?)", tasks)
        for index, source in enumerate(everyone):
            if existing and index == 0:
                continue
            wanted = {key for key, (i, _, _) in chosen.items() if i == index}
            added += _copy_episodes(source, conn, wanted)
        conn.executemany(
            "INSERT OR REPLACE INTO judgements (key, rater, model, label, rationale, detail)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            judgements,
        )
        for key in ("fingerprint", "toolchaos_version", "models"):
            value = first.meta(key) if key != "toolchaos_version" else first.version
            if value is not None:
                conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
        judges = _judge_entries(everyone)
        if judges is not None:
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('judges', ?)", (judges,))
        conn.execute("DELETE FROM meta WHERE key = 'shard'")
    total = target.store.count()
    _write_manifest(sources, target, total)
    return MergeSummary(
        out=str(target.directory),
        sources=len(sources),
        episodes=total,
        added=added,
        duplicates=duplicates,
        replaced_errors=replaced,
    )


def _copy_episodes(source: _Source, conn: Any, wanted: set[str]) -> int:
    """Copy the rows of ``wanted`` keys from ``source`` (every column it has)."""
    if not wanted:
        return 0
    cursor = source.store.conn.execute("SELECT * FROM episodes ORDER BY key")
    columns = [d[0] for d in cursor.description]
    sql = (
        f"INSERT OR REPLACE INTO episodes ({', '.join(columns)}) "  # noqa: S608
        f"VALUES ({', '.join('?' * len(columns))})"
    )
    key_at = columns.index("key")
    rows = [row for row in cursor if row[key_at] in wanted]
    conn.executemany(sql, rows)
    return len(rows)


def _tasks(sources: list[_Source]) -> list[tuple[str, str, str]]:
    found: dict[str, tuple[str, str, str]] = {}
    for source in sources:
        for task_id, suite, data in source.store.conn.execute("SELECT id, suite, data FROM tasks"):
            held = found.setdefault(task_id, (task_id, suite, data))
            if held != (task_id, suite, data):
                raise BadInput(
                    f"{source.directory} holds another version of task {task_id}; only the "
                    "shards of one run merge"
                )
    return sorted(found.values())


def _judgements(sources: list[_Source]) -> list[tuple[Any, ...]]:
    """Every source's judgements as rows to insert (``detail`` as its JSON text or null)."""
    found: dict[tuple[str, str], tuple[Any, ...]] = {}
    names = ("key", "rater", "model", "label", "rationale")
    for source in sources:
        rows = [
            (
                *(j[n] for n in names),
                None if j["detail"] is None else json.dumps(j["detail"], sort_keys=True),
            )
            for j in source.store.judgements()
        ]
        for row in rows:
            held = found.setdefault((row[0], row[1]), tuple(row))
            if held != tuple(row):
                raise BadInput(
                    f"{source.directory} holds another {row[1]} judgement of {row[0]}; "
                    "judge the merged run instead"
                )
    return sorted(found.values(), key=lambda r: (r[0], r[1]))


def _write_manifest(sources: list[_Source], target: _Source, total: int) -> None:
    manifests = [s.manifest for s in sources if s.manifest]
    manifest = dict(target.manifest or (manifests[0] if manifests else {}))
    manifest.pop("shard", None)
    started = [str(m["started"]) for m in [target.manifest, *manifests] if m.get("started")]
    ended = [m.get("ended") for m in [*manifests] if m]
    if started:
        manifest["started"] = min(started)
    manifest["ended"] = max(str(e) for e in ended) if ended and all(ended) else None
    manifest["episodes"] = total
    merged = [str(p) for p in target.manifest.get("merged_from", [])]
    merged += [str(s.directory) for s in sources if str(s.directory) not in merged]
    manifest["merged_from"] = merged
    path = target.directory / MANIFEST_NAME
    try:
        path.write_text(json.dumps(manifest, indent=2) + "\n")
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror}; the merged store is intact") from None
