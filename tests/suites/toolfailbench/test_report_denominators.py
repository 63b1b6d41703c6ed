"""RIR and OFR by the release's denominators, against figures worked out by hand.

The release divides result_ignore and output_fabrication by the tool-required tasks *not*
labelled tool_skip, overall and per domain; the all-tool-required variant
(``RIR|required``, ``OFR|required``) is shown beside it. Every expected number below is
worked out in the comments from the hand-built labels, not by calling the code.
"""

from typing import Any

import pandas as pd
import pytest

from toolchaos.suites.toolfailbench.report import (
    DENOMINATOR_NOTE,
    domain_rir,
    leaderboard,
    median_rir,
)

# (model, domain, label, count) of tool-required episodes
LABELLED = [
    # A, finance: 10 tasks; 2 skipped, so 8 attempted
    ("A", "finance", "tool_skip", 2),
    ("A", "finance", "result_ignore", 3),
    ("A", "finance", "output_fabrication", 1),
    ("A", "finance", "correct", 4),
    # A, medicine: 4 tasks; 1 skipped, 3 attempted
    ("A", "medicine", "tool_skip", 1),
    ("A", "medicine", "result_ignore", 1),
    ("A", "medicine", "correct", 2),
    # B, finance: 5 tasks, none skipped
    ("B", "finance", "result_ignore", 1),
    ("B", "finance", "output_fabrication", 1),
    ("B", "finance", "correct", 3),
    # B, medicine: 4 tasks; 3 skipped, 1 attempted
    ("B", "medicine", "tool_skip", 3),
    ("B", "medicine", "result_ignore", 1),
    # C, finance: 4 tasks, all skipped (no release RIR there)
    ("C", "finance", "tool_skip", 4),
    # C, medicine: 2 tasks, both correct
    ("C", "medicine", "correct", 2),
]


def _episodes() -> pd.DataFrame:
    rows: list[dict[str, Any]] = []
    for model, domain, label, count in LABELLED:
        for _ in range(count):
            rows.append(
                {
                    "model": model,
                    "domain": domain,
                    "kind": "tool_required",
                    "label": label,
                    "called": label != "tool_skip",
                }
            )
    # one control each, answered directly
    for model in "ABC":
        rows.append(
            {"model": model, "domain": "finance", "kind": "control", "label": "correct"}
            | {"called": False}
        )
    return pd.DataFrame(rows)


def test_the_leaderboard_uses_the_release_denominators() -> None:
    board = leaderboard(_episodes()).set_index("model")
    # A: 14 required; 3 tool_skip, 4 result_ignore, 1 output_fabrication, 6 correct.
    #    RIR = 4 / (14 - 3) = 4/11 = 36.36%;  RIR|required = 4/14 = 28.57%
    #    OFR = 1/11 = 9.09%;                  OFR|required = 1/14 = 7.14%
    #    TSR = 3/14 = 21.43%, CTUR = 6/14 = 42.86%
    a = board.loc["A"]
    assert (a["RIR %"], a["RIR|required %"]) == (36.36, 28.57)
    assert (a["OFR %"], a["OFR|required %"]) == (9.09, 7.14)
    assert (a["TSR %"], a["CTUR %"]) == (21.43, 42.86)
    # B: 9 required; 3 tool_skip, 2 result_ignore, 1 output_fabrication, 3 correct.
    #    RIR = 2/6 = 33.33%; RIR|required = 2/9 = 22.22%
    #    OFR = 1/6 = 16.67%; OFR|required = 1/9 = 11.11%
    b = board.loc["B"]
    assert (b["RIR %"], b["RIR|required %"]) == (33.33, 22.22)
    assert (b["OFR %"], b["OFR|required %"]) == (16.67, 11.11)
    # C: 6 required; 4 tool_skip, 2 correct: 2 attempted, none ignored or fabricated.
    #    RIR = OFR = 0/2 = 0%; the same over all 6 required
    c = board.loc["C"]
    assert (c["RIR %"], c["RIR|required %"], c["OFR %"], c["OFR|required %"]) == (0, 0, 0, 0)
    # TSR + CTUR + RIR|required + OFR|required is 100 (21.43 + 42.86 + 28.57 + 7.14)
    for model in "ABC":
        row = board.loc[model]
        parts = ("TSR %", "CTUR %", "RIR|required %", "OFR|required %")
        assert sum(row[p] for p in parts) == pytest.approx(100.0, abs=0.02)
    # the all-tool-required variant stands beside each release rate
    columns = list(board.columns)
    assert columns.index("RIR|required %") == columns.index("RIR %") + 1
    assert columns.index("OFR|required %") == columns.index("OFR %") + 1
    assert "not labelled tool_skip" in DENOMINATOR_NOTE
    assert "RIR|required and OFR|required" in DENOMINATOR_NOTE


def test_per_domain_and_median_rir_use_the_release_denominators() -> None:
    per_domain = domain_rir(_episodes())
    cells = {
        (r["model"], r["domain"]): (r["n"], r["RIR %"], r["required"], r["RIR|required %"])
        for r in per_domain.to_dict("records")
    }
    # (attempted n, RIR over them, required, RIR over all required)
    assert cells[("A", "finance")] == (8, 37.5, 10, 30.0)  # 3/8, 3/10
    assert cells[("A", "medicine")] == (3, 33.33, 4, 25.0)  # 1/3, 1/4
    assert cells[("B", "finance")] == (5, 20.0, 5, 20.0)  # 1/5, 1/5
    assert cells[("B", "medicine")] == (1, 100.0, 4, 25.0)  # 1/1, 1/4
    assert cells[("C", "medicine")] == (2, 0.0, 2, 0.0)  # 0/2, 0/2
    n, rir, required, every = cells[("C", "finance")]  # all 4 skipped: no release RIR
    assert (n, required, every) == (0, 4, 0.0) and pd.isna(rir)

    median = median_rir(per_domain).set_index("domain")
    # finance: release RIRs 37.5 (A) and 20 (B), C has none: median (37.5 + 20) / 2 = 28.75
    #          over all required: 30, 20, 0 -> median 20
    finance = median.loc["finance"]
    assert finance["models"] == 2
    assert (finance["median RIR %"], finance["lowest %"], finance["highest %"]) == (
        28.75,
        20.0,
        37.5,
    )
    assert finance["median RIR|required %"] == 20.0
    # medicine: 33.33 (A), 100 (B), 0 (C) -> median 33.33; over all required 25, 25, 0 -> 25
    medicine = median.loc["medicine"]
    assert medicine["models"] == 3
    assert (medicine["median RIR %"], medicine["lowest %"], medicine["highest %"]) == (
        33.33,
        0.0,
        100.0,
    )
    assert medicine["median RIR|required %"] == 25.0
