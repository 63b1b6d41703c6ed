"""Devices subtopic "data breach alerts": breach notices, their size and the response."""

from __future__ import annotations

from collections import Counter
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
    MEMBERS,
    SECURITY,
    breach_sizes,
    each_listed,
    extreme,
    spoken_account,
    unique_extreme,
)

BREACH_TOOLS = {
    "get_breach": "the company's regulator filing",
    "get_breach_index": "BreachIndex",
    "get_breach_press": "the LeakWire news desk",
}


def _notices(ctx: TemplateContext, **args: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = ctx.read("list_breach_notices", **args)["results"]
    return found


def _notified(ctx: TemplateContext) -> list[Any]:
    """Accounts that received a breach notice."""
    ids = {n["account_id"] for n in _notices(ctx)}
    return ctx.rows("accounts", lambda a: a.account_id in ids)


def _open_export(ctx: TemplateContext, acc: Any) -> bool:
    return any(
        r.account_id == acc.account_id
        and r.kind == "export"
        and r.status in ("submitted", "in_progress")
        for r in ctx.rows("privacy_requests")
    )


def respond_to_breach(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: the notice -> two-factor on -> ask for a data export."""
    fits = [
        a for a in _notified(ctx) if a.two_factor != "security_key" and not _open_export(ctx, a)
    ]
    if not fits:
        raise NoFit("no notified account")
    acc = ctx.rng.choice(fits)
    readout = ctx.rng.random() < 0.5
    prompt = ctx.say(
        "{member} got a breach notice from {service}. Require a security key for that "
        "account, then ask {service} for a copy of the data they hold.{ask}",
        "After the {service} breach, please harden {who} with security-key two-factor and "
        "request an export of its data so we can see what leaked.{ask}",
        "{service} was breached and {member} has an account there. Pull up the notice, "
        "enable security-key sign-in, then file a data-export request.{ask}",
        member=acc.member,
        service=acc.service,
        who=spoken_account(acc),
        ask=f" By what date must {acc.service} send the export?" if readout else "",
    )
    steps = [
        RefStep(tool="list_breach_notices", args={"member": acc.member, "service": acc.service}),
        RefStep(
            tool="enable_two_factor",
            args={"account": ref(0, "results", 0, "account_id"), "method": "security_key"},
        ),
        RefStep(
            tool="create_privacy_request",
            args={"account": ref(1, "account_id"), "kind": "export"},
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "due_date"]]) if readout else None
    return Draft(prompt, steps, answer or AnswerSpec(op="none"), writes=True)


def breach_size_for_account(ctx: TemplateContext) -> Draft:
    """Sequential: search the account -> its breach notice -> the breach's record count."""
    acc = ctx.rng.choice(_notified(ctx) or [None])
    if acc is None:
        raise NoFit("no notified account")
    prompt = ctx.say(
        "{who_cap} was caught up in a breach. How many records did that breach expose?",
        "We got a breach notice about {who}. Find the breach and tell me how many records "
        "were affected.",
        "How big was the breach behind the notice on {who}? Number of records, please.",
        who=spoken_account(acc),
        who_cap=spoken_account(acc),
    )
    steps = [
        RefStep(tool="search_accounts", args={"query": f"{acc.service}, {acc.member}"}),
        RefStep(
            tool="list_breach_notices",
            args={
                "service": ref(0, "results", 0, "service"),
                "member": ref(0, "results", 0, "member"),
            },
        ),
        RefStep(
            tool=ctx.unnamed_source(BREACH_TOOLS) or "get_breach",
            args={"breach": ref(1, "results", 0, "breach_id")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "records_affected"]]))


def breached_account_travel(ctx: TemplateContext) -> Draft:
    """Sequential: a breach notice -> the account's sign-ins -> travel between the latest two."""
    member = ctx.rng.choice(MEMBERS)
    notice = ctx.rng.choice(ctx.read("list_breach_notices", member=member)["results"])
    service = notice["service"]
    if ctx.read("list_breach_notices", member=member, service=service)["total"] != 1:
        raise NoFit("the member must have exactly one notice about the service")
    events = ctx.read("list_login_events", account=notice["account_id"])["results"]
    if len(events) < 2 or events[0]["city"] == events[1]["city"]:
        raise NoFit("the latest two sign-ins must be in different cities")
    field, asks = ctx.rng.choice(
        [
            ("speed_kmh", "how fast (km/h) would someone have had to travel between them"),
            ("distance_km", "how far apart (km) were they"),
        ]
    )
    prompt = ctx.say(
        "{member} got a breach notice about {service}. Check the two most recent sign-ins "
        "on that account for impossible travel: {asks}?",
        "After the {service} breach, I'm worried about {member}'s account. Compare its latest "
        "two sign-ins: {asks}?",
        member=member,
        service=service,
        asks=asks,
    )
    steps = [
        RefStep(tool="list_breach_notices", args={"member": member, "service": service}),
        RefStep(tool="list_login_events", args={"account": ref(0, "results", 0, "account_id")}),
        RefStep(
            tool="check_impossible_travel",
            args={
                "first_event": ref(1, "results", 1, "event_id"),
                "second_event": ref(1, "results", 0, "event_id"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def breach_totals(ctx: TemplateContext) -> Draft:
    """Parallel: three breaches from one source; total, largest or smallest count."""
    return breach_sizes(
        ctx,
        BREACH_TOOLS,
        {
            "sum": "the combined number of exposed records",
            "max": "the record count of the biggest one",
            "min": "the record count of the smallest one",
        },
        (
            "{N} breach alerts came in: {all}. According to {source}, what's {words}?",
            "For the {all} data breaches, give me {words} (per {source}).",
        ),
        (
            "{N} breach alerts came in: {all}. What's {words}?",
            "For the {all} data breaches, give me {words}.",
        ),
    )


def breach_by_id(ctx: TemplateContext) -> Draft:
    """Parallel: k breaches named by the ids in an alert email; total or extreme."""
    k = ctx.count(3, 6)
    breaches = ctx.sample("breaches", k)
    op, words = extreme(ctx, {"sum": "total", "max": "largest", "min": "smallest"})
    prompt = ctx.say(
        "My alert email lists breaches {all}. What is the {words} number of "
        "affected records among them?",
        "Breach references {all}: give me the {words} affected-record count.",
        all=listing([x.breach_id for x in breaches]),
        words=words,
    )
    tool = ctx.unnamed_source(BREACH_TOOLS) or "get_breach"
    steps = [RefStep(tool=tool, args={"breach": b.breach_id}) for b in breaches]
    refs = [[i, "records_affected"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def member_breaches(ctx: TemplateContext) -> Draft:
    """Mixture: a member's breach notices -> each breach's record count -> total or extreme."""
    counts = Counter(n["member"] for n in _notices(ctx))
    member = ctx.rng.choice(sorted(m for m in MEMBERS if 2 <= counts[m] <= 5))
    notices = _notices(ctx, member=member)
    tool, named = ctx.choose_source(BREACH_TOOLS)
    op, words = extreme(
        ctx,
        {
            "sum": "the total number of records exposed across them",
            "max": "the size of the largest, in records",
            "min": "the size of the smallest, in records",
        },
    )
    if op != "sum":
        sizes = [ctx.world.table("breach_notice")[n["breach_id"]].records_affected for n in notices]
        unique_extreme(sizes, op)
    prompt = ctx.say(
        *(
            (
                "{member} has had several breach notices. Using {source}, what's {words}?",
                "Go through every breach notice for {member} and, per {source}, tell me {words}.",
            )
            if named
            else (
                "{member} has had several breach notices. What's {words}?",
                "Go through every breach notice for {member} and tell me {words}.",
            )
        ),
        member=member,
        source=BREACH_TOOLS[tool],
        words=words,
    )
    return each_listed(
        prompt,
        RefStep(tool="list_breach_notices", args={"member": member}),
        len(notices),
        call=(tool, "breach", "breach_id"),
        field="records_affected",
        op=op,
    )


def two_breaches_then_notices(ctx: TemplateContext) -> Draft:
    """Mixture: two breaches (independent) -> both sizes via the index -> total or larger."""
    breaches = ctx.sample("breaches", 2)
    op, words = extreme(ctx, {"sum": "combined", "max": "larger"})
    prompt = ctx.say(
        "Look up the {a} and {b} breaches, then cross-check each on BreachIndex. What's "
        "the {words} record count there?",
        "For the {a} and {b} breaches: find them, then give me the {words} number of "
        "records BreachIndex lists.",
        a=breaches[0].service,
        b=breaches[1].service,
        words=words,
    )
    steps = [RefStep(tool="get_breach", args={"breach": b.service}) for b in breaches]
    steps += [
        RefStep(tool="get_breach_index", args={"breach": ref(i, "breach_id")}) for i in range(2)
    ]
    refs = [[2, "records_affected"], [3, "records_affected"]]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


SUBTOPIC = Subtopic(
    name="data breach alerts",
    topic=SECURITY,
    templates={
        "sequential": [respond_to_breach, breach_size_for_account, breached_account_travel],
        "parallel": [breach_totals, breach_by_id],
        "mixture": [member_breaches, two_breaches_then_notices],
    },
)
