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

from typing import Any

from toolchaos.domains import Domain, tool_map
from toolchaos.domains._notes import resolver, same_params, sources
from toolchaos.domains.media.tools import TOOLS
from toolchaos.domains.media.world import MediaWorld

_RATING_TOOLS = ("get_ratings", "get_ratings_fanpulse", "get_ratings_reelmeter")
_PRICE_TOOLS = ("get_ticket_price", "get_resale_price_ticketnest", "get_resale_price_seatswap")


_MIN_TO_S = {"to_unit": "s", "factor": 60.0}
_SEC_TO_MS = {"to_unit": "ms", "factor": 1000.0}
_USD_TO_CENTS = {"to_unit": "cents", "factor": 100.0}


def _catalogue(param: str) -> dict[str, Any]:
    return resolver(param, "search_catalog", "item_id")


DOMAIN = Domain(
    name="media",
    topic="entertainment and media",
    world_type=MediaWorld,
    tools=tool_map(TOOLS),
    notes={
        "fallbacks": {
            "get_ratings": {"tool": "get_ratings_fanpulse", "args_map": {"item": "item"}},
            "list_podcast_episodes": {
                "tool": "list_podcast_episodes_mirror",
                "args_map": {"podcast": "podcast", "published_after": "published_after"},
            },
            "get_ticket_price": {
                "tool": "get_resale_price_ticketnest",
                "args_map": {"event_id": "event_id", "tier": "tier"},
            },
        },
        "v2": {
            "quote_tickets": {
                "tool": "quote_tickets_v2",
                "args_map": {
                    "showing_id": "showtime_id",
                    "adult_count": "adults",
                    "child_count": "children",
                    "senior_count": "seniors",
                    "promo": "promo_code",
                },
            },
            "compute_binge_time": {
                "tool": "compute_binge_time_v2",
                "args_map": {
                    "show": "series",
                    "season_number": "season",
                    "daily_minutes": "minutes_per_day",
                    "start_on": "start_date",
                },
            },
        },
        "unit_conversions": {
            "runtime_min": dict(_MIN_TO_S),
            "total_runtime_min": dict(_MIN_TO_S),
            "duration_min": dict(_MIN_TO_S),
            "total_duration_min": dict(_MIN_TO_S),
            "duration_sec": dict(_SEC_TO_MS),
            "total_duration_sec": dict(_SEC_TO_MS),
            "total_usd": dict(_USD_TO_CENTS),
            "price_usd": dict(_USD_TO_CENTS),
            "fine_usd": dict(_USD_TO_CENTS),
        },
        "resolvers": {
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
        "write_verifiers": {
            "book_tickets": {
                "tool": "list_ticket_orders",
                "args_map": {"showtime_id": "showtime_id"},
                "list": "results",
                "match": {"showtime_id": "showtime_id", "adults": "adults"},
            },
            "cancel_ticket_order": {
                "tool": "list_ticket_orders",
                "args_map": {"order_id": "order_id"},
                "list": "results",
                "match": {"order_id": "order_id"},
            },
            "add_to_watchlist": {
                "tool": "list_watchlist",
                "args_map": {},
                "list": "results",
                "match": {"item_id": "item"},
            },
            "create_playlist": {
                "tool": "list_playlists",
                "args_map": {"name_contains": "name"},
                "list": "results",
                "match": {"name": "name"},
            },
            "add_track_to_playlist": {
                "tool": "get_playlist",
                "args_map": {"playlist_id": "playlist_id"},
                "list": "results",
                "match": {"track_id": "track_id"},
            },
            "renew_loan": {
                "tool": "list_loans",
                "args_map": {"loan_id": "loan_id"},
                "list": "results",
                "match": {"loan_id": "loan_id"},
            },
            "place_hold": {
                "tool": "list_holds",
                "args_map": {"book": "book"},
                "list": "results",
                "match": {"book_id": "book"},
            },
            "schedule_recording": {
                "tool": "list_recordings",
                "args_map": {},
                "list": "results",
                "match": {"broadcast_id": "broadcast_id"},
            },
            "submit_review": {
                "tool": "list_my_reviews",
                "args_map": {"item": "item"},
                "list": "results",
                "match": {"item_id": "item", "stars": "stars"},
            },
        },
        "sources": {
            **sources(same_params(_RATING_TOOLS, "item"), ["score_pct", "avg_rating"]),
            **sources(same_params(_PRICE_TOOLS, "event_id", "tier"), ["price_usd", "total_usd"]),
        },
    },
)

__all__ = ["DOMAIN", "MediaWorld"]
