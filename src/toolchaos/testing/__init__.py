"""Test helpers: a local fake of the OpenAI chat-completions API with fault injection.

Names are imported lazily so that ``python -m toolchaos.testing.fake_openai`` runs the
module once, without the warning a package-level import of it would cause.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolchaos.testing.fake_openai import (
        FAULT_KINDS,
        FakeOpenAI,
        FaultKind,
        FaultPlan,
        Reply,
        Responder,
        echo_tool_then_answer,
        estimate_tokens,
        scripted,
    )

__all__ = [
    "FAULT_KINDS",
    "FakeOpenAI",
    "FaultKind",
    "FaultPlan",
    "Reply",
    "Responder",
    "echo_tool_then_answer",
    "estimate_tokens",
    "scripted",
]


def __getattr__(name: str) -> Any:
    """Imports a public name from its module on first use (PEP 562)."""
    if name in __all__:
        return getattr(importlib.import_module("toolchaos.testing.fake_openai"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
