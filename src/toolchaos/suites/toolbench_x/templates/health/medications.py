"""Medications and dosage schedules: what the household takes, when, and what it costs."""

from __future__ import annotations

from typing import Any

from toolchaos.suites.toolbench_x.generate import listing, ref
from toolchaos.suites.toolbench_x.templates.health._helpers import (
    AnswerSpec,
    Draft,
    NoFit,
    RefStep,
    Subtopic,
    TemplateContext,
    find_member,
    finish,
    member,
    owner,
    price_each,
    price_of_fill,
    subject,
    unique_max,
    verb,
    who,
)

PRICE_SOURCES = {
    "get_drug_price": "the national drug price index",
    "get_drug_price_discount": "ScriptSaver",
    "get_drug_price_marketplace": "PillMarket",
}


def active_rx(ctx: TemplateContext, m: Any) -> list[dict[str, Any]]:
    """A member's active prescriptions as list_prescriptions returns them."""
    found: list[dict[str, Any]] = ctx.read(
        "list_prescriptions", member=m.member_id, status="active"
    )["results"]
    return found


def _with_rx(ctx: TemplateContext, least: int = 1) -> tuple[Any, list[dict[str, Any]]]:
    m = member(ctx, lambda p: len(active_rx(ctx, p)) >= least)
    return m, active_rx(ctx, m)


def fill_price(ctx: TemplateContext) -> Draft:
    """Sequential: list prescriptions -> the one named -> cash price of one full fill."""
    m, rxs = _with_rx(ctx)
    i = ctx.rng.randrange(len(rxs))
    rx = rxs[i]
    tool, named = ctx.choose_source(PRICE_SOURCES)
    prompt = ctx.say(
        *(
            (
                "What would one full fill of {whose} {med} cost at the cash price, according "
                "to {source}?",
                "Our insurance might lapse. Check {source}: how much is a complete refill of "
                "{whose} {med} prescription without coverage?",
                "Price check via {source}: the whole fill quantity of {whose} {med}, cash, in "
                "dollars.",
            )
            if named
            else (
                "What would one full fill of {whose} {med} cost at the cash price?",
                "Our insurance might lapse. How much is a complete refill of {whose} {med} "
                "prescription without coverage?",
                "Price check: the whole fill quantity of {whose} {med}, cash, in dollars.",
            )
        ),
        whose=owner(m),
        med=rx["medication_name"],
        source=PRICE_SOURCES[tool],
    )
    steps = [
        RefStep(tool="list_prescriptions", args={"member": m.first_name, "status": "active"}),
        *price_of_fill(tool, i),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "total_price_usd"]])))


_SUPPLY_ASKS = {
    "runs_out_on": (
        "On what date will {whose} {med} run out at the prescribed dose?",
        "When does {whose} supply of {med} run out, going by the tablets on hand?",
    ),
    "days_supply_left": (
        "How many full days of {med} does {whose_l} bottle still cover?",
        "Count the whole days of {med} left in {whose_l} supply at the current dosing.",
    ),
    "next_dose_at": (
        "When is the next dose of {med} due for {name}?",
        "Remind me when {name} should take {med} next (date and time).",
    ),
}


def supply_left(ctx: TemplateContext) -> Draft:
    """Sequential: find the member -> their prescriptions -> one prescription's schedule."""
    m, rxs = _with_rx(ctx)
    i = ctx.rng.randrange(len(rxs))
    rx = rxs[i]
    ask = ctx.rng.choice(["runs_out_on", *sorted(_SUPPLY_ASKS)])
    if rx[ask] is None:
        raise NoFit("nothing due")
    prompt = ctx.say(
        *_SUPPLY_ASKS[ask],
        whose=owner(m).capitalize(),
        whose_l=owner(m),
        med=rx["medication_name"],
        name=who(m),
    )
    steps = [
        *find_member(m, "list_prescriptions", status="active"),
        RefStep(
            tool="get_prescription",
            args={"prescription_id": ref(1, "results", i, "prescription_id")},
        ),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, ask]])))


def cheapest_of_three(ctx: TemplateContext) -> Draft:
    """Parallel: the cash price of three to seven drugs at one quantity; min, max or sum."""
    meds = ctx.sample("medications", ctx.count(3, 7))
    quantity = ctx.rng.choice([30, 60, 90])
    tool, named = ctx.choose_source(PRICE_SOURCES)
    op = ctx.rng.choice(["min", "max", "sum"])
    question = {
        "min": "what is the lowest of those totals?",
        "max": "what is the most expensive of those totals?",
        "sum": "what would they all cost together?",
    }[op]
    prompt = ctx.say(
        *(
            (
                "Comparing cash prices on {source} for {q} tablets or capsules each of "
                "{names}: " + question,
                "Using {source}, look up {q}-count prices for {names}; " + question,
            )
            if named
            else (
                "Comparing cash prices for {q} tablets or capsules each of {names}: " + question,
                "Look up {q}-count cash prices for {names}; " + question,
            )
        ),
        names=listing([med.name for med in meds]),
        q=quantity,
        source=PRICE_SOURCES[tool],
    )
    steps = [
        RefStep(tool=tool, args={"medication": med.name, "quantity": quantity}) for med in meds
    ]
    answer = AnswerSpec(op=op, refs=[[i, "total_price_usd"] for i in range(len(meds))], round=2)
    return finish(Draft(prompt, steps, answer))


