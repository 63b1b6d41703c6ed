"""``toolchaos generate toolbench-x``: a model drafts subtopics, worlds, tools and tasks.

The stages, each with its own prompt (ours) and each answer stored before it is used:

1. ``subtopics``: the topic's subtopics (a JSON list), the first ``subtopics`` kept;
2. ``world`` (per subtopic): the tables of a small world, each a field schema and its
   seeded rows (:class:`~.domain.TableSpec`), as JSON;
3. ``tools`` (per subtopic): a Python module of read and write tools over that world, in
   the tool format of docs/generation.md; refused by the allow-list check
   (:func:`~.check.check_source`) or the declaration (:func:`~.domain.parse_tools`) with
   its reason, else run only in the sandbox (:mod:`~.sandbox`), never imported here;
4. ``tasks`` (per subtopic): ``tasks_per_cell`` tasks of each workflow type, with the
   reference plan (tool calls with ``$ref`` wiring), how the answer is computed and the
   answer the model claims;

then every task goes through :func:`~.gates.gate_generated`: the shipped build's screen,
the hazard stage (our catalogue's proposals, their hints written by
:func:`~toolchaos.suites.toolbench_x.hints.hint_for`, kept only through every gate the
shipped build enforces, the cheap-strategy policies included), validation and review.

Each answer is stored as ``DIR/stages/<stage>-<key>.json`` (the prompt, its SHA-256, the
model's raw text, what was parsed or why it was refused, the tokens, the model id the
provider names), so a second run with the same arguments asks nothing already answered
(resume) and every drop can be traced to the text that caused it. Nothing a model
writes is evaluated in this process: JSON is parsed with :mod:`json`, Python only by
:mod:`ast`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from toolchaos.core.errors import BadInput
from toolchaos.core.types import AnswerSpec, Message, RefStep, TaskSpec
from toolchaos.models.base import ModelClient, ModelRequest
from toolchaos.models.config import ModelEntry
from toolchaos.suites.toolbench_x.generation.domain import (
    DomainSpec,
    GeneratedToolError,
    TableSpec,
    parse_tools,
)
from toolchaos.suites.toolbench_x.generation.gates import GeneratedTask, gate_generated
from toolchaos.suites.toolbench_x.generation.sandbox import Limits
from toolchaos.suites.toolbench_x.pipeline import BuildReport

STAGES = ("subtopics", "world", "tools", "tasks")
STAGE_DIR = "stages"
REPORT_FILE = "generation-report.json"
FUNNEL = ("raw", "parsed", "screened", "hazarded", "validated", "reviewed", "kept")
"""The task counts of :func:`gate_generated`, in order, summed over the subtopics."""

SYSTEM = (
    "You write parts of a benchmark of tool-using agents. Answer with exactly what is "
    "asked, in the format asked, and nothing else."
)
PROMPTS = {
    "subtopics": (
        "Topic: {topic}.\n"
        "List {n} distinct, concrete subtopics of this topic, each a small service a person "
        "could ask an assistant to use (for 'libraries': 'branch catalogue', 'holds desk').\n"
        'Reply with one JSON object: {{"subtopics": [{{"name": "...", "about": "..."}}]}}.'
    ),
    "world": (
        "Topic: {topic}. Subtopic: {subtopic}.\n"
        "Design the data of a small service for this subtopic: two or three tables, each with "
        "a few typed fields and 4 to 8 rows keyed by readable ids (like 'BK-101'). Field types "
        "are string, integer, number, boolean and list (a list of strings). Make the values "
        "varied and specific, so that questions about them have one right answer.\n"
        'Reply with one JSON object: {{"tables": {{"<table>": {{"fields": {{"<field>": '
        '"<type>"}}, "rows": {{"<id>": {{"<field>": <value>}}}}}}}}}}.'
    ),
    "tools": (
        "Topic: {topic}. Subtopic: {subtopic}. The service's tables, as JSON:\n{tables}\n\n"
        "Write a Python module of 3 to 6 tools over these tables. Each tool is a top-level "
        "function decorated @read (it only reads) or @write (it changes the tables); its "
        "first parameter is db, the tables as a dict of table -> id -> row, and the others "
        "are annotated str, int, float, bool or list[str] and described in a Google-style "
        "docstring (Args:). A tool returns a dict. A missing record or a bad argument is "
        "refused with raise ToolError(message, code), e.g. ToolError(\"Book 'X' not found\", "
        "404). Use no imports but math, re, datetime, decimal, statistics, itertools, "
        "functools and collections; no file, network, clock, randomness, print, set, or "
        "names starting with an underscore. Include one lookup by id, one search or list, "
        "and one write.\nReply with the module in one ```python block."
    ),
    "tasks": (
        "Topic: {topic}. Subtopic: {subtopic}. The service's tables:\n{tables}\n"
        "Its tools:\n{tools}\n\n"
        "Write {k} user requests of each workflow type: sequential (each call uses the "
        "previous call's result), parallel (two or more independent calls) and mixture "
        "(independent calls and a call using an earlier result). Each request needs the "
        "tools to answer and names every value it needs (never 'my' or 'me'). For each, give "
        "the reference plan: the tool calls in order, an argument taken from an earlier "
        'call written {{"$ref": [<step index>, "<field>", ...]}}; how the answer is computed '
        "from the results (op: value, sum, min, max, count, argmin or argmax over refs, "
        "each ref [<step index>, <field>, ...]; labels for argmin/argmax; round; unit); and "
        "the answer you expect as a string.\n"
        'Reply with one JSON object: {{"tasks": [{{"workflow": "...", "prompt": "...", '
        '"steps": [{{"tool": "...", "args": {{}}}}], "answer": {{"op": "...", "refs": []}}, '
        '"claimed_answer": "..."}}]}}.'
    ),
}


class StageRecord(BaseModel):
    """One stage's exchange with the model, as stored (``DIR/stages/<stage>-<key>.json``)."""

    stage: str
    key: str
    prompt: str
    prompt_sha256: str
    raw: str
    parsed: Any = None
    refused: str = ""
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0


