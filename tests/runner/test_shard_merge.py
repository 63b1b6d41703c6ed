"""Sharded runs and merged stores: the merged run is the unsharded run, mismatches refused."""

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console

from conftest import HAZARDS, make_task
from toolchaos.core.errors import BadInput
from toolchaos.report.tables import build_report
from toolchaos.runner.merge import merge
from toolchaos.runner.plan import make_plan
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.shard import Shard
from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.suites import get_suite

QUIET = Console(quiet=True)
MODELS = ["scripted/oracle", "scripted/naive", "scripted/retry"]
ARMS = ["clean", "hazard", "hint", "oracle-label"]


@pytest.fixture
def task_file(tmp_path: Path) -> Path:
    tasks = [make_task(f"fx-{name}", hazard=factory()) for name, factory in sorted(HAZARDS.items())]
    tasks.append(make_task("fx-write", hazard=HAZARDS["transient"](), writes=True))
    tasks.append(make_task("fx-plain"))
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(t.model_dump_json() + "\n" for t in tasks))
    return path


def config(task_file: Path, **kw: object) -> RunConfig:
    base: dict[str, object] = {
        "suite": "toolbench-x",
        "models": MODELS,
        "arms": ARMS,
        "samples": 2,
        "tasks_path": str(task_file),
        "concurrency": 4,
    }
    base.update(kw)
    return RunConfig(**base)  # type: ignore[arg-type]


def keys(directory: Path) -> list[str]:
    store = Store.open_existing(directory, read_only=True)
    try:
        return sorted(store.keys())
    finally:
        store.close()


def comparable(frame: pd.DataFrame) -> pd.DataFrame:
    """A table without the run directory it came from, in a stable row order."""
    frame = frame.drop(columns=[c for c in ("run",) if c in frame.columns])
    return (
        frame.sort_values(list(frame.columns[:3])).reset_index(drop=True) if len(frame) else frame
    )


def assert_same_report(a: Path, b: Path) -> None:
    left, right = build_report([a]), build_report([b])
    assert left.rows == right.rows
    assert left.tables.keys() == right.tables.keys()
    for name, table in left.tables.items():
        pd.testing.assert_frame_equal(comparable(table), comparable(right.tables[name]), obj=name)
    pd.testing.assert_frame_equal(
        comparable(left.frame.sort_values("key")), comparable(right.frame.sort_values("key"))
    )


def test_shards_cover_the_plan_once_whatever_its_order(task_file: Path) -> None:
    plan = make_plan(MODELS, get_suite("toolbench-x").load(task_file), ARMS, 2)
    parts = [Shard(index=i, count=3).select(plan) for i in (1, 2, 3)]
    assert sorted(p.key for part in parts for p in part) == sorted(p.key for p in plan)
    assert all(parts)
    reversed_parts = [Shard(index=i, count=3).select(plan[::-1]) for i in (1, 2, 3)]
    assert [{p.key for p in a} for a in parts] == [{p.key for p in b} for b in reversed_parts]


def test_two_shards_merged_equal_the_unsharded_run(tmp_path: Path, task_file: Path) -> None:
    whole = run(config(task_file), tmp_path / "whole", QUIET)
    one = run(config(task_file, shard=Shard.parse("1/2")), tmp_path / "s1", QUIET)
    two = run(config(task_file, shard=Shard.parse("2/2")), tmp_path / "s2", QUIET)
    assert one.played + two.played == whole.played and one.played and two.played
    assert not set(keys(tmp_path / "s1")) & set(keys(tmp_path / "s2"))
    manifest = json.loads((tmp_path / "s1" / "manifest.json").read_text())
    assert manifest["shard"] == "1/2"

    summary = merge([tmp_path / "s1", tmp_path / "s2"], tmp_path / "merged")
    assert summary.episodes == whole.played and summary.duplicates == 0
    assert keys(tmp_path / "merged") == keys(tmp_path / "whole")
    assert_same_report(tmp_path / "merged", tmp_path / "whole")
    merged = json.loads((tmp_path / "merged" / "manifest.json").read_text())
    assert "shard" not in merged and merged["episodes"] == whole.played
    assert merged["merged_from"] == [str(tmp_path / "s1"), str(tmp_path / "s2")]
    # the merged directory is an ordinary run: resuming it unsharded plays nothing
    assert run(config(task_file), tmp_path / "merged", QUIET).played == 0


