"""The cheap-strategy policies (issue #24): each takes its own shortcut, and only that one.

Each policy is played on one shipped v2 task whose hazard its shortcut gets past (v2 stays
loadable under ``--dataset v2``, so these tasks stay as they are). The trace shows the
road it took, and that it took none of the others; ``capable`` takes them all.
"""

from __future__ import annotations

import itertools
import json
from functools import cache

import pytest

from toolchaos.core.types import Episode, TaskSpec, ToolSpec
from toolchaos.suites.toolbench_x import CHANGELOG_TOOL, cheap
from toolchaos.suites.toolbench_x.baselines import CHEAP_MODES, GATE_MODES, MODES, STRATEGIES
from toolchaos.suites.toolbench_x.pipeline import (
    CHEAP_GATES,
    GATES,
    build_toolbench_x,
    cheap_counts,
)
from toolchaos.suites.toolbench_x.suite import SUITE
from toolchaos.suites.toolbench_x.validate import episode_correct, play_sync

ROADS = {
    "changelog-reader": "tbx-a-b-experiments-seq-03",  # a renamed parameter, told in the changelog
    "authority-seeker": "tbx-a-b-experiments-seq-02",  # the corrupted source is not the authority
    "name-passer": "tbx-account-security-seq-05",  # the lookup withholds the id; a name does
    "retry-twice": "tbx-a-b-experiments-seq-01",  # two 429s, then an answer
    "doc-example": "tbx-books-and-library-loans-par-02",  # a lower-case id, an upper-case example
    "prior-step": "tbx-savings-and-interest-seq-02",  # the balance is in the earlier listing
}


@cache
def _v2() -> dict[str, TaskSpec]:
    return {t.id: t for t in SUITE.load(SUITE.version_path("v2"))}


def _play(mode: str, task_id: str, arm: str = "hazard") -> tuple[TaskSpec, Episode]:
    task = _v2()[task_id]
    return task, play_sync(task, mode, arm)


def _retried(episode: Episode) -> bool:
    """Whether a call that failed was made again with the same arguments at once."""
    trace = episode.trace
    return any(
        not a.observation.ok and (a.call.name, a.call.arguments) == (b.call.name, b.call.arguments)
        for a, b in itertools.pairwise(trace)
    )


def _names(episode: Episode) -> list[str]:
    return [e.call.name for e in episode.trace]


def test_every_policy_has_its_own_strategies_and_capable_has_them_all() -> None:
    assert set(CHEAP_MODES) == set(ROADS)
    assert set(CHEAP_MODES) | set(GATE_MODES) | {"capable"} <= set(MODES)
    singles = [STRATEGIES[m] for m in (*CHEAP_MODES, "follower", "bypasser")]
    assert STRATEGIES["capable"] == frozenset().union(*singles)
    assert all(not a & b for i, a in enumerate(singles) for b in singles[i + 1 :])
    assert set(CHEAP_GATES) == {*CHEAP_MODES, "capable"} and set(CHEAP_GATES) <= set(GATES)


@pytest.mark.parametrize("mode", [*CHEAP_MODES, "capable"])
def test_every_cheap_policy_solves_its_tasks_in_the_clean_arm(mode: str) -> None:
    for task_id in ROADS.values():
        task, episode = _play(mode, task_id, "clean")
        assert episode_correct(episode, task), (mode, task_id)


@pytest.mark.parametrize(("mode", "task_id"), sorted(ROADS.items()))
def test_the_road_gets_past_the_hazard_and_the_naive_agent_does_not(
    mode: str, task_id: str
) -> None:
    task, episode = _play(mode, task_id)
    assert episode_correct(episode, task)
    assert not episode_correct(_play("naive", task_id)[1], task)
    # capable takes every road, so it gets past it too
    assert episode_correct(_play("capable", task_id)[1], task)


def test_the_changelog_reader_reads_the_changelog_and_applies_the_rename_only() -> None:
    task, episode = _play("changelog-reader", ROADS["changelog-reader"])
    names = _names(episode)
    assert names.count(CHANGELOG_TOOL) == 1 and not _retried(episode)
    after = episode.trace[names.index(CHANGELOG_TOOL) + 1]
    assert after.call.name == "experiment_lift" and '"variant_value"' in after.call.arguments
    # the changelog is its only source: without it offered, the rename stays unknown
    hidden = task.model_copy(update={"tools": [t for t in task.tools if t != CHANGELOG_TOOL]})
    assert not episode_correct(play_sync(hidden, "changelog-reader", "hazard"), hidden)


