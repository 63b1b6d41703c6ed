"""What a task's writes must leave, and what an episode's writes did leave.

A task that writes is about some fields of some rows: the status of a booking, the method
of a two-factor setting, the amount of a transfer. :func:`expected_writes` reads them off
the world the oracle's path wrote (every field it changed, or every field of a row it
created), :func:`written_state` shows the same fields of an episode's world, plus the rows
the episode wrote that the task is not about. Comparing the two compares what the task
asked for, so an optional memo the agent adds to a transfer does not fail it, while a
wrong amount, a missing booking or a write to another record does.

Ids minted during an episode are masked as ``#minted`` (as in the world's state hash), so
two episodes that created the same records in another order reach the same state.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import ExpectedWrite
from toolchaos.core.world import Row, World

MINTED = "#minted"
NEW_ROW = "#new"


def _masked(value: Any, minted: set[str]) -> Any:
    """``value`` with every minted id replaced by :data:`MINTED`."""
    if isinstance(value, str):
        return MINTED if value in minted else value
    if isinstance(value, list):
        return [_masked(v, minted) for v in value]
    if isinstance(value, dict):
        return {k: _masked(v, minted) for k, v in value.items()}
    return value


def _fields(row: Row | None, minted: set[str]) -> dict[str, Any]:
    return {} if row is None else _masked(row.model_dump(mode="json"), minted)


def expected_writes(
    world: World, free_fields: Collection[tuple[str, str]] = ()
) -> list[ExpectedWrite]:
    """The rows and fields the writes on ``world`` (a fork the oracle played) produced.

    A row the oracle updated contributes the fields it changed; a row it created, every
    field; a row it deleted, an empty field set under its key (it must be gone). Fields
    in ``free_fields`` (``(table, field)`` pairs: free text the task leaves to the agent,
    such as a memo) are left out.
    """
    minted = set(world.minted_ids())
    out: list[ExpectedWrite] = []
    for table, rows in sorted(world.written_rows().items()):
        for key, (before, now) in sorted(rows.items()):
            old, new = _fields(before, minted), _fields(now, minted)
            if now is None:
                fields: dict[str, Any] = {}
            elif before is None:
                fields = new
            else:
                fields = {f: v for f, v in new.items() if old.get(f) != v}
            fields = {f: v for f, v in fields.items() if (table, f) not in free_fields}
            created = before is None or key in minted
            out.append(ExpectedWrite(table=table, key=None if created else key, fields=fields))
    return out


def written_state(world: World, expected: list[ExpectedWrite]) -> str:
    """The episode's side of the comparison, as canonical JSON text.

    For each expected write in order: the expected fields of its row as the episode left
    them (``null`` for a row that is missing, or a field it lacks). A created row is
    matched among the rows the episode created in its table: the first whose fields are
    the expected ones, else the first not yet matched. Then ``other``: the rows the
    episode wrote that no expected write names (``table/key``, ``table/#new`` for a
    created one), sorted.
    """
    minted = set(world.minted_ids())
    written = world.written_rows()
    claimed: set[tuple[str, str]] = set()
    rows: list[dict[str, Any] | None] = []
    for want in expected:
        table = world.table(want.table)
        if want.key is not None:
            claimed.add((want.table, want.key))
            found = table.get(want.key)
            if found is None:
                rows.append(None)
                continue
            values = _fields(found, minted)
            rows.append({f: values.get(f) for f in want.fields})
            continue
        created = [
            key
            for key, (before, now) in sorted(written.get(want.table, {}).items())
            if before is None and now is not None and (want.table, key) not in claimed
        ]
        views = {key: _fields(table[key], minted) for key in created}
        shown = {key: {f: view.get(f) for f in want.fields} for key, view in views.items()}
        match = next((k for k in created if shown[k] == want.fields), None)
        if match is None and created:
            match = created[0]
        if match is None:
            rows.append(None)
            continue
        claimed.add((want.table, match))
        rows.append(shown[match])
    other = sorted(
        f"{table}/{NEW_ROW if before is None else key}"
        for table, changed in written.items()
        for key, (before, _now) in changed.items()
        if (table, key) not in claimed
    )
    return dumps({"rows": rows, "other": other})
