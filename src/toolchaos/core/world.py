"""The World base: one domain's state, built from a seed, forked per episode.

A world keeps its tables as ``dict[key, row]`` fields with frozen pydantic rows. Forking is
copy-on-write: a fork shares every table with its parent until a tool writes to one, so an
episode costs a shallow copy, not a deep one, and a read-only episode hashes for free.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from toolchaos.core.jsonutil import digest, dumps


class Row(BaseModel):
    """A frozen table row. Change one with ``world.update(table, key, **fields)``."""

    model_config = ConfigDict(frozen=True, extra="forbid")


@dataclass(slots=True)
class _Cow:
    """A world's copy-on-write bookkeeping."""

    # the tables this fork has copied (and so may write)
    owned: set[str] = field(default_factory=set)
    # the ids this world has minted, and those its base had minted when it was forked
    minted: list[str] = field(default_factory=list)
    base_minted: list[str] = field(default_factory=list)
    # table -> order-free sum of row hashes; computed once on the base, shared by forks
    sums: dict[str, int] = field(default_factory=dict)
    # table -> key -> the row before this fork first touched it (None: the key is new)
    origin: dict[str, dict[str, Row | None]] = field(default_factory=dict)
    is_fork: bool = False
    # id counters -> state hash of a fork that wrote nothing; shared like ``sums``
    clean_hashes: dict[str, str] = field(default_factory=dict)


RELEASE = 3
"""The task-set release whose tool behaviour a world shows unless a task says otherwise."""
FROZEN_RELEASE = 2
"""The release of a task that names none: every task built before releases were recorded
(ToolBench-X v1 and v2, ToolFailBench). Its tools behave as they did when it was built."""


