"""Tests of the productivity domain: the seeded world, custom logic, writes and the notes."""

from __future__ import annotations

from datetime import timedelta
from itertools import pairwise
from typing import Any

import pytest

from conftest import DomainTools, all_keys, forks_of, numeric_keys
from toolchaos.core.reference import follow
from toolchaos.core.types import ToolKind
from toolchaos.domains.productivity import DOMAIN
from toolchaos.domains.productivity.tools import percentile_of
from toolchaos.domains.productivity.world import WorkspaceWorld, local_window_utc, parse_stamp

SEED = 7
domain_tools = DomainTools(DOMAIN)
call, refused = domain_tools.call, domain_tools.refused


def day(world: WorkspaceWorld, offset: int) -> str:
    return (world.today() + timedelta(days=offset)).isoformat()


def weekday(world: WorkspaceWorld, ahead: int = 1) -> str:
    d = world.today() + timedelta(days=ahead)
    while d.weekday() >= 5:
        d += timedelta(days=1)
    return d.isoformat()


def active_member(world: WorkspaceWorld, billable: bool = True) -> tuple[Any, Any]:
    proj = next(
        p
        for p in world.projects.values()
        if p.status == "active" and (p.billable_rate_usd > 0) == billable
    )
    return proj, world.people[proj.member_ids[-1]]


def read_calls(world: WorkspaceWorld) -> list[tuple[str, dict[str, Any]]]:
    """One valid call of every READ tool."""
    people = list(world.people.values())
    proj, _ = active_member(world)
    room = next(iter(world.rooms.values()))
    kpi = next(iter(world.kpis.values()))
    exp = next(iter(world.experiments.values()))
    survey = next(iter(world.surveys.values()))
    start, end = day(world, -14), day(world, -1)
    return [
        ("search_people", {"query": people[0].name}),
        (
            "working_hours_overlap",
            {"person_a": people[0].name, "person_b": people[4].name, "date": weekday(world)},
        ),
        (
            "find_free_slots",
            {"person_a": people[0].name, "person_b": people[4].name, "date": weekday(world)},
        ),
        ("list_events", {"person": people[0].person_id}),
        ("list_rooms", {"office": room.office}),
        ("list_room_bookings", {"room": room.name, "date": weekday(world)}),
        ("list_projects", {}),
        ("list_tasks", {"project": proj.name}),
        ("list_tasks_v2", {"project_ref": proj.name}),
        ("task_estimate_total", {"project_id": proj.project_id}),
        ("search_documents", {"project": proj.name}),
        ("word_count_total", {"project_id": proj.project_id}),
        ("list_time_logs", {"project": proj.name}),
        ("timesheet_summary", {"person": proj.member_ids[0], "from_date": start, "to_date": end}),
        ("get_project_hours", {"project": proj.name, "from_date": start}),
        ("get_project_hours_payroll", {"project": proj.name, "start_date": start}),
        ("get_project_hours_tracker", {"project": proj.name, "since": start}),
        ("list_datasets", {}),
        ("query_dataset", {"dataset": "Regional sales", "metric": "revenue_usd"}),
        ("query_dataset_v2", {"dataset_id": "DS-SALES", "measure": "revenue_usd"}),
        ("group_dataset", {"dataset": "DS-SALES", "metric": "orders", "group_by": "region"}),
        ("dataset_percentile", {"dataset": "Web traffic", "metric": "sessions", "percentile": 90}),
        ("list_kpis", {}),
        ("get_kpi_value", {"kpi": kpi.name}),
        ("get_kpi_value_realtime", {"metric": kpi.name}),
        ("get_kpi_value_bi", {"kpi": kpi.name}),
        ("kpi_change", {"kpi": kpi.name}),
        ("list_surveys", {}),
        ("survey_question_stats", {"survey": survey.name, "question_id": "Q1"}),
        ("list_experiments", {}),
        ("get_variant_stats", {"experiment": exp.name, "variant": "control"}),
        ("get_variant_stats_analytics", {"experiment": exp.name, "arm": "control"}),
        ("get_variant_stats_warehouse", {"experiment": exp.name, "variant": "control"}),
        ("experiment_lift", {"experiment": exp.name, "variant": exp.variants[1]}),
    ]


def test_read_calls_cover_every_read_tool(base: WorkspaceWorld) -> None:
    reads = {name for name, t in DOMAIN.tools.items() if t.kind is ToolKind.READ}
    assert {name for name, _ in read_calls(base)} == reads
    assert len(DOMAIN.tools) >= 25


