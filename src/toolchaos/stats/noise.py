"""The noise floor of a run: run-to-run spread, intervals, detectable differences, order tests.

Small pure functions over per-task scores: a list with one entry per task, each the list
of that task's sample verdicts (1 correct, 0 not). The formulas (docs/scoring.md, "Noise
floor"):

- Spread: the share of tasks with at least two samples whose verdicts are not all equal.
- Bootstrap interval (:func:`bootstrap_interval`): a two-stage percentile bootstrap, tasks
  drawn with replacement, then each drawn task's samples drawn with replacement; accuracy
  is the mean of the drawn verdicts. Seeded (numpy's PCG64), so the same run gives the
  same interval.
- Noise MDD (:func:`noise_mdd`): the smallest difference a paired comparison of two runs
  of this model, each of k samples on the same n tasks, detects at power 1 - beta and
  two-sided level alpha by the normal approximation:
  ``MDD = (z[1 - alpha/2] + z[1 - beta]) * sqrt(psi / (k * n))``, where ``psi`` is the
  observed discordance, the mean over tasks of the share of discordant sample pairs,
  ``2 c (k - c) / (k (k - 1))`` (an unbiased estimate of ``2 p (1 - p)``, the chance two
  samples of a task disagree). A per-task mean over k samples then has variance
  ``psi / (2 k)``, a difference of two runs ``psi / k``.
- Pair MDD (:func:`paired_mdd`): ``(z[1 - alpha/2] + z[1 - beta]) * sqrt(psi_ab / n)``
  with ``psi_ab`` the pair's observed discordance, the mean squared per-task mean
  difference of the two models (with one sample per task, the share of tasks they
  disagree on): the variance of a difference under the null. With one sample per task
  this is Connor's (1987) McNemar sample size solved for the difference, both of its
  variance terms taken at the null.
- Order test (:func:`paired_p`): with one sample per task, McNemar's exact test (statsmodels'
  ``mcnemar``); with more, a paired permutation test (sign flips of the per-task mean
  differences, scipy's ``permutation_test``: exact up to 13 tasks, else 9,999 seeded
  resamples). :func:`holm` corrects a leaderboard's p-values (Holm, 1979; statsmodels'
  ``multipletests``).
- Planning (:func:`tasks_needed`): ``n = (z[1 - alpha/2] + z[1 - beta])**2 * var / D**2``
  with ``var = tau2 + (v_a + v_b) / k``: ``tau2`` the between-task variance of the true
  difference, ``v`` a model's mean within-task verdict variance (``c (k - c) / (k (k - 1))``).

scipy and statsmodels are imported by the function that needs them (most of a second of
start-up the CLI need not pay).
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import NormalDist

import numpy as np

from toolchaos.stats.agreement import mcnemar_test

ALPHA = 0.05
POWER = 0.80
RESAMPLES = 2_000
PERMUTATIONS = 9_999
SEED = 0

Scores = Sequence[Sequence[int]]
"""Per task, its sample verdicts (1 correct, 0 not)."""


def z_sum(alpha: float = ALPHA, power: float = POWER) -> float:
    """``z[1 - alpha/2] + z[power]`` (2.8016 at alpha 0.05 and power 0.8)."""
    normal = NormalDist()
    return normal.inv_cdf(1 - alpha / 2) + normal.inv_cdf(power)


def spread(scores: Scores) -> float | None:
    """The share of tasks (with two or more samples) whose verdicts differ across samples."""
    repeated = [s for s in scores if len(s) >= 2]
    if not repeated:
        return None
    return sum(len(set(s)) > 1 for s in repeated) / len(repeated)


def within_variance(verdicts: Sequence[int]) -> float:
    """The unbiased within-task verdict variance ``c (k - c) / (k (k - 1))`` (k >= 2)."""
    k, c = len(verdicts), sum(verdicts)
    return c * (k - c) / (k * (k - 1))


def discordance(scores: Scores) -> float | None:
    """The mean share of discordant sample pairs per task (tasks with two or more samples)."""
    repeated = [s for s in scores if len(s) >= 2]
    if not repeated:
        return None
    return float(np.mean([2 * within_variance(s) for s in repeated]))


def bootstrap_interval(
    scores: Scores, resamples: int = RESAMPLES, seed: int = SEED, alpha: float = ALPHA
) -> tuple[float, float] | None:
    """The two-stage percentile bootstrap interval of accuracy over tasks and samples."""
    tasks = [s for s in scores if len(s)]
    if not tasks:
        return None
    widest = max(len(s) for s in tasks)
    values = np.zeros((len(tasks), widest))
    for i, verdicts in enumerate(tasks):
        values[i, : len(verdicts)] = verdicts
    counts = np.array([len(s) for s in tasks])
    rng = np.random.Generator(np.random.PCG64(seed))
    means = np.empty(resamples)
    chunk = 250
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        drawn = rng.integers(0, len(tasks), size=(size, len(tasks)))
        picks = np.floor(rng.random((size, len(tasks), widest)) * counts[drawn][..., None])
        got = np.take_along_axis(values[drawn], picks.astype(int), axis=2)
        used = np.arange(widest)[None, None, :] < counts[drawn][..., None]
        means[start : start + size] = (got * used).sum(axis=(1, 2)) / used.sum(axis=(1, 2))
    low, high = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


def noise_mdd(scores: Scores, alpha: float = ALPHA, power: float = POWER) -> float | None:
    """The MDD between two runs of one model of this size (None without repeated samples)."""
    psi = discordance(scores)
    if psi is None:
        return None
    k = min(len(s) for s in scores if len(s) >= 2)
    n = sum(len(s) >= 2 for s in scores)
    return z_sum(alpha, power) * float(np.sqrt(psi / (k * n)))


def task_means(scores: Scores) -> list[float]:
    """Each task's mean verdict."""
    return [sum(s) / len(s) for s in scores]


