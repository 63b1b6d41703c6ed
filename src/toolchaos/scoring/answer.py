"""Answer normalization and matching for both suites' answer checks.

An answer and its reference are compared as token sequences after normalization, so that
surface differences a grader would not care about ("$1,000.00" vs "1000 USD", "March 5,
2026" vs "2026-03-05") do not decide a score, while token boundaries still do ("12" is
not found inside "2012").

Normalization rules (``normalize_tokens``):

* Text is NFKD-folded (accents dropped, full-width digits and no-break spaces made
  ASCII) and casefolded. Punctuation separates tokens and is dropped; apostrophes too, so
  "Paris's" gives ``paris s``. The joined tokens are rescanned until stable, so pieces
  that punctuation kept apart may join ("12, kg" -> ``12``) and ``normalize`` is
  idempotent.
* Numbers become one canonical token: thousands separators are removed, trailing
  fractional zeros and the point are dropped, scientific notation is expanded ("1,000",
  "1000.00", "1e3" -> ``1000``; "$12.50" -> ``12.5``; exponents beyond 40 are kept as
  written). Separators are commas, or thin, narrow no-break or no-break spaces, before
  groups of exactly three digits. A plain space does not group digits: "1 000" stays
  ``1 000``, because once punctuation is dropped the list "120, 450" reads "120 450",
  and grouping that would merge list items and make ``normalize`` not idempotent. A
  minus sign glued to the digits (or to a currency prefix) and not glued to a preceding
  word keeps the number negative ("-3.5"); "40-45" and "40 - 45" are ranges, not
  negatives. An integer written with a leading zero
  ("007", "02139") is kept verbatim: leading zeros mark codes, not quantities. A decimal
  comma ("12,50") is not recognised: it would be ambiguous with thousands separators.
* A magnitude after a number is kept as a word after it: the words thousand, million,
  billion, trillion and the abbreviations bn, mn, tn ("5bn", "5 bn"); a K, B or T glued
  to a number in capitals ("915B", "2.35T", "5K"; not "10B-5", a rule number); and k, m,
  b or t glued to a currency amount in any case ("$3.45T", "$258b", "£5m"): "$3.45T" ->
  ``3.45 trillion``. A capital M glued to a bare number is not read as a million ("65M"
  is a 65-year-old man in a clinical note), and "m" stays metres there.
* Currency symbols and codes ($, €, £, ¥, usd, eur, gbp, ...) are dropped when directly
  before a number; currency words and units (usd, dollars, euros, %, percent, bps, kg, g,
  lb, km, mi, m, min, h, hours, days, y, years, °c, c, f, ...; see ``_UNITS``) are
  dropped when directly after one (or after its magnitude), with or without a space.
  Elsewhere they are ordinary words, so "m" in "plan m" stays. "in" and "s" are never
  units: "12 in stock" and "1990s" keep them.
* Dates become ISO ``YYYY-MM-DD``: "2026-03-05", "2026/03/05", "March 5, 2026",
  "Mar. 5th 2026", "5 March 2026", "05-Mar-2026". Numeric dates with the year last are
  read month/day/year (US order, "03/05/2026" is 5 March) unless the first field cannot
  be a month (> 12), in which case it is read day/month. Two-digit years are not
  expanded. Impossible dates (30 February) are tokenized as ordinary numbers and words.
* Times become ``HH:MM`` (``HH:MM:SS`` when the seconds are not zero), 24-hour:
  "14:30", "9:05" -> ``09:05``, "2:30 pm" -> ``14:30``, "2 pm" -> ``14:00``.

Matching rules (``mentions``, and the containment of ``score_answer`` and ``leaks``): the
reference must occur in the answer as a contiguous run of tokens of the answer's
*reading*, the normalized tokens with these differences (the reading is never shown;
``normalize`` stays as above):

* Units are kept, under one name per unit ("yrs", "years", "-year" -> ``year``; "$",
  "USD", "dollars" -> ``usd``; "%", "pct" -> ``percent``). A unit the answer states
  after a number the reference leaves bare is skipped ("12" is found in "12 kg"). A unit
  the reference states must not conflict with the answer's: "5 years" is not found in
  "5 months" or "$5" in "5 EUR", but it is found in a bare "5", whose unit the question
  usually implies. A unit word on its own is found where the answer uses it after a
  number: "years" in "2 years", "EUR" in "1.124 EUR".
* Numbers are compared by value, magnitudes included ("$258B", "258 billion",
  "258,000,000,000" and "$258,000 million" are equal; "489K" equals "489,000"). A
  number of a million or more written in full digits as a whole number of thousands is
  read with its magnitude, as people say it, so that a reference's mantissa is found in
  it as in the spelled-out form: "258" is found in "258,000,000,000" as in "$258
  billion", and "-180" in "-180000000". Below a million, digits stay digits: "489" is
  found in "$489K" (489 thousand) but not in "$489,000", and "12" is not found in
  "12,000" or "2012".
* Dates keep their parts findable: a year is found in a date or month of that year
  ("2025" in "Nov 8, 2025"), and a month ``YYYY-MM`` ("2021-11", "November 2021") in a
  date of that month.
* A word is found in its plural or singular: "layer" and "layers", "MAOI" and "MAOIs",
  "policy" and "policies", "class" and "classes" (the shorter form has at least three
  characters, one of them a letter, so "1990" is not found in "1990s"; a plain "s" is
  not added to a word ending in "s"). This is a spelling rule, not a dictionary: "new"
  is found in "news". A code of letters then digits is found with the "i" that names its
  inhibitors ("SGLT2" in "SGLT2i", "PDE5" in "PDE5is").
* A reference number word from zero to twenty is found as digits ("two" in "2 years");
  not the other way round, since "one" is too common a word to stand for "1".

Hedging rules (``is_hedged``): for a reference that is a single number, date or time,
the answer is hedged when it offers alternatives of that kind: ``X or Y`` (fillers like
"maybe" may sit between, and a list "X, Y or Z" counts), ``X/Y``, or a range
``between X and Y``, ``X-Y`` or ``X to Y`` (the last two only when written low to high,
and "to" not after "from", which usually narrates a change). A hedge counts only if one
of its alternatives is the reference or its range encloses it: alternatives that miss
the reference earn no credit anyway, and flagging them would mostly catch ids such as
"2024-17". A slash between numbers reads as alternatives, so a ratio "4/5" hedges a
reference of 4. Numbers offered with a magnitude count as values: "$258B or $300B"
hedges a reference of 258 and of 258,000,000,000. For any other reference, the answer
is hedged when the reference is joined by "or" (or "/") to another word, as in "Paris or
Lyon"; "or so", "or more", "or not" and similar do not count.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import date
from decimal import Context, Decimal, InvalidOperation
from functools import lru_cache
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

__all__ = [
    "AnswerScore",
    "commitment",
    "contains",
    "is_hedged",
    "leaks",
    "mentions",
    "normalize",
    "normalize_tokens",
    "score_answer",
    "unit_name",
    "unit_spellings",
]

# Month spellings as a prefix tree, so the scanner rejects a non-month word after one
# character instead of trying two dozen alternatives at every word.
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![^\W_])\.?"
)
_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_ORDINAL = r"(?:st|nd|rd|th)?"

_CURRENCY_SYMBOLS = "$€£¥₹₩₽"
_CURRENCY_CODES = "usd|eur|gbp|jpy|cad|aud|chf|cny|inr"
_CURRENCY_PREFIX = rf"(?:us\$|[{_CURRENCY_SYMBOLS}]|(?:{_CURRENCY_CODES})(?![^\W_]))"
# Units and currency words dropped right after a number. Alternation order does not
# matter for correctness (a unit must end at a word boundary), but the longer spellings
# go first so the common case matches without backtracking.
_UNITS = (
    rf"(?:{_CURRENCY_CODES}|krw|rub|us\$|[{_CURRENCY_SYMBOLS}]"
    r"|dollars?|euros?|pounds?|yen|rupees?"
    r"|%|percent|per\ cent|pct|bps|bp"
    r"|kilograms?|kgs?|grams?|g|mg|lbs?|ounces?|oz|tonnes?"
    r"|kilomet(?:er|re)s?|km/h|kmh|kph|kms?|met(?:er|re)s?|m/s|mps|mph|miles?|mi|cm|mm|m"
    r"|feet|foot|ft|yards?|yd|inch(?:es)?"
    r"|minutes?|mins?|hours?|hrs?|h|seconds?|secs?|ms|days?|weeks?|wks?|months?|mo"
    r"|years?|yrs?|y"
    r"|°\ ?[cf]|°|degrees?|deg|celsius|fahrenheit|c|f"
    r"|lit(?:er|re)s?|l|ml|gallons?|gal|kb|mb|gb|tb)"
)
# Magnitude words after a number, and the letters glued to a currency amount.
_MAGNITUDE_WORDS = r"(?:thousand|million|billion|trillion|bn|mn|tn)"
_MAGNITUDE_LETTERS = r"(?:k|m|b|t|bn|mn|tn)"
_MAGNITUDE_EXPONENTS = {
    "thousand": 3, "million": 6, "billion": 9, "trillion": 12,
    "k": 3, "m": 6, "b": 9, "t": 12, "bn": 9, "mn": 6, "tn": 12,
}  # fmt: skip
_MAGNITUDE_NAMES = {3: "thousand", 6: "million", 9: "billion", 12: "trillion"}
_MAGNITUDE_POWERS = {name: power for power, name in _MAGNITUDE_NAMES.items()}
_MILLION_POWER = 6
# A capital K, B or T glued to a number ("915B", "2.35T", "5K-employee") is a magnitude;
# it is rewritten as a word before casefolding loses the capital. Not after a letter or a
# point ("B2B", "v1.5B"), and not before "-5" or "/5" ("Rule 10B-5").
_CAPITAL_MAGNITUDE = re.compile(r"(?<![\w.,])([0-9]+(?:[.,][0-9]+)*)([KBT])(?![^\W_])(?![-/][0-9])")
_CAPITAL_NAMES = {"K": "thousand", "B": "billion", "T": "trillion"}

# The scanner. Alternatives are tried left to right at each position, so dates and times
# win over the numbers they are made of, and numbers win over words. A word is consumed
# whole, which is why no alternative can start inside a word.
#
# Speed: the leading lookahead rejects whitespace and punctuation in one test, and a word
# made of letters that cannot begin a date or a currency amount takes the first branch
# without trying the others; together they make the scan about three times faster.
_SCAN_START = rf"(?=[^\W_]|[-\u2212\u2013/.{_CURRENCY_SYMBOLS}])"
_PLAIN_WORD = (
    r"(?P<word>(?!jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|us\$|"
    + _CURRENCY_CODES
    + r")[^\W\d_][^\W_]*)|"
)
_DAY_DATES = rf"""
  (?P<iso>(?<![0-9])(?P<iso_y>[0-9]{{4}})(?P<iso_sep>[-/.])(?P<iso_m>[0-9]{{1,2}})
      (?P=iso_sep)(?P<iso_d>[0-9]{{1,2}})(?![0-9])(?:t(?=[0-9]{{1,2}}:))?)
