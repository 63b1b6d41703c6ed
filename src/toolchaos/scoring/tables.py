"""The tables every suite shares, over scored episode frames: accuracy, usage, sampling.

A suite's scorer gives one row per episode with at least the columns these read (see
:meth:`toolchaos.suites.base.SuiteReport.score`). Nothing here calls a model.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from toolchaos.core.types import EpisodeStatus
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


def status_columns(status: str) -> dict[str, int]:
    """A scored row's ``error`` and ``indeterminate`` flags, from its stored status.

    ``error``: a harness fault. ``indeterminate``: decided by a fault toolchaos did not
    inject (a model provider failing mid-episode, an episode ending on a user's tool
    failing). Neither is scorable (:func:`scorable`).
    """
    return {
        "error": int(status == EpisodeStatus.ERROR),
        "indeterminate": int(status == EpisodeStatus.INDETERMINATE),
    }


def scorable_mask(frame: pd.DataFrame) -> pd.Series:
    """True for the rows of a scored frame that enter an accuracy's denominator.

    A row is scorable when it is neither a harness ``error`` nor ``indeterminate``; every
    accuracy, CTUR and leaderboard reads its rows through this (or :func:`scorable`). A
    frame without an ``indeterminate`` column (built before it existed) has none.
    """
    return (frame["error"] == 0) & (_indeterminate(frame) == 0)


def _indeterminate(frame: pd.DataFrame) -> pd.Series:
    """A frame's ``indeterminate`` flags as ints (all 0 in a frame without the column)."""
    if "indeterminate" not in frame:
        return pd.Series(0, index=frame.index)
    return frame["indeterminate"].fillna(0).astype(int)


def indeterminate_counts(frame: pd.DataFrame, by: str = "model") -> dict[str, int] | None:
    """How many ``indeterminate`` rows each value of ``by`` has; None when the frame has none.

    A table shows its ``indeterminate`` column only when a run has such episodes.
    """
    flags = _indeterminate(frame)
    if not flags.any():
        return None
    return {str(key): int(n) for key, n in flags.groupby(frame[by]).sum().items()}


