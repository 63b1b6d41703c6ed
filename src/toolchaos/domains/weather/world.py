"""The weather world: places, a week of forecasts, air quality, saved places and alerts.

Tables (each keyed by the row's id unless noted):

- ``locations``: ~45 real cities; a few names are shared by several of them (Springfield
  IL/MO/MA, Portland OR/ME, London GB/ON), each with its own ``location_id``;
- ``forecasts``: the primary provider's daily forecast, keyed ``"{location_id}:{date}"``,
  for the seven days starting at the world's current UTC date;
- ``backup_forecasts``: an independent backup provider's forecast for the same days. It is
  drawn from the same facts, so every documented field agrees with ``forecasts``; its own
  fields (model run, grid cell) differ;
- ``aq_official``, ``aq_sensors``, ``aq_satellite``: the latest reading of three
  independent air-quality networks, keyed by location id. In the clean world they agree
  on ``aqi`` and ``pm25_ugm3``; each stamps its own ``as_of``;
- ``pois``: parks, museums and other points of interest, with opening hours;
- ``saved_places`` and ``alerts``: the user's own records (the tables tools write).

Dates are ISO ``YYYY-MM-DD`` UTC calendar days and timestamps UTC ISO strings ending in
``Z``; both are relative to :attr:`World.EPOCH`, the world's "now" at clock zero.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import ClassVar, Self

from pydantic import Field

from toolchaos.core.world import Row, World
from toolchaos.domains._common import stamp
from toolchaos.domains.weather import data

FORECAST_DAYS = 7
# US EPA PM2.5 breakpoints (2024 revision): (C_lo, C_hi, I_lo, I_hi) in ug/m3 and AQI.
PM25_BREAKPOINTS: tuple[tuple[float, float, int, int], ...] = (
    (0.0, 9.0, 0, 50),
    (9.1, 35.4, 51, 100),
    (35.5, 55.4, 101, 150),
    (55.5, 125.4, 151, 200),
    (125.5, 225.4, 201, 300),
    (225.5, 325.4, 301, 500),
)
AQI_CATEGORIES: tuple[tuple[int, str], ...] = (
    (50, "Good"),
    (100, "Moderate"),
    (150, "Unhealthy for Sensitive Groups"),
    (200, "Unhealthy"),
    (300, "Very Unhealthy"),
    (500, "Hazardous"),
)
FORECAST_METRICS = ("temp_high_c", "temp_low_c", "precip_mm", "wind_kph")
ALERT_METRICS = (*FORECAST_METRICS, "aqi")
ALERT_COMPARISONS = ("above", "below")
ALERT_STATUSES = ("active", "paused", "expired")
SAVED_KINDS = ("location", "poi")
# Plausible thresholds per alert metric (inclusive), in the metric's own unit.
THRESHOLD_RANGES: dict[str, tuple[float, float]] = {
    "temp_high_c": (-60.0, 60.0),
    "temp_low_c": (-60.0, 60.0),
    "precip_mm": (0.0, 500.0),
    "wind_kph": (0.0, 300.0),
    "aqi": (0.0, 500.0),
}


def aqi_from_pm25(pm25_ugm3: float) -> int:
    """Return the US AQI of a 24-hour PM2.5 concentration (EPA linear interpolation).

    The concentration is truncated to one decimal first, as the EPA method says; values
    beyond the top breakpoint are capped at 500.
    """
    c = math.floor(max(pm25_ugm3, 0.0) * 10) / 10
    for c_lo, c_hi, i_lo, i_hi in PM25_BREAKPOINTS:
        if c <= c_hi:
            return round((i_hi - i_lo) / (c_hi - c_lo) * (c - c_lo) + i_lo)
    return 500


def aqi_category(aqi: int) -> str:
    """Return the EPA category name of an AQI value."""
    for top, name in AQI_CATEGORIES:
        if aqi <= top:
            return name
    return AQI_CATEGORIES[-1][1]


def initial_bearing_deg(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Initial compass bearing from the first point towards the second, 0-360 degrees."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    x = math.sin(dl) * math.cos(p2)
    y = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return (math.degrees(math.atan2(x, y)) + 360) % 360


def clock_text(minutes: float) -> str:
    """Format minutes after local midnight (wrapped into one day) as ``HH:MM``."""
    whole = round(minutes) % (24 * 60)
    return f"{whole // 60:02d}:{whole % 60:02d}"


def sun_times(
    latitude_deg: float, longitude_deg: float, day: date, utc_offset_hours: float
) -> tuple[str | None, str | None, float]:
    """Local sunrise and sunset (``HH:MM``) and hours of daylight on ``day``.

    Uses the NOAA general solar position approximation with the standard -0.833 degree
    horizon (refraction and the solar disc). Returns ``None`` times during polar day or
    night, with 24 or 0 hours of daylight.
    """
    gamma = 2 * math.pi / 365 * (day.timetuple().tm_yday - 1)
    eqtime = 229.18 * (
        0.000075
        + 0.001868 * math.cos(gamma)
        - 0.032077 * math.sin(gamma)
        - 0.014615 * math.cos(2 * gamma)
        - 0.040849 * math.sin(2 * gamma)
    )
    decl = (
        0.006918
        - 0.399912 * math.cos(gamma)
        + 0.070257 * math.sin(gamma)
        - 0.006758 * math.cos(2 * gamma)
        + 0.000907 * math.sin(2 * gamma)
        - 0.002697 * math.cos(3 * gamma)
        + 0.00148 * math.sin(3 * gamma)
    )
    lat = math.radians(latitude_deg)
    cos_ha = math.cos(math.radians(90.833)) / (math.cos(lat) * math.cos(decl)) - math.tan(
        lat
    ) * math.tan(decl)
    if cos_ha > 1:
        return None, None, 0.0
    if cos_ha < -1:
        return None, None, 24.0
    ha = math.degrees(math.acos(cos_ha))
    offset = utc_offset_hours * 60
    sunrise = 720 - 4 * (longitude_deg + ha) - eqtime + offset
    sunset = 720 - 4 * (longitude_deg - ha) - eqtime + offset
    return clock_text(sunrise), clock_text(sunset), round(8 * ha / 60, 2)


# -- rows --------------------------------------------------------------------------------


class Location(Row):
    """A city: where it is, its time zone and elevation."""

    location_id: str
    name: str
    region: str
    region_name: str
    country: str
    country_name: str
    latitude_deg: float
    longitude_deg: float
    elevation_m: int
    utc_offset_hours: float
    timezone: str
    population: int


class ForecastDay(Row):
    """The primary provider's forecast for one location and day."""

    location_id: str
    date: str
    condition: str
    temp_high_c: float
    temp_low_c: float
    precip_mm: float
    precip_chance_pct: int
    wind_kph: float
    humidity_pct: int


