"""The shipped ToolBench-X v2: size, balance, tiers, gates, depth, a reproducible build; v1 kept."""

import hashlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from domain_builds import SHIPPED_GROUP, shipped_build
from rich.console import Console

from toolchaos.core.types import HazardFamily
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, RunSummary, run
from toolchaos.suites import get_suite
from toolchaos.suites.base import to_jsonl
from toolchaos.suites.toolbench_x.generate import normalized_prompt, question_key, subtopics
from toolchaos.suites.toolbench_x.pipeline import V1_TARGETS, build_toolbench_x
from toolchaos.suites.toolbench_x.validate import validate_task

SUITE = get_suite("toolbench-x")


@pytest.fixture(scope="module")
def shipped() -> list:
    return SUITE.load()


def test_shipped_set_has_the_promised_shape(shipped: list) -> None:
    assert len(shipped) == 1106
    assert Counter(t.workflow for t in shipped) == V1_TARGETS
    assert all(t.reference.answer or t.reference.writes for t in shipped)
    assert all(t.hazard is not None and t.hints is not None for t in shipped)
    assert SUITE.default_path().is_file()


def test_every_subtopic_and_topic_is_covered(shipped: list) -> None:
    names = {sub.name for sub in subtopics()}
    assert len(names) == 84
    assert {t.subtopic for t in shipped} == names
    assert len({t.topic for t in shipped}) == 13


def test_no_cell_holds_more_than_five_tasks(shipped: list) -> None:
    cells = Counter((t.subtopic, t.workflow) for t in shipped)
    assert max(cells.values()) <= 5


def test_no_two_tasks_share_a_normalized_prompt(shipped: list) -> None:
    prompts = Counter(normalized_prompt(t.prompt) for t in shipped)
    assert [p for p, n in prompts.items() if n > 1] == []


def test_no_two_tasks_ask_the_same_question_in_other_words(shipped: list) -> None:
    by_question: dict[str, list[str]] = {}
    for task in shipped:
        by_question.setdefault(question_key(task), []).append(task.id)
    assert [ids for ids in by_question.values() if len(ids) > 1] == []


def test_the_question_key_ignores_the_order_of_parallel_calls(shipped: list) -> None:
    task = next(t for t in shipped if t.workflow == "parallel" and len(t.reference.steps) > 2)
    reordered = task.model_copy(deep=True)
    reordered.reference.steps.reverse()
    reordered.prompt = "Other words entirely."
    assert question_key(reordered) == question_key(task)
    other = reordered.model_copy(deep=True)
    other.reference.answer = task.reference.answer + "1"
    assert question_key(other) != question_key(task)


GATED_OUT = {
    (HazardFamily.EXECUTION_FAILURE, "transient"),
    (HazardFamily.EXECUTION_FAILURE, "outage"),
    (HazardFamily.EXECUTION_FAILURE, "paginated"),
    (HazardFamily.INVOCATION_ERROR, "missing_argument"),
    (HazardFamily.INVOCATION_ERROR, "strict_format"),
    (HazardFamily.SPECIFICATION_DRIFT, "deprecated_tool"),
}
"""Variants the v3 build proposes that none of its tasks keeps: every proposal of them is
one a cheap-strategy policy solves (two retries, the changelog, a doc example, the bypass
or the successor's name), so the cheap gates drop it (issue #24: "every variant present"
is not met; docs/toolbench-x.md, "v3: what the cheap gates leave")."""
SHORT_FAMILY = "invocation_error"
"""The family the cheap gates leave short: only ambiguous entities pass (173 of v3's 1,106)."""


def test_families_are_balanced_and_every_variant_is_present(shipped: list) -> None:
    from toolchaos.hazards import VARIANTS

    families = Counter(t.hazard.family.value for t in shipped)
    assert len(families) == 5
    others = [n for family, n in families.items() if family != SHORT_FAMILY]
    assert min(others) >= 0.95 * max(others), families  # the four within 5% of each other
    assert families[SHORT_FAMILY] >= 0.7 * max(others), families
    present = {(t.hazard.family, t.hazard.variant) for t in shipped}
    proposed = {key for key, cls in VARIANTS.items() if not cls.legacy}
    assert proposed - GATED_OUT <= present <= set(VARIANTS), proposed - GATED_OUT - present
    assert not present & GATED_OUT  # a variant that came back belongs in the test again


def test_every_task_has_a_tier_and_at_most_a_third_are_explicit(shipped: list) -> None:
    tiers = Counter(t.hazard.tier for t in shipped)
    assert set(tiers) <= {"explicit", "implicit", "silent"}, tiers
    assert tiers["explicit"] <= len(shipped) / 3, tiers


def test_the_coherence_rules_hold_for_every_shipped_task(shipped: list) -> None:
    from toolchaos.suites.toolbench_x.coherence import coherence_problems, time_problems

    problems = [p for t in shipped for p in coherence_problems(t) + time_problems(t)]
    assert problems == []


