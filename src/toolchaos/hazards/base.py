"""The hazard interface every family implements, and the registry of variants.

A hazard sits between the agent and the tools (the transition kernel Ph). It may rewrite
what the agent sees of the toolbox, reject or alter a call before it runs, or alter the
result after it ran. It fires by call ordinal of its target tool, never by time or chance,
and all of its state lives in the per-episode :class:`HazardContext`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from toolchaos.core.errors import BadInput
from toolchaos.core.types import HazardEvent, HazardFamily, HazardSpec, ToolSpec


@dataclass
class HazardContext:
    """Per-episode hazard state: what fired, and any scratch values a variant keeps."""

    events: list[HazardEvent] = field(default_factory=list)
    scratch: dict[str, Any] = field(default_factory=dict)


@dataclass
class PendingCall:
    """A validated call about to run: the variant may change its tool or arguments."""

    tool: str
    arguments: dict[str, Any]
    ordinal: int


class Hazard:
    """Base class of a hazard variant. Override only the hooks the variant needs.

    Args:
        spec: The task's hazard spec (family, variant, target tool, ordinals, params).
    """

    family: ClassVar[HazardFamily]
    variant: ClassVar[str]
    summary: ClassVar[str] = ""

    def __init__(self, spec: HazardSpec) -> None:
        self.spec = spec

    def fires(self, tool: str, ordinal: int) -> bool:
        """Return whether the hazard hits call number ``ordinal`` (1-based) of ``tool``."""
        if tool != self.spec.tool:
            return False
        return self.spec.ordinals == "all" or ordinal in self.spec.ordinals

    def log(self, ctx: HazardContext, tool: str, ordinal: int, detail: str) -> HazardEvent:
        """Record one firing in the episode's hazard context and return the event."""
        event = HazardEvent(
            family=self.family, variant=self.variant, tool=tool, ordinal=ordinal, detail=detail
        )
        ctx.events.append(event)
        return event

    def visible_specs(self, specs: list[ToolSpec]) -> list[ToolSpec]:
        """Return the toolbox as the agent sees it (the documentation)."""
        return specs

    def backend_spec(self, spec: ToolSpec) -> ToolSpec:
        """Return the schema the backend really validates against (drift changes it)."""
        return spec

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Look at a call before schema validation; raise ToolError to reject it.

        ``call.ordinal`` is the ordinal the call takes if it reaches the service; a
        rejection here counts as reaching it.
        """

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Inspect a validated call before it runs; raise ToolError to reject it, or edit it."""

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Return the result the agent sees (output drift alters it; may raise ToolError)."""
        return result


VARIANTS: dict[tuple[HazardFamily, str], type[Hazard]] = {}


def register(cls: type[Hazard]) -> type[Hazard]:
    """Class decorator: register a hazard variant under (family, variant)."""
    VARIANTS[(cls.family, cls.variant)] = cls
    return cls


def build_hazard(spec: HazardSpec) -> Hazard:
    """Instantiate the registered variant that ``spec`` names."""
    cls = VARIANTS.get((spec.family, spec.variant))
    if cls is None:
        known = ", ".join(f"{f.value}/{v}" for f, v in sorted(VARIANTS))
        raise BadInput(f"unknown hazard variant {spec.family.value}/{spec.variant}; known: {known}")
    return cls(spec)


def transform_keys(
    value: Any, fn: Callable[[str, Any], tuple[str, Any] | None], drop: str | None = None
) -> Any:
    """Walk a JSON value and let ``fn(key, value)`` rewrite each dict entry.

    ``fn`` returns the new ``(key, value)`` or ``None`` to keep the entry as it is; an entry
    renamed to ``drop`` is removed.
    """
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            v = transform_keys(v, fn, drop)
            change = fn(k, v)
            if change is None:
                out[k] = v
            elif change[0] != drop:
                out[change[0]] = change[1]
        return out
    if isinstance(value, list):
        return [transform_keys(v, fn, drop) for v in value]
    return value


def map_records(value: Any, fn: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """Rebuild a JSON value with ``fn`` applied to every object in it, innermost first."""
    if isinstance(value, dict):
        return fn({k: map_records(v, fn) for k, v in value.items()})
    if isinstance(value, list):
        return [map_records(v, fn) for v in value]
    return value


def map_field(value: Any, name: str, fn: Callable[[Any], Any]) -> Any:
    """Apply ``fn`` to every value stored under key ``name``, at any depth."""
    return map_records(value, lambda d: {**d, name: fn(d[name])} if name in d else d)


def with_parameters(
    spec: ToolSpec, properties: dict[str, Any], required: list[str] | None = None
) -> ToolSpec:
    """``spec`` with other parameter properties (and required names, when given)."""
    parameters = {**spec.parameters, "properties": properties}
    if required is not None:
        parameters["required"] = required
    return spec.model_copy(update={"parameters": parameters})
