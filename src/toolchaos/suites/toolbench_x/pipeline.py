"""The ToolBench-X build, stage by stage, with a count and a drop reason at every stage.

Raw generation -> screening -> at most N per (subtopic, workflow) -> hazard assignment ->
validation -> selection to the dataset's size per workflow type -> final ids.

Hazard assignment is where the validity gates stand (docs/toolbench-x.md): a proposal is kept only
if the oracle recovers, the naive policy and the policies standing in for a capable
model's easy strategies fail (a task the error follower solves is ``explicit``, and at
most :data:`EXPLICIT_SHARE` of the tasks may be), nothing leaks and the task is coherent.
Every gate counts what it dropped in the build report.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, Field

from toolchaos.core.types import TaskSpec, Tier
from toolchaos.domains import get_domain
from toolchaos.hazards import Proposal, hint_for, proposals
from toolchaos.suites.toolbench_x.baselines import CHEAP_MODES
from toolchaos.suites.toolbench_x.coherence import coherence_problems, time_problems
from toolchaos.suites.toolbench_x.generate import (
    Asked,
    Candidate,
    draft_to_task,
    raw_candidates,
    task_id,
)
from toolchaos.suites.toolbench_x.prose import said_where_named
from toolchaos.suites.toolbench_x.review import review_stage
from toolchaos.suites.toolbench_x.tiers import TierFigures, measure_tasks
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
# The size of ToolBench-X per workflow type (1,106 tasks in all, as in the paper).
V1_TARGETS: dict[str, int] = {"sequential": 378, "parallel": 358, "mixture": 370}
CAP_MARGIN = 2
"""Candidates per cell sent to the hazard gates, as a multiple of the cell's size."""
EXPLICIT_SHARE = 1 / 3
"""At most this share of the tasks may carry an explicit hazard (one that names its fix)."""
CHEAP_GATES = (*CHEAP_MODES, "capable")
"""The cheap-strategy gates (issue #24): a proposal one of these policies solves under the
hazard is sidestepped, not diagnosed. A build with ``cheap_gates`` drops it after the
lenient and bypasser gates (counted in ``gates`` under the policy's name); every build
counts, per gate and family, the selected tasks each policy solves (``cheap``), so the
shipped v2, built without them, reports what they would drop."""
SURVIVES = {
    "naive": "a naive agent survives it",
    "lenient": "a reader that understands JSON survives it without recovering",
    "bypasser": "an agent that steps around the failing call survives it",
}
"""What a drop by each of the three gate policies means (the cheap gates say their policy)."""
POLICY_GATES = (
    "retry-twice",
    "doc-example",
    "changelog-reader",
    "name-passer",
    "bypasser",
    "naive",
    "capable",
    "prior-step",
    "authority-seeker",
    "lenient",
)
"""The gates that play a failing policy under the hazard: a proposal it solves is dropped."""
GATES = ("coherence", *POLICY_GATES, "breaks-clean", "recovery", "explicit-quota", "leak")
"""The hazard gates in the order a proposal meets them; ``relative-date`` and ``time-left``
screen tasks. A proposal is kept only if it passes all of them, so the order decides only
which gate a drop is counted under, and how many episodes a build plays: the policies that
refuse the most proposals go first (in a seed-0 build, the cheapest refusal), the replays
that almost every proposal passes (the oracle's) last. The cheap gates stand where they
are only in a build with ``cheap_gates``."""


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
    gates: dict[str, int] = Field(default_factory=dict)
    """How many candidates (screen) or hazard proposals (the others) each gate dropped."""
    tiers: dict[str, dict[str, int]] = Field(default_factory=dict)
    """The selected tasks' tier mix per hazard family, as the tasks declare it."""
    measured: TierFigures = Field(default_factory=TierFigures)
    """The selected tasks' tiers measured from what the agent sees when each is replayed
    under its hazard (:mod:`~toolchaos.suites.toolbench_x.tiers`): the mix, the
    declared-vs-measured confusion and where the fix is found, per hazard family."""
    cheap: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Per cheap gate (:data:`CHEAP_GATES`) and hazard family, the selected tasks that gate's
    policy solves under the hazard (what it drops, or would drop without ``cheap_gates``)."""
    cheap_enforced: bool = False
    """Whether the cheap gates dropped proposals (else they were only counted)."""
    distinct_logics: int = 0
    calls_histogram: dict[str, int] = Field(default_factory=dict)
    drops: list[Drop] = Field(default_factory=list)

    def drop(self, stage: str, task: str, reason: str) -> None:
        """Record one drop."""
        self.drops.append(Drop(stage=stage, task=task, reason=reason))

    def gate(self, gate: str, task: str, reason: str) -> None:
        """Record one drop by a validity gate, and count it."""
        self.gates[gate] = self.gates.get(gate, 0) + 1
        self.drop(f"gate:{gate}", task, reason)


def build_toolbench_x(
    seed: int,
    per_cell: int = 5,
    domains: list[str] | None = None,
    targets: Mapping[str, int] | None = None,
    reviews: Path | None = None,
    cheap_gates: bool = False,
) -> tuple[list[TaskSpec], BuildReport]:
    """Build the ToolBench-X task set for ``seed`` (same seed, same bytes).

    ``targets`` (tasks per workflow type, e.g. :data:`V1_TARGETS`) selects that many of
    the validated tasks; without it every validated task is kept. A workflow type with
    fewer validated tasks than its target is recorded in the report's ``shortfall``.
    ``reviews`` is the review file whose removed tasks the build drops after validation
    (default: the shipped :data:`~toolchaos.suites.toolbench_x.review.REVIEWS_FILE`).
    ``cheap_gates`` makes the cheap-strategy gates (:data:`CHEAP_GATES`) drop proposals;
    without it (the shipped v2) they are only counted over the selected tasks.
    """
    report = BuildReport(
        seed=seed,
        per_cell=per_cell,
        targets=dict(targets) if targets is not None else None,
        cheap_enforced=cheap_gates,
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
    screened = _screen(generated, report)
    report.counts["screened"] = len(screened)
    # twice the cell's size goes to the hazard gates, so a cell stays full when some fail
    capped = _cap([task for _, task in screened], per_cell * CAP_MARGIN, report, "cap")
    report.counts["capped"] = len(capped)
    hazarded = assign_hazards(capped, random.Random(seed), report, cheap_gates=cheap_gates)
    # the ambiguous entity's telling detail said where the request names it (prose.py)
    hazarded = [t.model_copy(update={"prompt": said_where_named(t.prompt)}) for t in hazarded]
    report.counts["hazarded"] = len(hazarded)
    hazarded = _cap(hazarded, per_cell, report, "cell", balance=True)
    report.counts["cell"] = len(hazarded)
    validated = []
    for task in hazarded:
        problems = validate_task(task)
        for problem in problems:
            report.drop("validate", task.id, f"{problem.check}: {problem.reason}")
        if not problems:
            validated.append(task)
    report.counts["validated"] = len(validated)
    validated = review_stage(validated, reviews, report)  # what reviewers removed (review.py)
    report.counts["reviewed"] = len(validated)
    chosen = validated if targets is None else select(validated, targets, report)
    selected = _number(chosen)
    report.counts["selected"] = len(selected)
    report.distinct_logics = len({str(t.metadata.get("logic", t.id)) for t in selected})
    calls = Counter(len(t.reference.steps) for t in selected)
    report.calls_histogram = {str(n): calls[n] for n in sorted(calls)}
    for task in selected:
        assert task.hazard is not None
        mix = report.tiers.setdefault(task.hazard.family.value, {})
        tier = task.hazard.tier or "explicit"
        mix[tier] = mix.get(tier, 0) + 1
    report.measured = measure_tasks(selected)
    report.cheap = cheap_counts(selected)
    report.retention = round(len(selected) / max(len(candidates), 1), 4)
    return selected, report


def _screen(candidates: list[Candidate], report: BuildReport) -> list[tuple[Candidate, TaskSpec]]:
    """Keep candidates that are valid, new, executable and deterministic in the clean world."""
    asked = Asked()
    out = []
    for cand in candidates:
        assert cand.draft is not None
        if asked.by_prompt(cand.draft.prompt):
            report.drop("screen", cand.label, "duplicate prompt")
            continue
        try:
            task = draft_to_task(
                cand.draft, cand.subtopic, cand.workflow, cand.label, 0, cand.template
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
        if asked.by_question(task):
            report.drop("screen", cand.label, "duplicate question (same calls and answer)")
            continue
        again = replay_reference(task)
        if again.answer != task.reference.answer or (
            task.reference.writes and again.end_state != task.reference.end_state
        ):
            report.drop("screen", cand.label, "the clean path is not deterministic")
            continue
        if not episode_correct(play_sync(task, "oracle", "clean"), task, exact=True):
            report.drop("screen", cand.label, "the oracle does not reach the reference")
            continue
        leak = leak_problems(task)
        if leak:  # caught here, before the cap, so another candidate can fill the cell
            report.drop("screen", cand.label, f"leak: {leak[0].reason}")
            continue
        untimely = time_problems(task)
        if untimely:
            report.gate(untimely[0].check, cand.label, untimely[0].reason)
            continue
        asked.keep(task, cand.label)
        out.append((cand, task))
    return out


def _cap(
    tasks: list[TaskSpec],
    per_cell: int,
    report: BuildReport,
    stage: str,
    balance: bool = False,
) -> list[TaskSpec]:
    """Keep at most ``per_cell`` tasks per (subtopic, workflow type).

    A cell takes a task of a logic it does not hold yet before a second task of a logic
    it holds (then candidate order), so a cell is as varied as its templates allow. With
    ``balance`` (tasks that carry hazards), each pick goes first to a variant no cell has
    kept yet, then to the hazard family kept least so far across the cells, so the cap
    keeps the families as even as it found them and a variant few tasks can carry is not
    the one cut.
    """
    by_cell: defaultdict[tuple[str, str], list[TaskSpec]] = defaultdict(list)
    for task in tasks:
        by_cell[(task.subtopic, task.workflow)].append(task)
    kept: set[str] = set()
    families: Counter[str] = Counter()
    variants: Counter[str] = Counter()
    for cell in by_cell.values():
        chosen: list[int] = []
        logics: set[str] = set()
        while len(chosen) < min(per_cell, len(cell)):
            left = [i for i in range(len(cell)) if i not in chosen]
            costs = [
                _cap_cost(cell[i], i, (families, variants) if balance else None, logics)
                for i in left
            ]
            pick = left[costs.index(min(costs))]
            chosen.append(pick)
            logics.add(_logic(cell[pick]))
            hazard = cell[pick].hazard
            if balance and hazard is not None:
                families[hazard.family.value] += 1
                variants[_variant(cell[pick])] += 1
        kept.update(cell[i].id for i in chosen)
    out = []
    for task in tasks:
        if task.id in kept:
            out.append(task)
        else:
            report.drop(stage, task.id, f"cell already has {per_cell} tasks")
    return out


def _cap_cost(
    task: TaskSpec,
    index: int,
    kept: tuple[Counter[str], Counter[str]] | None,
    logics: set[str],
) -> tuple[bool, int, bool, int]:
    """The order a cell's cap picks in (``kept``: the families and variants kept so far).

    A variant not kept yet, then the family kept least, then a new logic, then candidate
    order.
    """
    if kept is None or task.hazard is None:
        return (False, 0, _logic(task) in logics, index)
    families, variants = kept
    return (
        variants[_variant(task)] > 0,
        families[task.hazard.family.value],
        _logic(task) in logics,
        index,
    )


def select(
    tasks: list[TaskSpec], targets: Mapping[str, int], report: BuildReport
) -> list[TaskSpec]:
    """Keep ``targets[workflow]`` tasks of each workflow type, as evenly as the data allows.

    One task is dropped at a time, always from a fullest (subtopic, workflow) cell of a
    workflow type still over its target. Among those, the task dropped is the one whose
    hazard family is the most common in what is kept, then one whose logic another kept
    task shares, then one of the most common variant, and never the last task of a
    variant. The choice depends only on the tasks, so it is deterministic.
    """
    kept = {task.id: task for task in tasks}
    family: Counter[str] = Counter()
    variant: Counter[str] = Counter()
    cells: Counter[tuple[str, str]] = Counter()
    logics: Counter[str] = Counter()
    per_workflow: Counter[str] = Counter()
    for task in tasks:
        assert task.hazard is not None
        family[task.hazard.family.value] += 1
        variant[_variant(task)] += 1
        cells[(task.subtopic, task.workflow)] += 1
        logics[_logic(task)] += 1
        per_workflow[task.workflow] += 1
    for workflow, want in sorted(targets.items()):
        if per_workflow[workflow] < want:
            report.shortfall[workflow] = want - per_workflow[workflow]
    while True:
        over = {w for w, want in targets.items() if per_workflow[w] > want}
        if not over:
            break
        fullest = {w: max(n for (_, cw), n in cells.items() if cw == w) for w in over}

        def cost(task: TaskSpec) -> tuple[int, int, int, int, str]:
            assert task.hazard is not None
            last = variant[_variant(task)] <= 1
            unique = logics[_logic(task)] <= 1
            return (
                last,
                -family[task.hazard.family.value],
                unique,
                -variant[_variant(task)],
                task.id,
            )

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
        logics[_logic(victim)] -= 1
        cells[(victim.subtopic, victim.workflow)] -= 1
        per_workflow[victim.workflow] -= 1
        reason = f"{victim.workflow} is over its target of {targets[victim.workflow]}"
        report.drop("select", victim.id, reason)
    return [t for t in tasks if t.id in kept]


def _logic(task: TaskSpec) -> str:
    return str(task.metadata.get("logic", task.id))


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


def cheap_counts(tasks: list[TaskSpec]) -> dict[str, dict[str, int]]:
    """Per cheap gate and hazard family, how many of ``tasks`` its policy solves."""
    counts: dict[str, dict[str, int]] = {}
    for mode in CHEAP_GATES:
        per_family = counts.setdefault(mode, {})
        for task in tasks:
            assert task.hazard is not None
            family = task.hazard.family.value
            solved = episode_correct(play_sync(task, mode, "hazard"), task)
            per_family[family] = per_family.get(family, 0) + solved
    return counts


def assign_hazards(
    tasks: list[TaskSpec], rng: random.Random, report: BuildReport, cheap_gates: bool = False
) -> list[TaskSpec]:
    """Give each task one hazard that fits, matters and can be recovered from.

    Families are balanced by trying the least-used family first, and variants likewise
    within a family; within a variant, a proposal of a less observable tier goes first.
    A proposal is kept only if it passes every gate (:data:`GATES`, :func:`gate_problem`).
    A task no hazard passes is dropped.
    """
    family_counts: Counter[str] = Counter()
    variant_counts: Counter[str] = Counter()
    explicit = 0
    out: list[TaskSpec] = []
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
            candidates.sort(
                key=lambda p: (
                    variant_counts[f"{family.value}/{p.spec.variant}"],
                    p.spec.tier == "explicit",
                )
            )
            for proposal in candidates:
                room = explicit + 1 <= EXPLICIT_SHARE * (len(out) + 1)
                trial, gate, reason = gate_problem(
                    task, proposal, rng, explicit_room=room, cheap_gates=cheap_gates
                )
                if gate:
                    name = f"{family.value}/{proposal.spec.variant} on {proposal.spec.tool}"
                    report.gate(gate, task.id, f"{name}: {reason}")
                    continue
                chosen = trial
                family_counts[family.value] += 1
                variant_counts[f"{family.value}/{proposal.spec.variant}"] += 1
                assert trial.hazard is not None
                explicit += trial.hazard.tier == "explicit"
                break
            if chosen is not None:
                break
        if chosen is None:
            report.drop("hazard", task.id, "no hazard passes the gates")
        else:
            out.append(chosen)
    return out


def gate_problem(
    task: TaskSpec,
    proposal: Proposal,
    rng: random.Random,
    explicit_room: bool = True,
    cheap_gates: bool = False,
) -> tuple[TaskSpec, str, str]:
    """Put ``proposal`` on ``task`` and run the gates: (the hazarded task, gate, reason).

    The gate is "" when the proposal passes them all; the task's tier is then settled:
    ``explicit`` when the error follower solves it, else the tier the variant proposed
    (an explicit proposal the follower cannot solve is ``implicit``).
    """
    tools = list(dict.fromkeys(task.tools + proposal.extra_tools))
    hint = hint_for(proposal.spec, rng.choice(["start", "first_anomaly"]))
    trial = task.model_copy(
        update={**proposal.task_update, "hazard": proposal.spec, "tools": tools, "hints": hint}
    )
    # the check that needs no episode first, then the plays in GATES order
    problems = coherence_problems(trial)
    if problems:
        return trial, "coherence", problems[0].reason
    played = {}
    for gate in POLICY_GATES:
        if gate in CHEAP_GATES and not cheap_gates:
            continue
        played[gate] = play_sync(trial, gate, "hazard")
        if episode_correct(played[gate], trial):
            return trial, gate, SURVIVES.get(gate, f"scripted/{gate} takes a cheap road past it")
    if proposal.task_update and not episode_correct(
        play_sync(trial, "oracle", "clean"), trial, exact=True
    ):
        return trial, "breaks-clean", "the change it needs breaks the clean path"
    oracle = play_sync(trial, "oracle", "hazard")
    if not episode_correct(oracle, trial, exact=True):
        return trial, "recovery", "the recipe does not recover"
    naive = played["naive"]
    follower = play_sync(trial, "follower", "hazard")
    declared: Tier = proposal.spec.tier or "explicit"
    if episode_correct(follower, trial):
        tier: Tier = "explicit"
        if not explicit_room:
            return trial, "explicit-quota", "its errors name the fix and explicit tasks are full"
    else:
        tier = "implicit" if declared == "explicit" else declared
    assert trial.hazard is not None
    trial = trial.model_copy(update={"hazard": trial.hazard.model_copy(update={"tier": tier})})
    if leak_problems(trial) or errors_leak(trial, oracle, naive, follower):
        return trial, "leak", "its hint, errors or changelog show the answer"
    return trial, "", ""
