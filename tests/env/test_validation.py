"""The plain-Python fast check never passes arguments that jsonschema would refuse."""

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolchaos.core.errors import ToolError
from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import ToolSpec
from toolchaos.domains import DOMAINS, get_domain
from toolchaos.env.validation import _fast_check, check_arguments, validator_for

SPECS = [tool.spec for name in DOMAINS for tool in get_domain(name).tools.values()]

# values of every JSON type, including the ones jsonschema and Python disagree about
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 2.0, -1.0]),
    st.text(max_size=8),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def _arguments(spec: ToolSpec) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments near the schema: its own names (enum values among the values), plus extras."""
    properties = spec.parameters.get("properties", {})
    enums = [v for p in properties.values() for v in p.get("enum", [])]
    value = st.one_of(VALUES, st.sampled_from(enums)) if enums else VALUES
    names = st.sampled_from([*properties, "unexpected"]) if properties else st.just("unexpected")
    return st.dictionaries(names, value, max_size=len(properties) + 1)


def test_every_shipped_tool_schema_compiles_to_a_fast_check() -> None:
    assert SPECS
    missing = [s.name for s in SPECS if _fast_check(dumps(s.parameters)) is None]
    assert not missing


TRICKY = [None, True, False, 0, 1, -1, 2.0, 0.5, 10**20, float("nan"), "", "x", [], {}]
VALID = {"string": "x", "integer": 1, "number": 1.5, "boolean": True}


def _valid(schema: dict[str, Any]) -> Any:
    return schema["enum"][0] if "enum" in schema else VALID[schema["type"]]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_the_fast_check_agrees_with_jsonschema_on_every_parameter(spec: ToolSpec) -> None:
    """Each parameter in turn takes each awkward value, the others valid."""
    properties = spec.parameters["properties"]
    base = {name: _valid(properties[name]) for name in spec.parameters.get("required", [])}
    check = _fast_check(dumps(spec.parameters))
    assert check is not None
    cases = [base, {**base, "unexpected": 1}, {}]
    for name, schema in properties.items():
        cases += [{**base, name: v} for v in [*TRICKY, *schema.get("enum", [])]]
    assert check(base), "valid arguments take the fast path"
    for arguments in cases:
        valid = not list(validator_for(spec).iter_errors(arguments))
        assert check(arguments) <= valid, (spec.name, arguments)


@settings(max_examples=400, deadline=None)
@given(data=st.data(), index=st.integers(min_value=0, max_value=len(SPECS) - 1))
def test_the_fast_check_agrees_with_jsonschema(data: st.DataObject, index: int) -> None:
    spec = SPECS[index]
    arguments = data.draw(_arguments(spec))
    check = _fast_check(dumps(spec.parameters))
    assert check is not None
    valid = not list(validator_for(spec).iter_errors(arguments))
    if check(arguments):
        assert valid, (spec.name, arguments)
    # check_arguments answers exactly as jsonschema does, whatever the fast check said
    if valid:
        check_arguments(spec, arguments)
    else:
        with pytest.raises(ToolError):
            check_arguments(spec, arguments)


def test_whole_floats_and_bools_are_left_to_jsonschema() -> None:
    spec = ToolSpec(
        name="t",
        description="d",
        parameters={
            "type": "object",
            "properties": {"n": {"type": "integer", "minimum": 1, "description": "n"}},
            "required": ["n"],
            "additionalProperties": False,
        },
    )
    check = _fast_check(dumps(spec.parameters))
    assert check is not None
    assert check({"n": 2}) and not check({"n": 2.0}) and not check({"n": True})
    check_arguments(spec, {"n": 2.0})  # JSON Schema counts 2.0 as an integer
    with pytest.raises(ToolError, match="expected integer, but got boolean"):
        check_arguments(spec, {"n": True})
    with pytest.raises(ToolError, match="Missing required parameter: 'n'"):
        check_arguments(spec, {})


def test_schemas_beyond_the_simple_shape_have_no_fast_check() -> None:
    nested = {"type": "object", "properties": {"a": {"type": "object"}}}
    any_of = {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}]}}}
    typed_list = {"type": "object", "properties": {"a": {"type": ["string", "null"]}}}
    for schema in (nested, any_of, typed_list):
        assert _fast_check(dumps(schema)) is None
