"""Secrets and hostile text stay contained, checked on real processes and real files.

A canary API key set in the environment must appear in no file a run, a report or an
export writes, nor in anything they print, even when the key is refused. Model text full
of HTML, terminal escapes and path separators is stored as data, and the files a command
writes all land inside the directory the user named.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolchaos.core.types import Episode
from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.testing import FakeOpenAI, Reply

CANARY = "sk-canary-7d1e4c9b0a52f3e8"
WRONG = "sk-canary-wrong-5b8a0e31c4d7"
HOSTILE = "../../../escape <script>alert(1)</script> \x1b[2J\x1b]0;pwned\x07 /etc/passwd"


def hostile_model(body: dict, index: int) -> Reply:
    """A model whose every answer is hostile text (after one real tool call)."""
    if body["messages"][-1]["role"] == "tool":
        return Reply(content=HOSTILE)
    return Reply(tool_calls=[(body["tools"][0]["function"]["name"], "{}")])


def toolchaos(*args: str, key: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ["PATH"], "COLUMNS": "200", "OPENAI_API_KEY": key}
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


@pytest.mark.slow
def test_a_canary_key_reaches_no_file_and_no_output(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    outputs = []
    with FakeOpenAI(hostile_model, models=["fake-1"], api_key=CANARY) as server:
        common = ["-m", "openai-compat/fake-1", "--base-url", server.base_url, "--limit", "3"]
        done = toolchaos("run", "toolbench-x", *common, "--out", str(work / "run"), key=CANARY)
        assert done.returncode == 0, done.stderr
        outputs.append(done)
        refused = toolchaos("run", "toolbench-x", *common, "--out", str(work / "bad"), key=WRONG)
        outputs.append(refused)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert len(refused.stderr.strip().splitlines()) <= 2
    outputs.append(
        toolchaos(
            "report",
            str(work / "run"),
            "--write",
            str(work / "report"),
            "--html",
            str(work / "report" / "report.html"),
            key=CANARY,
        )
    )
    out_file = work / "exports" / "run.jsonl"
    outputs.append(
        toolchaos(
            "export", str(work / "run"), "--format", "openai-jsonl", "-o", str(out_file), key=CANARY
        )
    )
    assert all(o.returncode == 0 for o in outputs[2:]), [o.stderr for o in outputs[2:]]

    written = files_under(work)
    assert len(written) >= 8  # store, manifest, report files, figures, html, export
    for secret in (CANARY, WRONG):
        for path in written:
            assert secret.encode() not in path.read_bytes(), f"{secret} leaked into {path}"
        for result in outputs:
            assert secret not in result.stdout + result.stderr


@pytest.mark.slow
def test_hostile_model_text_is_data_and_writes_stay_where_named(tmp_path: Path) -> None:
    with FakeOpenAI(hostile_model, models=["fake-1"]) as server:
        run_dir = tmp_path / "named" / "run"
        done = toolchaos(
            "run",
            "toolbench-x",
            "-m",
            "openai-compat/fake-1",
            "--base-url",
            server.base_url,
            "--limit",
            "2",
            "--out",
            str(run_dir),
            key="unused",
        )
    assert done.returncode == 0, done.stderr
    store = Store(run_dir / STORE_NAME)
    try:
        [first, *_] = list(store.episodes())
        evil = first.model_copy(deep=True)
        evil.model = HOSTILE  # a model name built to escape into paths and terminals
        evil.key = first.key.replace("openai-compat/fake-1", HOSTILE)
        store.put(evil)
        answers = {Episode.model_validate(e).final_answer for e in store.episodes()}
    finally:
        store.close()
    assert HOSTILE in answers  # stored byte for byte, as data

    before = files_under(tmp_path)
    report_dir = tmp_path / "named" / "report"
    shown = toolchaos(
        "report",
        str(run_dir),
        "--write",
        str(report_dir),
        "--html",
        str(report_dir / "r.html"),
        key="unused",
    )
    exported = toolchaos(
        "export",
        str(run_dir),
        "--format",
        "openai-jsonl",
        "-o",
        str(tmp_path / "named" / "e.jsonl"),
        key="unused",
    )
    assert shown.returncode == 0 and exported.returncode == 0, shown.stderr + exported.stderr
    new = files_under(tmp_path) - before
    named = (report_dir, run_dir)  # SQLite may keep its -wal/-shm files beside the store
    exported_file = tmp_path / "named" / "e.jsonl"
    outside = [p for p in new if p != exported_file and not any(d in p.parents for d in named)]
    assert new and outside == [], outside
    assert not (tmp_path / "escape").exists() and not Path("/escape").exists()
    # the terminal never receives a raw escape from model text
    assert "\x1b[2J" not in shown.stdout and "\x1b]0;" not in shown.stdout
    html = (report_dir / "r.html").read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in html
