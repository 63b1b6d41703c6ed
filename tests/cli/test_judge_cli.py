"""`judge` and `audit-scoring` as a user meets them: a dead endpoint, a judge with no verdict.

Real processes against a real store; the judges are scripted baselines (which answer the
task, not the rubric) or a real HTTP server on 127.0.0.1.
"""

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from toolchaos.runner.store import Store
from toolchaos.testing import FakeOpenAI, Reply


def toolchaos(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "80", "PATH": "/usr/bin:/bin"},
    )


def dead_url() -> str:
    """The /v1 URL of a port on 127.0.0.1 that nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A ToolFailBench run and a ToolBench-X run of the oracle, 5 and 6 tasks."""
    root = tmp_path_factory.mktemp("judge-cli")
    made = {}
    for suite, n in (("toolfailbench", "5"), ("toolbench-x", "6")):
        out = root / suite
        played = toolchaos("run", suite, "-m", "scripted/oracle", "--subset", n, "--out", str(out))
        assert played.returncode == 0, played.stderr
        made[suite] = out
    return made


def labels(run: Path) -> list[str | None]:
    store = Store.open_existing(run, read_only=True)
    try:
        return [j["label"] for j in store.judgements()]
    finally:
        store.close()


def one_sentence(result: subprocess.CompletedProcess[str], code: int, *fragments: str) -> str:
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    for fragment in fragments:
        assert fragment in errors[0], errors[0]
    return errors[0]


@pytest.mark.parametrize("command", ["judge", "audit-scoring"])
def test_an_unreachable_judge_is_one_sentence_and_exit_2(
    runs: dict[str, Path], command: str
) -> None:
    run = runs["toolfailbench" if command == "judge" else "toolbench-x"]
    url = dead_url()
    args = [command, str(run), "--judge", "openai-compat/judge", "--base-url", url]
    result = toolchaos(*args)
    one_sentence(result, 2, f"cannot reach {url}: connection refused")
    assert len(result.stderr.splitlines()) <= 2  # the sentence (and the bar where it stopped)


def test_a_judge_whose_replies_hold_no_verdict_warns_and_exits_1(runs: dict[str, Path]) -> None:
    run = runs["toolfailbench"]
    result = toolchaos("judge", str(run), "--judge", "scripted/oracle")
    one_sentence(result, 1, "no reply of judge_a or judge_b held a verdict")
    summary = next(line for line in result.stderr.splitlines() if "episodes judged" in line)
    assert summary.startswith("5 episodes judged") and "0 of 5" in summary
    # the bar: the episodes judged of all
    bar = next(line for line in result.stderr.splitlines() if line.startswith("judge "))
    assert "5/5" in bar and "ETA" in bar
    assert labels(run) and all(label is None for label in labels(run))


def test_a_judge_answering_prose_over_http_exits_1_and_one_good_judge_exits_0(
    runs: dict[str, Path],
) -> None:
    run = runs["toolfailbench"]

    def respond(body: dict[str, object], index: int) -> Reply:
        return Reply(content="This answer looks fine to me.")

    with FakeOpenAI(respond) as server:
        args = ["judge", str(run), "--judge", "openai-compat/prose", "--base-url"]
        result = toolchaos(*args, server.base_url)
    one_sentence(result, 1, "held a verdict")
    assert server.count == 5 * 2  # two judges, one attempt each (the release rubric)

    def labelled(body: dict[str, object], index: int) -> Reply:
        return Reply(content='{"label": "correct", "rationale": "the value is stated"}')

    with FakeOpenAI(labelled) as server:
        args = ["judge", str(run), "--judge", "openai-compat/good", "--base-url"]
        result = toolchaos(*args, server.base_url)
    assert result.returncode == 0, result.stderr
    assert "judge_a (openai-compat/good) 5 of 5" in " ".join(result.stderr.split())
    assert labels(run) == ["correct"] * 10


def test_audit_scoring_with_a_judge_giving_no_verdict_exits_1(runs: dict[str, Path]) -> None:
    run = runs["toolbench-x"]
    result = toolchaos("audit-scoring", str(run), "--judge", "scripted/oracle", "--sample", "4")
    one_sentence(result, 1, "none of the 4 replies of scripted/oracle held a verdict")
    assert "0 of 4 sampled episodes judged" in " ".join(result.stdout.split())
    bar = next(line for line in result.stderr.splitlines() if line.startswith("audit-scoring "))
    assert "4/4" in bar and "ETA" in bar