| (?P<num_dmy>(?<![0-9.])(?P<nd_a>[0-9]{{1,2}})(?P<nd_sep>[-/.])(?P<nd_b>[0-9]{{1,2}})
      (?P=nd_sep)(?P<nd_y>[0-9]{{4}})(?![0-9]))
| (?P<mdy>(?P<md_m>{_MONTH})\s*-?\s*(?P<md_d>[0-9]{{1,2}}){_ORDINAL},?(?:\s+|-)
      (?P<md_y>[0-9]{{4}})(?![0-9]))
| (?P<dmy>(?<![0-9])(?P<dm_d>[0-9]{{1,2}}){_ORDINAL}(?:\s+of)?(?:\s+|-)(?P<dm_m>{_MONTH}),?
      (?:\s+|-)(?P<dm_y>[0-9]{{4}})(?![0-9]))
|"""
# Months without a day, only in the reading: "2021-11", "November 2021" -> 2021-11.
_MONTH_DATES = rf"""
  (?P<iso_ym>(?<![^\W_])(?P<ym_y>[0-9]{{4}})-(?P<ym_m>[0-9]{{1,2}})(?![^\W_]|[-/.][0-9]))
| (?P<month_year>(?P<my_m>{_MONTH}),?\s+(?P<my_y>[0-9]{{4}})(?![^\W_]|[:.,][0-9]))
|"""
_TIMES = r"""
  (?P<time>(?<![0-9.:])(?P<t_h>[0-9]{1,2}):(?P<t_m>[0-9]{2})(?::(?P<t_s>[0-9]{2}))?
      (?![0-9:])(?:\s*(?P<t_ap>[ap])\.?m(?![^\W_])\.?)?)
| (?P<time12>(?<![0-9.])(?P<t12_h>[0-9]{1,2})\s*(?P<t12_ap>[ap])\.?m(?![^\W_])\.?)
|"""
_PLAIN_ALTERNATIVES = rf"""
  (?P<num>(?<![^\W_])(?<!\.)(?P<sign>[-\u2212])?(?:(?P<cur>{_CURRENCY_PREFIX})\s*)?
      (?P<sign2>[-\u2212])?
      (?P<mant>(?P<grouped>[0-9]{{1,3}}(?:,[0-9]{{3}})+)(?:\.[0-9]+)?
             |[0-9]+(?:\.[0-9]+)?
             |\.[0-9]+)
      (?P<exp>e[-+]?[0-9]+)?
      (?![0-9]|\.[0-9])
      (?:(?(cur)(?P<mag_glued>{_MAGNITUDE_LETTERS})|(?P<mag_abbr>bn|mn|tn))(?![^\W_])
        |[ \t]*(?P<mag_word>{_MAGNITUDE_WORDS})(?![^\W_]))?
      (?:[ \t]*(?P<unit>{_UNITS})(?![^\W_]))?
      (?![^\W_]))