def paired_mdd(a: Scores, b: Scores, alpha: float = ALPHA, power: float = POWER) -> float | None:
    """The MDD of a paired comparison of two models over the same tasks (None if n < 2)."""
    if len(a) != len(b):
        raise ValueError("both models must have scores for the same tasks")
    if len(a) < 2:
        return None
    diffs = np.array(task_means(a)) - np.array(task_means(b))
    return z_sum(alpha, power) * float(np.sqrt(np.mean(diffs**2) / len(diffs)))


def paired_p(a: Scores, b: Scores, seed: int = SEED) -> float | None:
    """The two-sided p-value that two models score the same on these tasks (None if none).

    McNemar's test (:func:`~toolchaos.stats.agreement.mcnemar_test`, as ``toolchaos
    compare`` runs it) when every task has one sample of each, else a paired permutation
    test of the per-task mean differences.
    """
    if len(a) != len(b):
        raise ValueError("both models must have scores for the same tasks")
    if not a:
        return None
    if all(len(x) == 1 for x in a) and all(len(y) == 1 for y in b):
        only_a = sum(x[0] > y[0] for x, y in zip(a, b, strict=True))
        only_b = sum(y[0] > x[0] for x, y in zip(a, b, strict=True))
        if only_a + only_b == 0:
            return 1.0
        both = sum(x[0] == y[0] == 1 for x, y in zip(a, b, strict=True))
        neither = len(a) - both - only_a - only_b
        return mcnemar_test(both, only_a, only_b, neither).p_value  # as `toolchaos compare`
    diffs = np.array(task_means(a)) - np.array(task_means(b))
    if not np.any(diffs) or len(diffs) < 2:
        # one task: flipping its difference's sign is as extreme as not, so p is 1
        # (scipy refuses a sample of one rather than saying so)
        return 1.0
    from inspect import signature

    from scipy.stats import permutation_test

    # scipy 1.15 renamed random_state to rng (pyproject allows 1.11)
    named = "rng" if "rng" in signature(permutation_test).parameters else "random_state"
    result = permutation_test(
        (diffs,),
        lambda d, axis: np.mean(d, axis=axis),
        permutation_type="samples",
        n_resamples=PERMUTATIONS,
        vectorized=True,
        alternative="two-sided",
        **{named: np.random.default_rng(seed)},
    )
    return float(min(1.0, result.pvalue))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values (step-down, family-wise error), in the given order."""
    if not p_values:
        return []
    from statsmodels.stats.multitest import multipletests

    return [float(p) for p in multipletests(list(p_values), method="holm")[1]]


def tasks_needed(
    difference: float,
    tau2: float,
    v_a: float,
    v_b: float,
    samples: int,
    alpha: float = ALPHA,
    power: float = POWER,
) -> int:
    """Tasks a paired comparison needs to detect ``difference`` with ``samples`` per task.

    Args:
        difference: The wanted difference in accuracy, a share in (0, 1).
        tau2: The between-task variance of the true per-task difference.
        v_a: Model a's mean within-task verdict variance.
        v_b: Model b's.
        samples: Samples per task and model.
        alpha: The two-sided level.
        power: The chance of detecting ``difference`` when it is real.
    """
    variance = tau2 + (v_a + v_b) / samples
    return max(2, int(np.ceil(z_sum(alpha, power) ** 2 * variance / difference**2)))
