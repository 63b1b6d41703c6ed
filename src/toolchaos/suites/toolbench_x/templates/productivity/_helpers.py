"""Helpers the productivity subtopics share: reading the world, naming days and people.

Templates read the seeded world only to choose entities that make a well-posed task;
answers always come from replaying the reference path. Many templates fan one tool out
over several targets and combine one field of the results: ``one_per`` writes those
steps, ``read_each`` reads the same field while choosing, ``combined`` is the answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import NoFit, TemplateContext

# The analytics subtopics name their topic; the others take the domain's own.
DATA = "data and analytics"

KPI_SOURCES = {
    "get_kpi_value": ("kpi", "period", "the warehouse"),
    "get_kpi_value_realtime": ("metric", "month", "the streaming backend"),
    "get_kpi_value_bi": ("kpi", "period", "the BI cache"),
}
"""Each KPI backend's tool: its KPI and month parameters and how a request names it."""


def iso(ctx: TemplateContext, offset: int) -> str:
    """The ISO date ``offset`` days from today."""
    return (ctx.today() + timedelta(days=offset)).isoformat()


def _weekdays(ctx: TemplateContext, offsets: Iterable[int]) -> list[str]:
    days = [ctx.today() + timedelta(days=i) for i in offsets]
    return [d.isoformat() for d in days if d.weekday() < 5]


def weekdays_ahead(ctx: TemplateContext, first: int = 1, last: int = 11) -> list[str]:
    """ISO weekdays from ``first`` to ``last`` days ahead."""
    return _weekdays(ctx, range(first, last + 1))


def weekdays_back(ctx: TemplateContext, first: int = 1, last: int = 20) -> list[str]:
    """ISO weekdays from ``first`` to ``last`` days back."""
    return _weekdays(ctx, range(-first, -last - 1, -1))


def _found_first(ctx: TemplateContext, table: str, search: str, key: str, where: Any) -> Any:
    """A row of ``table`` whose name, searched with ``search``, lists it first."""
    chosen = ctx.pick(table, where)
    found = ctx.read(search, query=chosen.name)
    if found["results"][0][key] != getattr(chosen, key):
        raise NoFit(f"{chosen.name!r} does not find its {key.removesuffix('_id')} first")
    return chosen


def person(ctx: TemplateContext, where: Any = None) -> Any:
    """A person whose full name finds them first in search_people."""
    return _found_first(ctx, "people", "search_people", "person_id", where)


def people(ctx: TemplateContext, k: int, where: Any = None) -> list[Any]:
    """``k`` distinct people."""
    return ctx.sample("people", k, where)


def project(ctx: TemplateContext, where: Any = None) -> Any:
    """A project whose name finds it first in list_projects."""
    return _found_first(ctx, "projects", "list_projects", "project_id", where)


def name_of(ctx: TemplateContext, person_id: str) -> str:
    """A person's full name."""
    name: str = ctx.world.table("people")[person_id].name
    return name


def distinct(values: list[Any]) -> bool:
    """Whether the values are all different (so a max or min is unambiguous)."""
    return len(set(values)) == len(values)


def one_per(tool: str, param: str, targets: Iterable[Any], **shared: Any) -> list[RefStep]:
    """One step of ``tool`` per target: ``param`` takes the target, ``shared`` the rest."""
    return [RefStep(tool=tool, args={param: target, **shared}) for target in targets]


def read_each(
    ctx: TemplateContext, tool: str, field: str, param: str, targets: Iterable[Any], **shared: Any
) -> list[Any]:
    """``field`` of what ``tool`` returns for each target, called as :func:`one_per` calls it."""
    return [ctx.read(tool, **{param: target, **shared})[field] for target in targets]


def project_hours(
    ctx: TemplateContext, project_ids: Iterable[str], field: str, **span: str
) -> list[Any]:
    """``field`` of get_project_hours for each project over ``span`` (from_date, to_date)."""
    return read_each(ctx, "get_project_hours", field, "project", project_ids, **span)


def combined(op: str, field: str, steps: Iterable[int], digits: int | None = 2) -> AnswerSpec:
    """The answer: ``op`` over ``field`` of each of ``steps``' results, rounded to ``digits``."""
    return AnswerSpec(op=op, refs=[[i, field] for i in steps], round=digits)
