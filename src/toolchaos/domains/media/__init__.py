"""The media domain (topic "entertainment and media"): films, streaming, music and more.

It covers books, podcasts, concerts, games, TV listings and review scores too.

It gives every hazard variant a real place to fit:

- ``get_ratings`` (CriticHub) falls back to FanPulse, the podcast feed
  (``list_podcast_episodes``) to the PodIndex directory mirror, and the concert box office
  (``get_ticket_price``) to the TicketNest reseller; each backup serves the same facts
  under the same keys;
- ``quote_tickets`` and ``compute_binge_time`` have a v2 with renamed parameters and the
  same result keys (v1 still works);
- review scores come from three independent aggregators (CriticHub, FanPulse, ReelMeter)
  for every catalogue item, and ticket-tier prices from the box office and two resellers;
  both agree in the clean world and stamp ``as_of``, and the docs name CriticHub and the
  box office authoritative;
- every catalogue parameter (``item``, ``series``, ``show``, ``album``, ``podcast``,
  ``book``, ``film``) takes a title or an id, and ``search_catalog`` returns the id;
- every write that creates or changes a record has a read that lists it (tickets,
  watchlist, playlists and their tracks, loans, holds, recordings, reviews);
- money, runtimes, durations and fines are numeric fields with a unit in their name, and
  finish dates, due dates and air dates are ISO dates the answers read.
"""

from __future__ import annotations

from toolchaos.domains import (
    Domain,
    DomainNotes,
    Fallback,
    Resolver,
    UnitConversion,
    V2Tool,
    WriteVerifier,
    tool_map,
)
from toolchaos.domains._notes import FRACTION, resolver, same_params, sources
from toolchaos.domains.media.tools import TOOLS
from toolchaos.domains.media.world import MediaWorld

_RATING_TOOLS = ("get_ratings", "get_ratings_fanpulse", "get_ratings_reelmeter")
_PRICE_TOOLS = ("get_ticket_price", "get_resale_price_ticketnest", "get_resale_price_seatswap")


_MIN_TO_S = UnitConversion(to_unit="s", factor=60.0)
_SEC_TO_MS = UnitConversion(to_unit="ms", factor=1000.0)
_USD_TO_CENTS = UnitConversion(to_unit="cents", factor=100.0)


def _catalogue(param: str) -> Resolver:
    return resolver(param, "search_catalog", "item_id")


DOMAIN = Domain(
    name="media",
    topic="entertainment and media",
    world_type=MediaWorld,
    tools=tool_map(TOOLS),
    notes=DomainNotes(
        fallbacks={
            "get_ratings": Fallback(tool="get_ratings_fanpulse", args_map={"item": "item"}),
            "list_podcast_episodes": Fallback(
                tool="list_podcast_episodes_mirror",
                args_map={"podcast": "podcast", "published_after": "published_after"},
            ),
            "get_ticket_price": Fallback(
                tool="get_resale_price_ticketnest",
                args_map={"event_id": "event_id", "tier": "tier"},
            ),
        },
        v2={
            "quote_tickets": V2Tool(
                tool="quote_tickets_v2",
                args_map={
                    "showing_id": "showtime_id",
                    "adult_count": "adults",
                    "child_count": "children",
                    "senior_count": "seniors",
                    "promo": "promo_code",
                },
            ),
            "compute_binge_time": V2Tool(
                tool="compute_binge_time_v2",
                args_map={
                    "show": "series",
                    "season_number": "season",
                    "daily_minutes": "minutes_per_day",
                    "start_on": "start_date",
                },
            ),
        },
        unit_conversions={
            "runtime_min": _MIN_TO_S,
            "total_runtime_min": _MIN_TO_S,
            "duration_min": _MIN_TO_S,
            "total_duration_min": _MIN_TO_S,
            "duration_sec": _SEC_TO_MS,
            "total_duration_sec": _SEC_TO_MS,
            "total_usd": _USD_TO_CENTS,
            "price_usd": _USD_TO_CENTS,
            "fine_usd": _USD_TO_CENTS,
            **dict.fromkeys(("score_pct",), FRACTION),
        },
        resolvers={
            **{tool: _catalogue("item") for tool in _RATING_TOOLS},
            "submit_review": _catalogue("item"),
            "add_to_watchlist": _catalogue("item"),
            "get_series": _catalogue("series"),
            "list_episodes": _catalogue("series"),
            "compute_binge_time": _catalogue("series"),
            "compute_binge_time_v2": _catalogue("show"),
            "get_album": _catalogue("album"),
            "list_podcast_episodes": _catalogue("podcast"),
            "list_podcast_episodes_mirror": _catalogue("podcast"),
            "list_showtimes": _catalogue("film"),
            "place_hold": _catalogue("book"),
        },
        write_verifiers={
            "book_tickets": WriteVerifier(
                tool="list_ticket_orders",
                args_map={"showtime_id": "showtime_id"},
                match={"showtime_id": "showtime_id", "adults": "adults"},
            ),
            "cancel_ticket_order": WriteVerifier(
                tool="list_ticket_orders",
                args_map={"order_id": "order_id"},
                match={"order_id": "order_id"},
            ),
            "add_to_watchlist": WriteVerifier(
                tool="list_watchlist", args_map={}, match={"item_id": "item"}
            ),
            "create_playlist": WriteVerifier(
                tool="list_playlists", args_map={"name_contains": "name"}, match={"name": "name"}
            ),
            "add_track_to_playlist": WriteVerifier(
                tool="get_playlist",
                args_map={"playlist_id": "playlist_id"},
                match={"track_id": "track_id"},
            ),
            "renew_loan": WriteVerifier(
                tool="list_loans", args_map={"loan_id": "loan_id"}, match={"loan_id": "loan_id"}
            ),
            "place_hold": WriteVerifier(
                tool="list_holds", args_map={"book": "book"}, match={"book_id": "book"}
            ),
            "schedule_recording": WriteVerifier(
                tool="list_recordings", args_map={}, match={"broadcast_id": "broadcast_id"}
            ),
            "submit_review": WriteVerifier(
                tool="list_my_reviews",
                args_map={"item": "item"},
                match={"item_id": "item", "stars": "stars"},
            ),
        },
        sources={
            **sources(same_params(_RATING_TOOLS, "item"), ["score_pct", "avg_rating"]),
            **sources(same_params(_PRICE_TOOLS, "event_id", "tier"), ["price_usd", "total_usd"]),
        },
    ),
)

__all__ = ["DOMAIN", "MediaWorld"]
