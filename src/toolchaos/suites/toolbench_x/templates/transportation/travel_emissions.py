"""Transportation subtopic "travel emissions": the CO2 of routes and modes of travel."""

from __future__ import annotations

from typing import Any

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import Draft, NoFit, Subtopic, TemplateContext, ref

MODE_WORDS = {
    "rail": "by train",
    "bus": "by coach",
    "car": "driving alone",
    "taxi": "by taxi",
    "flight": "flying",
}


def _single_route(ctx: TemplateContext) -> tuple[Any, Any, Any]:
    """A route that is the only one between its two stations, and both stations."""
    route = ctx.pick("routes")
    same = ctx.rows(
        "routes",
        lambda r: (
            (r.origin_station_id, r.destination_station_id)
            == (route.origin_station_id, route.destination_station_id)
        ),
    )
    if len(same) != 1:
        raise NoFit("more than one route between the stations")
    stations = ctx.world.table("stations")
    return route, stations[route.origin_station_id], stations[route.destination_station_id]


def route_footprint(ctx: TemplateContext) -> Draft:
    """Sequential: find the origin -> routes to the destination -> the route -> its CO2."""
    route, origin, dest = _single_route(ctx)
    prompt = ctx.say(
        "What's the carbon footprint, in kg of CO2, of riding the {op} service from {a} "
        "({ac}) to {b} ({bc}) for one passenger?",
        "I take {op}'s route from {a} in {ac} to {b} in {bc}. How much CO2 (kg) does one "
        "trip on it emit per passenger?",
        "Estimate the emissions of one seat on the {op} route {a}, {ac} -> {b}, {bc}, in kg CO2.",
        op=route.operator,
        a=origin.name,
        ac=origin.city,
        b=dest.name,
        bc=dest.city,
    )
    steps = [
        RefStep(tool="find_stations", args={"query": origin.name, "city": origin.city}),
        RefStep(
            tool="list_routes",
            args={
                "origin_station_id": ref(0, "results", 0, "station_id"),
                "destination_station_id": dest.station_id,
            },
        ),
        RefStep(tool="get_route", args={"route_id": ref(1, "results", 0, "route_id")}),
        RefStep(
            tool="estimate_co2",
            args={"distance_km": ref(2, "distance_km"), "mode": ref(2, "mode")},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[3, "co2_kg"]], round=2))


def greenest_mode(ctx: TemplateContext) -> Draft:
    """Parallel: one distance in three modes; the lowest or highest emissions."""
    km = ctx.rng.randint(8, 90) * 5
    modes = ctx.rng.sample(sorted(MODE_WORDS), 3)
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "the lowest", "max": "the highest"}[op]
    prompt = ctx.say(
        "My trip is {km} km. Going {m1}, {m2} or {m3}: what's {words} CO2 figure, in kg?",
        "For {km} km, compare emissions {m1}, {m2} and {m3}. Give me {words} of the three.",
        "Per passenger over {km} km, which of {m1} / {m2} / {m3} emits {words}? The kg CO2.",
        km=km,
        m1=MODE_WORDS[modes[0]],
        m2=MODE_WORDS[modes[1]],
        m3=MODE_WORDS[modes[2]],
        words=words,
    )
    steps = [RefStep(tool="estimate_co2", args={"distance_km": km, "mode": m}) for m in modes]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, "co2_kg"] for i in range(3)], round=2))


def route_versus_driving(ctx: TemplateContext) -> Draft:
    """Mixture: one route's distance -> CO2 by its own mode and by car -> the lower."""
    route, origin, dest = _single_route(ctx)
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "the lower", "max": "the higher"}[op]
    prompt = ctx.say(
        "Between {a} ({ac}) and {b} ({bc}) there's a {mode} route. Over its distance, "
        "compare taking it with driving alone: what's {words} footprint in kg CO2?",
        "Should I drive or take the {mode} from {a}, {ac} to {b}, {bc}? Using the route's "
        "length, give me {words} of the two CO2 estimates (kg).",
        a=origin.name,
        ac=origin.city,
        b=dest.name,
        bc=dest.city,
        mode={"rail": "train", "bus": "coach"}[route.mode],
        words=words,
    )
    steps = [
        RefStep(
            tool="list_routes",
            args={
                "origin_station_id": origin.station_id,
                "destination_station_id": dest.station_id,
            },
        ),
        RefStep(
            tool="estimate_co2",
            args={"distance_km": ref(0, "results", 0, "distance_km"), "mode": route.mode},
        ),
        RefStep(
            tool="estimate_co2",
            args={"distance_km": ref(0, "results", 0, "distance_km"), "mode": "car"},
        ),
    ]
    answer = AnswerSpec(op=op, refs=[[1, "co2_kg"], [2, "co2_kg"]], round=2)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="travel emissions",
    templates={
        "sequential": [route_footprint],
        "parallel": [greenest_mode],
        "mixture": [route_versus_driving],
    },
)
