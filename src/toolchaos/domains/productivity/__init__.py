"""The productivity domain (topic "productivity and workflow"): a team workspace + analytics.

People in nine time zones, projects and tasks, a calendar with meeting rooms, documents,
time logs, and the analytics a team reads: datasets, dashboard KPIs, surveys and A/B
experiments. It gives every hazard variant a real place to fit:

- three facts come from three independent systems that agree in the clean world and
  stamp ``as_of``, one of them documented as authoritative: a KPI's monthly value
  (warehouse authoritative, streaming backend, BI cache), a project's logged and billable
  hours (Timesheets authoritative, payroll export, project tracker) and an experiment
  variant's visitors and conversions (experiment platform authoritative, product
  analytics, warehouse tables);
- the authoritative reader of each of those facts has a documented fallback returning the
  same keys (``get_kpi_value_bi``, ``get_project_hours_tracker``,
  ``get_variant_stats_warehouse``);
- ``list_tasks`` and ``query_dataset`` have a v2 with renamed parameters and the same
  result keys (v1 still works);
- hours, billed amounts and booked room time are numeric result fields with unit
  conversions (hours to minutes, US dollars to euros);
- person, project, room, KPI, dataset, survey and experiment parameters take a name or an
  id, and a search or list tool returns the id;
- every write that creates a record or books a room has a read that lists it;
- task due dates, document update days and event start dates are ISO dates an answer can
  read (locale dates); task, event, time-log and booking listings are paged lists.
"""

from __future__ import annotations

from toolchaos.domains import (
    Domain,
    DomainNotes,
    Fallback,
    Resolver,
    UnitConversion,
    V2Tool,
    WriteVerifier,
    tool_map,
)
from toolchaos.domains._notes import FRACTION, SECONDS, args_map, resolver, sources
from toolchaos.domains.productivity.tools import TOOLS
from toolchaos.domains.productivity.world import WorkspaceWorld

# tool -> (its parameter names for the entity and for the period or range)
_KPI_PARAMS: dict[str, tuple[str, ...]] = {
    "get_kpi_value": ("kpi", "period"),
    "get_kpi_value_realtime": ("metric", "month"),
    "get_kpi_value_bi": ("kpi", "period"),
}
_HOURS_PARAMS: dict[str, tuple[str, ...]] = {
    "get_project_hours": ("project", "from_date", "to_date"),
    "get_project_hours_payroll": ("project", "start_date", "end_date"),
    "get_project_hours_tracker": ("project", "since", "until"),
}
_VARIANT_PARAMS: dict[str, tuple[str, ...]] = {
    "get_variant_stats": ("experiment", "variant"),
    "get_variant_stats_analytics": ("experiment", "arm"),
    "get_variant_stats_warehouse": ("experiment", "variant"),
}
_SOURCE_FAMILIES: tuple[tuple[dict[str, tuple[str, ...]], list[str], str], ...] = (
    (_KPI_PARAMS, ["value"], "get_kpi_value"),
    (_HOURS_PARAMS, ["logged_hours", "billable_hours"], "get_project_hours"),
    (_VARIANT_PARAMS, ["visitors", "conversions", "conversion_rate_pct"], "get_variant_stats"),
)


def _person(param: str) -> Resolver:
    return resolver(param, "search_people", "person_id")


def _project(param: str) -> Resolver:
    return resolver(param, "list_projects", "project_id")


_HOURS_TO_MIN = UnitConversion(to_unit="min", factor=60.0)

