"""Report at scale: `toolchaos report` (tables, figures, HTML) over about N stored episodes.

Plays the four scripted baselines once on the shipped ToolBench-X tasks in all four arms
(2,880 real episodes), then copies those episodes as further samples into a bench store,
one transaction per batch of samples, until it holds about N (default 100,000). Then it
runs `toolchaos report DIR --html FILE` in a child process and prints its wall time and
peak RSS, and, in another child, the time of each stage.

Usage: python bench/report_scale.py [N] [--keep DIR]
"""

from __future__ import annotations

import json
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import STORE_NAME, Store

MODELS = ["scripted/oracle", "scripted/naive", "scripted/retry", "scripted/no-tool"]
ARMS = ["clean", "hazard", "hint", "oracle-label"]
BATCH = 5  # samples copied per transaction


def generate(target: int, directory: Path) -> int:
    """Fill ``directory`` with about ``target`` episodes; return how many it holds."""
    seed = directory / "seed"
    config = RunConfig(suite="toolbench-x", models=MODELS, arms=ARMS, concurrency=16)  # type: ignore[arg-type]
    run(config, seed, Console(quiet=True))
    bench = directory / "run"
    bench.mkdir()
    Store(bench / STORE_NAME).close()  # the schema
    conn = sqlite3.connect(bench / STORE_NAME, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("ATTACH ? AS seed", (str(seed / STORE_NAME),))
    conn.execute("INSERT OR REPLACE INTO meta SELECT * FROM seed.meta")
    conn.execute("INSERT INTO tasks SELECT * FROM seed.tasks")
    per_sample = conn.execute("SELECT COUNT(*) FROM seed.episodes").fetchone()[0]
    samples = max(1, round(target / per_sample))
    # a key ends in "|<sample>"; rewrite it and the sample inside the stored JSON
    copy = """
        INSERT INTO episodes
        SELECT substr(key, 1, length(key) - length(sample)) || :s, suite, model, protocol, arm,
               task_id, :s, status, error, final_answer, end_state, n_calls, n_events,
               input_tokens, output_tokens, latency_s, model_calls,
               json_set(data, '$.sample', :s,
                        '$.key', substr(key, 1, length(key) - length(sample)) || :s),
               bad_calls
        FROM seed.episodes
    """
    for start in range(0, samples, BATCH):
        conn.execute("BEGIN IMMEDIATE")
        for sample in range(start, min(samples, start + BATCH)):
            conn.execute(copy, {"s": sample})
        conn.execute("COMMIT")
    count = int(conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0])
    conn.close()
    return count


def stages(directory: Path) -> None:
    """Time each stage of a report in this process (called in a child)."""
    from toolchaos.report.html import write_html
    from toolchaos.report.tables import build_report, write_report

    times = {}
    start = time.perf_counter()
    report = build_report([directory])
    times["score + diagnose + tables"] = time.perf_counter() - start
    mark = time.perf_counter()
    write_report(report, directory / "stages", figures=True)
    times["markdown, LaTeX, CSV + figures"] = time.perf_counter() - mark
    mark = time.perf_counter()
    page = write_html(report, directory / "stages" / "report.html")
    times["HTML"] = time.perf_counter() - mark
    times["total"] = time.perf_counter() - start
    print(json.dumps({"times": times, "html_bytes": page.stat().st_size}))


def main() -> None:
    if sys.argv[1:2] == ["--stages"]:
        stages(Path(sys.argv[2]))
        return
    args = sys.argv[1:]
    keep = Path(args[args.index("--keep") + 1]) if "--keep" in args else None
    numbers = [a for a in args if a.isdigit()]
    target = int(numbers[0]) if numbers else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        root = keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        count = generate(target, root)
        made = time.perf_counter() - start
        store = root / "run"
        size_mb = (store / STORE_NAME).stat().st_size / 2**20
        print(f"stored episodes: {count:,} ({size_mb:,.0f} MB store, generated in {made:.1f} s)")

        toolchaos = Path(sys.executable).with_name("toolchaos")
        html = root / "report.html"
        command = [str(toolchaos), "report", str(store), "--html", str(html)]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - start
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        if done.returncode != 0:
            sys.exit(f"toolchaos report failed:\n{done.stderr}")
        print(f"toolchaos report --html: {wall:.1f} s wall, peak RSS {peak_mb:,.0f} MB")
        print(f"HTML: {html.stat().st_size / 2**20:.1f} MB")

        child = subprocess.run(
            [sys.executable, __file__, "--stages", str(store)],
            capture_output=True,
            text=True,
            check=True,
        )
        for name, seconds in json.loads(child.stdout)["times"].items():
            print(f"  {name}: {seconds:.1f} s")


if __name__ == "__main__":
    main()
