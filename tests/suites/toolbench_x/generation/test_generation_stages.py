"""The generation stages against the fake OpenAI server replaying recorded answers.

Four subtopics: one whose tools are sound, one whose tools import os, one whose module
does not parse and one whose tool reads the clock. The sound one's tasks: a right one, one
whose claimed answer is wrong and one calling a tool that loops forever. Each bad item is
refused or dropped at its own stage with its reason; the kept task plays with the oracle
right and the naive policy wrong under its hazard; a second run resumes from the stored
answers without asking the model anything.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolchaos.models.base import make_factory
from toolchaos.models.config import ModelEntry
from toolchaos.suites.toolbench_x.generation.sandbox import Limits
from toolchaos.suites.toolbench_x.generation.stages import STAGE_DIR, generate
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync
from toolchaos.testing import FakeOpenAI, Reply

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "library_domain.json").read_text())
SOUND = FIXTURE["source"]
TOOLS = {
    "Branch catalogue": SOUND,
    "Reading rooms": "import os\n\n" + SOUND,
    "Holds desk": "@read\ndef get_room(db, room_id: str) -> dict:\n    return {{{\n",
    "Visitor log": SOUND
    + '\n\n@read\ndef visits_today(db, branch: str) -> dict:\n    """Visits so far today.\n\n'
    '    Args:\n        branch: The branch.\n    """\n'
    '    return {"branch": branch, "day": str(datetime.date.today())}\n',
}
BOOK = {"tool": "get_book", "args": {"book_id": "BK-103"}}
FEE = {"op": "value", "refs": [[0, "late_fee"]]}
TASKS = [
    {
        "workflow": "sequential",
        "prompt": "What is the late fee per day of the book BK-103?",
        "steps": [BOOK],
        "answer": FEE,
        "claimed_answer": "0.75",
    },
    {
        "workflow": "sequential",
        "prompt": "What does BK-103 cost per late day?",
        "steps": [BOOK],
        "answer": FEE,
        "claimed_answer": "1.5",
    },
    {
        "workflow": "sequential",
        "prompt": "How many shelves does the South branch have?",
        "steps": [{"tool": "stuck", "args": {"branch": "South"}}],
        "answer": {"op": "value", "refs": [[0, "shelves"]]},
    },
]


def answer(body: dict[str, Any], index: int) -> Reply:
    """What the recorded model wrote at each stage, found by its prompt."""
    prompt = body["messages"][-1]["content"]
    if "List 3 distinct" in prompt:
        names = [{"name": name, "about": "..."} for name in TOOLS]
        return Reply(content=json.dumps({"subtopics": names}))
    subtopic = prompt.split("Subtopic: ", 1)[1].split(".", 1)[0]
    if "Design the data" in prompt:
        return Reply(content="```json\n" + json.dumps({"tables": FIXTURE["tables"]}) + "\n```")
    if "Write a Python module" in prompt:
        return Reply(content="Here it is.\n```python\n" + TOOLS[subtopic] + "```\n")
    assert "user requests" in prompt and subtopic == "Branch catalogue", prompt
    return Reply(content=json.dumps({"tasks": TASKS}))


def _generate(url: str, out: Path) -> Any:
    entry = ModelEntry(
        spec="openai-compat/writer-1",
        base_urls=[url],
        max_retries=0,
        input_per_mtok=1.0,
        output_per_mtok=2.0,
    )
    client = make_factory(entry).for_episode(None, "generate", 0)  # type: ignore[arg-type]
    seen: list[str] = []
    tasks, report, path = generate(
        client, entry, out, "libraries", 3, 1, advance=seen.append, limits=Limits(cpu_seconds=1)
    )
    return tasks, report, path, seen


def test_every_bad_item_is_dropped_at_its_stage_and_the_rest_plays(tmp_path: Path) -> None:
    # only 3 subtopics are asked for: the fourth the model offers is cut
    with FakeOpenAI(answer, models=["writer-1"]) as server:
        url = server.base_url
        tasks, report, path, seen = _generate(url, tmp_path / "gen")
    assert report.subtopics == ["Branch catalogue", "Reading rooms", "Holds desk"]
    assert seen == ["subtopics", *["world", "tools", "tasks"] * 3]
    stages = report.stages
    assert (stages["world"].parsed, stages["tools"].parsed, stages["tasks"].parsed) == (3, 1, 1)
    refused = " | ".join(stages["tools"].refused)
    assert "02-reading_rooms" in refused and "os" in refused
    assert "03-holds_desk" in refused
    assert report.counts["raw"] == 3 and report.counts["parsed"] == 2
    assert report.counts["screened"] == 1 and report.counts["kept"] == 1
    reasons = " | ".join(d["reason"] for d in report.drops)
    assert "wrong reference" in reasons and "SIGXCPU" in reasons
    assert report.input_tokens > 0 and report.cost_usd > 0
    # every answer is stored with its prompt, and the refusal beside it
    stored = json.loads((tmp_path / "gen" / STAGE_DIR / "tools-02-reading_rooms.json").read_text())
    assert stored["raw"].startswith("Here it is.") and "os" in stored["refused"]
    assert json.loads(path.read_text())["counts"]["kept"] == 1
    [task] = tasks
    assert episode_correct(play_sync(task, "oracle", "hazard"), task, exact=True)
    assert not episode_correct(play_sync(task, "naive", "hazard"), task)
    assert (tmp_path / "gen" / "domains" / "gen_libraries_01.json").exists()

    # a second run resumes: every answer is read back, the (closed) server never asked
    again, report2, _, _ = _generate(url, tmp_path / "gen")
    assert sum(s.asked for s in report2.stages.values()) == 0
    assert sum(s.reused for s in report2.stages.values()) == 8  # 1 + 3 worlds + 3 + 1
    assert [t.id for t in again] == [t.id for t in tasks]


def test_a_tool_reading_the_clock_is_refused() -> None:
    from toolchaos.suites.toolbench_x.generation.domain import GeneratedToolError, parse_tools

    with pytest.raises(GeneratedToolError, match="today"):
        parse_tools(TOOLS["Visitor log"])


def test_a_task_that_does_not_fit_the_format_is_left_out_with_its_reason() -> None:
    from toolchaos.suites.toolbench_x.generation.stages import _tasks

    text = json.dumps({"tasks": [TASKS[0], {"prompt": "x", "steps": [{"args": {}}]}, "?"]})
    tasks, refused = _tasks(text, "Branch catalogue")
    assert [t.prompt for t in tasks] == [TASKS[0]["prompt"]]
    assert [r.split(" does not")[0] for r in refused] == ["task 2", "task 3"]
