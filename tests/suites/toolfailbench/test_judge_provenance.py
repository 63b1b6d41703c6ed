"""Judge provenance: every label says where it came from, a rationale that argues for another
label is flagged, and `judge --rejudge` keeps the labels it replaces so the report shows what
flipped and how CTUR moved. The judges are a real HTTP endpoint on 127.0.0.1."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from toolchaos.core.errors import BadInput
from toolchaos.models.config import ModelEntry
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.suites.toolfailbench.judges import contradicting_label, judge_run
from toolchaos.testing import FakeOpenAI, Reply


@pytest.mark.parametrize(
    ("label", "rationale", "expected"),
    [
        ("correct", "The reply states the returned value.", None),
        ("correct", "A clear case of Result-Ignore: the value is replaced.", "result_ignore"),
        ("correct", "It is not a tool skip, the tool ran.", None),  # negated
        ("tool_skip", "No call ran, so tool_skip rather than result ignore.", None),  # own named
        ("result_ignore", "The answer invents a date: output fabrication.", "output_fabrication"),
        ("wrong_answer", "Either a tool skip or output fabrication.", None),  # two: no claim
        (None, "result ignore", None),
    ],
)
def test_a_rationale_contradicts_its_label_only_when_it_argues_for_one_other(
    label: str | None, rationale: str, expected: str | None
) -> None:
    assert contradicting_label(label, rationale) == expected


def judging(label: str, rationale: str) -> Any:
    def respond(body: dict[str, Any], index: int) -> Reply:
        return Reply(content=json.dumps({"label": label, "rationale": rationale}))

    return respond


@pytest.fixture(scope="module")
def rejudged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rejudge") / "run"
    config = RunConfig(suite="toolfailbench", models=["scripted/oracle"], subset=10)
    run(config, out, Console(quiet=True))
    with FakeOpenAI(judging("correct", "It states the returned value.")) as first:
        entry = ModelEntry(spec="openai-compat/judge-1", base_urls=[first.base_url])
        judge_run(out, [entry], concurrency=4)
    with FakeOpenAI(judging("tool_skip", "Looks like result ignore to me.")) as second:
        other = ModelEntry(spec="openai-compat/judge-2", base_urls=[second.base_url])
        refused = r"already labelled by openai-compat/judge-1 .*--rejudge"
        with pytest.raises(BadInput, match=refused):
            judge_run(out, [other], concurrency=4)
        judge_run(out, [other], concurrency=4, rejudge=True)
    return out


def test_every_label_carries_its_provenance(rejudged: Path) -> None:
    store = Store.open_existing(rejudged, read_only=True)
    try:
        now, before = store.judgements(), store.judgements(earlier=True)
    finally:
        store.close()
    assert len(now) == len(before) == 20  # 10 episodes, two raters
    assert {r["model"] for r in before} == {"openai-compat/judge-1"}
    for row in now:
        origin = row["detail"]["provenance"]
        assert origin["spec"] == "openai-compat/judge-2"
        assert origin["model_id"] == "judge-2"  # as the endpoint said it answered
        assert origin["rubric"] == "release" and origin["temperature"] == 0.0
        assert len(origin["prompt_sha256"]) == 64 and origin["time"].endswith("+00:00")
        assert row["detail"]["contradicts"] == "result_ignore"
    # one rubric text per rater: one version each; every episode its own prompt
    versions = {(r["rater"], r["detail"]["provenance"]["rubric_version"]) for r in now}
    assert len(versions) == 2
    assert len({r["detail"]["provenance"]["prompt_sha256"] for r in now}) == 20


def test_the_report_shows_flips_ctur_moves_and_contradictions(rejudged: Path) -> None:
    tables = build_report([rejudged]).tables
    moves = tables["toolfailbench_rejudge"].set_index("rater")
    judge_a = moves.loc["judge_a"]
    assert judge_a["judge before"] == "openai-compat/judge-1"
    assert judge_a["judge now"] == "openai-compat/judge-2"
    assert judge_a["n"] == judge_a["flipped"] == 10
    # judge 1 called every answer correct (100%), judge 2 every one a skip (0%)
    assert (judge_a["CTUR before %"], judge_a["CTUR now %"], judge_a["move pp"]) == (
        100.0,
        0.0,
        -100.0,
    )
    ensemble = moves.loc["ensemble"]  # the oracle's rule label is correct on every task
    assert (ensemble["CTUR before %"], ensemble["CTUR now %"]) == (100.0, 0.0)
    flips = tables["toolfailbench_label_flips"]
    assert flips.to_dict(orient="records") == [
        {"rater": "judge_a", "from": "correct", "to": "tool_skip", "n": 10},
        {"rater": "judge_b", "from": "correct", "to": "tool_skip", "n": 10},
        # controls: rule correct and two skips make tool_skip, as on tool-required tasks
        {"rater": "ensemble", "from": "correct", "to": "tool_skip", "n": 10},
    ]
    contradictions = tables["toolfailbench_judge_contradictions"]
    assert set(contradictions["contradicting"]) == {10}
    assert set(contradictions["commonest"]) == {"tool_skip -> result_ignore (10)"}
    provenance = tables["toolfailbench_judge_provenance"].set_index("rater")
    assert provenance.loc["judge_a", "model id served"] == "judge-2"
    assert provenance.loc["judge_a", "unrecorded"] == 0


def test_rejudge_on_a_run_without_labels_is_one_sentence(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(
        RunConfig(suite="toolfailbench", models=["scripted/oracle"], subset=5),
        out,
        Console(quiet=True),
    )
    args = ["judge", str(out), "--rejudge", "--judge", "scripted/oracle"]
    result = subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    assert "holds no judge labels to compare with" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
