"""Output drift: the result's shape or units differ from what the docs say."""

from __future__ import annotations

from typing import Any, ClassVar

from toolchaos.core.types import HazardFamily
from toolchaos.hazards.base import Hazard, HazardContext, PendingCall, register, transform_keys


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

        def convert(value: Any) -> Any:
            if isinstance(value, dict):
                out = {k: convert(v) for k, v in value.items()}
                if name in value and isinstance(value[name], int | float):
                    out[name] = round(value[name] * factor, 4)
                    out["units"] = {**out.get("units", {}), name: unit}
                return out
            if isinstance(value, list):
                return [convert(v) for v in value]
            return value

        self.log(ctx, call.tool, call.ordinal, f"field {name!r} reported in {unit}")
        return convert(result)
