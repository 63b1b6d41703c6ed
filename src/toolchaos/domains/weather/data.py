"""Static tables the weather world draws from: cities, place-name parts, labels, networks.

Only data lives here; every choice among these entries (and every measured value) is
made by the world's seeded generator in :mod:`toolchaos.domains.weather.world`.
"""

from __future__ import annotations

from typing import NamedTuple


class City(NamedTuple):
    """A real city with its early-March climate and a typical fine-particle level.

    ``utc_offset_hours`` is the offset in effect at the world's epoch (early March, before
    the northern clock change, during southern summer time). ``normal_high_c`` and
    ``normal_low_c`` are early-March normals, ``wet_chance`` the share of days with
    precipitation, ``wet_mm`` the mean amount on a wet day, ``wind_kph`` the mean wind and
    ``pm25_ugm3`` a typical PM2.5 concentration.
    """

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
    normal_high_c: float
    normal_low_c: float
    wet_chance: float
    wet_mm: float
    wind_kph: float
    pm25_ugm3: float


US, CA = ("US", "United States"), ("CA", "Canada")

CITIES: tuple[City, ...] = (
    City("Chicago", "IL", "Illinois", *US, 41.8781, -87.6298, 181, -6, "America/Chicago",
         2665000, 8, -1, 0.35, 5, 20, 10),
    City("Denver", "CO", "Colorado", *US, 39.7392, -104.9903, 1609, -7, "America/Denver",
         716000, 12, -3, 0.2, 4, 15, 7),
    City("Seattle", "WA", "Washington", *US, 47.6062, -122.3321, 53, -8, "America/Los_Angeles",
         755000, 12, 5, 0.6, 6, 14, 6),
    City("Phoenix", "AZ", "Arizona", *US, 33.4484, -112.074, 331, -7, "America/Phoenix",
         1650000, 26, 12, 0.08, 3, 10, 9),
    City("Miami", "FL", "Florida", *US, 25.7617, -80.1918, 2, -5, "America/New_York",
         450000, 27, 19, 0.25, 8, 16, 8),
    City("Boston", "MA", "Massachusetts", *US, 42.3601, -71.0589, 43, -5, "America/New_York",
         654000, 7, -2, 0.35, 6, 22, 7),
    City("Austin", "TX", "Texas", *US, 30.2672, -97.7431, 149, -6, "America/Chicago",
         975000, 22, 10, 0.25, 8, 15, 9),
    City("Salt Lake City", "UT", "Utah", *US, 40.7608, -111.891, 1288, -7, "America/Denver",
         200000, 12, 1, 0.3, 4, 13, 11),
    City("Anchorage", "AK", "Alaska", *US, 61.2181, -149.9003, 31, -9, "America/Anchorage",
         291000, 0, -9, 0.25, 3, 12, 5),
    City("Honolulu", "HI", "Hawaii", *US, 21.3069, -157.8583, 6, -10, "Pacific/Honolulu",
         345000, 27, 20, 0.3, 4, 18, 4),
    City("New Orleans", "LA", "Louisiana", *US, 29.9511, -90.0715, 2, -6, "America/Chicago",
         364000, 22, 12, 0.3, 12, 15, 9),
    City("Springfield", "IL", "Illinois", *US, 39.7817, -89.6501, 182, -6, "America/Chicago",
         114000, 10, 0, 0.35, 6, 20, 9),
    City("Springfield", "MO", "Missouri", *US, 37.209, -93.2923, 397, -6, "America/Chicago",
         169000, 14, 2, 0.35, 7, 18, 9),
    City("Springfield", "MA", "Massachusetts", *US, 42.1015, -72.5898, 21, -5, "America/New_York",
         155000, 7, -4, 0.35, 6, 15, 8),
    City("Portland", "OR", "Oregon", *US, 45.5152, -122.6784, 15, -8, "America/Los_Angeles",
         652000, 14, 5, 0.6, 6, 12, 6),
    City("Portland", "ME", "Maine", *US, 43.6591, -70.2568, 19, -5, "America/New_York",
         68000, 4, -6, 0.35, 6, 20, 5),
    City("Toronto", "ON", "Ontario", *CA, 43.6532, -79.3832, 76, -5, "America/Toronto",
         2794000, 3, -5, 0.35, 4, 20, 8),
    City("Vancouver", "BC", "British Columbia", *CA, 49.2827, -123.1207, 70, -8,
         "America/Vancouver", 662000, 10, 4, 0.6, 6, 12, 5),
    City("Calgary", "AB", "Alberta", *CA, 51.0447, -114.0719, 1045, -7, "America/Edmonton",
         1306000, 4, -8, 0.2, 3, 16, 6),
    City("London", "ON", "Ontario", *CA, 42.9849, -81.2453, 251, -5, "America/Toronto",
         422000, 3, -6, 0.4, 4, 20, 7),
    City("London", "ENG", "England", "GB", "United Kingdom", 51.5074, -0.1278, 11, 0,
         "Europe/London", 8982000, 11, 4, 0.45, 4, 18, 10),
    City("Paris", "IDF", "Ile-de-France", "FR", "France", 48.8566, 2.3522, 35, 1, "Europe/Paris",
         2161000, 12, 4, 0.4, 4, 16, 12),
    City("Berlin", "BE", "Berlin", "DE", "Germany", 52.52, 13.405, 34, 1, "Europe/Berlin",
         3645000, 9, 1, 0.4, 3, 16, 13),
    City("Madrid", "MD", "Community of Madrid", "ES", "Spain", 40.4168, -3.7038, 657, 1,
         "Europe/Madrid", 3223000, 16, 5, 0.25, 4, 13, 9),
    City("Rome", "LAZ", "Lazio", "IT", "Italy", 41.9028, 12.4964, 21, 1, "Europe/Rome",
         2873000, 16, 6, 0.3, 6, 12, 14),
    City("Oslo", "OS", "Oslo", "NO", "Norway", 59.9139, 10.7522, 23, 1, "Europe/Oslo",
         697000, 3, -4, 0.35, 3, 12, 8),
    City("Reykjavik", "CAP", "Capital Region", "IS", "Iceland", 64.1466, -21.9426, 15, 0,
         "Atlantic/Reykjavik", 131000, 3, -2, 0.55, 5, 28, 4),
    City("Zurich", "ZH", "Zurich", "CH", "Switzerland", 47.3769, 8.5417, 408, 1, "Europe/Zurich",
         421000, 10, 1, 0.4, 4, 10, 9),
    City("Lisbon", "LIS", "Lisbon", "PT", "Portugal", 38.7223, -9.1393, 2, 0, "Europe/Lisbon",
         545000, 17, 10, 0.35, 5, 17, 8),
    City("Vienna", "VIE", "Vienna", "AT", "Austria", 48.2082, 16.3738, 190, 1, "Europe/Vienna",
         1897000, 10, 2, 0.35, 3, 18, 14),
    City("Athens", "ATT", "Attica", "GR", "Greece", 37.9838, 23.7275, 70, 2, "Europe/Athens",
         664000, 16, 8, 0.3, 4, 15, 16),
    City("Tokyo", "TYO", "Tokyo", "JP", "Japan", 35.6762, 139.6503, 40, 9, "Asia/Tokyo",
         13960000, 13, 5, 0.35, 8, 14, 12),
    City("Mumbai", "MH", "Maharashtra", "IN", "India", 19.076, 72.8777, 14, 5.5, "Asia/Kolkata",
         12440000, 32, 22, 0.03, 2, 12, 55),
    City("Delhi", "DL", "Delhi", "IN", "India", 28.7041, 77.1025, 216, 5.5, "Asia/Kolkata",
         16790000, 28, 14, 0.08, 3, 10, 95),
    City("Kathmandu", "BAG", "Bagmati", "NP", "Nepal", 27.7172, 85.324, 1400, 5.75,
         "Asia/Kathmandu", 845000, 23, 9, 0.15, 4, 8, 60),
    City("Singapore", "SG", "Singapore", "SG", "Singapore", 1.3521, 103.8198, 15, 8,
         "Asia/Singapore", 5686000, 31, 25, 0.5, 10, 10, 18),
    City("Seoul", "SEL", "Seoul", "KR", "South Korea", 37.5665, 126.978, 38, 9, "Asia/Seoul",
         9776000, 10, 0, 0.25, 4, 12, 30),
    City("Dubai", "DU", "Dubai", "AE", "United Arab Emirates", 25.2048, 55.2708, 5, 4, "Asia/Dubai",
         3331000, 28, 18, 0.05, 4, 15, 40),
    City("Beijing", "BJ", "Beijing", "CN", "China", 39.9042, 116.4074, 44, 8, "Asia/Shanghai",
         21540000, 12, 0, 0.1, 3, 14, 50),
    City("Sydney", "NSW", "New South Wales", "AU", "Australia", -33.8688, 151.2093, 3, 11,
         "Australia/Sydney", 5312000, 25, 18, 0.4, 8, 16, 7),
    City("Auckland", "AUK", "Auckland", "NZ", "New Zealand", -36.8485, 174.7633, 26, 13,
         "Pacific/Auckland", 1657000, 23, 16, 0.35, 6, 18, 5),
    City("Nairobi", "NBO", "Nairobi", "KE", "Kenya", -1.2921, 36.8219, 1795, 3, "Africa/Nairobi",
         4397000, 26, 14, 0.3, 6, 12, 22),
    City("Cape Town", "WC", "Western Cape", "ZA", "South Africa", -33.9249, 18.4241, 15, 2,
         "Africa/Johannesburg", 4618000, 26, 16, 0.1, 3, 22, 10),
    City("Cairo", "CAI", "Cairo", "EG", "Egypt", 30.0444, 31.2357, 23, 2, "Africa/Cairo",
         9540000, 24, 13, 0.03, 2, 14, 70),
    City("Mexico City", "CMX", "Mexico City", "MX", "Mexico", 19.4326, -99.1332, 2240, -6,
         "America/Mexico_City", 9209000, 26, 10, 0.1, 3, 12, 25),
    City("Lima", "LIM", "Lima", "PE", "Peru", -12.0464, -77.0428, 154, -5, "America/Lima",
         9750000, 26, 20, 0.03, 1, 12, 28),
    City("La Paz", "LP", "La Paz", "BO", "Bolivia", -16.4897, -68.1193, 3640, -4, "America/La_Paz",
         757000, 17, 6, 0.45, 5, 12, 20),
)  # fmt: skip

