"""The media world: cinemas, streaming, music, a library, podcasts, live events, games, TV.

Tables (each keyed by the row's id unless noted):

- ``films``, ``cinemas``, ``showtimes``: a week of screenings from today, each with its
  format, price and seats left; ``ticket_orders`` holds the user's bookings;
- ``services``, ``series``, ``episodes``: streaming series with seasons and per-episode
  runtimes; ``watchlist`` is the user's list;
- ``artists``, ``albums``, ``tracks``, ``playlists``: music with durations in seconds;
- ``books``, ``loans``, ``holds``: a public library and the user's loans and holds;
- ``podcasts`` and ``podcast_episodes`` (the host's feed) and ``podcast_mirror`` (an
  independent directory's copy of the same feed);
- ``venues``, ``events``, ``tiers`` (the box office's price per ticket tier, keyed
  ``"{event_id}:{tier}"``) and ``resale_nest`` / ``resale_swap`` (two resellers' quotes for
  the same tiers; in the clean world they list at face value);
- ``games``: video games with platforms and store price;
- ``channels``, ``broadcasts`` (three days of TV listings), ``recordings``;
- ``ratings_critichub``, ``ratings_fanpulse``, ``ratings_reelmeter``: three review
  aggregators' scores for every catalogue item (films, series, albums, books, podcasts,
  games), keyed by item id. They agree on ``score_pct`` and ``avg_rating`` in the clean
  world and each stamps its own ``as_of``; ``reviews`` holds the user's own reviews.

Dates are ISO ``YYYY-MM-DD``, clock times local ``HH:MM`` and timestamps UTC ISO strings
ending in ``Z``, all relative to :attr:`World.EPOCH`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, ClassVar, Self

from pydantic import Field

from toolchaos.core.world import Row, World
from toolchaos.domains._common import money, stamp
from toolchaos.domains.media import data

SHOWTIME_DAYS = 7
TV_DAYS = 3
EVENT_HORIZON_DAYS = 60
WATCH_PRIORITIES = ("high", "normal", "low")
CATALOGUE_KINDS = ("film", "series", "album", "book", "podcast", "game")


# -- rows --------------------------------------------------------------------------------------


class Film(Row):
    """A feature film in cinemas."""

    film_id: str
    title: str
    year: int
    genre: str
    certificate: str
    runtime_min: int
    director: str


class Cinema(Row):
    """A cinema, its standard adult price and its per-ticket booking fee."""

    cinema_id: str
    name: str
    city: str
    base_price_usd: float
    booking_fee_usd: float


class Showtime(Row):
    """One screening: film, cinema, local date and start time, format, price and seats."""

    showtime_id: str
    film_id: str
    cinema_id: str
    date: str
    start_time: str
    format: str
    price_usd: float
    seats_total: int
    seats_available: int


class TicketOrder(Row):
    """A booking of tickets for one screening."""

    order_id: str
    showtime_id: str
    adults: int
    children: int
    seniors: int
    promo_code: str | None
    subtotal_usd: float
    discount_usd: float
    fees_usd: float
    total_usd: float
    status: str
    created_at: str


class StreamingService(Row):
    """A streaming service and its monthly price."""

    service_id: str
    name: str
    monthly_price_usd: float


class Series(Row):
    """A streaming series."""

    series_id: str
    title: str
    genre: str
    year: int
    service_id: str
    seasons: int


class Episode(Row):
    """One episode of a series; the key is ``"{series_id}:S{season}E{number}"``."""

    episode_id: str
    series_id: str
    season: int
    number: int
    title: str
    runtime_min: int
    air_date: str


class WatchlistEntry(Row):
    """An item on the user's watchlist."""

    entry_id: str
    item_id: str
    title: str
    kind: str
    priority: str
    added_at: str


class Artist(Row):
    """A recording artist."""

    artist_id: str
    name: str
    genre: str


class Album(Row):
    """An album by one artist."""

    album_id: str
    title: str
    artist_id: str
    year: int
    genre: str


class Track(Row):
    """A track of an album; durations are in seconds."""

    track_id: str
    album_id: str
    artist_id: str
    title: str
    track_number: int
    duration_sec: int


class Playlist(Row):
    """A user playlist: an ordered tuple of track ids."""

    playlist_id: str
    name: str
    track_ids: tuple[str, ...]
    created_at: str


