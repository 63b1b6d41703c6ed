"""Devices subtopic "home network": Wi-Fi speed per room, connected clients, blocking."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.domains.devices import data
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
    cap,
    extreme,
    find_device,
    pick_devices,
    the,
    unique_extreme,
)

SPEED_TOOLS = {
    "get_speed_test": "the router's own test",
    "get_speed_test_app": "the SpeedCheck app",
    "get_speed_test_mlab": "M-Lab",
}
SPEED_FIELDS = {
    "download_mbps": ("download speed", "Mbit/s"),
    "upload_mbps": ("upload speed", "Mbit/s"),
    "latency_ms": ("latency", "ms"),
}


def speed_where_device_is(ctx: TemplateContext) -> Draft:
    """Sequential: search a device -> its record (room) -> that room's speed test."""
    device = ctx.pick("devices", lambda d: d.category not in ("router",))
    field = ctx.rng.choice(sorted(SPEED_FIELDS))
    what, unit = SPEED_FIELDS[field]
    spoken, finder = find_device(ctx, device)
    speed_tool = ctx.unnamed_source(SPEED_TOOLS) or "get_speed_test"
    prompt = ctx.say(
        "{Name} keeps buffering. What {what} does the Wi-Fi get in the room it's in ({unit})?",
        "Find which room {name} is in and tell me the latest {what} measured there, in {unit}.",
        "Is the Wi-Fi the problem for {name}? Give me the {what} ({unit}) of the most recent "
        "speed test in its room.",
        name=spoken,
        Name=cap(spoken),
        what=what,
        unit=unit,
    )
    steps = [
        finder,
        RefStep(tool="get_device", args={"device": ref(0, "results", 0, "device_id")}),
        RefStep(tool=speed_tool, args={"room": ref(1, "room")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=1))


def speed_for_client(ctx: TemplateContext) -> Draft:
    """Sequential: find a Wi-Fi client by hostname -> its device -> its room's speed."""
    client = ctx.pick("clients", lambda c: c.device_id is not None)
    field = ctx.rng.choice(sorted(SPEED_FIELDS))
    what, unit = SPEED_FIELDS[field]
    prompt = ctx.say(
        "The router lists a client called '{host}'. Which device is that, and what {what} "
        "does its room get? I only need the number in {unit}.",
        "Look up the Wi-Fi client '{host}', find the device behind it and report the "
        "{what} ({unit}) from the speed test in that device's room.",
        host=client.hostname,
        what=what,
        unit=unit,
    )
    steps = [
        RefStep(tool="list_network_clients", args={"query": client.hostname}),
        RefStep(tool="get_device", args={"device": ref(0, "results", 0, "device_id")}),
        RefStep(
            tool=ctx.unnamed_source(SPEED_TOOLS) or "get_speed_test", args={"room": ref(1, "room")}
        ),
    ]
    if [c.hostname for c in ctx.rows("clients")].count(client.hostname) != 1:
        raise NoFit("hostnames are unique")
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=1))


def clients_in_device_room(ctx: TemplateContext) -> Draft:
    """Sequential: find a device -> its record (room) -> the Wi-Fi clients in that room."""
    device = ctx.pick("devices", lambda d: any(c.room == d.room for c in ctx.rows("clients")))
    spoken, finder = find_device(ctx, device)
    band = ctx.rng.choice([None, "2.4GHz", "5GHz"])
    prompt = ctx.say(
        "How many{band} clients are on the Wi-Fi in the room where {device} is?",
        "Look up {device}, then count the{band} Wi-Fi clients connected in its room.",
        device=spoken,
        band=f" {band}" if band else "",
    )
    args: dict[str, Any] = {"room": ref(1, "room")}
    if band:
        args["band"] = band
    steps = [
        finder,
        RefStep(tool="get_device", args={"device": ref(0, "results", 0, "device_id")}),
        RefStep(tool="list_network_clients", args=args),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "total"]]))


