"""What a suite is: a name, its shipped task file, and how to load task files."""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from toolchaos.core.errors import BadInput
from toolchaos.core.types import TaskSpec


@dataclass(frozen=True)
class Suite:
    """A benchmark suite.

    Args:
        name: The suite's CLI name (``toolbench-x``).
        package: The package whose ``data/`` folder holds the shipped tasks.
        data_file: The file name of the shipped task set inside ``data/``.
        arms: The arms this suite runs by default.
        protocol: The protocol its episodes play by default.
        task_model: The pydantic model of one stored task (one JSONL line).
    """

    name: str
    package: str
    data_file: str
    arms: tuple[str, ...]
    protocol: str = "native"
    task_model: type[BaseModel] = TaskSpec

    def default_path(self) -> Path:
        """The path of the task file shipped inside the installed package."""
        return Path(str(resources.files(self.package).joinpath("data", self.data_file)))

    def load(self, path: Path | None = None) -> list[Any]:
        """Load the shipped task set, or the task file at ``path``."""
        return load_jsonl(path or self.default_path(), self.task_model, self.name)

    def parse_task(self, text: str) -> Any:
        """One stored task of this suite, from its JSON."""
        return self.task_model.model_validate_json(text)

    def make_env(self, task: Any, arm: str) -> Any:
        """The environment one episode of ``task`` plays in."""
        from toolchaos.env.runtime import Env

        return Env(task, arm)

    def dataset_hash(self, path: Path) -> str:
        """SHA-256 of the task file (or of every file of a task directory, in order)."""
        if path.is_dir():
            digest = hashlib.sha256()
            for file in sorted(p for p in path.rglob("*") if p.is_file()):
                digest.update(str(file.relative_to(path)).encode())
                digest.update(file.read_bytes())
            return digest.hexdigest()
        return file_hash(path)


T = TypeVar("T", bound=BaseModel)


def load_jsonl(path: Path, model: type[T], suite: str | None = None) -> list[T]:
    """Read a JSONL task file of ``model`` rows.

    Any bad line raises BadInput naming the file, the line and the field; so do a task of
    another suite, a repeated id and an empty file.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BadInput(f"task file {path} does not exist") from None
    except OSError as exc:
        raise BadInput(f"cannot read task file {path}: {exc.strerror or exc}") from None
    tasks: list[T] = []
    seen: set[str] = set()
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadInput(
                f"{path}, line {number}: not UTF-8 text (byte {exc.start + 1} of the line)"
            ) from None
        if not line.strip():
            continue
        try:
            task = model.model_validate_json(line)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            if not re.fullmatch(r"[\w.-]+", where):  # a field named oddly: show it quoted
                where = json.dumps(where)
            problem = first["msg"]
            if first["type"].startswith("json"):
                raise BadInput(f"{path}, line {number}: not valid JSON ({problem})") from None
            raise BadInput(f"{path}, line {number}, field {where}: {problem}") from None
        task_suite, task_id = getattr(task, "suite", None), str(getattr(task, "id", ""))
        if suite is not None and task_suite != suite:
            raise BadInput(
                f"{path}, line {number}, field suite: task belongs to {task_suite!r}, not {suite!r}"
            )
        if task_id in seen:
            raise BadInput(f"{path}, line {number}, field id: duplicate task id {task_id!r}")
        seen.add(task_id)
        tasks.append(task)
    if not tasks:
        raise BadInput(f"task file {path} holds no tasks")
    return tasks


def to_jsonl(tasks: Iterable[BaseModel]) -> str:
    """Serialize tasks as JSONL, one task a line, in id order (byte-stable)."""
    ordered = sorted(tasks, key=lambda t: str(getattr(t, "id", "")))
    return "".join(t.model_dump_json() + "\n" for t in ordered)


def load_tasks(path: Path, suite: str | None = None) -> list[TaskSpec]:
    """Read a ToolBench-X JSONL task file (see :func:`load_jsonl`)."""
    return load_jsonl(path, TaskSpec, suite)


def _stratum(task: Any) -> tuple[str, str]:
    """(workflow, hazard family) for ToolBench-X; (domain, failure mode) for ToolFailBench."""
    hazard = getattr(task, "hazard", None)
    if hasattr(task, "workflow"):
        return task.workflow, hazard.family.value if hazard else "none"
    return getattr(task, "domain", ""), getattr(task, "target_failure_mode", "")


def stratified_subset(tasks: list[Any], n: int, seed: int = 0) -> list[Any]:
    """``n`` tasks spread evenly over (workflow type, hazard family) strata, chosen with a seed.

    Strata take turns, in a stable order, each giving its next task (shuffled with the
    seed), so a small subset still covers every workflow and hazard family.
    """
    strata: dict[tuple[str, str], list[Any]] = {}
    for task in sorted(tasks, key=lambda t: t.id):
        strata.setdefault(_stratum(task), []).append(task)
    rng = random.Random(seed)
    for members in strata.values():
        rng.shuffle(members)
    chosen: list[Any] = []
    queues = [strata[key] for key in sorted(strata)]
    while len(chosen) < n and any(queues):
        for queue in queues:
            if queue and len(chosen) < n:
                chosen.append(queue.pop(0))
    return sorted(chosen, key=lambda t: t.id)


def file_hash(path: Path) -> str:
    """SHA-256 of a file's bytes (recorded in every run manifest)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
