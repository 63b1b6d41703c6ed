"""The invalid-output and degenerate-repetition detectors, on crafted answers."""

from string import ascii_letters

import pytest

from toolchaos.suites.toolfailbench.rules import (
    degenerate_repetition,
    invalid_output,
    output_checks,
)

NUMBERED = " ".join(f"item{i}" for i in range(30))


@pytest.mark.parametrize(
    ("text", "span", "copies"),
    [
        ("the " * 40, "the ", 40),
        ("ha" * 16, "ha", 16),
        ("0" * 32, "0", 32),
        ("Answer: " + "price 12.5, " * 8 + "done", "price 12.5, ", 8),
        # the longest span, 8 copies
        (ascii_letters[:30] * 8, ascii_letters[:30], 8),
        # a punctuation run that holds one letter still counts
        ("--------a" * 8, "--------a", 8),
    ],
)
def test_a_looping_span_is_degenerate(text: str, span: str, copies: int) -> None:
    found = degenerate_repetition(text)
    assert found is not None
    assert found.copies == copies and len(found.span) == len(span)
    assert f"repeated {copies} times" in found.explanation


@pytest.mark.parametrize(
    "text",
    [
        "The quote for ACME is 12.50 USD, up 0.4% on the day.",
        "100000000",  # 8 zeros: a number, shorter than 32 characters
        "ha" * 15,  # 30 characters
        "ab" * 7 + "x",  # 7 copies
        "|---" * 12 + "|",  # a markdown table rule: no letter or digit
        "=" * 80,
        "\n" * 50,
        ascii_letters[:31] * 8,  # a span longer than 30 characters
        "yes, " * 7 + "no",
    ],
)
def test_ordinary_text_is_not_degenerate(text: str) -> None:
    assert degenerate_repetition(text) is None


def test_one_word_over_half_of_a_long_answer_is_degenerate() -> None:
    words = [f"w{i} buy" for i in range(21)]  # 42 words, "buy" 21 of them, never 8 in a row
    found = degenerate_repetition(" ".join(words) + " buy")
    assert found is not None and found.span == "buy" and found.copies == 22
    # exactly half is not over half; a short answer never counts
    assert degenerate_repetition(" ".join(words)) is None
    assert degenerate_repetition("buy " * 5 + "now") is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("  \n\t", "empty"),
        ("<|im_end|>", "special_tokens"),
        ("<|endoftext|>\n</s>", "special_tokens"),
        ("<unk> <unk>", "special_tokens"),
        ("[PAD][PAD][PAD]", "special_tokens"),
        ("<|eot_id|>", "special_tokens"),
        ("\ufffd\ufffd\ufffd ok", "replacement_chars"),
        ("\x00\x01\x02\x1b a", "control_chars"),
        ("so " * 20, "degenerate_repetition"),
    ],
)
def test_invalid_output_says_why(text: str, reason: str) -> None:
    found = invalid_output(text)
    assert found is not None and found.reason == reason, found
    assert found.explanation


@pytest.mark.parametrize(
    "text",
    [
        "The dividend yield is 3.1%.",
        "It is 12 mg <|im_end|>",  # a leaked token after real text is still an answer
        "Caf\ufffd au lait costs 4 EUR",  # one replacement character among many
        "line one\nline two\r\n\ttabbed",
        "I don't know.",
    ],
)
def test_real_answers_are_valid(text: str) -> None:
    assert invalid_output(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "The quote for ACME is 12.50 USD, up 0.4% on the day.",
        "",
        "<|im_end|>" * 10,  # only special tokens, and a looping span too
        "\ufffd" * 40,
        "ha" * 16,
        "the " * 40,
        NUMBERED,
    ],
)
def test_output_checks_agree_with_the_two_detectors(text: str) -> None:
    invalid, repetition = output_checks(text)
    assert invalid == invalid_output(text)
    assert repetition == degenerate_repetition(text)
