"""The run store: one SQLite file (WAL) per run directory.

Each episode is committed in its own transaction when it ends, so a killed run loses at
most the episodes that were still playing. The tasks a run used are copied in, so that a
report is a pure function of the store.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from toolchaos.core.errors import BadInput
from toolchaos.core.types import (
    Episode,
    EpisodeStatus,
    HazardEvent,
    TraceEntry,
    indeterminate_reason,
)
from toolchaos.env.validation import MALFORMED_ARGUMENTS

STORE_NAME = "episodes.sqlite"
BUSY_TIMEOUT_S = 30.0
"""How long a writer waits for another process's write transaction (SQLite's default: 5 s)."""
SCHEMA_VERSION = "3"

# a judge's labels, and (earlier_judgements) those a re-judging replaced
_JUDGEMENT_COLUMNS = """
    key TEXT NOT NULL,
    rater TEXT NOT NULL,
    model TEXT NOT NULL,
    label TEXT,
    rationale TEXT NOT NULL,
    detail TEXT,
    PRIMARY KEY (key, rater)
"""

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (id TEXT PRIMARY KEY, suite TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS judgements ({_JUDGEMENT_COLUMNS});
CREATE TABLE IF NOT EXISTS earlier_judgements ({_JUDGEMENT_COLUMNS});
CREATE TABLE IF NOT EXISTS episodes (
    key TEXT PRIMARY KEY,
    suite TEXT NOT NULL,
    model TEXT NOT NULL,
    protocol TEXT NOT NULL,
    arm TEXT NOT NULL,
    task_id TEXT NOT NULL,
    sample INTEGER NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    final_answer TEXT NOT NULL,
    end_state TEXT,
    n_calls INTEGER NOT NULL,
    n_events INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    latency_s REAL NOT NULL,
    model_calls INTEGER NOT NULL,
    data TEXT NOT NULL,
    bad_calls INTEGER NOT NULL DEFAULT 0,
    cached_input_tokens INTEGER NOT NULL DEFAULT 0
);
"""

SUMMARY_COLUMNS = (
    "key",
    "suite",
    "model",
    "protocol",
    "arm",
    "task_id",
    "sample",
    "status",
    "error",
    "final_answer",
    "end_state",
    "n_calls",
    "n_events",
    "input_tokens",
    "output_tokens",
    "latency_s",
    "model_calls",
    "bad_calls",
    "cached_input_tokens",
)


# Crash tests set this to N: the process kills itself (SIGKILL) inside its N-th episode
# commit, after the row is written and before the transaction commits.
_CRASH_AT = os.environ.get("TOOLCHAOS_CRASH_IN_COMMIT", "")
_CRASH_IN_COMMIT = int(_CRASH_AT) if _CRASH_AT.isdigit() else 0

_EPISODE_COLUMNS = (*SUMMARY_COLUMNS[:-2], "data", "bad_calls", "cached_input_tokens")

# what an older store lacks, read from what it has: it counted no malformed calls (schema
# 1), and its episodes' JSON holds their cached prompt tokens (schema 2 and 1)
_DERIVED = {
    "bad_calls": "0",
    "cached_input_tokens": "COALESCE(json_extract(data, '$.usage.cached_input_tokens'), 0)",
}
INSERT_EPISODE = (
    f"INSERT OR REPLACE INTO episodes ({', '.join(_EPISODE_COLUMNS)}) "  # noqa: S608
    f"VALUES ({', '.join('?' * len(_EPISODE_COLUMNS))})"
)
"""Inserts (or replaces) one episode's row: the values of :func:`episode_row`."""
INSERT_NEW_EPISODE = (
    f"INSERT INTO episodes ({', '.join(_EPISODE_COLUMNS)}) "  # noqa: S608
    f"VALUES ({', '.join('?' * len(_EPISODE_COLUMNS))})"
)
"""Inserts one new episode's row; a key already stored is an error, never a replace."""


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """Open ``path`` for reading; in a directory nobody can write, as an immutable file.

    SQLite reads a WAL store through a shared-memory file beside it; where that file cannot
    be created (a read-only directory) no process can be writing either, so reading the
    file as immutable is safe.
    """
    uri = path.resolve().as_uri()
    if os.access(path.parent, os.W_OK) or path.with_name(path.name + "-shm").exists():
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None)
        try:
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.OperationalError:
            conn.close()
    return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None)