def test_identical_episodes_are_kept_once_and_errors_superseded(
    tmp_path: Path, task_file: Path
) -> None:
    run(config(task_file, shard=Shard.parse("1/2")), tmp_path / "s1", QUIET)
    run(config(task_file, shard=Shard.parse("2/2")), tmp_path / "s2", QUIET)
    shutil.copytree(tmp_path / "s1", tmp_path / "s1-copy")
    broken = tmp_path / "s1-broken"
    shutil.copytree(tmp_path / "s1", broken)
    with sqlite3.connect(broken / STORE_NAME) as conn:
        key = conn.execute("SELECT key FROM episodes ORDER BY key LIMIT 1").fetchone()[0]
        conn.execute(
            "UPDATE episodes SET status = 'error', data = json_set(data, '$.status', 'error') "
            "WHERE key = ?",
            (key,),
        )
    summary = merge([broken, tmp_path / "s1-copy", tmp_path / "s2"], tmp_path / "merged")
    assert summary.replaced_errors == 1
    assert summary.duplicates == summary.episodes - len(keys(tmp_path / "s2")) - 1
    run(config(task_file), tmp_path / "whole", QUIET)
    assert_same_report(tmp_path / "merged", tmp_path / "whole")
    # merging again into the merged directory adds nothing
    again = merge([tmp_path / "s2"], tmp_path / "merged")
    assert again.added == 0 and again.episodes == summary.episodes


def test_conflicting_episodes_are_refused_and_nothing_written(
    tmp_path: Path, task_file: Path
) -> None:
    run(config(task_file, shard=Shard.parse("1/2")), tmp_path / "s1", QUIET)
    other = tmp_path / "s1-other"
    shutil.copytree(tmp_path / "s1", other)
    with sqlite3.connect(other / STORE_NAME) as conn:
        conn.execute(
            "UPDATE episodes SET data = json_set(data, '$.final_answer', 'something else') "
            "WHERE key = (SELECT MIN(key) FROM episodes)"
        )
    with pytest.raises(BadInput, match="hold different episodes for toolbench-x") as caught:
        merge([tmp_path / "s1", other], tmp_path / "merged")
    assert "a key must be played by one shard only" in str(caught.value)
    assert Store.open_existing(tmp_path / "merged").count() == 0


@pytest.mark.parametrize(
    "change,message",
    [
        ({"arms": ["clean", "hazard"]}, "are runs of different configs"),
        ({"models": ["scripted/oracle"]}, "are runs of different configs"),
        ({"samples": 1}, "are runs of different configs"),
    ],
)
def test_stores_of_different_configs_are_refused(
    tmp_path: Path, task_file: Path, change: dict, message: str
) -> None:
    run(config(task_file, shard=Shard.parse("1/2")), tmp_path / "a", QUIET)
    run(config(task_file, shard=Shard.parse("2/2"), **change), tmp_path / "b", QUIET)
    with pytest.raises(BadInput, match=message):
        merge([tmp_path / "a", tmp_path / "b"], tmp_path / "merged")
    assert not (tmp_path / "merged").exists()


def test_stores_of_different_datasets_or_versions_are_refused(
    tmp_path: Path, task_file: Path
) -> None:
    other_file = tmp_path / "other.jsonl"
    other_file.write_text(make_task("fx-only").model_dump_json() + "\n")
    run(config(task_file), tmp_path / "a", QUIET)
    run(config(other_file), tmp_path / "b", QUIET)
    with pytest.raises(BadInput, match="are runs of different datasets"):
        merge([tmp_path / "a", tmp_path / "b"], tmp_path / "merged")
    shutil.copytree(tmp_path / "a", tmp_path / "old")
    with sqlite3.connect(tmp_path / "old" / STORE_NAME) as conn:
        conn.execute("UPDATE meta SET value = '0.0.1' WHERE key = 'toolchaos_version'")
    with pytest.raises(BadInput, match=r"written by toolchaos .* by 0\.0\.1; only stores of one"):
        merge([tmp_path / "a", tmp_path / "old"], tmp_path / "merged")


def test_a_shard_directory_resumes_only_its_own_shard(tmp_path: Path, task_file: Path) -> None:
    run(config(task_file, shard=Shard.parse("1/2")), tmp_path / "s1", QUIET)
    with pytest.raises(BadInput, match="holds shard 1/2, not shard 2/2"):
        run(config(task_file, shard=Shard.parse("2/2")), tmp_path / "s1", QUIET)
    with pytest.raises(BadInput, match="holds shard 1/2, not the whole run"):
        run(config(task_file), tmp_path / "s1", QUIET)
    assert run(config(task_file, shard=Shard.parse("1/2")), tmp_path / "s1", QUIET).played == 0