class BackupForecastDay(ForecastDay):
    """The backup provider's forecast for one location and day (an independent source).

    Its forecast fields are those of :class:`ForecastDay`; the rest are its own.
    """

    model_run: str
    grid_cell: str


class AirReading(Row):
    """The fields every air-quality network reports for one location, and when it read them."""

    location_id: str
    aqi: int
    pm25_ugm3: float
    as_of: str


class OfficialReading(AirReading):
    """The latest reading of the national regulatory monitors for one location."""

    monitor_count: int
    station_name: str


class SensorReading(AirReading):
    """The latest reading of the community low-cost sensor network for one location."""

    sensor_count: int
    humidity_corrected: bool


class SatelliteReading(AirReading):
    """The latest satellite-derived estimate for one location."""

    grid_km: int
    cloud_free: bool


class PointOfInterest(Row):
    """A park, museum or other place to visit in one city, with its opening hours."""

    poi_id: str
    location_id: str
    name: str
    category: str
    latitude_deg: float
    longitude_deg: float
    opens_at: str
    closes_at: str
    closed_on: str | None
    entry_fee_usd: float
    rating_stars: float


class SavedPlace(Row):
    """A place the user saved under a label: a whole city or one point of interest."""

    saved_id: str
    label: str
    kind: str
    location_id: str | None
    poi_id: str | None
    note: str
    created_at: str


class WeatherAlert(Row):
    """A subscription: notify when ``metric`` goes above or below ``threshold`` in a window.

    ``threshold`` is in the unit of the metric named (degrees C, mm, km/h or AQI points).
    """

    alert_id: str
    location_id: str
    metric: str
    comparison: str
    threshold: float
    start_date: str
    end_date: str
    status: str
    created_at: str


