"""Output drift: the result's shape or units differ from what the docs say."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from toolchaos.core.types import HazardFamily, RecoveryStep, TaskSpec, ToolKind
from toolchaos.core.values import ISO_DATE, is_number
from toolchaos.domains import Domain
from toolchaos.hazards.base import (
    Hazard,
    HazardContext,
    PendingCall,
    Proposal,
    Results,
    map_field,
    map_records,
    register,
    transform_keys,
)
from toolchaos.hazards.propose import NUMERIC_OPS, answer_fields, camel, read_paths, tool_count


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
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may return the field '{field}' under a different name. Read the "
        "result carefully rather than relying on the documented field names.",
        "Reliability notice. The {tool} service recently changed its response format: the "
        "field documented as '{field}' may come back under another, similar name. The value "
        "itself is unchanged. Inspect each result, map the renamed field back to the "
        "documented one, and continue with the task as planned. Do not conclude that the "
        "information is missing.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """The last field name of every ref the path reads, once per (tool, field)."""
        out = []
        seen: set[tuple[str, str]] = set()
        for path in read_paths(task):
            keys = [k for k in path[1:] if isinstance(k, str)]
            if not keys:
                continue
            tool = task.reference.steps[int(path[0])].tool
            name = keys[-1]
            if (tool, name) in seen:
                continue
            seen.add((tool, name))
            new = camel(name)
            recipe = [RecoveryStep(action="normalize", params={"rename": {new: name}})]
            out.append(cls.proposal(tool, {"field": name, "to": new}, recipe))
        return out

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
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may report '{field}' in a different unit. Check the units "
        "label in the result and convert before using the number.",
        "Reliability notice. The {tool} service may report the numeric field '{field}' in a "
        "unit other than the documented one. When it does, the result carries a 'units' "
        "object naming the unit it used. Convert the value back to the documented unit "
        "before comparing, adding or reporting it, and give your final answer in the "
        "documented unit.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A numeric answer field the domain converts (``notes.unit_conversions``)."""
        conversions = domain.notes.unit_conversions
        answer = task.reference.answer_spec
        if answer.op not in NUMERIC_OPS:
            return []
        out = []
        for path in answer.refs:
            name = path[-1]
            if not isinstance(name, str) or name not in conversions:
                continue
            conv = conversions[name]
            tool = task.reference.steps[int(path[0])].tool
            back = {"field": name, "divide_by": conv.factor, "unit": conv.to_unit}
            recipe = [RecoveryStep(action="convert", params=back)]
            params = {"field": name, "factor": conv.factor, "unit": conv.to_unit}
            out.append(cls.proposal(tool, params, recipe))
        return out

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
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may return the number '{field}' as text. Convert it to a number "
        "before calculating with it.",
        "Reliability notice. The {tool} service has started to send the numeric field "
        "'{field}' as a string of digits instead of a number. The value itself is right. "
        "Read it as a number before you add, compare or otherwise calculate with it, and "
        "report the result as a number.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A numeric answer field the answer calculates with (a sum or a comparison)."""
        if task.reference.answer_spec.op not in ("sum", "min", "max", "argmin", "argmax"):
            return []
        out = []
        seen: set[tuple[str, str]] = set()
        for step, name, value in answer_fields(task, results):
            tool = task.reference.steps[step].tool
            if not is_number(value) or (tool, name) in seen:
                continue
            seen.add((tool, name))
            recipe = [RecoveryStep(action="coerce", params={"field": name})]
            out.append(cls.proposal(tool, {"field": name}, recipe))
        return out

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
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service now wraps its response in an envelope; the documented fields "
        "are inside '{key}'.",
        "Reliability notice. Responses from {tool} now come wrapped: the documented result "
        "sits inside a '{key}' object, next to a 'meta' object with version details. Look "
        "inside '{key}' for the fields you need; their names and values are unchanged.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """Every tool whose result the path reads, in name order."""
        tools = {task.reference.steps[int(path[0])].tool for path in read_paths(task)}
        out = []
        for tool in sorted(tools):
            recipe = [RecoveryStep(action="unwrap", params={"key": "data"})]
            out.append(cls.proposal(tool, {"key": "data"}, recipe))
        return out

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
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service sometimes leaves '{field}' out of a response. If it is missing, "
        "call the tool again.",
        "Reliability notice. A response from {tool} may arrive without the '{field}' field, "
        "because of a caching problem on the provider's side. The field is not gone: "
        "repeating the same call returns the complete record. Do not guess the missing "
        "value and do not give up; ask again.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A field the path reads from a read tool it calls once; only the first call drops it."""
        out = []
        seen: set[tuple[str, str]] = set()
        for path in read_paths(task):
            if not isinstance(path[-1], str):
                continue
            tool = task.reference.steps[int(path[0])].tool
            name = str(path[-1])
            if (tool, name) in seen or tool_count(task, tool) != 1:
                continue
            if domain.tools[tool].kind is ToolKind.WRITE:
                continue  # asking a write again would write twice
            seen.add((tool, name))
            recipe = [RecoveryStep(action="requery", params={"field": name})]
            out.append(cls.proposal(tool, {"field": name}, recipe, ordinals=[1]))
        return out

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
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may write dates in '{field}' as DD.MM.YYYY. Convert them to "
        "YYYY-MM-DD before answering.",
        "Reliability notice. The {tool} service has begun formatting the dates in "
        "'{field}' in a European style, day first with dots (DD.MM.YYYY), instead of the "
        "documented ISO format. Read the day and month carefully, convert the date back to "
        "YYYY-MM-DD, and use that form in your answer.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """An answer that is an ISO date read from a field."""
        if task.reference.answer_spec.op != "value":
            return []
        out = []
        for step, name, value in answer_fields(task, results):
            if not (isinstance(value, str) and ISO_DATE.fullmatch(value)):
                continue
            tool = task.reference.steps[step].tool
            recipe = [RecoveryStep(action="reformat", params={"field": name, "from": "DD.MM.YYYY"})]
            out.append(cls.proposal(tool, {"field": name}, recipe))
        return out

    def drift(self, result: Any) -> Any:
        """Reformat the field's ISO dates."""
        return map_field(result, str(self.spec.params["field"]), _day_first)
