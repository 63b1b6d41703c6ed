"""The hazard interface every family implements, and the registry of variants.

A hazard sits between the agent and the tools (the transition kernel Ph). It may rewrite
what the agent sees of the toolbox, reject or alter a call before it runs, or alter the
result after it ran. It fires by call ordinal of its target tool, never by time or chance,
and all of its state lives in the per-episode :class:`HazardContext`. Its ordinals count
only the calls that reach it: a call another hazard rejected first is not one of them.

A variant is one class: its runtime hooks, where it fits a task (:meth:`Hazard.propose`)
and what the ``hint`` arm tells the agent about it (:attr:`Hazard.hints`), registered once
with :func:`register_hazard` (or by an installed package's ``toolchaos.hazards`` entry
point, see :data:`VARIANTS`). It also declares its parameters (:attr:`Hazard.needs`,
:attr:`Hazard.takes`, :attr:`Hazard.tool_params`, :meth:`Hazard.plan_params`), which a
hazard plan on a user's own tools is checked and completed by (``chaos/plan.py``).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint
from typing import Any, ClassVar

from toolchaos.core.errors import BadInput
from toolchaos.core.registry import GROUPS, Registry, package_of
from toolchaos.core.types import (
    HazardEvent,
    HazardFamily,
    HazardSpec,
    Hint,
    RecoveryStep,
    TaskSpec,
    Tier,
    ToolSpec,
)
from toolchaos.domains import Domain

Results = dict[int, Any]
"""The results of a task's reference steps in the clean world, by step index."""


@dataclass
class HazardContext:
    """Per-episode hazard state: what fired, and any scratch values a variant keeps."""

    events: list[HazardEvent] = field(default_factory=list)
    scratch: dict[str, Any] = field(default_factory=dict)


@dataclass
class PendingCall:
    """A validated call about to run: the variant may change its tool or arguments.

    ``ordinal`` is the call's number among the calls of its tool that reached the hazard
    whose hook is running (see :class:`toolchaos.env.hazard_layer.HazardLayer`).
    """

    tool: str
    arguments: dict[str, Any]
    ordinal: int
    reached: list[int] = field(default_factory=list, repr=False)
    """Each hazard's ordinal of this call, in the layer's order (the layer's bookkeeping)."""


@dataclass
class Proposal:
    """A candidate hazard for a task.

    It carries the tools the toolbox must gain for it and any change the task needs so the
    hazard can bite (e.g. an id written loosely in the prompt).
    """

    spec: HazardSpec
    extra_tools: list[str] = field(default_factory=list)
    task_update: dict[str, Any] = field(default_factory=dict)