class World(BaseModel):
    """Base class of every domain's world.

    Subclasses declare their tables as ``dict[str, SomeRow]`` fields, list their names in
    ``TABLES`` and implement :meth:`generate`. The world has its own clock (minutes after
    ``EPOCH``) and its own id counters, so nothing in it reads the wall clock or ``uuid4``.
    """

    model_config = ConfigDict(extra="forbid")

    TABLES: ClassVar[tuple[str, ...]] = ()
    EPOCH: ClassVar[datetime] = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    seed: int = 0
    clock_minutes: int = 0
    # a tool fixed after a release keeps its old behaviour on a world of that release, so
    # a frozen task replays exactly what it was built on (toolchaos.domains.make_world)
    release: int = RELEASE
    id_counters: dict[str, int] = Field(default_factory=dict)

    # the copy-on-write bookkeeping, in one plain object: a private attribute is read
    # through pydantic's __getattr__, so each method reads this once
    _cow: _Cow = PrivateAttr(default_factory=_Cow)

    @classmethod
    def build(cls, seed: int) -> Self:
        """Build the world for ``seed``; the same seed always gives the same bytes."""
        return cls.generate(random.Random(seed), seed)

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Create the world's tables from ``rng``. Domains override this."""
        raise NotImplementedError(f"{cls.__name__} must implement generate()")

    # -- copy-on-write -----------------------------------------------------------------
    def fork(self) -> Self:
        """Return an independent copy for one episode, sharing tables until written."""
        cow = self._cow
        if cow.is_fork:  # a fork of a fork starts from its parent's current state
            sums = {name: int(self.table_digest(name), 16) for name in self.TABLES}
            clean_hashes: dict[str, str] = {}
        else:
            if len(cow.sums) < len(self.TABLES):  # once per base: forks share its sums
                for name in self.TABLES:
                    self._base_sum(name)
            sums = cow.sums  # the base's are shared, read-only
            clean_hashes = cow.clean_hashes
        clone = self.model_copy()
        clone._cow = _Cow(
            minted=list(cow.minted),
            base_minted=list(cow.minted),
            sums=sums,
            clean_hashes=clean_hashes,
            is_fork=True,
        )
        return clone

    def table(self, name: str) -> dict[str, Any]:
        """Return table ``name`` for reading."""
        if name not in self.TABLES:
            raise KeyError(f"{type(self).__name__} has no table {name!r}")
        table: dict[str, Any] = getattr(self, name)
        return table

    def _writable(self, name: str, key: str) -> dict[str, Any]:
        cow = self._cow
        if not cow.is_fork:
            self._base_sum(name)  # the sum must describe the table as it was before writes
        table = self.table(name)
        if name not in cow.owned:
            table = dict(table)
            object.__setattr__(self, name, table)
            cow.owned.add(name)
        touched = cow.origin.setdefault(name, {})
        if key not in touched:
            touched[key] = table.get(key)
        return table

    def insert(self, name: str, key: str, row: Row) -> None:
        """Insert or replace ``row`` under ``key`` in table ``name``."""
        self._writable(name, key)[key] = row

    def update(self, name: str, key: str, /, **fields: Any) -> Any:
        """Replace some fields of an existing row and return the new row."""
        old = self.table(name)[key]
        row = type(old).model_validate({**old.model_dump(), **fields})
        self._writable(name, key)[key] = row
        return row

    def delete(self, name: str, key: str) -> None:
        """Remove the row under ``key`` from table ``name``."""
        del self._writable(name, key)[key]

    def apply_patch(self, patch: dict[str, dict[str, dict[str, Any]]]) -> None:
        """Apply a task's world patch: ``{table: {key: {field: value}}}``.

        A key that does not exist yet is inserted as a whole row of the table's row type.
        """
        for name, rows in patch.items():
            table = self.table(name)
            row_type = type(self).model_fields[name].annotation
            for key, fields in rows.items():
                if key in table:
                    self.update(name, key, **fields)
                else:
                    row_cls = _row_class(row_type)
                    self.insert(name, key, row_cls.model_validate(fields))

    # -- clock and ids -------------------------------------------------------------------
    def user(self) -> str | None:
        """Who makes the requests, where a tool needs the user's identity; None if none does.

        A world whose records hold the user among others (a household's members) names
        them here, so that a request saying "me" can be resolved from the system prompt.
        """
        return None

    def now(self) -> datetime:
        """Return the world's current time (timezone-aware, UTC)."""
        return self.EPOCH + timedelta(minutes=self.clock_minutes)

    def advance(self, minutes: int) -> None:
        """Move the world's clock forward."""
        self.clock_minutes += minutes

    def next_id(self, prefix: str, width: int = 5) -> str:
        """Return the next id for ``prefix`` (``RET-00001``, ``RET-00002``, ...)."""
        counters = dict(self.id_counters)
        counters[prefix] = counters.get(prefix, 0) + 1
        self.id_counters = counters
        new_id = f"{prefix}-{counters[prefix]:0{width}d}"
        self._cow.minted.append(new_id)
        return new_id

    # -- hashing -------------------------------------------------------------------------
    def table_digest(self, name: str) -> str:
        """Return a digest of one table, independent of row order.

        A table's digest is the sum (mod 2**256) of its rows' SHA-256 hashes, so a fork
        only rehashes the rows it touched. Ids minted during the fork's life are masked,
        so two episodes that create the same records in another order (and so number them
        differently) reach the same state.
        """
        cow = self._cow
        total = self._base_sum(name)
        for key, original in cow.origin.get(name, {}).items():
            if original is not None:
                total -= _row_hash(key, original, cow.base_minted)
            current = self.table(name).get(key)
            if current is not None:
                total += _row_hash(key, current, cow.minted)
        return f"{total % _MODULUS:064x}"

    def _base_sum(self, name: str) -> int:
        cow = self._cow
        total = cow.sums.get(name)
        if total is None:
            if cow.is_fork:
                raise RuntimeError("the base world's digests must exist before forking")
            total = sum(_row_hash(k, v, cow.minted) for k, v in self.table(name).items())
            total = cow.sums[name] = total % _MODULUS
        return total

    def state_hash(self) -> str:
        """Return a digest of the whole state: every table plus the id counters.

        A world whose tables nothing has written (most episodes only read) has its base's
        table digests, so its hash is computed once per id-counter state and reused.
        """
        cow = self._cow
        ids = dumps(self.id_counters)
        clean = not cow.origin
        if clean and ids in cow.clean_hashes:
            return cow.clean_hashes[ids]
        parts = {name: self.table_digest(name) for name in self.TABLES}
        parts["__ids__"] = ids
        state = digest(parts)
        if clean:
            cow.clean_hashes[ids] = state
        return state

    def written_rows(self) -> dict[str, dict[str, tuple[Row | None, Row | None]]]:
        """The rows this fork has written: table -> key -> (before, now).

        ``before`` is None for a row the fork created, ``now`` None for one it deleted.
        A row written back to what it was is left out.
        """
        out: dict[str, dict[str, tuple[Row | None, Row | None]]] = {}
        for name, touched in self._cow.origin.items():
            table = self.table(name)
            for key, before in touched.items():
                now = table.get(key)
                if now != before:
                    out.setdefault(name, {})[key] = (before, now)
        return out

    def minted_ids(self) -> list[str]:
        """The ids this world has minted (masked as ``#minted`` when states are compared)."""
        return list(self._cow.minted)

    def written_tables(self) -> set[str]:
        """Return the names of the tables this fork has written to."""
        return set(self._cow.owned)


_MODULUS = 2**256


def _row_hash(key: str, row: Row, minted: list[str]) -> int:
    text = _mask(dumps([key, row.model_dump(mode="json")]), minted)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest(), "big")


def _mask(text: str, minted: list[str]) -> str:
    for new_id in minted:
        text = text.replace(f'"{new_id}"', '"#minted"')
    return text


def _row_class(annotation: Any) -> type[Row]:
    args: tuple[Any, ...] = getattr(annotation, "__args__", ())
    if len(args) == 2 and isinstance(args[1], type) and issubclass(args[1], Row):
        return args[1]
    raise TypeError(f"cannot find the row type of {annotation!r}")
