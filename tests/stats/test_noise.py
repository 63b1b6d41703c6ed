"""The noise-floor statistics against figures worked out by hand (in the comments)."""

import pytest

from toolchaos.stats.noise import (
    bootstrap_interval,
    discordance,
    holm,
    noise_mdd,
    paired_mdd,
    paired_p,
    spread,
    tasks_needed,
    z_sum,
)


def test_z_sum_is_the_textbook_figure() -> None:
    # z[0.975] = 1.959964, z[0.80] = 0.841621
    assert z_sum() == pytest.approx(2.801585, abs=1e-6)


def test_spread_counts_tasks_whose_verdicts_differ() -> None:
    # of the three tasks with two samples or more, one flips; the one-sample task is out
    assert spread([[1, 1], [1, 0], [0, 0], [1]]) == pytest.approx(1 / 3)
    assert spread([[1], [0]]) is None


def test_noise_mdd_by_hand() -> None:
    # 10 tasks x 4 samples: five tasks 1,1,0,0 and five 1,1,1,1.
    # discordant pairs of 1,1,0,0: 2 c (k - c) / (k (k - 1)) = 2*2*2 / 12 = 2/3; of 1,1,1,1: 0
    # psi = (5 * 2/3) / 10 = 1/3; MDD = 2.801585 * sqrt((1/3) / (4 * 10)) = 2.801585 / sqrt(120)
    #     = 2.801585 * 0.0912871 = 0.255749
    scores = [[1, 1, 0, 0]] * 5 + [[1, 1, 1, 1]] * 5
    assert discordance(scores) == pytest.approx(1 / 3)
    assert noise_mdd(scores) == pytest.approx(0.255749, abs=1e-6)
    assert noise_mdd([[1]] * 10) is None  # one sample per task shows no run-to-run noise
    assert noise_mdd([[1, 1]] * 10) == 0.0  # a deterministic policy: no noise at all


def test_paired_mdd_and_mcnemar_by_hand() -> None:
    # 20 tasks, one sample: A alone right on 6, B alone on 2, 12 alike (8 both right).
    # discordance psi_ab = (6 + 2) / 20 = 0.4 (the mean squared difference of d_i in -1, 0, 1)
    # MDD = 2.801585 * sqrt(0.4 / 20) = 2.801585 * 0.1414214 = 0.396204
    # McNemar exact: 2 * P(X <= 2 | 8, 1/2) = 2 * (1 + 8 + 28) / 256 = 0.2890625
    a = [[1]] * 6 + [[0]] * 2 + [[1]] * 8 + [[0]] * 4
    b = [[0]] * 6 + [[1]] * 2 + [[1]] * 8 + [[0]] * 4
    assert paired_mdd(a, b) == pytest.approx(0.396204, abs=1e-6)
    assert paired_p(a, b) == pytest.approx(0.2890625)
    assert paired_p(a, a) == 1.0


def test_permutation_test_is_exact_on_few_tasks() -> None:
    # 8 tasks, 2 samples: 5 tasks 1,1 vs 0,0 and 3 alike. Of the 2^8 sign flips only those
    # keeping the five nonzero differences all of one sign reach |mean| = 5/8:
    # 2 * 2^3 / 2^8 = 1/16
    a = [[1, 1]] * 5 + [[1, 0]] * 3
    b = [[0, 0]] * 5 + [[1, 0]] * 3
    assert paired_p(a, b) == pytest.approx(0.0625)


def test_one_task_with_samples_is_never_decisive() -> None:
    # the two sign flips of one difference are equally extreme: p = 2/2 = 1
    assert paired_p([[1, 1, 1]], [[0, 0, 0]]) == 1.0
    assert paired_p([[1, 0]], [[0, 0]]) == 1.0


def test_holm_by_hand() -> None:
    # sorted 0.01, 0.03, 0.04: 3*0.01 = 0.03; 2*0.03 = 0.06; max(0.06, 1*0.04) = 0.06
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([]) == []


def test_bootstrap_interval_is_seeded_and_narrows_with_tasks() -> None:
    few = [[1, 0, 1], [0, 0, 1], [1, 1, 1], [0, 0, 0]] * 3
    first = bootstrap_interval(few)
    assert first == bootstrap_interval(few)  # same seed, same interval
    assert first != bootstrap_interval(few, seed=1)
    assert first is not None and first[0] < 0.5 < first[1]
    many = bootstrap_interval(few * 10)
    assert many is not None and many[1] - many[0] < first[1] - first[0]
    assert bootstrap_interval([[1, 1]] * 5) == (1.0, 1.0)
    assert bootstrap_interval([]) is None


def test_tasks_needed_by_hand() -> None:
    # var = 0.05 + (0.1 + 0.1) / 5 = 0.09; n = 2.801585^2 * 0.09 / 0.1^2 = 7.848879 * 9 = 70.64
    assert tasks_needed(0.1, 0.05, 0.1, 0.1, 5) == 71
    assert tasks_needed(0.1, 0.0, 0.0, 0.0, 5) == 2  # no variance: the floor of a paired test
