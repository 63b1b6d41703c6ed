"""The weather tools: places, forecasts, sun and time, air quality, saved places and alerts.

Lookups, searches, the rain total and the record-keeping writes are declared through the
shared shapes; forecasts, air quality, distance, time conversion and the alert rules are
written by hand. Every place parameter named ``location`` (and ``from_location``,
``to_location``, ``place``, ``origin``, ``destination``) takes a location id or a place
name; a name shared by several places ("Portland") is refused until it is qualified
("Portland, ME") or replaced by the id from ``search_locations``. Refusals are
:class:`ToolError`: 404 for an unknown id or name, 409 for an ambiguous name or a record
in the wrong state, 422 for a request that breaks a rule.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any, Literal, cast

from toolchaos.core.tools import Param, Tool
from toolchaos.core.types import ToolKind
from toolchaos.core.values import ISO_DATE, is_number
from toolchaos.core.world import Row, World
from toolchaos.domains import _shapes as shapes
from toolchaos.domains._common import (
    check_choice,
    clock_arg,
    conflict,
    enum_schema,
    find_key,
    haversine_km,
    is_integer,
    listing,
    not_found,
    row_json,
    stamp,
    stored_key,
    unprocessable,
)
from toolchaos.domains._shapes import Filter, Source, phrased_tool, source_tools
from toolchaos.domains.weather import data
from toolchaos.domains.weather.world import (
    ALERT_COMPARISONS,
    ALERT_METRICS,
    FORECAST_DAYS,
    SAVED_KINDS,
    THRESHOLD_RANGES,
    Location,
    LocationWorld,
    SavedPlace,
    WeatherAlert,
    aqi_category,
    forecast_key,
    initial_bearing_deg,
    sun_times,
)

MAX_ALERT_DAYS_AHEAD = 30
MAX_LABEL_CHARS = 40
MAX_NOTE_CHARS = 200
MAX_TRAVEL_MINUTES = 72 * 60
_DAY_FIELDS = (
    "date",
    "condition",
    "temp_high_c",
    "temp_low_c",
    "precip_mm",
    "precip_chance_pct",
    "wind_kph",
    "humidity_pct",
)
PLACE_DOC = (
    "A location id (e.g. 'LOC-0042') or a place name such as 'Oslo'. A name several "
    "places share must be qualified with a region or country code, e.g. 'Portland, ME', "
    "or replaced by the location_id from search_locations."
)

_FORECAST_FIELDS_DOC = (
    "Each day has date (YYYY-MM-DD, UTC calendar day), condition (sunny, partly_cloudy, "
    "cloudy, fog, showers, rain, thunderstorm, snow), temp_high_c and temp_low_c (degrees "
    "Celsius), precip_mm (millimetres), precip_chance_pct, wind_kph (mean wind, km/h) and "
    "humidity_pct."
)


_AQ_FIELDS_DOC = (
    "aqi (US EPA Air Quality Index from PM2.5, 0-500), pm25_ugm3 (fine particles, "
    "micrograms per cubic metre), category (the EPA category of the aqi) and as_of (UTC "
    "time of the reading)"
)


_ALERT_DOC = (
    "alert_id, location_id, location_name, metric, comparison, threshold (in the metric's "
    "unit: degrees C, mm, km/h or AQI points), start_date and end_date (YYYY-MM-DD, "
    "inclusive), status (active, paused, expired), created_at, triggered_dates (forecast "
    "days in the window on which the condition holds; for an aqi alert, today if the "
    "official reading is past the threshold) and first_trigger_date (null if none)"
)


DOC_PHRASES = {
    "place": PLACE_DOC,
    "fields": _FORECAST_FIELDS_DOC,
    "horizon": str(FORECAST_DAYS),
    "aq": _AQ_FIELDS_DOC,
    "alerts": _ALERT_DOC,
}


def _weather(world: World) -> LocationWorld:
    return cast(LocationWorld, world)


_tool = phrased_tool(DOC_PHRASES)


# -- places ----------------------------------------------------------------------------------


def match_locations(world: World, query: str, exact: bool) -> list[Location]:
    """Locations whose name matches ``query``, most populous first.

    ``query`` is a name, optionally followed by comma-separated qualifiers that must each
    equal the region or country (code or name), e.g. ``"Portland, ME"`` or
    ``"London, United Kingdom"``. The name must be equal (``exact``) or contained,
    ignoring case and surrounding spaces.
    """
    name, *qualifiers = [part.strip().casefold() for part in query.split(",")]
    found = []
    for loc in _weather(world).locations.values():
        have = loc.name.casefold()
        if (have != name) if exact else (name not in have):
            continue
        codes = {loc.region, loc.region_name, loc.country, loc.country_name}
        if all(q in {c.casefold() for c in codes} for q in qualifiers if q):
            found.append(loc)
    return sorted(found, key=lambda loc: (loc.name, -loc.population, loc.location_id))


def resolve_location(world: World, value: str, param: str = "location") -> Location:
    """Return the location a name-or-id parameter names, or raise 404/409/422.

    Args:
        world: The weather world.
        value: A location id (any case) or a place name, optionally qualified.
        param: The parameter name, for error messages.
    """
    locations = _weather(world).locations
    if not value.strip():
        raise unprocessable(f"{param} must not be empty")
    key = find_key(locations, value)
    if key is not None:
        return locations[key]
    matches = match_locations(world, value, exact=True)
    if not matches:
        raise not_found("Location", value)
    if len(matches) > 1:
        names = "; ".join(f"{m.name}, {m.region}, {m.country}" for m in matches)
        raise conflict(
            f"Location name '{value}' is ambiguous ({len(matches)} places: {names}). "
            "Qualify it with the region or country, or pass a location_id from "
            "search_locations.",
            candidates=[m.location_id for m in matches],
        )
    return matches[0]


def _iso_day(value: str, param: str) -> date:
    if ISO_DATE.fullmatch(value.strip()) is None:
        raise unprocessable(f"{param} must be a date written YYYY-MM-DD, got '{value}'")
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise unprocessable(f"{param} '{value}' is not a valid calendar date") from None


@_tool()
def search_locations(
    world: LocationWorld, query: str, country: str | None = None
) -> dict[str, Any]:
    """Search places by name; use it to find the location_id other tools accept.

    Matches every place whose name contains the query (case-insensitive). The query may
    add comma-separated qualifiers that must equal the region or country, code or name
    ('Portland, ME', 'Springfield, Missouri', 'London, GB'). Each result has location_id,
    name, region and region_name, country and country_name, latitude_deg and
    longitude_deg (degrees), elevation_m (metres above sea level), utc_offset_hours (the
    UTC offset in effect now), timezone and population. Results are sorted by name, the
    most populous first among places of the same name, in 'results', with 'count'
    (returned) and 'total' (matching); up to 20 are returned.

    Args:
        world: The weather service (not shown to the agent).
        query: Part of a place name, optionally qualified, e.g. 'Springfield, IL'.
        country: Only places in this country (ISO code such as 'US', or the country name).
    """
    if not query.strip():
        raise unprocessable("query must not be empty")
    rows = match_locations(world, query, exact=False)
    if country is not None:
        wanted = country.strip().casefold()
        rows = [r for r in rows if wanted in (r.country.casefold(), r.country_name.casefold())]
    return listing(rows, 20, row_json)


get_location = shapes.lookup(
    "get_location",
    "locations",
    "location_id",
    "Location",
    "Get one place by its location_id: name, region and region_name, country and "
    "country_name, latitude_deg and longitude_deg (degrees), elevation_m (metres above sea "
    "level), utc_offset_hours (the UTC offset in effect now), timezone and population.",
    "The location id, e.g. 'LOC-0042' (from search_locations).",
)


# -- forecasts ------------------------------------------------------------------------------


def _days_param(days: int) -> int:
    if not is_integer(days) or not 1 <= days <= FORECAST_DAYS:
        raise unprocessable(f"days must be an integer from 1 to {FORECAST_DAYS}")
    return days


def _forecast(world: World, loc: Location, days: int, table: str) -> list[dict[str, Any]]:
    rows = world.table(table)
    out = []
    for day in _weather(world).forecast_dates()[:days]:
        row = rows[forecast_key(loc.location_id, day)]
        out.append({name: getattr(row, name) for name in _DAY_FIELDS})
    return out


def _place_head(loc: Location) -> dict[str, Any]:
    return {
        "location_id": loc.location_id,
        "name": loc.name,
        "region": loc.region,
        "country": loc.country,
        "timezone": loc.timezone,
    }


def _primary_forecast(world: LocationWorld, location: str, days: int, param: str) -> dict[str, Any]:
    loc = resolve_location(world, location, param)
    return {
        **_place_head(loc),
        "provider": data.FORECAST_PROVIDER,
        "issued_at": stamp(world.now().replace(minute=0, second=0, microsecond=0)),
        "days": _forecast(world, loc, _days_param(days), "forecasts"),
    }


@_tool()
def get_forecast(world: LocationWorld, location: str, days: int = 3) -> dict[str, Any]:
    """Daily forecast from MeteoCentral for the coming days, starting today.

    Returns location_id, name, region, country, timezone, provider, issued_at and 'days',
    a list ordered by date. {fields} Forecasts reach {horizon} days ahead. If this service
    is unavailable, get_forecast_backup serves the same forecast facts under the same keys
    from an independent provider. get_forecast_v2 is the newer version of this endpoint;
    this one still works.

    Args:
        world: The weather service (not shown to the agent).
        location: {place}
        days: How many days to return, from 1 to 7 (default 3: today and the next two).
    """
    return _primary_forecast(world, location, days, "location")


@_tool(name="get_forecast_v2")
def get_forecast_v2(world: LocationWorld, place: str, num_days: int = 3) -> dict[str, Any]:
    """Version 2 of get_forecast: the same daily forecast with renamed parameters.

    Takes place (was location) and num_days (was days); returns exactly the keys
    get_forecast returns: location_id, name, region, country, timezone, provider,
    issued_at and 'days', ordered by date. {fields}

    Args:
        world: The weather service (not shown to the agent).
        place: {place}
        num_days: How many days to return, from 1 to 7 (default 3).
    """
    return _primary_forecast(world, place, num_days, "place")


@_tool()
def get_forecast_backup(world: LocationWorld, location: str, days: int = 3) -> dict[str, Any]:
    """Daily forecast from OpenSkies, an independent backup forecast provider.

    A second source for get_forecast with the same keys: location_id, name, region,
    country, timezone, provider and 'days' ordered by date, plus its own model_run and
    grid_cell. {fields}

    Args:
        world: The weather service (not shown to the agent).
        location: {place}
        days: How many days to return, from 1 to 7 (default 3).
    """
    loc = resolve_location(world, location)
    days_out = _forecast(world, loc, _days_param(days), "backup_forecasts")
    first = world.backup_forecasts[forecast_key(loc.location_id, days_out[0]["date"])]
    return {
        **_place_head(loc),
        "provider": data.BACKUP_PROVIDER,
        "model_run": first.model_run,
        "grid_cell": first.grid_cell,
        "days": days_out,
    }


def _one_day(world: LocationWorld, location: str, day: str, table: str) -> dict[str, Any]:
    loc = resolve_location(world, location)
    wanted = _iso_day(day, "date").isoformat()
    dates = world.forecast_dates()
    if wanted not in dates:
        raise unprocessable(f"no forecast for {wanted}: forecasts cover {dates[0]} to {dates[-1]}")
    row = world.table(table)[forecast_key(loc.location_id, wanted)]
    return {
        "location_id": loc.location_id,
        "name": loc.name,
        "region": loc.region,
        "country": loc.country,
        **{name: getattr(row, name) for name in _DAY_FIELDS},
    }


@_tool()
def get_day_forecast(world: LocationWorld, location: str, date: str) -> dict[str, Any]:
    """The MeteoCentral forecast for one place on one day within the next 7 days.

    Returns location_id, name, region, country, date, condition, temp_high_c and
    temp_low_c (degrees Celsius), precip_mm (millimetres), precip_chance_pct, wind_kph
    (km/h) and humidity_pct. If this service is unavailable, get_day_forecast_backup
    returns the same facts under the same keys from an independent provider.

    Args:
        world: The weather service (not shown to the agent).
        location: {place}
        date: The day, YYYY-MM-DD (UTC calendar day), from today up to 6 days ahead.
    """
    return {**_one_day(world, location, date, "forecasts"), "provider": data.FORECAST_PROVIDER}


@_tool()
def get_day_forecast_backup(world: LocationWorld, location: str, date: str) -> dict[str, Any]:
    """The OpenSkies backup provider's forecast for one place on one day.

    A second source for get_day_forecast with the same keys: location_id, name, region,
    country, date, condition, temp_high_c and temp_low_c (degrees Celsius), precip_mm
    (millimetres), precip_chance_pct, wind_kph (km/h) and humidity_pct.

    Args:
        world: The weather service (not shown to the agent).
        location: {place}
        date: The day, YYYY-MM-DD (UTC calendar day), from today up to 6 days ahead.
    """
    return {**_one_day(world, location, date, "backup_forecasts"), "provider": data.BACKUP_PROVIDER}


precipitation_total = shapes.aggregate(
    "precipitation_total",
    "forecasts",
    "Total forecast precipitation for one place over a range of days (inclusive), in "
    "millimetres. Without dates it sums all 7 forecast days. Returns total_precip_mm and "
    "matched (the number of forecast days summed); 404 if no forecast day matches.",
    "precip_mm",
    "sum",
    [
        Filter(
            "location_id",
            "location_id",
            "The location id, e.g. 'LOC-0042' (from search_locations).",
            required=True,
        ),
        Filter("from_date", "date", "First day to include, YYYY-MM-DD.", op="min"),
        Filter("to_date", "date", "Last day to include, YYYY-MM-DD.", op="max"),
    ],
    "total_precip_mm",
)


@_tool()
def get_sun_times(world: LocationWorld, location: str, date: str) -> dict[str, Any]:
    """Sunrise and sunset for a place on a day, in the place's local time.

    Returns location_id, name, date, sunrise_local and sunset_local (HH:MM, 24-hour,
    local time at the place; null during polar day or night), daylight_hours and
    utc_offset_hours.

    Args:
        world: The weather service (not shown to the agent).
        location: {place}
        date: The day, YYYY-MM-DD.
    """
    loc = resolve_location(world, location)
    day = _iso_day(date, "date")
    sunrise, sunset, hours = sun_times(
        loc.latitude_deg, loc.longitude_deg, day, loc.utc_offset_hours
    )
    return {
        "location_id": loc.location_id,
        "name": loc.name,
        "date": day.isoformat(),
        "sunrise_local": sunrise,
        "sunset_local": sunset,
        "daylight_hours": hours,
        "utc_offset_hours": loc.utc_offset_hours,
    }


# -- air quality ----------------------------------------------------------------------------


def _reading(world: LocationWorld, source: Source, location: str) -> dict[str, Any]:
    loc = resolve_location(world, location)
    row = world.table(source.table).get(loc.location_id)
    if row is None:  # pragma: no cover - every location has a reading of each network
        raise not_found("Air quality reading", location)
    fields = row.model_dump(mode="json")
    return {
        "location_id": loc.location_id,
        "name": loc.name,
        **{k: v for k, v in fields.items() if k != "location_id"},
        "category": aqi_category(fields["aqi"]),
        "source": source.name,
    }


_AQ_TOOLS = source_tools(
    _reading,
    """
    Args:
        world: The weather service (not shown to the agent).
        location: {place}
    """,
    Source(
        "get_air_quality",
        "aq_official",
        data.AQ_OFFICIAL,
        """Current air quality from the national regulatory monitoring network.

        This network is the authoritative reference: when air-quality sources disagree, its
        reading prevails. Returns location_id, name, {aq}, plus source, monitor_count and
        station_name. The community sensors (get_air_quality_sensors) and the satellite
        estimate (get_air_quality_satellite) report the same fields independently.
        """,
    ),
    Source(
        "get_air_quality_sensors",
        "aq_sensors",
        data.AQ_SENSORS,
        """Current air quality from the PurpleSky community network of low-cost sensors.

        Returns location_id, name, {aq}, plus source, sensor_count and humidity_corrected.
        Updated every few minutes but not a regulatory reference: the national network
        (get_air_quality) is authoritative where they disagree.
        """,
    ),
    Source(
        "get_air_quality_satellite",
        "aq_satellite",
        data.AQ_SATELLITE,
        """Current air quality estimated from satellite aerosol measurements.

        Returns location_id, name, {aq}, plus source, grid_km (size of the estimate's grid
        cell) and cloud_free. An independent estimate, refreshed at each overpass; the
        national network (get_air_quality) is authoritative where they disagree.
        """,
    ),
    declare=_tool,
)


# -- points of interest, distance, time -----------------------------------------------------

list_points_of_interest = shapes.search(
    "list_points_of_interest",
    "pois",
    "List points of interest (parks, museums, gardens, viewpoints, markets, zoos). Every "
    "filter given must match. Each has poi_id, location_id, name, category, latitude_deg "
    "and longitude_deg, opens_at and closes_at (HH:MM, local time), closed_on (a weekday "
    "it is closed, or null), entry_fee_usd (US dollars, 0 when free) and rating_stars "
    "(out of 5). Sorted by name; up to 50 in 'results', with 'count' and 'total'.",
    [
        Filter(
            "location_id",
            "location_id",
            "Only places in this location id, e.g. 'LOC-0042' (from search_locations).",
        ),
        Filter(
            "category",
            "category",
            "Only places of this category.",
            schema=enum_schema(data.POI_CATEGORIES),
        ),
        Filter(
            "name_contains", "name", "Part of the place's name (case-insensitive).", op="contains"
        ),
    ],
    sort_by="name",
    limit=50,
)

get_point_of_interest = shapes.lookup(
    "get_point_of_interest",
    "pois",
    "poi_id",
    "Point of interest",
    "Get one point of interest: location_id (the city it is in), name, category, "
    "latitude_deg and longitude_deg, opens_at and closes_at (HH:MM, local time), "
    "closed_on, entry_fee_usd (US dollars) and rating_stars (out of 5).",
    "The point of interest id, e.g. 'POI-00042'.",
)


def _distance(world: World, start: str, end: str, names: tuple[str, str]) -> dict[str, Any]:
    a = resolve_location(world, start, names[0])
    b = resolve_location(world, end, names[1])
    if a.location_id == b.location_id:
        raise unprocessable(f"{names[0]} and {names[1]} are the same place ({a.location_id})")
    coords = (a.latitude_deg, a.longitude_deg, b.latitude_deg, b.longitude_deg)
    return {
        "from_location_id": a.location_id,
        "from_name": a.name,
        "to_location_id": b.location_id,
        "to_name": b.name,
        "distance_km": round(haversine_km(*coords), 1),
        "initial_bearing_deg": round(initial_bearing_deg(*coords), 1),
    }


@_tool()
def compute_distance(world: LocationWorld, from_location: str, to_location: str) -> dict[str, Any]:
    """Great-circle ("as the crow flies") distance between two places.

    Returns from_location_id, from_name, to_location_id, to_name, distance_km
    (kilometres, haversine over the mean Earth radius, one decimal) and
    initial_bearing_deg (compass bearing from the first place, degrees). 422 if both are
    the same place. compute_distance_v2 is the newer version; this one still works.

    Args:
        world: The weather service (not shown to the agent).
        from_location: The starting place. {place}
        to_location: The other place. {place}
    """
    return _distance(world, from_location, to_location, ("from_location", "to_location"))


@_tool(name="compute_distance_v2")
def compute_distance_v2(world: LocationWorld, origin: str, destination: str) -> dict[str, Any]:
    """Version 2 of compute_distance: same results, parameters renamed.

    Takes origin (was from_location) and destination (was to_location); returns the keys
    compute_distance returns: from_location_id, from_name, to_location_id, to_name,
    distance_km (kilometres) and initial_bearing_deg.

    Args:
        world: The weather service (not shown to the agent).
        origin: The starting place. {place}
        destination: The other place. {place}
    """
    return _distance(world, origin, destination, ("origin", "destination"))


@_tool()
def convert_time(
    world: LocationWorld,
    time: str,
    date: str,
    from_location: str,
    to_location: str,
    add_minutes: int = 0,
) -> dict[str, Any]:
    """Convert a local time at one place to local time at another, optionally after a trip.

    Uses each place's current UTC offset. add_minutes is added first (e.g. a flight's
    duration), so the result answers "what time is it there when I arrive". Returns
    from_location_id, from_name, from_local (YYYY-MM-DDTHH:MM), to_location_id, to_name,
    local_date (YYYY-MM-DD) and local_time (HH:MM) at the destination, utc (the same
    instant in UTC) and offset_difference_hours (destination minus origin).

    Args:
        world: The weather service (not shown to the agent).
        time: Local time at from_location, 24-hour HH:MM.
        date: Local date at from_location, YYYY-MM-DD.
        from_location: Where the time is given. {place}
        to_location: Where to express it. {place}
        add_minutes: Minutes to add before converting, 0 to 4320 (default 0).
    """
    start = resolve_location(world, from_location, "from_location")
    end = resolve_location(world, to_location, "to_location")
    day = _iso_day(date, "date")
    minutes = clock_arg(time, "time")
    if isinstance(add_minutes, bool) or not 0 <= add_minutes <= MAX_TRAVEL_MINUTES:
        raise unprocessable(f"add_minutes must be from 0 to {MAX_TRAVEL_MINUTES}")
    origin_tz = timezone(timedelta(hours=start.utc_offset_hours))
    local = datetime(day.year, day.month, day.day, tzinfo=origin_tz) + timedelta(minutes=minutes)
    arrival = (local + timedelta(minutes=add_minutes)).astimezone(
        timezone(timedelta(hours=end.utc_offset_hours))
    )
    return {
        "from_location_id": start.location_id,
        "from_name": start.name,
        "from_local": local.strftime("%Y-%m-%dT%H:%M"),
        "to_location_id": end.location_id,
        "to_name": end.name,
        "local_date": arrival.date().isoformat(),
        "local_time": arrival.strftime("%H:%M"),
        "utc": arrival.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ"),
        "offset_difference_hours": end.utc_offset_hours - start.utc_offset_hours,
    }


# -- saved places -----------------------------------------------------------------------------


def _saved_view(world: World, row: Row) -> dict[str, Any]:
    saved = cast(SavedPlace, row)
    w = _weather(world)
    out: dict[str, Any] = saved.model_dump(mode="json")
    if saved.poi_id is not None and saved.poi_id in w.pois:
        out["place_name"] = w.pois[saved.poi_id].name
    elif saved.location_id is not None and saved.location_id in w.locations:
        out["place_name"] = w.locations[saved.location_id].name
    else:  # pragma: no cover - saved places always point at a real place
        out["place_name"] = None
    return out


list_saved_places = shapes.search(
    "list_saved_places",
    "saved_places",
    "List the user's saved places, sorted by label. Every filter given must match. Each has "
    "saved_id, label, kind ('location' for a whole city, with its location_id; 'poi' for "
    "one point of interest, with its poi_id), place_name, note and created_at (UTC). Up to "
    "50 in 'results', with 'count' and 'total'.",
    [
        Filter("label_contains", "label", "Part of the label (case-insensitive).", op="contains"),
        Filter("kind", "kind", "Only saved places of this kind.", schema=enum_schema(SAVED_KINDS)),
    ],
    view=_saved_view,
    sort_by="label",
    limit=50,
)


def _build_saved_place(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _weather(world)
    label = str(args["label"]).strip()
    location, poi_id = args.get("location"), args.get("poi_id")
    note = str(args.get("note") or "").strip()
    if (location is None) == (poi_id is None):
        raise unprocessable("give exactly one of location or poi_id")
    if not label:
        raise unprocessable("label must not be empty")
    if len(label) > MAX_LABEL_CHARS:
        raise unprocessable(f"label must be at most {MAX_LABEL_CHARS} characters")
    if len(note) > MAX_NOTE_CHARS:
        raise unprocessable(f"note must be at most {MAX_NOTE_CHARS} characters")
    location_id: str | None = None
    if location is not None:
        location_id = resolve_location(w, str(location)).location_id
    else:
        poi_id = stored_key(w.pois, str(poi_id), "Point of interest")
    for saved in w.saved_places.values():
        if saved.label.casefold() == label.casefold():
            raise conflict(f"A saved place is already labelled '{saved.label}' ({saved.saved_id})")
        if (location_id is not None and saved.location_id == location_id) or (
            poi_id is not None and saved.poi_id == poi_id
        ):
            raise conflict(
                f"This place is already saved as '{saved.label}' ({saved.saved_id})",
                saved_id=saved.saved_id,
            )
    saved_id = w.next_id("SP")
    row = SavedPlace(
        saved_id=saved_id,
        label=label,
        kind="location" if location_id is not None else "poi",
        location_id=location_id,
        poi_id=poi_id,
        note=note,
        created_at=stamp(w.now()),
    )
    return saved_id, row


save_place = shapes.create(
    "save_place",
    "saved_places",
    "Save a city or a point of interest under a label. Give exactly one of location or "
    f"poi_id. Labels are unique (case-insensitive, at most {MAX_LABEL_CHARS} characters) "
    "and a place can be saved only once (409 otherwise). Returns the saved place "
    "(saved_id, label, kind, location_id, poi_id, place_name, note, created_at).",
    [
        Param("label", {"type": "string"}, "The label, e.g. 'Ski cabin'."),
        Param(
            "location",
            {"type": "string"},
            f"The city to save. {PLACE_DOC}",
            required=False,
        ),
        Param(
            "poi_id",
            {"type": "string"},
            "The point of interest to save instead, e.g. 'POI-00042'.",
            required=False,
        ),
        Param(
            "note",
            {"type": "string"},
            f"A free-text note, at most {MAX_NOTE_CHARS} characters (default empty).",
            required=False,
        ),
    ],
    _build_saved_place,
    view=_saved_view,
)


# -- weather alerts -----------------------------------------------------------------------------


def triggered_dates(world: World, alert: WeatherAlert) -> list[str]:
    """The days in an active alert's window on which its condition holds.

    Forecast metrics are checked against the primary forecast (strictly above or below the
    threshold); an ``aqi`` alert is checked against the official network's current
    reading, for today only.
    """
    w = _weather(world)
    if alert.status != "active":
        return []

    def holds(value: float) -> bool:
        if alert.comparison == "above":
            return value > alert.threshold
        return value < alert.threshold

    days = [d for d in w.forecast_dates() if alert.start_date <= d <= alert.end_date]
    if alert.metric == "aqi":
        today = w.today().isoformat()
        reading = w.aq_official.get(alert.location_id)
        ok = reading is not None and today in days and holds(reading.aqi)
        return [today] if ok else []
    return [
        d
        for d in days
        if holds(getattr(w.forecasts[forecast_key(alert.location_id, d)], alert.metric))
    ]


def _alert_view(world: World, row: Row) -> dict[str, Any]:
    alert = cast(WeatherAlert, row)
    loc = _weather(world).locations.get(alert.location_id)
    out: dict[str, Any] = alert.model_dump(mode="json")
    fired = triggered_dates(world, alert)
    out["location_name"] = loc.name if loc is not None else None
    out["triggered_dates"] = fired
    out["first_trigger_date"] = fired[0] if fired else None
    return out


@_tool()
def list_weather_alerts(
    world: LocationWorld,
    location: str | None = None,
    status: Literal["active", "paused", "expired"] | None = None,
    metric: Literal["temp_high_c", "temp_low_c", "precip_mm", "wind_kph", "aqi"] | None = None,
) -> dict[str, Any]:
    """List the user's weather alerts, sorted by alert_id. Every filter given must match.

    Each alert has {alerts}. Up to 50 in 'results', with 'count' and 'total'.

    Args:
        world: The weather service (not shown to the agent).
        location: Only alerts for this place. {place}
        status: Only alerts in this status.
        metric: Only alerts watching this metric.
    """
    rows = sorted(world.alerts.values(), key=lambda a: a.alert_id)
    if location is not None:
        loc = resolve_location(world, location)
        rows = [a for a in rows if a.location_id == loc.location_id]
    if status is not None:
        rows = [a for a in rows if a.status == status]
    if metric is not None:
        rows = [a for a in rows if a.metric == metric]
    return listing(rows, 50, lambda a: _alert_view(world, a))


get_weather_alert = shapes.lookup(
    "get_weather_alert",
    "alerts",
    "alert_id",
    "Alert",
    f"Get one weather alert: {_ALERT_DOC}.",
    "The alert id, e.g. 'ALR-00042'.",
    view=_alert_view,
)


def _threshold(metric: str, value: Any) -> float:
    if not is_number(value):
        raise unprocessable("threshold must be a number")
    low, high = THRESHOLD_RANGES[metric]
    if not low <= value <= high:
        raise unprocessable(f"threshold for {metric} must be from {low:g} to {high:g}")
    return float(value)


def _window(world: LocationWorld, start: date, end: date) -> None:
    today = world.today()
    if start < today:
        raise unprocessable(f"start_date {start.isoformat()} is in the past")
    if end < start:
        raise unprocessable("end_date must not be before start_date")
    if end > today + timedelta(days=MAX_ALERT_DAYS_AHEAD):
        raise unprocessable(f"alerts can end at most {MAX_ALERT_DAYS_AHEAD} days from today")


def _build_alert(world: World, args: dict[str, Any]) -> tuple[str, Row]:
    w = _weather(world)
    loc = resolve_location(w, str(args["location"]))
    metric, comparison = args["metric"], args["comparison"]
    check_choice("metric", metric, ALERT_METRICS)
    check_choice("comparison", comparison, ALERT_COMPARISONS)
    threshold = _threshold(metric, args["threshold"])
    start = _iso_day(str(args["start_date"]), "start_date")
    end = _iso_day(str(args["end_date"]), "end_date")
    _window(w, start, end)
    for other in w.alerts.values():
        if (
            other.status == "active"
            and other.location_id == loc.location_id
            and (other.metric, other.comparison) == (metric, comparison)
            and other.start_date <= end.isoformat()
            and start.isoformat() <= other.end_date
        ):
            raise conflict(
                f"Alert {other.alert_id} already watches {metric} {comparison} a threshold "
                f"at {loc.name} on overlapping dates; update it instead",
                alert_id=other.alert_id,
            )
    alert_id = w.next_id("ALR")
    row = WeatherAlert(
        alert_id=alert_id,
        location_id=loc.location_id,
        metric=metric,
        comparison=comparison,
        threshold=threshold,
        start_date=start.isoformat(),
        end_date=end.isoformat(),
        status="active",
        created_at=stamp(w.now()),
    )
    return alert_id, row


create_weather_alert = shapes.create(
    "create_weather_alert",
    "alerts",
    "Subscribe to an alert when a forecast metric (temp_high_c, temp_low_c, precip_mm, "
    "wind_kph) or the official aqi goes strictly above or below a threshold on any day "
    "from start_date to end_date (inclusive). start_date must not be in the past and "
    f"end_date at most {MAX_ALERT_DAYS_AHEAD} days ahead. Refused (409) if an active alert "
    "already watches the same metric and comparison at that place on overlapping dates. "
    f"Returns the new alert: {_ALERT_DOC}.",
    [
        Param("location", {"type": "string"}, f"The place to watch. {PLACE_DOC}"),
        Param("metric", enum_schema(ALERT_METRICS), "What to watch."),
        Param(
            "comparison", enum_schema(ALERT_COMPARISONS), "Alert when the metric is above or below."
        ),
        Param(
            "threshold",
            {"type": "number"},
            "The threshold in the metric's unit (degrees C, mm, km/h or AQI points).",
        ),
        Param("start_date", {"type": "string"}, "First day to watch, YYYY-MM-DD."),
        Param("end_date", {"type": "string"}, "Last day to watch, YYYY-MM-DD (inclusive)."),
    ],
    _build_alert,
    view=_alert_view,
)


def _alert_changes(world: World, row: Row, args: dict[str, Any]) -> dict[str, Any]:
    w = _weather(world)
    alert = cast(WeatherAlert, row)
    if alert.status == "expired":
        raise conflict(
            f"Alert {alert.alert_id} expired on {alert.end_date} and can no longer be changed"
        )
    changes: dict[str, Any] = {}
    if args.get("threshold") is not None:
        changes["threshold"] = _threshold(alert.metric, args["threshold"])
    if args.get("end_date") is not None:
        end = _iso_day(str(args["end_date"]), "end_date")
        start = max(date.fromisoformat(alert.start_date), w.today())
        _window(w, start, end)
        if end.isoformat() < alert.start_date:
            raise unprocessable("end_date must not be before start_date")
        changes["end_date"] = end.isoformat()
    if args.get("status") is not None:
        if args["status"] not in ("active", "paused"):
            raise unprocessable("status must be 'active' or 'paused'")
        changes["status"] = args["status"]
    if not changes:
        raise unprocessable("nothing to change: give threshold, end_date or status")
    return changes


update_weather_alert = shapes.update(
    "update_weather_alert",
    "alerts",
    "alert_id",
    "Alert",
    "Change an alert's threshold or end_date, or pause or resume it. Give at least one "
    "change. Refused (409) for an expired alert. Returns the updated alert.",
    "The alert id, e.g. 'ALR-00042'.",
    [
        Param(
            "threshold",
            {"type": "number"},
            "New threshold in the metric's unit.",
            required=False,
        ),
        Param(
            "end_date",
            {"type": "string"},
            f"New last day, YYYY-MM-DD (at most {MAX_ALERT_DAYS_AHEAD} days ahead).",
            required=False,
        ),
        Param(
            "status",
            enum_schema(("active", "paused")),
            "Pause the alert or make it active again.",
            required=False,
        ),
    ],
    _alert_changes,
    view=_alert_view,
)


@_tool(ToolKind.WRITE)
def delete_weather_alert(world: LocationWorld, alert_id: str) -> dict[str, Any]:
    """Delete a weather alert for good. Returns the alert_id and deleted: true.

    Args:
        world: The weather service (not shown to the agent).
        alert_id: The alert id, e.g. 'ALR-00042'.
    """
    key = stored_key(world.alerts, alert_id, "Alert")
    world.delete("alerts", key)
    return {"alert_id": key, "deleted": True}


TOOLS: list[Tool] = [
    search_locations,
    get_location,
    get_forecast,
    get_forecast_v2,
    get_forecast_backup,
    get_day_forecast,
    get_day_forecast_backup,
    precipitation_total,
    get_sun_times,
    *_AQ_TOOLS,
    list_points_of_interest,
    get_point_of_interest,
    compute_distance,
    compute_distance_v2,
    convert_time,
    list_saved_places,
    list_weather_alerts,
    get_weather_alert,
    save_place,
    create_weather_alert,
    update_weather_alert,
    delete_weather_alert,
]
