"""Books and library loans: loans, renewals, late fees, holds and book ratings."""

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
from toolchaos.suites.toolbench_x.templates.media._helpers import (
    best_rated,
    listed,
    rating_ask,
)


def renew_then_fee(ctx: TemplateContext) -> Draft:
    """Sequential, writes: loans out -> renew one -> late fee if returned on a later day."""
    listed = ctx.read("list_loans", status="out")["results"]
    renewable = [
        (i, r) for i, r in enumerate(listed) if r["renewals"] < 2 and not _held(ctx, r["book_id"])
    ]
    if not renewable:
        raise NoFit("nothing to renew")
    index, loan = ctx.rng.choice(renewable)
    late = ctx.rng.randint(3, 30)
    prompt = ctx.say(
        "Please renew my library copy of '{title}'. Then, since I might be away, work out "
        "what I'd owe if I only bring it back {late} days after the new due date.",
        "Extend my loan of '{title}' and tell me the late fee if I return it {late} days "
        "past the renewed due date.",
        title=loan["title"],
        late=late,
    )
    steps = [
        RefStep(tool="list_loans", args={"status": "out"}),
        RefStep(tool="renew_loan", args={"loan_id": ref(0, "results", index, "loan_id")}),
        RefStep(tool="compute_late_fee", args={"loan_id": ref(1, "loan_id")}),
    ]
    # the return day is relative to the renewed due date, which the renewal step returns
    steps[2] = RefStep(
        tool="compute_late_fee",
        args={"loan_id": ref(1, "loan_id"), "return_date": _after(loan["due_date"], late + 14)},
    )
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def _after(iso: str, days: int) -> str:
    from datetime import date, timedelta

    return (date.fromisoformat(iso) + timedelta(days=days)).isoformat()


def _held(ctx: TemplateContext, book_id: str) -> bool:
    return any(h.book_id == book_id for h in ctx.rows("holds"))


def hold_book_rating(ctx: TemplateContext) -> Draft:
    """Sequential: my holds -> find the held book -> its rating."""
    holds = ctx.read("list_holds")["results"]
    index = ctx.rng.randrange(len(holds))
    hold = holds[index]
    ask = rating_ask(ctx, "value")
    prompt = ask.say(
        ctx,
        "Is the book I have on hold for pickup at {branch} worth the wait? Look it up "
        "in the catalogue and tell me its {source} {words}.",
        "I placed a hold at the {branch} branch. Find that book and check its {source} {words}.",
        branch=hold["pickup_branch"],
        **ask.phrases(),
    )
    if sum(h["pickup_branch"] == hold["pickup_branch"] for h in holds) != 1:
        raise NoFit("two holds at that branch")
    steps = [
        RefStep(tool="list_holds", args={}),
        RefStep(tool="search_books", args={"title_contains": ref(0, "results", index, "title")}),
    ]
    found = ctx.read("search_books", title_contains=hold["title"])["results"]
    if found[0]["book_id"] != hold["book_id"]:
        raise NoFit("title search finds another book first")
    return ask.draft(prompt, steps, [ref(1, "results", 0, "book_id")])


def fines_by_loan_id(ctx: TemplateContext) -> Draft:
    """Parallel: late fees of three to six loans returned on one day; total or largest."""
    loans = ctx.sample("loans", ctx.count(3, 6), lambda r: r.returned_on is None)
    back = ctx.day(ctx.rng.randint(1, 20))
    values = [
        ctx.read("compute_late_fee", loan_id=r.loan_id, return_date=back)["fine_usd"] for r in loans
    ]
    if sum(values) == 0:
        raise NoFit("no fee at all")
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "What will the late fees come to altogether?",
        "max": "What's the biggest single late fee among them?",
    }[op]
    prompt = ctx.say(
        "I'm returning loans {ids} to the library on {day}. " + question,
        "Library receipts say {ids}. If they all go back on {day}: " + question,
        ids=listing([r.loan_id for r in loans]),
        day=when(back),
    )
    steps = [
        RefStep(tool="compute_late_fee", args={"loan_id": r.loan_id, "return_date": back})
        for r in loans
    ]
    refs = [[i, "fine_usd"] for i in range(len(loans))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


books_rating = best_rated(
    "books_rating",
    "books",
    "book_id",
    (
        "For book club we're choosing between {titles}. What's the {word} {source} {words} "
        "among them?",
        "Check {source} for {titles}: which has the {word} {words}? Give me the number.",
    ),
    quote="'",
)


def overdue_fines_total(ctx: TemplateContext) -> Draft:
    """Mixture: overdue loans -> late fee of each if returned on a day -> total or max."""
    listed = ctx.read("list_loans", status="overdue")["results"]
    if len(listed) < 2:
        raise NoFit("fewer than two overdue loans")
    back = ctx.day(ctx.rng.randint(0, 10))
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "how much will I owe in late fees in total",
        "max": "what's the largest fee on any single book",
    }[op]
    prompt = ctx.say(
        "If I bring all my overdue library books back on {day}, " + question + "?",
        "I'll return every overdue loan on {day}. Tell me " + question + ".",
        day=when(back),
    )
    steps = [RefStep(tool="list_loans", args={"status": "overdue"})]
    steps += [
        RefStep(
            tool="compute_late_fee",
            args={"loan_id": ref(0, "results", i, "loan_id"), "return_date": back},
        )
        for i in range(len(listed))
    ]
    refs = [[1 + i, "fine_usd"] for i in range(len(listed))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def author_books_rating(ctx: TemplateContext) -> Draft:
    """Mixture: an author's books -> each one's rating -> best or worst."""
    authors = sorted({b.author for b in ctx.rows("books")})
    author = ctx.rng.choice(authors)
    found = ctx.read("search_books", author=author)["results"]
    if len(found) < 2:
        raise NoFit("one book only")
    ask = rating_ask(ctx)
    prompt = ask.say(
        ctx,
        "Which book by {author} in the library catalogue has the {word} {source} "
        "{words}? Give me the figure.",
        "Go through {author}'s books at the library and look each up on {source}. "
        "What's the {word} {words}?",
        author=author,
        **ask.phrases(),
    )
    listing = RefStep(tool="search_books", args={"author": author})
    return ask.draft(prompt, [listing], listed(len(found), "book_id"))


SUBTOPIC = Subtopic(
    name="books and library loans",
    templates={
        "sequential": [renew_then_fee, hold_book_rating],
        "parallel": [fines_by_loan_id, books_rating],
        "mixture": [overdue_fines_total, author_books_rating],
    },
)