CONDITIONS: tuple[str, ...] = (
    "sunny",
    "partly_cloudy",
    "cloudy",
    "fog",
    "showers",
    "rain",
    "thunderstorm",
    "snow",
)

POI_CATEGORIES: tuple[str, ...] = ("park", "museum", "garden", "viewpoint", "market", "zoo")

# Name patterns per category; "{city}" is the city name, "{word}" one of NAME_WORDS.
POI_PATTERNS: dict[str, tuple[str, ...]] = {
    "park": ("{word} Park", "{city} Riverside Park", "{word} Commons", "{word} Green"),
    "museum": (
        "{city} Museum of Art",
        "{city} History Museum",
        "{word} Science Museum",
        "Museum of {city} Life",
        "{word} Gallery of Modern Art",
    ),
    "garden": ("{city} Botanical Garden", "{word} Rose Garden", "{word} Japanese Garden"),
    "viewpoint": ("{word} Lookout", "{word} Hill Overlook", "{city} Skydeck"),
    "market": ("{word} Street Market", "{city} Central Market", "{word} Farmers Market"),
    "zoo": ("{city} Zoo", "{word} Wildlife Park"),
}

NAME_WORDS: tuple[str, ...] = (
    "Aldergrove", "Bellhaven", "Briarwood", "Cedarcrest", "Copperfield", "Driftwood",
    "Eastbrook", "Elmstead", "Fairhaven", "Foxglove", "Glenmore", "Greystone", "Hawthorne",
    "Heatherfield", "Hollowell", "Ironbridge", "Juniper", "Kingsmere", "Larkspur",
    "Linden", "Marigold", "Meadowlark", "Northgate", "Oakhurst", "Pinecrest", "Quarry",
    "Ravenwood", "Redfern", "Rosemont", "Saltmarsh", "Silverbirch", "Stonebridge",
    "Sunnyside", "Thornbury", "Tidewater", "Upland", "Valewood", "Westbury", "Willowmere",
    "Wrenfield",
)  # fmt: skip

