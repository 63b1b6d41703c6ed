"""Specification drift: the backend no longer matches the documentation the agent has."""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from toolchaos.core.errors import BadInput, ToolError
from toolchaos.core.reference import Unresolved, resolve
from toolchaos.core.types import (
    HazardFamily,
    RecoveryAction,
    RecoveryStep,
    TaskSpec,
    Tier,
    ToolKind,
    ToolSpec,
)
from toolchaos.core.values import ISO_DATE
from toolchaos.domains import Domain
from toolchaos.hazards.base import (
    Hazard,
    HazardContext,
    PendingCall,
    Proposal,
    Results,
    register_hazard,
    with_parameters,
)
from toolchaos.hazards.propose import (
    changed_on,
    dated,
    once_each,
    renamed,
    required_params,
    switches,
    tiered,
)

DMY_DATE = re.compile(r"^\d{2}/\d{2}/\d{4}$")

LOGGED = ("fix", "vague", "none")
"""What the changelog says of a change (a spec's ``logged``): the fix (the v2 default),
a vague entry that names a change without saying what it is, or nothing at all."""

VAGUE = (
    "request validation now follows the current backend schema; calls that do not match "
    "it are refused with 400."
)
"""The vague entry: true of the change, and of no use to an agent that wants the fix."""

PROBE_VALUE = "?"
"""What a probe sends for an enum parameter: no value the docs or the backend list."""


def unlogged_mode(tool: str, param: str) -> str:
    """Whether an unlogged change at (tool, param) has a vague entry or none (no rng draw).

    A checksum of the place decides, so the build's generator, and every other variant's
    draws from it, are left as they were.
    """
    return LOGGED[1 + zlib.crc32(f"{tool}.{param}".encode()) % 2]


class _Unlogged(Hazard):
    """What the drift variants share when a change is not logged (``logged`` not ``fix``).

    The changelog then says nothing useful, the error only says what is wrong, and the
    backend's own answer to a probing call (the argument left out, or a value outside the
    documented ones) is where the fix shows. ``probe_hints`` replace the variant's hints.
    """

    probe_hints: ClassVar[tuple[str, str]]

    @classmethod
    def hint_templates(cls, params: Mapping[str, Any]) -> tuple[str, str]:
        """The probing hints when the change is not logged, else the variant's own."""
        return cls.hints if params.get("logged", "fix") == "fix" else cls.probe_hints

    @property
    def logged(self) -> str:
        """What the changelog says of this change (:data:`LOGGED`)."""
        return str(self.spec.params.get("logged", "fix"))

    def entry(self, tool: str, change: str) -> list[str]:
        """The changelog's entry: ``change``, the vague entry, or nothing."""
        if self.logged == "none":
            return []
        return dated(self, tool, change if self.logged == "fix" else VAGUE)


def _unlogged(
    cls: type[Hazard], tool: str, params: dict[str, Any], probe: RecoveryStep, fix: RecoveryStep
) -> Proposal:
    """The proposal of ``cls`` whose change the changelog does not record (implicit)."""
    params = {**params, "logged": unlogged_mode(tool, str(params["param"]))}
    return cls.proposal(tool, params, [probe, fix], tier="implicit")


