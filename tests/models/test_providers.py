"""Provider traits live on the registry entry (models/base.py), never in a spec's prefix."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import toolchaos
from toolchaos.core.errors import BadInput
from toolchaos.models.base import (
    PROVIDERS,
    Provider,
    is_local,
    is_scripted,
    make_factory,
    provider,
    provider_of,
)
from toolchaos.runner.run import RunConfig

SRC = Path(toolchaos.__file__).parent
PROVIDER_PACKAGE = SRC / "models"


@pytest.fixture
def extra_providers() -> Iterator[None]:
    """Two providers registered for one test: one with traits, one as a bare string."""
    PROVIDERS["onbox"] = Provider("toolchaos.models.local:make_factory", local=True)
    PROVIDERS["plain"] = "toolchaos.models.openai_compat:make_factory"
    yield
    PROVIDERS.pop("onbox", None)
    PROVIDERS.pop("plain", None)


def test_the_shipped_providers_declare_their_traits() -> None:
    assert is_scripted("scripted/oracle") and not is_local("scripted/oracle")
    assert is_local("local/qwen2.5-coder-0.5b") and not is_scripted("local/qwen2.5-coder-0.5b")
    for spec in ("openai/gpt-4o-mini", "openai-compat/qwen", "anthropic/claude-3-5-haiku"):
        assert not is_scripted(spec) and not is_local(spec), spec
    assert provider("anthropic").extra == "anthropic"
    assert provider("local").extra == "local"
    assert provider("openai").extra is None


def test_a_spec_of_no_registered_provider_has_no_traits() -> None:
    """Reports read stored runs whose provider may not be installed: no error, no trait."""
    assert provider_of("gone/model") is None
    assert provider_of("no-slash") is None
    assert not is_scripted("gone/model") and not is_local("gone/model")
    with pytest.raises(BadInput, match="unknown model provider 'gone'"):
        provider("gone")


def test_the_run_groups_models_by_trait_not_by_prefix(extra_providers: None) -> None:
    config = RunConfig(
        suite="toolbench-x",
        models=["onbox/llama3.2-1b", "plain/x", "scripted/oracle", "local/qwen2.5-coder-0.5b"],
    )
    groups = [(m.spec, m.tier, m.family) for m in config.models]
    assert groups == [
        ("onbox/llama3.2-1b", "local", "llama3.2"),
        ("plain/x", "", ""),
        ("scripted/oracle", "baseline", "scripted"),
        ("local/qwen2.5-coder-0.5b", "local", "qwen2.5"),
    ]


def test_a_bare_string_entry_is_a_provider_without_traits(extra_providers: None) -> None:
    assert provider("plain") == Provider("toolchaos.models.openai_compat:make_factory")
    assert not is_local("plain/x") and not is_scripted("plain/x")


def test_a_missing_module_names_the_providers_extra() -> None:
    PROVIDERS["fancy"] = Provider("toolchaos_no_such_module:make_factory", extra="fancy-extra")
    try:
        with pytest.raises(BadInput, match=r"pip install 'toolchaos\[fancy-extra\]'"):
            make_factory("fancy/model")
    finally:
        PROVIDERS.pop("fancy", None)


def _prefix_checks(path: Path, root: Path, prefixes: set[str]) -> list[str]:
    """Every ``x.startswith("<provider>/")`` in ``path``, as ``file:line`` under ``root``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "startswith"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and node.args[0].value.partition("/")[0] in prefixes
        ):
            found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_module_outside_the_provider_package_checks_a_spec_prefix() -> None:
    offending = [
        hit
        for path in sorted(SRC.rglob("*.py"))
        if PROVIDER_PACKAGE not in path.parents
        for hit in _prefix_checks(path, SRC, set(PROVIDERS))
    ]
    assert offending == []


def test_the_prefix_check_finder_sees_a_prefix_check(tmp_path: Path) -> None:
    """The guard above can fail: it finds the check it forbids."""
    probe = tmp_path / "probe.py"
    probe.write_text('def f(spec: str) -> bool:\n    return spec.startswith("local/")\n')
    assert _prefix_checks(probe, tmp_path, set(PROVIDERS)) == ["probe.py:2"]