def test_read_tools_do_not_change_the_world(world: WorkspaceWorld) -> None:
    domain_tools.check_reads_change_nothing(world, read_calls(world))
    domain_tools.read_results(world, read_calls(world))


def test_world_is_seeded_and_consistent(base: WorkspaceWorld) -> None:
    assert WorkspaceWorld.build(SEED).state_hash() == base.state_hash()
    assert WorkspaceWorld.build(SEED + 1).state_hash() != base.state_hash()
    assert len(base.people) == 30 and len({p.name for p in base.people.values()}) == 30
    assert len(base.tasks) >= 100 and len(base.events) >= 60 and len(base.time_logs) >= 200
    for task in base.tasks.values():
        assert task.assignee_id in base.projects[task.project_id].member_ids
    for log in base.time_logs.values():
        assert log.date < base.today().isoformat()
        assert not (log.billable and base.projects[log.project_id].billable_rate_usd == 0)
    # no room is double-booked
    for room in base.rooms:
        spans = sorted(
            (e.start_utc, e.end_utc)
            for e in base.events.values()
            if e.room_id == room and e.status == "confirmed"
        )
        assert all(a[1] <= b[0] for a, b in pairwise(spans))


def test_working_hours_overlap_across_time_zones(base: WorkspaceWorld) -> None:
    people = list(base.people.values())
    date = weekday(base)
    for a, b in [(people[0], people[1]), (people[2], people[6]), (people[4], people[5])]:
        got = call(base, "working_hours_overlap", person_a=a.name, person_b=b.person_id, date=date)
        d = base.today() + timedelta(days=(int(date[-2:]) - base.today().day))
        a_start, a_end = local_window_utc(a, d)
        b_start, b_end = local_window_utc(b, d)
        hours = max(0.0, (min(a_end, b_end) - max(a_start, b_start)).total_seconds() / 3600)
        assert got["overlap_hours"] == pytest.approx(round(hours, 2))
        if hours:
            start = parse_stamp(got["overlap_start_utc"])
            assert got["person_a_local_start"] == (
                start + timedelta(hours=a.utc_offset_hours)
            ).strftime("%H:%M")
    saturday = base.today() + timedelta(days=(5 - base.today().weekday()) % 7)
    refused(base, "working_hours_overlap", 422, person_a=people[0].name, person_b=people[1].name,
            date=saturday.isoformat())  # fmt: skip
    refused(base, "working_hours_overlap", 422, person_a=people[0].name,
            person_b=people[0].person_id, date=date)  # fmt: skip
    refused(base, "working_hours_overlap", 404, person_a="Nobody Here", person_b=people[0].name,
            date=date)  # fmt: skip


def test_free_slots_avoid_meetings(base: WorkspaceWorld) -> None:
    people = list(base.people.values())
    checked = 0
    for a in people[:10]:
        for b in people[10:20]:
            date = weekday(base, 2)
            got = call(base, "find_free_slots", person_a=a.person_id, person_b=b.person_id,
                       date=date, duration_minutes=30)  # fmt: skip
            for slot in got["results"]:
                s, e = parse_stamp(slot["start_utc"]), parse_stamp(slot["end_utc"])
                assert slot["minutes"] >= 30
                for ev in base.events.values():
                    if ev.status != "confirmed" or not {a.person_id, b.person_id} & set(
                        ev.attendee_ids
                    ):
                        continue
                    assert not (parse_stamp(ev.start_utc) < e and s < parse_stamp(ev.end_utc))
                checked += 1
            assert got["total_free_minutes"] == sum(s["minutes"] for s in got["results"])
    assert checked > 10


def test_timesheet_totals_and_billing(base: WorkspaceWorld) -> None:
    proj, _ = active_member(base)
    who = base.people[proj.member_ids[0]]
    start, end = day(base, -14), day(base, -1)
    got = call(base, "timesheet_summary", person=who.name, from_date=start, to_date=end)
    logs = [
        log
        for log in base.time_logs.values()
        if log.person_id == who.person_id and start <= log.date <= end
    ]
    assert got["total_hours"] == pytest.approx(sum(log.hours for log in logs))
    billable = [log for log in logs if log.billable]
    amount = sum(log.hours * base.projects[log.project_id].billable_rate_usd for log in billable)
    assert got["billable_amount_usd"] == pytest.approx(amount)
    assert got["non_billable_hours"] == pytest.approx(got["total_hours"] - got["billable_hours"])
    refused(base, "timesheet_summary", 422, person=who.name, from_date=end, to_date=start)