| (?P<other_word>[^\W_]+)  # starts with a digit, or like a month or a currency code
| (?P<alt>/)
| (?P<range>[-\u2013])  # hyphen or en dash
"""
_SCAN = re.compile(
    f"{_SCAN_START}(?:{_PLAIN_WORD}{_DAY_DATES}{_TIMES}{_PLAIN_ALTERNATIVES})", re.VERBOSE
)
# Used to re-read an impossible date or time ("30 Feb 2026", "25:99") as plain tokens.
_SCAN_PLAIN = re.compile(f"{_SCAN_START}(?:{_PLAIN_WORD}{_PLAIN_ALTERNATIVES})", re.VERBOSE)
# The reading's scanner also knows months without a day.
_READ_SCAN = re.compile(
    f"{_SCAN_START}(?:{_PLAIN_WORD}{_DAY_DATES}{_MONTH_DATES}{_TIMES}{_PLAIN_ALTERNATIVES})",
    re.VERBOSE,
)

# Thin, narrow no-break and no-break spaces are typographic thousands separators (SI, most
# European locales); a plain space is not one, see the module docstring.
_TYPOGRAPHIC_GROUP = re.compile(r"(?<=[0-9])[\u00a0\u2009\u202f](?=[0-9]{3}(?![0-9]))")
# Where a rescan of space-joined tokens could differ from the tokens: the scanner matches
# across a space only in these ways (see _SCAN), and a token that starts with digits but
# holds letters ("1e3" after a dot) may read differently once it stands alone. Every
# branch starts at a token start, which the leading lookbehind finds in one step.
_MERGE_SITE = re.compile(
    rf"""
    (?<![^\ ])
    (?: [-0-9][^\ ]*\ (?:{_UNITS}|{_MAGNITUDE_WORDS}|[ap]m|of\ {_MONTH}|{_MONTH})(?![^\W_])
      | (?:{_CURRENCY_CODES}|{_MONTH})\ (?:-\ )?-?[0-9]
      | [0-9]+[^\W\d_]
    )
    """,
    re.VERBOSE,
)
_BLANKS = re.compile(r"[ \t]+")

# Markers kept in the internal token stream for hedge detection and dropped by
# normalize_tokens; no real token can be a lone "/" or "-".
_ALT = "/"
_RANGE = "-"
_MARKS = frozenset({_ALT, _RANGE})

_NUMBER_TOKEN = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_DATE_TOKEN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_MONTH_TOKEN = re.compile(r"[0-9]{4}-[0-9]{2}")
_YEAR_TOKEN = re.compile(r"[0-9]{4}")
_TIME_TOKEN = re.compile(r"[0-9]{2}:[0-9]{2}(?::[0-9]{2})?")
_CODE_TOKEN = re.compile(r"-?0[0-9]")

# Exponents beyond this are left as written rather than expanded into huge digit strings.
_MAX_EXPONENT = 40
_DECIMAL = Context(prec=200)
_THOUSAND = Decimal(10) ** 3
_MILLION = Decimal(10) ** 6
_BILLION = Decimal(10) ** 9
_TRILLION = Decimal(10) ** 12
# Numbers longer than this are not read for their value (ids, not quantities).
_MAX_READ_DIGITS = 60

# One name per unit in the reading; every name is itself a spelling in _UNITS, so a
# rescan of the reading gives it back.
_UNIT_SPELLINGS = {
    "usd": ("usd", "us$", "$", "dollar", "dollars"),
    "eur": ("eur", "€", "euro", "euros"),
    "gbp": ("gbp", "£"),
    "jpy": ("jpy", "¥", "yen"),
    "inr": ("inr", "₹", "rupee", "rupees"),
    "krw": ("krw", "₩"),
    "rub": ("rub", "₽"),
    "cad": ("cad",),
    "aud": ("aud",),
    "chf": ("chf",),
    "cny": ("cny",),
    "pound": ("pound", "pounds"),
    "percent": ("percent", "per cent", "%", "pct"),
    "bp": ("bp", "bps"),
    "kg": ("kg", "kgs", "kilogram", "kilograms"),
    "g": ("g", "gram", "grams"),
    "mg": ("mg",),
    "lb": ("lb", "lbs"),
    "oz": ("oz", "ounce", "ounces"),
    "tonne": ("tonne", "tonnes"),
    "km": ("km", "kms", "kilometer", "kilometers", "kilometre", "kilometres"),
    "kmh": ("kmh", "km/h", "kph"),
    "m": ("m", "meter", "meters", "metre", "metres"),
    "mps": ("mps", "m/s"),
    "mph": ("mph",),
    "mile": ("mile", "miles", "mi"),
    "cm": ("cm",),
    "mm": ("mm",),
    "ft": ("ft", "feet", "foot"),
    "yd": ("yd", "yard", "yards"),
    "inch": ("inch", "inches"),
    "minute": ("minute", "minutes", "min", "mins"),
    "hour": ("hour", "hours", "hr", "hrs", "h"),
    "second": ("second", "seconds", "sec", "secs"),
    "ms": ("ms",),
    "day": ("day", "days"),
    "week": ("week", "weeks", "wk", "wks"),
    "month": ("month", "months", "mo"),
    "year": ("year", "years", "yr", "yrs", "y"),
    "celsius": ("celsius", "°c", "° c", "c"),
    "fahrenheit": ("fahrenheit", "°f", "° f", "f"),
    "degree": ("degree", "degrees", "deg", "°"),
    "liter": ("liter", "liters", "litre", "litres", "l"),
    "ml": ("ml",),
    "gallon": ("gallon", "gallons", "gal"),
    "kb": ("kb",),
    "mb": ("mb",),
    "gb": ("gb",),
    "tb": ("tb",),
}
_UNIT_NAMES = {
    spelling: name for name, spellings in _UNIT_SPELLINGS.items() for spelling in spellings
}
_UNIT_SET = frozenset(_UNIT_SPELLINGS)
# Units that name no single one of several ("5 pounds" may be weight or sterling; "30
# degrees" may be Celsius or Fahrenheit): they agree with each of them.
_GENERIC_UNITS = {
    "pound": frozenset({"lb", "gbp"}),
    "degree": frozenset({"celsius", "fahrenheit"}),
}
_NUMBER_WORDS = {
    word: str(value)
    for value, word in enumerate(
        [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
            "seventeen", "eighteen", "nineteen", "twenty",
        ]
    )
}  # fmt: skip

# Words that may sit between a value and "or" without breaking an offer of alternatives
# ("42, or maybe 45", "42 or it could be 45").
_FILLERS = frozenset(
    {
        "maybe", "perhaps", "possibly", "probably", "potentially", "likely", "else", "even",
        "alternatively", "otherwise", "it", "its", "s", "is", "was", "could", "might", "may",
        "would", "be", "just", "also", "the", "a", "an", "about", "around", "approximately",
        "roughly", "either",
    }
)  # fmt: skip
# Words after "or" that qualify the reference instead of offering another candidate.
_NOT_ALTERNATIVES = frozenset(
    {
        "so", "more", "less", "fewer", "greater", "higher", "lower", "above", "below", "over",
        "under", "not", "thereabouts", "similar", "similarly", "equivalently", "rather", "and",
        "or", "nothing",
    }
)  # fmt: skip
_CACHE_SIZE = 4096


def _canon_number(sign: str | None, mant: str, grouped: bool, exp: str | None) -> str:
    """Return the canonical token for a matched number (see the module rules)."""
    digits = mant.replace(",", "")
    if exp:
        if abs(int(exp[1:])) > _MAX_EXPONENT:
            text = digits + exp
        else:
            try:
                value = Decimal(digits + exp).normalize(_DECIMAL)
            except InvalidOperation:  # pragma: no cover - the regex only admits valid forms
                text = digits + exp
            else:
                text = format(value, "f")
    elif "." in digits:
        whole, _, frac = digits.partition(".")
        whole = whole.lstrip("0") or "0"
        frac = frac.rstrip("0")
        text = f"{whole}.{frac}" if frac else whole
    elif grouped or digits[0] != "0":
        text = digits.lstrip("0") or "0"
    else:
        text = digits  # a leading zero marks a code ("007"), kept verbatim
    if sign and text.strip("0.") != "":
        return "-" + text
    return text


def _plain_decimal(value: Decimal) -> str:
    """Return ``value`` as a canonical number token (no exponent, no trailing zeros)."""
    text = format(value.normalize(_DECIMAL), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _read_number(token: str, exponent: int) -> list[str]:
    """Return the reading of the number ``token`` times ``10**exponent`` (module rules).

    A value of a million or more is read with its magnitude when it was written with one
    or is a whole number of thousands; a value written with a magnitude below a million
    is read in thousands; anything else keeps its digits.
    """
    if (
        _CODE_TOKEN.match(token)
        or len(token) > _MAX_READ_DIGITS
        or not _NUMBER_TOKEN.fullmatch(token)
    ):
        # a code ("007"), an exponent kept as written or an absurdly long number: no
        # value to read
        return [token, _MAGNITUDE_NAMES[exponent]] if exponent else [token]
    value = Decimal(token).scaleb(exponent, _DECIMAL)
    size = abs(value)
    if size >= _MILLION and (exponent or _DECIMAL.remainder(value, _THOUSAND) == 0):
        power = 12 if size >= _TRILLION else 9 if size >= _BILLION else 6
    elif exponent and size >= _THOUSAND:
        power = 3
    else:
        return [_plain_decimal(value)]
    return [_plain_decimal(value.scaleb(-power, _DECIMAL)), _MAGNITUDE_NAMES[power]]


def _iso(year: str, month: int, day: str) -> str | None:
    """Return ``YYYY-MM-DD`` or None when the date does not exist."""
    try:
        return date(int(year), month, int(day)).isoformat()
    except ValueError:
        return None


def _year_month(year: str, month: int) -> str | None:
    """Return ``YYYY-MM`` or None when the month does not exist."""
    return f"{int(year):04d}-{month:02d}" if 1 <= month <= 12 else None


def _time(hour: str, minute: str, second: str | None, ampm: str | None) -> str | None:
    """Return ``HH:MM[:SS]`` in 24-hour form or None when the time does not exist."""
    h, m, s = int(hour), int(minute), int(second or 0)
    if ampm:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if ampm == "p" else 0)
    if h > 23 or m > 59 or s > 59:
        return None
    return f"{h:02d}:{m:02d}:{s:02d}" if s else f"{h:02d}:{m:02d}"


def _date_token(match: re.Match[str], kind: str) -> str | None:
    """Return the ISO token for a matched date alternative, or None if impossible."""
    if kind == "iso":
        return _iso(match["iso_y"], int(match["iso_m"]), match["iso_d"])
    if kind == "num_dmy":
        first, second = int(match["nd_a"]), int(match["nd_b"])
        # US month/day unless the first field cannot be a month.
        if first > 12 >= second:
            return _iso(match["nd_y"], second, str(first))
        return _iso(match["nd_y"], first, str(second))
    if kind == "mdy":
        return _iso(match["md_y"], _MONTHS[match["md_m"][:3]], match["md_d"])
    if kind == "iso_ym":
        return _year_month(match["ym_y"], int(match["ym_m"]))
    if kind == "month_year":
        return _year_month(match["my_y"], _MONTHS[match["my_m"][:3]])
    return _iso(match["dm_y"], _MONTHS[match["dm_m"][:3]], match["dm_d"])


def _number_tokens(match: re.Match[str], reading: bool) -> list[str]:
    """Return the tokens of a matched number: the value, its magnitude, in a reading its unit."""
    token = _canon_number(
        match["sign"] or match["sign2"], match["mant"], match["grouped"] is not None, match["exp"]
    )
    magnitude = match["mag_glued"] or match["mag_abbr"] or match["mag_word"]
    exponent = _MAGNITUDE_EXPONENTS[magnitude] if magnitude else 0
    if not reading:
        return [token, _MAGNITUDE_NAMES[exponent]] if exponent else [token]
    tokens = _read_number(token, exponent)
    unit = match["unit"] or match["cur"]
    if unit:
        tokens.append(_UNIT_NAMES[unit])
    return tokens


def _scan(text: str, pattern: re.Pattern[str], out: list[str], reading: bool = False) -> bool:
    """Append the canonical tokens (and hedge markers) of folded ``text`` to ``out``.

    With ``reading`` set, ``pattern`` is the reading's scanner and numbers are read as in
    :func:`_read_number`, with their unit.

    Returns:
        Whether rescanning the space-joined tokens is sure to give them back: each token
        is its own source text and only blanks stood before and between them. When it is
        not sure, ``_settle`` rescans.
    """
    settled = True
    end = 0
    for match in pattern.finditer(text):
        start = match.start()
        if settled and (start != 0 or end != 0) and not _BLANKS.fullmatch(text, end, start):
            settled = False
        end = match.end()
        kind = match.lastgroup
        if kind == "word" or kind == "other_word":
            out.append(match[0])
            continue
        if kind == "num":
            tokens = _number_tokens(match, reading)
            if settled and " ".join(tokens) != match[0]:
                settled = False
            out.extend(tokens)
            continue
        if kind == "alt":
            token = _ALT
        elif kind == "range":
            token = _RANGE
        else:
            if kind == "time":
                parsed = _time(match["t_h"], match["t_m"], match["t_s"], match["t_ap"])
            elif kind == "time12":
                parsed = _time(match["t12_h"], "0", None, match["t12_ap"])
            else:
                parsed = _date_token(match, str(kind))
            if parsed is None:
                _scan(match[0], _SCAN_PLAIN, out, reading)
                settled = False
                continue
            token = parsed
        if token != match[0]:
            settled = False
        out.append(token)
    return settled


def _fold(text: str) -> str:
    """Casefold ``text`` and drop accents and compatibility forms.

    Thin, narrow and no-break spaces between digit groups become commas first, because
    NFKD would turn them into plain spaces, which do not group digits; a capital K, B or
    T glued to a number becomes its magnitude word, because casefolding loses the capital.
    """
    if "K" in text or "B" in text or "T" in text:
        text = _CAPITAL_MAGNITUDE.sub(lambda m: f"{m[1]} {_CAPITAL_NAMES[m[2]]}", text)
    if text.isascii():
        return text.casefold()
    text = _TYPOGRAPHIC_GROUP.sub(",", text)
    # Casefolding can produce decomposable characters and NFKD can produce capitals, so
    # repeat until stable; normalize() is idempotent only if folding is.
    for _ in range(4):
        folded = "".join(
            c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
        ).casefold()
        if folded == text:
            break
        text = folded
    return text


def _settle(
    tokens: list[str], settled: bool, keep_marks: bool, reading: bool = False
) -> tuple[str, ...]:
    """Rescan joined tokens until they no longer change.

    Dropping punctuation can bring together what the first scan kept apart ("12, kg",
    "March, 5 2026"); rescanning makes ``normalize`` idempotent. A rescan is skipped when
    the joined tokens hold no place where two tokens could merge. Each change removes
    tokens, so this stops after a pass or two.
    """
    pattern = _READ_SCAN if reading else _SCAN
    while not settled:
        joined = " ".join(tokens)
        if not _MERGE_SITE.search(joined):
            break
        rescanned: list[str] = []
        _scan(joined, pattern, rescanned, reading)
        if not keep_marks:
            rescanned = [t for t in rescanned if t not in _MARKS]
        settled = rescanned == tokens
        tokens = rescanned
    return tuple(tokens)


@lru_cache(maxsize=_CACHE_SIZE)
def _marked_tokens(text: str) -> tuple[str, ...]:
    """Return the normalized tokens of ``text`` with the hedge markers left in."""
    tokens: list[str] = []
    settled = _scan(_fold(text), _SCAN, tokens)
    return _settle(tokens, settled, keep_marks=True)


@lru_cache(maxsize=_CACHE_SIZE)
def _tokens(text: str) -> tuple[str, ...]:
    """Return the normalized tokens of ``text``."""
    marked = _marked_tokens(text)
    plain = [t for t in marked if t not in _MARKS]
    # Without markers dropped, the settled marked tokens are already settled.
    return _settle(plain, len(plain) == len(marked), keep_marks=False)


class _Item(NamedTuple):
    """One element of a reading: a number with its magnitude, a unit, a date or a word."""

    kind: str  # number, unit, date, month, time or word
    text: str  # the token; for a number its mantissa (or digits)
    magnitude: int = 0  # the power of ten a number's magnitude word stands for
    value: Decimal | None = None  # a number's value, magnitude included (None for codes)


def _items(tokens: Sequence[str]) -> tuple[_Item, ...]:
    """Group reading tokens into items.

    A magnitude word joins its number; a unit name right after a number (or its
    magnitude) is a unit.
    """
    items: list[_Item] = []
    i, n = 0, len(tokens)
    while i < n:
        token = tokens[i]
        i += 1
        if _NUMBER_TOKEN.fullmatch(token):
            power = 0
            if i < n and tokens[i] in _MAGNITUDE_POWERS:
                power = _MAGNITUDE_POWERS[tokens[i]]
                i += 1
            readable = not _CODE_TOKEN.match(token) and len(token) <= _MAX_READ_DIGITS
            value = Decimal(token).scaleb(power, _DECIMAL) if readable else None
            items.append(_Item("number", token, power, value))
            if i < n and tokens[i] in _UNIT_SET:
                items.append(_Item("unit", tokens[i]))
                i += 1
        elif _DATE_TOKEN.fullmatch(token):
            items.append(_Item("date", token))
        elif _MONTH_TOKEN.fullmatch(token):
            items.append(_Item("month", token))
        elif _TIME_TOKEN.fullmatch(token):
            items.append(_Item("time", token))
        else:
            items.append(_Item("word", token))
    return tuple(items)


@lru_cache(maxsize=_CACHE_SIZE)
def _reading(text: str) -> tuple[_Item, ...]:
    """Return the reading of ``text`` (see the matching rules in the module docstring)."""
    tokens: list[str] = []
    settled = _scan(_fold(text), _READ_SCAN, tokens, reading=True)
    plain = [t for t in tokens if t not in _MARKS]
    return _items(_settle(plain, settled and len(plain) == len(tokens), False, reading=True))


def normalize_tokens(text: str) -> list[str]:
    """Split text into normalized answer tokens.

    Lowercases, folds whitespace, drops punctuation, and unifies numbers, dates and times
    so that equal values written differently give equal tokens. The full rules are in the
    module docstring.

    Args:
        text: Any answer, reference or prompt text.

    Returns:
        The tokens, e.g. ``["total", "1000"]`` for ``"Total: $1,000.00"``.
    """
    return list(_tokens(text))


def normalize(text: str) -> str:
    """Normalize text to a single space-joined string of tokens.

    Args:
        text: Any answer, reference or prompt text.

    Returns:
        ``" ".join(normalize_tokens(text))``.
    """
    return " ".join(_tokens(text))


def _find(haystack: Sequence[str], needle: Sequence[str]) -> list[int]:
    """Return every start index where ``needle`` occurs contiguously in ``haystack``."""
    n = len(needle)
    if n == 0:
        return []
    first = needle[0]
    hits = []
    for i in range(len(haystack) - n + 1):
        if haystack[i] == first and (n == 1 or haystack[i : i + n] == needle):
            hits.append(i)
    return hits


def contains(answer_tokens: Sequence[str], reference_tokens: Sequence[str]) -> bool:
    """Tell whether the reference tokens occur as a contiguous run in the answer tokens.

    Matching is token by token, so token boundaries hold: ``["2012"]`` does not contain
    ``["12"]``. This is plain token equality; :func:`mentions` adds the matching rules
    (units, magnitudes, date parts, plurals) that answer checks use.

    Args:
        answer_tokens: Normalized answer tokens.
        reference_tokens: Normalized reference tokens.

    Returns:
        True when the run occurs; always False for an empty reference.
    """
    n = len(reference_tokens)
    if n == 0 or n > len(answer_tokens):
        return False
    # tuple() of a tuple is free, and the scorer passes tuples.
    answer = tuple(answer_tokens)
    reference = tuple(reference_tokens)
    first = reference[0]
    start = 0
    last = len(answer) - n
    while True:
        try:
            i = answer.index(first, start, last + 1)
        except ValueError:
            return False
        if answer[i : i + n] == reference:
            return True
        start = i + 1


def unit_name(text: str) -> str | None:
    """The unit ``text`` names, under the reading's one name per unit, or None.

    ``"USD"``, ``"$"`` and ``"dollars"`` name ``usd``; ``"yrs"`` names ``year``; ``"pct"``
    names ``percent``; ``"ACME"`` names none.
    """
    return _UNIT_NAMES.get(text.strip().casefold())


def unit_spellings(name: str) -> tuple[str, ...]:
    """Every spelling of the unit named ``name`` (see :func:`unit_name`), or none.

    ``unit_spellings("kg")`` is ``("kg", "kgs", "kilogram", "kilograms")``.
    """
    return _UNIT_SPELLINGS.get(name, ())


def _units_agree(first: str, second: str) -> bool:
    """Tell whether two unit names may name the same unit ("pound" and "lb" may)."""
    if first == second:
        return True
    return second in _GENERIC_UNITS.get(first, ()) or first in _GENERIC_UNITS.get(second, ())


def _same_word(first: str, second: str) -> bool:
    """Tell whether two word tokens are equal or one is the plural of the other."""
    if first == second:
        return True
    short, long = (first, second) if len(first) < len(second) else (second, first)
    # every plural below is 1 or 2 characters longer and starts as the word does: most
    # pairs fail here, before the letter scan (the rule classifier asks millions of them)
    if not 0 < len(long) - len(short) <= 2 or long[:1] != short[:1]:
        return False
    if len(short) < 3 or not any(c.isalpha() for c in short):
        return False
    if long == short + "es" or (short[-1] == "y" and long == short[:-1] + "ies"):
        return True
    if long in (short + "i", short + "is") and short[-1].isdigit() and short[0].isalpha():
        return True  # a drug-class code and its inhibitors: "SGLT2" and "SGLT2i(s)"
    return long == short + "s" and short[-1] != "s"


def _item_found(ref: _Item, ans: _Item) -> bool:
    """Tell whether reference item ``ref`` is stated by answer item ``ans``."""
    if ref.kind == "number":
        if ans.kind == "number":
            if ref.value is None or ans.value is None:
                return ref.text == ans.text and ref.magnitude == ans.magnitude
            # a bare reference number is found as the mantissa of a magnitude ("258" in
            # "258 billion"); otherwise values decide ("489K" is "489,000")
            if not ref.magnitude and ans.magnitude and ref.text == ans.text:
                return True
            return ref.value == ans.value
        # a year is found in a date or month of that year
        return (
            ans.kind in ("date", "month")
            and not ref.magnitude
            and _YEAR_TOKEN.fullmatch(ref.text) is not None
            and ans.text.startswith(ref.text + "-")
        )
    if ref.kind == "month":
        return ans.text == ref.text or (ans.kind == "date" and ans.text.startswith(ref.text + "-"))
    if ref.kind == "word":
        if ans.kind == "word":
            return _same_word(ref.text, ans.text)
        if ans.kind == "unit":
            name = _UNIT_NAMES.get(ref.text)
            return name is not None and _units_agree(name, ans.text)
        if ans.kind == "number":
            # "million" is found in "$126.4 million"; "two" in "2"
            if ans.magnitude:
                return _MAGNITUDE_POWERS.get(ref.text) == ans.magnitude
            return _NUMBER_WORDS.get(ref.text) == ans.text
        return False
    return ref.kind == ans.kind and ref.text == ans.text


def _found_at(answer: Sequence[_Item], reference: Sequence[_Item], start: int) -> bool:
    """Tell whether ``reference`` is found in ``answer`` starting at item ``start``."""
    a, r = start, 0
    n = len(answer)
    while r < len(reference):
        ref = reference[r]
        if ref.kind == "unit":
            # a unit the reference states: the answer's unit must agree; none is tolerated.
            # An "m" after a bare number may be a capital M for million ("100M"), which
            # casefolding cannot tell from metres: a number in millions satisfies it.
            if ref.text == "m" and answer[a - 1].magnitude == _MILLION_POWER:
                r += 1
                continue
            if a < n and answer[a].kind == "unit":
                if not _units_agree(ref.text, answer[a].text):
                    return False
                a += 1
            r += 1
            continue
        if a < n and _item_found(ref, answer[a]):
            a += 1
            r += 1
        elif a < n and r > 0 and answer[a].kind == "unit":
            a += 1  # a unit the answer states after a number the reference leaves bare
        else:
            return False
    return True


@lru_cache(maxsize=_CACHE_SIZE)
def _starts(answer: tuple[_Item, ...]) -> dict[tuple[str, str], list[int]]:
    """Where the answer's items stand, by kind (and, for a word, its first letter)."""
    starts: dict[tuple[str, str], list[int]] = {}
    for i, item in enumerate(answer):
        key = (item.kind, item.text[:1] if item.kind == "word" else "")
        starts.setdefault(key, []).append(i)
    return starts


