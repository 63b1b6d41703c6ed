"""The tables every suite shares, over scored episode frames: accuracy, usage, sampling.

A suite's scorer gives one row per episode with at least the columns these read (see
:meth:`toolchaos.suites.base.SuiteReport.score`). Nothing here calls a model.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from toolchaos.stats.sampling import majority, pass_at_k, pass_hat_k

EPISODE_COLUMNS = ("key", "suite", "model", "protocol", "arm", "task_id", "sample", "status")
"""The stored summary columns every scored row repeats as they are."""
USAGE_COLUMNS = (
    "n_calls",
    "input_tokens",
    "output_tokens",
    "latency_s",
    "model_calls",
    "bad_calls",
    "cached_input_tokens",
)
"""The stored usage columns the usage table reads."""


def episode_record(row: dict[str, Any], correct: bool, **columns: Any) -> dict[str, Any]:
    """One scored row: identity, ``error``, ``correct``, a suite's columns, then usage.

    Args:
        row: A stored episode summary (``Store.summaries``).
        correct: The suite's verdict (a harness error is never correct).
        columns: The suite's own columns (``vote_key``, ``family``, ``workflow``, ...).
    """
    identity = {name: row[name] for name in EPISODE_COLUMNS}
    usage = {name: row[name] for name in USAGE_COLUMNS}
    error = int(row["status"] != "finished")
    return {**identity, "error": error, "correct": int(correct and not error), **columns, **usage}


def accuracy_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """One row per (suite, model, protocol, arm): n, correct, errors, bad calls and accuracy.

    ``n`` counts every episode; ``errors`` the harness faults among them (transport
    failures, never the model's); ``bad_calls`` the tool calls the model wrote with
    arguments that were not a JSON object or that broke the tool's schema where the env
    recorded it (the model's mistakes; :func:`~toolchaos.runner.store.malformed_calls`);
    ``accuracy`` is correct over the episodes that finished, so a harness fault never counts
    against a model. An episode a suite could not score (an own-tools episode with no
    verdict and no reference answer: its ``unscored`` column is 1) counts in ``unscored``
    and in neither ``correct`` nor ``accuracy``; the column is there only when some are.
    """
    if frame.empty:
        return []
    unscored_of = (
        frame["unscored"].fillna(0).astype(int)
        if "unscored" in frame
        else pd.Series(0, index=frame.index)
    )
    grouped = frame.groupby(["suite", "model", "protocol", "arm"], sort=True)
    out = []
    for (suite, model, protocol, arm), group in grouped:
        n = len(group)
        errors = int(group["error"].sum())
        correct = int(group["correct"].sum())
        unscored = int(unscored_of[group.index].sum())
        scored = n - errors - unscored
        row = {
            "suite": suite,
            "model": model,
            "protocol": protocol,
            "arm": arm,
            "n": n,
            "correct": correct,
            "errors": errors,
            "bad_calls": int(group["bad_calls"].sum()) if "bad_calls" in group else 0,
        }
        if unscored_of.any():
            row["unscored"] = unscored
        row["accuracy"] = round(correct / scored, 4) if scored else None
        out.append(row)
    return out


def usage_table(frame: pd.DataFrame, entries: dict[str, Any]) -> pd.DataFrame:
    """Per suite and model: family, tier, episodes, errors, tokens, cache, latency and cost.

    ``entries`` maps a model spec to its :class:`~toolchaos.models.config.ModelEntry`
    (prices per million tokens); a model without prices costs 0. A frame without a
    ``suite`` column gives one row per model.
    """
    keys = ["suite", "model"] if "suite" in frame else ["model"]
    rows = []
    for values, group in frame.groupby(keys, sort=True):
        found = dict(zip(keys, values, strict=True))
        model = found["model"]
        entry = entries.get(str(model))
        tokens_in = int(group["input_tokens"].sum())
        tokens_out = int(group["output_tokens"].sum())
        cached = int(group["cached_input_tokens"].sum())
        calls = int(group["model_calls"].sum())
        rows.append(
            {
                **found,
                "family": getattr(entry, "family", "") or "",
                "tier": getattr(entry, "tier", "") or "",
                "episodes": len(group),
                "errors": int(group["error"].sum()),
                "input_tokens": tokens_in,
                "output_tokens": tokens_out,
                # the share of prompt tokens a KV or prompt cache already held
                "cached_input": round(cached / tokens_in, 3) if tokens_in else 0.0,
                "latency_per_call_s": round(float(group["latency_s"].sum()) / calls, 3)
                if calls
                else 0.0,
                "cost_usd": round(entry.cost(tokens_in, tokens_out), 4) if entry else 0.0,
            }
        )
    return pd.DataFrame(rows)


def sampling_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Test-time scaling per model and arm, where tasks were sampled k > 1 times.

    pass@1 is the mean accuracy; pass@k and pass^k are averaged over tasks; ``vote`` is
    the accuracy of a self-consistency vote (the most common normalized answer, or end
    state for tasks that write).
    """
    finished = frame[frame["error"] == 0]
    rows = []
    for (model, arm), group in finished.groupby(["model", "arm"], sort=True):
        per_task = group.groupby("task_id")
        k = int(per_task.size().min())
        if k < 2:
            continue
        at_k, hat_k, votes = [], [], []
        for _, samples in per_task:
            n, c = len(samples), int(samples["correct"].sum())
            at_k.append(pass_at_k(n, c, k))
            hat_k.append(pass_hat_k(n, c, k))
            keys = list(samples["vote_key"])
            winner = majority(keys)
            votes.append(int(samples[samples["vote_key"] == winner]["correct"].iloc[0]))
        rows.append(
            {
                "model": model,
                "arm": arm,
                "k": k,
                "tasks": len(at_k),
                "pass@1": round(float(group["correct"].mean()), 4),
                f"pass@{k}": round(sum(at_k) / len(at_k), 4),
                f"pass^{k}": round(sum(hat_k) / len(hat_k), 4),
                "vote": round(sum(votes) / len(votes), 4),
            }
        )
    return pd.DataFrame(rows)