def malformed_calls(episode: Episode) -> int:
    """How many of the episode's tool calls were malformed: the model's mistakes.

    A call counts when its arguments were not a JSON object (the tool answered a 400), or
    when the env recorded schema violations on its trace entry
    (:attr:`~toolchaos.core.types.TraceEntry.violations`; a ToolFailBench release task's
    expected tool serves such a call anyway). Counted apart from harness faults so a
    report can show both kinds; stored as the row's ``bad_calls``.
    """
    return sum(1 for entry in episode.trace if _is_bad(entry))


def _is_bad(entry: TraceEntry) -> bool:
    """Whether one call was malformed: schema violations, or arguments that were no object."""
    if entry.violations:
        return True
    content = entry.observation.content
    return (
        not entry.observation.ok
        and isinstance(content, dict)
        and content.get("error", {}).get("type") == MALFORMED_ARGUMENTS
    )


def episode_row(episode: Episode) -> tuple[Any, ...]:
    """The values of ``episode``'s row in the episodes table, in the insert's column order."""
    return (
        episode.key,
        episode.suite,
        episode.model,
        episode.protocol,
        episode.arm,
        episode.task_id,
        episode.sample,
        episode.status.value,
        episode.error,
        episode.final_answer,
        episode.end_state,
        len(episode.trace),
        len(episode.hazard_events),
        episode.usage.input_tokens,
        episode.usage.output_tokens,
        episode.usage.latency_s,
        episode.usage.calls,
        episode.model_dump_json(),
        malformed_calls(episode),
        episode.usage.cached_input_tokens,
    )