class Hazard:
    """Base class of a hazard variant. Override only the hooks the variant needs.

    A registered variant must also say where it fits (:meth:`propose`) and give its
    :attr:`hints`.

    Args:
        spec: The task's hazard spec (family, variant, target tool, ordinals, params).
    """

    family: ClassVar[HazardFamily]
    variant: ClassVar[str]
    summary: ClassVar[str] = ""
    tiers: ClassVar[tuple[Tier, ...]] = ("explicit",)
    """The tiers this variant can play, the one v1 task files play first."""
    legacy: ClassVar[bool] = False
    """A v1 variant that only defeats a parser: still plays, never proposed by a build."""
    steps_around_optional: ClassVar[bool] = True
    """Whether leaving ``params.param`` out of a call would avoid the hazard, so the build
    may put it only on a required parameter (False where leaving it out is what trips it)."""
    hints: ClassVar[tuple[str, str]]
    """The minimal (at most 90 words) and the detailed (at most 220) hint template.

    They name the kind of trouble and the way out, never a value from the answer;
    ``{tool}``, the spec's params and ``{resolver}`` (the recipe's tool) fill them in.
    """
    needs: ClassVar[tuple[str, ...]] = ()
    """The params a spec of this variant must carry: a hazard plan gives them, or
    :meth:`plan_params` derives them from the user's tool; a build's proposal sets them."""
    takes: ClassVar[tuple[str, ...]] = ()
    """The other params it reads (each optional). A plan naming a param in neither
    :attr:`needs` nor here is refused."""
    tool_params: ClassVar[tuple[str, ...]] = ()
    """The params that name another tool (a fallback, a v2, a resolver): a plan's must be
    one the agent is offered."""
    defaults: ClassVar[Mapping[str, Any]] = {}
    field_types: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """The JSON types of the result field each param names that the variant can change
    (``{"field": ("number", "integer")}``: a unit change needs a number). A hazard plan
    whose tool's output schema gives that field another type is refused."""
    """The values of params a plan leaves out, written into its spec; the hooks read the
    same values when a spec leaves them out."""

    @classmethod
    def plan_params(cls, params: Mapping[str, Any], tool: ToolSpec) -> dict[str, Any]:
        """A hazard plan's params for this variant on ``tool``, completed.

        ``params`` with :attr:`defaults` for what it leaves out and whatever the variant
        derives from the tool's documented schema (a renamed parameter's new name, an enum's
        new values). Checking what is still missing is the caller's.

        Raises:
            BadInput: The tool's schema cannot give what the variant needs from it.
        """
        out = dict(params)
        for name, value in cls.defaults.items():
            out.setdefault(name, value)
        return out

    @classmethod
    def hint_templates(cls, params: Mapping[str, Any]) -> tuple[str, str]:
        """The (minimal, detailed) hint templates for a spec with ``params``.

        :attr:`hints` unless the variant tells its agent something else in some mode
        (a change its changelog does not record is found another way).
        """
        return cls.hints

    def param(self, name: str) -> Any:
        """The spec's value of ``name``, else the variant's default (KeyError if neither)."""
        if name in self.spec.params:
            return self.spec.params[name]
        return self.defaults[name]

    def __init__(self, spec: HazardSpec) -> None:
        self.spec = spec

    @property
    def tier(self) -> Tier:
        """How observable this instance is (the spec's tier, else the variant's first)."""
        return self.spec.tier or self.tiers[0]

    @property
    def explicit(self) -> bool:
        """Whether the errors and results of this instance name their own fix."""
        return self.tier == "explicit"

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """Every hazard of this variant that fits ``task``, in a deterministic order.

        A variant fits only where it makes sense: a fallback needs a real alternative
        tool, a renamed field must be one the task's path reads, a unit change must feed a
        number the answer reports. The build keeps a proposal only if the oracle recovers
        and the naive baseline fails under it.

        Args:
            task: The unhazarded task.
            domain: The task's domain (its ``notes`` name fallbacks, resolvers, ...).
            rng: The build's seeded generator, for variants that draw a parameter.
            results: The reference steps' results in the clean world.
        """
        raise NotImplementedError

    @classmethod
    def proposal(
        cls,
        tool: str,
        params: dict[str, Any],
        recovery: list[RecoveryStep],
        ordinals: list[int] | None = None,
        extra_tools: list[str] | None = None,
        task_update: dict[str, Any] | None = None,
        tier: Tier | None = None,
    ) -> Proposal:
        """A proposal of this variant on ``tool`` (on all its calls unless ``ordinals``)."""
        spec = HazardSpec(
            family=cls.family,
            variant=cls.variant,
            tool=tool,
            ordinals=ordinals if ordinals is not None else "all",
            params=params,
            recovery=recovery,
            tier=tier or cls.tiers[0],
        )
        return Proposal(spec, extra_tools=extra_tools or [], task_update=task_update or {})

    def fires(self, tool: str, ordinal: int) -> bool:
        """Return whether the hazard hits call number ``ordinal`` (1-based) of ``tool``."""
        if tool != self.spec.tool:
            return False
        return self.spec.ordinals == "all" or ordinal in self.spec.ordinals

    def log(self, ctx: HazardContext, tool: str, ordinal: int, detail: str) -> HazardEvent:
        """Record one firing in the episode's hazard context and return the event."""
        event = HazardEvent(
            family=self.family, variant=self.variant, tool=tool, ordinal=ordinal, detail=detail
        )
        ctx.events.append(event)
        return event

    def visible_specs(self, specs: list[ToolSpec]) -> list[ToolSpec]:
        """Return the toolbox as the agent sees it (the documentation)."""
        return specs

    def changelog(self, tool: str) -> list[str]:
        """What the service's changelog says about ``tool`` while this hazard is active.

        An implicit variant puts its fix here (a renamed parameter, a new format, a unit
        change), where an agent that looks can find it; most variants say nothing.
        """
        return []

    def world_patch(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Records the backend holds only under this hazard (a world patch; most add none).

        A truly ambiguous name needs a namesake the clean world does not have: the env
        applies this patch to the episode's world in the hazard arms only.
        """
        return {}

    def backend_spec(self, spec: ToolSpec) -> ToolSpec:
        """Return the schema the backend really validates against (drift changes it)."""
        return spec

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Look at a call before schema validation; raise ToolError to reject it.

        ``call.ordinal`` is the ordinal the call takes if it reaches the service; a
        rejection here counts as reaching it.
        """

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Inspect a validated call before it runs; raise ToolError to reject it, or edit it."""

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Return the result the agent sees (output drift alters it; may raise ToolError)."""
        return result


def _adopt(entry: EntryPoint) -> None:
    """Register the hazard variant class an installed package's entry point names.

    Loading it imports its module (whose ``@register_hazard`` may register it already); a
    variant that cannot be loaded is left out with a warning, so one broken package does
    not stop every run.
    """
    package = package_of(entry) or "?"
    try:
        cls = entry.load()
        if not (isinstance(cls, type) and issubclass(cls, Hazard)):
            raise TypeError(f"{entry.value} is no Hazard subclass")
        if cls.variant != entry.name:
            raise TypeError(f"{entry.value} is the variant {cls.variant!r}, not {entry.name!r}")
        register_hazard(cls)
        VARIANTS.origins[(cls.family, cls.variant)] = package
    except Exception as exc:  # a broken package: every other variant still plays
        warnings.warn(
            f"toolchaos: hazard variant {entry.name!r} of package {package} is left out: {exc}",
            stacklevel=2,
        )


VARIANTS: Registry[tuple[HazardFamily, str], type[Hazard]] = Registry(
    "hazard variant", GROUPS["hazard"], adopt=_adopt
)
"""Every hazard variant class by (family, variant): the built-in ones (registered as
their modules import), then those of installed packages' ``toolchaos.hazards`` entry
points (name: the variant; value: ``module:Class``), loaded on the first lookup."""


def register_hazard(cls: type[Hazard]) -> type[Hazard]:
    """Class decorator: register a hazard variant under (family, variant).

    Raises:
        TypeError: The class (or a base below :class:`Hazard`) defines no ``propose`` or
            no ``hints``: the build could never plan it, or the hint arm could not name it.
    """
    own = {name for klass in cls.__mro__[: cls.__mro__.index(Hazard)] for name in vars(klass)}
    missing = [name for name in ("propose", "hints") if name not in own]
    if missing:
        raise TypeError(f"hazard variant {cls.__name__} defines no {' and no '.join(missing)}")
    held = VARIANTS.registered((cls.family, cls.variant))
    if held is not None and _where(held) != _where(cls):  # the same class again is a reload
        raise TypeError(
            f"hazard variant {cls.family.value}/{cls.variant} of {_where(cls)} is already "
            f"registered by {_where(held)}"
        )
    VARIANTS[(cls.family, cls.variant)] = cls
    return cls


def _where(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def build_hazard(spec: HazardSpec) -> Hazard:
    """Instantiate the registered variant that ``spec`` names."""
    cls = VARIANTS.get((spec.family, spec.variant))
    if cls is None:
        known = ", ".join(f"{f.value}/{v}" for f, v in sorted(VARIANTS))
        raise BadInput(f"unknown hazard variant {spec.family.value}/{spec.variant}; known: {known}")
    return cls(spec)


def proposals(
    task: TaskSpec, domain: Domain, rng: random.Random, results: Results
) -> dict[HazardFamily, list[Proposal]]:
    """Every fitting proposal of every registered variant for ``task``, grouped by family.

    Variants are asked in (family, variant) order, whatever order they registered in, so
    the draws they take from ``rng`` (and so the build) do not depend on import order.
    ``results`` are the reference steps' results in the clean world.
    """
    out: dict[HazardFamily, list[Proposal]] = {}
    for (family, _variant), cls in sorted(VARIANTS.items()):
        if cls.legacy:
            continue
        found = cls.propose(task, domain, rng, results)
        if found:
            out.setdefault(family, []).extend(found)
    return out


def tier_of(spec: HazardSpec) -> Tier:
    """The tier ``spec`` plays at: its own, else its variant's first (a v1 task's)."""
    if spec.tier is not None:
        return spec.tier
    cls = VARIANTS.get((spec.family, spec.variant))
    return cls.tiers[0] if cls is not None else "explicit"


def hint_for(spec: HazardSpec, delivery: str = "start") -> Hint | None:
    """Return the hint texts for ``spec``, or None when no registered variant matches it."""
    cls = VARIANTS.get((spec.family, spec.variant))
    if cls is None:
        return None
    values = {"tool": spec.tool, **{k: str(v) for k, v in spec.params.items()}}
    for step in spec.recovery:
        values.setdefault("resolver", str(step.params.get("tool", "")))
    minimal, detailed = (text.format(**values) for text in cls.hint_templates(spec.params))
    return Hint(
        minimal=minimal,
        detailed=detailed,
        delivery="start" if delivery == "start" else "first_anomaly",
    )


def transform_keys(
    value: Any, fn: Callable[[str, Any], tuple[str, Any] | None], drop: str | None = None
) -> Any:
    """Walk a JSON value and let ``fn(key, value)`` rewrite each dict entry.

    ``fn`` returns the new ``(key, value)`` or ``None`` to keep the entry as it is; an entry
    renamed to ``drop`` is removed.
    """
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            v = transform_keys(v, fn, drop)
            change = fn(k, v)
            if change is None:
                out[k] = v
            elif change[0] != drop:
                out[change[0]] = change[1]
        return out
    if isinstance(value, list):
        return [transform_keys(v, fn, drop) for v in value]
    return value


def map_records(value: Any, fn: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """Rebuild a JSON value with ``fn`` applied to every object in it, innermost first."""
    if isinstance(value, dict):
        return fn({k: map_records(v, fn) for k, v in value.items()})
    if isinstance(value, list):
        return [map_records(v, fn) for v in value]
    return value


def map_field(value: Any, name: str, fn: Callable[[Any], Any]) -> Any:
    """Apply ``fn`` to every value stored under key ``name``, at any depth."""
    return map_records(value, lambda d: {**d, name: fn(d[name])} if name in d else d)


def with_parameters(
    spec: ToolSpec, properties: dict[str, Any], required: list[str] | None = None
) -> ToolSpec:
    """``spec`` with other parameter properties (and required names, when given)."""
    parameters = {**spec.parameters, "properties": properties}
    if required is not None:
        parameters["required"] = required
    return spec.model_copy(update={"parameters": parameters})
