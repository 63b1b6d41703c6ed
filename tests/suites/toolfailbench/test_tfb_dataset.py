"""The shipped ToolFailBench task set (v3): shape, reproducibility, leakage, traps, priors."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from toolchaos.core.errors import BadInput
from toolchaos.scoring.answer import normalize, score_answer
from toolchaos.suites.toolfailbench import (
    FailTask,
    build_toolfailbench,
    default_path,
    fail_domain,
    leak_problems,
    load_fail_tasks,
    tool_return,
)
from toolchaos.suites.toolfailbench.consistency import contradictions, linked
from toolchaos.suites.toolfailbench.dataset import (
    BUILD_FILE,
    data_path,
    to_jsonl,
    v1_path,
    v2_path,
)
from toolchaos.suites.toolfailbench.domains import domain_kit
from toolchaos.suites.toolfailbench.generate import REMEMBERED, main, trap_questions
from toolchaos.suites.toolfailbench.remembered import (
    contradicted,
    current_value,
    remembered_priors,
)
from toolchaos.suites.toolfailbench.types import DOMAINS, REGISTERS, TRAP_MODES

ID = re.compile(
    r"^tfb-(finance|medicine|law|cybersecurity|real-estate)-(skip|ignore|fabrication|control)-\d{3}$"
)


@pytest.fixture(scope="module")
def shipped() -> list[FailTask]:
    return load_fail_tasks()


@pytest.fixture(scope="module")
def required(shipped: list[FailTask]) -> list[FailTask]:
    return [t for t in shipped if t.needs_tool]


def test_shipped_file_has_the_promised_counts(shipped: list[FailTask]) -> None:
    assert len(shipped) == 1000
    assert len({t.id for t in shipped}) == 1000
    assert all(ID.match(t.id) for t in shipped)
    cells = Counter((t.domain, t.target_failure_mode) for t in shipped)
    for domain in DOMAINS:
        assert sum(n for (d, _), n in cells.items() if d == domain) == 200
        for mode in (*TRAP_MODES, "control"):
            assert cells[(domain, mode)] == 50
        for mode in (*TRAP_MODES, "control"):
            registers = Counter(
                t.register for t in shipped if t.domain == domain and t.target_failure_mode == mode
            )
            assert set(registers) == set(REGISTERS)
            assert all(n in (16, 17) for n in registers.values())
        # the questions given an invented trap are asked about equally often
        questions = Counter(
            t.metadata["question"]
            for t in shipped
            if t.domain == domain and t.needs_tool and t.metadata["prior_kind"] == "generated"
        )
        volatile = trap_questions(domain_kit(domain))
        assert set(questions) == {q.name for q in volatile}
        per_mode = len(TRAP_MODES) * ((50 - REMEMBERED) // len(volatile))
        assert all(per_mode <= n <= per_mode + len(TRAP_MODES) for n in questions.values())


def test_kinds_modes_and_conflicts_agree(shipped: list[FailTask]) -> None:
    for task in shipped:
        if task.kind == "control":
            assert task.target_failure_mode == "control" and task.conflict_type == "none"
            assert task.expected_tool is None and task.trap_return is None
            assert task.trap_value is None and task.prior_estimate is None
            assert task.metadata["control_kind"] in ("concept", "calculation")
        else:
            assert task.conflict_type in ("contradicting", "neutral")
            assert task.entity and task.expected_tool and task.trap_return and task.trap_value
            assert task.prior_estimate
            assert task.metadata["version"] == "v3"
            anchored = task.user_anchor is not None
            assert task.conflict_type == ("contradicting" if anchored else "neutral")
    for domain in DOMAINS:
        ignore = [
            t for t in shipped if t.domain == domain and t.target_failure_mode == "result_ignore"
        ]
        assert sum(t.user_anchor is not None for t in ignore) == 17  # about a third
        others = [
            t for t in shipped if t.domain == domain and t.target_failure_mode != "result_ignore"
        ]
        assert all(t.user_anchor is None for t in others)


def test_anchored_prompts_state_the_anchor(required: list[FailTask]) -> None:
    for task in required:
        if task.user_anchor is not None:
            assert normalize(task.user_anchor) in normalize(task.prompt), task.id


def test_fabrication_tasks_ask_for_several_fields(required: list[FailTask]) -> None:
    for task in required:
        if task.target_failure_mode == "output_fabrication":
            assert task.match_mode == "all" and len(task.must_contain) >= 2, task.id
            assert len(task.metadata["fields"]) >= 2
            assert task.must_contain[0] == task.trap_value
            for field, value in zip(task.metadata["fields"], task.must_contain, strict=False):
                assert task.trap_return is not None
                assert normalize(str(task.trap_return[field])) == normalize(value)


def test_the_expected_call_returns_the_trap(required: list[FailTask]) -> None:
    for task in required:
        assert task.expected_tool is not None and task.trap_return is not None
        got = tool_return(task.domain, task, task.expected_tool, task.expected_arguments)
        assert got == task.trap_return
        key = task.metadata["key_field"]
        assert normalize(str(got[key])) == normalize(task.trap_value or "")
        plain = tool_return(task.domain, None, task.expected_tool, task.expected_arguments)
        # a remembered prior is trapped by the tool's own current value, the same in and
        # out of the task; an invented trap is the task's own
        if task.metadata["prior_kind"] == "remembered":
            assert plain == task.trap_return, task.id
        else:
            assert plain != task.trap_return, task.id
        schema = fail_domain(task.domain).output_schemas[task.expected_tool]
        from jsonschema import Draft202012Validator

        assert not list(Draft202012Validator(schema).iter_errors(task.trap_return))


def test_trap_differs_clearly_from_the_prior(required: list[FailTask]) -> None:
    numeric = 0
    for task in required:
        trap, prior = task.trap_value or "", task.prior_estimate or ""
        if task.metadata["trap_direction"] in ("up", "down"):
            numeric += 1
            gap = abs(float(trap) - float(prior)) / abs(float(prior))
            assert gap >= 0.15, (task.id, trap, prior)
            if task.metadata["prior_kind"] == "generated":
                assert task.metadata["relative_gap"] >= 0.3
        else:
            assert normalize(trap) != normalize(prior), task.id
        # an answer built on the prior never contains the trap
        assert not score_answer(f"It is {prior}.", trap).contains, task.id
        if task.user_anchor is not None:
            assert not score_answer(f"It is {task.user_anchor}.", trap).contains, task.id
    assert numeric > 650


def test_a_faithful_answer_matches_and_hedging_does_not_hide_it(required: list[FailTask]) -> None:
    for task in required:
        wanted = task.must_contain if task.match_mode == "all" else task.must_contain[:1]
        answer = "According to the tool: " + "; ".join(wanted) + "."
        assert all(score_answer(answer, m).correct for m in wanted), task.id


def test_no_shipped_task_leaks_its_answer(shipped: list[FailTask]) -> None:
    problems = [p for task in shipped for p in leak_problems(task)]
    assert problems == []


def test_leak_check_catches_a_leak(required: list[FailTask]) -> None:
    task = next(t for t in required if t.domain == "finance")
    leaky = task.model_copy(update={"prompt": f"{task.prompt} It is {task.trap_value}."})
    assert leak_problems(leaky) == [
        f"task {task.id}: trap value {task.trap_value!r} appears in the prompt"
    ]
    domain = fail_domain("finance")
    spec = domain.tools[0].model_copy(
        update={"description": f"{domain.tools[0].description} Often {task.trap_value}."}
    )
    other = domain.model_copy(update={"tools": (spec, *domain.tools[1:])})
    assert any("tool descriptions" in p for p in leak_problems(task, other))


def test_the_shipped_file_rebuilds_byte_for_byte(tmp_path: Path) -> None:
    tasks, report = build_toolfailbench(0)
    shipped_bytes = default_path().read_bytes()
    rebuilt = hashlib.sha256(to_jsonl(tasks).encode("utf-8")).hexdigest()
    assert rebuilt == hashlib.sha256(shipped_bytes).hexdigest() == report.tasks_sha256
    assert data_path(BUILD_FILE).read_text(encoding="utf-8") == report.to_json()
    build = json.loads(data_path(BUILD_FILE).read_text(encoding="utf-8"))
    assert build["seed"] == 0 and build["counts"]["total"] == 1000
    out = tmp_path / "tasks.jsonl"
    assert main(["--seed", "0", "--out", str(out), "--report", str(tmp_path / "b.json")]) == 0
    assert out.read_bytes() == shipped_bytes


def test_another_seed_builds_other_tasks(shipped: list[FailTask]) -> None:
    tasks, _ = build_toolfailbench(1, domains=["finance", "law"])
    mine = {t.id: t for t in shipped}
    assert len(tasks) == 400
    differing = sum(t.model_dump() != mine[t.id].model_dump() for t in tasks)
    assert differing > 300
    assert {t.prompt for t in tasks} - {t.prompt for t in shipped}


def test_loading_reports_the_bad_line(tmp_path: Path, shipped: list[FailTask]) -> None:
    good = shipped[0].model_dump_json()
    path = tmp_path / "tasks.jsonl"
    path.write_text(good + "\n{not json\n", encoding="utf-8")
    with pytest.raises(BadInput, match=r"line 2: not valid JSON"):
        load_fail_tasks(path)
    broken = json.loads(good)
    broken["kind"] = "shouty"
    path.write_text(good + "\n" + json.dumps(broken) + "\n", encoding="utf-8")
    with pytest.raises(BadInput, match=r"line 2, field kind"):
        load_fail_tasks(path)
    path.write_text(good + "\n" + good + "\n", encoding="utf-8")
    with pytest.raises(BadInput, match="duplicate task id"):
        load_fail_tasks(path)
    with pytest.raises(BadInput, match="does not exist"):
        load_fail_tasks(tmp_path / "missing.jsonl")


def test_task_model_rejects_inconsistent_kinds(shipped: list[FailTask]) -> None:
    control = next(t for t in shipped if t.kind == "control").model_dump()
    with pytest.raises(ValueError, match="kind 'control'"):
        FailTask(**{**control, "target_failure_mode": "tool_skip"})
    with pytest.raises(ValueError, match="expects no tool call"):
        FailTask(**{**control, "expected_tool": "get_stock_quote"})


def test_the_build_report_says_v3() -> None:
    build = json.loads(data_path(BUILD_FILE).read_text(encoding="utf-8"))
    assert build["version"] == "v3"
    assert build["contradicting_tools"] == 0 and build["cross_checked_calls"] > 1000
    assert all(d["shapes"] >= 15 for d in build["counts"]["by_domain"].values())


def test_each_domain_asks_at_least_fifteen_shapes(shipped: list[FailTask]) -> None:
    for domain in DOMAINS:
        mine = [t for t in shipped if t.domain == domain and t.needs_tool]
        shapes = {t.metadata["shape"] for t in mine}
        assert len(shapes) >= 15, (domain, len(shapes))
        for mode in TRAP_MODES:
            forms = {t.metadata["form"] for t in mine if t.target_failure_mode == mode}
            assert len(forms) >= 2, (domain, mode)
            registers = {t.register for t in mine if t.target_failure_mode == mode}
            assert registers == set(REGISTERS)


def test_each_domain_traps_at_least_ten_questions(required: list[FailTask]) -> None:
    for domain in DOMAINS:
        questions = Counter(t.metadata["question"] for t in required if t.domain == domain)
        assert sum(questions.values()) == 150
        assert len(questions) >= 10, (domain, sorted(questions))


def test_no_two_prompts_are_the_same_after_normalization(shipped: list[FailTask]) -> None:
    prompts = Counter(normalize(t.prompt) for t in shipped)
    assert [p for p, n in prompts.items() if n > 1] == []


def test_no_trap_contradicts_a_settled_fact(required: list[FailTask]) -> None:
    for task in required:
        kit = domain_kit(task.domain)
        question = next(q for q in kit.questions if q.name == task.metadata["question"])
        assert question.key == task.metadata["key_field"]
        assert task.metadata["stability"] == question.stability
        if task.metadata["prior_kind"] == "generated":
            # an invented value only on a figure that moves and no other tool states
            assert question.stability == "volatile", task.id
            assert not linked(kit, question.name), task.id
        else:
            # a settled question is trapped only by its current, documented value
            assert task.trap_return == tool_return(
                task.domain, None, question.tool, task.expected_arguments
            )
    # the settled questions no fact covers (a case's vote, a cipher's strength) stay unused
    used = {t.metadata["question"] for t in required}
    for name in ("case-vote", "security-bits", "half-life", "annual-revenue", "permitted-units"):
        assert name not in used


def test_a_trap_record_is_dated_recently(required: list[FailTask]) -> None:
    from datetime import date, timedelta

    from toolchaos.suites.toolfailbench._kit import BASE_DATE

    dated = 0
    for task in required:
        assert task.trap_return is not None
        if task.metadata["prior_kind"] == "remembered":
            continue  # the tool's own record: its dates are the record's, not a fresh change
        for field in ("as_of", "effective_date", "latest_start_date", "most_recent_citation"):
            value = task.trap_return.get(field)
            if isinstance(value, str):
                day = date.fromisoformat(value[:10])
                assert BASE_DATE - timedelta(days=400) <= day <= BASE_DATE, (task.id, field)
                dated += 1
    assert dated > 100


def test_a_trapped_price_moves_its_dependent_fields(required: list[FailTask]) -> None:
    for task in required:
        if task.metadata["question"] == "median-price" and "yoy_change_pct" in task.metadata:
            assert task.trap_return is not None
            yoy = task.trap_return["yoy_change_pct"]
            assert (yoy > 0) == (task.metadata["trap_direction"] == "up"), task.id


def test_aliases_reach_the_trap(required: list[FailTask]) -> None:
    aliased = [t for t in required if "alias" in t.metadata]
    assert len(aliased) > 80
    assert {t.domain for t in aliased} >= {"finance", "medicine", "law", "real_estate"}
    for task in required:
        assert task.expected_tool is not None
        kit = domain_kit(task.domain)
        target = next(
            t
            for q in kit.questions
            if q.name == task.metadata["question"]
            for t in q.targets()
            if t.entity == task.entity
        )
        for alias in target.aliases:
            tool = kit.tools[task.expected_tool]
            [param] = [p for p in tool.aliases if p in task.expected_arguments][:1] or [None]
            if param is None:  # an alias of a pair: name the first drug by its brand
                continue
            arguments = {**task.expected_arguments, param: alias}
            if param == "drug_a" and " and " in alias:
                arguments = {**task.expected_arguments, "drug_a": alias.split(" and ")[0]}
            got = tool_return(task.domain, task, task.expected_tool, arguments)
            assert got == task.trap_return, (task.id, alias)
    for domain, tool, arguments, by_alias in (
        ("finance", "get_stock_quote", {"ticker": "V"}, {"ticker": "Visa"}),
        (
            "law",
            "get_citing_references",
            {"case_name": "District of Columbia v. Heller"},
            {"case_name": "D.C. v. Heller"},
        ),
        ("medicine", "get_drug_price", {"drug": "dabigatran"}, {"drug": "Pradaxa"}),
        ("real_estate", "get_rent_index", {"market": "New York, NY"}, {"market": "New York"}),
    ):
        assert tool_return(domain, None, tool, arguments) == tool_return(
            domain, None, tool, by_alias
        )


def test_fabrication_prompts_ask_for_fields_absent_from_the_return(
    required: list[FailTask],
) -> None:
    for task in required:
        if task.target_failure_mode != "output_fabrication":
            continue
        assert task.trap_return is not None
        absent = task.metadata["absent_fields"]
        assert len(absent) == 2, task.id
        vocabulary = fail_domain(task.domain).field_vocabulary()
        for field in absent:
            assert field not in task.trap_return and field not in vocabulary, (task.id, field)
        kit = domain_kit(task.domain)
        question = next(q for q in kit.questions if q.name == task.metadata["question"])
        phrases = dict(question.beyond)
        for field in absent:
            assert normalize(phrases[field]) in normalize(task.prompt), (task.id, field)
        # a faithful answer still needs only what the return has
        assert all(normalize(m) in normalize(str(task.trap_return)) for m in task.must_contain)


def test_v1_still_loads() -> None:
    tasks = load_fail_tasks(v1_path())
    assert len(tasks) == 1000
    assert all(t.metadata.get("version", "v1") == "v1" for t in tasks)
    build = json.loads((v1_path().parent / BUILD_FILE).read_text(encoding="utf-8"))
    assert build["version"] == "v1"
    assert hashlib.sha256(v1_path().read_bytes()).hexdigest() == build["tasks_sha256"]


def test_v2_is_frozen_and_still_loads() -> None:
    tasks = load_fail_tasks(v2_path())
    assert len(tasks) == 1000
    assert all(t.metadata["version"] == "v2" for t in tasks)
    build = json.loads((v2_path().parent / BUILD_FILE).read_text(encoding="utf-8"))
    assert build["version"] == "v2"
    assert hashlib.sha256(v2_path().read_bytes()).hexdigest() == build["tasks_sha256"]
    from toolchaos.suites import get_suite

    assert get_suite("toolfailbench").version_path("v2") == v2_path()
    assert get_suite("toolfailbench").version_path("v3") == default_path()


def test_most_traps_of_every_domain_are_remembered_and_cited(required: list[FailTask]) -> None:
    build = json.loads(data_path(BUILD_FILE).read_text(encoding="utf-8"))
    for domain in DOMAINS:
        mine = [t for t in required if t.domain == domain]
        cited = [t for t in mine if t.metadata["prior_kind"] == "remembered"]
        assert len(cited) >= 0.6 * len(mine), domain
        assert build["remembered"][domain]["remembered"] == len(cited)
        assert build["remembered"][domain]["share"] >= 0.6
        facts = {f.id: f for f in remembered_priors(domain)}
        for task in cited:
            fact = facts[task.metadata["prior_id"]]
            assert task.metadata["prior_source"] == fact.source
            assert task.prior_estimate == str(fact.prior)
            assert task.entity == fact.entity and task.metadata["question"] == fact.question
        # every mode traps remembered priors, not only the easy one
        assert {t.target_failure_mode for t in cited} == set(TRAP_MODES)
        assert {f for f in build["remembered"][domain]["sources"]} <= set(facts)


def test_every_remembered_prior_is_contradicted_by_its_tool() -> None:
    for domain in DOMAINS:
        kit = domain_kit(domain)
        for fact in remembered_priors(domain):
            assert contradicted(fact.prior, current_value(kit, fact)), fact.id
    assert contradicted(1200, 3200) and not contradicted(4.7, 5.0)
    assert contradicted("approved", "withdrawn") and not contradicted("Approved", "approved")


def test_no_other_tool_contradicts_a_shipped_trap(required: list[FailTask]) -> None:
    assert [t.id for t in required if contradictions(t)] == []


def test_the_cross_check_finds_what_v2_got_wrong() -> None:
    """v2 invented median prices the affordability tool disagreed with, and PA court fees."""
    v2 = [t for t in load_fail_tasks(v2_path()) if t.needs_tool]
    found = {(t.domain, t.metadata["question"]) for t in v2 if contradictions(t)}
    assert ("real_estate", "median-price") in found
    assert ("law", "small-claims-fee") in found
    pa = next(
        t
        for t in v2
        if t.metadata["question"] == "small-claims-fee"
        and t.expected_arguments == {"jurisdiction": "PA"}
    )
    [contradiction] = contradictions(pa)
    assert contradiction.tool == "get_court_fees"
    assert contradiction.arguments == {"jurisdiction": "PA", "filing_type": "small_claims"}