def test_dataset_queries(base: WorkspaceWorld) -> None:
    rows = [r for r in base.dataset_rows.values() if r.dataset_id == "DS-SALES"]
    emea = [r.values["revenue_usd"] for r in rows if r.dims["region"] == "EMEA"]
    got = call(base, "query_dataset", dataset="regional sales", metric="revenue_usd",
               where="region = emea")  # fmt: skip
    assert got["value"] == pytest.approx(sum(emea)) and got["matched_rows"] == len(emea)
    v2 = call(base, "query_dataset_v2", dataset_id="DS-SALES", measure="revenue_usd",
              filter="region = EMEA")  # fmt: skip
    assert v2 == got | {"where": "region = EMEA"}
    late = call(base, "query_dataset", dataset="DS-SALES", metric="orders", agg="max",
                where="month >= 2025-12 and channel = Online")  # fmt: skip
    assert late["matched_rows"] == 4 * 3
    groups = call(base, "group_dataset", dataset="DS-SALES", metric="revenue_usd",
                  group_by="region", sort="value_desc")["results"]  # fmt: skip
    assert [g["value"] for g in groups] == sorted((g["value"] for g in groups), reverse=True)
    assert sum(g["value"] for g in groups) == pytest.approx(
        sum(r.values["revenue_usd"] for r in rows)
    )
    assert percentile_of([1, 2, 3, 4], 50) == 2.5 and percentile_of([10, 20], 90) == 19
    refused(base, "query_dataset", 422, dataset="DS-SALES", metric="profit")
    refused(base, "query_dataset", 422, dataset="DS-SALES", metric="units", where="colour = red")
    refused(base, "query_dataset", 422, dataset="DS-SALES", metric="units", where="region ~ x")
    refused(base, "query_dataset", 404, dataset="Inventory", metric="units")


def test_kpis_change_and_gross_revenue(base: WorkspaceWorld) -> None:
    gross = next(k for k in base.kpis.values() if k.name == "Gross sales revenue")
    month = base.kpi_periods()[-2]
    value = call(base, "get_kpi_value", kpi=gross.kpi_id, period=month)["value"]
    total = call(base, "query_dataset", dataset="DS-SALES", metric="revenue_usd",
                 where=f"month = {month}")["value"]  # fmt: skip
    assert value == pytest.approx(total)
    kpi = next(iter(base.kpis.values()))
    change = call(base, "kpi_change", kpi=kpi.name, periods_back=3)
    assert change["change"] == pytest.approx(change["value"] - change["baseline_value"], abs=0.01)
    assert change["baseline_period"] == base.kpi_periods()[-4]
    refused(base, "kpi_change", 422, kpi=kpi.name, periods_back=0)
    refused(base, "get_kpi_value", 422, kpi=kpi.name, period="2019-01")


def test_survey_stats_and_experiment_lift(base: WorkspaceWorld) -> None:
    survey = next(iter(base.surveys.values()))
    nps_q = next(q for q in survey.questions if q.scale_max == 10)
    got = call(
        base, "survey_question_stats", survey=survey.survey_id, question_id=nps_q.question_id
    )
    scores = [r.scores[nps_q.question_id] for r in base.survey_responses.values()
              if r.survey_id == survey.survey_id]  # fmt: skip
    promoters = 100 * sum(s >= 9 for s in scores) / len(scores)
    detractors = 100 * sum(s <= 6 for s in scores) / len(scores)
    assert got["responses"] == len(scores)
    assert got["nps"] == pytest.approx(round(promoters - detractors, 1))
    exp = next(iter(base.experiments.values()))
    lift = call(base, "experiment_lift", experiment=exp.name, variant=exp.variants[1])
    control = call(base, "get_variant_stats", experiment=exp.name, variant="control")
    treated = call(base, "get_variant_stats", experiment=exp.name, variant=exp.variants[1])
    rate = treated["conversions"] / treated["visitors"]
    base_rate = control["conversions"] / control["visitors"]
    assert lift["lift_pct"] == pytest.approx(round(100 * (rate - base_rate) / base_rate, 2))
    assert 0 <= lift["p_value"] <= 1 and lift["significant"] == (lift["p_value"] < 0.05)
    refused(base, "experiment_lift", 422, experiment=exp.name, variant="control")
    refused(base, "get_variant_stats", 404, experiment=exp.name, variant="treatment_z")


