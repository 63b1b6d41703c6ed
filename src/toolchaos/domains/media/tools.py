"""The media tools: catalogue, ratings, tickets, streaming, music, library, podcasts, TV.

Also live-event ticket prices and the game store.

Lookups and simple listings are declared through the shared shapes; ticket quotes, binge
time, playlist durations, library fines and the writes' business rules are written by
hand. Parameters named ``item``, ``series``, ``album``, ``podcast``, ``book`` and ``film``
take a catalogue id or the exact title (any case); ``search_catalog`` returns the id.
Refusals are :class:`ToolError`: 404 for an unknown id or title, 409 for a record in the
wrong state, 422 for a request that breaks a rule.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any, Literal, cast

from toolchaos.core.tools import Param, Tool, tool
from toolchaos.core.types import ToolKind
from toolchaos.core.values import is_number
from toolchaos.core.world import Row, World
from toolchaos.domains import _shapes as shapes
from toolchaos.domains._common import (
    clock_text,
    conflict,
    date_arg,
    dec,
    enum_schema,
    find_key,
    int_arg,
    is_integer,
    listing,
    money,
    not_found,
    row_json,
    stamp,
    stored_key,
    unprocessable,
)
from toolchaos.domains._shapes import Filter
from toolchaos.domains.media import data
from toolchaos.domains.media.world import (
    CATALOGUE_KINDS,
    CATALOGUE_TABLES,
    WATCH_PRIORITIES,
    Hold,
    Loan,
    MediaWorld,
    Playlist,
    Recording,
    Review,
    TicketOrder,
    WatchlistEntry,
    end_time,
)

MAX_TICKETS = 10
CHILD_SHARE = Decimal("0.75")
SENIOR_SHARE = Decimal("0.70")
# promo code -> (kind, amount, rule text)
PROMO_CODES: dict[str, tuple[str, Decimal, str]] = {
    "MOVIEFAN10": ("percent", Decimal("0.10"), "10% off the ticket subtotal"),
    "FAMILY4": ("flat", Decimal("6.00"), "$6 off an order of 4 or more tickets with a child"),
    "MATINEE3": ("per_ticket", Decimal("3.00"), "$3 off each ticket for a show before 16:00"),
}
MAX_NAME_CHARS = 60
MAX_REVIEW_CHARS = 500

Kind = Literal["film", "series", "album", "book", "podcast", "game"]
ITEM_DOC = (
    "A catalogue id (e.g. 'FLM-1234', 'SER-123', 'ALB-1234', 'BK-12345', 'POD-123', "
    "'GAM-1234') or the exact title, any case; search_catalog returns the id."
)
PROMO_DOC = "; ".join(f"{code}: {rule}" for code, (_, _, rule) in PROMO_CODES.items())


def _media(world: World) -> MediaWorld:
    return cast(MediaWorld, world)


# -- the catalogue -----------------------------------------------------------------------------


def _creator(world: MediaWorld, kind: str, row: Any) -> str:
    if kind == "film":
        return str(row.director)
    if kind == "series":
        return world.services[row.service_id].name
    if kind == "album":
        return world.artists[row.artist_id].name
    if kind == "book":
        return str(row.author)
    if kind == "podcast":
        return str(row.host)
    return str(row.studio)


def _year(kind: str, row: Any) -> int:
    if kind == "game":
        return int(str(row.release_date)[:4])
    if kind == "podcast":
        return 0
    return int(row.year)


def _genre(kind: str, row: Any) -> str:
    return str(row.category if kind == "podcast" else row.genre)


def _id_of(kind: str, row: Any) -> str:
    return str(row.model_dump()[f"{kind}_id" if kind != "series" else "series_id"])


def _catalogue_view(world: MediaWorld, kind: str, row: Any) -> dict[str, Any]:
    return {
        "item_id": _id_of(kind, row),
        "kind": kind,
        "title": row.title,
        "year": _year(kind, row),
        "genre": _genre(kind, row),
        "creator": _creator(world, kind, row),
    }


def resolve_item(
    world: World, value: Any, param: str = "item", kinds: tuple[str, ...] = CATALOGUE_KINDS
) -> tuple[str, Any]:
    """Return (kind, row) of the catalogue item an id-or-title parameter names, or raise."""
    w = _media(world)
    if not isinstance(value, str) or not value.strip():
        raise unprocessable(f"{param} must be a catalogue id or a title")
    names = " or ".join(kinds) if len(kinds) < len(CATALOGUE_KINDS) else "Catalogue item"
    for kind, table, _ in CATALOGUE_TABLES:
        if kind not in kinds:
            continue
        key = find_key(w.table(table), value)
        if key is not None:
            return kind, w.table(table)[key]
    folded = value.strip().casefold()
    for kind, table, _ in CATALOGUE_TABLES:
        if kind not in kinds:
            continue
        for key in sorted(w.table(table)):
            row = w.table(table)[key]
            if row.title.casefold() == folded:
                return kind, row
    raise not_found(names.capitalize() if len(kinds) < len(CATALOGUE_KINDS) else names, value)


@tool()
def search_catalog(
    world: MediaWorld,
    query: str,
    kind: Kind | None = None,
) -> dict[str, Any]:
    """Search films, series, albums, books, podcasts and games by title.

    Matches every item whose title contains the query (case-insensitive); an exact title
    match comes first, the rest sorted by title. Each result has item_id, kind, title,
    year (release year; 0 for podcasts), genre and creator (the director, streaming
    service, artist, author, host or studio). Up to twenty in 'results', with 'count' and
    'total'.

    Args:
        world: The media service (not shown to the agent).
        query: Part of a title, e.g. 'lighthouse'.
        kind: Only items of this kind.
    """
    if not isinstance(query, str) or not query.strip():
        raise unprocessable("query must not be empty")
    folded = query.strip().casefold()
    found = []
    for k, table, _ in CATALOGUE_TABLES:
        if kind is not None and k != kind:
            continue
        for row in world.table(table).values():
            if folded in row.title.casefold():
                found.append((row.title.casefold() != folded, row.title, k, row))
    found.sort(key=lambda f: (f[0], f[1], f[2]))
    return listing(found, 20, lambda f: _catalogue_view(world, f[2], f[3]))


def _rating(world: MediaWorld, source: shapes.Source, item: str) -> dict[str, Any]:
    kind, row = resolve_item(world, item)
    item_id = _id_of(kind, row)
    rating = world.table(source.table).get(item_id)
    if rating is None:  # pragma: no cover - every catalogue item is rated by every source
        raise not_found("Rating", item)
    return {
        "item_id": item_id,
        "title": row.title,
        "kind": kind,
        "score_pct": rating.score_pct,
        "avg_rating": rating.avg_rating,
        "review_count": rating.review_count,
        "as_of": rating.as_of,
        "source": source.name,
    }


_ITEM_ARGS = """
    Args:
        world: The media service (not shown to the agent).
        item: The film, series, album, book, podcast or game. A catalogue id or exact title.
"""


def _independent_rating(tool_name: str, table: str, name: str) -> shapes.Source:
    """An independent aggregator's rating source: the aggregators differ only by name."""
    return shapes.Source(
        tool_name,
        table,
        name,
        f"""Review scores for any catalogue item from {name}, an independent aggregator.

        Same keys as get_ratings: item_id, title, kind, score_pct (0-100), avg_rating (out of
        10), review_count ({name}'s own count), as_of (UTC) and source. CriticHub
        (get_ratings) is authoritative where the aggregators disagree.
        """,
    )


