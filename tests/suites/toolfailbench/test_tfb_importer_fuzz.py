"""Fuzz the ToolFailBench v5 importer with mutated releases.

The hand-made release of ``test_tfb_importer`` is mutated (a field deleted, retyped or
replaced by odd values, a file cut short or made non-UTF-8) and imported. The importer
either succeeds or raises BadInput naming the file (and the field) in one sentence,
never any other exception. `make fuzz` draws many more examples.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_tfb_importer import FINANCE_TASKS, FINANCE_TOOLS, MEDICAL_TASKS, MEDICAL_TOOLS

from conftest import fuzz_examples
from toolchaos.core.errors import BadInput
from toolchaos.suites.toolfailbench import load_v5

FILES = {
    "tasks_v5/finance/tasks.json": FINANCE_TASKS,
    "tasks_v5/finance/tools.json": FINANCE_TOOLS,
    "tasks_v5/medical/tasks.json": MEDICAL_TASKS,
    "tasks_v5/medical/tools.json": MEDICAL_TOOLS,
}
ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**64), max_value=2**64),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.lists(st.text(max_size=5), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, (*prefix, i))
    return out


@st.composite
def mutated_release(draw: st.DrawFn) -> tuple[str, bytes | None, dict[str, Any]]:
    """(file, raw bytes or None, the JSON files) with one mutation applied."""
    files = copy.deepcopy(FILES)
    name = draw(st.sampled_from(sorted(files)))
    how = draw(st.sampled_from(["delete", "retype", "cut", "bytes"]))
    if how in ("delete", "retype"):
        path = draw(st.sampled_from(paths(files[name])))
        parent = files[name]
        for key in path[:-1]:
            parent = parent[key]
        if how == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(ODD)
        return name, None, files
    raw = json.dumps(files[name]).encode()
    if how == "cut":
        return name, raw[: draw(st.integers(0, len(raw) - 1))], files
    at = draw(st.integers(0, len(raw)))
    return name, raw[:at] + b"\xff\xfe" + raw[at:], files


def write_release(root: Path, case: tuple[str, bytes | None, dict[str, Any]]) -> None:
    name, raw, files = case
    for relative, data in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data), encoding="utf-8")
    if raw is not None:
        (root / name).write_bytes(raw)
    prompts = root / "system_prompts" / "v5"
    prompts.mkdir(parents=True, exist_ok=True)
    (prompts / "finance.md").write_text("You are a finance assistant.\n", encoding="utf-8")
    (prompts / "medical.md").write_text("You are a pharmacist's assistant.\n", encoding="utf-8")


def test_a_mutated_release_imports_or_names_the_file(tmp_path: Path) -> None:
    counter = iter(range(10**9))

    @settings(max_examples=fuzz_examples(150))
    @given(mutated_release())
    def check(case: tuple[str, bytes | None, dict[str, Any]]) -> None:
        root = tmp_path / f"release-{next(counter)}"
        write_release(root, case)
        try:
            load_v5(root)
        except BadInput as exc:
            message = str(exc)
            assert "\n" not in message and "Traceback" not in message
            assert str(root) in message, message

    check()


def test_a_ref_with_a_nul_character_is_named_not_raised(tmp_path: Path) -> None:
    """Found by the fuzzer: a NUL in a ref made pathlib raise ValueError."""
    files = copy.deepcopy(FILES)
    files["tasks_v5/finance/tasks.json"]["system_prompt_ref"] = "\x00"
    write_release(tmp_path, ("tasks_v5/finance/tasks.json", None, files))
    try:
        load_v5(tmp_path)
    except BadInput as exc:
        assert "system_prompt_ref" in str(exc) and "NUL" in str(exc)
    else:
        raise AssertionError("a NUL ref was accepted")
