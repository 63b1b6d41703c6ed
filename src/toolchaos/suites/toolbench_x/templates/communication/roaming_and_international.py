"""Roaming and international calls: rates abroad, trip estimates and roaming day passes."""

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
    when,
)
from toolchaos.suites.toolbench_x.templates.communication._helpers import (
    RATE_SOURCES,
    abroad,
    clear_of,
    op_words,
    pick_contact,
    rate_pick,
    rate_source_words,
    rates_via_cards,
    roaming_countries,
    sold_pass,
)

_ROAMING_FIELDS = {
    "data_per_mb_usd": "roaming data price per MB",
    "roaming_call_per_min_usd": "per-minute price of calls while roaming",
    "sms_usd": "price of a text",
    "intl_call_per_min_usd": "per-minute price of calling there from home",
}
_DATA_PER_DAY = (50, 100, 150, 200, 250, 300, 500)


def _trip(ctx: TemplateContext) -> tuple[int, int, int]:
    """Data per day (MB), call minutes and texts for an estimate."""
    return (
        ctx.rng.choice(_DATA_PER_DAY),
        ctx.rng.choice((0, 10, 20, 30, 45, 60)),
        ctx.rng.choice((0, 5, 10, 20)),
    )


def _estimate_args(country: Any, days: Any, mb: int, minutes: int, texts: int) -> dict[str, Any]:
    args: dict[str, Any] = {"country": country, "days": days, "data_mb_per_day": mb}
    if minutes:
        args["call_minutes"] = minutes
    if texts:
        args["sms_count"] = texts
    return args


