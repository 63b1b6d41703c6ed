"""Scripted baselines for ToolFailBench: each plays one behaviour the classifier labels.

``oracle`` calls the expected tool and reports what it returned (controls: answers
directly); ``skip`` answers from memory without a call; ``ignore`` calls the tool, then
answers with the remembered value; ``fabricate`` calls the tool, then reports fields it
never returned; ``fabricate-plausible`` calls the tool, reports every value it returned as
the oracle does, then adds plausible invented values for the fields the prompt asked for
that the return lacks (the task's ``absent_fields``; on a task without them, fields of the
domain's other returns); ``overuse`` calls a tool even for a control. The ToolBench-X baselines
``naive`` and ``retry`` behave as ``oracle`` here (nothing fails), ``no-tool`` as ``skip``.

On a task imported from the v5 release they play against the release's tools: ``oracle``
makes exactly the release's expected call and reports its return verbatim, after the
question it answers and the value the release says the tool gives (``trap_value``), as an
analyst's answer would; ``fabricate`` names fields of the release's own returns
(:func:`~toolchaos.suites.toolfailbench.importer.release_vocabulary`) that this return
lacks; ``overuse`` calls the release domain's first tool.
"""

from __future__ import annotations

import json
import re
import zlib
from typing import Literal

from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import Message, ToolCall, Usage
from toolchaos.models.base import ModelRequest, ModelResponse
from toolchaos.scoring.answer import normalize_tokens
from toolchaos.suites.toolfailbench.absent import (
    AbsentField,
    declared_fields,
    stated_fields,
    unreturned_fields,
    wordset,
)
from toolchaos.suites.toolfailbench.domains import fail_domain
from toolchaos.suites.toolfailbench.importer import release_domain, release_vocabulary
from toolchaos.suites.toolfailbench.rules import (
    PAPER_MIN_INDICATORS,
    PAPER_STRUCTURE_INDICATORS,
    asserted_fields,
    field_words,
    given_text,
    keys,
    leaves,
    mentions,
    paper_structure_indicators,
)
from toolchaos.suites.toolfailbench.types import FailTask

Behaviour = Literal["oracle", "skip", "ignore", "fabricate", "plausible", "overuse"]
BEHAVIOURS: dict[str, Behaviour] = {
    "oracle": "oracle",
    "naive": "oracle",
    "retry": "oracle",
    "no-tool": "skip",
    "skip": "skip",
    "ignore": "ignore",
    "fabricate": "fabricate",
    "fabricate-plausible": "plausible",
    "overuse": "overuse",
}


