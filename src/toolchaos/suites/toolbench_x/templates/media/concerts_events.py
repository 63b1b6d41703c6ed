"""Concerts and live events: upcoming shows, ticket tiers and prices from three sellers."""

from __future__ import annotations

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
from toolchaos.suites.toolbench_x.templates.media._helpers import (
    PRICE_SOURCES,
    TIERS,
)

_PRICE_FIELDS = {"total_usd": "including the service fee", "price_usd": "face value, before fees"}


def song_to_ticket(ctx: TemplateContext) -> Draft:
    """Sequential: song -> its artist's shows -> a tier's price for the next one."""
    track = ctx.pick("tracks")
    found = ctx.read("search_tracks", query=track.title)["results"]
    artist = ctx.world.table("artists")[track.artist_id].name
    if any(r["artist"] != artist for r in found):
        raise NoFit("the title is shared by another artist")
    shows = ctx.read("list_events", performer=artist)["results"]
    if not shows:
        raise NoFit("no shows")
    tier = ctx.rng.choice(TIERS)
    tool, named = ctx.choose_source(PRICE_SOURCES)
    field = ctx.rng.choice(sorted(_PRICE_FIELDS))
    prompt = ctx.say_source(
        named,
        "Whoever sings '{song}' - what does a {tier} ticket to their next concert cost "
        "from {seller}, {how}?",
        "I love the song '{song}'. Find that artist's next show and price one {tier} "
        "ticket with {seller} ({how}).",
        song=track.title,
        tier=tier,
        slot="seller",
        seller=PRICE_SOURCES[tool],
        how=_PRICE_FIELDS[field],
    )
    steps = [
        RefStep(tool="search_tracks", args={"query": track.title}),
        RefStep(tool="list_events", args={"performer": ref(0, "results", 0, "artist")}),
        RefStep(tool=tool, args={"event_id": ref(1, "results", 0, "event_id"), "tier": tier}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, field]]))


def city_first_show_price(ctx: TemplateContext) -> Draft:
    """Sequential: shows in a city in a window -> the box office price -> resale check."""
    city = ctx.rng.choice(sorted({v.city for v in ctx.rows("venues")}))
    start = ctx.rng.randint(1, 20)
    d1, d2 = ctx.day(start), ctx.day(start + ctx.rng.randint(7, 21))
    shows = ctx.read("list_events", city=city, from_date=d1, to_date=d2)["results"]
    if not shows or (len(shows) > 1 and shows[0]["date"] == shows[1]["date"]):
        raise NoFit("no single first show")
    tier = ctx.rng.choice(TIERS)
    reseller = ctx.rng.choice(["get_resale_price_ticketnest", "get_resale_price_seatswap"])
    prompt = ctx.say(
        "What's the first concert in {city} between {d1} and {d2}? Get the box office "
        "price of a {tier} ticket, then tell me what {seller} charges for the same tier, "
        "fees included.",
        "First gig in {city} from {d1} to {d2}: check the {tier} tier at the box office "
        "and then at {seller}. What's {seller}'s total per ticket?",
        city=city,
        d1=when(d1),
        d2=when(d2),
        tier=tier,
        seller=PRICE_SOURCES[reseller],
    )
    steps = [
        RefStep(tool="list_events", args={"city": city, "from_date": d1, "to_date": d2}),
        RefStep(
            tool="get_ticket_price",
            args={"event_id": ref(0, "results", 0, "event_id"), "tier": tier},
        ),
        RefStep(tool=reseller, args={"event_id": ref(1, "event_id"), "tier": ref(1, "tier")}),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "total_usd"]]))


def three_sellers_one_tier(ctx: TemplateContext) -> Draft:
    """Parallel: one event and tier from all three sellers; lowest or highest total."""
    event = ctx.pick("events")
    tier = ctx.rng.choice(TIERS)
    op = ctx.rng.choice(["min", "max"])
    venue = ctx.world.table("venues")[event.venue_id].name
    prompt = ctx.say(
        "For {performer} at {venue} (event {eid}), check a {tier} ticket at the box "
        "office, TicketNest and SeatSwap. What's the {word} total, fees included?",
        "Event {eid}, {tier} tier: compare all three sellers and give me the {word} "
        "per-ticket total with fees.",
        performer=event.performer,
        venue=venue,
        eid=event.event_id,
        tier=tier,
        word={"min": "lowest", "max": "highest"}[op],
    )
    steps = [
        RefStep(tool=tool, args={"event_id": event.event_id, "tier": tier})
        for tool in sorted(PRICE_SOURCES)
    ]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=[[i, "total_usd"] for i in range(3)]))


