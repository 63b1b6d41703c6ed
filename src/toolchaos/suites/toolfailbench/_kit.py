"""Building blocks the five domains share: hashed draws, tool declarations, trap questions.

A tool here is a pure function of its (validated) arguments: every value it returns comes
from a :class:`Draw` keyed by the domain, the tool and the canonical arguments, so the
same call always returns the same data and two different calls almost never do. Curated
tables anchor the values for real entities (a tool asked about AAPL returns a price near
the one people remember); anything else gets plausible values from the hash alone.

A :class:`Question` says how to turn one tool into trap tasks: which field holds the key
value, which real entities it can be asked about (:class:`Target`, with the value a model
would plausibly recall), how a trap value is drawn far from that prior, and how to ask.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from toolchaos.core.tools import Param, SchemaError, record, tool_spec
from toolchaos.core.types import ToolSpec
from toolchaos.suites.toolfailbench.types import MatchMode, Register, ToolFailDomain

T = TypeVar("T")
Stability = Literal["stable", "volatile"]
Number = float | int

# The simulated "today" of every tool return; tools never read the wall clock.
BASE_DATE = date(2025, 6, 2)
PACKAGE = "toolchaos.suites.toolfailbench"


# --------------------------------------------------------------------------- canonical form


def canon_text(text: str) -> str:
    """Fold text to lowercase letters and digits only, so "18 U.S.C. § 1343" == "18 usc 1343"."""
    folded = unicodedata.normalize("NFKD", text).casefold()
    return re.sub(r"[^0-9a-z]", "", folded)


def canonical(value: Any) -> Any:
    """Canonical form of an argument value: folded strings, integral floats as ints."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str):
        return canon_text(value)
    if isinstance(value, int | float):
        return int(value) if float(value).is_integer() else float(value)
    if isinstance(value, Mapping):
        return {str(k): canonical(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    return value


def rounded(value: float, digits: int) -> Number:
    """Round to ``digits`` decimals; zero or negative digits give an int (tens, hundreds...)."""
    if digits <= 0:
        return int(round(value, digits))
    return round(value, digits)


def plain(value: Any) -> str:
    """A value as text the answer normalizer reads back unchanged: 118.42, 4000, withdrawn."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        if "e" in text or "E" in text:
            text = f"{value:.10f}".rstrip("0").rstrip(".")
        return text
    return str(value)


def figure(value: float) -> str:
    """A computed number as an answer states it: 65 rather than 65.0, 31.25 as is."""
    return str(int(value)) if float(value).is_integer() else plain(round(value, 6))


def show(value: Any, digits: int = 2) -> str:
    """A number as a person writes it in a prompt: thousands separators, fixed decimals."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    places = max(digits, 0)
    if isinstance(value, int) or places == 0:
        return f"{round(value):,}"
    return f"{value:,.{places}f}"


# --------------------------------------------------------------------------- draws


class Draw:
    """Deterministic pseudo-random values from SHA-256 of a key and a per-field label.

    Each field draws under its own label, so adding a field never changes the others,
    and the values do not depend on Python's ``random`` implementation.

    Args:
        key: What the values belong to, e.g. ``"finance|get_stock_quote|{...}"``.
    """

    def __init__(self, key: str) -> None:
        self.key = key

    def unit(self, label: str) -> float:
        """A float in [0, 1)."""
        digest = hashlib.sha256(f"{self.key}\x1f{label}".encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2.0**64

    def uniform(self, label: str, low: float, high: float, digits: int = 2) -> Number:
        """A value in [low, high], rounded to ``digits``."""
        return rounded(low + (high - low) * self.unit(label), digits)

    def integer(self, label: str, low: int, high: int) -> int:
        """An int in [low, high]."""
        return min(high, low + int(self.unit(label) * (high - low + 1)))

    def choice(self, label: str, options: Sequence[T]) -> T:
        """One of ``options``."""
        return options[self.integer(label, 0, len(options) - 1)]

    def sample(self, label: str, options: Sequence[T], k: int) -> list[T]:
        """``k`` distinct options in a hashed order."""
        order = sorted(range(len(options)), key=lambda i: self.unit(f"{label}#{i}"))
        return [options[i] for i in order[:k]]

    def near(self, label: str, center: float, spread: float, digits: int = 2) -> Number:
        """``center`` moved by at most ``spread`` (relative), rounded to ``digits``."""
        return rounded(center * (1.0 + spread * (2.0 * self.unit(label) - 1.0)), digits)

    def flag(self, label: str, chance: float) -> bool:
        """True with probability ``chance``."""
        return self.unit(label) < chance

    def day(self, label: str, earliest: int, latest: int) -> str:
        """An ISO date ``earliest``..``latest`` days from the simulated today."""
        return (BASE_DATE + timedelta(days=self.integer(label, earliest, latest))).isoformat()

    def day_in(self, label: str, year: int) -> str:
        """An ISO date inside ``year``."""
        return (date(year, 1, 1) + timedelta(days=self.integer(label, 0, 364))).isoformat()


@dataclass(frozen=True)
class Call:
    """What a tool body gets: its validated arguments, its draw and any trap override.

    ``override`` replaces the key field of a trap return; a body reads that field through
    :meth:`keyed` and derives the dependent fields from it, so a trap return stays
    internally consistent (a lower price gives a lower market cap).
    """

    args: Mapping[str, Any]
    draw: Draw
    override: Mapping[str, Any] = field(default_factory=dict)

    def keyed(self, name: str, compute: Callable[[], Any]) -> Any:
        """The override of field ``name`` if there is one, else ``compute()``."""
        return self.override[name] if name in self.override else compute()


Producer = Callable[[Call], dict[str, Any]]


# --------------------------------------------------------------------------- tools


@dataclass(frozen=True)
class ToolDef:
    """One tool: what the agent sees, the schema of what it returns, and its body.

    The spec and the output schema come from core's builders
    (:func:`~toolchaos.core.tools.tool_spec`, :func:`~toolchaos.core.tools.record`), as
    every ToolBench-X tool's do; the body and ``unordered`` are this suite's own. A body
    takes a :class:`Call` rather than a world: a tool here has no state, only the values
    its :class:`Draw` derives from the call.

    ``unordered`` names arguments whose order does not matter (two drugs of an
    interaction check); they are sorted before matching and hashing. ``aliases`` maps an
    argument to a table of other names of the same entity (canonical text of the alias ->
    the canonical value: ``visa`` -> ``V``, ``pradaxa`` -> ``dabigatran``), resolved before
    matching, hashing and the body, so a call by alias asks the same as a call by name.
    """

    spec: ToolSpec
    output: dict[str, Any]
    produce: Producer
    unordered: tuple[str, ...] = ()
    aliases: Mapping[str, Callable[[], Mapping[str, str]]] = field(default_factory=dict)

    def resolve(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """``arguments`` with every aliased entity name replaced by its canonical value."""
        resolved = dict(arguments)
        for param, table in self.aliases.items():
            value = resolved.get(param)
            if isinstance(value, str):
                resolved[param] = table().get(canon_text(value), value)
        return resolved

    @property
    def name(self) -> str:
        """The tool's name."""
        return self.spec.name


def declare(
    name: str,
    description: str,
    params: dict[str, dict[str, Any]],
    returns: dict[str, dict[str, Any]],
    produce: Producer,
    *,
    optional: Sequence[str] = (),
    unordered: Sequence[str] = (),
    aliases: Mapping[str, Callable[[], Mapping[str, str]]] | None = None,
) -> ToolDef:
    """Declare a tool; every parameter not in ``optional`` is required, every field returned.

    Parameters and fields are described schemas (:func:`~toolchaos.core.tools.string`
    and the like). An optional parameter must carry its ``default`` in its schema:
    arguments are matched and hashed with defaults filled in, so leaving one out asks the
    same as giving it.

    Raises:
        SchemaError: The tool or a parameter has no description, or an optional
            parameter has no default.
    """
    for param in optional:
        if "default" not in params[param]:
            raise SchemaError(f"optional parameter {param!r} of {name!r} has no default")
    spec = tool_spec(
        name,
        description,
        [Param.described(p, schema, required=p not in optional) for p, schema in params.items()],
    )
    return ToolDef(spec, record(returns), produce, tuple(unordered), dict(aliases or {}))


# --------------------------------------------------------------------------- trap questions


@dataclass(frozen=True)
class Target:
    """One real entity a question can be asked about.

    Args:
        entity: The entity as stored in the task (``AAPL``, ``ibuprofen``).
        subject: How a prompt names it (``Apple (AAPL)``).
        arguments: The expected tool arguments.
        prior: The value a model would plausibly recall for the key field; None when
            nobody recalls it (a count no one tracks), and then the tool's own ordinary
            value for the call stands in.
        extra: More placeholders the question's phrasings use (``year``, ``event``).
        digits: Decimals of the key value when they differ from the question's.
        aliases: Other names a user calls the entity by (``Apple``, ``Heller``,
            ``Pradaxa``, ``Austin``); the tool resolves each to ``arguments``.
    """

    entity: str
    subject: str
    arguments: dict[str, Any]
    prior: Number | str | None
    extra: Mapping[str, str] = field(default_factory=dict)
    digits: int | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class NumberTrap:
    """How a numeric trap value is drawn: far from the prior, inside the field's range.

    The value is the prior times a factor in [1.4, 2.2] or [0.4, 0.7] (the direction
    chosen by the generator unless a bound forces it), rounded to the field's decimals;
    it is kept only if it lies at least ``min_gap`` (relative) and ``min_step``
    (absolute) from the prior.
    """

    digits: int = 2
    low: float = 0.0
    high: float | None = None
    min_gap: float = 0.3
    min_step: float = 0.0

    def fits(self, prior: float, value: float) -> bool:
        """Whether ``value`` is a usable trap for ``prior``."""
        if value <= self.low or (self.high is not None and value > self.high):
            return False
        gap = abs(value - prior)
        return gap >= self.min_step and gap >= self.min_gap * abs(prior) and value != prior

    def draw(self, prior: float, rng: random.Random, digits: int | None = None) -> Number:
        """Draw a trap value for ``prior`` with the generator ``rng``."""
        places = self.digits if digits is None else digits
        for attempt in range(80):
            up = rng.random() < 0.5
            if self.high is not None and prior * 1.4 > self.high:
                up = False
            if prior * 0.7 <= self.low:
                up = True
            factor = rng.uniform(1.4, 2.2 + 0.2 * attempt) if up else rng.uniform(0.4, 0.7)
            value = rounded(prior * factor, places)
            if self.fits(prior, value):
                return value
        raise ValueError(f"no trap value fits prior {prior}")


def _no_aliases(value: str) -> list[str]:
    return []


@dataclass(frozen=True)
class LabelTrap:
    """How a categorical trap value is drawn: another label of the field's vocabulary.

    Args:
        choices: The labels a trap may take for a given prior (the prior is excluded).
        aliases: Other accepted spellings of a label (``7-2`` -> ``7 to 2``).
    """

    choices: Callable[[str], Sequence[str]]
    aliases: Callable[[str], list[str]] = _no_aliases

    def draw(self, prior: str, rng: random.Random) -> str:
        """Draw a trap label for ``prior`` with the generator ``rng``."""
        options = [c for c in self.choices(prior) if canon_text(c) != canon_text(prior)]
        if not options:
            raise ValueError(f"no trap label differs from {prior!r}")
        return rng.choice(options)


@dataclass(frozen=True)
class Question:
    """How one tool becomes trap tasks.

    Args:
        name: A short name for reports (``stock-price``).
        tool: The expected tool.
        key: The field of the tool's return that holds the trap value.
        stability: ``stable`` for a settled fact (a case's vote, a cipher's strength, a
            past year's figure): a trap would contradict it, so the v2 build never traps
            it; ``volatile`` for a figure that moves (a price, a rate, a count, a latest
            filing): a trap reads as fresh data.
        targets: The real entities it can be asked about, in a stable order.
        trap: How the trap value is drawn.
        asks: Noun phrases naming the key value, with ``{subject}`` and target extras.
        fields_asks: Noun phrases asking for the key value and ``fields`` together.
        fields: Further return fields an output-fabrication answer must report.
        unit: How a value of the key field is written in a prompt (``${v}``).
        anchor: How a user anchors on a value (``about {u}``, ``{u}`` is the value with
            its unit).
        million_alias: Also accept "N.NN million" for key values of a million or more.
        beyond: What an output-fabrication prompt asks for beyond the return, as
            (field name, noun phrase) pairs: fields no tool of the domain returns, so an
            answer that states them invents them.
    """

    name: str
    tool: str
    key: str
    stability: Stability
    targets: Callable[[], Sequence[Target]]
    trap: NumberTrap | LabelTrap
    asks: tuple[str, ...]
    fields_asks: tuple[str, ...]
    fields: tuple[str, ...] = ()
    unit: str = "{v}"
    anchor: str = "about {u}"
    million_alias: bool = False
    beyond: tuple[tuple[str, str], ...] = ()


# --------------------------------------------------------------------------- controls


class Concept(BaseModel):
    """A conceptual control question (from a domain's data table).

    ``ask`` is an embedded question ("what a price-to-earnings ratio measures") that the
    generator wraps in a register; ``must_contain`` holds what a correct answer says.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    ask: str
    must_contain: list[str] = Field(min_length=1)
    match_mode: MatchMode = "all"
    entity: str | None = None


Phrasings = Mapping[Register, tuple[str, ...]]


@dataclass(frozen=True)
class Calculation:
    """A control computed from numbers the prompt itself gives.

    ``make`` draws the numbers with the generator and returns the prompt placeholders
    and the answer values a correct reply contains.
    """

    name: str
    phrasings: Phrasings
    make: Callable[[random.Random], tuple[dict[str, str], list[str]]]


@dataclass(frozen=True)
class Link:
    """Another tool whose return implies the value a question traps.

    A careful agent may cross-check a trap with a second tool: the tax a market's homes pay
    implies their median price, a court's small-claims fee is the small-claims filing fee.
    ``implied`` reads that value off the other tool's return (None when it cannot), given
    the trap return of the task; the build refuses a trap the other tool contradicts.

    Args:
        question: The trapped question's name.
        tool: The other tool.
        implied: ``(trap_return, other_return) -> value or None``.
        fixed: Arguments of the other call beyond those it shares with the expected call.
    """

    question: str
    tool: str
    implied: Callable[[Mapping[str, Any], Mapping[str, Any]], Number | None]
    fixed: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DomainKit:
    """Everything the suite knows about one domain."""

    domain: ToolFailDomain
    tools: Mapping[str, ToolDef]
    questions: tuple[Question, ...]
    concepts: Callable[[], Sequence[Concept]]
    calculations: tuple[Calculation, ...]
    links: tuple[Link, ...] = ()

    @property
    def name(self) -> str:
        """The domain's name."""
        return self.domain.name


def assemble(
    name: str,
    system_prompt: str,
    tools: Sequence[ToolDef],
    questions: Sequence[Question],
    concepts: Callable[[], Sequence[Concept]],
    calculations: Sequence[Calculation],
    tool_answer_template: str,
    direct_answer_template: str,
    links: Sequence[Link] = (),
) -> DomainKit:
    """Put a domain's parts together."""
    domain = ToolFailDomain(
        name=name,
        system_prompt=system_prompt,
        tools=tuple(t.spec for t in tools),
        output_schemas={t.name: t.output for t in tools},
        tool_answer_template=tool_answer_template,
        direct_answer_template=direct_answer_template,
    )
    return DomainKit(
        domain=domain,
        tools={t.name: t for t in tools},
        questions=tuple(questions),
        concepts=concepts,
        calculations=tuple(calculations),
        links=tuple(links),
    )


def data_path(name: str) -> Path:
    """The path of ``data/<name>`` inside the installed package."""
    return Path(str(resources.files(PACKAGE).joinpath("data").joinpath(name)))


@cache
def load_table(name: str) -> Any:
    """The parsed JSON table ``data/<name>.json`` shipped inside the package."""
    return json.loads(data_path(f"{name}.json").read_text(encoding="utf-8"))


def index(rows: Sequence[T], key: Callable[[T], str]) -> dict[str, T]:
    """Rows keyed by the canonical text of ``key(row)``."""
    return {canon_text(key(row)): row for row in rows}