class Store:
    """An open run store.

    Args:
        path: The SQLite file; created with its schema when missing.
        read_only: Open an existing store for reading only (reports, exports): nothing is
            created or migrated, and a store in a read-only directory can still be read.
    """

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self._puts = 0
        try:
            if read_only:
                self.conn = _connect_read_only(path)
            else:
                self.conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_S)
                _when_unlocked(self._prepare)
            columns = {row[1] for row in self.conn.execute("PRAGMA table_info(episodes)")}
        except sqlite3.OperationalError as exc:
            verb = "read" if read_only else "open or create"
            raise BadInput(f"cannot {verb} the run store {path}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            raise BadInput(f"{path} is not a usable toolchaos store: {exc}") from None
        # a read-only store of an older schema lacks columns: derive them
        self._summary_sql = ", ".join(
            c if c in columns else f"{_DERIVED[c]} AS {c}" for c in SUMMARY_COLUMNS
        )

    def _prepare(self) -> None:
        """WAL mode, the schema (created or migrated) and its version: each step idempotent."""
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(_SCHEMA)
        self._migrate()
        self.conn.execute(
            "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,)
        )

    def _migrate(self) -> None:
        """Bring a store written by an older toolchaos up to this schema (in place)."""
        if "detail" not in self._judgement_columns():
            # a judge's rubric, evidence and scores, as JSON (null in older stores)
            self.conn.execute("ALTER TABLE judgements ADD COLUMN detail TEXT")
        columns = {row[1] for row in self.conn.execute("PRAGMA table_info(episodes)")}
        for column, derived in _DERIVED.items():
            if column not in columns:
                self.conn.execute(
                    f"ALTER TABLE episodes ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0"
                )
                if derived != "0":  # the column's default already is
                    self.conn.execute(f"UPDATE episodes SET {column} = {derived}")  # noqa: S608

    @classmethod
    def open_existing(cls, directory: Path, *, read_only: bool = False) -> Store:
        """Open the store of a finished or running run directory, refusing a missing one."""
        path = directory / STORE_NAME
        if not directory.exists():
            raise BadInput(f"{directory} does not exist")
        if not directory.is_dir():
            raise BadInput(f"{directory} is a file, not a run directory")
        if not path.is_file():
            raise BadInput(f"{directory} holds no toolchaos run (no {STORE_NAME})")
        return cls(path, read_only=read_only)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    @contextlib.contextmanager
    def checkpoints_apart(self, every_s: float = 0.25) -> Iterator[None]:
        """While inside, copy the WAL into the database from a thread of its own.

        SQLite checkpoints from the committing connection once the WAL holds 1,000 pages
        and waits there for the disk to sync, in the middle of an episode's commit. A
        second connection checkpoints instead, passively (it never blocks a commit), so
        the sync waits leave the episode path. A commit is as durable as before: in WAL
        mode it is the append to the WAL either way, and an interrupted checkpoint is
        redone from the WAL.
        """
        stop = threading.Event()

        def checkpoint() -> None:
            try:
                conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            except sqlite3.Error:
                return
            try:
                conn.execute("PRAGMA synchronous=NORMAL")
                while not stop.wait(every_s):
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error:
                pass  # the committing connection checkpoints again once this one stops
            finally:
                conn.close()

        self.conn.execute("PRAGMA wal_autocheckpoint=0")
        thread = threading.Thread(target=checkpoint, name="toolchaos-checkpoint", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()
            self.conn.execute("PRAGMA wal_autocheckpoint=1000")

    # -- metadata and tasks ---------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        """Return a metadata value, or None."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        """Set a metadata value."""
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def put_tasks(self, tasks: Iterable[Any]) -> None:
        """Copy the tasks a run uses into the store (one transaction)."""
        rows = [(t.id, t.suite, t.model_dump_json()) for t in tasks]
        with self._transaction():
            self.conn.executemany("INSERT OR REPLACE INTO tasks VALUES (?, ?, ?)", rows)

    def task_count(self, suite: str) -> int:
        """How many tasks of ``suite`` the store holds."""
        row = self.conn.execute("SELECT COUNT(*) FROM tasks WHERE suite = ?", (suite,)).fetchone()
        return int(row[0])

    def tasks(self) -> dict[str, Any]:
        """Return every stored task by id, each parsed by its suite."""
        from toolchaos.suites import get_suite

        rows = self.conn.execute("SELECT suite, data FROM tasks").fetchall()
        specs = (get_suite(suite).parse_task(data) for suite, data in rows)
        return {t.id: t for t in specs}

    # -- episodes ---------------------------------------------------------------------------
    def keys(self, status: EpisodeStatus | None = None) -> set[str]:
        """Return the keys of the stored episodes (optionally only those with ``status``)."""
        if status is None:
            rows = self.conn.execute("SELECT key FROM episodes").fetchall()
        else:
            rows = self.conn.execute(
                "SELECT key FROM episodes WHERE status = ?", (status.value,)
            ).fetchall()
        return {r[0] for r in rows}

    def put(self, episode: Episode) -> None:
        """Commit one finished episode atomically (replacing an earlier ``error`` try)."""
        row = episode_row(episode)
        with self._transaction():
            self.conn.execute(INSERT_EPISODE, row)
            self._puts += 1
            if self._puts == _CRASH_IN_COMMIT:  # fault injection for the crash tests
                os.kill(os.getpid(), signal.SIGKILL)

    def put_numbered(self, episode: Episode, key_of: Callable[[int], str]) -> Episode:
        """Commit a new episode under a sample no stored episode of its kind has.

        The sample is ``episode.sample`` or one past the largest stored for the same suite,
        task, model and arm, whichever is larger; it is chosen and the row inserted in one
        write transaction (one SELECT, then a plain INSERT, never a replace), so two
        processes sharing the store can never pick the same key and overwrite each
        other's episode.
        """
        with self._transaction():
            (largest,) = self.conn.execute(
                "SELECT MAX(sample) FROM episodes "
                "WHERE suite = ? AND task_id = ? AND model = ? AND arm = ?",
                (episode.suite, episode.task_id, episode.model, episode.arm),
            ).fetchone()
            sample = episode.sample if largest is None else max(episode.sample, largest + 1)
            claimed = episode.model_copy(update={"key": key_of(sample), "sample": sample})
            self.conn.execute(INSERT_NEW_EPISODE, episode_row(claimed))
        return claimed

    def append_call(self, key: str, entry: TraceEntry, events: Sequence[HazardEvent] = ()) -> None:
        """Append one finished call (and the hazard events it fired) to a stored episode.

        The episode's status follows the call: ``indeterminate`` when it failed with a
        fault toolchaos did not inject (:func:`~toolchaos.core.types.indeterminate_reason`),
        ``finished`` again when a later call answers (an ``error`` episode stays one).

        One short write transaction per call: the entry joins the row's JSON trace and the
        counts move with it, so an episode that is still playing (a proxy session) holds
        every call it answered, whatever ends the process afterwards.

        Raises:
            BadInput: The episode is not in the store (it was never opened there).
        """
        paths = ["'$.trace[#]', json(?)"] + ["'$.hazard_events[#]', json(?)"] * len(events)
        values = [entry.model_dump_json(), *(e.model_dump_json() for e in events)]
        bad = int(_is_bad(entry))
        sql = (
            f"UPDATE episodes SET data = json_set(json_insert(data, {', '.join(paths)}), "  # noqa: S608
            "'$.turns', n_calls + 1), n_calls = n_calls + 1, n_events = n_events + ?, "
            "bad_calls = bad_calls + ? WHERE key = ?"
        )
        # the episode's status follows its last call (core.types.indeterminate_reason): one
        # that ends on a fault toolchaos did not inject is indeterminate until a call answers
        reason = indeterminate_reason([entry])
        status = EpisodeStatus.INDETERMINATE if reason else EpisodeStatus.FINISHED
        with self._transaction():
            updated = self.conn.execute(sql, (*values, len(events), bad, key)).rowcount
            self.conn.execute(
                "UPDATE episodes SET status = ?, error = ?, "
                "data = json_set(data, '$.status', ?, '$.error', ?) "
                "WHERE key = ? AND status != ?",
                (status.value, reason, status.value, reason, key, EpisodeStatus.ERROR.value),
            )
        if updated != 1:
            raise BadInput(f"the episode {key} is not in the run store {self.path}")

    def summaries(self) -> list[dict[str, Any]]:
        """Return the summary columns of every episode (no messages), for scoring."""
        cursor = self.conn.execute(
            f"SELECT {self._summary_sql} FROM episodes ORDER BY key"  # noqa: S608
        )
        return [dict(zip(SUMMARY_COLUMNS, row, strict=True)) for row in cursor]

    def episodes(self) -> Iterator[Episode]:
        """Yield every stored episode in full."""
        for (data,) in self.conn.execute("SELECT data FROM episodes ORDER BY key"):
            yield Episode.model_validate_json(data)

    def episode_json(
        self, *, arms: Collection[str] | None = None, keys: Collection[str] | None = None
    ) -> Iterator[tuple[str, str]]:
        """Yield ``(key, data)`` of stored episodes in key order, ``data`` as stored JSON.

        Nothing is validated, so readers that need only part of an episode (diagnostics
        read the trace; a report shows a few conversations) can ``json.loads`` it at scale,
        several times faster than building :class:`Episode` objects.

        Args:
            arms: Only episodes played in these arms.
            keys: Only these episodes (unknown keys are skipped).
        """
        where: list[str] = []
        params: list[str] = []
        if arms is not None:
            where.append(f"arm IN ({', '.join('?' * len(arms))})")
            params.extend(arms)
        chunks: list[list[str]] = [[]] if keys is None else _chunks(sorted(keys), 500)
        for chunk in chunks:
            clauses = list(where)
            if keys is not None:
                clauses.append(f"key IN ({', '.join('?' * len(chunk))})")
            sql = "SELECT key, data FROM episodes"
            if clauses:
                sql += " WHERE " + " AND ".join(clauses)
            yield from self.conn.execute(sql + " ORDER BY key", [*params, *chunk])

    def put_judgement(
        self,
        key: str,
        rater: str,
        model: str,
        label: str | None,
        rationale: str,
        detail: dict[str, Any] | None = None,
    ) -> None:
        """Store (or replace) one rater's label of one episode; None means no label.

        ``detail`` is whatever else the rater said (a judge's rubric, evidence and
        scores), kept as JSON.
        """
        shown = None if detail is None else json.dumps(detail, sort_keys=True)
        with self._transaction():
            self.conn.execute(
                "INSERT OR REPLACE INTO judgements (key, rater, model, label, rationale, detail)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (key, rater, model, label, rationale, shown),
            )

    def _judgement_columns(self) -> set[str]:
        return {row[1] for row in self.conn.execute("PRAGMA table_info(judgements)")}

    def judgements(self, earlier: bool = False) -> list[dict[str, Any]]:
        """Every stored judge label: key, rater, model (the judge), label, rationale, detail.

        ``detail`` is the stored JSON object, or None (a store older than it has none).
        ``earlier``: the labels a re-judging replaced instead (:meth:`keep_as_earlier`;
        none in a store never re-judged).
        """
        table = "earlier_judgements" if earlier else "judgements"
        if earlier and not self._has_table(table):
            return []
        detail = "detail" if "detail" in self._judgement_columns() else "NULL AS detail"
        cursor = self.conn.execute(
            f"SELECT key, rater, model, label, rationale, {detail} FROM {table}"  # noqa: S608
            " ORDER BY key, rater"
        )
        names = ("key", "rater", "model", "label", "rationale", "detail")
        rows = [dict(zip(names, r, strict=True)) for r in cursor]
        for row in rows:
            row["detail"] = None if row["detail"] is None else json.loads(row["detail"])
        return rows

    def keep_as_earlier(self, raters: Sequence[str]) -> int:
        """Move the labels of ``raters`` aside as the earlier ones, for a re-judging.

        What a re-judging of those raters replaces is kept in ``earlier_judgements`` (one
        round: an older earlier round of those raters is dropped), so a report can show
        the labels that flipped. Returns the number of labels moved.
        """
        marks = ", ".join("?" * len(raters))
        with self._transaction():
            self.conn.execute(
                f"DELETE FROM earlier_judgements WHERE rater IN ({marks})",  # noqa: S608
                tuple(raters),
            )
            moved = self.conn.execute(
                "INSERT INTO earlier_judgements SELECT key, rater, model, label, rationale, detail "  # noqa: S608
                f"FROM judgements WHERE rater IN ({marks})",
                tuple(raters),
            ).rowcount
            self.conn.execute(
                f"DELETE FROM judgements WHERE rater IN ({marks})",  # noqa: S608
                tuple(raters),
            )
        return int(moved)

    def _has_table(self, name: str) -> bool:
        found = self.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
        ).fetchone()
        return found is not None

    def count(self) -> int:
        """Return the number of stored episodes."""
        return int(self.conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0])

    def _transaction(self) -> _Tx:
        return _Tx(self.conn, self.path)