@register_hazard
class RenamedParameter(_Unlogged):
    """The backend renamed a parameter (``params.param`` -> ``params.to``); the docs did not."""

    family: ClassVar[HazardFamily] = HazardFamily.SPECIFICATION_DRIFT
    variant: ClassVar[str] = "renamed_parameter"
    needs: ClassVar[tuple[str, ...]] = ("param",)
    takes: ClassVar[tuple[str, ...]] = ("to", "since", "logged")
    summary: ClassVar[str] = "a parameter was renamed in the backend but not in the docs"
    tiers: ClassVar[tuple[Tier, ...]] = ("explicit", "implicit")
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service renamed one of its parameters and the documentation is out of "
        "date. If a call is refused for an unrecognized argument, find the new name (the "
        "error or the service changelog gives it) and call again.",
        "Reliability notice. The backend of {tool} was updated and one of its parameters "
        "now goes by a different name than the documentation shows. A call with the old "
        "name is rejected as an unrecognized argument. The service changelog "
        "(read_changelog) records the rename. Keep the same value, send it under the new "
        "name, and carry on with the task. The data returned is unchanged.",
    )
    probe_hints: ClassVar[tuple[str, str]] = (
        "The {tool} service renamed one of its parameters; neither its documentation nor "
        "its changelog says so. If a call is refused for an unrecognized argument, call "
        "again without it: the backend's answer names the parameter it requires now.",
        "Reliability notice. The backend of {tool} was updated and one of its parameters "
        "now goes by a name that neither the documentation nor the service changelog "
        "shows. A call with the documented name is rejected as an unrecognized argument. "
        "Leave that argument out of one call: the backend then names the parameter it "
        "requires. Send the same value under that name and carry on with the task.",
    )

    @classmethod
    def plan_params(cls, params: Mapping[str, Any], tool: ToolSpec) -> dict[str, Any]:
        """A plan's ``to`` defaults to the drifted name of ``param`` (:func:`renamed`)."""
        out = super().plan_params(params, tool)
        if "param" in out:
            out.setdefault("to", renamed(str(out["param"])))
        return out

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A required argument the path passes, once per (tool, parameter), in each tier.

        Each place is also offered unlogged: the changelog does not give the new name
        (:func:`unlogged_mode`), and a call without the argument is what shows it. An
        optional one would not do: an agent that leaves it out never meets the rename.
        """
        passed = [
            (step.tool, name)
            for step in task.reference.steps
            for name in step.args
            if name in required_params(domain, step.tool)
        ]
        out = []
        for tool, name in once_each(passed):
            new = renamed(name)
            fix = RecoveryStep(action=RecoveryAction.ADAPT, params={"rename_args": {name: new}})
            params = {"param": name, "to": new, "since": changed_on(rng)}
            out += tiered(cls, tool, params, fix, cls.tiers)
            probe = RecoveryStep(action=RecoveryAction.PROBE, params={"drop": [name]})
            out.append(_unlogged(cls, tool, params, probe, fix))
        return out

    def changelog(self, tool: str) -> list[str]:
        """The rename, dated (unless the change is not logged)."""
        old, new = self.spec.params["param"], self.spec.params["to"]
        change = (
            f"parameter '{old}' renamed to '{new}'. Requests that still send '{old}' are rejected."
        )
        return self.entry(tool, change)

    def backend_spec(self, spec: ToolSpec) -> ToolSpec:
        """The schema with the parameter under its new name."""
        if spec.name != self.spec.tool:
            return spec
        old, new = self.spec.params["param"], self.spec.params["to"]
        props = {(new if k == old else k): v for k, v in spec.parameters["properties"].items()}
        required = [new if r == old else r for r in spec.parameters.get("required", [])]
        return with_parameters(spec, props, required)

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Reject the documented name with an error that names the new one."""
        old, new = self.spec.params["param"], self.spec.params["to"]
        if self.fires(call.tool, call.ordinal) and old in call.arguments:
            self.log(ctx, call.tool, call.ordinal, f"parameter {old!r} now called {new!r}")
            message = f"Unrecognized request argument supplied: '{old}'."
            if self.explicit:
                message += f" This parameter has been renamed to '{new}'."
            raise ToolError(message, code=400)

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Hand the tool its argument under the name its code uses."""
        old, new = self.spec.params["param"], self.spec.params["to"]
        if call.tool == self.spec.tool and new in call.arguments:
            call.arguments = {(old if k == new else k): v for k, v in call.arguments.items()}


def enum_constant(param: str, value: str) -> str:
    """The value as a prefixed constant, the way some APIs re-spell enums: ``UNIT_CELSIUS``."""
    return re.sub(r"[^A-Za-z0-9]+", "_", f"{param}_{value}").strip("_").upper()


@register_hazard
class ChangedEnum(_Unlogged):
    """The backend renamed the values of an enum parameter (``params.mapping``: doc -> new)."""

    family: ClassVar[HazardFamily] = HazardFamily.SPECIFICATION_DRIFT
    variant: ClassVar[str] = "changed_enum"
    needs: ClassVar[tuple[str, ...]] = ("param",)
    takes: ClassVar[tuple[str, ...]] = ("mapping", "since", "logged")

    @classmethod
    def plan_params(cls, params: Mapping[str, Any], tool: ToolSpec) -> dict[str, Any]:
        """A plan's ``mapping`` defaults to every documented value as a prefixed constant.

        The same respelling a build proposes (:func:`enum_constant`): a case swap would be
        a guess an agent gets right without reading anything.
        """
        out = super().plan_params(params, tool)
        if "param" in out and "mapping" not in out:
            schema = tool.parameters.get("properties", {}).get(out["param"], {})
            values = schema.get("enum")
            if not values:
                raise BadInput(
                    f"hazard changed_enum on {tool.name!r}: parameter {out['param']!r} has no enum"
                )
            out["mapping"] = {str(v): enum_constant(out["param"], str(v)) for v in values}
        return out

    summary: ClassVar[str] = "the allowed values of an enum parameter changed"
    tiers: ClassVar[tuple[Tier, ...]] = ("explicit", "implicit")
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service changed how the values of one parameter are written. If a "
        "documented value is refused, find the new spelling (the error or the service "
        "changelog gives it) and call again.",
        "Reliability notice. One of the parameters of {tool} that takes a fixed set of "
        "values now expects them written differently from the documentation. A call with "
        "a documented value is rejected as invalid. The service changelog (read_changelog) "
        "maps each old value to its new spelling. Send the new value that means the same "
        "thing as the one you intended and repeat the call.",
    )
    probe_hints: ClassVar[tuple[str, str]] = (
        "The {tool} service changed how the values of one parameter are written; neither "
        "its documentation nor its changelog says how. If a documented value is refused, "
        "send one the docs do not list: the backend's answer lists the values it takes.",
        "Reliability notice. One of the parameters of {tool} that takes a fixed set of "
        "values now expects them written differently, and neither the documentation nor "
        "the service changelog shows the new spelling. A documented value is rejected as "
        "invalid. Send, once, a value the documentation does not list: the backend then "
        "lists the values it accepts. Pick the one that means the same as the value you "
        "intended and repeat the call.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A required enum argument the path passes as a string, once per (tool, parameter).

        Every value becomes a prefixed constant (``UNIT_CELSIUS``): a respelling an agent
        cannot guess by changing case. Each place is offered in each tier and unlogged
        (the changelog does not give the values; a value outside the documented ones is
        answered with the list). An optional parameter would not do: an agent that leaves
        it out never meets the change.
        """
        places = []
        for step in task.reference.steps:
            props = domain.tools[step.tool].spec.parameters["properties"]
            required = required_params(domain, step.tool)
            for name, value in step.args.items():
                values = props.get(name, {}).get("enum")
                if not values or value not in values or not isinstance(value, str):
                    continue
                if name in required:
                    places.append((step.tool, name, [str(v) for v in values]))
        out = []
        for tool, name, values in once_each(places, key=lambda place: place[:2]):
            mapping = {v: enum_constant(name, v) for v in values}
            fix = RecoveryStep(action=RecoveryAction.ADAPT, params={"map_values": {name: mapping}})
            params = {"param": name, "mapping": mapping, "since": changed_on(rng)}
            out += tiered(cls, tool, params, fix, cls.tiers)
            probe = RecoveryStep(action=RecoveryAction.PROBE, params={"set": {name: PROBE_VALUE}})
            out.append(_unlogged(cls, tool, params, probe, fix))
        return out

    def changelog(self, tool: str) -> list[str]:
        """Each documented value with its new spelling, dated."""
        name, mapping = self.spec.params["param"], self.spec.params["mapping"]
        pairs = ", ".join(f"'{old}' -> '{new}'" for old, new in mapping.items())
        return self.entry(tool, f"values of '{name}' renamed: {pairs}.")

    def backend_spec(self, spec: ToolSpec) -> ToolSpec:
        """The schema with the new enum values."""
        if spec.name != self.spec.tool:
            return spec
        name, mapping = self.spec.params["param"], self.spec.params["mapping"]
        props = dict(spec.parameters["properties"])
        schema = dict(props[name])
        schema["enum"] = [mapping.get(v, v) for v in schema["enum"]]
        if "default" in schema:
            schema["default"] = mapping.get(schema["default"], schema["default"])
        props[name] = schema
        return with_parameters(spec, props, list(spec.parameters.get("required", [])))

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Reject a documented value the way a validating API does, listing the new ones."""
        name, mapping = self.spec.params["param"], self.spec.params["mapping"]
        value = call.arguments.get(name)
        if self.fires(call.tool, call.ordinal) and value in mapping:
            self.log(ctx, call.tool, call.ordinal, f"enum {name!r} no longer accepts {value!r}")
            message = f"Invalid value for parameter '{name}': '{value}'."
            if self.explicit:
                values = ", ".join(f"'{v}'" for v in mapping.values())
                message += f" Supported values are: {values}."
            raise ToolError(message, code=400)

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Translate the new value back to the one the tool's code knows."""
        name, mapping = self.spec.params["param"], self.spec.params["mapping"]
        back = {v: k for k, v in mapping.items()}
        if call.tool == self.spec.tool and call.arguments.get(name) in back:
            call.arguments = {**call.arguments, name: back[call.arguments[name]]}


