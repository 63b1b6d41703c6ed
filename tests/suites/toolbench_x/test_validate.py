"""`toolchaos validate` rejects broken task files with the reason, as a user would see it."""

import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from toolchaos.core.types import TaskSpec
from toolchaos.suites import get_suite
from toolchaos.suites.toolbench_x.validate import validate_task


@cache
def shipped() -> list[TaskSpec]:
    # the frozen v2: it holds every variant, legacy ones included
    suite = get_suite("toolbench-x")
    return suite.load(suite.version_path("v2"))


def pick(variant: str) -> TaskSpec:
    return next(t for t in shipped() if t.hazard is not None and t.hazard.variant == variant)


def validate(tmp_path: Path, tasks: list[TaskSpec]) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(t.model_dump_json() + "\n" for t in tasks))
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "250", "PATH": "/usr/bin:/bin"},
    )


def leaked() -> TaskSpec:
    task = shipped()[0]
    return task.model_copy(
        update={"id": "leaky", "prompt": f"{task.prompt} (I think it's {task.reference.answer})"}
    )


def unsolvable() -> TaskSpec:
    task = pick("transient")
    assert task.hazard is not None
    hazard = task.hazard.model_copy(update={"recovery": []})
    return task.model_copy(update={"id": "unsolvable", "hazard": hazard})


def harmless() -> TaskSpec:
    task = pick("transient")
    assert task.hazard is not None
    hazard = task.hazard.model_copy(update={"ordinals": [99]})
    return task.model_copy(update={"id": "harmless", "hazard": hazard})


@pytest.mark.parametrize(
    "make,check",
    [(leaked, "leak"), (unsolvable, "recovery"), (harmless, "naive-survives")],
)
def test_validate_names_the_reason(tmp_path: Path, make: object, check: str) -> None:
    bad = make()  # type: ignore[operator]
    assert check in {p.check for p in validate_task(bad)}
    result = validate(tmp_path, [shipped()[1], bad])
    assert result.returncode == 1
    assert f"{bad.id}: {check}:" in result.stdout
    assert "1 of 2 tasks pass" in result.stdout


def test_a_task_that_repeats_another_fails_as_a_duplicate(tmp_path: Path) -> None:
    task = next(t for t in shipped() if t.workflow == "parallel")
    copied = task.model_copy(update={"id": "copied"})
    reworded = task.model_copy(update={"id": "reworded", "prompt": f"Quick one: {task.prompt}"})
    reworded.reference = task.reference.model_copy(
        update={"steps": list(reversed(task.reference.steps))}
    )
    assert validate_task(copied) == [] and validate_task(reworded) == []
    result = validate(tmp_path, [task, copied, reworded, shipped()[1]])
    assert result.returncode == 1
    assert f"copied: duplicate-prompt: the same prompt as {task.id}" in result.stdout
    assert f"reworded: duplicate-question: asks what {task.id} asks" in result.stdout
    assert "2 of 4 tasks pass" in result.stdout


def test_a_clean_file_passes(tmp_path: Path) -> None:
    result = validate(tmp_path, shipped()[:5])
    assert result.returncode == 0, result.stdout
    assert "5 of 5 tasks pass" in result.stdout


def test_a_wrong_answer_or_end_state_in_the_file_is_caught() -> None:
    reads = next(t for t in shipped() if not t.reference.writes)
    wrong = reads.reference.model_copy(update={"answer": "totally different"})
    assert "reference" in {
        p.check for p in validate_task(reads.model_copy(update={"reference": wrong}))
    }
    writes = next(t for t in shipped() if t.reference.writes)
    wrong = writes.reference.model_copy(update={"end_state": "0" * 64})
    assert "reference" in {
        p.check for p in validate_task(writes.model_copy(update={"reference": wrong}))
    }


def test_play_sync_plays_an_episode_that_waits_on_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio

    from toolchaos.suites.toolbench_x.baselines import ScriptedPolicy
    from toolchaos.suites.toolbench_x.validate import play_sync

    task = pick("transient")
    direct = play_sync(task, "oracle", "hazard")
    respond = ScriptedPolicy.respond

    async def waits(self: ScriptedPolicy, request: object) -> object:
        await asyncio.sleep(0)  # hands control back: only an event loop can resume it
        return respond(self, request)  # type: ignore[arg-type]

    monkeypatch.setattr(ScriptedPolicy, "complete", waits)
    again = play_sync(task, "oracle", "hazard")
    assert again.model_dump_json() == direct.model_dump_json()
    assert again.trace and again.final_answer


def test_a_glitch_in_a_v3_prompt_fails_validation_and_a_frozen_one_keeps_its_own() -> None:
    suite = get_suite("toolbench-x")
    v2 = suite.load(suite.version_path("v2"))
    frozen = next(t for t in v2 if "(I mean the" in t.prompt)
    assert "release" not in frozen.metadata
    assert not [p for p in validate_task(frozen) if p.check == "prose"]
    current = frozen.model_copy(update={"metadata": {**frozen.metadata, "release": 3}})
    problems = [p for p in validate_task(current) if p.check == "prose"]
    assert problems and "tacked-on remark" in problems[0].reason
