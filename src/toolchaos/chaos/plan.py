"""The hazard plan: which hazards hit which of *your* tools, on which calls, from which seed.

A plan is a YAML or JSON file validated by :class:`HazardPlan` (its JSON Schema is
``docs/hazard-plan.schema.json``), or the name of a ready profile (:data:`PROFILES`).
:func:`resolve_plan` binds it to the tools an agent is offered and returns plain
:class:`~toolchaos.core.types.HazardSpec` records, the same ones the suites' tasks carry;
the same plan on the same tools gives the same specs, byte for byte.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from toolchaos.core.errors import BadInput
from toolchaos.core.types import HazardFamily, HazardSpec, ToolSpec
from toolchaos.hazards import VARIANTS

PROFILE_NAMES = ("transient", "drift", "outage", "conflict", "everything")

F = HazardFamily
REQUIRED_PARAMS: dict[tuple[HazardFamily, str], tuple[str, ...]] = {
    (F.SPECIFICATION_DRIFT, "renamed_parameter"): ("param",),
    (F.SPECIFICATION_DRIFT, "changed_enum"): ("param",),
    (F.SPECIFICATION_DRIFT, "deprecated_tool"): ("v2",),
    (F.SPECIFICATION_DRIFT, "parameter_format"): ("param",),
    (F.INVOCATION_ERROR, "strict_format"): ("param",),
    (F.INVOCATION_ERROR, "missing_argument"): ("param",),
    (F.INVOCATION_ERROR, "ambiguous_entity"): ("param", "name", "resolver"),
    (F.EXECUTION_FAILURE, "transient"): (),
    (F.EXECUTION_FAILURE, "outage"): (),
    (F.EXECUTION_FAILURE, "paginated"): ("page_size",),
    (F.EXECUTION_FAILURE, "timeout_after_write"): (),
    (F.OUTPUT_DRIFT, "renamed_field"): ("field",),
    (F.OUTPUT_DRIFT, "unit_change"): ("field", "factor", "unit"),
    (F.OUTPUT_DRIFT, "number_as_string"): ("field",),
    (F.OUTPUT_DRIFT, "nested_shape"): (),
    (F.OUTPUT_DRIFT, "missing_field"): ("field",),
    (F.OUTPUT_DRIFT, "locale_date"): ("field",),
    (F.OUTPUT_DRIFT, "semantic_drift"): ("field", "factor", "unit"),
    (F.OUTPUT_DRIFT, "withheld_field"): ("field",),
    (F.CROSS_SOURCE_CONFLICT, "stale_source"): ("field",),
    (F.CROSS_SOURCE_CONFLICT, "corrupted_outlier"): ("field",),
    (F.CROSS_SOURCE_CONFLICT, "authoritative"): ("field",),
}
"""The parameters each variant needs on a user's tool (the suites derive them from a task)."""

TOOL_PARAMS = ("v2", "resolver", "fallback")
"""Parameters that name another tool: it must be one the agent is offered."""


class PlannedHazard(BaseModel):
    """One hazard of a plan: a variant on one tool, on some call ordinals, with parameters."""

    model_config = ConfigDict(extra="forbid")

    family: HazardFamily
    variant: str
    tool: str
    ordinals: list[int] | Literal["all"] = Field(
        default="all", description="1-based call ordinals of `tool` the hazard hits, or all."
    )
    params: dict[str, Any] = Field(default_factory=dict)

    @field_validator("ordinals")
    @classmethod
    def _positive(cls, value: list[int] | str) -> list[int] | str:
        if isinstance(value, list) and any(o < 1 for o in value):
            raise ValueError("call ordinals start at 1")
        return value


class SourceGroup(BaseModel):
    """Tools that answer the same question (for cross-source conflicts).

    Attributes:
        tools: Two or more offered tools returning the same fact.
        field: The numeric result field they agree on.
        time_field: The timestamp field a stale source back-dates.
        authoritative: The tool the docs name as authoritative (never corrupted).
    """

    model_config = ConfigDict(extra="forbid")

    tools: list[str] = Field(min_length=2)
    field: str
    time_field: str = "as_of"
    authoritative: str = ""


class HazardPlan(BaseModel):
    """A hazard plan for your own tools (``version: 1``).

    A ``profile`` expands into hazards over the ``targets`` (all offered tools when
    empty); explicit ``hazards`` follow. ``fallbacks`` name a working alternative of a
    tool (the ``outage`` profile needs one) and ``sources`` the tools that answer the same
    question (the ``conflict`` profile needs a group). Every random choice (which
    parameter to rename, how many transient errors) comes from ``seed``.
    """

    model_config = ConfigDict(extra="forbid")

    version: Literal[1] = 1
    name: str = ""
    seed: int = 0
    profile: Literal["transient", "drift", "outage", "conflict", "everything"] | None = None
    targets: list[str] = Field(default_factory=list)
    hazards: list[PlannedHazard] = Field(default_factory=list)
    fallbacks: dict[str, str] = Field(default_factory=dict)
    sources: list[SourceGroup] = Field(default_factory=list)

    @property
    def label(self) -> str:
        """The plan's name, or its profile's, or ``custom``."""
        return self.name or self.profile or "custom"


