"""Elections and voting: polling places, mail ballots, deadlines and election offices."""

from __future__ import annotations

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
)
from toolchaos.suites.toolbench_x.templates.government._helpers import (
    distinct_residents,
    errand_waits_parallel,
    found_by_name,
    office_waits_mixture,
    resident,
)


def _registered(ctx: TemplateContext, res: object) -> bool:
    return bool(ctx.world.table("voters")[res.resident_id].registered)  # type: ignore[attr-defined]


def _election(ctx: TemplateContext) -> object:
    return ctx.pick("elections")


def how_far_to_vote(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> their registration -> polling place for an election."""
    res = resident(ctx, lambda r: _registered(ctx, r))
    election = _election(ctx)
    field = ctx.rng.choice(["distance_km", "polling_place", "distance_km"])
    asked, told = {
        "distance_km": (
            "how far is it from my home, in kilometres",
            "how far it is from my home in kilometres",
        ),
        "polling_place": ("what is the name of the place where I vote", "the name of the place"),
    }[field]
    prompt = ctx.say(
        "I'm {name}. For the {el}, check my registration and find my polling place: {w}?",
        "{name} here, planning to vote in person in the {el}. {w}?",
        "I'm {name}. Where do I vote in the {el}? Tell me {t}.",
        name=res.name,
        el=election.name,  # type: ignore[attr-defined]
        w=asked,
        t=told,
    )
    steps = [
        *found_by_name(res, "get_voter_registration"),
        RefStep(
            tool="lookup_polling_place",
            args={
                "resident": ref(1, "resident_id"),
                "election_id": election.election_id,  # type: ignore[attr-defined]
            },
        ),
    ]
    answer = AnswerSpec(op="value", refs=[[2, field]], round=2 if field == "distance_km" else None)
    return Draft(prompt, steps, answer)


def request_ballot_for_next(ctx: TemplateContext) -> Draft:
    """Sequential, writes: elections of a kind -> request a mail ballot -> confirm."""
    kind = ctx.rng.choice(["special", "primary", "general"])
    first = min((e for e in ctx.rows("elections") if e.kind == kind), key=lambda e: e.date)
    res = resident(
        ctx,
        lambda r: (
            _registered(ctx, r)
            and not any(
                b.resident_id == r.resident_id and b.election_id == first.election_id
                for b in ctx.rows("ballot_requests")
            )
        ),
    )
    prompt = ctx.say(
        "{name} will be travelling. Request a mail ballot for the next {kind} election and "
        "then confirm it's on their registration.",
        "Please get {name} a mail ballot for the upcoming {kind} election and double-check "
        "the request shows up.",
        name=res.name,
        kind=kind,
    )
    steps = [
        RefStep(tool="list_elections", args={"kind": kind}),
        RefStep(
            tool="request_mail_ballot",
            args={"resident": res.name, "election_id": ref(0, "results", 0, "election_id")},
        ),
        RefStep(tool="get_voter_registration", args={"resident": ref(1, "resident_id")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def polling_place_of_my_ballot(ctx: TemplateContext) -> Draft:
    """Sequential: find the resident -> registration (their ballot request) -> polling place."""
    requested = {b.resident_id for b in ctx.rows("ballot_requests")}
    res = resident(ctx, lambda r: r.resident_id in requested)
    if sum(b.resident_id == res.resident_id for b in ctx.rows("ballot_requests")) != 1:
        raise NoFit("the resident must have one ballot request")
    field, asks = ctx.rng.choice(
        [
            ("distance_km", "how far is my polling place, in km"),
            ("name", "which polling place would I go to"),
        ]
    )
    prompt = ctx.say(
        "I'm {name}. I asked for a mail ballot for one election, but I might vote in person "
        "instead. For that election, {asks}?",
        "This is {name}: for the election I requested a mail ballot for, {asks} if I go in person?",
        name=res.name,
        asks=asks,
    )
    steps = found_by_name(res, "get_voter_registration")
    steps.append(
        RefStep(
            tool="lookup_polling_place",
            args={
                "resident": ref(1, "resident_id"),
                "election_id": ref(1, "ballot_requests", 0, "election_id"),
            },
        )
    )
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]], round=2))


def carpool_to_polls(ctx: TemplateContext) -> Draft:
    """Parallel: polling places of k residents for one election; farthest or total."""
    k = ctx.count(3, 6)
    election = _election(ctx)
    people = ctx.sample("residents", k, lambda r: _registered(ctx, r))
    op = ctx.rng.choice(["max", "min", "sum"])
    q = {
        "max": "who has the longest trip - how many km is it",
        "min": "what's the shortest trip to a polling place, in km",
        "sum": "what's the total of their distances, in km",
    }[op]
    prompt = ctx.say(
        "I'm organising rides to the polls for the {el}: {all}. Looking at each "
        "person's polling place, {q}?",
        "For the {el}, check where {all} vote. {q}?",
        el=election.name,  # type: ignore[attr-defined]
        all=listing([x.name for x in people]),
        q=q,
    )
    steps = [
        RefStep(
            tool="lookup_polling_place",
            args={"resident": p.name, "election_id": election.election_id},  # type: ignore[attr-defined]
        )
        for p in people
    ]
    return Draft(
        prompt, steps, AnswerSpec(op=op, refs=[[i, "distance_km"] for i in range(k)], round=2)
    )


election_errands = errand_waits_parallel(
    ("elections", "city_services", "tax"),
    "Civic morning: registering at the {a}, then the {b}, then the {c}.",
    "election_errands",
)

election_office_waits = office_waits_mixture(
    "elections",
    (
        "I want to vote early or drop off my ballot at an election office.",
        "I need a replacement voter card from an election office.",
    ),
    "election_office_waits",
)


def two_voters_next_election(ctx: TemplateContext) -> Draft:
    """Mixture: list elections -> polling places of k residents -> farthest or total."""
    kind = ctx.rng.choice(["special", "primary", "general"])
    k = ctx.count(2, 5)
    people = distinct_residents(ctx, k, lambda r: _registered(ctx, r))
    if len({p.ward for p in people}) < 2:
        raise NoFit("everyone lives in one ward")
    op = ctx.rng.choice(["max", "sum"])
    q = {"max": "the longest of their trips", "sum": "their distances added up"}[op]
    prompt = ctx.say(
        "For the next {kind} election, where do {all} vote? Give me {q} in km.",
        "{All} are carpooling to vote. In the upcoming {kind} election, what's {q} (km) to "
        "their polling places?",
        kind=kind,
        all=listing([p.name for p in people]),
        All=listing([p.name for p in people]),
        q=q,
    )
    steps = [RefStep(tool="list_elections", args={"kind": kind})]
    steps += [
        RefStep(
            tool="lookup_polling_place",
            args={"resident": p.name, "election_id": ref(0, "results", 0, "election_id")},
        )
        for p in people
    ]
    refs = [[1 + i, "distance_km"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="elections and voting",
    templates={
        "sequential": [how_far_to_vote, request_ballot_for_next, polling_place_of_my_ballot],
        "parallel": [carpool_to_polls, election_errands],
        "mixture": [election_office_waits, two_voters_next_election],
    },
)
