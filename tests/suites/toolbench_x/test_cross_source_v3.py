"""The v3 cross-source conflict (``inferred_rule``): no doc labels a source, the data decides.

Played on seed 0's build of the productivity domain (five tasks a cell, the build the
template tests share). For each task: the oracle recovers, the cheap policies and
``capable`` do not, the hint's rule picks the reference's value from the records the three
sources return, and an agent that calls every source and keeps the first, the last or the
value two agree on is right only where the rule is the majority.
"""

from __future__ import annotations

import re
import zlib
from datetime import date
from functools import cache
from statistics import median_low
from typing import Any

import pytest
from domain_builds import build_group, domain_build

from toolchaos.core.types import HazardFamily, HazardSpec, RecoveryAction, TaskSpec
from toolchaos.domains import DOMAINS, get_domain
from toolchaos.hazards.cross_source import FLAG, RULES, InferredRule, _rule_for
from toolchaos.suites.toolbench_x import cheap
from toolchaos.suites.toolbench_x.baselines import CHEAP_MODES, GATE_MODES
from toolchaos.suites.toolbench_x.tiers import measured_tier, observe
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync

pytestmark = build_group("productivity")
_CLAIMS = re.compile(
    r"\b(authoritative|prevails?|system of record|primary|official|fresh(er|est)?"
    r"|most up-to-date|real-time|fallback|backup)\b",
    re.IGNORECASE,
)


@cache
def _tasks() -> list[TaskSpec]:
    tasks, _ = domain_build("productivity")
    out = [t for t in tasks if t.hazard is not None and t.hazard.variant == "inferred_rule"]
    assert len(out) >= 12
    return out


def _spec(tool: str, sources: list[str], unoffered: list[str]) -> HazardSpec:
    return HazardSpec(
        family=HazardFamily.CROSS_SOURCE_CONFLICT,
        variant="inferred_rule",
        tool=tool,
        params={"field": "x", "factor": 1.2, "sources": sources, "unoffered": unoffered},
    )


def test_no_shown_doc_labels_a_source_or_names_a_tool_left_out() -> None:
    """Over every source group of every domain: the docs as shown claim nothing for anyone."""
    groups = 0
    for name in (d for d in DOMAINS if d != "fixture"):  # the test domain documents less
        domain = get_domain(name)
        for tool, how in domain.notes.sources.items():
            others = [a for a in how.alternatives if a != tool][:2]
            if len(others) < 2:
                continue
            group = [tool, *others]
            offered = [domain.tools[t].spec for t in group]
            left_out = [t for t in domain.tools if t not in group]
            shown = InferredRule(_spec(tool, group, left_out)).visible_specs(offered)
            docs = {s.name: s for s in shown}
            for spec in shown:
                assert not _CLAIMS.search(spec.description), (name, spec.name)
                named = [t for t in domain.tools if t != spec.name and t in spec.description]
                assert not named, (name, spec.name, named)
                assert FLAG in spec.description
                assert all(f in spec.description for f in how.fields), (name, spec.name)
                assert cheap.authority_of(spec.name, docs) is None, (name, spec.name)
            groups += 1
    assert groups >= 60


def test_the_rule_mix_keeps_the_majority_rare() -> None:
    """Majority is the one rule a blind agent gets right; it is drawn for about 4%.

    The build's gates keep majority conflicts more often than the others (seed 0: 12% of
    the selected at 8% drawn), so the draw stays well under the 10% a blind pick may win.
    """
    draws = [_rule_for(f"tbx-task-{i}", "tool") for i in range(5000)]
    shares = {rule: draws.count(rule) / len(draws) for rule in RULES}
    assert 0.02 <= shares["majority"] <= 0.06
    assert 0.4 <= shares["fresh"] <= 0.52 and 0.4 <= shares["settled"] <= 0.52


@pytest.mark.parametrize("mode", ["naive", *GATE_MODES, *CHEAP_MODES, "capable"])
def test_no_cheap_policy_gets_past_the_conflict(mode: str) -> None:
    solved = [t.id for t in _tasks() if episode_correct(play_sync(t, mode, "hazard"), t)]
    assert solved == []


def test_the_oracle_recovers_and_every_policy_solves_the_clean_arm() -> None:
    for task in _tasks():
        assert episode_correct(play_sync(task, "oracle", "hazard"), task), task.id
        assert episode_correct(play_sync(task, "capable", "clean"), task), task.id


