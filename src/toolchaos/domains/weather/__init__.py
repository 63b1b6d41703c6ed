"""The weather domain (topic "location and environment"): places, forecasts, air quality.

It gives every hazard variant a real place to fit:

- ``get_forecast`` and ``get_day_forecast`` have an independent backup provider
  (``get_forecast_backup``, ``get_day_forecast_backup``) serving the same facts under the
  same keys; the official air-quality network falls back to the community sensors;
- ``get_forecast`` and ``compute_distance`` have a v2 with renamed parameters and the same
  result keys (v1 still works);
- air quality comes from three independent networks that agree in the clean world and
  stamp ``as_of``; the docs name the national network authoritative;
- every place parameter takes a name or an id, and ``search_locations`` returns the id;
- the writes that create records (``save_place``, ``create_weather_alert``) have a read
  that lists them.
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
from toolchaos.domains._notes import resolver, same_params, sources
from toolchaos.domains.weather.tools import TOOLS
from toolchaos.domains.weather.world import LocationWorld

_AQ_TOOLS = ("get_air_quality", "get_air_quality_sensors", "get_air_quality_satellite")
_AUTHORITATIVE = "get_air_quality"


def _location(param: str) -> Resolver:
    return resolver(param, "search_locations", "location_id")


_MM_TO_IN = UnitConversion(to_unit="in", factor=0.0393701)

DOMAIN = Domain(
    name="weather",
    topic="location and environment",
    world_type=LocationWorld,
    tools=tool_map(TOOLS),
    notes=DomainNotes(
        fallbacks={
            "get_forecast": Fallback(
                tool="get_forecast_backup", args_map={"location": "location", "days": "days"}
            ),
            "get_day_forecast": Fallback(
                tool="get_day_forecast_backup", args_map={"location": "location", "date": "date"}
            ),
            "get_air_quality": Fallback(
                tool="get_air_quality_sensors", args_map={"location": "location"}
            ),
        },
        v2={
            "get_forecast": V2Tool(
                tool="get_forecast_v2", args_map={"place": "location", "num_days": "days"}
            ),
            "compute_distance": V2Tool(
                tool="compute_distance_v2",
                args_map={"origin": "from_location", "destination": "to_location"},
            ),
        },
        unit_conversions={
            "precip_mm": _MM_TO_IN,
            "total_precip_mm": _MM_TO_IN,
            "wind_kph": UnitConversion(to_unit="mph", factor=0.621371),
            "distance_km": UnitConversion(to_unit="mi", factor=0.621371),
            "elevation_m": UnitConversion(to_unit="ft", factor=3.28084),
        },
        resolvers={
            **{
                name: _location("location")
                for name in (
                    "get_forecast",
                    "get_forecast_backup",
                    "get_day_forecast",
                    "get_day_forecast_backup",
                    "get_sun_times",
                    *_AQ_TOOLS,
                    "create_weather_alert",
                    "list_weather_alerts",
                )
            },
            "get_forecast_v2": _location("place"),
            "compute_distance": _location("to_location"),
            "compute_distance_v2": _location("destination"),
            "convert_time": _location("to_location"),
        },
        write_verifiers={
            "save_place": WriteVerifier(
                tool="list_saved_places",
                args_map={"label_contains": "label"},
                match={"label": "label"},
            ),
            "create_weather_alert": WriteVerifier(
                tool="list_weather_alerts",
                args_map={"location": "location"},
                match={
                    "metric": "metric",
                    "comparison": "comparison",
                    "threshold": "threshold",
                    "start_date": "start_date",
                    "end_date": "end_date",
                },
            ),
        },
        sources=sources(same_params(_AQ_TOOLS, "location"), ["aqi", "pm25_ugm3"]),
    ),
)

__all__ = ["DOMAIN", "LocationWorld"]