# -- the world ---------------------------------------------------------------------------


class LocationWorld(World):
    """Places, forecasts, air quality, points of interest, saved places and alerts."""

    TABLES: ClassVar[tuple[str, ...]] = (
        "locations",
        "forecasts",
        "backup_forecasts",
        "aq_official",
        "aq_sensors",
        "aq_satellite",
        "pois",
        "saved_places",
        "alerts",
    )

    locations: dict[str, Location] = Field(default_factory=dict)
    forecasts: dict[str, ForecastDay] = Field(default_factory=dict)
    backup_forecasts: dict[str, BackupForecastDay] = Field(default_factory=dict)
    aq_official: dict[str, OfficialReading] = Field(default_factory=dict)
    aq_sensors: dict[str, SensorReading] = Field(default_factory=dict)
    aq_satellite: dict[str, SatelliteReading] = Field(default_factory=dict)
    pois: dict[str, PointOfInterest] = Field(default_factory=dict)
    saved_places: dict[str, SavedPlace] = Field(default_factory=dict)
    alerts: dict[str, WeatherAlert] = Field(default_factory=dict)

    @classmethod
    def generate(cls, rng: random.Random, seed: int) -> Self:
        """Build every table from ``rng`` alone; the same seed gives the same world."""
        gen = _Generator(rng, cls.EPOCH)
        gen.locations()
        gen.forecasts()
        gen.air_quality()
        gen.pois()
        gen.saved_places()
        gen.alerts()
        return cls(
            seed=seed,
            id_counters={"SP": len(gen.saved_), "ALR": len(gen.alerts_)},
            locations=gen.locations_,
            forecasts=gen.forecasts_,
            backup_forecasts=gen.backup_,
            aq_official=gen.official_,
            aq_sensors=gen.sensors_,
            aq_satellite=gen.satellite_,
            pois=gen.pois_,
            saved_places=gen.saved_,
            alerts=gen.alerts_,
        )

    def today(self) -> date:
        """The world's current UTC calendar date."""
        return self.now().date()

    def forecast_dates(self) -> list[str]:
        """The ISO dates the forecasts cover, from today on."""
        start = self.today()
        return [(start + timedelta(days=i)).isoformat() for i in range(FORECAST_DAYS)]


def forecast_key(location_id: str, day: str) -> str:
    """The key of a location's forecast for one day in the forecast tables."""
    return f"{location_id}:{day}"


