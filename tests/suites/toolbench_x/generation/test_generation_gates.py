"""Generated tasks meet the shipped gates; each bad one is dropped at its stage with its reason."""

from __future__ import annotations

from pathlib import Path

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generation.domain import DomainSpec
from toolchaos.suites.toolbench_x.generation.gates import GeneratedTask, gate_generated
from toolchaos.suites.toolbench_x.generation.sandbox import Limits
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync

FIXTURE = Path(__file__).parent / "fixtures" / "library_domain.json"


def _task(
    workflow: str, prompt: str, steps: list[RefStep], answer: AnswerSpec, claim: str = ""
) -> GeneratedTask:
    return GeneratedTask(
        subtopic="Branch catalogue",
        workflow=workflow,
        prompt=prompt,
        steps=steps,
        answer=answer,
        claimed_answer=claim,
    )


def test_each_stage_drops_what_it_should_and_the_rest_play(tmp_path: Path) -> None:
    spec = DomainSpec.model_validate_json(FIXTURE.read_text())
    book = RefStep(tool="get_book", args={"book_id": "BK-103"})
    fee = AnswerSpec(op="value", refs=[[0, "late_fee"]])
    tasks = [
        _task(
            "sequential", "What is the late fee per day of the book BK-103?", [book], fee, "0.75"
        ),
        # the reference is wrong: the plan gives 0.75
        _task("sequential", "What does BK-103 cost per late day?", [book], fee, "1.5"),
        # a parallel task whose second step reads the first's result
        _task(
            "parallel",
            "Which branch holds BK-101, and what else is there?",
            [
                RefStep(tool="get_book", args={"book_id": "BK-101"}),
                RefStep(tool="find_books", args={"branch": {"$ref": [0, "branch"]}}),
            ],
            AnswerSpec(op="count", refs=[[1, "results"]]),
        ),
        # a tool that loops forever: the sandbox's CPU limit ends it at the screen
        _task(
            "sequential",
            "How many shelves does the South branch have?",
            [RefStep(tool="stuck", args={"branch": "South"})],
            AnswerSpec(op="value", refs=[[0, "shelves"]]),
        ),
        # the same prompt again
        _task("sequential", "What is the late fee per day of the book BK-103?", [book], fee),
    ]
    kept, report = gate_generated(
        spec, tasks, reviews=tmp_path / "reviews.jsonl", limits=Limits(cpu_seconds=1)
    )
    assert report.counts["raw"] == 5 and report.counts["parsed"] == 3
    assert report.counts["screened"] == 1 and report.counts["kept"] == 1
    reasons = {
        (d.stage, d.task[-2:]): d.reason for d in report.drops if d.stage in ("parsed", "screen")
    }
    assert "wrong reference" in reasons[("parsed", "02")]
    assert "labelled parallel" in reasons[("parsed", "03")]
    assert "SIGXCPU" in reasons[("screen", "04")]
    assert reasons[("screen", "05")] == "duplicate prompt"
    [task] = kept
    assert episode_correct(play_sync(task, "oracle", "hazard"), task, exact=True)
    assert not episode_correct(play_sync(task, "naive", "hazard"), task)
