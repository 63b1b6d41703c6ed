"""A domain's notes: the hazard layer's typed map of where each variant fits.

Each note names real tools of its domain, and :meth:`DomainNotes.problems` checks that
against the domain's tools: every tool a note names exists, every parameter a note maps
is one of that tool's parameters, a verifier reads and the write it verifies writes.
:class:`~toolchaos.domains.Domain` runs the check when it is built, so a note that does
not fit its domain fails at import, with one message naming the domain and each note.

The shapes say what the hazard variants need; the builders in ``_notes.py`` write the
repetitive ones (resolvers, families of sources).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from toolchaos.core.tools import Tool
from toolchaos.core.types import ToolKind

JsonPath = tuple[str | int, ...]
"""Keys and list indices leading into a JSON value, e.g. ``("results", 0, "city_id")``."""


class InvalidNotes(ValueError):
    """A domain's notes name a tool or a parameter the domain does not have."""


class _Note(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Fallback(_Note):
    """An independent alternative serving the same facts under the same result keys (outage).

    ``args_map`` is ``{alternative's parameter: the tool's parameter}``.
    """

    tool: str
    args_map: Mapping[str, str] = Field(default_factory=dict)


class V2Tool(_Note):
    """The newer version of a tool, returning the same result keys (deprecated tool).

    ``args_map`` is ``{v2 parameter: the tool's parameter}``.
    """

    tool: str
    args_map: Mapping[str, str] = Field(default_factory=dict)


class UnitConversion(_Note):
    """A numeric result field's other unit: drifted value = documented value * ``factor``.

    ``fixed`` says the factor is a fixed relation between the units (km to mi, USD to
    cents), so an agent told the unit can undo it; a market rate (USD to EUR) is not, and
    only the v1 labelled unit change plays it.
    """

    to_unit: str = Field(min_length=1)
    factor: float = Field(gt=0)
    fixed: bool = True


class Resolver(_Note):
    """A parameter that takes a name or an id, and the lookup that turns the name into the id.

    ``tool(query_param=name)`` returns the id at ``id_path`` (ambiguous entity).
    """

    param: str
    tool: str
    query_param: str = "query"
    id_path: JsonPath = Field(min_length=1)


class WriteVerifier(_Note):
    """A read that shows whether a write already happened (timeout after a committed write).

    The read is called with ``args_map`` (``{read parameter: write parameter}``); its
    records are the list under ``records_key``, and the write's record is the one whose
    fields equal the write's arguments as ``match`` pairs them (``{record field: write
    parameter}``).
    """

    tool: str
    args_map: Mapping[str, str] = Field(default_factory=dict)
    records_key: str = "results"
    match: Mapping[str, str] = Field(min_length=1)


class Sources(_Note):
    """Independent sources of a tool's facts under the same keys (cross-source conflicts).

    Each source stamps ``time_field`` with the time its data was last updated.
    ``args_map`` is ``{alternative: {its parameter: the tool's parameter}}``; ``fields``
    are the numeric fact fields the sources agree on in the clean world; the
    ``authoritative`` source's figures prevail (the tool itself or one of the
    alternatives; None when the docs name none).
    """

    alternatives: tuple[str, ...] = Field(min_length=1)
    args_map: Mapping[str, Mapping[str, str]]
    fields: tuple[str, ...] = Field(min_length=1)
    time_field: str = "as_of"
    authoritative: str | None = None


class DomainNotes(_Note):
    """What tells the hazard assigner where a variant fits in a domain, keyed by tool.

    Every section is optional; ``unit_conversions`` is keyed by result field, the others
    by the tool the note is about.
    """

    fallbacks: Mapping[str, Fallback] = Field(default_factory=dict)
    v2: Mapping[str, V2Tool] = Field(default_factory=dict)
    unit_conversions: Mapping[str, UnitConversion] = Field(default_factory=dict)
    resolvers: Mapping[str, Resolver] = Field(default_factory=dict)
    write_verifiers: Mapping[str, WriteVerifier] = Field(default_factory=dict)
    sources: Mapping[str, Sources] = Field(default_factory=dict)

    def companions(self, tool: str) -> set[str]:
        """The tools a hazard on ``tool`` can add to a toolbox: the ones its notes name."""
        names = {
            note.tool
            for section in (self.fallbacks, self.v2, self.resolvers, self.write_verifiers)
            if (note := section.get(tool)) is not None
        }
        if tool in self.sources:
            names.update(self.sources[tool].alternatives)
        return names

    def problems(self, tools: Mapping[str, Tool]) -> list[str]:
        """Where the notes do not fit ``tools``, one line a problem (empty when they fit).

        Args:
            tools: The domain's tools, keyed by name.
        """
        check = _Checker(tools)
        for section, alternatives in (("fallbacks", self.fallbacks), ("v2", self.v2)):
            for name, note in alternatives.items():
                at = f"{section}[{name!r}]"
                if check.tool(at, name) and check.tool(f"{at}.tool", note.tool):
                    if note.tool == name:
                        check.fail(f"{at}.tool", f"names {name!r} itself")
                    check.args_map(f"{at}.args_map", note.args_map, note.tool, name)
        for name, resolver in self.resolvers.items():
            at = f"resolvers[{name!r}]"
            if check.tool(at, name):
                check.param(f"{at}.param", resolver.param, name)
            if check.tool(f"{at}.tool", resolver.tool, ToolKind.READ):
                check.param(f"{at}.query_param", resolver.query_param, resolver.tool)
        for name, verifier in self.write_verifiers.items():
            at = f"write_verifiers[{name!r}]"
            writes = check.tool(at, name, ToolKind.WRITE)
            if check.tool(f"{at}.tool", verifier.tool, ToolKind.READ) and writes:
                check.args_map(f"{at}.args_map", verifier.args_map, verifier.tool, name)
            if writes:
                for param in verifier.match.values():
                    check.param(f"{at}.match", param, name)
        for name, source in self.sources.items():
            self._check_sources(check, name, source)
        return check.problems

    @staticmethod
    def _check_sources(check: _Checker, name: str, source: Sources) -> None:
        at = f"sources[{name!r}]"
        known = check.tool(at, name)
        if name in source.alternatives:
            check.fail(f"{at}.alternatives", f"names {name!r} itself")
        if len(set(source.alternatives)) != len(source.alternatives):
            check.fail(f"{at}.alternatives", "names a source twice")
        if set(source.args_map) != set(source.alternatives):
            check.fail(f"{at}.args_map", "must map exactly the alternatives")
        if source.authoritative not in {None, name, *source.alternatives}:
            check.fail(f"{at}.authoritative", f"{source.authoritative!r} is not one of the sources")
        for alt in source.alternatives:
            if check.tool(f"{at}.alternatives", alt) and known and alt in source.args_map:
                check.args_map(f"{at}.args_map[{alt!r}]", source.args_map[alt], alt, name)


class _Checker:
    """Collects the problems of notes checked against a domain's tools."""

    def __init__(self, tools: Mapping[str, Tool]) -> None:
        self.tools = tools
        self.problems: list[str] = []

    def fail(self, at: str, why: str) -> None:
        self.problems.append(f"{at}: {why}")

    def tool(self, at: str, name: str, kind: ToolKind | None = None) -> bool:
        """Whether ``name`` is a tool of the domain (of ``kind``, if given)."""
        found = self.tools.get(name)
        if found is None:
            self.fail(at, f"{name!r} is not a tool of the domain")
            return False
        if kind is not None and found.kind is not kind:
            self.fail(at, f"{name!r} is a {found.kind.value} tool, not a {kind.value} one")
        return True

    def param(self, at: str, param: str, tool: str) -> None:
        """Check that ``param`` is one of ``tool``'s parameters."""
        if param not in self._params(tool):
            self.fail(at, f"{param!r} is not a parameter of {tool!r}")

    def args_map(self, at: str, mapping: Mapping[str, str], new: str, old: str) -> None:
        """Check ``{new tool's parameter: old tool's parameter}``."""
        for new_param, old_param in mapping.items():
            self.param(at, new_param, new)
            self.param(at, old_param, old)

    def _params(self, tool: str) -> dict[str, Any]:
        properties: dict[str, Any] = self.tools[tool].spec.parameters.get("properties", {})
        return properties


def check_notes(domain: str, notes: DomainNotes, tools: Mapping[str, Tool]) -> None:
    """Refuse notes that do not fit the domain's tools, naming the domain and each note.

    Args:
        domain: The domain's name, for the message.
        notes: Its notes.
        tools: Its tools, keyed by name.

    Raises:
        InvalidNotes: A note names a tool or a parameter the domain does not have.
    """
    if not isinstance(notes, DomainNotes):
        raise InvalidNotes(
            f"domain {domain!r}: notes must be a DomainNotes, not {type(notes).__name__} "
            "(build them with DomainNotes(...) or DomainNotes.model_validate(data))"
        )
    problems = notes.problems(tools)
    if problems:
        lines = "".join(f"\n  - {p}" for p in problems)
        raise InvalidNotes(f"domain {domain!r} has notes that do not fit its tools:{lines}")


__all__ = [
    "DomainNotes",
    "Fallback",
    "InvalidNotes",
    "JsonPath",
    "Resolver",
    "Sources",
    "UnitConversion",
    "V2Tool",
    "WriteVerifier",
    "check_notes",
]
