"""The judges' model entries, kept in the run store beside their labels.

``toolchaos judge`` stores the model entry of each judge it ran (from ``--models-file``
when the file names the judge's spec, so with its ``family`` and ``tier``) as the run's
``judges`` metadata; the report reads the judges' families from there for the same-family
check (``toolchaos.suites.toolfailbench.report.same_family_table``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from toolchaos.models.config import ModelEntry
from toolchaos.suites.base import EpisodeReader

JUDGES_META = "judges"
"""The run metadata key holding the judges' model entries (a JSON list)."""


def read_judge_entries(store: EpisodeReader) -> dict[str, ModelEntry]:
    """The judge entries a run stored, by spec (empty for a run judged before they were)."""
    found = json.loads(store.get_meta(JUDGES_META) or "[]")
    entries = [ModelEntry.model_validate(item) for item in found]
    return {entry.spec: entry for entry in entries}


def merged_judge_entries(held: Iterable[ModelEntry], new: Iterable[ModelEntry]) -> list[ModelEntry]:
    """``held`` with ``new`` added; an entry of a spec already held replaces it."""
    by_spec = {entry.spec: entry for entry in held}
    by_spec.update({entry.spec: entry for entry in new})
    return [by_spec[spec] for spec in sorted(by_spec)]


def judge_entries_json(entries: Iterable[ModelEntry]) -> str:
    """The metadata value for ``entries``."""
    return json.dumps([entry.model_dump() for entry in entries])
