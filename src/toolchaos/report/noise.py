"""The noise floor of a report: is a score difference real?

Over the scored episodes every suite shares, each suite's leaderboard (what it ranks by,
:class:`~toolchaos.suites.base.Ranking`: ToolBench-X accuracy in the hazard arm,
ToolFailBench CTUR by the rule labels) gets two tables, one board per suite, protocol
and arm:

- ``noise_floor``: one line per model, ranked: its score with a bootstrap interval over
  tasks and samples, the run-to-run spread (tasks whose verdict differs across samples),
  the noise MDD (the smallest difference two runs of it this size detect at 80% power)
  and whether its order over the next line is decisive.
- ``order_tests``: each pair of adjacent lines: the difference, the pair's MDD from its
  observed discordance, the paired test's p-value and its Holm-adjusted p-value across the
  board's adjacent pairs, and ``decisive`` or ``not decisive`` (adjusted p < 0.05).

:func:`plan_size` turns a pilot run into the tasks a wanted difference needs.
The formulas are :mod:`toolchaos.stats.noise`'s (docs/scoring.md, "Noise floor").
Harness errors and unscored episodes are left out, as the accuracy table leaves them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import pandas as pd

from toolchaos.core.errors import BadInput
from toolchaos.scoring.tables import scorable
from toolchaos.stats import noise
from toolchaos.suites import SUITES, get_suite

BOARD = ("suite", "protocol", "arm")
PLAN_SAMPLES = (1, 3, 5, 10)
"""The samples per task :func:`plan_size` plans for (with the pilot's own)."""
NOISE_NOTE = (
    "Noise floor: CI is a two-stage bootstrap (2,000 seeded resamples of tasks, then of "
    "each task's samples); spread is the share of tasks whose verdict differs across "
    "samples; MDD is the smallest difference a paired comparison of two runs of the "
    "model this size detects at 80% power and alpha 0.05 (- with one sample per task); "
    "order says whether the line ranks above the next decisively (order_tests). "
    "Formulas: docs/scoring.md, Noise floor."
)
ORDER_NOTE = (
    "Adjacent lines of each leaderboard: McNemar's exact test with one sample per task, "
    "else a paired permutation test of per-task mean scores; Holm-adjusted across the "
    "board's adjacent pairs; 'decisive' when the adjusted p is below 0.05. MDD pp is the "
    "pair's minimum detectable difference at 80% power from its observed discordance."
)


@dataclass
class Board:
    """One leaderboard: its key, what it ranks by, and each model's per-task verdicts."""

    suite: str
    protocol: str
    arm: str
    metric: str
    scores: dict[str, dict[str, list[int]]]

    def ranked(self) -> list[tuple[str, float]]:
        """The models from the best score down (ties by name)."""
        means = {
            model: sum(map(sum, tasks.values())) / sum(map(len, tasks.values()))
            for model, tasks in self.scores.items()
        }
        return sorted(means.items(), key=lambda item: (-item[1], item[0]))

    def paired(self, a: str, b: str) -> tuple[list[list[int]], list[list[int]]]:
        """Both models' verdicts on the tasks both have, in task order."""
        common = sorted(set(self.scores[a]) & set(self.scores[b]))
        return [self.scores[a][t] for t in common], [self.scores[b][t] for t in common]


def boards(frame: pd.DataFrame) -> list[Board]:
    """The leaderboards of a scored frame, one per suite, protocol and arm it ranks."""
    if frame.empty:
        return []
    kept = scorable(frame)
    if "unscored" in kept:
        kept = kept[kept["unscored"].fillna(0).astype(int) == 0]
    found = []
    for suite, group in kept.groupby("suite", sort=True):
        ranking = get_suite(str(suite)).ranking if suite in SUITES else None
        if ranking is None:
            continue
        for column, value in ranking.where.items():
            group = group[group[column] == value] if column in group else group.iloc[0:0]
        for (protocol, arm), rows in group.groupby(["protocol", "arm"], sort=True):
            scores: dict[str, dict[str, list[int]]] = {}
            ordered = rows.sort_values(["model", "task_id", "sample"], kind="stable")
            for model, task, correct in ordered[["model", "task_id", "correct"]].itertuples(
                index=False
            ):
                scores.setdefault(str(model), {}).setdefault(str(task), []).append(int(correct))
            found.append(Board(str(suite), str(protocol), str(arm), ranking.metric, scores))
    return found


def _pp(value: float | None) -> float | None:
    return None if value is None else round(100 * value, 2)


def _p(value: float | None) -> float | None:
    return None if value is None else float(f"{value:.4g}")


def order_rows(board: Board) -> list[dict[str, Any]]:
    """The adjacent pairs of one board with their tests (Holm across the board)."""
    ranked = board.ranked()
    pairs = []
    for (a, score_a), (b, score_b) in pairwise(ranked):
        first, second = board.paired(a, b)
        pairs.append((a, b, score_a - score_b, first, second, noise.paired_p(first, second)))
    # Holm over the pairs that have a test: an untestable pair is not a hypothesis
    tested = [p for *_, p in pairs if p is not None]
    corrected = iter(noise.holm(tested))
    adjusted = [None if p is None else next(corrected) for *_, p in pairs]
    rows = []
    for (a, b, difference, first, second, p), holm_p in zip(pairs, adjusted, strict=True):
        decisive = holm_p is not None and difference > 0 and holm_p < noise.ALPHA
        rows.append(
            {
                "suite": board.suite,
                "protocol": board.protocol,
                "model": a,
                "next": b,
                "tasks": len(first),
                "difference pp": _pp(difference),
                "MDD pp": _pp(noise.paired_mdd(first, second)),
                "p": _p(p),
                "Holm p": _p(holm_p),
                "order": "decisive" if decisive else "not decisive",
                "arm": board.arm,
                "metric": board.metric,
            }
        )
    return rows


def noise_rows(board: Board, orders: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One line per model of one board, ranked, with its noise figures and order."""
    order_of = {row["model"]: row["order"] for row in orders}
    rows = []
    rank = 0
    previous: float | None = None
    for place, (model, score) in enumerate(board.ranked(), start=1):
        if score != previous:
            rank, previous = place, score
        verdicts = list(board.scores[model].values())
        interval = noise.bootstrap_interval(verdicts)
        samples = sorted({len(v) for v in verdicts})
        rows.append(
            {
                "suite": board.suite,
                "protocol": board.protocol,
                "rank": rank,
                "model": model,
                "tasks": len(verdicts),
                "samples": samples[0] if len(samples) == 1 else f"{samples[0]}-{samples[-1]}",
                "score %": _pp(score),
                "95% CI": "-"
                if interval is None
                else f"[{100 * interval[0]:.2f}, {100 * interval[1]:.2f}]",
                "spread %": _pp(noise.spread(verdicts)),
                "MDD pp": _pp(noise.noise_mdd(verdicts)),
                "order": order_of.get(model, "-"),
                "arm": board.arm,
                "metric": board.metric,
            }
        )
    return rows


def noise_tables(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``noise_floor`` and ``order_tests`` tables of a scored frame."""
    lines: list[dict[str, Any]] = []
    orders: list[dict[str, Any]] = []
    for board in boards(frame):
        pairs = order_rows(board)
        orders += pairs
        lines += noise_rows(board, pairs)
    return pd.DataFrame(lines), pd.DataFrame(orders)


def plan_size(
    frame: pd.DataFrame, difference: float, samples: Sequence[int] = PLAN_SAMPLES
) -> pd.DataFrame:
    """How many tasks each board's adjacent pairs, and a rerun of each model, need.

    For a pair the variance of a per-task mean difference at k samples is ``tau2 +
    (v_a + v_b) / k``, ``tau2`` estimated as the pilot's variance of per-task mean
    differences less the pilot's sample noise (never below 0); a model against a rerun of
    itself has ``tau2 = 0``. A pilot with one sample per task cannot part the two: it
    plans only for one sample, from the observed variance of the differences.

    Raises:
        BadInput: For a difference outside (0, 1), samples below 1, or a frame with no
            episode a leaderboard ranks.
    """
    if not 0 < difference < 1:
        raise BadInput(
            f"--difference must be a share of tasks between 0 and 1 (0.05 for 5 points), "
            f"not {difference:g}"
        )
    if any(k < 1 for k in samples):
        raise BadInput(f"--samples must be whole numbers of at least 1, not {list(samples)}")
    found = boards(frame)
    if not found:
        raise BadInput(
            "the run holds no finished episode a leaderboard ranks; nothing to plan from"
        )
    rows = []
    for board in found:
        ranked = [model for model, _ in board.ranked()]
        comparisons = list(pairwise(ranked))
        comparisons += [(model, model) for model in ranked]
        for a, b in comparisons:
            first, second = board.paired(a, b)
            pilot_k = min(len(v) for v in first + second)
            if a == b and pilot_k < 2:
                continue  # one sample per task shows no noise of a model against itself
            row: dict[str, Any] = {
                "suite": board.suite,
                "protocol": board.protocol,
                "arm": board.arm,
                "model": a,
                "against": "a rerun of itself" if a == b else b,
                "pilot tasks": len(first),
                "pilot samples": pilot_k,
            }
            v_a, v_b = _within(first), _within(second)
            diffs = pd.Series(noise.task_means(first)) - pd.Series(noise.task_means(second))
            observed = float(diffs.var(ddof=1)) if len(diffs) > 1 else 0.0
            for k in sorted({*samples, pilot_k}):
                if a == b:
                    needed: int | str = noise.tasks_needed(difference, 0.0, v_a, v_b, k)
                elif pilot_k >= 2:
                    tau2 = max(0.0, observed - (v_a + v_b) / pilot_k)
                    needed = noise.tasks_needed(difference, tau2, v_a, v_b, k)
                elif k == 1:  # the observed variance holds both parts, at one sample
                    needed = noise.tasks_needed(difference, observed, 0.0, 0.0, 1)
                else:
                    needed = "-"
                row[f"tasks at k={k}"] = needed
            rows.append(row)
    return pd.DataFrame(rows)


def _within(verdicts: Sequence[Sequence[int]]) -> float:
    """The mean within-task verdict variance over tasks with two or more samples (else 0)."""
    repeated = [noise.within_variance(v) for v in verdicts if len(v) >= 2]
    return sum(repeated) / len(repeated) if repeated else 0.0
