"""Observability tiers measured from what the agent sees, not declared by the variant.

A hazard's tier (docs/toolbench-x.md, "Observability tiers") says how an agent can notice
it and find the fix. The build used to take it from the variant (settled only by whether
the error follower solves it); here it is read off the texts an agent is actually shown
when the task is replayed under the hazard:

- the error messages of the replay (:attr:`Observations.errors`);
- the result notices: what the hazard adds to results, a key the clean world never
  returns (``units``, ``next_cursor``, ``notice``) or a sentence it never writes
  (:attr:`Observations.notices`);
- the hazard-arm documentation of the tool the hazard hits (:attr:`Observations.docs`);
- the entries ``read_changelog`` returns for that tool (:attr:`Observations.changelog`);
- the backend's answers to probing calls, made to learn what it expects (an argument left
  out, a value outside the documented ones; :attr:`Observations.probes`).

What "the fix" is comes from the task's recovery recipe (:func:`fix_clues`): the new
parameter name, the successor tool, the unit now in use, the canonical form of an id.
:func:`fix_source` says where the fix first shows, in the order an agent meets them,
:func:`fix_places` every place it can be found, and :func:`measured_tier` turns the first
into a tier:

- ``explicit``: an error or a result notice names the fix;
- ``implicit``: an error or notice says something is wrong without naming the fix, or the
  fix is written in the docs or the changelog (an agent must go and read them), or it is
  found only by probing (something says what is wrong, nothing says how);
- ``silent``: nothing says anything, and the fix is announced nowhere: only the data
  (a magnitude, a timestamp, sources that disagree) gives the hazard away.

:func:`measure_tasks` counts the measured mix, the declared-vs-measured confusion, the
fix sources and the places the fix can be found per family;
``python -m toolchaos.suites.toolbench_x.tiers`` prints them for the shipped task set.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from toolchaos.core.errors import BadInput
from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import Episode, HazardSpec, RecoveryStep, TaskSpec, Tier
from toolchaos.hazards import tier_of
from toolchaos.hazards.specification_drift import format_pattern
from toolchaos.suites.toolbench_x.changelog import CHANGELOG_TOOL, make_env

FixSource = Literal["error", "result", "docs", "changelog", "probing", "data"]
"""Where an agent first finds the fix: an error message, a result notice, the tool's docs,
the changelog, by probing (something says what is wrong, nothing says how), or nowhere
but in the data."""
SOURCES: tuple[FixSource, ...] = ("error", "result", "docs", "changelog", "probing", "data")
TIER_OF_SOURCE: dict[FixSource, Tier] = {
    "error": "explicit",
    "result": "explicit",
    "docs": "implicit",
    "changelog": "implicit",
    "probing": "implicit",
    "data": "silent",
}
"""The tier each fix source measures as (module docstring)."""

_WHERE: dict[FixSource, str] = {
    "error": "in an error",
    "result": "in a result",
    "docs": "in the docs",
    "changelog": "in the changelog",
    "probing": "by probing",
    "data": "only in the data",
}
_AUTHORITY = r"(?i:\b(authoritative|prevails?|system of record|primary|official|fresh(er|est)|"
_AUTHORITY += r"most recent|up-to-date|real-time)\b)"
_RETRY = r"(?i:\b(retry|retrying|try again|try later|retry[- ]after)\b)"
_PROSE = re.compile(r"[A-Za-z]+\s+[A-Za-z]+\s+[A-Za-z]+")
"""A value with three words in a row is a sentence (a notice), not a datum."""


def _word(value: str) -> str:
    """A literal, not as part of a longer identifier (case-sensitive)."""
    return rf"(?<![\w]){re.escape(value)}(?![\w])"


def _param(name: str) -> str:
    """A parameter named as one: quoted ('cursor', "detail" in a schema) or ``name=``."""
    n = re.escape(name)
    return rf"(?:['\"`]{n}['\"`]|(?<![\w]){n}\s*=)"


def _unit_of(field: str, unit: str) -> str:
    """``unit`` said of ``field``, as its label or in words.

    ``units.wait_minutes: h``, or "'score_pct' ... is now reported in fraction of 1"; a
    unit merely mentioned near the field ("1 GB = 1024 MB") does not count.
    """
    f, u = re.escape(field), re.escape(unit)
    return rf"(?<![\w]){f}(?:\W+{u}(?![\w])|[^.;(]*\bin {u}(?![\w]))"


def _shape(value: str) -> str:
    """An identifier of the same shape as ``value`` (``ALR-00042`` for ``ALR-00001``)."""
    out = []
    for run in re.findall(r"[A-Z]+|[a-z]+|\d+|[^A-Za-z\d]+", value):
        if run.isdigit():
            out.append(r"\d+")
        elif run.isalpha():
            out.append("[A-Z]+" if run.isupper() else "[a-z]+")
        else:
            out.append(re.escape(run))
    return r"(?<![\w-])" + "".join(out) + r"(?![\w-])"


@dataclass(frozen=True)
class Clue:
    """One way a text can name the fix: every one of its patterns occurs in it.

    Patterns are regular expressions, matched case-sensitively unless they say
    ``(?i:...)``; ``what`` says in words what the clue is.
    """

    what: str
    patterns: tuple[str, ...]

    def named_in(self, text: str) -> bool:
        """Whether ``text`` names the fix this way."""
        return all(re.search(p, text) for p in self.patterns)


@dataclass(frozen=True)
class Observations:
    """What an agent sees of one hazard, and the clues that would name its fix."""

    fix: tuple[Clue, ...]
    errors: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()
    docs: tuple[str, ...] = ()
    changelog: tuple[str, ...] = ()
    probes: tuple[str, ...] = ()

    def names_fix(self, texts: Iterable[str]) -> bool:
        """Whether any of ``texts`` names the fix by any clue."""
        return any(clue.named_in(text) for text in texts for clue in self.fix)


def fix_source(obs: Observations) -> FixSource:
    """Where the agent first finds the fix, in the order it meets the places.

    An error, then a result notice, naming the fix; then the docs it was given, then the
    changelog it must ask for; failing those, ``probing`` when an error or notice at least
    says something is wrong, else ``data``.
    """
    if obs.names_fix(obs.errors):
        return "error"
    if obs.names_fix(obs.notices):
        return "result"
    if obs.names_fix(obs.docs):
        return "docs"
    if obs.names_fix(obs.changelog):
        return "changelog"
    if obs.errors or obs.notices or obs.probes:
        return "probing"
    return "data"


def fix_places(obs: Observations) -> tuple[FixSource, ...]:
    """Every place the agent can find the fix in, in :data:`SOURCES` order.

    The errors and notices of the calls the task makes, the docs and the changelog that
    name it, and ``probing`` when the answer to a probing call names it or, with the fix
    named nowhere, something says what is wrong; ``data`` alone when nothing names it and
    nothing is said.
    """
    texts: dict[FixSource, tuple[str, ...]] = {
        "error": obs.errors,
        "result": obs.notices,
        "docs": obs.docs,
        "changelog": obs.changelog,
        "probing": obs.probes,
    }
    found = [source for source, seen in texts.items() if obs.names_fix(seen)]
    if not found:
        found = ["probing" if obs.errors or obs.notices or obs.probes else "data"]
    return tuple(found)


def measured_tier(obs: Observations) -> Tier:
    """The tier of a hazard by the definitions in docs/toolbench-x.md, from ``obs``.

    ``explicit`` when an error or a result notice names the fix; ``implicit`` when one says
    what is wrong without naming it, or when the fix is written only in the docs or the
    changelog; ``silent`` when nothing is said and the fix is written nowhere.
    """
    return TIER_OF_SOURCE[fix_source(obs)]


def fix_clues(spec: HazardSpec, task: TaskSpec | None = None) -> tuple[Clue, ...]:
    """The clues that name the fix of ``spec``, read off its recovery recipe.

    ``task`` gives the id a strict-format hazard's canonical form is shown by. A recipe
    step with nothing to name (``consult``: read the changelog) adds no clue.
    """
    return tuple(clue for step in spec.recovery for clue in _step_clues(step, spec, task))


def _step_clues(step: RecoveryStep, spec: HazardSpec, task: TaskSpec | None) -> Iterator[Clue]:
    p = step.params
    if step.action == "retry":
        yield Clue("retry the call", (_RETRY,))
    elif step.action in ("fallback", "verify_state"):
        tool = str(p.get("tool", spec.params.get("v2", spec.params.get("fallback", ""))))
        if tool:
            yield Clue(f"call {tool}", (_word(tool),))
    elif step.action == "resolve":
        if "expected_id" in spec.params:
            yield Clue("the id to pass", (_word(str(spec.params["expected_id"])),))
        if p.get("tool"):
            yield Clue(f"look it up with {p['tool']}", (_word(str(p["tool"])),))
    elif step.action == "adapt":
        yield from _adapt_clues(p, spec, task)
    elif step.action == "convert":
        yield Clue(f"{p['field']} is in {p['unit']}", (_unit_of(str(p["field"]), str(p["unit"])),))
    elif step.action == "requery" and p.get("flag"):
        yield Clue(f"pass {p['flag']}", (_param(str(p["flag"])),))
    elif step.action == "requery":
        yield Clue("call again", (_RETRY,))
    elif step.action == "next_page":
        yield Clue(f"pass {p['param']}", (_param(str(p["param"])),))
    elif step.action == "cross_check":
        for tool in p.get("alternatives", []):
            yield Clue(f"{tool} is the one to trust", (_word(str(tool)), _AUTHORITY))


def _adapt_clues(p: dict[str, Any], spec: HazardSpec, task: TaskSpec | None) -> Iterator[Clue]:
    for new in p.get("rename_args", {}).values():
        yield Clue(f"the parameter is now {new}", (_param(str(new)),))
    for mapping in p.get("map_values", {}).values():
        for new in mapping.values():
            yield Clue(f"the value is now {new}", (_word(str(new)),))
    if p.get("reformat_args"):
        fmt = str(spec.params.get("format", "DD/MM/YYYY"))
        # the format in words, or the day-first pattern an unlogged backend validates
        shown = rf"(?i:{re.escape(fmt)})|{re.escape(format_pattern(fmt))}"
        yield Clue(f"dates as {fmt}", (shown,))
    for name in p.get("normalize_args", {}):
        yield Clue("ids in upper case", (r"(?i:\bupper[- ]?case\b)",))
        for value in _argument_values(task, spec.tool, name):
            yield Clue(f"an id shaped like {value.upper()}", (_shape(value.upper()),))
    for name, value in p.get("fill_args", {}).items():
        text = value if isinstance(value, str) else json.dumps(value)
        yield Clue(f"pass {name}={text}", (_word(name), _word(text)))


def _argument_values(task: TaskSpec | None, tool: str, name: str) -> list[str]:
    if task is None:
        return []
    values = [s.args.get(name) for s in task.reference.steps if s.tool == tool]
    return sorted({v for v in values if isinstance(v, str)})


def observe(task: TaskSpec) -> Observations:
    """Replay ``task`` under its hazard and gather what the agent is shown.

    The oracle and the naive policy play the hazard arm (one recovers, one walks on, so
    between them every error and notice the hazard can give is seen); the oracle's clean
    episode says what results look like without it.
    """
    from toolchaos.suites.toolbench_x.validate import play_sync

    spec = task.hazard
    if spec is None:
        raise ValueError(f"task {task.id} has no hazard to measure")
    hazarded = [play_sync(task, mode, "hazard") for mode in ("oracle", "naive")]
    clean = play_sync(task, "oracle", "clean")
    env = make_env(task, "hazard")
    docs = [f"{s.description}\n{dumps(s.parameters)}" for s in env.toolbox() if s.name == spec.tool]
    return Observations(
        fix=fix_clues(spec, task),
        errors=tuple(_unique(_errors(hazarded))),
        notices=tuple(_unique(_notices(hazarded, clean))),
        docs=tuple(docs),
        changelog=tuple(env.layer.changelog(spec.tool)),
        probes=tuple(_unique(_errors(hazarded, probes=True))),
    )


def _unique(texts: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(texts))


PROBE_CALL = "probe_"
"""How the id of a scripted policy's probing call starts (a call made to learn what the
backend expects, not to do the task)."""


def _errors(episodes: Sequence[Episode], probes: bool = False) -> Iterator[str]:
    """The errors answered to the task's own calls, or with ``probes`` to probing calls."""
    for episode in episodes:
        for entry in episode.trace:
            if entry.call.id.startswith(PROBE_CALL) != probes:
                continue
            if not entry.observation.ok and entry.call.name != CHANGELOG_TOOL:
                yield dumps(entry.observation.content)


