"""Harness throughput: N scripted-oracle episodes end to end, beside a bare asyncio loop.

Pins itself to one core, runs the shipped ToolBench-X tasks in the clean and hazard arms
with as many samples as it takes to reach N episodes (ours: env, hazards, protocol,
scoring inputs, one SQLite commit per episode), then plays the same episodes, with the
same tool calls per turn, through a bare asyncio loop that logs JSONL (see
bench/README.md for exactly what it does), and prints both rates and their ratio.
Last, the floor: the parts of ours' episodes that no harness could skip, timed alone on the
stored episodes (their JSON, their SQLite rows with many episodes to a transaction, the
world forks and tool bodies of their calls, the scripted oracle's answers to their
turns), and what is left of an episode's time at 5,000 episodes/s once they are paid.
Usage: python bench/harness_throughput.py [N] [--profile FILE]
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from toolchaos.agents.native import FINAL_PROMPT
from toolchaos.core.reference import is_ref
from toolchaos.core.types import Episode, TaskSpec
from toolchaos.domains import get_domain, make_world
from toolchaos.models.base import ModelRequest
from toolchaos.runner.plan import make_plan
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import INSERT_EPISODE, STORE_NAME, Store, episode_row
from toolchaos.suites import get_suite
from toolchaos.suites.toolbench_x.baselines import ScriptedPolicy

CONCURRENCY = 16

Shape = list[int]
"""Tool calls per assistant turn of one episode (0: a turn that answered)."""


def shapes(store: Path) -> dict[str, Shape]:
    """The tool calls per assistant turn of every episode ours stored, by key."""
    found: dict[str, Shape] = {}
    with sqlite3.connect(store) as conn:
        for key, data in conn.execute("SELECT key, data FROM episodes"):
            messages = json.loads(data)["messages"]
            found[key] = [len(m["tool_calls"]) for m in messages if m["role"] == "assistant"]
    return found


def _literal(value: Any) -> Any:
    """A reference argument with every ref to an earlier result replaced by a literal."""
    if is_ref(value):
        return "ref"
    if isinstance(value, dict):
        return {k: _literal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_literal(v) for v in value]
    return value


def bare_loop(
    todo: list[tuple[str, TaskSpec, Shape]], log: Path, concurrency: int
) -> tuple[float, int]:
    """Play ``todo`` through a plain asyncio loop; return (seconds, tool calls made).

    Each episode starts a message list (system, user) and asks a trivial coroutine "model"
    for each turn, which answers with the next calls of the task's reference steps (taken
    in order, round and round, as many as ours made in that turn; arguments with refs
    made literal, as JSON text); each call's arguments are parsed, a trivial tool
    function returns a small dict, serialized into a tool message. The episode ends with
    a final answer and is appended to a JSONL file as one line, flushed to the OS.
    ``concurrency`` workers share one queue, as the runner's do.
    """

    def tool(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return {"tool": name, "ok": True, "arguments": arguments, "value": 1}

    async def model(steps: list[tuple[str, str]], start: int, n: int) -> list[tuple[str, str]]:
        return [steps[(start + i) % len(steps)] for i in range(n)]

    calls = 0

    async def episode(key: str, task: TaskSpec, shape: Shape, out: Any) -> None:
        nonlocal calls
        steps = [(s.tool, json.dumps(_literal(s.args))) for s in task.reference.steps]
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": task.system or "You are an assistant."},
            {"role": "user", "content": task.prompt},
        ]
        made = 0
        for n in shape:
            if not n:
                messages.append({"role": "assistant", "content": "The answer is 1."})
                continue
            chosen = await model(steps, made, n)
            ids = [f"call_{made + i}" for i in range(n)]
            messages.append(
                {
                    "role": "assistant",
                    "tool_calls": [
                        {"id": i, "name": name, "arguments": args}
                        for i, (name, args) in zip(ids, chosen, strict=True)
                    ],
                }
            )
            for call_id, (name, args) in zip(ids, chosen, strict=True):
                result = tool(name, json.loads(args))
                messages.append(
                    {"role": "tool", "tool_call_id": call_id, "content": json.dumps(result)}
                )
            made += n
        calls += made
        out.write(json.dumps({"key": key, "task_id": task.id, "messages": messages}) + "\n")
        out.flush()

    async def main(out: Any) -> None:
        queue: asyncio.Queue[tuple[str, TaskSpec, Shape]] = asyncio.Queue()
        for item in todo:
            queue.put_nowait(item)

        async def worker() -> None:
            while not queue.empty():
                await episode(*queue.get_nowait(), out)

        async with asyncio.TaskGroup() as group:
            for _ in range(concurrency):
                group.create_task(worker())

    with log.open("w", encoding="utf-8") as out:
        start = time.perf_counter()
        asyncio.run(main(out))
        return time.perf_counter() - start, calls


def floor(store: Path, tasks: dict[str, TaskSpec], scratch: Path) -> dict[str, float]:
    """Seconds an episode of ``store`` spends, on average, in the parts no harness can skip.

    ``json``: its JSON (what a resumable store must write); ``sqlite``: its row inserted
    with 16 episodes to a transaction (fewer commits than ours, which commits each) and no
    checkpoint while timed; ``tools``: for each clean-arm episode (a hazard arm's calls
    may have been edited on their way to the tool), a fresh world forked and each call it
    made run again there, straight on the tool function (no validation, hazard or trace);
    hazard-arm episodes, which make as many calls or more, are counted at the clean arm's
    mean. ``policy``: the scripted oracle (the model that played them) asked each
    assistant turn of each episode again, with the messages it saw then (the requests
    built beforehand); replayed once more untimed, its replies must be the stored ones,
    or the bench stops.
    """
    reader = Store(store, read_only=True)
    episodes = list(reader.episodes())
    reader.close()
    clean = [episode for episode in episodes if episode.arm == "clean"]
    return {
        "json": _timed_json(episodes) / len(episodes),
        "sqlite": _timed_rows(episodes, scratch) / len(episodes),
        "tools": _timed_tools(clean, tasks) / len(clean),
        "policy": _timed_oracle(episodes, tasks) / len(episodes),
    }


def _timed_json(episodes: list[Episode]) -> float:
    start = time.perf_counter()
    for episode in episodes:
        episode.model_dump_json()
    return time.perf_counter() - start


def _timed_rows(episodes: list[Episode], scratch: Path) -> float:
    rows = [episode_row(episode) for episode in episodes]
    target = Store(scratch)
    target.conn.execute("PRAGMA wal_autocheckpoint=0")
    start = time.perf_counter()
    for i in range(0, len(rows), 16):
        target.conn.execute("BEGIN IMMEDIATE")
        target.conn.executemany(INSERT_EPISODE, rows[i : i + 16])
        target.conn.execute("COMMIT")
    took = time.perf_counter() - start
    target.close()
    return took


def _timed_tools(episodes: list[Episode], tasks: dict[str, TaskSpec]) -> float:
    calls = [
        (
            tasks[episode.task_id],
            [(entry.call.name, json.loads(entry.call.arguments)) for entry in episode.trace],
        )
        for episode in episodes
    ]
    start = time.perf_counter()
    for task, made in calls:
        domain = get_domain(task.domain)
        world = make_world(task, domain)
        for name, arguments in made:
            domain.tools[name](world, **arguments)
    return time.perf_counter() - start


def _requests(episode: Episode) -> list[ModelRequest]:
    """The request behind each assistant message of ``episode`` (the final one: no tools)."""
    messages = episode.messages
    return [
        ModelRequest(
            messages=messages[:i],
            tool_choice="none" if messages[i - 1].content == FINAL_PROMPT else "auto",
        )
        for i, message in enumerate(messages)
        if message.role == "assistant"
    ]


def _timed_oracle(episodes: list[Episode], tasks: dict[str, TaskSpec]) -> float:
    asked = [(tasks[episode.task_id], _requests(episode)) for episode in episodes]
    start = time.perf_counter()
    for task, turns in asked:
        policy = ScriptedPolicy(task, "oracle")
        for request in turns:
            policy.respond(request)
    took = time.perf_counter() - start
    # again, untimed, keeping the replies (kept, they would cost the timing their memory)
    replies = []
    for task, turns in asked:
        policy = ScriptedPolicy(task, "oracle")
        replies.extend(policy.respond(request).message for request in turns)
    stored = [m for episode in episodes for m in episode.messages if m.role == "assistant"]
    if replies != stored:
        raise SystemExit("the oracle replayed differs from the stored episodes: no floor")
    return took


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    target = int(args[0]) if args else 20_000
    profile = sys.argv[sys.argv.index("--profile") + 1] if "--profile" in sys.argv else None
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    tasks = get_suite("toolbench-x").load()
    per_sample = len(make_plan(["m"], tasks, ["clean", "hazard"], 1))
    samples = max(1, round(target / per_sample))
    config = RunConfig(
        suite="toolbench-x",
        models=["scripted/oracle"],
        arms=["clean", "hazard"],
        samples=samples,
        concurrency=CONCURRENCY,
    )
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        if profile:
            import cProfile

            with cProfile.Profile() as prof:
                summary = run(config, Path(tmp) / "run", Console(quiet=True))
            prof.dump_stats(profile)
        else:
            summary = run(config, Path(tmp) / "run", Console(quiet=True))
        wall = time.perf_counter() - start
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        found = shapes(Path(tmp) / "run" / STORE_NAME)
        plan = make_plan(["scripted/oracle"], tasks, ["clean", "hazard"], samples)
        todo = [(item.key, item.task, found[item.key]) for item in plan]
        ours_calls = sum(sum(shape) for _, _, shape in todo)
        bare_s, bare_calls = bare_loop(todo, Path(tmp) / "bare.jsonl", CONCURRENCY)
        parts = floor(Path(tmp) / "run" / STORE_NAME, {t.id: t for t in tasks}, Path(tmp) / "f")
    ours = summary.played / summary.seconds
    bare = len(todo) / bare_s
    print(f"episodes: {summary.played} (tool calls: {ours_calls}), errors: {summary.errors}")
    print(f"wall time (incl. setup): {wall:.2f} s")
    print(f"episodes/s (run loop): {ours:.0f}")
    print(f"episodes/s (end to end): {summary.played / wall:.0f}")
    print(f"peak RSS: {peak_mb:.0f} MB")
    print(f"bare asyncio loop + JSONL: {len(todo)} episodes, {bare_calls} tool calls, ", end="")
    print(f"{bare:.0f} episodes/s")
    print(f"ours {ours:.0f}/s beside bare {bare:.0f}/s: bare/ours = {bare / ours:.2f}x")
    us = {name: seconds * 1e6 for name, seconds in parts.items()}
    total = sum(us.values())
    print(
        f"floor an episode: JSON {us['json']:.0f} us + SQLite row {us['sqlite']:.0f} us "
        f"+ world fork and tool bodies {us['tools']:.0f} us + the scripted oracle's turns "
        f"{us['policy']:.0f} us = {total:.0f} us; at 5,000/s an episode has 200 us, "
        f"{200 - total:.0f} us after these for the protocol, hazards, validation, trace and "
        f"runner (ours spends {1e6 / ours - total:.0f} us on them, the bare loop "
        f"{1e6 / bare:.0f} us on its whole episode)"
    )


if __name__ == "__main__":
    main()