class Book(Row):
    """A title in the library's catalogue and how many copies are on the shelf."""

    book_id: str
    title: str
    author: str
    genre: str
    year: int
    pages: int
    copies_total: int
    copies_available: int


class Loan(Row):
    """A book the user borrowed; ``returned_on`` is null while it is out."""

    loan_id: str
    book_id: str
    borrowed_on: str
    due_date: str
    returned_on: str | None
    renewals: int


class Hold(Row):
    """A hold the user placed on a book, picked up at a branch."""

    hold_id: str
    book_id: str
    pickup_branch: str
    queue_position: int
    placed_at: str
    status: str


class Podcast(Row):
    """A podcast show."""

    podcast_id: str
    title: str
    host: str
    category: str


class PodcastEpisode(Row):
    """One published episode of a podcast (from its feed)."""

    episode_id: str
    podcast_id: str
    number: int
    title: str
    duration_min: int
    published_on: str


class Venue(Row):
    """A concert venue."""

    venue_id: str
    name: str
    city: str
    capacity: int


class Event(Row):
    """A live show at a venue on a date."""

    event_id: str
    performer: str
    artist_id: str
    venue_id: str
    date: str
    start_time: str


class TierPrice(Row):
    """One seller's price for one ticket tier of an event; key ``"{event_id}:{tier}"``."""

    event_id: str
    tier: str
    price_usd: float
    fee_usd: float
    available: int
    as_of: str


class Game(Row):
    """A video game in the store."""

    game_id: str
    title: str
    studio: str
    genre: str
    platforms: tuple[str, ...]
    price_usd: float
    release_date: str


class Channel(Row):
    """A TV channel."""

    channel_id: str
    name: str
    number: int


class Broadcast(Row):
    """One programme in the TV listings; ``item_id`` links a film or series airing."""

    broadcast_id: str
    channel_id: str
    title: str
    genre: str
    date: str
    start_time: str
    duration_min: int
    item_id: str | None


class Recording(Row):
    """A scheduled recording of a broadcast."""

    recording_id: str
    broadcast_id: str
    padding_min: int
    status: str
    created_at: str


class Rating(Row):
    """One aggregator's score for a catalogue item."""

    item_id: str
    score_pct: int
    avg_rating: float
    review_count: int
    as_of: str


class Review(Row):
    """A review the user wrote."""

    review_id: str
    item_id: str
    stars: int
    text: str
    created_at: str


# -- the world --------------------------------------------------------------------------------