DOMAIN = Domain(
    name="productivity",
    topic="productivity and workflow",
    world_type=WorkspaceWorld,
    tools=tool_map(TOOLS),
    notes=DomainNotes(
        fallbacks={
            "get_kpi_value": Fallback(
                tool="get_kpi_value_bi",
                args_map=args_map(_KPI_PARAMS, "get_kpi_value", "get_kpi_value_bi"),
            ),
            "get_project_hours": Fallback(
                tool="get_project_hours_tracker",
                args_map=args_map(_HOURS_PARAMS, "get_project_hours", "get_project_hours_tracker"),
            ),
            "get_variant_stats": Fallback(
                tool="get_variant_stats_warehouse",
                args_map=args_map(
                    _VARIANT_PARAMS, "get_variant_stats", "get_variant_stats_warehouse"
                ),
            ),
        },
        v2={
            "list_tasks": V2Tool(
                tool="list_tasks_v2",
                args_map={
                    "project_ref": "project",
                    "owner": "assignee",
                    "state": "status",
                    "priority": "priority",
                    "due_before": "due_before",
                    "due_after": "due_after",
                    "task_id": "task_id",
                },
            ),
            "query_dataset": V2Tool(
                tool="query_dataset_v2",
                args_map={
                    "dataset_id": "dataset",
                    "measure": "metric",
                    "aggregation": "agg",
                    "filter": "where",
                },
            ),
        },
        unit_conversions={
            "overlap_hours": _HOURS_TO_MIN,
            "logged_hours": _HOURS_TO_MIN,
            "billable_hours": _HOURS_TO_MIN,
            "total_hours": _HOURS_TO_MIN,
            "non_billable_hours": _HOURS_TO_MIN,
            "total_estimate_hours": _HOURS_TO_MIN,
            "estimate_hours": _HOURS_TO_MIN,
            "booked_hours": _HOURS_TO_MIN,
            "free_hours": _HOURS_TO_MIN,
            "billable_amount_usd": UnitConversion(to_unit="EUR", factor=0.92, fixed=False),
            "hours": _HOURS_TO_MIN,
            **dict.fromkeys(
                ("top_box_pct", "bottom_box_pct", "conversion_rate_pct", "lift_pct", "change_pct"),
                FRACTION,
            ),
            **dict.fromkeys(("total_free_minutes", "reading_minutes"), SECONDS),
        },
        resolvers={
            "working_hours_overlap": _person("person_b"),
            "find_free_slots": _person("person_b"),
            "list_events": _person("person"),
            "create_event": _person("organizer"),
            "list_tasks": _person("assignee"),
            "list_tasks_v2": _person("owner"),
            "create_task": _project("project"),
            "update_task": _person("assignee"),
            "search_documents": _project("project"),
            "create_document": _project("project"),
            "list_time_logs": _person("person"),
            "log_time": _person("person"),
            "timesheet_summary": _person("person"),
            "get_project_hours": _project("project"),
            "get_project_hours_payroll": _project("project"),
            "get_project_hours_tracker": _project("project"),
            "list_room_bookings": resolver("room", "list_rooms", "room_id"),
            "book_room": resolver("room", "list_rooms", "room_id"),
            "query_dataset": resolver("dataset", "list_datasets", "dataset_id"),
            "query_dataset_v2": resolver("dataset_id", "list_datasets", "dataset_id"),
            "group_dataset": resolver("dataset", "list_datasets", "dataset_id"),
            "dataset_percentile": resolver("dataset", "list_datasets", "dataset_id"),
            "get_kpi_value": resolver("kpi", "list_kpis", "kpi_id"),
            "get_kpi_value_realtime": resolver("metric", "list_kpis", "kpi_id"),
            "get_kpi_value_bi": resolver("kpi", "list_kpis", "kpi_id"),
            "kpi_change": resolver("kpi", "list_kpis", "kpi_id"),
            "survey_question_stats": resolver("survey", "list_surveys", "survey_id"),
            "get_variant_stats": resolver("experiment", "list_experiments", "experiment_id"),
            "get_variant_stats_analytics": resolver(
                "experiment", "list_experiments", "experiment_id"
            ),
            "get_variant_stats_warehouse": resolver(
                "experiment", "list_experiments", "experiment_id"
            ),
            "experiment_lift": resolver("experiment", "list_experiments", "experiment_id"),
        },
        write_verifiers={
            "create_task": WriteVerifier(
                tool="list_tasks",
                args_map={"project": "project"},
                match={"title": "title", "due_date": "due_date"},
            ),
            "create_event": WriteVerifier(
                tool="list_events", args_map={"person": "organizer"}, match={"title": "title"}
            ),
            "book_room": WriteVerifier(
                tool="list_room_bookings", args_map={"room": "room"}, match={"event_id": "event_id"}
            ),
            "create_document": WriteVerifier(
                tool="search_documents",
                args_map={"query": "title"},
                match={"title": "title", "kind": "kind"},
            ),
            "log_time": WriteVerifier(
                tool="list_time_logs",
                args_map={"person": "person", "project": "project"},
                match={"date": "date", "hours": "hours"},
            ),
        },
        sources={
            tool: note
            for params, fields, authority in _SOURCE_FAMILIES
            for tool, note in sources(params, fields, authority).items()
        },
    ),
)

__all__ = ["DOMAIN", "WorkspaceWorld"]
