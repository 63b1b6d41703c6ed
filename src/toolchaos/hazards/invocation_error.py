"""Invocation errors: a stricter backend rejects calls the agent was allowed to make."""

from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from toolchaos.core.errors import ToolError
from toolchaos.core.jsonutil import dumps
from toolchaos.core.reference import Unresolved, follow
from toolchaos.core.types import (
    HazardFamily,
    RecoveryAction,
    RecoveryStep,
    TaskSpec,
    Tier,
    ToolKind,
)
from toolchaos.core.world import World
from toolchaos.domains import Domain, Resolver, make_world
from toolchaos.hazards.base import (
    Hazard,
    HazardContext,
    PendingCall,
    Proposal,
    Results,
    register_hazard,
)
from toolchaos.hazards.propose import changed_on, dated, once_each, required_params, tiered

ID_LIKE = re.compile(r"^(?=.*[A-Z])(?=.*\d)[A-Z0-9][A-Z0-9-]*$")
"""An identifier in canonical form: upper-case letters and digits (both), and dashes."""


@register_hazard
class StrictFormat(Hazard):
    """An id parameter must be exactly upper case; the lenient documented API took any case."""

    family: ClassVar[HazardFamily] = HazardFamily.INVOCATION_ERROR
    variant: ClassVar[str] = "strict_format"
    needs: ClassVar[tuple[str, ...]] = ("param",)
    takes: ClassVar[tuple[str, ...]] = ("rule", "since")
    summary: ClassVar[str] = "strict format validation of an id (case, spaces)"
    tiers: ClassVar[tuple[Tier, ...]] = ("explicit", "implicit")
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service validates '{param}' strictly now: an identifier written the way "
        "a person might type it can be refused. Send it in its canonical form.",
        "Reliability notice. The {tool} service has switched on strict input validation for "
        "'{param}'. Identifiers are accepted only in their canonical form, the way the "
        "service itself writes them in its records; anything else is rejected as not "
        "matching the required format. The service changelog (read_changelog) says what "
        "the canonical form is. Normalize the identifier and call again.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A required id argument the prompt spells out, written in lower case by both.

        One proposal per tier; an optional parameter would not do (an agent that leaves
        it out never meets the check).
        """
        out = []
        for index, step in enumerate(task.reference.steps):
            required = required_params(domain, step.tool)
            for name, value in step.args.items():
                if not (isinstance(value, str) and ID_LIKE.match(value) and value in task.prompt):
                    continue
                if name not in required:
                    continue
                loose = value.lower()
                steps = [
                    s.model_copy(update={"args": {**s.args, name: loose}}) if i == index else s
                    for i, s in enumerate(task.reference.steps)
                ]
                reference = task.reference.model_copy(update={"steps": steps})
                update = {"prompt": task.prompt.replace(value, loose), "reference": reference}
                fix = RecoveryStep(
                    action=RecoveryAction.ADAPT, params={"normalize_args": {name: "upper"}}
                )
                params = {"param": name, "rule": "upper-case id", "since": changed_on(rng)}
                out += tiered(cls, step.tool, params, fix, cls.tiers, task_update=update)
        return out

    def changelog(self, tool: str) -> list[str]:
        """The strict validation and the canonical form, dated."""
        change = (
            f"'{self.spec.params['param']}' is validated strictly. Identifiers must be sent "
            "in canonical form: upper-case letters, digits and dashes, no spaces."
        )
        return dated(self, tool, change)

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Reject a value that is not in canonical form."""
        name = self.spec.params["param"]
        value = call.arguments.get(name)
        if not (self.fires(call.tool, call.ordinal) and isinstance(value, str)):
            return
        if value != value.strip().upper():
            self.log(ctx, call.tool, call.ordinal, f"{name!r} not in canonical form")
            message = (
                f"Invalid value for parameter '{name}': '{value}' does not match the "
                "required format"
            )
            if self.explicit:
                message += " (upper-case letters, digits and dashes, no spaces)"
            raise ToolError(message + ".", code=400)


