"""Rates with intervals, tests between models, and agreement between raters.

Small pure functions over counts and label lists; the formulas are statsmodels'.

- Wilson score interval: Wilson (1927); ``statsmodels.stats.proportion.proportion_confint``
  with ``method="wilson"``.
- Two-proportion z-test: ``statsmodels.stats.proportion.proportions_ztest``.
- Cohen's kappa (Cohen, 1960) and Fleiss' kappa (Fleiss, 1971):
  ``statsmodels.stats.inter_rater``.

statsmodels is imported by the function that needs it: it brings scipy.stats, most of a
second of start-up, which a report with no interval or agreement (ToolBench-X) need not pay.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel


class Rate(BaseModel):
    """A proportion with its 95% Wilson interval."""

    k: int
    n: int
    rate: float | None
    low: float | None
    high: float | None


def wilson(k: int, n: int, alpha: float = 0.05) -> Rate:
    """``k`` successes out of ``n`` with the Wilson score interval (None when n = 0)."""
    if n == 0:
        return Rate(k=0, n=0, rate=None, low=None, high=None)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(k, n, alpha=alpha, method="wilson")
    return Rate(k=k, n=n, rate=k / n, low=float(low), high=float(high))


def two_proportion_test(k1: int, n1: int, k2: int, n2: int) -> float | None:
    """The two-sided p-value that two proportions are equal (None if undefined)."""
    if n1 == 0 or n2 == 0 or (k1 + k2) in (0, n1 + n2):
        return None
    from statsmodels.stats.proportion import proportions_ztest

    _, p_value = proportions_ztest([k1, k2], [n1, n2])
    return float(p_value)


def _categories(*raters: Sequence[str]) -> list[str]:
    return sorted({label for rater in raters for label in rater})


def cohen(a: Sequence[str], b: Sequence[str]) -> float | None:
    """Cohen's kappa of two raters over the same items (None if undefined)."""
    if len(a) != len(b):
        raise ValueError("both raters must label the same items")
    if not a:
        return None
    labels = _categories(a, b)
    index = {label: i for i, label in enumerate(labels)}
    table = np.zeros((len(labels), len(labels)))
    for x, y in zip(a, b, strict=True):
        table[index[x], index[y]] += 1
    if len(labels) == 1:
        return 1.0
    from statsmodels.stats.inter_rater import cohens_kappa

    value = cohens_kappa(table, return_results=False)
    return None if np.isnan(value) else float(value)


def fleiss(*raters: Sequence[str]) -> float | None:
    """Fleiss' kappa of several raters over the same items (None if undefined)."""
    if len({len(r) for r in raters}) != 1:
        raise ValueError("every rater must label the same items")
    if not raters or not raters[0]:
        return None
    labels = _categories(*raters)
    if len(labels) == 1:
        return 1.0
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    index = {label: i for i, label in enumerate(labels)}
    data = np.array([[index[r[i]] for r in raters] for i in range(len(raters[0]))])
    counts, _ = aggregate_raters(data, n_cat=len(labels))
    value = fleiss_kappa(counts)
    return None if np.isnan(value) else float(value)


EXACT_BELOW = 25
"""McNemar's test is exact (binomial) below this many discordant pairs, else chi-square."""


class McNemar(BaseModel):
    """A 2x2 table of paired outcomes and McNemar's test on it.

    ``table`` is ``[[both correct, only A correct], [only B correct, both wrong]]``.
    """

    pairs: int
    table: list[list[int]]
    statistic: float | None
    p_value: float
    exact: bool


def mcnemar_test(both: int, only_a: int, only_b: int, neither: int) -> McNemar:
    """McNemar's test on paired outcomes (McNemar, 1947; statsmodels' ``mcnemar``).

    The exact binomial test when fewer than :data:`EXACT_BELOW` pairs are discordant,
    else the chi-square statistic with continuity correction; no discordant pair: p = 1.
    """
    from statsmodels.stats.contingency_tables import mcnemar  # imported here: slow to load

    table = [[both, only_a], [only_b, neither]]
    exact = only_a + only_b < EXACT_BELOW
    result = mcnemar(table, exact=exact, correction=True)
    statistic = None if exact else float(result.statistic)
    p_value = float(result.pvalue)
    return McNemar(
        pairs=both + only_a + only_b + neither,
        table=table,
        statistic=statistic,
        p_value=1.0 if np.isnan(p_value) else p_value,
        exact=exact,
    )
