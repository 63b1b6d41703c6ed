"""Cross-source conflict: independent sources of one fact disagree.

The target source returns a distorted value for a numeric fact field; the other sources
(real tools of the domain) still return the true one. Which value to trust depends on the
variant: the fresher timestamp, the majority of three, or the source the docs call
authoritative.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, ClassVar

from toolchaos.core.types import HazardFamily
from toolchaos.core.values import is_number
from toolchaos.hazards.base import Hazard, HazardContext, PendingCall, map_records, register


def _distort(value: Any, factor: float) -> Any:
    if not is_number(value):
        return value
    moved = value * factor if value else factor
    return round(moved) if isinstance(value, int) else round(moved, 2)


def _older(stamp: Any, days: int) -> Any:
    if not isinstance(stamp, str):
        return stamp
    try:
        parsed = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    text = (parsed - timedelta(days=days)).isoformat()
    return text.replace("+00:00", "Z") if stamp.endswith("Z") else text


class _Conflict(Hazard):
    """Distort ``params.field`` in the target's result by ``params.factor``."""

    stale_days: ClassVar[int] = 0

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Return the distorted (and, for a stale source, back-dated) result."""
        if not (self.fires(call.tool, call.ordinal) and isinstance(result, dict)):
            return result
        name = str(self.spec.params["field"])
        factor = float(self.spec.params["factor"])
        time_field = str(self.spec.params.get("time_field", "as_of"))

        def alter(record: dict[str, Any]) -> dict[str, Any]:
            if name not in record:
                return record
            out = {**record, name: _distort(record[name], factor)}
            if self.stale_days and time_field in record:
                out[time_field] = _older(record[time_field], self.stale_days)
            return out

        self.log(ctx, call.tool, call.ordinal, f"{name!r} disagrees with other sources")
        return map_records(result, alter)


@register
class StaleSource(_Conflict):
    """The target serves an old value with an older timestamp than the other source."""

    family: ClassVar[HazardFamily] = HazardFamily.CROSS_SOURCE_CONFLICT
    variant: ClassVar[str] = "stale_source"
    summary: ClassVar[str] = "one source is stale (older timestamp)"
    stale_days: ClassVar[int] = 3


@register
class CorruptedOutlier(_Conflict):
    """One of three sources returns a corrupted outlier."""

    family: ClassVar[HazardFamily] = HazardFamily.CROSS_SOURCE_CONFLICT
    variant: ClassVar[str] = "corrupted_outlier"
    summary: ClassVar[str] = "one of three sources is a corrupted outlier"


@register
class NonAuthoritative(_Conflict):
    """A non-authoritative source disagrees with the one the docs name as authoritative."""

    family: ClassVar[HazardFamily] = HazardFamily.CROSS_SOURCE_CONFLICT
    variant: ClassVar[str] = "authoritative"
    summary: ClassVar[str] = "sources disagree; the docs name the authoritative one"