def test_the_authority_seeker_never_calls_the_source_the_docs_say_does_not_prevail() -> None:
    task, episode = _play("authority-seeker", ROADS["authority-seeker"])
    names = _names(episode)
    assert task.hazard is not None and task.hazard.tool not in names
    assert "get_variant_stats" in names  # the one whose docs claim authority
    assert CHANGELOG_TOOL not in names and all(e.observation.ok for e in episode.trace)


def test_the_name_passer_skips_the_lookup_and_passes_the_name() -> None:
    _, episode = _play("name-passer", ROADS["name-passer"])
    names = _names(episode)
    assert "search_accounts" not in names  # the hazarded lookup is never called
    first = episode.trace[0]
    assert first.call.name == "get_account_security" and "Cartwheel Grocery" in first.call.arguments
    assert CHANGELOG_TOOL not in names


def test_retry_twice_repeats_the_failed_call_and_nothing_else() -> None:
    task, episode = _play("retry-twice", ROADS["retry-twice"])
    failed = [e for e in episode.trace if not e.observation.ok]
    assert len(failed) == 2 and _retried(episode)
    assert CHANGELOG_TOOL not in _names(episode)
    # a third failure is one too many
    assert task.hazard is not None
    more = task.hazard.model_copy(update={"ordinals": [1, 2, 3]})
    harder = task.model_copy(update={"hazard": more})
    assert not episode_correct(play_sync(harder, "retry-twice", "hazard"), harder)


def test_the_doc_example_policy_rewrites_the_id_in_the_examples_shape() -> None:
    _, episode = _play("doc-example", ROADS["doc-example"])
    failed = [e for e in episode.trace if not e.observation.ok]
    assert len(failed) == 1 and CHANGELOG_TOOL not in _names(episode)
    sent = json.loads(failed[0].call.arguments)
    shaped = {**sent, "loan_id": sent["loan_id"].upper()}
    assert sent["loan_id"] != shaped["loan_id"]
    again = [e for e in episode.trace if e.call.name == failed[0].call.name]
    assert [json.loads(e.call.arguments) for e in again].count(shaped) == 1


def test_prior_step_answers_from_the_listing_and_never_calls_the_drifted_tool() -> None:
    task, episode = _play("prior-step", ROADS["prior-step"])
    assert task.hazard is not None and task.hazard.tool not in _names(episode)
    assert not episode.hazard_events
    # the clean arm gets the same figure by the same road
    clean = play_sync(task, "prior-step", "clean")
    assert episode_correct(clean, task) and task.hazard.tool not in _names(clean)


SWITCHED_TOO_SOON = {"tbx-data-breach-alerts-mix-04"}
"""Where capable loses a task a single policy wins: it switches to the authoritative index
before the ambiguous name errs, and the index resolves the name to the other record."""


def test_capable_solves_what_any_single_policy_solves() -> None:
    sample = [t for i, t in enumerate(_v2().values()) if i % 5 == 0 or t.id in SWITCHED_TOO_SOON]
    singles = (*CHEAP_MODES, *GATE_MODES)
    for task in sample:
        if task.id in SWITCHED_TOO_SOON:
            assert not episode_correct(play_sync(task, "capable", "hazard"), task)
            continue
        if any(episode_correct(play_sync(task, m, "hazard"), task) for m in singles):
            assert episode_correct(play_sync(task, "capable", "hazard"), task), task.id


def test_the_build_counts_what_each_cheap_gate_solves() -> None:
    tasks = [_v2()[t] for t in sorted(ROADS.values())]
    counts = cheap_counts(tasks)
    assert set(counts) == set(CHEAP_GATES)
    for mode, per_family in counts.items():
        solved = sum(episode_correct(play_sync(t, mode, "hazard"), t) for t in tasks)
        assert sum(per_family.values()) == solved
    assert counts["capable"] and sum(counts["capable"].values()) == len(tasks)


def test_a_build_with_the_cheap_gates_drops_what_they_solve_and_counts_it() -> None:
    tasks, report = build_toolbench_x(0, per_cell=1, domains=["weather"], cheap_gates=True)
    assert tasks and report.cheap_enforced
    dropped = {g for g in report.gates if g in CHEAP_GATES}
    assert {"changelog-reader", "retry-twice"} <= dropped
    for gate in dropped:
        assert sum(d.stage == f"gate:{gate}" for d in report.drops) == report.gates[gate]
    # what they would have solved was dropped, so of the kept tasks they solve none
    assert all(n == 0 for per_family in report.cheap.values() for n in per_family.values())


