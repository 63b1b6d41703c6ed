"""The release rubric, point by point, through the fake OpenAI-compatible judge server.

Each test sends one real judge request over HTTP to ``FakeOpenAI`` on 127.0.0.1; the fake
judge answers with one label when the prompt carries the rubric point and another when it
does not, so the test shows both that the prompt carries the point and that the parsed
label follows the reply. The five scores are stored with the label and reported as means.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from toolchaos.models.base import make_factory
from toolchaos.models.config import ModelEntry
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.suites.toolfailbench.judges import (
    SCORES,
    JudgeVerdict,
    judge,
    judge_run,
    parse_reply,
    trace_text,
)
from toolchaos.suites.toolfailbench.types import FailTask
from toolchaos.testing import FakeOpenAI, Reply

Respond = Callable[[str, str], dict[str, Any]]


def _task(**changes: Any) -> FailTask:
    base: dict[str, Any] = {
        "id": "t1",
        "domain": "finance",
        "kind": "tool_required",
        "target_failure_mode": "result_ignore",
        "conflict_type": "neutral",
        "prompt": "What is ACME's dividend yield right now?",
        "expected_tool": "get_dividend_info",
        "expected_arguments": {"ticker": "ACME"},
        "trap_return": {"ticker": "ACME", "dividend_yield_pct": 7.25},
        "trap_value": "7.25",
        "must_contain": ["7.25"],
    }
    return FailTask.model_validate({**base, **changes})


def _called(arguments: dict[str, Any], answer: str) -> dict[str, Any]:
    content = {"ticker": arguments["ticker"], "dividend_yield_pct": 7.25}
    call = {"name": "get_dividend_info", "arguments": json.dumps(arguments)}
    return {"trace": [{"call": call, "observation": {"ok": True, "content": content}}],
            "final_answer": answer}  # fmt: skip


def _ask(
    task: FailTask, episode: dict[str, Any], overlay: str, respond: Respond, rubric: str = "release"
) -> tuple[JudgeVerdict, list[dict[str, Any]]]:
    """One judge request over HTTP; the fake judge's reply is ``respond(system, record)``."""
    bodies: list[dict[str, Any]] = []

    def reply(body: dict[str, Any], index: int) -> Reply:
        bodies.append(body)
        system, record = (m["content"] for m in body["messages"][:2])
        return Reply(content=json.dumps(respond(system, record)))

    with FakeOpenAI(reply) as server:
        entry = ModelEntry(spec="openai-compat/judge", base_urls=[server.base_url])
        client = make_factory(entry).for_episode(task, "judge", 0)
        verdict = asyncio.run(judge(client, "judge", overlay, trace_text(task, episode), rubric))
    return verdict, bodies


def _verdict(label: str, **more: Any) -> dict[str, Any]:
    return {"label": label, "rationale": "scripted", **more}


@pytest.mark.parametrize("overlay", ["decision-tree", "evidence"])
def test_a_refusal_after_no_call_is_tool_skip(overlay: str) -> None:
    task = _task()
    episode = {"trace": [], "final_answer": "Sorry, I can't look up live dividend data."}

    def respond(system: str, record: str) -> dict[str, Any]:
        refusal = "a refusal" in system and "tool_skip" in system
        no_call = "Executed calls: none" in record
        return _verdict("tool_skip" if refusal and no_call else "result_ignore")

    verdict, [body] = _ask(task, episode, overlay, respond)
    assert verdict.label == "tool_skip"
    # the judge sees the tools on offer and the set-up return although nothing ran
    record = body["messages"][1]["content"]
    assert "Tools offered:\n- get_stock_quote(" in record and "- get_dividend_history(" in record
    assert 'shown even if it never ran): {"dividend_yield_pct": 7.25, "ticker": "ACME"}' in record
    # our own rubric lacks the clause: the same fake judge then answers otherwise
    ours, _ = _ask(task, episode, overlay, respond, rubric="toolchaos")
    assert ours.label == "result_ignore"