@register_hazard
class DeprecatedTool(Hazard):
    """The documented tool was retired; its v2 (``params.v2``) is the working replacement."""

    family: ClassVar[HazardFamily] = HazardFamily.SPECIFICATION_DRIFT
    variant: ClassVar[str] = "deprecated_tool"
    needs: ClassVar[tuple[str, ...]] = ("v2",)
    takes: ClassVar[tuple[str, ...]] = ("since",)
    tool_params: ClassVar[tuple[str, ...]] = ("v2",)
    summary: ClassVar[str] = "a tool was retired in favour of a v2 with other parameters"
    tiers: ClassVar[tuple[Tier, ...]] = ("explicit", "implicit")
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} tool has been retired. Use its replacement, {v2}, instead.",
        "Reliability notice. {tool} has been retired and now answers every call with a "
        "'gone' error. Its successor, {v2}, provides the same information; its parameters "
        "may be named differently, so read its description and map your arguments onto "
        "it. Use {v2} for the rest of the task.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A path tool the domain has a v2 of (``notes.v2``), in each tier.

        The implicit 410 does not name the v2; its documentation ("Version 2 of ...") and
        the changelog do. A v2 the path's arguments reach unrenamed is left out.
        """
        out = []
        for tool, v2, fix in switches(task, domain, domain.notes.v2):
            params = {"v2": v2, "since": changed_on(rng)}
            out += tiered(cls, tool, params, fix, cls.tiers, extra_tools=[v2])
        return out

    def changelog(self, tool: str) -> list[str]:
        """The retirement and the successor, dated."""
        change = (
            f"retired; calls answer 410 Gone. Its successor is {self.spec.params['v2']} (see "
            "its documentation for the renamed parameters)."
        )
        return dated(self, tool, change)

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Answer every call of the retired tool with 410 Gone (naming the v2 if explicit)."""
        if self.fires(call.tool, call.ordinal):
            v2 = self.spec.params["v2"]
            self.log(ctx, call.tool, call.ordinal, f"retired; replaced by {v2}")
            message = f"Gone: '{call.tool}' has been retired."
            if self.explicit:
                message += f" Use '{v2}' instead; see its documentation for the new parameters."
            raise ToolError(message, code=410, kind="gone")


