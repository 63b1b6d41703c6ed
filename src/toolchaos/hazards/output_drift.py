"""Output drift: the result's shape or units differ from what the docs say."""

from __future__ import annotations

from typing import Any, ClassVar

from toolchaos.core.types import HazardFamily
from toolchaos.hazards.base import (
    Hazard,
    HazardContext,
    PendingCall,
    map_field,
    map_records,
    register,
    transform_keys,
)
from toolchaos.hazards.specification_drift import ISO_DATE


@register
class RenamedField(Hazard):
    """A documented result field comes back under another name.

    ``params.field`` is the documented name and ``params.to`` the name it arrives under.
    """

    family: ClassVar[HazardFamily] = HazardFamily.OUTPUT_DRIFT
    variant: ClassVar[str] = "renamed_field"
    summary: ClassVar[str] = "a result field is renamed"

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Rename the field wherever it appears in the result."""
        if not self.fires(call.tool, call.ordinal):
            return result
        old, new = str(self.spec.params["field"]), str(self.spec.params["to"])
        drifted = transform_keys(result, lambda k, v: (new, v) if k == old else None)
        self.log(ctx, call.tool, call.ordinal, f"field {old!r} returned as {new!r}")
        return drifted


@register
class UnitChange(Hazard):
    """A numeric field is returned in another unit; the result labels the unit it used.

    ``params``: ``field``, ``factor`` (drifted = documented * factor) and ``unit``. The field
    keeps its name, and a ``units`` object beside it names the unit now in use.
    """

    family: ClassVar[HazardFamily] = HazardFamily.OUTPUT_DRIFT
    variant: ClassVar[str] = "unit_change"
    summary: ClassVar[str] = "a numeric field comes back in another, labelled unit"

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Convert the field and add the unit label next to it."""
        if not self.fires(call.tool, call.ordinal):
            return result
        name = str(self.spec.params["field"])
        factor = float(self.spec.params["factor"])
        unit = str(self.spec.params["unit"])

        def convert(record: dict[str, Any]) -> dict[str, Any]:
            value = record.get(name)
            if not isinstance(value, int | float) or isinstance(value, bool):
                return record
            units = {**record.get("units", {}), name: unit}
            return {**record, name: round(value * factor, 4), "units": units}

        self.log(ctx, call.tool, call.ordinal, f"field {name!r} reported in {unit}")
        return map_records(result, convert)


@register
class NumberAsString(Hazard):
    """A numeric field arrives as a string (``"12.50"``)."""

    family: ClassVar[HazardFamily] = HazardFamily.OUTPUT_DRIFT
    variant: ClassVar[str] = "number_as_string"
    summary: ClassVar[str] = "a number is returned as a string"

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Turn the field's numbers into strings."""
        if not self.fires(call.tool, call.ordinal):
            return result
        name = str(self.spec.params["field"])
        self.log(ctx, call.tool, call.ordinal, f"field {name!r} returned as a string")
        return map_field(
            result,
            name,
            lambda v: f"{v}" if isinstance(v, int | float) and not isinstance(v, bool) else v,
        )


@register
class NestedShape(Hazard):
    """The result is wrapped in an envelope: ``{"data": <result>, "meta": {...}}``."""

    family: ClassVar[HazardFamily] = HazardFamily.OUTPUT_DRIFT
    variant: ClassVar[str] = "nested_shape"
    summary: ClassVar[str] = "the result is nested in an envelope"

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Wrap the result."""
        if not self.fires(call.tool, call.ordinal):
            return result
        key = str(self.spec.params.get("key", "data"))
        self.log(ctx, call.tool, call.ordinal, f"result nested under {key!r}")
        return {key: result, "meta": {"api_version": "2.1", "envelope": True}}


@register
class MissingOutputField(Hazard):
    """A needed field is missing from the planned calls' results; calling again returns it."""

    family: ClassVar[HazardFamily] = HazardFamily.OUTPUT_DRIFT
    variant: ClassVar[str] = "missing_field"
    summary: ClassVar[str] = "a needed field is missing; a second call returns it"

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Drop the field wherever it appears."""
        if not self.fires(call.tool, call.ordinal):
            return result
        name = str(self.spec.params["field"])
        self.log(ctx, call.tool, call.ordinal, f"field {name!r} omitted")
        return transform_keys(result, lambda k, v: ("", None) if k == name else None, drop="")


@register
class LocaleDate(Hazard):
    """ISO dates in a field come back in a European locale format (DD.MM.YYYY)."""

    family: ClassVar[HazardFamily] = HazardFamily.OUTPUT_DRIFT
    variant: ClassVar[str] = "locale_date"
    summary: ClassVar[str] = "dates come back in another locale's format"

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Reformat the field's ISO dates."""
        if not self.fires(call.tool, call.ordinal):
            return result
        name = str(self.spec.params["field"])
        self.log(ctx, call.tool, call.ordinal, f"field {name!r} in DD.MM.YYYY")

        def local(value: Any) -> Any:
            if isinstance(value, str) and ISO_DATE.match(value):
                year, month, day = value.split("-")
                return f"{day}.{month}.{year}"
            return value

        return map_field(result, name, local)
