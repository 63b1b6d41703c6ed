import pytest

from toolchaos.stats.sampling import majority, pass_at_k, pass_hat_k


def test_pass_at_k_known_values() -> None:
    assert pass_at_k(5, 0, 1) == 0.0
    assert pass_at_k(5, 5, 3) == 1.0
    assert pass_at_k(4, 1, 1) == pytest.approx(0.25)
    assert pass_at_k(4, 1, 2) == pytest.approx(0.5)  # 1 - C(3,2)/C(4,2) = 1 - 3/6
    assert pass_at_k(10, 3, 5) == pytest.approx(1 - 21 / 252)


def test_pass_hat_k_known_values() -> None:
    assert pass_hat_k(4, 4, 4) == 1.0
    assert pass_hat_k(4, 3, 2) == pytest.approx(3 / 6)
    assert pass_hat_k(4, 1, 2) == 0.0
    assert pass_hat_k(5, 2, 1) == pytest.approx(0.4)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 4)
    with pytest.raises(ValueError):
        pass_hat_k(3, 5, 1)


def test_majority_is_deterministic() -> None:
    assert majority(["b", "a", "a", "b"]) == "b"
    assert majority(["x", "y", "y"]) == "y"
    assert majority([]) == ""