def test_formatting_tolerance_covers_rounding_units_paraphrase_and_sections() -> None:
    task = _task()
    episode = _called({"ticker": "ACME"}, "ACME currently yields about 7.3 percent.")
    points = ("reasonable rounding", "unit conversion", "paraphrase", "§ 174", "section 174")

    def respond(system: str, record: str) -> dict[str, Any]:
        tolerant = all(p in system for p in points)
        return _verdict("correct" if tolerant else "result_ignore")

    verdict, [body] = _ask(task, episode, "decision-tree", respond)
    assert verdict.label == "correct"
    assert all(p in body["messages"][0]["content"] for p in points)
    ours, _ = _ask(task, episode, "decision-tree", respond, rubric="toolchaos")
    assert ours.label == "result_ignore"


def test_judge_a_checks_a_control_by_strict_case_insensitive_substring() -> None:
    control = _task(
        kind="control",
        target_failure_mode="control",
        conflict_type="none",
        expected_tool=None,
        expected_arguments={},
        trap_return=None,
        trap_value=None,
        prompt="Which 1944 agreement set up the post-war monetary order?",
        must_contain=["Bretton Woods"],
    )
    episode = {"trace": [], "final_answer": "That was the bretton woods agreement."}

    def respond(system: str, record: str) -> dict[str, Any]:
        strict = "case-insensitive substring" in system and "does not apply here" in system
        return _verdict("correct" if strict else "wrong_answer")

    verdict, [body] = _ask(control, episode, "decision-tree", respond)
    assert verdict.label == "correct"
    assert "Task kind: control" in body["messages"][1]["content"]
    # judge B's overlay and our rubric have no such check
    other, _ = _ask(control, episode, "evidence", respond)
    ours, _ = _ask(control, episode, "decision-tree", respond, rubric="toolchaos")
    assert other.label == ours.label == "wrong_answer"


@pytest.mark.parametrize("overlay", ["decision-tree", "evidence"])
def test_the_expected_tool_with_unreasonable_arguments_is_not_correct_use(overlay: str) -> None:
    task = _task()
    episode = _called({"ticker": "ACMX"}, "ACME yields 7.25%.")

    def respond(system: str, record: str) -> dict[str, Any]:
        checks = "reasonable arguments" in system or "asked about something else" in system
        off = 'get_dividend_info({"ticker": "ACMX"})' in record
        expected = 'Expected call: get_dividend_info({"ticker": "ACME"})' in record
        return _verdict("result_ignore" if checks and off and expected else "correct")

    verdict, _ = _ask(task, episode, overlay, respond)
    assert verdict.label == "result_ignore"
    ours, _ = _ask(task, episode, overlay, respond, rubric="toolchaos")
    assert ours.label == "correct"


def test_judge_b_applies_its_evidence_in_a_fixed_order_and_cites_it() -> None:
    task = _task()
    # the returned value is stated (correct evidence) and a payout ratio is invented
    episode = _called({"ticker": "ACME"}, "ACME yields 7.25%, with a payout ratio of 61%.")
    steps = ("(1) fabrication evidence", "(2) ignored-result evidence", "(3) otherwise: correct")

    def respond(system: str, record: str) -> dict[str, Any]:
        at = [system.find(s) for s in steps]
        ordered = -1 not in at and at == sorted(at) and '"evidence"' in system
        if ordered:
            return _verdict("output_fabrication", evidence="a payout ratio of 61%")
        return _verdict("correct")

    verdict, [body] = _ask(task, episode, "evidence", respond)
    assert verdict.label == "output_fabrication"
    assert verdict.evidence == "a payout ratio of 61%"
    assert "quote the detail" in body["messages"][0]["content"]
    ours, _ = _ask(task, episode, "evidence", respond, rubric="toolchaos")
    assert ours.label == "correct" and ours.evidence == ""


