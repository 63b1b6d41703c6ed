"""Canonical JSON: one way to turn data into bytes, so hashes and files are reproducible."""

from __future__ import annotations

import hashlib
import json
from typing import Any

# built once: json.dumps with options builds a new encoder on every call, and
# JSONEncoder.encode builds the C encoder on every call; this is the one it would build
# (without the check for circular data, which JSON from tools never is)
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_MAKE_C_ENCODER = getattr(json.encoder, "c_make_encoder", None)  # None where there is no C
_C_ENCODER = (
    _MAKE_C_ENCODER(
        None,
        _CANONICAL.default,
        json.encoder.encode_basestring,
        None,
        ":",
        ",",
        True,
        False,
        True,
    )
    if _MAKE_C_ENCODER is not None
    else None
)


def dumps(data: Any) -> str:
    """Serialize ``data`` as compact JSON with sorted keys and no ASCII escaping."""
    if _C_ENCODER is None:
        return _CANONICAL.encode(data)
    return "".join(_C_ENCODER(data, 0))


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