def _usage_words(mb: int, minutes: int, texts: int) -> str:
    parts = [f"about {mb} MB of data a day"]
    if minutes:
        parts.append(f"{minutes} minutes of calls in total")
    if texts:
        parts.append(f"{texts} texts")
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def pass_trip_estimate(ctx: TemplateContext) -> Draft:
    """Sequential: a roaming pass -> that country's rates -> an estimate for a new trip."""
    passes = ctx.rows("roaming_passes")
    status = ctx.rng.choice(sorted({p.status for p in passes}))
    listed = ctx.read("list_roaming_passes", status=status)["results"]
    k = ctx.rng.randrange(len(listed))
    mb, minutes, texts = _trip(ctx)
    days = ctx.rng.randint(2, 10)
    field = ctx.rng.choice(["best_cost_usd", "pay_as_you_go_usd"])
    which = {
        "best_cost_usd": "the cheapest option (pass or pay-as-you-go) would cost",
        "pay_as_you_go_usd": "pay-as-you-go would cost, without a pass",
    }[field]
    if len(listed) > 1:
        order = {0: "first", 1: "second", 2: "third"}[k]
        pass_words = f"the {order} of my {status} roaming passes (by start date)"
    else:
        pass_words = f"my {status} roaming pass"
    prompt = ctx.say(
        "Look at {pass_words}. I'm going back to that country for {days} days with {usage}. "
        "What would {which}?",
        "Going back to the country of {pass_words} for {days} days, using {usage}: how "
        "much {which}?",
        pass_words=pass_words,
        days=days,
        usage=_usage_words(mb, minutes, texts),
        which=which,
    )
    estimate = ctx.read(
        "estimate_roaming_cost",
        **_estimate_args(listed[k]["country"], days, mb, minutes, texts),
    )
    clear_of(prompt, estimate[field])
    steps = [
        RefStep(tool="list_roaming_passes", args={"status": status}),
        RefStep(tool="get_roaming_rates", args={"country": ref(0, "results", k, "country")}),
        RefStep(
            tool="estimate_roaming_cost",
            args=_estimate_args(ref(1, "country"), days, mb, minutes, texts),
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def pass_for_contact_visit(ctx: TemplateContext) -> Draft:
    """Sequential, writes: search the contact -> their country's rates -> buy a day pass."""
    person = pick_contact(ctx, lambda c: abroad(c) and sold_pass(ctx, c.country))
    start = ctx.rng.randint(3, 40)
    days = ctx.rng.randint(2, 9)
    for p in ctx.rows("roaming_passes"):
        if p.country == person.country and p.status in ("active", "upcoming"):
            raise NoFit("a pass already covers that country")
    readout = ctx.rng.random() < 0.5
    prompt = ctx.say(
        "I'm visiting {name} from {d1} for {days} days. Buy me a roaming day pass for their "
        "country covering the whole stay.{ask}",
        "Set me up with a roaming pass for wherever {name} lives: {days} days starting {d1}.{ask}",
        "Book a {days}-day roaming pass starting {d1} for the country my contact {name} lives "
        "in.{ask}",
        name=person.name,
        d1=when(ctx.day(start)),
        days=days,
        ask=" What did the pass cost, in USD?" if readout else "",
    )
    steps = [
        RefStep(tool="search_contacts", args={"query": person.name}),
        RefStep(tool="get_roaming_rates", args={"country": ref(0, "results", 0, "country")}),
        RefStep(
            tool="buy_roaming_pass",
            args={"country": ref(1, "country"), "start_date": ctx.day(start), "days": days},
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "price_usd"]], round=2) if readout else None
    return Draft(prompt, steps, answer or AnswerSpec(op="none"), writes=True)


def trip_estimate_for_contact(ctx: TemplateContext) -> Draft:
    """Sequential: search the contact -> their country's rates -> a trip's cost estimate."""
    person = pick_contact(ctx, lambda c: abroad(c))
    mb, minutes, texts = _trip(ctx)
    days = ctx.rng.randint(2, 10)
    field = ctx.rng.choice(["best_cost_usd", "pay_as_you_go_usd"])
    which = {
        "best_cost_usd": "the cheapest option (pass or pay-as-you-go) would cost",
        "pay_as_you_go_usd": "pay-as-you-go would cost, without a pass",
    }[field]
    prompt = ctx.say(
        "I'm visiting {name} where they live for {days} days, using {usage}. What would {which}?",
        "{days} days in {name}'s home country with {usage}: how much {which}?",
        name=person.name,
        days=days,
        usage=_usage_words(mb, minutes, texts),
        which=which,
    )
    estimate = ctx.read(
        "estimate_roaming_cost", **_estimate_args(person.country, days, mb, minutes, texts)
    )
    clear_of(prompt, estimate[field])
    steps = [
        RefStep(tool="search_contacts", args={"query": person.name}),
        RefStep(tool="get_roaming_rates", args={"country": ref(0, "results", 0, "country")}),
        RefStep(
            tool="estimate_roaming_cost",
            args=_estimate_args(ref(1, "country"), days, mb, minutes, texts),
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def rate_across_three_countries(ctx: TemplateContext) -> Draft:
    """Parallel: one source's rates for k countries; cheapest or dearest of one rate."""
    k = ctx.count(3, 6)
    countries = ctx.rng.sample(roaming_countries(ctx), k)
    tool, field, named = rate_pick(ctx, _ROAMING_FIELDS)
    op, extreme = op_words(ctx, "highest", "lowest")
    prompt = ctx.say(
        "I'm choosing between {all} for a trip. What's the {extreme} {what} among them{source}?",
        "Compare the {what} in {all}{source}; give me the {extreme} one.",
        "Of {all}, which has the {extreme} {what}? I just need the price{source}.",
        all=listing([x.name for x in countries]),
        extreme=extreme,
        what=_ROAMING_FIELDS[field],
        source=rate_source_words(tool, named),
    )
    steps = [RefStep(tool=tool, args={"country": c.name}) for c in countries]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, field] for i in range(k)], round=2))


def every_source_worst_case(ctx: TemplateContext) -> Draft:
    """Parallel: all three rate sources for one country; the worst-case (highest) price."""
    country = ctx.rng.choice(roaming_countries(ctx))
    field = ctx.rng.choice(sorted(_ROAMING_FIELDS))
    prompt = ctx.say(
        "Check every rate source you have (the carrier's sheet, RoamCompare and "
        "TariffWatch) for {country} and give me the worst-case {what}.",
        "To budget safely for {country}, look the {what} up in all three rate sources and "
        "tell me the highest figure.",
        country=country.name,
        what=_ROAMING_FIELDS[field],
    )
    steps = [RefStep(tool=t, args={"country": country.code}) for t in sorted(RATE_SOURCES)]
    return Draft(prompt, steps, AnswerSpec(op="max", refs=[[i, field] for i in range(3)], round=2))


