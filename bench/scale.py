"""Scale-out: one workload on the local executor, dask-local with 2 workers, and Inspect.

The workload: N ToolBench-X episodes (clean and hazard arms, as many samples as it takes)
against the fake OpenAI-compatible server (toolchaos.testing) answering every request
after DELAY seconds with a tool call, then a text answer. Inspect plays the same tasks
with its mock model, whose every reply waits the same DELAY. Prints episodes/s and the
peak memory of each (the coordinator's, and for dask-local the workers' too).

Usage: python bench/scale.py [N] [DELAY_S] [CONCURRENCY]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from toolchaos.runner.plan import make_plan
from toolchaos.suites import get_suite
from toolchaos.testing.fake_openai import FakeOpenAI, echo_tool_then_answer

CHILD = """
import json, resource, sys, time
from pathlib import Path
from rich.console import Console
from toolchaos.models.config import ModelEntry
from toolchaos.runner.run import RunConfig, run
args = json.loads(sys.argv[1])
config = RunConfig(
    suite="toolbench-x",
    models=[ModelEntry(spec="openai-compat/echo", base_urls=[args["url"]], concurrency=256)],
    arms=["clean", "hazard"],
    samples=args["samples"],
    concurrency=args["concurrency"],
    executor=args["executor"],
    workers=args["workers"],
)
start = time.perf_counter()
summary = run(config, Path(args["out"]), Console(quiet=True))
wall = time.perf_counter() - start
print(json.dumps({
    "episodes": summary.played, "errors": summary.errors, "wall": wall,
    "run_loop": summary.seconds,
    "rss_self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "rss_children_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
}))
"""

INSPECT_CHILD = """
import asyncio, json, resource, sys, time
import inspect_ai
from inspect_ai.model import ModelOutput, ModelUsage, get_model
args = json.loads(sys.argv[1])

async def respond(input, tools, tool_choice, config):
    await asyncio.sleep(args["delay"])
    last = input[-1]
    if last.role != "tool" and tools:
        out = ModelOutput.for_tool_call("mockllm/model", tools[0].name, {})
    else:
        out = ModelOutput.from_content("mockllm/model", last.text[:200] or "no answer")
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return out

model = get_model("mockllm/model", custom_outputs=respond)
start = time.perf_counter()
logs = inspect_ai.eval(
    "toolchaos/toolbench_x", model=model, epochs=args["samples"],
    task_args={"arm": "clean,hazard"}, log_dir=args["out"], display="none",
    max_samples=args["concurrency"], max_connections=args["concurrency"],
)
wall = time.perf_counter() - start
print(json.dumps({
    "episodes": len(logs[0].samples or []), "errors": 0 if logs[0].status == "success" else -1,
    "wall": wall, "run_loop": wall,
    "rss_self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "rss_children_mb": 0.0,
}))
"""


def child(code: str, args: dict[str, object]) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args)],
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    delay = float(sys.argv[2]) if len(sys.argv) > 2 else 0.2
    concurrency = int(sys.argv[3]) if len(sys.argv) > 3 else 64
    tasks = get_suite("toolbench-x").load()
    per_sample = len(make_plan(["m"], tasks, ["clean", "hazard"], 1))
    samples = max(1, round(target / per_sample))
    rows = []
    with (
        FakeOpenAI(echo_tool_then_answer(), delay_s=delay) as server,
        tempfile.TemporaryDirectory() as tmp,
    ):
        base = {"url": server.base_url, "samples": samples, "concurrency": concurrency}
        for name, executor, workers in (
            ("local", "local", 1),
            ("dask-local, 2 workers", "dask-local", 2),
        ):
            args = {**base, "executor": executor, "workers": workers, "out": str(Path(tmp) / name)}
            rows.append((name, child(CHILD, args)))
        inspect_args = {**base, "delay": delay, "out": str(Path(tmp) / "inspect")}
        rows.append(("inspect (mockllm)", child(INSPECT_CHILD, inspect_args)))
    print(
        f"{samples * per_sample} episodes, {delay * 1000:.0f} ms per model request, "
        f"{concurrency} episodes in flight"
    )
    print(
        "| executor | episodes | episodes/s (run loop) | episodes/s (end to end) "
        "| peak RSS coordinator | peak RSS workers |"
    )
    print("|---|---|---|---|---|---|")
    for name, r in rows:
        print(
            f"| {name} | {r['episodes']:.0f} | {r['episodes'] / r['run_loop']:.1f} | "
            f"{r['episodes'] / r['wall']:.1f} | {r['rss_self_mb']:.0f} MB | "
            f"{r['rss_children_mb']:.0f} MB |"
        )


if __name__ == "__main__":
    main()
