"""Cross-source conflict: independent sources of one fact disagree.

The target source returns a distorted value for a numeric fact field; the other sources
(real tools of the domain) still return the true one. Which value to trust depends on the
variant: the fresher timestamp, the majority of three, or the source the docs call
authoritative.

Every variant is ``silent``: no error says anything is wrong; only a cue the agent can
observe does (a timestamp older than the date it is given, a value far from the others'),
and only if it looks. The target is never the source the documentation calls
authoritative (an agent that trusts the docs must not be scored wrong), and the build's
coherence gate also refuses a task whose prompt names the target source.

Those three v2 variants are ``legacy`` (issue #24): the docs they show label the
authority, so an agent that always calls the tool whose docs claim it never meets the
conflict. :class:`InferredRule` replaces them: the docs it shows label no source, and which
rule settles the conflict (the freshest stamp, a provider's published provisional-figures
policy, the majority of three) shows only in the records the three sources return.
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, ClassVar

from toolchaos.core.types import (
    HazardFamily,
    RecoveryAction,
    RecoveryStep,
    TaskSpec,
    Tier,
    ToolSpec,
)
from toolchaos.core.values import is_number
from toolchaos.domains import Domain
from toolchaos.hazards.base import (
    Hazard,
    HazardContext,
    PendingCall,
    Proposal,
    Results,
    map_records,
    register_hazard,
)
from toolchaos.hazards.propose import NUMERIC_OPS, once_each, tool_at, value_at


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
    """Distort ``params.field`` in the target's result by ``params.factor``.

    A variant fits a numeric answer field that the domain's ``notes.sources`` lists for
    the target tool, with :meth:`cross_checked` saying which other sources the recipe asks.
    """

    family: ClassVar[HazardFamily] = HazardFamily.CROSS_SOURCE_CONFLICT
    tiers: ClassVar[tuple[Tier, ...]] = ("silent",)
    legacy: ClassVar[bool] = True
    names_authority: ClassVar[bool] = True
    """Whether the docs the agent sees name an authoritative source (the coherence gate then
    refuses a task that corrupts it)."""
    stale_days: ClassVar[int] = 0
    prefer: ClassVar[str]
    """How the recipe picks a value: ``fresh``, ``majority`` or ``authoritative``."""
    factor: ClassVar[float]
    """How far the target's value is moved (the spec's ``params.factor``)."""
    needs: ClassVar[tuple[str, ...]] = ("field",)
    takes: ClassVar[tuple[str, ...]] = ("factor", "time_field")
    defaults: ClassVar[Mapping[str, Any]] = {"time_field": "as_of"}
    field_types: ClassVar[Mapping[str, tuple[str, ...]]] = {"field": ("number", "integer")}

    @classmethod
    def plan_params(cls, params: Mapping[str, Any], tool: ToolSpec) -> dict[str, Any]:
        """A plan's ``factor`` defaults to the variant's own (:attr:`factor`)."""
        out = dict(params)
        out.setdefault("factor", cls.factor)
        return super().plan_params(out, tool)

    @classmethod
    def cross_checked(cls, alternatives: list[str], authority: str) -> list[str] | None:
        """The sources the recipe checks the target against, or None where the variant does not fit.

        Args:
            alternatives: The other sources of the fact, the target left out.
            authority: The source the docs call authoritative ("" when they name none).
        """
        raise NotImplementedError

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A numeric answer field (a step's top-level field) that other sources also serve."""
        sources = domain.notes.sources
        if task.reference.answer_spec.op not in NUMERIC_OPS:
            return []
        out = []
        fields = [
            p for p in task.reference.answer_spec.refs if len(p) == 2 and isinstance(p[1], str)
        ]
        for path in once_each(fields, key=lambda p: (tool_at(task, p), p[1])):
            step = task.reference.steps[int(path[0])]
            how = sources.get(step.tool)
            if how is None or path[1] not in how.fields:
                continue
            if not is_number(value_at(results, list(path))):
                continue
            authority = how.authoritative or ""
            if step.tool == authority:
                continue
            others = [a for a in how.alternatives if a != step.tool]
            chosen = cls.cross_checked(others, authority)
            if chosen is None:
                continue
            time_field = how.time_field
            check = {
                "alternatives": chosen,
                "args_map": {a: dict(how.args_map[a]) for a in chosen},
                "field": path[1],
                "prefer": cls.prefer,
                "time_field": time_field,
                "authoritative": authority,
            }
            recipe = [RecoveryStep(action=RecoveryAction.CROSS_CHECK, params=check)]
            params = {"field": path[1], "factor": cls.factor, "time_field": time_field}
            out.append(cls.proposal(step.tool, params, recipe, extra_tools=chosen))
        return out

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """Return the distorted (and, for a stale source, back-dated) result."""
        if not (self.fires(call.tool, call.ordinal) and isinstance(result, dict)):
            return result
        name = str(self.spec.params["field"])
        factor = float(self.spec.params["factor"])
        time_field = str(self.param("time_field"))

        def alter(record: dict[str, Any]) -> dict[str, Any]:
            if name not in record:
                return record
            out = {**record, name: _distort(record[name], factor)}
            if self.stale_days and time_field in record:
                out[time_field] = _older(record[time_field], self.stale_days)
            return out

        self.log(ctx, call.tool, call.ordinal, f"{name!r} disagrees with other sources")
        return map_records(result, alter)


