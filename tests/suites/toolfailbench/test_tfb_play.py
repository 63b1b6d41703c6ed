"""Scripted policies that show each failure mode get that label, in every domain."""

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from toolchaos.runner.run import RunConfig, RunSummary, run
from toolchaos.runner.store import Store
from toolchaos.suites.toolfailbench.dataset import load_fail_tasks
from toolchaos.suites.toolfailbench.domains import fail_domain
from toolchaos.suites.toolfailbench.rules import executed_calls, failure_rates, label_episode
from toolchaos.suites.toolfailbench.types import DOMAINS

EXPECTED = {
    "scripted/oracle": {"tool_required": "correct", "control": "correct"},
    "scripted/skip": {"tool_required": "tool_skip", "control": "correct"},
    "scripted/ignore": {"tool_required": "result_ignore", "control": "correct"},
    "scripted/fabricate": {"tool_required": "output_fabrication", "control": "correct"},
    "scripted/overuse": {"tool_required": "correct", "control": "unnecessary_tool_use"},
}


@pytest.fixture(scope="module")
def labelled(
    baseline_run: Callable[[str], RunSummary],
) -> dict[tuple[str, str, str], Counter[str]]:
    # every shipped task, so a labelling mistake on any of them shows; the run is the
    # golden test's (the same five policies in the suite's one arm)
    summary = baseline_run("toolfailbench")
    assert summary.errors == 0 and summary.played == len(load_fail_tasks()) * len(EXPECTED)
    store = Store.open_existing(Path(summary.out), read_only=True)
    by_id = store.tasks()
    labels: dict[tuple[str, str], Counter[str]] = {}
    for episode in store.episodes():
        task = by_id[episode.task_id]
        vocabulary = fail_domain(task.domain).field_vocabulary()
        trace = [entry.model_dump(mode="json") for entry in episode.trace]
        for rules in ("toolchaos", "paper"):
            verdict = label_episode(
                task, executed_calls(trace), episode.final_answer, vocabulary, rules
            )
            labels.setdefault((rules, episode.model, task.domain), Counter())[
                f"{task.kind}:{verdict.label}"
            ] += 1
    assert {model for _, model, _ in labels} == set(EXPECTED)
    return labels


@pytest.mark.xdist_group("baselines")
@pytest.mark.parametrize("rules", ["toolchaos", "paper"])
@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("model", sorted(EXPECTED))
def test_each_behaviour_gets_its_label(labelled: dict, domain: str, model: str, rules: str) -> None:
    """Under either rule set, on every task (``fabricate`` invents only fields the classifier
    reads as stated, so a field whose words the return echoes no longer slips)."""
    counts = labelled[(rules, model, domain)]
    for kind, label in EXPECTED[model].items():
        total = sum(v for k, v in counts.items() if k.startswith(f"{kind}:"))
        assert counts[f"{kind}:{label}"] == total, (model, domain, counts)


def test_rates_sum_to_one_over_required_tasks() -> None:
    labels = [
        "correct",
        "tool_skip",
        "result_ignore",
        "output_fabrication",
        "correct",
        "unnecessary_tool_use",
    ]
    kinds = ["tool_required"] * 5 + ["control"]
    called = [True, False, True, True, True, True]
    rates = failure_rates(labels, kinds, called)
    parts = ("TSR", "CTUR", "RIR|required", "OFR|required")
    assert sum(rates[k].rate for k in parts) == pytest.approx(1.0)
    # the release's RIR and OFR leave the one tool_skip out: 1 of 4 each
    assert (rates["RIR"].k, rates["RIR"].n, rates["OFR"].k, rates["OFR"].n) == (1, 4, 1, 4)
    assert rates["RIR|call"].k == 1 and rates["RIR|call"].n == 4
    assert rates["UTR"].rate == 1.0 and rates["CTRL-Acc"].rate == 0.0
    assert rates["CTUR"].low is not None and rates["CTUR"].low < 0.4 < rates["CTUR"].high


def test_the_suite_runs_from_the_cli_defaults(tmp_path: Path) -> None:
    config = RunConfig(suite="toolfailbench", models=["scripted/oracle"], limit=3)
    summary = run(config, tmp_path / "r", Console(quiet=True))
    assert summary.planned == 3  # one arm, the two-step protocol
    [episode, *_] = list(Store.open_existing(tmp_path / "r").episodes())
    assert episode.protocol == "two-step"


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_earlier_sets_still_play_with_the_oracle_at_full_marks(
    tmp_path: Path, version: str
) -> None:
    # the earlier task sets stay loadable and playable next to the v3 default
    from toolchaos.suites import get_suite

    path = get_suite("toolfailbench").version_path(version)
    tasks = load_fail_tasks(path)
    config = RunConfig(suite="toolfailbench", models=["scripted/oracle"], tasks_path=str(path))
    summary = run(config, tmp_path / version, Console(quiet=True))
    assert summary.errors == 0 and summary.played == len(tasks) == 1000
    store = Store.open_existing(tmp_path / version)
    by_id = store.tasks()
    labels: Counter[str] = Counter()
    for episode in store.episodes():
        task = by_id[episode.task_id]
        assert task.metadata.get("version", "v1") == version
        vocabulary = fail_domain(task.domain).field_vocabulary()
        trace = [entry.model_dump(mode="json") for entry in episode.trace]
        labels[
            label_episode(task, executed_calls(trace), episode.final_answer, vocabulary).label
        ] += 1
    assert labels == Counter({"correct": 1000})


def test_an_arm_the_suite_does_not_play_is_refused(tmp_path: Path) -> None:
    from toolchaos.core.errors import BadInput

    config = RunConfig(suite="toolfailbench", models=["scripted/oracle"], arms=["hazard"])
    with pytest.raises(BadInput, match="suite toolfailbench has no 'hazard' arm"):
        run(config, tmp_path / "r", Console(quiet=True))
