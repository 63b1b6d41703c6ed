"""`toolchaos judge`: two LLM judges label every ToolFailBench episode of a run.

Judge A uses the decision-tree overlay, judge B the evidence overlay; their labels are
stored beside the rule label in the run's store. Rejudging never reruns the agent.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from toolchaos.models.base import ModelFactory, make_factory
from toolchaos.models.config import ModelEntry
from toolchaos.runner.run import run_lock
from toolchaos.runner.store import Store
from toolchaos.scoring.judges import judge, trace_text

RATERS = (("judge_a", "decision-tree"), ("judge_b", "evidence"))


def judge_run(
    directory: Path, judges: list[ModelEntry], concurrency: int = 8, limit: int | None = None
) -> int:
    """Label every finished ToolFailBench episode of ``directory``; return how many."""
    entries = judges if len(judges) == 2 else [judges[0], judges[0]]
    factories = [make_factory(entry) for entry in entries]
    store = Store.open_existing(directory)
    with run_lock(directory):
        try:
            tasks = store.tasks()
            rows = [
                r
                for r in store.summaries()
                if r["suite"] == "toolfailbench" and r["status"] == "finished"
            ][:limit]
            episodes = dict(store.episode_json(keys={r["key"] for r in rows}))
            asyncio.run(_judge_all(store, tasks, rows, episodes, factories, entries, concurrency))
        finally:
            store.close()
    return len(rows)


async def _judge_all(
    store: Store,
    tasks: dict[str, Any],
    rows: list[dict[str, Any]],
    episodes: dict[str, str],
    factories: list[ModelFactory],
    entries: list[ModelEntry],
    concurrency: int,
) -> None:
    limit = asyncio.Semaphore(concurrency)

    async def one(row: dict[str, Any]) -> None:
        key = str(row["key"])
        task = tasks[str(row["task_id"])]
        text = trace_text(task, json.loads(episodes[key]))
        for (rater, overlay), factory, entry in zip(RATERS, factories, entries, strict=True):
            client = factory.for_episode(task, "judge", 0)
            async with limit:
                verdict = await judge(client, rater, overlay, text)
            store.put_judgement(key, rater, entry.spec, verdict.label, verdict.rationale)

    async with asyncio.TaskGroup() as group:
        for row in rows:
            group.create_task(one(row))