def _items(value: Any, key: str = "") -> Iterator[tuple[str, str | None]]:
    """Every (key, text) of a JSON value: its keys and its string and boolean leaves.

    Keys are dotted paths (``units.wait_minutes``); booleans read as JSON writes them.
    """
    if isinstance(value, dict):
        for k, v in value.items():
            path = f"{key}.{k}" if key else str(k)
            yield path, None
            yield from _items(v, path)
    elif isinstance(value, list):
        for v in value:
            yield from _items(v, key)
    elif isinstance(value, bool):
        yield key, json.dumps(value)
    elif isinstance(value, str):
        yield key, value


def _notices(hazarded: Sequence[Episode], clean: Episode) -> Iterator[str]:
    """What the hazard wrote into results: a key or a sentence the clean episode never has.

    A changed datum under a known key (a stale timestamp) is a cue, not a notice.
    """
    before = {i for e in clean.trace if e.observation.ok for i in _items(e.observation.content)}
    keys = {k for k, _ in before}
    for episode in hazarded:
        for entry in episode.trace:
            if not (entry.observation.ok and entry.observation.hazard_events):
                continue
            for key, text in _items(entry.observation.content):
                if (key, text) in before:
                    continue
                if key not in keys or (text is not None and _PROSE.search(text)):
                    yield key if text is None else f"{key}: {text}"


