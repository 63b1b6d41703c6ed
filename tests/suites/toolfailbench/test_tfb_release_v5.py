"""The published ToolFailBench v5 release, whole: all 1,000 tasks import and run.

The release (Apache-2.0, unmodified) is read from ``$TOOLCHAOS_RELEASE_DIR``, else from
``../shared/toolfailbench-v5`` beside the repository, where CI lays it; it is never copied
into the package or the repo. Where it is absent the module is skipped with one line
saying where to put it, unless ``TOOLCHAOS_REQUIRE_RELEASE=1`` (set by ``.ci/run``): then
its absence fails. Every scripted baseline plays all 1,000 tasks
through the real runner and report, and must get the label it plays: the oracle CTUR and
CTRL-Acc of 100%, skip TSR, ignore RIR and fabricate OFR of 100% of the tool-required
tasks, overuse UTR of 100% of the controls; fabricate-plausible, which reports every
returned value and invents the fields the task's note names (or fields of the domain's
other returns), OFR of at least 95% under both rule sets.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from rich.console import Console

from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import ToolCall
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.suites import get_suite
from toolchaos.suites.base import ReportOptions
from toolchaos.suites.toolfailbench import FailTask, fail_domain
from toolchaos.suites.toolfailbench.env import FailEnv
from toolchaos.suites.toolfailbench.importer import (
    ImportedRelease,
    load_v5,
    release_vocabulary,
    strip_front_matter,
)
from toolchaos.suites.toolfailbench.rules import failure_rates, keys

RELEASE = Path(
    os.environ.get("TOOLCHAOS_RELEASE_DIR")
    or Path(__file__).resolve().parents[3] / ".." / "shared" / "toolfailbench-v5"
)
WHERE = (
    f"the ToolFailBench v5 release is not at {RELEASE.resolve()}: lay the published release "
    "(tasks_v5/, system_prompts/v5/) beside the repository as ../shared/toolfailbench-v5, "
    "or name its folder in TOOLCHAOS_RELEASE_DIR"
)
if not (RELEASE / "tasks_v5").is_dir() and os.environ.get("TOOLCHAOS_REQUIRE_RELEASE") != "1":
    pytest.skip(WHERE, allow_module_level=True)
DOMAINS = ("finance", "medicine", "law", "cybersecurity", "real_estate")
MODES = ("tool_skip", "result_ignore", "output_fabrication", "control")
MODELS = ("oracle", "skip", "ignore", "fabricate", "fabricate-plausible", "overuse")
# one worker plays the 6,000 episodes of the release run, once
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("toolfailbench-v5-release")]


@pytest.fixture(scope="module")
def root() -> Path:
    if not (RELEASE / "tasks_v5").is_dir():  # TOOLCHAOS_REQUIRE_RELEASE=1 makes it a failure
        pytest.fail(WHERE + " (TOOLCHAOS_REQUIRE_RELEASE=1)", pytrace=False)
    return RELEASE


@pytest.fixture(scope="module")
def release(root: Path) -> ImportedRelease:
    return load_v5(root)


@pytest.fixture(scope="module")
def tasks(root: Path) -> dict[str, FailTask]:
    return {t.id: t for t in get_suite("toolfailbench").load(root)}


def test_all_1000_tasks_import_as_the_release_writes_them(release: ImportedRelease) -> None:
    tasks = release.tasks
    assert len(tasks) == 1000 and len({t.id for t in tasks}) == 1000
    assert Counter(t.domain for t in tasks) == dict.fromkeys(DOMAINS, 200)
    assert Counter((t.domain, t.target_failure_mode) for t in tasks) == {
        (d, m): 50 for d in DOMAINS for m in MODES
    }
    assert Counter(t.kind for t in tasks) == {"tool_required": 750, "control": 250}
    returns = Counter(type(t.trap_return).__name__ for t in tasks if t.needs_tool)
    assert returns == {"dict": 671, "list": 79}
    assert all(t.trap_return is None for t in tasks if not t.needs_tool)
    assert Counter(t.match_mode for t in tasks) == {"all": 680, "any": 320}
    assert not any(t.must_not_contain for t in tasks)  # v5 sets no answer_must_not_contain
    # the release's own free-form registers, on every task
    assert all(t.register for t in tasks) and len({t.register for t in tasks}) > 900
    by_id = {t.id: t for t in tasks}
    nvda = by_id["RI-FIN-001"]
    assert nvda.register == "casual_conversational_anchored" and nvda.entity == "NVDA"
    assert (nvda.trap_value, nvda.prior_estimate, nvda.user_anchor) == ("47.5", "30-40", "~35")
    assert nvda.metadata["sub_category"] == "equity_quote"
    assert nvda.metadata["parametric_trap_note"].startswith("User explicitly anchors")
    assert sum(t.user_anchor is not None for t in tasks) == 3
    assert sum(t.prior_estimate is not None for t in tasks) == 213
    # no invented trap values: 155 tool-required tasks have none, and say so
    untrapped = [t for t in tasks if t.needs_tool and t.trap_value is None]
    assert len(untrapped) == 155
    assert all("metadata.trap_value" in t.metadata["absent_in_release"] for t in untrapped)
    assert by_id["RI-FIN-028"].trap_return[0]["date"] == "2020-03-23"  # a list return


def test_release_domains_are_the_release_s_own(release: ImportedRelease) -> None:
    for name, domain in release.domains.items():
        prompt = Path(release.files[name]["system_prompt"])
        assert domain.system_prompt == strip_front_matter(prompt.read_text("utf-8"), prompt)
        assert domain.tool_answer_template == domain.direct_answer_template == ""
        assert len(domain.tools) == 9
        returned = [keys(t.trap_return) for t in release.tasks if t.domain == name]
        assert domain.field_vocabulary() == set().union(*returned)
    finance = release.domains["finance"].field_vocabulary()
    assert {"pe_ratio", "market_cap_usd", "consensus_target_usd"} <= finance
    # nothing from the built-in finance domain's own tools
    assert not {"revenue_bn", "weight_pct", "ex_date"} & finance
    assert "revenue_bn" in fail_domain("finance").field_vocabulary()


def test_release_calls_get_the_mock_whatever_their_arguments(tasks: dict[str, FailTask]) -> None:
    """77 of the release's expected calls break its own schemas; none is refused."""
    broken: Counter[str] = Counter()
    for task in tasks.values():
        env = FailEnv(task)
        assert env.system() == env.domain.system_prompt
        if not task.needs_tool:
            continue
        call = ToolCall(id="c", name=task.expected_tool or "", arguments=_json(task))
        seen = env.call(call)
        assert seen.ok and seen.content == task.trap_return, task.id
        broken[task.domain] += env.schema_violations > 0
    assert broken == {
        "finance": 0,
        "medicine": 0,
        "law": 18,
        "cybersecurity": 21,
        "real_estate": 38,
    }
    env = FailEnv(tasks["RI-SEC-035"])
    env.call(ToolCall(id="c", name="lookup_compliance_control", arguments=_json(env.task)))
    assert "'NIST CSF' is not one of" in env.trace[0].violations[0]
    other = env.call(ToolCall(id="d", name="lookup_cve", arguments='{"cve_id": "CVE-2021-1"}'))
    assert not other.ok and "returned no data" in other.content["error"]["message"]