def _candidates(answer: tuple[_Item, ...], first: _Item) -> Sequence[int]:
    """The items of ``answer`` at which a reference starting with ``first`` may be found.

    Exactly those :func:`_item_found` can accept: a plain word only ever matches a word
    with its first letter (:func:`_same_word`), a number a number, or, for a year, a date
    or month. A field name or an answer is looked for in every answer and every text the
    agent is shown, so this spares most of the scan.
    """
    if first.kind == "word" and not (
        first.text in _UNIT_NAMES or first.text in _MAGNITUDE_POWERS or first.text in _NUMBER_WORDS
    ):
        return _starts(answer).get(("word", first.text[:1]), [])
    if first.kind == "number":
        starts = _starts(answer)
        numbers = starts.get(("number", ""), [])
        if first.magnitude or _YEAR_TOKEN.fullmatch(first.text) is None:
            return numbers
        return [*numbers, *starts.get(("date", ""), []), *starts.get(("month", ""), [])]
    return range(len(answer))


def _found(answer: tuple[_Item, ...], reference: Sequence[_Item]) -> bool:
    """Tell whether the reference reading is found anywhere in the answer reading."""
    if not reference or reference[0].kind == "unit":
        return False
    return any(_found_at(answer, reference, i) for i in _candidates(answer, reference[0]))


