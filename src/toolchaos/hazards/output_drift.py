"""Output drift: a result differs from what the docs say, with no error.

What a reader that understands JSON cannot repair by reading alone: a number in another
unit under its documented name (``unit_change``: labelled, or silent with an implausible
magnitude), a field that keeps its name but counts something else (``semantic_drift``,
announced in the changelog or a notice), a needed field withheld unless the full record is
asked for (``withheld_field``). The v1 variants that only defeat a strict parser (a
renamed field, a number as a string, an envelope, a day-first date) and the v1 missing
field that a blind second call restores are ``legacy``: they still play in v1 task files
and are never proposed by a build.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from datetime import timedelta
from typing import Any, ClassVar

from toolchaos.core.types import (
    HazardFamily,
    RecoveryAction,
    RecoveryStep,
    TaskSpec,
    Tier,
    ToolKind,
    ToolSpec,
)
from toolchaos.core.values import ISO_DATE, is_number
from toolchaos.domains import Domain, UnitConversion
from toolchaos.hazards.base import (
    Hazard,
    HazardContext,
    PendingCall,
    Proposal,
    Results,
    map_field,
    map_records,
    register_hazard,
    transform_keys,
    with_parameters,
)
from toolchaos.hazards.propose import (
    NUMERIC_OPS,
    answer_fields,
    once_each,
    read_paths,
    renamed,
    tool_at,
    tool_count,
    value_at,
)
from toolchaos.scoring.answer import leaks

NUMERIC = ("number", "integer")
"""The JSON types a numeric field may have."""

SILENT_MIN_FACTOR = 60.0
"""A unit change plays silent only where the number grows at least this much: implausible."""


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


@register_hazard
class RenamedField(_OutputDrift):
    """A documented result field comes back under another name.

    ``params.field`` is the documented name and ``params.to`` the name it arrives under.
    """

    legacy: ClassVar[bool] = True
    variant: ClassVar[str] = "renamed_field"
    needs: ClassVar[tuple[str, ...]] = ("field",)
    takes: ClassVar[tuple[str, ...]] = ("to",)
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
    def plan_params(cls, params: Mapping[str, Any], tool: ToolSpec) -> dict[str, Any]:
        """A plan's ``to`` defaults to the drifted name of ``field`` (:func:`renamed`)."""
        out = super().plan_params(params, tool)
        if "field" in out:
            out.setdefault("to", renamed(str(out["field"])))
        return out

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """The last field name of every ref the path reads, once per (tool, field)."""
        read = []
        for path in read_paths(task):
            keys = [k for k in path[1:] if isinstance(k, str)]
            if keys:
                read.append((tool_at(task, path), keys[-1]))
        out = []
        for tool, name in once_each(read):
            new = renamed(name)
            recipe = [RecoveryStep(action=RecoveryAction.NORMALIZE, params={"rename": {new: name}})]
            out.append(cls.proposal(tool, {"field": name, "to": new}, recipe))
        return out

    def drift(self, result: Any) -> Any:
        """Rename the field wherever it appears in the result."""
        old, new = str(self.spec.params["field"]), str(self.spec.params["to"])
        return transform_keys(result, lambda k, v: (new, v) if k == old else None)


def _conversions(
    task: TaskSpec, domain: Domain, results: Results
) -> list[tuple[int, str, UnitConversion]]:
    """(step, field, conversion) of every numeric answer field the domain converts.

    Only fixed conversions (a market rate cannot be undone from the unit's name), only
    answers that report the number itself (a sum, a value, a least or a most: an argmin
    survives any scaling), and only fields whose clean value is a non-zero number, once
    per (tool, field).
    """
    conversions = domain.notes.unit_conversions
    if task.reference.answer_spec.op not in NUMERIC_OPS:
        return []
    out: list[tuple[int, str, UnitConversion]] = []
    for step, name, value in answer_fields(task, results):
        conv = conversions.get(name)
        if conv is not None and conv.fixed and is_number(value) and value != 0:
            out.append((step, name, conv))
    return list(once_each(out, key=lambda c: (task.reference.steps[c[0]].tool, c[1])))


def _rescaled(value: float, factor: float) -> float:
    """``value * factor`` to 4 decimals, or to 8 significant digits where that is finer.

    A provider's converted figure keeps enough digits to convert back: 65 minutes are
    1.0833333 h (back to 64.999998, which rounds to 65), not 1.0833 h (back to 64.998).
    """
    scaled = value * factor
    if scaled == 0:
        return 0.0
    return round(scaled, max(4, 7 - math.floor(math.log10(abs(scaled)))))


