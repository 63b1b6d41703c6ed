"""Answer normalization and matching for ToolBench-X answer checks.

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
* Currency symbols and codes ($, €, £, ¥, usd, eur, gbp, ...) are dropped when directly
  before a number; currency words and units (usd, dollars, euros, %, percent, kg, g, lb,
  km, mi, m, min, h, hours, days, °c, c, f, ...; see ``_UNITS``) are dropped when directly
  after one, with or without a space. Elsewhere they are ordinary words, so "m" in
  "plan m" stays. "in" and "s" are never units: "12 in stock" and "1990s" keep them.
* Dates become ISO ``YYYY-MM-DD``: "2026-03-05", "2026/03/05", "March 5, 2026",
  "Mar. 5th 2026", "5 March 2026", "05-Mar-2026". Numeric dates with the year last are
  read month/day/year (US order, "03/05/2026" is 5 March) unless the first field cannot
  be a month (> 12), in which case it is read day/month. Two-digit years are not
  expanded. Impossible dates (30 February) are tokenized as ordinary numbers and words.
* Times become ``HH:MM`` (``HH:MM:SS`` when the seconds are not zero), 24-hour:
  "14:30", "9:05" -> ``09:05``, "2:30 pm" -> ``14:30``, "2 pm" -> ``14:00``.

Hedging rules (``is_hedged``): for a reference that is a single number, date or time,
the answer is hedged when it offers alternatives of that kind: ``X or Y`` (fillers like
"maybe" may sit between, and a list "X, Y or Z" counts), ``X/Y``, or a range
``between X and Y``, ``X-Y`` or ``X to Y`` (the last two only when written low to high,
and "to" not after "from", which usually narrates a change). A hedge counts only if one
of its alternatives is the reference or its range encloses it: alternatives that miss
the reference earn no credit anyway, and flagging them would mostly catch ids such as
"2024-17". A slash between numbers reads as alternatives, so a ratio "4/5" hedges a
reference of 4. For any other reference, the answer is hedged when the reference is
joined by "or" (or "/") to another word, as in "Paris or Lyon"; "or so", "or more",
"or not" and similar do not count.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import date
from decimal import Context, Decimal, InvalidOperation
from functools import lru_cache

from pydantic import BaseModel, ConfigDict

__all__ = [
    "AnswerScore",
    "contains",
    "is_hedged",
    "leaks",
    "normalize",
    "normalize_tokens",
    "score_answer",
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
    rf"(?:{_CURRENCY_CODES}|us\$|[{_CURRENCY_SYMBOLS}]"
    r"|dollars?|euros?|pounds?|yen|rupees?"
    r"|%|percent|per\ cent|pct"
    r"|kilograms?|kgs?|grams?|g|mg|lbs?|ounces?|oz|tonnes?"
    r"|kilomet(?:er|re)s?|km/h|kmh|kph|kms?|met(?:er|re)s?|m/s|mph|miles?|mi|cm|mm|m"
    r"|feet|foot|ft|yards?|yd|inch(?:es)?"
    r"|minutes?|mins?|hours?|hrs?|h|seconds?|secs?|ms|days?|weeks?|wks?|months?|years?|yrs?"
    r"|°\ ?[cf]|°|degrees?|deg|celsius|fahrenheit|c|f"
    r"|lit(?:er|re)s?|l|ml|gallons?|gal|kb|mb|gb|tb)"
)

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
_DATE_ALTERNATIVES = rf"""
  (?P<iso>(?<![0-9])(?P<iso_y>[0-9]{{4}})(?P<iso_sep>[-/.])(?P<iso_m>[0-9]{{1,2}})
      (?P=iso_sep)(?P<iso_d>[0-9]{{1,2}})(?![0-9])(?:t(?=[0-9]{{1,2}}:))?)
| (?P<num_dmy>(?<![0-9.])(?P<nd_a>[0-9]{{1,2}})(?P<nd_sep>[-/.])(?P<nd_b>[0-9]{{1,2}})
      (?P=nd_sep)(?P<nd_y>[0-9]{{4}})(?![0-9]))
| (?P<mdy>(?P<md_m>{_MONTH})\s*-?\s*(?P<md_d>[0-9]{{1,2}}){_ORDINAL},?(?:\s+|-)
      (?P<md_y>[0-9]{{4}})(?![0-9]))
| (?P<dmy>(?<![0-9])(?P<dm_d>[0-9]{{1,2}}){_ORDINAL}(?:\s+of)?(?:\s+|-)(?P<dm_m>{_MONTH}),?
      (?:\s+|-)(?P<dm_y>[0-9]{{4}})(?![0-9]))
| (?P<time>(?<![0-9.:])(?P<t_h>[0-9]{{1,2}}):(?P<t_m>[0-9]{{2}})(?::(?P<t_s>[0-9]{{2}}))?
      (?![0-9:])(?:\s*(?P<t_ap>[ap])\.?m(?![^\W_])\.?)?)
| (?P<time12>(?<![0-9.])(?P<t12_h>[0-9]{{1,2}})\s*(?P<t12_ap>[ap])\.?m(?![^\W_])\.?)
|"""
_PLAIN_ALTERNATIVES = rf"""
  (?P<num>(?<![^\W_])(?<!\.)(?P<sign>[-\u2212])?(?:{_CURRENCY_PREFIX}\s*)?(?P<sign2>[-\u2212])?
      (?P<mant>(?P<grouped>[0-9]{{1,3}}(?:,[0-9]{{3}})+)(?:\.[0-9]+)?
             |[0-9]+(?:\.[0-9]+)?
             |\.[0-9]+)
      (?P<exp>e[-+]?[0-9]+)?
      (?![0-9]|\.[0-9])
      (?:[ \t]*{_UNITS}(?![^\W_]))?
      (?![^\W_]))
