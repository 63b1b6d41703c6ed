"""The judges: rubric and overlays, what they read, verdict parsing, the ensemble, and the
judging pipeline end to end over the local OpenAI-compatible HTTP server."""

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from toolchaos.core.types import Episode, Message, Usage
from toolchaos.models.base import ModelRequest, ModelResponse
from toolchaos.models.config import ModelEntry
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.suites.toolfailbench.judges import (
    BASE_RUBRIC,
    MAX_TOKENS,
    OVERLAYS,
    RELEASE_REPLY_FORMAT,
    RELEASE_RUBRIC,
    REPLY_FORMAT,
    ensemble,
    judge,
    judge_messages,
    judge_run,
    parse_verdict,
    strip_reasoning,
    trace_text,
    vote_pattern,
)
from toolchaos.suites.toolfailbench.types import FailTask
from toolchaos.testing import FakeOpenAI, Reply


class Scripted:
    """A scripted judge: answers from a list, one reply per request."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = replies
        self.requests: list[ModelRequest] = []

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        text = self.replies[min(len(self.requests) - 1, len(self.replies) - 1)]
        return ModelResponse(message=Message(role="assistant", content=text), usage=Usage())


def test_verdicts_are_parsed_strictly() -> None:
    assert parse_verdict('{"label": "tool_skip", "rationale": "no call"}') == (
        "tool_skip",
        "no call",
    )
    assert parse_verdict('Verdict: {"label": "correct"}') == ("correct", "")
    assert parse_verdict('{"label": "maybe"}') is None
    assert parse_verdict('{"label": null, "rationale": "unsure"}') is None
    assert parse_verdict("tool_skip") is None
    assert parse_verdict("") is None and parse_verdict(None) is None
    assert parse_verdict('["result_ignore"]') is None


def test_verdicts_tolerate_spelling_reasoning_and_a_preamble() -> None:
    assert parse_verdict('{"label": "Tool-Skip", "rationale": "x"}') == ("tool_skip", "x")
    assert parse_verdict('{"label": " output fabrication "}') == ("output_fabrication", "")
    # a step written out first (with braces of its own), then the verdict
    text = 'Step 1 {"note": 1} ... {"label": "result_ignore", "rationale": "wrong {value}"}'
    assert parse_verdict(text) == ("result_ignore", "wrong {value}")
    thinking = '<think>maybe {"label": "correct"}</think>{"label": "tool_skip"}'
    assert parse_verdict(thinking) == ("tool_skip", "")


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("<think>the usual price is 180</think>It is 212.40 USD.", "It is 212.40 USD."),
        ("<thinking>\nhmm\n</thinking>\n\nAnswer: 3", "Answer: 3"),
        ("<reasoning a='1'>x</reasoning>A <think>y</think>B", "A B"),
        ("[THINK]plan[/THINK]Done.", "Done."),
        ("the template opened the block\n</think>\nFinal: 7", "Final: 7"),
        ("Final: 7 <think>and then I started to", "Final: 7"),
        ("<THINK>upper</THINK>ok", "ok"),
        ("No reasoning here.", "No reasoning here."),
    ],
)
def test_reasoning_blocks_are_removed(text: str, kept: str) -> None:
    assert strip_reasoning(text) == kept


def test_under_the_toolchaos_rubric_malformed_output_is_retried_then_no_label() -> None:
    good_second = Scripted(["I think it is a skip", '{"label": "tool_skip", "rationale": "x"}'])
    verdict = asyncio.run(judge(good_second, "a", "decision-tree", "trace", "toolchaos"))
    assert verdict.label == "tool_skip" and len(good_second.requests) == 2
    retry = good_second.requests[1].messages[-1].content or ""
    assert REPLY_FORMAT in retry
    never = Scripted(["nope"])
    verdict = asyncio.run(judge(never, "b", "evidence", "trace", "toolchaos"))
    assert verdict.label is None and len(never.requests) == 3


def test_under_the_release_rubric_a_malformed_reply_is_no_label_at_once() -> None:
    good_second = Scripted(["I think it is a skip", '{"label": "tool_skip", "rationale": "x"}'])
    verdict = asyncio.run(judge(good_second, "a", "decision-tree", "trace"))
    assert verdict.label is None and len(good_second.requests) == 1
    assert good_second.requests[0].max_tokens == MAX_TOKENS == 512


def test_the_rubrics_share_a_base_and_both_end_in_one_json_verdict() -> None:
    a, b = (
        judge_messages(o, "T", "toolchaos")[0].content or "" for o in ("decision-tree", "evidence")
    )
    assert a.startswith(BASE_RUBRIC + "\n\n") and b.startswith(BASE_RUBRIC + "\n\n")
    assert a != b
    for system in (a, b):
        assert system.endswith(REPLY_FORMAT)
        assert system.count('{"label"') == 1  # one reply format, no second shape
    # the evidence overlay no longer asks for a list of claims in the reply
    assert "Do not list" in OVERLAYS["evidence"]
    # what the base rubric settles for both judges
    for topic in ("parametric trap", "Formatting tolerance", "only by whether its answer"):
        assert topic in BASE_RUBRIC
    assert 'Match mode "all"' in BASE_RUBRIC and '"any"' in BASE_RUBRIC
    # the release rubric (the default) has the same shape, without our own two clauses
    a, b = (judge_messages(o, "T")[0].content or "" for o in ("decision-tree", "evidence"))
    assert a.startswith(RELEASE_RUBRIC + "\n\n") and b.startswith(RELEASE_RUBRIC + "\n\n")
    for system in (a, b):
        assert system.endswith(RELEASE_REPLY_FORMAT) and system.count('{"label"') == 1
        assert "the user suggests" not in system and "blends" not in system
    assert "the user suggests" in BASE_RUBRIC and "blends" in BASE_RUBRIC


def _task(**changes: Any) -> FailTask:
    base: dict[str, Any] = {
        "id": "t1",
        "domain": "finance",
        "kind": "tool_required",
        "target_failure_mode": "result_ignore",
        "conflict_type": "neutral",
        "register": "casual",
        "prompt": "What is ACME's dividend yield right now?",
        "expected_tool": "get_dividend_info",
        "expected_arguments": {"ticker": "ACME"},
        "trap_return": {"ticker": "ACME", "dividend_yield_pct": 7.25},
        "trap_value": "7.25",
        "must_contain": ["7.25", "7.25%"],
        "match_mode": "any",
    }
    return FailTask.model_validate({**base, **changes})


def test_the_judge_reads_what_the_task_and_episode_hold() -> None:
    episode = {
        "trace": [
            {
                "call": {"name": "get_dividend_info", "arguments": '{"ticker": "ACME"}'},
                "observation": {"ok": True, "content": {"dividend_yield_pct": 7.25}},
            }
        ],
        "final_answer": "<think>I remember about 2%</think>ACME yields 7.25%.",
    }
    text = trace_text(_task(must_not_contain=["2%"]), episode)
    for shown in (
        "Domain: finance",
        "What is ACME's dividend yield right now?",
        'Expected call: get_dividend_info({"ticker": "ACME"})',
        'get_dividend_info({"ticker": "ACME"}) returned:',
        '{"dividend_yield_pct": 7.25}',
        'Ground truth (match mode any: at least one value must appear): "7.25", "7.25%"',
        'A correct answer must not state: "2%"',
        "ACME yields 7.25%.",
    ):
        assert shown in text, shown
    assert "I remember" not in text  # reasoning removed
    control = _task(
        kind="control",
        target_failure_mode="control",
        conflict_type="none",
        expected_tool=None,
        expected_arguments={},
        trap_return=None,
        trap_value=None,
        must_contain=["dividend", "profit"],
        match_mode="all",
    )
    text = trace_text(control, {"trace": [], "final_answer": ""})
    assert "Task kind: control" in text and "Expected call: none" in text
    assert "Executed calls: none" in text and "every value must appear" in text
    assert "(empty)" in text


@pytest.mark.parametrize(
    ("rule", "a", "b", "voted", "pattern"),
    [
        ("correct", "correct", "correct", "correct", "unanimous"),
        ("tool_skip", "correct", "correct", "correct", "joint_overrule"),
        ("tool_skip", "tool_skip", "correct", "tool_skip", "one_dissent"),
        ("tool_skip", "correct", "tool_skip", "tool_skip", "one_dissent"),
        ("tool_skip", "correct", "result_ignore", "tool_skip", "three_way_tie"),
        ("tool_skip", None, "correct", None, None),
        ("tool_skip", "tool_skip", None, None, None),
        ("tool_skip", None, None, None, None),
    ],
)
def test_ensemble_majority_ties_and_missing_labels(
    rule: str, a: str | None, b: str | None, voted: str | None, pattern: str | None
) -> None:
    assert ensemble(rule, a, b) == voted
    assert vote_pattern(rule, a, b) == pattern


# -- the pipeline over HTTP ------------------------------------------------------------
# Judges scripted per (model behaviour, domain). The oracle calls every expected tool, so
# the rule says correct on all its episodes; skip never calls, so tool_skip on its
# tool-required episodes and correct on its controls.
MALFORMED = "I'd call this one fine, honestly."
NULL = json.dumps({"label": None, "rationale": "cannot tell"})
ORACLE_REQUIRED = {  # domain -> (judge A, judge B)
    "finance": ("correct", "correct"),  # unanimous
    "medicine": ("result_ignore", "result_ignore"),  # joint overrule
    "law": ("result_ignore", "output_fabrication"),  # three-way tie, the rule stands
    "cybersecurity": ("correct", MALFORMED),  # judge B never gives a label
    "real_estate": ("correct", "tool_skip"),  # one dissent
}
SKIP_REQUIRED = {"law": (NULL, "tool_skip")}  # judge A answers null; else both tool_skip
CONTROLS = {"finance": ("wrong_answer", "unnecessary_tool_use")}  # a tie; else both correct


def scripted_judges(body: dict[str, Any], index: int) -> Reply:
    """Judge A or B (by its overlay) on one trace (by its domain, kind and calls)."""
    system, trace = body["messages"][0]["content"], body["messages"][1]["content"]
    which = 0 if "Method: answer these questions in order" in system else 1
    domain = trace.split("Domain: ", 1)[1].split("\n", 1)[0]
    if "Task kind: control" in trace:
        verdict = CONTROLS.get(domain, ("correct", "correct"))[which]
    elif "Executed calls: none" in trace:
        verdict = SKIP_REQUIRED.get(domain, ("tool_skip", "tool_skip"))[which]
    else:
        verdict = ORACLE_REQUIRED[domain][which]
    if verdict in (MALFORMED, NULL):
        return Reply(content=verdict)
    return Reply(content=json.dumps({"label": verdict, "rationale": f"{domain} by script"}))


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """oracle and skip on one task per (domain, target mode), judged over HTTP."""
    out = tmp_path_factory.mktemp("judged") / "run"
    config = RunConfig(
        suite="toolfailbench", models=["scripted/oracle", "scripted/skip"], subset=20
    )
    run(config, out, Console(quiet=True))
    store = Store.open_existing(out)
    tasks = store.tasks()
    strata = {(t.domain, t.target_failure_mode) for t in tasks.values()}
    assert len(tasks) == len(strata) == 20  # one task per stratum: the counts below hold
    # the oracle thinks aloud on one answer: the judges must not see it
    episode = next(
        e for e in store.episodes() if e.model == "scripted/oracle" and "finance" in e.task_id
    )
    answer = "<think>SECRET-REASONING</think>" + episode.final_answer
    store.put(Episode.model_validate({**episode.model_dump(), "final_answer": answer}))
    store.close()
    bodies: list[dict[str, Any]] = []
    lock = threading.Lock()

    def respond(body: dict[str, Any], index: int) -> Reply:
        with lock:
            bodies.append(body)
        return scripted_judges(body, index)

    with FakeOpenAI(respond) as server:
        entries = [
            ModelEntry(spec="openai-compat/judge-a", base_urls=[server.base_url]),
            ModelEntry(spec="openai-compat/judge-b", base_urls=[server.base_url]),
        ]
        tally = judge_run(out, entries, concurrency=4)
        assert tally.judged == 40
        # judge B malformed on 3 traces (oracle, cybersecurity), judge A null on 3 (skip, law)
        assert tally.labelled == {"judge_a": 37, "judge_b": 37} and not tally.silent
    return out, bodies


def test_judges_are_stored_over_http_with_missing_labels(
    judged: tuple[Path, list[dict[str, Any]]],
) -> None:
    out, bodies = judged
    store = Store.open_existing(out, read_only=True)
    labels = store.judgements()
    store.close()
    assert len(labels) == 80 and {r["rater"] for r in labels} == {"judge_a", "judge_b"}
    assert {r["model"] for r in labels if r["rater"] == "judge_b"} == {"openai-compat/judge-b"}
    missing = [r for r in labels if r["label"] is None]
    assert len(missing) == 6  # 3 malformed (oracle, cybersecurity) + 3 null (skip, law)
    # one request per judge and trace, at most 512 output tokens: no re-asks
    assert len(bodies) == 80
    assert all(b["temperature"] == 0.0 and b["max_tokens"] == 512 for b in bodies)
    assert not any("SECRET-REASONING" in json.dumps(b) for b in bodies)


def test_the_report_counts_votes_ties_and_overrules_by_hand(
    judged: tuple[Path, list[dict[str, Any]]],
) -> None:
    out, _ = judged
    report = build_report([out])
    votes = report.tables["toolfailbench_votes"].set_index("model")
    # by hand: 40 episodes, 6 unlabelled, 34 judged:
    # unanimous = oracle finance 3 + its 4 plain controls + skip's 12 + its 4 plain controls
    # one dissent = oracle real_estate 3; joint overrule = oracle medicine 3;
    # three-way ties = oracle law 3 + the finance control of each model 2
    overall = votes.loc["all"]
    assert (overall["judged"], overall["unlabelled"]) == (34, 6)
    assert (overall["joint overrules"], overall["ties"]) == (3, 5)
    assert overall["unanimous %"] == round(100 * 23 / 34, 2)
    assert overall["one dissent %"] == round(100 * 3 / 34, 2)
    assert overall["joint overrule %"] == round(100 * 3 / 34, 2) == 8.82
    assert overall["three-way tie %"] == round(100 * 5 / 34, 2) == 14.71
    oracle = votes.loc["scripted/oracle"]
    assert (oracle["judged"], oracle["unlabelled"], oracle["ties"]) == (17, 3, 4)
    skip = votes.loc["scripted/skip"]
    assert (skip["judged"], skip["unlabelled"], skip["ties"], skip["joint overrules"]) == (
        17,
        3,
        1,
        0,
    )


def test_the_report_ranks_by_the_ensemble_and_leaves_unlabelled_traces_out(
    judged: tuple[Path, list[dict[str, Any]]],
) -> None:
    out, _ = judged
    report = build_report([out])
    board = report.tables["toolfailbench_leaderboard"].set_index("model")
    # oracle: 12 judged tool-required episodes (cybersecurity left out); medicine's 3 are
    # overruled to result_ignore, law's ties and real_estate's dissent keep the rule's
    assert board.loc["scripted/oracle", "required"] == 12
    assert board.loc["scripted/oracle", "CTUR %"] == 75.0
    assert board.loc["scripted/oracle", "rule CTUR %"] == 100.0
    assert board.loc["scripted/oracle", "RIR %"] == 25.0
    assert board.loc["scripted/oracle", "rank"] == 1
    assert board.loc["scripted/skip", "required"] == 12  # law's 3 left out
    assert board.loc["scripted/skip", "TSR %"] == 100.0
    assert board.loc["scripted/skip", "rank"] == 2
    # a tie on the controls keeps the rule's correct
    assert board.loc["scripted/oracle", "CTRL-Acc %"] == 100.0
    section = next(t for t in report.sections if t.name == "toolfailbench_leaderboard")
    assert "ensemble" in section.title
    assert "6 episode(s) without a label from both judges are left out" in section.note
    by_rater = report.tables["toolfailbench_ctur_by_rater"].set_index("model")
    oracle = by_rater.loc["scripted/oracle"]
    assert (oracle["rule n"], oracle["rule CTUR %"]) == (15, 100.0)
    assert (oracle["judge_a n"], oracle["judge_a CTUR %"]) == (15, 60.0)
    # judge B labelled 12 (3 correct); its 3 unlabelled keep the rule's correct: 6 of 15
    assert (oracle["judge_b n"], oracle["judge_b labelled"]) == (15, 12)
    assert oracle["judge_b CTUR %"] == 40.0
    assert (oracle["ensemble n"], oracle["ensemble CTUR %"]) == (12, 75.0)
    skip = by_rater.loc["scripted/skip"]
    assert (skip["judge_a n"], skip["judge_b n"], skip["ensemble n"]) == (15, 15, 12)
    assert (skip["judge_a labelled"], skip["judge_b labelled"]) == (12, 15)
    assert "toolfailbench_agreement" in report.tables
