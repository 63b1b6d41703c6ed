"""Time tracking: logging hours, timesheet totals and billable amounts, project hours."""

from __future__ import annotations

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
    when,
)
from toolchaos.suites.toolbench_x.templates.productivity._helpers import (
    combined,
    iso,
    one_per,
    person,
    project_hours,
    read_each,
    weekdays_back,
)


def _loggers(ctx: TemplateContext) -> set[str]:
    return {log.person_id for log in ctx.rows("time_logs")}


def first_project_hours(ctx: TemplateContext) -> Draft:
    """Sequential: person -> timesheet over a range -> hours of its first project (all staff)."""
    who = person(ctx, lambda u: u.person_id in _loggers(ctx))
    start = iso(ctx, -ctx.rng.choice([7, 10, 14]))
    end = iso(ctx, -1)
    sheet = ctx.read("timesheet_summary", person=who.person_id, from_date=start, to_date=end)
    if not sheet["by_project"]:
        raise NoFit("nothing logged")
    field = ctx.rng.choice(["logged_hours", "billable_hours"])
    pid = sheet["by_project"][0]["project_id"]
    if field == "billable_hours" and ctx.world.table("projects")[pid].billable_rate_usd == 0:
        field = "logged_hours"
    words = {"logged_hours": "hours", "billable_hours": "billable hours"}[field]
    prompt = ctx.say(
        "{name}'s timesheet from {start} to {end} lists some projects; take the first one "
        "alphabetically. How many {words} did the whole team log on it in that period?",
        "Check what {name} worked on between {start} and {end}. For the alphabetically first "
        "of those projects, what's the team's total {words} over the same dates?",
        name=who.name,
        start=when(start),
        end=when(end),
        words=words,
    )
    steps = [
        RefStep(tool="search_people", args={"query": who.name}),
        RefStep(
            tool="timesheet_summary",
            args={"person": ref(0, "results", 0, "person_id"), "from_date": start, "to_date": end},
        ),
        RefStep(
            tool="get_project_hours",
            args={
                "project": ref(1, "by_project", 0, "project_id"),
                "from_date": ref(1, "from_date"),
                "to_date": ref(1, "to_date"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def log_on_current_task(ctx: TemplateContext) -> Draft:
    """Sequential, writes: person -> their in-progress tasks -> time logged against one.

    The user names the task by its title; its id and project come from the task list.
    """
    tasks = ctx.rows("tasks", lambda t: t.status == "in_progress")
    holders = {t.assignee_id for t in tasks}
    who = person(ctx, lambda u: u.person_id in holders)
    mine = ctx.read("list_tasks", assignee=who.person_id, status="in_progress")["results"]
    i = ctx.rng.randrange(len(mine))
    task = mine[i]
    if sum(t["title"] == task["title"] for t in mine) != 1:
        raise NoFit("two tasks share the title")
    if ctx.world.table("projects")[task["project_id"]].status == "completed":
        raise NoFit("a completed project takes no time")
    day = ctx.rng.choice(weekdays_back(ctx, 1, 6))
    hours = ctx.rng.choice([1.5, 2.0, 2.5, 3.0, 4.0])
    logged = sum(
        log.hours
        for log in ctx.rows("time_logs")
        if log.person_id == who.person_id and log.date == day
    )
    if logged + hours > 16:
        raise NoFit("too many hours that day")
    billable = ctx.world.table("projects")[task["project_id"]].billable_rate_usd > 0
    kind = "billable" if billable else "non-billable"
    prompt = ctx.say(
        "{name} spent {h} hours on {day} on their in-progress task '{title}'. Log that time "
        "against the task ({kind}).",
        "Please record {h} {kind} hours for {name} on {day}, against the task '{title}' "
        "they're working on.",
        name=who.name,
        h=f"{hours:g}",
        day=when(day),
        title=task["title"],
        kind=kind,
    )
    steps = [
        RefStep(tool="search_people", args={"query": who.name}),
        RefStep(
            tool="list_tasks",
            args={"assignee": ref(0, "results", 0, "person_id"), "status": "in_progress"},
        ),
        RefStep(
            tool="log_time",
            args={
                "person": ref(0, "results", 0, "person_id"),
                "project": ref(1, "results", i, "project_id"),
                "date": day,
                "hours": hours,
                "billable": billable,
                "task_id": ref(1, "results", i, "task_id"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def log_two_days(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: person -> log hours on one day -> same project the next day."""
    days = weekdays_back(ctx, 1, 12)
    pairs = [(a, b) for a, b in zip(days[1:], days, strict=False)]
    first, second = ctx.rng.choice(pairs)
    proj = ctx.pick("projects", lambda p: p.status == "active" and p.billable_rate_usd > 0)
    who = person(ctx, lambda u: u.person_id in proj.member_ids)
    hours = [ctx.rng.choice([1.5, 2.0, 2.5, 3.0]) for _ in range(2)]
    for day, h in zip((first, second), hours, strict=True):
        logged = sum(
            log.hours
            for log in ctx.rows("time_logs")
            if log.person_id == who.person_id and log.date == day
        )
        if logged + h > 16:
            raise NoFit("too many hours that day")
    prompt = ctx.say(
        "{name} forgot to log time on {project}: {h1} hours on {d1} and {h2} hours on {d2}, "
        "both billable. Please add both entries.",
        "Add billable time for {name} on the {project} project: {d1}, {h1} h; and {d2}, {h2} h.",
        name=who.name,
        project=proj.name,
        h1=hours[0],
        h2=hours[1],
        d1=when(first),
        d2=when(second),
    )
    steps = [
        RefStep(tool="search_people", args={"query": who.name}),
        RefStep(
            tool="log_time",
            args={
                "person": ref(0, "results", 0, "person_id"),
                "project": proj.name,
                "date": first,
                "hours": hours[0],
                "billable": True,
            },
        ),
        RefStep(
            tool="log_time",
            args={
                "person": ref(1, "person_id"),
                "project": ref(1, "project_id"),
                "date": second,
                "hours": hours[1],
                "billable": True,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def three_project_hours(ctx: TemplateContext) -> Draft:
    """Parallel: hours of three to five projects over a date range, from the timesheets."""
    projects = ctx.sample(
        "projects", ctx.count(3, 5), lambda p: p.status != "completed" and p.billable_rate_usd > 0
    )
    start, end = iso(ctx, -ctx.rng.choice([14, 21])), iso(ctx, -ctx.rng.choice([1, 3]))
    field, op, question = ctx.rng.choice(
        [
            ("billable_hours", "sum", "how many billable hours in total"),
            ("logged_hours", "max", "the largest number of hours logged on any one of them"),
            ("billable_hours", "min", "the smallest billable-hour total among them"),
        ]
    )
    span = {"from_date": start, "to_date": end}
    ids = [p.project_id for p in projects]
    if min(project_hours(ctx, ids, field, **span)) == 0:
        raise NoFit("a project without hours")
    prompt = ctx.say(
        "For the client projects {names}, between {start} and {end}: {q}?",
        "Billing prep, {start} through {end}. Across {names}, {q}?",
        names=listing([p.name for p in projects]),
        start=when(start),
        end=when(end),
        q=question,
    )
    steps = one_per("get_project_hours", "project", [p.name for p in projects], **span)
    return Draft(prompt, steps, combined(op, field, range(len(projects))))


def team_billing(ctx: TemplateContext) -> Draft:
    """Parallel: three to seven people's timesheets over a range; billed amount or hours."""
    loggers = _loggers(ctx)
    chosen = ctx.sample("people", ctx.count(3, 7), lambda u: u.person_id in loggers)
    start, end = iso(ctx, -14), iso(ctx, -1)
    field, op, question = ctx.rng.choice(
        [
            (
                "billable_amount_usd",
                "sum",
                "how much can we bill for their time in total, in US dollars",
            ),
            ("total_hours", "max", "what's the most hours any one of them logged"),
            ("billable_amount_usd", "max", "what's the highest billable amount among them (USD)"),
        ]
    )
    span = {"from_date": start, "to_date": end}
    ids = [p.person_id for p in chosen]
    if max(read_each(ctx, "timesheet_summary", field, "person", ids, **span)) == 0:
        raise NoFit("nothing billable")
    prompt = ctx.say(
        "Timesheets for {names} from {start} to {end}: {q}?",
        "Looking at {start}-{end} for {names}, {q}?",
        names=listing([p.name for p in chosen]),
        start=when(start),
        end=when(end),
        q=question,
    )
    steps = one_per("timesheet_summary", "person", [p.name for p in chosen], **span)
    return Draft(prompt, steps, combined(op, field, range(len(chosen))))


def client_hours(ctx: TemplateContext) -> Draft:
    """Mixture: list a client's projects -> hours on each -> total."""
    clients = sorted({p.client for p in ctx.rows("projects") if p.client != "Internal"})
    client = ctx.rng.choice(clients)
    projects = ctx.read("list_projects", client=client)["results"]
    if len(projects) < 2:
        raise NoFit("one project only")
    since = iso(ctx, -ctx.rng.choice([7, 14, 21]))
    field = ctx.rng.choice(["billable_hours", "logged_hours"])
    words = {"billable_hours": "billable hours", "logged_hours": "hours (billable or not)"}[field]
    prompt = ctx.say(
        "How many {w} have we logged for {client} since {since}, across all of their projects?",
        "{client} wants a summary: total {w} logged on every project we run for them, from "
        "{since} to today.",
        client=client,
        since=when(since),
        w=words,
    )
    steps = [RefStep(tool="list_projects", args={"client": client})]
    found = [ref(0, "results", i, "project_id") for i in range(len(projects))]
    steps += one_per("get_project_hours", "project", found, from_date=since)
    return Draft(prompt, steps, combined("sum", field, range(1, 1 + len(projects))))


def pair_timesheets(ctx: TemplateContext) -> Draft:
    """Mixture: look up two to four people -> each one's timesheet -> combined or largest."""
    loggers = _loggers(ctx)
    team = [person(ctx, lambda u: u.person_id in loggers)]
    for _ in range(ctx.count(2, 4) - 1):
        taken = {u.person_id for u in team}
        team.append(
            person(ctx, lambda u, taken=taken: u.person_id in loggers and u.person_id not in taken)
        )
    k = len(team)
    start, end = iso(ctx, -ctx.rng.choice([7, 14])), iso(ctx, -1)
    field, op, question = ctx.rng.choice(
        [
            ("total_hours", "sum", "how many hours did they log together"),
            ("billable_hours", "sum", "what's their combined billable time, in hours"),
            ("non_billable_hours", "max", "what's the largest of their non-billable hour totals"),
        ]
    )
    span = {"from_date": start, "to_date": end}
    ids = [u.person_id for u in team]
    if max(read_each(ctx, "timesheet_summary", field, "person", ids, **span)) == 0:
        raise NoFit("nothing to add")
    prompt = ctx.say(
        "{names} shared a workstream from {start} to {end}. {q}?",
        "Between {start} and {end}, {q} ({names})?",
        names=listing([u.name for u in team]),
        start=when(start),
        end=when(end),
        q=question.capitalize(),
    )
    steps = [RefStep(tool="search_people", args={"query": u.name}) for u in team]
    found = [ref(i, "results", 0, "person_id") for i in range(k)]
    steps += one_per("timesheet_summary", "person", found, **span)
    return Draft(prompt, steps, combined(op, field, range(k, 2 * k)))


SUBTOPIC = Subtopic(
    name="time tracking",
    templates={
        "sequential": [first_project_hours, log_two_days, log_on_current_task],
        "parallel": [three_project_hours, team_billing],
        "mixture": [client_hours, pair_timesheets],
    },
)