@register_hazard
class MissingArgument(Hazard):
    """The backend requires a parameter the docs mark optional (``params.param``).

    Task files written before the rename call it ``missing_field``; :class:`HazardSpec`
    reads that as ``missing_argument``.
    """

    family: ClassVar[HazardFamily] = HazardFamily.INVOCATION_ERROR
    variant: ClassVar[str] = "missing_argument"
    needs: ClassVar[tuple[str, ...]] = ("param",)
    takes: ClassVar[tuple[str, ...]] = ("default", "since")
    summary: ClassVar[str] = "an argument documented as optional is required"
    tiers: ClassVar[tuple[Tier, ...]] = ("explicit", "implicit")
    steps_around_optional: ClassVar[bool] = False
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service now insists on a parameter that its documentation marks "
        "optional. If a call is refused as incomplete, find out which (the error or the "
        "service changelog says) and send it explicitly.",
        "Reliability notice. The {tool} service rejects calls that leave out one of the "
        "parameters its documentation calls optional, although the documentation gives it "
        "a default. The service changelog (read_changelog) says which parameter it is. "
        "Include it explicitly; if you have no reason to choose another value, send the "
        "documented default.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """An optional parameter with a default that the path leaves out, in each tier.

        The backend makes it required: every call the path makes to the tool meets it, so
        an agent cannot avoid it by dropping optional arguments. A default that is empty
        or null is left out (the fix would be sending nothing).
        """
        left_out = [
            (step.tool, name, schema["default"])
            for step in task.reference.steps
            for name, schema in domain.tools[step.tool].spec.parameters["properties"].items()
            # an empty memo or a null filter: nothing worth insisting on
            if name not in step.args and schema.get("default") not in ("", None)
        ]
        out = []
        for tool, name, default in once_each(left_out, key=lambda c: c[:2]):
            fix = RecoveryStep(action=RecoveryAction.ADAPT, params={"fill_args": {name: default}})
            params = {"param": name, "default": default, "since": changed_on(rng)}
            out += tiered(cls, tool, params, fix, cls.tiers)
        return out

    def changelog(self, tool: str) -> list[str]:
        """The newly required parameter, dated."""
        change = (
            f"'{self.spec.params['param']}' is now required; the documented default is no "
            "longer applied when it is left out."
        )
        return dated(self, tool, change)

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Reject a call without the parameter (naming it, and its default, if explicit)."""
        name = self.spec.params["param"]
        if self.fires(call.tool, call.ordinal) and name not in call.arguments:
            self.log(ctx, call.tool, call.ordinal, f"required parameter {name!r} missing")
            if not self.explicit:
                raise ToolError("Unprocessable request: a required parameter is missing.", code=422)
            message = f"Missing required parameter: '{name}'."
            if "default" in self.spec.params:
                message += f" Send {dumps(self.spec.params['default'])} for the former default."
            raise ToolError(message, code=400)


DECIDERS = ("email", "city", "address", "region_name", "country_name", "region", "country")
"""Fields a person would use to say which of two namesakes they mean, most telling first."""


@dataclass
class Namesake:
    """Another record renamed to share the entity's name, and what tells the two apart."""

    patch: dict[str, dict[str, dict[str, Any]]]
    index: int
    field: str
    value: str
    detail: str = ""
    """The tool whose record of each candidate shows ``field`` (probing), if the lookup's
    candidates do not show it."""
    detail_param: str = ""
    detail_args: dict[str, Any] = dataclasses.field(default_factory=dict)
    """The detail tool's other arguments (the failing step's own, where it is that tool)."""


