"""Devices subtopic "privacy requests": data exports, deletions and their legal deadlines."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref
from toolchaos.suites.toolbench_x.templates.devices._helpers import (
    SECURITY,
    account_query,
    extreme,
    spoken_account,
    unique_extreme,
)

KIND_WORDS = {
    "export": "a copy of all the data they hold",
    "deletion": "deletion of all the data they hold",
    "correction": "a correction of the personal details they hold",
    "opt_out": "an opt-out from the sale or sharing of the data",
}


def _open_kinds(ctx: TemplateContext, acc: Any) -> set[str]:
    return {
        r.kind
        for r in ctx.rows("privacy_requests")
        if r.account_id == acc.account_id and r.status in ("submitted", "in_progress")
    }


def request_after_review(ctx: TemplateContext) -> Draft:
    """Sequential, writes: search the account -> its security record -> a privacy request."""
    acc = ctx.pick("accounts")
    kind = ctx.rng.choice([k for k in KIND_WORDS if k not in _open_kinds(ctx, acc)])
    prompt = ctx.say(
        "Send {service} a privacy request for {who}: I want {what}.",
        "On behalf of {member}, ask {service} for {what} (their {service} account). Check "
        "the account first.",
        "Please file a {kind} privacy request with {service} for {who}.",
        service=acc.service,
        who=spoken_account(acc),
        member=acc.member,
        what=KIND_WORDS[kind],
        kind=kind.replace("_", "-"),
    )
    steps = [
        RefStep(tool="search_accounts", args={"query": f"{acc.service}, {acc.member}"}),
        RefStep(tool="get_account_security", args={"account": ref(0, "results", 0, "account_id")}),
        RefStep(
            tool="create_privacy_request", args={"account": ref(1, "account_id"), "kind": kind}
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def export_then_delete(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: search the account -> export request -> deletion request."""
    acc = ctx.pick("accounts", lambda a: not {"export", "deletion"} & _open_kinds(ctx, a))
    prompt = ctx.say(
        "{member} is leaving {service}. First request an export of the account's data, then "
        "a deletion request.",
        "For {who}: file a data-export request and, right after it, a deletion request.",
        "Close out {who} the privacy-friendly way: export request first, then deletion.",
        member=acc.member,
        service=acc.service,
        who=spoken_account(acc),
    )
    steps = [
        RefStep(tool="search_accounts", args={"query": f"{acc.service}, {acc.member}"}),
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
    """Parallel: the requests of three accounts with open requests; fewest or most days left."""
    open_ids = sorted(
        {
            r.account_id
            for r in ctx.rows("privacy_requests")
            if r.status in ("submitted", "in_progress")
        }
    )
    if len(open_ids) < 3:
        raise NoFit("fewer than three accounts with open requests")
    chosen = [ctx.world.table("accounts")[k] for k in ctx.rng.sample(open_ids, 3)]
    op, words = extreme(ctx, {"min": "the fewest", "max": "the most"})
    lefts = [
        ctx.read("list_privacy_requests", account=a.account_id, status=None)["results"]
        for a in chosen
    ]
    if any(len(x) != 1 for x in lefts):
        raise NoFit("an account has several requests")
    unique_extreme([x[0]["days_left"] for x in lefts], op)
    prompt = ctx.say(
        "We have open privacy requests on {a}, {b} and {c}. Which deadline is closest? Give "
        "me {words} days left on any of them.",
        "Of the pending privacy requests for {a}, {b} and {c}, how many days are left on the "
        "one with {words} time remaining?",
        a=spoken_account(chosen[0]),
        b=spoken_account(chosen[1]),
        c=spoken_account(chosen[2]),
        words=words,
    )
    steps = [
        RefStep(tool="list_privacy_requests", args={"account": account_query(ctx, a)})
        for a in chosen
    ]
    refs = [[i, "results", 0, "days_left"] for i in range(3)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def due_date_of_new(ctx: TemplateContext) -> Draft:
    """Mixture, writes: two accounts (independent searches) -> a request for each."""
    chosen = ctx.sample("accounts", 2)
    kind = ctx.rng.choice(sorted(KIND_WORDS))
    if any(kind in _open_kinds(ctx, a) for a in chosen):
        raise NoFit("a request of that kind is already open")
    prompt = ctx.say(
        "File {kind} privacy requests with {a} and {b}.",
        "Please ask both {a_service} ({a_member}) and {b_service} ({b_member}) for {what}.",
        "Two privacy requests, both of kind {kind}: one for {a}, one for {b}.",
        kind=kind.replace("_", "-"),
        what=KIND_WORDS[kind],
        a=spoken_account(chosen[0]),
        b=spoken_account(chosen[1]),
        a_service=chosen[0].service,
        a_member=chosen[0].member,
        b_service=chosen[1].service,
        b_member=chosen[1].member,
    )
    steps = [
        RefStep(tool="search_accounts", args={"query": f"{a.service}, {a.member}"}) for a in chosen
    ]
    steps += [
        RefStep(
            tool="create_privacy_request",
            args={"account": ref(i, "results", 0, "account_id"), "kind": kind},
        )
        for i in range(2)
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
        "parallel": [open_request_deadlines],
        "mixture": [due_date_of_new, delete_breached],
    },
)
