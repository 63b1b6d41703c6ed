import numpy as np
import pytest
from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa
from statsmodels.stats.proportion import proportion_confint

from toolchaos.stats.agreement import cohen, fleiss, two_proportion_test, wilson


def test_wilson_matches_statsmodels_and_known_values() -> None:
    rate = wilson(8, 10)
    low, high = proportion_confint(8, 10, method="wilson")
    assert (rate.low, rate.high) == pytest.approx((low, high))
    assert rate.low == pytest.approx(0.4902, abs=1e-4)  # textbook value for 8/10
    assert rate.high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 0).rate is None


def test_two_proportions() -> None:
    assert two_proportion_test(50, 100, 50, 100) == pytest.approx(1.0)
    assert two_proportion_test(80, 100, 50, 100) < 0.001
    assert two_proportion_test(0, 10, 0, 10) is None


def test_cohen_matches_statsmodels() -> None:
    a = ["skip", "skip", "ignore", "correct", "correct", "ignore", "skip", "correct"]
    b = ["skip", "ignore", "ignore", "correct", "skip", "ignore", "skip", "correct"]
    labels = sorted(set(a) | set(b))
    table = np.zeros((3, 3))
    for x, y in zip(a, b, strict=True):
        table[labels.index(x), labels.index(y)] += 1
    assert cohen(a, b) == pytest.approx(cohens_kappa(table, return_results=False))
    assert cohen(a, a) == pytest.approx(1.0)


def test_fleiss_matches_statsmodels_on_its_example() -> None:
    # three raters, five items; counts per category computed by hand
    raters = (
        ["a", "a", "b", "c", "a"],
        ["a", "b", "b", "c", "a"],
        ["a", "a", "b", "b", "c"],
    )
    counts = np.array([[3, 0, 0], [2, 1, 0], [0, 3, 0], [0, 1, 2], [2, 0, 1]])
    assert fleiss(*raters) == pytest.approx(fleiss_kappa(counts))
    assert fleiss(["x", "y"], ["x", "y"], ["x", "y"]) == pytest.approx(1.0)


def test_unequal_raters_are_refused() -> None:
    with pytest.raises(ValueError):
        cohen(["a"], ["a", "b"])
    with pytest.raises(ValueError):
        fleiss(["a"], ["a", "b"])