class StageCounts(BaseModel):
    """How many answers of one stage the run asked for, parsed and refused (and why)."""

    asked: int = 0
    reused: int = 0
    parsed: int = 0
    refused: list[str] = Field(default_factory=list)


class GenerationReport(BaseModel):
    """What a generation run did: its stages, the task funnel, the drops and the cost."""

    model: str
    topic: str
    subtopics: list[str] = Field(default_factory=list)
    stages: dict[str, StageCounts] = Field(default_factory=dict)
    counts: dict[str, int] = Field(default_factory=dict)
    drops: list[dict[str, str]] = Field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    domains: list[str] = Field(default_factory=list)
    tasks_file: str = ""


def digest(text: str) -> str:
    """The SHA-256 of a prompt, as stored with its answer."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def slug(text: str) -> str:
    """A lower-case identifier made of ``text``'s letters and digits (``_`` between)."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40] or "x"


def json_block(text: str) -> Any:
    """The JSON object of a reply: a ```json block, else from the first ``{`` to the last ``}``.

    Raises:
        ValueError: One sentence saying why it is not JSON.
    """
    fenced = re.search(r"```(?:json)?\s*\n(.*?)```", text, re.DOTALL)
    body = fenced.group(1) if fenced else text[text.find("{") : text.rfind("}") + 1]
    if not body.strip():
        raise ValueError("the reply holds no JSON object")
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the reply is not JSON ({exc.msg} at line {exc.lineno})") from None


def python_block(text: str) -> str:
    """The Python module of a reply: its ```python block, else the whole reply."""
    fenced = re.search(r"```(?:python|py)?\s*\n(.*?)```", text, re.DOTALL)
    return (fenced.group(1) if fenced else text).strip() + "\n"


def _subtopics(text: str, n: int) -> list[str]:
    items = json_block(text).get("subtopics")
    if not isinstance(items, list) or not items:
        raise ValueError("the reply has no 'subtopics' list")
    names = [str(i.get("name", "") if isinstance(i, dict) else i).strip() for i in items]
    names = list(dict.fromkeys(name for name in names if name))
    if not names:
        raise ValueError("no subtopic has a name")
    return names[:n]


def _tables(text: str) -> dict[str, TableSpec]:
    found = json_block(text).get("tables")
    if not isinstance(found, dict) or not found:
        raise ValueError("the reply has no 'tables' object")
    try:
        tables = {slug(name): TableSpec.model_validate(shape) for name, shape in found.items()}
    except ValidationError as exc:
        raise ValueError(f"a table does not fit the schema: {exc.errors()[0]['msg']}") from None
    for name, table in tables.items():
        for key, row in table.rows.items():
            if set(row) != set(table.fields):
                raise ValueError(f"row {key} of {name} does not have exactly its table's fields")
    return tables


