"""Devices subtopic "software updates": newest firmware, compatibility and scheduling."""

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
    each_listed,
    extreme,
    find_device,
    pick_devices,
    spoken_names,
    the,
    unique_extreme,
    when,
)

FIRMWARE_TOOLS = {
    "get_latest_firmware": "the maker's release notes",
    "get_latest_firmware_mirror": "the UpdateMirror index",
    "get_latest_firmware_community": "FirmwareWatch",
}


def _updatable(ctx: TemplateContext, device: Any) -> bool:
    """Whether the newest firmware installs directly and nothing is scheduled yet."""
    if any(u.device_id == device.device_id for u in ctx.rows("updates")):
        return False
    latest = ctx.read("get_latest_firmware", device=device.device_id)["latest_version"]
    verdict = ctx.read("check_update_compatibility", device=device.device_id, target_version=latest)
    return bool(verdict["compatible"])


def _distinct_models(chosen: list[Any]) -> None:
    if len({d.model_key for d in chosen}) != len(chosen):
        raise NoFit("two devices share a model")


def schedule_latest(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the device -> its newest firmware -> schedule it."""
    target = ctx.pick("devices", lambda d: _updatable(ctx, d))
    when_day = ctx.day(ctx.rng.randint(1, 14))
    spoken, finder = find_device(ctx, target)
    readout = ctx.rng.random() < 0.5
    prompt = ctx.say(
        "Schedule the newest firmware for {name} to install on {when}.{ask}",
        "Is there a newer firmware for {name}? Put the latest version on the update "
        "schedule for {when}.{ask}",
        "Please queue the latest firmware update of {name} for {when}.{ask}",
        name=spoken,
        when=when(when_day),
        ask=" Which version number is that?" if readout else "",
    )
    steps = [
        finder,
        RefStep(tool="get_latest_firmware", args={"device": ref(0, "results", 0, "device_id")}),
        RefStep(
            tool="schedule_update",
            args={
                "device": ref(1, "device_id"),
                "version": ref(1, "latest_version"),
                "date": when_day,
            },
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[1, "latest_version"]]) if readout else None
    return Draft(prompt, steps, answer or AnswerSpec(op="none"), writes=True)


def latest_build_of_room_device(ctx: TemplateContext) -> Draft:
    """Sequential: search a device -> its record -> the newest firmware's build or size."""
    target = ctx.pick("devices")
    field = ctx.rng.choice(["latest_build", "size_mb"])
    ask = {
        "latest_build": "what build number is the newest firmware",
        "size_mb": "how big (in MB) is the newest firmware download",
    }[field]
    spoken, finder = find_device(ctx, target)
    # a request that does not ask for the maker's own notes may be read from another source
    unnamed = ctx.unnamed_source(FIRMWARE_TOOLS)
    prompt = ctx.say(
        "I'm about to update {name}. {ask_cap}?",
        "Check the model of {name}: {ask}?",
        *(() if unnamed else ("For {name}, {ask}? Use the maker's information.",)),
        name=spoken,
        ask=ask,
        ask_cap=ask[0].upper() + ask[1:],
    )
    steps = [
        finder,
        RefStep(tool="get_device", args={"device": ref(0, "results", 0, "device_id")}),
        RefStep(tool=unnamed or "get_latest_firmware", args={"device": ref(1, "device_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=1))


def download_sizes(ctx: TemplateContext) -> Draft:
    """Parallel: newest firmware of k devices from one source; total or biggest size."""
    k = ctx.count(3, 5)
    chosen = pick_devices(ctx, k, lambda d: d.category not in ("light", "plug"))
    _distinct_models(chosen)
    tool, named = ctx.choose_source(FIRMWARE_TOOLS)
    op, words = extreme(
        ctx, {"sum": "the total download size", "max": "the largest single download"}
    )
    if op == "max":
        sizes = [ctx.world.table("fw_vendor")[d.model_key].size_mb for d in chosen]
        unique_extreme(sizes, op)
    prompt = ctx.say(
        *(
            (
                "Before I update {all} on my metered connection: what is "
                "{words} of their newest firmware, in MB, according to {source}?",
                "Using {source}, tell me {words} (MB) of the latest firmware for {all}.",
            )
            if named
            else (
                "Before I update {all} on my metered connection: what is "
                "{words} of their newest firmware, in MB?",
                "Tell me {words} (MB) of the latest firmware for {all}.",
            )
        ),
        words=words,
        source=FIRMWARE_TOOLS[tool],
        all=listing([the(x.name) for x in chosen]),
    )
    steps = [RefStep(tool=tool, args={"device": d.name}) for d in chosen]
    refs = [[i, "size_mb"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def newest_build(ctx: TemplateContext) -> Draft:
    """Parallel: newest firmware of k devices; the highest or lowest build number."""
    k = ctx.count(3, 5)
    chosen = pick_devices(ctx, k)
    _distinct_models(chosen)
    op, words = extreme(ctx, {"max": "highest", "min": "lowest"})
    builds = [ctx.world.table("fw_vendor")[d.model_key].latest_build for d in chosen]
    unique_extreme(builds, op)
    unnamed = ctx.unnamed_source(FIRMWARE_TOOLS)
    prompt = ctx.say(
        "Among the newest firmware releases for {all}, which build number is the {words}?",
        "What's the {words} latest-build number across {all}?",
        *(
            ()
            if unnamed
            else (
                "Compare the current firmware builds the makers list for {all}; give me the "
                "{words} one.",
            )
        ),
        words=words,
        all=listing([the(x.name) for x in chosen]),
    )
    tool = unnamed or "get_latest_firmware"
    steps = [RefStep(tool=tool, args={"device": d.name}) for d in chosen]
    refs = [[i, "latest_build"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def update_two(ctx: TemplateContext) -> Draft:
    """Mixture, writes: newest firmware of two devices (independent) -> schedule both."""
    chosen = pick_devices(ctx, 2, lambda d: _updatable(ctx, d))
    when_day = ctx.day(ctx.rng.randint(2, 20))
    prompt = ctx.say(
        "Update night is {when}: schedule the latest firmware for both {a} and {b}.",
        "Please put the newest firmware for {a} and for {b} on the schedule for {when}.",
        "Queue {a} and {b} to get their latest firmware on {when}.",
        when=when(when_day),
        **spoken_names(chosen),
    )
    steps = [RefStep(tool="get_latest_firmware", args={"device": d.name}) for d in chosen]
    steps += [
        RefStep(
            tool="schedule_update",
            args={
                "device": ref(i, "device_id"),
                "version": ref(i, "latest_version"),
                "date": when_day,
            },
        )
        for i in range(2)
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def scheduled_download_sizes(ctx: TemplateContext) -> Draft:
    """Mixture: list scheduled updates -> newest firmware of each device -> sum or extreme."""
    listing = ctx.read("list_scheduled_updates", status="scheduled")["results"]
    tool, named = ctx.choose_source(FIRMWARE_TOOLS)
    op, words = extreme(
        ctx,
        {
            "sum": "the total size of their newest firmware",
            "max": "the biggest newest-firmware download among them",
            "min": "the smallest newest-firmware download among them",
        },
    )
    if op != "sum":
        sizes = [
            ctx.world.table("fw_vendor")[
                ctx.world.table("devices")[u["device_id"]].model_key
            ].size_mb
            for u in listing
        ]
        unique_extreme(sizes, op)
    prompt = ctx.say(
        *(
            (
                "For each device with a firmware update scheduled, check {source}: what is "
                "{words}, in MB?",
                "Look at the pending scheduled updates and, per {source}, tell me {words} (MB).",
                "I want to know the bandwidth hit of the scheduled updates. Using {source}, "
                "what's {words}?",
            )
            if named
            else (
                "For each device with a firmware update scheduled, what is {words}, in MB?",
                "Look at the pending scheduled updates and tell me {words} (MB).",
                "I want to know the bandwidth hit of the scheduled updates. What's {words}?",
            )
        ),
        source=FIRMWARE_TOOLS[tool],
        words=words,
    )
    return each_listed(
        prompt,
        RefStep(tool="list_scheduled_updates", args={"status": "scheduled"}),
        len(listing),
        call=(tool, "device", "device_id"),
        field="size_mb",
        op=op,
        digits=1,
    )


SUBTOPIC = Subtopic(
    name="software updates",
    templates={
        "sequential": [schedule_latest, latest_build_of_room_device],
        "parallel": [download_sizes, newest_build],
        "mixture": [update_two, scheduled_download_sizes],
    },
)
