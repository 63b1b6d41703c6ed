"""The extension registries: entry points read once on first lookup, decorators, loading.

The entry points come from a real distribution (a ``*.dist-info`` folder on ``sys.path``,
as pip leaves one), found by :mod:`importlib.metadata` like any installed package.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from toolchaos.core.errors import BadInput
from toolchaos.core.registry import GROUPS, Registry, rescan
from toolchaos.core.types import HazardFamily
from toolchaos.domains import DOMAINS, get_domain
from toolchaos.hazards import VARIANTS
from toolchaos.hazards.base import _adopt
from toolchaos.models.base import PROVIDERS, make_factory
from toolchaos.suites import SUITES, get_suite

GROUP = "toolchaos.test_things"


def distribution(root: Path, name: str, entry_points: str) -> Path:
    """Write an installed distribution ``name`` declaring ``entry_points`` under ``root``."""
    info = root / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))
    return root


@pytest.fixture
def fresh_entry_points() -> Iterator[None]:
    rescan()
    yield
    rescan()  # the next registry sees the path as it is again


def test_the_groups_are_the_four_kinds() -> None:
    assert GROUPS == {
        "domain": "toolchaos.domains",
        "suite": "toolchaos.suites",
        "provider": "toolchaos.providers",
        "hazard": "toolchaos.hazards",
    }
    registries = [DOMAINS, SUITES, PROVIDERS, VARIANTS]
    assert [r.group for r in registries] == list(GROUPS.values())


def test_entry_points_are_read_on_the_first_lookup_and_only_then(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_entry_points: None
) -> None:
    site = distribution(
        tmp_path / "a",
        "thing-pkg",
        f"""
        [{GROUP}]
        beta = thing_mod:BETA
        alpha = elsewhere:ALPHA
        """,
    )
    monkeypatch.syspath_prepend(str(site))
    registry: Registry[str, str] = Registry("thing", GROUP, {"alpha": "builtin:ALPHA"})
    registry["gamma"] = "code:GAMMA"  # a write reads nothing
    assert registry.registered("beta") is None
    with pytest.warns(UserWarning, match="thing 'alpha' of package thing-pkg .* is ignored"):
        assert "beta" in registry
    assert registry["beta"] == "thing_mod:BETA"
    assert registry.origin("beta") == "package thing-pkg" and registry.origin("gamma") == ""
    assert registry["alpha"] == "builtin:ALPHA"  # a package never replaces a built-in
    assert sorted(registry) == ["alpha", "beta", "gamma"]
    # once: a package installed later is not seen by this registry (nor read again)
    later = distribution(tmp_path / "b", "later-pkg", f"[{GROUP}]\ndelta = late:DELTA\n")
    monkeypatch.syspath_prepend(str(later))
    rescan()
    assert "delta" not in registry and len(registry) == 3


SUITE_MODULE = """
from toolchaos.core.types import TaskSpec
from toolchaos.suites import register_suite
from toolchaos.suites.base import Suite


def _suite(name):
    return Suite(
        name=name, package="toolchaos.suites.own_tools", data_file="tasks.jsonl",
        arms=("clean",), task_model=TaskSpec, protocol="native", protocols={},
    )


@register_suite("tiny-suite")
def tiny():
    return _suite("tiny-suite")


@register_suite("misnamed")
def misnamed():
    return _suite("another-name")