def test_the_build_report_ships_beside_the_tasks(shipped: list) -> None:
    import json

    from toolchaos.suites.toolbench_x.pipeline import GATES

    path = SUITE.default_path().with_suffix(".build.json")
    assert path.stat().st_size < 5 * 2**20  # the repository keeps no file over a few MB
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["counts"]["selected"] == 1106
    assert report["targets"] == V1_TARGETS and report["shortfall"] == {}
    assert 0 < report["retention"] < 1
    stages = {d["stage"] for d in report["drops"]}
    assert stages >= {"generate", "screen", "cap", "select"}
    # each gate's drops are counted, and listed with their reasons
    assert set(report["gates"]) <= {*GATES, "relative-date", "time-left"}
    for gate, count in report["gates"].items():
        assert sum(d["stage"] == f"gate:{gate}" for d in report["drops"]) == count
    tiers = Counter((t.hazard.family.value, t.hazard.tier) for t in shipped)
    assert {(f, t): n for f, mix in report["tiers"].items() for t, n in mix.items()} == tiers
    calls = Counter(str(len(t.reference.steps)) for t in shipped)
    assert report["calls_histogram"] == dict(calls)
    assert report["distinct_logics"] == len({t.metadata["logic"] for t in shipped})


def test_version_1_still_loads_and_plays() -> None:
    from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync

    v1 = SUITE.load(SUITE.version_path("v1"))
    assert len(v1) == 1106 and all(t.hazard is not None and t.hazard.tier is None for t in v1)
    for task in v1[::150]:
        assert episode_correct(play_sync(task, "oracle", "hazard"), task), task.id


def test_version_2_is_frozen_and_replays_with_the_oracle_in_every_arm() -> None:
    from toolchaos.core.world import FROZEN_RELEASE
    from toolchaos.domains import make_world
    from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync

    v2 = SUITE.load(SUITE.version_path("v2"))
    assert SUITE.version == "v3" and SUITE.version_path("v2") != SUITE.default_path()
    assert len(v2) == 1106 and all("release" not in t.metadata for t in v2)
    # the passports tasks take results[0] of list_id_services, which v3 sorts
    sample = [t for t in v2 if t.subtopic == "passports and ids"] + v2[::97]
    for task in sample:
        assert make_world(task).release == FROZEN_RELEASE
        for arm in SUITE.arms:
            assert episode_correct(play_sync(task, "oracle", arm), task), (task.id, arm)


@pytest.mark.slow
@SHIPPED_GROUP
def test_rebuilding_reproduces_the_shipped_file_byte_for_byte() -> None:
    tasks, _ = shipped_build()
    rebuilt = hashlib.sha256(to_jsonl(tasks).encode()).hexdigest()
    assert rebuilt == hashlib.sha256(SUITE.default_path().read_bytes()).hexdigest()


@pytest.mark.slow
def test_another_seed_builds_other_tasks() -> None:
    # two domains stand for all: each seed draws its own worlds, so its own prompts
    tasks, _ = build_toolbench_x(1, per_cell=1, domains=["weather", "health"])
    other = {t.prompt for t in tasks}
    assert tasks and {t.domain for t in tasks} == {"weather", "health"}
    assert other - {t.prompt for t in SUITE.load()}


@pytest.mark.slow
def test_every_shipped_task_validates(shipped: list) -> None:
    problems = [p for task in shipped for p in validate_task(task)]
    assert problems == []


@pytest.mark.slow
@pytest.mark.xdist_group("baselines")
def test_baselines_score_as_expected(baseline_run: Callable[[str], RunSummary]) -> None:
    # the four baselines on every shipped task in all four arms (shared with the golden test)
    summary = baseline_run("toolbench-x")
    assert summary.errors == 0 and summary.played == 4 * 4 * len(SUITE.load())
    rows = {(r["model"], r["arm"]): r["accuracy"] for r in build_report([Path(summary.out)]).rows}
    assert {model for model, _ in rows} == {
        "scripted/oracle",
        "scripted/naive",
        "scripted/retry",
        "scripted/no-tool",
    }
    for arm in ("clean", "hazard", "hint", "oracle-label"):
        assert rows[("scripted/oracle", arm)] == 1.0
        assert rows[("scripted/no-tool", arm)] <= 0.05
    assert rows[("scripted/naive", "clean")] == 1.0
    assert rows[("scripted/naive", "hazard")] == 0.0
    # v3 keeps no hazard a retry gets past (the cheap gates drop them): retry <= naive's 0
    assert rows[("scripted/naive", "hazard")] <= rows[("scripted/retry", "hazard")] < 1.0


def test_the_gate_policies_score_as_the_gates_promise(shipped: list, tmp_path: Path) -> None:
    """Lenient reader and bypasser: at most 5% per family under the hazard; the follower
    solves the explicit tasks and at most 5% of the others; all three solve every clean task."""
    config = RunConfig(
        suite="toolbench-x",
        models=["scripted/lenient", "scripted/follower", "scripted/bypasser"],
        arms=["clean", "hazard"],
    )
    summary = run(config, tmp_path / "gates", Console(quiet=True))
    assert summary.errors == 0
    from toolchaos.runner.store import Store
    from toolchaos.suites.toolbench_x.scoring import score_frame

    store = Store.open_existing(tmp_path / "gates", read_only=True)
    try:
        frame = score_frame(store.summaries(), {t.id: t for t in shipped})
    finally:
        store.close()
    clean = frame[frame["arm"] == "clean"]
    assert clean["correct"].all()
    hazard = frame[frame["arm"] == "hazard"]
    for model in ("scripted/lenient", "scripted/bypasser"):
        rates = hazard[hazard["model"] == model].groupby("family")["correct"].mean()
        assert (rates <= 0.05).all(), (model, rates.to_dict())
    follower = hazard[hazard["model"] == "scripted/follower"]
    explicit = follower[follower["tier"] == "explicit"]
    assert explicit.empty or explicit["correct"].all()
    assert follower[follower["tier"] != "explicit"]["correct"].mean() <= 0.05
