"""What variants' proposers read off a task: its path's tools, the refs it reads, its answer.

Shared by the ``propose`` classmethods of the family modules; each works on the unhazarded
task and the results of its reference steps in the clean world.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from datetime import timedelta
from typing import Any, TypeVar

from toolchaos.core.reference import Unresolved, follow, is_ref
from toolchaos.core.types import RecoveryAction, RecoveryStep, TaskSpec, Tier
from toolchaos.core.world import World
from toolchaos.domains import Domain, Fallback, V2Tool
from toolchaos.hazards.base import Hazard, Proposal, Results

NUMERIC_OPS = ("value", "sum", "min", "max")
"""Answer ops whose answer is a number read from a result field."""

Item = TypeVar("Item")


def once_each(
    items: Iterable[Item], key: Callable[[Item], Hashable] | None = None
) -> Iterator[Item]:
    """The items whose key no earlier item had, in order (by default the item is its key).

    A proposer offers its variant once per place, such as a (tool, field): what must not
    claim a place is filtered out before (a later item at the same place may still fit),
    and what only the place's first item decides is skipped after.
    """
    seen: set[object] = set()
    for item in items:
        place = item if key is None else key(item)
        if place not in seen:
            seen.add(place)
            yield item


def step_tools(task: TaskSpec) -> list[str]:
    """The distinct tools of the task's reference path, in order."""
    return list(once_each(step.tool for step in task.reference.steps))


def tool_at(task: TaskSpec, path: list[Any]) -> str:
    """The tool of the reference step a ref path starts from."""
    return task.reference.steps[int(path[0])].tool


def tool_count(task: TaskSpec, tool: str) -> int:
    """How many steps of the task's reference path call ``tool``."""
    return sum(step.tool == tool for step in task.reference.steps)


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


def value_at(results: Results, path: list[Any]) -> Any:
    """The clean value a ref path reaches, or None where it reaches nothing."""
    try:
        return follow(results, path)
    except Unresolved:
        return None


def answer_fields(task: TaskSpec, results: Results) -> list[tuple[int, str, Any]]:
    """(step, field, clean value) for every answer ref that ends in a field name."""
    out = []
    for path in task.reference.answer_spec.refs:
        if isinstance(path[-1], str):
            out.append((int(path[0]), str(path[-1]), value_at(results, list(path))))
    return out


def renamed(name: str) -> str:
    """The drifted name of a parameter or field: ``name_v2`` (``temp_c`` -> ``temp_c_v2``).

    The one renaming rule: builds' proposals and hazard plans on a user's tools both use
    it (a spec stores the name it was given, so an older task, renamed to camelCase, keeps
    its own). A versioned name, not a case convention: ``tempC`` for ``temp_c`` is a guess
    an agent gets right without reading anything.
    """
    return f"{name}_v2"


def required_params(domain: Domain, tool: str) -> set[str]:
    """The parameters ``tool``'s documented schema marks required."""
    return set(domain.tools[tool].spec.parameters.get("required", []))


def takes_unmapped(domain: Domain, tool: str, names: Iterable[str]) -> bool:
    """Whether a call with argument ``names`` could move to ``tool`` without renaming any.

    It could when ``tool`` needs no parameter outside ``names`` and takes one of them: an
    agent trying the toolbox's tools one by one lands on it without knowing anything.
    """
    parameters = domain.tools[tool].spec.parameters
    names = set(names)
    return set(parameters.get("required", [])) <= names and bool(
        names & set(parameters.get("properties", {}))
    )


CHANGELOG_WINDOW = (3, 45)
"""How many days before the worlds' epoch a changelog entry may be dated."""


def changed_on(rng: random.Random) -> str:
    """The date of a changelog entry, drawn from the build's ``rng`` (never the clock)."""
    days = rng.randint(*CHANGELOG_WINDOW)
    return (World.EPOCH.date() - timedelta(days=days)).isoformat()


def dated(hazard: Hazard, tool: str, change: str) -> list[str]:
    """The changelog entry ``change`` when ``tool`` is the hazard's, dated; else nothing.

    The date is the spec's ``since`` (a spec written before changelogs existed gets the
    epoch's).
    """
    if tool != hazard.spec.tool:
        return []
    when = hazard.spec.params.get("since", World.EPOCH.date().isoformat())
    return [f"{when}: {tool}: {change}"]


CONSULT = RecoveryStep(action=RecoveryAction.CONSULT)
"""The recipe step that reads the changelog about the failing tool before the fix."""


def tiered(
    cls: type[Hazard],
    tool: str,
    params: dict[str, Any],
    fix: RecoveryStep,
    tiers: Iterable[Tier],
    **options: Any,
) -> list[Proposal]:
    """One proposal of ``cls`` per tier: an implicit one reads the changelog before ``fix``.

    ``options`` go to :meth:`Hazard.proposal` (ordinals, extra tools, task update).
    """
    return [
        cls.proposal(
            tool, params, [fix] if tier == "explicit" else [CONSULT, fix], tier=tier, **options
        )
        for tier in tiers
    ]


def switches(
    task: TaskSpec, domain: Domain, notes: Mapping[str, Fallback | V2Tool]
) -> list[tuple[str, str, RecoveryStep]]:
    """(tool, alternative, the fallback step) for each path tool ``notes`` give one for.

    An alternative the path's own argument names reach unrenamed is left out: an agent
    trying the toolbox's tools one by one would land on it without diagnosing anything.
    """
    out = []
    for tool in step_tools(task):
        note = notes.get(tool)
        if note is None:
            continue
        names = {n for step in task.reference.steps if step.tool == tool for n in step.args}
        if takes_unmapped(domain, note.tool, names):
            continue
        params = {"tool": note.tool, "args_map": dict(note.args_map)}
        out.append((tool, note.tool, RecoveryStep(action=RecoveryAction.FALLBACK, params=params)))
    return out
