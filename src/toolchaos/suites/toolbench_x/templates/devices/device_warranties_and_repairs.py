"""Devices subtopic "device warranties and repairs": coverage, claims and repair requests."""

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
    CATEGORY_WORDS,
    MEMBERS,
    NUMBERS,
    cap,
    devices,
    each_listed,
    extreme,
    find_device,
    pick_devices,
    the,
    unique_extreme,
    when,
)

ISSUES = (
    "won't turn on",
    "battery drains overnight",
    "keeps dropping off Wi-Fi",
    "makes a grinding noise",
    "screen flickers",
    "overheats after a few minutes",
)


def _open_repair(ctx: TemplateContext, device_id: str) -> bool:
    return any(
        r.device_id == device_id and r.status in ("open", "scheduled") for r in ctx.rows("repairs")
    )


def repair_then_power_off(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: find the device -> open a repair -> switch it off."""
    target = ctx.pick(
        "devices",
        lambda d: d.online and d.power_state == "on" and not _open_repair(ctx, d.device_id),
    )
    issue = ctx.rng.choice(ISSUES)
    dropoff = ctx.day(ctx.rng.randint(2, 20))
    spoken, finder = find_device(ctx, target)
    readout = ctx.rng.random() < 0.5
    prompt = ctx.say(
        "{Name} {issue}. Open a repair request with drop-off on {when}, and switch it off "
        "until then.{ask}",
        "Please log a repair for {name} (it {issue}); I'll drop it off {when}. Then power it "
        "off so it doesn't get worse.{ask}",
        "{Name} {issue}. File a repair request for drop-off {when} and turn the device off.{ask}",
        name=spoken,
        Name=spoken[0].upper() + spoken[1:],
        issue=issue,
        when=when(dropoff),
        ask=" What will the repair cost us, per the request?" if readout else "",
    )
    steps = [
        finder,
        RefStep(
            tool="create_repair_request",
            args={
                "device": ref(0, "results", 0, "device_id"),
                "issue": issue,
                "dropoff_date": dropoff,
            },
        ),
        RefStep(
            tool="set_device_state",
            args={"device": ref(1, "device_id"), "power_state": "off"},
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[1, "estimate_usd"]], round=2) if readout else None
    return Draft(prompt, steps, answer or AnswerSpec(op="none"), writes=True)


def coverage_end_of_owned(ctx: TemplateContext) -> Draft:
    """Sequential: the one device a member owns of a kind -> its record -> its warranty end."""
    pairs = Counter((d.owner, d.category) for d in devices(ctx) if d.owner in MEMBERS)
    owner, category = ctx.rng.choice(sorted(k for k, n in pairs.items() if n == 1))
    prompt = ctx.say(
        "When does the warranty on {owner}'s {what} run out?",
        "{owner} is worried about the {what}. Until what date is it covered, protection "
        "plan included?",
        "Look up {owner}'s {what} and tell me the last day of its warranty coverage.",
        owner=owner,
        what=CATEGORY_WORDS[category],
    )
    steps = [
        RefStep(tool="search_devices", args={"owner": owner, "category": category}),
        RefStep(tool="get_device", args={"device": ref(0, "results", 0, "device_id")}),
        RefStep(tool="get_warranty", args={"device": ref(1, "device_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "coverage_ends"]]))


def _days_left(ctx: TemplateContext, device: Any) -> int:
    found: int = ctx.read("get_warranty", device=device.device_id)["days_remaining"]
    return found


def days_left_three(ctx: TemplateContext) -> Draft:
    """Parallel: k warranties; the fewest or most days of coverage left."""
    k = ctx.count(3, 6)
    chosen = pick_devices(ctx, k, lambda d: _days_left(ctx, d) > 70)
    op, words = extreme(
        ctx, {"min": "the fewest days of coverage", "max": "the most days of coverage"}
    )
    unique_extreme([_days_left(ctx, d) for d in chosen], op)
    prompt = ctx.say(
        "{All} are all still under warranty. Which has {words} "
        "left? Just give me the number of days.",
        "Of {all}, what's {words} remaining on any of their warranties, in days?",
        words=words,
        all=listing([the(x.name) for x in chosen]),
        All=cap(listing([the(x.name) for x in chosen])),
    )
    steps = [RefStep(tool="get_warranty", args={"device": d.name}) for d in chosen]
    refs = [[i, "days_remaining"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def total_paid(ctx: TemplateContext) -> Draft:
    """Parallel: k warranty records; the total or top price paid."""
    k = ctx.count(3, 6)
    chosen = pick_devices(ctx, k, lambda d: d.price_usd > 90)
    op, words = extreme(
        ctx,
        {"sum": "how much we paid for them in total", "max": "the highest price we paid"},
    )
    prompt = ctx.say(
        "For an insurance form: {all} — {words}?",
        "I'm listing valuables. Check the purchase records of {all} and tell me {words}.",
        "Warranty paperwork time. Across {all}, {words}?",
        words=words,
        all=listing([the(x.name) for x in chosen]),
    )
    steps = [RefStep(tool="get_warranty", args={"device": d.name}) for d in chosen]
    refs = [[i, "price_usd"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def repair_two(ctx: TemplateContext) -> Draft:
    """Mixture, writes: k warranties (independent) -> a repair request for each."""
    k = ctx.count(2, 3)
    chosen = pick_devices(ctx, k, lambda d: not _open_repair(ctx, d.device_id))
    issues = ctx.rng.sample(ISSUES, k)
    dropoff = ctx.day(ctx.rng.randint(3, 25))
    prompt = ctx.say(
        "{N} things broke: {broke}. Check their warranties and file a repair request for "
        "each, drop-off {when}.",
        "Please open repair requests for {each}. I'll bring {all} in on {when}.",
        N=NUMBERS[k].capitalize(),
        broke=listing([f"{the(d.name)} {issue}" for d, issue in zip(chosen, issues, strict=True)]),
        each=listing([f"{the(d.name)} ({issue})" for d, issue in zip(chosen, issues, strict=True)]),
        all="both" if k == 2 else "all of them",
        when=when(dropoff),
    )
    steps = [RefStep(tool="get_warranty", args={"device": d.name}) for d in chosen]
    steps += [
        RefStep(
            tool="create_repair_request",
            args={"device": ref(i, "device_id"), "issue": issues[i], "dropoff_date": dropoff},
        )
        for i in range(k)
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def repaired_devices_paid(ctx: TemplateContext) -> Draft:
    """Mixture: list repairs in a status -> the warranty record of each -> sum or max."""
    status = ctx.rng.choice(["completed", "open", "cancelled", "scheduled"])
    listing = ctx.read("list_repair_requests", status=status)["results"]
    if status in ("open", "scheduled"):
        listing = ctx.read("list_repair_requests")["results"]
        status = ""
    if len(listing) < 2:
        raise NoFit("fewer than two repairs")
    op, words = extreme(
        ctx,
        {
            "sum": "the total we originally paid for those devices",
            "max": "the highest purchase price among those devices",
        },
    )
    which = f"{status} repair requests" if status else "repair requests on file"
    prompt = ctx.say(
        "Look at our {which}. What's {words}?",
        "For every device in our {which}, check its warranty record. Tell me {words}.",
        "Across the devices with {which}, what is {words}?",
        which=which,
        words=words,
    )
    args = {"status": status} if status else {}
    return each_listed(
        prompt,
        RefStep(tool="list_repair_requests", args=args),
        len(listing),
        call=("get_warranty", "device", "device_id"),
        field="price_usd",
        op=op,
        digits=2,
    )


SUBTOPIC = Subtopic(
    name="device warranties and repairs",
    templates={
        "sequential": [repair_then_power_off, coverage_end_of_owned],
        "parallel": [days_left_three, total_paid],
        "mixture": [repair_two, repaired_devices_paid],
    },
)
