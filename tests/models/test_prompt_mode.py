import json

from toolchaos.core.types import Message, ToolCall, ToolSpec
from toolchaos.models.prompt_mode import (
    INSTRUCTIONS,
    describe_tools,
    parse_tool_calls,
    prompt_messages,
    render_history,
    system_with_tools,
)

SPEC = ToolSpec(name="get_order", description="Get an order.", parameters={"type": "object"})


def test_tags_fences_and_bare_json_are_parsed_and_labelled() -> None:
    text, calls = parse_tool_calls(
        'Checking. <tool_call>{"name": "get_order", "arguments": {"order_id": "O-1"}}</tool_call>'
        '<tool_call>{"name": "track", "arguments": {"n": 2}}</tool_call>'
    )
    assert text == "Checking."
    assert [(c.name, json.loads(c.arguments), c.parsed_by) for c in calls] == [
        ("get_order", {"order_id": "O-1"}, "tag"),
        ("track", {"n": 2}, "tag"),
    ]
    _, fenced = parse_tool_calls(
        '```json\n{"name": "get_order", "arguments": {"order_id": "O-2"}}\n```'
    )
    assert fenced[0].parsed_by == "fence" and json.loads(fenced[0].arguments) == {"order_id": "O-2"}
    _, bare = parse_tool_calls('{"name": "get_order", "arguments": {"order_id": "O-3"}}')
    assert bare[0].parsed_by == "bare"
    _, nested = parse_tool_calls('{"function": {"name": "get_order", "arguments": "{\\"a\\": 1}"}}')
    assert nested[0].name == "get_order" and nested[0].arguments == '{"a": 1}'


def test_plain_answers_have_no_calls() -> None:
    assert parse_tool_calls("The total is $42.10.") == ("The total is $42.10.", [])
    assert parse_tool_calls('I found {"total": 42}.')[1] == []


def test_broken_json_in_a_tag_stays_the_models_mistake() -> None:
    _, calls = parse_tool_calls(
        '<tool_call>{"name": "get_order", "arguments": {"order_id": </tool_call>'
    )
    assert calls[0].name == "get_order"
    assert calls[0].arguments.startswith('{"name"')  # handed to the env, which answers 400


def test_history_is_rendered_as_text_turns() -> None:
    messages = [
        Message(role="system", content="Be useful."),
        Message(role="user", content="Where is O-1?"),
        Message(
            role="assistant",
            tool_calls=[ToolCall(id="c0", name="get_order", arguments='{"order_id": "O-1"}')],
            reasoning="secret chain of thought",
        ),
        Message(role="tool", tool_call_id="c0", name="get_order", content='{"status": "shipped"}'),
    ]
    rendered = prompt_messages(messages, [SPEC], "auto")
    assert [m.role for m in rendered] == ["system", "user", "assistant", "user"]
    assert "get_order" in (rendered[0].content or "") and "<tool_call>" in (
        rendered[0].content or ""
    )
    assert (
        rendered[2].content
        == '<tool_call>{"name": "get_order", "arguments": {"order_id": "O-1"}}</tool_call>'
    )
    assert (
        rendered[3].content == '<tool_result name="get_order">{"status": "shipped"}</tool_result>'
    )
    assert all(m.reasoning is None for m in render_history(messages))
    assert "Available tools" not in (prompt_messages(messages, [SPEC], "none")[0].content or "")


FORECAST = ToolSpec(
    name="get_forecast",
    description="Weather forecast for a city. Returns one day per entry.",
    parameters={
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name. As spelled locally."},
            "unit": {"type": "string", "enum": ["C", "F"], "description": "Temperature unit."},
        },
        "required": ["city"],
    },
)


def test_compact_tools_keep_every_parameter_on_one_line_per_tool() -> None:
    compact = describe_tools([FORECAST, SPEC], compact=True)
    assert compact.splitlines() == [
        "- get_forecast(city: string, unit?: C|F): Weather forecast for a city. "
        "(city: City name.; unit: Temperature unit.)",
        "- get_order(): Get an order.",
    ]
    assert len(compact) < len(describe_tools([FORECAST, SPEC]))


def test_prompt_layout_puts_what_changes_least_first() -> None:
    one = system_with_tools("Hint: retry.", [FORECAST])
    other = system_with_tools("Be brief.", [SPEC])
    # every episode shares the instructions; every arm of a task shares the tools too
    assert one.startswith(INSTRUCTIONS) and other.startswith(INSTRUCTIONS)
    assert "get_forecast" not in INSTRUCTIONS and "get_order" not in INSTRUCTIONS
    assert one.index("get_forecast") < one.index("Hint: retry.")
    hint = system_with_tools("Base.\n\nHint: retry.", [FORECAST])
    clean = system_with_tools("Base.", [FORECAST])
    assert hint.startswith(clean)


def test_the_final_request_can_extend_the_previous_prompt() -> None:
    turn = [Message(role="system", content="Be brief."), Message(role="user", content="Go.")]
    final = [*turn, Message(role="user", content="Answer now.")]
    before = prompt_messages(turn, [FORECAST], "auto", compact=True)
    kept = prompt_messages(final, [FORECAST], "none", compact=True, keep_tools=True)
    assert kept[: len(before)] == before
    dropped = prompt_messages(final, [FORECAST], "none", compact=True)
    assert dropped[0].content == "Be brief."
