"""Generate ToolBench-X tasks from subtopic templates with a seed.

A template reads the seeded world through a :class:`TemplateContext`, picks entities and
returns a :class:`Draft`: the prompt, the reference path (with refs between steps) and how
the answer is computed. The answer and end state are never written by hand: they come
from replaying the path in the clean world. Hazards are then proposed where they fit and
kept only when the oracle recovers and the naive baseline does not.
"""

from __future__ import annotations

import importlib
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from toolchaos.build.validate import episode_correct, play_sync, replay_reference, validate_task
from toolchaos.core.types import AnswerSpec, Reference, RefStep, TaskSpec
from toolchaos.core.world import World
from toolchaos.domains import Domain, get_domain
from toolchaos.hazards.assign import proposals
from toolchaos.hazards.hints import hint_for

SUITE = "toolbench-x"
Workflow = Literal["sequential", "parallel", "mixture"]
WORKFLOWS: tuple[Workflow, ...] = ("sequential", "parallel", "mixture")

TEMPLATE_MODULES: dict[str, str] = {
    "commerce": "toolchaos.suites.toolbench_x.templates.commerce",
}


@dataclass
class Draft:
    """What a template returns: a task before its reference answer is computed."""

    prompt: str
    steps: list[RefStep]
    answer: AnswerSpec
    writes: bool = False
    aliases: list[str] = field(default_factory=list)
    extra_tools: list[str] = field(default_factory=list)


class TemplateContext:
    """The read-only view a template gets: the seeded world and a seeded generator.

    Args:
        domain: The domain the template belongs to.
        world: The domain's base world (never written by a template).
        rng: The generator every choice must come from.
    """

    def __init__(self, domain: Domain, world: World, rng: random.Random) -> None:
        self.domain = domain
        self.world = world
        self.rng = rng

    def rows(self, table: str, where: Callable[[Any], bool] | None = None) -> list[Any]:
        """Rows of ``table`` passing ``where``, in key order."""
        data = self.world.table(table)
        return [data[k] for k in sorted(data) if where is None or where(data[k])]

    def pick(self, table: str, where: Callable[[Any], bool] | None = None) -> Any:
        """One row of ``table`` passing ``where``, chosen by the rng."""
        rows = self.rows(table, where)
        if not rows:
            raise NoFit(f"no {table} row fits")
        return self.rng.choice(rows)

    def sample(self, table: str, k: int, where: Callable[[Any], bool] | None = None) -> list[Any]:
        """``k`` distinct rows of ``table`` passing ``where``, chosen by the rng."""
        rows = self.rows(table, where)
        if len(rows) < k:
            raise NoFit(f"fewer than {k} {table} rows fit")
        return self.rng.sample(rows, k)

    def say(self, *phrasings: str, **values: Any) -> str:
        """Pick one of several phrasings of a request and fill it in."""
        return self.rng.choice(phrasings).format(**values)


class NoFit(LookupError):
    """The world has nothing this template can use with this rng draw."""


Template = Callable[[TemplateContext], Draft]


@dataclass(frozen=True)
class Subtopic:
    """A subtopic: its name, topic, domain and its templates per workflow type."""

    name: str
    topic: str
    domain: str
    templates: dict[str, list[Template]]


def ref(step: int, *keys: Any) -> dict[str, list[Any]]:
    """A ref to ``keys`` inside the result of ``step``."""
    return {"$ref": [step, *keys]}


