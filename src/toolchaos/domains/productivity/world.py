"""The productivity world: a team workspace and the analytics behind it.

Tables (each keyed by the row's id unless noted):

- ``people``: ~30 teammates in nine offices, each with a time zone, a local working
  window and an internal hourly cost;
- ``projects`` and ``tasks``: client and internal projects with billable rates and hour
  budgets; tasks with assignees, priorities, statuses, due dates and estimates;
- ``rooms`` and ``events``: meeting rooms with capacities in five offices, and a
  calendar of meetings (UTC start and end, attendees, an optional room) for this week
  and next;
- ``documents``: specs, notes, runbooks and reports with word counts;
- ``time_logs``: three weeks of logged hours per person and project, billable or not;
- ``datasets`` and ``dataset_rows``: three tables of numbers (regional sales by month
  and channel, daily web traffic by source, weekly support tickets by team); rows are
  keyed ``"{dataset_id}:{n:04d}"``;
- ``kpis`` and ``kpi_values``: monthly KPI values keyed ``"{kpi_id}:{YYYY-MM}"``. Three
  analytics backends (warehouse, streaming, BI cache) serve the same values; each KPI
  row stamps when each backend last refreshed it. "Gross sales revenue" is the monthly
  revenue total of the sales dataset;
- ``surveys`` and ``survey_responses``: questionnaires with 1-5 and 0-10 questions and
  one row per response, segmented by team or customer plan;
- ``experiments`` and ``variant_stats``: A/B tests with visitors and conversions per
  variant (keyed ``"{experiment_id}:{variant}"``), served by three systems that agree.

Dates are ISO ``YYYY-MM-DD`` and timestamps UTC ISO strings ending in ``Z``; both are
relative to :attr:`World.EPOCH`, the world's "now" at clock zero (a Monday, 09:00 UTC).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, timezone
from functools import lru_cache
from typing import ClassVar, Self

from pydantic import Field

from toolchaos.core.world import Row, World
from toolchaos.domains._common import clock_minutes, people, stamp
from toolchaos.domains.productivity import data

TIME_LOG_DAYS = 21  # calendar days of history in time_logs, ending yesterday
CALENDAR_DAYS = 12  # calendar days of meetings, starting today


# -- rows ------------------------------------------------------------------------------------


class Person(Row):
    """A teammate with an office, a time zone and a local working window (HH:MM)."""

    person_id: str
    name: str
    email: str
    team: str
    title: str
    office: str
    timezone: str
    utc_offset_hours: float
    work_start_local: str
    work_end_local: str
    hourly_cost_usd: float


class Project(Row):
    """A project; ``billable_rate_usd`` is what the client pays per hour (0 if internal)."""

    project_id: str
    name: str
    client: str
    status: str
    owner_id: str
    member_ids: tuple[str, ...]
    billable_rate_usd: float
    budget_hours: float
    start_date: str
    due_date: str


class Task(Row):
    """A task in a project, with one assignee."""

    task_id: str
    project_id: str
    title: str
    assignee_id: str
    priority: str
    status: str
    due_date: str
    estimate_hours: float
    created_at: str
    updated_at: str


class Room(Row):
    """A meeting room in one office."""

    room_id: str
    name: str
    office: str
    utc_offset_hours: float
    floor: int
    capacity: int
    has_video: bool


class Event(Row):
    """A calendar event; times are UTC ``YYYY-MM-DDTHH:MM:SSZ``."""

    event_id: str
    title: str
    organizer_id: str
    attendee_ids: tuple[str, ...]
    room_id: str | None
    start_utc: str
    end_utc: str
    status: str
    created_at: str


class Document(Row):
    """A document or note in a project."""

    doc_id: str
    title: str
    kind: str
    project_id: str
    author_id: str
    word_count: int
    created_at: str
    updated_at: str


class TimeLog(Row):
    """Hours one person logged on one project on one day."""

    log_id: str
    person_id: str
    project_id: str
    task_id: str | None
    date: str
    hours: float
    billable: bool
    note: str
    created_at: str


class Dataset(Row):
    """A table of numbers: its dimension columns and metric columns."""

    dataset_id: str
    name: str
    description: str
    dimensions: tuple[str, ...]
    metrics: tuple[str, ...]
    updated_at: str


class DataRow(Row):
    """One row of a dataset: dimension values (text) and metric values (numbers)."""

    dataset_id: str
    dims: dict[str, str]
    values: dict[str, float]


class Kpi(Row):
    """A KPI on a dashboard, with when each analytics backend last refreshed it."""

    kpi_id: str
    name: str
    dashboard: str
    unit: str
    higher_is_better: bool
    warehouse_as_of: str
    realtime_as_of: str
    bi_as_of: str


class KpiValue(Row):
    """One KPI's value for one month (``YYYY-MM``)."""

    kpi_id: str
    period: str
    value: float


