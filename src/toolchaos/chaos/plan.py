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
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from toolchaos.core.errors import BadInput
from toolchaos.core.types import HazardFamily, HazardSpec, Tier, ToolSpec
from toolchaos.hazards import VARIANTS
from toolchaos.hazards.propose import renamed

PROFILE_NAMES = ("transient", "drift", "outage", "conflict", "everything")

F = HazardFamily
PLAN_PARAMS = ("announce",)
"""Params every plan entry may carry besides its variant's own (:attr:`Hazard.needs`,
:attr:`Hazard.takes`): ``announce: true`` updates the documentation too (the engine's)."""


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
    tier: Tier | None = Field(
        default=None,
        description="How observable the hazard is (one of its variant's tiers; default its "
        "first): an explicit outage names its fallback in the error, an implicit one does not.",
    )

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
    question (the ``conflict`` profile needs a group). ``tier`` sets how observable the
    profile's hazards are where their variant plays it (each explicit hazard has its own
    ``tier``). Every random choice (which required parameter to rename, how many
    transient errors) comes from ``seed``.
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
    tier: Tier | None = Field(
        default=None,
        description="The tier of the profile's hazards, where their variant plays it "
        "(default: each variant's first; an outage with a fallback is explicit).",
    )

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
    except json.JSONDecodeError as exc:
        raise BadInput(f"plan file {path}, line {exc.lineno}: not valid JSON ({exc.msg})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or type(exc).__name__
        where = f", line {mark.line + 1}" if mark is not None else ""
        raise BadInput(f"plan file {path}{where}: not valid YAML ({problem})") from None
    if not isinstance(data, dict):
        raise BadInput(f"plan file {path} must hold a mapping at the top level")
    plan = _validate(data, f"plan file {path}")
    return plan if plan.name else plan.model_copy(update={"name": path.stem})


def _validate(data: dict[str, Any], where: str) -> HazardPlan:
    try:
        plan = HazardPlan.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "plan"
        raise BadInput(f"{where}, field {field}: {first['msg']}") from None
    for number, entry in enumerate(plan.hazards):
        if (entry.family, entry.variant) not in VARIANTS:  # refused before any upstream starts
            raise BadInput(f"{where}, field hazards.{number}.variant: {unknown_variant(entry)}")
    return plan


def unknown_variant(entry: PlannedHazard) -> str:
    """One sentence for a (family, variant) no hazard is registered under, with a guess."""
    import difflib

    mine = sorted(v for f, v in VARIANTS if f == entry.family)
    close = difflib.get_close_matches(entry.variant, mine, n=1, cutoff=0.6)
    if close:
        guess = f"did you mean {close[0]!r}?"
    else:
        elsewhere = sorted(f.value for f, v in VARIANTS if v == entry.variant)
        guess = (
            f"it is a variant of {', '.join(elsewhere)}"
            if elsewhere
            else f"{entry.family.value} has {', '.join(mine)}"
        )
    return f"{entry.family.value} has no variant {entry.variant!r}; {guess}"


def resolve_plan(
    plan: HazardPlan,
    tools: Sequence[ToolSpec],
    seed: int | None = None,
    outputs: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[HazardSpec]:
    """Bind ``plan`` to the offered ``tools``: the hazard specs it applies, in order.

    Args:
        plan: The plan.
        tools: The tools the agent is offered (their documented specs).
        seed: Overrides the plan's seed (the pytest plugin varies it per run).
        outputs: The JSON Schema of each tool's result, where it is known (an MCP tool's
            ``outputSchema``, a function's return annotation): a hazard that cannot change
            the field it names (a unit change on a text field) is refused.

    Raises:
        BadInput: An unknown variant, a tool the agent is not offered, a missing
            parameter, a tier the variant does not play, a field of the wrong type, or
            a profile that finds nothing to hit.
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
        specs += [_tiered(s, plan.tier) for s in PROFILES[plan.profile](plan, targets, rng)]
    for entry in plan.hazards:
        specs.append(_explicit(entry, by_name))
    for spec in specs:
        _check_tier(spec)
        _check_fields(spec, (outputs or {}).get(spec.tool))
    return specs


def _tiered(spec: HazardSpec, tier: Tier | None) -> HazardSpec:
    """A profile's spec at the plan's tier, where its variant plays it."""
    cls = VARIANTS[(spec.family, spec.variant)]
    if tier is None or tier not in cls.tiers or spec.tier is not None:
        return spec
    if cls is VARIANTS[(F.EXECUTION_FAILURE, "outage")] and "fallback" not in spec.params:
        return spec  # an outage with nowhere to go cannot name a fallback
    return spec.model_copy(update={"tier": tier})


def _check_tier(spec: HazardSpec) -> None:
    cls = VARIANTS[(spec.family, spec.variant)]
    name = f"{spec.family.value}/{spec.variant}"
    if spec.tier is not None and spec.tier not in cls.tiers:
        raise BadInput(
            f"hazard {name} on {spec.tool!r} has no tier {spec.tier!r} "
            f"(it plays: {', '.join(cls.tiers)})"
        )
    explicit = (spec.tier or cls.tiers[0]) == "explicit"
    if explicit and spec.variant == "outage" and "fallback" not in spec.params:
        raise BadInput(
            f"hazard {name} on {spec.tool!r} at tier explicit names its fallback in the "
            "error: it needs params.fallback"
        )


def _check_fields(spec: HazardSpec, output: Mapping[str, Any] | None) -> None:
    """Refuse a hazard whose field the tool's output schema types as it cannot change."""
    cls = VARIANTS[(spec.family, spec.variant)]
    if not output:
        return
    for param, wanted in cls.field_types.items():
        field = spec.params.get(param)
        found = sorted(_types_of(output, str(field))) if field is not None else []
        if found and not set(found) & set(wanted):
            raise BadInput(
                f"hazard {spec.family.value}/{spec.variant} on {spec.tool!r} cannot change "
                f"field {field!r}: the tool's output schema gives it as {' or '.join(found)}, "
                f"and it changes only a {' or '.join(wanted)}"
            )


def _types_of(schema: Any, field: str) -> set[str]:
    """Every JSON type a property named ``field`` has anywhere in ``schema``."""
    out: set[str] = set()
    if isinstance(schema, dict):
        props = schema.get("properties")
        if isinstance(props, dict) and isinstance(props.get(field), dict):
            kind = props[field].get("type")
            out |= {kind} if isinstance(kind, str) else set(kind or [])
            for member in props[field].get("anyOf", []) or []:
                if isinstance(member, dict) and isinstance(member.get("type"), str):
                    out.add(member["type"])
        for value in schema.values():
            out |= _types_of(value, field)
    elif isinstance(schema, list):
        for value in schema:
            out |= _types_of(value, field)
    return out - {"null"}


def _offered(name: str, by_name: dict[str, ToolSpec], where: str) -> None:
    if name not in by_name:
        offered = ", ".join(sorted(by_name)) or "none"
        raise BadInput(
            f"{where} names tool {name!r}, which the agent is not offered (offered: {offered})"
        )


def _explicit(entry: PlannedHazard, by_name: dict[str, ToolSpec]) -> HazardSpec:
    cls = VARIANTS.get((entry.family, entry.variant))
    name = f"{entry.family.value}/{entry.variant}"
    if cls is None:
        raise BadInput(unknown_variant(entry))
    _offered(entry.tool, by_name, f"hazard {entry.variant}")
    accepted = (*cls.needs, *cls.takes, *PLAN_PARAMS)
    unknown = [p for p in entry.params if p not in accepted]
    if unknown:
        raise BadInput(
            f"hazard {name} on {entry.tool!r} takes no parameter params.{unknown[0]} "
            f"(it takes: {', '.join(accepted)})"
        )
    params = cls.plan_params(entry.params, by_name[entry.tool])
    missing = [p for p in cls.needs if p not in params]
    if missing:
        raise BadInput(f"hazard {name} on {entry.tool!r} needs params.{missing[0]}")
    for key in cls.tool_params:
        if key in params:
            _offered(str(params[key]), by_name, f"hazard {entry.variant} params.{key}")
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
        tier=entry.tier,
    )


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
    """Each target has one drawn required parameter renamed for good, or nested results.

    Only a required parameter is drawn: a call may leave an optional one out and step
    around the hazard (a plan's own ``hazards`` entry may still rename an optional one).
    """
    out = []
    for spec in tools:
        props = spec.parameters.get("properties", {})
        names = sorted(n for n in spec.parameters.get("required", []) if n in props)
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
    """Targets with a fallback are down for good; without any, one drawn target is.

    An outage with a fallback is explicit (the error names it: your tools' docs do not),
    one without is implicit; the plan's ``tier: implicit`` keeps the fallback unnamed.
    """
    names = [t.name for t in tools]
    down = [n for n in names if n in plan.fallbacks] or ([rng.choice(names)] if names else [])
    tiers = VARIANTS[(F.EXECUTION_FAILURE, "outage")].tiers
    return [
        HazardSpec(
            family=F.EXECUTION_FAILURE,
            variant="outage",
            tool=name,
            params={"fallback": plan.fallbacks[name]} if name in plan.fallbacks else {},
            tier=(plan.tier if plan.tier in tiers else "explicit")
            if name in plan.fallbacks
            else "implicit",
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