class MediaWorld(World):
    """Films, streaming, music, books, podcasts, live events, games, TV and ratings."""

    TABLES: ClassVar[tuple[str, ...]] = (
        "films",
        "cinemas",
        "showtimes",
        "ticket_orders",
        "services",
        "series",
        "episodes",
        "watchlist",
        "artists",
        "albums",
        "tracks",
        "playlists",
        "books",
        "loans",
        "holds",
        "podcasts",
        "podcast_episodes",
        "podcast_mirror",
        "venues",
        "events",
        "tiers",
        "resale_nest",
        "resale_swap",
        "games",
        "channels",
        "broadcasts",
        "recordings",
        "ratings_critichub",
        "ratings_fanpulse",
        "ratings_reelmeter",
        "reviews",
    )

    films: dict[str, Film] = Field(default_factory=dict)
    cinemas: dict[str, Cinema] = Field(default_factory=dict)
    showtimes: dict[str, Showtime] = Field(default_factory=dict)
    ticket_orders: dict[str, TicketOrder] = Field(default_factory=dict)
    services: dict[str, StreamingService] = Field(default_factory=dict)
    series: dict[str, Series] = Field(default_factory=dict)
    episodes: dict[str, Episode] = Field(default_factory=dict)
    watchlist: dict[str, WatchlistEntry] = Field(default_factory=dict)
    artists: dict[str, Artist] = Field(default_factory=dict)
    albums: dict[str, Album] = Field(default_factory=dict)
    tracks: dict[str, Track] = Field(default_factory=dict)
    playlists: dict[str, Playlist] = Field(default_factory=dict)
    books: dict[str, Book] = Field(default_factory=dict)
    loans: dict[str, Loan] = Field(default_factory=dict)
    holds: dict[str, Hold] = Field(default_factory=dict)
    podcasts: dict[str, Podcast] = Field(default_factory=dict)
    podcast_episodes: dict[str, PodcastEpisode] = Field(default_factory=dict)
    podcast_mirror: dict[str, PodcastEpisode] = Field(default_factory=dict)
    venues: dict[str, Venue] = Field(default_factory=dict)
    events: dict[str, Event] = Field(default_factory=dict)
    tiers: dict[str, TierPrice] = Field(default_factory=dict)
    resale_nest: dict[str, TierPrice] = Field(default_factory=dict)
    resale_swap: dict[str, TierPrice] = Field(default_factory=dict)
    games: dict[str, Game] = Field(default_factory=dict)
    channels: dict[str, Channel] = Field(default_factory=dict)
    broadcasts: dict[str, Broadcast] = Field(default_factory=dict)
    recordings: dict[str, Recording] = Field(default_factory=dict)
    ratings_critichub: dict[str, Rating] = Field(default_factory=dict)
    ratings_fanpulse: dict[str, Rating] = Field(default_factory=dict)
    ratings_reelmeter: dict[str, Rating] = Field(default_factory=dict)
    reviews: dict[str, Review] = Field(default_factory=dict)

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Build every table from ``rng`` alone; the same seed gives the same world."""
        gen = _Generator(rng, cls.EPOCH)
        gen.cinema()
        gen.streaming()
        gen.music()
        gen.library()
        gen.podcasts()
        gen.live_events()
        gen.games()
        gen.television()
        gen.ratings()
        gen.user_records()
        counters = {
            "TKT": len(gen.t["ticket_orders"]),
            "WL": len(gen.t["watchlist"]),
            "PL": len(gen.t["playlists"]),
            "HLD": len(gen.t["holds"]),
            "REC": len(gen.t["recordings"]),
            "REV": len(gen.t["reviews"]),
        }
        return cls(seed=seed, id_counters=counters, **gen.t)

    def today(self) -> date:
        """The world's current UTC calendar date."""
        return self.now().date()

    def catalogue_item(self, item_id: str) -> tuple[str, str] | None:
        """The (kind, title) of a catalogue item id, or None."""
        for kind, table, attr in CATALOGUE_TABLES:
            row = self.table(table).get(item_id)
            if row is not None:
                return kind, str(getattr(row, attr))
        return None


# (kind, table, title attribute) of every catalogue table.
CATALOGUE_TABLES: tuple[tuple[str, str, str], ...] = (
    ("film", "films", "title"),
    ("series", "series", "title"),
    ("album", "albums", "title"),
    ("book", "books", "title"),
    ("podcast", "podcasts", "title"),
    ("game", "games", "title"),
)


def end_time(start: str, minutes: int) -> str:
    """The clock time ``minutes`` after ``start`` (wrapping past midnight)."""
    h, m = int(start[:2]), int(start[3:])
    total = (h * 60 + m + minutes) % (24 * 60)
    return f"{total // 60:02d}:{total % 60:02d}"


def episode_key(series_id: str, season: int, number: int) -> str:
    """The key of an episode in the episodes table."""
    return f"{series_id}:S{season:02d}E{number:02d}"


