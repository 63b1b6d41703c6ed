"""``toolchaos import-inspect``: Inspect eval logs of toolchaos tasks as a run store."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inspect_ai.log import read_eval_log
from pydantic import BaseModel

from toolchaos._version import __version__
from toolchaos.core.errors import BadInput
from toolchaos.core.jsonutil import digest
from toolchaos.core.types import Episode
from toolchaos.integrations.inspect import EPISODE_KEY
from toolchaos.models.config import ModelEntry
from toolchaos.runner.run import MANIFEST_NAME, run_lock
from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.suites import get_suite


class ImportSummary(BaseModel):
    """What an import wrote."""

    out: str
    logs: int
    episodes: int


def _read(path: Path) -> Any:
    if not path.is_file():
        raise BadInput(f"Inspect log {path} does not exist")
    try:
        return read_eval_log(str(path))
    except Exception as exc:  # Inspect raises many kinds for a file that is not a log
        raise BadInput(
            f"{path} is not a readable Inspect eval log ({type(exc).__name__})"
        ) from None


def import_logs(logs: list[Path], out: Path) -> ImportSummary:
    """Store the toolchaos episodes of Inspect eval logs in the run directory ``out``.

    Every sample the toolchaos solver played holds its episode and its task; they are
    stored as a run would store them (one key per model, task, arm and epoch), so
    ``toolchaos report`` reports them. Importing a log again replaces its episodes.

    Raises:
        BadInput: A missing or unreadable log, or a log without toolchaos episodes.
    """
    episodes: list[Episode] = []
    tasks: dict[str, Any] = {}
    evals: list[dict[str, Any]] = []
    for path in logs:
        log = _read(path)
        found = 0
        for sample in log.samples or []:
            text = (sample.store or {}).get(EPISODE_KEY)
            if not isinstance(text, str):
                continue
            episode = Episode.model_validate_json(text)
            task = get_suite(episode.suite).parse_task(sample.metadata["toolchaos_task"])
            tasks[task.id] = task
            episodes.append(episode)
            found += 1
        if not found:
            raise BadInput(
                f"{path} holds no toolchaos episodes; run toolchaos/toolbench_x or "
                "toolchaos/toolfailbench with `inspect eval` to make one"
            )
        evals.append(
            {
                "log": str(path),
                "eval_id": log.eval.eval_id,
                "task": log.eval.task,
                "model": log.eval.model,
            }
        )
    specs = sorted({e.model for e in episodes})
    suites = sorted({e.suite for e in episodes})
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"cannot create output directory {out}: {exc.strerror}") from None
    fingerprint = digest({"imported_from": "inspect", "suites": suites, "models": specs})
    with run_lock(out):
        store = Store(out / STORE_NAME)
        try:
            held = store.get_meta("fingerprint")
            if held is not None and held != fingerprint:
                raise BadInput(f"{out} holds another run's store; choose a new --out directory")
            store.set_meta("fingerprint", fingerprint)
            store.set_meta("toolchaos_version", __version__)
            entries = [ModelEntry(spec=s, family="inspect").model_dump() for s in specs]
            store.set_meta("models", json.dumps(entries))
            store.put_tasks(tasks.values())
            for episode in episodes:
                store.put(episode)
            total = store.count()
        finally:
            store.close()
    manifest = {
        "toolchaos_version": __version__,
        "suite": suites[0] if len(suites) == 1 else suites,
        "models": [{"spec": s} for s in specs],
        "imported_from": evals,
        "ended": datetime.now(UTC).isoformat(timespec="seconds"),
        "episodes": total,
    }
    (out / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2) + "\n")
    return ImportSummary(out=str(out), logs=len(logs), episodes=len(episodes))