def mentions(answer: str, reference: str) -> bool:
    """Tell whether the answer states the reference, under the module's matching rules.

    Token boundaries hold ("12" is not found in "2012"), and beyond :func:`contains`:
    units ("12" in "12 kg", "years" in "5 years", but not "5 years" in "5 months"),
    magnitudes ("258" in "$258B" and in "258,000,000,000"), date parts ("2025" in "Nov 8,
    2025", "2021-11" in "2021-11-04"), plurals ("MAOI" in "MAOIs") and number words
    ("two" in "2 years"). Hedging is not judged here (see :func:`is_hedged`).

    Args:
        answer: The text to look in (an answer, or a prompt for a leak check).
        reference: The value to look for.

    Returns:
        True when the reference is found; always False for a reference that normalizes
        to no token.
    """
    return _found(_reading(answer), _reading(reference))


def _kind(token: str) -> str:
    """Return ``number``, ``date``, ``time`` or ``word`` for a normalized token."""
    if _NUMBER_TOKEN.fullmatch(token):
        return "number"
    if _DATE_TOKEN.fullmatch(token):
        return "date"
    if _TIME_TOKEN.fullmatch(token):
        return "time"
    return "word"


def _skip(tokens: Sequence[str], i: int, step: int) -> int:
    """Move from ``i`` in direction ``step`` past filler words; return the new index."""
    while 0 <= i < len(tokens) and tokens[i] in _FILLERS:
        i += step
    return i


