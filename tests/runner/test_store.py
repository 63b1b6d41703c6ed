import sqlite3
import time
from pathlib import Path

import pytest

from toolchaos.core.errors import BadInput, ToolError
from toolchaos.core.types import Episode, EpisodeStatus, FaultOrigin
from toolchaos.runner.store import STORE_NAME, Store


def test_put_replaces_an_error_episode(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")
    store.put(
        Episode(
            key="k",
            suite="s",
            task_id="t",
            model="m",
            protocol="p",
            arm="clean",
            status=EpisodeStatus.ERROR,
            error="boom",
        )
    )
    assert store.keys(EpisodeStatus.ERROR) == {"k"}
    store.put(
        Episode(
            key="k", suite="s", task_id="t", model="m", protocol="p", arm="clean", final_answer="42"
        )
    )
    assert store.keys(EpisodeStatus.ERROR) == set()
    assert [e.final_answer for e in store.episodes()] == ["42"]
    assert store.count() == 1


def test_a_file_that_is_not_sqlite_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "episodes.sqlite"
    path.write_text("this is not a database, just text " * 100)
    with pytest.raises(BadInput, match="not a usable toolchaos store"):
        Store(path)


def test_missing_run_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="holds no toolchaos run"):
        Store.open_existing(tmp_path)


def _episode_with_calls(*raw_arguments: str) -> Episode:
    from toolchaos.core.types import Observation, ToolCall, TraceEntry
    from toolchaos.env.validation import parse_arguments

    trace = []
    for i, raw in enumerate(raw_arguments):
        call = ToolCall(id=f"c{i}", name="get_weather", arguments=raw)
        try:
            observation = Observation(
                call_id=call.id, tool=call.name, ok=True, content=parse_arguments(call.name, raw)
            )
        except ToolError as err:
            observation = Observation(
                call_id=call.id, tool=call.name, ok=False, content=err.to_payload()
            )
        trace.append(TraceEntry(call=call, observation=observation, ordinal=i))
    return Episode(
        key="k", suite="s", task_id="t", model="m", protocol="p", arm="clean", trace=trace
    )


def test_malformed_tool_calls_are_counted_as_the_models(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")
    store.put(_episode_with_calls('{"city": "Oslo"}', '{"city": "Os', "[1, 2]"))
    [row] = store.summaries()
    assert row["bad_calls"] == 2 and row["n_calls"] == 3


def test_a_store_from_schema_1_is_migrated_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:  # what toolchaos wrote before bad_calls existed
        conn.executescript(
            """
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO meta VALUES ('schema_version', '1');
            CREATE TABLE episodes (
                key TEXT PRIMARY KEY, suite TEXT NOT NULL, model TEXT NOT NULL,
                protocol TEXT NOT NULL, arm TEXT NOT NULL, task_id TEXT NOT NULL,
                sample INTEGER NOT NULL, status TEXT NOT NULL, error TEXT,
                final_answer TEXT NOT NULL, end_state TEXT, n_calls INTEGER NOT NULL,
                n_events INTEGER NOT NULL, input_tokens INTEGER NOT NULL,
                output_tokens INTEGER NOT NULL, latency_s REAL NOT NULL,
                model_calls INTEGER NOT NULL, data TEXT NOT NULL
            );
            INSERT INTO episodes VALUES
                ('old', 's', 'm', 'p', 'clean', 't', 0, 'finished', NULL, '42', NULL,
                 0, 0, 0, 0, 0.0, 1, '{}');
            """
        )
    store = Store(path)
    store.put(_episode_with_calls('{"city": "Os'))
    rows = {r["key"]: r for r in store.summaries()}
    assert rows["old"]["bad_calls"] == 0 and rows["old"]["final_answer"] == "42"
    assert rows["k"]["bad_calls"] == 1
    assert store.get_meta("schema_version") == "3"


def test_a_schema_2_store_gets_its_cached_tokens_from_the_episodes_json(tmp_path: Path) -> None:
    path = tmp_path / STORE_NAME
    episode = _episode_with_calls('{"city": "Oslo"}')
    episode.usage.input_tokens, episode.usage.cached_input_tokens = 100, 75
    store = Store(path)
    store.put(episode)
    store.close()
    with sqlite3.connect(path) as conn:  # what schema 2 wrote: no cached_input_tokens column
        conn.execute("ALTER TABLE episodes DROP COLUMN cached_input_tokens")
    [read_only] = Store.open_existing(tmp_path, read_only=True).summaries()
    assert read_only["cached_input_tokens"] == 75
    [migrated] = Store.open_existing(tmp_path).summaries()
    assert migrated["cached_input_tokens"] == 75


def test_a_thread_checkpoints_while_episodes_are_committed(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite")
    before = store.path.stat().st_size
    with store.checkpoints_apart(every_s=0.01):
        assert store.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        for n in range(200):
            episode = Episode(
                key=f"k{n}", suite="s", task_id="t", model="m", protocol="p", arm="clean"
            )
            store.put(episode.model_copy(update={"final_answer": "x" * 5000}))
        deadline = time.monotonic() + 10
        # nothing else checkpoints: the database file grows only when the thread copies
        # the WAL into it (a passive checkpoint taken mid-way copies part of it: wait for all)
        wanted = before + 200 * 5000
        while store.path.stat().st_size <= wanted and time.monotonic() < deadline:
            time.sleep(0.01)
        assert store.path.stat().st_size > wanted
    assert store.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
    assert store.count() == 200
    store.close()
    with sqlite3.connect(tmp_path / "s.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_calls_appended_one_by_one_read_back_as_the_whole_episode(tmp_path: Path) -> None:
    from toolchaos.core.types import HazardEvent, HazardFamily

    whole = _episode_with_calls('{"city": "Oslo"}', '{"city": "Os', '{"city": "Rome"}')
    whole.trace[2].fault = FaultOrigin.UPSTREAM
    event = HazardEvent(
        family=HazardFamily.EXECUTION_FAILURE,
        variant="transient",
        tool="t",
        ordinal=1,
        detail="503",
    )
    whole.trace[0].observation.hazard_events = [event]
    whole.hazard_events = [event]
    whole.turns = 3
    store = Store(tmp_path / "s.sqlite")
    store.put(whole.model_copy(update={"trace": [], "hazard_events": []}))
    for entry in whole.trace:
        store.append_call("k", entry, entry.observation.hazard_events)
    [row] = store.summaries()
    assert (row["n_calls"], row["n_events"], row["bad_calls"]) == (3, 1, 1)
    [stored] = store.episodes()
    assert stored == whole
    with pytest.raises(BadInput, match="the episode nope is not in the run store"):
        store.append_call("nope", whole.trace[0])
