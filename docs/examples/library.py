"""Worked example from docs/extending.md: a domain, a subtopic and a hazard variant.

A tiny library domain (books and loans), one subtopic with a sequential, a parallel and
a mixture template, and a new output-drift variant ("title_case") with its proposer,
recovery action and hints. Being one module outside the package, it lists its subtopics in
``SUBTOPICS`` next to its ``DOMAIN``, so the one registry line of the domain registers
them too (a domain in the package puts them in its template package instead).
tests/docs/test_examples.py adds that line and checks that the build validates every task.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Self

from toolchaos.ext import (
    AnswerSpec,
    Domain,
    Draft,
    Hazard,
    HazardContext,
    HazardFamily,
    NoFit,
    PendingCall,
    Proposal,
    RecoveryStep,
    RefStep,
    Results,
    Row,
    Subtopic,
    TaskSpec,
    TemplateContext,
    ToolError,
    ToolKind,
    World,
    lookup,
    ref,
    register_hazard,
    tool,
    tool_map,
)

# -- 1. a domain: a world and its tools ------------------------------------------------------


class Book(Row):
    """One book."""

    book_id: str
    title: str
    author: str
    pages: int
    shelf: str


class Loan(Row):
    """One loan of a book to a reader."""

    loan_id: str
    book_id: str
    reader: str


class LibraryWorld(World):
    """Books and loans, built from a seed."""

    TABLES: ClassVar[tuple[str, ...]] = ("books", "loans")
    books: dict[str, Book]
    loans: dict[str, Loan]

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Twenty books with seeded page counts and shelves."""
        words = ["River", "Stone", "Lantern", "Harbor", "Meadow", "Ember", "Quiet", "North"]
        books = {}
        for i in range(20):
            book_id = f"B-{100 + i}"
            title = f"The {rng.choice(words)} {rng.choice(words)} {i}"
            books[book_id] = Book(
                book_id=book_id,
                title=title,
                author=rng.choice(["A. Moreau", "K. Osei", "L. Varga", "M. Sato"]),
                pages=rng.randint(120, 900),
                shelf=rng.choice(["A1", "B2", "C3"]),
            )
        return cls(seed=seed, books=books, loans={})


get_book = lookup(
    "get_book",
    "books",
    "book_id",
    "Book",
    "Get one book: title, author, pages, shelf.",
    "The book id, e.g. 'B-101'.",
)


@tool(kind=ToolKind.WRITE)
def lend_book(world: LibraryWorld, book_id: str, reader: str) -> dict[str, Any]:
    """Lend a book to a reader; a book already on loan cannot be lent again.

    Args:
        world: The library (given by the runtime, not part of the schema).
        book_id: The book id.
        reader: The reader's name.
    """
    if book_id not in world.books:
        raise ToolError(f"Book '{book_id}' not found", code=404, kind="not_found")
    if any(loan.book_id == book_id for loan in world.loans.values()):
        raise ToolError(f"Book '{book_id}' is already on loan", code=409, kind="conflict")
    loan_id = world.next_id("LN")
    loan = Loan(loan_id=loan_id, book_id=book_id, reader=reader)
    world.insert("loans", loan_id, loan)
    return loan.model_dump()


@tool()
def get_loan(world: LibraryWorld, loan_id: str) -> dict[str, Any]:
    """Get one loan.

    Args:
        world: The library (given by the runtime, not part of the schema).
        loan_id: The loan id.
    """
    loan = world.loans.get(loan_id)
    if loan is None:
        raise ToolError(f"Loan '{loan_id}' not found", code=404, kind="not_found")
    return loan.model_dump()


DOMAIN = Domain(
    name="library",
    topic="lifestyle and daily activities",
    world_type=LibraryWorld,
    tools=tool_map([get_book, lend_book, get_loan]),
)

# -- 2. a subtopic: one template per workflow type -------------------------------------------


def book_after_loan(ctx: TemplateContext) -> Draft:
    """Sequential: lend a book, read the loan back, look the book up again; its pages."""
    book = ctx.pick("books")
    prompt = ctx.say(
        "Please lend {b} to {r}, then tell me how many pages it has.",
        "Check {b} out for {r}; how long is it, in pages?",
        b=book.book_id,
        r=ctx.rng.choice(["Ada", "Bo", "Cy"]),
    )
    steps = [
        RefStep(tool="lend_book", args={"book_id": book.book_id, "reader": "Ada"}),
        RefStep(tool="get_loan", args={"loan_id": ref(0, "loan_id")}),
        RefStep(tool="get_book", args={"book_id": ref(1, "book_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "pages"]]), writes=True)


def total_pages(ctx: TemplateContext) -> Draft:
    """Parallel: three books looked up independently; their total page count."""
    books = ctx.sample("books", 3)
    ids = [b.book_id for b in books]
    prompt = ctx.say(
        "How many pages do {a}, {b} and {c} have together?", a=ids[0], b=ids[1], c=ids[2]
    )
    steps = [RefStep(tool="get_book", args={"book_id": i}) for i in ids]
    return Draft(prompt, steps, AnswerSpec(op="sum", refs=[[i, "pages"] for i in range(3)]))


def longest_title_author(ctx: TemplateContext) -> Draft:
    """Mixture: three lookups fan out, then the longest book's author is reported."""
    books = ctx.sample("books", 3)
    if len({b.pages for b in books}) < 3:
        raise NoFit("page counts must differ")
    ids = [b.book_id for b in books]
    prompt = ctx.say(
        "Which of {a}, {b} and {c} is longest? Who wrote it?", a=ids[0], b=ids[1], c=ids[2]
    )
    steps = [RefStep(tool="get_book", args={"book_id": i}) for i in ids]
    answer = AnswerSpec(
        op="argmax",
        refs=[[i, "pages"] for i in range(3)],
        labels=[ref(i, "author") for i in range(3)],
    )
    return Draft(prompt, steps, answer)


# Their domain and its topic come from DOMAIN when ToolBench-X loads them.
SUBTOPICS = [
    Subtopic(
        name="library loans",
        templates={
            "sequential": [book_after_loan],
            "parallel": [total_pages],
            "mixture": [longest_title_author],
        },
    )
]

# -- 3. a hazard variant ------------------------------------------------------------------------


@register_hazard
class TitleCaseKeys(Hazard):
    """Output drift: every result key comes back in Title Case ("Pages", "Author")."""

    family: ClassVar[HazardFamily] = HazardFamily.OUTPUT_DRIFT
    variant: ClassVar[str] = "title_case_keys"
    summary: ClassVar[str] = "result keys change case"
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may capitalize its field names. Match them ignoring case.",
        "Reliability notice. Responses from {tool} may spell every field name in Title "
        "Case, for example 'Pages' for the documented 'pages'. The values are unchanged; "
        "read the fields without regard to case.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """It fits where the answer reads a field of a library tool's result."""
        if task.domain != "library":
            return []
        out = []
        for path in task.reference.answer_spec.refs:
            field = str(path[-1])
            # the recipe reuses the shared ``normalize`` action: rename the key back
            recipe = [RecoveryStep(action="normalize", params={"rename": {field.title(): field}})]
            tool_name = task.reference.steps[int(path[0])].tool
            out.append(cls.proposal(tool_name, {"field": field}, recipe))
        return out

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Rename every top-level key to Title Case."""
        if not self.fires(call.tool, call.ordinal) or not isinstance(result, dict):
            return result
        self.log(ctx, call.tool, call.ordinal, "keys in Title Case")
        return {k.title(): v for k, v in result.items()}