class SurveyQuestion(Row):
    """A question and its scale: 1-5 (``scale_max`` 5) or 0-10 (``scale_max`` 10)."""

    question_id: str
    text: str
    scale_max: int


class Survey(Row):
    """A survey; responses are segmented by ``segment_kind`` (team or plan)."""

    survey_id: str
    name: str
    audience: str
    segment_kind: str
    status: str
    launched_on: str
    closes_on: str
    questions: tuple[SurveyQuestion, ...]


class SurveyResponse(Row):
    """One response: its segment and a score per question id."""

    response_id: str
    survey_id: str
    segment: str
    submitted_on: str
    scores: dict[str, int]


class Experiment(Row):
    """An A/B experiment and when each reporting system last refreshed it."""

    experiment_id: str
    name: str
    metric: str
    status: str
    owner_id: str
    variants: tuple[str, ...]
    start_date: str
    end_date: str | None
    platform_as_of: str
    analytics_as_of: str
    warehouse_as_of: str


class VariantStats(Row):
    """Visitors and conversions of one variant of an experiment."""

    experiment_id: str
    variant: str
    visitors: int
    conversions: int


# -- the world -------------------------------------------------------------------------------


class WorkspaceWorld(World):
    """People, projects, tasks, calendar, rooms, documents, time logs and analytics."""

    TABLES: ClassVar[tuple[str, ...]] = (
        "people",
        "projects",
        "tasks",
        "rooms",
        "events",
        "documents",
        "time_logs",
        "datasets",
        "dataset_rows",
        "kpis",
        "kpi_values",
        "surveys",
        "survey_responses",
        "experiments",
        "variant_stats",
    )

    people: dict[str, Person] = Field(default_factory=dict)
    projects: dict[str, Project] = Field(default_factory=dict)
    tasks: dict[str, Task] = Field(default_factory=dict)
    rooms: dict[str, Room] = Field(default_factory=dict)
    events: dict[str, Event] = Field(default_factory=dict)
    documents: dict[str, Document] = Field(default_factory=dict)
    time_logs: dict[str, TimeLog] = Field(default_factory=dict)
    datasets: dict[str, Dataset] = Field(default_factory=dict)
    dataset_rows: dict[str, DataRow] = Field(default_factory=dict)
    kpis: dict[str, Kpi] = Field(default_factory=dict)
    kpi_values: dict[str, KpiValue] = Field(default_factory=dict)
    surveys: dict[str, Survey] = Field(default_factory=dict)
    survey_responses: dict[str, SurveyResponse] = Field(default_factory=dict)
    experiments: dict[str, Experiment] = Field(default_factory=dict)
    variant_stats: dict[str, VariantStats] = Field(default_factory=dict)

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Build every table from ``rng`` alone; the same seed gives the same world."""
        gen = _Generator(rng, cls.EPOCH)
        gen.people()
        gen.projects()
        gen.tasks()
        gen.rooms()
        gen.events()
        gen.documents()
        gen.time_logs()
        gen.datasets()
        gen.kpis()
        gen.surveys()
        gen.experiments()
        counters = {
            "TSK": len(gen.tasks_),
            "EV": len(gen.events_),
            "DOC": len(gen.documents_),
            "TL": len(gen.logs_),
        }
        return cls(
            seed=seed,
            id_counters=counters,
            people=gen.people_,
            projects=gen.projects_,
            tasks=gen.tasks_,
            rooms=gen.rooms_,
            events=gen.events_,
            documents=gen.documents_,
            time_logs=gen.logs_,
            datasets=gen.datasets_,
            dataset_rows=gen.rows_,
            kpis=gen.kpis_,
            kpi_values=gen.kpi_values_,
            surveys=gen.surveys_,
            survey_responses=gen.responses_,
            experiments=gen.experiments_,
            variant_stats=gen.variants_,
        )

    def today(self) -> date:
        """The world's current UTC calendar date."""
        return self.now().date()

    def kpi_periods(self) -> list[str]:
        """The months (``YYYY-MM``) KPIs have values for, oldest first."""
        return month_periods(self.EPOCH.date(), data.KPI_MONTHS)


