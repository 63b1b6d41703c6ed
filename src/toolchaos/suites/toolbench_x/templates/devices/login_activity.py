"""Devices subtopic "login activity": sign-in history and impossible-travel checks."""

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

TRAVEL_FIELDS = {
    "speed_kmh": "how fast (km/h) someone would have had to travel between them",
    "distance_km": "how far apart (km) they were",
    "hours_apart": "how many hours apart they were",
}


def _events(ctx: TemplateContext, acc: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = ctx.read("list_login_events", account=acc.account_id)["results"]
    return found


def _apart(events: list[dict[str, Any]], i: int, j: int) -> bool:
    """Whether two events are in different cities (so the travel figures are not zero)."""
    return bool(events[i]["city"] != events[j]["city"])


def travel_latest_two(ctx: TemplateContext) -> Draft:
    """Sequential: search the account -> its sign-ins -> travel check of the latest two."""
    _, who, finder = pick_account(ctx, lambda a: _apart(_events(ctx, a), 0, 1))
    field = ctx.rng.choice(sorted(TRAVEL_FIELDS))
    prompt = ctx.say(
        "Look at the two most recent sign-ins to {who}. They came from different cities: {ask}?",
        "I got a sign-in alert for {who}. Compare its latest two sign-ins and tell me {ask}.",
        "Impossible-travel check on the two newest sign-ins of {who}: {ask}?",
        who=who,
        ask=TRAVEL_FIELDS[field],
    )
    steps = [
        finder,
        RefStep(tool="list_login_events", args={"account": ref(0, "results", 0, "account_id")}),
        RefStep(
            tool="check_impossible_travel",
            args={
                "first_event": ref(1, "results", 1, "event_id"),
                "second_event": ref(1, "results", 0, "event_id"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def travel_latest_vs_third(ctx: TemplateContext) -> Draft:
    """Sequential: security record -> sign-ins -> travel between the newest and third."""
    acc = ctx.pick(
        "accounts", lambda a: len(_events(ctx, a)) >= 3 and _apart(_events(ctx, a), 0, 2)
    )
    field = ctx.rng.choice(["distance_km", "hours_apart"])
    prompt = ctx.say(
        "For {who}, compare the newest sign-in with the third most recent one: {ask}?",
        "Pull up {who}, list its sign-ins, and between the latest and the third-latest, "
        "tell me {ask}.",
        who=spoken_account(acc),
        ask=TRAVEL_FIELDS[field],
    )
    steps = [
        RefStep(tool="get_account_security", args={"account": account_query(ctx, acc)}),
        RefStep(tool="list_login_events", args={"account": ref(0, "account_id")}),
        RefStep(
            tool="check_impossible_travel",
            args={
                "first_event": ref(1, "results", 2, "event_id"),
                "second_event": ref(1, "results", 0, "event_id"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def _pairs(ctx: TemplateContext, k: int) -> list[tuple[str, str]]:
    accounts = ctx.sample("accounts", k, lambda a: _apart(_events(ctx, a), 0, 1))
    out = []
    for acc in accounts:
        events = _events(ctx, acc)
        out.append((events[1]["event_id"], events[0]["event_id"]))
    return out


def signins_since_password_change(ctx: TemplateContext) -> Draft:
    """Sequential: find the account -> its security record -> sign-ins since the change."""
    acc, who, finder = pick_account(ctx)
    security = ctx.read("get_account_security", account=acc.account_id)
    success = ctx.rng.choice([None, False])
    args: dict[str, Any] = {"since": security["password_changed_on"]}
    if success is not None:
        args["success"] = success
    found = ctx.read("list_login_events", account=acc.account_id, **args)["total"]
    if found < 2:
        raise NoFit("too few sign-ins since the change")
    what = "failed sign-in attempts" if success is False else "sign-ins"
    prompt = ctx.say(
        "How many {what} has {who} had since its password was last changed?",
        "Since the last password change on {who}, how many {what} were there?",
        who=who,
        what=what,
    )
    steps = [
        finder,
        RefStep(tool="get_account_security", args={"account": ref(0, "results", 0, "account_id")}),
        RefStep(
            tool="list_login_events",
            args={
                "account": ref(1, "account_id"),
                "since": ref(1, "password_changed_on"),
                **({"success": success} if success is not None else {}),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "total"]]))


def fastest_pair(ctx: TemplateContext) -> Draft:
    """Parallel: k flagged sign-in pairs (ids from an alert); the top speed or distance."""
    k = ctx.count(3, 5)
    pairs = _pairs(ctx, k)
    field = ctx.rng.choice(["speed_kmh", "distance_km"])
    op, words = extreme(ctx, {"max": "largest", "min": "smallest"})
    values = [
        ctx.read("check_impossible_travel", first_event=a, second_event=b)[field] for a, b in pairs
    ]
    unique_extreme(values, op)
    what = {"speed_kmh": "implied travel speed (km/h)", "distance_km": "distance (km)"}[field]
    listed = "; ".join(f"{a} then {b}" for a, b in pairs)
    prompt = ctx.say(
        "Our security digest flagged {n} sign-in pairs: {listed}. What is the {words} "
        "{what} among them?",
        "Check these sign-in pairs for impossible travel — {listed} — and give me the "
        "{words} {what}.",
        listed=listed,
        n=NUMBERS[k],
        words=words,
        what=what,
    )
    steps = [
        RefStep(tool="check_impossible_travel", args={"first_event": a, "second_event": b})
        for a, b in pairs
    ]
    refs = [[i, field] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def failed_signins(ctx: TemplateContext) -> Draft:
    """Parallel: sign-in histories of k accounts; total or top count of sign-ins."""
    k = ctx.count(3, 6)
    chosen = ctx.sample("accounts", k)
    totals = [len(_events(ctx, a)) for a in chosen]
    op, words = extreme(
        ctx,
        {"sum": "how many sign-ins they have in total", "max": "the most sign-ins on any one"},
    )
    if op == "max":
        unique_extreme(totals, op)
    if sum(totals) < 11:
        raise NoFit("small total")
    prompt = ctx.say(
        "Across {all}, {words} in the recorded history?",
        "Count the recorded sign-ins for {all}: {words}?",
        all=listing([spoken_account(a) for a in chosen]),
        words=words,
    )
    steps = [
        RefStep(tool="list_login_events", args={"account": account_query(ctx, a)}) for a in chosen
    ]
    refs = [[i, "total"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def two_accounts_latest(ctx: TemplateContext) -> Draft:
    """Mixture: latest sign-ins of two accounts (independent) -> travel between them."""
    chosen = ctx.sample("accounts", 2)
    first, second = (_events(ctx, a)[0] for a in chosen)
    if first["city"] == second["city"]:
        raise NoFit("same city")
    field = ctx.rng.choice(sorted(TRAVEL_FIELDS))
    prompt = ctx.say(
        "The latest sign-in to {a} and the latest one to {b} — if the same person made "
        "both, {ask}?",
        "Compare the newest sign-in on {a} with the newest on {b}: {ask}?",
        a=spoken_account(chosen[0]),
        b=spoken_account(chosen[1]),
        ask=TRAVEL_FIELDS[field],
    )
    steps = [
        RefStep(tool="list_login_events", args={"account": account_query(ctx, a)}) for a in chosen
    ]
    steps.append(
        RefStep(
            tool="check_impossible_travel",
            args={
                "first_event": ref(0, "results", 0, "event_id"),
                "second_event": ref(1, "results", 0, "event_id"),
            },
        )
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def worst_hop(ctx: TemplateContext) -> Draft:
    """Mixture: search account -> sign-ins -> h travel checks (hops) -> the fastest hop."""
    hops = ctx.count(2, 4)
    acc = ctx.pick(
        "accounts",
        lambda a: (
            len(_events(ctx, a)) > hops
            and all(_apart(_events(ctx, a), i, i + 1) for i in range(hops))
        ),
    )
    field = ctx.rng.choice(["speed_kmh", "distance_km"])
    what = {"speed_kmh": "travel speed (km/h)", "distance_km": "distance (km)"}[field]
    prompt = ctx.say(
        "For {who}, take the {n} newest sign-ins and check each hop from one to the next. "
        "What's the highest implied {what} among those {h} hops?",
        "Look at the {n} newest sign-ins of {who} as {h} consecutive hops. Which hop has the "
        "biggest {what}? Give me the number.",
        who=spoken_account(acc),
        what=what,
        n=NUMBERS[hops + 1],
        h=NUMBERS[hops],
    )
    steps = [
        RefStep(tool="search_accounts", args={"query": f"{acc.service}, {acc.member}"}),
        RefStep(tool="list_login_events", args={"account": ref(0, "results", 0, "account_id")}),
    ]
    steps += [
        RefStep(
            tool="check_impossible_travel",
            args={
                "first_event": ref(1, "results", i + 1, "event_id"),
                "second_event": ref(1, "results", i, "event_id"),
            },
        )
        for i in range(hops)
    ]
    answer = AnswerSpec(op="max", refs=[[2 + i, field] for i in range(hops)], round=1)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="login activity",
    topic=SECURITY,
    templates={
        "sequential": [travel_latest_two, travel_latest_vs_third, signins_since_password_change],
        "parallel": [fastest_pair, failed_signins],
        "mixture": [two_accounts_latest, worst_hop],
    },
)
