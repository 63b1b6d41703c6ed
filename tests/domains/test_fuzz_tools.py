"""Fuzz every tool of every domain through the episode runtime.

Each tool is called the way a model calls it (raw argument text through ``Env.call``),
with arguments drawn from its own JSON schema and with garbage: wrong types, huge and
unicode strings, negative and enormous numbers, missing and extra keys, text that is not
JSON at all. Whatever comes in, the runtime answers with a result or a tool error (4xx or
5xx, worded for the agent), and never raises. `make fuzz` draws many more examples.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import fuzz_examples
from toolchaos.core.types import AnswerSpec, Reference, TaskSpec, ToolCall
from toolchaos.domains import DOMAINS, get_domain
from toolchaos.env.runtime import Env

NAMES = sorted(DOMAINS)
EXAMPLES_PER_TOOL = 6

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1000, max_size=5000),
    st.sampled_from(
        ["", " ", "null", "0", "-1", "1e309", "../../etc/passwd", "'; DROP TABLE x;--"]
    ),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=8,
)


def fuzz_task(domain: str) -> TaskSpec:
    """A task whose toolbox is every tool of ``domain`` (the clean arm, no hazard)."""
    return TaskSpec(
        id=f"fuzz-{domain}",
        suite="toolbench-x",
        domain=domain,
        topic="fuzz",
        subtopic="fuzz",
        workflow="sequential",
        prompt="fuzz",
        tools=sorted(get_domain(domain).tools),
        reference=Reference(steps=[], answer_spec=AnswerSpec(op="none")),
    )


def value_for(prop: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values a parameter's schema accepts (the subset of JSON Schema tools are built from).

    hypothesis-jsonschema would do this, but its last release (0.23.1) fails on current
    Hypothesis, and tool parameters use only these keywords.
    """
    if "enum" in prop:
        return st.sampled_from(prop["enum"])
    kind = prop.get("type")
    low = prop.get("minimum")
    if kind == "integer":
        return st.integers(min_value=low, max_value=2**63) | st.sampled_from([low or 0, 1])
    if kind == "number":
        return st.floats(min_value=low, allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(value_for(prop.get("items", {})), max_size=5)
    if kind == "string":
        return st.text(max_size=30) | st.text(min_size=500, max_size=3000)
    raise AssertionError(f"a tool parameter schema uses an unexpected type: {prop}")


@cache
def well_typed(domain: str, tool: str) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments that pass the tool's schema: every required one, some optional ones."""
    schema = get_domain(domain).tools[tool].spec.parameters
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    return st.fixed_dictionaries(
        {k: value_for(v) for k, v in props.items() if k in required},
        optional={k: value_for(v) for k, v in props.items() if k not in required},
    )


def garbage(domain: str, tool: str) -> st.SearchStrategy[str]:
    """Argument text that is wrong in some way, as JSON (or not JSON at all)."""
    params = list(get_domain(domain).tools[tool].spec.parameters.get("properties", {}))
    keys = st.sampled_from(params) if params else st.text(max_size=8)
    objects = st.dictionaries(keys | st.text(max_size=12), JSON_VALUES, max_size=6)
    return st.one_of(
        objects.map(json.dumps),
        JSON_VALUES.map(json.dumps),  # an array, a number, a string: not an object
        st.text(max_size=60),  # not JSON at all, or truncated
        objects.map(lambda o: json.dumps(o)[:-1]),
    )


def assert_answered(env: Env, tool: str, raw: str) -> None:
    observation = env.call(ToolCall(id="c", name=tool, arguments=raw))
    json.dumps(observation.content)  # what the agent sees is always JSON
    if not observation.ok:
        error = observation.content["error"]
        assert 400 <= error["code"] < 600 and error["message"], observation.content


@pytest.mark.parametrize("domain", NAMES)
def test_every_tool_answers_well_typed_arguments(domain: str) -> None:
    tools = sorted(get_domain(domain).tools)
    env = Env(fuzz_task(domain), "clean")

    @settings(max_examples=fuzz_examples(EXAMPLES_PER_TOOL * len(tools)))
    @given(st.data())
    def check(data: st.DataObject) -> None:
        tool = data.draw(st.sampled_from(tools), label="tool")
        args = data.draw(well_typed(domain, tool), label="arguments")
        assert_answered(env, tool, json.dumps(args))

    check()


@pytest.mark.parametrize("domain", NAMES)
def test_every_tool_answers_garbage_with_a_tool_error(domain: str) -> None:
    tools = sorted(get_domain(domain).tools)
    env = Env(fuzz_task(domain), "clean")

    @settings(max_examples=fuzz_examples(EXAMPLES_PER_TOOL * len(tools)))
    @given(st.data())
    def check(data: st.DataObject) -> None:
        tool = data.draw(st.sampled_from(tools), label="tool")
        assert_answered(env, tool, data.draw(garbage(domain, tool), label="arguments"))

    check()