def month_periods(today: date, count: int) -> list[str]:
    """The ``count`` full months before ``today``'s month, oldest first, as ``YYYY-MM``."""
    out = []
    year, month = today.year, today.month
    for _ in range(count):
        month -= 1
        if month == 0:
            year, month = year - 1, 12
        out.append(f"{year:04d}-{month:02d}")
    return out[::-1]


def kpi_key(kpi_id: str, period: str) -> str:
    """The key of one KPI month in ``kpi_values``."""
    return f"{kpi_id}:{period}"


def variant_key(experiment_id: str, variant: str) -> str:
    """The key of one experiment variant in ``variant_stats``."""
    return f"{experiment_id}:{variant}"


def local_window_utc(person: Person, day: date) -> tuple[datetime, datetime]:
    """A person's working window on their local calendar ``day``, as UTC datetimes."""
    tz = timezone(timedelta(hours=person.utc_offset_hours))
    start = clock_minutes(person.work_start_local) or 0
    end = clock_minutes(person.work_end_local) or 0
    midnight = datetime(day.year, day.month, day.day, tzinfo=tz)
    return (
        (midnight + timedelta(minutes=start)).astimezone(UTC),
        (midnight + timedelta(minutes=end)).astimezone(UTC),
    )


@lru_cache(maxsize=65536)
def parse_stamp(text: str) -> datetime:
    """Parse a stored ``YYYY-MM-DDTHH:MM:SSZ`` timestamp.

    Memoized: strptime is slow, and a calendar tool parses every event's stamps per call.
    """
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


