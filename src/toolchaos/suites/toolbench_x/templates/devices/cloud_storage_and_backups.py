"""Devices subtopic "cloud storage and backups": drive usage, quota projection, backups."""

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
    each_listed,
    extreme,
    find_device,
    the,
    unique_extreme,
)

USAGE_TOOLS = {
    "get_storage_usage": "the provider's own figures",
    "get_storage_usage_client": "the desktop sync app",
    "get_storage_usage_billing": "the billing portal",
}


def _free_gb(ctx: TemplateContext, drive: Any) -> float:
    used: float = ctx.world.table("usage_provider")[drive.drive_id].used_gb
    return float(drive.quota_gb) - used


def quota_projection(ctx: TemplateContext) -> Draft:
    """Sequential: find a member's drive -> its usage -> when it fills up."""
    drive = ctx.pick("drives")
    field = ctx.rng.choice(["full_on", "months_until_full", "used_gb", "used_gb"])
    ask = {
        "full_on": "on what date will it be full",
        "months_until_full": "how many months until it is full",
        "used_gb": "how many GB are in use right now, before we project anything",
    }[field]
    prompt = ctx.say(
        "{owner}'s {provider} keeps growing at its usual pace. {ask_cap}?",
        "At the current growth rate, {ask} — I mean {owner}'s {provider} storage?",
        "Check {owner}'s {provider} drive usage and project it forward: {ask}?",
        owner=drive.owner,
        provider=drive.provider,
        ask=ask,
        ask_cap=ask[0].upper() + ask[1:],
    )
    steps = [
        RefStep(tool="list_drives", args={"owner": drive.owner, "provider": drive.provider}),
        RefStep(tool="get_storage_usage", args={"drive": ref(0, "results", 0, "drive_id")}),
        RefStep(tool="project_storage_quota", args={"drive": ref(1, "drive_id")}),
    ]
    at = 1 if field == "used_gb" else 2
    spec = AnswerSpec(op="value", refs=[[at, field]], round=2 if field != "full_on" else None)
    return Draft(prompt, steps, spec)


