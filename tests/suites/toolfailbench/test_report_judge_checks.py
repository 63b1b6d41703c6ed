"""Agreement by model tier and the same-family judge check, from real stores."""

import json
from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console

from toolchaos.models.config import ModelEntry
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.suites.toolfailbench.report import ToolFailReport, spec_family

JUDGE_A = "openai/gpt-4o-mini"
JUDGE_B = "anthropic/claude-3-5-haiku"


@pytest.mark.parametrize(
    ("spec", "family"),
    [
        ("openai/gpt-4o-mini", "gpt"),
        ("anthropic/claude-3-5-haiku", "claude"),
        ("openai-compat/qwen2.5-7b-instruct", "qwen2.5"),
        ("local/llama3.2:3b", "llama3.2"),
        ("openai-compat/meta-llama/Llama-3.1-8B", "llama"),
        ("Mistral", "mistral"),
    ],
)
def test_a_spec_names_its_family(spec: str, family: str) -> None:
    assert spec_family(spec) == family


def test_a_model_entry_family_wins_over_the_spec_name() -> None:
    report = ToolFailReport()
    report.entries = {"r": {JUDGE_A: ModelEntry(spec=JUDGE_A, family="OpenAI")}}
    assert report.judge_family(JUDGE_A) == ("openai", "model entry")
    assert report.judge_family(JUDGE_B) == ("claude", "spec name")


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """oracle (tier closed, family GPT) and skip (its entry without tier), both judged.

    Judge A calls every oracle episode correct; judge B calls the oracle's first two
    tool-required episodes result_ignore and leaves its third unlabelled. On skip both
    judges agree with the rule.
    """
    out = tmp_path_factory.mktemp("judged")
    oracle = ModelEntry(spec="scripted/oracle", tier="closed", family="GPT")
    run(
        RunConfig(suite="toolfailbench", models=[oracle, "scripted/skip"], subset=20),
        out,
        Console(quiet=True),
    )
    store = Store.open_existing(out)
    # a run made before tiers: the entry gives none
    entries = json.loads(store.get_meta("models") or "[]")
    store.set_meta(
        "models", json.dumps([{**e, "tier": ""} if "skip" in e["spec"] else e for e in entries])
    )
    tasks = store.tasks()
    oracle_required = 0
    for episode in store.episodes():
        required = tasks[episode.task_id].kind == "tool_required"
        if episode.model == "scripted/oracle":
            label_a = label_b = "correct"
            if required:
                oracle_required += 1
                if oracle_required <= 2:
                    label_b = "result_ignore"
                elif oracle_required == 3:
                    label_b = None
        else:
            label_a = label_b = "tool_skip" if required else "correct"
        store.put_judgement(episode.key, "judge_a", JUDGE_A, label_a, "r")
        store.put_judgement(episode.key, "judge_b", JUDGE_B, label_b, "r")
    store.close()
    return out


def test_agreement_is_stratified_by_tier(judged: Path) -> None:
    agreement = build_report([judged]).tables["toolfailbench_agreement"]
    tiers = agreement[agreement["stratum"] == "tier"].set_index("value")
    assert list(tiers.index) == ["closed", "unset"]
    assert tiers.loc["closed", "n"] == 20 and tiers.loc["unset", "n"] == 20
    # on skip every rater says the same
    assert tiers.loc["unset", "kappa judge_a~judge_b"] == 1.0
    assert tiers.loc["unset", "fleiss"] == 1.0


def test_the_same_family_check_compares_the_judges(judged: Path) -> None:
    report = build_report([judged])
    store = Store.open_existing(judged, read_only=True)
    tasks = store.tasks()
    required = sum(
        1
        for e in store.episodes()
        if e.model == "scripted/oracle" and tasks[e.task_id].kind == "tool_required"
    )
    store.close()
    same = report.tables["toolfailbench_same_family"].set_index("judge")
    a = same.loc["judge_a"]
    n = required  # judge B's unlabelled episode keeps the rule's label: n stays
    assert (a["judge_model"], a["family"], a["source"]) == (JUDGE_A, "gpt", "spec name")
    assert a["models"] == "scripted/oracle"
    assert a["n"] == n
    assert a["CTUR rule %"] == 100.0 and a["CTUR judge_a %"] == 100.0
    b_on_oracle = round(100 * (n - 2) / n, 2)  # two result_ignore, the unlabelled correct
    assert a["CTUR judge_b %"] == b_on_oracle
    assert a["own-family gap pp"] == round(100.0 - b_on_oracle, 2)
    # the other family (skip): both judges say tool_skip, so no gap there
    assert a["other n"] == 15 and a["other-family gap pp"] == 0.0
    assert a["own - other pp"] == a["own-family gap pp"]
    b = same.loc["judge_b"]
    assert (b["family"], b["models"], b["n"]) == ("claude", "-", 0)
    assert pd.isna(b["CTUR judge_a %"]) and pd.isna(b["own-family gap pp"])
    # judge B's other family is every evaluated model: oracle and skip, n + 15 episodes
    assert b["other n"] == n + 15
    assert b["other-family gap pp"] == round(100 * (n - 2) / (n + 15) - 100 * n / (n + 15), 2)
    assert pd.isna(b["own - other pp"])
    note = f"No evaluated model shares the family of judge_b ({JUDGE_B}, family claude)."
    assert note in report.notes
