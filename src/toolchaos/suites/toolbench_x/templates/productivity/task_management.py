"""Task management: who works on what, open effort per project, adding and moving tasks."""

from __future__ import annotations

from typing import Any

from toolchaos.core.errors import ToolError
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
    project,
    project_hours,
)

OPEN = ("todo", "in_progress", "blocked")
NEW_TASKS = (
    "Prepare client demo",
    "Write release notes",
    "Triage bug backlog",
    "Update onboarding checklist",
    "Plan load test",
    "Clean up feature flags",
    "Review security findings",
)


def _new_title(ctx: TemplateContext, proj: Any) -> str:
    """One of NEW_TASKS that no task of ``proj`` is titled yet."""
    taken = {
        t.title.casefold() for t in ctx.rows("tasks", lambda t: t.project_id == proj.project_id)
    }
    title: str = ctx.rng.choice([t for t in NEW_TASKS if t.casefold() not in taken])
    return title


def urgent_task_project_hours(ctx: TemplateContext) -> Draft:
    """Sequential: person -> their tasks of a priority -> hours logged on that task's project."""
    priority = ctx.rng.choice(["urgent", "high"])
    holders = {t.assignee_id for t in ctx.rows("tasks", lambda t: t.priority == priority)}
    who = person(ctx, lambda u: u.person_id in holders)
    tasks = ctx.read("list_tasks", assignee=who.person_id, priority=priority)["results"]
    if not tasks:
        raise NoFit("no task of that priority")
    field = ctx.rng.choice(["logged_hours", "billable_hours"])
    if field == "billable_hours":
        rate = ctx.world.table("projects")[tasks[0]["project_id"]].billable_rate_usd
        if rate == 0:
            raise NoFit("an internal project has no billable hours")
    words = {"logged_hours": "hours in total", "billable_hours": "billable hours"}[field]
    prompt = ctx.say(
        "Find {name}'s {priority}-priority task that is due soonest. How many {words} have "
        "been logged so far on the project it belongs to?",
        "{name} has some {priority} tasks. Take the one with the earliest due date and tell "
        "me the {words} logged to date on its project.",
        "Which project holds the earliest-due {priority} task assigned to {name}? I need "
        "the all-time {words} recorded on that project.",
        name=who.name,
        priority=priority,
        words=words,
    )
    steps = [
        RefStep(tool="search_people", args={"query": who.name}),
        RefStep(
            tool="list_tasks",
            args={"assignee": ref(0, "results", 0, "person_id"), "priority": priority},
        ),
        RefStep(tool="get_project_hours", args={"project": ref(1, "results", 0, "project_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def _urgent_task_holder(ctx: TemplateContext) -> tuple[Any, str, dict[str, Any]]:
    """A person found first by name, a priority, and their earliest-due task of it."""
    priority = ctx.rng.choice(["urgent", "high"])
    holders = {t.assignee_id for t in ctx.rows("tasks", lambda t: t.priority == priority)}
    who = person(ctx, lambda u: u.person_id in holders)
    tasks = ctx.read("list_tasks", assignee=who.person_id, priority=priority)["results"]
    if not tasks:
        raise NoFit("no task of that priority")
    return who, priority, tasks[0]


def _first_task_steps(who: Any, priority: str) -> list[RefStep]:
    return [
        RefStep(tool="search_people", args={"query": who.name}),
        RefStep(
            tool="list_tasks",
            args={"assignee": ref(0, "results", 0, "person_id"), "priority": priority},
        ),
    ]


def urgent_task_owner_hours(ctx: TemplateContext) -> Draft:
    """Sequential: person -> earliest-due task of a priority -> its project -> owner's hours."""
    who, priority, task = _urgent_task_holder(ctx)
    owner = ctx.world.table("projects")[task["project_id"]].owner_id
    start, end = iso(ctx, -ctx.rng.choice([7, 14, 21])), iso(ctx, -1)
    field, words = ctx.rng.choice(
        [("total_hours", "hours in total"), ("billable_hours", "billable hours")]
    )
    span = {"from_date": start, "to_date": end}
    if ctx.read("timesheet_summary", person=owner, **span)[field] == 0:
        raise NoFit("the owner logged nothing")
    prompt = ctx.say(
        "{name}'s {priority}-priority task that is due soonest sits in some project. How many "
        "{words} did that project's owner log from {start} to {end}?",
        "Find the earliest-due {priority} task assigned to {name}, then whoever owns its "
        "project: what are that owner's {words} between {start} and {end}?",
        name=who.name,
        priority=priority,
        words=words,
        start=when(start),
        end=when(end),
    )
    steps = _first_task_steps(who, priority)
    steps += [
        RefStep(tool="list_projects", args={"query": ref(1, "results", 0, "project_name")}),
        RefStep(
            tool="timesheet_summary",
            args={"person": ref(2, "results", 0, "owner_id"), **span},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, field]], round=2))


def urgent_task_project_backlog(ctx: TemplateContext) -> Draft:
    """Sequential: person -> earliest-due task of a priority -> its project's open estimate."""
    who, priority, task = _urgent_task_holder(ctx)
    status = ctx.rng.choice(["todo", "in_progress"])
    try:
        ctx.read("task_estimate_total", project_id=task["project_id"], status=status)
    except ToolError:
        raise NoFit("no task in that status") from None
    words = {"todo": "still to do", "in_progress": "in progress"}[status]
    prompt = ctx.say(
        "Take the {priority}-priority task of {name}'s that is due soonest. On its project, "
        "how many estimated hours of work are {words}?",
        "{name}'s earliest-due {priority} task belongs to a project; add up the estimates "
        "of every task {words} there, in hours.",
        name=who.name,
        priority=priority,
        words=words,
    )
    steps = _first_task_steps(who, priority)
    steps.append(
        RefStep(
            tool="task_estimate_total",
            args={"project_id": ref(1, "results", 0, "project_id"), "status": status},
        )
    )
    answer = AnswerSpec(op="value", refs=[[2, "total_estimate_hours"]], round=2)
    return Draft(prompt, steps, answer)


def add_task_then_start(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: project -> new task for its owner -> set it in progress."""
    proj = project(ctx, lambda p: p.status == "active")
    title = _new_title(ctx, proj)
    due = iso(ctx, ctx.rng.randint(3, 20))
    status = ctx.rng.choice(["in_progress", "blocked"])
    words = {"in_progress": "mark it as in progress", "blocked": "flag it as blocked"}[status]
    priority = ctx.rng.choice(["high", "medium", "urgent"])
    prompt = ctx.say(
        "In the {project} project, create {a_priority}-priority task '{title}' for the "
        "project owner, due {due}, then {words} right away.",
        "Please add '{title}' to {project}, assigned to whoever owns that project, priority "
        "{priority}, due on {due}. Once it exists, {words}.",
        project=proj.name,
        title=title,
        due=when(due),
        words=words,
        priority=priority,
        a_priority=f"{'an' if priority == 'urgent' else 'a'} {priority}",
    )
    steps = [
        RefStep(tool="list_projects", args={"query": proj.name}),
        RefStep(
            tool="create_task",
            args={
                "project": ref(0, "results", 0, "project_id"),
                "title": title,
                "assignee": ref(0, "results", 0, "owner_id"),
                "due_date": due,
                "priority": priority,
            },
        ),
        RefStep(tool="update_task", args={"task_id": ref(1, "task_id"), "status": status}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def next_todo_effort(ctx: TemplateContext) -> Draft:
    """Parallel: three to six people's to-do lists; total estimate of each one's earliest task."""
    want = ctx.count(3, 6)
    chosen: list[Any] = []
    for candidate in ctx.sample("people", 12):
        todo = ctx.read("list_tasks", assignee=candidate.person_id, status="todo")["results"]
        if todo:
            chosen.append(candidate)
        if len(chosen) == want:
            break
    if len(chosen) < want:
        raise NoFit("too few people with to-do tasks")
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "how many estimated hours do those tasks add up to?",
        "max": "what is the largest estimate among those tasks, in hours?",
    }[op]
    prompt = ctx.say(
        "{names} should each pick up their to-do task with the earliest due date. "
        + question.capitalize(),
        "Look at the earliest-due to-do item for each of {names}: " + question,
        names=listing([p.name for p in chosen]),
    )
    steps = [
        RefStep(tool="list_tasks", args={"assignee": p.name, "status": "todo"}) for p in chosen
    ]
    refs = [[i, "results", 0, "estimate_hours"] for i in range(len(chosen))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def hours_on_three_projects(ctx: TemplateContext) -> Draft:
    """Parallel: hours logged on three to seven projects over a window; most, least or total."""
    projects = ctx.sample("projects", ctx.count(3, 7), lambda p: p.status != "completed")
    back = ctx.rng.choice([7, 10, 14])
    since = iso(ctx, -back)
    ids = [p.project_id for p in projects]
    if min(project_hours(ctx, ids, "logged_hours", from_date=since)) == 0:
        raise NoFit("a project without hours")
    op = ctx.rng.choice(["max", "min", "sum"])
    question = {
        "max": "what's the highest hour total among them",
        "min": "what's the lowest hour total among them",
        "sum": "how many hours is that across all of them",
    }[op]
    prompt = ctx.say(
        "Staffing check on {names}: looking at hours logged since {since}, {q}?",
        "Since {since}, how much time went into {names}? Specifically, {q}?",
        names=listing([p.name for p in projects]),
        since=when(since),
        q=question,
    )
    steps = one_per("get_project_hours", "project", [p.name for p in projects], from_date=since)
    return Draft(prompt, steps, combined(op, "logged_hours", range(len(projects))))


def open_effort_in_project(ctx: TemplateContext) -> Draft:
    """Mixture: project -> estimate totals for each open status -> their sum."""
    proj = project(ctx, lambda p: p.status != "completed")
    present = {t.status for t in ctx.rows("tasks") if t.project_id == proj.project_id}
    statuses = [s for s in OPEN if s in present]
    if len(statuses) < 2:
        raise NoFit("fewer than two open statuses with tasks")
    prompt = ctx.say(
        "How much estimated work is still open in {project}? Add up the estimates of every "
        "task that is not done yet (to do, in progress or blocked), in hours.",
        "Remaining effort for the {project} project: total estimated hours of its unfinished "
        "tasks, please.",
        "I want the sum of estimate hours over all open tasks in {project}, whatever their "
        "open status.",
        project=proj.name,
    )
    steps = [RefStep(tool="list_projects", args={"query": proj.name})]
    steps += [
        RefStep(
            tool="task_estimate_total",
            args={"project_id": ref(0, "results", 0, "project_id"), "status": s},
        )
        for s in statuses
    ]
    return Draft(
        prompt, steps, combined("sum", "total_estimate_hours", range(1, 1 + len(statuses)))
    )


def assign_new_task(ctx: TemplateContext) -> Draft:
    """Mixture, writes: find a person and a project independently -> create a task."""
    proj = project(ctx, lambda p: p.status == "active")
    who = person(ctx, lambda u: u.person_id in proj.member_ids and u.person_id != proj.owner_id)
    title = _new_title(ctx, proj)
    due = iso(ctx, ctx.rng.randint(2, 25))
    estimate = ctx.rng.choice([1.5, 3.0, 4.0, 6.0, 8.0])
    prompt = ctx.say(
        "Create a task '{title}' in {project} for {name}, due {due}, estimated at {est} hours.",
        "{name} will take '{title}' on the {project} project. Put it in with a due date of "
        "{due} and an estimate of {est} h.",
        title=title,
        project=proj.name,
        name=who.name,
        due=when(due),
        est=estimate,
    )
    steps = [
        RefStep(tool="search_people", args={"query": who.name}),
        RefStep(tool="list_projects", args={"query": proj.name}),
        RefStep(
            tool="create_task",
            args={
                "project": ref(1, "results", 0, "project_id"),
                "title": title,
                "assignee": ref(0, "results", 0, "person_id"),
                "due_date": due,
                "estimate_hours": estimate,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def owner_workload(ctx: TemplateContext) -> Draft:
    """Mixture: project -> its owner's open estimate and the project's hours (fan-out)."""
    proj = project(ctx, lambda p: p.status == "active")
    todo = ctx.rows("tasks", lambda t: t.assignee_id == proj.owner_id and t.status == "todo")
    if not todo:
        raise NoFit("the owner has no to-do tasks")
    prompt = ctx.say(
        "Who owns {project}, and how many estimated hours of to-do tasks does that person "
        "have across all projects?",
        "Check the owner of the {project} project: what's the total estimate of their "
        "tasks still in 'todo' status, in hours?",
        project=proj.name,
    )
    steps = [
        RefStep(tool="list_projects", args={"query": proj.name}),
        RefStep(
            tool="task_estimate_total",
            args={"assignee_id": ref(0, "results", 0, "owner_id"), "status": "todo"},
        ),
        RefStep(
            tool="list_tasks", args={"assignee": ref(0, "results", 0, "owner_id"), "status": "todo"}
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[1, "total_estimate_hours"]], round=2))


SUBTOPIC = Subtopic(
    name="task management",
    templates={
        "sequential": [
            urgent_task_project_hours,
            add_task_then_start,
            urgent_task_owner_hours,
            urgent_task_project_backlog,
        ],
        "parallel": [next_todo_effort, hours_on_three_projects],
        "mixture": [open_effort_in_project, assign_new_task],
    },
)