def cheapest_trip_of_three(ctx: TemplateContext) -> Draft:
    """Parallel: roaming estimates for the same trip to k countries; cheapest or dearest."""
    k = ctx.count(3, 5)
    countries = ctx.rng.sample(roaming_countries(ctx), k)
    mb, minutes, texts = _trip(ctx)
    days = ctx.rng.randint(2, 14)
    op, extreme = op_words(ctx, "most expensive", "cheapest")
    prompt = ctx.say(
        "A {days}-day trip with {usage}: in {any}, what would the {extreme} "
        "destination cost me in roaming (best option in each)?",
        "Estimate roaming for {days} days in each of {all} with {usage}, taking "
        "the cheaper of pass or pay-as-you-go each time. What's the {extreme} total?",
        days=days,
        usage=_usage_words(mb, minutes, texts),
        all=listing([x.name for x in countries]),
        any=listing([x.name for x in countries]).replace(" and ", " or "),
        extreme=extreme,
    )
    costs = [
        ctx.read("estimate_roaming_cost", **_estimate_args(c.code, days, mb, minutes, texts))[
            "best_cost_usd"
        ]
        for c in countries
    ]
    clear_of(prompt, max(costs) if op == "max" else min(costs))
    steps = [
        RefStep(tool="estimate_roaming_cost", args=_estimate_args(c.name, days, mb, minutes, texts))
        for c in countries
    ]
    answer = AnswerSpec(op=op, refs=[[i, "best_cost_usd"] for i in range(k)], round=2)
    return Draft(prompt, steps, answer)


def two_contacts_roaming_rates(ctx: TemplateContext) -> Draft:
    """Mixture: k contact cards -> the rates where each lives -> dearest or cheapest."""
    k = ctx.count(2, 4)
    people = ctx.sample("contacts", k, lambda c: abroad(c))
    if len({p.country for p in people}) < k:
        raise NoFit("two contacts live in one country")
    tool, field, named = rate_pick(ctx, _ROAMING_FIELDS)
    op, extreme = op_words(ctx, "higher", "lower") if k == 2 else op_words(ctx, "highest", "lowest")
    prompt = ctx.say(
        "I'll visit {all} in their home countries. What's the {extreme} {what} of those "
        "countries{source}?",
        "Trip to see {all} where they live: among those countries, give me the {extreme} "
        "{what}{source}.",
        all=listing([p.name for p in people]),
        extreme=extreme,
        what=_ROAMING_FIELDS[field],
        source=rate_source_words(tool, named),
    )
    steps, refs = rates_via_cards(tool, field, [p.name for p in people], 0)
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


def two_leg_trip_cost(ctx: TemplateContext) -> Draft:
    """Mixture: rates of two countries -> an estimate for each leg -> total or dearer."""
    first, second = ctx.rng.sample(roaming_countries(ctx), 2)
    d1, d2 = ctx.rng.randint(2, 7), ctx.rng.randint(2, 7)
    mb = ctx.rng.choice(_DATA_PER_DAY)
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "What's my total roaming bill for the trip, choosing the cheaper option on each "
        "leg?",
        "max": "Which leg costs more in roaming (cheaper option each time), and how much is "
        "it? Just the amount.",
    }[op]
    prompt = ctx.say(
        "Two-country trip: {d1} days in {a}, then {d2} days in {b}, about {mb} MB of data a "
        "day. " + question,
        "I'll spend {d1} days in {a} and {d2} in {b}, using roughly {mb} MB daily. " + question,
        a=first.name,
        b=second.name,
        d1=d1,
        d2=d2,
        mb=mb,
    )
    legs = [
        ctx.read("estimate_roaming_cost", **_estimate_args(c.code, d, mb, 0, 0))["best_cost_usd"]
        for c, d in ((first, d1), (second, d2))
    ]
    clear_of(prompt, sum(legs) if op == "sum" else max(legs))
    steps = [RefStep(tool="get_roaming_rates", args={"country": c.name}) for c in (first, second)]
    steps += [
        RefStep(tool="estimate_roaming_cost", args=_estimate_args(ref(i, "country"), d, mb, 0, 0))
        for i, d in enumerate((d1, d2))
    ]
    answer = AnswerSpec(op=op, refs=[[2, "best_cost_usd"], [3, "best_cost_usd"]], round=2)
    return Draft(prompt, steps, answer)


SUBTOPIC = Subtopic(
    name="roaming and international calls",
    templates={
        "sequential": [pass_trip_estimate, pass_for_contact_visit, trip_estimate_for_contact],
        "parallel": [rate_across_three_countries, every_source_worst_case, cheapest_trip_of_three],
        "mixture": [two_contacts_roaming_rates, two_leg_trip_cost],
    },
)