def backup_device(ctx: TemplateContext) -> Draft:
    """Sequential, writes: drive usage -> a backup job for a device -> list that drive's jobs."""
    drive = ctx.pick("drives")
    free = _free_gb(ctx, drive)
    jobs = {(j.device_id, j.drive_id) for j in ctx.rows("backup_jobs")}
    device = ctx.pick(
        "devices",
        lambda d: (
            d.category in ("phone", "laptop", "tablet", "nas")
            and 0 < d.storage_used_gb <= free
            and (d.device_id, drive.drive_id) not in jobs
        ),
    )
    frequency = ctx.rng.choice(["daily", "weekly", "monthly"])
    prompt = ctx.say(
        "Set up a {frequency} backup of {device} to {label}, then show me every backup "
        "that goes to that drive.",
        "Please back {device} up {frequency} to {label} and list the jobs writing to "
        "it afterwards.",
        "Check there's room on {label}, then create a {frequency} backup job for {device}.",
        frequency=frequency,
        device=the(device.name),
        label=drive.label,
    )
    steps = [
        RefStep(tool="get_storage_usage", args={"drive": drive.label}),
        RefStep(
            tool="create_backup_job",
            args={"device": device.name, "drive": ref(0, "drive_id"), "frequency": frequency},
        ),
        RefStep(tool="list_backup_jobs", args={"drive": ref(1, "drive_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def backup_drive_fullness(ctx: TemplateContext) -> Draft:
    """Sequential: find a device -> its backup job -> when the job's drive fills up."""
    backed = {j.device_id for j in ctx.rows("backup_jobs")}
    device = ctx.pick("devices", lambda d: d.device_id in backed)
    if sum(j.device_id == device.device_id for j in ctx.rows("backup_jobs")) != 1:
        raise NoFit("the device must have one backup job")
    spoken, finder = find_device(ctx, device)
    field, asks = ctx.rng.choice(
        [
            ("months_until_full", "in how many months will it be full at its usual growth"),
            ("full_on", "on what date will it be full at its usual growth"),
            ("free_gb", "how many GB are still free on it"),
        ]
    )
    prompt = ctx.say(
        "{Device} backs up to one of our cloud drives. {Asks}?",
        "Find the drive that {device} backs up to: {asks}?",
        device=spoken,
        Device=spoken[0].upper() + spoken[1:],
        asks=asks,
        Asks=asks[0].upper() + asks[1:],
    )
    steps = [
        finder,
        RefStep(tool="list_backup_jobs", args={"device": ref(0, "results", 0, "device_id")}),
        RefStep(tool="project_storage_quota", args={"drive": ref(1, "results", 0, "drive_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def used_across_drives(ctx: TemplateContext) -> Draft:
    """Parallel: usage of k drives from one source; total or extreme."""
    k = ctx.count(3, 6)
    chosen = ctx.sample("drives", k)
    tool, named = ctx.choose_source(USAGE_TOOLS)
    op, words = extreme(
        ctx,
        {
            "sum": "how much space they use together",
            "max": "the most space any one of them uses",
            "min": "the least space any one of them uses",
        },
    )
    if op != "sum":
        unique_extreme([ctx.world.table("usage_provider")[d.drive_id].used_gb for d in chosen], op)
    prompt = ctx.say(
        *(
            (
                "Across {all}, what's {words}, in GB? Go by {source}.",
                "According to {source}, for {all}: {words} (GB)?",
                "Storage audit of {all} using {source} — {words}?",
            )
            if named
            else (
                "Across {all}, what's {words}, in GB?",
                "Storage audit of {all}: {words} (GB)?",
            )
        ),
        words=words,
        source=USAGE_TOOLS[tool],
        all=listing([x.label for x in chosen]),
    )
    steps = [RefStep(tool=tool, args={"drive": d.label}) for d in chosen]
    refs = [[i, "used_gb"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def soonest_full(ctx: TemplateContext) -> Draft:
    """Parallel: quota projections of k drives; fewest or most months left."""
    k = ctx.count(3, 5)
    chosen = ctx.sample("drives", k)
    op, words = extreme(ctx, {"min": "soonest", "max": "last"})
    months = [
        ctx.read("project_storage_quota", drive=d.drive_id)["months_until_full"] for d in chosen
    ]
    unique_extreme(months, op)
    prompt = ctx.say(
        "Of {all}, the one that fills up {words} — how many months does it have "
        "left at its usual growth?",
        "Project {all} forward at their normal growth. How many months until the "
        "one that fills {words} runs out of space?",
        words=words,
        all=listing([x.label for x in chosen]),
    )
    steps = [RefStep(tool="project_storage_quota", args={"drive": d.label}) for d in chosen]
    refs = [[i, "months_until_full"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def member_drives_used(ctx: TemplateContext) -> Draft:
    """Mixture: list a member's drives -> usage of each -> total or extreme."""
    counts = Counter(d.owner for d in ctx.rows("drives"))
    owner = ctx.rng.choice(sorted(o for o, n in counts.items() if n >= 2))
    drives = ctx.read("list_drives", owner=owner)["results"]
    tool, named = ctx.choose_source(USAGE_TOOLS)
    op, words = extreme(
        ctx,
        {"sum": "the total space used", "max": "the most used on any one of them"},
    )
    if op == "max":
        unique_extreme(
            [ctx.world.table("usage_provider")[d["drive_id"]].used_gb for d in drives], op
        )
    prompt = ctx.say(
        *(
            (
                "{owner} has several cloud drives. Per {source}, what's {words} across them (GB)?",
                "Go through all of {owner}'s cloud storage plans and, using {source}, tell me "
                "{words} in GB.",
            )
            if named
            else (
                "{owner} has several cloud drives. What's {words} across them (GB)?",
                "Go through all of {owner}'s cloud storage plans and tell me {words} in GB.",
            )
        ),
        owner=owner,
        source=USAGE_TOOLS[tool],
        words=words,
    )
    return each_listed(
        prompt,
        RefStep(tool="list_drives", args={"owner": owner}),
        len(drives),
        call=(tool, "drive", "drive_id"),
        field="used_gb",
        op=op,
        digits=1,
    )


def backup_targets_used(ctx: TemplateContext) -> Draft:
    """Mixture: list backup jobs -> usage of each job's drive -> extreme or total."""
    jobs = ctx.read("list_backup_jobs")["results"]
    if len({j["drive_id"] for j in jobs}) < 2:
        raise NoFit("the backups use one drive")
    # "fullest" or "emptiest" could mean the most GB or the highest share of the quota;
    # the request asks for the most or least GB used, which has one reading
    op, words = extreme(ctx, {"max": "the most", "min": "the fewest"})
    prompt = ctx.say(
        "Our backup jobs write to a few drives. Of those drives, how many GB are used on the "
        "one with {words} GB in use?",
        "Check each drive a backup job targets: what is the used space (GB) of the drive "
        "using {words} GB?",
        "For the drives our backups land on, give me the used GB of the one with {words} GB used.",
        words=words,
    )
    return each_listed(
        prompt,
        RefStep(tool="list_backup_jobs", args={}),
        len(jobs),
        call=(ctx.unnamed_source(USAGE_TOOLS) or "get_storage_usage", "drive", "drive_id"),
        field="used_gb",
        op=op,
        digits=1,
    )


SUBTOPIC = Subtopic(
    name="cloud storage and backups",
    templates={
        "sequential": [quota_projection, backup_device, backup_drive_fullness],
        "parallel": [used_across_drives, soonest_full],
        "mixture": [member_drives_used, backup_targets_used],
    },
)
