"""The shipped ToolFailBench task file: where it lives, how to read and write it."""

from __future__ import annotations

from pathlib import Path

from toolchaos.suites.base import load_jsonl, to_jsonl
from toolchaos.suites.toolfailbench._kit import data_path
from toolchaos.suites.toolfailbench.types import SUITE, FailTask

__all__ = [
    "BUILD_FILE",
    "DATA_FILE",
    "V1_DIR",
    "V2_DIR",
    "data_path",
    "default_path",
    "load_fail_tasks",
    "to_jsonl",
    "v1_path",
    "v2_path",
]

DATA_FILE = "tasks.jsonl"
BUILD_FILE = "build.json"
V1_DIR = "v1"
V2_DIR = "v2"


def default_path() -> Path:
    """The path of the shipped task set (v3, 1,000 tasks)."""
    return data_path(DATA_FILE)


def v1_path() -> Path:
    """The path of the earlier v1 task set (1,000 tasks), kept loadable and playable."""
    return data_path(V1_DIR) / DATA_FILE


def v2_path() -> Path:
    """The path of the earlier v2 task set (1,000 tasks), frozen as shipped: loadable, playable."""
    return data_path(V2_DIR) / DATA_FILE


def load_fail_tasks(path: Path | None = None) -> list[FailTask]:
    """Read a ToolFailBench JSONL file (the shipped one by default).

    Args:
        path: The file to read; the shipped task set when None.

    Returns:
        The tasks in file order.

    Raises:
        BadInput: The file is missing or unreadable, a line is not a valid task (the
            message names the file, the line and the field), or an id repeats.
    """
    return load_jsonl(path or default_path(), FailTask, SUITE)