def room_speeds(ctx: TemplateContext) -> Draft:
    """Parallel: speed tests of k rooms from one source; best or worst."""
    k = ctx.count(3, 5)
    rooms = ctx.rng.sample(data.ROOMS, k)
    tool, named = ctx.choose_source(SPEED_TOOLS)
    field = ctx.rng.choice(["download_mbps", "upload_mbps"])
    what, unit = SPEED_FIELDS[field]
    op, words = extreme(ctx, {"max": "the best", "min": "the worst"})
    unique_extreme([ctx.world.table("speed_router")[r].__getattribute__(field) for r in rooms], op)
    prompt = ctx.say(
        *(
            (
                "Comparing {all}: what's {words} {what} ({unit}), per {source}?",
                "Where should I set up the new desk? Using {source}, give me {words} {what} "
                "among {all} in {unit}.",
                "{source_cap} results for {all}: what is {words} {what}?",
            )
            if named
            else (
                "Comparing {all}: what's {words} {what} ({unit})?",
                "Where should I set up the new desk? Give me {words} {what} among {all} in {unit}.",
            )
        ),
        all=listing([the(r) for r in rooms]),
        what=what,
        unit=unit,
        words=words,
        source=SPEED_TOOLS[tool],
        source_cap=SPEED_TOOLS[tool][0].upper() + SPEED_TOOLS[tool][1:],
    )
    steps = [RefStep(tool=tool, args={"room": r}) for r in rooms]
    refs = [[i, field] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def client_data_use(ctx: TemplateContext) -> Draft:
    """Parallel: k Wi-Fi clients by hostname; total or top data use this week."""
    k = ctx.count(3, 6)
    chosen = ctx.sample("clients", k, lambda c: c.data_gb_7d >= 1)
    op, words = extreme(
        ctx,
        {"sum": "how much data they used in total", "max": "the most data any one used"},
    )
    if op == "max":
        unique_extreme([c.data_gb_7d for c in chosen], op)
    prompt = ctx.say(
        "Over the last 7 days, for the Wi-Fi clients {all}: {words}, in GB?",
        "Our data cap is close. Check {all} on the router and tell me {words} this past week (GB).",
        all=listing([x.hostname for x in chosen], "'"),
        words=words,
    )
    steps = [RefStep(tool="list_network_clients", args={"query": c.hostname}) for c in chosen]
    refs = [[i, "results", 0, "data_gb_7d"] for i in range(k)]
    for c in chosen:
        if sum(c.hostname in o.hostname for o in ctx.rows("clients")) != 1:
            raise NoFit("hostname is a part of another")
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def speed_at_two_devices(ctx: TemplateContext) -> Draft:
    """Mixture: search k devices (independent) -> the speed test in each one's room."""
    k = ctx.count(2, 4)
    chosen = pick_devices(ctx, k)
    if len({d.room for d in chosen}) < k:
        raise NoFit("two devices share a room")
    tool, named = ctx.choose_source(SPEED_TOOLS)
    field = ctx.rng.choice(["download_mbps", "latency_ms"])
    what, unit = SPEED_FIELDS[field]
    more = {"max": "higher", "min": "lower"} if k == 2 else {"max": "highest", "min": "lowest"}
    op, words = extreme(ctx, more)
    prompt = ctx.say(
        *(
            (
                "{All} are in different rooms. Of those rooms, which has the {words} {what}? "
                "Give me that figure in {unit}, per {source}.",
                "Check where {all} sit and compare their rooms' {what} from {source}: what's "
                "the {words} value ({unit})?",
            )
            if named
            else (
                "{All} are in different rooms. Of those rooms, which has the {words} {what}? "
                "Give me that figure in {unit}.",
                "Check where {all} sit and compare their rooms' {what}: what's the {words} "
                "value ({unit})?",
            )
        ),
        what=what,
        unit=unit,
        words=words,
        source=SPEED_TOOLS[tool],
        all=listing([the(d.name) for d in chosen]),
        All=cap(listing([the(d.name) for d in chosen])),
    )
    steps = [RefStep(tool="search_devices", args={"query": d.name}) for d in chosen]
    steps += [RefStep(tool=tool, args={"room": ref(i, "results", 0, "room")}) for i in range(k)]
    refs = [[k + i, field] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def block_two_clients(ctx: TemplateContext) -> Draft:
    """Mixture, writes: find k clients (independent) -> block or allow each."""
    access = ctx.rng.choice(["blocked", "allowed"])
    k = ctx.count(2, 4)
    chosen = ctx.sample("clients", k, lambda c: c.access != access)
    verb = {"blocked": "Block", "allowed": "Unblock"}[access]
    prompt = ctx.say(
        "{verb} {all} on the home Wi-Fi, please.",
        "{N} clients on the router, {all}: {verb_lower} {each}.",
        "Please find the Wi-Fi clients {all} and {verb_lower} them.",
        verb=verb,
        verb_lower=verb.lower(),
        all=listing([c.hostname for c in chosen], "'"),
        N=NUMBERS[k].capitalize(),
        each="both of them" if k == 2 else "all of them",
    )
    steps = [RefStep(tool="list_network_clients", args={"query": c.hostname}) for c in chosen]
    steps += [
        RefStep(
            tool="set_client_access",
            args={"client": ref(i, "results", 0, "client_id"), "access": access},
        )
        for i in range(k)
    ]
    for c in chosen:
        if sum(c.hostname in o.hostname for o in ctx.rows("clients")) != 1:
            raise NoFit("hostname is a part of another")
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


SUBTOPIC = Subtopic(
    name="home network",
    templates={
        "sequential": [speed_where_device_is, speed_for_client, clients_in_device_room],
        "parallel": [room_speeds, client_data_use],
        "mixture": [speed_at_two_devices, block_two_clients],
    },
)
