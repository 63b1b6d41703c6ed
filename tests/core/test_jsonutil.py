"""The canonical dumps is byte for byte what json.dumps writes with the same options."""

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolchaos.core.jsonutil import dumps

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def _reference(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_dumps_writes_what_json_dumps_writes(data: Any) -> None:
    assert dumps(data) == _reference(data)


def test_keys_of_other_json_types_and_tuples_as_json_dumps_does() -> None:
    data = {1: "a", 2.5: (1, 2), 3: [{"b": 1, "a": "é\u2028"}]}
    assert dumps(data) == _reference(data)
    assert dumps("text") == '"text"'
