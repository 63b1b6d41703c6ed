"""The hello suite: greet a person in their language, with the shouted-values hazard.

Its tasks ship in ``data/tasks.jsonl`` (``toolchaos build hello`` rebuilds them byte for
byte). It plays toolchaos' native tool loop in the arms ``clean`` and ``hazard``, takes
one option of its own (``-T budget=N``: the tool calls an episode may make), and adds a
table and a headline to ``toolchaos report``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from toolchaos.ext import (
    AnswerSpec,
    BuildOptions,
    BuildResult,
    Contribution,
    Env,
    Observation,
    Problem,
    Reference,
    RefStep,
    ReportOptions,
    ReportTable,
    RunData,
    Suite,
    SuiteReport,
    TaskSpec,
    ToolCall,
    ToolError,
    TraceEntry,
    episode_record,
    get_domain,
    mentions,
    normalize,
    ref,
    register_suite,
    run_native,
)

from .hazard import ShoutedValues

SUITE_NAME = "hello"
BUDGET_SPENT = "budget_spent"
PHRASINGS = (
    "Please greet person {pid} in the language they speak.",
    "Say hello to {pid}, in their own language.",
    "Greet {pid} the way they would greet you, in their language.",
)


class HelloOptions(BaseModel):
    """The hello suite's options (``toolchaos run hello -T budget=3``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    budget: int = Field(6, ge=1, description="tool calls an episode may make")


class HelloEnv(Env):
    """The runtime's episode env, refusing every call after the first ``budget``.

    Args:
        task: The task being played.
        arm: The arm (the hazard plays outside ``clean``).
        budget: The tool calls the episode may make.
    """

    def __init__(self, task: TaskSpec, arm: str, budget: int) -> None:
        super().__init__(task, arm)
        self.budget = budget

    def call(self, call: ToolCall) -> Observation:
        """Run the call, or refuse it once the budget is spent (the agent sees a 429)."""
        if len(self.trace) < self.budget:
            return super().call(call)
        error = ToolError(
            f"Call budget spent: this session allows {self.budget} tool calls.",
            code=429,
            kind=BUDGET_SPENT,
        )
        seen = Observation(call_id=call.id, tool=call.name, ok=False, content=error.to_payload())
        self.trace.append(TraceEntry(call=call, observation=seen, ordinal=0))
        return seen