def _tasks(text: str, subtopic: str) -> tuple[list[GeneratedTask], list[str]]:
    """The tasks of a reply, and why each one that does not fit the format was left out."""
    items = json_block(text).get("tasks")
    if not isinstance(items, list):
        raise ValueError("the reply has no 'tasks' list")
    out, refused = [], []
    for number, item in enumerate(items, start=1):
        try:
            if not isinstance(item, dict):
                raise TypeError("not an object")
            out.append(
                GeneratedTask(
                    subtopic=subtopic,
                    workflow=str(item.get("workflow", "")),
                    prompt=str(item.get("prompt", "")),
                    steps=[RefStep.model_validate(s) for s in item.get("steps") or []],
                    answer=AnswerSpec.model_validate(item.get("answer") or {}),
                    claimed_answer=str(item.get("claimed_answer", "")),
                    writes=bool(item.get("writes", False)),
                )
            )
        except (ValidationError, TypeError, AttributeError) as exc:
            first = str(exc).splitlines()[0]
            refused.append(f"task {number} does not fit the format: {first}")
    return out, refused


@dataclass
class Generator:
    """One generation run over one topic, resumable from ``out``'s stored stages.

    Args:
        client: The model that writes (any provider's client).
        entry: Its model entry (the spec, prices, sampling).
        out: The run's folder.
        topic: The topic.
        subtopics: How many subtopics to draft.
        tasks_per_cell: Tasks per subtopic and workflow type.
        seed: The seed of the hazard stage.
        limits: The sandbox's limits for the generated tools.
        advance: Called after each stage answer (the progress bar), with its name.
    """

    client: ModelClient
    entry: ModelEntry
    out: Path
    topic: str
    subtopics: int = 3
    tasks_per_cell: int = 2
    seed: int = 0
    limits: Limits | None = None
    advance: Callable[[str], None] = lambda stage: None
    report: GenerationReport = field(init=False)

    def __post_init__(self) -> None:
        self.report = GenerationReport(model=self.entry.spec, topic=self.topic)
        self.report.stages = {stage: StageCounts() for stage in STAGES}

    def _path(self, stage: str, key: str) -> Path:
        return self.out / STAGE_DIR / f"{stage}-{key}.json"

    async def ask(self, stage: str, key: str, prompt: str) -> StageRecord:
        """The stored answer to ``prompt`` if this run has it, else the model's (stored)."""
        path = self._path(stage, key)
        counts = self.report.stages[stage]
        if path.exists():
            record = StageRecord.model_validate_json(path.read_text(encoding="utf-8"))
            if record.prompt_sha256 == digest(prompt):
                counts.reused += 1
                return record
        request = ModelRequest(
            messages=[Message(role="system", content=SYSTEM), Message(role="user", content=prompt)],
            temperature=self.entry.temperature or 0.0,
            max_tokens=self.entry.max_tokens or 4096,
            tool_choice="none",
        )
        response = await self.client.complete(request)
        counts.asked += 1
        record = StageRecord(
            stage=stage,
            key=key,
            prompt=prompt,
            prompt_sha256=digest(prompt),
            raw=response.message.content or "",
            model=response.model,
            input_tokens=response.usage.input_tokens,
            output_tokens=response.usage.output_tokens,
        )
        self._store(record)
        return record

    def _store(self, record: StageRecord) -> None:
        path = self._path(record.stage, record.key)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")

    def _parsed(self, record: StageRecord, parse: Callable[[str], Any]) -> Any:
        """``parse`` of the record's text, stored with it; None (refusal stored) if refused."""
        counts = self.report.stages[record.stage]
        self.report.input_tokens += record.input_tokens
        self.report.output_tokens += record.output_tokens
        try:
            value = parse(record.raw)
        except (ValueError, GeneratedToolError) as exc:
            record.refused, record.parsed = str(exc), None
            counts.refused.append(f"{record.key}: {exc}")
            self._store(record)
            return None
        counts.parsed += 1
        record.refused = ""
        record.parsed = json.loads(json.dumps(value, default=_plain))
        self._store(record)
        return value

    async def run(self) -> tuple[list[TaskSpec], list[DomainSpec], GenerationReport]:
        """Every stage, then the gates; the kept tasks, their domains and the report."""
        prompt = PROMPTS["subtopics"].format(topic=self.topic, n=self.subtopics)
        record = await self.ask("subtopics", slug(self.topic), prompt)
        self.advance("subtopics")
        names = self._parsed(record, lambda text: _subtopics(text, self.subtopics)) or []
        self.report.subtopics = names
        kept: list[TaskSpec] = []
        domains: list[DomainSpec] = []
        funnel: Counter[str] = Counter()
        for number, subtopic in enumerate(names, start=1):
            got = await self._subtopic(number, subtopic)
            if got is None:
                continue
            spec, tasks = got
            accepted, build = gate_generated(spec, tasks, seed=self.seed, limits=self.limits)
            self._count(build, funnel)
            if accepted:
                kept += accepted
                domains.append(spec)
        self.report.counts = {stage: funnel[stage] for stage in FUNNEL}
        self.report.cost_usd = round(
            self.entry.cost(self.report.input_tokens, self.report.output_tokens), 6
        )
        self.report.domains = [d.name for d in domains]
        return kept, domains, self.report

    async def _subtopic(
        self, number: int, subtopic: str
    ) -> tuple[DomainSpec, list[GeneratedTask]] | None:
        key = f"{number:02d}-{slug(subtopic)}"
        name = f"gen_{slug(self.topic)}_{number:02d}"[:40]
        fill = {"topic": self.topic, "subtopic": subtopic}
        record = await self.ask("world", key, PROMPTS["world"].format(**fill))
        self.advance("world")
        tables = self._parsed(record, _tables)
        if tables is None:
            self._skip("tools", "tasks")
            return None
        shown = json.dumps({t: s.model_dump() for t, s in tables.items()}, indent=1)
        record = await self.ask("tools", key, PROMPTS["tools"].format(tables=shown, **fill))
        self.advance("tools")
        source = self._parsed(record, _checked_tools)
        if source is None:
            self._skip("tasks")
            return None
        spec = DomainSpec(name=name, topic=self.topic, tables=tables, source=source)
        docs = "\n".join(
            f"- {tool.name}: {tool.description.splitlines()[0] if tool.description else ''} "
            f"parameters {json.dumps(tool.parameters.get('properties', {}))}"
            for _, tool in parse_tools(source)
        )
        prompt = PROMPTS["tasks"].format(tables=shown, tools=docs, k=self.tasks_per_cell, **fill)
        record = await self.ask("tasks", key, prompt)
        self.advance("tasks")
        parsed = self._parsed(record, lambda text: _tasks(text, subtopic))
        if parsed is None:
            return None
        tasks, refused = parsed
        self.report.stages["tasks"].refused += [f"{key}: {why}" for why in refused]
        return spec, tasks

    def _skip(self, *stages: str) -> None:
        for stage in stages:
            self.advance(stage)

    def _count(self, build: BuildReport, funnel: Counter[str]) -> None:
        for stage in FUNNEL:
            funnel[stage] += build.counts.get(stage, 0)
        self.report.drops += [
            {"stage": d.stage, "task": d.task, "reason": d.reason} for d in build.drops
        ]