def plan_schema() -> dict[str, Any]:
    """The JSON Schema of a plan file (written to ``docs/hazard-plan.schema.json``)."""
    schema = HazardPlan.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "toolchaos hazard plan"
    return schema


def load_plan(source: str | Path | HazardPlan | dict[str, Any]) -> HazardPlan:
    """A plan from a profile name, a YAML/JSON file, a dict or a plan.

    Raises:
        BadInput: An unknown profile, a missing or malformed file, or a plan that does not
            validate (one sentence naming the file and the field).
    """
    if isinstance(source, HazardPlan):
        return source
    if isinstance(source, dict):
        return _validate(source, "the plan")
    text = str(source)
    if text in PROFILE_NAMES:
        return HazardPlan.model_validate({"name": text, "profile": text})
    path = Path(text)
    if not path.is_file():
        names = ", ".join(PROFILE_NAMES)
        raise BadInput(f"plan {text!r} is neither a plan file nor a profile ({names})")
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read plan file {path}: {exc}") from None
    try:
        data = json.loads(raw) if path.suffix == ".json" else yaml.safe_load(raw)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise BadInput(f"plan file {path} is not valid YAML or JSON ({first})") from None
    if not isinstance(data, dict):
        raise BadInput(f"plan file {path} must hold a mapping at the top level")
    plan = _validate(data, f"plan file {path}")
    return plan if plan.name else plan.model_copy(update={"name": path.stem})


def _validate(data: dict[str, Any], where: str) -> HazardPlan:
    try:
        return HazardPlan.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "plan"
        raise BadInput(f"{where}, field {field}: {first['msg']}") from None


def resolve_plan(
    plan: HazardPlan, tools: Sequence[ToolSpec], seed: int | None = None
) -> list[HazardSpec]:
    """Bind ``plan`` to the offered ``tools``: the hazard specs it applies, in order.

    Args:
        plan: The plan.
        tools: The tools the agent is offered (their documented specs).
        seed: Overrides the plan's seed (the pytest plugin varies it per run).

    Raises:
        BadInput: An unknown variant, a tool the agent is not offered, a missing
            parameter, or a profile that finds nothing to hit.
    """
    by_name = {t.name: t for t in tools}
    for name in [*plan.targets, *plan.fallbacks, *plan.fallbacks.values()]:
        _offered(name, by_name, "plan")
    for group in plan.sources:
        for name in group.tools:
            _offered(name, by_name, "source group")
    rng = random.Random(plan.seed if seed is None else seed)
    specs: list[HazardSpec] = []
    if plan.profile is not None:
        targets = [by_name[n] for n in sorted(plan.targets or by_name)]
        specs += PROFILES[plan.profile](plan, targets, rng)
    for entry in plan.hazards:
        specs.append(_explicit(entry, by_name))
    return specs


def _offered(name: str, by_name: dict[str, ToolSpec], where: str) -> None:
    if name not in by_name:
        offered = ", ".join(sorted(by_name)) or "none"
        raise BadInput(
            f"{where} names tool {name!r}, which the agent is not offered (offered: {offered})"
        )


def _explicit(entry: PlannedHazard, by_name: dict[str, ToolSpec]) -> HazardSpec:
    key = (entry.family, entry.variant)
    if key not in VARIANTS:
        known = ", ".join(f"{f.value}/{v}" for f, v in sorted(VARIANTS))
        raise BadInput(
            f"unknown hazard variant {entry.family.value}/{entry.variant}; known: {known}"
        )
    _offered(entry.tool, by_name, f"hazard {entry.variant}")
    params = _defaults(entry, by_name[entry.tool])
    missing = [p for p in REQUIRED_PARAMS.get(key, ()) if p not in params]
    if missing:
        raise BadInput(
            f"hazard {entry.family.value}/{entry.variant} on {entry.tool!r} needs "
            f"params.{missing[0]}"
        )
    for name in TOOL_PARAMS:
        if name in params:
            _offered(str(params[name]), by_name, f"hazard {entry.variant} params.{name}")
    param = params.get("param")
    props = by_name[entry.tool].parameters.get("properties", {})
    if param is not None and entry.family is not F.OUTPUT_DRIFT and param not in props:
        known = ", ".join(sorted(props)) or "none"
        raise BadInput(
            f"hazard {entry.variant} on {entry.tool!r} names parameter {param!r}, which the "
            f"tool does not have (parameters: {known})"
        )
    return HazardSpec(
        family=entry.family,
        variant=entry.variant,
        tool=entry.tool,
        ordinals=entry.ordinals,
        params=params,
    )


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


def renamed(name: str) -> str:
    """The drifted name of a parameter or field: camelCase, or with ``_v2`` appended."""
    new = _camel(name)
    return new if new != name else f"{name}_v2"


def _swap_case(value: str) -> str:
    return value.lower() if value != value.lower() else value.upper()


