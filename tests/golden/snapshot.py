"""What every scripted baseline scores on both shipped datasets, as the report writes it.

``python tests/golden/snapshot.py OUT`` plays the scripted baselines on every shipped task
of both suites (ToolBench-X in all four arms), writes each suite's report with
``toolchaos report --write`` and prints one JSON object: the SHA-256 of each shipped task
file and, per suite, each written table with the run directory taken out. A restructure
that must not change behaviour leaves this object unchanged (``tests/test_golden.py``
compares it with ``tests/golden/baselines.json``).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping
from pathlib import Path

from rich.console import Console

from toolchaos.report.tables import build_report, write_report
from toolchaos.runner.run import RunConfig, RunSummary, run
from toolchaos.suites import get_suite

MODELS = {
    "toolbench-x": ["scripted/oracle", "scripted/naive", "scripted/retry", "scripted/no-tool"],
    "toolfailbench": [
        "scripted/oracle",
        "scripted/skip",
        "scripted/ignore",
        "scripted/fabricate",
        "scripted/overuse",
    ],
}
ARMS = {"toolbench-x": ["clean", "hazard", "hint", "oracle-label"], "toolfailbench": ["clean"]}
SKIP = {"report.tex", "report_usage.csv"}  # usage has wall-clock latency


def play(suite: str, run_dir: Path) -> RunSummary:
    """Play every baseline of ``suite`` on all its shipped tasks into ``run_dir``."""
    config = RunConfig(suite=suite, models=MODELS[suite], arms=ARMS[suite])  # type: ignore[arg-type]
    return run(config, run_dir, Console(quiet=True))


def snapshot(out: Path, runs: Mapping[str, Path] | None = None) -> dict[str, object]:
    """The tables every baseline gives on both suites, written under ``out``.

    A suite's run is taken from ``runs`` when it holds one (played by :func:`play`, e.g.
    by a test fixture that other tests share), else played under ``out``.
    """
    result: dict[str, object] = {}
    for suite in MODELS:
        path = get_suite(suite).default_path()
        run_dir = (runs or {}).get(suite) or Path(play(suite, out / suite).out)
        written = out / f"{suite}-report"
        write_report(build_report([run_dir]), written)
        tables: dict[str, str] = {}
        for file in sorted(written.glob("*.*")):
            if file.name in SKIP:
                continue
            text = file.read_text(encoding="utf-8").replace(str(run_dir), "RUN")
            tables[file.name] = text if file.stat().st_size < 50_000 else _digest(text)
        result[suite] = {"dataset_sha256": _digest_bytes(path.read_bytes()), "tables": tables}
    return result


def _digest(text: str) -> str:
    return "sha256:" + _digest_bytes(text.encode())


def _digest_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


if __name__ == "__main__":
    print(json.dumps(snapshot(Path(sys.argv[1])), indent=1, sort_keys=True))
