"""Recovery actions are one enum: the docs list its members, task files hold only them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pydantic
import pytest

import toolchaos
from toolchaos.core.types import RecoveryAction, RecoveryStep

ROOT = Path(__file__).resolve().parents[2]
EXTENDING = ROOT / "docs" / "extending.md"
TASK_FILES = sorted(Path(toolchaos.__file__).parent.glob("suites/*/data/**/tasks.jsonl"))


def documented_actions(text: str) -> list[str]:
    """The actions docs/extending.md lists in its hazard-variant step "The recipe"."""
    item = text.split("**The recipe**", 1)[1].split("\n4. ", 1)[0]
    listed = re.search(r"\(([^)]*)\)", item)
    assert listed is not None, "the recipe step lists no actions in parentheses"
    return re.findall(r"`(\w+)`", listed.group(1))


def stored_actions(path: Path) -> set[str]:
    """The recovery actions a task file holds."""
    with path.open(encoding="utf-8") as lines:
        return {a for line in lines if line.strip() for a in recovery_actions(json.loads(line))}


def recovery_actions(value: Any) -> list[str]:
    """Every ``action`` of every ``recovery`` list anywhere in a JSON value."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "recovery" and isinstance(item, list):
                found += [s["action"] for s in item if isinstance(s, dict) and "action" in s]
            found += recovery_actions(item)
    elif isinstance(value, list):
        for item in value:
            found += recovery_actions(item)
    return found


def test_the_docs_list_exactly_the_members() -> None:
    listed = documented_actions(EXTENDING.read_text(encoding="utf-8"))
    assert len(listed) == len(set(listed)), "an action is listed twice"
    assert set(listed) == {a.value for a in RecoveryAction}


def test_the_docs_reader_sees_a_missing_or_extra_action() -> None:
    """The comparison above can fail: a list that drops or adds an action differs."""
    text = "3. **The recipe**: actions (`retry`, `validate`).\n4. **The hints**"
    assert documented_actions(text) == ["retry", "validate"]
    assert set(documented_actions(text)) != {a.value for a in RecoveryAction}


@pytest.mark.parametrize("path", TASK_FILES, ids=lambda p: str(p.relative_to(p.parents[3])))
def test_every_stored_action_is_a_member(path: Path) -> None:
    members = {a.value for a in RecoveryAction}
    stored = stored_actions(path)
    assert stored <= members, sorted(stored - members)


UNSHIPPED: set[str] = set()
"""Members a build proposes that no shipped file holds yet (empty since the v3 rebuild)."""


def test_the_shipped_tasks_use_every_member() -> None:
    """No member is dead: each is in some shipped task file (the current or v1 set)."""
    used = set().union(*(stored_actions(path) for path in TASK_FILES))
    assert used | UNSHIPPED == {a.value for a in RecoveryAction}


def test_an_action_outside_the_enum_is_refused() -> None:
    with pytest.raises(pydantic.ValidationError, match="action"):
        RecoveryStep(action="validate")


def test_a_step_reads_and_writes_the_stored_strings() -> None:
    step = RecoveryStep.model_validate({"action": "next_page", "params": {"param": "page"}})
    assert step.action is RecoveryAction.NEXT_PAGE
    assert step.action == "next_page"
    assert step.model_dump_json() == '{"action":"next_page","params":{"param":"page"}}'
