"""``--subset N`` on the shipped task files: every stratum, evenly, N distinct tasks (issue 29).

ToolBench-X's strata are (workflow type, hazard family), ToolFailBench's (domain, target
mode); both suites go through the one :func:`stratified_subset` the runner calls.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolchaos.suites import get_suite
from toolchaos.suites.base import stratified_subset

SUITES = ("toolbench-x", "toolfailbench")
DOMAINS = ("cybersecurity", "finance", "law", "medicine", "real_estate")


@pytest.fixture(scope="module")
def shipped() -> dict[str, tuple[Any, list[Any]]]:
    """Each suite and its shipped tasks, loaded once."""
    return {name: (get_suite(name), get_suite(name).load()) for name in SUITES}


def spread(counts: Counter[Any], values: set[Any]) -> int:
    """How far apart the most and the least chosen of ``values`` are (absent ones count 0)."""
    return max(counts[v] for v in values) - min(counts[v] for v in values)


@given(n=st.integers(3, 30), name=st.sampled_from(SUITES), seed=st.integers(0, 2**16))
def test_a_subset_covers_every_stratum_evenly(
    shipped: dict[str, tuple[Any, list[Any]]], n: int, name: str, seed: int
) -> None:
    suite, tasks = shipped[name]
    chosen = stratified_subset(tasks, n, suite.stratum, seed)
    ids = [t.id for t in chosen]
    assert len(set(ids)) == len(ids) == n
    assert ids == sorted(ids)
    strata = {suite.stratum(t) for t in tasks}
    outers = {outer for outer, _ in strata}
    inners = {inner for _, inner in strata}
    assert (len(outers), len(strata)) == {"toolbench-x": (3, 15), "toolfailbench": (5, 20)}[name]
    picked = [suite.stratum(t) for t in chosen]
    by_outer = Counter(outer for outer, _ in picked)
    # every workflow type (ToolBench-X) / domain (ToolFailBench): each of them whenever
    # n >= 3 / 5, and never one more than once more than another
    if n >= len(outers):
        assert set(by_outer) == outers
    assert spread(by_outer, outers) <= 1
    # hazard families / target modes, overall and within each outer value
    assert spread(Counter(inner for _, inner in picked), inners) <= 1
    for outer in outers:
        within = {inner for o, inner in strata if o == outer}
        assert spread(Counter(inner for o, inner in picked if o == outer), within) <= 1
    if n >= len(strata):
        assert set(picked) == strata
    assert stratified_subset(tasks, n, suite.stratum, seed) == chosen  # deterministic


@pytest.mark.parametrize(
    ("name", "n", "outer"),
    [
        ("toolbench-x", 3, {"sequential": 1, "parallel": 1, "mixture": 1}),
        ("toolbench-x", 10, {"mixture": 4, "parallel": 3, "sequential": 3}),
        ("toolfailbench", 10, dict.fromkeys(DOMAINS, 2)),
    ],
)
def test_the_subsets_the_issue_names_are_spread(
    shipped: dict[str, tuple[Any, list[Any]]], name: str, n: int, outer: dict[str, int]
) -> None:
    """``--subset 3`` was all mixture, 10 had no sequential task or only three domains."""
    suite, tasks = shipped[name]
    counts = Counter(suite.stratum(t)[0] for t in stratified_subset(tasks, n, suite.stratum))
    assert counts == outer
