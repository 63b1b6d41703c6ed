"""Small checks on JSON values that domains and hazards share."""

from __future__ import annotations

import re
from typing import TypeGuard

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
"""A date spelled ``YYYY-MM-DD`` (use with ``fullmatch``)."""


def is_number(value: object) -> TypeGuard[int | float]:
    """Whether ``value`` is a JSON number: an int or a float, but not a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool)
