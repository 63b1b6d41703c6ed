"""Movie showtimes and tickets: screenings, ticket quotes with fees and discounts, bookings."""

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
from toolchaos.suites.toolbench_x.templates.media._helpers import (
    listed,
    rating_ask,
)

_PARTIES = (
    (2, 0, 0, None, "two adults"),
    (1, 1, 0, None, "one adult and one child"),
    (2, 2, 0, "FAMILY4", "two adults and two kids, using the FAMILY4 code"),
    (2, 0, 0, "MOVIEFAN10", "two adults with my MOVIEFAN10 promo code"),
    (1, 0, 1, None, "me and my dad, who is a senior"),
    (3, 0, 0, None, "three adults"),
)


def _party_args(party: tuple[Any, ...]) -> dict[str, Any]:
    adults, children, seniors, code, _ = party
    args: dict[str, Any] = {"adults": adults}
    if children:
        args["children"] = children
    if seniors:
        args["seniors"] = seniors
    if code:
        args["promo_code"] = code
    return args


def _showing(ctx: TemplateContext) -> Any:
    """A film that is in cinemas this week."""
    on = {s.film_id for s in ctx.rows("showtimes")}
    return ctx.pick("films", lambda f: f.film_id in on)


def _first_show(ctx: TemplateContext, **filters: Any) -> list[Any]:
    shows = ctx.read("list_showtimes", **filters)["results"]
    if not shows:
        raise NoFit("no screening fits")
    if len(shows) > 1 and shows[1]["start_time"] == shows[0]["start_time"]:
        raise NoFit("two screenings start at once")
    return list(shows)


def earliest_show_quote(ctx: TemplateContext) -> Draft:
    """Sequential: find the film -> its screenings on a day -> quote the earliest one."""
    film = _showing(ctx)
    when_day = ctx.day(ctx.rng.randint(1, 5))
    shows = _first_show(ctx, film=film.film_id, date=when_day)
    party = ctx.rng.choice(_PARTIES)
    if shows[0]["seats_available"] < sum(party[:3]):
        raise NoFit("sold out")
    prompt = ctx.say(
        "What would the earliest screening of {film} on {day} cost for {party}, booking "
        "fees and any discount included?",
        "I want to catch {film} as early as possible on {day}. Price it for {party}: the "
        "full total, fees in.",
        "Quote me the first showing of '{film}' on {day} for {party}. I need the total I'd pay.",
        film=film.title,
        day=when(when_day),
        party=party[4],
    )
    steps = [
        RefStep(tool="search_catalog", args={"query": film.title, "kind": "film"}),
        RefStep(
            tool="list_showtimes",
            args={"film": ref(0, "results", 0, "item_id"), "date": when_day},
        ),
        RefStep(
            tool="quote_tickets",
            args={"showtime_id": ref(1, "results", 0, "showtime_id"), **_party_args(party)},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "total_usd"]]))


