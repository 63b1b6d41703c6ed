"""The committed value: an answer is judged by what it concludes, not by what it mentions."""

from __future__ import annotations

import pytest

from toolchaos.scoring.answer import commitment, score_answer

NILGIRI = "Assam has 12 visitors, Nilgiri has 9 and Darjeeling has 10, so the fewest is 10."


def test_the_nilgiri_answer_is_rejected() -> None:
    score = score_answer(NILGIRI, "9")
    # containment alone would accept it: the reference is in the reasoning
    assert score.contains and not score.committed and not score.correct
    assert "commits to another value" in score.explanation
    assert "the fewest is 10" in score.explanation


@pytest.mark.parametrize(
    ("answer", "reference", "distractors"),
    [
        (NILGIRI, "9", ()),
        ("Nilgiri has 9 and Darjeeling 10. The fewest is 10.", "9", ()),
        ("Nilgiri has 9, Darjeeling 10, so the fewest is Darjeeling.", "Nilgiri", ["Darjeeling"]),
        ("Nilgiri has 9, Darjeeling 10; therefore Darjeeling.", "Nilgiri", ["Darjeeling"]),
        ("The total came out as 42 at first, but in total it is 43.", "42", ()),
        ("Open slots: March 3 and March 4. So the earliest is March 4.", "2026-03-03", ()),
        ("The first reading was 40 and the second 42. The answer is 40.", "42", ()),
    ],
)
def test_a_conclusion_stating_another_value_fails(
    answer: str, reference: str, distractors: tuple[str, ...]
) -> None:
    aliases = ["March 3"] if reference == "2026-03-03" else []
    score = score_answer(answer, reference, aliases, distractors)
    assert score.contains and not score.committed and not score.correct, score.explanation


@pytest.mark.parametrize(
    ("answer", "reference"),
    [
        ("Assam has 12, Nilgiri has 9, Darjeeling has 10, so the fewest is Nilgiri with 9.", "9"),
        ("Nilgiri has 9 and Darjeeling 10. The fewest is 9.", "9"),
        ("The refund is $42, so you'll get it within 5 days.", "42"),
        ("The total is 42. So you need 3 boxes.", "42"),
        ("The lowest rate is 3.19%, so experiment B is the one to watch.", "3.19"),
        ("20 + 22 = 42", "42"),
        ("Order O-10001 totals $42.00 for 3 items", "42"),
        ("The rates are: A is 3.5%, B is 3.19% and C is 4.1%.", "3.19"),
        ("The balance was 120 and is now 42.", "42"),
        ("It is 42 or so.", "42"),
        ("According to the tool: 112; 0.797; 0.974.", "0.797"),
    ],
)
def test_answers_that_commit_to_the_reference_or_to_nothing_else_pass(
    answer: str, reference: str
) -> None:
    score = score_answer(answer, reference)
    assert score.committed and score.correct, score.explanation


def test_a_word_answer_commits_only_against_known_distractors() -> None:
    answer = "Nilgiri has 9 visitors; so the quietest is Darjeeling."
    # without the other candidates a word conclusion cannot be told from a remark
    assert score_answer(answer, "Nilgiri").correct
    assert not score_answer(answer, "Nilgiri", distractors=["Darjeeling", "Assam"]).correct
    assert score_answer("so the quietest is Nilgiri", "Nilgiri", distractors=["Darjeeling"]).correct


def test_a_hedge_in_the_conclusion_still_fails() -> None:
    score = score_answer("Nilgiri has 9, so the fewest is 9 or 10.", "9")
    assert score.committed and score.hedged and not score.correct


def test_commitment_reports_the_deciding_conclusion() -> None:
    decided = commitment(NILGIRI, ["9"])
    assert decided is not None and not decided.to_reference
    assert decided.region == "the fewest is 10"
    assert commitment("It is 42.", ["42"]) is not None
    assert commitment("42", ["42"]) is None  # no conclusion: containment decides
    assert commitment("anything", []) is None


def test_exact_and_containment_are_still_reported_apart() -> None:
    score = score_answer(NILGIRI, "9")
    assert (score.exact, score.contains, score.committed) == (False, True, False)
    score = score_answer("9", "9")
    assert (score.exact, score.contains, score.committed, score.correct) == (True,) * 4


@pytest.mark.parametrize(
    ("answer", "reference", "addends"),
    [
        ("6,209 words in total (1,815 + 4,035 + 359)", "6209", ["1815", "4035", "359"]),
        ("Alex will spend 150 minutes in total (60 + 50 + 40).", "150", ["60", "50", "40"]),
        ("In total (1,815 + 4,035 + 359) = 6,209 words.", "6209", ["1815", "4035", "359"]),
        ("6,209 in all (1,815 words + 4,035 words + 359 words)", "6209", ["1815", "4035", "359"]),
    ],
)
def test_a_total_followed_by_its_addends_is_the_total(
    answer: str, reference: str, addends: list[str]
) -> None:
    score = score_answer(answer, reference, [], addends)
    assert score.correct and not score.hedged, score.explanation


@pytest.mark.parametrize(
    "answer",
    [
        "The total is 5,850 words (1,815 + 4,035).",  # a wrong total with its working
        "In total: 1,815 words.",  # an addend stated as the total
        "Either 6,209 or 6,210 words in total (1,815 + 4,035 + 359)",  # a hedge
    ],
)
def test_the_working_in_parentheses_excuses_no_wrong_or_hedged_total(answer: str) -> None:
    assert not score_answer(answer, "6209", [], ["1815", "4035", "359"]).correct