class TierFigures(BaseModel):
    """Measured tiers of a task set, per hazard family.

    ``measured``: the measured tier mix; ``confusion``: tasks per ``declared->measured``
    pair; ``sources``: where the fix is first found (:data:`SOURCES`); ``found``: the tasks
    whose fix can be found in each place (:func:`fix_places`; a task counts in each of its
    places, so a row may sum to more than the family's tasks).
    """

    measured: dict[str, dict[str, int]] = Field(default_factory=dict)
    confusion: dict[str, dict[str, int]] = Field(default_factory=dict)
    sources: dict[str, dict[str, int]] = Field(default_factory=dict)
    found: dict[str, dict[str, int]] = Field(default_factory=dict)


def measure_tasks(tasks: Iterable[TaskSpec]) -> TierFigures:
    """Replay every task under its hazard and count its measured tier, fix source and places."""
    figures = TierFigures()
    for task in tasks:
        if task.hazard is None:
            continue
        family = task.hazard.family.value
        obs = observe(task)
        source = fix_source(obs)
        tier = TIER_OF_SOURCE[source]
        pair = f"{tier_of(task.hazard)}->{tier}"
        counted = [
            (figures.measured, tier),
            (figures.confusion, pair),
            (figures.sources, source),
            *((figures.found, place) for place in fix_places(obs)),
        ]
        for table, key in counted:
            row = table.setdefault(family, {})
            row[key] = row.get(key, 0) + 1
    return TierFigures(
        **{
            name: {f: dict(sorted(row.items())) for f, row in sorted(table.items())}
            for name, table in figures.model_dump().items()
        }
    )


