"""Where a hazard fits a task: each variant proposes the hazard specs it could plan.

A variant fits only where it makes sense: a fallback needs a real alternative tool, a
renamed field must be one the task's path reads, a unit change must feed a number the
answer reports. The build picks among the proposals and keeps one only if the oracle
recovers and the naive baseline fails under it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolchaos.core.reference import is_ref
from toolchaos.core.types import HazardFamily, HazardSpec, RecoveryStep, TaskSpec
from toolchaos.domains import Domain


@dataclass
class Proposal:
    """A candidate hazard for a task, plus any tools the toolbox must gain for it."""

    spec: HazardSpec
    extra_tools: list[str] = field(default_factory=list)


Proposer = Callable[[TaskSpec, Domain, random.Random], list[Proposal]]
PROPOSERS: dict[tuple[HazardFamily, str], Proposer] = {}


def proposes(family: HazardFamily, variant: str) -> Callable[[Proposer], Proposer]:
    """Register the proposer of one hazard variant."""

    def decorate(fn: Proposer) -> Proposer:
        PROPOSERS[(family, variant)] = fn
        return fn

    return decorate


def step_tools(task: TaskSpec) -> list[str]:
    """The distinct tools of the task's reference path, in order."""
    seen: list[str] = []
    for step in task.reference.steps:
        if step.tool not in seen:
            seen.append(step.tool)
    return seen


def read_paths(task: TaskSpec) -> list[list[Any]]:
    """Every ref path the task's path reads: argument refs and answer refs."""
    paths: list[list[Any]] = []

    def walk(value: Any) -> None:
        if is_ref(value):
            paths.append(list(value["$ref"]))
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for step in task.reference.steps:
        walk(step.args)
    paths.extend(list(r) for r in task.reference.answer_spec.refs)
    walk(task.reference.answer_spec.labels)
    return paths


@proposes(HazardFamily.EXECUTION_FAILURE, "transient")
def _transient(task: TaskSpec, domain: Domain, rng: random.Random) -> list[Proposal]:
    out = []
    for tool in step_tools(task):
        k = rng.choice([1, 2])
        error = rng.choice(["503", "timeout", "rate_limit"])
        spec = HazardSpec(
            family=HazardFamily.EXECUTION_FAILURE,
            variant="transient",
            tool=tool,
            ordinals=list(range(1, k + 1)),
            params={"error": error, "k": k},
            recovery=[RecoveryStep(action="retry", params={"max_attempts": k + 1})],
        )
        out.append(Proposal(spec))
    return out


@proposes(HazardFamily.EXECUTION_FAILURE, "outage")
def _outage(task: TaskSpec, domain: Domain, rng: random.Random) -> list[Proposal]:
    fallbacks: dict[str, Any] = domain.notes.get("fallbacks", {})
    out = []
    for tool in step_tools(task):
        if tool not in fallbacks:
            continue
        backup = fallbacks[tool]
        spec = HazardSpec(
            family=HazardFamily.EXECUTION_FAILURE,
            variant="outage",
            tool=tool,
            params={"fallback": backup["tool"]},
            recovery=[
                RecoveryStep(
                    action="fallback",
                    params={"tool": backup["tool"], "args_map": backup["args_map"]},
                )
            ],
        )
        out.append(Proposal(spec, extra_tools=[backup["tool"]]))
    return out


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest) if rest else f"{name}Value"


@proposes(HazardFamily.OUTPUT_DRIFT, "renamed_field")
def _renamed(task: TaskSpec, domain: Domain, rng: random.Random) -> list[Proposal]:
    out = []
    seen: set[tuple[str, str]] = set()
    for path in read_paths(task):
        keys = [k for k in path[1:] if isinstance(k, str)]
        if not keys:
            continue
        tool = task.reference.steps[int(path[0])].tool
        name = keys[-1]
        if (tool, name) in seen:
            continue
        seen.add((tool, name))
        new = _camel(name)
        spec = HazardSpec(
            family=HazardFamily.OUTPUT_DRIFT,
            variant="renamed_field",
            tool=tool,
            params={"field": name, "to": new},
            recovery=[RecoveryStep(action="normalize", params={"rename": {new: name}})],
        )
        out.append(Proposal(spec))
    return out


@proposes(HazardFamily.OUTPUT_DRIFT, "unit_change")
def _unit(task: TaskSpec, domain: Domain, rng: random.Random) -> list[Proposal]:
    conversions: dict[str, Any] = domain.notes.get("unit_conversions", {})
    answer = task.reference.answer_spec
    if answer.op not in ("value", "sum", "min", "max"):
        return []
    out = []
    for path in answer.refs:
        name = path[-1]
        if not isinstance(name, str) or name not in conversions:
            continue
        conv = conversions[name]
        tool = task.reference.steps[int(path[0])].tool
        spec = HazardSpec(
            family=HazardFamily.OUTPUT_DRIFT,
            variant="unit_change",
            tool=tool,
            params={"field": name, "factor": conv["factor"], "unit": conv["to_unit"]},
            recovery=[
                RecoveryStep(
                    action="convert",
                    params={"field": name, "divide_by": conv["factor"], "unit": conv["to_unit"]},
                )
            ],
        )
        out.append(Proposal(spec))
    return out


def proposals(
    task: TaskSpec, domain: Domain, rng: random.Random
) -> dict[HazardFamily, list[Proposal]]:
    """Every fitting proposal for ``task``, grouped by family."""
    out: dict[HazardFamily, list[Proposal]] = {}
    for (family, _variant), proposer in sorted(PROPOSERS.items()):
        found = proposer(task, domain, rng)
        if found:
            out.setdefault(family, []).extend(found)
    return out
