"""Harness throughput: N scripted-oracle episodes end to end, store writes included.

Pins itself to one core, runs the shipped ToolBench-X tasks in the clean and hazard arms
with as many samples as it takes to reach N episodes, and prints episodes per second and
peak memory. Usage: python bench/harness_throughput.py [N]
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

from toolchaos.runner.plan import make_plan
from toolchaos.runner.run import RunConfig, run
from toolchaos.suites import get_suite


def main() -> None:
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
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
        concurrency=16,
    )
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        summary = run(config, Path(tmp) / "run", Console(quiet=True))
        wall = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"episodes: {summary.played}")
    print(f"wall time (incl. setup): {wall:.2f} s")
    print(f"episodes/s (run loop): {summary.played / summary.seconds:.0f}")
    print(f"episodes/s (end to end): {summary.played / wall:.0f}")
    print(f"peak RSS: {peak_mb:.0f} MB")
    print(f"errors: {summary.errors}")


if __name__ == "__main__":
    main()
