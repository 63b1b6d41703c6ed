"""The ToolBench-X build, stage by stage, with a count and a drop reason at every stage.

Raw generation -> screening -> at most N per (subtopic, workflow) -> hazard assignment ->
validation -> selection.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from pydantic import BaseModel, Field

from toolchaos.build.validate import episode_correct, play_sync, replay_reference, validate_task
from toolchaos.core.types import TaskSpec
from toolchaos.domains import get_domain
from toolchaos.hazards.assign import proposals
from toolchaos.hazards.hints import hint_for
from toolchaos.suites.toolbench_x.generate import (
    Candidate,
    draft_to_task,
    normalized_prompt,
    raw_candidates,
    task_id,
)


class Drop(BaseModel):
    """One candidate or task that did not make it, and why."""

    stage: str
    task: str
    reason: str


class BuildReport(BaseModel):
    """What a build did: its inputs, the count after each stage and every drop."""

    suite: str = "toolbench-x"
    seed: int
    per_cell: int
    counts: dict[str, int] = Field(default_factory=dict)
    retention: float = 0.0
    drops: list[Drop] = Field(default_factory=list)

    def drop(self, stage: str, task: str, reason: str) -> None:
        """Record one drop."""
        self.drops.append(Drop(stage=stage, task=task, reason=reason))


def build_toolbench_x(
    seed: int, per_cell: int = 5, domains: list[str] | None = None
) -> tuple[list[TaskSpec], BuildReport]:
    """Build the ToolBench-X task set for ``seed`` (same seed, same bytes)."""
    report = BuildReport(seed=seed, per_cell=per_cell)
    candidates = raw_candidates(seed, per_cell * 3, domains)
    report.counts["raw"] = len(candidates)
    generated = []
    for cand in candidates:
        if cand.draft is None:
            report.drop("generate", cand.label, cand.reason)
        else:
            generated.append(cand)
    report.counts["generated"] = len(generated)
    screened = _screen(generated, report)
    report.counts["screened"] = len(screened)
    capped = _cap(screened, per_cell, report)
    report.counts["capped"] = len(capped)
    hazarded = assign_hazards(capped, random.Random(seed), report)
    report.counts["hazarded"] = len(hazarded)
    validated = []
    for task in hazarded:
        problems = validate_task(task)
        for problem in problems:
            report.drop("validate", task.id, f"{problem.check}: {problem.reason}")
        if not problems:
            validated.append(task)
    report.counts["validated"] = len(validated)
    selected = sorted(validated, key=lambda t: t.id)
    report.counts["selected"] = len(selected)
    report.retention = round(len(selected) / max(len(candidates), 1), 4)
    return selected, report


def _screen(candidates: list[Candidate], report: BuildReport) -> list[tuple[Candidate, TaskSpec]]:
    """Keep candidates that are valid, new, executable and deterministic in the clean world."""
    seen: set[str] = set()
    out = []
    for cand in candidates:
        assert cand.draft is not None
        key = normalized_prompt(cand.draft.prompt)
        if key in seen:
            report.drop("screen", cand.label, "duplicate prompt")
            continue
        try:
            task = draft_to_task(cand.draft, cand.subtopic, cand.workflow, cand.label, 0)
        except ValueError as exc:
            report.drop("screen", cand.label, f"not executable: {exc}")
            continue
        except Exception as exc:  # a template that builds an invalid task
            report.drop("screen", cand.label, f"invalid task: {type(exc).__name__}: {exc}")
            continue
        if not task.reference.answer and not task.reference.writes:
            report.drop("screen", cand.label, "empty reference answer")
            continue
        again = replay_reference(task)
        if again.answer != task.reference.answer or (
            task.reference.writes and again.end_state != task.reference.end_state
        ):
            report.drop("screen", cand.label, "the clean path is not deterministic")
            continue
        if not episode_correct(play_sync(task, "oracle", "clean"), task):
            report.drop("screen", cand.label, "the oracle does not reach the reference")
            continue
        seen.add(key)
        out.append((cand, task))
    return out


def _cap(
    screened: list[tuple[Candidate, TaskSpec]], per_cell: int, report: BuildReport
) -> list[TaskSpec]:
    """Keep at most ``per_cell`` tasks per (subtopic, workflow type) and give them their ids."""
    counts: defaultdict[tuple[str, str], int] = defaultdict(int)
    out = []
    for cand, task in screened:
        cell = (cand.subtopic.name, cand.workflow)
        if counts[cell] >= per_cell:
            report.drop("cap", cand.label, f"cell already has {per_cell} tasks")
            continue
        counts[cell] += 1
        out.append(
            task.model_copy(update={"id": task_id(cand.subtopic, cand.workflow, counts[cell])})
        )
    return out


def assign_hazards(
    tasks: list[TaskSpec], rng: random.Random, report: BuildReport
) -> list[TaskSpec]:
    """Give each task one hazard that fits, matters and can be recovered from.

    Families are balanced by trying the least-used family first, and variants likewise
    within a family. A proposal is kept only if the oracle still solves the task in the
    clean world, recovers under the hazard, and the naive baseline fails under it. A task
    no hazard fits is dropped.
    """
    family_counts: Counter[str] = Counter()
    variant_counts: Counter[str] = Counter()
    out = []
    for task in tasks:
        domain = get_domain(task.domain)
        offered = proposals(task, domain, rng, replay_reference(task).results)
        order = sorted(offered, key=lambda f: (family_counts[f.value], f.value))
        chosen: TaskSpec | None = None
        for family in order:
            candidates = list(offered[family])
            rng.shuffle(candidates)
            candidates.sort(key=lambda p: variant_counts[f"{family.value}/{p.spec.variant}"])
            for proposal in candidates:
                tools = list(dict.fromkeys(task.tools + proposal.extra_tools))
                hint = hint_for(proposal.spec, rng.choice(["start", "first_anomaly"]))
                trial = task.model_copy(
                    update={
                        **proposal.task_update,
                        "hazard": proposal.spec,
                        "tools": tools,
                        "hints": hint,
                    }
                )
                name = f"{family.value}/{proposal.spec.variant} on {proposal.spec.tool}"
                if proposal.task_update and not episode_correct(
                    play_sync(trial, "oracle", "clean"), trial
                ):
                    report.drop("hazard", task.id, f"{name}: breaks the clean path")
                    continue
                if not episode_correct(play_sync(trial, "oracle", "hazard"), trial):
                    report.drop("hazard", task.id, f"{name}: the recipe does not recover")
                    continue
                if episode_correct(play_sync(trial, "naive", "hazard"), trial):
                    report.drop("hazard", task.id, f"{name}: a naive agent survives it")
                    continue
                chosen = trial
                break
            if chosen is not None and chosen.hazard is not None:
                family_counts[family.value] += 1
                variant_counts[f"{family.value}/{chosen.hazard.variant}"] += 1
                break
        if chosen is None:
            report.drop("hazard", task.id, "no hazard fits this task")
        else:
            out.append(chosen)
    return out