def _scaled(result: Any, name: str, factor: float) -> Any:
    """``result`` with every number under ``name`` multiplied by ``factor``."""
    return map_field(result, name, lambda v: _rescaled(v, factor) if is_number(v) else v)


def _bound(task: TaskSpec, results: Results, tool: str, name: str, factor: float) -> float | None:
    """The magnitude that tells a drifted ``name`` from a documented one, or None.

    Over every clean value of the field in the results of ``tool``'s steps: where the
    scaled values all lie past the clean ones, the geometric mean of the closest pair of
    the two sets; where the ranges meet, None (magnitude alone cannot tell them apart).
    """
    values: list[float] = []

    def collect(record: dict[str, Any]) -> dict[str, Any]:
        number = record.get(name)
        if is_number(number) and number != 0:
            values.append(abs(float(number)))
        return record

    for index, step in enumerate(task.reference.steps):
        if step.tool == tool:
            map_records(results.get(index), collect)
    if not values:
        return None
    low, high = min(values), max(values)
    near, far = (high, low * factor) if factor > 1 else (low, high * factor)
    if (far <= near) if factor > 1 else (far >= near):
        return None
    return round(math.sqrt(near * far), 6)


def _changelog_date(task: TaskSpec, domain: Domain, rng: random.Random) -> str:
    """A changelog entry's date: 3 to 40 days before the domain's world starts (seeded).

    A date whose numbers would state the answer ("2026-02-03" for an answer of 3) is
    drawn again, so the entry never leaks it.
    """
    start = domain.world_type.EPOCH.date()
    day = start
    for _ in range(40):
        day = start - timedelta(days=rng.randint(3, 40))
        if not (task.reference.answer and leaks(task.reference.answer, day.isoformat())):
            break
    return day.isoformat()


@register_hazard
class UnitChange(_OutputDrift):
    """A numeric field is returned in another unit under its documented name.

    ``params``: ``field``, ``factor`` (drifted = documented * factor) and ``unit``.
    ``explicit`` (v1): a ``units`` object beside the field names the unit now in use.
    ``silent``: nothing names it; only the magnitude gives it away, so the tier is offered
    only where the number grows at least :data:`SILENT_MIN_FACTOR` times (cents for
    dollars, Wh for kWh, MB for GB, seconds for minutes).
    """

    variant: ClassVar[str] = "unit_change"
    field_types: ClassVar[Mapping[str, tuple[str, ...]]] = {"field": NUMERIC}
    needs: ClassVar[tuple[str, ...]] = ("field", "factor", "unit")
    tiers: ClassVar[tuple[Tier, ...]] = ("explicit", "silent")
    summary: ClassVar[str] = "a numeric field comes back in another unit, labelled or not"
    detail: ClassVar[str] = "field {field!r} reported in {unit}"
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may report '{field}' in a different unit. Check that the number "
        "is plausible for the documented unit and convert before using it.",
        "Reliability notice. The {tool} service may report the numeric field '{field}' in a "
        "unit other than the documented one, under the same name. A result may carry a "
        "'units' object naming the unit it used, or nothing at all: then a value far larger "
        "than the documented unit allows is the sign. Convert the value back to the "
        "documented unit before comparing, adding or reporting it, and give your final "
        "answer in the documented unit.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A numeric answer field the domain converts (``notes.unit_conversions``).

        Labelled everywhere; unlabelled where the factor makes the number implausible.
        """
        out = []
        for step, name, conv in _conversions(task, domain, results):
            tool = task.reference.steps[step].tool
            params = {"field": name, "factor": conv.factor, "unit": conv.to_unit}
            back = {"field": name, "divide_by": conv.factor, "unit": conv.to_unit}
            recipe = [RecoveryStep(action=RecoveryAction.CONVERT, params=back)]
            out.append(cls.proposal(tool, params, recipe, tier="explicit"))
            beyond = _bound(task, results, tool, name, conv.factor)
            if conv.factor >= SILENT_MIN_FACTOR and beyond is not None:
                blind = [
                    RecoveryStep(action=RecoveryAction.CONVERT, params={**back, "beyond": beyond})
                ]
                out.append(cls.proposal(tool, params, blind, tier="silent"))
        return out

    def drift(self, result: Any) -> Any:
        """Convert the field; label the unit next to it unless the drift is silent."""
        name = str(self.spec.params["field"])
        factor = float(self.spec.params["factor"])
        unit = str(self.spec.params["unit"])
        if self.tier == "silent":
            return _scaled(result, name, factor)

        def convert(record: dict[str, Any]) -> dict[str, Any]:
            value = record.get(name)
            if not is_number(value):
                return record
            units = {**record.get("units", {}), name: unit}
            return {**record, name: _rescaled(value, factor), "units": units}

        return map_records(result, convert)


ANNOUNCEMENTS = ("changelog", "notice")
"""Where a semantic drift is announced: the provider's changelog only, or also a notice."""


