"""Notes and documents: finding docs, word counts and reading time, writing new notes."""

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

NOTE_BODIES = (
    "Agreed to ship the beta on Friday. Owners confirmed for QA and docs.",
    "Decisions: freeze scope this sprint, move analytics work to next sprint, review risks weekly.",
    "Client asked for weekly status mails and a shared tracker. Next call in two weeks.",
    "Retro: deploys were smooth, on-call load too high, we will add alerts and a runbook.",
    "Open questions on data retention remain; legal to reply by end of month.",
)
NOTE_TITLES = ("Sync notes", "Decision log", "Client follow-up", "Retro summary", "Open questions")


def _unique_doc(ctx: TemplateContext, where: Any = None) -> Any:
    doc = ctx.pick("documents", where)
    if ctx.read("search_documents", query=doc.title)["total"] != 1:
        raise NoFit(f"{doc.title!r} is not a unique title")
    return doc


def doc_project_hours(ctx: TemplateContext) -> Draft:
    """Sequential: a document -> its project -> hours logged on that project."""
    doc = _unique_doc(ctx)
    proj = ctx.world.table("projects")[doc.project_id]
    if proj.status == "completed":
        raise NoFit("no recent hours on a completed project")
    field = ctx.rng.choice(["logged_hours", "billable_hours"])
    if field == "billable_hours" and proj.billable_rate_usd == 0:
        field = "logged_hours"
    since = iso(ctx, -ctx.rng.choice([7, 14, 21]))
    words = {"logged_hours": "hours were logged", "billable_hours": "billable hours were logged"}[
        field
    ]
    prompt = ctx.say(
        "The document '{title}' belongs to some project. How many {words} on that project "
        "since {since}?",
        "Open '{title}', see which project it's filed under, and tell me how many {words} "
        "there from {since} to today.",
        title=doc.title,
        words=words,
        since=when(since),
    )
    steps = [
        RefStep(tool="search_documents", args={"query": doc.title}),
        RefStep(tool="list_projects", args={"query": ref(0, "results", 0, "project_name")}),
        RefStep(
            tool="get_project_hours",
            args={"project": ref(1, "results", 0, "project_id"), "from_date": since},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def doc_project_owner(ctx: TemplateContext) -> Draft:
    """Sequential: a document -> its project -> the owner's timesheet or open task estimate."""
    doc = _unique_doc(ctx)
    proj = ctx.world.table("projects")[doc.project_id]
    ask = ctx.rng.choice(["timesheet", "backlog"])
    if ask == "timesheet":
        start, end = iso(ctx, -ctx.rng.choice([7, 14])), iso(ctx, -1)
        span = {"from_date": start, "to_date": end}
        if ctx.read("timesheet_summary", person=proj.owner_id, **span)["total_hours"] == 0:
            raise NoFit("the owner logged nothing")
        question = "how many hours did that project's owner log from {start} to {end}"
        last = RefStep(
            tool="timesheet_summary", args={"person": ref(1, "results", 0, "owner_id"), **span}
        )
        field, values = "total_hours", {"start": when(start), "end": when(end)}
    else:
        try:
            ctx.read(
                "task_estimate_total",
                project_id=proj.project_id,
                assignee_id=proj.owner_id,
                status="todo",
            )
        except ToolError:
            raise NoFit("the owner has no to-do task there") from None
        question = "how many estimated hours of to-do tasks does that project's owner hold in it"
        last = RefStep(
            tool="task_estimate_total",
            args={
                "project_id": ref(1, "results", 0, "project_id"),
                "assignee_id": ref(1, "results", 0, "owner_id"),
                "status": "todo",
            },
        )
        field, values = "total_estimate_hours", {}
    prompt = ctx.say(
        "'{title}' is filed under some project: " + question + "?",
        "Look up which project the document '{title}' belongs to and who owns it; "
        + question
        + "?",
        title=doc.title,
        **values,
    )
    steps = [
        RefStep(tool="search_documents", args={"query": doc.title}),
        RefStep(tool="list_projects", args={"query": ref(0, "results", 0, "project_name")}),
        last,
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def write_notes_in_author_project(ctx: TemplateContext) -> Draft:
    """Sequential, writes: person -> their documents of a kind -> new notes in that project."""
    kind = ctx.rng.choice(["spec", "plan", "report", "runbook"])
    authors = {d.author_id for d in ctx.rows("documents", lambda d: d.kind == kind)}
    who = person(ctx, lambda u: u.person_id in authors)
    docs = ctx.read("search_documents", author=who.person_id, kind=kind)["results"]
    proj = ctx.world.table("projects")[docs[0]["project_id"]]
    title = f"{ctx.rng.choice(NOTE_TITLES)} {iso(ctx, 0)}"
    taken = {
        d.title.casefold() for d in ctx.rows("documents", lambda d: d.project_id == proj.project_id)
    }
    if title.casefold() in taken:
        raise NoFit("title taken")
    body = ctx.rng.choice(NOTE_BODIES)
    prompt = ctx.say(
        "{name} wrote a {kind} document; the first one alphabetically belongs to a project. "
        "In that same project, save meeting notes by {name} titled '{title}' with this text: "
        '"{body}"',
        "Create a meeting-notes doc called '{title}' written by {name}, in the project of "
        '{name}\'s first {kind} document (sorted by title). Body: "{body}"',
        name=who.name,
        kind=kind,
        title=title,
        body=body,
    )
    steps = [
        RefStep(tool="search_people", args={"query": who.name}),
        RefStep(
            tool="search_documents",
            args={"author": ref(0, "results", 0, "person_id"), "kind": kind},
        ),
        RefStep(
            tool="create_document",
            args={
                "title": title,
                "project": ref(1, "results", 0, "project_id"),
                "author": ref(1, "results", 0, "author_id"),
                "kind": "meeting_notes",
                "body": body,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def three_docs_reading(ctx: TemplateContext) -> Draft:
    """Parallel: three to six documents by title; total or longest reading time or words."""
    docs: list[Any] = []
    for _ in range(ctx.count(3, 6)):
        docs.append(_unique_doc(ctx, lambda d, got=tuple(docs): d not in got))
    field, op, question = ctx.rng.choice(
        [
            ("reading_minutes", "sum", "how many minutes of reading is that in total"),
            ("reading_minutes", "max", "how long does the longest one take to read, in minutes"),
            ("word_count", "sum", "how many words do they have altogether"),
            ("word_count", "min", "what's the word count of the shortest one"),
        ]
    )
    prompt = ctx.say(
        "Before the review I have to read {titles}. {q}?",
        "Reading list: {titles}. {q}?",
        titles=listing([d.title for d in docs], "'"),
        q=question.capitalize(),
    )
    steps = [RefStep(tool="search_documents", args={"query": d.title}) for d in docs]
    refs = [[i, "results", 0, field] for i in range(len(docs))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def words_by_kind(ctx: TemplateContext) -> Draft:
    """Mixture: project -> total words of two to four document kinds -> sum or max."""
    proj = project(ctx)
    kinds = sorted(
        {d.kind for d in ctx.rows("documents", lambda d: d.project_id == proj.project_id)}
    )
    if len(kinds) < 2:
        raise NoFit("fewer than two kinds")
    chosen = sorted(ctx.rng.sample(kinds, ctx.count(2, min(4, len(kinds)))))
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "How many words are there across those kinds together?",
        "max": (
            "Which kind has the most words in total, and how many words is that? The number "
            "is enough."
        ),
    }[op]
    labels = [k.replace("_", " ") for k in chosen]
    prompt = ctx.say(
        "For {project}, count the words in each of its {kinds} documents. " + question,
        "Word counts in {project}, per kind of document: {versus}. " + question,
        project=proj.name,
        kinds=listing(labels),
        versus=" versus ".join(f"{k} docs" for k in labels),
    )
    steps = [RefStep(tool="list_projects", args={"query": proj.name})]
    steps += [
        RefStep(
            tool="word_count_total",
            args={"project_id": ref(0, "results", 0, "project_id"), "kind": k},
        )
        for k in chosen
    ]
    span = range(1, 1 + len(chosen))
    return Draft(prompt, steps, combined(op, "total_words", span, digits=None))


def hours_behind_two_docs(ctx: TemplateContext) -> Draft:
    """Mixture: two to four documents -> each one's project hours -> combined or largest."""
    docs = [_unique_doc(ctx)]
    for _ in range(ctx.count(2, 4) - 1):
        taken = {d.project_id for d in docs}
        docs.append(_unique_doc(ctx, lambda d, taken=taken: d.project_id not in taken))
    k = len(docs)
    since = iso(ctx, -ctx.rng.choice([7, 14]))
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "how many hours were logged on those projects combined",
        "max": "what's the most hours logged on any one of those projects",
    }[op]
    prompt = ctx.say(
        "{titles} come from {n} different projects. Since {since}, {q}?",
        "Take the projects behind {titles}. From {since} until today, {q}?",
        titles=listing([d.title for d in docs], "'"),
        n=k,
        since=when(since),
        q=question,
    )
    steps = [RefStep(tool="search_documents", args={"query": d.title}) for d in docs]
    found = [ref(i, "results", 0, "project_id") for i in range(k)]
    steps += one_per("get_project_hours", "project", found, from_date=since)
    ids = [d.project_id for d in docs]
    if min(project_hours(ctx, ids, "logged_hours", from_date=since)) == 0:
        raise NoFit("a project without hours")
    return Draft(prompt, steps, combined(op, "logged_hours", range(k, 2 * k)))


SUBTOPIC = Subtopic(
    name="notes and documents",
    templates={
        "sequential": [doc_project_hours, write_notes_in_author_project, doc_project_owner],
        "parallel": [three_docs_reading],
        "mixture": [words_by_kind, hours_behind_two_docs],
    },
)