def _records(task: TaskSpec) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The oracle's first look at the three sources: their records in call order."""
    assert task.hazard is not None
    sources = list(task.hazard.params["sources"])
    episode = play_sync(task, "oracle", "hazard")
    seen: dict[str, dict[str, Any]] = {}
    for action in episode.trace:
        content = action.observation.content
        if action.call.name in sources and isinstance(content, dict):
            seen.setdefault(action.call.name, content)
    assert list(seen) == sources, (task.id, list(seen))
    return [seen[s] for s in sources], seen[sources[1]]


def _by_hint(records: list[dict[str, Any]], field: str, stamp: str, today: str) -> Any:
    """The value the hint's rule keeps: a current stamp, else a reconciled one, else most."""
    days = [(date.fromisoformat(today) - date.fromisoformat(r[stamp][:10])).days for r in records]
    if max(days) >= 2:
        return median_low([r[field] for r, d in zip(records, days, strict=True) if d < 2])
    settled = [r[field] for r in records if r.get(FLAG) is not True]
    if len(settled) < len(records):
        return median_low(settled)
    return median_low([r[field] for r in records])


def test_the_hint_is_true_and_the_data_alone_shows_the_rule() -> None:
    for task in _tasks():
        assert task.hazard is not None and task.hints is not None
        field, stamp = task.hazard.params["field"], task.hazard.params["time_field"]
        records, sound = _records(task)
        today = re.search(r"Today's date is (\d{4}-\d\d-\d\d)", str(task.system))
        assert today is not None, task.id
        assert _by_hint(records, field, stamp, today[1]) == sound[field], task.id
        assert records[0][field] != sound[field]  # the target is off
        # only the policy rule shows its flag, in every record; its tier is implicit
        rule = task.hazard.params["rule"]
        assert all((FLAG in r) == (rule == "settled") for r in records), task.id
        assert task.hazard.tier == ("implicit" if rule == "settled" else "silent")
        assert stamp in task.hints.detailed and FLAG in task.hints.detailed
        assert "authoritative" not in task.hints.detailed.replace("no provider", "")


def _blind(task: TaskSpec, pick: str) -> TaskSpec:
    """The task with the oracle's cross-check made blind: keep the first, last or median."""
    assert task.hazard is not None
    sources = list(task.hazard.params["sources"])
    recovery = []
    for step in task.hazard.recovery:
        if step.action == RecoveryAction.CROSS_CHECK:
            p = dict(step.params)
            if pick == "majority":
                p["prefer"] = "majority"  # the median of three: the value two agree on
            else:
                p["prefer"] = "authoritative"
                p["authoritative"] = sources[0] if pick == "first" else sources[-1]
            step = step.model_copy(update={"params": p})
        recovery.append(step)
    hazard = task.hazard.model_copy(update={"recovery": recovery})
    return task.model_copy(update={"hazard": hazard})


@pytest.mark.parametrize("pick", ["first", "last", "majority"])
def test_calling_every_source_and_keeping_one_blindly_fails(pick: str) -> None:
    """Blind picks from all three sources (in the toolbox's order) win majority tasks only."""
    wins = []
    for task in _tasks():
        assert task.hazard is not None
        if episode_correct(play_sync(_blind(task, pick), "oracle", "hazard"), task):
            wins.append(task.hazard.params["rule"])
    assert all(rule == "majority" for rule in wins), wins
    assert len(wins) <= 0.2 * len(_tasks())


def test_a_rule_is_a_digest_of_the_task_not_a_draw() -> None:
    assert _rule_for("tbx-x-seq-01", "get_kpi_value") == _rule_for("tbx-x-seq-01", "get_kpi_value")
    slot = zlib.crc32(b"tbx-x-seq-01/get_kpi_value") % 25
    assert (_rule_for("tbx-x-seq-01", "get_kpi_value") == "majority") == (slot < 1)


def test_the_measured_tier_is_the_declared_one() -> None:
    """Stale stamps and outliers say nothing (silent); a provisional flag is a cue."""
    for task in _tasks():
        assert task.hazard is not None
        assert measured_tier(observe(task)) == task.hazard.tier, task.id


def test_the_sound_source_has_no_fixed_place_in_the_toolbox() -> None:
    """Which source is sound is drawn per task, and the added sources are listed by name:
    a policy that keeps the source at one place of the toolbox wins no more than chance."""
    from toolchaos.suites.toolbench_x.suite import SUITE

    places = []
    for task in _tasks():
        sources = list(task.hazard.params["sources"]) if task.hazard else []
        sound = sources[1]  # the target's two others; the first is the sound one
        listed = [s.name for s in SUITE.make_env(task, "hazard").toolbox() if s.name in sources]
        places.append(listed.index(sound))
    for place in range(3):
        assert places.count(place) <= 0.75 * len(places), places
