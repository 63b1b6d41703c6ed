"""The scoring audit end to end: a real run, a real store, a judge behind a local HTTP server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from toolchaos.core.types import Episode
from toolchaos.models.config import ModelEntry
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.suites.toolbench_x.audit import (
    AUDIT_RATER,
    RUBRIC,
    audit_scoring,
    audit_text,
    parse_audit,
)
from toolchaos.testing import FakeOpenAI, Reply

MALFORMED = "I think it is right."


def toolchaos(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
        check=False,
    )


def reader_judge(body: dict[str, Any], index: int) -> Reply:
    """A judge that reads like a person: the answer's last clause must state the reference."""
    system, record = body["messages"][0]["content"], body["messages"][1]["content"]
    assert system == RUBRIC
    if len(body["messages"]) == 2 and "FIRST-MALFORMED" in record:
        return Reply(content=MALFORMED)
    reference = record.split("Correct answer: ", 1)[1].split("\n", 1)[0]
    answer = record.rsplit("<<<\n", 1)[1].rsplit("\n>>>", 1)[0]
    conclusion = answer.rsplit(" so ", 1)[-1]
    # the reference as a whole token: 0.1 is not in 0.12, 380 is not in 38000
    stated = re.search(rf"(?<![\w.]){re.escape(reference)}(?![\w]|\.\w)", conclusion)
    verdict = {"correct": stated is not None, "rationale": "read by script"}
    return Reply(content="<think>weighing</think>" + json.dumps(verdict))


@pytest.fixture(scope="module")
def audited_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """oracle and naive on a 24-task subset; two oracle answers rewritten by hand."""
    out = tmp_path_factory.mktemp("audit") / "run"
    config = RunConfig(suite="toolbench-x", models=["scripted/oracle", "scripted/naive"], subset=24)
    run(config, out, Console(quiet=True))
    store = Store.open_existing(out)
    tasks = store.tasks()
    answered = [
        e
        for e in store.episodes()
        if e.model == "scripted/oracle" and e.arm == "clean" and tasks[e.task_id].reference.answer
    ]
    nilgiri, malformed = answered[0], answered[1]
    ref = tasks[nilgiri.task_id].reference.answer
    # the reference is in the working, the conclusion commits to another value
    changed = {
        nilgiri.key: f"First source: {ref}. Second source: 77777, so the answer is 77777.",
        malformed.key: f"FIRST-MALFORMED so it is {tasks[malformed.task_id].reference.answer}",
    }
    for episode in (nilgiri, malformed):
        data = {**episode.model_dump(), "final_answer": changed[episode.key]}
        store.put(Episode.model_validate(data))
    store.close()
    return out, changed


def test_the_audit_asks_once_stores_verdicts_and_reports_agreement(
    audited_run: tuple[Path, dict[str, str]],
) -> None:
    out, changed = audited_run
    bodies: list[dict[str, Any]] = []
    lock = threading.Lock()

    def respond(body: dict[str, Any], index: int) -> Reply:
        with lock:
            bodies.append(body)
        return reader_judge(body, index)

    with FakeOpenAI(respond) as server:
        args = ["audit-scoring", str(out), "--judge", "openai-compat/auditor"]
        args += ["--base-url", server.base_url, "--sample", "200", "--seed", "3"]
        first = toolchaos(*args)
        assert first.returncode == 0, first.stderr
        asked = len(bodies)
        second = toolchaos(*args)
        assert second.returncode == 0, second.stderr
        assert len(bodies) == asked  # every verdict was stored: nothing is asked again

    store = Store.open_existing(out, read_only=True)
    verdicts = [j for j in store.judgements() if j["rater"] == AUDIT_RATER]
    sampled = {
        r["key"]
        for r in store.summaries()
        if store.tasks()[r["task_id"]].reference.answer and r["status"] == "finished"
    }
    store.close()
    assert {v["key"] for v in verdicts} == sampled  # the sample covers every answer episode
    assert all(v["label"] in ("correct", "wrong") for v in verdicts)
    assert asked == len(sampled) + 1  # one malformed reply, asked again once
    assert all(b["temperature"] == 0.0 for b in bodies)
    assert not any("weighing" in json.dumps(b["messages"][1:2]) for b in bodies)

    text = " ".join(first.stdout.split())
    assert f"{len(sampled)} of {len(sampled)} sampled episodes judged" in text
    assert f"{len(sampled)} asked now" in text
    assert "0 asked now" in " ".join(second.stdout.split())
    lines = {line.split()[0]: line.split() for line in first.stdout.splitlines() if line}
    n = len(sampled)
    # the rule and the reader agree everywhere; containment accepts the rewritten answer
    assert lines["committed"][1:4] == [str(n), "/", str(n)]
    assert lines["containment"][1:4] == [str(n - 1), "/", str(n)]
    assert "[" in lines["committed"][5]  # a Wilson interval is printed
    assert "disagreement" not in first.stdout
    assert next(iter(changed)) in {v["key"] for v in verdicts}


def test_the_audit_refuses_bad_input_in_one_sentence(
    audited_run: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    out, _ = audited_run
    result = toolchaos("audit-scoring", str(out), "--judge", "scripted/oracle", "--sample", "0")
    assert result.returncode == 2 and "Traceback" not in result.stderr + result.stdout
    assert "--sample must be at least 1" in " ".join(result.stderr.split())
    result = toolchaos("audit-scoring", str(tmp_path), "--judge", "scripted/oracle")
    assert result.returncode == 2 and "holds no toolchaos run" in " ".join(result.stderr.split())


def test_what_the_judge_reads_and_how_its_reply_is_parsed(
    audited_run: tuple[Path, dict[str, str]],
) -> None:
    out, _ = audited_run
    store = Store.open_existing(out, read_only=True)
    task = next(t for t in store.tasks().values() if t.reference.answer)
    store.close()
    text = audit_text(task, "<think>secret</think>It is 5.")
    assert task.prompt in text and f"Correct answer: {task.reference.answer}" in text
    assert "secret" not in text and "It is 5." in text
    assert parse_audit('{"correct": true, "rationale": "ok"}') == ("correct", "ok")
    assert parse_audit('x {"correct": false} y') == ("wrong", "")
    assert parse_audit('{"correct": "yes"}') is None
    assert parse_audit(MALFORMED) is None
    assert parse_audit(None) is None


def test_a_small_sample_spreads_over_family_and_workflow(
    audited_run: tuple[Path, dict[str, str]],
) -> None:
    out, _ = audited_run
    store = Store.open_existing(out, read_only=True)
    tasks = store.tasks()
    strata = {
        (t.hazard.family.value if t.hazard else "none", t.workflow)
        for r in store.summaries()
        if (t := tasks[r["task_id"]]).reference.answer
    }
    store.close()
    assert len(strata) >= 6
    with FakeOpenAI(reader_judge) as server:
        entry = ModelEntry(spec="openai-compat/other-auditor", base_urls=[server.base_url])
        report = audit_scoring(out, entry, sample=6, seed=1, concurrency=2)
        again = audit_scoring(out, entry, sample=6, seed=1, concurrency=2)
    assert report.sampled == 6 and report.strata == 6  # one episode from each of six strata
    assert report.asked == 6 and again.asked == 0  # this judge's verdicts are its own
    assert again.agreements == report.agreements