def two_others(alternatives: list[str]) -> list[str] | None:
    """The first two other sources, for a variant that needs three (None with fewer)."""
    return alternatives[:2] if len(alternatives) >= 2 else None


@register_hazard
class StaleSource(_Conflict):
    """The target serves an old value with an older timestamp than the other source."""

    variant: ClassVar[str] = "stale_source"
    summary: ClassVar[str] = "one source is stale (older timestamp)"
    stale_days: ClassVar[int] = 3
    prefer: ClassVar[str] = "fresh"
    factor: ClassVar[float] = 1.2
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} source may serve out-of-date data. Compare it with another source and "
        "trust the one with the newer timestamp.",
        "Reliability notice. The data from {tool} may be stale: its '{time_field}' "
        "timestamp can lag behind other providers of the same figures. Check the same "
        "item with another source available to you, compare the '{time_field}' stamps, "
        "and use the value from the most recently updated source.",
    )

    @classmethod
    def cross_checked(cls, alternatives: list[str], authority: str) -> list[str] | None:
        """One other source, whose fresher timestamp settles it (not the authority if avoidable).

        Freshness is the rule here, so the check is made against a source the docs do not
        also call authoritative, where the domain has one.
        """
        plain = [a for a in alternatives if a != authority]
        return (plain or alternatives)[:1]


@register_hazard
class CorruptedOutlier(_Conflict):
    """One of three sources returns a corrupted outlier."""

    variant: ClassVar[str] = "corrupted_outlier"
    summary: ClassVar[str] = "one of three sources is a corrupted outlier"
    prefer: ClassVar[str] = "majority"
    factor: ClassVar[float] = 3.5
    hints: ClassVar[tuple[str, str]] = (
        "One data source may return a corrupted value. Check '{field}' against the other "
        "sources and go with the value most of them agree on.",
        "Reliability notice. One of the providers of '{field}' is returning corrupted "
        "figures that are far off the true value. Ask every available source for the same "
        "item, compare the answers, and keep the value that the majority agrees on; treat "
        "a lone outlier as an error.",
    )

    @classmethod
    def cross_checked(cls, alternatives: list[str], authority: str) -> list[str] | None:
        """Two other sources, so three make a majority; it does not fit with fewer."""
        return two_others(alternatives)


@register_hazard
class NonAuthoritative(_Conflict):
    """A non-authoritative source disagrees with the one the docs name as authoritative."""

    variant: ClassVar[str] = "authoritative"
    summary: ClassVar[str] = "sources disagree; the docs name the authoritative one"
    prefer: ClassVar[str] = "authoritative"
    factor: ClassVar[float] = 1.25
    hints: ClassVar[tuple[str, str]] = (
        "Sources may disagree about '{field}'. When they do, use the source the "
        "documentation names as authoritative.",
        "Reliability notice. The providers of '{field}' do not always agree. The tool "
        "documentation names one of them as the authoritative reference. If the source "
        "you used gives a different figure from the authoritative one, the authoritative "
        "source is right: check it and use its value.",
    )

    @classmethod
    def cross_checked(cls, alternatives: list[str], authority: str) -> list[str] | None:
        """The authoritative source; it does not fit where the target is the authority."""
        return [authority] if authority in alternatives else None


_CLAIM = re.compile(
    r"\b(?:authoritative|prevails?|system of record|reference source|primary|official|fallback"
    r"|backup|fresh(?:er|est)?|up-to-date|real-?time|(?:updated|refreshed) every)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.;])\s+")
