"""The provider worked example (docs/examples/provider.py): one module, one registry line."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolchaos import RunConfig, run
from toolchaos.ext import PROVIDERS
from toolchaos.report.tables import build_report
from toolchaos.runner.store import Store

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "provider.py"


@pytest.fixture
def provider() -> Iterator[None]:
    spec = importlib.util.spec_from_file_location("provider_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["provider_example"] = module
    spec.loader.exec_module(module)
    before = dict(PROVIDERS)
    PROVIDERS["canned"] = "provider_example:make_factory"  # the one line a provider adds
    assert set(PROVIDERS) - set(before) == {"canned"}
    yield
    PROVIDERS.pop("canned", None)
    sys.modules.pop("provider_example", None)


def test_a_registered_provider_plays_a_suite_like_any_model(provider: None, tmp_path: Path) -> None:
    config = RunConfig(suite="toolfailbench", models=["canned/I cannot look that up."], subset=8)
    summary = run(config, tmp_path / "run")
    assert summary.errors == 0
    store = Store.open_existing(tmp_path / "run", read_only=True)
    try:
        episodes = list(store.episodes())
    finally:
        store.close()
    assert len(episodes) == 8
    assert {e.final_answer for e in episodes} == {"I cannot look that up."}
    assert all(e.usage.output_tokens > 0 and not e.trace for e in episodes)
    rows = build_report([tmp_path / "run"]).rows
    assert [r["model"] for r in rows] == ["canned/I cannot look that up."]


def test_the_examples_import_only_public_names() -> None:
    """Examples use toolchaos, toolchaos.ext and the own-tools API, and only public names."""
    for path in sorted(EXAMPLE.parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith(
                "toolchaos"
            ):
                continue
            module = node.module or ""
            own_tools = module == "toolchaos.chaos" or module.startswith("toolchaos.chaos.")
            assert module in {"toolchaos", "toolchaos.ext"} or own_tools, (path.name, module)
            assert not any(part.startswith("_") for part in module.split(".")), (path.name, module)
            public = importlib.import_module(module)
            names = set(getattr(public, "__all__", [n for n in vars(public) if n[0] != "_"]))
            assert {a.name for a in node.names} <= names, (path.name, module)
