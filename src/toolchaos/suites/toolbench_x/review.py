"""Human review of ToolBench-X tasks: review records, agreement, samples, and the build stage.

A reviewer looks at a task (``toolchaos review show``) and records a verdict (``accept``,
``revise`` or ``remove``) and the hazard category they see, one JSON line per review
(:class:`Review`). A second review of the same task by the same reviewer supersedes the
first: the file is only ever appended to, and readers keep each reviewer's last word
(:func:`current_reviews`), so nothing a reviewer wrote is lost and the first verdicts
stay available for the *initial* agreement.

Shipped task ids are assigned at the end of a build, so a review names its task by a
content key as well (:func:`content_key`), and the next build matches on that key: every
task a reviewer removed is dropped in the build's ``review`` stage (:func:`apply_reviews`),
before the per-cell cap, so another candidate of the same cell takes its place. The
build reads the reviews in :data:`REVIEWS_FILE` (absent: no task is removed).
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from toolchaos.core.errors import BadInput
from toolchaos.core.types import HazardFamily, TaskSpec
from toolchaos.stats.agreement import Rate, cohen, wilson
from toolchaos.suites.base import stratified_order
from toolchaos.suites.toolbench_x.generate import normalized_prompt

REVIEWS_FILE = Path(
    str(resources.files("toolchaos.suites.toolbench_x").joinpath("data", "reviews.jsonl"))
)
"""The reviews the build applies: merge reviewers' files here to drop removed tasks."""

KEY_VERSION = "p1"
"""Names how :func:`content_key` is computed, so a key made another way never matches."""


class Verdict(StrEnum):
    """What a reviewer decides about a task."""

    ACCEPT = "accept"
    REVISE = "revise"
    REMOVE = "remove"


VERDICTS: tuple[str, ...] = tuple(v.value for v in Verdict)
CATEGORIES: tuple[str, ...] = tuple(f.value for f in HazardFamily)


class Review(BaseModel):
    """One reviewer's verdict on one task, as stored (one JSON line).

    ``key`` is the task's :func:`content_key`, what the next build matches on;
    ``task_id`` is the id the reviewer saw, ``dataset`` and ``dataset_sha256`` name the
    task file it came from. ``category`` is the hazard family the reviewer assigns to
    what the task does, whatever the task's own label says.
    """

    model_config = ConfigDict(extra="forbid")

    reviewer: str = Field(min_length=1, max_length=80)
    task_id: str = Field(min_length=1)
    key: str = Field(min_length=1)
    dataset: str
    dataset_sha256: str
    verdict: Verdict
    category: HazardFamily
    note: str = ""

    @field_validator("reviewer")
    @classmethod
    def _one_line_name(cls, value: str) -> str:
        if value != value.strip() or any(c in value for c in "\r\n\t,"):
            raise ValueError("a reviewer name is one word or phrase without commas or tabs")
        return value


class DropLog(Protocol):
    """Where a build stage records what it dropped (the build report)."""

    def drop(self, stage: str, task: str, reason: str) -> None:
        """Record one drop."""


def content_key(task: TaskSpec) -> str:
    """A key for ``task`` that survives a rebuild: a hash of its normalized prompt.

    Ids are numbered at the end of a build, but a prompt is unique in a build (the screen
    drops repeats) and its normalized form (lower-case words) does not change when a
    hazard rewrites an id's case in it, so the key of a shipped task equals the key of
    the candidate it was built from. A template change that rewrites the prompt makes a
    new task, which needs a new review.
    """
    digest = hashlib.sha256(normalized_prompt(task.prompt).encode("utf-8")).hexdigest()
    return f"{KEY_VERSION}-{digest[:20]}"


def task_logic(task: TaskSpec) -> str:
    """The template logic a task's metadata names (``template`` x ``shape``), if any."""
    parts = [str(task.metadata[k]) for k in ("template", "shape") if task.metadata.get(k)]
    return " x ".join(parts) or str(task.metadata.get("logic", ""))


def parse_verdict(value: str) -> Verdict:
    """A verdict from what a reviewer typed (``accept``, ``revise`` or ``remove``)."""
    try:
        return Verdict(value.strip().lower())
    except ValueError:
        raise BadInput(f"unknown verdict {value!r}; give one of {', '.join(VERDICTS)}") from None


def parse_category(value: str) -> HazardFamily:
    """A hazard family from what a reviewer typed (``-``, spaces and case do not matter)."""
    name = "_".join(value.strip().lower().replace("-", " ").split())
    try:
        return HazardFamily(name)
    except ValueError:
        raise BadInput(
            f"unknown hazard category {value!r}; give one of {', '.join(CATEGORIES)}"
        ) from None