_LISTED = re.compile(r":\s+")
_CLAIM_ASIDE = re.compile(r"\s*\([^()]*\)|,\s+the\s[^,.;]*")
RULES = ("fresh", "settled", "majority")
"""The rules that settle an :class:`InferredRule` conflict, as the recipe's ``prefer``."""
FLAG = "provisional"
POLICY = (
    "This provider publishes a figure before its end-of-day reconciliation with "
    f"{FLAG}: true; such a figure is an early estimate that reconciliation may still "
    f"change, and a reconciled one comes with {FLAG}: false."
)
"""The policy each source of an :class:`InferredRule` conflict publishes in its own docs."""


def _rule_for(task_id: str, tool: str) -> str:
    """The rule of one proposal: majority in 1 of 25, freshness and the policy in 24 evenly.

    A digest of the task and tool, not a draw, so the other variants' draws stay as they
    were; majority stays rare because an agent that blindly takes the value two of three
    sources agree on gets exactly those tasks right
    (tests/suites/toolbench_x/test_cross_source_v3.py).
    """
    slot = zlib.crc32(f"{task_id}/{tool}".encode()) % 25
    return "majority" if slot < 1 else ("fresh" if slot % 2 else "settled")


def _names(text: str, names: list[str]) -> bool:
    return any(re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", text) for n in names)


def neutral_description(description: str, unoffered: list[str]) -> str:
    """``description`` without a claim of authority, freshness or fallback status.

    An aside that claims one ("(the system of record)", ", the authoritative aggregator")
    is cut from its sentence; a sentence that names a tool of ``unoffered`` keeps only the
    keys it lists after a colon; one that still claims standing or names such a tool is
    dropped. What the tool returns and how it is called stay.
    """
    kept = []
    for sentence in _SENTENCE.split(description.strip()):
        text = _CLAIM_ASIDE.sub(
            lambda m: "" if _CLAIM.search(m.group(0)) else m.group(0), sentence
        ).strip()
        listed = _LISTED.split(text, maxsplit=1)
        if _names(text, unoffered) and len(listed) == 2:
            # "Same keys as get_x: a, b and c" keeps the keys, not the tool it points to
            text = f"Returns {listed[1]}"
        if not text or _CLAIM.search(text) or _names(text, unoffered):
            continue
        text = text.rstrip(";,")
        kept.append(text if text.endswith((".", ":")) else f"{text}.")
    return " ".join(kept)


@register_hazard
class InferredRule(_Conflict):
    """Three sources disagree and only their records show which rule settles it.

    The docs of all three sources are shown without any claim of authority or freshness,
    each with the same provisional-figures policy (:data:`POLICY`), so no doc picks a
    source. The rule (``params.rule``) shows only in the data: ``fresh``, the target and
    one other source are stamped ``stale_days`` before the date the agent is given and
    agree on the distorted value, the third is current; ``settled``, those two agree on
    the distorted value flagged provisional, the third is flagged reconciled (the only
    rule whose records carry the flag, so its tier is ``implicit``); ``majority``, the
    target alone is off. Which of the two others is sound is drawn from the task id, and
    the toolbox lists them by name, so neither a blind reading of the three (the first,
    the last or the value two agree on) nor a place in the toolbox finds it in a
    ``fresh`` or ``settled`` task.
    """

    variant: ClassVar[str] = "inferred_rule"
    tiers: ClassVar[tuple[Tier, ...]] = ("silent", "implicit")
    summary: ClassVar[str] = "three sources disagree; freshness, policy or majority settles it"
    legacy: ClassVar[bool] = False
    names_authority: ClassVar[bool] = False
    prefer: ClassVar[str] = "fresh"
    factor: ClassVar[float] = 1.2
    takes: ClassVar[tuple[str, ...]] = (
        "factor",
        "time_field",
        "rule",
        "sources",
        "unoffered",
        "stale_days",
    )
    defaults: ClassVar[Mapping[str, Any]] = {
        "time_field": "as_of",
        "rule": "fresh",
        "sources": [],
        "unoffered": [],
        "stale_days": 3,
    }
    hints: ClassVar[tuple[str, str]] = (
        "Sources of '{field}' may disagree, and none is authoritative as such. Ask every "
        "source and let their records decide: a '{time_field}' days before today's date or "
        "a provisional figure loses; otherwise the value most sources agree on wins.",
        "Reliability notice. The providers of '{field}' do not always agree, and no "
        "provider is right by standing. Ask every source for the same item and compare "
        "the records: a figure whose '{time_field}' is days older than today's date is "
        f"stale and a current one is right; if some figures carry {FLAG}: true, a "
        "reconciled one is right; if neither settles it, keep the value most sources "
        "agree on.",
    )

    @classmethod
    def cross_checked(cls, alternatives: list[str], authority: str) -> list[str] | None:
        """Both other sources; the variant needs three."""
        return two_others(alternatives)

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A numeric answer field three sources serve, the two others in toolbox order."""
        if task.reference.answer_spec.op not in NUMERIC_OPS:
            return []
        out = []
        fields = [
            p for p in task.reference.answer_spec.refs if len(p) == 2 and isinstance(p[1], str)
        ]
        for path in once_each(fields, key=lambda p: (tool_at(task, p), p[1])):
            tool = tool_at(task, path)
            how = domain.notes.sources.get(tool)
            if how is None or path[1] not in how.fields or how.time_field is None:
                continue
            if not is_number(value_at(results, list(path))):
                continue
            others = [a for a in how.alternatives if a != tool]
            if len(others) < 2:
                continue
            # the toolbox lists the task's own tools first, then the added ones in order
            boxed = [t for t in task.tools if t in others]
            chosen = [*boxed, *(a for a in others if a not in boxed)][:2]
            # which of the two is sound (chosen[0]) is drawn from the task, and the
            # toolbox lists the added ones by name: its place in the toolbox tells nothing
            if zlib.crc32(f"{task.id}/{tool}/sound".encode()) % 2:
                chosen.reverse()
            rule = _rule_for(task.id, tool)
            boxed_all = {*task.tools, *chosen}
            docs = " ".join(domain.tools[t].spec.description for t in (tool, *chosen))
            unoffered = sorted(t for t in domain.tools if t not in boxed_all and t in docs)
            check = {
                "alternatives": chosen,
                "args_map": {a: dict(how.args_map[a]) for a in chosen},
                "field": path[1],
                "prefer": rule,
                "time_field": how.time_field,
                "flag": FLAG,
                "authoritative": "",
            }
            recipe = [RecoveryStep(action=RecoveryAction.CROSS_CHECK, params=check)]
            params = {
                "field": path[1],
                "factor": 3.5 if rule == "majority" else cls.factor,
                "time_field": how.time_field,
                "rule": rule,
                "sources": [tool, *chosen],
                "unoffered": unoffered,
                "stale_days": 3 + zlib.crc32(task.id.encode()) % 4,
            }
            # the provisional flag is a key the clean results never have: it says the
            # figure may be off (implicit); a stale stamp or an outlier says nothing (silent)
            tier: Tier = "implicit" if rule == "settled" else "silent"
            added = sorted(chosen)
            out.append(cls.proposal(tool, params, recipe, extra_tools=added, tier=tier))
        return out

    def visible_specs(self, specs: list[ToolSpec]) -> list[ToolSpec]:
        """The three sources' docs with no claim of standing, each with the same policy.

        No doc names another source or a tool the toolbox leaves out; the three are the
        offered tools that take the same item and return the same keys.
        """
        group = set(self.param("sources")) or {self.spec.tool}
        offered = {s.name for s in specs}
        unoffered = [n for n in self.param("unoffered") if n not in offered]
        out = []
        for spec in specs:
            if spec.name in group:
                # a sentence naming a sibling source says how it relates (which prevails,
                # which is the fallback); the toolbox itself shows the siblings
                hidden = [*unoffered, *(n for n in group if n != spec.name)]
                text = f"{neutral_description(spec.description, hidden)} {POLICY}"
                spec = spec.model_copy(update={"description": text})
            out.append(spec)
        return out

    def after_call(self, call: PendingCall, result: Any, ctx: HazardContext) -> Any:
        """The target's (and, unless the rule is majority, its twin's) record distorted."""
        sources = list(self.param("sources")) or [self.spec.tool]
        if call.tool not in sources or not isinstance(result, dict):
            return result
        if call.tool == self.spec.tool and not self.fires(call.tool, call.ordinal):
            return result
        name = str(self.spec.params["field"])
        rule = str(self.param("rule"))
        time_field = str(self.param("time_field"))
        off = call.tool == sources[0] or (rule != "majority" and call.tool == sources[-1])
        factor = float(self.spec.params["factor"])
        days = int(self.param("stale_days"))

        def alter(record: dict[str, Any]) -> dict[str, Any]:
            if name not in record:
                return record
            out = {**record, FLAG: off} if rule == "settled" else dict(record)
            if off:
                out[name] = _distort(record[name], factor)
                if rule == "fresh" and time_field in record:
                    out[time_field] = _older(record[time_field], days)
            return out

        if off:
            self.log(ctx, call.tool, call.ordinal, f"{name!r} disagrees with other sources")
        return map_records(result, alter)
