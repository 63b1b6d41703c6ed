"""Runner throughput against a slow model endpoint.

Starts the fake OpenAI-compatible server in a separate process, answering every request
after 200 ms, and runs N single-request episodes with concurrency 64. The ideal is
64 / 0.2 s = 320 responses per second; the target is at least 95% of it with one process.
Usage: python bench/runner_latency.py [N] [WORKERS]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

from toolchaos.models.config import ModelEntry
from toolchaos.runner.plan import make_plan
from toolchaos.runner.run import RunConfig, run
from toolchaos.suites import get_suite

DELAY_S = 0.2
CONCURRENCY = 64
WORKERS = int(sys.argv[2]) if len(sys.argv) > 2 else 2


def main() -> None:
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 3200
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "toolchaos.testing.fake_openai",
            "--port",
            "0",
            "--delay",
            str(DELAY_S),
            "--text",
            "I cannot tell.",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        base_url = server.stdout.readline().strip()
        tasks = get_suite("toolbench-x").load()
        per_sample = len(make_plan(["m"], tasks, ["clean"], 1))
        model = ModelEntry(
            spec="openai-compat/bench", base_urls=[base_url], concurrency=CONCURRENCY
        )
        config = RunConfig(
            suite="toolbench-x",
            models=[model],
            arms=["clean"],
            samples=max(1, round(target / per_sample)),
            concurrency=CONCURRENCY,
            workers=WORKERS,
        )
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            summary = run(config, Path(tmp) / "run", Console(quiet=True))
            wall = time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(timeout=10)
    ideal = CONCURRENCY / DELAY_S
    rate = summary.played / summary.seconds
    print(
        f"workers: {WORKERS}, episodes (one request each): {summary.played}, "
        f"errors: {summary.errors}"
    )
    print(f"responses/s: {rate:.0f} of an ideal {ideal:.0f} ({rate / ideal:.0%})")
    print(f"wall time incl. setup: {wall:.1f} s")


if __name__ == "__main__":
    main()