@dataclass
class _Generator:
    """Draws the tables in a fixed order from one generator, so a seed fixes every byte."""

    rng: random.Random
    epoch: datetime
    people_: dict[str, Person] = field(default_factory=dict)
    projects_: dict[str, Project] = field(default_factory=dict)
    tasks_: dict[str, Task] = field(default_factory=dict)
    rooms_: dict[str, Room] = field(default_factory=dict)
    events_: dict[str, Event] = field(default_factory=dict)
    documents_: dict[str, Document] = field(default_factory=dict)
    logs_: dict[str, TimeLog] = field(default_factory=dict)
    datasets_: dict[str, Dataset] = field(default_factory=dict)
    rows_: dict[str, DataRow] = field(default_factory=dict)
    kpis_: dict[str, Kpi] = field(default_factory=dict)
    kpi_values_: dict[str, KpiValue] = field(default_factory=dict)
    surveys_: dict[str, Survey] = field(default_factory=dict)
    responses_: dict[str, SurveyResponse] = field(default_factory=dict)
    experiments_: dict[str, Experiment] = field(default_factory=dict)
    variants_: dict[str, VariantStats] = field(default_factory=dict)

    @property
    def today(self) -> date:
        return self.epoch.date()

    def people(self) -> None:
        rng = self.rng
        names = people(rng, data.FIRST_NAMES, data.LAST_NAMES, (data.EMAIL_DOMAIN,))
        numbers = rng.sample(range(1000, 10000), 30)
        teams = sorted(data.TEAMS)
        firsts: set[str] = set()
        for index, number in enumerate(numbers):
            name, email = next(names)
            while name.split()[0] in firsts:  # first names alone identify a teammate
                name, email = next(names)
            firsts.add(name.split()[0])
            office = data.OFFICES[index % len(data.OFFICES)]
            team = teams[index % len(teams)]
            start, end = rng.choice(data.WORK_WINDOWS)
            person_id = f"U-{number}"
            self.people_[person_id] = Person(
                person_id=person_id,
                name=name,
                email=email,
                team=team,
                title=rng.choice(data.TEAMS[team]),
                office=office.city,
                timezone=office.timezone,
                utc_offset_hours=float(office.utc_offset_hours),
                work_start_local=start,
                work_end_local=end,
                hourly_cost_usd=float(rng.randrange(45, 125, 5)),
            )

    def projects(self) -> None:
        rng = self.rng
        ids = sorted(self.people_)
        numbers = rng.sample(range(100, 1000), len(data.PROJECTS))
        statuses = ["active"] * 9 + ["on_hold"] * 2 + ["completed"]
        rng.shuffle(statuses)
        for (name, client), number, status in zip(data.PROJECTS, numbers, statuses, strict=True):
            members = tuple(sorted(rng.sample(ids, rng.randint(4, 7))))
            start = self.today - timedelta(days=rng.randint(40, 200))
            due = self.today + timedelta(days=rng.randint(20, 150))
            if status == "completed":
                due = self.today - timedelta(days=rng.randint(5, 30))
            rate = 0.0 if client == "Internal" else float(rng.randrange(110, 230, 5))
            project_id = f"PRJ-{number}"
            self.projects_[project_id] = Project(
                project_id=project_id,
                name=name,
                client=client,
                status=status,
                owner_id=members[0],
                member_ids=members,
                billable_rate_usd=rate,
                budget_hours=float(rng.randrange(300, 1500, 50)),
                start_date=start.isoformat(),
                due_date=due.isoformat(),
            )

    def tasks(self) -> None:
        rng = self.rng
        number = 0
        for project in self.projects_.values():
            titles = rng.sample(
                [f"{v} {o}" for v in data.TASK_VERBS for o in data.TASK_OBJECTS],
                rng.randint(8, 12),
            )
            for title in titles:
                number += 1
                task_id = f"TSK-{number:05d}"
                if project.status == "completed":
                    status = "done"
                else:
                    status = rng.choices(data.TASK_STATUSES, weights=(4, 3, 1, 3))[0]
                due = self.today + timedelta(days=rng.randint(-12, 35))
                created = self.epoch - timedelta(
                    days=rng.randint(14, 60), minutes=rng.randint(0, 999)
                )
                updated = created + timedelta(days=rng.randint(0, 12), minutes=rng.randint(0, 999))
                self.tasks_[task_id] = Task(
                    task_id=task_id,
                    project_id=project.project_id,
                    title=title,
                    assignee_id=rng.choice(project.member_ids),
                    priority=rng.choices(data.PRIORITIES, weights=(2, 4, 3, 1))[0],
                    status=status,
                    due_date=due.isoformat(),
                    estimate_hours=rng.choice((1.5, 2.0, 3.0, 4.0, 5.5, 6.0, 8.0, 12.0, 16.0)),
                    created_at=stamp(created),
                    updated_at=stamp(min(updated, self.epoch - timedelta(hours=2))),
                )

    def rooms(self) -> None:
        rng = self.rng
        offsets = {o.city: o.utc_offset_hours for o in data.OFFICES}
        numbers = rng.sample(range(100, 1000), sum(len(r) for r in data.ROOMS.values()))
        index = 0
        for office, rooms in data.ROOMS.items():
            for name, capacity, video in rooms:
                room_id = f"RM-{numbers[index]}"
                index += 1
                self.rooms_[room_id] = Room(
                    room_id=room_id,
                    name=name,
                    office=office,
                    utc_offset_hours=float(offsets[office]),
                    floor=rng.randint(2, 14),
                    capacity=capacity,
                    has_video=video,
                )

    def events(self) -> None:
        rng = self.rng
        people_ids = sorted(self.people_)
        rooms_by_office: dict[str, list[Room]] = {}
        for room in self.rooms_.values():
            rooms_by_office.setdefault(room.office, []).append(room)
        booked: dict[str, list[tuple[datetime, datetime]]] = {}
        drafts = []
        for offset in range(CALENDAR_DAYS):
            day = self.today + timedelta(days=offset)
            if day.weekday() >= 5:
                continue
            for _ in range(rng.randint(9, 13)):
                organizer = self.people_[rng.choice(people_ids)]
                window_start, window_end = local_window_utc(organizer, day)
                minutes = rng.choice(data.EVENT_MINUTES)
                span = int((window_end - window_start).total_seconds() // 60) - minutes
                start = window_start + timedelta(minutes=rng.randrange(0, span, 15))
                end = start + timedelta(minutes=minutes)
                others = rng.sample(
                    [p for p in people_ids if p != organizer.person_id], rng.randint(1, 6)
                )
                attendees = (organizer.person_id, *sorted(others))
                room_id = None
                choices = [
                    r
                    for r in rooms_by_office.get(organizer.office, [])
                    if r.capacity >= len(attendees)
                ]
                if choices and rng.random() < 0.7:
                    room = rng.choice(choices)
                    if not any(s < end and start < e for s, e in booked.get(room.room_id, [])):
                        room_id = room.room_id
                        booked.setdefault(room.room_id, []).append((start, end))
                drafts.append(
                    (start, end, rng.choice(data.EVENT_TITLES), organizer, attendees, room_id)
                )
        drafts.sort(key=lambda d: (d[0], d[3].person_id))
        for number, (start, end, title, organizer, attendees, room_id) in enumerate(drafts, 1):
            event_id = f"EV-{number:05d}"
            created = self.epoch - timedelta(days=rng.randint(1, 20), minutes=rng.randint(0, 999))
            self.events_[event_id] = Event(
                event_id=event_id,
                title=title,
                organizer_id=organizer.person_id,
                attendee_ids=attendees,
                room_id=room_id,
                start_utc=stamp(start),
                end_utc=stamp(end),
                status="cancelled" if rng.random() < 0.06 else "confirmed",
                created_at=stamp(created),
            )

    def documents(self) -> None:
        rng = self.rng
        number = 0
        for project in self.projects_.values():
            kinds = rng.sample(data.DOC_KINDS, rng.randint(3, 6))
            for kind in kinds:
                number += 1
                doc_id = f"DOC-{number:05d}"
                title = f"{rng.choice(data.DOC_TITLES[kind])} - {project.name}"
                created = self.epoch - timedelta(
                    days=rng.randint(10, 120), minutes=rng.randint(0, 999)
                )
                updated = created + timedelta(days=rng.randint(0, 9), minutes=rng.randint(0, 999))
                low, high = (300, 1800) if kind == "meeting_notes" else (800, 6500)
                self.documents_[doc_id] = Document(
                    doc_id=doc_id,
                    title=title,
                    kind=kind,
                    project_id=project.project_id,
                    author_id=rng.choice(project.member_ids),
                    word_count=rng.randint(low, high),
                    created_at=stamp(created),
                    updated_at=stamp(min(updated, self.epoch - timedelta(hours=1))),
                )

    def time_logs(self) -> None:
        rng = self.rng
        projects_of: dict[str, list[Project]] = {}
        for project in self.projects_.values():
            if project.status == "completed":
                continue
            for member in project.member_ids:
                projects_of.setdefault(member, []).append(project)
        tasks_of: dict[str, list[str]] = {}
        for task in self.tasks_.values():
            tasks_of.setdefault(task.project_id, []).append(task.task_id)
        number = 0
        for back in range(TIME_LOG_DAYS, 0, -1):
            day = self.today - timedelta(days=back)
            if day.weekday() >= 5:
                continue
            for person_id in sorted(projects_of):
                if rng.random() < 0.1:  # a day off
                    continue
                mine = projects_of[person_id]
                picked = rng.sample(mine, min(len(mine), rng.randint(1, 2)))
                for project in picked:
                    number += 1
                    log_id = f"TL-{number:05d}"
                    hours = rng.choice((1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0))
                    billable = project.billable_rate_usd > 0 and rng.random() < 0.85
                    task_id = (
                        rng.choice(tasks_of[project.project_id]) if rng.random() < 0.6 else None
                    )
                    logged = datetime.combine(day, datetime.min.time(), UTC) + timedelta(
                        hours=rng.randint(15, 23)
                    )
                    self.logs_[log_id] = TimeLog(
                        log_id=log_id,
                        person_id=person_id,
                        project_id=project.project_id,
                        task_id=task_id,
                        date=day.isoformat(),
                        hours=hours,
                        billable=billable,
                        note=rng.choice(data.TIME_NOTES),
                        created_at=stamp(logged),
                    )

    def datasets(self) -> None:
        rng = self.rng
        refreshed = stamp(self.epoch.replace(hour=3, minute=30))
        months = month_periods(self.today, 12)
        specs = {
            "DS-SALES": (("region", "month", "channel"), ("revenue_usd", "units", "orders")),
            "DS-TRAFFIC": (("date", "source"), ("sessions", "pageviews", "signups")),
            "DS-TICKETS": (("week", "team"), ("tickets", "first_response_min", "csat_pct")),
        }
        for dataset_id, name, description in data.DATASETS:
            columns, metrics = specs[dataset_id]
            self.datasets_[dataset_id] = Dataset(
                dataset_id=dataset_id,
                name=name,
                description=description,
                dimensions=columns,
                metrics=metrics,
                updated_at=refreshed,
            )
        rows: list[tuple[str, dict[str, str], dict[str, float]]] = []
        for region in data.SALES_REGIONS:
            for i, month in enumerate(months):
                season = 1 + 0.12 * ((i % 12) - 5.5) / 5.5
                for channel in data.SALES_CHANNELS:
                    base = data.REGION_REVENUE[region] * data.CHANNEL_SHARE[channel] * season
                    revenue = round(base * rng.uniform(0.8, 1.2))
                    orders = round(revenue / rng.uniform(70, 110))
                    units = round(orders * rng.uniform(1.3, 2.4))
                    dims = {"region": region, "month": month, "channel": channel}
                    values = {
                        "revenue_usd": float(revenue),
                        "units": float(units),
                        "orders": float(orders),
                    }
                    rows.append(("DS-SALES", dims, values))
        for back in range(28, 0, -1):
            day = (self.today - timedelta(days=back)).isoformat()
            weekend = (self.today - timedelta(days=back)).weekday() >= 5
            for source in data.TRAFFIC_SOURCES:
                sessions = round(
                    data.TRAFFIC_SESSIONS[source]
                    * rng.uniform(0.75, 1.25)
                    * (0.7 if weekend else 1)
                )
                pageviews = round(sessions * rng.uniform(2.1, 3.6))
                signups = round(sessions * rng.uniform(0.01, 0.045))
                values = {
                    "sessions": float(sessions),
                    "pageviews": float(pageviews),
                    "signups": float(signups),
                }
                rows.append(("DS-TRAFFIC", {"date": day, "source": source}, values))
        monday = self.today - timedelta(days=self.today.weekday())
        for back in range(12, 0, -1):
            iso = (monday - timedelta(weeks=back)).isocalendar()
            week = f"{iso.year}-W{iso.week:02d}"
            for team in data.TICKET_TEAMS:
                values = {
                    "tickets": float(rng.randint(80, 260)),
                    "first_response_min": round(rng.uniform(12, 95), 1),
                    "csat_pct": round(rng.uniform(82, 97), 1),
                }
                rows.append(("DS-TICKETS", {"week": week, "team": team}, values))
        counts: dict[str, int] = {}
        for dataset_id, dims, values in rows:
            counts[dataset_id] = counts.get(dataset_id, 0) + 1
            key = f"{dataset_id}:{counts[dataset_id]:04d}"
            self.rows_[key] = DataRow(dataset_id=dataset_id, dims=dims, values=values)

    def kpis(self) -> None:
        rng = self.rng
        periods = month_periods(self.today, data.KPI_MONTHS)
        numbers = rng.sample(range(100, 1000), len(data.KPIS) + 1)
        load = self.epoch.replace(hour=4, minute=0)
        specs = [*data.KPIS, (data.GROSS_REVENUE_KPI, "Revenue", "usd", True, 0.0, 0.0)]
        for number, (name, dashboard, unit, higher, typical, drift) in zip(
            numbers, specs, strict=True
        ):
            kpi_id = f"KPI-{number}"
            self.kpis_[kpi_id] = Kpi(
                kpi_id=kpi_id,
                name=name,
                dashboard=dashboard,
                unit=unit,
                higher_is_better=higher,
                warehouse_as_of=stamp(load - timedelta(minutes=rng.randint(0, 50))),
                realtime_as_of=stamp(self.epoch - timedelta(minutes=rng.randint(1, 9))),
                bi_as_of=stamp(
                    self.epoch - timedelta(hours=rng.randint(2, 7), minutes=rng.randint(0, 59))
                ),
            )
            value = typical * rng.uniform(0.85, 1.0)
            for period in periods:
                if name == data.GROSS_REVENUE_KPI:
                    recorded = sum(
                        r.values["revenue_usd"]
                        for r in self.rows_.values()
                        if r.dataset_id == "DS-SALES" and r.dims["month"] == period
                    )
                else:
                    value = value * (1 + rng.gauss(drift * 0.3, drift))
                    if unit == "percent":
                        value = min(value, 99.9)
                    recorded = _kpi_round(value, unit)
                self.kpi_values_[kpi_key(kpi_id, period)] = KpiValue(
                    kpi_id=kpi_id, period=period, value=recorded
                )

    def surveys(self) -> None:
        rng = self.rng
        teams = sorted(data.TEAMS)
        number = 0
        for index, (name, audience, kind, questions) in enumerate(data.SURVEYS):
            survey_id = f"SRV-{201 + index}"
            launched = self.today - timedelta(days=rng.randint(10, 40))
            closes = launched + timedelta(days=rng.randint(14, 45))
            segments = teams if kind == "team" else list(data.CUSTOMER_PLANS)
            bias = {s: rng.uniform(-0.8, 0.8) for s in segments}
            qs = tuple(
                SurveyQuestion(question_id=f"Q{i + 1}", text=text, scale_max=top)
                for i, (text, top) in enumerate(questions)
            )
            self.surveys_[survey_id] = Survey(
                survey_id=survey_id,
                name=name,
                audience=audience,
                segment_kind=kind,
                status="open" if closes > self.today else "closed",
                launched_on=launched.isoformat(),
                closes_on=closes.isoformat(),
                questions=qs,
            )
            for _ in range(rng.randint(60, 90)):
                number += 1
                segment = rng.choice(segments)
                scores = {}
                for q in qs:
                    low = 1 if q.scale_max == 5 else 0
                    centre = (3.7 if q.scale_max == 5 else 7.6) + bias[segment] * (q.scale_max / 5)
                    score = round(rng.gauss(centre, q.scale_max * 0.22))
                    scores[q.question_id] = max(low, min(q.scale_max, score))
                day = launched + timedelta(
                    days=rng.randint(0, max(0, (min(closes, self.today) - launched).days))
                )
                response_id = f"RSP-{number:05d}"
                self.responses_[response_id] = SurveyResponse(
                    response_id=response_id,
                    survey_id=survey_id,
                    segment=segment,
                    submitted_on=min(day, self.today - timedelta(days=1)).isoformat(),
                    scores=scores,
                )

    def experiments(self) -> None:
        rng = self.rng
        ids = sorted(self.people_)
        numbers = rng.sample(range(300, 1000), len(data.EXPERIMENTS))
        for number, (name, metric, rate) in zip(numbers, data.EXPERIMENTS, strict=True):
            experiment_id = f"EXP-{number}"
            variants = (
                ("control", "treatment")
                if rng.random() < 0.6
                else ("control", "treatment_a", "treatment_b")
            )
            status = rng.choice(data.EXPERIMENT_STATUSES)
            start = self.today - timedelta(days=rng.randint(15, 60))
            end = start + timedelta(days=rng.randint(10, 14)) if status == "completed" else None
            self.experiments_[experiment_id] = Experiment(
                experiment_id=experiment_id,
                name=name,
                metric=metric,
                status=status,
                owner_id=rng.choice(ids),
                variants=variants,
                start_date=start.isoformat(),
                end_date=end.isoformat() if end is not None else None,
                platform_as_of=stamp(self.epoch - timedelta(minutes=rng.randint(5, 40))),
                analytics_as_of=stamp(self.epoch - timedelta(minutes=rng.randint(45, 180))),
                warehouse_as_of=stamp(self.epoch.replace(hour=4, minute=rng.randint(0, 59))),
            )
            base_visitors = rng.randint(6000, 45000)
            for variant in variants:
                lift = 0.0 if variant == "control" else rng.uniform(-0.12, 0.25)
                visitors = round(base_visitors * rng.uniform(0.97, 1.03))
                conversions = max(1, round(visitors * rate * (1 + lift) * rng.uniform(0.95, 1.05)))
                self.variants_[variant_key(experiment_id, variant)] = VariantStats(
                    experiment_id=experiment_id,
                    variant=variant,
                    visitors=visitors,
                    conversions=conversions,
                )


def _kpi_round(value: float, unit: str) -> float:
    if unit in ("users", "signups", "tickets"):
        return float(round(value))
    if unit == "usd":
        return round(value, 2) if value < 10_000 else float(round(value))
    return round(value, 1)
