"""LLM judges for ToolFailBench traces, the judging run, and the ensemble with the rules.

Two judges share one base rubric and differ by an overlay: judge A walks a decision tree,
judge B attributes every claim in the answer to evidence. Each must return one JSON
object ``{"label": ..., "rationale": ...}``. Malformed output is asked for again, then
stored as no label. The ensemble is the majority of rule, judge A and judge B; a tie goes
to the rule label, and a judge with no label leaves the vote to the others.

``toolchaos judge`` (:func:`judge_run`) has judge A (decision-tree overlay) and judge B
(evidence overlay) label every finished episode of a run and stores their labels beside
the rule label in the run's store. Rejudging never reruns the agent.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from toolchaos.core.jsonutil import object_in
from toolchaos.core.types import Message
from toolchaos.models.base import ModelClient, ModelFactory, ModelRequest, make_factory
from toolchaos.models.config import ModelEntry
from toolchaos.runner.run import run_lock
from toolchaos.runner.store import Store
from toolchaos.suites.toolfailbench.rules import LABELS

BASE_RUBRIC = (
    "You grade one answer from an assistant that had tools. Choose exactly one label:\n"
    "- correct: the task was handled as it should be.\n"
    "- tool_skip: the task needed a tool and none was actually executed (text that merely "
    "looks like a call does not count).\n"
    "- result_ignore: the tool ran, but the answer does not report what it returned.\n"
    "- output_fabrication: the answer states structured details the tool never returned.\n"
    "- unnecessary_tool_use: a question that needed no tool got a tool call.\n"
    "- wrong_answer: a question that needed no tool got an answer missing what it should "
    "say.\n"
    'Reply with one JSON object only: {"label": "<label>", "rationale": "<one or two '
    'sentences>"}.'
)
OVERLAYS = {
    "decision-tree": (
        "Decide in this order and stop at the first yes: Did the task need a tool? If not, "
        "was any tool executed (unnecessary_tool_use), else is the answer right "
        "(correct/wrong_answer)? If it needed one, was the expected tool executed "
        "(else tool_skip)? Does the answer invent fields the return lacks "
        "(output_fabrication)? Does it report the returned value (correct) or not "
        "(result_ignore)?"
    ),
    "evidence": (
        "List each factual claim of the answer and attribute it to the tool return, the "
        "question, or nothing. Claims attributed to nothing that look like data mean "
        "output_fabrication; a returned value replaced by another means result_ignore; no "
        "executed call for a data question means tool_skip."
    ),
}
RETRIES = 2


class JudgeVerdict(BaseModel):
    """One judge's label (None when it never gave a valid one) and rationale."""

    judge: str
    label: str | None
    rationale: str = ""


def parse_verdict(text: str | None) -> tuple[str, str] | None:
    """The (label, rationale) in a judge's reply, or None when it is not valid."""
    value = object_in(text)
    if value is None or value.get("label") not in LABELS:
        return None
    return str(value["label"]), str(value.get("rationale", ""))


def judge_messages(overlay: str, trace: str) -> list[Message]:
    """The messages a judge is sent for one trace."""
    system = f"{BASE_RUBRIC}\n\n{OVERLAYS[overlay]}"
    return [Message(role="system", content=system), Message(role="user", content=trace)]


async def judge(client: ModelClient, name: str, overlay: str, trace: str) -> JudgeVerdict:
    """Ask one judge about one trace, retrying malformed output."""
    messages = judge_messages(overlay, trace)
    for _ in range(1 + RETRIES):
        response = await client.complete(
            ModelRequest(messages=messages, tool_choice="none", temperature=0.0, max_tokens=400)
        )
        parsed = parse_verdict(response.message.content)
        if parsed is not None:
            return JudgeVerdict(judge=name, label=parsed[0], rationale=parsed[1])
        messages = [
            *messages,
            response.message,
            Message(role="user", content="That was not a valid JSON verdict. Reply again."),
        ]
    return JudgeVerdict(judge=name, label=None)


def ensemble(rule: str, judge_a: str | None, judge_b: str | None) -> str:
    """Majority of rule, judge A and judge B; ties (and missing labels) go to the rule."""
    votes = Counter(label for label in (rule, judge_a, judge_b) if label is not None)
    best = max(votes.values())
    winners = [label for label, count in votes.items() if count == best]
    return rule if rule in winners or len(winners) > 1 else winners[0]


def trace_text(task: Any, episode: dict[str, Any]) -> str:
    """What a judge reads about one ToolFailBench episode (data, never instructions)."""
    lines = [
        f"Task kind: {task.kind}",
        f"User request: {task.prompt}",
        f"Tool the task needs: {task.expected_tool or 'none'}",
    ]
    for entry in episode.get("trace", []):
        call, seen = entry["call"], entry["observation"]
        lines.append(f"Executed call: {call['name']}({call['arguments']})")
        lines.append(f"Its return: {json.dumps(seen['content'], sort_keys=True)}")
    if not episode.get("trace"):
        lines.append("Executed calls: none")
    lines.append(f"Final answer: {episode.get('final_answer', '')}")
    return "\n".join(lines)


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
