"""Aliases generated with the answer: each form is accepted by the answer check."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from toolchaos.core.reference import compute_answer
from toolchaos.core.types import AnswerSpec, Reference
from toolchaos.scoring.aliases import answer_aliases, answer_distractors
from toolchaos.scoring.answer import score_answer

TODAY = date(2026, 3, 2)


def reference(spec: AnswerSpec, results: dict[int, Any]) -> Reference:
    """A reference whose answer is computed from ``results`` the way a build computes it."""
    return Reference(steps=[], answer_spec=spec, answer=compute_answer(spec, results))


def aliases_for(
    spec: AnswerSpec, results: dict[int, Any], prompt: str = "What is it?"
) -> tuple[Reference, list[str]]:
    ref = reference(spec, results)
    return ref, answer_aliases(ref, results, prompt, TODAY)


def accepted(answer: str, ref: Reference, aliases: list[str]) -> bool:
    return score_answer(answer, ref.answer, aliases).correct


def test_unit_forms() -> None:
    ref, aliases = aliases_for(AnswerSpec(refs=[[0, "w"]], unit="kg"), {0: {"w": 12.5}})
    assert ref.answer == "12.5 kg"
    assert {"12.5 kilograms", "12.5 kilogram", "12.5 kgs"} <= set(aliases)
    assert accepted("The parcel weighs 12.5 kilograms.", ref, aliases)
    assert not accepted("The parcel weighs 12.5 pounds.", ref, aliases)


def test_a_unit_the_prompt_names_in_brackets() -> None:
    _, aliases = aliases_for(
        AnswerSpec(refs=[[0, "r"]], round=2), {0: {"r": 3.19}}, "Lowest conversion rate (%)?"
    )
    assert {"3.19%", "3.19 percent"} <= set(aliases)


def test_a_score_out_of_ten() -> None:
    spec = AnswerSpec(refs=[[0, "rating"]], round=1)
    results = {0: {"rating": 9.5}}
    ref, aliases = aliases_for(spec, results, "How is the hotel rated, out of 10?")
    assert {"9.5/10", "9.5 out of 10"} <= set(aliases)
    # "9.5/10" is a score, not a hedge between 9.5 and 10
    assert accepted("It is rated 9.5/10 by guests.", ref, aliases)
    assert accepted("Guests give it 9.5 out of 10.", ref, aliases)
    assert not accepted("It is rated 9/10.", ref, aliases)
    assert not accepted("Either 9.5 or 10.", ref, aliases)
    # without "out of 10" in the prompt a slash between numbers stays a hedge
    _, plain = aliases_for(spec, results, "What is the hotel's rating?")
    assert "9.5/10" not in plain and not accepted("It is rated 9.5/10.", ref, plain)


def test_a_negative_change_in_words() -> None:
    ref, aliases = aliases_for(
        AnswerSpec(refs=[[0, "change"]], round=2),
        {0: {"change": -3.88}},
        "By how much did the price change (%)?",
    )
    assert ref.answer == "-3.88"
    for answer in (
        "The price saw a 3.88% drop.",
        "That is a drop of 3.88%.",
        "It is down 3.88% on the week.",
        "It fell by 3.88 percent.",
        "-3.88%",
    ):
        assert accepted(answer, ref, aliases), answer
    for answer in ("It is up 3.88%.", "An increase of 3.88%.", "It changed by 3.88%."):
        assert not accepted(answer, ref, aliases), answer


def test_a_negative_level_is_no_drop() -> None:
    # a temperature of -7.8 is not "a drop of 7.8", and a model that writes "7.8 lower"
    # has not given it
    ref, aliases = aliases_for(
        AnswerSpec(refs=[[0, "low"]], round=1),
        {0: {"low": -7.8}},
        "What is the coldest overnight low forecast?",
    )
    assert "minus 7.8" in aliases
    assert not any(word in a for a in aliases for word in ("drop", "down", "lower", "fell"))
    assert accepted("The coldest low is minus 7.8 degrees.", ref, aliases)
    assert not accepted("Temperatures drop 7.8 degrees overnight.", ref, aliases)


def test_a_positive_change_in_words_only_where_the_prompt_asks_about_a_change() -> None:
    spec = AnswerSpec(refs=[[0, "d"]], round=2)
    ref, aliases = aliases_for(spec, {0: {"d": 4.5}}, "How much did the fare increase?")
    assert "an increase of 4.5" in aliases and "up 4.5" in aliases
    assert accepted("The fare rose by 4.5 dollars.", ref, aliases)
    _, plain = aliases_for(spec, {0: {"d": 4.5}}, "What is the fare?")
    assert not any("increase" in a for a in plain)


def test_dates_with_and_without_the_worlds_year() -> None:
    spec = AnswerSpec(refs=[[0, "day"]])
    ref, aliases = aliases_for(spec, {0: {"day": "2026-03-03"}})
    assert {"March 3", "3 March", "Mar 3", "March 3rd", "3rd of March"} <= set(aliases)
    for answer in (
        "The earliest slot is on March 3.",
        "Tuesday, 3 March.",
        "It's due March 3rd.",
        "2026-03-03",
        "March 3, 2026",
    ):
        assert accepted(answer, ref, aliases), answer
    assert not accepted("It is on March 4.", ref, aliases)
    assert not accepted("March 3 or March 4", ref, aliases)
    # a date of another year keeps its year
    other, kept = aliases_for(spec, {0: {"day": "2024-10-27"}})
    assert not any(a == "October 27" for a in kept)
    assert not accepted("October 27", other, kept)


def test_rounded_forms() -> None:
    spec = AnswerSpec(op="sum", refs=[[0, "a"], [0, "b"]], round=2)
    results = {0: {"a": 1.5, "b": 1.68666}}
    ref, aliases = aliases_for(spec, results)
    assert ref.answer == "3.19"
    assert "3.187" in aliases and "3.1867" in aliases  # more precise than the reference
    assert "3.2" not in aliases and "3" not in aliases  # coarser only where the prompt allows
    assert accepted("About 3.187 in all.", ref, aliases)
    _, whole = aliases_for(spec, results, "Total, to the nearest whole number?")
    assert "3" in whole
    _, tenth = aliases_for(spec, results, "Total, to one decimal place?")
    assert "3.2" in tenth


def test_template_aliases_come_first_and_the_answer_is_never_an_alias() -> None:
    spec = AnswerSpec(refs=[[0, "city"]])
    ref = reference(spec, {0: {"city": "New York City"}})
    ref = ref.model_copy(update={"aliases": ["NYC"]})
    aliases = answer_aliases(ref, {0: {"city": "New York City"}}, "Where?", TODAY)
    assert aliases == ["NYC"]
    _, numbers = aliases_for(AnswerSpec(refs=[[0, "n"]]), {0: {"n": 7}})
    assert "7" not in numbers


@pytest.mark.parametrize(
    ("spec", "results", "expected"),
    [
        (
            AnswerSpec(op="argmin", refs=[[0, "a"], [1, "a"], [2, "a"]], labels=["X", "Y", "Z"]),
            {0: {"a": 9}, 1: {"a": 10}, 2: {"a": 12}},
            ["Y", "Z"],
        ),
        (
            AnswerSpec(op="sum", refs=[[0, "a"], [1, "a"]], round=2),
            {0: {"a": 20.0}, 1: {"a": 22.5}},
            ["20", "22.5"],
        ),
        (AnswerSpec(op="value", refs=[[0, "a"]]), {0: {"a": 5}}, []),
    ],
)
def test_distractors(spec: AnswerSpec, results: dict[int, Any], expected: list[str]) -> None:
    assert answer_distractors(reference(spec, results), results) == expected


def test_distractors_reject_a_conclusion_naming_another_candidate() -> None:
    spec = AnswerSpec(op="argmin", refs=[[0, "a"], [1, "a"]], labels=["Nilgiri", "Darjeeling"])
    results = {0: {"a": 9}, 1: {"a": 10}}
    ref = reference(spec, results)
    wrong = "Nilgiri has 9 and Darjeeling 10, so the quietest is Darjeeling."
    right = "Nilgiri has 9 and Darjeeling 10, so the quietest is Nilgiri."
    distractors = answer_distractors(ref, results)
    assert not score_answer(wrong, ref.answer, [], distractors).correct
    assert score_answer(right, ref.answer, [], distractors).correct
