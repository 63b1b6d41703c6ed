"""The ToolFailBench v5 importer, on a small hand-made release written to tmp_path."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from toolchaos.core.errors import BadInput
from toolchaos.suites.toolfailbench import leak_problems, load_fail_tasks, load_v5
from toolchaos.suites.toolfailbench.importer import (
    release_domain,
    release_tasks,
    release_vocabulary,
    strip_front_matter,
)


def _tool(name: str, description: str, properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": list(properties),
            },
        },
    }


TEXT = {"type": "string"}

FINANCE_TOOLS = {
    "domain": "finance",
    "version": "5.0",
    "tools": [
        _tool("get_stock_quote", "Latest price of a stock.", {"ticker": TEXT}),
        _tool("get_fx_rate", "Spot rate between two currencies.", {"base": TEXT, "quote": TEXT}),
    ],
}
MEDICAL_TOOLS = {
    "domain": "medical",
    "version": "5.0",
    "tools": [
        _tool("get_half_life", "Elimination half-life of a drug.", {"drug": TEXT}),
        _tool("check_interaction", "Interaction between two drugs.", {"a": TEXT, "b": TEXT}),
    ],
}
FINANCE_TASKS = {
    "domain": "finance",
    "version": "5.0",
    "system_prompt_ref": "system_prompts/v5/finance.md",
    "tools_ref": "tasks_v5/finance/tools.json",
    "task_count_target": 3,
    "tasks": [
        {
            "task_id": "fin-001",
            "domain": "finance",
            "turn_type": "single",
            "target_failure_mode": "tool_skip",
            "conflict_type": "contradicting",
            "user_message": "What is Microsoft's share price?",
            "expected_tool_call": {"name": "get_stock_quote", "arguments": {"ticker": "MSFT"}},
            "mock_tool_return": {"ticker": "MSFT", "price": 251.37},
            "ground_truth": {"answer_must_contain": ["251.37"], "match_mode": "all"},
            "parametric_trap_note": "Models tend to recall a price near 420.",
            "metadata": {"entity": "MSFT", "memorized_prior_estimate": 420, "sub_category": "q"},
        },
        {
            "task_id": "fin-002",
            "domain": "finance",
            "turn_type": "single",
            "target_failure_mode": "result_ignore",
            "conflict_type": "neutral",
            "user_message": "I thought EUR/USD was around 1.08, can you check?",
            "expected_tool_call": {
                "name": "get_fx_rate",
                "arguments": {"base": "EUR", "quote": "USD"},
            },
            "mock_tool_return": [
                {"rate": 1.4321, "as_of": "2026-05-01"},
                {"rate": 1.4},
            ],
            "ground_truth": {
                "answer_must_contain": ["1.4321", "1.43"],
                "match_mode": "any",
                "answer_must_not_contain": ["1.08"],
            },
            "metadata": {
                "phrasing_register": "casual_anchored",
                "user_anchored_prior": "1.08",
                "trap_value": 1.4321,
            },
        },
        {
            "task_id": "fin-003",
            "domain": "finance",
            "turn_type": "single",
            "target_failure_mode": "control",
            "conflict_type": None,
            "user_message": "What does a P/E ratio compare?",
            "expected_tool_call": None,
            "mock_tool_return": None,
            "ground_truth": {"answer_must_contain": ["earnings"], "match_mode": "all"},
        },
    ],
}
MEDICAL_TASKS = {
    "domain": "medical",
    "version": "5.0",
    "system_prompt_ref": "system_prompts/v5/medical.md",
    "tools_ref": "tasks_v5/medical/tools.json",
    "task_count_target": 2,
    "tasks": [
        {
            "task_id": "med-001",
            "domain": "medical",
            "turn_type": "single",
            "target_failure_mode": "output_fabrication",
            "conflict_type": "contradicting",
            "user_message": "Give me the half-life and metabolite of sertraline.",
            "expected_tool_call": {"name": "get_half_life", "arguments": {"drug": "sertraline"}},
            "mock_tool_return": {"drug": "sertraline", "half_life_hours": 61.5},
            "ground_truth": {"answer_must_contain": ["61.5"]},
            "metadata": {"phrasing_register": "terse"},
        },
        {
            "task_id": "med-002",
            "domain": "medical",
            "turn_type": "single",
            "target_failure_mode": "control",
            "conflict_type": "none",
            "user_message": "What does PRN mean on a prescription?",
            "ground_truth": {"answer_must_contain": ["as needed"], "match_mode": "all"},
        },
    ],
}
FRONT_MATTER = "---\ntitle: Finance desk\nversion: 5\n---\n\nYou are a finance assistant.\n"


def _write(root: Path, relative: str, data: Any) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def release(tmp_path: Path) -> Path:
    root = tmp_path / "release"
    _write(root, "system_prompts/v5/finance.md", FRONT_MATTER)
    _write(root, "system_prompts/v5/medical.md", "You are a clinical pharmacist's assistant.\n")
    _write(root, "tasks_v5/finance/tools.json", FINANCE_TOOLS)
    _write(root, "tasks_v5/medical/tools.json", MEDICAL_TOOLS)
    _write(root, "tasks_v5/finance/tasks.json", FINANCE_TASKS)
    _write(root, "tasks_v5/medical/tasks.json", MEDICAL_TASKS)
    return root


def test_import_maps_tasks_prompts_and_tools(release: Path) -> None:
    imported = load_v5(release)
    assert [t.id for t in imported.tasks] == ["fin-001", "fin-002", "fin-003", "med-001", "med-002"]
    assert set(imported.domains) == {"finance", "medicine"}
    assert imported.versions == {"finance": "5.0", "medicine": "5.0"}
    finance, medicine = imported.domains["finance"], imported.domains["medicine"]
    assert finance.system_prompt == "You are a finance assistant."
    assert medicine.system_prompt == "You are a clinical pharmacist's assistant."
    assert finance.tool_names == ["get_stock_quote", "get_fx_rate"]
    assert medicine.tool("check_interaction") is not None

    skip, ignore, control, fabrication, med_control = imported.tasks
    assert skip.domain == "finance" and skip.kind == "tool_required"
    assert skip.target_failure_mode == "tool_skip" and skip.conflict_type == "contradicting"
    assert skip.expected_tool == "get_stock_quote" and skip.expected_arguments == {"ticker": "MSFT"}
    assert skip.trap_return == {"ticker": "MSFT", "price": 251.37}
    assert skip.prior_estimate == "420" and skip.entity == "MSFT"
    # nothing invented: no register, no trap value (not even the first must-contain entry)
    assert skip.register is None and skip.trap_value is None and skip.user_anchor is None
    assert skip.metadata["absent_in_release"] == [
        "metadata.phrasing_register",
        "metadata.trap_value",
        "metadata.user_anchored_prior",
    ]
    assert skip.metadata["parametric_trap_note"].startswith("Models tend")
    assert skip.metadata["source"] == "v5" and skip.metadata["turn_type"] == "single"
    assert skip.metadata["sub_category"] == "q"  # the release's metadata is kept as written
    assert skip.metadata["memorized_prior_estimate"] == 420
    assert ignore.register == "casual_anchored" and ignore.user_anchor == "1.08"
    assert ignore.trap_value == "1.4321" and ignore.match_mode == "any"
    assert ignore.trap_return == [{"rate": 1.4321, "as_of": "2026-05-01"}, {"rate": 1.4}]
    assert ignore.must_not_contain == ["1.08"]
    assert control.kind == "control" and control.conflict_type == "none"
    assert control.expected_tool is None and control.trap_return is None
    assert fabrication.domain == "medicine" and fabrication.register == "terse"
    assert fabrication.match_mode == "all"  # missing: the release's own default
    assert fabrication.metadata["source_domain"] == "medical"
    assert med_control.must_contain == ["as needed"] and med_control.metadata["absent_in_release"]
    for task in imported.tasks:
        assert leak_problems(task, imported.domains[task.domain]) == []


def test_return_schemas_come_from_the_release_mocks(release: Path) -> None:
    imported = load_v5(release)
    finance = imported.domains["finance"]
    assert finance.output_schemas == {
        "get_stock_quote": {
            "type": "object",
            "properties": {"ticker": {"type": "string"}, "price": {"type": "number"}},
        },
        "get_fx_rate": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"rate": {"type": "number"}, "as_of": {"type": "string"}},
            },
        },
    }
    assert finance.field_vocabulary() == {"ticker", "price", "rate", "as_of"}
    assert imported.domains["medicine"].field_vocabulary() == {"drug", "half_life_hours"}
    assert finance.tool_answer_template == finance.direct_answer_template == ""


def test_release_tasks_carry_their_domain_and_vocabulary(release: Path) -> None:
    tasks = {t.id: t for t in release_tasks(load_v5(release))}
    domain = release_domain(tasks["fin-001"])
    assert domain is not None and domain.tool_names == ["get_stock_quote", "get_fx_rate"]
    # the release's own return fields, none of the built-in finance domain's
    assert release_vocabulary(tasks["fin-001"]) == {"ticker", "price", "rate", "as_of"}
    assert release_vocabulary(tasks["med-002"]) == {"drug", "half_life_hours"}
    assert release_domain(load_fail_tasks()[0]) is None
    assert release_vocabulary(load_fail_tasks()[0]) is None


def test_import_of_chosen_domains(release: Path) -> None:
    assert [t.id for t in load_v5(release, ["medicine"]).tasks] == ["med-001", "med-002"]
    assert [t.id for t in load_v5(release, ["medical"]).tasks] == ["med-001", "med-002"]


def test_front_matter_is_dropped_only_at_the_top(tmp_path: Path) -> None:
    path = tmp_path / "p.md"
    assert strip_front_matter("---\na: 1\n...\nBody\n", path) == "Body"
    assert strip_front_matter("Body\n---\nmore\n", path) == "Body\n---\nmore"
    assert strip_front_matter("\ufeff---\nx: y\n---\nHi", path) == "Hi"


Mutation = Callable[[Path], None]


def _edit(relative: str, change: Callable[[dict[str, Any]], None]) -> Mutation:
    def apply(root: Path) -> None:
        path = root / relative
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(json.dumps(data), encoding="utf-8")

    return apply


def _task_edit(index: int, change: Callable[[dict[str, Any]], None]) -> Mutation:
    return _edit("tasks_v5/finance/tasks.json", lambda d: change(d["tasks"][index]))


def _drop(*keys: str | int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]

    return change


def _set(value: Any, *keys: str | int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = copy.deepcopy(value)

    return change


FINANCE_FILE = "tasks_v5/finance/tasks.json"
CASES: list[tuple[str, Mutation, list[str]]] = [
    (
        "invalid json",
        lambda root: _write(root, FINANCE_FILE, "{not json"),
        [FINANCE_FILE, "is not valid JSON"],
    ),
    (
        "missing top-level field",
        _edit(FINANCE_FILE, _drop("tools_ref")),
        [FINANCE_FILE, "field tools_ref: missing"],
    ),
    (
        "tasks not a list",
        _edit(FINANCE_FILE, _set({"a": 1}, "tasks")),
        [FINANCE_FILE, "field tasks: expected a list"],
    ),
    (
        "missing system prompt file",
        lambda root: (root / "system_prompts/v5/finance.md").unlink(),
        [FINANCE_FILE, "field system_prompt_ref", "finance.md does not exist"],
    ),
    (
        "ref outside the root",
        _edit(FINANCE_FILE, _set("../outside.md", "system_prompt_ref")),
        [FINANCE_FILE, "field system_prompt_ref", "outside the release root"],
    ),
    (
        "missing tools file",
        lambda root: (root / "tasks_v5/finance/tools.json").unlink(),
        [FINANCE_FILE, "field tools_ref", "tools.json does not exist"],
    ),
    (
        "file domain mismatch",
        _edit(FINANCE_FILE, _set("legal", "domain")),
        [FINANCE_FILE, "field domain", "'legal' does not match the folder 'finance'"],
    ),
    (
        "task without id",
        _task_edit(1, _drop("task_id")),
        [FINANCE_FILE, "task #2, field task_id: missing"],
    ),
    (
        "missing nested field",
        _task_edit(1, _drop("ground_truth", "answer_must_contain")),
        [FINANCE_FILE, "task fin-002, field ground_truth.answer_must_contain: missing"],
    ),
    (
        "must-not-contain not a list",
        _task_edit(1, _set({"a": 1}, "ground_truth", "answer_must_not_contain")),
        [FINANCE_FILE, "task fin-002, field ground_truth.answer_must_not_contain", "a list"],
    ),
    (
        "empty must_contain",
        _task_edit(0, _set([], "ground_truth", "answer_must_contain")),
        [FINANCE_FILE, "task fin-001, field ground_truth.answer_must_contain"],
    ),
    (
        "bad match mode",
        _task_edit(0, _set("most", "ground_truth", "match_mode")),
        [FINANCE_FILE, "task fin-001, field ground_truth.match_mode", "'most' is not one of"],
    ),
    (
        "bad failure mode",
        _task_edit(0, _set("skip", "target_failure_mode")),
        [FINANCE_FILE, "task fin-001, field target_failure_mode", "'skip' is not one of"],
    ),
    (
        "bad conflict type",
        _task_edit(0, _set("maybe", "conflict_type")),
        [FINANCE_FILE, "task fin-001, field conflict_type", "'maybe' is not one of"],
    ),
    (
        "missing conflict type",
        _task_edit(0, _drop("conflict_type")),
        [FINANCE_FILE, "task fin-001, field conflict_type: missing"],
    ),
    (
        "missing user message",
        _task_edit(0, _set("  ", "user_message")),
        [FINANCE_FILE, "task fin-001, field user_message", "non-empty string"],
    ),
    (
        "unknown expected tool",
        _task_edit(0, _set("get_price", "expected_tool_call", "name")),
        [FINANCE_FILE, "task fin-001, field expected_tool_call.name", "'get_price' is not a tool"],
    ),
    (
        "arguments not an object",
        _task_edit(0, _set(["MSFT"], "expected_tool_call", "arguments")),
        [FINANCE_FILE, "task fin-001, field expected_tool_call.arguments", "got a list"],
    ),
    (
        "missing expected call",
        _task_edit(1, _drop("expected_tool_call")),
        [FINANCE_FILE, "task fin-002, field expected_tool_call: missing"],
    ),
    (
        "missing mock return",
        _task_edit(1, _drop("mock_tool_return")),
        [FINANCE_FILE, "task fin-002, field mock_tool_return: missing"],
    ),
    (
        "mock return a number",
        _task_edit(1, _set(1.5, "mock_tool_return")),
        [FINANCE_FILE, "task fin-002, field mock_tool_return", "an object, a list or null"],
    ),
    (
        "control with a mock return",
        _task_edit(2, _set({"rate": 1}, "mock_tool_return")),
        [FINANCE_FILE, "task fin-003, field mock_tool_return", "a control task has no tool"],
    ),
    (
        "task domain mismatch",
        _task_edit(0, _set("legal", "domain")),
        [FINANCE_FILE, "task fin-001, field domain", "'legal' does not match"],
    ),
    (
        "control with a tool call",
        _task_edit(2, _set({"name": "get_fx_rate", "arguments": {}}, "expected_tool_call")),
        [FINANCE_FILE, "task fin-003, field expected_tool_call", "expects no tool call"],
    ),
    (
        "duplicate id across domains",
        _edit("tasks_v5/medical/tasks.json", _set("fin-001", "tasks", 0, "task_id")),
        ["tasks_v5/medical/tasks.json", "task fin-001, field task_id", "already used"],
    ),
    (
        "tool without name",
        _edit("tasks_v5/finance/tools.json", _drop("tools", 0, "function", "name")),
        ["tasks_v5/finance/tools.json", "tool #1, field function.name: missing"],
    ),
    (
        "tool with a broken schema",
        _edit(
            "tasks_v5/finance/tools.json",
            _set({"type": "objekt"}, "tools", 1, "function", "parameters"),
        ),
        ["tasks_v5/finance/tools.json", "tool get_fx_rate, field function.parameters", "schema"],
    ),
    (
        "tools list missing",
        _edit("tasks_v5/finance/tools.json", _drop("tools")),
        ["tasks_v5/finance/tools.json", "field tools: missing"],
    ),
    (
        "unterminated front matter",
        lambda root: _write(root, "system_prompts/v5/finance.md", "---\ntitle: x\nYou are..."),
        ["system_prompts/v5/finance.md", "field front matter", "no closing"],
    ),
    (
        "empty system prompt",
        lambda root: _write(root, "system_prompts/v5/finance.md", "---\ntitle: x\n---\n\n"),
        ["system_prompts/v5/finance.md", "field system prompt", "empty"],
    ),
]


def _one_sentence(message: str) -> bool:
    return "\n" not in message and not re.search(r"[.!?]\s+[A-Z]", message)


@pytest.mark.parametrize(("mutate", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_every_error_names_file_task_and_field(
    release: Path, mutate: Mutation, expected: list[str]
) -> None:
    mutate(release)
    with pytest.raises(BadInput) as caught:
        load_v5(release)
    message = str(caught.value)
    for piece in expected:
        assert piece in message, message
    assert _one_sentence(message), message


def test_missing_root_domain_and_unknown_names(tmp_path: Path, release: Path) -> None:
    with pytest.raises(BadInput, match="is not a directory"):
        load_v5(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(BadInput, match=r"holds no <domain>/tasks\.json"):
        load_v5(tmp_path / "empty")
    with pytest.raises(BadInput, match=r"tasks_v5/legal/tasks\.json does not exist"):
        load_v5(release, ["legal"])
    with pytest.raises(BadInput, match="unknown v5 domain 'sports'"):
        load_v5(release, ["sports"])


def test_null_returns_and_json_text_returns_are_taken_as_written(release: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["tasks"][0]["mock_tool_return"] = None  # the tool returns null
        data["tasks"][1]["mock_tool_return"] = '[{"rate": 1.4321}]'

    _edit(FINANCE_FILE, change)(release)
    tasks = {t.id: t for t in load_v5(release).tasks}
    assert tasks["fin-001"].kind == "tool_required" and tasks["fin-001"].trap_return is None
    assert tasks["fin-002"].trap_return == [{"rate": 1.4321}]
