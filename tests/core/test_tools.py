from typing import Literal

import pytest
from jsonschema import Draft202012Validator

from toolchaos.core.tools import SchemaError, tool
from toolchaos.core.types import ToolKind


def test_schema_is_built_from_signature_and_docstring() -> None:
    @tool(kind=ToolKind.WRITE)
    def book(world: object, room: str, nights: int, view: Literal["sea", "city"] = "city") -> dict:
        """Book a hotel room.

        Longer text that explains the booking rules.

        Args:
            room: The room code.
            nights: How many nights.
            view: Which view the room has.
        """
        return {}

    spec = book.spec
    assert spec.name == "book"
    assert spec.kind is ToolKind.WRITE
    assert spec.description.startswith("Book a hotel room.")
    assert "booking rules" in spec.description
    props = spec.parameters["properties"]
    assert props["room"] == {"type": "string", "description": "The room code."}
    assert props["nights"]["type"] == "integer"
    assert props["view"]["enum"] == ["sea", "city"]
    assert props["view"]["default"] == "city"
    assert spec.parameters["required"] == ["room", "nights"]
    assert spec.parameters["additionalProperties"] is False
    Draft202012Validator.check_schema(spec.parameters)


def test_undocumented_parameter_is_refused() -> None:
    with pytest.raises(SchemaError, match="'nights' of tool 'book' is not described"):

        @tool()
        def book(world: object, room: str, nights: int) -> dict:
            """Book a room.

            Args:
                room: The room code.
            """
            return {}


def test_untyped_parameter_is_refused() -> None:
    with pytest.raises(SchemaError, match="has no type"):

        @tool()
        def book(world: object, room) -> dict:  # type: ignore[no-untyped-def]
            """Book a room.

            Args:
                room: The room code.
            """
            return {}


def test_read_is_the_default_kind_and_optional_is_not_required() -> None:
    @tool()
    def find(world: object, name: str | None = None, tags: list[str] | None = None) -> dict:
        """Find things.

        Args:
            name: Part of the name.
            tags: Tags that must all match.
        """
        return {}

    assert find.kind is ToolKind.READ
    assert find.spec.parameters["required"] == []
    assert find.spec.parameters["properties"]["tags"]["items"] == {"type": "string"}
    assert find.spec.to_openai()["function"]["name"] == "find"
