"""The per-task tool environment, and the shipped tasks under the rule classifier."""

from __future__ import annotations

import json

import pytest

from toolchaos.core.types import ToolCall, ToolSpec
from toolchaos.suites.toolfailbench import FailTask, fail_domain, load_fail_tasks
from toolchaos.suites.toolfailbench.env import FailEnv, schema_violations
from toolchaos.suites.toolfailbench.rules import ExecutedCall, classify


@pytest.fixture(scope="module")
def shipped() -> list[FailTask]:
    return load_fail_tasks()


def test_env_serves_the_trap_and_api_style_errors(shipped: list[FailTask]) -> None:
    task = next(t for t in shipped if t.needs_tool and t.domain == "medicine")
    env = FailEnv(task)
    assert [s.name for s in env.toolbox()] == fail_domain("medicine").tool_names
    args = json.dumps(task.expected_arguments)
    hit = env.call(ToolCall(id="c1", name=task.expected_tool or "", arguments=args))
    assert hit.ok and hit.content == task.trap_return
    unknown = env.call(ToolCall(id="c2", name="get_weather", arguments="{}"))
    assert not unknown.ok and unknown.content["error"]["code"] == 404
    broken = env.call(ToolCall(id="c3", name=task.expected_tool or "", arguments="{oops"))
    assert not broken.ok and "Invalid JSON" in broken.content["error"]["message"]
    assert [e.ordinal for e in env.trace] == [1, 2, 3]


def test_field_vocabulary_lists_nested_fields() -> None:
    vocabulary = fail_domain("finance").field_vocabulary()
    assert {"price", "revenue_bn", "weight_pct", "ex_date"} <= vocabulary


def test_shipped_tasks_label_as_expected_under_the_rule_classifier(
    shipped: list[FailTask],
) -> None:
    vocabularies = {d: fail_domain(d).field_vocabulary() for d in {t.domain for t in shipped}}
    for task in shipped:
        vocabulary = vocabularies[task.domain]
        wanted = task.must_contain if task.match_mode == "all" else task.must_contain[:1]
        faithful = "The figures are " + ", ".join(wanted) + "."
        if not task.needs_tool:
            label = classify(
                task.kind, None, task.must_contain, task.match_mode, [], faithful, vocabulary
            )
            assert label.label == "correct", (task.id, label)
            continue
        executed = [ExecutedCall(task.expected_tool or "", True, task.trap_return)]
        args = (task.kind, task.expected_tool, task.must_contain, task.match_mode)
        assert classify(*args, executed, faithful, vocabulary).label == "correct", task.id
        assert classify(*args, [], faithful, vocabulary).label == "tool_skip", task.id
        prior = f"It is {task.prior_estimate}."
        assert classify(*args, executed, prior, vocabulary).label != "correct", task.id


def test_a_built_in_env_keeps_its_answer_formats(shipped: list[FailTask]) -> None:
    env = FailEnv(shipped[0])
    domain = fail_domain(shipped[0].domain)
    assert env.system().startswith(domain.system_prompt + "\n\nWhen you used a tool: ")
    assert env.system().endswith("When no tool is needed: " + domain.direct_answer_template)
    assert not env.release and env.trace == []


def test_schema_violations_lists_every_broken_rule() -> None:
    spec = ToolSpec(
        name="lookup",
        description="Look a framework up.",
        parameters={
            "type": "object",
            "properties": {
                "framework": {"type": "string", "enum": ["NIST_CSF", "PCI_DSS"]},
                "indicator": {"type": "string"},
            },
            "required": ["framework", "indicator"],
        },
    )
    assert schema_violations(spec, {"framework": "NIST_CSF", "indicator": "x"}) == []
    assert schema_violations(spec, {"framework": "NIST CSF"}) == [
        "'indicator' is a required property",
        "framework: 'NIST CSF' is not one of ['NIST_CSF', 'PCI_DSS']",
    ]
    assert schema_violations(spec, "{oops") == ["the arguments are not a JSON object: '{oops'"]