def _value_hedged(tokens: Sequence[str], reference: str, kind: str) -> bool:
    """Tell whether ``tokens`` offer alternatives of ``kind`` touching ``reference``."""
    n = len(tokens)

    def value(i: int) -> bool:
        return 0 <= i < n and _kind(tokens[i]) == kind

    def offers(values: list[str]) -> bool:
        return reference in values and len(set(values)) > 1

    def encloses(a: str, b: str, ascending: bool) -> bool:
        if a == b:
            return False
        if kind == "number":
            low, mid, high = float(a), float(reference), float(b)
            if low > high:
                # "2024-17" is an id, not a range: ranges are written low to high.
                return not ascending and high <= mid <= low
            return low <= mid <= high
        # ISO dates and zero-padded times order correctly as text.
        if a > b:
            return not ascending and b <= reference <= a
        return a <= reference <= b

    for i, item in enumerate(tokens):
        if item == "or":
            left, right = _skip(tokens, i - 1, -1), _skip(tokens, i + 1, 1)
            if value(left) and value(right):
                group = [tokens[right]]
                while value(left):  # "40, 41 or 42": the list before "or" is offered too
                    group.append(tokens[left])
                    left -= 1
                if offers(group):
                    return True
        elif item == _ALT:
            if value(i - 1) and value(i + 1) and offers([tokens[i - 1], tokens[i + 1]]):
                return True
        elif item == _RANGE or (item == "to" and (i < 2 or tokens[i - 2] != "from")):
            if (
                value(i - 1)
                and value(i + 1)
                and encloses(tokens[i - 1], tokens[i + 1], ascending=True)
            ):
                return True
        elif item == "between":
            low = _skip(tokens, i + 1, 1)
            if value(low) and low + 2 < n and tokens[low + 1] == "and":
                high = _skip(tokens, low + 2, 1)
                if value(high) and encloses(tokens[low], tokens[high], ascending=False):
                    return True
    return False


def _is_alternative(token: str) -> bool:
    """Tell whether a token after or before "or" names another candidate."""
    return token not in _MARKS and token not in _FILLERS and token not in _NOT_ALTERNATIVES


def _word_hedged(tokens: Sequence[str], reference: Sequence[str]) -> bool:
    """Tell whether ``reference`` is joined by "or" or "/" to another candidate."""
    n = len(tokens)
    for start in _find(tokens, reference):
        end = start + len(reference)
        after = _skip(tokens, end, 1)
        if after < n and tokens[after] in ("or", _ALT):
            other = after + 1 if tokens[after] == _ALT else _skip(tokens, after + 1, 1)
            if other < n and _is_alternative(tokens[other]):
                return True
        before = _skip(tokens, start - 1, -1)
        if before >= 0 and tokens[before] in ("or", _ALT):
            other = before - 1 if tokens[before] == _ALT else _skip(tokens, before - 1, -1)
            if other >= 0 and _is_alternative(tokens[other]):
                return True
    return False