# -- what the policies read off the docs and results ---------------------------------------
def _spec(name: str, description: str, **properties: dict[str, object]) -> ToolSpec:
    required = [k for k, v in properties.items() if "default" not in v and "opt" not in v]
    props = {k: {kk: vv for kk, vv in v.items() if kk != "opt"} for k, v in properties.items()}
    schema = {"type": "object", "properties": props, "required": required}
    return ToolSpec(name=name, description=description, parameters=schema)


def test_authority_is_read_from_the_docs_and_a_denial_is_no_claim() -> None:
    city = {"type": "string"}
    docs = {
        "rate_a": _spec(
            "rate_a", "Rates from A. Not authoritative: B (rate_b) prevails.", city=city
        ),
        "rate_b": _spec("rate_b", "Rates from B, the authoritative source.", city=city),
        "rate_c": _spec("rate_c", "Rates from C, an independent feed.", city=city),
    }
    assert cheap.authority_of("rate_a", docs) == "rate_b"
    assert cheap.authority_of("rate_b", docs) == "rate_b"
    assert cheap.authority_of("rate_c", docs) == "rate_b"  # the one that claims it for itself
    docs["rate_b"] = _spec("rate_b", "Rates from B, not authoritative.", city=city)
    docs["rate_a"] = _spec("rate_a", "Rates from A.", city=city)
    assert cheap.authority_of("rate_c", docs) is None


def test_names_ids_defaults_and_examples_are_read_from_the_docs() -> None:
    spec = _spec(
        "get_loan",
        "One loan.",
        loan_id={"type": "string", "description": "The loan id, e.g. 'LN-123456'."},
        member={"type": "string", "description": "A member id or the member's name.", "opt": 1},
        days={"type": "integer", "default": 30, "description": "How many days."},
        grace={"type": "integer", "description": "Grace days (default 2).", "opt": 1},
    )
    assert cheap.accepts_name(spec, "member") and not cheap.accepts_name(spec, "loan_id")
    assert cheap.id_like([0, "results", 0, "member_id"]) and not cheap.id_like([0, "name"])
    assert cheap.documented_defaults(spec) == {"days": 30, "grace": 2}
    assert cheap.as_documented({"loan_id": " ln-715733 "}, spec) == {
        "loan_id": "LN-715733",
        "days": 30,
        "grace": 2,
    }
    assert cheap.shaped_like("LN-1", "LN-123456") == "LN-1"


def test_paging_is_asked_for_only_where_a_result_says_more_exist() -> None:
    step = cheap.paging_step({"results": [{"a": 1}], "count": 1, "total": 3})
    assert step is not None and step.params["param"] == "page" and step.params["token"] is None
    token = cheap.paging_step({"results": [{"a": 1}], "next_cursor": "c2"})
    assert token is not None and token.params == {
        "param": "cursor",
        "list": "results",
        "token": "next_cursor",
    }
    assert cheap.paging_step({"results": [{"a": 1}], "count": 1, "total": 1}) is None


def test_an_earlier_value_must_be_about_the_same_entity() -> None:
    results = {
        0: {
            "results": [
                {"account_id": "A-1", "balance_usd": 10.0},
                {"account_id": "A-2", "balance_usd": 20.0},
            ]
        }
    }
    assert cheap.earlier_value("balance_usd", {"account_id": "A-2"}, results, 1) == (True, 20.0)
    assert cheap.earlier_value("balance_usd", {"account_id": "A-3"}, results, 1) == (False, None)
    assert cheap.earlier_value("balance_usd", {"account_id": "A-2"}, results, 0) == (False, None)
    assert cheap.put({}, ["results", 0, "x"], 5) == {"results": [{"x": 5}]}


@pytest.mark.parametrize(
    ("error", "passing"),
    [
        ({"error": {"code": 503, "message": "Service Unavailable."}}, True),
        ({"error": {"code": 429, "message": "Too Many Requests."}}, True),
        ({"error": {"code": 400, "message": "The request timed out upstream."}}, True),
        (
            {"error": {"code": 400, "message": "Unrecognized request argument supplied: 'x'."}},
            False,
        ),
        ({"error": {"code": 404, "message": "Account 'Priya' not found"}}, False),
    ],
)
def test_which_errors_read_as_passing(error: dict[str, object], passing: bool) -> None:
    assert cheap.reads_as_passing(error) is passing
