"""How the gate policies read tool results and errors the way a capable model does.

A language model does not parse JSON like a strict client: it looks inside an envelope,
reads ``weightKg`` as ``weight_kg``, takes ``"12.5"`` for a number and "05.03.2026" for a
date, and finds a field under a key that means the same. :func:`lenient_view` gives the
scripted gate policies that reading, so a hazard that only defeats a strict parser is seen
to do nothing. :func:`spelled_out` says whether an error or result names its own fix
literally — what an agent that only follows instructions can act on.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from toolchaos.core.types import RecoveryAction, RecoveryStep

ENVELOPES = ("data", "result", "results_page", "payload", "response", "body", "item")
"""Keys a result is commonly wrapped in."""

_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")
_NUMBER = re.compile(r"^-?\d{1,3}(,\d{3})*(\.\d+)?$|^-?\d+(\.\d+)?$")
_DOTTED = re.compile(r"^(\d{2})[./](\d{2})[./](\d{4})$")
_RETRY = re.compile(r"\b(retry|retry-after|try again|try later)\b", re.IGNORECASE)
_UNITS = {"kg", "g", "km", "m", "usd", "min", "pct", "ms", "mb", "gb", "mbps", "kwh", "w", "c"}


@cache
def snake(key: str) -> str:
    """``weightKg`` -> ``weight_kg``; other keys lower-cased."""
    return _CAMEL.sub(r"_\1", key).lower().replace("-", "_").replace(" ", "_")


@cache
def _tokens(key: str) -> frozenset[str]:
    return frozenset(t for t in snake(key).split("_") if t and t not in _UNITS)


def _value(value: Any, numeric: bool) -> Any:
    if isinstance(value, str):
        text = value.strip()
        if numeric and _NUMBER.match(text):
            number = float(text.replace(",", ""))
            return int(number) if "." not in text else number
        dotted = _DOTTED.match(text)
        if dotted and "." in text:  # 05.03.2026, day first as Europe writes it
            day, month, year = dotted.groups()
            return f"{year}-{month}-{day}"
    return value


def _record(record: dict[str, Any], wanted: set[str]) -> dict[str, Any]:
    out = dict(record)
    by_snake: dict[str, str] = {}
    for key in record:
        by_snake.setdefault(snake(key), key)
        out.setdefault(snake(key), record[key])
    for name in wanted:
        if name in out:
            continue
        # a key that means the same: exactly one key holds all the field's meaningful words
        want = _tokens(name)
        matches = [k for k in by_snake if want and want <= _tokens(k)]
        if len(matches) == 1:
            out[name] = record[by_snake[matches[0]]]
    return out


def lenient_view(value: Any, wanted: set[str], numbers: frozenset[str] = frozenset()) -> Any:
    """``value`` as a model reads it: unwrapped, keys snake-cased, values parsed.

    Keys are kept as they came too (a key may be data, such as an id). Numeric strings are
    read as numbers only under the keys in ``numbers`` (the fields an answer computes
    with), so an id such as "04217" passed on to the next call stays a string.

    Args:
        value: A tool result.
        wanted: The field names the reader is looking for (found under a key of the same
            meaning when absent).
        numbers: The fields read as numbers.
    """
    return _view(value, wanted, numbers, numeric=False)


def _view(value: Any, wanted: set[str], numbers: frozenset[str], numeric: bool) -> Any:
    if isinstance(value, str):
        return _value(value, numeric)
    if not isinstance(value, dict | list):  # a number, a bool, None: read as it is
        return value
    while isinstance(value, dict) and len(value) <= 2:
        wrapper = [k for k in value if k in ENVELOPES and isinstance(value[k], dict | list)]
        if len(wrapper) != 1 or set(value) - {wrapper[0], "meta", "status", "ok"}:
            break
        if any(k in value for k in wanted):
            break
        value = value[wrapper[0]]
    if isinstance(value, dict):
        inner = {
            k: _view(v, wanted, numbers, snake(k) in numbers or k in numbers)
            for k, v in value.items()
        }
        return _record(inner, wanted)
    if isinstance(value, list):
        return [_view(v, wanted, numbers, numeric) for v in value]
    return _value(value, numeric)


def _word_in(literal: str, text: str) -> bool:
    """Whether ``literal`` stands in ``text`` as a whole word (0 is not found in 400)."""
    pattern = rf"(?<![\w]){re.escape(literal)}(?![\w])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def spelled_out(step: RecoveryStep, text: str) -> bool:
    """Whether ``text`` (an error or a result an agent sees) names the fix ``step`` applies.

    An agent that only follows instructions can apply a step only when everything it needs
    is written there: the new parameter name or enum values or format for ``adapt``, the
    tool for ``fallback``, ``resolve`` and ``verify_state``, an invitation to retry for
    ``retry`` and ``requery``, the page token for ``next_page``, a unit label (or a notice
    naming the field's new unit) for ``convert``, another source's name for
    ``cross_check``. Reading the changelog (``consult``) is diagnosis, never spelled out.
    """
    p = step.params
    action = step.action
    if action in (RecoveryAction.RETRY, RecoveryAction.REQUERY):
        return bool(_RETRY.search(text))
    if action in (RecoveryAction.FALLBACK, RecoveryAction.RESOLVE, RecoveryAction.VERIFY_STATE):
        return _word_in(str(p.get("tool", "")), text)
    if action == RecoveryAction.ADAPT:
        literals = [str(v) for v in p.get("rename_args", {}).values()]
        literals += [str(v) for m in p.get("map_values", {}).values() for v in m.values()]
        forms = p.get("reformat_args", {}).values()
        literals += ["DD/MM/YYYY" if how == "dmy" else str(how) for how in forms]
        literals += [str(v) for v in p.get("fill_args", {}).values()]
        if p.get("normalize_args"):
            literals.append("upper")
        return bool(literals) and all(_word_in(lit, text) for lit in literals)
    if action == RecoveryAction.NEXT_PAGE:
        return str(p.get("param", "page")) in text and "next_page" in text
    if action == RecoveryAction.CONVERT:
        # a units label, or a notice naming the field and the unit it now counts in
        field = str(p.get("field", ""))
        labelled = '"units"' in text and field in text
        return labelled or (_word_in(field, text) and _word_in(str(p.get("unit", "")), text))
    if action == RecoveryAction.CROSS_CHECK:
        return any(str(alt) in text for alt in p.get("alternatives", []))
    return False
