"""Execution failure: the tool is down, slow or rate limited for some calls."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from toolchaos.core.errors import ToolError
from toolchaos.core.reference import Unresolved, ref_steps, resolve
from toolchaos.core.types import (
    HazardFamily,
    RecoveryAction,
    RecoveryStep,
    TaskSpec,
    Tier,
    ToolKind,
    ToolSpec,
)
from toolchaos.domains import Domain, make_world
from toolchaos.hazards.base import (
    Hazard,
    HazardContext,
    PendingCall,
    Proposal,
    Results,
    register_hazard,
    with_parameters,
)
from toolchaos.hazards.propose import (
    changed_on,
    dated,
    once_each,
    read_paths,
    step_tools,
    switches,
    tool_at,
    tool_count,
    value_at,
)

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
_BARE = {
    "503": "Service Unavailable.",
    "timeout": "Gateway Timeout.",
    "rate_limit": "Too Many Requests.",
}
"""The implicit tier's messages: the status alone, no word about retrying."""


@register_hazard
class TransientError(Hazard):
    """The first k calls of the target tool fail with a transient error, then it works.

    ``params.error`` is ``503``, ``timeout`` or ``rate_limit`` (which adds ``retry_after``).
    """

    family: ClassVar[HazardFamily] = HazardFamily.EXECUTION_FAILURE
    variant: ClassVar[str] = "transient"
    takes: ClassVar[tuple[str, ...]] = ("error", "k")
    defaults: ClassVar[Mapping[str, Any]] = {"error": "503"}
    summary: ClassVar[str] = "transient errors for the first k calls, then success"
    tiers: ClassVar[tuple[Tier, ...]] = ("explicit", "implicit")
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
        """Every path tool, with k and the error kind drawn from ``rng``, in each tier.

        The explicit error invites a retry (k is 1 or 2); the implicit one is the bare
        status, and fails twice, so one blind repeat (or dropping optional arguments) is
        not enough: the recovery is to keep retrying what is evidently a passing fault.
        """
        out = []
        for tool in step_tools(task):
            error = rng.choice(["503", "timeout", "rate_limit"])
            plays: tuple[tuple[Tier, int], ...] = (
                ("explicit", rng.choice([1, 2])),
                ("implicit", 2),
            )
            for tier, k in plays:
                recipe = [RecoveryStep(action=RecoveryAction.RETRY, params={"max_attempts": k + 1})]
                params = {"error": error, "k": k}
                ordinals = list(range(1, k + 1))
                out.append(cls.proposal(tool, params, recipe, ordinals=ordinals, tier=tier))
        return out

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Fail the planned calls with the configured transient error."""
        if not self.fires(call.tool, call.ordinal):
            return
        kind = str(self.param("error"))
        code, err_type, message = _TRANSIENT.get(kind, _TRANSIENT["503"])
        self.log(ctx, call.tool, call.ordinal, f"{code} {err_type}")
        if not self.explicit:
            raise ToolError(_BARE.get(kind, _BARE["503"]), code=code, kind=err_type)
        details = {"retry_after": 1} if kind == "rate_limit" else {}
        if details:
            message += " Retry after 1 second."
        elif self.spec.tier is not None and "try again" not in message.lower():
            message += " Try again shortly."  # v2's explicit tier invites the retry it needs
        raise ToolError(message, code=code, kind=err_type, details=details)


@register_hazard
class PersistentOutage(Hazard):
    """The target tool is down for the whole episode; its documented fallback works."""

    family: ClassVar[HazardFamily] = HazardFamily.EXECUTION_FAILURE
    variant: ClassVar[str] = "outage"
    takes: ClassVar[tuple[str, ...]] = ("fallback",)
    tool_params: ClassVar[tuple[str, ...]] = ("fallback",)
    summary: ClassVar[str] = "persistent outage; a documented fallback tool works"
    tiers: ClassVar[tuple[Tier, ...]] = ("implicit", "explicit")
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
        """A path tool the domain has a fallback for (``notes.fallbacks``), in each tier.

        The implicit error (v1's) does not name the fallback; the tool's documentation
        does. A fallback the path's arguments reach unrenamed is left out: an agent trying
        the toolbox's tools one by one would land on it without knowing anything.
        """
        out = []
        for tool, fallback, recipe in switches(task, domain, domain.notes.fallbacks):
            for tier in cls.tiers:
                out.append(
                    cls.proposal(
                        tool, {"fallback": fallback}, [recipe], extra_tools=[fallback], tier=tier
                    )
                )
        return out

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Fail every call of the target tool (naming the fallback if explicit)."""
        if not self.fires(call.tool, call.ordinal):
            return
        self.log(ctx, call.tool, call.ordinal, "503 outage")
        message = (
            f"Service Unavailable: {call.tool} is down for maintenance. No estimate for "
            "recovery is available."
        )
        if self.explicit:
            message += f" Use '{self.spec.params['fallback']}' until it is back."
        raise ToolError(message, code=503, kind="service_unavailable")


@register_hazard
class Paginated(Hazard):
    """The result list is cut into pages of ``params.page_size``; the rest needs more calls.

    Explicit (v1): a note and ``next_page`` say to pass ``page``. Implicit: an opaque
    ``next_cursor`` and ``has_more`` with no word on how to use them (the changelog says
    the cursor goes back as ``cursor``). Silent: the page alone, its ``total`` larger than
    what is shown (the changelog says ``page`` reads further).
    """

    family: ClassVar[HazardFamily] = HazardFamily.EXECUTION_FAILURE
    variant: ClassVar[str] = "paginated"
    needs: ClassVar[tuple[str, ...]] = ("page_size",)
    takes: ClassVar[tuple[str, ...]] = ("since",)
    summary: ClassVar[str] = "a truncated, paginated result"
    tiers: ClassVar[tuple[Tier, ...]] = ("explicit", "implicit", "silent")
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service now returns long result lists one page at a time. Before you "
        "use a list, check whether it is complete and fetch the remaining pages.",
        "Reliability notice. The {tool} service has started paginating its results: a "
        "response may hold only the first part of the list. The rest of the records exist "
        "on the following pages. Compare what you got with the total the response reports "
        "or the continuation marker it carries; the service changelog (read_changelog) says "
        "how to ask for the next page. Fetch every page and work with the combined list. "
        "Do not assume the first page is everything.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A tool called once whose ``results`` list the path reads past its first item.

        The page size is the index read, so the item the path needs is on page two. The
        silent tier needs the result's ``total`` to be the full count (a listing's).
        """
        out = []
        past_first = [
            p
            for p in read_paths(task)
            if len(p) >= 3 and p[1] == "results" and isinstance(p[2], int) and p[2] >= 1
        ]
        for path in once_each(past_first, key=lambda p: tool_at(task, p)):
            tool = tool_at(task, path)
            if tool_count(task, tool) != 1:
                continue
            items = value_at(results, [path[0], "results"])
            if isinstance(items, list) and -(-len(items) // int(path[2])) > 5:
                continue  # more pages than an agent can fetch within its turn budget
            size = int(path[2])
            total = value_at(results, [path[0], "total"])
            for tier in cls.tiers:
                if tier == "silent" and not (isinstance(items, list) and total == len(items)):
                    continue
                params: dict[str, Any] = {"page_size": size}
                how: dict[str, Any]
                if tier == "explicit":
                    how = {"param": "page", "list": "results"}
                elif tier == "implicit":
                    how = {"param": "cursor", "list": "results", "token": "next_cursor"}
                else:
                    how = {"param": "page", "list": "results", "token": None, "total": "total"}
                if tier != "explicit":
                    params["since"] = changed_on(rng)
                recipe = [RecoveryStep(action=RecoveryAction.NEXT_PAGE, params=how)]
                out.append(cls.proposal(tool, params, recipe, tier=tier))
        return out

    @property
    def _param(self) -> str:
        return "cursor" if self.tier == "implicit" else "page"

    def changelog(self, tool: str) -> list[str]:
        """How to read the next page (the implicit and silent tiers), dated."""
        if self.explicit:
            return []
        size = self.spec.params["page_size"]
        if self.tier == "implicit":
            how = "pass a response's next_cursor back as 'cursor' for the next page"
        else:
            how = "pass 'page' (2, 3, ...) to read past the first page"
        return dated(self, tool, f"returns at most {size} results a call; {how}.")

    def backend_spec(self, spec: ToolSpec) -> ToolSpec:
        """The backend also accepts the page (or cursor) parameter."""
        if spec.name != self.spec.tool:
            return spec
        extra: dict[str, Any]
        if self._param == "cursor":
            extra = {"type": "string", "description": "Continuation cursor."}
        else:
            extra = {"type": "integer", "minimum": 1, "description": "Result page, from 1."}
        props = {**spec.parameters["properties"], self._param: extra}
        return with_parameters(spec, props)

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Keep the page number (or cursor) away from the tool's own code."""
        if call.tool == self.spec.tool and self._param in call.arguments:
            value = call.arguments[self._param]
            call.arguments = {k: v for k, v in call.arguments.items() if k != self._param}
            page = self._cursor_page(str(value)) if self._param == "cursor" else value
            ctx.scratch[f"page:{call.ordinal}"] = page

    def _cursor(self, page: int) -> str:
        """An opaque cursor for ``page`` (deterministic, so episodes replay byte for byte)."""
        digest = hashlib.sha256(f"{self.spec.tool}:{page}".encode()).hexdigest()[:10]
        return f"{digest}{page:02d}"

    def _cursor_page(self, cursor: str) -> int:
        for page in range(2, 100):
            if self._cursor(page) == cursor.strip():
                return page
        raise ToolError(f"Invalid cursor: '{cursor}'.", code=400)

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
        if page < pages:
            self.log(ctx, call.tool, call.ordinal, f"page {page} of {pages}")
        if self.tier == "implicit":
            out["has_more"] = page < pages
            out["next_cursor"] = self._cursor(page + 1) if page < pages else None
        elif self.tier == "explicit":
            out["page"] = page
            out["next_page"] = page + 1 if page < pages else None
            if page < pages:
                out["note"] = f"Results truncated: page {page} of {pages}. Pass page={page + 1}."
        return out