get_ratings, get_ratings_fanpulse, get_ratings_reelmeter = shapes.source_tools(
    _rating,
    _ITEM_ARGS,
    shapes.Source(
        "get_ratings",
        "ratings_critichub",
        data.RATING_SOURCES[0],
        """Review scores for any catalogue item from CriticHub, the authoritative aggregator.

        CriticHub is the reference source: when rating sources disagree, its figures prevail.
        FanPulse (get_ratings_fanpulse) and ReelMeter (get_ratings_reelmeter) report the same
        fields independently, and FanPulse serves as the backup if CriticHub is unavailable.
        Returns item_id, title, kind, score_pct (share of positive reviews, 0-100),
        avg_rating (mean score out of 10), review_count, as_of (UTC time the figures were
        last updated) and source.
        """,
    ),
    _independent_rating("get_ratings_fanpulse", "ratings_fanpulse", data.RATING_SOURCES[1]),
    _independent_rating("get_ratings_reelmeter", "ratings_reelmeter", data.RATING_SOURCES[2]),
)


def _review_view(world: World, row: Row) -> dict[str, Any]:
    review = cast(Review, row)
    found = _media(world).catalogue_item(review.item_id)
    kind, title = found if found is not None else (None, None)
    return {**row_json(review), "title": title, "kind": kind}


@tool()
def list_my_reviews(
    world: MediaWorld, item: str | None = None, kind: Kind | None = None
) -> dict[str, Any]:
    """List the reviews the user wrote, sorted by review_id.

    Each has review_id, item_id, title, kind, stars (1-5), text and created_at (UTC). Up
    to fifty in 'results', with 'count' and 'total'.

    Args:
        world: The media service (not shown to the agent).
        item: Only reviews of this item. A catalogue id or exact title.
        kind: Only reviews of items of this kind.
    """
    rows = shapes.filtered_rows(
        world.reviews.values(),
        "review_id",
        shapes.Only("item_id", item, lambda v: _id_of(*resolve_item(world, v))),
    )
    views = [_review_view(world, r) for r in rows]
    if kind is not None:
        views = [v for v in views if v["kind"] == kind]
    return listing(views, 50, lambda v: v)


