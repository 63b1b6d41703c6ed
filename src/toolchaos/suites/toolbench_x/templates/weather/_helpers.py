"""Helpers and constants shared by the weather subtopic templates."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import RefStep
from toolchaos.suites.toolbench_x.generate import NoFit, TemplateContext, ref


def _sun_on_clock(step: int, moment: str, other: str) -> RefStep:
    """The sunrise or sunset (``moment``) get_sun_times found at ``step``, on ``other``'s clock."""
    return RefStep(
        tool="convert_time",
        args={
            "time": ref(step, f"{moment}_local"),
            "date": ref(step, "date"),
            "from_location": ref(step, "location_id"),
            "to_location": other,
        },
    )


def _name_count(ctx: TemplateContext, name: str) -> int:
    return sum(loc.name == name for loc in ctx.rows("locations"))


def _plain(ctx: TemplateContext, loc: Any) -> bool:
    """Whether a bare name finds exactly this place (the name is shared by no other)."""
    if _name_count(ctx, loc.name) != 1:
        return False
    found = ctx.read("search_locations", query=loc.name)
    return bool(found["total"] == 1 and found["results"][0]["location_id"] == loc.location_id)


def _spoken(ctx: TemplateContext, loc: Any) -> str:
    """How a person names the place: the bare name, or the name and region if shared."""
    return loc.name if _plain(ctx, loc) else f"{loc.name}, {loc.region_name}"


def _query(ctx: TemplateContext, loc: Any) -> str:
    """A search_locations query whose first result is ``loc``."""
    query = loc.name if _plain(ctx, loc) else f"{loc.name}, {loc.region}"
    found = ctx.read("search_locations", query=query)
    if found["results"][0]["location_id"] != loc.location_id:
        raise NoFit(f"search for {query!r} does not find {loc.location_id} first")
    return query


def _saved(ctx: TemplateContext, kind: str) -> Any:
    """A saved place of ``kind`` whose label finds it first in list_saved_places."""
    saved = ctx.pick("saved_places", lambda s: s.kind == kind)
    found = ctx.read("list_saved_places", label_contains=saved.label)
    if found["results"][0]["saved_id"] != saved.saved_id:
        raise NoFit(f"label {saved.label!r} is not specific")
    return saved


def _watched(ctx: TemplateContext, location_id: str, metric: str, comparison: str) -> bool:
    """Whether an active alert already watches this metric at this place (a 409)."""
    return any(
        a.location_id == location_id
        and a.status == "active"
        and (a.metric, a.comparison) == (metric, comparison)
        for a in ctx.rows("alerts")
    )


def _unique_poi(ctx: TemplateContext, where: Any = None) -> Any:
    poi = ctx.pick("pois", where)
    found = ctx.read("list_points_of_interest", name_contains=poi.name)
    if found["total"] != 1:
        raise NoFit(f"{poi.name!r} is not a unique name")
    return poi
