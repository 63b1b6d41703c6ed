"""Aliases and distractors of a reference answer, generated with the answer at build time.

A grader accepts a right answer however a person would write it. Normalization already
unifies most spellings (``$1,000.00`` and ``1000 USD``); what it cannot know is what the
task's question makes right: a score "out of 10" written ``9.5/10``, a change of -3.88
written "a drop of 3.88%", a date of this year written without it ("March 3"), or a value
given more precisely than the reference rounds it. :func:`answer_aliases` writes those
forms down from the reference's :class:`~toolchaos.core.types.AnswerSpec`, the values the
oracle's path returned, the prompt and the world's date. It is a pure function: the same
task gives the same aliases, and they pass the build's leak check like the answer.

:func:`answer_distractors` lists the other values the answer's computation chose between
(the entries an argmin compared, the numbers a sum added up), so that an answer whose
conclusion names one of them is recognised as committing to the wrong value.
"""

from __future__ import annotations

import contextlib
import re
from datetime import date
from typing import Any

from toolchaos.core.reference import Unresolved, compute_answer, follow, format_value, resolve
from toolchaos.core.types import Reference
from toolchaos.scoring.answer import unit_name, unit_spellings

__all__ = ["answer_aliases", "answer_distractors"]

_NUMBER = re.compile(r"(-?[0-9]+(?:\.[0-9]+)?)(?:\s+(\S.*))?")
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_OUT_OF = re.compile(r"\bout of ([0-9]+)\b", re.IGNORECASE)
_PROMPT_UNIT = re.compile(r"\(\s*(%|[^\W\d_][\w°/ ]{0,12}?)\s*\)")
# A question about a change: its answer may be written with the direction in words.
_CHANGE = re.compile(
    r"\b(?:chang\w*|differ\w*|increas\w*|decreas\w*|ris(?:e|en|ing)|rose|f[ae]ll\w*|drop\w*"
    r"|gr[eo]w\w*|declin\w*|gain\w*|lift\w*|up or down)\b",
    re.IGNORECASE,
)
_WHOLE = re.compile(
    r"\b(?:nearest whole|whole number|round(?:ed)? to the nearest (?!tenth|hundredth|cent\b)"
    r"|nearest (?:dollar|euro|pound|unit|integer|minute|hour|day|percent|degree))",
    re.IGNORECASE,
)
_ONE_DECIMAL = re.compile(r"\b(?:one decimal|1 decimal|nearest tenth)", re.IGNORECASE)
_TWO_DECIMALS = re.compile(
    r"\b(?:two decimals?|2 decimals?|nearest cent|nearest hundredth)", re.IGNORECASE
)
_SYMBOLS_BEFORE = frozenset({"$", "€", "£", "¥", "₹", "₩", "₽", "us$"})
_SYMBOLS_AFTER = frozenset({"%", "°", "°c", "°f"})
# Finer roundings of an unrounded value offered as aliases, up to this many decimals.
_MAX_DECIMALS = 4
_DOWN = (
    "a drop of {a}", "down {a}", "down by {a}", "a decrease of {a}", "decreased by {a}",
    "a decline of {a}", "declined by {a}", "dropped by {a}", "dropped {a}", "fell by {a}",
    "fell {a}", "a fall of {a}", "{a} drop", "{a} decrease", "{a} decline", "{a} lower",
    "{a} less", "{a} fewer", "a loss of {a}",
)  # fmt: skip
_UP = (
    "up {a}", "up by {a}", "an increase of {a}", "increased by {a}", "a rise of {a}",
    "rose by {a}", "rose {a}", "grew by {a}", "a gain of {a}", "{a} increase", "{a} higher",
    "{a} more",
)  # fmt: skip
_MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def _ordinal(day: int) -> str:
    """``3`` -> ``3rd``; ``11`` -> ``11th``."""
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _with_unit(text: str, unit: str) -> list[str]:
    """``text`` (a number) written with every spelling of ``unit`` of two or more letters."""
    name = unit_name(unit)
    if name is None:
        return []
    out = []
    for spelling in unit_spellings(name):
        if spelling in _SYMBOLS_BEFORE:
            out.append(f"{spelling}{text}")
        elif spelling in _SYMBOLS_AFTER:
            out.append(f"{text}{spelling}")
        elif len(spelling) >= 2:
            out.append(f"{text} {spelling}")
    return out


def _date_aliases(day: date, today: date) -> list[str]:
    """A date written as people do, without its year when it is the world's year."""
    month = _MONTH_NAMES[day.month - 1]
    short = month[:3]
    forms = [day.isoformat()]
    if day.year == today.year:
        for name in dict.fromkeys([month, short, "Sept" if day.month == 9 else short]):
            forms += [
                f"{name} {day.day}",
                f"{day.day} {name}",
                f"{name} {_ordinal(day.day)}",
                f"{_ordinal(day.day)} {name}",
                f"{_ordinal(day.day)} of {name}",
            ]
    return forms