| (?P<other_word>[^\W_]+)  # starts with a digit, or like a month or a currency code
| (?P<alt>/)
| (?P<range>[-\u2013])  # hyphen or en dash
"""
_SCAN = re.compile(
    f"{_SCAN_START}(?:{_PLAIN_WORD}{_DATE_ALTERNATIVES}{_PLAIN_ALTERNATIVES})", re.VERBOSE
)
# Used to re-read an impossible date or time ("30 Feb 2026", "25:99") as plain tokens.
_SCAN_PLAIN = re.compile(f"{_SCAN_START}(?:{_PLAIN_WORD}{_PLAIN_ALTERNATIVES})", re.VERBOSE)

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
    (?: [-0-9][^\ ]*\ (?:{_UNITS}|[ap]m|of\ {_MONTH}|{_MONTH})(?![^\W_])
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
_TIME_TOKEN = re.compile(r"[0-9]{2}:[0-9]{2}(?::[0-9]{2})?")

# Exponents beyond this are left as written rather than expanded into huge digit strings.
_MAX_EXPONENT = 40
_DECIMAL = Context(prec=200)

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


def _iso(year: str, month: int, day: str) -> str | None:
    """Return ``YYYY-MM-DD`` or None when the date does not exist."""
    try:
        return date(int(year), month, int(day)).isoformat()
    except ValueError:
        return None


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
    return _iso(match["dm_y"], _MONTHS[match["dm_m"][:3]], match["dm_d"])


def _scan(text: str, pattern: re.Pattern[str], out: list[str]) -> bool:
    """Append the canonical tokens (and hedge markers) of folded ``text`` to ``out``.

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
            token = _canon_number(
                match["sign"] or match["sign2"],
                match["mant"],
                match["grouped"] is not None,
                match["exp"],
            )
        elif kind == "alt":
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
                _scan(match[0], _SCAN_PLAIN, out)
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
    NFKD would turn them into plain spaces, which do not group digits.
    """
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


def _settle(tokens: list[str], settled: bool, keep_marks: bool) -> tuple[str, ...]:
    """Rescan joined tokens until they no longer change.

    Dropping punctuation can bring together what the first scan kept apart ("12, kg",
    "March, 5 2026"); rescanning makes ``normalize`` idempotent. A rescan is skipped when
    the joined tokens hold no place where two tokens could merge. Each change removes
    tokens, so this stops after a pass or two.
    """
    while not settled:
        joined = " ".join(tokens)
        if not _MERGE_SITE.search(joined):
            break
        rescanned: list[str] = []
        _scan(joined, _SCAN, rescanned)
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
    ``["12"]``.

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


def _hedged(marked_answer: Sequence[str], reference: Sequence[str]) -> bool:
    """Hedge check on token sequences; see ``is_hedged``."""
    if not reference:
        return False
    if len(reference) == 1:
        kind = _kind(reference[0])
        if kind != "word":
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


class AnswerScore(BaseModel):
    """The answer check of one episode, with the reason for it."""

    model_config = ConfigDict(frozen=True)

    exact: bool
    """The normalized answer equals the normalized reference or an alias."""
    contains: bool
    """The normalized reference or an alias occurs in the answer at token boundaries."""
    hedged: bool
    """The answer offers several candidate values (see ``is_hedged``)."""
    correct: bool
    """``contains and not hedged``."""
    matched: str | None
    """The reference or alias (as given) that matched, or None."""
    explanation: str
    """One sentence saying why."""


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def score_answer(answer: str, reference: str, aliases: list[str] | None = None) -> AnswerScore:
    """Score a final answer against the reference answer and its aliases.

    Args:
        answer: The agent's final answer.
        reference: The canonical answer.
        aliases: Other accepted spellings of the answer.

    Returns:
        The score: exact match, containment, hedging, correctness (containment without
        hedging), which candidate matched, and a one-sentence explanation. A candidate
        that normalizes to nothing (such as an empty reference) never matches.
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

    exact = next((c for c, tokens in candidates if tokens == answer_tokens), None)
    found = [(c, tokens) for c, tokens in candidates if contains(answer_tokens, tokens)]
    # Judge hedging against what the answer actually names; if it names nothing, against
    # every candidate, so the flag still reports shotgun answers.
    hedged = any(_hedged(marked, tokens) for _, tokens in (found or candidates))
    matched = exact if exact is not None else (found[0][0] if found else None)
    is_contained = bool(found)

    which = "the reference" if matched == reference else "an alias"
    shown = f"{which} {matched!r}" if matched is not None else ""
    if is_contained and hedged:
        explanation = (
            f"The answer contains {shown} but hedges between several candidate values, "
            "so it is not counted."
        )
    elif exact is not None:
        explanation = f"The normalized answer equals {shown}."
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
        hedged=hedged,
        correct=is_contained and not hedged,
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
        True when the reference's tokens occur in the text's tokens at token boundaries;
        False for a reference that normalizes to no token.
    """
    reference_tokens = _tokens(reference)
    return bool(reference_tokens) and contains(_tokens(text), reference_tokens)