def build_tasks(seed: int) -> list[TaskSpec]:
    """One task per person of the seeded world; half of them, drawn, carry the hazard."""
    domain = get_domain("hello")
    world = domain.world(seed).fork()
    rng = random.Random(seed)
    people = sorted(world.table("people"))
    hazarded = set(rng.sample(people, len(people) // 2))
    tasks = []
    for number, pid in enumerate(people, start=1):
        person = domain.tools["get_person"](world, person_id=pid)
        greeting = domain.tools["say_hello"](world, language=person["language"])
        task = TaskSpec(
            id=f"hello-{number:03d}",
            suite=SUITE_NAME,
            domain="hello",
            topic=domain.topic,
            subtopic="greetings",
            workflow="sequential",
            prompt=rng.choice(PHRASINGS).format(pid=pid),
            world_seed=seed,
            tools=["get_person", "say_hello"],
            reference=Reference(
                steps=[
                    RefStep(tool="get_person", args={"person_id": pid}),
                    RefStep(tool="say_hello", args={"language": ref(0, "language")}),
                ],
                answer_spec=AnswerSpec(op="value", refs=[[1, "greeting"]]),
                answer=greeting["greeting"],
            ),
        )
        if pid in hazarded:
            [proposal] = ShoutedValues.propose(task, domain, rng, {0: person, 1: greeting})
            task = task.model_copy(update={"hazard": proposal.spec})
        tasks.append(task)
    return tasks


@dataclass(frozen=True)
class HelloSuite(Suite[TaskSpec, HelloEnv]):
    """Greetings in two arms, played by the native tool loop under a call budget."""

    def make_env(self, task: TaskSpec, arm: str) -> HelloEnv:
        """The task's world and tools, with the budget this run's options set."""
        return HelloEnv(task, arm, HelloOptions.model_validate(self.settings).budget)

    def stratum(self, task: TaskSpec) -> tuple[str, str]:
        """(workflow type, hazard family)."""
        return task.workflow, task.hazard.family.value if task.hazard else "none"

    def build(self, options: BuildOptions) -> BuildResult:
        """The task set of ``options.seed`` (seed 0 is the shipped one)."""
        tasks = build_tasks(options.seed)
        counts = Counter("hazard" if t.hazard else "clean" for t in tasks)
        report = {"seed": options.seed, "tasks": len(tasks), **dict(sorted(counts.items()))}
        summary = f"{len(tasks)} hello tasks, {counts['hazard']} with a hazard"
        return BuildResult(tasks=tasks, report_json=json.dumps(report, indent=2), summary=summary)

    def validate(self, task: TaskSpec) -> list[Problem]:
        """The reference replayed in the clean world must reach the task's answer."""
        domain = get_domain(task.domain)
        world = domain.world(task.world_seed).fork()
        try:
            person = domain.tools["get_person"](world, **task.reference.steps[0].args)
            said = domain.tools["say_hello"](world, language=person["language"])
        except (ToolError, IndexError) as exc:
            return [Problem(task_id=task.id, check="reference", reason=str(exc))]
        if said["greeting"] != task.reference.answer:
            reason = f"the reference greets with {said['greeting']!r}, not the task's answer"
            return [Problem(task_id=task.id, check="reference", reason=reason)]
        return []

    def report(self, options: ReportOptions) -> SuiteReport:
        """Greetings per model and arm, and how many calls the budget refused."""
        return HelloReport()


class HelloReport:
    """The hello suite's part of a report."""

    def __init__(self) -> None:
        self.refused: Counter[tuple[str, str]] = Counter()

    def score(
        self, summaries: list[dict[str, Any]], tasks: Mapping[str, Any], store: Any
    ) -> pd.DataFrame:
        """One row per episode: correct when the answer says the reference greeting."""
        records = []
        for row in summaries:
            task = tasks.get(row["task_id"])
            answer = task.reference.answer if task is not None else ""
            correct = row["status"] == "finished" and bool(answer)
            correct = correct and mentions(row["final_answer"], answer)
            hazard = task.hazard if task is not None and row["arm"] != "clean" else None
            records.append(
                episode_record(
                    row,
                    correct,
                    vote_key=normalize(row["final_answer"]),
                    family=hazard.family.value if hazard is not None else "none",
                    workflow=task.workflow if task is not None else "",
                )
            )
        return pd.DataFrame.from_records(records)

    def read_run(self, data: RunData) -> None:
        """Count the calls the budget refused, per model and arm."""
        mine = data.frame[data.frame["suite"] == SUITE_NAME]
        for _, text in data.store.episode_json(keys=list(mine["key"])):
            episode = json.loads(text)
            refused = sum(
                (entry["observation"]["content"] or {}).get("error", {}).get("type") == BUDGET_SPENT
                for entry in episode["trace"]
                if isinstance(entry["observation"]["content"], dict)
            )
            self.refused[(episode["model"], episode["arm"])] += refused

    def finish(self, frame: pd.DataFrame) -> Contribution:
        """The greetings table and the headline (accuracy, clean then hazard)."""
        rows: list[dict[str, Any]] = []
        for (model, arm), group in frame.groupby(["model", "arm"], sort=True):
            finished = group[group["error"] == 0]
            rows.append(
                {
                    "model": str(model),
                    "arm": str(arm),
                    "episodes": len(group),
                    "greeted": int(finished["correct"].sum()),
                    "accuracy": round(float(finished["correct"].mean()), 4)
                    if len(finished)
                    else None,
                    "refused_calls": self.refused[str(model), str(arm)],
                }
            )
        title = "Hello: greetings per model and arm"
        table = ReportTable("hello_greetings", title, pd.DataFrame(rows))
        headline = ["Hello: people greeted in their language, clean -> hazard"]
        for model in sorted({r["model"] for r in rows}):
            by_arm = {r["arm"]: r["accuracy"] for r in rows if r["model"] == model}
            shown = " -> ".join(
                "-" if by_arm.get(arm) is None else f"{by_arm[arm]:.0%}"
                for arm in ("clean", "hazard")
            )
            headline.append(f"  {model}: {shown}")
        return Contribution(tables=[table], headline=headline)


@register_suite(SUITE_NAME)
def hello_suite() -> HelloSuite:
    """The hello suite (the ``toolchaos.suites`` entry point names this factory)."""
    return HelloSuite(
        name=SUITE_NAME,
        package="toolchaos_hello",
        data_file="tasks.jsonl",
        arms=("clean", "hazard"),
        task_model=TaskSpec,
        protocol="native",
        protocols={"native": run_native},
        options_model=HelloOptions,
    )


__all__ = ["HelloOptions", "HelloSuite", "build_tasks", "hello_suite"]