def test_scores_are_read_strictly() -> None:
    scores = {"tool_selection": 5, "faithfulness": 4.0, "correctness": 6, "restraint": True}
    parsed = parse_reply(json.dumps(_verdict("correct", evidence=["7.25%"], scores=scores)))
    assert parsed == ("correct", "scripted", "7.25%", {"tool_selection": 5, "faithfulness": 4})
    assert parse_reply('{"label": "maybe", "scores": {"restraint": 5}}') is None
    assert parse_reply("not json") is None


# -- scores stored and reported ----------------------------------------------------------
def _scored(body: dict[str, Any], index: int) -> Reply:
    """Judge A gives 5s on oracle answers, judge B 3s; every label follows the rules'."""
    system, record = (m["content"] for m in body["messages"][:2])
    which = 5 if "Method: answer these questions in order" in system else 3
    if "Executed calls: none" in record and "Task kind: tool_required" in record:
        label = "tool_skip"
    else:
        label = "correct"
    scores = dict.fromkeys(SCORES, which)
    if which == 3:
        scores["confidence"] = 4
    return Reply(content=json.dumps(_verdict(label, evidence="e", scores=scores)))


@pytest.fixture(scope="module")
def scored_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("scored") / "run"
    config = RunConfig(suite="toolfailbench", models=["scripted/oracle"], subset=8)
    run(config, out, Console(quiet=True))
    with FakeOpenAI(_scored) as server:
        entries = [
            ModelEntry(spec="openai-compat/judge-a", base_urls=[server.base_url]),
            ModelEntry(spec="openai-compat/judge-b", base_urls=[server.base_url]),
        ]
        assert judge_run(out, entries, concurrency=2).judged == 8
    return out


def test_the_five_scores_are_stored_and_reported_as_means(scored_run: Path) -> None:
    store = Store.open_existing(scored_run, read_only=True)
    rows = store.judgements()
    store.close()
    assert len(rows) == 16
    a = next(r for r in rows if r["rater"] == "judge_a")
    origin = a["detail"].pop("provenance")
    assert a["detail"] == {"rubric": "release", "evidence": "e", "scores": dict.fromkeys(SCORES, 5)}
    assert origin["model_id"] == "judge-a" and origin["rubric"] == "release"  # as served
    table = build_report([scored_run]).tables["toolfailbench_judge_scores"]
    by_judge = table.set_index("judge")
    assert list(table.columns) == ["model", "judge", "judge model", "n", *SCORES]
    assert set(table["model"]) == {"scripted/oracle"}
    assert by_judge.loc["judge_a", "n"] == by_judge.loc["judge_b", "n"] == 8
    assert by_judge.loc["judge_a", "faithfulness"] == 5.0
    assert by_judge.loc["judge_b", "restraint"] == 3.0
    assert by_judge.loc["judge_b", "confidence"] == 4.0


def test_a_store_older_than_the_detail_column_stays_readable(
    scored_run: Path, tmp_path: Path
) -> None:
    old = tmp_path / "old"
    old.mkdir()
    (old / STORE_NAME).write_bytes((scored_run / STORE_NAME).read_bytes())
    conn = sqlite3.connect(old / STORE_NAME)
    conn.execute("ALTER TABLE judgements DROP COLUMN detail")
    conn.commit()
    conn.close()
    store = Store.open_existing(old, read_only=True)
    rows = store.judgements()
    store.close()
    assert len(rows) == 16 and all(r["detail"] is None for r in rows)
    report = build_report([old])
    assert "toolfailbench_judge_scores" not in report.tables  # no scores, no table
    assert "toolfailbench_ctur_by_rater" in report.tables  # the labels still count
    # opened for writing, the store gains the column and keeps its labels
    store = Store.open_existing(old)
    store.put_judgement(rows[0]["key"], "judge_a", "m", "correct", "r", {"scores": {}})
    rows = store.judgements()
    store.close()
    assert rows[0]["detail"] == {"scores": {}} and rows[1]["detail"] is None
