"""Transportation subtopics: rail and bus schedules, fares and bookings, live delays and journeys.

Each template picks entities from the seeded world and writes the request a traveller or
a travel desk would make; the answer comes from replaying the path, never from here.
Templates read the world only to choose entities the path can serve (a second departure
that exists, delays that differ, a booking that can still be cancelled).
"""

SUBTOPIC_ORDER = (
    "rail_and_bus_schedules",
    "fares_and_bookings",
    "live_delays_and_journeys",
    "ride_hailing",
    "travel_emissions",
)
