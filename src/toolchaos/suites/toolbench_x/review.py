"""Human review of ToolBench-X: the content key and the build's review stage.

The records, the agreement between reviewers and the samples are shared by every suite
(:mod:`toolchaos.suites.review`); what a reviewer sees is ``review_view.py``; what is
left is here. Shipped task ids are assigned at the end of a build, so a review names its
task by a content key as well (:func:`content_key`), and the next build matches on that
key: the build's ``review`` stage (:func:`review_stage`) drops every validated task a
reviewer removed, and the selection to the dataset's size fills their places. The build
reads the reviews in :data:`REVIEWS_FILE` (absent: no task is removed).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Protocol

from toolchaos.core.types import HazardFamily, TaskSpec
from toolchaos.suites.review import Review, read_reviews, removals
from toolchaos.suites.toolbench_x.generate import normalized_prompt

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
    hazard rewrites an id's case in it, so a task keeps its key from one build to the
    next. A template change that rewrites the prompt makes a new task, which needs a new
    review.
    """
    digest = hashlib.sha256(normalized_prompt(task.prompt).encode("utf-8")).hexdigest()
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
    removed = removals(reviews)
    kept = []
    for task in tasks:
        found = removed.get(content_key(task)) if removed else None
        if not found:
            kept.append(task)
            continue
        why = "; ".join(
            f"removed by {r.reviewer} (reviewed as {r.task_id}, category {r.category})"
            + (f": {r.note}" if r.note else "")
            for r in found
        )
        report.drop("review", task.id, why)
    return kept


def review_stage(tasks: Sequence[TaskSpec], path: Path | None, report: DropLog) -> list[TaskSpec]:
    """The build's ``review`` stage: :func:`apply_reviews` with the reviews in ``path``.

    ``path`` defaults to :data:`REVIEWS_FILE` (absent: nothing is removed). The stage
    runs on the validated tasks, after every draw of the build's generator: removing a
    task changes no other task's hazard, so the reviews of the others stay valid, and the
    selection to the dataset's size takes the place of the removed tasks from the spare
    validated ones.
    """
    return apply_reviews(tasks, read_reviews(path or REVIEWS_FILE), report)