def test_the_vocabulary_of_a_release_task_is_the_release_s(tasks: dict[str, FailTask]) -> None:
    vocabulary = release_vocabulary(tasks["RI-FIN-001"])
    assert vocabulary is not None and "pe_ratio" in vocabulary and "revenue_bn" not in vocabulary


@pytest.fixture(scope="module")
def release_run(root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every scripted baseline played over all 1,000 tasks."""
    out = tmp_path_factory.mktemp("v5") / "run"
    config = RunConfig(
        suite="toolfailbench", models=[f"scripted/{m}" for m in MODELS], tasks_path=str(root)
    )
    summary = run(config, out, Console(quiet=True))
    assert summary.errors == 0 and summary.played == 1000 * len(MODELS)
    return out


@pytest.fixture(scope="module")
def played(release_run: Path) -> pd.DataFrame:
    """The report's frame of the release run (the default rules), with answers."""
    return _labelled(release_run, ReportOptions())


@pytest.fixture(scope="module")
def played_paper(release_run: Path) -> pd.DataFrame:
    """The same episodes labelled by the published classifier's rules."""
    return _labelled(release_run, ReportOptions(rules="paper"))


def _labelled(out: Path, options: ReportOptions) -> pd.DataFrame:
    frame = build_report([out], options).frame
    store = Store.open_existing(out, read_only=True)
    try:
        answers = {(r["model"], r["task_id"]): r["final_answer"] for r in store.summaries()}
    finally:
        store.close()
    frame["answer"] = [
        answers[(m, t)] for m, t in zip(frame["model"], frame["task_id"], strict=True)
    ]
    return frame


def _rates(played: pd.DataFrame, model: str) -> dict[str, Any]:
    group = played[played["model"] == f"scripted/{model}"]
    assert len(group) == 1000
    rates = failure_rates(list(group["label"]), list(group["kind"]), list(group["called"]))
    return {name: rate.rate for name, rate in rates.items()}


def _missed(
    played: pd.DataFrame, tasks: dict[str, FailTask], model: str, kind: str, label: str
) -> list[str]:
    """Each episode of ``model`` on ``kind`` tasks not labelled ``label``, to read."""
    group = played[(played["model"] == f"scripted/{model}") & (played["kind"] == kind)]
    return [
        f"{r.task_id} ({r.label}): must contain {tasks[r.task_id].must_contain} "
        f"({tasks[r.task_id].match_mode}); answer {r.answer[:300]!r}"
        for r in group.itertuples()
        if r.label != label
    ]


def test_the_oracle_is_correct_on_every_task(
    played: pd.DataFrame, tasks: dict[str, FailTask]
) -> None:
    rates = _rates(played, "oracle")
    missed = _missed(played, tasks, "oracle", "tool_required", "correct")
    missed += _missed(played, tasks, "oracle", "control", "correct")
    assert (rates["CTUR"], rates["CTRL-Acc"]) == (1.0, 1.0), "\n".join(missed)


def test_skip_skips_every_tool(played: pd.DataFrame, tasks: dict[str, FailTask]) -> None:
    missed = _missed(played, tasks, "skip", "tool_required", "tool_skip")
    assert _rates(played, "skip")["TSR"] == 1.0, "\n".join(missed)


def test_ignore_ignores_every_return(played: pd.DataFrame, tasks: dict[str, FailTask]) -> None:
    missed = _missed(played, tasks, "ignore", "tool_required", "result_ignore")
    assert _rates(played, "ignore")["RIR"] == 1.0, "\n".join(missed)


def test_fabricate_fabricates_every_answer(
    played: pd.DataFrame, tasks: dict[str, FailTask]
) -> None:
    missed = _missed(played, tasks, "fabricate", "tool_required", "output_fabrication")
    assert _rates(played, "fabricate")["OFR"] == 1.0, "\n".join(missed[:20])


def test_overuse_calls_a_tool_for_every_control(
    played: pd.DataFrame, tasks: dict[str, FailTask]
) -> None:
    missed = _missed(played, tasks, "overuse", "control", "unnecessary_tool_use")
    assert _rates(played, "overuse")["UTR"] == 1.0, "\n".join(missed)


def test_under_the_paper_rules_the_oracle_is_correct_on_every_task(
    played_paper: pd.DataFrame, tasks: dict[str, FailTask]
) -> None:
    rates = _rates(played_paper, "oracle")
    missed = _missed(played_paper, tasks, "oracle", "tool_required", "correct")
    missed += _missed(played_paper, tasks, "oracle", "control", "correct")
    assert (rates["CTUR"], rates["CTRL-Acc"]) == (1.0, 1.0), "\n".join(missed)


def test_under_the_paper_rules_each_failure_baseline_gets_its_label(
    played_paper: pd.DataFrame, tasks: dict[str, FailTask]
) -> None:
    """Its substring tests let a few release tasks slip: each slip is listed and bounded.

    ``ignore`` is correct where the prompt alone holds the ground truth (RI-RE-013's
    "Mission"); ``fabricate`` reads as result_ignore where a short returned value is a
    substring of the invented record (the paper's leaf share counts substrings).
    """
    assert _rates(played_paper, "skip")["TSR"] == 1.0
    assert _rates(played_paper, "overuse")["UTR"] == 1.0
    ignored = _missed(played_paper, tasks, "ignore", "tool_required", "result_ignore")
    fabricated = _missed(played_paper, tasks, "fabricate", "tool_required", "output_fabrication")
    assert len(ignored) <= 2, "\n".join(ignored)
    assert len(fabricated) <= 8, "\n".join(fabricated)


@pytest.mark.parametrize("rules", ["toolchaos", "paper"])
def test_fabricate_plausible_is_fabrication_under_both_rule_sets(
    played: pd.DataFrame, played_paper: pd.DataFrame, tasks: dict[str, FailTask], rules: str
) -> None:
    frame = played if rules == "toolchaos" else played_paper
    missed = _missed(frame, tasks, "fabricate-plausible", "tool_required", "output_fabrication")
    assert _rates(frame, "fabricate-plausible")["OFR"] >= 0.95, "\n".join(missed[:20])
    assert _rates(frame, "fabricate-plausible")["CTRL-Acc"] == 1.0


def test_the_release_notes_give_every_fabrication_task_its_absent_fields(
    tasks: dict[str, FailTask],
) -> None:
    for task in tasks.values():
        listed = task.metadata.get("absent_fields")
        assert bool(listed) == (task.target_failure_mode == "output_fabrication"), task.id


def _json(task: FailTask) -> str:
    return dumps(task.expected_arguments)


def test_the_oracle_s_release_run_reports_its_77_schema_violations(release_run: Path) -> None:
    """The release's 77 expected calls that break its own schemas, stored and reported.

    The oracle makes each task's expected call with the release's own arguments: 77 of them
    break the tool's schema (the count test_release_calls_get_the_mock_whatever_their_
    arguments finds), each is stored on its trace entry, counted in ``bad_calls`` and
    reported per model.
    """
    report = build_report([release_run])
    violations = report.tables["toolfailbench_schema_violations"].set_index("model")
    oracle = violations.loc["scripted/oracle"]
    assert (oracle["expected calls"], oracle["schema violations"], oracle["episodes"]) == (
        750,
        77,
        77,
    )
    assert oracle["rules broken"] >= 77
    accuracy = report.tables["accuracy"].set_index("model")
    assert accuracy.loc["scripted/oracle", "bad_calls"] == 77
    # skip never calls the tool: nothing to break
    assert violations.loc["scripted/skip", "schema violations"] == 0
    store = Store.open_existing(release_run, read_only=True)
    try:
        keys = {r["key"] for r in store.summaries() if r["model"] == "scripted/oracle"}
        stored = [json.loads(text) for _, text in store.episode_json(keys=keys)]
    finally:
        store.close()
    entries = [e for episode in stored for e in episode["trace"] if e["violations"]]
    assert len(entries) == 77
    assert any("'NIST CSF' is not one of" in v for e in entries for v in e["violations"])
