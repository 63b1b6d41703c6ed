"""The transportation world: a rail and coach network with timetables, live feeds and bookings.

Tables (all keyed by the row's id):

- ``stations`` (a few names recur in different cities), ``routes`` (one operator running
  one mode from one station to another), ``trips`` (one scheduled departure of a route
  on one date, with its fares by class and seats left), ``ride_rates`` (ride-share
  pricing per city, keyed by city);
- ``timetable_mirror``: an independent timetable aggregator's own copy of the schedule,
  keyed by trip id. Generated from the same facts, so the timetable fields agree with
  ``trips``, but it has its own record ids and publication stamps and no seats or fares;
- three live feeds for today's trips, keyed by trip id, each stamping ``as_of``: the
  operator's feed (``operator_feed``, authoritative), a crowd-sourced tracker
  (``crowd_feed``) and the departure boards (``board_feed``). In this clean world they
  agree on ``delay_min``;
- ``passengers`` and ``bookings``.

Dates are ISO strings (``YYYY-MM-DD``), times ``HH:MM`` and timestamps ISO strings ending
in ``Z``; every time is UTC and relative to :attr:`World.EPOCH`, the world's "now" at
clock zero.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from itertools import islice
from typing import ClassVar, Self

from pydantic import Field

from toolchaos.core.world import Row, World
from toolchaos.domains._common import dec, haversine_km, money, people, stamp
from toolchaos.domains.transportation import data

N_PASSENGERS = 40
DAYS_BEFORE = 1  # timetable days kept before today
DAYS_AHEAD = 4  # timetable days published after today
MIN_TRANSFER_MIN = 10
FULL_REFUND_NOTICE_H = 24
# Refund in percent of the fare paid: (24 hours or more before departure, later).
REFUND_PCT: dict[str, tuple[int, int]] = {
    "first": (100, 100),
    "business": (100, 50),
    "economy": (80, 25),
}
BOOKING_STATUSES = ("confirmed", "completed", "cancelled")
LIVE_STATUSES = ("scheduled", "boarding", "en_route", "arrived")
MIRROR = "TransitMirror"
CROWD = "RideAlong"
# Distances are great circles on a sphere of this radius, then a detour factor.
EARTH_RADIUS_KM = 6371.0
# The timetable facts of a trip, which the aggregator's mirror copies.
TIMETABLE_FIELDS: tuple[str, ...] = (
    "trip_id",
    "route_id",
    "service_code",
    "mode",
    "operator",
    "origin_station_id",
    "destination_station_id",
    "departure_date",
    "departure_time",
    "arrival_date",
    "arrival_time",
    "duration_min",
    "distance_km",
)


def at(day: str, hhmm: str) -> datetime:
    """The aware UTC datetime of an ISO date and an ``HH:MM`` time."""
    return datetime.fromisoformat(f"{day}T{hhmm}:00+00:00")


def refund_pct(fare_class: str, notice: timedelta) -> int:
    """The refund share of a cancelled booking, by class and notice before departure."""
    early, late = REFUND_PCT[fare_class]
    return early if notice >= timedelta(hours=FULL_REFUND_NOTICE_H) else late


def refund_usd(fare_class: str, fare_usd: float, notice: timedelta) -> float:
    """The refund of a booking cancelled ``notice`` before its departure, in dollars."""
    return money(dec(fare_usd) * refund_pct(fare_class, notice) / 100)


# -- rows --------------------------------------------------------------------------------


class Station(Row):
    """A rail or coach station."""

    station_id: str
    code: str
    name: str
    city: str
    state: str
    modes: tuple[str, ...]
    lat_deg: float
    lon_deg: float


class Route(Row):
    """A direct service of one operator from one station to another."""

    route_id: str
    mode: str
    operator: str
    origin_station_id: str
    destination_station_id: str
    distance_km: float
    typical_duration_min: int
    daily_departures: int


class Trip(Row):
    """One scheduled departure of a route, with its fares by class and seats left."""

    trip_id: str
    route_id: str
    service_code: str
    mode: str
    operator: str
    origin_station_id: str
    destination_station_id: str
    departure_date: str
    departure_time: str
    arrival_date: str
    arrival_time: str
    duration_min: int
    distance_km: float
    fare_economy_usd: float
    fare_business_usd: float | None
    fare_first_usd: float | None
    seats_economy: int
    seats_business: int
    seats_first: int

    def fare_usd(self, fare_class: str) -> float | None:
        """The fare of ``fare_class`` on this trip, None when the class is not sold."""
        fare: float | None = getattr(self, f"fare_{fare_class}_usd")
        return fare

    def seats(self, fare_class: str) -> int:
        """Seats left in ``fare_class``."""
        seats: int = getattr(self, f"seats_{fare_class}")
        return seats

    def departs_at(self) -> datetime:
        """The scheduled departure as an aware datetime."""
        return at(self.departure_date, self.departure_time)

    def arrives_at(self) -> datetime:
        """The scheduled arrival as an aware datetime."""
        return at(self.arrival_date, self.arrival_time)


class MirrorTrip(Row):
    """The timetable aggregator's record of one trip (an independent second source)."""

    mirror_id: str
    trip_id: str
    route_id: str
    service_code: str
    mode: str
    operator: str
    origin_station_id: str
    destination_station_id: str
    departure_date: str
    departure_time: str
    arrival_date: str
    arrival_time: str
    duration_min: int
    distance_km: float
    published_at: str
    source: str


