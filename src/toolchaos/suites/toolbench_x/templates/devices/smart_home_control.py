"""Devices subtopic "smart home control": device state, energy use and running costs."""

from __future__ import annotations

from collections import Counter

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, Subtopic, TemplateContext, listing, ref
from toolchaos.suites.toolbench_x.templates.devices._helpers import (
    CATEGORY_WORDS,
    devices,
    each_listed,
    extreme,
    find_device,
    pick_devices,
    spoken_names,
    the,
    unique_extreme,
)

ENERGY_TOOLS = {
    "get_device_energy": "the HomeHub energy monitor",
    "get_device_energy_vendor": "the maker's app",
    "get_device_energy_utility": "the utility's usage insights",
}


def energy_of_room_device(ctx: TemplateContext) -> Draft:
    """Sequential: find the one device of a kind in a room -> its record -> its energy."""
    pairs = Counter((d.room, d.category) for d in devices(ctx))
    room, category = ctx.rng.choice(sorted(k for k, n in pairs.items() if n == 1))
    field = ctx.rng.choice(["energy_kwh_30d", "avg_power_w"])
    ask = {
        "energy_kwh_30d": "how many kWh has it used over the last 30 days",
        "avg_power_w": "what has its average draw in watts been over the last 30 days",
    }[field]
    # a request that does not ask for the home monitor may be read from another source
    unnamed = ctx.unnamed_source(ENERGY_TOOLS)
    prompt = ctx.say(
        "There's only one {what} in our {room}. Check it and tell me {ask}.",
        "Energy question about the {room} {what}: {ask}?",
        *(
            ()
            if unnamed
            else ("For the {what} in the {room}: {ask}? Go by the home energy monitor.",)
        ),
        what=CATEGORY_WORDS[category],
        room=room,
        ask=ask,
    )
    steps = [
        RefStep(tool="search_devices", args={"room": room, "category": category}),
        RefStep(tool="get_device", args={"device": ref(0, "results", 0, "device_id")}),
        RefStep(tool=unnamed or "get_device_energy", args={"device": ref(1, "device_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def switch_device(ctx: TemplateContext) -> Draft:
    """Sequential, writes: search by name -> device record -> set its state."""
    target = ctx.pick(
        "devices", lambda d: d.online and d.category in ("light", "thermostat", "plug", "tv")
    )
    state = "off" if target.power_state == "on" else "on"
    args: dict[str, object] = {"power_state": state}
    extra = ""
    if target.category == "light" and state == "on":
        args["brightness_pct"] = ctx.rng.choice([20, 35, 60, 80])
        extra = f" at {args['brightness_pct']}% brightness"
    if target.category == "thermostat":
        args["power_state"] = "on"
        args["target_temp_c"] = ctx.rng.choice([18.5, 19.0, 21.5, 22.0])
        extra = f" and set it to {args['target_temp_c']} °C"
    spoken, finder = find_device(ctx, target)
    prompt = ctx.say(
        "Please turn {name} {state}{extra}.",
        "Can you switch {name} {state}{extra}? Look it up first so you get the right one.",
        "I'm not home: set {name} to {state}{extra}.",
        name=spoken,
        state=args["power_state"],
        extra=extra,
    )
    steps = [
        finder,
        RefStep(tool="get_device", args={"device": ref(0, "results", 0, "device_id")}),
        RefStep(tool="set_device_state", args={"device": ref(1, "device_id"), **args}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def running_cost_of_device(ctx: TemplateContext) -> Draft:
    """Sequential: find a device -> its record (draw, hours) -> the cost of running it."""
    device = ctx.pick("devices", lambda d: d.power_w >= 5 and d.hours_per_day > 0)
    spoken, finder = find_device(ctx, device)
    days = ctx.rng.choice([7, 30, 90, 365])
    span = {7: "a week", 30: "30 days", 90: "90 days", 365: "a year"}[days]
    field, asks = ctx.rng.choice(
        [
            ("cost_usd", "what does that cost on our plan, in USD"),
            ("energy_kwh", "how many kWh is that"),
        ]
    )
    prompt = ctx.say(
        "Running {device} for {span} at its usual hours and power draw: {asks}?",
        "Look up the typical power draw and daily hours of {device}. Over {span}, {asks}?",
        device=spoken,
        span=span,
        asks=asks,
    )
    steps = [
        finder,
        RefStep(tool="get_device", args={"device": ref(0, "results", 0, "device_id")}),
        RefStep(
            tool="estimate_energy_cost",
            args={
                "power_w": ref(1, "power_w"),
                "hours_per_day": ref(1, "hours_per_day"),
                "days": days,
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def total_energy_three(ctx: TemplateContext) -> Draft:
    """Parallel: energy of k devices from one source; sum or extreme."""
    k = ctx.count(3, 6)
    chosen = pick_devices(ctx, k, lambda d: d.hours_per_day * d.power_w > 20)
    tool, named = ctx.choose_source(ENERGY_TOOLS)
    op, words = extreme(
        ctx,
        {
            "sum": "the combined energy they used",
            "max": "the most energy any one of them used",
            "min": "the least energy any one of them used",
        },
    )
    values = [ctx.world.table("energy_hub")[d.device_id].energy_kwh_30d for d in chosen]
    if op != "sum":
        unique_extreme(values, op)
    prompt = ctx.say(
        *(
            (
                "Over the last 30 days, what was {words} among {all}, in kWh? Use {source}.",
                "Looking at {source}: of {all}, give me {words} over the past 30 days (kWh).",
            )
            if named
            else (
                "Over the last 30 days, what was {words} among {all}, in kWh?",
                "Of {all}, give me {words} over the past 30 days (kWh).",
            )
        ),
        words=words,
        source=ENERGY_TOOLS[tool],
        all=listing([the(x.name) for x in chosen]),
    )
    steps = [RefStep(tool=tool, args={"device": d.name}) for d in chosen]
    refs = [[i, "energy_kwh_30d"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def hungriest_device(ctx: TemplateContext) -> Draft:
    """Parallel: k device records; the highest or lowest typical draw among them."""
    k = ctx.count(3, 6)
    chosen = pick_devices(ctx, k, lambda d: d.power_w >= 12)
    op, words = extreme(ctx, {"max": "the highest", "min": "the lowest"})
    unique_extreme([d.power_w for d in chosen], op)
    prompt = ctx.say(
        "What's {words} typical power draw, in watts, among {all}?",
        "Between {all}, give me {words} draw while running (W).",
        "Quick check on typical draw: of {all}, what is {words} wattage?",
        words=words,
        all=listing([the(x.name) for x in chosen]),
    )
    steps = [RefStep(tool="get_device", args={"device": d.name}) for d in chosen]
    refs = [[i, "power_w"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=1))


def two_plug_costs(ctx: TemplateContext) -> Draft:
    """Mixture: two device records (independent) -> a cost estimate for each -> sum."""
    chosen = pick_devices(ctx, 2, lambda d: d.power_w * d.hours_per_day >= 50)
    days = ctx.rng.choice([7, 14, 30, 90])
    prompt = ctx.say(
        "At their usual daily use, what will {a} and {b} cost together in "
        "electricity over the next {days} days?",
        "Estimate the combined power bill for running {a} and {b} their typical "
        "hours for {days} days, in dollars.",
        "How much should I budget for electricity for {a} plus {b} over {days} "
        "days if they run as usual?",
        days=days,
        **spoken_names(chosen),
    )
    steps = [RefStep(tool="get_device", args={"device": d.name}) for d in chosen]
    steps += [
        RefStep(
            tool="estimate_energy_cost",
            args={
                "power_w": ref(i, "power_w"),
                "hours_per_day": ref(i, "hours_per_day"),
                "days": days,
            },
        )
        for i in range(2)
    ]
    answer = AnswerSpec(op="sum", refs=[[2, "cost_usd"], [3, "cost_usd"]], round=2)
    return Draft(prompt, steps, answer)


def room_energy(ctx: TemplateContext) -> Draft:
    """Mixture: list a room's devices -> the energy of each -> sum or extreme."""
    rooms = Counter(d.room for d in devices(ctx))
    room = ctx.rng.choice(sorted(r for r, n in rooms.items() if 2 <= n <= 5))
    listed = ctx.rows("devices", lambda d: d.room == room)
    op, words = extreme(
        ctx,
        {
            "sum": "the total energy used by everything",
            "max": "the largest 30-day energy use of any single device",
        },
    )
    if op == "max":
        unique_extreme(
            [ctx.world.table("energy_hub")[d.device_id].energy_kwh_30d for d in listed], op
        )
    unnamed = ctx.unnamed_source(ENERGY_TOOLS)
    prompt = ctx.say(
        "What's {words} in the {room} over the last 30 days, in kWh?",
        "Go through every device in our {room} and tell me {words} over the past 30 days "
        + ("(kWh)." if unnamed else "(kWh, per the energy monitor)."),
        words=words,
        room=room,
    )
    return each_listed(
        prompt,
        RefStep(tool="search_devices", args={"room": room}),
        len(listed),
        call=(unnamed or "get_device_energy", "device", "device_id"),
        field="energy_kwh_30d",
        op=op,
        digits=2,
    )


SUBTOPIC = Subtopic(
    name="smart home control",
    templates={
        "sequential": [energy_of_room_device, switch_device, running_cost_of_device],
        "parallel": [total_energy_three, hungriest_device],
        "mixture": [two_plug_costs, room_energy],
    },
)