@register_hazard
class SemanticDrift(_OutputDrift):
    """A field keeps its name but changes meaning: dollars become cents, a percent a fraction.

    ``params``: ``field``, ``factor`` (drifted = documented * factor), ``unit`` (what the
    number now counts), ``since`` (the changelog entry's date) and ``announce``. Nothing in
    the value's place says so (no ``units`` label): the provider's changelog announces it,
    and with ``announce: notice`` a ``notice`` field of the result says it too. Both are
    ``implicit``: they say what changed; undoing it is the agent's diagnosis.
    """

    variant: ClassVar[str] = "semantic_drift"
    field_types: ClassVar[Mapping[str, tuple[str, ...]]] = {"field": NUMERIC}
    needs: ClassVar[tuple[str, ...]] = ("field", "factor", "unit")
    takes: ClassVar[tuple[str, ...]] = ("since", "announce")
    tiers: ClassVar[tuple[Tier, ...]] = ("implicit",)
    summary: ClassVar[str] = "a field keeps its name but now counts in another unit (announced)"
    detail: ClassVar[str] = "field {field!r} now counts {unit}"
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may have changed what '{field}' counts without renaming it. "
        "Check the service's changelog and any notice in the result before using it.",
        "Reliability notice. The {tool} service sometimes changes the meaning of a result "
        "field while keeping its name, for example reporting an amount in a smaller unit. "
        "Such changes are announced in the provider's changelog (read_changelog) and "
        "sometimes in a 'notice' field of the result. Before you use '{field}', check "
        "whether its meaning changed and convert the value back to the documented unit.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A numeric answer field the domain converts, announced in each of the two ways.

        Only where the drifted values lie apart from the clean ones (the oracle tells them
        apart by magnitude); a notice needs a result object to sit in.
        """
        out = []
        for step, name, conv in _conversions(task, domain, results):
            tool = task.reference.steps[step].tool
            beyond = _bound(task, results, tool, name, conv.factor)
            if beyond is None:
                continue
            since = _changelog_date(task, domain, rng)
            back = {"field": name, "divide_by": conv.factor, "unit": conv.to_unit}
            recipe = [
                RecoveryStep(action=RecoveryAction.CONVERT, params={**back, "beyond": beyond})
            ]
            for announce in ANNOUNCEMENTS:
                if announce == "notice" and not isinstance(results.get(step), dict):
                    continue
                params = {
                    "field": name,
                    "factor": conv.factor,
                    "unit": conv.to_unit,
                    "since": since,
                    "announce": announce,
                }
                out.append(cls.proposal(tool, params, recipe))
        return out

    def changelog(self, tool: str) -> list[str]:
        """The entry announcing the change, on the hazard's tool."""
        if tool != self.spec.tool:
            return []
        p = self.spec.params
        return [
            f"{p.get('since', 'recently')}: '{p['field']}' in {tool} results is now reported in "
            f"{p['unit']} (a value of 1 in the documented unit now reads "
            f"{_factor_text(p['factor'])}); the field name is unchanged."
        ]

    def drift(self, result: Any) -> Any:
        """Scale the field; with ``announce: notice``, say so in the result."""
        p = self.spec.params
        out = _scaled(result, str(p["field"]), float(p["factor"]))
        if p.get("announce") == "notice" and isinstance(out, dict):
            out = {**out, "notice": f"'{p['field']}' is now reported in {p['unit']}."}
        return out


def _factor_text(factor: Any) -> str:
    """A conversion factor as a person writes it (100, 0.01, 0.0167)."""
    value = float(factor)
    return f"{value:g}" if value >= 0.01 else f"{value:.4g}"