class OperatorStatus(Row):
    """The operator's live record of one of today's trips (the authoritative feed)."""

    trip_id: str
    vehicle_id: str
    status: str
    delay_min: int
    progress_pct: int
    expected_departure_time: str
    expected_arrival_time: str
    as_of: str


class CrowdReport(Row):
    """The crowd-sourced tracker's estimate for one of today's trips."""

    trip_id: str
    delay_min: int
    report_count: int
    confidence: str
    as_of: str
    source: str


class BoardEntry(Row):
    """The departure board's line for one of today's trips at its origin station."""

    service_id: str
    station_id: str
    platform: str
    board_status: str
    delay_min: int
    as_of: str


class RideRate(Row):
    """Ride-share pricing in one city."""

    city: str
    base_fare_usd: float
    per_km_usd: float
    per_min_usd: float
    surge_multiplier: float
    avg_speed_kmh: float
    pickup_eta_min: int


class Passenger(Row):
    """A registered passenger."""

    passenger_id: str
    name: str
    email: str
    home_city: str | None
    loyalty_tier: str
    member_since: str


class Booking(Row):
    """A seat booked by a passenger on one trip."""

    booking_id: str
    passenger_id: str
    trip_id: str
    fare_class: str
    fare_usd: float
    status: str
    origin_station_id: str
    destination_station_id: str
    departure_date: str
    departure_time: str
    booked_at: str
    cancelled_at: str | None
    cancellation_reason: str | None
    refund_usd: float | None
    previous_trip_id: str | None


# -- the world ---------------------------------------------------------------------------


class TransportationWorld(World):
    """A rail and coach network: timetables, fares, live feeds, rides and bookings."""

    TABLES: ClassVar[tuple[str, ...]] = (
        "stations",
        "routes",
        "trips",
        "timetable_mirror",
        "operator_feed",
        "crowd_feed",
        "board_feed",
        "ride_rates",
        "passengers",
        "bookings",
    )

    stations: dict[str, Station] = Field(default_factory=dict)
    routes: dict[str, Route] = Field(default_factory=dict)
    trips: dict[str, Trip] = Field(default_factory=dict)
    timetable_mirror: dict[str, MirrorTrip] = Field(default_factory=dict)
    operator_feed: dict[str, OperatorStatus] = Field(default_factory=dict)
    crowd_feed: dict[str, CrowdReport] = Field(default_factory=dict)
    board_feed: dict[str, BoardEntry] = Field(default_factory=dict)
    ride_rates: dict[str, RideRate] = Field(default_factory=dict)
    passengers: dict[str, Passenger] = Field(default_factory=dict)
    bookings: dict[str, Booking] = Field(default_factory=dict)

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Build every table from ``rng`` alone; the same seed gives the same world."""
        gen = _Generator(rng, cls.EPOCH)
        gen.stations()
        gen.ride_rates()
        gen.routes()
        gen.trips()
        gen.live_feeds()
        gen.passengers()
        gen.bookings()
        return cls(
            seed=seed,
            id_counters={"BK": len(gen.bookings_), "PAX": len(gen.passengers_)},
            stations=gen.stations_,
            routes=gen.routes_,
            trips=gen.trips_,
            timetable_mirror=gen.mirror_,
            operator_feed=gen.operator_,
            crowd_feed=gen.crowd_,
            board_feed=gen.board_,
            ride_rates=gen.rates_,
            passengers=gen.passengers_,
            bookings=gen.bookings_,
        )


@dataclass
class _Slot:
    """One departure of a route's daily pattern."""

    time: str
    duration_min: int
    service_code: str


