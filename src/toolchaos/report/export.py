"""Export stored trajectories in other tools' formats.

``openai-jsonl``: one line per episode, ``{"messages": [...], "metadata": {...}}``, the
messages in the chat-completions wire format the episode's model was (or would have
been) sent, as :func:`toolchaos.models.openai_compat.to_openai_messages` writes them.
The metadata says which model, task, arm and sample the episode is, how it ended and
how it was scored (``correct`` is null for a harness error, and for a suite that no
report contributor scores).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from toolchaos.core.errors import BadInput
from toolchaos.core.types import Episode
from toolchaos.report.tables import load_frame
from toolchaos.runner.store import Store

FORMATS = ("openai-jsonl",)


def openai_lines(directory: Path) -> Iterator[dict[str, Any]]:
    """Yield one ``{"messages", "metadata"}`` record per stored episode, in key order."""
    from toolchaos.models.openai_compat import to_openai_messages

    scores = load_frame([directory])  # scored by each suite's report contributor
    store = Store.open_existing(directory, read_only=True)
    try:
        tasks = store.tasks()
        scored = (
            {}
            if scores.empty
            else dict(zip(scores["key"], scores.to_dict(orient="records"), strict=True))
        )
        for key, text in store.episode_json():
            episode = Episode.model_validate_json(text)
            score = scored.get(key, {})
            finished = episode.status.value == "finished"
            hazard = getattr(tasks.get(episode.task_id), "hazard", None)
            yield {
                "messages": to_openai_messages(episode.messages),
                "metadata": {
                    "key": episode.key,
                    "suite": episode.suite,
                    "task_id": episode.task_id,
                    "model": episode.model,
                    "protocol": episode.protocol,
                    "arm": episode.arm,
                    "sample": episode.sample,
                    "status": episode.status.value,
                    "error": episode.error,
                    "final_answer": episode.final_answer,
                    "correct": bool(score.get("correct")) if finished and score else None,
                    "hazard_family": hazard.family.value if hazard else None,
                    "hazard_variant": hazard.variant if hazard else None,
                    "hazard_events": len(episode.hazard_events),
                    "tool_calls": len(episode.trace),
                    "turns": episode.turns,
                    "usage": episode.usage.model_dump(),
                },
            }
    finally:
        store.close()


def check_format(fmt: str) -> None:
    """Refuse an unknown export format.

    Raises:
        BadInput: ``fmt`` is not in :data:`FORMATS`.
    """
    if fmt not in FORMATS:
        raise BadInput(f"unknown export format {fmt!r}; known formats: {', '.join(FORMATS)}")


def export(directory: Path, fmt: str, out: TextIO) -> int:
    """Write every episode of ``directory`` to ``out`` in ``fmt``; return the line count.

    Raises:
        BadInput: ``fmt`` is not a known format, or ``directory`` holds no run.
    """
    check_format(fmt)
    count = 0
    for record in openai_lines(directory):
        out.write(json.dumps(record, ensure_ascii=False, sort_keys=False) + "\n")
        count += 1
    return count