def _without_magnitudes(tokens: Sequence[str], full: bool) -> list[str]:
    """``tokens`` with each number's magnitude word folded into it, or dropped.

    With ``full``, "258 billion" becomes ``258000000000``; without, ``258``; either way
    values offered with magnitudes ("$258B or $300B") are seen as values.
    """
    out: list[str] = []
    for token in tokens:
        power = _MAGNITUDE_POWERS.get(token)
        if power and out and _NUMBER_TOKEN.fullmatch(out[-1]) and not _CODE_TOKEN.match(out[-1]):
            if full:
                out[-1] = _plain_decimal(Decimal(out[-1]).scaleb(power, _DECIMAL))
            continue
        out.append(token)
    return out


def _hedged(marked_answer: Sequence[str], reference: Sequence[str]) -> bool:
    """Hedge check on token sequences; see ``is_hedged``."""
    if not reference:
        return False
    if len(reference) == 1:
        kind = _kind(reference[0])
        if kind != "word":
            if kind == "number" and any(t in _MAGNITUDE_POWERS for t in marked_answer):
                # a reference written in full or as the mantissa of what the answer offers
                return any(
                    _value_hedged(_without_magnitudes(marked_answer, full), reference[0], kind)
                    for full in (True, False)
                )
            return _value_hedged(marked_answer, reference[0], kind)
    return _word_hedged(marked_answer, reference)


def is_hedged(answer: str, reference: str) -> bool:
    """Tell whether the answer offers several candidates of the reference's kind.

    For a number, date or time reference: ``X or Y``, ``X/Y``, ``between X and Y``,
    ``X-Y`` or ``X to Y`` where an alternative is the reference or the range encloses
    it. For other references: the reference joined by "or" or "/" to another word.
    Merely mentioning other numbers ("Order O-10001 totals $42.00 for 3 items") is not
    hedging. The full rules are in the module docstring.

    Args:
        answer: The agent's final answer.
        reference: The canonical answer.

    Returns:
        True when the answer hedges; False for an empty reference.
    """
    return _hedged(_marked_tokens(answer), _tokens(reference))


# -- the committed value ------------------------------------------------------------------

# Words and signs after which an answer states its conclusion. "so" also ends "or so", whose
# region is empty and so decides nothing.
_CONCLUSION = re.compile(
    r"(?<![^\W_])(?:so|therefore|thus|hence|overall|altogether|in\s+total|in\s+all"
    r"|in\s+summary|in\s+short|in\s+conclusion|to\s+sum\s+up|that\s+means|which\s+means"
    r"|this\s+means|that\s+makes|which\s+makes|that\s+gives|which\s+gives"
    r"|the\s+answer\s+is|final\s+answer|answer\s*:|result\s*:)(?![^\W_])"
    r"|=(?!=)|\u2192|=>",
    re.IGNORECASE,
)
# The working shown after a total, "(1,815 + 4,035 + 359)": numbers (each with an optional
# currency sign and unit word) joined by arithmetic signs inside one pair of parentheses.
# It shows how the total was reached and concludes nothing, so conclusions skip it.
_WORKING_TERM = r"[-\u2212]?[$\u20ac\u00a3]?\s*\d[\d,]*(?:\.\d+)?\s*(?:%|[^\W\d_]+)?"
_WORKING = re.compile(
    r"\(\s*=?\s*" + _WORKING_TERM + r"(?:\s*[-+\u2212\u00d7*x/]\s*" + _WORKING_TERM + r")+\s*\)"
)
# A conclusion runs to the end of its sentence: a stop before a space or the end, a
# semicolon or a line break (a decimal point is followed by a digit, not a space).
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[;\n]")
_FULL_STOP = re.compile(r"[.!?](?=\s|$)|\n")
# Words that state what a conclusion's subject is ("the fewest is 10", "it comes to $42").
_COPULAS = frozenset(
    {
        "is", "are", "was", "were", "be", "equals", "equal", "totals", "totaling",
        "totalling", "comes", "come", "makes", "gives", "reaches", "remains", "stands",
    }
)  # fmt: skip
# Words that may sit between a copula and the value it states.
_ASSERT_FILLERS = frozenset(
    {
        "the", "a", "an", "about", "around", "approximately", "roughly", "only", "just",
        "exactly", "now", "still", "currently", "then", "to", "of", "at", "total", "actually",
        "indeed", "also", "therefore", "thus", "so", "s", "it", "its", "on",
    }
)  # fmt: skip
# A conclusion this short is its value ("Therefore, 10."), copula or not.
_BARE_CONCLUSION = 3
_VALUE_KINDS = frozenset({"number", "date", "month", "time"})
_MONTH_WORD = re.compile(_MONTH)


def _value_kind(reading: Sequence[_Item]) -> str | None:
    """The kind of value a reading states (a number with its unit, a date...), or None."""
    if (
        reading
        and reading[0].kind in _VALUE_KINDS
        and all(item.kind == "unit" for item in reading[1:])
    ):
        return reading[0].kind
    return None


def _asserted(items: Sequence[_Item], bare: bool = True) -> list[int]:
    """Indices in a conclusion's reading where it states a value.

    That is right after a copula (fillers skipped), or, with ``bare``, at its start when
    the conclusion is only a few items long.
    """
    out = [0] if bare and 0 < len(items) <= _BARE_CONCLUSION else []
    for i, item in enumerate(items):
        if item.kind == "word" and item.text in _COPULAS:
            j = i + 1
            while j < len(items) and items[j].kind == "word" and items[j].text in _ASSERT_FILLERS:
                j += 1
            if j < len(items):
                out.append(j)
    return out


class _Commitment(NamedTuple):
    """What a conclusion of an answer commits to: the reference or not, and the text."""

    to_reference: bool
    region: str


def _competes(
    items: Sequence[_Item], i: int, kind: str | None, distractors: Sequence[tuple[_Item, ...]]
) -> bool:
    """Tell whether the value stated at ``items[i]`` is another candidate answer."""
    item = items[i]
    if kind is not None:
        if item.kind == kind:
            return True
        # "March 4" for a date reference: a month and a day, read without a year
        if (
            kind == "date"
            and item.kind == "word"
            and _MONTH_WORD.fullmatch(item.text)
            and i + 1 < len(items)
            and items[i + 1].kind == "number"
        ):
            return True
    return any(d and _found_at(items, d, i) for d in distractors)