# Opening hours (opens, closes) a place of each category may keep, local time.
POI_HOURS: dict[str, tuple[tuple[str, str], ...]] = {
    "park": (("05:00", "22:00"), ("06:00", "21:00"), ("06:30", "20:30")),
    "museum": (("09:00", "17:00"), ("09:30", "17:30"), ("10:00", "18:00"), ("10:00", "20:00")),
    "garden": (("08:00", "18:00"), ("08:30", "19:00"), ("09:00", "17:30")),
    "viewpoint": (("07:00", "23:00"), ("08:00", "22:00"), ("09:00", "21:30")),
    "market": (("07:00", "14:00"), ("08:00", "15:30"), ("06:30", "13:00")),
    "zoo": (("09:00", "17:00"), ("09:30", "16:30"), ("08:30", "18:00")),
}

WEEKDAYS: tuple[str, ...] = (
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
)

# Labels a user gives saved places: cities, then single places of interest.
CITY_LABELS: tuple[str, ...] = (
    "Home", "Work", "Mom's place", "Ski cabin", "Beach house", "Grandpa's farm",
    "Conference trip", "Sister's flat", "Lake house", "Old college town",
)  # fmt: skip
POI_LABELS: tuple[str, ...] = (
    "Morning run", "Sunday museum", "Picnic spot", "Date night view", "Kids' day out",
)  # fmt: skip

# The three independent air-quality networks and what each calls itself.
AQ_OFFICIAL = "National Air Monitoring Network (regulatory monitors)"
AQ_SENSORS = "PurpleSky community sensor network"
AQ_SATELLITE = "Orbital AOD satellite estimate"

FORECAST_PROVIDER = "MeteoCentral"
BACKUP_PROVIDER = "OpenSkies Forecast Service"
