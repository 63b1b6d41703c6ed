"""Vaccinations and travel health: boosters before a trip, travel clinics, trip medicines."""

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
    book_first_slot,
    find_member,
    finish,
    member,
    owner,
    require_free_slot,
    subject,
    their,
    verb,
    wait_at_each_clinic,
    who,
    window,
)
from toolchaos.suites.toolbench_x.templates.health.appointments import WAIT_SOURCES
from toolchaos.suites.toolbench_x.templates.health.medications import PRICE_SOURCES


def _check(ctx: TemplateContext, m: Any, country: str, travel: str) -> dict[str, Any]:
    found: dict[str, Any] = ctx.read(
        "check_travel_vaccines", member=m.member_id, country=country, travel_date=travel
    )
    return found


def booster_due_date(ctx: TemplateContext) -> Draft:
    """Sequential: find the member -> check a trip -> when the lapsing vaccine fell due."""
    m = member(ctx)
    dest = ctx.pick("destinations")
    travel = ctx.day(ctx.rng.randint(10, 90))
    check = _check(ctx, m, dest.country, travel)
    if not check["due"]:
        raise NoFit("nothing lapses before the trip")
    vaccine = check["due"][0]
    doses = ctx.read("list_vaccinations", member=m.member_id, vaccine=vaccine)["results"]
    last = len(doses) - 1
    prompt = ctx.say(
        "{Name} leaves for {country} on {travel}. One of the advised vaccines will have "
        "lapsed by then; on what date did (or will) its booster fall due?",
        "Trip to {country} on {travel} for {name}: check the travel vaccines, find the "
        "first one listed as due, and tell me its due date from the vaccination record.",
        Name=subject(m),
        name=who(m),
        country=dest.country,
        travel=travel,
    )
    steps = [
        *find_member(m, "check_travel_vaccines", country=dest.country, travel_date=travel),
        RefStep(
            tool="list_vaccinations",
            args={"member": ref(1, "member_id"), "vaccine": ref(1, "due", 0)},
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, "results", last, "next_due_on"]])
    return finish(Draft(prompt, steps, answer))


def book_travel_clinic(ctx: TemplateContext) -> Draft:
    """Sequential, writes: find the travel clinic -> its slots -> book the first."""
    clinic = ctx.pick("clinics", lambda c: c.travel_vaccines)
    dest = ctx.pick("destinations")
    d1, d2 = window(ctx, (1, 6), (3, 7))
    require_free_slot(ctx, "travel medicine", clinic.clinic_id, (d1, d2), "slot")
    m = member(ctx)
    reason = f"travel vaccines for {dest.country}"
    prompt = ctx.say(
        "Book {name} into {clinic} for {reason}: the first travel-medicine slot between "
        "{d1} and {d2}.",
        "{Name} needs {reason}. Take the earliest travel medicine opening at {clinic} from "
        "{d1} to {d2}.",
        name=who(m),
        Name=subject(m),
        clinic=clinic.name,
        reason=reason,
        d1=d1,
        d2=d2,
    )
    steps = book_first_slot(
        {"query": clinic.name}, "travel medicine", (d1, d2), m.first_name, reason
    )
    return finish(Draft(prompt, steps, AnswerSpec(op="none"), writes=True))


TRIP_MEDS = (
    ("atovaquone-proguanil", "malaria prevention, one a day from two days before to a week after"),
    ("doxycycline", "a backup antimalarial"),
    ("azithromycin", "travellers' diarrhoea"),
    ("loratadine", "allergies"),
    ("ibuprofen", "aches"),
)


def last_dose_clinic_wait(ctx: TemplateContext) -> Draft:
    """Sequential: a member's doses of a vaccine -> where the latest was given -> its wait.

    The record names the clinic; its id comes from a clinic search; the wait from one of
    the three wait sources.
    """
    clinics = {c.name: c for c in ctx.rows("clinics")}
    dose = ctx.pick("vaccinations", lambda v: v.given_at in clinics)
    m = ctx.world.table("members")[dose.member_id]
    doses = ctx.read("list_vaccinations", member=m.member_id, vaccine=dose.vaccine)["results"]
    last = len(doses) - 1
    if doses[last]["given_at"] not in clinics:
        raise NoFit("the latest dose was given elsewhere")
    tool, named = ctx.choose_source(WAIT_SOURCES)
    prompt = ctx.say(
        *(
            (
                "Where did {Name} get {their} latest {vaccine} dose? I'd go back there today: "
                "how long is the wait right now, according to {source}?",
                "Take the clinic that gave {whose} most recent {vaccine} shot and tell me its "
                "current wait in minutes ({source}).",
            )
            if named
            else (
                "Where did {Name} get {their} latest {vaccine} dose? I'd go back there today: "
                "how long is the wait right now?",
                "Take the clinic that gave {whose} most recent {vaccine} shot and tell me its "
                "current wait in minutes.",
            )
        ),
        Name=subject(m),
        their=their(m),
        whose=owner(m),
        vaccine=dose.vaccine,
        source=WAIT_SOURCES[tool],
    )
    steps = [
        RefStep(tool="list_vaccinations", args={"member": m.first_name, "vaccine": dose.vaccine}),
        RefStep(tool="search_clinics", args={"query": ref(0, "results", last, "given_at")}),
        RefStep(tool=tool, args={"clinic": ref(1, "results", 0, "clinic_id")}),
    ]
    return finish(Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "wait_minutes"]])))