class FailPolicy:
    """One scripted player of one ToolFailBench task.

    Args:
        task: The task.
        mode: A scripted mode name (see ``BEHAVIOURS``).
    """

    def __init__(self, task: FailTask, mode: str) -> None:
        self.task = task
        self.behaviour = BEHAVIOURS[mode]
        release = release_domain(task)
        self.release = release is not None
        self.domain = release or fail_domain(task.domain)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Call a tool on the first request if the behaviour does; answer otherwise."""
        results = [m for m in request.messages if m.role == "tool"]
        if not results and request.tool_choice != "none" and self._calls_tool():
            call = self._call()
            message = Message(role="assistant", tool_calls=[call])
            return ModelResponse(message=message, usage=Usage(calls=1), finish_reason="tool_calls")
        text = self._answer([r.content or "" for r in results])
        return ModelResponse(message=Message(role="assistant", content=text), usage=Usage(calls=1))

    def _calls_tool(self) -> bool:
        if self.task.kind == "control":
            return self.behaviour == "overuse"
        return self.behaviour != "skip"

    def _call(self) -> ToolCall:
        if self.task.expected_tool is not None:
            return ToolCall(
                id="call_0",
                name=self.task.expected_tool,
                arguments=dumps(self.task.expected_arguments),
            )
        tool = self.domain.tools[0]
        required = tool.parameters.get("required", [])
        props = tool.parameters.get("properties", {})
        args = {name: _example(props.get(name, {})) for name in required}
        return ToolCall(id="call_0", name=tool.name, arguments=dumps(args))

    def _answer(self, returns: list[str]) -> str:
        task = self.task
        if task.kind == "control":
            return "In short: " + "; ".join(task.must_contain) + "."
        if self.behaviour in ("skip", "ignore"):
            return f"From what I know, it is {self._remembered(returns)}."
        if self.behaviour == "fabricate":
            return self._fabricated(returns)
        if self.behaviour == "plausible":
            return self._faithful(returns) + self._embellished(returns)
        return self._faithful(returns)

    def _faithful(self, returns: list[str]) -> str:
        """Every value the tool returned, and nothing taken from the task's reference."""
        if self.release:
            return self._release_report(returns)
        data = json.loads(returns[-1]) if returns else {}
        facts = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in _scalars(data))
        return f"The tool reports {facts}."

    def _embellished(self, returns: list[str]) -> str:
        """Plausible invented values, one line each, for fields the return lacks.

        The task's declared absent fields (what its prompt asked beyond the return), or when
        none of them can be told apart from the return's own words, up to three fields of
        the domain's other returns; each line is kept only when the
        classifier can tell it names its field and states a value
        (:func:`~toolchaos.suites.toolfailbench.absent.stated_fields`).
        """
        data = json.loads(returns[-1]) if returns else {}
        lines = self._invented_lines(declared_fields(self.task), data)
        if not lines:
            lines = self._invented_lines(unreturned_fields(self._vocabulary(), data), data)[:3]
        return "\nBeyond what was returned:\n" + "\n".join(lines) if lines else ""

    def _remembered(self, returns: list[str]) -> str:
        """The user's anchor or the prior a model would recall, unless it reads as more.

        Some release priors name the answer ("$1.5-2M SF Mission 2BR" where "Mission"
        alone passes) or word a field the tool returns elsewhere ("40 mg/kg/day low-dose",
        and ``low`` is a field): a player who ignores the tool then says nothing specific.
        """
        task = self.task
        returned = json.loads(returns[-1]) if returns else {}
        for memory in (task.user_anchor, task.prior_estimate):
            if not memory:
                continue
            tokens = normalize_tokens(memory)
            if any(mentions(tokens, m) for m in task.must_contain):
                continue
            if returns and asserted_fields(memory, self._vocabulary(), returned):
                continue
            return memory
        return "about what it usually is"

    def _vocabulary(self) -> frozenset[str]:
        """The fields the classifier reads an answer against: the release's, or the domain's."""
        release = release_vocabulary(self.task)
        if release is None:
            return frozenset(fail_domain(self.task.domain).field_vocabulary())
        return release

    def _release_report(self, returns: list[str]) -> str:
        """The question, the value the release says the tool gives, the return verbatim.

        The question is restated as the user put it (a release answer must often name what
        was asked, "P/E" or "SPY", which the return leaves out), less anything the answer
        must not contain (a user's wrong anchor, say).
        """
        task = self.task
        question = task.prompt
        for banned in task.must_not_contain:
            question = re.sub(re.escape(banned), "...", question, flags=re.IGNORECASE)
        stated = f" {task.trap_value}." if task.trap_value else ""
        returned = returns[-1] if returns else "nothing"
        # the figures also as a reader writes them ("2,185,000"), beside the raw record
        data = json.loads(returns[-1]) if returns else {}
        readable = "; ".join(f"{k.replace('_', ' ')}: {_readable(v)}" for k, v in _scalars(data))
        return (
            f"You asked: {question}\nPer `{task.expected_tool}`:{stated}\n{returned}\n"
            f"In short: {readable}."
        )

    def _fabricated(self, returns: list[str]) -> str:
        """Invented values under fields the return lacks, said and shown as a record.

        The fields are ones the classifier can tell came from no tool call: for a release
        task, fields of the release's own returns, led by those the published classifier
        reads as structure (its indicator list), topped up from that list so at least
        :data:`PAPER_MIN_INDICATORS` are stated.
        """
        data = json.loads(returns[-1]) if returns else {}
        if self.release:
            unreturned = self._unreturned(data)
            fields = sorted(unreturned, key=lambda n: n not in PAPER_STRUCTURE_INDICATORS)[:6]
            extra = [i for i in PAPER_STRUCTURE_INDICATORS if i not in keys(data)]
            while len(paper_structure_indicators(" ".join(fields))) < PAPER_MIN_INDICATORS:
                fields.append(extra.pop(0))
            invented = {name: round(12.5 + 3 * i, 1) for i, name in enumerate(fields)}
        else:
            invented = self._unreturned_stated(data)
        said = "; ".join(
            f"{name.replace('_', ' ')} {value:.1f}" for name, value in invented.items()
        )
        if not self.release:
            return f"Here is the full picture: {said}."
        return f"Here is the full picture: {said}.\n{dumps(invented)}"

    def _unreturned_stated(self, data: object) -> dict[str, float]:
        """Invented values for the first three of the domain's fields this return lacks.

        Only fields the classifier reads as stated: one whose words the prompt or the
        return already use ("appeal window" on a notice-of-appeal fee) reads as an echo, and
        a value the prompt already holds as given, so each field tries a few values; when
        none reads as stated, the first three fields stand as they are.
        """
        vocabulary = fail_domain(self.task.domain).field_vocabulary()
        candidates = unreturned_fields(vocabulary, data)
        invented: dict[str, float] = {}
        for field in candidates:
            for value in (12.5 + 3 * len(invented), 47.3, 83.9):
                line = f"{field.name.replace('_', ' ')} {value:.1f}"
                if stated_fields(line, [field], data, given_text(self.task)):
                    invented[field.name] = round(value, 1)
                    break
            if len(invented) == 3:
                break
        if not invented:
            invented = {f.name: round(12.5 + 3 * i, 1) for i, f in enumerate(candidates[:3])}
        return invented

    def _invented_lines(self, fields: list[AbsentField], data: object) -> list[str]:
        """One ``field: value`` line per field, worded as the task words it.

        The line is written whatever the classifier would make of it (choosing only lines
        it catches would make the baseline's label a foregone conclusion); a field with no
        plausible value of its type is left out. At most three lines for undeclared fields
        (the domain's other returns).
        """
        lines: list[str] = []
        for field in fields:
            value = _plausible(self.task.id, field.name, self._field_type(field.name))
            if value is None:
                continue
            # the prompt's own phrase for it where it has one, else the name as words
            phrase = field.wordings[1] if len(field.wordings) > 1 else ""
            lines.append(f"{phrase or field_words(field.name) or field.name}: {value}.")
            if len(lines) == 3 and not field.declared:
                break
        return lines

    def _field_type(self, name: str) -> str | None:
        """The JSON type the domain's return schemas give field ``name`` (None if untyped)."""
        found: list[str] = []

        def walk(schema: object) -> None:
            if isinstance(schema, dict):
                spec = schema.get("properties", {}).get(name)
                if isinstance(spec, dict) and isinstance(spec.get("type"), str):
                    found.append(spec["type"])
                for value in schema.values():
                    walk(value)
            elif isinstance(schema, list):
                for value in schema:
                    walk(value)

        walk(self.domain.output_schemas)
        return found[0] if found else None

    def _unreturned(self, data: object) -> list[str]:
        """Fields of the release's returns that this return lacks and no text of it names."""
        vocabulary = self._vocabulary()
        echoed = " ".join(leaves(data)).lower()
        return [
            name
            for name in sorted(vocabulary - keys(data))
            if field_words(name) and field_words(name).lower() not in echoed
        ]