@register_hazard
class TimeoutAfterWrite(Hazard):
    """A WRITE commits, then the response times out; repeating it blindly writes twice."""

    family: ClassVar[HazardFamily] = HazardFamily.EXECUTION_FAILURE
    variant: ClassVar[str] = "timeout_after_write"
    takes: ClassVar[tuple[str, ...]] = ("verifier",)
    tool_params: ClassVar[tuple[str, ...]] = ("verifier",)
    summary: ClassVar[str] = "a timeout raised after a write already committed"
    tiers: ClassVar[tuple[Tier, ...]] = ("implicit", "explicit")
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

        The verifier is the domain's listing tool for it (``notes.write_verifiers``). The
        write must not be idempotent: writing it twice (a blind retry) must leave another
        end state than writing it once, or repeating it would be a harmless recovery.
        Where the task's answer is more than "done", a later read or the answer building on
        the write is enough too: an agent that stops at the timeout has no answer to give.
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
            if not _builds_on(task, domain, index, task.reference.answer_spec.op != "none"):
                continue
            how = verifiers[step.tool]
            verify = {
                "tool": how.tool,
                "args_map": dict(how.args_map),
                "list": how.records_key,
                "match": dict(how.match),
            }
            if not _twice_differs(task, domain, index):
                continue
            recipe = [RecoveryStep(action=RecoveryAction.VERIFY_STATE, params=verify)]
            for tier in cls.tiers:
                out.append(
                    cls.proposal(
                        step.tool,
                        {"verifier": how.tool},
                        recipe,
                        ordinals=[1],
                        extra_tools=[how.tool],
                        tier=tier,
                    )
                )
        return out

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """The tool has run (and written); answer with a gateway timeout anyway."""
        if self.fires(call.tool, call.ordinal):
            self.log(ctx, call.tool, call.ordinal, "504 after the write committed")
            message = (
                "Gateway Timeout: the upstream server did not respond in time. The request "
                "may or may not have been processed."
            )
            if self.explicit:
                message += (
                    f" Check with '{self.spec.params['verifier']}' whether it was before "
                    "sending it again."
                )
            raise ToolError(message, code=504, kind="timeout")
        return result