def trip_pharmacy_bill(ctx: TemplateContext) -> Draft:
    """Parallel: cash prices of three to five trip medicines at given quantities; the total."""
    meds = ctx.rng.sample(TRIP_MEDS, ctx.count(3, 5))
    days = ctx.rng.randint(7, 21)
    quantities = [
        days + 9 if name == "atovaquone-proguanil" else ctx.rng.choice((6, 10, 14, 20))
        for name, _ in meds
    ]
    tool, named = ctx.choose_source(PRICE_SOURCES)
    parts = [f"{q} {name} ({why})" for (name, why), q in zip(meds, quantities, strict=True)]
    prompt = ctx.say(
        *(
            (
                "For a {days}-day trip I'm taking {kit}. What would those cost together "
                "at {source} cash prices?",
                "Price my travel kit on {source}: {kit}. Total, please.",
            )
            if named
            else (
                "For a {days}-day trip I'm taking {kit}. What would those cost together "
                "at cash prices?",
                "Price my travel kit at cash prices: {kit}. Total, please.",
            )
        ),
        days=days,
        kit=listing(parts),
        source=PRICE_SOURCES[tool],
    )
    steps = [
        RefStep(tool=tool, args={"medication": name, "quantity": q})
        for (name, _), q in zip(meds, quantities, strict=True)
    ]
    answer = AnswerSpec(op="sum", refs=[[i, "total_price_usd"] for i in range(len(meds))], round=2)
    return finish(Draft(prompt, steps, answer))


def doses_on_record(ctx: TemplateContext) -> Draft:
    """Parallel: three to five members' vaccination records; doses on file in total or most."""
    people = ctx.sample("members", ctx.count(3, 5))
    op = ctx.rng.choice(["sum", "sum", "max"])
    question = {
        "sum": "how many vaccine doses are on record for all of them together?",
        "max": "what's the largest number of doses on record for any one of them?",
    }[op]
    prompt = ctx.say(
        "The travel clinic wants our shot history. For {names}, " + question,
        "Before booking travel shots, check the vaccination records of {names}: " + question,
        names=listing([p.first_name for p in people]),
    )
    steps = [RefStep(tool="list_vaccinations", args={"member": p.first_name}) for p in people]
    answer = AnswerSpec(op=op, refs=[[i, "total"] for i in range(len(people))])
    return finish(Draft(prompt, steps, answer))


def travel_clinic_wait(ctx: TemplateContext) -> Draft:
    """Mixture: travel clinics -> wait at each -> the shortest or longest."""
    clinics = ctx.read("search_clinics", specialty="travel medicine")["results"]
    if len(clinics) < 2:
        raise NoFit("fewer than two travel clinics")
    tool, named = ctx.choose_source(WAIT_SOURCES)
    m = member(ctx)
    dest = ctx.pick("destinations")
    op = ctx.rng.choice(["min", "max"])
    words = {"min": "shortest", "max": "longest"}[op]
    prompt = ctx.say(
        *(
            (
                "{Name} {needs} shots for {country} and {wants} to walk in today. Among the travel "
                "medicine clinics, what's the {words} wait per {source}?",
                "Check {source} at every travel-medicine clinic: what's the {words} wait right "
                "now? It's for {whose} {country} vaccines.",
            )
            if named
            else (
                "{Name} {needs} shots for {country} and {wants} to walk in today. Among the travel "
                "medicine clinics, what's the {words} wait right now?",
                "Check every travel-medicine clinic: what's the {words} wait right now? It's "
                "for {whose} {country} vaccines.",
            )
        ),
        Name=subject(m),
        needs=verb(m, "needs"),
        wants=verb(m, "wants"),
        whose=owner(m),
        country=dest.country,
        words=words,
        source=WAIT_SOURCES[tool],
    )
    steps, refs = wait_at_each_clinic(tool, "travel medicine", len(clinics))
    return finish(Draft(prompt, steps, AnswerSpec(op=op, refs=refs)))


SUBTOPIC = Subtopic(
    name="vaccinations and travel health",
    templates={
        "sequential": [booster_due_date, book_travel_clinic, last_dose_clinic_wait],
        "parallel": [trip_pharmacy_bill, doses_on_record],
        "mixture": [travel_clinic_wait],
    },
)