@register_hazard
class NumberAsString(_OutputDrift):
    """A numeric field arrives as a string (``"12.50"``)."""

    legacy: ClassVar[bool] = True
    variant: ClassVar[str] = "number_as_string"
    field_types: ClassVar[Mapping[str, tuple[str, ...]]] = {"field": NUMERIC}
    needs: ClassVar[tuple[str, ...]] = ("field",)
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
        numeric = [
            (task.reference.steps[step].tool, name)
            for step, name, value in answer_fields(task, results)
            if is_number(value)
        ]
        out = []
        for tool, name in once_each(numeric):
            recipe = [RecoveryStep(action=RecoveryAction.COERCE, params={"field": name})]
            out.append(cls.proposal(tool, {"field": name}, recipe))
        return out

    def drift(self, result: Any) -> Any:
        """Turn the field's numbers into strings."""
        return map_field(
            result, str(self.spec.params["field"]), lambda v: f"{v}" if is_number(v) else v
        )


@register_hazard
class NestedShape(_OutputDrift):
    """The result is wrapped in an envelope: ``{"data": <result>, "meta": {...}}``."""

    legacy: ClassVar[bool] = True
    variant: ClassVar[str] = "nested_shape"
    takes: ClassVar[tuple[str, ...]] = ("key",)
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
            recipe = [RecoveryStep(action=RecoveryAction.UNWRAP, params={"key": "data"})]
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


@register_hazard
class MissingOutputField(_OutputDrift):
    """A needed field is missing from the planned calls' results; calling again returns it."""

    legacy: ClassVar[bool] = True
    variant: ClassVar[str] = "missing_field"
    needs: ClassVar[tuple[str, ...]] = ("field",)
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
        fields = [(tool_at(task, p), p[-1]) for p in read_paths(task) if isinstance(p[-1], str)]
        out = []
        for tool, name in once_each(fields):
            if tool_count(task, tool) != 1:
                continue
            if domain.tools[tool].kind is ToolKind.WRITE:
                continue  # asking a write again would write twice
            recipe = [RecoveryStep(action=RecoveryAction.REQUERY, params={"field": name})]
            out.append(cls.proposal(tool, {"field": name}, recipe, ordinals=[1]))
        return out

    def drift(self, result: Any) -> Any:
        """Drop the field wherever it appears."""
        name = str(self.spec.params["field"])
        return transform_keys(result, lambda k, v: ("", None) if k == name else None, drop="")


DETAIL_FLAG = "detail"
"""The option a withheld field's tool gains: ask for the full record, not the summary."""


def _carries(value: Any, name: str, wanted: Any) -> bool:
    """Whether a key other than ``name`` holds ``wanted`` anywhere in a JSON value."""
    if isinstance(value, dict):
        return any(
            (k != name and _same(v, wanted)) or _carries(v, name, wanted) for k, v in value.items()
        )
    if isinstance(value, list):
        return any(_carries(v, name, wanted) for v in value)
    return False


def _same(value: Any, wanted: Any) -> bool:
    """Whether a reader would take ``value`` for ``wanted`` (2 and 2.0 alike; True is no 1)."""
    if is_number(value) and is_number(wanted):
        return float(value) == float(wanted)
    return type(value) is type(wanted) and value == wanted


