"""The ToolBench-X build, stage by stage, with a count and a drop reason at every stage.

Raw generation -> screening -> at most N per (subtopic, workflow) -> hazard assignment ->
validation -> selection to the dataset's size per workflow type -> final ids.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Mapping

from pydantic import BaseModel, Field

from toolchaos.core.types import TaskSpec
from toolchaos.domains import get_domain
from toolchaos.hazards import hint_for, proposals
from toolchaos.suites.toolbench_x.generate import (
    DATASET_VERSION,
    Candidate,
    draft_to_task,
    normalized_prompt,
    raw_candidates,
    task_id,
)
from toolchaos.suites.toolbench_x.validate import (
    episode_correct,
    errors_leak,
    leak_problems,
    play_sync,
    replay_reference,
    validate_task,
)

# How many tasks ahead a family may be and still take a task that brings a new variant.
RARE_BONUS = 3
# The size of ToolBench-X v1 per workflow type (1,106 tasks in all).
V1_TARGETS: dict[str, int] = {"sequential": 378, "parallel": 358, "mixture": 370}


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
    targets: dict[str, int] | None = None
    counts: dict[str, int] = Field(default_factory=dict)
    shortfall: dict[str, int] = Field(default_factory=dict)
    retention: float = 0.0
    drops: list[Drop] = Field(default_factory=list)

    def drop(self, stage: str, task: str, reason: str) -> None:
        """Record one drop."""
        self.drops.append(Drop(stage=stage, task=task, reason=reason))


def build_toolbench_x(
    seed: int,
    per_cell: int = 5,
    domains: list[str] | None = None,
    targets: Mapping[str, int] | None = None,
    version: int = DATASET_VERSION,
) -> tuple[list[TaskSpec], BuildReport]:
    """Build the ToolBench-X task set for ``seed`` (same seed, same bytes).

    ``targets`` (tasks per workflow type, e.g. :data:`V1_TARGETS`) selects that many of
    the validated tasks; without it every validated task is kept. A workflow type with
    fewer validated tasks than its target is recorded in the report's ``shortfall``.
    ``version`` 1 builds tasks as v1 shipped them (see :func:`draft_to_task`).
    """
    report = BuildReport(
        seed=seed, per_cell=per_cell, targets=dict(targets) if targets is not None else None
    )
    candidates = raw_candidates(seed, per_cell * 3, domains)
    report.counts["raw"] = len(candidates)
    generated = []
    for cand in candidates:
        if cand.draft is None:
            report.drop("generate", cand.label, cand.reason)
        else:
            generated.append(cand)
    report.counts["generated"] = len(generated)
    screened = _screen(generated, report, version)
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
    chosen = validated if targets is None else select(validated, targets, report)
    selected = _number(chosen)
    report.counts["selected"] = len(selected)
    report.retention = round(len(selected) / max(len(candidates), 1), 4)
    return selected, report


def _screen(
    candidates: list[Candidate], report: BuildReport, version: int = DATASET_VERSION
) -> list[tuple[Candidate, TaskSpec]]:
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
            task = draft_to_task(
                cand.draft, cand.subtopic, cand.workflow, cand.label, 0, version=version
            )
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
        leak = leak_problems(task)
        if leak:  # caught here, before the cap, so another candidate can fill the cell
            report.drop("screen", cand.label, f"leak: {leak[0].reason}")
            continue
        seen.add(key)
        out.append((cand, task))
    return out


def _cap(
    screened: list[tuple[Candidate, TaskSpec]], per_cell: int, report: BuildReport
) -> list[TaskSpec]:
    """Keep at most ``per_cell`` tasks per (subtopic, workflow type), in candidate order."""
    counts: defaultdict[tuple[str, str], int] = defaultdict(int)
    out = []
    for cand, task in screened:
        cell = (cand.subtopic.name, cand.workflow)
        if counts[cell] >= per_cell:
            report.drop("cap", cand.label, f"cell already has {per_cell} tasks")
            continue
        counts[cell] += 1
        out.append(task)
    return out


def select(
    tasks: list[TaskSpec], targets: Mapping[str, int], report: BuildReport
) -> list[TaskSpec]:
    """Keep ``targets[workflow]`` tasks of each workflow type, as evenly as the data allows.

    One task is dropped at a time, always from a fullest (subtopic, workflow) cell of a
    workflow type still over its target. Among those, the task dropped is the one whose
    hazard family, then variant, is the most common in what is kept, and never the last
    task of a variant. The choice depends only on the tasks, so it is deterministic.
    """
    kept = {task.id: task for task in tasks}
    family: Counter[str] = Counter()
    variant: Counter[str] = Counter()
    cells: Counter[tuple[str, str]] = Counter()
    per_workflow: Counter[str] = Counter()
    for task in tasks:
        assert task.hazard is not None
        family[task.hazard.family.value] += 1
        variant[_variant(task)] += 1
        cells[(task.subtopic, task.workflow)] += 1
        per_workflow[task.workflow] += 1
    for workflow, want in sorted(targets.items()):
        if per_workflow[workflow] < want:
            report.shortfall[workflow] = want - per_workflow[workflow]
    while True:
        over = {w for w, want in targets.items() if per_workflow[w] > want}
        if not over:
            break
        fullest = {w: max(n for (_, cw), n in cells.items() if cw == w) for w in over}

        def cost(task: TaskSpec) -> tuple[int, int, int, str]:
            assert task.hazard is not None
            last = variant[_variant(task)] <= 1
            return (last, -family[task.hazard.family.value], -variant[_variant(task)], task.id)

        droppable = [
            t
            for t in kept.values()
            if t.workflow in over and cells[(t.subtopic, t.workflow)] == fullest[t.workflow]
        ]
        victim = min(droppable, key=cost)
        assert victim.hazard is not None
        del kept[victim.id]
        family[victim.hazard.family.value] -= 1
        variant[_variant(victim)] -= 1
        cells[(victim.subtopic, victim.workflow)] -= 1
        per_workflow[victim.workflow] -= 1
        reason = f"{victim.workflow} is over its target of {targets[victim.workflow]}"
        report.drop("select", victim.id, reason)
    return [t for t in tasks if t.id in kept]


def _variant(task: TaskSpec) -> str:
    assert task.hazard is not None
    return f"{task.hazard.family.value}/{task.hazard.variant}"


def _number(tasks: list[TaskSpec]) -> list[TaskSpec]:
    """Give each task its shipped id (numbered in candidate order within its cell)."""
    by_cell: defaultdict[tuple[str, str], list[TaskSpec]] = defaultdict(list)
    for task in tasks:
        by_cell[(task.subtopic, task.workflow)].append(task)
    out = []
    for (subtopic, workflow), cell in by_cell.items():
        for number, task in enumerate(sorted(cell, key=lambda t: t.id), start=1):
            out.append(task.model_copy(update={"id": task_id(subtopic, workflow, number)}))
    return sorted(out, key=lambda t: t.id)


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

        fresh = {
            family
            for family, offers in offered.items()
            if any(variant_counts[f"{family.value}/{p.spec.variant}"] == 0 for p in offers)
        }
        # least-used family first; a family offering a variant no task has yet gets a head
        # start of RARE_BONUS, so variants that fit few tasks are not crowded out
        order = sorted(
            offered,
            key=lambda f: (family_counts[f.value] - RARE_BONUS * (f in fresh), f.value),
        )
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
                oracle = play_sync(trial, "oracle", "hazard")
                if not episode_correct(oracle, trial):
                    report.drop("hazard", task.id, f"{name}: the recipe does not recover")
                    continue
                naive = play_sync(trial, "naive", "hazard")
                if episode_correct(naive, trial):
                    report.drop("hazard", task.id, f"{name}: a naive agent survives it")
                    continue
                if leak_problems(trial) or errors_leak(trial, oracle, naive):
                    report.drop("hazard", task.id, f"{name}: its hint or errors show the answer")
                    continue
                chosen = trial
                family_counts[family.value] += 1
                variant_counts[f"{family.value}/{proposal.spec.variant}"] += 1
                break
            if chosen is not None:
                break
        if chosen is None:
            report.drop("hazard", task.id, "no hazard fits this task")
        else:
            out.append(chosen)
    return out