def to_dmy(iso: str) -> str:
    """Turn 2026-03-05 into 05/03/2026."""
    return to_format(iso, "DD/MM/YYYY")


def from_dmy(dmy: str) -> str:
    """Turn 05/03/2026 into 2026-03-05 (raises ValueError for an impossible date)."""
    return from_format(dmy, "DD/MM/YYYY")


DATE_FORMATS: Mapping[str, str] = {
    "DD/MM/YYYY": "%d/%m/%Y",
    "MM/DD/YYYY": "%m/%d/%Y",
    "DD.MM.YYYY": "%d.%m.%Y",
    "DD-MM-YYYY": "%d-%m-%Y",
    "YYYY/MM/DD": "%Y/%m/%d",
    "YYYYMMDD": "%Y%m%d",
}
"""The date formats a :class:`ParameterFormat` backend may take, by the name its changelog
and errors give them."""


def _pattern(fmt: str) -> re.Pattern[str]:
    digits = {"%d": r"\d{2}", "%m": r"\d{2}", "%Y": r"\d{4}"}
    parts = re.split(r"(%[dmY])", DATE_FORMATS[fmt])
    return re.compile("^" + "".join(digits.get(p, re.escape(p)) for p in parts) + "$")


def to_format(iso: str, fmt: str) -> str:
    """Write the ISO date ``iso`` in the named format: 2026-03-05 as MM/DD/YYYY is 03/05/2026."""
    return date.fromisoformat(iso).strftime(DATE_FORMATS[fmt])


