"""Builders of a domain's notes: the hazard layer's map of where each variant fits.

Every domain describes its independent sources and its name-to-id resolvers in the same
shape; these write that shape once (as the typed notes of :mod:`toolchaos.domains.notes`),
so a domain's ``__init__`` only names its tools.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from toolchaos.domains.notes import Resolver, Sources, UnitConversion

CENTS = UnitConversion(to_unit="USD cents", factor=100.0)
"""A dollar amount counted in cents (a field that keeps its ``_usd`` name)."""
FRACTION = UnitConversion(to_unit="fraction of 1", factor=0.01)
"""A percentage given as a fraction of 1 (45 becomes 0.45)."""
SECONDS = UnitConversion(to_unit="seconds", factor=60.0)
"""A duration in minutes counted in seconds."""


def resolver(param: str, tool: str, id_field: str, query_param: str = "query") -> Resolver:
    """The note of a parameter that takes a name an id can be looked up for.

    Args:
        param: The parameter that takes a name or an id.
        tool: The search or listing tool that finds the id.
        id_field: The id's field in the first of that tool's 'results'.
        query_param: The search tool's parameter that takes the name.
    """
    return Resolver(
        param=param, tool=tool, query_param=query_param, id_path=("results", 0, id_field)
    )


def args_map(params: Mapping[str, Sequence[str]], tool: str, other: str) -> dict[str, str]:
    """How ``tool``'s arguments carry over to ``other``: ``{other's param: tool's param}``.

    Args:
        params: Each tool with its parameters, listed in a shared order.
        tool: The tool whose call is carried over.
        other: The tool that takes the call instead.
    """
    return dict(zip(params[other], params[tool], strict=True))


def same_params(tools: Sequence[str], *params: str) -> dict[str, tuple[str, ...]]:
    """The parameters of a source family whose tools all take the same ``params``."""
    return {tool: params for tool in tools}


def sources(
    params: Mapping[str, Sequence[str]],
    fields: Sequence[str],
    authoritative: str | None = None,
) -> dict[str, Sources]:
    """The sources notes of a family of independent tools serving the same fact.

    Each tool's note names the others as alternatives, maps their parameters to its own
    position by position, and names the fact fields, the ``as_of`` time field and the
    authoritative tool.

    Args:
        params: Each tool of the family, in order, with its parameters in a shared order.
        fields: The fact fields the tools agree on in the clean world.
        authoritative: The tool whose figures prevail; by default the first.

    Returns:
        The note of each tool, keyed by tool name.
    """
    tools = list(params)
    authority = tools[0] if authoritative is None else authoritative
    notes: dict[str, Sources] = {}
    for tool in tools:
        others = tuple(t for t in tools if t != tool)
        notes[tool] = Sources(
            alternatives=others,
            args_map={o: args_map(params, tool, o) for o in others},
            fields=tuple(fields),
            time_field="as_of",
            authoritative=authority,
        )
    return notes