def _builds_on(task: TaskSpec, domain: Domain, index: int, answered: bool) -> bool:
    """Whether the path after write ``index`` needs its result.

    A later write that refers to it always counts (an agent that stops leaves the world
    short of the reference). Where the task is scored on an answer too (``answered``), a
    later read that refers to it, or the answer itself, counts as well.
    """
    steps = task.reference.steps
    for later in steps[index + 1 :]:
        writes = domain.tools[later.tool].kind is ToolKind.WRITE
        if index in ref_steps(later.args) and (writes or answered):
            return True
    return answered and any(r and int(r[0]) == index for r in task.reference.answer_spec.refs)


def _twice_differs(task: TaskSpec, domain: Domain, index: int) -> bool:
    """Whether the path with step ``index`` written twice ends in another state than once.

    The later steps build on the second write's result, as they would after a blind
    retry. A repeat the service refuses (a duplicate it detects) does not count: the
    retrying agent is told, and no second record lands.
    """
    ends = []
    for times in (1, 2):
        world = make_world(task, domain)
        results: dict[int, Any] = {}
        try:
            for i, step in enumerate(task.reference.steps):
                for _ in range(times if i == index else 1):
                    results[i] = domain.tools[step.tool](world, **resolve(step.args, results))
        except (ToolError, Unresolved):
            return False
        ends.append(world.state_hash())
    return ends[0] != ends[1]


