"""Per-judge CTUR, kappas with their n and the same-family gaps, against hand-worked figures.

Nine hand-labelled tool-required episodes of two models; every expected number is worked
out in the comments from the labels below, not by calling the code. Then the judges'
families end to end: ``toolchaos judge --models-file`` stores the judges' entries and the
report reads their family from there.
"""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from rich.console import Console

from toolchaos.models.config import ModelEntry
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.suites.toolfailbench.report import (
    agreement_table,
    rater_ctur_table,
    rater_frame,
    same_family_table,
)
from toolchaos.testing import FakeOpenAI, Reply

JUDGE_A = "openai/gpt-x"
JUDGE_B = "anthropic/claude-y"
C, RI, OF, TS = "correct", "result_ignore", "output_fabrication", "tool_skip"
# key: (model, family, rule, judge A, judge B); None: the judge gave no label
LABELS = {
    "e1": ("M1", "gpt", C, C, C),
    "e2": ("M1", "gpt", C, C, RI),
    "e3": ("M1", "gpt", RI, C, RI),
    "e4": ("M1", "gpt", C, None, C),
    "e5": ("M1", "gpt", TS, TS, None),
    "f1": ("M2", "claude", C, RI, C),
    "f2": ("M2", "claude", C, C, C),
    "f3": ("M2", "claude", OF, OF, C),
    "f4": ("M2", "claude", C, None, None),
}


@pytest.fixture
def raters() -> pd.DataFrame:
    episodes = pd.DataFrame(
        [
            {
                "run": "r",
                "key": key,
                "model": model,
                "domain": "finance",
                "mode": "result_ignore",
                "kind": "tool_required",
                "tier": "closed",
                "model_family": family,
                "label": rule,
            }
            for key, (model, family, rule, _, _) in LABELS.items()
        ]
    )
    judgements = pd.DataFrame(
        [
            {"run": "r", "key": key, "rater": rater, "model": spec, "label": label}
            for key, (_, _, _, a, b) in LABELS.items()
            for rater, spec, label in (("judge_a", JUDGE_A, a), ("judge_b", JUDGE_B, b))
        ]
    )
    return rater_frame(episodes, judgements)


def test_per_judge_ctur_keeps_the_rule_label_where_a_judge_gave_none(
    raters: pd.DataFrame,
) -> None:
    table = rater_ctur_table(raters).set_index("model")
    m1, m2 = table.loc["M1"], table.loc["M2"]
    # M1, 5 episodes. rule: correct on e1, e2, e4 -> 3/5 = 60%.
    # judge A: e1 e2 e3 correct, e4 unlabelled -> the rule's correct, e5 skip -> 4/5 = 80%.
    # judge B: e1 correct, e2 e3 result_ignore, e4 correct, e5 unlabelled -> the rule's
    # tool_skip -> 2/5 = 40%. Each judge labelled 4; n stays 5 for every rater.
    assert (m1["rule n"], m1["rule CTUR %"]) == (5, 60.0)
    assert (m1["judge_a n"], m1["judge_a labelled"], m1["judge_a CTUR %"]) == (5, 4, 80.0)
    assert (m1["judge_b n"], m1["judge_b labelled"], m1["judge_b CTUR %"]) == (5, 4, 40.0)
    # M2, 4 episodes. rule: f1 f2 f4 -> 75%. judge A: f2, and f4 by the rule -> 2/4 = 50%.
    # judge B: f1 f2 f3, and f4 by the rule -> 4/4 = 100%. Each judge labelled 3.
    assert (m2["rule n"], m2["rule CTUR %"]) == (4, 75.0)
    assert (m2["judge_a n"], m2["judge_a labelled"], m2["judge_a CTUR %"]) == (4, 3, 50.0)
    assert (m2["judge_b n"], m2["judge_b labelled"], m2["judge_b CTUR %"]) == (4, 3, 100.0)
    # ensemble, over the episodes both judges labelled: M1 e1 e2 e3 -> majority correct,
    # correct, result_ignore -> 2/3; M2 f1 f2 f3 -> correct, correct, output_fabrication
    assert (m1["ensemble n"], m1["ensemble CTUR %"]) == (3, 66.67)
    assert (m2["ensemble n"], m2["ensemble CTUR %"]) == (3, 66.67)


