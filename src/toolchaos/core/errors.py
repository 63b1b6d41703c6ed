"""The two error channels of toolchaos, plus the one for bad user input.

A :class:`ToolError` is part of the simulated environment: the agent sees it as a tool
observation and can recover from it. A :class:`HarnessFault` is ours: the episode is stored
with status ``error`` and never scored as the model's mistake. :class:`BadInput` is what the
CLI turns into one clear sentence and exit code 2.
"""

from __future__ import annotations

from typing import Any


class ToolError(Exception):
    """An error the agent sees, worded the way a real API would word it.

    Args:
        message: The human-readable error text shown to the agent.
        code: An HTTP-like status code (400 bad request, 404 not found, 503 unavailable...).
        kind: A short machine-readable error type, e.g. ``invalid_request_error``.
        details: Extra JSON-able fields returned with the error (e.g. ``retry_after``).
    """

    def __init__(
        self,
        message: str,
        *,
        code: int = 400,
        kind: str = "invalid_request_error",
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.kind = kind
        self.details = dict(details or {})

    def to_payload(self) -> dict[str, Any]:
        """Return the JSON body an API would send for this error."""
        body: dict[str, Any] = {"code": self.code, "type": self.kind, "message": self.message}
        body.update(self.details)
        return {"error": body}


class HarnessFault(Exception):
    """A failure of toolchaos itself (or its transport), never the model's fault."""


class BadInput(Exception):
    """User input that cannot be used: a malformed file, an unknown name, a wrong flag.

    The message must be one sentence that names the problem (and file and line for a data
    file); the CLI prints it and exits with code 2.
    """