def make_review(
    task: TaskSpec,
    reviewer: str,
    verdict: Verdict,
    category: HazardFamily,
    note: str,
    dataset: str,
    dataset_sha256: str,
) -> Review:
    """A review of ``task`` from the task file ``dataset`` (its SHA-256 given).

    Raises:
        BadInput: the reviewer's name or the note is not acceptable.
    """
    try:
        return Review(
            reviewer=reviewer,
            task_id=task.id,
            key=content_key(task),
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
    """The content keys some reviewer's current verdict removes, with those reviews."""
    out: dict[str, list[Review]] = {}
    for review in current_reviews(reviews):
        if review.verdict is Verdict.REMOVE:
            out.setdefault(review.key, []).append(review)
    return out


def removed_task_keys(path: Path) -> set[str]:
    """The content keys of the tasks the reviews in ``path`` remove.

    A task is removed when any reviewer's last verdict on it is ``remove``; a reviewer
    who changes their mind records again.
    """
    return set(removals(read_reviews(path)))


def apply_reviews(
    tasks: Sequence[TaskSpec], reviews: Iterable[Review], report: DropLog
) -> list[TaskSpec]:
    """The build's ``review`` stage: drop every task a reviewer removed.

    Each drop goes into ``report`` with the reviewer, the id they reviewed, the category
    they gave and their note.
    """
    removed = removals(reviews)
    kept = []
    for task in tasks:
        found = removed.get(content_key(task))
        if not found:
            kept.append(task)
            continue
        why = "; ".join(
            f"removed by {r.reviewer} (reviewed as {r.task_id}, category {r.category.value})"
            + (f": {r.note}" if r.note else "")
            for r in found
        )
        report.drop("review", task.id, why)
    return kept


# -- agreement between two reviewers ------------------------------------------------------


class Disagreement(BaseModel):
    """A task two reviewers judged differently."""

    task_id: str
    key: str
    verdicts: tuple[str, str]
    categories: tuple[str, str]


class Agreement(BaseModel):
    """How two reviewers agree over the tasks both reviewed.

    ``confusion[i][j]`` counts tasks reviewer A gave ``labels[i]`` and B ``labels[j]``.
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
    disagreements: list[Disagreement]


def reviewers(reviews: Iterable[Review]) -> list[str]:
    """The reviewers of a review file, in order of first appearance."""
    return list(dict.fromkeys(r.reviewer for r in reviews))


def agreement(
    reviews: Sequence[Review], pair: tuple[str, str] | None = None, initial: bool = False
) -> Agreement:
    """Agreement of two reviewers on verdict and hazard category, over shared tasks.

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
    cats_a, cats_b = [r.category.value for r in a], [r.category.value for r in b]
    cells = Counter(zip(verdicts_a, verdicts_b, strict=True))
    return Agreement(
        reviewers=(first, second),
        initial=initial,
        n=len(shared),
        verdict=wilson(sum(x == y for x, y in zip(verdicts_a, verdicts_b, strict=True)), len(a)),
        verdict_kappa=cohen(verdicts_a, verdicts_b),
        category=wilson(sum(x == y for x, y in zip(cats_a, cats_b, strict=True)), len(a)),
        category_kappa=cohen(cats_a, cats_b),
        confusion=[[cells[(x, y)] for y in VERDICTS] for x in VERDICTS],
        disagreements=[
            Disagreement(
                task_id=ra.task_id,
                key=ra.key,
                verdicts=(ra.verdict.value, rb.verdict.value),
                categories=(ra.category.value, rb.category.value),
            )
            for ra, rb in zip(a, b, strict=True)
            if (ra.verdict, ra.category) != (rb.verdict, rb.category)
        ],
    )


# -- what to review -----------------------------------------------------------------------


def review_order(tasks: Sequence[TaskSpec], seed: int) -> list[TaskSpec]:
    """Every task in a seeded order stratified by workflow type and hazard family.

    Any prefix of the order is spread over the (workflow, family) strata as evenly as
    their sizes allow, so a sample, or a review stopped halfway, stays balanced.
    """
    return stratified_order(list(tasks), _stratum, seed)


def _stratum(task: TaskSpec) -> tuple[str, str]:
    return task.workflow, task.hazard.family.value if task.hazard else "none"


def sample_text(tasks: Sequence[TaskSpec], n: int, seed: int, dataset: str) -> str:
    """A sample file: ``n`` task ids for double review, in stratified order.

    Lines starting with ``#`` say how the sample was drawn; every other line is one id.

    Raises:
        BadInput: ``n`` is not between 1 and the number of tasks.
    """
    if not 1 <= n <= len(tasks):
        raise BadInput(f"--n must be between 1 and {len(tasks)} (the tasks in the file), not {n}")
    chosen = review_order(tasks, seed)[:n]
    strata = Counter(_stratum(t) for t in chosen)
    head = [
        f"# toolchaos review sample: {n} of {len(tasks)} tasks, seed {seed}, "
        f"stratified by workflow type and hazard family ({len(strata)} strata, "
        f"{min(strata.values())}-{max(strata.values())} tasks each)",
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
    order: Sequence[TaskSpec], reviews: Iterable[Review], reviewer: str
) -> TaskSpec | None:
    """The first task of ``order`` that ``reviewer`` has not reviewed (None: all done)."""
    done = reviewed_keys(reviews, reviewer)
    return next((t for t in order if content_key(t) not in done), None)
