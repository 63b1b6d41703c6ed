"""Invocation errors: a stricter backend rejects calls the agent was allowed to make."""

from __future__ import annotations

import random
import re
from typing import ClassVar

from toolchaos.core.errors import ToolError
from toolchaos.core.reference import Unresolved, follow
from toolchaos.core.types import HazardFamily, RecoveryStep, TaskSpec
from toolchaos.domains import Domain, make_world
from toolchaos.hazards.base import (
    Hazard,
    HazardContext,
    PendingCall,
    Proposal,
    Results,
    register,
)

ID_LIKE = re.compile(r"^(?=.*[A-Z])(?=.*\d)[A-Z0-9][A-Z0-9-]*$")
"""An identifier in canonical form: upper-case letters and digits (both), and dashes."""


@register
class StrictFormat(Hazard):
    """An id parameter must be exactly upper case; the lenient documented API took any case."""

    family: ClassVar[HazardFamily] = HazardFamily.INVOCATION_ERROR
    variant: ClassVar[str] = "strict_format"
    summary: ClassVar[str] = "strict format validation of an id (case, spaces)"
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service validates '{param}' strictly: identifiers must be upper case "
        "with no spaces.",
        "Reliability notice. The {tool} service has switched on strict input validation for "
        "'{param}'. Identifiers are accepted only in their canonical form: upper-case "
        "letters, digits and dashes, with no surrounding spaces. An identifier written in "
        "lower case, as a person might type it, is rejected. Normalize it and call again.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """An id argument the prompt spells out: the prompt and the path write it in lower case."""
        out = []
        for index, step in enumerate(task.reference.steps):
            for name, value in step.args.items():
                if not (isinstance(value, str) and ID_LIKE.match(value) and value in task.prompt):
                    continue
                loose = value.lower()
                steps = [
                    s.model_copy(update={"args": {**s.args, name: loose}}) if i == index else s
                    for i, s in enumerate(task.reference.steps)
                ]
                reference = task.reference.model_copy(update={"steps": steps})
                update = {"prompt": task.prompt.replace(value, loose), "reference": reference}
                recipe = [RecoveryStep(action="adapt", params={"normalize_args": {name: "upper"}})]
                params = {"param": name, "rule": "upper-case id"}
                out.append(cls.proposal(step.tool, params, recipe, task_update=update))
        return out

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Reject a value that is not in canonical form."""
        name = self.spec.params["param"]
        value = call.arguments.get(name)
        if not (self.fires(call.tool, call.ordinal) and isinstance(value, str)):
            return
        if value != value.strip().upper():
            self.log(ctx, call.tool, call.ordinal, f"{name!r} not in canonical form")
            raise ToolError(
                f"Invalid value for parameter '{name}': '{value}' does not match the required "
                "format (upper-case letters, digits and dashes, no spaces).",
                code=400,
            )


@register
class MissingArgument(Hazard):
    """The backend requires a parameter the docs mark optional (``params.param``).

    Task files written before the rename call it ``missing_field``; :class:`HazardSpec`
    reads that as ``missing_argument``.
    """

    family: ClassVar[HazardFamily] = HazardFamily.INVOCATION_ERROR
    variant: ClassVar[str] = "missing_argument"
    summary: ClassVar[str] = "an argument documented as optional is required"
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service now insists on the '{param}' parameter even though the "
        "documentation marks it optional. Send it explicitly.",
        "Reliability notice. The {tool} service rejects calls that leave out '{param}', "
        "although the documentation says it is optional and gives a default. When you call "
        "{tool}, include '{param}' explicitly; if you have no reason to choose another "
        "value, send the documented default.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """An optional parameter with a default that the path leaves out."""
        out = []
        seen: set[tuple[str, str]] = set()
        for step in task.reference.steps:
            props = domain.tools[step.tool].spec.parameters["properties"]
            for name, schema in props.items():
                if name in step.args or "default" not in schema or (step.tool, name) in seen:
                    continue
                seen.add((step.tool, name))
                fill = {"fill_args": {name: schema["default"]}}
                recipe = [RecoveryStep(action="adapt", params=fill)]
                out.append(cls.proposal(step.tool, {"param": name}, recipe))
        return out

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Reject a call without the parameter."""
        name = self.spec.params["param"]
        if self.fires(call.tool, call.ordinal) and name not in call.arguments:
            self.log(ctx, call.tool, call.ordinal, f"required parameter {name!r} missing")
            raise ToolError(f"Missing required parameter: '{name}'.", code=400)


@register
class AmbiguousEntity(Hazard):
    """A name (``params.name``) is ambiguous to the backend; it wants the id a lookup returns."""

    family: ClassVar[HazardFamily] = HazardFamily.INVOCATION_ERROR
    variant: ClassVar[str] = "ambiguous_entity"
    summary: ClassVar[str] = "an entity name is ambiguous and needs a lookup first"
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service may say a name is ambiguous. Look the entity up with {resolver} "
        "and pass its id instead of the name.",
        "Reliability notice. When {tool} is given a name in '{param}', it may refuse it as "
        "ambiguous, because more than one record carries that name. Use {resolver} to look "
        "the name up, take the identifier of the record that matches the request, and call "
        "{tool} again with that identifier in '{param}'.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A name argument whose domain resolver (``notes.resolvers``) maps it to an id."""
        resolvers = domain.notes.resolvers
        out = []
        for step in task.reference.steps:
            how = resolvers.get(step.tool)
            if how is None:
                continue
            value = step.args.get(how.param)
            if not isinstance(value, str):
                continue
            world = make_world(task, domain)
            try:
                found = domain.tools[how.tool](world, **{how.query_param: value})
                expected = follow({0: found}, [0, *how.id_path])
            except (ToolError, Unresolved):
                continue
            if str(expected).casefold() == value.casefold():
                continue  # the name already is the id: nothing to resolve
            resolve = {
                "param": how.param,
                "tool": how.tool,
                "query_param": how.query_param,
                "id_path": list(how.id_path),
            }
            recipe = [RecoveryStep(action="resolve", params=resolve)]
            params = {
                "param": how.param,
                "name": value,
                "expected_id": expected,
                "resolver": how.tool,
            }
            out.append(cls.proposal(step.tool, params, recipe, extra_tools=[how.tool]))
        return out

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Refuse anything but the resolved id, naming the lookup tool."""
        name, ambiguous = self.spec.params["param"], str(self.spec.params["name"])
        value = call.arguments.get(name)
        if not (self.fires(call.tool, call.ordinal) and isinstance(value, str)):
            return
        if value.strip().casefold() == ambiguous.casefold():
            self.log(ctx, call.tool, call.ordinal, f"{value!r} is ambiguous")
            lookup = self.spec.params["resolver"]
            raise ToolError(
                f"'{value}' is ambiguous: more than one record matches. Look it up with "
                f"'{lookup}' and pass its id in '{name}'.",
                code=409,
                kind="ambiguous",
            )
