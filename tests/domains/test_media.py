"""Tests of the media domain: the seeded world, the custom logic, writes and the notes."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from conftest import DomainTools, all_keys, forks_of, numeric_keys
from toolchaos.core.reference import follow
from toolchaos.core.types import ToolKind
from toolchaos.domains.media import DOMAIN
from toolchaos.domains.media.world import CATALOGUE_TABLES, MediaWorld, end_time

SEED = 7
SEEDS = [0, 1, 7, 42, 2026]
RATING_TOOLS = ("get_ratings", "get_ratings_fanpulse", "get_ratings_reelmeter")
PRICE_TOOLS = ("get_ticket_price", "get_resale_price_ticketnest", "get_resale_price_seatswap")
UNIT_SUFFIXES = ("_usd", "_min", "_sec", "_pct")
domain_tools = DomainTools(DOMAIN)
call, refused = domain_tools.call, domain_tools.refused


def day(world: MediaWorld, offset: int) -> str:
    return (world.today() + timedelta(days=offset)).isoformat()


def a_show(world: MediaWorld, **want: Any) -> Any:
    return next(
        s
        for s in sorted(world.showtimes.values(), key=lambda s: s.showtime_id)
        if all(getattr(s, k) == v for k, v in want.items()) and s.seats_available >= 6
    )


def loan_in(world: MediaWorld, status: str) -> Any:
    for loan in sorted(world.loans.values(), key=lambda r: r.loan_id):
        view = call(world, "list_loans", loan_id=loan.loan_id)["results"][0]
        if view["status"] == status:
            return loan
    raise AssertionError(status)


def read_calls(world: MediaWorld) -> list[tuple[str, dict[str, Any]]]:
    """One valid call of every READ tool, on records drawn from the world."""
    film = next(iter(world.films.values()))
    series = next(iter(world.series.values()))
    event = next(iter(world.events))
    return [
        ("search_catalog", {"query": "the"}),
        *[(t, {"item": film.title}) for t in RATING_TOOLS],
        ("list_my_reviews", {}),
        ("list_showtimes", {"date": day(world, 1)}),
        ("quote_tickets", {"showtime_id": a_show(world).showtime_id, "adults": 2}),
        ("quote_tickets_v2", {"showing_id": a_show(world).showtime_id, "adult_count": 2}),
        ("list_ticket_orders", {}),
        ("get_series", {"series": series.title}),
        ("list_episodes", {"series": series.series_id}),
        ("compute_binge_time", {"series": series.series_id}),
        ("compute_binge_time_v2", {"show": series.series_id}),
        ("list_watchlist", {}),
        ("search_tracks", {"query": "a"}),
        ("get_album", {"album": next(iter(world.albums))}),
        ("list_playlists", {}),
        ("get_playlist", {"playlist_id": "PL-00001"}),
        ("search_books", {"author": "a"}),
        ("list_loans", {}),
        ("compute_late_fee", {"loan_id": next(iter(world.loans))}),
        ("list_holds", {}),
        ("list_podcast_episodes", {"podcast": next(iter(world.podcasts))}),
        ("list_podcast_episodes_mirror", {"podcast": next(iter(world.podcasts))}),
        ("list_events", {}),
        *[(t, {"event_id": event, "tier": "floor"}) for t in PRICE_TOOLS],
        ("search_games", {}),
        ("list_broadcasts", {"date": day(world, 0), "channel": "KBRT News"}),
        ("list_recordings", {}),
    ]


# -- the domain as declared ----------------------------------------------------------------


def test_read_calls_cover_every_read_tool(base: MediaWorld) -> None:
    reads = {name for name, t in DOMAIN.tools.items() if t.kind is ToolKind.READ}
    assert {name for name, _ in read_calls(base)} == reads


def test_read_tools_do_not_change_the_world(world: MediaWorld) -> None:
    domain_tools.check_reads_change_nothing(world, read_calls(world))


def test_results_are_json_with_units_in_float_names(base: MediaWorld) -> None:
    for name, result in domain_tools.read_results(base, read_calls(base)):
        for key in numeric_keys(result, floats_only=True):
            assert key.endswith(UNIT_SUFFIXES) or key == "avg_rating", (name, key)


# -- the seeded world ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_world_tables_are_consistent(seed: int) -> None:
    w = MediaWorld.build(seed)
    titles = [row.title.casefold() for _, t, _ in CATALOGUE_TABLES for row in w.table(t).values()]
    assert len(set(titles)) == len(titles)
    assert len(w.films) >= 25 and len(w.showtimes) >= 200 and len(w.tracks) >= 200
    for show in w.showtimes.values():
        assert 0 <= show.seats_available <= show.seats_total
        assert day(w, 0) <= show.date <= day(w, 6)
    for key, episode in w.episodes.items():
        assert (
            key.startswith(episode.series_id)
            and episode.season <= w.series[episode.series_id].seasons
        )
    for _, table, _ in CATALOGUE_TABLES:
        for item_id in w.table(table):
            rows = [
                w.table(t)[item_id]
                for t in ("ratings_critichub", "ratings_fanpulse", "ratings_reelmeter")
            ]
            assert len({(r.score_pct, r.avg_rating) for r in rows}) == 1
            assert len({r.as_of for r in rows}) >= 1
    assert w.podcast_episodes == w.podcast_mirror
    for key, tier in w.tiers.items():
        for other in (w.resale_nest[key], w.resale_swap[key]):
            assert (other.price_usd, other.fee_usd) == (tier.price_usd, tier.fee_usd)
    statuses = {call(w, "list_loans", loan_id=k)["results"][0]["status"] for k in w.loans}
    assert statuses == {"out", "overdue", "returned"}


def test_build_is_fast_enough_to_rebuild() -> None:
    assert MediaWorld.build(3).state_hash() == MediaWorld.build(3).state_hash()


# -- catalogue and ratings -----------------------------------------------------------------


def test_search_catalog_puts_the_exact_title_first(base: MediaWorld) -> None:
    for _, table, _ in CATALOGUE_TABLES:
        for row in list(base.table(table).values())[:5]:
            found = call(base, "search_catalog", query=row.title.upper())
            assert found["results"][0]["title"] == row.title
    games = call(base, "search_catalog", query="a", kind="game")
    assert {r["kind"] for r in games["results"]} == {"game"}
    refused(base, "search_catalog", 422, query="  ")


@pytest.mark.parametrize("tool", RATING_TOOLS)
def test_rating_sources_agree_and_take_titles_or_ids(base: MediaWorld, tool: str) -> None:
    book = next(iter(base.books.values()))
    by_title = call(base, tool, item=book.title.lower())
    by_id = call(base, tool, item=book.book_id)
    assert by_title == by_id and by_id["kind"] == "book"
    primary = call(base, "get_ratings", item=book.book_id)
    assert (by_id["score_pct"], by_id["avg_rating"]) == (
        primary["score_pct"],
        primary["avg_rating"],
    )
    refused(base, tool, 404, item="No Such Title")
    refused(base, tool, 422, item=" ")
    assert "authoritative" in DOMAIN.tools["get_ratings"].spec.description


def test_submit_review_and_its_refusals(world: MediaWorld) -> None:
    reviewed = {r.item_id for r in world.reviews.values()}
    film = next(f for f in world.films.values() if f.film_id not in reviewed)
    got = call(world, "submit_review", item=film.title, stars=4, text="Great.")
    assert (got["item_id"], got["kind"], got["stars"]) == (film.film_id, "film", 4)
    assert got["review_id"] == f"REV-{len(world.reviews):05d}"
    refused(world, "submit_review", 409, item=film.film_id, stars=2)
    refused(world, "submit_review", 422, item=next(iter(world.games)), stars=6)
    refused(world, "submit_review", 404, item="Nothing Here", stars=3)


# -- cinema --------------------------------------------------------------------------------


def test_showtimes_end_after_trailers_and_runtime(base: MediaWorld) -> None:
    listed = call(base, "list_showtimes", date=day(base, 2))["results"]
    assert listed and all(r["date"] == day(base, 2) for r in listed)
    for row in listed:
        film = base.films[row["film_id"]]
        assert row["end_time"] == end_time(row["start_time"], 20 + film.runtime_min)
    early = call(base, "list_showtimes", date=day(base, 2), ends_before="18:00")["results"]
    assert early and all(r["end_time"] <= "18:00" for r in early)
    refused(base, "list_showtimes", 422, ends_before="6pm")
    refused(base, "list_showtimes", 404, film="Unknown Film")


def test_quote_prices_children_seniors_fees_and_promos(base: MediaWorld) -> None:
    show = a_show(base)
    fee = base.cinemas[show.cinema_id].booking_fee_usd
    adult = show.price_usd
    child, senior = round(adult * 0.75 + 1e-9, 2), round(adult * 0.70 + 1e-9, 2)
    got = call(base, "quote_tickets", showtime_id=show.showtime_id, adults=2, children=1, seniors=1)
    assert got["subtotal_usd"] == pytest.approx(2 * adult + child + senior)
    assert got["fees_usd"] == pytest.approx(4 * fee)
    assert got["total_usd"] == pytest.approx(got["subtotal_usd"] + got["fees_usd"])
    ten = call(
        base, "quote_tickets", showtime_id=show.showtime_id, adults=2, promo_code="moviefan10"
    )
    assert ten["discount_usd"] == pytest.approx(round(ten["subtotal_usd"] * 0.1, 2))
    family = call(
        base,
        "quote_tickets",
        showtime_id=show.showtime_id,
        adults=2,
        children=2,
        promo_code="FAMILY4",
    )
    assert family["discount_usd"] == 6.0
    refused(
        base, "quote_tickets", 422, showtime_id=show.showtime_id, adults=2, promo_code="FAMILY4"
    )
    refused(base, "quote_tickets", 422, showtime_id=show.showtime_id, adults=0)
    refused(base, "quote_tickets", 422, showtime_id=show.showtime_id, adults=11)
    refused(base, "quote_tickets", 422, showtime_id=show.showtime_id, promo_code="FREE")
    late = a_show(base, start_time="21:40")
    refused(base, "quote_tickets", 422, showtime_id=late.showtime_id, promo_code="MATINEE3")
    v2 = call(
        base,
        "quote_tickets_v2",
        showing_id=show.showtime_id,
        adult_count=2,
        child_count=1,
        senior_count=1,
    )
    assert v2 == got


def test_book_and_cancel_tickets(world: MediaWorld) -> None:
    show = a_show(world)
    before = world.state_hash()
    order = call(world, "book_tickets", showtime_id=show.showtime_id, adults=2, children=1)
    quote = call(world, "quote_tickets", showtime_id=show.showtime_id, adults=2, children=1)
    assert order["total_usd"] == quote["total_usd"] and order["status"] == "confirmed"
    assert world.showtimes[show.showtime_id].seats_available == show.seats_available - 3
    assert world.state_hash() != before
    cancelled = call(world, "cancel_ticket_order", order_id=order["order_id"].lower())
    assert cancelled["status"] == "cancelled"
    assert cancelled["refund_usd"] == pytest.approx(order["subtotal_usd"] - order["discount_usd"])
    assert world.showtimes[show.showtime_id].seats_available == show.seats_available
    refused(world, "cancel_ticket_order", 409, order_id=order["order_id"])
    refused(world, "cancel_ticket_order", 404, order_id="TKT-99999")
    full = next(s for s in world.showtimes.values() if s.seats_available < 10)
    refused(world, "book_tickets", 409, showtime_id=full.showtime_id, adults=10)


# -- streaming -----------------------------------------------------------------------------


def test_binge_time_packs_whole_episodes_per_day(base: MediaWorld) -> None:
    series = max(base.series.values(), key=lambda s: s.seasons)
    episodes = sorted(
        (e for e in base.episodes.values() if e.series_id == series.series_id and e.season == 1),
        key=lambda e: e.number,
    )
    got = call(base, "compute_binge_time", series=series.title, season=1, minutes_per_day=100)
    days, used = 1, 0
    for e in episodes:
        if used and used + e.runtime_min > 100:
            days, used = days + 1, 0
        used += e.runtime_min
    assert got["episodes"] == len(episodes) and got["days_needed"] == days
    assert got["total_runtime_min"] == sum(e.runtime_min for e in episodes)
    assert got["finish_date"] == (base.today() + timedelta(days=days - 1)).isoformat()
    later = call(
        base,
        "compute_binge_time",
        series=series.series_id,
        season=1,
        minutes_per_day=100,
        start_date=day(base, 3),
    )
    assert date.fromisoformat(later["finish_date"]) - date.fromisoformat(
        got["finish_date"]
    ) == timedelta(days=3)
    v2 = call(base, "compute_binge_time_v2", show=series.title, season_number=1, daily_minutes=100)
    assert v2 == got
    whole = call(base, "get_series", series=series.series_id)
    assert (
        whole["total_runtime_min"]
        == call(base, "compute_binge_time", series=series.title)["total_runtime_min"]
    )
    refused(base, "compute_binge_time", 422, series=series.title, season=series.seasons + 1)
    refused(base, "compute_binge_time", 422, series=series.title, minutes_per_day=5)
    refused(base, "compute_binge_time", 422, series=series.title, start_date="tomorrow")


def test_watchlist_add_and_refuse(world: MediaWorld) -> None:
    listed = {w.item_id for w in world.watchlist.values()}
    series = next(s for s in world.series.values() if s.series_id not in listed)
    got = call(world, "add_to_watchlist", item=series.title, priority="high")
    assert (got["item_id"], got["kind"], got["priority"]) == (series.series_id, "series", "high")
    refused(world, "add_to_watchlist", 409, item=series.series_id)
    refused(world, "add_to_watchlist", 404, item=next(iter(world.albums)))


# -- music ---------------------------------------------------------------------------------


def test_album_and_playlist_durations(world: MediaWorld) -> None:
    album = next(iter(world.albums.values()))
    got = call(world, "get_album", album=album.title)
    assert got["total_duration_sec"] == sum(r["duration_sec"] for r in got["results"])
    created = call(world, "create_playlist", name="Test Mix")
    assert created["total_duration_sec"] == 0 and created["results"] == []
    first = got["results"][0]["track_id"]
    added = call(world, "add_track_to_playlist", playlist_id=created["playlist_id"], track_id=first)
    assert added["total_duration_sec"] == got["results"][0]["duration_sec"]
    refused(world, "add_track_to_playlist", 409, playlist_id=created["playlist_id"], track_id=first)
    refused(world, "create_playlist", 409, name="test mix")
    refused(world, "create_playlist", 422, name=" ")
    listed = call(world, "list_playlists", name_contains="test")["results"]
    assert [p["playlist_id"] for p in listed] == [created["playlist_id"]]


# -- the library ---------------------------------------------------------------------------


def test_late_fee_per_day_with_cap(base: MediaWorld) -> None:
    loan = loan_in(base, "out")
    due = date.fromisoformat(loan.due_date)
    on_time = call(base, "compute_late_fee", loan_id=loan.loan_id, return_date=loan.due_date)
    assert (on_time["days_late"], on_time["fine_usd"]) == (0, 0.0)
    five = call(
        base,
        "compute_late_fee",
        loan_id=loan.loan_id,
        return_date=(due + timedelta(days=5)).isoformat(),
    )
    assert (five["days_late"], five["fine_usd"]) == (5, 1.25)
    cap = call(
        base,
        "compute_late_fee",
        loan_id=loan.loan_id,
        return_date=(due + timedelta(days=90)).isoformat(),
    )
    assert cap["fine_usd"] == 8.0 and cap["capped"] is True
    overdue = loan_in(base, "overdue")
    now = call(base, "compute_late_fee", loan_id=overdue.loan_id)
    assert now["return_date"] == day(base, 0) and now["days_late"] > 0
    refused(base, "compute_late_fee", 422, loan_id=loan.loan_id, return_date="2000-01-01")
    refused(base, "compute_late_fee", 404, loan_id="LN-000000")


def test_renew_loan_rules(world: MediaWorld) -> None:
    held = {h.book_id for h in world.holds.values()}
    loan = next(
        r
        for r in world.loans.values()
        if r.returned_on is None
        and r.due_date >= day(world, 0)
        and r.renewals < 2
        and r.book_id not in held
    )
    got = call(world, "renew_loan", loan_id=loan.loan_id)
    assert got["due_date"] == (date.fromisoformat(loan.due_date) + timedelta(days=14)).isoformat()
    assert got["renewals"] == loan.renewals + 1
    refused(world, "renew_loan", 409, loan_id=loan_in(world, "overdue").loan_id)
    refused(world, "renew_loan", 409, loan_id=loan_in(world, "returned").loan_id)


def test_place_hold(world: MediaWorld) -> None:
    busy = {h.book_id for h in world.holds.values()} | {r.book_id for r in world.loans.values()}
    book = next(b for b in world.books.values() if b.book_id not in busy)
    got = call(world, "place_hold", book=book.title, pickup_branch="Central")
    assert got["book_id"] == book.book_id
    assert got["status"] == ("ready" if book.copies_available else "waiting")
    refused(world, "place_hold", 409, book=book.book_id, pickup_branch="Eastside")
    refused(world, "place_hold", 422, book=book.book_id, pickup_branch="Mars")


# -- podcasts, events, games, TV -------------------------------------------------------------


def test_podcast_feed_and_mirror_agree(base: MediaWorld) -> None:
    podcast = next(iter(base.podcasts.values()))
    since = day(base, -30)
    feed = call(base, "list_podcast_episodes", podcast=podcast.title, published_after=since)
    mirror = call(
        base, "list_podcast_episodes_mirror", podcast=podcast.podcast_id, published_after=since
    )
    assert feed["results"] == mirror["results"] and feed["source"] != mirror["source"]
    assert feed["total_duration_min"] == sum(r["duration_min"] for r in feed["results"])
    numbers = [r["number"] for r in feed["results"]]
    assert numbers == sorted(numbers, reverse=True)
    assert all(r["published_on"] > since for r in feed["results"])


@pytest.mark.parametrize("tool", PRICE_TOOLS)
def test_ticket_prices_agree_across_sellers(base: MediaWorld, tool: str) -> None:
    event = next(iter(base.events))
    got = call(base, tool, event_id=event, tier="vip")
    box = call(base, "get_ticket_price", event_id=event, tier="vip")
    assert (got["price_usd"], got["total_usd"]) == (box["price_usd"], box["total_usd"])
    assert got["total_usd"] == pytest.approx(got["price_usd"] + got["fee_usd"])
    refused(base, tool, 404, event_id="EVT-0000", tier="vip")


def test_games_and_broadcasts(base: MediaWorld) -> None:
    cheap = call(base, "search_games", platform="switch", max_price_usd=20)["results"]
    assert all("switch" in g["platforms"] and g["price_usd"] <= 20 for g in cheap)
    refused(base, "search_games", 422, max_price_usd=-1)
    listed = call(base, "list_broadcasts", channel="12", date=day(base, 1))["results"]
    assert listed and all(
        r["channel_name"] == "Cinemax Classic" and r["item_id"] in base.films for r in listed
    )
    refused(base, "list_broadcasts", 404, channel="Nope TV")


def test_schedule_recording(world: MediaWorld) -> None:
    taken = {r.broadcast_id for r in world.recordings.values()}
    show = next(b for b in world.broadcasts.values() if b.broadcast_id not in taken)
    got = call(world, "schedule_recording", broadcast_id=show.broadcast_id, padding_min=5)
    assert (got["broadcast_id"], got["padding_min"]) == (show.broadcast_id, 5)
    refused(world, "schedule_recording", 409, broadcast_id=show.broadcast_id)
    refused(
        world, "schedule_recording", 422, broadcast_id=next(iter(world.broadcasts)), padding_min=45
    )


def test_fork_writes_never_leak_into_the_base(base: MediaWorld) -> None:
    with forks_of(base) as (first, _second):
        call(first, "create_playlist", name="Fork test")
        call(first, "book_tickets", showtime_id=a_show(first).showtime_id, adults=1)


# -- the notes the hazard layer reads ----------------------------------------------------------


def test_fallback_and_v2_return_the_same_keys(base: MediaWorld) -> None:
    show = a_show(base)
    series = next(iter(base.series.values()))
    args = {
        "get_ratings": {"item": series.title},
        "list_podcast_episodes": {
            "podcast": next(iter(base.podcasts)),
            "published_after": day(base, -20),
        },
        "get_ticket_price": {"event_id": next(iter(base.events)), "tier": "balcony"},
        "quote_tickets": {"showtime_id": show.showtime_id, "adults": 2, "seniors": 1},
        "compute_binge_time": {"series": series.series_id, "minutes_per_day": 90},
    }
    for key in ("fallbacks", "v2"):
        for tool, alt in getattr(DOMAIN.notes, key).items():
            primary = call(base, tool, **args[tool])
            mapped = {
                new: args[tool][old] for new, old in alt.args_map.items() if old in args[tool]
            }
            second = call(base, alt.tool, **mapped)
            facts = set(primary) - {"source", "seller", "as_of", "available", "review_count"}
            assert facts <= set(second), (tool, alt.tool)
            for fact in facts:
                assert second[fact] == primary[fact], (tool, fact)


def test_unit_conversions_cover_fields_the_tools_return(base: MediaWorld) -> None:
    seen: set[str] = set()
    for name, args in read_calls(base):
        seen |= set(numeric_keys(call(base, name, **args)))
    for field, conversion in DOMAIN.notes.unit_conversions.items():
        assert field in seen, f"no tool returns {field}"
        assert conversion.factor > 0 and conversion.to_unit


@pytest.mark.parametrize("tool", sorted(DOMAIN.notes.resolvers))
def test_resolvers_turn_a_title_into_its_id(base: MediaWorld, tool: str) -> None:
    how = DOMAIN.notes.resolvers[tool]
    kinds = {
        "item": None,
        "series": "series",
        "show": "series",
        "album": "album",
        "podcast": "podcast",
        "film": "film",
        "book": "book",
    }
    kind = kinds[how.param] or "film"
    table = next(t for k, t, _ in CATALOGUE_TABLES if k == kind)
    row = next(iter(base.table(table).values()))
    found = call(base, how.tool, **{how.query_param: row.title})
    item_id = follow({0: found}, [0, *how.id_path])
    assert base.catalogue_item(item_id) == (kind, row.title)


def test_write_verifiers_find_the_record_a_write_made(world: MediaWorld) -> None:
    busy = {h.book_id for h in world.holds.values()} | {r.book_id for r in world.loans.values()}
    reviewed = {r.item_id for r in world.reviews.values()}
    listed = {w.item_id for w in world.watchlist.values()}
    recorded = {r.broadcast_id for r in world.recordings.values()}
    held = {h.book_id for h in world.holds.values()}
    renewable = next(
        r
        for r in world.loans.values()
        if r.returned_on is None
        and r.due_date >= day(world, 0)
        and r.renewals < 2
        and r.book_id not in held
    )
    playlist = next(iter(world.playlists.values()))
    track = next(t for t in world.tracks if t not in playlist.track_ids)
    writes: dict[str, dict[str, Any]] = {
        "book_tickets": {"showtime_id": a_show(world).showtime_id, "adults": 2},
        "cancel_ticket_order": {"order_id": "TKT-00001"},
        "add_to_watchlist": {"item": next(s for s in world.series if s not in listed)},
        "create_playlist": {"name": "Verify me"},
        "add_track_to_playlist": {"playlist_id": playlist.playlist_id, "track_id": track},
        "renew_loan": {"loan_id": renewable.loan_id},
        "place_hold": {
            "book": next(b for b in world.books if b not in busy),
            "pickup_branch": "Central",
        },
        "schedule_recording": {
            "broadcast_id": next(b for b in world.broadcasts if b not in recorded)
        },
        "submit_review": {"item": next(f for f in world.films if f not in reviewed), "stars": 3},
    }
    assert set(writes) == set(DOMAIN.notes.write_verifiers)
    for tool, args in writes.items():
        call(world, tool, **args)
        assert len(domain_tools.verified_records(world, tool, args)) == 1, tool


@pytest.mark.parametrize("tool", RATING_TOOLS + PRICE_TOOLS)
def test_sources_fields_appear_in_every_source(base: MediaWorld, tool: str) -> None:
    how = DOMAIN.notes.sources[tool]
    assert how.authoritative in ("get_ratings", "get_ticket_price")
    args = (
        {"item": next(iter(base.games.values())).title}
        if tool in RATING_TOOLS
        else {"event_id": next(iter(base.events)), "tier": "general"}
    )
    primary = call(base, tool, **args)
    for alt in how.alternatives:
        other = call(base, alt, **{new: args[old] for new, old in how.args_map[alt].items()})
        for field in how.fields:
            assert other[field] == primary[field]
        assert how.time_field in other


def test_every_field_named_in_notes_is_returned(base: MediaWorld) -> None:
    keys: set[str] = set()
    for name, args in read_calls(base):
        keys |= all_keys(call(base, name, **args))
    for how in DOMAIN.notes.sources.values():
        assert set(how.fields) | {how.time_field} <= keys
    for how in DOMAIN.notes.write_verifiers.values():
        assert set(how.match) <= keys