@dataclass
class _Generator:
    """Draws the tables in a fixed order from one generator, so a seed fixes every byte."""

    rng: random.Random
    epoch: datetime
    locations_: dict[str, Location] = field(default_factory=dict)
    climate_: dict[str, data.City] = field(default_factory=dict)
    forecasts_: dict[str, ForecastDay] = field(default_factory=dict)
    backup_: dict[str, BackupForecastDay] = field(default_factory=dict)
    official_: dict[str, OfficialReading] = field(default_factory=dict)
    sensors_: dict[str, SensorReading] = field(default_factory=dict)
    satellite_: dict[str, SatelliteReading] = field(default_factory=dict)
    pois_: dict[str, PointOfInterest] = field(default_factory=dict)
    saved_: dict[str, SavedPlace] = field(default_factory=dict)
    alerts_: dict[str, WeatherAlert] = field(default_factory=dict)

    def locations(self) -> None:
        numbers = self.rng.sample(range(1000, 10000), len(data.CITIES))
        for number, city in zip(numbers, data.CITIES, strict=True):
            location_id = f"LOC-{number}"
            self.climate_[location_id] = city
            self.locations_[location_id] = Location(
                location_id=location_id,
                name=city.name,
                region=city.region,
                region_name=city.region_name,
                country=city.country,
                country_name=city.country_name,
                latitude_deg=city.latitude_deg,
                longitude_deg=city.longitude_deg,
                elevation_m=city.elevation_m,
                utc_offset_hours=float(city.utc_offset_hours),
                timezone=city.timezone,
                population=city.population,
            )

    def forecasts(self) -> None:
        rng = self.rng
        run = self.epoch.replace(hour=6, minute=0).strftime("%Y%m%d%H")
        for location_id, city in self.climate_.items():
            cell = (
                f"{round(city.latitude_deg * 4) / 4:+.2f}{round(city.longitude_deg * 4) / 4:+.2f}"
            )
            for offset in range(FORECAST_DAYS):
                day = (self.epoch.date() + timedelta(days=offset)).isoformat()
                high = round(city.normal_high_c + rng.gauss(0, 3.0), 1)
                low = round(min(high - 2.0, city.normal_low_c + rng.gauss(0, 2.5)), 1)
                wet = rng.random() < city.wet_chance
                precip = round(max(0.2, rng.expovariate(1 / city.wet_mm)), 1) if wet else 0.0
                chance = rng.randint(55, 95) if wet else rng.randint(0, 30)
                wind = round(max(2.0, rng.gauss(city.wind_kph, city.wind_kph * 0.35)), 1)
                humidity = rng.randint(70, 98) if wet else rng.randint(25, 85)
                condition = _condition(rng, high, precip, wind, humidity)
                facts = {
                    "location_id": location_id,
                    "date": day,
                    "condition": condition,
                    "temp_high_c": high,
                    "temp_low_c": low,
                    "precip_mm": precip,
                    "precip_chance_pct": chance,
                    "wind_kph": wind,
                    "humidity_pct": humidity,
                }
                key = forecast_key(location_id, day)
                self.forecasts_[key] = ForecastDay(**facts)
                self.backup_[key] = BackupForecastDay(**facts, model_run=run, grid_cell=cell)

    def air_quality(self) -> None:
        rng = self.rng
        hour = self.epoch.replace(minute=0, second=0, microsecond=0)
        for location_id, city in self.climate_.items():
            pm25 = round(city.pm25_ugm3 * rng.uniform(0.55, 1.45), 1)
            aqi = aqi_from_pm25(pm25)
            official_at = hour - timedelta(hours=1)
            sensors_at = self.epoch - timedelta(minutes=rng.randint(2, 15))
            satellite_at = self.epoch - timedelta(minutes=rng.randint(70, 200))
            self.official_[location_id] = OfficialReading(
                location_id=location_id,
                aqi=aqi,
                pm25_ugm3=pm25,
                as_of=stamp(official_at),
                monitor_count=rng.randint(2, 14),
                station_name=f"{city.name} {rng.choice(('Central', 'Downtown', 'North'))}",
            )
            self.sensors_[location_id] = SensorReading(
                location_id=location_id,
                aqi=aqi,
                pm25_ugm3=pm25,
                as_of=stamp(sensors_at),
                sensor_count=rng.randint(12, 240),
                humidity_corrected=True,
            )
            self.satellite_[location_id] = SatelliteReading(
                location_id=location_id,
                aqi=aqi,
                pm25_ugm3=pm25,
                as_of=stamp(satellite_at),
                grid_km=rng.choice((3, 5, 10)),
                cloud_free=rng.random() < 0.8,
            )

    def pois(self) -> None:
        rng = self.rng
        counts = [rng.randint(3, 5) for _ in self.locations_]
        numbers = rng.sample(range(10000, 100000), sum(counts))
        taken: set[str] = set()
        index = 0
        for (location_id, loc), count in zip(self.locations_.items(), counts, strict=True):
            categories = rng.sample(data.POI_CATEGORIES, count)
            for category in categories:
                name = self._poi_name(category, loc.name, taken)
                taken.add(name.casefold())
                opens, closes = rng.choice(data.POI_HOURS[category])
                closed_on = rng.choice(("monday", "tuesday")) if category == "museum" else None
                fee = 0.0
                if category in ("museum", "zoo"):
                    fee = round(rng.uniform(6, 32) * 2) / 2
                elif category == "garden":
                    fee = rng.choice((0.0, 5.0, 8.5, 12.0))
                poi_id = f"POI-{numbers[index]}"
                index += 1
                self.pois_[poi_id] = PointOfInterest(
                    poi_id=poi_id,
                    location_id=location_id,
                    name=name,
                    category=category,
                    latitude_deg=round(loc.latitude_deg + rng.uniform(-0.06, 0.06), 4),
                    longitude_deg=round(loc.longitude_deg + rng.uniform(-0.06, 0.06), 4),
                    opens_at=opens,
                    closes_at=closes,
                    closed_on=closed_on,
                    entry_fee_usd=fee,
                    rating_stars=round(rng.uniform(3.4, 4.9), 1),
                )

    def _poi_name(self, category: str, city: str, taken: set[str]) -> str:
        options = [
            pattern.format(city=city, word=word)
            for pattern in data.POI_PATTERNS[category]
            for word in data.NAME_WORDS
        ]
        options = sorted(set(options))
        self.rng.shuffle(options)
        for name in options:
            if name.casefold() not in taken and not any(
                name.casefold() in t or t in name.casefold() for t in taken
            ):
                return name
        raise RuntimeError(f"ran out of {category} names")  # pragma: no cover

    def saved_places(self) -> None:
        rng = self.rng
        cities = rng.sample(sorted(self.locations_), 6)
        labels = rng.sample(data.CITY_LABELS, len(cities))
        pois = rng.sample(sorted(self.pois_), 3)
        poi_labels = rng.sample(data.POI_LABELS, len(pois))
        rows: list[tuple[str, str, str | None, str | None]] = [
            (label, "location", city, None) for label, city in zip(labels, cities, strict=True)
        ]
        rows += [(label, "poi", None, poi) for label, poi in zip(poi_labels, pois, strict=True)]
        for number, (label, kind, location_id, poi_id) in enumerate(rows, start=1):
            saved_id = f"SP-{number:05d}"
            created = self.epoch - timedelta(days=rng.randint(3, 400), minutes=rng.randint(0, 1439))
            self.saved_[saved_id] = SavedPlace(
                saved_id=saved_id,
                label=label,
                kind=kind,
                location_id=location_id,
                poi_id=poi_id,
                note="",
                created_at=stamp(created),
            )

    def alerts(self) -> None:
        rng = self.rng
        today = self.epoch.date()
        # Two active and one paused alert watch the official AQI; the rest watch forecasts.
        statuses = ["active"] * 6 + ["paused"] * 2 + ["expired"] * 2
        metrics = ["aqi", "aqi"] + [rng.choice(FORECAST_METRICS) for _ in range(4)]
        metrics += ["aqi", rng.choice(FORECAST_METRICS), "aqi", rng.choice(FORECAST_METRICS)]
        places = rng.sample(sorted(self.locations_), len(statuses))
        rules = zip(places, statuses, metrics, strict=True)
        for number, (location_id, status, metric) in enumerate(rules, 1):
            city = self.climate_[location_id]
            comparison, threshold = _alert_rule(rng, metric, city)
            if status == "expired":
                start = today - timedelta(days=rng.randint(12, 30))
                end = start + timedelta(days=rng.randint(3, 9))
            else:
                start = today + timedelta(days=rng.randint(0, 2))
                end = start + timedelta(days=rng.randint(3, 12))
            created = datetime.combine(start, datetime.min.time(), UTC) - timedelta(
                days=rng.randint(1, 10), minutes=rng.randint(0, 1439)
            )
            alert_id = f"ALR-{number:05d}"
            self.alerts_[alert_id] = WeatherAlert(
                alert_id=alert_id,
                location_id=location_id,
                metric=metric,
                comparison=comparison,
                threshold=threshold,
                start_date=start.isoformat(),
                end_date=end.isoformat(),
                status=status,
                created_at=stamp(min(created, self.epoch - timedelta(hours=1))),
            )


def _condition(rng: random.Random, high: float, precip: float, wind: float, humidity: int) -> str:
    if precip > 0:
        if high <= 1.5:
            return "snow"
        if precip >= 15 and high >= 18:
            return "thunderstorm"
        return "rain" if precip >= 3 else "showers"
    if humidity >= 80 and wind < 10:
        return "fog"
    return rng.choices(("sunny", "partly_cloudy", "cloudy"), weights=(4, 3, 2))[0]


def _alert_rule(rng: random.Random, metric: str, city: data.City) -> tuple[str, float]:
    if metric == "temp_high_c":
        return "above", float(round(city.normal_high_c + rng.choice((2, 4, 6))))
    if metric == "temp_low_c":
        return "below", float(round(city.normal_low_c - rng.choice((1, 3, 5))))
    if metric == "precip_mm":
        return "above", float(rng.choice((5, 10, 15, 20)))
    if metric == "wind_kph":
        return "above", float(round(city.wind_kph + rng.choice((10, 15, 20))))
    return "above", float(rng.choice((100, 150)))
