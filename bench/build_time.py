"""Time the shipped ToolBench-X build (seed 0, 378/358/370 tasks), every stage included.

Usage: python bench/build_time.py
"""

from __future__ import annotations

import time

from toolchaos.suites.toolbench_x.pipeline import V1_TARGETS, build_toolbench_x


def main() -> None:
    start = time.perf_counter()
    tasks, report = build_toolbench_x(0, targets=V1_TARGETS)
    seconds = time.perf_counter() - start
    print(f"{len(tasks)} tasks in {seconds:.1f} s; stages: {report.counts}")


if __name__ == "__main__":
    main()
