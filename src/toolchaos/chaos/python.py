"""Plain Python tools behind a hazard plan, for hand-written agent loops.

>>> box = ChaosToolbox([get_weather], "transient", store="runs/mine")   # doctest: +SKIP
>>> episode = box.episode()                                                # doctest: +SKIP
>>> client.chat.completions.create(..., tools=episode.openai_tools())      # doctest: +SKIP
>>> observation = episode.call(call.function.name, call.function.arguments)  # doctest: +SKIP

A tool is a callable taking keyword arguments and returning JSON-able data; its schema is
read from its signature and docstring, or given as an OpenAI tool schema.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import docstring_parser
import pydantic

from toolchaos.chaos.engine import ChaosEngine, ChaosEpisode
from toolchaos.chaos.plan import HazardPlan
from toolchaos.chaos.record import RunRecorder
from toolchaos.core.errors import BadInput, ToolError
from toolchaos.core.tools import Param, SchemaError, foreign_spec, json_schema_for, tool_spec
from toolchaos.core.types import Episode, Observation, ToolSpec

ToolFunction = Callable[..., Any]


def spec_from_function(fn: ToolFunction, name: str | None = None) -> ToolSpec:
    """The spec of a plain function: its signature and Google-style docstring.

    A parameter without a description in ``Args:`` is described by its name.

    Raises:
        BadInput: A parameter has no type annotation or a type JSON Schema cannot say.
    """
    tool_name = name or fn.__name__
    doc = docstring_parser.parse(inspect.getdoc(fn) or "")
    described = {p.arg_name: (p.description or "") for p in doc.params}
    try:
        hints = typing.get_type_hints(fn)
    except (NameError, TypeError) as exc:
        raise BadInput(f"cannot read the type hints of tool {tool_name!r}: {exc}") from None
    params = []
    for pname, parameter in inspect.signature(fn).parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if pname not in hints:
            raise BadInput(f"parameter {pname!r} of tool {tool_name!r} has no type annotation")
        try:
            schema = json_schema_for(hints[pname])
        except SchemaError as exc:
            raise BadInput(f"parameter {pname!r} of tool {tool_name!r}: {exc}") from None
        has_default = parameter.default is not inspect.Parameter.empty
        if has_default and parameter.default is not None:
            schema["default"] = parameter.default
        text = described.get(pname, "").strip() or pname
        params.append(Param(pname, schema, text, required=not has_default))
    description = "\n\n".join(p for p in (doc.short_description, doc.long_description) if p)
    return tool_spec(tool_name, description or tool_name, params)


def output_schema(fn: ToolFunction) -> dict[str, Any] | None:
    """The JSON Schema of a function's result, from its return annotation (None if unsaid).

    A TypedDict, a pydantic model or a dataclass says its fields' types, so a plan's
    hazard on a field it cannot change is refused before any call.
    """
    try:
        returned = typing.get_type_hints(fn).get("return")
    except (NameError, TypeError):
        return None
    if returned is None or returned is type(None):
        return None
    try:
        schema: dict[str, Any] = pydantic.TypeAdapter(returned).json_schema()
    except (pydantic.PydanticSchemaGenerationError, pydantic.PydanticUserError, TypeError):
        return None
    return schema


def spec_from_openai(schema: Mapping[str, Any]) -> ToolSpec:
    """A spec from an OpenAI tool entry (``{"type": "function", "function": {...}}`` or bare).

    Raises:
        BadInput: The entry has no name or its parameters are not a JSON object schema.
    """
    body = schema.get("function", schema)
    name = body.get("name")
    if not isinstance(name, str) or not name:
        raise BadInput("an OpenAI tool schema has no function name")
    parameters = body.get("parameters") or {"type": "object", "properties": {}}
    if not isinstance(parameters, dict) or parameters.get("type", "object") != "object":
        raise BadInput(f"the parameters of tool {name!r} are not a JSON object schema")
    parameters.setdefault("properties", {})
    return foreign_spec(name, str(body.get("description", "")), parameters)


class ChaosToolbox:
    """Your Python tools with a hazard plan in front of them.

    Args:
        functions: The tools, as callables (named by ``__name__``) or by name.
        plan: A profile name, a plan file, a dict or a :class:`HazardPlan`.
        schemas: OpenAI tool schemas to document the tools with instead of their
            signatures (matched by name).
        seed: Overrides the plan's seed.
        store: A run directory (or recorder) every finished episode is stored in.
        target: The id the episodes are stored under (default: the plan's label).
        model: The agent's name in the store.
    """

    def __init__(
        self,
        functions: Sequence[ToolFunction] | Mapping[str, ToolFunction],
        plan: str | Path | HazardPlan | dict[str, Any] = "transient",
        *,
        schemas: Sequence[Mapping[str, Any]] = (),
        seed: int | None = None,
        store: str | Path | RunRecorder | None = None,
        target: str | None = None,
        model: str = "agent",
    ) -> None:
        named = (
            dict(functions)
            if isinstance(functions, Mapping)
            else {f.__name__: f for f in functions}
        )
        self.functions: dict[str, ToolFunction] = named
        given = {s.name: s for s in map(spec_from_openai, schemas)}
        unknown = sorted(set(given) - set(named))
        if unknown:
            raise BadInput(f"schema for tool {unknown[0]!r}, which is not among the functions")
        specs = [given.get(n) or spec_from_function(fn, n) for n, fn in named.items()]
        outputs = {n: out for n, fn in named.items() if (out := output_schema(fn))}
        recorder = RunRecorder(store) if isinstance(store, str | Path) else store
        self.engine = ChaosEngine(
            specs, plan, seed=seed, recorder=recorder, target=target, outputs=outputs
        )
        self.model = model

    def episode(self, arm: str = "hazard", *, sample: int | None = None) -> ToolboxEpisode:
        """Open one episode (``clean`` runs the same tools without the plan)."""
        return ToolboxEpisode(self, self.engine.episode(arm, model=self.model, sample=sample))


class ToolboxEpisode:
    """One episode over a :class:`ChaosToolbox`."""

    def __init__(self, box: ChaosToolbox, episode: ChaosEpisode) -> None:
        self.box = box
        self.episode = episode

    def toolbox(self) -> list[ToolSpec]:
        """The specs the agent sees (drifted in the hazard arm)."""
        return self.episode.toolbox()

    def openai_tools(self) -> list[dict[str, Any]]:
        """The specs as OpenAI ``tools`` entries."""
        return self.episode.openai_tools()

    def _run(self, tool: str, arguments: dict[str, Any]) -> Any:
        fn = self.box.functions.get(tool)
        if fn is None:
            raise ToolError(f"Unknown tool '{tool}'.", code=404, kind="unknown_tool")
        return fn(**arguments)

    async def _arun(self, tool: str, arguments: dict[str, Any]) -> Any:
        result = self._run(tool, arguments)
        if inspect.isawaitable(result):
            result = await result
        return result

    def call(
        self, name: str, arguments: str | dict[str, Any], call_id: str | None = None
    ) -> Observation:
        """Run one tool call the agent made; the observation is what to show it."""
        return self.episode.call(name, arguments, self._run, call_id)

    async def acall(
        self, name: str, arguments: str | dict[str, Any], call_id: str | None = None
    ) -> Observation:
        """:meth:`call` for async tools."""
        return await self.episode.acall(name, arguments, self._arun, call_id)

    def function(self, name: str) -> ToolFunction:
        """A stand-in for tool ``name``: returns the (altered) result or raises ToolError."""

        def run(**arguments: Any) -> Any:
            observation = self.call(name, arguments)
            if not observation.ok:
                error = observation.content["error"]
                extra = {k: v for k, v in error.items() if k not in ("code", "type", "message")}
                raise ToolError(
                    error["message"], code=error["code"], kind=error["type"], details=extra
                )
            return observation.content

        run.__name__ = name
        return run

    @property
    def hazard_events(self) -> list[Any]:
        """The hazard events so far."""
        return self.episode.hazard_events

    def finish(self, final_answer: str = "", *, passed: bool | None = None) -> Episode:
        """Close and store the episode (see :meth:`ChaosEpisode.finish`)."""
        return self.episode.finish(final_answer, passed=passed)
