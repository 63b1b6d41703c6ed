"""Generated tasks through the shipped build's gates, with a count at every stage.

A model's task is a :class:`GeneratedTask`: its prompt, workflow type, reference plan
(steps with ``$ref`` wiring) and how the answer is computed, plus the answer it claims.
:func:`gate_generated` takes a generated domain and its tasks through the stages

raw -> parsed (the plan's shape fits its workflow type; the claimed answer is what the
plan gives when replayed) -> screened (the shipped :func:`pipeline._screen`) -> hazarded
(the shipped :func:`pipeline.assign_hazards`, cheap-strategy gates enforced) ->
validated (:func:`validate.validate_task`, prompt checks included) -> reviewed (the
shipped review stage) -> kept,

and returns the kept tasks and the :class:`~toolchaos.suites.toolbench_x.pipeline.BuildReport`
whose ``counts`` and ``drops`` say what each stage dropped and why.
"""

from __future__ import annotations

import random
from pathlib import Path

from pydantic import BaseModel, Field

from toolchaos.core.reference import ref_steps
from toolchaos.core.types import AnswerSpec, RefStep, TaskSpec
from toolchaos.suites.toolbench_x.generate import WORKFLOWS, Candidate, Draft, Subtopic
from toolchaos.suites.toolbench_x.generation.domain import DomainSpec, register_generated
from toolchaos.suites.toolbench_x.generation.sandbox import Limits
from toolchaos.suites.toolbench_x.pipeline import BuildReport, _screen, assign_hazards
from toolchaos.suites.toolbench_x.review import review_stage
from toolchaos.suites.toolbench_x.validate import replay_reference, validate_task


class GeneratedTask(BaseModel):
    """One task as a model writes it (the answer it claims is checked, never trusted)."""

    subtopic: str
    workflow: str
    prompt: str
    steps: list[RefStep]
    answer: AnswerSpec
    claimed_answer: str = ""
    writes: bool = False
    extra_tools: list[str] = Field(default_factory=list)


def shape_problem(task: GeneratedTask) -> str:
    """Why the plan's wiring does not fit its workflow type ("" when it does).

    Sequential: every step after the first uses an earlier step's result. Parallel: two
    or more steps, none using another's. Mixture: at least one step that uses an earlier
    result and at least two that use none.
    """
    if task.workflow not in WORKFLOWS:
        return f"workflow {task.workflow!r} is not one of {', '.join(WORKFLOWS)}"
    fed = [bool(ref_steps(step.args)) for step in task.steps]
    if not fed:
        return "the reference plan has no steps"
    if task.workflow == "sequential" and not all(fed[1:]):
        return "labelled sequential but a later step uses no earlier result"
    if task.workflow == "parallel" and (len(fed) < 2 or any(fed)):
        return "labelled parallel but it is not two or more independent steps"
    if task.workflow == "mixture" and (not any(fed) or fed.count(False) < 2):
        return "labelled mixture but it does not both fan out and chain"
    return ""


def gate_generated(
    spec: DomainSpec,
    tasks: list[GeneratedTask],
    seed: int = 0,
    reviews: Path | None = None,
    limits: Limits | None = None,
) -> tuple[list[TaskSpec], BuildReport]:
    """Take ``tasks`` over the generated domain ``spec`` through every gate.

    ``reviews`` is the review file whose removed tasks are dropped (docs/review.md).
    """
    register_generated(spec, limits)
    report = BuildReport(seed=seed, per_cell=len(tasks), cheap_enforced=True)
    report.counts["raw"] = len(tasks)
    candidates = []
    for number, made in enumerate(tasks, start=1):
        sub = Subtopic(name=made.subtopic, templates={}, topic=spec.topic, domain=spec.name)
        draft = Draft(made.prompt, made.steps, made.answer, made.writes, [], made.extra_tools)
        cand = Candidate(sub, made.workflow, number, draft, template="generated")
        why = shape_problem(made) or _claim_problem(cand, made)
        if why:
            report.drop("parsed", cand.label, why)
        else:
            candidates.append(cand)
    report.counts["parsed"] = len(candidates)
    screened = [task for _, task in _screen(candidates, report)]
    report.counts["screened"] = len(screened)
    hazarded = assign_hazards(screened, random.Random(seed), report, cheap_gates=True)
    report.counts["hazarded"] = len(hazarded)
    validated = []
    for task in hazarded:
        problems = validate_task(task)
        for problem in problems:
            report.drop("validate", task.id, f"{problem.check}: {problem.reason}")
        if not problems:
            validated.append(task)
    report.counts["validated"] = len(validated)
    kept = review_stage(validated, reviews, report)
    report.counts["reviewed"] = report.counts["kept"] = len(kept)
    report.retention = round(len(kept) / max(len(tasks), 1), 4)
    return kept, report


def _claim_problem(cand: Candidate, task: GeneratedTask) -> str:
    """Why the claimed answer is not what the plan gives ("" when it is, or none claimed)."""
    if not task.claimed_answer:
        return ""
    from toolchaos.suites.toolbench_x.generate import draft_to_task

    assert cand.draft is not None
    try:
        built = draft_to_task(cand.draft, cand.subtopic, cand.workflow, cand.label, 0, "generated")
    except Exception as exc:  # the screen words these; here the claim cannot be checked
        return f"the reference plan does not run: {type(exc).__name__}: {exc}"
    replayed = replay_reference(built).answer
    if replayed != task.claimed_answer:
        return (
            f"wrong reference: the plan gives {replayed!r}, the task claims {task.claimed_answer!r}"
        )
    return ""