def tier_table(figures: TierFigures) -> str:
    """The figures as a Markdown table: a row per family, declared->measured and sources."""
    pairs = sorted({p for row in figures.confusion.values() for p in row})
    sources = [s for s in SOURCES if any(s in row for row in figures.sources.values())]
    head = ["family", *pairs, *(f"fix {_WHERE[s]}" for s in sources)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for family in sorted(figures.confusion):
        cells = [str(figures.confusion[family].get(p, 0)) for p in pairs]
        cells += [str(figures.sources[family].get(s, 0)) for s in sources]
        lines.append(f"| {family} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def places_table(figures: TierFigures) -> str:
    """The places each family's fixes can be found in, as a Markdown table (``found``).

    A task counts in every place that names its fix, so a row may sum to more than the
    family's tasks.
    """
    places = [s for s in SOURCES if any(s in row for row in figures.found.values())]
    head = ["family", *(f"found {_WHERE[s]}" for s in places)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for family in sorted(figures.found):
        cells = [str(figures.found[family].get(s, 0)) for s in places]
        lines.append(f"| {family} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the declared-vs-measured tiers and the fixes' places of a task file (default: v2).

    Usage: ``python -m toolchaos.suites.toolbench_x.tiers [TASKS.jsonl] [--json]``.
    """
    from pathlib import Path

    from toolchaos.suites.toolbench_x.suite import SUITE

    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args
    files = [a for a in args if a != "--json"]
    if len(files) > 1 or any(f.startswith("-") for f in files):
        sys.stderr.write("usage: python -m toolchaos.suites.toolbench_x.tiers [TASKS] [--json]\n")
        return 2
    path = Path(files[0]) if files else SUITE.default_path()
    if not path.is_file():
        sys.stderr.write(f"no task file at {path}.\n")
        return 2
    try:
        figures = measure_tasks(SUITE.load(path))
    except BadInput as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    text = tier_table(figures) + "\n\n" + places_table(figures)
    sys.stdout.write((figures.model_dump_json(indent=2) if as_json else text) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