def commitment(
    answer: str,
    candidates: Sequence[str],
    distractors: Sequence[str] = (),
) -> _Commitment | None:
    """The conclusion of ``answer`` that decides what it commits to, or None.

    Conclusions start at a conclusion word or sign ("so", "therefore", "in total", "the
    answer is", "=") and run to the end of their sentence. Going from the last one back, the
    first that states a value decides (the working shown in parentheses after a total,
    "(1,815 + 4,035 + 359)", is not a conclusion): the value stated after a copula ("the
    fewest is 10") or a short conclusion's only value ("Therefore, 10."). If that value is a
    reference candidate, the answer commits to the reference; if it is another value of the
    reference's kind (a number for a number, a date for a date) or one of ``distractors``,
    it commits elsewhere. A conclusion that states no value but names a candidate commits
    to the reference; one that does neither ("so I'd go there") is passed over.

    Args:
        answer: The final answer.
        candidates: The reference and its aliases.
        distractors: Other values the task's computation went through (the entries an
            argmin chose between, the numbers a sum added up); a conclusion stating one
            commits elsewhere even where it is not of the reference's kind.

    Returns:
        The deciding conclusion, or None when no conclusion decides (the answer is then
        judged by containment).
    """
    readings = [r for r in (_reading(c) for c in candidates) if r and r[0].kind != "unit"]
    if not readings:
        return None
    kind = _value_kind(readings[0])
    others = [_reading(d) for d in distractors]
    others = [d for d in others if d and not any(d == r for r in readings)]
    answer = _WORKING.sub(" ", answer)
    for marker in reversed(list(_CONCLUSION.finditer(answer))):
        stop = _SENTENCE_END.search(answer, marker.end())
        region = answer[marker.end() : stop.start() if stop else len(answer)]
        items = _reading(region)
        if not items:
            continue
        for i in _asserted(items):
            if any(_found_at(items, r, i) for r in readings):
                return _Commitment(True, region.strip())
            if _competes(items, i, kind, others):
                return _Commitment(False, region.strip())
        if any(_found(items, r) for r in readings):
            return _Commitment(True, region.strip())
    # No conclusion word decided: the last sentence concludes if every value it states
    # after a copula agrees ("... Darjeeling has 10. The fewest is 10."); a sentence
    # listing several values ("A is 3.5%, B is 3.19%") commits to none of them, and a list
    # of bare values ("112; 0.797.") states them all.
    sentences = [s for s in _FULL_STOP.split(answer) if _reading(s)]
    if not sentences:
        return None
    items = _reading(sentences[-1])
    verdicts = set()
    for i in _asserted(items, bare=False):
        if any(_found_at(items, r, i) for r in readings):
            verdicts.add(True)
        elif _competes(items, i, kind, others):
            verdicts.add(False)
    if len(verdicts) == 1:
        return _Commitment(verdicts.pop(), sentences[-1].strip())
    return None


def _unhedged_marks(marked: Sequence[str], found: Sequence[tuple[str, ...]]) -> tuple[str, ...]:
    """``marked`` with every found candidate that holds a hedge mark folded into one token.

    A candidate such as "9.5/10" (an alias where the prompt asks for a score out of 10)
    holds a slash that would otherwise read as "9.5 or 10".
    """
    out = tuple(marked)
    for tokens in found:
        if not _MARKS.intersection(tokens):
            continue
        n = len(tokens)
        folded: list[str] = []
        i = 0
        while i < len(out):
            if out[i : i + n] == tokens:
                folded.append("#value")
                i += n
            else:
                folded.append(out[i])
                i += 1
        out = tuple(folded)
    return out


class AnswerScore(BaseModel):
    """The answer check of one episode, with the reason for it."""

    model_config = ConfigDict(frozen=True)

    exact: bool
    """The normalized answer equals the normalized reference or an alias."""
    contains: bool
    """The reference or an alias is found in the answer (see :func:`mentions`)."""
    committed: bool = False
    """The answer commits to the reference (see :func:`commitment`): its conclusion states
    the reference, or it has no deciding conclusion and contains the reference."""
    hedged: bool
    """The answer offers several candidate values (see ``is_hedged``)."""
    correct: bool
    """``committed and not hedged``."""
    matched: str | None
    """The reference or alias (as given) that matched, or None."""
    explanation: str
    """One sentence saying why."""


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def score_answer(
    answer: str,
    reference: str,
    aliases: list[str] | None = None,
    distractors: Sequence[str] = (),
) -> AnswerScore:
    """Score a final answer against the reference answer and its aliases.

    Three measures are kept apart: ``exact`` (the whole normalized answer is a
    candidate), ``contains`` (a candidate is found anywhere in it) and ``committed`` (the
    value the answer concludes with is a candidate; see :func:`commitment`). An answer is
    correct when it commits to the reference and does not hedge.

    Args:
        answer: The agent's final answer.
        reference: The canonical answer.
        aliases: Other accepted spellings of the answer.
        distractors: Other values the task went through (see :func:`commitment`).

    Returns:
        The score: exact match, containment, commitment, hedging, correctness, which
        candidate matched, and a one-sentence explanation. A candidate that normalizes to
        nothing (such as an empty reference) never matches.
    """
    marked = _marked_tokens(answer)
    answer_tokens = _tokens(answer)
    candidates = [(c, _tokens(c)) for c in [reference, *(aliases or [])]]
    candidates = [(c, tokens) for c, tokens in candidates if tokens]
    if not candidates:
        return AnswerScore(
            exact=False,
            contains=False,
            hedged=False,
            correct=False,
            matched=None,
            explanation="The reference normalizes to nothing, so no answer can match it.",
        )

    reading = _reading(answer)
    found = [(c, tokens) for c, tokens in candidates if _found(reading, _reading(c))]
    # Equal normalized tokens can still differ in a unit normalization drops ("5 kg", "5
    # lb"), so an exact match must also be found.
    exact = next((c for c, tokens in found if tokens == answer_tokens), None)
    # Judge hedging against what the answer actually names; if it names nothing, against
    # every candidate, so the flag still reports shotgun answers.
    unmarked = _unhedged_marks(marked, [_marked_tokens(c) for c, _ in found])
    hedged = any(_hedged(unmarked, tokens) for _, tokens in (found or candidates))
    matched = exact if exact is not None else (found[0][0] if found else None)
    is_contained = bool(found)
    decided = commitment(answer, [c for c, _ in candidates], distractors)
    committed = is_contained and (decided is None or decided.to_reference)

    which = "the reference" if matched == reference else "an alias"
    shown = f"{which} {matched!r}" if matched is not None else ""
    if is_contained and hedged:
        explanation = (
            f"The answer contains {shown} but hedges between several candidate values, "
            "so it is not counted."
        )
    elif is_contained and not committed and decided is not None:
        explanation = (
            f"The answer mentions {shown} but its conclusion "
            f"{_shorten(decided.region)!r} commits to another value."
        )
    elif exact is not None:
        explanation = f"The normalized answer equals {shown}."
    elif is_contained and decided is not None:
        explanation = (
            f"The answer contains {shown} as whole tokens after normalization, and its "
            f"conclusion {_shorten(decided.region)!r} states it."
        )
    elif is_contained:
        explanation = f"The answer contains {shown} as whole tokens after normalization."
    else:
        explanation = (
            f"The normalized answer {_shorten(' '.join(answer_tokens))!r} does not contain "
            f"the reference {normalize(reference)!r} or any alias as whole tokens"
            + (", and it hedges." if hedged else ".")
        )
    return AnswerScore(
        exact=exact is not None,
        contains=is_contained,
        committed=committed,
        hedged=hedged,
        correct=committed and not hedged,
        matched=matched,
        explanation=explanation,
    )


def leaks(reference: str, text: str) -> bool:
    """Tell whether the normalized reference appears in text the agent sees.

    Used to check that no normalized form of an answer is in a prompt, tool description,
    error message or hint.

    Args:
        reference: The canonical answer (or an alias).
        text: Text shown to the agent.

    Returns:
        True when the text states the reference under the matching rules of
        :func:`mentions` (those the answer check uses, so an answer that only repeats what
        the agent was shown cannot score); False for a reference that normalizes to no
        token.
    """
    return mentions(text, reference)
