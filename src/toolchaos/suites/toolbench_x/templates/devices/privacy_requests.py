"""Devices subtopic "privacy requests": data exports, deletions and their legal deadlines."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
)
from toolchaos.suites.toolbench_x.templates.devices._helpers import (
    NUMBERS,
    SECURITY,
    account_query,
    extreme,
    pick_account,
    spoken_account,
    unique_extreme,
)

KIND_WORDS = {
    "export": "a copy of all the data they hold",
    "deletion": "deletion of all the data they hold",
    "correction": "a correction of the personal details they hold",
    "opt_out": "an opt-out from the sale or sharing of the data",
}

STATUS_WORDS = {
    "submitted": "submitted",
    "in_progress": "in progress",
    "completed": "completed",
    "rejected": "rejected",
}


def _open_kinds(ctx: TemplateContext, acc: Any) -> set[str]:
    return {
        r.kind
        for r in ctx.rows("privacy_requests")
        if r.account_id == acc.account_id and r.status in ("submitted", "in_progress")
    }


def request_after_review(ctx: TemplateContext) -> Draft:
    """Sequential, writes: search the account -> its security record -> a privacy request."""
    acc, who, finder = pick_account(ctx)
    kinds = [k for k in KIND_WORDS if k not in _open_kinds(ctx, acc)]
    if not kinds:
        raise NoFit("every kind of request is open for the account")
    kind = ctx.rng.choice(kinds)
    readout = ctx.rng.random() < 0.5
    prompt = ctx.say(
        "Send a privacy request for {who}: I want {what}.{ask}",
        "Check {who} first, then ask the service for {what}.{ask}",
        "Please file a {kind} privacy request for {who}.{ask}",
        who=who,
        what=KIND_WORDS[kind],
        kind=kind.replace("_", "-"),
        ask=" By what date must they answer?" if readout else "",
    )
    steps = [
        finder,
        RefStep(tool="get_account_security", args={"account": ref(0, "results", 0, "account_id")}),
        RefStep(
            tool="create_privacy_request", args={"account": ref(1, "account_id"), "kind": kind}
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "due_date"]]) if readout else None
    return Draft(prompt, steps, answer or AnswerSpec(op="none"), writes=True)


def export_then_delete(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: search the account -> export request -> deletion request."""
    _, who, finder = pick_account(ctx, lambda a: not {"export", "deletion"} & _open_kinds(ctx, a))
    prompt = ctx.say(
        "We're closing {who}. First request an export of the account's data, then a "
        "deletion request.",
        "For {who}: file a data-export request and, right after it, a deletion request.",
        "Close out {who} the privacy-friendly way: export request first, then deletion.",
        who=who,
    )
    steps = [
        finder,
        RefStep(
            tool="create_privacy_request",
            args={"account": ref(0, "results", 0, "account_id"), "kind": "export"},
        ),
        RefStep(
            tool="create_privacy_request",
            args={"account": ref(1, "account_id"), "kind": "deletion"},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def open_request_deadlines(ctx: TemplateContext) -> Draft:
    """Parallel: the requests of k accounts with open requests; fewest or most days left."""
    k = ctx.count(3, 4)
    open_ids = sorted(
        {
            r.account_id
            for r in ctx.rows("privacy_requests")
            if r.status in ("submitted", "in_progress")
        }
    )
    if len(open_ids) < k:
        raise NoFit(f"fewer than {k} accounts with open requests")
    chosen = [ctx.world.table("accounts")[a] for a in ctx.rng.sample(open_ids, k)]
    op, words = extreme(ctx, {"min": "the fewest", "max": "the most"})
    lefts = [
        ctx.read("list_privacy_requests", account=a.account_id, status=None)["results"]
        for a in chosen
    ]
    if any(len(x) != 1 for x in lefts):
        raise NoFit("an account has several requests")
    unique_extreme([x[0]["days_left"] for x in lefts], op)
    # a deadline may have passed (days left below zero): the question says how to write it
    prompt = ctx.say(
        "We have open privacy requests on {all}. Which one has {words} days left before "
        "its legal deadline? Give me that number (negative if the deadline has passed).",
        "Of the pending privacy requests for {all}, how many days are left on the one with "
        "{words} time remaining? A deadline already passed counts as negative days.",
        all=listing([spoken_account(a) for a in chosen]),
        words=words,
    )
    steps = [
        RefStep(tool="list_privacy_requests", args={"account": account_query(ctx, a)})
        for a in chosen
    ]
    refs = [[i, "results", 0, "days_left"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def requests_counted(ctx: TemplateContext) -> Draft:
    """Parallel: the requests of 3 of the 4 kinds or statuses (one listing each) -> how many.

    Never all four: "how many requests of every kind" is a count of everything, which one
    unfiltered listing answers.
    """
    field, values = ctx.rng.choice((("kind", KIND_WORDS), ("status", STATUS_WORDS)))
    chosen = sorted(ctx.rng.sample(sorted(values), 3))
    if not all(ctx.read("list_privacy_requests", **{field: v})["total"] for v in chosen):
        raise NoFit(f"a {field} no request of the household has")
    if field == "kind":
        prompt = ctx.say(
            "How many {these} privacy requests have we sent to services so far, all together?",
            "Count our privacy requests of these kinds: {these}. How many are there in "
            "total, whatever their status?",
            these=listing([v.replace("_", "-") for v in chosen]),
        )
    else:
        words = [STATUS_WORDS[v] for v in chosen]
        prompt = ctx.say(
            "How many of our privacy requests are {these}? Count them all together.",
            "Across every service, how many privacy requests do we have that are {these}?",
            these=f"{', '.join(words[:-1])} or {words[-1]}",
        )
    steps = [RefStep(tool="list_privacy_requests", args={field: v}) for v in chosen]
    return Draft(
        prompt, steps, AnswerSpec(op="sum", refs=[[i, "total"] for i in range(len(chosen))])
    )


def due_date_of_new(ctx: TemplateContext) -> Draft:
    """Mixture, writes: k accounts (independent searches) -> a request for each."""
    k = ctx.count(2, 4)
    chosen = ctx.sample("accounts", k)
    kind = ctx.rng.choice(sorted(KIND_WORDS))
    if any(kind in _open_kinds(ctx, a) for a in chosen):
        raise NoFit("a request of that kind is already open")
    prompt = ctx.say(
        "File {kind} privacy requests for {all}.",
        "Please ask each of these services for {what}: {services}.",
        "{N} privacy requests, all of kind {kind}: one each for {all}.",
        kind=kind.replace("_", "-"),
        what=KIND_WORDS[kind],
        all=listing([spoken_account(a) for a in chosen]),
        services=listing([f"{a.service} ({a.member})" for a in chosen]),
        N=NUMBERS[k].capitalize(),
    )
    steps = [
        RefStep(tool="search_accounts", args={"query": f"{a.service}, {a.member}"}) for a in chosen
    ]
    steps += [
        RefStep(
            tool="create_privacy_request",
            args={"account": ref(i, "results", 0, "account_id"), "kind": kind},
        )
        for i in range(k)
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def delete_breached(ctx: TemplateContext) -> Draft:
    """Mixture, writes: a member's breach notices -> a deletion request for each account."""
    member = ctx.rng.choice(["Maya", "Daniel", "Priya", "Leo"])
    notices = ctx.read("list_breach_notices", member=member)["results"]
    if not 2 <= len(notices) <= 4:
        raise NoFit("need two to four notices")
    kind = ctx.rng.choice(["deletion", "export"])
    accounts = [ctx.world.table("accounts")[n["account_id"]] for n in notices]
    if any(kind in _open_kinds(ctx, a) for a in accounts):
        raise NoFit("a request is already open")
    prompt = ctx.say(
        "For every service that sent {member} a breach notice, file a {kind} request for "
        "{member}'s account.",
        "{member} wants {what} from each service that reported a breach of their account. "
        "Please send those requests.",
        member=member,
        kind=kind,
        what=KIND_WORDS[kind],
    )
    steps = [RefStep(tool="list_breach_notices", args={"member": member})]
    steps += [
        RefStep(
            tool="create_privacy_request",
            args={"account": ref(0, "results", i, "account_id"), "kind": kind},
        )
        for i in range(len(notices))
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


SUBTOPIC = Subtopic(
    name="privacy requests",
    topic=SECURITY,
    templates={
        "sequential": [request_after_review, export_then_delete],
        "parallel": [open_request_deadlines, requests_counted],
        "mixture": [due_date_of_new, delete_breached],
    },
)