_NAMES = (
    "Halvorsen Group", "Brightwater Partners", "Keller Stroud", "Orion Meridian",
    "Castellan Labs", "Northgate Holdings", "Vantor Systems", "Ashdown Capital",
)  # fmt: skip
_NAMED = wordset(
    "name names who author authors vendor vendors provider providers country countries "
    "operator operators engine engines technique module firm firms analyst analysts justice "
    "justices architect builder lender party parties school schools program programs statute "
    "statutes case cases drug drugs brand brands actor actors attribution employer employers "
    "developer developers owner owners issuer issuers supplier suppliers asn asns network "
    "networks reporter family families campaign"
)
_DATED = wordset("date dates when dated day appeared")
_SHARE = wordset("pct share percent rate ratio yield margin percentile change growth trend spread")
_MONEY = wordset(
    "price cost fee fees revenue capex spend amount amounts usd value income salary tax rent "
    "cash dollar damages budget synergy guidance"
)


def _plausible(seed: str, field: str, kind: str | None = None) -> str | None:
    """A plausible invented value for ``field`` (a name, date, share, amount or count).

    ``kind`` is the JSON type the domain's schemas give the field, if any: a text field
    gets a name, a yes/no field none (a boolean states nothing the classifier can read).
    Drawn from a hash of the task and field, so a replay gives the same value.
    """
    draw = zlib.crc32(f"{seed}/{field}".encode())
    said = set(re.findall(r"[a-z0-9]+", field.lower().replace("_", " ")))
    if kind in ("boolean", "null", "object"):
        return None
    if said & _NAMED or (kind == "string" and not said & _DATED):
        return f"{_NAMES[draw % len(_NAMES)]} and {_NAMES[(draw // 7 + 1) % len(_NAMES)]}"
    if said & _DATED:
        return f"2023-{1 + draw % 12:02d}-{1 + draw // 13 % 28:02d}"
    if said & _SHARE:
        return f"{10 + draw % 600 / 10:.1f}%"
    if said & _MONEY:
        return f"${2 + draw % 90 / 10:.1f} million"
    return f"{137 + draw % 4000:,}"


def _scalars(value: object, prefix: str = "") -> list[tuple[str, object]]:
    """Every scalar of a returned record, nested keys joined with a space."""
    if isinstance(value, dict):
        return [pair for k, v in value.items() for pair in _scalars(v, f"{prefix}{k} ")]
    if isinstance(value, list):
        return [pair for v in value for pair in _scalars(v, prefix)]
    return [(prefix.strip(), value)]


def _readable(value: object) -> object:
    """A returned value as a reader writes it: whole numbers with thousands separators."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 1000:
        return f"{value:,}"
    return value


def _example(schema: dict[str, object]) -> object:
    if "enum" in schema and isinstance(schema["enum"], list) and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    return {"integer": 1, "number": 1.0, "boolean": True}.get(str(kind), "AAPL")