def test_each_kappa_is_over_the_rows_both_raters_labelled_with_its_n(
    raters: pd.DataFrame,
) -> None:
    overall = agreement_table(raters).set_index("stratum").loc["all"]
    assert overall["n"] == 9
    # rule~judge_a: the 7 rows judge A labelled (e1 e2 e3 e5 f1 f2 f3); agree on e1 e2 e5
    # f2 f3: po = 5/7. Marginals rule c4 ri1 ts1 of1, A c4 ri1 ts1 of1:
    # pe = (16 + 1 + 1 + 1) / 49 = 19/49; kappa = (35 - 19) / (49 - 19) = 16/30 = 0.5333
    assert (overall["n rule~judge_a"], overall["kappa rule~judge_a"]) == (7, 0.5333)
    # rule~judge_b: the 7 rows judge B labelled (e1-e4 f1-f3); agree on e1 e3 e4 f1 f2:
    # po = 5/7. Rule c5 ri1 of1, B c5 ri2: pe = (25 + 2) / 49 = 27/49;
    # kappa = (35 - 27) / (49 - 27) = 8/22 = 0.3636
    assert (overall["n rule~judge_b"], overall["kappa rule~judge_b"]) == (7, 0.3636)
    # judge_a~judge_b: the 6 rows both judges labelled (e1 e2 e3 f1 f2 f3); agree on e1 f2:
    # po = 2/6. A c4 ri1 of1, B c4 ri2: pe = (16 + 2) / 36 = 1/2;
    # kappa = (1/3 - 1/2) / (1/2) = -1/3
    assert (overall["n judge_a~judge_b"], overall["kappa judge_a~judge_b"]) == (6, -0.3333)
    # Fleiss over the same 6 rows, 3 raters each. Per row, P_i = (sum n_ij^2 - 3) / 6:
    # e1 c3 -> 1; e2 c2 ri1 -> 1/3; e3 c1 ri2 -> 1/3; f1 c2 ri1 -> 1/3; f2 c3 -> 1;
    # f3 of2 c1 -> 1/3. Mean P = (2 + 4/3) / 6 = 180/324. Category shares of the 18
    # ratings: c 12, ri 4, of 2 -> Pe = (144 + 16 + 4) / 324 = 164/324.
    # kappa = (180 - 164) / (324 - 164) = 16/160 = 0.1
    assert (overall["n fleiss"], overall["fleiss"]) == (6, 0.1)


def test_the_same_family_check_reports_the_own_and_the_other_family_gap(
    raters: pd.DataFrame,
) -> None:
    families = {JUDGE_A: ("gpt", "judge entry"), JUDGE_B: ("claude", "judge entry")}
    table, notes = same_family_table(raters, families)
    same = table.set_index("judge")
    assert notes == []
    a, b = same.loc["judge_a"], same.loc["judge_b"]
    # judge A (gpt): own family = M1 (5 episodes), other = M2 (4).
    # On M1 judge A says 80%, judge B 40% (per-judge CTUR above): own-family gap +40 pp.
    # On M2 judge A says 50%, judge B 100%: other-family gap -50 pp. own - other = 90 pp.
    assert (a["models"], a["n"], a["other n"]) == ("M1", 5, 4)
    assert (a["CTUR rule %"], a["CTUR judge_a %"], a["CTUR judge_b %"]) == (60.0, 80.0, 40.0)
    assert (a["own-family gap pp"], a["other-family gap pp"], a["own - other pp"]) == (
        40.0,
        -50.0,
        90.0,
    )
    # judge B (claude): own family = M2: B 100% - A 50% = +50 pp; other = M1:
    # B 40% - A 80% = -40 pp; own - other = 90 pp.
    assert (b["models"], b["n"], b["other n"]) == ("M2", 4, 5)
    assert (b["own-family gap pp"], b["other-family gap pp"], b["own - other pp"]) == (
        50.0,
        -40.0,
        90.0,
    )


def _labels_everything_correct(body: dict[str, Any], index: int) -> Reply:
    return Reply(content=json.dumps({"label": "correct", "rationale": "fine"}))


def test_judge_families_come_from_the_models_file(tmp_path: Path) -> None:
    """``judge --models-file`` stores the judges' entries; the report reads their family."""
    out = tmp_path / "run"
    # a scripted baseline's family is always "scripted" (its run entry says so)
    evaluated = ModelEntry(spec="scripted/oracle")
    run(RunConfig(suite="toolfailbench", models=[evaluated], subset=10), out, Console(quiet=True))
    models = tmp_path / "judges.yaml"
    models.write_text(
        "models:\n"
        "  - spec: openai-compat/judge-one\n    family: Scripted\n"
        "  - spec: openai-compat/judge-two\n    family: Other\n",
        encoding="utf-8",
    )
    with FakeOpenAI(_labels_everything_correct) as server:
        base = [sys.executable, "-m", "toolchaos.cli", "judge", str(out)]
        judges = ["--judge", "openai-compat/judge-one", "--judge", "openai-compat/judge-two"]
        flags = ["--base-url", server.base_url, "--models-file", str(models)]
        result = subprocess.run(
            [*base, *judges, *flags],
            capture_output=True,
            text=True,
            timeout=120,
            env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"},
        )
        assert result.returncode == 0, result.stderr
        # a judge the file does not name is refused in one sentence
        missing = subprocess.run(
            [*base, "--judge", "openai-compat/judge-three", *flags],
            capture_output=True,
            text=True,
            timeout=120,
            env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"},
        )
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert "judge openai-compat/judge-three is not in the models file" in " ".join(
        missing.stderr.split()
    )
    store = Store.open_existing(out, read_only=True)
    stored = json.loads(store.get_meta("judges") or "[]")
    store.close()
    assert {e["spec"]: e["family"] for e in stored} == {
        "openai-compat/judge-one": "Scripted",
        "openai-compat/judge-two": "Other",
    }
    same = build_report([out]).tables["toolfailbench_same_family"].set_index("judge")
    one, two = same.loc["judge_a"], same.loc["judge_b"]
    assert (one["family"], one["source"], one["models"]) == (
        "scripted",
        "judge entry",
        evaluated.spec,
    )
    assert (two["family"], two["source"], two["models"]) == ("other", "judge entry", "-")
    # both judges call everything correct: no gap either way
    assert one["own-family gap pp"] == 0.0 and pd.isna(one["other-family gap pp"])