def _number_aliases(
    reference: Reference, value: float, text: str, unit: str, prompt: str, results: dict[int, Any]
) -> list[str]:
    spec = reference.answer_spec
    magnitude = format_value(abs(value), spec.round)
    forms: list[str] = []
    forms += _with_unit(text, unit)
    scale = _OUT_OF.search(prompt)
    if scale:
        forms += [f"{text}/{scale[1]}", f"{text} out of {scale[1]}"]
    # a level (a temperature, days left) is no drop or rise: direction words need a change
    change = _CHANGE.search(prompt) is not None
    if value < 0:
        forms.append(f"minus {magnitude}")
        if change:
            forms += [f.format(a=magnitude) for f in _DOWN]
    elif value > 0 and change:
        forms += [f.format(a=magnitude) for f in _UP]
    if spec.op in ("value", "sum", "min", "max"):
        try:
            raw = compute_answer(spec.model_copy(update={"round": None, "unit": ""}), results)
            exact = float(raw)
        except (Unresolved, ValueError):
            exact = value
        low = (spec.round if spec.round is not None else _MAX_DECIMALS) + 1
        for digits in range(low, _MAX_DECIMALS + 1):
            forms.append(format_value(round(exact, digits), digits))
    for pattern, digits in ((_WHOLE, 0), (_ONE_DECIMAL, 1), (_TWO_DECIMALS, 2)):
        if pattern.search(prompt):
            forms.append(format_value(round(value, digits), digits))
    return forms


def answer_aliases(
    reference: Reference, results: dict[int, Any], prompt: str, today: date
) -> list[str]:
    """The other accepted forms of ``reference.answer``, in a stable order, without repeats.

    Args:
        reference: The task's reference, its ``answer`` already computed from ``results``.
        results: The oracle's step results (the answer's unrounded value comes from them).
        prompt: The task's prompt: "out of 10" allows ``X/10``; a question about a change
            allows the direction in words for a positive answer; "to the nearest whole
            number" (or one decimal, two decimals) allows that rounding.
        today: The world's date: a date of its year may be written without the year.

    Returns:
        The reference's own aliases first, then unit forms ("12.5 kilograms"), "X/10" and
        "X out of 10", "minus 3.88" for -3.88, signed-change wording where the prompt asks
        about a change ("a drop of 3.88" for -3.88, "an increase of 3.88" for +3.88; a
        negative level, such as a temperature, gets none), finer and allowed coarser
        roundings, and dates with and without the world's year ("March 3", "3 March",
        "2026-03-03"). The answer itself is never among them.
    """
    answer = reference.answer.strip()
    forms: list[str] = list(reference.aliases)
    number = _NUMBER.fullmatch(answer)
    day = _ISO_DATE.fullmatch(answer)
    if number is not None:
        text, unit = number[1], number[2] or reference.answer_spec.unit
        if not unit:
            found = _PROMPT_UNIT.search(prompt)
            unit = found[1] if found and unit_name(found[1]) else ""
        forms += _number_aliases(reference, float(text), text, unit, prompt, results)
    elif day is not None:
        with contextlib.suppress(ValueError):  # an impossible date has no other forms
            forms += _date_aliases(date.fromisoformat(answer), today)
    return [f for f in dict.fromkeys(forms) if f and f != answer]


def answer_distractors(reference: Reference, results: dict[int, Any]) -> list[str]:
    """The other values the answer's computation chose between or added up.

    For an ``argmin``/``argmax`` the labels it did not choose; for a ``sum``, ``min`` or
    ``max`` over several values, those values as the answer would be written. Values equal
    to the answer are left out.
    """
    spec = reference.answer_spec
    try:
        if spec.op in ("argmin", "argmax"):
            values = [resolve(label, results) for label in spec.labels]
            shown = [
                format_value(float(v), spec.round)
                if isinstance(v, int | float) and not isinstance(v, bool)
                else str(v)
                for v in values
            ]
        elif spec.op in ("sum", "min", "max") and len(spec.refs) > 1:
            numbers = [follow(results, list(r)) for r in spec.refs]
            shown = [
                f"{format_value(float(v), spec.round)} {spec.unit}".strip()
                for v in numbers
                if isinstance(v, int | float) and not isinstance(v, bool)
            ]
        else:
            return []
    except Unresolved:
        return []
    return [v for v in dict.fromkeys(shown) if v and v != reference.answer]
