"""Execution failure: the tool is down, slow or rate limited for some calls."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from toolchaos.core.errors import ToolError
from toolchaos.core.reference import ref_steps
from toolchaos.core.types import HazardFamily, RecoveryStep, TaskSpec, ToolKind, ToolSpec
from toolchaos.domains import Domain
from toolchaos.hazards.base import (
    Hazard,
    HazardContext,
    PendingCall,
    Proposal,
    Results,
    register,
    with_parameters,
)
from toolchaos.hazards.propose import read_paths, step_tools, tool_count, value_at

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
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service is flaky right now: a call may fail with a temporary error. "
        "If it does, call it again with the same arguments.",
        "Reliability notice. The {tool} service is having intermittent trouble: the first "
        "call or two may come back with a temporary error such as 503, a gateway timeout or "
        "a rate limit. These errors do not mean your request was wrong. Wait if the error "
        "says so, then repeat the same call with the same arguments; it will succeed. Do "
        "not give up on the task or guess the data the tool would have returned.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """Every path tool, with k (1 or 2) and the error kind drawn from ``rng``."""
        out = []
        for tool in step_tools(task):
            k = rng.choice([1, 2])
            error = rng.choice(["503", "timeout", "rate_limit"])
            recipe = [RecoveryStep(action="retry", params={"max_attempts": k + 1})]
            params = {"error": error, "k": k}
            out.append(cls.proposal(tool, params, recipe, ordinals=list(range(1, k + 1))))
        return out

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
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may be down. If it fails, use {fallback}, which returns the "
        "same information.",
        "Reliability notice. The {tool} service may be unavailable for the whole session; "
        "retrying it will not help. Its documentation names an alternative, {fallback}, "
        "which serves the same facts from an independent source and takes the same "
        "identifier. If {tool} reports that it is unavailable, switch to {fallback} and "
        "carry on with the task using its result.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A path tool the domain has a fallback for (``notes.fallbacks``)."""
        fallbacks = domain.notes.fallbacks
        out = []
        for tool in step_tools(task):
            if tool not in fallbacks:
                continue
            backup = fallbacks[tool]
            fallback = {"tool": backup.tool, "args_map": dict(backup.args_map)}
            recipe = [RecoveryStep(action="fallback", params=fallback)]
            params = {"fallback": backup.tool}
            out.append(cls.proposal(tool, params, recipe, extra_tools=[backup.tool]))
        return out

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
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service now returns long result lists one page at a time. If a result "
        "says there is a next page, ask for it with the page parameter before you use the "
        "list.",
        "Reliability notice. The {tool} service has started paginating its results: a "
        "response may hold only the first part of the list, together with a note and a "
        "'next_page' number. The rest of the records exist; they are on the following "
        "pages. Call {tool} again with the same arguments plus page set to the next page "
        "number, repeat until no next page is reported, and work with the combined list. "
        "Do not assume the first page is everything.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A tool called once whose ``results`` list the path reads past its first item.

        The page size is the index read, so the item the path needs is on page two.
        """
        out = []
        seen: set[str] = set()
        for path in read_paths(task):
            if len(path) < 3 or path[1] != "results" or not isinstance(path[2], int) or path[2] < 1:
                continue
            tool = task.reference.steps[int(path[0])].tool
            if tool in seen or tool_count(task, tool) != 1:
                continue
            seen.add(tool)
            items = value_at(results, [path[0], "results"])
            if isinstance(items, list) and -(-len(items) // int(path[2])) > 5:
                continue  # more pages than an agent can fetch within its turn budget
            recipe = [RecoveryStep(action="next_page", params={"param": "page", "list": "results"})]
            out.append(cls.proposal(tool, {"page_size": int(path[2])}, recipe))
        return out

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
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may time out after it has already saved your change. Before "
        "repeating a change that timed out, check whether it went through.",
        "Reliability notice. Calls to {tool} can report a gateway timeout even though the "
        "change was saved on the server before the connection dropped. Repeating the call "
        "blindly can apply the same change twice. If {tool} times out, first look the "
        "records up with the matching listing tool and check whether your change is "
        "already there. Only if it is missing should you make the call again; if it is "
        "there, continue with the record you find.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A write called once that a later write builds on, with a verifier to check it.

        The verifier is the domain's listing tool for it (``notes.write_verifiers``).
        """
        verifiers = domain.notes.write_verifiers
        out = []
        steps = task.reference.steps
        for index, step in enumerate(steps):
            tool = domain.tools[step.tool]
            if tool.kind is not ToolKind.WRITE or step.tool not in verifiers:
                continue
            if tool_count(task, step.tool) != 1:
                continue
            # the write must feed a later write, or a naive agent that stops still "succeeds"
            if not any(
                index in ref_steps(later.args) and domain.tools[later.tool].kind is ToolKind.WRITE
                for later in steps[index + 1 :]
            ):
                continue
            how = verifiers[step.tool]
            verify = {
                "tool": how.tool,
                "args_map": dict(how.args_map),
                "list": how.records_key,
                "match": dict(how.match),
            }
            recipe = [RecoveryStep(action="verify_state", params=verify)]
            out.append(cls.proposal(step.tool, {}, recipe, ordinals=[1], extra_tools=[how.tool]))
        return out

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
