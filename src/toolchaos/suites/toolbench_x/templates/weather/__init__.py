"""Weather subtopics: forecasts and trip weather, air quality, places and distances.

Each template picks places, days and saved records from the seeded world and writes the
request a traveller or a planner would make; the answer comes from replaying the path,
never from here. Templates read the world through READ tools (``_read``) only to choose
entities that make a well-posed task (a unique warmest day, a non-zero rain total, a
flight that lands on another date), never to write the answer.
"""

SUBTOPIC_ORDER = (
    "forecasts_and_trip_weather",
    "air_quality",
    "places_and_distances",
    "time_zones_and_world_clocks",
    "severe_weather_alerts",
)