def _checked_tools(text: str) -> str:
    source = python_block(text)
    parse_tools(source)  # the allow-list check and the declaration; raises with the reason
    return source


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return str(value)


def write_output(
    out: Path, tasks: list[TaskSpec], domains: list[DomainSpec], report: GenerationReport
) -> Path:
    """Write ``tasks.jsonl``, ``domains/<name>.json`` and the report into ``out``.

    ``toolchaos run toolbench-x --tasks OUT/tasks.jsonl`` then plays the tasks (loading the
    domains beside the file); the report's path is returned.
    """
    (out / "domains").mkdir(parents=True, exist_ok=True)
    for spec in domains:
        (out / "domains" / f"{spec.name}.json").write_text(
            spec.model_dump_json(indent=2) + "\n", encoding="utf-8"
        )
    lines = "".join(task.model_dump_json(exclude_none=True) + "\n" for task in tasks)
    (out / "tasks.jsonl").write_text(lines, encoding="utf-8")
    report.tasks_file = str(out / "tasks.jsonl")
    path = out / REPORT_FILE
    path.write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return path


def generate(
    client: ModelClient,
    entry: ModelEntry,
    out: Path,
    topic: str,
    subtopics: int,
    tasks_per_cell: int,
    advance: Callable[[str], None] = lambda stage: None,
    limits: Limits | None = None,
) -> tuple[list[TaskSpec], GenerationReport, Path]:
    """Run every stage and write the result; the kept tasks, the report and its path.

    Raises:
        BadInput: A count below 1 or an empty topic.
    """
    if not topic.strip():
        raise BadInput("--topic must name a topic, e.g. 'libraries'")
    if subtopics < 1 or tasks_per_cell < 1:
        raise BadInput("--subtopics and --tasks-per-cell must be 1 or more")
    gen = Generator(
        client, entry, out, topic.strip(), subtopics, tasks_per_cell, 0, limits, advance
    )
    tasks, domains, report = asyncio.run(gen.run())
    return tasks, report, write_output(out, tasks, domains, report)


__all__ = ["PROMPTS", "STAGES", "GenerationReport", "Generator", "generate"]