def test_tasks_create_update_and_refusals(base: WorkspaceWorld) -> None:
    proj, member = active_member(base)
    with forks_of(base) as (world, _):
        task = call(world, "create_task", project=proj.name, title="Write the handbook",
                    assignee=member.name, due_date=day(world, 5))  # fmt: skip
        assert task["task_id"] == f"TSK-{len(base.tasks) + 1:05d}" and task["status"] == "todo"
        moved = call(world, "update_task", task_id=task["task_id"], status="in_progress")
        assert moved["status"] == "in_progress"
        listed = call(world, "list_tasks", project=proj.project_id, task_id=task["task_id"])
        assert listed["results"] == [moved]
        refused(world, "create_task", 409, project=proj.name, title="write the handbook",
                assignee=member.name, due_date=day(world, 5))  # fmt: skip
        refused(world, "create_task", 422, project=proj.name, title="Old", assignee=member.name,
                due_date=day(world, -1))  # fmt: skip
        outsider = next(p for p in world.people if p not in proj.member_ids)
        refused(world, "create_task", 422, project=proj.name, title="X", assignee=outsider,
                due_date=day(world, 3))  # fmt: skip
        refused(world, "update_task", 422, task_id=task["task_id"])
    done = next(p for p in base.projects.values() if p.status == "completed")
    refused(base.fork(), "create_task", 409, project=done.name, title="Late",
            assignee=done.member_ids[0], due_date=day(base, 3))  # fmt: skip


def test_events_rooms_and_cancellation(base: WorkspaceWorld) -> None:
    with forks_of(base) as (world, _):
        people = list(world.people.values())
        room = max(world.rooms.values(), key=lambda r: r.capacity)
        start = f"{weekday(world, 3)}T{(13 - int(room.utc_offset_hours)) % 24:02d}:00"
        free = all(
            not (e.room_id == room.room_id and e.start_utc[:13] == start[:13])
            for e in world.events.values()
        )
        event = call(world, "create_event", title="Planning offsite", organizer=people[0].name,
                     attendees=f"{people[1].name}, {people[2].person_id}", start_utc=start,
                     duration_minutes=30)  # fmt: skip
        assert event["attendee_ids"][0] == people[0].person_id and event["attendee_count"] == 3
        if free:
            booked = call(world, "book_room", event_id=event["event_id"], room=room.name)
            assert booked["room_id"] == room.room_id
            booking = {"event_id": event["event_id"], "room": room.name}
            found = domain_tools.verified_records(world, "book_room", booking)
            assert found == [booked]
        cancelled = call(world, "cancel_event", event_id=event["event_id"])
        assert cancelled["status"] == "cancelled"
        refused(world, "cancel_event", 409, event_id=event["event_id"])
        refused(world, "create_event", 422, title="Past", organizer=people[0].name, attendees="",
                start_utc=day(world, -1) + "T10:00", duration_minutes=30)  # fmt: skip
        small = min(world.rooms.values(), key=lambda r: r.capacity)
        crowd = ", ".join(p.person_id for p in people[1:10])
        refused(world, "create_event", 422, title="Crowd", organizer=people[0].name,
                attendees=crowd, start_utc=start, duration_minutes=30, room=small.name)  # fmt: skip


def test_log_time_and_documents(base: WorkspaceWorld) -> None:
    proj, member = active_member(base)
    internal, insider = active_member(base, billable=False)
    with forks_of(base) as (world, _):
        args = {"person": member.name, "project": proj.name, "date": day(world, 0), "hours": 2.5}
        log = call(world, "log_time", **args)
        assert log["billable"] is True and log["hours"] == 2.5
        assert domain_tools.verified_records(world, "log_time", args) == [log]
        hours = call(world, "get_project_hours", project=proj.name, from_date=day(world, 0))
        assert hours["logged_hours"] == 2.5
        refused(world, "log_time", 422, **{**args, "hours": 2.3})
        refused(world, "log_time", 422, **{**args, "date": day(world, 1)})
        refused(world, "log_time", 422, person=insider.name, project=internal.name,
                date=day(world, 0), hours=1.0)  # fmt: skip
        doc_args = {"title": "Kickoff recap", "project": proj.name, "author": member.name,
                    "kind": "meeting_notes", "body": "We agreed on scope and owners."}  # fmt: skip
        doc = call(world, "create_document", **doc_args)
        assert doc["word_count"] == 6 and doc["updated_on"] == day(world, 0)
        assert domain_tools.verified_records(world, "create_document", doc_args) == [doc]
        refused(world, "create_document", 409, **doc_args)


