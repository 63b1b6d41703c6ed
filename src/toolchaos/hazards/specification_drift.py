"""Specification drift: the backend no longer matches the documentation the agent has."""

from __future__ import annotations

import re
from datetime import date
from typing import ClassVar

from toolchaos.core.errors import ToolError
from toolchaos.core.types import HazardFamily, ToolSpec
from toolchaos.core.values import ISO_DATE
from toolchaos.hazards.base import Hazard, HazardContext, PendingCall, register, with_parameters

DMY_DATE = re.compile(r"^\d{2}/\d{2}/\d{4}$")


@register
class RenamedParameter(Hazard):
    """The backend renamed a parameter (``params.param`` -> ``params.to``); the docs did not."""

    family: ClassVar[HazardFamily] = HazardFamily.SPECIFICATION_DRIFT
    variant: ClassVar[str] = "renamed_parameter"
    summary: ClassVar[str] = "a parameter was renamed in the backend but not in the docs"

    def backend_spec(self, spec: ToolSpec) -> ToolSpec:
        """The schema with the parameter under its new name."""
        if spec.name != self.spec.tool:
            return spec
        old, new = self.spec.params["param"], self.spec.params["to"]
        props = {(new if k == old else k): v for k, v in spec.parameters["properties"].items()}
        required = [new if r == old else r for r in spec.parameters.get("required", [])]
        return with_parameters(spec, props, required)

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Reject the documented name with an error that names the new one."""
        old, new = self.spec.params["param"], self.spec.params["to"]
        if self.fires(call.tool, call.ordinal) and old in call.arguments:
            self.log(ctx, call.tool, call.ordinal, f"parameter {old!r} now called {new!r}")
            raise ToolError(
                f"Unrecognized request argument supplied: '{old}'. "
                f"This parameter has been renamed to '{new}'.",
                code=400,
            )

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Hand the tool its argument under the name its code uses."""
        old, new = self.spec.params["param"], self.spec.params["to"]
        if call.tool == self.spec.tool and new in call.arguments:
            call.arguments = {(old if k == new else k): v for k, v in call.arguments.items()}


@register
class ChangedEnum(Hazard):
    """The backend renamed the values of an enum parameter (``params.mapping``: doc -> new)."""

    family: ClassVar[HazardFamily] = HazardFamily.SPECIFICATION_DRIFT
    variant: ClassVar[str] = "changed_enum"
    summary: ClassVar[str] = "the allowed values of an enum parameter changed"

    def backend_spec(self, spec: ToolSpec) -> ToolSpec:
        """The schema with the new enum values."""
        if spec.name != self.spec.tool:
            return spec
        name, mapping = self.spec.params["param"], self.spec.params["mapping"]
        props = dict(spec.parameters["properties"])
        schema = dict(props[name])
        schema["enum"] = [mapping.get(v, v) for v in schema["enum"]]
        if "default" in schema:
            schema["default"] = mapping.get(schema["default"], schema["default"])
        props[name] = schema
        return with_parameters(spec, props, list(spec.parameters.get("required", [])))

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Reject a documented value the way a validating API does, listing the new ones."""
        name, mapping = self.spec.params["param"], self.spec.params["mapping"]
        value = call.arguments.get(name)
        if self.fires(call.tool, call.ordinal) and value in mapping:
            self.log(ctx, call.tool, call.ordinal, f"enum {name!r} no longer accepts {value!r}")
            values = ", ".join(f"'{v}'" for v in mapping.values())
            raise ToolError(
                f"Invalid value for parameter '{name}': '{value}'. Supported values are: {values}.",
                code=400,
            )

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Translate the new value back to the one the tool's code knows."""
        name, mapping = self.spec.params["param"], self.spec.params["mapping"]
        back = {v: k for k, v in mapping.items()}
        if call.tool == self.spec.tool and call.arguments.get(name) in back:
            call.arguments = {**call.arguments, name: back[call.arguments[name]]}


@register
class DeprecatedTool(Hazard):
    """The documented tool was retired; its v2 (``params.v2``) is the working replacement."""

    family: ClassVar[HazardFamily] = HazardFamily.SPECIFICATION_DRIFT
    variant: ClassVar[str] = "deprecated_tool"
    summary: ClassVar[str] = "a tool was retired in favour of a v2 with other parameters"

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Answer every call of the retired tool with 410 Gone naming the replacement."""
        if self.fires(call.tool, call.ordinal):
            v2 = self.spec.params["v2"]
            self.log(ctx, call.tool, call.ordinal, f"retired; replaced by {v2}")
            raise ToolError(
                f"Gone: '{call.tool}' has been retired. Use '{v2}' instead; see its "
                "documentation for the new parameters.",
                code=410,
                kind="gone",
            )


def to_dmy(iso: str) -> str:
    """Turn 2026-03-05 into 05/03/2026."""
    year, month, day = iso.split("-")
    return f"{day}/{month}/{year}"


def from_dmy(dmy: str) -> str:
    """Turn 05/03/2026 into 2026-03-05 (raises ValueError for an impossible date)."""
    day, month, year = dmy.split("/")
    return date(int(year), int(month), int(day)).isoformat()


@register
class ParameterFormat(Hazard):
    """A date parameter must now be sent as DD/MM/YYYY, though the docs still say ISO."""

    family: ClassVar[HazardFamily] = HazardFamily.SPECIFICATION_DRIFT
    variant: ClassVar[str] = "parameter_format"
    summary: ClassVar[str] = "a parameter's format changed from what the docs say"

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Reject an ISO date with an error that states the expected format."""
        name = self.spec.params["param"]
        value = call.arguments.get(name)
        if (
            self.fires(call.tool, call.ordinal)
            and isinstance(value, str)
            and ISO_DATE.fullmatch(value)
        ):
            self.log(ctx, call.tool, call.ordinal, f"parameter {name!r} expects DD/MM/YYYY")
            raise ToolError(
                f"Invalid format for parameter '{name}': '{value}'. Expected a date as DD/MM/YYYY.",
                code=400,
            )

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Give the tool the ISO date its code expects."""
        name = self.spec.params["param"]
        value = call.arguments.get(name)
        if call.tool == self.spec.tool and isinstance(value, str) and DMY_DATE.match(value):
            try:
                call.arguments = {**call.arguments, name: from_dmy(value)}
            except ValueError:
                raise ToolError(f"Invalid date for parameter '{name}': '{value}'.") from None
