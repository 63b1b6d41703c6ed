"""Helpers every domain shares: money, dates and times, API errors, listings, people.

A domain's world and tools import these instead of keeping their own copies, so an amount
is rounded, a timestamp written and a refusal worded the same way in every domain. None
of them reads a clock or global state; the random ones draw only from the generator they
are given.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, date, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, TypeGuard, TypeVar

from toolchaos.core.errors import ToolError
from toolchaos.core.values import ISO_DATE
from toolchaos.core.world import Row

_T = TypeVar("_T")

HH_MM = re.compile(r"(\d{2}):(\d{2})")
MEAN_EARTH_RADIUS_KM = 6371.0088

# -- money, dates and places -------------------------------------------------------------


def money(value: Decimal | float | int) -> float:
    """Round a dollar amount half-up to cents and return it as a float."""
    return float(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def dec(value: float | int) -> Decimal:
    """Return the exact decimal of a stored amount (via its shortest repr)."""
    return Decimal(str(value))


def stamp(moment: datetime) -> str:
    """Format an aware datetime as UTC ``YYYY-MM-DDTHH:MM:SSZ``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def calendar_date(text: str) -> date | None:
    """Return the calendar date ``text`` spells as exactly ``YYYY-MM-DD``, else None.

    Stricter than :meth:`date.fromisoformat`, which also takes ``YYYYMMDD`` and week
    dates; a real day is still required (``2026-02-30`` gives None).
    """
    if ISO_DATE.fullmatch(text) is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def clock_minutes(text: str) -> int | None:
    """Return the minutes after midnight of a 24-hour ``HH:MM`` time, else None."""
    match = HH_MM.fullmatch(text)
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        return None
    return int(match[1]) * 60 + int(match[2])


def haversine_km(
    lat1: float,
    lon1: float,
    lat2: float,
    lon2: float,
    radius_km: float = MEAN_EARTH_RADIUS_KM,
) -> float:
    """Great-circle distance between two points in kilometres (haversine formula).

    Args:
        lat1: Latitude of the first point, degrees.
        lon1: Longitude of the first point, degrees.
        lat2: Latitude of the second point, degrees.
        lon2: Longitude of the second point, degrees.
        radius_km: The radius of the sphere; the default is the Earth's mean radius.
    """
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * radius_km * math.asin(min(1.0, math.sqrt(a)))


# -- refusals, worded like a real API ----------------------------------------------------


def bad_request(message: str) -> ToolError:
    """Return a 400 error: an argument is malformed."""
    return ToolError(message, code=400, kind="invalid_request_error")


def not_found(entity: str, key: str) -> ToolError:
    """Return the 404 error for an unknown ``key`` of an ``entity`` (e.g. ``"Order"``)."""
    return ToolError(f"{entity} '{key}' not found", code=404, kind="not_found")


def conflict(message: str, **details: Any) -> ToolError:
    """Return a 409 error: a record's state (or an ambiguous name) forbids the request.

    Args:
        message: The error text.
        **details: Extra fields sent with the error, e.g. the id of the clashing record.
    """
    return ToolError(message, code=409, kind="conflict", details=details)


def unprocessable(message: str) -> ToolError:
    """Return a 422 error: the request is well-formed but breaks a business rule."""
    return ToolError(message, code=422, kind="unprocessable_entity")


def enum_schema(values: Sequence[str]) -> dict[str, Any]:
    """The JSON schema of a string parameter that takes one of ``values``."""
    return {"type": "string", "enum": list(values)}


def check_choice(param: str, value: Any, allowed: Sequence[str]) -> None:
    """Refuse (422) a ``value`` of ``param`` that is not one of ``allowed``."""
    if value not in allowed:
        raise unprocessable(f"{param} must be one of: {', '.join(allowed)}")