def test_write_verifiers_cover_every_creating_write() -> None:
    verified = set(DOMAIN.notes.write_verifiers)
    assert {"create_task", "create_event", "book_room", "create_document", "log_time"} == verified


@pytest.mark.parametrize("tool", sorted(DOMAIN.notes.sources))
def test_sources_agree_in_the_clean_world(base: WorkspaceWorld, tool: str) -> None:
    how = DOMAIN.notes.sources[tool]
    params = DOMAIN.tools[tool].spec.parameters["properties"]
    proj, _ = active_member(base)
    exp = next(iter(base.experiments.values()))
    values = {
        "kpi": "Weekly active users", "metric": "Weekly active users", "period": "2025-11",
        "month": "2025-11", "project": proj.name, "from_date": day(base, -10),
        "start_date": day(base, -10), "since": day(base, -10), "experiment": exp.name,
        "variant": "control", "arm": "control",
    }  # fmt: skip
    args = {
        p: values[p] for p in params if p in values and p not in ("to_date", "end_date", "until")
    }
    primary = call(base, tool, **args)
    for alt in how.alternatives:
        mapped = {new: args[old] for new, old in how.args_map[alt].items() if old in args}
        other = call(base, alt, **mapped)
        for field in how.fields:
            assert other[field] == primary[field], (tool, alt, field)
        assert other["as_of"] != primary["as_of"] and other["source"] != primary["source"]


def test_fallbacks_and_v2_return_the_same_keys(base: WorkspaceWorld) -> None:
    proj, _ = active_member(base)
    exp = next(iter(base.experiments.values()))
    args = {
        "get_kpi_value": {"kpi": "Churn rate", "period": "2025-10"},
        "get_project_hours": {"project": proj.name, "from_date": day(base, -7)},
        "get_variant_stats": {"experiment": exp.name, "variant": "control"},
        "list_tasks": {"project": proj.name, "status": "todo"},
        "query_dataset": {"dataset": "DS-TRAFFIC", "metric": "signups", "where": "source = paid"},
    }
    for key in ("fallbacks", "v2"):
        for tool, alt in getattr(DOMAIN.notes, key).items():
            primary = call(base, tool, **args[tool])
            mapped = {
                new: args[tool][old] for new, old in alt.args_map.items() if old in args[tool]
            }
            second = call(base, alt.tool, **mapped)
            assert set(primary) == set(second), (tool, alt.tool)
            for fact in set(primary) - {"as_of", "source"}:
                assert second[fact] == primary[fact], (tool, fact)


@pytest.mark.parametrize("tool", sorted(DOMAIN.notes.resolvers))
def test_resolvers_turn_a_name_into_its_id(base: WorkspaceWorld, tool: str) -> None:
    how = DOMAIN.notes.resolvers[tool]
    table = {
        "search_people": ("people", "person_id"),
        "list_projects": ("projects", "project_id"),
        "list_rooms": ("rooms", "room_id"),
        "list_kpis": ("kpis", "kpi_id"),
        "list_datasets": ("datasets", "dataset_id"),
        "list_surveys": ("surveys", "survey_id"),
        "list_experiments": ("experiments", "experiment_id"),
    }[how.tool]
    for row in base.table(table[0]).values():
        found = call(base, how.tool, **{how.query_param: row.name})
        assert follow({0: found}, [0, *how.id_path]) == getattr(row, table[1])
    assert DOMAIN.tools[tool].spec.parameters["properties"][how.param]["type"] == "string"


def test_every_field_named_in_notes_is_returned(base: WorkspaceWorld) -> None:
    keys: set[str] = set()
    numbers: set[str] = set()
    for name, args in read_calls(base):
        result = call(base, name, **args)
        keys |= all_keys(result)
        numbers |= set(numeric_keys(result))
    for how in DOMAIN.notes.sources.values():
        assert set(how.fields) | {how.time_field} <= keys
    for how in DOMAIN.notes.write_verifiers.values():
        assert set(how.match) <= keys
    for field, conversion in DOMAIN.notes.unit_conversions.items():
        assert field in numbers or field in keys, field
        assert conversion.factor > 0
