"""Helpers the productivity subtopics share: reading the world, naming days and people.

Templates read the seeded world only to choose entities that make a well-posed task;
answers always come from replaying the reference path.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from toolchaos.suites.toolbench_x.generate import NoFit, TemplateContext

DOMAIN = "productivity"
WORK = "productivity and workflow"
DATA = "data and analytics"


def iso(ctx: TemplateContext, offset: int) -> str:
    """The ISO date ``offset`` days from today."""
    return (ctx.today() + timedelta(days=offset)).isoformat()


def weekdays_ahead(ctx: TemplateContext, first: int = 1, last: int = 11) -> list[str]:
    """ISO weekdays from ``first`` to ``last`` days ahead."""
    days = [ctx.today() + timedelta(days=i) for i in range(first, last + 1)]
    return [d.isoformat() for d in days if d.weekday() < 5]


def weekdays_back(ctx: TemplateContext, first: int = 1, last: int = 20) -> list[str]:
    """ISO weekdays from ``first`` to ``last`` days back."""
    days = [ctx.today() - timedelta(days=i) for i in range(first, last + 1)]
    return [d.isoformat() for d in days if d.weekday() < 5]


def person(ctx: TemplateContext, where: Any = None) -> Any:
    """A person whose full name finds them first in search_people."""
    chosen = ctx.pick("people", where)
    found = ctx.read("search_people", query=chosen.name)
    if found["results"][0]["person_id"] != chosen.person_id:
        raise NoFit(f"{chosen.name!r} does not find its person first")
    return chosen


def people(ctx: TemplateContext, k: int, where: Any = None) -> list[Any]:
    """``k`` distinct people."""
    return ctx.sample("people", k, where)


def project(ctx: TemplateContext, where: Any = None) -> Any:
    """A project whose name finds it first in list_projects."""
    chosen = ctx.pick("projects", where)
    found = ctx.read("list_projects", query=chosen.name)
    if found["results"][0]["project_id"] != chosen.project_id:
        raise NoFit(f"{chosen.name!r} does not find its project first")
    return chosen


def name_of(ctx: TemplateContext, person_id: str) -> str:
    """A person's full name."""
    name: str = ctx.world.table("people")[person_id].name
    return name


def distinct(values: list[Any]) -> bool:
    """Whether the values are all different (so a max or min is unambiguous)."""
    return len(set(values)) == len(values)
