"""The ToolBench-X suite: multi-step tool tasks under recoverable hazards."""

from toolchaos.suites.base import Suite

SUITE = Suite(
    name="toolbench-x",
    package="toolchaos.suites.toolbench_x",
    data_file="tasks.jsonl",
    arms=("clean", "hazard", "hint", "oracle-label"),
)

__all__ = ["SUITE"]
