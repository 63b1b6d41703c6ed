"""Scoring the ToolFailBench v5 release run: 5,000 episodes through the rule classifier.

Plays the five scripted baselines over all 1,000 tasks of the published release (the
directory given, else ``TOOLCHAOS_RELEASE_DIR``, else ``../shared/toolfailbench-v5``
beside the repository, as the tests read it) once, then
times the report's computation (``build_report``: scoring, labels, tables) under each
rule set, ``toolchaos`` and ``paper``, three times each, and prints the times and a
digest of the labelled frame (the same digest before and after a change means the same
labels).
Usage: python bench/release_report.py [RELEASE_DIR]
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.suites.base import ReportOptions

MODELS = ("oracle", "skip", "ignore", "fabricate", "overuse")
RELEASE = Path(
    os.environ.get("TOOLCHAOS_RELEASE_DIR")
    or Path(__file__).resolve().parents[2] / "shared" / "toolfailbench-v5"
)


def main() -> None:
    release = Path(sys.argv[1]) if len(sys.argv) > 1 else RELEASE
    if not (release / "tasks_v5").is_dir():
        sys.exit(f"the ToolFailBench v5 release is not at {release}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        config = RunConfig(
            suite="toolfailbench",
            models=[f"scripted/{m}" for m in MODELS],
            tasks_path=str(release),
        )
        start = time.perf_counter()
        summary = run(config, out, Console(quiet=True))
        print(f"played {summary.played} episodes in {time.perf_counter() - start:.1f} s")
        for rules in ("toolchaos", "paper"):
            times = []
            for _ in range(3):
                start = time.perf_counter()
                report = build_report([out], ReportOptions(rules=rules))
                times.append(time.perf_counter() - start)
            frame = report.frame.drop(columns=["run"])
            digest = hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest()[:12]
            shown = ", ".join(f"{t:.2f}" for t in times)
            print(f"rules {rules}: {shown} s (labels digest {digest})")


if __name__ == "__main__":
    main()
