"""Execution failure: the tool is down, slow or rate limited for some calls."""

from __future__ import annotations

from typing import ClassVar

from toolchaos.core.errors import ToolError
from toolchaos.core.types import HazardFamily
from toolchaos.hazards.base import Hazard, HazardContext, PendingCall, register

_TRANSIENT = {
    "503": (
        503,
        "service_unavailable",
        "Service Unavailable: the upstream server is "
        "temporarily unable to handle the request. Please try again.",
    ),
    "timeout": (504, "timeout", "Gateway Timeout: the upstream server did not respond in time."),
    "rate_limit": (429, "rate_limit_exceeded", "Too Many Requests: rate limit exceeded."),
}


@register
class TransientError(Hazard):
    """The first k calls of the target tool fail with a transient error, then it works.

    ``params.error`` is ``503``, ``timeout`` or ``rate_limit`` (which adds ``retry_after``).
    """

    family: ClassVar[HazardFamily] = HazardFamily.EXECUTION_FAILURE
    variant: ClassVar[str] = "transient"
    summary: ClassVar[str] = "transient errors for the first k calls, then success"

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Fail the planned calls with the configured transient error."""
        if not self.fires(call.tool, call.ordinal):
            return
        kind = str(self.spec.params.get("error", "503"))
        code, err_type, message = _TRANSIENT.get(kind, _TRANSIENT["503"])
        details = {"retry_after": 1} if kind == "rate_limit" else {}
        if details:
            message += " Retry after 1 second."
        self.log(ctx, call.tool, call.ordinal, f"{code} {err_type}")
        raise ToolError(message, code=code, kind=err_type, details=details)


@register
class PersistentOutage(Hazard):
    """The target tool is down for the whole episode; its documented fallback works."""

    family: ClassVar[HazardFamily] = HazardFamily.EXECUTION_FAILURE
    variant: ClassVar[str] = "outage"
    summary: ClassVar[str] = "persistent outage; a documented fallback tool works"

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Fail every call of the target tool."""
        if not self.fires(call.tool, call.ordinal):
            return
        self.log(ctx, call.tool, call.ordinal, "503 outage")
        raise ToolError(
            f"Service Unavailable: {call.tool} is down for maintenance. No estimate for "
            "recovery is available.",
            code=503,
            kind="service_unavailable",
        )