def _defaults(entry: PlannedHazard, spec: ToolSpec) -> dict[str, Any]:
    """The entry's params with the defaults a variant can derive from the tool's schema."""
    params = dict(entry.params)
    variant = entry.variant
    if variant in ("renamed_parameter", "renamed_field"):
        key = "param" if variant == "renamed_parameter" else "field"
        if key in params:
            params.setdefault("to", renamed(str(params[key])))
    elif variant == "changed_enum" and "param" in params and "mapping" not in params:
        schema = spec.parameters.get("properties", {}).get(params["param"], {})
        values = schema.get("enum")
        if not values:
            raise BadInput(
                f"hazard changed_enum on {spec.name!r}: parameter {params['param']!r} has no enum"
            )
        params["mapping"] = {str(v): _swap_case(str(v)) for v in values}
    elif variant == "parameter_format":
        params.setdefault("format", "DD/MM/YYYY")
    elif variant == "transient":
        params.setdefault("error", "503")
    elif entry.family is F.CROSS_SOURCE_CONFLICT:
        cls: Any = VARIANTS.get((entry.family, variant))
        if cls is not None:
            params.setdefault("factor", cls.factor)
        params.setdefault("time_field", "as_of")
    return params


# -- profiles ------------------------------------------------------------------------------
Profile = Callable[[HazardPlan, list[ToolSpec], random.Random], list[HazardSpec]]


def _transient(plan: HazardPlan, tools: list[ToolSpec], rng: random.Random) -> list[HazardSpec]:
    """Every target fails its first 1 or 2 calls with a 503, a timeout or a rate limit."""
    out = []
    for spec in tools:
        k = rng.choice([1, 2])
        error = rng.choice(["503", "timeout", "rate_limit"])
        out.append(
            HazardSpec(
                family=F.EXECUTION_FAILURE,
                variant="transient",
                tool=spec.name,
                ordinals=list(range(1, k + 1)),
                params={"error": error, "k": k},
            )
        )
    return out


def _drift(plan: HazardPlan, tools: list[ToolSpec], rng: random.Random) -> list[HazardSpec]:
    """Every target with parameters has one (drawn) renamed for good; the others nest results."""
    out = []
    for spec in tools:
        names = sorted(spec.parameters.get("properties", {}))
        if names:
            param = rng.choice(names)
            out.append(
                HazardSpec(
                    family=F.SPECIFICATION_DRIFT,
                    variant="renamed_parameter",
                    tool=spec.name,
                    params={"param": param, "to": renamed(param)},
                )
            )
        else:
            out.append(
                HazardSpec(
                    family=F.OUTPUT_DRIFT,
                    variant="nested_shape",
                    tool=spec.name,
                    params={"key": "data"},
                )
            )
    return out


def _outage(plan: HazardPlan, tools: list[ToolSpec], rng: random.Random) -> list[HazardSpec]:
    """Targets with a fallback are down for good; without any, one drawn target is."""
    names = [t.name for t in tools]
    down = [n for n in names if n in plan.fallbacks] or ([rng.choice(names)] if names else [])
    return [
        HazardSpec(
            family=F.EXECUTION_FAILURE,
            variant="outage",
            tool=name,
            params={"fallback": plan.fallbacks[name]} if name in plan.fallbacks else {},
        )
        for name in down
    ]


def _conflict(plan: HazardPlan, tools: list[ToolSpec], rng: random.Random) -> list[HazardSpec]:
    """One drawn non-authoritative source of each group disagrees with the others.

    Three or more sources: a corrupted outlier (the majority is right); two: a stale
    source, or the non-authoritative one where the group names an authority.
    """
    if not plan.sources:
        raise BadInput(
            "the conflict profile needs a `sources` group: tools that answer the same question"
        )
    out = []
    targets = {t.name for t in tools}
    for group in plan.sources:
        candidates = sorted(n for n in group.tools if n != group.authoritative and n in targets)
        if not candidates:
            continue
        tool = rng.choice(candidates)
        if group.authoritative:
            variant = "authoritative"
        elif len(group.tools) >= 3:
            variant = "corrupted_outlier"
        else:
            variant = "stale_source"
        cls: Any = VARIANTS[(F.CROSS_SOURCE_CONFLICT, variant)]
        params = {"field": group.field, "factor": cls.factor, "time_field": group.time_field}
        out.append(
            HazardSpec(family=F.CROSS_SOURCE_CONFLICT, variant=variant, tool=tool, params=params)
        )
    return out


def _everything(plan: HazardPlan, tools: list[ToolSpec], rng: random.Random) -> list[HazardSpec]:
    """Transient errors, drift, outages of tools with a fallback, and any source conflicts."""
    out = _transient(plan, tools, rng) + _drift(plan, tools, rng)
    if plan.fallbacks:
        out += _outage(plan, tools, rng)
    if plan.sources:
        out += _conflict(plan, tools, rng)
    return out


PROFILES: dict[str, Profile] = {
    "transient": _transient,
    "drift": _drift,
    "outage": _outage,
    "conflict": _conflict,
    "everything": _everything,
}
"""The ready profiles by name (see each function's docstring)."""
