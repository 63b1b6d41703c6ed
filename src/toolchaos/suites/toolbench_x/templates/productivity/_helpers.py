"""Helpers the productivity subtopics share: reading the world, naming days and people.

Templates read the seeded world only to choose entities that make a well-posed task;
answers always come from replaying the reference path.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from toolchaos.core.types import ToolKind
from toolchaos.suites.toolbench_x.generate import NoFit, TemplateContext

DOMAIN = "productivity"
WORK = "productivity and workflow"
DATA = "data and analytics"


def read(ctx: TemplateContext, tool: str, **args: Any) -> Any:
    """Run a READ tool on the template's world, to choose entities that fit."""
    found = ctx.domain.tools[tool]
    if found.kind is not ToolKind.READ:
        raise ValueError(f"templates may only read, and {tool} writes")
    return found(ctx.world, **args)


def today(ctx: TemplateContext) -> date:
    """The world's current date."""
    return ctx.world.now().date()


def iso(ctx: TemplateContext, offset: int) -> str:
    """The ISO date ``offset`` days from today."""
    return (today(ctx) + timedelta(days=offset)).isoformat()


def weekdays_ahead(ctx: TemplateContext, first: int = 1, last: int = 11) -> list[str]:
    """ISO weekdays from ``first`` to ``last`` days ahead."""
    days = [today(ctx) + timedelta(days=i) for i in range(first, last + 1)]
    return [d.isoformat() for d in days if d.weekday() < 5]


def weekdays_back(ctx: TemplateContext, first: int = 1, last: int = 20) -> list[str]:
    """ISO weekdays from ``first`` to ``last`` days back."""
    days = [today(ctx) - timedelta(days=i) for i in range(first, last + 1)]
    return [d.isoformat() for d in days if d.weekday() < 5]


def when(day: str) -> str:
    """A date as people write it in a request: weekday and ISO date."""
    return f"{date.fromisoformat(day):%A} {day}"


def person(ctx: TemplateContext, where: Any = None) -> Any:
    """A person whose full name finds them first in search_people."""
    chosen = ctx.pick("people", where)
    found = read(ctx, "search_people", query=chosen.name)
    if found["results"][0]["person_id"] != chosen.person_id:
        raise NoFit(f"{chosen.name!r} does not find its person first")
    return chosen


def people(ctx: TemplateContext, k: int, where: Any = None) -> list[Any]:
    """``k`` distinct people."""
    return ctx.sample("people", k, where)


def project(ctx: TemplateContext, where: Any = None) -> Any:
    """A project whose name finds it first in list_projects."""
    chosen = ctx.pick("projects", where)
    found = read(ctx, "list_projects", query=chosen.name)
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
