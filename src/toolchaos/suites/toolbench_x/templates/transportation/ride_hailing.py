"""Transportation subtopic "ride hailing": car rides between stations, fares and car types."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref
from toolchaos.suites.toolbench_x.templates.transportation._helpers import (
    _arg,
    _spoken,
)

RIDE_TYPES = {
    "standard": "a standard car",
    "shared": "a shared ride",
    "xl": "an XL car",
    "premium": "a premium car",
}
# (result field, how a person asks for it, digits)
_ASKS = (
    ("fare_usd", "how much will it cost (USD)", 2),
    ("duration_min", "how many minutes will the ride take", None),
    ("distance_km", "how many km is the drive", 1),
)


def _pair(ctx: TemplateContext) -> tuple[Any, Any]:
    """Two different stations of one city (a ride stays inside a city)."""
    first = ctx.pick("stations", lambda s: sum(t.city == s.city for t in ctx.rows("stations")) > 1)
    second = ctx.pick(
        "stations", lambda s: s.city == first.city and s.station_id != first.station_id
    )
    return first, second


def ride_then_footprint(ctx: TemplateContext) -> Draft:
    """Sequential: find the pickup station -> ride estimate -> the ride's CO2 as a taxi."""
    pickup, dropoff = _pair(ctx)
    ride = ctx.rng.choice(sorted(RIDE_TYPES))
    prompt = ctx.say(
        "I need {car} from {a} to {b}. Estimate the ride, then tell me the CO2 of that "
        "distance by taxi, in kg.",
        "Thinking of {car} between {a} and {b}. What's the carbon footprint (kg CO2, taxi "
        "factor) of the distance the ride estimate gives?",
        car=RIDE_TYPES[ride],
        a=_spoken(ctx, pickup.station_id),
        b=_spoken(ctx, dropoff.station_id),
    )
    steps = [
        RefStep(tool="find_stations", args={"query": pickup.name, "city": pickup.city}),
        RefStep(
            tool="ride_estimate",
            args={
                "pickup": ref(0, "results", 0, "station_id"),
                "dropoff": _arg(ctx, dropoff.station_id),
                "ride_type": ride,
            },
        ),
        RefStep(tool="estimate_co2", args={"distance_km": ref(1, "distance_km"), "mode": "taxi"}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "co2_kg"]], round=2))


def car_types_compared(ctx: TemplateContext) -> Draft:
    """Parallel: one ride in three car types; the cheapest or dearest fare."""
    pickup, dropoff = _pair(ctx)
    rides = ctx.rng.sample(sorted(RIDE_TYPES), 3)
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "the cheapest", "max": "the most expensive"}[op]
    prompt = ctx.say(
        "From {a} to {b}, compare {r1}, {r2} and {r3}. What's {words} fare?",
        "Price me a ride {a} -> {b} as {r1}, {r2} or {r3}; tell me {words} of the three.",
        "Which is {words} way to get from {a} to {b}: {r1}, {r2} or {r3}? Just the fare.",
        a=_spoken(ctx, pickup.station_id),
        b=_spoken(ctx, dropoff.station_id),
        r1=RIDE_TYPES[rides[0]],
        r2=RIDE_TYPES[rides[1]],
        r3=RIDE_TYPES[rides[2]],
        words=words,
    )
    steps = [
        RefStep(
            tool="ride_estimate",
            args={
                "pickup": _arg(ctx, pickup.station_id),
                "dropoff": _arg(ctx, dropoff.station_id),
                "ride_type": r,
            },
        )
        for r in rides
    ]
    return Draft(
        prompt, steps, AnswerSpec(op=op, refs=[[i, "fare_usd"] for i in range(3)], round=2)
    )


def ride_between_found_stations(ctx: TemplateContext) -> Draft:
    """Mixture: find both stations apart -> one ride estimate between them."""
    pickup, dropoff = _pair(ctx)
    ride = ctx.rng.choice(sorted(RIDE_TYPES))
    field, question, digits = ctx.rng.choice(_ASKS)
    if field == "duration_min" and ride == "shared":
        raise NoFit("a shared ride's time is a guess")
    prompt = ctx.say(
        "In {city}, I'm taking {car} from {a} to {b}. " + question.capitalize() + "?",
        "Getting across {city}: {car}, {a} to {b}. " + question.capitalize() + "?",
        city=pickup.city,
        car=RIDE_TYPES[ride],
        a=pickup.name,
        b=dropoff.name,
    )
    steps = [
        RefStep(tool="find_stations", args={"query": s.name, "city": s.city})
        for s in (pickup, dropoff)
    ]
    steps.append(
        RefStep(
            tool="ride_estimate",
            args={
                "pickup": ref(0, "results", 0, "station_id"),
                "dropoff": ref(1, "results", 0, "station_id"),
                "ride_type": ride,
            },
        )
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=digits))


SUBTOPIC = Subtopic(
    name="ride hailing",
    templates={
        "sequential": [ride_then_footprint],
        "parallel": [car_types_compared],
        "mixture": [ride_between_found_stations],
    },
)