@register_hazard
class WithheldField(_OutputDrift):
    """A field the answer needs is left out of the default response; the full record has it.

    The tool gains a documented boolean option (``params.flag``, ``detail``): without it
    every call returns a summary without ``params.field``; with it, the full record. No
    other field carries the value, so it is found only by asking again the documented way.
    ``implicit``: the field is simply absent (the docs and the changelog describe the
    option). ``explicit``: a ``note`` in the result names the option.
    """

    variant: ClassVar[str] = "withheld_field"
    needs: ClassVar[tuple[str, ...]] = ("field",)
    takes: ClassVar[tuple[str, ...]] = ("flag", "since")
    tiers: ClassVar[tuple[Tier, ...]] = ("implicit", "explicit")
    summary: ClassVar[str] = "a needed field comes only with the full record (a second call)"
    detail: ClassVar[str] = "field {field!r} withheld from the summary"
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may return a summary without '{field}'. Its documentation and "
        "changelog say how to ask for the full record.",
        "Reliability notice. The {tool} service now answers with a summary by default, and "
        "the summary can leave out '{field}'. The value is not gone and no other field "
        "holds it: ask the same tool again for the full record, using the '{flag}' option "
        "its documentation describes, and read the field from that response. Do not guess "
        "the value or take it from a field with a similar name.",
    )

    @property
    def flag(self) -> str:
        """The option that asks for the full record."""
        return str(self.spec.params.get("flag", DETAIL_FLAG))

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A scalar field the path reads from a read tool's result, carried by no other key.

        Once per (tool, field); never on a write (asking again would write twice) nor on a
        tool that already has a parameter named like the option.
        """
        out = []
        fitting = [p for p in read_paths(task) if cls._fits(p, task, domain, results)]
        for path in once_each(fitting, key=lambda p: (tool_at(task, p), p[-1])):
            name, step = str(path[-1]), int(path[0])
            tool = tool_at(task, path)
            params = {
                "field": name,
                "flag": DETAIL_FLAG,
                "since": _changelog_date(task, domain, rng),
            }
            recipe = [
                RecoveryStep(
                    action=RecoveryAction.REQUERY, params={"field": name, "flag": DETAIL_FLAG}
                )
            ]
            tiers = cls.tiers if isinstance(results.get(step), dict) else ("implicit",)
            for tier in tiers:
                out.append(cls.proposal(tool, params, recipe, tier=tier))
        return out

    @staticmethod
    def _fits(path: list[Any], task: TaskSpec, domain: Domain, results: Results) -> bool:
        """Whether the scalar field ``path`` reads could be the one the summary leaves out."""
        name, step = path[-1], int(path[0])
        spec = domain.tools[tool_at(task, path)]
        if not isinstance(name, str):
            return False
        if spec.kind is ToolKind.WRITE or DETAIL_FLAG in _properties(spec.spec):
            return False
        value = value_at(results, path)
        if value is None or isinstance(value, dict | list):
            return False
        # a lenient reader would find the value under the other key
        return not _carries(results.get(step), name, value)

    def _with_option(self, spec: ToolSpec) -> ToolSpec:
        if spec.name != self.spec.tool:
            return spec
        option = {
            "type": "boolean",
            "description": "Return the full record with every documented field; without it "
            "the service may answer with a summary.",
        }
        return with_parameters(spec, {**_properties(spec), self.flag: option})

    def visible_specs(self, specs: list[ToolSpec]) -> list[ToolSpec]:
        """The tool's documentation with the option."""
        return [self._with_option(spec) for spec in specs]

    def backend_spec(self, spec: ToolSpec) -> ToolSpec:
        """The backend accepts the option."""
        return self._with_option(spec)

    def changelog(self, tool: str) -> list[str]:
        """The entry announcing the summary responses, on the hazard's tool."""
        if tool != self.spec.tool:
            return []
        since = self.spec.params.get("since", "recently")
        return [
            f"{since}: {tool} answers with a summary by default; pass {self.flag}=true for "
            f"the full record (the summary may leave out '{self.spec.params['field']}')."
        ]

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Take the option off the call (the tool never knew it) and remember it."""
        asked = call.tool == self.spec.tool and call.arguments.pop(self.flag, None) is True
        if asked:
            ctx.scratch[f"full:{call.tool}:{call.ordinal}"] = True

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """A call that asked for the full record gets it; any other firing call, a summary."""
        if ctx.scratch.get(f"full:{call.tool}:{call.ordinal}"):
            return result
        return super().after_call(call, result, ctx)

    def drift(self, result: Any) -> Any:
        """Drop the field wherever it appears; an explicit instance names the option."""
        name = str(self.spec.params["field"])
        out = transform_keys(result, lambda k, v: ("", None) if k == name else None, drop="")
        if self.explicit and isinstance(out, dict):
            note = (
                "Summary view: some fields are left out. For the full record, try again "
                f"with {self.flag}=true."
            )
            out = {**out, "note": note}
        return out


def _properties(spec: ToolSpec) -> dict[str, Any]:
    properties: dict[str, Any] = spec.parameters.get("properties", {})
    return properties


def _day_first(value: Any) -> Any:
    if isinstance(value, str) and ISO_DATE.fullmatch(value):
        year, month, day = value.split("-")
        return f"{day}.{month}.{year}"
    return value


@register_hazard
class LocaleDate(_OutputDrift):
    """ISO dates in a field come back in a European locale format (DD.MM.YYYY)."""

    legacy: ClassVar[bool] = True
    variant: ClassVar[str] = "locale_date"
    needs: ClassVar[tuple[str, ...]] = ("field",)
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
            recipe = [
                RecoveryStep(
                    action=RecoveryAction.REFORMAT, params={"field": name, "from": "DD.MM.YYYY"}
                )
            ]
            out.append(cls.proposal(tool, {"field": name}, recipe))
        return out

    def drift(self, result: Any) -> Any:
        """Reformat the field's ISO dates."""
        return map_field(result, str(self.spec.params["field"]), _day_first)
