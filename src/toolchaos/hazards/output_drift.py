"""Output drift: the result's shape or units differ from what the docs say."""

from __future__ import annotations

from typing import Any, ClassVar

from toolchaos.core.types import HazardFamily
from toolchaos.core.values import ISO_DATE, is_number
from toolchaos.hazards.base import (
    Hazard,
    HazardContext,
    PendingCall,
    map_field,
    map_records,
    register,
    transform_keys,
)


class _OutputDrift(Hazard):
    """An output-drift variant: on a firing call it logs ``detail`` and returns ``drift``.

    ``detail`` is formatted with the spec's params; a variant overrides :meth:`drift`.
    """

    family: ClassVar[HazardFamily] = HazardFamily.OUTPUT_DRIFT
    detail: ClassVar[str]

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Return the drifted result of a firing call, any other result as it is."""
        if not self.fires(call.tool, call.ordinal):
            return result
        self.log(ctx, call.tool, call.ordinal, self.describe())
        return self.drift(result)

    def describe(self) -> str:
        """The detail of the hazard event this variant logs."""
        return self.detail.format_map(self.spec.params)

    def drift(self, result: Any) -> Any:
        """Return ``result`` as the drifted backend sends it."""
        raise NotImplementedError


@register
class RenamedField(_OutputDrift):
    """A documented result field comes back under another name.

    ``params.field`` is the documented name and ``params.to`` the name it arrives under.
    """

    variant: ClassVar[str] = "renamed_field"
    summary: ClassVar[str] = "a result field is renamed"
    detail: ClassVar[str] = "field {field!r} returned as {to!r}"

    def drift(self, result: Any) -> Any:
        """Rename the field wherever it appears in the result."""
        old, new = str(self.spec.params["field"]), str(self.spec.params["to"])
        return transform_keys(result, lambda k, v: (new, v) if k == old else None)


@register
class UnitChange(_OutputDrift):
    """A numeric field is returned in another unit; the result labels the unit it used.

    ``params``: ``field``, ``factor`` (drifted = documented * factor) and ``unit``. The field
    keeps its name, and a ``units`` object beside it names the unit now in use.
    """

    variant: ClassVar[str] = "unit_change"
    summary: ClassVar[str] = "a numeric field comes back in another, labelled unit"
    detail: ClassVar[str] = "field {field!r} reported in {unit}"

    def drift(self, result: Any) -> Any:
        """Convert the field and add the unit label next to it."""
        name = str(self.spec.params["field"])
        factor = float(self.spec.params["factor"])
        unit = str(self.spec.params["unit"])

        def convert(record: dict[str, Any]) -> dict[str, Any]:
            value = record.get(name)
            if not is_number(value):
                return record
            units = {**record.get("units", {}), name: unit}
            return {**record, name: round(value * factor, 4), "units": units}

        return map_records(result, convert)


@register
class NumberAsString(_OutputDrift):
    """A numeric field arrives as a string (``"12.50"``)."""

    variant: ClassVar[str] = "number_as_string"
    summary: ClassVar[str] = "a number is returned as a string"
    detail: ClassVar[str] = "field {field!r} returned as a string"

    def drift(self, result: Any) -> Any:
        """Turn the field's numbers into strings."""
        return map_field(
            result, str(self.spec.params["field"]), lambda v: f"{v}" if is_number(v) else v
        )


@register
class NestedShape(_OutputDrift):
    """The result is wrapped in an envelope: ``{"data": <result>, "meta": {...}}``."""

    variant: ClassVar[str] = "nested_shape"
    summary: ClassVar[str] = "the result is nested in an envelope"
    detail: ClassVar[str] = "result nested under {key!r}"

    @property
    def key(self) -> str:
        """The envelope's key for the result (``data`` unless the params say otherwise)."""
        return str(self.spec.params.get("key", "data"))

    def describe(self) -> str:
        """The detail, naming the envelope key even where the params leave it out."""
        return self.detail.format(key=self.key)

    def drift(self, result: Any) -> Any:
        """Wrap the result."""
        return {self.key: result, "meta": {"api_version": "2.1", "envelope": True}}


@register
class MissingOutputField(_OutputDrift):
    """A needed field is missing from the planned calls' results; calling again returns it."""

    variant: ClassVar[str] = "missing_field"
    summary: ClassVar[str] = "a needed field is missing; a second call returns it"
    detail: ClassVar[str] = "field {field!r} omitted"

    def drift(self, result: Any) -> Any:
        """Drop the field wherever it appears."""
        name = str(self.spec.params["field"])
        return transform_keys(result, lambda k, v: ("", None) if k == name else None, drop="")


def _day_first(value: Any) -> Any:
    if isinstance(value, str) and ISO_DATE.fullmatch(value):
        year, month, day = value.split("-")
        return f"{day}.{month}.{year}"
    return value


@register
class LocaleDate(_OutputDrift):
    """ISO dates in a field come back in a European locale format (DD.MM.YYYY)."""

    variant: ClassVar[str] = "locale_date"
    summary: ClassVar[str] = "dates come back in another locale's format"
    detail: ClassVar[str] = "field {field!r} in DD.MM.YYYY"

    def drift(self, result: Any) -> Any:
        """Reformat the field's ISO dates."""
        return map_field(result, str(self.spec.params["field"]), _day_first)
