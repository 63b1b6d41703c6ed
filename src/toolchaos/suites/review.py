"""Human review of a suite's tasks: review records, agreement between reviewers, samples.

A reviewer looks at a task (``toolchaos review show``) and records a verdict (``accept``,
``revise`` or ``remove``) and the category they see in it (ToolBench-X: the hazard
family), one JSON line per review (:class:`Review`). A second review of the same task by
the same reviewer supersedes the first: the file is only ever appended to, and readers
keep each reviewer's last word (:func:`current_reviews`), so nothing a reviewer wrote is
lost and the first verdicts stay available for the *initial* agreement.

A review names its task by the id the reviewer saw and by the suite's content key
(:meth:`ReviewDesk.content_key`), a key that survives a rebuild of the task set, so a
suite's next build can act on it. What a suite shows a reviewer and how its build uses
the reviews are the suite's own (its :class:`ReviewDesk`); this module is what every
suite shares.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from rich.console import Console
from rich.table import Table
from rich.text import Text

from toolchaos.core.errors import BadInput
from toolchaos.stats.agreement import Rate, cohen, wilson
from toolchaos.suites.base import stratified_order

PAPER_AGREEMENT = "the ToolBench-X paper: 200 tasks double-reviewed, 91.5% initial agreement"


class Verdict(StrEnum):
    """What a reviewer decides about a task."""

    ACCEPT = "accept"
    REVISE = "revise"
    REMOVE = "remove"


VERDICTS: tuple[str, ...] = tuple(v.value for v in Verdict)


class Review(BaseModel):
    """One reviewer's verdict on one task, as stored (one JSON line).

    ``key`` is the task's content key, what a rebuild matches on; ``task_id`` is the id
    the reviewer saw, ``dataset`` and ``dataset_sha256`` name the task file it came from.
    ``category`` is the category the reviewer assigns to what the task does (one of the
    suite's :attr:`ReviewDesk.categories`), whatever the task's own label says.
    """

    model_config = ConfigDict(extra="forbid")

    reviewer: str = Field(min_length=1, max_length=80)
    task_id: str = Field(min_length=1)
    key: str = Field(min_length=1)
    dataset: str
    dataset_sha256: str
    verdict: Verdict
    category: str = Field(min_length=1)
    note: str = ""

    @field_validator("reviewer")
    @classmethod
    def _one_line_name(cls, value: str) -> str:
        if value != value.strip() or any(c in value for c in "\r\n\t,"):
            raise ValueError("a reviewer name is one word or phrase without commas or tabs")
        return value


class ReviewDesk(Protocol):
    """What ``toolchaos review`` needs from a suite whose tasks people review."""

    categories: tuple[str, ...]
    """The categories a reviewer may assign (ToolBench-X: the hazard families)."""

    def content_key(self, task: Any) -> str:
        """A key for ``task`` that the suite's next build can match."""

    def category_of(self, task: Any) -> str | None:
        """The category the task's own label gives (offered as the default)."""

    def show(self, task: Any, dataset: str, dataset_sha256: str, console: Console) -> None:
        """Draw the task as a reviewer needs it on ``console``."""

    def html(self, task: Any, dataset: str, dataset_sha256: str) -> str:
        """The same as one self-contained HTML page (task text escaped)."""


def parse_verdict(value: str) -> Verdict:
    """A verdict from what a reviewer typed (``accept``, ``revise`` or ``remove``)."""
    try:
        return Verdict(value.strip().lower())
    except ValueError:
        raise BadInput(f"unknown verdict {value!r}; give one of {', '.join(VERDICTS)}") from None


def parse_category(value: str, categories: Sequence[str]) -> str:
    """One of ``categories`` from what a reviewer typed (``-``, spaces, case do not matter)."""
    name = "_".join(value.strip().lower().replace("-", " ").split())
    if name not in categories:
        raise BadInput(f"unknown category {value!r}; give one of {', '.join(categories)}")
    return name


def make_review(
    task_id: str,
    key: str,
    reviewer: str,
    verdict: Verdict,
    category: str,
    note: str,
    dataset: str,
    dataset_sha256: str,
) -> Review:
    """A review of the task ``task_id`` (content key ``key``) of the task file ``dataset``.

    Raises:
        BadInput: the reviewer's name is not acceptable.
    """
    try:
        return Review(
            reviewer=reviewer,
            task_id=task_id,
            key=key,
            dataset=dataset,
            dataset_sha256=dataset_sha256,
            verdict=verdict,
            category=category,
            note=" ".join(note.split()),
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadInput(f"bad {where} {reviewer!r}: {first['msg']}") from None


def read_reviews(path: Path) -> list[Review]:
    """Every review stored in ``path``, in file order (none when the file is absent).

    Raises:
        BadInput: a line is not a valid review (naming the file and the line).
    """
    try:
        data = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read the review file {path}: {exc}") from None
    out: list[Review] = []
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(Review.model_validate_json(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            field = f", field {where}" if where else ""
            raise BadInput(f"{path}, line {number}{field}: {first['msg']}") from None
    return out


def append_review(path: Path, review: Review) -> None:
    """Append ``review`` to the review file at ``path`` (created if absent).

    The file is read first, so a damaged file is refused before anything is written; the
    line is written whole with one ``write`` in append mode.

    Raises:
        BadInput: the file holds a bad line or cannot be written.
    """
    read_reviews(path)
    line = review.model_dump_json() + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        needs_newline = path.is_file() and path.stat().st_size > 0 and not _ends_in_newline(path)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (("\n" if needs_newline else "") + line).encode("utf-8"))
        finally:
            os.close(fd)
    except OSError as exc:
        raise BadInput(f"cannot write the review file {path}: {exc.strerror or exc}") from None


def _ends_in_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


def current_reviews(reviews: Iterable[Review], initial: bool = False) -> list[Review]:
    """Each reviewer's word on each task: the last (or, ``initial``, the first) record.

    The result is in file order of the records kept.
    """
    chosen: dict[tuple[str, str], tuple[int, Review]] = {}
    for position, review in enumerate(reviews):
        slot = (review.reviewer, review.key)
        if initial and slot in chosen:
            continue
        chosen[slot] = (position, review)
    return [review for _, review in sorted(chosen.values(), key=lambda pair: pair[0])]


def removals(reviews: Iterable[Review]) -> dict[str, list[Review]]:
    """The content keys some reviewer's last verdict removes, with those reviews.

    A task is removed while any reviewer's last verdict on it is ``remove``; a reviewer
    who changes their mind (after adjudication, say) records again.
    """
    out: dict[str, list[Review]] = {}
    for review in current_reviews(reviews):
        if review.verdict is Verdict.REMOVE:
            out.setdefault(review.key, []).append(review)
    return out


# -- agreement between two reviewers ------------------------------------------------------


class Disagreement(BaseModel):
    """A task two reviewers judged differently."""

    task_id: str
    key: str
    verdicts: tuple[str, str]
    categories: tuple[str, str]


class Agreement(BaseModel):
    """How two reviewers agree over the tasks both reviewed.

    ``confusion[i][j]`` counts tasks reviewer A gave ``labels[i]`` and B ``labels[j]``;
    ``category_confusion`` does the same over ``category_labels`` (those either gave).
    """

    reviewers: tuple[str, str]
    initial: bool
    n: int
    verdict: Rate
    verdict_kappa: float | None
    category: Rate
    category_kappa: float | None
    labels: tuple[str, ...] = VERDICTS
    confusion: list[list[int]]
    category_labels: tuple[str, ...]
    category_confusion: list[list[int]]
    disagreements: list[Disagreement]
    datasets: list[str]
    """The SHA-256 of every task file the paired reviews were made on (one, normally)."""


def reviewers(reviews: Iterable[Review]) -> list[str]:
    """The reviewers of a review file, in order of first appearance."""
    return list(dict.fromkeys(r.reviewer for r in reviews))


def agreement(
    reviews: Sequence[Review], pair: tuple[str, str] | None = None, initial: bool = False
) -> Agreement:
    """Agreement of two reviewers on verdict and category, over the tasks both reviewed.

    Percent agreement with its 95% Wilson interval and Cohen's kappa (Cohen, 1960; see
    :mod:`toolchaos.stats.agreement`), each on the verdict and on the category; tasks
    pair up by content key. ``pair`` may be omitted when the file has two reviewers.

    Raises:
        BadInput: ``pair`` names a reviewer the file does not hold, or a reviewer twice,
            or no pair is given and the file does not hold exactly two reviewers.
    """
    known = reviewers(reviews)
    if pair is None:
        if len(known) != 2:
            names = ", ".join(known) or "none"
            raise BadInput(
                f"the review file has {len(known)} reviewers ({names}); "
                "name two with --reviewers A,B"
            )
        pair = (known[0], known[1])
    first, second = pair
    if first == second:
        raise BadInput(f"name two different reviewers, not {first!r} twice")
    for name in pair:
        if name not in known:
            raise BadInput(
                f"no review by {name!r} in the file; its reviewers are {', '.join(known)}"
            )
    current = current_reviews(reviews, initial=initial)
    by_a = {r.key: r for r in current if r.reviewer == first}
    by_b = {r.key: r for r in current if r.reviewer == second}
    shared = [key for key in by_a if key in by_b]
    a = [by_a[k] for k in shared]
    b = [by_b[k] for k in shared]
    verdicts_a, verdicts_b = [r.verdict.value for r in a], [r.verdict.value for r in b]
    cats_a, cats_b = [r.category for r in a], [r.category for r in b]
    cells = Counter(zip(verdicts_a, verdicts_b, strict=True))
    cat_cells = Counter(zip(cats_a, cats_b, strict=True))
    cat_labels = tuple(sorted({*cats_a, *cats_b}))
    return Agreement(
        reviewers=(first, second),
        initial=initial,
        n=len(shared),
        verdict=wilson(sum(x == y for x, y in zip(verdicts_a, verdicts_b, strict=True)), len(a)),
        verdict_kappa=cohen(verdicts_a, verdicts_b),
        category=wilson(sum(x == y for x, y in zip(cats_a, cats_b, strict=True)), len(a)),
        category_kappa=cohen(cats_a, cats_b),
        confusion=[[cells[(x, y)] for y in VERDICTS] for x in VERDICTS],
        category_labels=cat_labels,
        category_confusion=[[cat_cells[(x, y)] for y in cat_labels] for x in cat_labels],
        datasets=sorted({r.dataset_sha256 for r in (*a, *b)}),
        disagreements=[
            Disagreement(
                task_id=ra.task_id,
                key=ra.key,
                verdicts=(ra.verdict.value, rb.verdict.value),
                categories=(ra.category, rb.category),
            )
            for ra, rb in zip(a, b, strict=True)
            if (ra.verdict, ra.category) != (rb.verdict, rb.category)
        ],
    )


# -- what to review -----------------------------------------------------------------------


Stratum = Callable[[Any], tuple[str, str]]


def review_order(tasks: Sequence[Any], stratum: Stratum, seed: int) -> list[Any]:
    """Every task in a seeded order stratified by the suite's strata.

    ToolBench-X's strata are (workflow type, hazard family). Any prefix of the order is
    spread over the strata as evenly as their sizes allow, so a sample, or a review
    stopped halfway, stays balanced.
    """
    return stratified_order(list(tasks), stratum, seed)


def sample_text(tasks: Sequence[Any], n: int, seed: int, stratum: Stratum, dataset: str) -> str:
    """A sample file: ``n`` task ids for double review, in stratified order.

    Lines starting with ``#`` say how the sample was drawn; every other line is one id.

    Raises:
        BadInput: ``n`` is not between 1 and the number of tasks.
    """
    if not 1 <= n <= len(tasks):
        raise BadInput(f"--n must be between 1 and {len(tasks)} (the tasks in the file), not {n}")
    chosen = review_order(tasks, stratum, seed)[:n]
    strata = Counter(stratum(t) for t in chosen)
    head = [
        f"# toolchaos review sample: {n} of {len(tasks)} tasks, seed {seed}, stratified "
        f"({len(strata)} strata, {min(strata.values())}-{max(strata.values())} tasks each)",
        f"# dataset: {dataset}",
    ]
    return "\n".join([*head, *(t.id for t in chosen)]) + "\n"


def read_sample(path: Path, known: Iterable[str]) -> list[str]:
    """The task ids of a sample file, in its order.

    Raises:
        BadInput: the file cannot be read, is empty, or names a task not in ``known``.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read the sample file {path}: {exc}") from None
    ids = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    if not ids:
        raise BadInput(f"the sample file {path} names no task")
    present = set(known)
    for number, line in enumerate(lines, start=1):
        if line.strip() and not line.startswith("#") and line.strip() not in present:
            raise BadInput(f"{path}, line {number}: no task {line.strip()!r} in the task file")
    return ids


def reviewed_keys(reviews: Iterable[Review], reviewer: str) -> set[str]:
    """The content keys of the tasks ``reviewer`` has reviewed."""
    return {r.key for r in reviews if r.reviewer == reviewer}


def next_to_review(
    order: Sequence[Any], reviews: Iterable[Review], reviewer: str, key: Callable[[Any], str]
) -> Any | None:
    """The first task of ``order`` whose ``key`` ``reviewer`` has not reviewed (None: done)."""
    done = reviewed_keys(reviews, reviewer)
    return next((t for t in order if key(t) not in done), None)


# -- the agreement in the terminal ---------------------------------------------------------


def _rate(rate: Rate) -> str:
    if rate.rate is None or rate.low is None or rate.high is None:
        return "n/a (no task reviewed by both)"
    return (
        f"{100 * rate.rate:.1f}% ({rate.k}/{rate.n}), "
        f"95% Wilson interval {100 * rate.low:.1f}-{100 * rate.high:.1f}%"
    )


def _kappa(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _confusion(title: str, labels: Sequence[str], cells: list[list[int]]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("A \\ B")
    for number in range(len(labels)):
        table.add_column(f"({number + 1})", justify="right")
    for number, (label, row) in enumerate(zip(labels, cells, strict=True), start=1):
        table.add_row(Text(f"({number}) {label}"), *(str(n) for n in row))
    return table


def print_agreement(result: Agreement, console: Console) -> None:
    """Draw two reviewers' agreement: rates, kappas, both confusion tables, disagreements."""
    a, b = result.reviewers
    which = "initial: first verdicts" if result.initial else "last verdicts"
    tasks = "task" if result.n == 1 else "tasks"
    head = Text(f"A = {a}, B = {b}: {result.n} {tasks} reviewed by both ({which})")
    head.append(f"\nverdict agreement: {_rate(result.verdict)}")
    head.append(f"\nCohen's kappa on verdict: {_kappa(result.verdict_kappa)}")
    head.append(f"\ncategory agreement: {_rate(result.category)}")
    head.append(f"\nCohen's kappa on category: {_kappa(result.category_kappa)}")
    console.print(head)
    console.print(_confusion("verdicts (rows A, columns B)", result.labels, result.confusion))
    if result.category_labels:
        console.print(
            _confusion(
                "categories (rows A, columns B)",
                result.category_labels,
                result.category_confusion,
            )
        )
    count = len(result.disagreements)
    console.print(Text(f"{count} disagreement{'' if count == 1 else 's'} (verdict or category):"))
    for item in result.disagreements:
        line = Text(f"  {item.task_id}: ")
        line.append(f"A {item.verdicts[0]} / {item.categories[0]}; ")
        line.append(f"B {item.verdicts[1]} / {item.categories[1]}")
        console.print(line)
    if len(result.datasets) > 1:
        console.print(
            Text(
                f"note: the paired reviews were made on {len(result.datasets)} task files "
                "(tasks pair up by content key)",
                style="yellow",
            )
        )
    console.print(Text(f"reference: {PAPER_AGREEMENT}", style="dim"))
