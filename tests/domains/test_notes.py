"""The notes a domain gives the hazard layer: typed, and refused when they do not fit it."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from conftest import FIXTURE
from toolchaos.domains import (
    Domain,
    DomainNotes,
    Fallback,
    InvalidNotes,
    Resolver,
    Sources,
    UnitConversion,
    V2Tool,
    WriteVerifier,
)
from toolchaos.domains._notes import resolver, same_params, sources


def build(**sections: Any) -> Domain:
    """The fixture domain's tools under other notes."""
    return Domain(
        name="fixture",
        topic="weather",
        world_type=FIXTURE.world_type,
        tools=FIXTURE.tools,
        notes=DomainNotes(**sections),
    )


def refused(**sections: Any) -> str:
    with pytest.raises(InvalidNotes) as info:
        build(**sections)
    return str(info.value)


def test_the_fixture_notes_fit_its_tools() -> None:
    assert FIXTURE.notes.problems(FIXTURE.tools) == []
    assert build().notes == DomainNotes()  # every section is optional


@pytest.mark.parametrize(
    ("sections", "named"),
    [
        (  # a fallback that does not exist
            {"fallbacks": {"get_weather": Fallback(tool="get_weather_mirror")}},
            "fallbacks['get_weather'].tool: 'get_weather_mirror' is not a tool",
        ),
        (  # a note about a tool the domain does not have
            {"v2": {"get_climate": V2Tool(tool="get_weather_v2")}},
            "v2['get_climate']: 'get_climate' is not a tool",
        ),
        (  # a v2 parameter the v2 tool does not take
            {"v2": {"get_weather": V2Tool(tool="get_weather_v2", args_map={"place": "city"})}},
            "v2['get_weather'].args_map: 'place' is not a parameter of 'get_weather_v2'",
        ),
        (  # a fallback that is the tool itself
            {"fallbacks": {"get_weather": Fallback(tool="get_weather")}},
            "fallbacks['get_weather'].tool: names 'get_weather' itself",
        ),
        (  # a resolver for a parameter the tool does not take
            {"resolvers": {"get_weather": resolver("town", "find_city", "city_id")}},
            "resolvers['get_weather'].param: 'town' is not a parameter of 'get_weather'",
        ),
        (  # a lookup that writes
            {"resolvers": {"get_weather": resolver("city", "set_alert", "city_id", "city")}},
            "resolvers['get_weather'].tool: 'set_alert' is a write tool, not a read one",
        ),
        (  # a lookup parameter the search tool does not take
            {"resolvers": {"get_weather": resolver("city", "find_city", "city_id", "name")}},
            "resolvers['get_weather'].query_param: 'name' is not a parameter of 'find_city'",
        ),
        (  # a verifier of a read
            {
                "write_verifiers": {
                    "get_weather": WriteVerifier(tool="list_alerts", match={"city": "city"})
                }
            },
            "write_verifiers['get_weather']: 'get_weather' is a read tool, not a write one",
        ),
        (  # a verifier matching on a parameter the write does not take
            {
                "write_verifiers": {
                    "set_alert": WriteVerifier(tool="list_alerts", match={"level": "level"})
                }
            },
            "write_verifiers['set_alert'].match: 'level' is not a parameter of 'set_alert'",
        ),
        (  # a verifier's read parameter the read does not take
            {
                "write_verifiers": {
                    "set_alert": WriteVerifier(
                        tool="list_alerts", args_map={"town": "city"}, match={"city": "city"}
                    )
                }
            },
            "write_verifiers['set_alert'].args_map: 'town' is not a parameter of 'list_alerts'",
        ),
        (  # an authority outside the sources
            {
                "sources": sources(
                    same_params(["get_weather", "station_b"], "city"), ["temp_c"], "x"
                )
            },
            "sources['get_weather'].authoritative: 'x' is not one of the sources",
        ),
        (  # an alternative source that does not exist
            {
                "sources": {
                    "get_weather": Sources(
                        alternatives=("station_z",),
                        args_map={"station_z": {"city": "city"}},
                        fields=("temp_c",),
                    )
                }
            },
            "sources['get_weather'].alternatives: 'station_z' is not a tool",
        ),
        (  # an alternative without its argument map
            {
                "sources": {
                    "get_weather": Sources(
                        alternatives=("station_b", "station_c"),
                        args_map={"station_b": {"city": "city"}},
                        fields=("temp_c",),
                    )
                }
            },
            "sources['get_weather'].args_map: must map exactly the alternatives",
        ),
        (  # a source mapped to a parameter it does not take
            {
                "sources": {
                    "get_weather": Sources(
                        alternatives=("station_b",),
                        args_map={"station_b": {"location": "city"}},
                        fields=("temp_c",),
                    )
                }
            },
            "sources['get_weather'].args_map['station_b']: 'location' is not a parameter",
        ),
    ],
)
def test_a_note_that_does_not_fit_the_domain_is_refused(
    sections: dict[str, Any], named: str
) -> None:
    message = refused(**sections)
    assert message.startswith("domain 'fixture' has notes that do not fit its tools:")
    assert named in message


def test_every_problem_is_named_in_one_message() -> None:
    message = refused(
        fallbacks={"get_weather": Fallback(tool="nope")},
        resolvers={"get_forecast": resolver("town", "find_city", "city_id")},
    )
    assert "fallbacks['get_weather'].tool: 'nope'" in message
    assert "resolvers['get_forecast'].param: 'town'" in message


def test_notes_that_are_not_typed_are_refused() -> None:
    with pytest.raises(InvalidNotes, match="domain 'fixture': notes must be a DomainNotes"):
        Domain("fixture", "weather", FIXTURE.world_type, FIXTURE.tools, notes={"v2": {}})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("build_note", "field"),
    [
        (lambda: UnitConversion(to_unit="lb", factor=0), "factor"),
        (lambda: UnitConversion(to_unit="", factor=2.2), "to_unit"),
        (lambda: Fallback(tool="get_weather_backup", args_map={"city": "city"}, kind="x"), "kind"),
        (lambda: Resolver(param="city", tool="find_city", id_path=()), "id_path"),
        (lambda: WriteVerifier(tool="list_alerts", match={}), "match"),
        (lambda: Sources(alternatives=(), args_map={}, fields=("temp_c",)), "alternatives"),
    ],
)
def test_a_malformed_note_is_refused_when_written(build_note: Any, field: str) -> None:
    with pytest.raises(ValidationError) as info:
        build_note()
    assert field in str(info.value)


def test_notes_are_frozen_and_read_as_attributes() -> None:
    fallback = FIXTURE.notes.fallbacks["get_weather"]
    assert (fallback.tool, dict(fallback.args_map)) == ("get_weather_backup", {"city": "city"})
    with pytest.raises(ValidationError):
        fallback.tool = "station_b"  # type: ignore[misc]
    assert FIXTURE.notes.companions("get_weather") == {
        "get_weather_backup",
        "get_weather_v2",
        "find_city",
        "station_b",
        "station_c",
    }
    assert FIXTURE.notes.companions("set_alert") == {"list_alerts"}
    assert FIXTURE.notes.companions("get_alert") == set()
