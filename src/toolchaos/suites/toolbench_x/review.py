"""Human review of ToolBench-X: the content key and the build's review stage.

The records, the agreement between reviewers and the samples are shared by every suite
(:mod:`toolchaos.suites.review`); what a reviewer sees is ``review_view.py``; what is
left is here. Shipped task ids are assigned at the end of a build, so a review names its
task by a content key as well (:func:`content_key`), and the next build matches on that
key: the build's ``review`` stage (:func:`review_stage`) drops every candidate whose task
a reviewer removed, right after generation, so another candidate of the same cell takes
its place at the cap. The build reads the reviews in :data:`REVIEWS_FILE` (absent: no
task is removed).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Protocol, TypeVar

from toolchaos.core.types import HazardFamily, TaskSpec
from toolchaos.suites.review import Review, read_reviews, removals
from toolchaos.suites.toolbench_x.generate import Candidate, normalized_prompt

REVIEWS_FILE = Path(
    str(resources.files("toolchaos.suites.toolbench_x").joinpath("data", "reviews.jsonl"))
)
"""The reviews the build applies: merge reviewers' files here to drop removed tasks."""

KEY_VERSION = "p1"
"""Names how :func:`content_key` is computed, so a key made another way never matches."""

CATEGORIES: tuple[str, ...] = tuple(f.value for f in HazardFamily)
"""What a reviewer may call a ToolBench-X task: one of the five hazard families."""


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
    return prompt_key(task.prompt)


def prompt_key(prompt: str) -> str:
    """The content key of a task or candidate with this prompt (see :func:`content_key`)."""
    digest = hashlib.sha256(normalized_prompt(prompt).encode("utf-8")).hexdigest()
    return f"{KEY_VERSION}-{digest[:20]}"


def task_logic(task: TaskSpec) -> str:
    """The template logic a task's metadata names (``template`` x ``shape``), if any."""
    parts = [str(task.metadata[k]) for k in ("template", "shape") if task.metadata.get(k)]
    return " x ".join(parts) or str(task.metadata.get("logic", ""))


def removed_task_keys(path: Path) -> set[str]:
    """The content keys of the tasks the reviews in ``path`` remove.

    A task is removed when any reviewer's last verdict on it is ``remove``; a reviewer
    who changes their mind records again.
    """
    return set(removals(read_reviews(path)))


def apply_reviews(
    tasks: Sequence[TaskSpec], reviews: Iterable[Review], report: DropLog
) -> list[TaskSpec]:
    """Drop every task a reviewer removed, each drop in ``report`` with its reason.

    The reason names the reviewer, the id they reviewed, the category they gave and
    their note.
    """
    return _drop_removed(tasks, lambda t: (t.prompt, t.id), reviews, report)


def review_stage(
    candidates: Sequence[Candidate], path: Path | None, report: DropLog
) -> list[Candidate]:
    """The build's ``review`` stage: drop the candidates whose task a reviewer removed.

    It runs right after generation, so a removed task is not screened, and the next
    candidate of its (subtopic, workflow) cell takes its place at the cap. ``path`` is
    the review file (default :data:`REVIEWS_FILE`; absent: nothing is removed).
    """
    reviews = read_reviews(path or REVIEWS_FILE)
    return _drop_removed(candidates, _candidate_prompt, reviews, report)


def _candidate_prompt(candidate: Candidate) -> tuple[str, str]:
    assert candidate.draft is not None  # the build reviews generated candidates only
    return candidate.draft.prompt, candidate.label


T = TypeVar("T")


def _drop_removed(
    items: Sequence[T],
    prompt_and_label: Callable[[T], tuple[str, str]],
    reviews: Iterable[Review],
    report: DropLog,
) -> list[T]:
    removed = removals(reviews)
    kept = []
    for item in items:
        prompt, label = prompt_and_label(item)
        found = removed.get(prompt_key(prompt)) if removed else None
        if not found:
            kept.append(item)
            continue
        why = "; ".join(
            f"removed by {r.reviewer} (reviewed as {r.task_id}, category {r.category})"
            + (f": {r.note}" if r.note else "")
            for r in found
        )
        report.drop("review", label, why)
    return kept