def scorable(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of a scored frame that are scorable (:func:`scorable_mask`)."""
    return frame[scorable_mask(frame)]


def episode_record(row: dict[str, Any], correct: bool, **columns: Any) -> dict[str, Any]:
    """One scored row: identity, status flags, ``correct``, a suite's columns, then usage.

    The status flags are ``error`` and ``indeterminate`` (:func:`status_columns`).

    Args:
        row: A stored episode summary (``Store.summaries``).
        correct: The suite's verdict (a harness error is never correct).
        columns: The suite's own columns (``vote_key``, ``family``, ``workflow``, ...).
    """
    identity = {name: row[name] for name in EPISODE_COLUMNS}
    usage = {name: row[name] for name in USAGE_COLUMNS}
    flags = status_columns(str(row["status"]))
    correct = bool(correct) and row["status"] == EpisodeStatus.FINISHED
    return {**identity, **flags, "correct": int(correct), **columns, **usage}


def accuracy_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """One row per (suite, model, protocol, arm): n, correct, errors, bad calls and accuracy.

    ``n`` counts every episode; ``errors`` the harness faults among them;
    ``indeterminate`` those decided by a fault toolchaos did not inject (a model provider
    failing mid-episode after its retries, an episode ending on a user's tool failing;
    the column is there only when some are, as ``unscored`` is);
    ``bad_calls`` the tool calls the model wrote with arguments that were not a JSON
    object or that broke the tool's schema where the env recorded it (the model's
    mistakes; :func:`~toolchaos.runner.store.malformed_calls`); ``accuracy`` is correct
    over the episodes that finished, so neither a harness fault nor an indeterminate
    episode counts against (or for) a model. An episode a suite could not score (an
    own-tools episode with no verdict and no reference answer: its ``unscored`` column is
    1) counts in ``unscored`` and in neither ``correct`` nor ``accuracy``; the column is
    there only when some are.
    """
    if frame.empty:
        return []
    unscored_of = (
        frame["unscored"].fillna(0).astype(int)
        if "unscored" in frame
        else pd.Series(0, index=frame.index)
    )
    indeterminate_of = _indeterminate(frame)
    grouped = frame.groupby(["suite", "model", "protocol", "arm"], sort=True)
    out = []
    for (suite, model, protocol, arm), group in grouped:
        n = len(group)
        errors = int(group["error"].sum())
        indeterminate = int(indeterminate_of[group.index].sum())
        correct = int(group["correct"].sum())
        unscored = int(unscored_of[group.index].sum())
        scored = n - errors - indeterminate - unscored
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
        if indeterminate_of.any():
            row["indeterminate"] = indeterminate
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
    indeterminate_of = _indeterminate(frame)
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
                **(
                    {"indeterminate": int(indeterminate_of[group.index].sum())}
                    if indeterminate_of.any()
                    else {}
                ),
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
    finished = scorable(frame)
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


RECOVERY_KEYS = ("suite", "model", "protocol", "task_id", "sample")
"""What pairs an episode with its clean twin: the same task and sample of one model."""


def recovery_cost_table(frame: pd.DataFrame, entries: dict[str, Any]) -> pd.DataFrame:
    """What an episode spent beyond the same task's clean episode, per model, arm and family.

    Each finished episode of an arm other than ``clean`` is paired with the finished clean
    episode of the same model, task and sample (:data:`RECOVERY_KEYS`; with no clean
    episode of that sample, the mean of the task's clean samples). Per (suite, model, arm,
    hazard family) the table gives the pairs and the mean extra tool calls (with a 95%
    t interval over the pairs), model requests, tokens, latency and dollars (``entries``
    as in :func:`usage_table`; a model without prices costs 0). An episode without a clean
    twin is left out, so a run without the clean arm has no rows. A frame without a
    ``family`` column gives one row per arm (family ``all``).
    """
    if frame.empty or "clean" not in set(frame["arm"]):
        return pd.DataFrame()
    finished = scorable(frame).copy()
    finished["tokens"] = finished["input_tokens"] + finished["output_tokens"]
    finished["cost_usd"] = [
        entries[str(m)].cost(int(i), int(o)) if str(m) in entries else 0.0
        for m, i, o in zip(
            finished["model"], finished["input_tokens"], finished["output_tokens"], strict=True
        )
    ]
    measures = ["n_calls", "model_calls", "tokens", "latency_s", "cost_usd"]
    clean = finished[finished["arm"] == "clean"]
    twins = clean.groupby(list(RECOVERY_KEYS), sort=False)[measures].mean().add_suffix("_clean")
    pooled = clean.groupby(list(RECOVERY_KEYS[:-1]), sort=False)[measures].mean()
    pooled = pooled.add_suffix("_clean")
    others = finished[finished["arm"] != "clean"]
    if others.empty or clean.empty:
        return pd.DataFrame()
    base = others.join(twins, on=list(RECOVERY_KEYS))
    missing = base["n_calls_clean"].isna()
    if missing.any():
        fill = others[missing].join(pooled, on=list(RECOVERY_KEYS[:-1]))
        for name in measures:
            base.loc[missing, f"{name}_clean"] = fill[f"{name}_clean"]
    base = base[base["n_calls_clean"].notna()]
    if base.empty:
        return pd.DataFrame()
    for name in measures:
        base[f"extra_{name}"] = base[name] - base[f"{name}_clean"]
    if "family" not in base:
        base["family"] = "all"
    base["family"] = base["family"].fillna("").replace("", "none").astype(str)
    rows = []
    for (suite, model, arm, family), group in base.groupby(
        ["suite", "model", "arm", "family"], sort=True
    ):
        extra = group["extra_n_calls"].astype(float)
        low, high = _t_interval(extra)
        rows.append(
            {
                "suite": suite,
                "model": model,
                "arm": arm,
                "family": family,
                "pairs": len(group),
                "extra_calls": round(float(extra.mean()), 2),
                "extra_calls_low": low,
                "extra_calls_high": high,
                "extra_requests": round(float(group["extra_model_calls"].mean()), 2),
                "extra_tokens": round(float(group["extra_tokens"].mean()), 1),
                "extra_latency_s": round(float(group["extra_latency_s"].mean()), 3),
                "extra_cost_usd": round(float(group["extra_cost_usd"].mean()), 5),
            }
        )
    return pd.DataFrame(rows)


def _t_interval(values: pd.Series) -> tuple[float | None, float | None]:
    """The 95% t interval of the mean of ``values`` (None, None: fewer than two, or no spread)."""
    if len(values) < 2 or float(values.std()) == 0.0:
        mean = round(float(values.mean()), 2) if len(values) else None
        return (mean, mean) if len(values) >= 2 else (None, None)
    from statsmodels.stats.weightstats import DescrStatsW

    low, high = DescrStatsW(values.to_numpy()).tconfint_mean(alpha=0.05)
    return round(float(low), 2), round(float(high), 2)
