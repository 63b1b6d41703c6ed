"""Fuzz the task loaders: a mutated task file loads, or fails with one clear sentence.

Real shipped lines (of both suites) are mutated at the byte level (cut, spliced,
non-UTF-8 bytes, a line dropped in) and at the JSON level (a field deleted, retyped or
replaced by odd values, an extra field). Loading the file either succeeds or raises
BadInput naming the file and the line (and the field when one is to blame), never any
other exception. `make fuzz` draws many more examples.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import fuzz_examples
from toolchaos.core.errors import BadInput
from toolchaos.suites import get_suite
from toolchaos.suites.base import load_jsonl

SUITES = ("toolbench-x", "toolfailbench")
ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**64), max_value=2**64),
    st.floats(allow_nan=False),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def lines(suite: str) -> list[str]:
    return get_suite(suite).default_path().read_text(encoding="utf-8").splitlines()[:4]


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path inside a JSON value."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            out += paths(v, (*prefix, i))
    return out


@st.composite
def json_mutation(draw: st.DrawFn, line: str) -> bytes:
    data = json.loads(line)
    path = draw(st.sampled_from(paths(data)))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    action = draw(st.sampled_from(["delete", "retype", "extra"]))
    if action == "delete":
        del parent[path[-1]]
    elif action == "retype":
        parent[path[-1]] = draw(ODD_VALUES)
    else:
        data[draw(st.text(min_size=1, max_size=8))] = draw(ODD_VALUES)
    return json.dumps(data).encode()


@st.composite
def byte_mutation(draw: st.DrawFn, line: str) -> bytes:
    raw = line.encode()
    start = draw(st.integers(0, len(raw)))
    end = draw(st.integers(start, min(len(raw), start + 40)))
    insert = draw(st.sampled_from([b"", b"\xff\xfe", b"\x00", b"}", b'"', b"\n", b"{\n"]))
    return raw[:start] + insert + raw[end:]


def mutated_file(suite: str) -> st.SearchStrategy[tuple[int, bytes]]:
    originals = lines(suite)

    @st.composite
    def build(draw: st.DrawFn) -> tuple[int, bytes]:
        which = draw(st.integers(0, len(originals) - 1))
        how = draw(st.sampled_from([json_mutation, byte_mutation]))
        bad = draw(how(originals[which]))
        body = [line.encode() for line in originals]
        body[which] = bad
        return which + 1, b"\n".join(body) + b"\n"

    return build()


@pytest.mark.parametrize("suite", SUITES)
def test_a_mutated_task_file_loads_or_names_file_and_line(suite: str, tmp_path: Path) -> None:
    model = get_suite(suite).task_model

    @settings(max_examples=fuzz_examples(150))
    @given(mutated_file(suite))
    def check(case: tuple[int, bytes]) -> None:
        _, content = case
        path = tmp_path / "tasks.jsonl"
        path.write_bytes(content)
        try:
            load_jsonl(path, model, suite)
        except BadInput as exc:
            message = str(exc)
            assert message.startswith(f"{path}, line ") or "holds no tasks" in message, message
            assert "\n" not in message and "Traceback" not in message
            if re.search(r", field ", message):
                assert re.search(r"line \d+, field \S", message), message

    check()