NOT_A_SUITE = 3
"""


@pytest.fixture
def suite_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    (tmp_path / "tiny_suite_module.py").write_text(SUITE_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    before = dict(SUITES)
    import tiny_suite_module  # noqa: F401  (registers its suites as it imports)

    yield "tiny_suite_module"
    for name in set(SUITES) - set(before):
        del SUITES[name]
    get_suite.cache_clear()
    sys.modules.pop("tiny_suite_module", None)


def test_the_decorator_registers_a_factory_that_builds_the_suite_once(suite_module: str) -> None:
    assert SUITES["tiny-suite"] == f"{suite_module}:tiny"
    assert get_suite("tiny-suite") is get_suite("tiny-suite")
    assert get_suite("tiny-suite").name == "tiny-suite"


def test_a_target_that_is_no_suite_or_misnamed_is_one_sentence(suite_module: str) -> None:
    with pytest.raises(BadInput, match="whose name is 'another-name', not 'misnamed'"):
        get_suite("misnamed")
    SUITES["number"] = f"{suite_module}:NOT_A_SUITE"
    with pytest.raises(BadInput, match=f"suite 'number' names {suite_module}:NOT_A_SUITE, which"):
        get_suite("number")
    SUITES["gone"] = "no_such_module_here:SUITE"
    with pytest.raises(BadInput, match="suite 'gone' cannot be loaded from no_such_module_here"):
        get_suite("gone")
    with pytest.raises(BadInput, match=r"unknown suite 'nope'; known suites: .*tiny-suite"):
        get_suite("nope")


def test_a_name_registered_twice_in_code_is_refused(suite_module: str) -> None:
    from toolchaos.suites import register_suite

    module = sys.modules[suite_module]
    with pytest.raises(ValueError, match="suite 'tiny-suite' is already registered as"):
        register_suite("tiny-suite")(module._suite)
    assert register_suite("tiny-suite")(module.tiny) is module.tiny  # the same one: fine

    def local() -> None: ...

    with pytest.raises(TypeError, match="module-level suite factory"):
        register_suite("local")(local)


def test_a_domain_or_provider_that_cannot_load_is_one_sentence() -> None:
    DOMAINS["broken"] = "no_such_module_here:DOMAIN"
    PROVIDERS["broken"] = "toolchaos.models.base:NO_FACTORY"
    try:
        with pytest.raises(BadInput, match="domain 'broken' cannot be loaded"):
            get_domain("broken")
        with pytest.raises(BadInput, match="provider 'broken' cannot be loaded from"):
            make_factory("broken/model")
    finally:
        del DOMAINS["broken"], PROVIDERS["broken"]
        get_domain.cache_clear()


def test_a_broken_hazard_entry_point_is_left_out_with_a_warning() -> None:
    before = dict(VARIANTS)
    broken = EntryPoint("lost", "no_such_module_here:Lost", GROUPS["hazard"])
    with pytest.warns(UserWarning, match="hazard variant 'lost' of package .* is left out"):
        _adopt(broken)
    # an entry point naming a built-in class under another variant name is refused too
    clash = EntryPoint("renamed", "toolchaos.hazards.execution_failure:TransientError", "x")
    with pytest.warns(UserWarning, match="is the variant 'transient', not 'renamed'"):
        _adopt(clash)
    assert dict(VARIANTS) == before
    assert (HazardFamily.EXECUTION_FAILURE, "transient") in VARIANTS


def test_register_hazard_refuses_another_class_under_a_taken_name() -> None:
    from toolchaos.hazards import register_hazard
    from toolchaos.hazards.execution_failure import TransientError

    class Transient(TransientError):
        hints = TransientError.hints
        propose = TransientError.propose

    with pytest.raises(TypeError, match=r"execution_failure/transient .* is already registered"):
        register_hazard(Transient)
    assert VARIANTS[(HazardFamily.EXECUTION_FAILURE, "transient")] is TransientError


def test_code_registering_a_name_a_package_declared_is_ignored_with_a_warning() -> None:
    registry: Registry[str, str] = Registry("thing", GROUP)
    registry.declare("shared", "pkg_a.things:make", "pkg-a")
    # the declared module registering its own entry while it is imported: no warning
    registry.register("shared", "pkg_a.things:make_again")
    with pytest.warns(UserWarning, match=r"thing 'shared' registered in code .* package pkg-a"):
        registry.register("shared", "elsewhere:make")
    assert registry["shared"] == "pkg_a.things:make"
