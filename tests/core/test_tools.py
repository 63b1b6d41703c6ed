import ast
import json
from pathlib import Path
from typing import Literal

import pytest
from jsonschema import Draft202012Validator

import toolchaos
from toolchaos.core.tools import (
    Param,
    SchemaError,
    array,
    choice,
    integer,
    json_schema_for,
    make_tool,
    nullable,
    record,
    string,
    tool,
    tool_spec,
)
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


def test_a_described_schema_keeps_its_keywords_in_order() -> None:
    ticker = string("A ticker.", pattern="^[A-Z]{1,5}$")
    assert list(ticker) == ["type", "description", "pattern"]
    spec = tool_spec("quote", "A quote.", [Param.described("ticker", ticker)])
    assert json.dumps(spec.parameters["properties"]["ticker"]) == json.dumps(ticker)
    years = integer("How many years.", minimum=1, default=5)
    spec = tool_spec("history", "A history.", [Param.described("years", years, required=False)])
    assert list(spec.parameters["properties"]["years"]) == list(years)
    assert spec.parameters["required"] == []


def test_the_schema_builders_agree_with_the_annotations() -> None:
    assert string("x") == {**json_schema_for(str), "description": "x"}
    assert integer("x") == {**json_schema_for(int), "description": "x"}
    assert choice(("sea", "city"), "x") == {
        **json_schema_for(Literal["sea", "city"]),
        "description": "x",
    }
    assert choice((2, 5), "x")["type"] == "integer"
    assert array(string("x"), "y")["items"] == string("x")
    assert nullable(string("x"))["type"] == ["string", "null"]
    out = record({"a": string("x"), "b": integer("y")})
    assert out["required"] == ["a", "b"] and out["additionalProperties"] is False
    Draft202012Validator.check_schema(out)


def test_a_parameter_without_a_description_is_refused_without_a_docstring_too() -> None:
    with pytest.raises(SchemaError, match="parameter 'nights' of tool 'book' has no description"):
        tool_spec("book", "Book a room.", [Param.described("nights", {"type": "integer"})])
    with pytest.raises(SchemaError, match="tool 'book' has no description"):
        make_tool("book", " ", [], lambda world: {})


def test_tool_specs_are_built_only_by_tool_spec() -> None:
    """Every declared tool's spec comes from ``tool_spec``, so no third way creeps back.

    Specs another system wrote (the v5 release, an MCP server, a user's OpenAI schema)
    are taken verbatim through ``foreign_spec``, also in core.tools.
    """
    root = Path(toolchaos.__file__).parent
    builders: set[str] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name == "ToolSpec":
                    builders.add(path.relative_to(root).as_posix())
    assert builders == {"core/tools.py"}