@register_hazard
class AmbiguousEntity(Hazard):
    """A name (``params.name``) is truly ambiguous: another record shares it (``namesakes``).

    The namesakes exist only under the hazard (:meth:`world_patch`: an existing record of
    the same table renamed, so every tool serves it as a real record); the clean world
    knows one record of that name. The backend refuses the name, the lookup returns every
    candidate, and the prompt holds what decides between them. A v1 spec has no namesakes
    and plays as before.

    In the probed form (the recipe's resolve step carries ``probe``) the lookup's
    candidates do not show what decides: only another tool's record of each candidate
    does (a detail tool taking the candidate's id), so the agent must open the candidates
    to tell them apart. Taking the first candidate, or the one whose listing matches the
    request, gets the namesake.
    """

    family: ClassVar[HazardFamily] = HazardFamily.INVOCATION_ERROR
    variant: ClassVar[str] = "ambiguous_entity"
    needs: ClassVar[tuple[str, ...]] = ("param", "name", "resolver")
    takes: ClassVar[tuple[str, ...]] = ("expected_id", "namesakes")
    tool_params: ClassVar[tuple[str, ...]] = ("resolver",)
    summary: ClassVar[str] = "an entity name is ambiguous and needs a lookup first"
    tiers: ClassVar[tuple[Tier, ...]] = ("explicit", "implicit")
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may say a name is ambiguous. Look the entity up with {resolver} "
        "and pass the id of the record the request means instead of the name.",
        "Reliability notice. When {tool} is given a name in '{param}', it may refuse it as "
        "ambiguous, because more than one record carries that name. Use {resolver} to look "
        "the name up, compare the candidates with what the request says about the one it "
        "means (where the listing does not show it, open each candidate's own record with a "
        "tool that takes its id), take that record's identifier, and call {tool} again with "
        "it in '{param}'.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A required name argument of a read-only task whose lookup can be made ambiguous.

        Another record of the entity's table takes its name under the hazard; the prompt
        gains what tells them apart (an email, a city, a region ...). The entity must not
        come first among the lookup's candidates (taking the first is not a decision), and
        no other step may pass the name (it would meet the namesake unhazarded).
        """
        if task.reference.writes:  # the namesake would change the end state that is scored
            return []
        out = []
        for step in task.reference.steps:
            how = domain.notes.resolvers.get(step.tool)
            if how is None or how.param not in required_params(domain, step.tool):
                continue
            value = step.args.get(how.param)
            if not isinstance(value, str) or value.casefold() not in task.prompt.casefold():
                continue  # the prompt must name the entity it then tells apart
            elsewhere = [
                s for s in task.reference.steps if s.tool != step.tool and value in s.args.values()
            ]
            if elsewhere:
                continue
            world = make_world(task, domain)
            try:
                found = domain.tools[how.tool](world, **{how.query_param: value})
                expected = follow({0: found}, [0, *how.id_path])
            except (ToolError, Unresolved):
                continue
            if str(expected).casefold() == value.casefold():
                continue  # the name already is the id: nothing to resolve
            for probe in (False, True):
                namesake = _namesake(
                    task, domain, how, value, str(expected), results, rng, probe, step.args
                )
                if namesake is not None:
                    out += cls._proposals(task, step.tool, how, value, expected, namesake)
        return out

    @classmethod
    def _proposals(
        cls,
        task: TaskSpec,
        tool: str,
        how: Resolver,
        value: str,
        expected: Any,
        namesake: Namesake,
    ) -> list[Proposal]:
        """One proposal per tier for ``namesake`` (probed when it names a detail tool)."""
        id_path = [namesake.index if isinstance(k, int) else k for k in how.id_path]
        resolve: dict[str, Any] = {
            "param": how.param,
            "tool": how.tool,
            "query_param": how.query_param,
            "id_path": id_path,
        }
        extra = [how.tool]
        if namesake.detail:
            resolve["probe"] = {
                "tool": namesake.detail,
                "param": namesake.detail_param,
                "field": namesake.field,
                "value": namesake.value,
                "args": namesake.detail_args,
            }
            extra.append(namesake.detail)
        params = {
            "param": how.param,
            "name": value,
            "expected_id": expected,
            "resolver": how.tool,
            "namesakes": namesake.patch,
        }
        words = namesake.field.replace("_", " ")
        prompt = f"{task.prompt} (I mean the {value} whose {words} is {namesake.value}.)"
        return [
            cls.proposal(
                tool,
                params,
                [RecoveryStep(action=RecoveryAction.RESOLVE, params=resolve)],
                extra_tools=list(dict.fromkeys(extra)),
                task_update={"prompt": prompt},
                tier=tier,
            )
            for tier in cls.tiers
        ]

    def world_patch(self) -> dict[str, dict[str, dict[str, Any]]]:
        """The namesakes: records renamed to share the entity's name under the hazard."""
        patch: dict[str, dict[str, dict[str, Any]]] = self.spec.params.get("namesakes", {})
        return patch

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Refuse the bare name (naming the lookup tool if explicit)."""
        name, ambiguous = self.spec.params["param"], str(self.spec.params["name"])
        value = call.arguments.get(name)
        if not (self.fires(call.tool, call.ordinal) and isinstance(value, str)):
            return
        if value.strip().casefold() == ambiguous.casefold():
            self.log(ctx, call.tool, call.ordinal, f"{value!r} is ambiguous")
            message = f"'{value}' is ambiguous: more than one record matches."
            if self.explicit:
                lookup = self.spec.params["resolver"]
                message += f" Look it up with '{lookup}' and pass its id in '{name}'."
            raise ToolError(message, code=409, kind="ambiguous")


def _namesake(
    task: TaskSpec,
    domain: Domain,
    how: Resolver,
    name: str,
    entity_id: str,
    results: Results,
    rng: random.Random,
    probe: bool = False,
    args: dict[str, Any] | None = None,
) -> Namesake | None:
    """Rename another record of the entity's table to ``name``, if one makes a fair pair.

    What tells the two apart is a field of the lookup's candidates; with ``probe``, a field
    the lookup's candidates lack and a detail tool's record of each shows (:func:`_details`).
    """
    world = make_world(task, domain)
    located = _locate(world, entity_id, name)
    if located is None:
        return None
    table, name_field = located
    used = dumps([task.prompt, [s.args for s in task.reference.steps], results])
    others = sorted(k for k in world.table(table) if k != entity_id)
    rng.shuffle(others)
    for key in others[:12]:
        other_name = str(getattr(world.table(table)[key], name_field))
        if key in used or other_name in used:
            continue  # the task already talks about that record
        patch = {table: {key: {name_field: name}}}
        trial = make_world(task, domain)
        trial.apply_patch(patch)
        try:
            found = domain.tools[how.tool](trial, **{how.query_param: name})
            records = follow({0: found}, [0, *how.id_path[:-2]])
        except (ToolError, Unresolved):
            continue
        id_field = str(how.id_path[-1])
        ids = [str(r.get(id_field)) for r in records if isinstance(r, dict)]
        if entity_id not in ids or key not in ids or ids.index(entity_id) == 0:
            continue
        mine, theirs = records[ids.index(entity_id)], records[ids.index(key)]
        if not probe:
            field = _decider(mine, theirs, name, (id_field, name_field))
            if field is not None:
                return Namesake(patch, ids.index(entity_id), field, str(mine[field]))
            continue
        for detail, param, fixed in _details(domain, how, args or {}):
            try:
                full = domain.tools[detail](trial, **{**fixed, param: entity_id})
                other = domain.tools[detail](trial, **{**fixed, param: key})
            except ToolError:
                continue
            if not (isinstance(full, dict) and isinstance(other, dict)):
                continue
            # a field of the entity's own record, not of a reading served about it
            row = trial.table(table)[entity_id].model_dump()
            shown = {
                f: v
                for f, v in full.items()
                if f not in mine and row.get(f) == v and _describes(f, v)
            }
            field = _decider(shown, other, name, (id_field, name_field))
            if field is not None:
                value = str(full[field])
                index = ids.index(entity_id)
                return Namesake(patch, index, field, value, detail, param, fixed)
    return None


def _decider(
    mine: dict[str, Any], theirs: dict[str, Any], name: str, skip: tuple[str, ...]
) -> str | None:
    """The field of ``mine`` a person would tell it from ``theirs`` by, most telling first."""
    fields = [f for f in DECIDERS if f in mine] + [f for f in mine if f not in DECIDERS]
    for field in fields:
        value = mine.get(field)
        if (
            field in skip
            or not isinstance(value, str)
            or not value.strip()
            or len(value) > 60
            or ID_LIKE.match(value)
            or value == theirs.get(field)
            or name.casefold() in value.casefold()  # "the Lima in Lima" decides nothing
        ):
            continue
        return field
    return None


READING_FIELDS = frozenset({"as_of", "provider", "source", "status", "units", "unit", "note"})
"""Fields of a detail record that describe the reading or the service, not the entity."""
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:")


def _describes(field: str, value: Any) -> bool:
    """Whether a detail record's field could tell a person which record they mean.

    Not when it says when or by whom the record was served (a reading's ``as_of``, its
    ``provider``, an ``issued_at`` timestamp): "the Cairo whose as of is ..." decides
    nothing a person would say.
    """
    if field in READING_FIELDS or field.endswith("_at"):
        return False
    return not (isinstance(value, str) and _TIMESTAMP.match(value))


def _details(
    domain: Domain, how: Resolver, args: dict[str, Any]
) -> list[tuple[str, str, dict[str, Any]]]:
    """(tool, parameter, other arguments) of each read tool showing one record of the entity.

    A tool whose lookup is ``how``'s and whose parameter that lookup resolves opens a
    candidate by its id; its other required parameters must be ones the failing step
    passes as literal values (``args``), which it then passes too (so the failing tool
    itself, called with each candidate's id, is one).
    """
    out = []
    for name, other in sorted(domain.notes.resolvers.items()):
        tool = domain.tools.get(name)
        if other.tool != how.tool or tool is None or tool.kind is not ToolKind.READ:
            continue
        rest = set(tool.spec.parameters.get("required", [])) - {other.param}
        fixed = {k: args.get(k) for k in sorted(rest)}
        if all(k in args and not isinstance(v, dict | list) for k, v in fixed.items()):
            out.append((name, other.param, fixed))
    return out


def _locate(world: World, entity_id: str, name: str) -> tuple[str, str] | None:
    """The table holding ``entity_id`` and the field holding its name ``name``."""
    for table in world.TABLES:
        row = world.table(table).get(entity_id)
        if row is None:
            continue
        for field, value in row.model_dump().items():
            if isinstance(value, str) and value.casefold() == name.casefold():
                return table, field
    return None