@pytest.mark.parametrize("text", ["1", "0/2", "3/2", "a/b", "1/0", "-1/2"])
def test_bad_shards_are_bad_input(text: str) -> None:
    with pytest.raises(BadInput, match="--shard"):
        Shard.parse(text)


def toolchaos(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
    )


@pytest.mark.slow
def test_cli_shards_merge_and_refuse_in_one_sentence(tmp_path: Path) -> None:
    common = ["run", "toolbench-x", "-m", "scripted/oracle,scripted/naive", "--limit", "8"]
    for i in (1, 2):
        done = toolchaos(*common, "--shard", f"{i}/2", "--out", str(tmp_path / f"s{i}"))
        assert done.returncode == 0, done.stderr
    merged = toolchaos(
        "merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m")
    )
    assert merged.returncode == 0, merged.stderr
    assert "episodes merged from 2 stores" in merged.stderr
    whole = toolchaos(*common, "--out", str(tmp_path / "whole"))
    assert whole.returncode == 0, whole.stderr
    assert keys(tmp_path / "m") == keys(tmp_path / "whole")

    other = toolchaos(*common, "--arms", "clean", "--shard", "2/2", "--out", str(tmp_path / "o"))
    assert other.returncode == 0, other.stderr
    refused = toolchaos(
        "merge", str(tmp_path / "s1"), str(tmp_path / "o"), "--out", str(tmp_path / "x")
    )
    assert refused.returncode == 2
    assert "Traceback" not in refused.stderr
    text = " ".join(refused.stderr.split())
    assert "are runs of different configs" in text and text.count(". ") == 0
    bad = toolchaos(*common, "--shard", "3/2", "--out", str(tmp_path / "y"))
    assert bad.returncode == 2 and "I must be between 1 and N" in bad.stderr


def test_the_judges_entries_of_every_shard_are_merged(task_file: Path, tmp_path: Path) -> None:
    """Meta ``judges`` (the judges' model entries): one per spec, a later shard's wins."""
    small = {"models": ["scripted/oracle"], "arms": ["clean"], "samples": 1}
    run(config(task_file, shard=Shard.parse("1/2"), **small), tmp_path / "s1", QUIET)
    run(config(task_file, shard=Shard.parse("2/2"), **small), tmp_path / "s2", QUIET)
    held = {
        "s1": [{"spec": "openai/a", "family": "old"}, {"spec": "openai/b", "family": "bee"}],
        "s2": [{"spec": "openai/a", "family": "new"}],
    }
    for name, entries in held.items():
        store = Store.open_existing(tmp_path / name)
        store.set_meta("judges", json.dumps(entries))
        store.close()
    merge([tmp_path / "s1", tmp_path / "s2"], tmp_path / "merged")
    store = Store.open_existing(tmp_path / "merged", read_only=True)
    merged = json.loads(store.get_meta("judges") or "[]")
    store.close()
    assert merged == [{"spec": "openai/a", "family": "new"}, {"spec": "openai/b", "family": "bee"}]


def test_judgements_and_their_detail_survive_a_merge(tmp_path: Path, task_file: Path) -> None:
    one = run(config(task_file, shard=Shard.parse("1/2")), tmp_path / "s1", QUIET)
    two = run(config(task_file, shard=Shard.parse("2/2")), tmp_path / "s2", QUIET)
    assert one.played and two.played
    detail = {"rubric": "release", "evidence": "e", "scores": {"restraint": 4}}
    for shard, note in (("s1", detail), ("s2", None)):
        store = Store.open_existing(tmp_path / shard)
        store.put_judgement(sorted(store.keys())[0], "judge_a", "m", "correct", "r", note)
        store.close()
    # s2 as an older toolchaos wrote it: no detail column at all
    conn = sqlite3.connect(tmp_path / "s2" / STORE_NAME)
    conn.execute("ALTER TABLE judgements DROP COLUMN detail")
    conn.commit()
    conn.close()
    merge([tmp_path / "s1", tmp_path / "s2"], tmp_path / "merged")
    store = Store.open_existing(tmp_path / "merged", read_only=True)
    rows = store.judgements()
    store.close()
    assert [r["label"] for r in rows] == ["correct", "correct"]
    assert sorted(json.dumps(r["detail"], sort_keys=True) for r in rows) == sorted(
        [json.dumps(detail, sort_keys=True), "null"]
    )