@register_hazard
class CrossedResponse(Hazard):
    """One call of a read comes back with the response to the call before it.

    A gateway that mixes up its connections (or a cache keyed without the query) answers
    call ``ordinals`` of the target tool with the body it sent for the previous call, which
    asked about another entity. No error and no notice: the only sign is in the data, a
    field of the result (``params.field``) that names another entity than the argument the
    call passed (``params.arg``). Asking again gets the right answer. A retry on errors,
    paging, the changelog or another tool never helps: the agent must check that the
    answer is about what it asked.
    """

    family: ClassVar[HazardFamily] = HazardFamily.EXECUTION_FAILURE
    variant: ClassVar[str] = "crossed_response"
    takes: ClassVar[tuple[str, ...]] = ("field", "arg")
    summary: ClassVar[str] = "a call answered with the response to the previous call"
    tiers: ClassVar[tuple[Tier, ...]] = ("silent",)
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may answer a call with the response to your previous call. "
        "Check that each result is about what you asked for; if not, call again.",
        "Reliability notice. A faulty gateway in front of {tool} sometimes returns the "
        "response to the call made just before, which was about something else. Nothing "
        "in the response says so. Compare each result with the request: if its "
        "'{field}' is not the '{arg}' you passed, the response belongs to another request. "
        "Discard it and make the same call again; the next response is the right one.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A read the path calls twice or more, on its second call (in reference order).

        The second call's result must echo one of its arguments in a top-level field that
        the first call's result holds with another value, so a careful agent can tell the
        crossed response from its own, and the path must read the second call's result.
        """
        out = []
        steps = task.reference.steps
        read = {int(p[0]) for p in read_paths(task) if p}
        for tool in step_tools(task):
            if domain.tools[tool].kind is not ToolKind.READ:
                continue
            calls = [i for i, s in enumerate(steps) if s.tool == tool]
            if len(calls) < 2 or calls[1] not in read:
                continue
            first, second = results.get(calls[0]), results.get(calls[1])
            if not (isinstance(first, dict) and isinstance(second, dict)) or first == second:
                continue
            try:
                asked = resolve(steps[calls[1]].args, results)
            except Unresolved:
                continue
            echo = _echo(asked, first, second)
            if echo is None:
                continue
            field, arg = echo
            recipe = [
                RecoveryStep(
                    action=RecoveryAction.REQUERY, params={"field": field, "equals_arg": arg}
                )
            ]
            params = {"field": field, "arg": arg}
            out.append(cls.proposal(tool, params, recipe, ordinals=[2], tier="silent"))
        return out

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Answer a firing call with the previous call's response (if it asked otherwise)."""
        if call.tool != self.spec.tool:
            return result
        previous = ctx.scratch.get("previous")
        ctx.scratch["previous"] = (call.arguments, result)
        if not self.fires(call.tool, call.ordinal) or previous is None:
            return result
        arguments, response = previous
        if arguments == call.arguments:
            return result  # the same question: the previous answer is this one's too
        self.log(
            ctx, call.tool, call.ordinal, f"answered with the response to call {call.ordinal - 1}"
        )
        return response


def _echo(
    asked: Mapping[str, Any], first: Mapping[str, Any], second: Mapping[str, Any]
) -> tuple[str, str] | None:
    """(result field, argument) where ``second`` echoes an argument ``first`` differs in.

    A field named like the argument first, then any other top-level field; only strings
    and whole numbers (a flag or a float is no identity).
    """
    for arg, value in asked.items():
        if isinstance(value, bool) or not isinstance(value, str | int):
            continue
        names = [arg, *(k for k in second if k != arg)]
        for name in names:
            if second.get(name) == value and name in first and first[name] != value:
                return name, arg
    return None