def first_to_run_out(ctx: TemplateContext) -> Draft:
    """Parallel: three to five prescriptions by Rx number; which runs out first (or last)."""
    rxs = ctx.sample("prescriptions", ctx.count(3, 5), lambda r: r.status == "active")
    views = [ctx.read("get_prescription", prescription_id=r.prescription_id) for r in rxs]
    op = ctx.rng.choice(["argmin", "argmax"])
    days = [v["days_supply_left"] for v in views]
    unique_max(days, op)
    if len({v["medication_name"] for v in views}) < len(views):
        raise NoFit("two bottles of the same drug")
    words = {"argmin": "runs out first", "argmax": "will last the longest"}[op]
    prompt = ctx.say(
        "I'm sorting the medicine cabinet: prescriptions {rxs}. Which medication "
        "{words} at the prescribed dose?",
        "Of the bottles labelled {rxs}, which drug {words}? Give me its name.",
        rxs=listing([r.prescription_id for r in rxs]),
        words=words,
    )
    steps = [
        RefStep(tool="get_prescription", args={"prescription_id": r.prescription_id}) for r in rxs
    ]
    answer = AnswerSpec(
        op=op,
        refs=[[i, "days_supply_left"] for i in range(len(rxs))],
        labels=[ref(i, "medication_name") for i in range(len(rxs))],
    )
    return finish(Draft(prompt, steps, answer))


def fill_everything(ctx: TemplateContext) -> Draft:
    """Mixture: list active prescriptions -> cash price of each full fill -> total."""
    m, rxs = _with_rx(ctx, least=2)
    if len(rxs) > 6:
        raise NoFit("too many prescriptions")
    tool, named = ctx.choose_source(PRICE_SOURCES)
    prompt = ctx.say(
        *(
            (
                "If we paid cash for one full fill of every active prescription {name} {has}, "
                "what would it come to in total? Use {source} prices.",
                "Add up, by {source}, the cash price of a complete fill for each of {whose} "
                "active prescriptions.",
            )
            if named
            else (
                "If we paid cash for one full fill of every active prescription {name} {has}, "
                "what would it come to in total?",
                "Add up the cash price of a complete fill for each of {whose} active "
                "prescriptions.",
            )
        ),
        name=subject(m),
        has=verb(m, "has"),
        whose=owner(m),
        source=PRICE_SOURCES[tool],
    )
    listing = RefStep(tool="list_prescriptions", args={"member": m.first_name, "status": "active"})
    steps, refs = price_each(listing, tool, len(rxs), "quantity_per_fill")
    return finish(Draft(prompt, steps, AnswerSpec(op="sum", refs=refs, round=2)))


def switch_cost(ctx: TemplateContext) -> Draft:
    """Mixture: find the new drug and the current prescription -> price of the same fill."""
    m, rxs = _with_rx(ctx)
    meds = ctx.world.table("medications")
    classes = [d.drug_class for d in meds.values()]
    options = [
        i for i, r in enumerate(rxs) if classes.count(meds[r["medication_id"]].drug_class) > 1
    ]
    if not options:
        raise NoFit("no prescription with an alternative in its class")
    i = ctx.rng.choice(options)
    rx = rxs[i]
    current = meds[rx["medication_id"]]
    new = ctx.pick(
        "medications",
        lambda d: d.drug_class == current.drug_class and d.medication_id != current.medication_id,
    )
    tool, named = ctx.choose_source(PRICE_SOURCES)
    prompt = ctx.say(
        *(
            (
                "{Whose} doctor may switch {them} from {old} to {brand}. What would the same "
                "fill quantity of the new drug cost in cash, per {source}?",
                "Thinking of replacing {whose} {old} with {brand}: price a fill of the same "
                "size on {source}.",
            )
            if named
            else (
                "{Whose} doctor may switch {them} from {old} to {brand}. What would the same "
                "fill quantity of the new drug cost in cash?",
                "Thinking of replacing {whose} {old} with {brand}: what's the cash price of a "
                "fill of the same size?",
            )
        ),
        Whose=owner(m).capitalize(),
        whose=owner(m),
        them="me" if m.relationship == "self" else "them",
        old=current.name,
        brand=new.brand,
        source=PRICE_SOURCES[tool],
    )
    steps = [
        RefStep(tool="search_medications", args={"query": new.brand}),
        RefStep(tool="list_prescriptions", args={"member": m.first_name, "status": "active"}),
        RefStep(
            tool=tool,
            args={
                "medication": ref(0, "results", 0, "medication_id"),
                "quantity": ref(1, "results", i, "quantity_per_fill"),
            },
        ),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "total_price_usd"]])))


SUBTOPIC = Subtopic(
    name="medications and dosage schedules",
    templates={
        "sequential": [fill_price, supply_left],
        "parallel": [cheapest_of_three, first_to_run_out],
        "mixture": [fill_everything, switch_cost],
    },
)