def _when_unlocked(step: Callable[[], None]) -> None:
    """Run ``step``, again while another process holds the lock it needs (up to the timeout).

    Several processes opening one new store at once (proxies sharing a ``--store``) meet
    in the switch to WAL mode, which SQLite refuses with "database is locked" at once
    rather than waiting for the busy timeout.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            busy = "locked" in str(exc) or "busy" in str(exc)
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _chunks(items: list[str], size: int) -> list[list[str]]:
    # SQLite caps the number of bound parameters per statement
    return [items[i : i + size] for i in range(0, len(items), size)]


class _Tx:
    """One write transaction; a failed write (full disk, read-only file) becomes BadInput.

    The transaction is rolled back first, so what was committed before stays intact and
    readable, and rerunning the same command resumes from it.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path

    def __enter__(self) -> None:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise unwritable(self.path, exc) from None

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        failure = exc if isinstance(exc, sqlite3.OperationalError) else None
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
                return
            except sqlite3.OperationalError as err:
                failure = err
        # SQLite may have rolled back already (an I/O error ends the transaction)
        with contextlib.suppress(sqlite3.Error):
            self.conn.execute("ROLLBACK")
        if failure is not None:
            raise unwritable(self.path, failure) from None


def unwritable(path: Path, exc: BaseException) -> BadInput:
    """The one-sentence error for a store that cannot be written."""
    return BadInput(
        f"cannot write the run store {path} ({exc}): is the disk full or the directory "
        "read-only? Everything stored before is intact; rerun to resume"
    )