def slug(text: str) -> str:
    """A lowercase, dash-separated id fragment."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def subtopics(domains: list[str] | None = None) -> list[Subtopic]:
    """Every registered subtopic (of the given domains), in a stable order."""
    out: list[Subtopic] = []
    for name in sorted(TEMPLATE_MODULES):
        if domains is not None and name not in domains:
            continue
        module = importlib.import_module(TEMPLATE_MODULES[name])
        out.extend(module.SUBTOPICS)
    return out


def _norm_prompt(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


@dataclass
class GenerationReport:
    """Counts at each stage of generation and the reason for every drop."""

    counts: dict[str, int] = field(default_factory=dict)
    drops: list[dict[str, str]] = field(default_factory=list)

    def drop(self, stage: str, what: str, reason: str) -> None:
        """Record one dropped draft or hazard."""
        self.drops.append({"stage": stage, "task": what, "reason": reason})


def draft_to_task(
    draft: Draft, sub: Subtopic, workflow: str, task_id: str, world_seed: int
) -> TaskSpec:
    """Turn a draft into a task whose reference comes from replaying it."""
    tools = list(dict.fromkeys([s.tool for s in draft.steps] + draft.extra_tools))
    reference = Reference(
        steps=draft.steps, answer_spec=draft.answer, aliases=draft.aliases, writes=draft.writes
    )
    task = TaskSpec(
        id=task_id,
        suite=SUITE,
        domain=sub.domain,
        topic=sub.topic,
        subtopic=sub.name,
        workflow=workflow,
        prompt=draft.prompt,
        world_seed=world_seed,
        tools=tools,
        reference=reference,
    )
    run = replay_reference(task)
    reference = reference.model_copy(
        update={"answer": run.answer, "end_state": run.end_state if draft.writes else None}
    )
    return task.model_copy(update={"reference": reference})


def generate(
    seed: int, per_cell: int = 5, domains: list[str] | None = None, world_seed: int = 0
) -> tuple[list[TaskSpec], GenerationReport]:
    """Generate tasks: up to ``per_cell`` per (subtopic, workflow type), hazards assigned."""
    rng = random.Random(seed)
    report = GenerationReport()
    tasks: list[TaskSpec] = []
    seen_prompts: set[str] = set()
    raw = 0
    for sub in subtopics(domains):
        domain = get_domain(sub.domain)
        world = domain.world(world_seed)
        for workflow in WORKFLOWS:
            templates = sub.templates.get(workflow, [])
            made = 0
            attempts = 0
            while templates and made < per_cell and attempts < per_cell * 12:
                attempts += 1
                template = templates[(attempts - 1) % len(templates)]
                ctx = TemplateContext(domain, world, random.Random(rng.getrandbits(64)))
                task_id = f"tbx-{slug(sub.name)}-{workflow[:3]}-{made + 1:02d}"
                raw += 1
                try:
                    draft = template(ctx)
                except NoFit as exc:
                    report.drop("generate", task_id, str(exc))
                    continue
                key = _norm_prompt(draft.prompt)
                if key in seen_prompts:
                    report.drop("screen", task_id, "duplicate prompt")
                    continue
                try:
                    task = draft_to_task(draft, sub, workflow, task_id, world_seed)
                except ValueError as exc:
                    report.drop("screen", task_id, f"not executable: {exc}")
                    continue
                if not task.reference.answer and not task.reference.writes:
                    report.drop("screen", task_id, "empty reference answer")
                    continue
                seen_prompts.add(key)
                tasks.append(task)
                made += 1
    report.counts["raw"] = raw
    report.counts["screened"] = len(tasks)
    tasks = assign_hazards(tasks, rng, report)
    report.counts["with_hazard"] = sum(t.hazard is not None for t in tasks)
    shipped = []
    for task in tasks:
        problems = validate_task(task)
        for problem in problems:
            report.drop("validate", task.id, f"{problem.check}: {problem.reason}")
        if not problems:
            shipped.append(task)
    report.counts["shipped"] = len(shipped)
    return shipped, report


def assign_hazards(
    tasks: list[TaskSpec], rng: random.Random, report: GenerationReport
) -> list[TaskSpec]:
    """Give each task one validated hazard, keeping the families balanced."""
    family_counts: Counter[str] = Counter()
    variant_counts: Counter[str] = Counter()
    out = []
    for task in tasks:
        domain = get_domain(task.domain)
        offered = proposals(task, domain, rng)
        order = sorted(offered, key=lambda f: (family_counts[f.value], f.value))
        chosen: TaskSpec | None = None
        for family in order:
            candidates = list(offered[family])
            rng.shuffle(candidates)
            candidates.sort(key=lambda p: variant_counts[p.spec.variant])
            for proposal in candidates:
                tools = list(dict.fromkeys(task.tools + proposal.extra_tools))
                hint = hint_for(proposal.spec, rng.choice(["start", "first_anomaly"]))
                trial = task.model_copy(
                    update={"hazard": proposal.spec, "tools": tools, "hints": hint}
                )
                if not episode_correct(play_sync(trial, "oracle", "hazard"), trial):
                    report.drop(
                        "hazard", task.id, f"{proposal.spec.variant}: oracle cannot recover"
                    )
                    continue
                if episode_correct(play_sync(trial, "naive", "hazard"), trial):
                    report.drop("hazard", task.id, f"{proposal.spec.variant}: naive survives")
                    continue
                chosen = trial
                break
            if chosen is not None and chosen.hazard is not None:
                family_counts[family.value] += 1
                variant_counts[chosen.hazard.variant] += 1
                break
        out.append(chosen or task)
    return out


def to_jsonl(tasks: list[TaskSpec]) -> str:
    """Serialize tasks as JSONL, one task a line, in id order (byte-stable)."""
    return "".join(t.model_dump_json() + "\n" for t in sorted(tasks, key=lambda t: t.id))
