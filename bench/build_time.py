"""Time the shipped ToolBench-X build (seed 0, 378/358/370 tasks, the cheap gates on, as
``toolchaos build toolbench-x --seed 0`` builds it), every stage included: wall and CPU.

Usage: python bench/build_time.py
"""

from __future__ import annotations

import time

from toolchaos.suites.toolbench_x.pipeline import V1_TARGETS, build_toolbench_x


def main() -> None:
    start, cpu = time.perf_counter(), time.process_time()
    tasks, report = build_toolbench_x(0, targets=V1_TARGETS, cheap_gates=True)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"{len(tasks)} tasks in {seconds:.1f} s ({cpu:.1f} s of CPU); stages: {report.counts}")


if __name__ == "__main__":
    main()