@dataclass
class _Generator:
    """Draws the tables in a fixed order from one generator, so a seed fixes every byte."""

    rng: random.Random
    epoch: datetime
    stations_: dict[str, Station] = field(default_factory=dict)
    routes_: dict[str, Route] = field(default_factory=dict)
    trips_: dict[str, Trip] = field(default_factory=dict)
    mirror_: dict[str, MirrorTrip] = field(default_factory=dict)
    operator_: dict[str, OperatorStatus] = field(default_factory=dict)
    crowd_: dict[str, CrowdReport] = field(default_factory=dict)
    board_: dict[str, BoardEntry] = field(default_factory=dict)
    rates_: dict[str, RideRate] = field(default_factory=dict)
    passengers_: dict[str, Passenger] = field(default_factory=dict)
    bookings_: dict[str, Booking] = field(default_factory=dict)
    _by_code: dict[str, str] = field(default_factory=dict)
    _patterns: dict[str, list[_Slot]] = field(default_factory=dict)

    @property
    def today(self) -> date:
        return self.epoch.date()

    # -- network -----------------------------------------------------------------------
    def stations(self) -> None:
        specs = list(data.STATIONS)
        self.rng.shuffle(specs)
        states = {c.name: c.state for c in data.CITIES}
        for n, spec in enumerate(specs, start=1):
            sid = f"ST-{n:03d}"
            self._by_code[spec.code] = sid
            self.stations_[sid] = Station(
                station_id=sid,
                code=spec.code,
                name=spec.name,
                city=spec.city,
                state=states[spec.city],
                modes=spec.modes,
                lat_deg=spec.lat_deg,
                lon_deg=spec.lon_deg,
            )
        self.stations_ = dict(sorted(self.stations_.items()))

    def ride_rates(self) -> None:
        rng = self.rng
        for city in data.CITIES:
            self.rates_[city.name] = RideRate(
                city=city.name,
                base_fare_usd=money(rng.uniform(2.2, 3.9)),
                per_km_usd=money(rng.uniform(0.95, 1.6)),
                per_min_usd=money(rng.uniform(0.22, 0.48)),
                surge_multiplier=rng.choice((1.0, 1.0, 1.0, 1.15, 1.3, 1.5)),
                avg_speed_kmh=float(rng.randint(18, 34)),
                pickup_eta_min=rng.randint(3, 14),
            )

    def routes(self) -> None:
        rng = self.rng
        n_routes = 2 * len(data.LINES)
        numbers = iter(rng.sample(range(100, 1000), 8 * n_routes))
        route_no = 100
        for operator, a, b in data.LINES:
            sa, sb = self.stations_[self._by_code[a]], self.stations_[self._by_code[b]]
            crow = haversine_km(sa.lat_deg, sa.lon_deg, sb.lat_deg, sb.lon_deg, EARTH_RADIUS_KM)
            detour = rng.uniform(1.1, 1.2) if operator.mode == "rail" else rng.uniform(1.2, 1.32)
            distance = round(max(crow * detour, 4.0), 1)
            for origin, destination in ((sa, sb), (sb, sa)):
                route_no += rng.randint(1, 9)
                rid = f"R-{route_no}"
                slots = self._pattern(operator, distance, numbers)
                self._patterns[rid] = slots
                typical = round(sum(s.duration_min for s in slots) / len(slots))
                self.routes_[rid] = Route(
                    route_id=rid,
                    mode=operator.mode,
                    operator=operator.name,
                    origin_station_id=origin.station_id,
                    destination_station_id=destination.station_id,
                    distance_km=distance,
                    typical_duration_min=typical,
                    daily_departures=len(slots),
                )

    def _pattern(
        self, operator: data.Operator, distance: float, numbers: Iterator[int]
    ) -> list[_Slot]:
        """The daily departures of one route: times, durations and service numbers."""
        rng = self.rng
        count = rng.randint(*operator.departures)
        first = rng.randint(66, 96) * 5  # 05:30 .. 08:00
        last = rng.randint(222, 258) * 5  # 18:30 .. 21:30
        step = (last - first) / max(count - 1, 1)
        base = distance / operator.speed_kmh * 60 + (6 if operator.mode == "rail" else 10)
        slots = []
        for i in range(count):
            minute = int(first + i * step) + rng.choice((-10, -5, 0, 0, 5, 10))
            minute = 5 * round(minute / 5)
            duration = max(8, round(base * rng.uniform(0.94, 1.08)))
            code = f"{operator.prefix}{next(numbers)}"
            slots.append(_Slot(f"{minute // 60:02d}:{minute % 60:02d}", duration, code))
        return slots

    # -- timetable -----------------------------------------------------------------------
    def trips(self) -> None:
        rng = self.rng
        drafts = []
        for rid in self.routes_:
            for offset in range(-DAYS_BEFORE, DAYS_AHEAD + 1):
                iso = (self.today + timedelta(days=offset)).isoformat()
                for slot in self._patterns[rid]:
                    drafts.append((iso, slot.time, rid, slot))
        drafts.sort(key=lambda d: (d[0], d[1], d[2]))
        for n, (day, hhmm, rid, slot) in enumerate(drafts, start=1):
            route = self.routes_[rid]
            tid = f"TR-{n:05d}"
            departs = at(day, hhmm)
            arrives = departs + timedelta(minutes=slot.duration_min)
            hour = departs.hour
            peak = 1.2 if hour in (7, 8, 9, 16, 17, 18) else 1.0
            mode = route.mode
            economy = (
                (
                    dec(data.BOOKING_FEE_USD[mode])
                    + dec(data.FARE_PER_KM_USD[mode]) * dec(route.distance_km)
                )
                * dec(peak)
                * dec(round(rng.uniform(0.9, 1.15), 3))
            )
            fares: dict[str, float | None] = {"economy": money(economy)}
            seats = {"economy": 0, "business": 0, "first": 0}
            if mode == "rail":
                for cls in ("business", "first"):
                    fares[cls] = money(economy * dec(data.CLASS_MULTIPLIER[cls]))
                seats["economy"] = 0 if rng.random() < 0.05 else rng.randint(1, 180)
                seats["business"] = 0 if rng.random() < 0.1 else rng.randint(1, 36)
                seats["first"] = 0 if rng.random() < 0.15 else rng.randint(1, 14)
            else:
                fares["business"] = fares["first"] = None
                seats["economy"] = 0 if rng.random() < 0.07 else rng.randint(1, 52)
            trip = Trip(
                trip_id=tid,
                route_id=rid,
                service_code=slot.service_code,
                mode=mode,
                operator=route.operator,
                origin_station_id=route.origin_station_id,
                destination_station_id=route.destination_station_id,
                departure_date=day,
                departure_time=hhmm,
                arrival_date=arrives.date().isoformat(),
                arrival_time=arrives.strftime("%H:%M"),
                duration_min=slot.duration_min,
                distance_km=route.distance_km,
                fare_economy_usd=money(economy),
                fare_business_usd=fares["business"],
                fare_first_usd=fares["first"],
                seats_economy=seats["economy"],
                seats_business=seats["business"],
                seats_first=seats["first"],
            )
            self.trips_[tid] = trip
            published = at(day, "00:00") - timedelta(
                days=rng.randint(3, 20), minutes=rng.randint(0, 1439)
            )
            self.mirror_[tid] = MirrorTrip(
                mirror_id=f"TM{rng.randint(0, 10**9 - 1):09d}",
                published_at=stamp(published),
                source=MIRROR,
                **trip.model_dump(include=set(TIMETABLE_FIELDS)),
            )

    # -- live feeds ----------------------------------------------------------------------
    def live_feeds(self) -> None:
        rng = self.rng
        today = self.today.isoformat()
        now = self.epoch
        for trip in self.trips_.values():
            if trip.departure_date != today:
                continue
            departs = trip.departs_at()
            soon = departs - now <= timedelta(hours=3)
            delayed = rng.random() < (0.55 if soon else 0.2)
            delay = rng.randint(2, 55) if delayed else 0
            expected_departure = departs + timedelta(minutes=delay)
            expected_arrival = trip.arrives_at() + timedelta(minutes=delay)
            progress = 0
            if now >= expected_arrival:
                status, progress, board = "arrived", 100, "Arrived"
            elif now >= expected_departure:
                status, board = "en_route", "Departed"
                progress = int(
                    100 * (now - expected_departure) / (expected_arrival - expected_departure)
                )
            elif expected_departure - now <= timedelta(minutes=15):
                status, board = "boarding", "Boarding"
            else:
                status, board = "scheduled", "On time" if delay == 0 else "Delayed"
            if board == "Boarding" and delay:
                board = "Boarding, delayed"
            vehicle = (
                f"TS-{rng.randint(100, 999)}"
                if trip.mode == "rail"
                else f"BUS-{rng.randint(1000, 9999)}"
            )
            self.operator_[trip.trip_id] = OperatorStatus(
                trip_id=trip.trip_id,
                vehicle_id=vehicle,
                status=status,
                delay_min=delay,
                progress_pct=progress,
                expected_departure_time=expected_departure.strftime("%H:%M"),
                expected_arrival_time=expected_arrival.strftime("%H:%M"),
                as_of=stamp(now - timedelta(minutes=rng.randint(0, 3))),
            )
            reports = rng.randint(1, 60)
            self.crowd_[trip.trip_id] = CrowdReport(
                trip_id=trip.trip_id,
                delay_min=delay,
                report_count=reports,
                confidence="low" if reports < 5 else "medium" if reports < 20 else "high",
                as_of=stamp(now - timedelta(minutes=rng.randint(2, 15))),
                source=CROWD,
            )
            platform = (
                f"{rng.randint(1, 16)}{rng.choice(('', '', 'A', 'B'))}"
                if trip.mode == "rail"
                else f"Bay {rng.randint(1, 24)}"
            )
            self.board_[trip.trip_id] = BoardEntry(
                service_id=trip.trip_id,
                station_id=trip.origin_station_id,
                platform=platform,
                board_status=board,
                delay_min=delay,
                as_of=stamp(now - timedelta(minutes=rng.randint(0, 5))),
            )

    # -- passengers and bookings ---------------------------------------------------------
    def passengers(self) -> None:
        rng = self.rng
        drawn = people(rng, data.FIRST_NAMES, data.LAST_NAMES, data.EMAIL_DOMAINS)
        for number, (name, email) in enumerate(islice(drawn, N_PASSENGERS), start=1):
            pid = f"PAX-{number:05d}"
            self.passengers_[pid] = Passenger(
                passenger_id=pid,
                name=name,
                email=email,
                home_city=rng.choice(data.CITIES).name,
                loyalty_tier=rng.choices(data.LOYALTY_TIERS, weights=(60, 28, 12))[0],
                member_since=(self.today - timedelta(days=rng.randint(20, 2000))).isoformat(),
            )

    def bookings(self) -> None:
        rng = self.rng
        now = self.epoch
        trips = list(self.trips_.values())
        past = [t for t in trips if t.departs_at() <= now]
        future = [t for t in trips if t.departs_at() > now]
        today_ahead = [t for t in future if t.departure_date == self.today.isoformat()]
        drafts: list[tuple[datetime, Booking]] = []
        for passenger in self.passengers_.values():
            chosen: list[Trip] = []
            ahead = rng.choice((0, 1, 1, 2, 2, 2, 3, 3, 4))
            if ahead and rng.random() < 0.4:
                chosen.append(rng.choice(today_ahead))
                ahead -= 1
            chosen += rng.sample(future, ahead)
            chosen += rng.sample(past, rng.choice((0, 0, 1, 2)))
            seen: set[str] = set()
            for trip in chosen:
                if trip.trip_id in seen:
                    continue
                seen.add(trip.trip_id)
                drafts.append(self._booking(passenger.passenger_id, trip))
        drafts.sort(key=lambda d: (d[0], d[1].trip_id, d[1].passenger_id))
        for n, (_, booking) in enumerate(drafts, start=1):
            bid = f"BK-{n:05d}"
            self.bookings_[bid] = booking.model_copy(update={"booking_id": bid})

    def _booking(self, passenger_id: str, trip: Trip) -> tuple[datetime, Booking]:
        rng = self.rng
        now = self.epoch
        departs = trip.departs_at()
        if trip.mode == "rail":
            fare_class = rng.choices(data.FARE_CLASSES, weights=(65, 25, 10))[0]
        else:
            fare_class = "economy"
        fare = trip.fare_usd(fare_class)
        assert fare is not None
        latest = min(now, departs) - timedelta(hours=2)
        booked = latest - timedelta(minutes=rng.randint(0, 30 * 1440))
        status = "completed" if departs <= now else "confirmed"
        cancelled_at: str | None = None
        refund: float | None = None
        if status == "confirmed" and rng.random() < 0.15:
            status = "cancelled"
            when = booked + (now - booked) * rng.uniform(0.2, 0.95)
            when = when.replace(second=0, microsecond=0)
            cancelled_at = stamp(when)
            refund = refund_usd(fare_class, fare, departs - when)
        booking = Booking(
            booking_id="",
            passenger_id=passenger_id,
            trip_id=trip.trip_id,
            fare_class=fare_class,
            fare_usd=fare,
            status=status,
            origin_station_id=trip.origin_station_id,
            destination_station_id=trip.destination_station_id,
            departure_date=trip.departure_date,
            departure_time=trip.departure_time,
            booked_at=stamp(booked.replace(second=0, microsecond=0)),
            cancelled_at=cancelled_at,
            cancellation_reason=rng.choice(data.CANCELLATION_REASONS)
            if refund is not None
            else None,
            refund_usd=refund,
            previous_trip_id=None,
        )
        return booked, booking