def _build_review(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _media(world)
    kind, row = resolve_item(w, args["item"])
    stars = int_arg(args["stars"], "stars", 1, 5)
    text = str(args.get("text") or "").strip()
    if len(text) > MAX_REVIEW_CHARS:
        raise unprocessable(f"text must be at most {MAX_REVIEW_CHARS} characters")
    item_id = _id_of(kind, row)
    for other in w.reviews.values():
        if other.item_id == item_id:
            raise conflict(
                f"You already reviewed '{row.title}' ({other.review_id})",
                review_id=other.review_id,
            )
    review_id = w.next_id("REV")
    return review_id, Review(
        review_id=review_id, item_id=item_id, stars=stars, text=text, created_at=stamp(w.now())
    )


submit_review = shapes.create(
    "submit_review",
    "reviews",
    "Post the user's review of a catalogue item: 1 to 5 stars and optional text. One "
    "review per item (409 if the item was already reviewed). Returns the review "
    "(review_id, item_id, title, kind, stars, text, created_at).",
    [
        Param("item", {"type": "string"}, f"The item reviewed. {ITEM_DOC}"),
        Param("stars", {"type": "integer"}, "Whole stars from 1 to 5."),
        Param(
            "text",
            {"type": "string"},
            f"The review text, at most {MAX_REVIEW_CHARS} characters (default empty).",
            required=False,
        ),
    ],
    _build_review,
    view=_review_view,
)


# -- cinema -------------------------------------------------------------------------------------


def _resolve_cinema(world: MediaWorld, value: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise unprocessable("cinema must be a cinema id or name")
    key = find_key(world.cinemas, value)
    if key is not None:
        return key
    for cinema in world.cinemas.values():
        if cinema.name.casefold() == value.strip().casefold():
            return cinema.cinema_id
    raise not_found("Cinema", value)


def _showtime_view(world: MediaWorld, row: Any) -> dict[str, Any]:
    film = world.films[row.film_id]
    cinema = world.cinemas[row.cinema_id]
    return {
        "showtime_id": row.showtime_id,
        "film_id": film.film_id,
        "film_title": film.title,
        "cinema_id": cinema.cinema_id,
        "cinema_name": cinema.name,
        "city": cinema.city,
        "date": row.date,
        "start_time": row.start_time,
        "end_time": end_time(row.start_time, data.TRAILER_MINUTES + film.runtime_min),
        "runtime_min": film.runtime_min,
        "format": row.format,
        "price_usd": row.price_usd,
        "seats_available": row.seats_available,
    }


@tool()
def list_showtimes(
    world: MediaWorld,
    film: str | None = None,
    cinema: str | None = None,
    date: str | None = None,
    format: Literal["standard", "3d", "imax"] | None = None,
    ends_before: str | None = None,
    city: str | None = None,
) -> dict[str, Any]:
    """Cinema screenings for the coming week, sorted by date, start time and cinema name.

    Every filter given must match. Each result has showtime_id, film_id, film_title,
    cinema_id, cinema_name, city, date (YYYY-MM-DD), start_time and end_time (local HH:MM;
    the end allows twenty minutes of trailers before the film), runtime_min (the film's
    length), format, price_usd (the adult ticket before booking fees) and
    seats_available. Up to fifty in 'results', with 'count' and 'total'.

    Args:
        world: The media service (not shown to the agent).
        film: Only this film: a film id (e.g. 'FLM-1234') or its exact title.
        cinema: Only this cinema: a cinema id (e.g. 'CIN-123') or its exact name.
        date: Only screenings on this day, YYYY-MM-DD.
        format: Only this screening format.
        ends_before: Only screenings that end at or before this local time, HH:MM.
        city: Only cinemas in this city.
    """
    rows = list(world.showtimes.values())
    if film is not None:
        _, found = resolve_item(world, film, "film", ("film",))
        rows = [r for r in rows if r.film_id == found.film_id]
    if cinema is not None:
        cinema_id = _resolve_cinema(world, cinema)
        rows = [r for r in rows if r.cinema_id == cinema_id]
    if date is not None:
        day = date_arg(date, "date").isoformat()
        rows = [r for r in rows if r.date == day]
    if format is not None:
        rows = [r for r in rows if r.format == format]
    if city is not None:
        rows = [r for r in rows if world.cinemas[r.cinema_id].city.casefold() == city.casefold()]
    views = [_showtime_view(world, r) for r in rows]
    if ends_before is not None:
        limit = clock_text(ends_before, "ends_before")
        views = [v for v in views if v["start_time"] <= v["end_time"] <= limit]
    views.sort(key=lambda v: (v["date"], v["start_time"], v["cinema_name"]))
    return listing(views, 50, lambda v: v)


def _quote(
    world: MediaWorld,
    showtime_id: str,
    adults: Any,
    children: Any,
    seniors: Any,
    promo_code: str | None,
    param: str = "showtime_id",
) -> dict[str, Any]:
    key = stored_key(world.showtimes, showtime_id, "Showtime")
    show = world.showtimes[key]
    counts = [
        int_arg(v, n, 0, MAX_TICKETS) for v, n in ((adults, "adults"), (children, "children"))
    ]
    counts.append(int_arg(seniors, "seniors", 0, MAX_TICKETS))
    tickets = sum(counts)
    if tickets == 0:
        raise unprocessable("order at least one ticket")
    if tickets > MAX_TICKETS:
        raise unprocessable(f"at most {MAX_TICKETS} tickets per order")
    if tickets > show.seats_available:
        raise conflict(
            f"Only {show.seats_available} seats left for showtime {key}",
            seats_available=show.seats_available,
        )
    adult = dec(show.price_usd)
    child = dec(money(adult * CHILD_SHARE))
    senior = dec(money(adult * SENIOR_SHARE))
    subtotal = adult * counts[0] + child * counts[1] + senior * counts[2]
    discount = Decimal("0")
    code = None
    if promo_code is not None and str(promo_code).strip():
        code = str(promo_code).strip().upper()
        if code not in PROMO_CODES:
            raise unprocessable(f"promo_code '{promo_code}' is not valid")
        rule, amount, text = PROMO_CODES[code]
        if rule == "percent":
            discount = dec(money(subtotal * amount))
        elif rule == "flat":
            if tickets < 4 or counts[1] == 0:
                raise unprocessable(f"{code} needs {text.split(' off ')[1]}")
            discount = amount
        else:
            if show.start_time >= "16:00":
                raise unprocessable(f"{code} only applies to shows starting before 16:00")
            discount = amount * tickets
    fees = dec(world.cinemas[show.cinema_id].booking_fee_usd) * tickets
    view = _showtime_view(world, show)
    return {
        "showtime_id": key,
        "film_title": view["film_title"],
        "cinema_name": view["cinema_name"],
        "date": show.date,
        "start_time": show.start_time,
        "end_time": view["end_time"],
        "adults": counts[0],
        "children": counts[1],
        "seniors": counts[2],
        "tickets": tickets,
        "promo_code": code,
        "subtotal_usd": money(subtotal),
        "discount_usd": money(discount),
        "fees_usd": money(fees),
        "total_usd": money(subtotal - discount + fees),
    }


@tool()
def quote_tickets(
    world: MediaWorld,
    showtime_id: str,
    adults: int = 1,
    children: int = 0,
    seniors: int = 0,
    promo_code: str | None = None,
) -> dict[str, Any]:
    """Price a ticket order for one screening without booking it.

    Children pay three quarters and seniors seventy percent of the adult price (each
    rounded to the cent); the cinema adds its booking fee per ticket. A promo code takes
    a discount (see promo_code). Returns showtime_id, film_title, cinema_name, date, start_time,
    end_time, adults, children, seniors, tickets, promo_code, subtotal_usd (tickets before
    discount), discount_usd, fees_usd and total_usd (subtotal - discount + fees). At most
    10 tickets per order; 409 if fewer seats are left. quote_tickets_v2 is the newer
    version of this endpoint; this one still works.

    Args:
        world: The media service (not shown to the agent).
        showtime_id: The screening, e.g. 'SHW-12345' (from list_showtimes).
        adults: Adult tickets (default 1).
        children: Child tickets, under 12 (default 0).
        seniors: Senior tickets, sixty-five and over (default 0).
        promo_code: A promo code: MOVIEFAN10 (10% off the ticket subtotal), FAMILY4 ($6
            off an order of 4 or more tickets with a child) or MATINEE3 ($3 off each
            ticket for a show before 16:00).
    """
    return _quote(world, showtime_id, adults, children, seniors, promo_code)


@tool(name="quote_tickets_v2")
def quote_tickets_v2(
    world: MediaWorld,
    showing_id: str,
    adult_count: int = 1,
    child_count: int = 0,
    senior_count: int = 0,
    promo: str | None = None,
) -> dict[str, Any]:
    """Version 2 of quote_tickets: the same price quote with renamed parameters.

    Takes showing_id (was showtime_id), adult_count, child_count, senior_count and promo
    (was promo_code); returns exactly the keys quote_tickets returns: showtime_id,
    film_title, cinema_name, date, start_time, end_time, adults, children, seniors,
    tickets, promo_code, subtotal_usd, discount_usd, fees_usd and total_usd.

    Args:
        world: The media service (not shown to the agent).
        showing_id: The screening, e.g. 'SHW-12345' (from list_showtimes).
        adult_count: Adult tickets (default 1).
        child_count: Child tickets, under 12 (default 0).
        senior_count: Senior tickets, sixty-five and over (default 0).
        promo: A promo code: MOVIEFAN10, FAMILY4 or MATINEE3 (see quote_tickets).
    """
    return _quote(world, showing_id, adult_count, child_count, senior_count, promo)


def _order_view(world: World, row: Row) -> dict[str, Any]:
    order = cast(TicketOrder, row)
    w = _media(world)
    show = w.showtimes.get(order.showtime_id)
    out = row_json(order)
    if show is not None:
        out["film_title"] = w.films[show.film_id].title
        out["cinema_name"] = w.cinemas[show.cinema_id].name
        out["date"] = show.date
        out["start_time"] = show.start_time
    return out


def _build_order(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _media(world)
    quote = _quote(
        w,
        args["showtime_id"],
        args.get("adults", 1),
        args.get("children", 0),
        args.get("seniors", 0),
        args.get("promo_code"),
    )
    show = w.showtimes[quote["showtime_id"]]
    w.update("showtimes", show.showtime_id, seats_available=show.seats_available - quote["tickets"])
    order_id = w.next_id("TKT")
    return order_id, TicketOrder(
        order_id=order_id,
        showtime_id=show.showtime_id,
        adults=quote["adults"],
        children=quote["children"],
        seniors=quote["seniors"],
        promo_code=quote["promo_code"],
        subtotal_usd=quote["subtotal_usd"],
        discount_usd=quote["discount_usd"],
        fees_usd=quote["fees_usd"],
        total_usd=quote["total_usd"],
        status="confirmed",
        created_at=stamp(w.now()),
    )


book_tickets = shapes.create(
    "book_tickets",
    "ticket_orders",
    "Book tickets for one screening, priced exactly as quote_tickets prices them, and "
    "hold the seats. Returns the order: order_id, showtime_id, adults, children, seniors, "
    "promo_code, subtotal_usd, discount_usd, fees_usd, total_usd, status ('confirmed'), "
    "created_at, film_title, cinema_name, date and start_time.",
    [
        Param("showtime_id", {"type": "string"}, "The screening, e.g. 'SHW-12345'."),
        Param("adults", {"type": "integer", "default": 1}, "Adult tickets.", required=False),
        Param("children", {"type": "integer", "default": 0}, "Child tickets.", required=False),
        Param("seniors", {"type": "integer", "default": 0}, "Senior tickets.", required=False),
        Param(
            "promo_code",
            {"type": "string"},
            "A promo code: MOVIEFAN10, FAMILY4 or MATINEE3 (see quote_tickets).",
            required=False,
        ),
    ],
    _build_order,
    view=_order_view,
)

list_ticket_orders = shapes.search(
    "list_ticket_orders",
    "ticket_orders",
    "List the user's cinema ticket orders, sorted by order_id. Every filter given must "
    "match. Each has order_id, showtime_id, adults, children, seniors, promo_code, "
    "subtotal_usd, discount_usd, fees_usd, total_usd, status ('confirmed' or "
    "'cancelled'), created_at, film_title, cinema_name, date and start_time. Up to fifty.",
    [
        Filter("order_id", "order_id", "Only this order, e.g. 'TKT-00001'."),
        Filter("showtime_id", "showtime_id", "Only orders for this screening."),
        Filter(
            "status",
            "status",
            "Only orders in this status.",
            schema=enum_schema(("confirmed", "cancelled")),
        ),
    ],
    view=_order_view,
    sort_by="order_id",
    limit=50,
)


@tool(ToolKind.WRITE)
def cancel_ticket_order(world: MediaWorld, order_id: str) -> dict[str, Any]:
    """Cancel a confirmed ticket order and release its seats.

    The ticket price less any discount is refunded; booking fees are not. Returns the
    order (status 'cancelled') plus refund_usd. 409 if it is already cancelled.

    Args:
        world: The media service (not shown to the agent).
        order_id: The order id, e.g. 'TKT-00001'.
    """
    key = stored_key(world.ticket_orders, order_id, "Order")
    order = world.ticket_orders[key]
    if order.status == "cancelled":
        raise conflict(f"Order {key} is already cancelled")
    show = world.showtimes[order.showtime_id]
    tickets = order.adults + order.children + order.seniors
    world.update("showtimes", show.showtime_id, seats_available=show.seats_available + tickets)
    new = world.update("ticket_orders", key, status="cancelled")
    refund = money(dec(order.subtotal_usd) - dec(order.discount_usd))
    return {**_order_view(world, new), "refund_usd": refund}


# -- streaming ------------------------------------------------------------------------------------


def _series(world: MediaWorld, value: Any, param: str) -> Any:
    return resolve_item(world, value, param, ("series",))[1]


def _episodes(world: MediaWorld, series_id: str, season: int | None) -> list[Any]:
    rows = [e for e in world.episodes.values() if e.series_id == series_id]
    if season is not None:
        rows = [e for e in rows if e.season == season]
    return sorted(rows, key=lambda e: (e.season, e.number))


def _season(world: MediaWorld, show: Any, season: Any, param: str = "season") -> int | None:
    if season is None:
        return None
    if not is_integer(season) or not 1 <= season <= show.seasons:
        raise unprocessable(f"{param} must be from 1 to {show.seasons} for '{show.title}'")
    return int(season)


@tool()
def get_series(world: MediaWorld, series: str) -> dict[str, Any]:
    """One streaming series: where it streams and how long it takes to watch.

    Returns series_id, title, genre, year (first season), service (the streaming
    service carrying it), monthly_price_usd (that service's plan), seasons,
    episode_count and total_runtime_min (every episode, minutes).

    Args:
        world: The media service (not shown to the agent).
        series: The series: an id (e.g. 'SER-123') or its exact title.
    """
    show = _series(world, series, "series")
    service = world.services[show.service_id]
    episodes = _episodes(world, show.series_id, None)
    return {
        "series_id": show.series_id,
        "title": show.title,
        "genre": show.genre,
        "year": show.year,
        "service": service.name,
        "monthly_price_usd": service.monthly_price_usd,
        "seasons": show.seasons,
        "episode_count": len(episodes),
        "total_runtime_min": sum(e.runtime_min for e in episodes),
    }


@tool()
def list_episodes(world: MediaWorld, series: str, season: int | None = None) -> dict[str, Any]:
    """The episodes of a series in order (season, then number).

    Returns series_id, title, then 'results': each episode has episode_id, season,
    number, title, runtime_min and air_date (YYYY-MM-DD), with 'count' and 'total'. Up to
    sixty episodes.

    Args:
        world: The media service (not shown to the agent).
        series: The series: an id (e.g. 'SER-123') or its exact title.
        season: Only this season (1 = the first).
    """
    show = _series(world, series, "series")
    rows = _episodes(world, show.series_id, _season(world, show, season))
    return listing(
        rows,
        60,
        lambda e: {k: v for k, v in row_json(e).items() if k != "series_id"},
        series_id=show.series_id,
        title=show.title,
    )


def _binge(
    world: MediaWorld,
    series: Any,
    season: Any,
    minutes_per_day: Any,
    start: str | None,
    names: tuple[str, str, str, str],
) -> dict[str, Any]:
    show = _series(world, series, names[0])
    chosen = _season(world, show, season, names[1])
    if not is_integer(minutes_per_day) or not 15 <= minutes_per_day <= 1440:
        raise unprocessable(f"{names[2]} must be an integer from 15 to 1440")
    first = world.today() if start is None else date_arg(start, names[3])
    episodes = _episodes(world, show.series_id, chosen)
    days, used = 1, 0
    for episode in episodes:
        if used and used + episode.runtime_min > minutes_per_day:
            days, used = days + 1, 0
        used += episode.runtime_min
    total = sum(e.runtime_min for e in episodes)
    return {
        "series_id": show.series_id,
        "title": show.title,
        "season": chosen,
        "episodes": len(episodes),
        "total_runtime_min": total,
        "minutes_per_day": minutes_per_day,
        "days_needed": days,
        "start_date": first.isoformat(),
        "finish_date": (first + timedelta(days=days - 1)).isoformat(),
    }


@tool()
def compute_binge_time(
    world: MediaWorld,
    series: str,
    season: int | None = None,
    minutes_per_day: int = 120,
    start_date: str | None = None,
) -> dict[str, Any]:
    """How long a series (or one season) takes to watch at a daily viewing budget.

    Episodes are watched whole and in order: each day you watch episodes while they fit
    in the daily minutes (always at least one episode a day). Returns series_id, title,
    season (null for the whole series), episodes, total_runtime_min, minutes_per_day,
    days_needed, start_date and finish_date (YYYY-MM-DD, the day the last episode is
    watched). compute_binge_time_v2 is the newer version; this one still works.

    Args:
        world: The media service (not shown to the agent).
        series: The series: an id (e.g. 'SER-123') or its exact title.
        season: Only this season (default: every season).
        minutes_per_day: Viewing minutes per day, 15 to 1440 (default 120).
        start_date: The first viewing day, YYYY-MM-DD (default today).
    """
    names = ("series", "season", "minutes_per_day", "start_date")
    return _binge(world, series, season, minutes_per_day, start_date, names)


@tool(name="compute_binge_time_v2")
def compute_binge_time_v2(
    world: MediaWorld,
    show: str,
    season_number: int | None = None,
    daily_minutes: int = 120,
    start_on: str | None = None,
) -> dict[str, Any]:
    """Version 2 of compute_binge_time: the same calculation with renamed parameters.

    Takes show (was series), season_number (was season), daily_minutes (was
    minutes_per_day) and start_on (was start_date); returns exactly the keys
    compute_binge_time returns: series_id, title, season, episodes, total_runtime_min,
    minutes_per_day, days_needed, start_date and finish_date.

    Args:
        world: The media service (not shown to the agent).
        show: The series: an id (e.g. 'SER-123') or its exact title.
        season_number: Only this season (default: every season).
        daily_minutes: Viewing minutes per day, 15 to 1440 (default 120).
        start_on: The first viewing day, YYYY-MM-DD (default today).
    """
    names = ("show", "season_number", "daily_minutes", "start_on")
    return _binge(world, show, season_number, daily_minutes, start_on, names)


list_watchlist = shapes.search(
    "list_watchlist",
    "watchlist",
    "List the user's watchlist, sorted by entry_id (oldest first). Every filter given "
    "must match. Each entry has entry_id, item_id, title, kind ('film' or 'series'), "
    "priority (high, normal, low) and added_at (UTC). Up to fifty.",
    [
        Filter("kind", "kind", "Only films or only series.", enum_schema(("film", "series"))),
        Filter("priority", "priority", "Only this priority.", enum_schema(WATCH_PRIORITIES)),
    ],
    sort_by="entry_id",
    limit=50,
)


def _build_watch(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _media(world)
    kind, row = resolve_item(w, args["item"], "item", ("film", "series"))
    priority = args.get("priority") or "normal"
    if priority not in WATCH_PRIORITIES:
        raise unprocessable(f"priority must be one of: {', '.join(WATCH_PRIORITIES)}")
    item_id = _id_of(kind, row)
    for entry in w.watchlist.values():
        if entry.item_id == item_id:
            raise conflict(
                f"'{row.title}' is already on the watchlist ({entry.entry_id})",
                entry_id=entry.entry_id,
            )
    entry_id = w.next_id("WL")
    return entry_id, WatchlistEntry(
        entry_id=entry_id,
        item_id=item_id,
        title=row.title,
        kind=kind,
        priority=priority,
        added_at=stamp(w.now()),
    )


add_to_watchlist = shapes.create(
    "add_to_watchlist",
    "watchlist",
    "Add a film or series to the user's watchlist (409 if it is already there). Returns "
    "the entry: entry_id, item_id, title, kind, priority and added_at.",
    [
        Param(
            "item",
            {"type": "string"},
            "The film or series: an id (e.g. 'FLM-1234', 'SER-123') or its exact title.",
        ),
        Param(
            "priority",
            {**enum_schema(WATCH_PRIORITIES), "default": "normal"},
            "How soon to watch it.",
            required=False,
        ),
    ],
    _build_watch,
)


# -- music ----------------------------------------------------------------------------------------


def _track_view(world: MediaWorld, track: Any) -> dict[str, Any]:
    album = world.albums[track.album_id]
    return {
        "track_id": track.track_id,
        "title": track.title,
        "artist": world.artists[track.artist_id].name,
        "album_id": album.album_id,
        "album": album.title,
        "track_number": track.track_number,
        "duration_sec": track.duration_sec,
    }


@tool()
def search_tracks(
    world: MediaWorld, query: str | None = None, artist: str | None = None
) -> dict[str, Any]:
    """Search tracks by title and/or artist, sorted by artist, album and track number.

    Give at least one filter. Each result has track_id, title, artist, album_id, album,
    track_number and duration_sec (seconds). Up to twenty-five in 'results', with 'count' and
    'total'.

    Args:
        world: The media service (not shown to the agent).
        query: Part of the track title (case-insensitive).
        artist: Part of the artist's name (case-insensitive).
    """
    if not (query or "").strip() and not (artist or "").strip():
        raise unprocessable("give query or artist")
    rows = [_track_view(world, t) for t in world.tracks.values()]
    if query is not None and query.strip():
        rows = [r for r in rows if query.strip().casefold() in r["title"].casefold()]
    if artist is not None and artist.strip():
        rows = [r for r in rows if artist.strip().casefold() in r["artist"].casefold()]
    rows.sort(key=lambda r: (r["artist"], r["album"], r["track_number"]))
    return listing(rows, 25, lambda r: r)


@tool()
def get_album(world: MediaWorld, album: str) -> dict[str, Any]:
    """One album and its track list.

    Returns album_id, title, artist, year, genre, track_count, total_duration_sec (the
    whole album, seconds) and 'results': the tracks in order, each with track_id, title,
    artist, album_id, album, track_number and duration_sec; with 'count' and 'total'.

    Args:
        world: The media service (not shown to the agent).
        album: The album: an id (e.g. 'ALB-1234') or its exact title.
    """
    found = resolve_item(world, album, "album", ("album",))[1]
    tracks = sorted(
        (t for t in world.tracks.values() if t.album_id == found.album_id),
        key=lambda t: t.track_number,
    )
    return listing(
        tracks,
        30,
        lambda t: _track_view(world, t),
        album_id=found.album_id,
        title=found.title,
        artist=world.artists[found.artist_id].name,
        year=found.year,
        genre=found.genre,
        track_count=len(tracks),
        total_duration_sec=sum(t.duration_sec for t in tracks),
    )


def _playlist_head(world: MediaWorld, playlist: Playlist) -> dict[str, Any]:
    return {
        "playlist_id": playlist.playlist_id,
        "name": playlist.name,
        "track_count": len(playlist.track_ids),
        "total_duration_sec": sum(world.tracks[t].duration_sec for t in playlist.track_ids),
        "created_at": playlist.created_at,
    }


@tool()
def list_playlists(world: MediaWorld, name_contains: str | None = None) -> dict[str, Any]:
    """List the user's playlists, sorted by name.

    Each has playlist_id, name, track_count, total_duration_sec (every track, seconds)
    and created_at (UTC). Up to fifty in 'results', with 'count' and 'total'.

    Args:
        world: The media service (not shown to the agent).
        name_contains: Only playlists whose name contains this (case-insensitive).
    """
    rows = sorted(world.playlists.values(), key=lambda p: p.name)
    if name_contains is not None:
        rows = [p for p in rows if name_contains.strip().casefold() in p.name.casefold()]
    return listing(rows, 50, lambda p: _playlist_head(world, p))


def _playlist_view(world: World, row: Row) -> dict[str, Any]:
    w = _media(world)
    playlist = cast(Playlist, row)
    tracks = [w.tracks[t] for t in playlist.track_ids]
    return listing(tracks, 100, lambda t: _track_view(w, t), **_playlist_head(w, playlist))


get_playlist = shapes.lookup(
    "get_playlist",
    "playlists",
    "playlist_id",
    "Playlist",
    "One playlist and its tracks in order. Returns playlist_id, name, track_count, "
    "total_duration_sec (seconds), created_at and 'results': each track with track_id, "
    "title, artist, album_id, album, track_number and duration_sec; with 'count' and "
    "'total'.",
    "The playlist id, e.g. 'PL-00001' (from list_playlists).",
    view=_playlist_view,
)


def _build_playlist(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _media(world)
    name = str(args["name"]).strip()
    if not name:
        raise unprocessable("name must not be empty")
    if len(name) > MAX_NAME_CHARS:
        raise unprocessable(f"name must be at most {MAX_NAME_CHARS} characters")
    for other in w.playlists.values():
        if other.name.casefold() == name.casefold():
            raise conflict(
                f"A playlist is already named '{other.name}' ({other.playlist_id})",
                playlist_id=other.playlist_id,
            )
    playlist_id = w.next_id("PL")
    return playlist_id, Playlist(
        playlist_id=playlist_id, name=name, track_ids=(), created_at=stamp(w.now())
    )


create_playlist = shapes.create(
    "create_playlist",
    "playlists",
    "Create an empty playlist. Names are unique, case-insensitive (409 otherwise). "
    "Returns the playlist as get_playlist does (playlist_id, name, track_count, "
    "total_duration_sec, created_at, an empty 'results').",
    [Param("name", {"type": "string"}, "The name, at most sixty characters.")],
    _build_playlist,
    view=_playlist_view,
)


@tool(ToolKind.WRITE)
def add_track_to_playlist(world: MediaWorld, playlist_id: str, track_id: str) -> dict[str, Any]:
    """Append a track to the end of a playlist (409 if it is already on it).

    Returns the playlist as get_playlist does, with the new track last.

    Args:
        world: The media service (not shown to the agent).
        playlist_id: The playlist id, e.g. 'PL-00001'.
        track_id: The track id, e.g. 'TRK-12345' (from search_tracks or get_album).
    """
    key = stored_key(world.playlists, playlist_id, "Playlist")
    track = stored_key(world.tracks, track_id, "Track")
    playlist = world.playlists[key]
    if track in playlist.track_ids:
        raise conflict(f"Track {track} is already on playlist '{playlist.name}'")
    if len(playlist.track_ids) >= 100:
        raise unprocessable("a playlist holds at most 100 tracks")
    new = world.update("playlists", key, track_ids=(*playlist.track_ids, track))
    return _playlist_view(world, new)


# -- the library ----------------------------------------------------------------------------------


search_books = shapes.search(
    "search_books",
    "books",
    "Search the library catalogue, sorted by title. Every filter given must match. Each "
    "book has book_id, title, author, genre, year, pages, copies_total and "
    "copies_available (on the shelf now). Up to twenty.",
    [
        Filter("title_contains", "title", "Part of the title.", op="contains"),
        Filter("author", "author", "Part of the author's name.", op="contains"),
        Filter("genre", "genre", "Only this genre, e.g. 'mystery'."),
    ],
    sort_by="title",
)


def _loan_status(world: MediaWorld, loan: Loan) -> str:
    if loan.returned_on is not None:
        return "returned"
    return "overdue" if loan.due_date < world.today().isoformat() else "out"


def _loan_view(world: World, row: Row) -> dict[str, Any]:
    w = _media(world)
    loan = cast(Loan, row)
    status = _loan_status(w, loan)
    overdue = (w.today() - date.fromisoformat(loan.due_date)).days if status == "overdue" else 0
    return {
        **row_json(loan),
        "title": w.books[loan.book_id].title,
        "status": status,
        "days_overdue": overdue,
    }


@tool()
def list_loans(
    world: MediaWorld,
    status: Literal["out", "overdue", "returned"] | None = None,
    loan_id: str | None = None,
) -> dict[str, Any]:
    """List the user's library loans, sorted by due date.

    Each loan has loan_id, book_id, title, borrowed_on, due_date, returned_on (null while
    out), renewals, status ('out', 'overdue' = past due and not returned, or
    'returned') and days_overdue (0 unless overdue). Up to fifty in 'results'.

    Args:
        world: The media service (not shown to the agent).
        status: Only loans in this status.
        loan_id: Only this loan, e.g. 'LN-123456'.
    """
    rows = sorted(world.loans.values(), key=lambda r: (r.due_date, r.loan_id))
    if loan_id is not None:
        rows = [r for r in rows if r.loan_id.casefold() == loan_id.strip().casefold()]
    views = [_loan_view(world, r) for r in rows]
    if status is not None:
        views = [v for v in views if v["status"] == status]
    return listing(views, 50, lambda v: v)


@tool()
def compute_late_fee(
    world: MediaWorld, loan_id: str, return_date: str | None = None
) -> dict[str, Any]:
    """The late fee a loan owes if returned on a given day.

    The library charges a fee per day late (the days after due_date up to the return
    day), capped per item. Returns loan_id, title, due_date, return_date, days_late,
    fee_per_day_usd, fine_usd and capped (whether the cap applied). Without return_date
    it uses the day the book came back, or today if it is still out.

    Args:
        world: The media service (not shown to the agent).
        loan_id: The loan id, e.g. 'LN-123456' (from list_loans).
        return_date: The (planned) return day, YYYY-MM-DD, not before the borrow day.
    """
    key = stored_key(world.loans, loan_id, "Loan")
    loan = world.loans[key]
    if return_date is not None:
        back = date_arg(return_date, "return_date")
    elif loan.returned_on is not None:
        back = date.fromisoformat(loan.returned_on)
    else:
        back = world.today()
    if back.isoformat() < loan.borrowed_on:
        raise unprocessable(f"return_date must not be before the borrow day {loan.borrowed_on}")
    late = max(0, (back - date.fromisoformat(loan.due_date)).days)
    raw = dec(data.LATE_FEE_PER_DAY_USD) * late
    cap = dec(data.LATE_FEE_CAP_USD)
    return {
        "loan_id": key,
        "title": world.books[loan.book_id].title,
        "due_date": loan.due_date,
        "return_date": back.isoformat(),
        "days_late": late,
        "fee_per_day_usd": data.LATE_FEE_PER_DAY_USD,
        "fine_usd": money(min(raw, cap)),
        "capped": raw > cap,
    }


def _renewal(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    w = _media(world)
    loan = cast(Loan, row)
    status = _loan_status(w, loan)
    if status == "returned":
        raise conflict(f"Loan {loan.loan_id} was returned on {loan.returned_on}")
    if status == "overdue":
        raise conflict(f"Loan {loan.loan_id} is overdue and cannot be renewed online")
    if loan.renewals >= data.MAX_RENEWALS:
        raise conflict(f"Loan {loan.loan_id} has reached the renewal limit")
    if any(h.book_id == loan.book_id and h.status == "waiting" for h in w.holds.values()):
        raise conflict(f"Another reader has a hold on this book; loan {loan.loan_id} can't renew")
    due = date.fromisoformat(loan.due_date) + timedelta(days=data.RENEWAL_DAYS)
    return {"due_date": due.isoformat(), "renewals": loan.renewals + 1}


renew_loan = shapes.update(
    "renew_loan",
    "loans",
    "loan_id",
    "Loan",
    "Renew a loan that is out and not yet due: the due date moves two weeks later. "
    "Refused (409) for a returned or overdue loan, one renewed the maximum number of "
    "times, or a book someone holds. Returns the loan as list_loans shows it.",
    "The loan id, e.g. 'LN-123456'.",
    [],
    _renewal,
    view=_loan_view,
)


def _hold_view(world: World, row: Row) -> dict[str, Any]:
    hold = cast(Hold, row)
    return {**row_json(hold), "title": _media(world).books[hold.book_id].title}


def _book(world: MediaWorld, value: Any) -> Any:
    return resolve_item(world, value, "book", ("book",))[1]


@tool()
def list_holds(world: MediaWorld, book: str | None = None) -> dict[str, Any]:
    """List the user's holds, sorted by hold_id.

    Each has hold_id, book_id, title, pickup_branch, queue_position (1 = next in line),
    placed_at (UTC) and status. Up to fifty in 'results'.

    Args:
        world: The media service (not shown to the agent).
        book: Only holds on this book: an id (e.g. 'BK-12345') or its exact title.
    """
    rows = shapes.filtered_rows(
        world.holds.values(),
        "hold_id",
        shapes.Only("book_id", book, lambda v: _book(world, v).book_id),
    )
    return listing(rows, 50, lambda h: _hold_view(world, h))


def _build_hold(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _media(world)
    found = _book(w, args["book"])
    branch = args["pickup_branch"]
    if branch not in data.LIBRARY_BRANCHES:
        raise unprocessable(f"pickup_branch must be one of: {', '.join(data.LIBRARY_BRANCHES)}")
    for hold in w.holds.values():
        if hold.book_id == found.book_id:
            raise conflict(f"You already hold '{found.title}' ({hold.hold_id})")
    for loan in w.loans.values():
        if loan.book_id == found.book_id and loan.returned_on is None:
            raise conflict(f"You have '{found.title}' on loan ({loan.loan_id})")
    position = 1 if found.copies_available else found.copies_total + 1
    hold_id = w.next_id("HLD")
    return hold_id, Hold(
        hold_id=hold_id,
        book_id=found.book_id,
        pickup_branch=branch,
        queue_position=position,
        placed_at=stamp(w.now()),
        status="ready" if found.copies_available else "waiting",
    )


place_hold = shapes.create(
    "place_hold",
    "holds",
    "Place a hold on a book for pickup at a branch. A book with a copy on the shelf is "
    "ready at once (queue_position 1); otherwise you join the queue. Refused (409) if you "
    "already hold or have borrowed it. Returns the hold: hold_id, book_id, title, "
    "pickup_branch, queue_position, placed_at and status ('ready' or 'waiting').",
    [
        Param("book", {"type": "string"}, "The book: an id (e.g. 'BK-12345') or its exact title."),
        Param("pickup_branch", enum_schema(data.LIBRARY_BRANCHES), "Where to pick it up."),
    ],
    _build_hold,
    view=_hold_view,
)


# -- podcasts -------------------------------------------------------------------------------------


def _feed(
    world: MediaWorld, podcast: str, published_after: str | None, table: str, source: str
) -> dict[str, Any]:
    show = resolve_item(world, podcast, "podcast", ("podcast",))[1]
    rows = [e for e in world.table(table).values() if e.podcast_id == show.podcast_id]
    if published_after is not None:
        after = date_arg(published_after, "published_after").isoformat()
        rows = [e for e in rows if e.published_on > after]
    rows.sort(key=lambda e: -e.number)
    return listing(
        rows,
        30,
        lambda e: {k: v for k, v in row_json(e).items() if k != "podcast_id"},
        podcast_id=show.podcast_id,
        podcast_title=show.title,
        host=show.host,
        total_duration_min=sum(e.duration_min for e in rows),
        source=source,
    )


@tool()
def list_podcast_episodes(
    world: MediaWorld, podcast: str, published_after: str | None = None
) -> dict[str, Any]:
    """The episodes of a podcast from its host's feed, newest first.

    Returns podcast_id, podcast_title, host, total_duration_min (every matching episode,
    minutes), source and 'results': each episode has episode_id, number, title,
    duration_min and published_on (YYYY-MM-DD); with 'count' and 'total'. Up to thirty
    episodes. If the feed is unavailable, list_podcast_episodes_mirror returns the same
    episodes under the same keys from an independent podcast directory.

    Args:
        world: The media service (not shown to the agent).
        podcast: The podcast: an id (e.g. 'POD-123') or its exact title.
        published_after: Only episodes published after this day, YYYY-MM-DD.
    """
    return _feed(world, podcast, published_after, "podcast_episodes", "host feed")


@tool()
def list_podcast_episodes_mirror(
    world: MediaWorld, podcast: str, published_after: str | None = None
) -> dict[str, Any]:
    """A podcast's episodes from PodIndex, an independent directory mirroring the feeds.

    A second source for list_podcast_episodes with the same keys: podcast_id,
    podcast_title, host, total_duration_min, source and 'results' newest first, each
    with episode_id, number, title, duration_min and published_on; up to thirty.

    Args:
        world: The media service (not shown to the agent).
        podcast: The podcast: an id (e.g. 'POD-123') or its exact title.
        published_after: Only episodes published after this day, YYYY-MM-DD.
    """
    return _feed(world, podcast, published_after, "podcast_mirror", "PodIndex")


# -- live events ----------------------------------------------------------------------------------


def _event_view(world: MediaWorld, event: Any) -> dict[str, Any]:
    venue = world.venues[event.venue_id]
    return {
        "event_id": event.event_id,
        "performer": event.performer,
        "venue_id": venue.venue_id,
        "venue_name": venue.name,
        "city": venue.city,
        "date": event.date,
        "start_time": event.start_time,
    }


@tool()
def list_events(
    world: MediaWorld,
    city: str | None = None,
    performer: str | None = None,
    from_date: str | None = None,
    to_date: str | None = None,
) -> dict[str, Any]:
    """Upcoming concerts, sorted by date, then performer. Every filter given must match.

    Each has event_id, performer, venue_id, venue_name, city, date (YYYY-MM-DD) and
    start_time (local HH:MM). Ticket tiers are general, balcony, floor and vip; ask
    get_ticket_price for a tier's price. Up to fifty in 'results', with 'count' and 'total'.

    Args:
        world: The media service (not shown to the agent).
        city: Only events in this city.
        performer: Part of the performer's name (case-insensitive).
        from_date: Only events on or after this day, YYYY-MM-DD.
        to_date: Only events on or before this day, YYYY-MM-DD.
    """
    rows = [_event_view(world, e) for e in world.events.values()]
    if city is not None:
        rows = [r for r in rows if r["city"].casefold() == city.strip().casefold()]
    if performer is not None:
        rows = [r for r in rows if performer.strip().casefold() in r["performer"].casefold()]
    if from_date is not None:
        start = date_arg(from_date, "from_date").isoformat()
        rows = [r for r in rows if r["date"] >= start]
    if to_date is not None:
        end = date_arg(to_date, "to_date").isoformat()
        rows = [r for r in rows if r["date"] <= end]
    rows.sort(key=lambda r: (r["date"], r["performer"], r["event_id"]))
    return listing(rows, 50, lambda r: r)


Tier = Literal["general", "balcony", "floor", "vip"]


def _price(world: MediaWorld, source: shapes.Source, event_id: str, tier: Tier) -> dict[str, Any]:
    key = stored_key(world.events, event_id, "Event")
    if tier not in [t for t, _ in data.TICKET_TIERS]:
        raise unprocessable(f"tier must be one of: {', '.join(t for t, _ in data.TICKET_TIERS)}")
    row = world.table(source.table)[f"{key}:{tier}"]
    event = world.events[key]
    return {
        "event_id": key,
        "performer": event.performer,
        "date": event.date,
        "tier": tier,
        "price_usd": row.price_usd,
        "fee_usd": row.fee_usd,
        "total_usd": money(dec(row.price_usd) + dec(row.fee_usd)),
        "available": row.available,
        "as_of": row.as_of,
        "seller": source.name,
    }


_PRICE_ARGS = """
    Args:
        world: The media service (not shown to the agent).
        event_id: The concert, e.g. 'EVT-1234' (from list_events).
        tier: The ticket tier.
"""


def _resale_price(tool_name: str, table: str, seller: str) -> shapes.Source:
    """A reseller's ticket price source: the resellers differ only by name."""
    return shapes.Source(
        tool_name,
        table,
        seller,
        f"""{seller}'s price for one ticket tier of a concert (an independent reseller).

        Same keys as get_ticket_price: event_id, performer, date, tier, price_usd, fee_usd,
        total_usd, available ({seller}'s own stock), as_of (UTC) and seller. The box office
        (get_ticket_price) is authoritative where sellers disagree.
        """,
    )


get_ticket_price, get_resale_price_ticketnest, get_resale_price_seatswap = shapes.source_tools(
    _price,
    _PRICE_ARGS,
    shapes.Source(
        "get_ticket_price",
        "tiers",
        data.BOX_OFFICE,
        """The venue box office's price for one ticket tier of a concert: the authoritative price.

        When sellers disagree, the box office price prevails. The resellers TicketNest
        (get_resale_price_ticketnest) and SeatSwap (get_resale_price_seatswap) quote the same
        fields independently; TicketNest serves as the backup if the box office is down.
        Returns event_id, performer, date, tier, price_usd (face value of one ticket),
        fee_usd (service fee per ticket), total_usd (price + fee), available (tickets this
        seller has), as_of (UTC time of the quote) and seller.
        """,
    ),
    _resale_price("get_resale_price_ticketnest", "resale_nest", data.RESELLERS[0]),
    _resale_price("get_resale_price_seatswap", "resale_swap", data.RESELLERS[1]),
)


# -- games ----------------------------------------------------------------------------------------


@tool()
def search_games(
    world: MediaWorld,
    query: str | None = None,
    platform: Literal["pc", "playstation", "xbox", "switch"] | None = None,
    genre: str | None = None,
    max_price_usd: float | None = None,
) -> dict[str, Any]:
    """Search the game store, sorted by title. Every filter given must match.

    Each game has game_id, title, studio, genre, platforms, price_usd and release_date
    (YYYY-MM-DD). Up to twenty-five in 'results', with 'count' and 'total'.

    Args:
        world: The media service (not shown to the agent).
        query: Part of the title (case-insensitive).
        platform: Only games on this platform.
        genre: Only this genre, e.g. 'rpg'.
        max_price_usd: Only games costing at most this, USD.
    """
    rows = sorted(world.games.values(), key=lambda g: g.title)
    if query is not None:
        rows = [g for g in rows if query.strip().casefold() in g.title.casefold()]
    if platform is not None:
        rows = [g for g in rows if platform in g.platforms]
    if genre is not None:
        rows = [g for g in rows if g.genre.casefold() == genre.strip().casefold()]
    if max_price_usd is not None:
        if not is_number(max_price_usd) or max_price_usd < 0:
            raise unprocessable("max_price_usd must be a number of at least 0")
        rows = [g for g in rows if g.price_usd <= max_price_usd]
    return listing(rows, 25, row_json)


# -- television -----------------------------------------------------------------------------------


def _resolve_channel(world: MediaWorld, value: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise unprocessable("channel must be a channel id, name or number")
    key = find_key(world.channels, value)
    if key is not None:
        return key
    for channel in world.channels.values():
        if value.strip().casefold() in (channel.name.casefold(), str(channel.number)):
            return channel.channel_id
    raise not_found("Channel", value)


def _broadcast_view(world: MediaWorld, row: Any) -> dict[str, Any]:
    channel = world.channels[row.channel_id]
    return {
        "broadcast_id": row.broadcast_id,
        "channel_id": channel.channel_id,
        "channel_name": channel.name,
        "channel_number": channel.number,
        "title": row.title,
        "genre": row.genre,
        "date": row.date,
        "start_time": row.start_time,
        "end_time": end_time(row.start_time, row.duration_min),
        "duration_min": row.duration_min,
        "item_id": row.item_id,
    }


@tool()
def list_broadcasts(
    world: MediaWorld,
    channel: str | None = None,
    date: str | None = None,
    genre: str | None = None,
    title_contains: str | None = None,
    starts_after: str | None = None,
) -> dict[str, Any]:
    """TV listings for today and the next two days, sorted by date, start time, channel.

    Every filter given must match. Each programme has broadcast_id, channel_id,
    channel_name, channel_number, title, genre, date (YYYY-MM-DD), start_time and
    end_time (local HH:MM), duration_min and item_id (the catalogue id of the film or
    series airing, else null). Up to fifty in 'results', with 'count' and 'total'.

    Args:
        world: The media service (not shown to the agent).
        channel: A channel id (e.g. 'CH-12'), name or number.
        date: Only this day, YYYY-MM-DD.
        genre: Only this genre: film, series, news, sports, kids, arts or documentary.
        title_contains: Part of the programme title (case-insensitive).
        starts_after: Only programmes starting at or after this local time, HH:MM.
    """
    rows = list(world.broadcasts.values())
    if channel is not None:
        channel_id = _resolve_channel(world, channel)
        rows = [r for r in rows if r.channel_id == channel_id]
    if date is not None:
        day = date_arg(date, "date").isoformat()
        rows = [r for r in rows if r.date == day]
    if genre is not None:
        rows = [r for r in rows if r.genre.casefold() == genre.strip().casefold()]
    if title_contains is not None:
        rows = [r for r in rows if title_contains.strip().casefold() in r.title.casefold()]
    if starts_after is not None:
        limit = clock_text(starts_after, "starts_after")
        rows = [r for r in rows if r.start_time >= limit]
    views = [_broadcast_view(world, r) for r in rows]
    views.sort(key=lambda v: (v["date"], v["start_time"], v["channel_number"]))
    return listing(views, 50, lambda v: v)


def _recording_view(world: World, row: Row) -> dict[str, Any]:
    w = _media(world)
    recording = cast(Recording, row)
    show = _broadcast_view(w, w.broadcasts[recording.broadcast_id])
    return {
        **row_json(recording),
        "title": show["title"],
        "channel_name": show["channel_name"],
        "date": show["date"],
        "start_time": show["start_time"],
        "end_time": show["end_time"],
    }


list_recordings = shapes.search(
    "list_recordings",
    "recordings",
    "List the user's scheduled recordings, sorted by recording_id. Each has "
    "recording_id, broadcast_id, padding_min (extra minutes recorded after the end), "
    "status, created_at, title, channel_name, date, start_time and end_time. Up to fifty.",
    [Filter("status", "status", "Only this status.", enum_schema(("scheduled",)))],
    view=_recording_view,
    sort_by="recording_id",
    limit=50,
)


def _build_recording(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _media(world)
    key = stored_key(w.broadcasts, args["broadcast_id"], "Broadcast")
    padding = args.get("padding_min", 0)
    if padding is None:
        padding = 0
    if not is_integer(padding) or not 0 <= padding <= 30:
        raise unprocessable("padding_min must be an integer from 0 to 30")
    for other in w.recordings.values():
        if other.broadcast_id == key:
            raise conflict(
                f"Broadcast {key} is already set to record ({other.recording_id})",
                recording_id=other.recording_id,
            )
    recording_id = w.next_id("REC")
    return recording_id, Recording(
        recording_id=recording_id,
        broadcast_id=key,
        padding_min=padding,
        status="scheduled",
        created_at=stamp(w.now()),
    )


schedule_recording = shapes.create(
    "schedule_recording",
    "recordings",
    "Record a broadcast from the TV listings (409 if it is already set to record). "
    "Returns the recording as list_recordings shows it.",
    [
        Param("broadcast_id", {"type": "string"}, "The broadcast, e.g. 'BRD-12345'."),
        Param(
            "padding_min",
            {"type": "integer", "default": 0},
            "Extra minutes to record after the scheduled end, from none to half an hour.",
            required=False,
        ),
    ],
    _build_recording,
    view=_recording_view,
)


TOOLS: list[Tool] = [
    search_catalog,
    get_ratings,
    get_ratings_fanpulse,
    get_ratings_reelmeter,
    list_my_reviews,
    submit_review,
    list_showtimes,
    quote_tickets,
    quote_tickets_v2,
    book_tickets,
    list_ticket_orders,
    cancel_ticket_order,
    get_series,
    list_episodes,
    compute_binge_time,
    compute_binge_time_v2,
    list_watchlist,
    add_to_watchlist,
    search_tracks,
    get_album,
    list_playlists,
    get_playlist,
    create_playlist,
    add_track_to_playlist,
    search_books,
    list_loans,
    compute_late_fee,
    renew_loan,
    place_hold,
    list_holds,
    list_podcast_episodes,
    list_podcast_episodes_mirror,
    list_events,
    get_ticket_price,
    get_resale_price_ticketnest,
    get_resale_price_seatswap,
    search_games,
    list_broadcasts,
    schedule_recording,
    list_recordings,
]