def from_format(text: str, fmt: str) -> str:
    """Read ``text`` written in the named format as an ISO date.

    Raises:
        ValueError: ``text`` is not written that way, or names an impossible date.
    """
    if not _pattern(fmt).match(text):
        raise ValueError(f"{text!r} is not written {fmt}")
    # a calendar day, no time of day: the naive parse never meets a clock
    return datetime.strptime(text, DATE_FORMATS[fmt]).date().isoformat()  # noqa: DTZ007


_ORDER = {"DD/MM/YYYY": " (day first)", "MM/DD/YYYY": " (month first)"}
_ORDER.update({"DD.MM.YYYY": " (day first)", "DD-MM-YYYY": " (day first)"})


DMY_PATTERN = r"^(0[1-9]|[12][0-9]|3[01])/(0[1-9]|1[0-2])/[0-9]{4}$"
"""The day-first date an unlogged format change's backend validates against."""


def format_pattern(fmt: str) -> str:
    """The schema pattern an unlogged format change's backend validates ``fmt`` against."""
    return DMY_PATTERN if fmt == "DD/MM/YYYY" else _pattern(fmt).pattern


@register_hazard
class ParameterFormat(_Unlogged):
    """A date parameter must now be sent in another format, though the docs still say ISO.

    The format is ``params.format`` (one of :data:`DATE_FORMATS`; DD/MM/YYYY by default).
    """

    family: ClassVar[HazardFamily] = HazardFamily.SPECIFICATION_DRIFT
    variant: ClassVar[str] = "parameter_format"
    needs: ClassVar[tuple[str, ...]] = ("param",)
    takes: ClassVar[tuple[str, ...]] = ("format", "since", "logged")
    defaults: ClassVar[Mapping[str, Any]] = {"format": "DD/MM/YYYY"}
    summary: ClassVar[str] = "a parameter's format changed from what the docs say"
    tiers: ClassVar[tuple[Tier, ...]] = ("explicit", "implicit")
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service changed the date format it accepts in '{param}', whatever its "
        "documentation says. If a date is refused, find the new format (the error or the "
        "service changelog gives it) and write the same date that way.",
        "Reliability notice. The documentation of {tool} says the '{param}' parameter takes "
        "an ISO date (YYYY-MM-DD), but the service now rejects that format. The service "
        "changelog (read_changelog) states the format it expects now. Rewrite the same "
        "date in the new format and repeat the call; the rest of the request stays as it "
        "was.",
    )
    probe_hints: ClassVar[tuple[str, str]] = (
        "The {tool} service changed the date format it accepts in '{param}'; neither its "
        "documentation nor its changelog says to what. If an ISO date is refused, send a "
        "value that is no ISO date: the backend's answer shows the pattern it accepts.",
        "Reliability notice. The documentation of {tool} says the '{param}' parameter takes "
        "an ISO date (YYYY-MM-DD), but the service now rejects that format, and the "
        "service changelog does not say what it takes instead. Send, once, a value that is "
        "not an ISO date: the backend then answers with the pattern it validates against. "
        "Read which part is the day and which the month, write the same date that way and "
        "repeat the call.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A required argument the path passes as an ISO date, once per (tool, parameter).

        Each place is offered in each tier and unlogged (the changelog does not give the
        format; a value that is no ISO date is answered with the backend's pattern). An
        optional one would not do: an agent that leaves it out never meets the change.
        """
        dates = []
        for step in task.reference.steps:
            try:
                args = resolve(step.args, results)
            except Unresolved:
                continue
            required = required_params(domain, step.tool)
            dates += [
                (step.tool, name)
                for name, value in args.items()
                if isinstance(value, str) and ISO_DATE.fullmatch(value) and name in required
            ]
        out = []
        for tool, name in once_each(dates):
            fmt = str(cls.defaults["format"])
            how = "dmy" if fmt == "DD/MM/YYYY" else fmt
            fix = RecoveryStep(action=RecoveryAction.ADAPT, params={"reformat_args": {name: how}})
            params = {"param": name, "format": fmt, "since": changed_on(rng)}
            out += tiered(cls, tool, params, fix, cls.tiers)
            probe = RecoveryStep(action=RecoveryAction.PROBE, params={"set": {name: PROBE_VALUE}})
            out.append(_unlogged(cls, tool, params, probe, fix))
        return out

    def changelog(self, tool: str) -> list[str]:
        """The new date format, dated (unless the change is not logged)."""
        change = (
            f"'{self.spec.params['param']}' now takes dates written "
            f"{self.param('format')}{_ORDER.get(self.param('format'), '')}; ISO dates "
            "(YYYY-MM-DD) are rejected."
        )
        return self.entry(tool, change)

    def backend_spec(self, spec: ToolSpec) -> ToolSpec:
        """Unlogged, the schema's pattern of the day-first date (a v2 spec's is unchanged).

        A value that is no ISO date reaches the backend's validation, whose error shows the
        pattern: the one place an unlogged change can be read.
        """
        if spec.name != self.spec.tool or self.logged == "fix":
            return spec
        name = self.spec.params["param"]
        props = dict(spec.parameters["properties"])
        props[name] = {**props[name], "pattern": format_pattern(str(self.param("format")))}
        return with_parameters(spec, props)

    def intercept(self, call: PendingCall, ctx: HazardContext) -> None:
        """Reject an ISO date with an error that states the expected format."""
        name, fmt = self.spec.params["param"], str(self.param("format"))
        value = call.arguments.get(name)
        if (
            self.fires(call.tool, call.ordinal)
            and isinstance(value, str)
            and ISO_DATE.fullmatch(value)
        ):
            self.log(ctx, call.tool, call.ordinal, f"parameter {name!r} expects {fmt}")
            if self.explicit:
                message = (
                    f"Invalid format for parameter '{name}': '{value}'. Expected a date as {fmt}."
                )
            else:
                message = f"Invalid date format for parameter '{name}'."
            raise ToolError(message, code=400)

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Give the tool the ISO date its code expects (a date written the new way)."""
        name, fmt = self.spec.params["param"], str(self.param("format"))
        value = call.arguments.get(name)
        if call.tool == self.spec.tool and isinstance(value, str) and _pattern(fmt).match(value):
            try:
                call.arguments = {**call.arguments, name: from_format(value, fmt)}
            except ValueError:
                raise ToolError(f"Invalid date for parameter '{name}': '{value}'.") from None


def _served_field(result: Any, value: str) -> str | None:
    """The key under which ``result``'s first record gives back the date ``value``."""
    records = [result] if isinstance(result, dict) else []
    while records:
        record = records.pop(0)
        for key, held in record.items():
            if held == value:
                return str(key)
        records += [v for v in record.values() if isinstance(v, dict)]
        records += [
            v[0] for v in record.values() if isinstance(v, list) and v and isinstance(v[0], dict)
        ]
    return None


@register_hazard
class ReinterpretedDate(Hazard):
    """The backend now reads a date parameter as the day before (``params.shift`` days).

    Its zone moved: nothing errs, the docs and the changelog say nothing, and the data is
    the only cue: each result says which day it is for (``params.field``), and that is
    not the day asked. An agent that checks it against the date it sent moves the date
    by the difference and calls again.
    """

    family: ClassVar[HazardFamily] = HazardFamily.SPECIFICATION_DRIFT
    variant: ClassVar[str] = "reinterpreted_date"
    needs: ClassVar[tuple[str, ...]] = ("param", "field")
    takes: ClassVar[tuple[str, ...]] = ("shift",)
    defaults: ClassVar[Mapping[str, Any]] = {"shift": -1}
    summary: ClassVar[str] = "a date parameter is silently read as another day"
    tiers: ClassVar[tuple[Tier, ...]] = ("silent",)
    hints: ClassVar[tuple[str, str]] = (
        "The {tool} service now reads '{param}' differently from its documentation, and "
        "says nothing about it. Check the day each result says it is for ('{field}') "
        "against the date you sent; if they differ, move your date by the difference.",
        "Reliability notice. The backend of {tool} changed how it reads the '{param}' "
        "date: no error, no changelog entry and no documentation says so, but the data "
        "it returns is for another day than the one asked. Each result gives the day it "
        "is for in '{field}'. Compare it with the date you sent; where they differ, send "
        "the date moved by the same number of days the other way, check the day again, "
        "and use only the result for the day the task asks about.",
    )

    @classmethod
    def propose(
        cls, task: TaskSpec, domain: Domain, rng: random.Random, results: Results
    ) -> list[Proposal]:
        """A required ISO date a read step passes and its result gives back, once per place.

        The result must say which day it is for (a field holding the date sent), or the
        change could not be seen at all.
        """
        places = []
        for index, step in enumerate(task.reference.steps):
            if domain.tools[step.tool].kind is not ToolKind.READ:
                continue  # a write for the wrong day would have to be undone, not redone
            try:
                args = resolve(step.args, results)
            except Unresolved:
                continue
            required = required_params(domain, step.tool)
            for name, value in args.items():
                if not (isinstance(value, str) and ISO_DATE.fullmatch(value)):
                    continue
                field = _served_field(results.get(index), value)
                if name in required and field is not None:
                    places.append((step.tool, name, field))
        out = []
        for tool, name, field in once_each(places, key=lambda place: place[:2]):
            fix = RecoveryStep(
                action=RecoveryAction.REALIGN, params={"param": name, "field": field}
            )
            params = {"param": name, "field": field, "shift": -1}
            out.append(cls.proposal(tool, params, [fix], tier="silent"))
        return out

    def before_call(self, call: PendingCall, ctx: HazardContext) -> None:
        """Hand the tool the day before the one sent (the zone the backend now reads in)."""
        name = self.spec.params["param"]
        value = call.arguments.get(name)
        if not (self.fires(call.tool, call.ordinal) and isinstance(value, str)):
            return
        try:
            day = date.fromisoformat(value)
        except ValueError:
            return
        served = (day + timedelta(days=int(self.param("shift")))).isoformat()
        self.log(ctx, call.tool, call.ordinal, f"{name} {value} read as {served}")
        call.arguments = {**call.arguments, name: served}