def is_integer(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a JSON integer (Python counts a bool as an int; JSON does not)."""
    return isinstance(value, int) and not isinstance(value, bool)


# -- lookups and listings ----------------------------------------------------------------


def row_json(row: Row) -> dict[str, Any]:
    """Return a row as the JSON an API would send."""
    return row.model_dump(mode="json")


def find_key(table: dict[str, Any], key: str) -> str | None:
    """Return the stored key matching ``key``, or None.

    Lenient like many real APIs: an exact match, else one ignoring case and surrounding
    spaces.
    """
    if key in table:
        return key
    folded = key.strip().casefold()
    for stored in table:
        if stored.casefold() == folded:
            return stored
    return None


def stored_key(table: dict[str, Any], key: str, entity: str) -> str:
    """Return the key under which ``table`` holds ``key`` (see :func:`find_key`), or a 404."""
    stored = find_key(table, key) if isinstance(key, str) else None
    if stored is None:
        raise not_found(entity, str(key))
    return stored


def listing(
    rows: Sequence[_T],
    limit: int,
    view: Callable[[_T], dict[str, Any]],
    **head: Any,
) -> dict[str, Any]:
    """The answer of a listing tool: ``head``, then the first ``limit`` rows in 'results'.

    Args:
        rows: Every matching row, in the order to return them.
        limit: How many rows to return at most.
        view: How one row is shown.
        **head: Fields that come before the results (e.g. the resolved ids asked about).

    Returns:
        ``head`` plus 'results', 'count' (returned) and 'total' (matching).
    """
    results = [view(row) for row in rows[:limit]]
    return {**head, "results": results, "count": len(results), "total": len(rows)}


# -- people in generated worlds ----------------------------------------------------------


def people(
    rng: random.Random,
    first_names: Sequence[str],
    last_names: Sequence[str],
    email_domains: Sequence[str],
) -> Iterator[tuple[str, str]]:
    """Yield ``(full name, email)`` pairs, no name or email twice, drawn from ``rng``.

    Lazy, so the caller can draw a person's other fields between two people and a seed
    still fixes every byte.
    """
    names: set[str] = set()
    emails: set[str] = set()
    while True:
        first, last = rng.choice(first_names), rng.choice(last_names)
        name = f"{first} {last}"
        if name in names:
            continue
        names.add(name)
        local = rng.choice(
            (f"{first}.{last}", f"{first[0]}{last}", f"{first}{last[0]}", f"{first}_{last}")
        ).lower()
        email = f"{local}@{rng.choice(email_domains)}"
        while email in emails:
            email = f"{local}{rng.randint(2, 99)}@{email.split('@')[1]}"
        emails.add(email)
        yield name, email


# -- arguments an agent passes -----------------------------------------------------------


def text_arg(value: Any, param: str) -> str:
    """Return a string argument stripped of surrounding spaces, or refuse it (422).

    Args:
        value: What the agent passed.
        param: The parameter's name, for the error.
    """
    if not isinstance(value, str) or not value.strip():
        raise unprocessable(f"{param} must be a non-empty string")
    return value.strip()


def bounded_text(value: Any, param: str, limit: int, required: bool = True) -> str:
    """Return a free-text argument, stripped, refusing (422) one too long or empty.

    Args:
        value: What the agent passed; None counts as empty.
        param: The parameter's name, for the error.
        limit: The most characters the text may have.
        required: Whether an empty text is refused (else it is returned as ``""``).
    """
    text = str(value or "").strip()
    if required and not text:
        raise unprocessable(f"{param} must not be empty")
    if len(text) > limit:
        raise unprocessable(f"{param} must be at most {limit} characters")
    return text


def date_arg(value: Any, param: str, what: str = "a date") -> date:
    """Return the calendar date a ``YYYY-MM-DD`` argument spells, or refuse it (422).

    Args:
        value: What the agent passed.
        param: The parameter's name, for the error.
        what: How the error names the expected value (e.g. ``"a calendar date"``).
    """
    day = calendar_date(value.strip()) if isinstance(value, str) else None
    if day is None:
        raise unprocessable(f"{param} must be {what} written YYYY-MM-DD, got '{value}'")
    return day


def clock_arg(value: Any, param: str) -> int:
    """Return the minutes after midnight of an ``HH:MM`` argument, or refuse it (422).

    Args:
        value: What the agent passed.
        param: The parameter's name, for the error.
    """
    minutes = clock_minutes(value.strip()) if isinstance(value, str) else None
    if minutes is None:
        raise unprocessable(f"{param} must be a 24-hour time written HH:MM, got '{value}'")
    return minutes


def clock_text(value: Any, param: str) -> str:
    """Return an ``HH:MM`` argument written canonically (``"7:05"`` is refused), or a 422.

    Args:
        value: What the agent passed.
        param: The parameter's name, for the error.
    """
    minutes = clock_arg(value, param)
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def int_arg(value: Any, param: str, low: int, high: int) -> int:
    """Return an integer argument from ``low`` to ``high`` inclusive, or refuse it (422).

    Args:
        value: What the agent passed (a bool is not an integer).
        param: The parameter's name, for the error.
        low: The smallest value allowed.
        high: The largest value allowed.
    """
    if not is_integer(value) or not low <= value <= high:
        raise unprocessable(f"{param} must be an integer from {low} to {high}")
    return value