def three_shows_budget(ctx: TemplateContext) -> Draft:
    """Parallel: box office price of three to seven events' tiers; the sum for a season."""
    events = ctx.sample("events", ctx.count(3, 7))
    tiers = [ctx.rng.choice(TIERS) for _ in events]
    field = ctx.rng.choice(sorted(_PRICE_FIELDS))
    gigs = [f"{e.event_id} ({t})" for e, t in zip(events, tiers, strict=True)]
    resale = ctx.unnamed_source(PRICE_SOURCES)
    tool = resale or "get_ticket_price"
    prompt = ctx.say(
        *(
            (
                "I've got my eye on {n} gigs: {gigs}. One ticket each from the box office - "
                "what's the total, {how}?",
                "Budget for events {tiered}, one box office ticket each, {how}?",
            )
            if resale is None
            else (
                "I've got my eye on {n} gigs: {gigs}. One ticket each - what's the total, {how}?",
                "Budget for events {tiered}, one ticket each, {how}?",
            )
        ),
        n=len(events),
        gigs=listing(gigs),
        tiered=listing([f"{e.event_id} ({t} tier)" for e, t in zip(events, tiers, strict=True)]),
        how=_PRICE_FIELDS[field],
    )
    steps = [
        RefStep(tool=tool, args={"event_id": e.event_id, "tier": t})
        for e, t in zip(events, tiers, strict=True)
    ]
    refs = [[i, field] for i in range(len(events))]
    return Draft(prompt, steps, AnswerSpec(op="sum", refs=refs, round=2))


def cheapest_gig_in_city(ctx: TemplateContext) -> Draft:
    """Mixture: shows in a city in a window -> one seller's tier price each -> cheapest."""
    city = ctx.rng.choice(sorted({v.city for v in ctx.rows("venues")}))
    start = ctx.rng.randint(1, 25)
    d1, d2 = ctx.day(start), ctx.day(start + ctx.rng.randint(10, 30))
    shows = ctx.read("list_events", city=city, from_date=d1, to_date=d2)["results"]
    if not 2 <= len(shows) <= 6:
        raise NoFit("need two to six shows")
    tier = ctx.rng.choice(TIERS)
    tool, named = ctx.choose_source(PRICE_SOURCES)
    op = ctx.rng.choice(["min", "max"])
    prompt = ctx.say_source(
        named,
        "Concerts in {city} from {d1} to {d2}: what's the {word} {tier} ticket from "
        "{seller}, fees included?",
        "List the shows in {city} between {d1} and {d2}, price a {tier} ticket for each "
        "with {seller}, and tell me the {word} total.",
        city=city,
        d1=when(d1),
        d2=when(d2),
        tier=tier,
        slot="seller",
        seller=PRICE_SOURCES[tool],
        word={"min": "cheapest", "max": "priciest"}[op],
    )
    steps = [RefStep(tool="list_events", args={"city": city, "from_date": d1, "to_date": d2})]
    steps += [
        RefStep(tool=tool, args={"event_id": ref(0, "results", i, "event_id"), "tier": tier})
        for i in range(len(shows))
    ]
    refs = [[1 + i, "total_usd"] for i in range(len(shows))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def two_artists_next_shows(ctx: TemplateContext) -> Draft:
    """Mixture: two to five performers' shows -> box office price of each next show -> op."""
    k = ctx.count(2, 5)
    performers = ctx.rng.sample(sorted({e.performer for e in ctx.rows("events")}), k)
    tier = ctx.rng.choice(TIERS)
    field = ctx.rng.choice(sorted(_PRICE_FIELDS))
    op = ctx.rng.choice(["sum", "min"])
    question = {
        "sum": "what do one {tier} ticket to each cost together, {how}",
        "min": "what does a {tier} ticket cost at the cheapest of those next shows ({how})",
    }[op]
    prompt = ctx.say(
        "Look up the next concert of each of {names}: " + question + "?",
        "{names} are all touring. For each one's next show at the box office, " + question + "?",
        names=listing(performers),
        tier=tier,
        how=_PRICE_FIELDS[field],
    )
    steps = [RefStep(tool="list_events", args={"performer": p}) for p in performers]
    steps += [
        RefStep(
            tool="get_ticket_price",
            args={"event_id": ref(i, "results", 0, "event_id"), "tier": tier},
        )
        for i in range(k)
    ]
    refs = [[k + i, field] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="concerts and live events",
    templates={
        "sequential": [song_to_ticket, city_first_show_price],
        "parallel": [three_sellers_one_tier, three_shows_budget],
        "mixture": [cheapest_gig_in_city, two_artists_next_shows],
    },
)
