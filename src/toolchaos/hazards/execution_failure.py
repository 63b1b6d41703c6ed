"""Execution failure: the tool is down, slow or rate limited for some calls."""

from __future__ import annotations

from typing import Any, ClassVar

from toolchaos.core.errors import ToolError
from toolchaos.core.types import HazardFamily, ToolSpec
from toolchaos.hazards.base import Hazard, HazardContext, PendingCall, register, with_parameters

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


@register
class Paginated(Hazard):
    """The result list is cut into pages of ``params.page_size``; the rest needs ``page``."""

    family: ClassVar[HazardFamily] = HazardFamily.EXECUTION_FAILURE
    variant: ClassVar[str] = "paginated"
    summary: ClassVar[str] = "a truncated, paginated result"

    def backend_spec(self, spec: ToolSpec) -> ToolSpec:
        """The backend also accepts ``page``."""
        if spec.name != self.spec.tool:
            return spec
        props = {
            **spec.parameters["properties"],
            "page": {"type": "integer", "minimum": 1, "description": "Result page, from 1."},
        }
        return with_parameters(spec, props)

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Keep the page number away from the tool's own code."""
        if call.tool == self.spec.tool and "page" in call.arguments:
            page = call.arguments["page"]
            call.arguments = {k: v for k, v in call.arguments.items() if k != "page"}
            ctx.scratch[f"page:{call.ordinal}"] = page

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Return only the requested page of the ``results`` list."""
        if not (self.fires(call.tool, call.ordinal) and isinstance(result, dict)):
            return result
        items = result.get("results")
        if not isinstance(items, list):
            return result
        size = int(self.spec.params["page_size"])
        page = int(ctx.scratch.pop(f"page:{call.ordinal}", 1))
        pages = max(1, -(-len(items) // size))
        start = (page - 1) * size
        out = {**result, "results": items[start : start + size]}
        out["count"] = len(out["results"])
        out["page"] = page
        out["next_page"] = page + 1 if page < pages else None
        if page < pages:
            out["note"] = f"Results truncated: page {page} of {pages}. Pass page={page + 1}."
            self.log(ctx, call.tool, call.ordinal, f"page {page} of {pages}")
        return out


@register
class TimeoutAfterWrite(Hazard):
    """A WRITE commits, then the response times out; repeating it blindly writes twice."""

    family: ClassVar[HazardFamily] = HazardFamily.EXECUTION_FAILURE
    variant: ClassVar[str] = "timeout_after_write"
    summary: ClassVar[str] = "a timeout raised after a write already committed"

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """The tool has run (and written); answer with a gateway timeout anyway."""
        if self.fires(call.tool, call.ordinal):
            self.log(ctx, call.tool, call.ordinal, "504 after the write committed")
            raise ToolError(
                "Gateway Timeout: the upstream server did not respond in time. The request "
                "may or may not have been processed.",
                code=504,
                kind="timeout",
            )
        return result
