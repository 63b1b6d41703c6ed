"""Test-time scaling statistics over k samples per task.

pass@k is the unbiased estimator of Chen et al. (2021, "Evaluating Large Language Models
Trained on Code", eq. 1): the chance that at least one of k samples drawn without
replacement from n is correct, given c correct. pass^k (Yao et al., 2024, tau-bench) is
the chance that all k drawn samples are correct. Both use scipy's exact binomial
coefficients.
"""

from __future__ import annotations

from collections import Counter
from math import comb


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of ``k`` of ``n`` samples is correct (``c`` correct)."""
    if not 0 < k <= n or not 0 <= c <= n:
        raise ValueError(f"need 0 < k <= n and 0 <= c <= n, got n={n} c={c} k={k}")
    if n - c < k:
        return 1.0
    return float(1.0 - comb(n - c, k) / comb(n, k))


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Probability that all ``k`` of ``n`` samples are correct (``c`` correct)."""
    if not 0 < k <= n or not 0 <= c <= n:
        raise ValueError(f"need 0 < k <= n and 0 <= c <= n, got n={n} c={c} k={k}")
    return float(comb(c, k) / comb(n, k))


def majority(answers: list[str]) -> str:
    """The most common answer; ties go to the one seen first (deterministic)."""
    if not answers:
        return ""
    counts = Counter(answers)
    best = max(counts.values())
    return next(a for a in answers if counts[a] == best)