def book_last_show_before(ctx: TemplateContext) -> Draft:
    """Sequential, writes: cinema screenings ending in time -> quote the latest -> book it."""
    cinema = ctx.pick("cinemas")
    when_day = ctx.day(ctx.rng.randint(2, 6))
    deadline = ctx.rng.choice(["19:00", "20:30", "21:30", "22:00"])
    party = ctx.rng.choice(_PARTIES)
    shows = ctx.read("list_showtimes", cinema=cinema.name, date=when_day, ends_before=deadline)
    shows = shows["results"]
    if len(shows) < 2:
        raise NoFit("too few screenings")
    last = shows[-1]
    if shows[-2]["start_time"] == last["start_time"]:
        raise NoFit("no single latest screening")
    if last["seats_available"] < sum(party[:3]):
        raise NoFit("sold out")
    prompt = ctx.say(
        "Book tickets at {cinema} on {day} for {party}: whatever screening starts latest "
        "but still finishes by {deadline}.",
        "We need to be out of {cinema} by {deadline} on {day}. Book the latest-starting "
        "film that ends in time, for {party}.",
        cinema=cinema.name,
        day=when(when_day),
        deadline=deadline,
        party=party[4],
    )
    index = len(shows) - 1
    steps = [
        RefStep(
            tool="list_showtimes",
            args={"cinema": cinema.name, "date": when_day, "ends_before": deadline},
        ),
        RefStep(
            tool="quote_tickets",
            args={"showtime_id": ref(0, "results", index, "showtime_id"), **_party_args(party)},
        ),
        RefStep(
            tool="book_tickets",
            args={"showtime_id": ref(1, "showtime_id"), **_party_args(party)},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def watchlist_film_tonight(ctx: TemplateContext) -> Draft:
    """Sequential: watchlist -> a film on it -> its screenings on a day -> quote or book one.

    The user knows the film only as the one on their watchlist with a given priority;
    quoting the earliest screening is 3 calls, booking it for the party is 4.
    """
    entries = ctx.read("list_watchlist")["results"]
    on = {s.film_id for s in ctx.rows("showtimes")}
    films = [
        (i, e)
        for i, e in enumerate(entries)
        if e["kind"] == "film"
        and e["item_id"] in on
        and sum(x["kind"] == "film" and x["priority"] == e["priority"] for x in entries) == 1
    ]
    if not films:
        raise NoFit("no film on the watchlist is showing")
    i, entry = ctx.rng.choice(films)
    when_day = ctx.day(ctx.rng.randint(1, 5))
    shows = _first_show(ctx, film=entry["item_id"], date=when_day)
    party = ctx.rng.choice(_PARTIES)
    if shows[0]["seats_available"] < sum(party[:3]):
        raise NoFit("sold out")
    steps = [
        RefStep(tool="list_watchlist", args={}),
        RefStep(
            tool="list_showtimes",
            args={"film": ref(0, "results", i, "item_id"), "date": when_day},
        ),
    ]
    book = ctx.rng.random() < 0.5
    if not book:
        prompt = ctx.say(
            "The film I put on my watchlist with {prio} priority: what would its earliest "
            "screening on {day} cost for {party}, fees and discounts included?",
            "Take the {prio}-priority film on my watchlist and price its first showing on "
            "{day} for {party}. Total, please.",
            prio=entry["priority"],
            day=when(when_day),
            party=party[4],
        )
        steps.append(
            RefStep(
                tool="quote_tickets",
                args={"showtime_id": ref(1, "results", 0, "showtime_id"), **_party_args(party)},
            )
        )
        return Draft(prompt, steps, AnswerSpec(op="value", refs=[[2, "total_usd"]], round=2))
    prompt = ctx.say(
        "Book the earliest {day} screening of the {prio}-priority film on my watchlist for "
        "{party}.",
        "We're finally watching the film I marked {prio} priority on my watchlist: get "
        "tickets for {party} at its first showing on {day}.",
        prio=entry["priority"],
        day=when(when_day),
        party=party[4],
    )
    steps += [
        RefStep(
            tool="quote_tickets",
            args={"showtime_id": ref(1, "results", 0, "showtime_id"), **_party_args(party)},
        ),
        RefStep(
            tool="book_tickets",
            args={"showtime_id": ref(2, "showtime_id"), **_party_args(party)},
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def cheapest_across_cinemas(ctx: TemplateContext) -> Draft:
    """Parallel: one film, one day, three to six cinemas; cheapest first-screening price."""
    film = _showing(ctx)
    when_day = ctx.day(ctx.rng.randint(0, 6))
    cinemas = [
        c
        for c in ctx.rows("cinemas")
        if ctx.read("list_showtimes", film=film.film_id, cinema=c.cinema_id, date=when_day)["total"]
    ]
    if len(cinemas) < 3:
        raise NoFit("the film is on at fewer than three cinemas that day")
    chosen = ctx.rng.sample(cinemas, ctx.count(3, len(cinemas)))
    op = ctx.rng.choice(["min", "max"])
    prompt = ctx.say(
        "{film} is on at {cinemas} on {day}. Looking at each cinema's first "
        "screening that day, what's the {word} adult ticket price?",
        "Compare the adult price of the earliest {film} screening on {day} at {cinemas}. "
        "Tell me the {word} one.",
        film=film.title,
        cinemas=listing([c.name for c in chosen]),
        day=when(when_day),
        word={"min": "lowest", "max": "highest"}[op],
    )
    steps = [
        RefStep(
            tool="list_showtimes",
            args={"film": film.title, "cinema": c.name, "date": when_day},
        )
        for c in chosen
    ]
    refs = [[i, "results", 0, "price_usd"] for i in range(len(chosen))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


def best_rated_now_showing(ctx: TemplateContext) -> Draft:
    """Parallel: one aggregator's rating for three to six films on at one cinema."""
    cinema = ctx.pick("cinemas")
    on = sorted({s.film_id for s in ctx.rows("showtimes") if s.cinema_id == cinema.cinema_id})
    if len(on) < 3:
        raise NoFit("too few films")
    films = [ctx.world.table("films")[f] for f in ctx.rng.sample(on, ctx.count(3, min(6, len(on))))]
    ask = rating_ask(ctx, "max")
    ask.require_unique(ctx, [f.film_id for f in films])
    prompt = ask.say(
        ctx,
        "{cinema} has {films} this week. Which rates best on {source}? Give me its {words}.",
        "Deciding between {films} at {cinema}: what's the top {source} {words} among them?",
        cinema=cinema.name,
        films=listing([f.title for f in films]),
        **ask.phrases(),
    )
    return ask.draft(prompt, [], [f.title for f in films])


def best_film_ending_by(ctx: TemplateContext) -> Draft:
    """Mixture: screenings at a cinema ending by a time -> rating of each film -> best."""
    cinema = ctx.pick("cinemas")
    when_day = ctx.day(ctx.rng.randint(0, 6))
    deadline = ctx.rng.choice(["17:00", "18:30", "20:00", "21:00"])
    filters = {"cinema": cinema.name, "date": when_day, "ends_before": deadline}
    shows = ctx.read("list_showtimes", **filters)["results"]
    if not 2 <= len(shows) <= 6:
        raise NoFit("need two to six screenings")
    ask = rating_ask(ctx, "max")
    prompt = ask.say(
        ctx,
        "I have to be home early on {day}. Of the films at {cinema} that finish by "
        "{deadline}, what's the highest {source} {words}?",
        "Check {cinema} on {day} for screenings that end by {deadline}, then look up "
        "each film on {source}. What's the best {words} among them?",
        day=when(when_day),
        cinema=cinema.name,
        deadline=deadline,
        **ask.phrases(),
    )
    lead = RefStep(tool="list_showtimes", args=filters)
    return ask.draft(prompt, [lead], listed(len(shows), "film_id"))


def two_films_cheaper_night(ctx: TemplateContext) -> Draft:
    """Mixture: two to four films' screenings on a day -> quote each first show -> min/sum."""
    when_day = ctx.day(ctx.rng.randint(1, 6))
    on = {s.film_id for s in ctx.rows("showtimes") if s.date == when_day}
    films = ctx.sample("films", ctx.count(2, 4), lambda f: f.film_id in on)
    k = len(films)
    for film in films:
        _first_show(ctx, film=film.film_id, date=when_day)
    party = ctx.rng.choice(_PARTIES[:2] + _PARTIES[4:])
    op = ctx.rng.choice(["min", "sum"])
    question = {
        "min": "What does the cheapest of those options cost in total?",
        "sum": "If we end up seeing all of them, what do the orders cost altogether?",
    }[op]
    prompt = ctx.say(
        "On {day} we're choosing from {films}, at the earliest screening of each, for "
        "{party}. " + question,
        "Price the earliest {day} showing of each of {films} for {party}, fees included. "
        + question,
        day=when(when_day),
        films=listing([f.title for f in films]),
        party=party[4],
    )
    steps = [
        RefStep(tool="list_showtimes", args={"film": f.title, "date": when_day}) for f in films
    ]
    steps += [
        RefStep(
            tool="quote_tickets",
            args={"showtime_id": ref(i, "results", 0, "showtime_id"), **_party_args(party)},
        )
        for i in range(k)
    ]
    refs = [[k + i, "total_usd"] for i in range(k)]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs, round=2))


SUBTOPIC = Subtopic(
    name="movie showtimes and tickets",
    templates={
        "sequential": [earliest_show_quote, book_last_show_before, watchlist_film_tonight],
        "parallel": [cheapest_across_cinemas, best_rated_now_showing],
        "mixture": [best_film_ending_by, two_films_cheaper_night],
    },
)