@dataclass
class _Generator:
    """Draws the tables in a fixed order from one generator, so a seed fixes every byte."""

    rng: random.Random
    epoch: datetime
    t: dict[str, dict[str, Any]] = field(
        default_factory=lambda: {name: {} for name in MediaWorld.TABLES}
    )

    def ids(self, prefix: str, n: int, low: int = 1000, high: int = 9999) -> list[str]:
        width = len(str(high))
        return [f"{prefix}-{k:0{width}d}" for k in self.rng.sample(range(low, high + 1), n)]

    def day(self, offset: int) -> str:
        return (self.epoch.date() + timedelta(days=offset)).isoformat()

    # -- cinema --------------------------------------------------------------------------------
    def cinema(self) -> None:
        rng = self.rng
        for film_id, title in zip(
            self.ids("FLM", len(data.FILM_TITLES)), data.FILM_TITLES, strict=True
        ):
            self.t["films"][film_id] = Film(
                film_id=film_id,
                title=title,
                year=rng.choice((2025, 2026)),
                genre=rng.choice(data.FILM_GENRES),
                certificate=rng.choice(data.FILM_CERTIFICATES),
                runtime_min=rng.randint(84, 172),
                director=rng.choice(data.DIRECTORS),
            )
        for cinema_id, (name, city, fee) in zip(
            self.ids("CIN", len(data.CINEMAS), 100, 999), data.CINEMAS, strict=True
        ):
            self.t["cinemas"][cinema_id] = Cinema(
                cinema_id=cinema_id,
                name=name,
                city=city,
                base_price_usd=rng.choice((11.5, 12.0, 12.75, 13.5, 14.25, 15.0)),
                booking_fee_usd=fee,
            )
        now_showing = rng.sample(sorted(self.t["films"]), 12)
        number = 0
        numbers = rng.sample(range(10000, 100000), len(self.t["cinemas"]) * SHOWTIME_DAYS * 14)
        for cinema in self.t["cinemas"].values():
            lineup = rng.sample(now_showing, 7)
            imax = "IMAX" in cinema.name
            for offset in range(SHOWTIME_DAYS):
                for film_id in lineup:
                    for start in sorted(rng.sample(data.SHOW_STARTS, rng.choice((1, 1, 2)))):
                        fmt = "imax" if imax else rng.choice(("standard", "standard", "3d"))
                        matinee = start < "16:00"
                        price = cinema.base_price_usd + data.FORMAT_SURCHARGE_USD[fmt]
                        price -= 2.5 if matinee else 0.0
                        total = rng.choice((80, 120, 160, 220, 300))
                        taken = rng.randint(0, total if offset < 2 else total // 3)
                        showtime_id = f"SHW-{numbers[number]}"
                        number += 1
                        self.t["showtimes"][showtime_id] = Showtime(
                            showtime_id=showtime_id,
                            film_id=film_id,
                            cinema_id=cinema.cinema_id,
                            date=self.day(offset),
                            start_time=start,
                            format=fmt,
                            price_usd=money(price),
                            seats_total=total,
                            seats_available=total - taken,
                        )

    # -- streaming -----------------------------------------------------------------------------
    def streaming(self) -> None:
        rng = self.rng
        service_ids = self.ids("SVC", len(data.STREAMING_SERVICES), 10, 99)
        for service_id, (name, price) in zip(service_ids, data.STREAMING_SERVICES, strict=True):
            self.t["services"][service_id] = StreamingService(
                service_id=service_id, name=name, monthly_price_usd=price
            )
        for series_id, title in zip(
            self.ids("SER", len(data.SERIES_TITLES), 100, 999), data.SERIES_TITLES, strict=True
        ):
            seasons = rng.randint(1, 4)
            year = rng.randint(2016, 2025)
            base = rng.choice((24, 30, 42, 48, 55))
            self.t["series"][series_id] = Series(
                series_id=series_id,
                title=title,
                genre=rng.choice(data.SERIES_GENRES),
                year=year,
                service_id=rng.choice(service_ids),
                seasons=seasons,
            )
            for season in range(1, seasons + 1):
                first = date(year + season - 1, rng.randint(1, 12), rng.randint(1, 28))
                for number in range(1, rng.randint(6, 10) + 1):
                    key = episode_key(series_id, season, number)
                    self.t["episodes"][key] = Episode(
                        episode_id=key,
                        series_id=series_id,
                        season=season,
                        number=number,
                        title=rng.choice(data.EPISODE_WORDS),
                        runtime_min=max(18, base + rng.randint(-6, 9)),
                        air_date=(first + timedelta(days=7 * (number - 1))).isoformat(),
                    )

    # -- music ---------------------------------------------------------------------------------
    def music(self) -> None:
        rng = self.rng
        artist_ids = self.ids("ART", len(data.ARTISTS), 100, 999)
        for artist_id, (name, genre) in zip(artist_ids, data.ARTISTS, strict=True):
            self.t["artists"][artist_id] = Artist(artist_id=artist_id, name=name, genre=genre)
        titles = list(data.ALBUM_TITLES)
        rng.shuffle(titles)
        album_ids = self.ids("ALB", len(titles))
        track_numbers = iter(rng.sample(range(10000, 100000), len(titles) * 14))
        for index, (album_id, title) in enumerate(zip(album_ids, titles, strict=True)):
            artist_id = artist_ids[index % len(artist_ids)]
            self.t["albums"][album_id] = Album(
                album_id=album_id,
                title=title,
                artist_id=artist_id,
                year=rng.randint(2012, 2026),
                genre=self.t["artists"][artist_id].genre,
            )
            used: set[str] = set()
            for number in range(1, rng.randint(7, 12) + 1):
                name = self._track_name(used)
                track_id = f"TRK-{next(track_numbers)}"
                self.t["tracks"][track_id] = Track(
                    track_id=track_id,
                    album_id=album_id,
                    artist_id=artist_id,
                    title=name,
                    track_number=number,
                    duration_sec=rng.randint(128, 372),
                )

    def _track_name(self, used: set[str]) -> str:
        while True:
            a, b = self.rng.sample(data.TRACK_WORDS, 2)
            name = self.rng.choice(data.TRACK_PATTERNS).format(a=a, b=b)
            if name not in used:
                used.add(name)
                return name

    # -- library -------------------------------------------------------------------------------
    def library(self) -> None:
        rng = self.rng
        for book_id, (title, author, genre) in zip(
            self.ids("BK", len(data.BOOK_TITLES), 10000, 99999), data.BOOK_TITLES, strict=True
        ):
            total = rng.randint(1, 5)
            self.t["books"][book_id] = Book(
                book_id=book_id,
                title=title,
                author=author,
                genre=genre,
                year=rng.randint(1998, 2025),
                pages=rng.randint(180, 640),
                copies_total=total,
                copies_available=rng.randint(0, total),
            )

    # -- podcasts ------------------------------------------------------------------------------
    def podcasts(self) -> None:
        rng = self.rng
        for podcast_id, (title, host, category) in zip(
            self.ids("POD", len(data.PODCASTS), 100, 999), data.PODCASTS, strict=True
        ):
            self.t["podcasts"][podcast_id] = Podcast(
                podcast_id=podcast_id, title=title, host=host, category=category
            )
            count = rng.randint(12, 24)
            gap = rng.choice((3, 7, 7, 14))
            typical = rng.choice((18, 25, 35, 48, 62, 75))
            topics = rng.sample(data.PODCAST_TOPICS, min(count, len(data.PODCAST_TOPICS)))
            for number in range(1, count + 1):
                published = self.epoch.date() - timedelta(days=gap * (count - number) + 1)
                episode_id = f"{podcast_id}-E{number:03d}"
                row = PodcastEpisode(
                    episode_id=episode_id,
                    podcast_id=podcast_id,
                    number=number,
                    title=f"{topics[(number - 1) % len(topics)]} (part {number})",
                    duration_min=max(8, typical + rng.randint(-12, 15)),
                    published_on=published.isoformat(),
                )
                self.t["podcast_episodes"][episode_id] = row
                self.t["podcast_mirror"][episode_id] = row

    # -- live events ---------------------------------------------------------------------------
    def live_events(self) -> None:
        rng = self.rng
        for venue_id, (name, city, capacity) in zip(
            self.ids("VEN", len(data.VENUES), 100, 999), data.VENUES, strict=True
        ):
            self.t["venues"][venue_id] = Venue(
                venue_id=venue_id, name=name, city=city, capacity=capacity
            )
        venues = sorted(self.t["venues"])
        artists = sorted(self.t["artists"])
        event_ids = self.ids("EVT", 36)
        for index, event_id in enumerate(event_ids):
            artist_id = artists[index % len(artists)]
            venue_id = rng.choice(venues)
            base = rng.choice((35, 42, 49.5, 55, 64, 75, 89))
            self.t["events"][event_id] = Event(
                event_id=event_id,
                performer=self.t["artists"][artist_id].name,
                artist_id=artist_id,
                venue_id=venue_id,
                date=self.day(rng.randint(2, EVENT_HORIZON_DAYS)),
                start_time=rng.choice(("19:00", "19:30", "20:00", "20:30", "21:00")),
            )
            fee_pct = rng.choice((0.12, 0.15, 0.18))
            for tier, factor in data.TICKET_TIERS:
                price = money(base * factor)
                fee = money(price * fee_pct)
                available = rng.randint(0, 400) if tier != "vip" else rng.randint(0, 40)
                key = f"{event_id}:{tier}"
                box = self.epoch - timedelta(minutes=rng.randint(5, 50))
                self.t["tiers"][key] = TierPrice(
                    event_id=event_id,
                    tier=tier,
                    price_usd=price,
                    fee_usd=fee,
                    available=available,
                    as_of=stamp(box),
                )
                for table in ("resale_nest", "resale_swap"):
                    seen = self.epoch - timedelta(minutes=rng.randint(30, 300))
                    self.t[table][key] = TierPrice(
                        event_id=event_id,
                        tier=tier,
                        price_usd=price,
                        fee_usd=fee,
                        available=rng.randint(0, 60),
                        as_of=stamp(seen),
                    )

    # -- games ---------------------------------------------------------------------------------
    def games(self) -> None:
        rng = self.rng
        for game_id, (title, studio, genre) in zip(
            self.ids("GAM", len(data.GAMES)), data.GAMES, strict=True
        ):
            platforms = tuple(p for p in data.PLATFORMS if rng.random() < 0.6) or ("pc",)
            released = self.epoch.date() - timedelta(days=rng.randint(20, 2400))
            self.t["games"][game_id] = Game(
                game_id=game_id,
                title=title,
                studio=studio,
                genre=genre,
                platforms=platforms,
                price_usd=rng.choice(data.GAME_PRICES_USD),
                release_date=released.isoformat(),
            )

    # -- television ----------------------------------------------------------------------------
    def television(self) -> None:
        rng = self.rng
        channel_ids = self.ids("CH", len(data.CHANNELS), 10, 99)
        for channel_id, (name, number) in zip(channel_ids, data.CHANNELS, strict=True):
            self.t["channels"][channel_id] = Channel(
                channel_id=channel_id, name=name, number=number
            )
        numbers = iter(rng.sample(range(10000, 100000), len(channel_ids) * TV_DAYS * 14))
        films = sorted(self.t["films"].values(), key=lambda f: f.film_id)
        series = sorted(self.t["series"].values(), key=lambda s: s.series_id)
        for channel_id, (name, _) in zip(channel_ids, data.CHANNELS, strict=True):
            for offset in range(TV_DAYS):
                slot = 0
                slots = data.PROGRAM_SLOTS
                while slot < len(slots):
                    title, genre, item_id, length = self._programme(name, films, series)
                    span = max(1, -(-length // 90))
                    broadcast_id = f"BRD-{next(numbers)}"
                    self.t["broadcasts"][broadcast_id] = Broadcast(
                        broadcast_id=broadcast_id,
                        channel_id=channel_id,
                        title=title,
                        genre=genre,
                        date=self.day(offset),
                        start_time=slots[slot],
                        duration_min=min(length, 90 * span),
                        item_id=item_id,
                    )
                    slot += span

    def _programme(
        self, channel: str, films: list[Film], series: list[Series]
    ) -> tuple[str, str, str | None, int]:
        rng = self.rng
        if channel == "Cinemax Classic":
            film = rng.choice(films)
            return film.title, "film", film.film_id, film.runtime_min
        if channel == "Drama Central":
            show = rng.choice(series)
            return show.title, "series", show.series_id, rng.choice((45, 60, 60, 90))
        pools = {
            "KBRT News": (data.NEWS_SHOWS, "news"),
            "Sportsline": (data.SPORTS_SHOWS, "sports"),
            "Kids Zone": (data.KIDS_SHOWS, "kids"),
            "Arts & Culture": (data.ARTS_SHOWS, "arts"),
            "Discovery Plus One": (data.DOC_SHOWS, "documentary"),
        }
        titles, genre = pools.get(
            channel, (data.NEWS_SHOWS + data.DOC_SHOWS + data.ARTS_SHOWS, "general")
        )
        return rng.choice(titles), genre, None, rng.choice((30, 60, 60, 90))

    # -- ratings -------------------------------------------------------------------------------
    def ratings(self) -> None:
        rng = self.rng
        items = [key for _, table, _ in CATALOGUE_TABLES for key in sorted(self.t[table])]
        for item_id in items:
            score = rng.randint(38, 97)
            avg = round(min(9.8, max(1.0, score / 10 + rng.uniform(-0.6, 0.6))), 1)
            for table, lag in (
                ("ratings_critichub", (10, 90)),
                ("ratings_fanpulse", (60, 600)),
                ("ratings_reelmeter", (120, 1440)),
            ):
                self.t[table][item_id] = Rating(
                    item_id=item_id,
                    score_pct=score,
                    avg_rating=avg,
                    review_count=rng.randint(12, 4800),
                    as_of=stamp(self.epoch - timedelta(minutes=rng.randint(*lag))),
                )

    # -- the user's own records ------------------------------------------------------------------
    def user_records(self) -> None:
        rng = self.rng
        today = self.epoch.date()
        # loans: some out and on time, some overdue, some returned late or on time
        books = rng.sample(sorted(self.t["books"]), 12)
        loan_numbers = rng.sample(range(100000, 1000000), len(books))
        for index, (book_id, number) in enumerate(zip(books, loan_numbers, strict=True)):
            state = ("due", "due", "due", "overdue", "overdue", "overdue", "returned")[index % 7]
            if state == "due":
                borrowed = today - timedelta(days=rng.randint(1, 18))
            elif state == "overdue":
                borrowed = today - timedelta(days=rng.randint(24, 60))
            else:
                borrowed = today - timedelta(days=rng.randint(30, 90))
            due = borrowed + timedelta(days=data.LOAN_DAYS)
            returned = None
            if state == "returned":
                returned = (due + timedelta(days=rng.randint(-5, 9))).isoformat()
            loan_id = f"LN-{number}"
            self.t["loans"][loan_id] = Loan(
                loan_id=loan_id,
                book_id=book_id,
                borrowed_on=borrowed.isoformat(),
                due_date=due.isoformat(),
                returned_on=returned,
                renewals=rng.choice((0, 0, 1, 2)) if state == "due" else 0,
            )
        lent = set(books)
        others = [b for b in sorted(self.t["books"]) if b not in lent]
        for number, book_id in enumerate(rng.sample(others, 3), start=1):
            hold_id = f"HLD-{number:05d}"
            self.t["holds"][hold_id] = Hold(
                hold_id=hold_id,
                book_id=book_id,
                pickup_branch=rng.choice(data.LIBRARY_BRANCHES),
                queue_position=rng.randint(1, 6),
                placed_at=stamp(self.epoch - timedelta(days=rng.randint(1, 30))),
                status="waiting",
            )
        # playlists
        tracks = sorted(self.t["tracks"])
        for number, name in enumerate(rng.sample(data.PLAYLIST_NAMES, 5), start=1):
            playlist_id = f"PL-{number:05d}"
            chosen = tuple(rng.sample(tracks, rng.randint(5, 12)))
            self.t["playlists"][playlist_id] = Playlist(
                playlist_id=playlist_id,
                name=name,
                track_ids=chosen,
                created_at=stamp(self.epoch - timedelta(days=rng.randint(5, 400))),
            )
        # watchlist
        pool = [("series", s) for s in sorted(self.t["series"])]
        pool += [("film", f) for f in sorted(self.t["films"])]
        for number, (kind, item_id) in enumerate(rng.sample(pool, 7), start=1):
            entry_id = f"WL-{number:05d}"
            table = "series" if kind == "series" else "films"
            self.t["watchlist"][entry_id] = WatchlistEntry(
                entry_id=entry_id,
                item_id=item_id,
                title=self.t[table][item_id].title,
                kind=kind,
                priority=rng.choice(WATCH_PRIORITIES),
                added_at=stamp(self.epoch - timedelta(days=rng.randint(1, 200))),
            )
        # one past ticket order
        showtime = rng.choice(sorted(self.t["showtimes"]))
        row = self.t["showtimes"][showtime]
        fee = self.t["cinemas"][row.cinema_id].booking_fee_usd
        self.t["ticket_orders"]["TKT-00001"] = TicketOrder(
            order_id="TKT-00001",
            showtime_id=showtime,
            adults=2,
            children=0,
            seniors=0,
            promo_code=None,
            subtotal_usd=money(row.price_usd * 2),
            discount_usd=0.0,
            fees_usd=money(fee * 2),
            total_usd=money(row.price_usd * 2 + fee * 2),
            status="confirmed",
            created_at=stamp(self.epoch - timedelta(days=1)),
        )
        # recordings and reviews
        broadcasts = sorted(self.t["broadcasts"])
        for number, broadcast_id in enumerate(rng.sample(broadcasts, 3), start=1):
            recording_id = f"REC-{number:05d}"
            self.t["recordings"][recording_id] = Recording(
                recording_id=recording_id,
                broadcast_id=broadcast_id,
                padding_min=rng.choice((0, 5, 10)),
                status="scheduled",
                created_at=stamp(self.epoch - timedelta(hours=rng.randint(1, 48))),
            )
        items = sorted(self.t["films"]) + sorted(self.t["albums"]) + sorted(self.t["games"])
        for number, item_id in enumerate(rng.sample(items, 6), start=1):
            review_id = f"REV-{number:05d}"
            self.t["reviews"][review_id] = Review(
                review_id=review_id,
                item_id=item_id,
                stars=rng.randint(1, 5),
                text=rng.choice(("Loved it.", "Not for me.", "Solid, would revisit.", "Meh.")),
                created_at=stamp(self.epoch - timedelta(days=rng.randint(2, 300))),
            )
