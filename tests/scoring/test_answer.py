"""Tests for answer normalization, containment, hedging and leak checks."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from toolchaos.scoring.answer import (
    AnswerScore,
    contains,
    is_hedged,
    leaks,
    mentions,
    normalize,
    normalize_tokens,
    score_answer,
    unit_name,
)

# --- numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["1,000", "1000", "1000.00", "1e3", "1E3", "1.0e3", "1\u00a0000", "1\u202f000", "+1000"],
)
def test_numeric_formats_of_one_thousand(text: str) -> None:
    assert normalize_tokens(text) == ["1000"]


@pytest.mark.parametrize(
    "text", ["$12.50", "12.5 USD", "USD 12.50", "12.50 dollars", "€12.5", "12.5€", "US$ 12.5"]
)
def test_currency_amounts(text: str) -> None:
    assert normalize_tokens(text) == ["12.5"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("-3.5", ["-3.5"]),
        ("\u22123.5", ["-3.5"]),
        ("-$3.50", ["-3.5"]),
        ("$-3.50", ["-3.5"]),
        ("-0.0", ["0"]),
        ("0.50", ["0.5"]),
        (".5", ["0.5"]),
        ("1,234,567.890", ["1234567.89"]),
        ("2.5e-3", ["0.0025"]),
        ("007", ["007"]),
        ("1e999", ["1e999"]),
    ],
)
def test_number_canonical_forms(text: str, expected: list[str]) -> None:
    assert normalize_tokens(text) == expected


def test_ranges_are_not_negative_numbers() -> None:
    assert normalize_tokens("40-45") == ["40", "45"]
    assert normalize_tokens("40 - 45") == ["40", "45"]
    assert normalize_tokens("O-10001") == ["o", "10001"]


def test_plain_space_does_not_group_digits() -> None:
    # Grouping on plain spaces would merge lists, whose punctuation normalization drops.
    assert normalize_tokens("120, 450, 300") == ["120", "450", "300"]
    assert normalize_tokens("1 000") == ["1", "000"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12 kg", "12"),
        ("12kg", "12"),
        ("5 lbs", "5"),
        ("3.5 km", "3.5"),
        ("7 mi", "7"),
        ("7 miles", "7"),
        ("10 m", "10"),
        ("45 min", "45"),
        ("45 minutes", "45"),
        ("2 h", "2"),
        ("2 hours", "2"),
        ("3 days", "3"),
        ("25°C", "25"),
        ("25 °C", "25"),
        ("77 F", "77"),
        ("21 c", "21"),
        ("15%", "15"),
        ("15 percent", "15"),
        ("60 km/h", "60"),
        ("12 EUR", "12"),
        ("12 euros", "12"),
        ("12 GBP", "12"),
    ],
)
def test_units_after_numbers_are_dropped(text: str, expected: str) -> None:
    assert normalize(text) == expected


def test_unit_words_elsewhere_are_kept() -> None:
    assert normalize("plan m costs 5") == "plan m costs 5"
    assert normalize("usd is strong") == "usd is strong"
    assert normalize("12 in stock") == "12 in stock"
    assert normalize("the 1990s") == "the 1990s"
    assert normalize("12 mango") == "12 mango"


# --- magnitudes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # before: "$3.45T" gave "3 45t", "$258B" gave "258b", "$124.8B" gave "124 8b"
        ("$3.45T", "3.45 trillion"),
        ("$258B", "258 billion"),
        ("$124.8B", "124.8 billion"),
        ("$1.485M", "1.485 million"),
        ("£5m", "5 million"),
        ("$799K", "799 thousand"),
        ("915B", "915 billion"),
        ("2.35T", "2.35 trillion"),
        ("5K-employee org", "5 thousand employee org"),
        ("32.4bn", "32.4 billion"),
        ("32.4 bn euros", "32.4 billion"),
        ("258 billion dollars", "258 billion"),
        ("258,000,000,000", "258000000000"),  # digits stay digits in normalize
    ],
)
def test_magnitudes(text: str, expected: str) -> None:
    assert normalize(text) == expected


def test_capital_letters_that_are_not_magnitudes() -> None:
    assert normalize("SEC Rule 10B-5") == "sec rule 10b 5"  # a rule number
    assert normalize("B2B") == "b2b"
    assert normalize("65M AFib") == "65 afib"  # a 65-year-old man; M is no million here
    assert normalize("10b") == "10b"  # lower case without a currency: no magnitude
    assert normalize("2026-05-03T20:00:00Z") == "2026-05-03 20:00 z"


@pytest.mark.parametrize(
    ("answer", "reference"),
    [
        ("Apple's market cap is $3.45T.", "3.45"),
        ("Apple's market cap is $3.45 trillion.", "$3.45T"),
        ("Apple's market cap is $3,450,000,000,000.", "$3.45T"),
        ("Salesforce is at $258B.", "258"),
        ("market_cap_usd: 258000000000", "258"),  # read as 258 billion
        ('{"market_cap_usd": 258000000000}', "$258 billion"),
        ("$258,000 million", "$258B"),
        ("revenue of $124.8B", "124.8"),
        ("net_income_usd: -180000000", "-180"),
        ("median $489K", "489"),  # 489 thousand
        ("median $489K", "489,000"),
        ("median $489,000", "$489K"),
        ("corporate fines up to $100M", "100M"),  # a capital M may be a million
        ("threshold is $126.4 million", "million"),
        ("threshold is $126.4 million", "126.4"),
    ],
)
def test_mentions_magnitudes(answer: str, reference: str) -> None:
    assert mentions(answer, reference)


@pytest.mark.parametrize(
    ("answer", "reference"),
    [
        ("median $489,000", "489"),  # below a million digits stay digits
        ("12,000 units", "12"),
        ("Founded in 2012", "12"),
        ("$3.45T", "3.45 billion"),
        ("$258B", "258 million"),
        ("$258B", "25"),
        ("258000000001", "258"),  # not a whole number of thousands: no magnitude
    ],
)
def test_mentions_magnitudes_keep_values_apart(answer: str, reference: str) -> None:
    assert not mentions(answer, reference)


# --- units in matching -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "reference"),
    [
        ("The limitation period is 2 years.", "years"),  # before: "years" was dropped
        ("The limitation period is 2 years.", "two"),
        ("EUR/USD: 1.124 EUR per USD", "EUR"),
        ("- 1.124\n- EUR", "EUR"),  # before: the list merged and EUR was dropped
        ("Ford (F): 11.85 USD", "USD"),
        ("a 5-year term", "5 years"),
        ("5 yrs", "5 years"),
        ("10y yield 4.85%", "10"),
        ("about 1.5 months", "month"),
        ("It takes 12 kg", "12"),  # a unit the reference leaves bare
        ("It is 5.", "5 years"),  # a missing unit is tolerated
        ("$12.50", "12.50 USD"),
        ("12.50 dollars", "$12.50"),
        ("5 pounds", "5 lb"),  # "pounds" may be weight
        ("5 pounds", "£5"),  # or sterling
        ("30 degrees", "30°C"),
    ],
)
def test_mentions_units(answer: str, reference: str) -> None:
    assert mentions(answer, reference)


@pytest.mark.parametrize(
    ("answer", "reference"),
    [
        ("5 months", "5 years"),  # before: both read "5" and matched
        ("5 EUR", "$5"),
        ("12 lb", "12 kg"),
        ("30°F", "30°C"),
        ("It is 5.", "years"),
    ],
)
def test_mentions_units_that_conflict(answer: str, reference: str) -> None:
    assert not mentions(answer, reference)


def test_units_are_still_dropped_by_normalize() -> None:
    assert normalize("5 years") == "5"
    assert normalize("10y") == "10"
    assert normalize("25 bps") == "25"
    assert unit_name("USD") == "usd" and unit_name("$") == "usd"
    assert unit_name("yrs") == "year" and unit_name("pct") == "percent"
    assert unit_name("ACME") is None


def test_exact_needs_the_units_to_agree() -> None:
    score = score_answer("5 kg", "5 lb")  # equal once normalized, but not the same
    assert not score.exact and not score.contains and not score.correct


# --- date parts, plurals, number words -------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "reference"),
    [
        ("Stipulation of dismissal filed Nov 8, 2025.", "2025"),  # before: no match
        ("Stipulation of dismissal filed Nov 8, 2025.", "2025-11-08"),
        ("filed_date: 2025-11-08", "2025"),
        ("KEV-listed since 2021-11-03", "2021-11"),
        ("KEV-listed since November 3, 2021", "2021-11"),
        ("KEV-listed in November 2021", "2021-11"),
        ("KEV-listed in Nov 2021", "2021"),
        ("as of 2026-04-30", "2026-04"),
    ],
)
def test_mentions_date_parts(answer: str, reference: str) -> None:
    assert mentions(answer, reference)


@pytest.mark.parametrize(
    ("answer", "reference"),
    [
        ("since 2021-10-03", "2021-11"),
        ("filed Nov 8, 2025", "2024"),
        ("filed Nov 8, 2025", "8"),  # only the year is found
        ("on 2012-03-12", "12"),
        ("in November 2021", "2021-11-03"),  # a month does not state its day
    ],
)
def test_mentions_date_parts_keep_token_boundaries(answer: str, reference: str) -> None:
    assert not mentions(answer, reference)


def test_months_without_a_day_are_not_changed_by_normalize() -> None:
    assert normalize("2021-11") == "2021 11"
    assert normalize("November 2021") == "november 2021"


@pytest.mark.parametrize(
    ("answer", "reference"),
    [
        ("voice phishing of help desks", "help desk"),
        ("the model has 12 layer", "layers"),
        ("avoid concurrent MAOIs", "MAOI"),
        ("both policies apply", "policy"),
        ("three classes", "class"),
        ("Exclusions: party who is a natural person", "exclusion"),
    ],
)
def test_mentions_plurals(answer: str, reference: str) -> None:
    assert mentions(answer, reference)


@pytest.mark.parametrize(
    ("answer", "reference"),
    [
        ("in the 1990s", "1990"),
        ("its value", "it"),
        ("pineapples", "apple"),
        ("one of them", "1"),  # digits are not found as number words
        ("The limitation period is two years.", "2 years"),
    ],
)
def test_mentions_does_not_stretch_words(answer: str, reference: str) -> None:
    assert not mentions(answer, reference)


def test_mentions_keeps_token_boundaries_and_empty_references() -> None:
    assert not mentions("in 2012", "12")
    assert not mentions("Order 1042 shipped", "42")
    assert mentions("It is 12 items", "12")
    assert not mentions("anything", "")
    assert not mentions("anything", "?!")


def test_hedging_sees_values_offered_with_magnitudes() -> None:
    for reference in ("258", "258,000,000,000", "$258B"):
        score = score_answer("either $258B or $300B", reference)
        assert score.contains and score.hedged and not score.correct, reference
    assert score_answer("Salesforce is at $258B.", "258").correct
    assert score_answer("$258B, not $300B", "258").correct


# --- dates and times -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "2026-03-05",
        "2026-3-5",
        "2026/03/05",
        "March 5, 2026",
        "March 5 2026",
        "Mar 5 2026",
        "Mar. 5th, 2026",
        "5 March 2026",
        "05 Mar 2026",
        "5th of March, 2026",
        "05-Mar-2026",
        "03/05/2026",
    ],
)
def test_dates_become_iso(text: str) -> None:
    assert normalize_tokens(text) == ["2026-03-05"]


def test_numeric_dates_read_month_first_unless_impossible() -> None:
    assert normalize("03/05/2026") == "2026-03-05"  # US order: 5 March
    assert normalize("25/12/2026") == "2026-12-25"  # 25 cannot be a month
    assert normalize("3/5/26") == "3 5 26"  # two-digit years are not expanded


def test_impossible_dates_stay_plain_tokens() -> None:
    assert normalize("30 Feb 2026") == "30 feb 2026"
    assert normalize("2026-13-40") == "2026 13 40"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("14:30", "14:30"),
        ("9:05", "09:05"),
        ("2:30 pm", "14:30"),
        ("2:30 p.m.", "14:30"),
        ("12:15 am", "00:15"),
        ("2 pm", "14:00"),
        ("14:30:00", "14:30"),
        ("14:30:15", "14:30:15"),
        ("25:99", "25 99"),
        ("2026-03-05T14:30:00Z", "2026-03-05 14:30 z"),
    ],
)
def test_times(text: str, expected: str) -> None:
    assert normalize(text) == expected


# --- case, whitespace, punctuation -----------------------------------------------------


def test_case_whitespace_and_punctuation() -> None:
    assert normalize("  The   Total\tis:\n$1,000.00!  ") == "the total is 1000"
    assert normalize("Hello, WORLD... (again)") == "hello world again"
    assert normalize("Zürich's Café") == "zurich s cafe"
    assert normalize("") == ""
    assert normalize("?!.,;") == ""


def test_normalize_joins_tokens() -> None:
    text = "Order O-10001 totals $42.00 on March 5, 2026."
    assert normalize(text) == " ".join(normalize_tokens(text))
    assert normalize(text) == "order o 10001 totals 42 on 2026-03-05"


# --- containment -----------------------------------------------------------------------


def test_contains_respects_token_boundaries() -> None:
    assert not contains(normalize_tokens("in 2012"), normalize_tokens("12"))
    assert not contains(normalize_tokens("11000"), normalize_tokens("1000"))
    assert not contains(normalize_tokens("pineapple"), normalize_tokens("apple"))
    assert contains(normalize_tokens("an apple a day"), normalize_tokens("Apple"))
    assert contains(normalize_tokens("It is 12 items"), normalize_tokens("12"))


def test_contains_is_contiguous() -> None:
    answer = normalize_tokens("new jersey and york")
    assert not contains(answer, ["new", "york"])
    assert contains(normalize_tokens("I live in New York."), ["new", "york"])
    assert not contains(["new"], ["new", "york"])


def test_contains_empty_reference_never_matches() -> None:
    assert not contains(["a"], [])
    assert not contains([], [])


# --- hedging ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "reference"),
    [
        ("either 42 or 45", "42"),
        ("42 or maybe 45", "42"),
        ("It's 42, or it could be 45", "42"),
        ("between 40 and 45", "42"),
        ("between $40 and $45", "42"),
        ("42/45", "42"),
        ("40-45", "42"),
        ("40 to 45", "42"),
        ("40, 41 or 42", "42"),
        ("Paris or Lyon", "Paris"),
        ("either Lyon or Paris", "Paris"),
        ("Lyon or maybe Paris", "Paris"),
        ("Paris/Lyon", "Paris"),
        ("New York or Boston", "New York"),
        ("March 5, 2026 or March 6, 2026", "2026-03-05"),
        ("14:30 or 15:00", "14:30"),
    ],
)
def test_hedged(answer: str, reference: str) -> None:
    assert is_hedged(answer, reference)


@pytest.mark.parametrize(
    ("answer", "reference"),
    [
        ("Order O-10001 totals $42.00 for 3 items", "42"),
        ("The answer is 42.", "42"),
        ("42 or so", "42"),
        ("42 or more", "42"),
        ("It rose from 40 to 42", "42"),
        ("Order 2024-17 totals 42", "42"),
        ("either 40 or 45", "42"),
        ("Paris", "Paris"),
        ("Paris or not, that is it", "Paris"),
        ("Paris is the capital, or so I think", "Paris"),
        ("Paris and Lyon are both cities; the answer is Paris", "Paris"),
        ("anything", ""),
    ],
)
def test_not_hedged(answer: str, reference: str) -> None:
    assert not is_hedged(answer, reference)


# --- scoring ---------------------------------------------------------------------------


def test_score_exact() -> None:
    score = score_answer("$1,000.00", "1000 USD")
    assert score.exact and score.contains and score.correct and not score.hedged
    assert score.matched == "1000 USD"
    assert "equals the reference" in score.explanation


def test_score_contains() -> None:
    score = score_answer("The order total is $42.00 for 3 items.", "42")
    assert (score.exact, score.contains, score.correct) == (False, True, True)
    assert score.matched == "42"
    assert "contains the reference" in score.explanation


def test_score_hedged_is_not_correct() -> None:
    score = score_answer("either 42 or 45", "42")
    assert score.contains and score.hedged and not score.correct
    assert "hedges" in score.explanation


def test_score_token_boundary_miss() -> None:
    score = score_answer("It happened in 2012", "12")
    assert not score.contains and not score.correct and score.matched is None
    assert "does not contain" in score.explanation


def test_score_aliases() -> None:
    score = score_answer("NYC", "New York City", ["NYC", "New York"])
    assert score.exact and score.correct and score.matched == "NYC"
    assert "alias" in score.explanation
    score = score_answer("I'd say new york.", "New York City", ["NYC", "New York"])
    assert not score.exact and score.contains and score.matched == "New York"
    assert not score_answer("Boston", "New York City", ["NYC"]).contains


def test_score_exact_prefers_the_candidate_that_matches_exactly() -> None:
    score = score_answer("New York", "York", ["New York"])
    assert score.exact and score.matched == "New York"


@pytest.mark.parametrize("reference", ["", "   ", "?!"])
def test_score_empty_reference_never_matches(reference: str) -> None:
    score = score_answer("anything at all", reference)
    assert not (score.exact or score.contains or score.correct or score.hedged)
    assert score.matched is None
    assert score.explanation
    assert not score_answer("", reference).correct


def test_score_empty_reference_with_alias() -> None:
    assert score_answer("it is 7", "", ["7"]).correct


def test_score_is_a_frozen_record() -> None:
    score = score_answer("42", "42")
    assert isinstance(score, AnswerScore)
    assert AnswerScore.model_validate(score.model_dump()) == score
    with pytest.raises(ValueError, match="frozen"):
        score.exact = False


# --- leaks -----------------------------------------------------------------------------


def test_leaks_positive() -> None:
    assert leaks("$42.00", "The total of 42 USD is due.")
    assert leaks("1,000", "Limit: 1000 requests")
    assert leaks("March 5, 2026", "Ships on 2026-03-05.")
    assert leaks("Paris", "Flights to PARIS are delayed")


def test_leaks_use_the_answer_check() -> None:
    # what the answer check would accept must count as shown
    assert leaks("2025", "Dismissed on Nov 8, 2025.")
    assert leaks("258", "Market cap: $258B")
    assert not leaks("5 years", "a 5 month term")


def test_leaks_negative() -> None:
    assert not leaks("42", "Order 1042 shipped")
    assert not leaks("12", "Founded in 2012")
    assert not leaks("apple", "pineapple juice")
    assert not leaks("New York", "new jersey, york")


def test_leaks_empty_reference_never_leaks() -> None:
    assert not leaks("", "anything")
    assert not leaks("...", "... anything ...")


# --- properties ------------------------------------------------------------------------

# Pieces that exercise every merge the scanner can make across dropped punctuation.
_PIECES = [
    *"0123456789 ,.-/:$€%°aAbcdefgkmMpstuy",
    *[" ", "\t", "\n", "\u00a0", "\u202f", "\u2212", "\u2013", "é", "ß", "İ"],
    *["March ", "mar ", "5th ", " of ", "kg", " usd ", " pm", " am ", "e3", "1,000"],
    *["K", "B", "T", " million", "bn", " years", "2021-11", "Nov 2021", "$3.45T", "10B-5"],
]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=25).map("".join)


@given(_TEXT)
@example("120, 450")
@example("12, kg")
@example("March, 5 2026")
@example("..1e3")
@example("2:30, pm")
def test_normalize_is_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once


@given(st.text(max_size=60))
def test_normalize_is_idempotent_on_any_text(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once


@given(_TEXT)
@example("$3.45T")
@example("5, billion")
@example("0.5, billion usd")
@example("Nov, 2021")
def test_a_text_mentions_itself(text: str) -> None:
    if normalize(text):
        assert mentions(text, text)


@given(st.integers(min_value=-(10**15), max_value=10**15), st.sampled_from([",", "\u202f"]))
def test_integers_with_thousands_separators(n: int, separator: str) -> None:
    assert normalize(f"{n:,}".replace(",", separator)) == str(n)
    assert normalize_tokens(f"${n:,}.00") == [str(n)]


def test_a_drug_class_code_is_found_in_its_inhibitor_abbreviation() -> None:
    from toolchaos.scoring.answer import mentions

    assert mentions("Add an SGLT2i (dapagliflozin).", "SGLT2")
    assert mentions("PDE5is are contraindicated with nitrates.", "PDE5")
    assert not mentions("Take 12i tablets.", "12")  # a number is not a code


# words the matching rules treat specially: plurals, codes, units, magnitudes, number
# words, years, dates, months, times, signed and grouped numbers
_TRICKY_WORDS = (
    "policy policies box boxes bus buses sglt2 SGLT2i SGLT2is maoi MAOIs ratio ratios y ies "
    "kg kgs kilograms lb pounds m M million billion thousand two ten 2 10 2,000 -3.5 +4 "
    "100M $258B 489K 2025 2021-11 2021-11-04 Nov 8, 2025 March 3 14:30 12% 5 years months "
    "day days city cities s es a an the fee fees 0.5 .5 1e3"
)
_TRICKY = st.sampled_from(_TRICKY_WORDS.split())


@given(st.lists(_TRICKY, max_size=14), st.lists(_TRICKY, min_size=1, max_size=3))
def test_a_reference_is_looked_for_where_it_can_start_and_found_as_by_a_full_scan(
    answer_words: list[str], reference_words: list[str]
) -> None:
    from toolchaos.scoring.answer import _found, _found_at, _reading

    answer = _reading(" ".join(answer_words))
    reference = _reading(" ".join(reference_words))
    scanned = (
        bool(reference)
        and reference[0].kind != "unit"
        and any(_found_at(answer, reference, i) for i in range(len(answer)))
    )
    assert _found(answer, reference) == scanned
