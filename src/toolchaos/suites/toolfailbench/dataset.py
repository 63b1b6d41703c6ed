"""The shipped ToolFailBench task file: where it lives, how to read and write it."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from toolchaos.core.errors import BadInput
from toolchaos.suites.toolfailbench._kit import PACKAGE
from toolchaos.suites.toolfailbench.types import FailTask

DATA_FILE = "tasks.jsonl"
BUILD_FILE = "build.json"


def data_path(name: str) -> Path:
    """The path of ``data/<name>`` inside the installed package."""
    return Path(str(resources.files(PACKAGE).joinpath("data").joinpath(name)))


def default_path() -> Path:
    """The path of the shipped task set (v1, 1,000 tasks)."""
    return data_path(DATA_FILE)


def to_jsonl(tasks: Iterable[FailTask]) -> str:
    """Serialize tasks as JSONL, one task a line, in id order (byte-stable)."""
    return "".join(t.model_dump_json() + "\n" for t in sorted(tasks, key=lambda t: t.id))


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
    path = path or default_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(f"task file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read task file {path}: {exc}") from None
    tasks: list[FailTask] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            task = FailTask.model_validate_json(line)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            if first["type"].startswith("json"):
                raise BadInput(f"{path}, line {number}: not valid JSON ({first['msg']})") from None
            raise BadInput(f"{path}, line {number}, field {where}: {first['msg']}") from None
        if task.id in seen:
            raise BadInput(f"{path}, line {number}, field id: duplicate task id {task.id!r}")
        seen.add(task.id)
        tasks.append(task)
    if not tasks:
        raise BadInput(f"task file {path} holds no tasks")
    return tasks
