"""Canonical JSON: one way to turn data into bytes, so hashes and files are reproducible."""

from __future__ import annotations

import hashlib
import json
from typing import Any

# built once: json.dumps with options builds a new encoder on every call
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def dumps(data: Any) -> str:
    """Serialize ``data`` as compact JSON with sorted keys and no ASCII escaping."""
    return _CANONICAL.encode(data)


def digest(data: Any) -> str:
    """Return the SHA-256 hex digest of the canonical JSON of ``data``."""
    return hashlib.sha256(dumps(data).encode("utf-8")).hexdigest()


def object_in(text: str | None) -> dict[str, Any] | None:
    """The JSON object a reply holds between its first ``{`` and last ``}``, if valid."""
    if not text:
        return None
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        value = json.loads(text[start : end + 1])
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None
