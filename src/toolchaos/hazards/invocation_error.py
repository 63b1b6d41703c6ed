"""Invocation errors: a stricter backend rejects calls the agent was allowed to make."""

from __future__ import annotations

from typing import ClassVar

from toolchaos.core.errors import ToolError
from toolchaos.core.types import HazardFamily
from toolchaos.hazards.base import Hazard, HazardContext, PendingCall, register


@register
class StrictFormat(Hazard):
    """An id parameter must be exactly upper case; the lenient documented API took any case."""

    family: ClassVar[HazardFamily] = HazardFamily.INVOCATION_ERROR
    variant: ClassVar[str] = "strict_format"
    summary: ClassVar[str] = "strict format validation of an id (case, spaces)"

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Reject a value that is not in canonical form."""
        name = self.spec.params["param"]
        value = call.arguments.get(name)
        if not (self.fires(call.tool, call.ordinal) and isinstance(value, str)):
            return
        if value != value.strip().upper():
            self.log(ctx, call.tool, call.ordinal, f"{name!r} not in canonical form")
            raise ToolError(
                f"Invalid value for parameter '{name}': '{value}' does not match the required "
                "format (upper-case letters, digits and dashes, no spaces).",
                code=400,
            )


@register
class MissingRequiredField(Hazard):
    """The backend requires a parameter the docs mark optional (``params.param``)."""

    family: ClassVar[HazardFamily] = HazardFamily.INVOCATION_ERROR
    variant: ClassVar[str] = "missing_field"
    summary: ClassVar[str] = "a field documented as optional is required"

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Reject a call without the parameter."""
        name = self.spec.params["param"]
        if self.fires(call.tool, call.ordinal) and name not in call.arguments:
            self.log(ctx, call.tool, call.ordinal, f"required parameter {name!r} missing")
            raise ToolError(f"Missing required parameter: '{name}'.", code=400)


@register
class AmbiguousEntity(Hazard):
    """A name (``params.name``) is ambiguous to the backend; it wants the id a lookup returns."""

    family: ClassVar[HazardFamily] = HazardFamily.INVOCATION_ERROR
    variant: ClassVar[str] = "ambiguous_entity"
    summary: ClassVar[str] = "an entity name is ambiguous and needs a lookup first"

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Refuse anything but the resolved id, naming the lookup tool."""
        name, ambiguous = self.spec.params["param"], str(self.spec.params["name"])
        value = call.arguments.get(name)
        if not (self.fires(call.tool, call.ordinal) and isinstance(value, str)):
            return
        if value.strip().casefold() == ambiguous.casefold():
            self.log(ctx, call.tool, call.ordinal, f"{value!r} is ambiguous")
            lookup = self.spec.params["resolver"]
            raise ToolError(
                f"'{value}' is ambiguous: more than one record matches. Look it up with "
                f"'{lookup}' and pass its id in '{name}'.",
                code=409,
                kind="ambiguous",
            )
