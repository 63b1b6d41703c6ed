"""The shared tables: the usage table's cache column, the cost of recovery over clean twins."""

import pandas as pd

from toolchaos.models.config import ModelEntry
from toolchaos.scoring.tables import recovery_cost_table, usage_table


def test_the_usage_table_shows_the_share_of_prompt_tokens_from_the_cache() -> None:
    frame = pd.DataFrame(
        [
            # model, error, in, out, cached, latency, model calls
            ("local/q", 0, 1000, 50, 780, 2.0, 2),
            ("local/q", 0, 1000, 70, 620, 4.0, 4),
            ("scripted/oracle", 0, 0, 0, 0, 0.0, 0),
        ],
        columns=[
            "model",
            "error",
            "input_tokens",
            "output_tokens",
            "cached_input_tokens",
            "latency_s",
            "model_calls",
        ],
    )
    table = usage_table(frame, {"local/q": ModelEntry(spec="local/q")}).set_index("model")
    assert table.loc["local/q", "cached_input"] == 0.7  # 1,400 of 2,000 prompt tokens
    assert table.loc["local/q", "latency_per_call_s"] == 1.0
    assert table.loc["scripted/oracle", "cached_input"] == 0.0  # no prompt at all


def _episodes(rows: list[tuple]) -> pd.DataFrame:
    columns = ["model", "arm", "family", "task_id", "sample", "error", "n_calls"]
    columns += ["model_calls", "input_tokens", "output_tokens", "latency_s"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["suite"], frame["protocol"] = "toolbench-x", "native"
    return frame


def test_recovery_cost_pairs_each_episode_with_its_clean_twin() -> None:
    frame = _episodes(
        [
            # model, arm, family, task, sample, error, calls, requests, in, out, seconds
            ("api/m", "clean", "output_drift", "t1", 0, 0, 2, 3, 1000, 100, 1.0),
            ("api/m", "hazard", "output_drift", "t1", 0, 0, 5, 6, 2500, 200, 2.5),
            ("api/m", "clean", "output_drift", "t2", 0, 0, 3, 4, 1200, 100, 1.5),
            ("api/m", "hazard", "output_drift", "t2", 0, 0, 4, 5, 1400, 150, 2.0),
            # t3's clean sample 1 is missing: its hazard sample 1 pairs with the clean mean
            ("api/m", "clean", "execution_failure", "t3", 0, 0, 2, 2, 500, 50, 1.0),
            ("api/m", "clean", "execution_failure", "t3", 2, 0, 4, 4, 700, 50, 2.0),
            ("api/m", "hazard", "execution_failure", "t3", 1, 0, 6, 6, 900, 60, 4.0),
            # a harness fault pairs with nothing and a clean fault is no twin
            ("api/m", "hazard", "output_drift", "t1", 1, 1, 9, 9, 9000, 900, 9.0),
            ("api/m", "clean", "output_drift", "t4", 0, 1, 1, 1, 10, 10, 0.1),
            ("api/m", "hazard", "output_drift", "t4", 0, 0, 8, 8, 800, 80, 8.0),
        ]
    )
    price = ModelEntry(spec="api/m", input_per_mtok=2.0, output_per_mtok=10.0)
    table = recovery_cost_table(frame, {"api/m": price}).set_index("family")
    drift = table.loc["output_drift"]
    assert drift["pairs"] == 2  # t1 and t2; t4's clean episode failed
    assert drift["extra_calls"] == 2.0  # (3 + 1) / 2
    assert (drift["extra_calls_low"], drift["extra_calls_high"]) == (-10.71, 14.71)
    assert drift["extra_requests"] == 2.0
    assert drift["extra_tokens"] == 925.0  # (1,600 + 250) / 2
    assert drift["extra_latency_s"] == 1.0
    # t1: 1,500 more prompt and 100 more reply tokens, t2: 200 and 50
    assert drift["extra_cost_usd"] == round((1500 * 2 + 100 * 10 + 200 * 2 + 50 * 10) / 2e6, 5)
    failure = table.loc["execution_failure"]
    assert failure["pairs"] == 1 and failure["extra_calls"] == 3.0  # 6 - mean(2, 4)
    assert failure["extra_calls_low"] is None or pd.isna(failure["extra_calls_low"])
    assert failure["extra_latency_s"] == 2.5


def test_recovery_cost_needs_the_clean_arm() -> None:
    frame = _episodes([("api/m", "hazard", "output_drift", "t1", 0, 0, 5, 6, 10, 1, 1.0)])
    assert recovery_cost_table(frame, {}).empty


def test_the_cost_figure_draws_a_family_without_an_interval() -> None:
    from toolchaos.report.figures import render
    from toolchaos.report.tables import recovery_cost_figure

    frame = _episodes(
        [
            ("api/m", "clean", "output_drift", "t1", 0, 0, 2, 3, 10, 1, 1.0),
            ("api/m", "hazard", "output_drift", "t1", 0, 0, 5, 6, 20, 2, 2.0),
        ]
    )
    table = recovery_cost_table(frame, {})
    assert table["extra_calls_low"].isna().all()  # one pair: no interval
    assert render(recovery_cost_figure(table))["png"].startswith(b"\x89PNG")
