"""Import the published ToolFailBench v5 release into toolchaos tasks and domains.

Layout under the release root (``<d>`` is ``finance``, ``medical``, ``legal``,
``cybersecurity`` or ``real_estate``)::

    tasks_v5/<d>/tasks.json   {domain, version, system_prompt_ref, tools_ref,
                               task_count_target, tasks: [...]}
    tasks_v5/<d>/tools.json   {domain, version, tools: [OpenAI tool schemas]}
    <system_prompt_ref>       markdown; a leading YAML front-matter block is dropped

Both refs are relative to the root. A task is ``{task_id, domain, turn_type,
target_failure_mode, conflict_type, user_message, expected_tool_call {name, arguments},
mock_tool_return, ground_truth {answer_must_contain, match_mode,
answer_must_not_contain}, parametric_trap_note, metadata}``. Domains map to toolchaos
names (``medical`` -> ``medicine``, ``legal`` -> ``law``).

Every field is taken as the release writes it, none is invented:

* ``mock_tool_return`` becomes ``trap_return``: an object, a list (79 of the 1,000 v5
  tasks return a series of records) or null; a control has none.
* ``ground_truth.match_mode`` defaults to ``all`` when missing, as in the release's own
  loader; ``answer_must_not_contain`` becomes ``must_not_contain``.
* From ``metadata``: ``phrasing_register`` becomes ``register`` (the release's free-form
  wording, such as ``casual_conversational_anchored``), ``entity``, ``trap_value``,
  ``memorized_prior_estimate`` becomes ``prior_estimate`` and ``user_anchored_prior``
  becomes ``user_anchor``. A field the release leaves out stays None, and the task's
  ``metadata["absent_in_release"]`` names the release fields it lacked (for instance
  ``metadata.trap_value``).
* The task's ``metadata`` keeps the release's ``metadata`` as written (``sub_category``,
  ``entity``, ``jurisdiction``, ...), plus ``turn_type``, ``parametric_trap_note``,
  ``source = "v5"`` and ``source_domain``; a note that says what output fabrication
  invents ("OF fires if the model invents A, B, or C") also gives
  ``metadata["absent_fields"] = [A, B, C]``, as a built-in task lists the fields its prompt
  asks for and its return lacks (:mod:`toolchaos.suites.toolfailbench.absent`).

The release's tools declare no return schemas, so each imported domain's
``output_schemas`` (its field vocabulary) is inferred from the release's own mock returns
of each tool; nothing comes from toolchaos's built-in domains.

Any missing file or field, or a value of the wrong kind, raises :class:`BadInput` with
one sentence naming the file, the task and the field.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, NoReturn

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from toolchaos.core.errors import BadInput
from toolchaos.core.tools import foreign_spec
from toolchaos.core.types import ToolSpec
from toolchaos.suites.toolfailbench._kit import plain
from toolchaos.suites.toolfailbench.absent import ABSENT_FIELDS, note_fields
from toolchaos.suites.toolfailbench.rules import keys
from toolchaos.suites.toolfailbench.types import (
    TRAP_MODES,
    ConflictType,
    FailTask,
    FailureMode,
    ToolFailDomain,
)

RELEASE_DIR = "tasks_v5"
SOURCE_DOMAINS: dict[str, str] = {
    "finance": "finance",
    "medical": "medicine",
    "legal": "law",
    "cybersecurity": "cybersecurity",
    "real_estate": "real_estate",
}
FAILURE_MODES: tuple[FailureMode, ...] = (*TRAP_MODES, "control")
CONFLICTS: dict[str, ConflictType] = {
    "contradicting": "contradicting",
    "contradiction": "contradicting",
    "contradictory": "contradicting",
    "neutral": "neutral",
    "none": "none",
    "no_conflict": "none",
    "n/a": "none",
}


class ImportedRelease(BaseModel):
    """An imported v5 release: its tasks and, per toolchaos domain, prompt and tools."""

    model_config = ConfigDict(frozen=True)

    root: str
    tasks: list[FailTask]
    domains: dict[str, ToolFailDomain]
    versions: dict[str, str] = Field(default_factory=dict)
    """Release version string of each domain's tasks file."""
    files: dict[str, dict[str, str]] = Field(default_factory=dict)
    """Per domain, the tasks, tools and system prompt files read."""


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "a number"
    return names.get(type(value), type(value).__name__)


class _Place:
    """Where a value came from, to word errors: the file, the task (or tool) and the field."""

    def __init__(self, path: Path, item: str | None = None) -> None:
        self.path = path
        self.item = item

    def fail(self, field: str, problem: str) -> NoReturn:
        where = f"{self.path}, {self.item}" if self.item else f"{self.path}"
        raise BadInput(f"{where}, field {field}: {problem}")

    def get(self, data: dict[str, Any], field: str, *, prefix: str = "") -> Any:
        if field not in data or data[field] is None:
            self.fail(prefix + field, "missing")
        return data[field]

    def text(self, data: dict[str, Any], field: str, *, prefix: str = "") -> str:
        value = self.get(data, field, prefix=prefix)
        if not isinstance(value, str) or not value.strip():
            self.fail(prefix + field, f"expected a non-empty string, got {_kind(value)}")
        return value

    def obj(self, data: dict[str, Any], field: str, *, prefix: str = "") -> dict[str, Any]:
        value = self.get(data, field, prefix=prefix)
        return self.as_obj(value, prefix + field)

    def as_obj(self, value: Any, field: str) -> dict[str, Any]:
        value = self.decoded(value, field, "an object")
        if not isinstance(value, dict):
            self.fail(field, f"expected an object, got {_kind(value)}")
        return value

    def decoded(self, value: Any, field: str, expected: str) -> Any:
        """A value the release may also write as a JSON string, decoded."""
        if isinstance(value, str):
            try:
                return json.loads(value)
            except json.JSONDecodeError:
                self.fail(field, f"expected {expected}, got a string that is not JSON")
        return value

    def values(self, data: dict[str, Any], field: str, *, prefix: str = "") -> list[str]:
        """A list of strings or numbers (one alone counts as a list of one), as text."""
        value = data[field]
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, list):
            self.fail(prefix + field, f"expected a list, got {_kind(value)}")
        if not all(isinstance(v, str | int | float) and not isinstance(v, bool) for v in value):
            self.fail(prefix + field, "every entry must be a string or number")
        return [plain(v) for v in value]


def _read_json(path: Path, what: str) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(f"{path} does not exist ({what})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read {path} ({what}): {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(
            f"{path} is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    if not isinstance(data, dict):
        raise BadInput(f"{path}, field (top level): expected an object, got {_kind(data)}")
    return data


def _ref(root: Path, place: _Place, data: dict[str, Any], field: str) -> Path:
    """Resolve a ref field against the root; it must name an existing file inside it."""
    ref = place.text(data, field)
    if "\x00" in ref:
        place.fail(field, f"{ref!r} is not a file name (it holds a NUL character)")
    path = (root / ref).resolve()
    if not path.is_relative_to(root.resolve()):
        place.fail(field, f"{ref!r} points outside the release root {root}")
    if not path.is_file():
        place.fail(field, f"file {root / ref} does not exist")
    return root / ref


def strip_front_matter(text: str, path: Path) -> str:
    """The markdown body of a system prompt file without its leading YAML front matter."""
    body = text.removeprefix("\ufeff")
    lines = body.splitlines(keepends=True)
    if lines and lines[0].strip() == "---":
        for i, line in enumerate(lines[1:], start=1):
            if line.strip() in ("---", "..."):
                body = "".join(lines[i + 1 :])
                break
        else:
            raise BadInput(f"{path}, field front matter: no closing '---' line")
    return body.strip()


def _system_prompt(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read {path} (system prompt): {exc}") from None
    prompt = strip_front_matter(text, path)
    if not prompt:
        raise BadInput(f"{path}, field system prompt: empty once the front matter is removed")
    return prompt


def _tools(path: Path, source: str) -> tuple[ToolSpec, ...]:
    data = _read_json(path, f"v5 tools of domain {source!r}")
    place = _Place(path)
    entries = place.get(data, "tools")
    if not isinstance(entries, list) or not entries:
        place.fail("tools", f"expected a non-empty list, got {_kind(entries)}")
    specs: list[ToolSpec] = []
    for number, entry in enumerate(entries, start=1):
        place.item = f"tool #{number}"
        entry = place.as_obj(entry, "tools")
        function = place.obj(entry, "function") if "function" in entry else entry
        prefix = "function." if "function" in entry else ""
        name = place.text(function, "name", prefix=prefix)
        place.item = f"tool {name}"
        parameters = function.get("parameters", {"type": "object", "properties": {}})
        parameters = place.as_obj(parameters, prefix + "parameters")
        try:
            Draft202012Validator.check_schema(parameters)
        except SchemaError as exc:
            place.fail(prefix + "parameters", f"not a valid JSON schema ({exc.message})")
        if any(s.name == name for s in specs):
            place.fail(prefix + "name", "a tool of that name is already defined in this file")
        description = function.get("description", "")
        if not isinstance(description, str):
            place.fail(prefix + "description", f"expected a string, got {_kind(description)}")
        specs.append(foreign_spec(name, description, parameters))
    return tuple(specs)


# task field <- the release metadata field it is read from
METADATA_FIELDS: dict[str, str] = {
    "register": "phrasing_register",
    "entity": "entity",
    "trap_value": "trap_value",
    "prior_estimate": "memorized_prior_estimate",
    "user_anchor": "user_anchored_prior",
}
ABSENT = "absent_in_release"
"""The metadata key naming the release fields a task lacked (their task fields are None)."""


def _metadata_text(meta: dict[str, Any], key: str) -> str | None:
    value = meta.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return plain(value)


def _mock_return(place: _Place, data: dict[str, Any], control: bool) -> Any:
    """The task's mock return: an object, a list or null; a control must have none."""
    field = "mock_tool_return"
    if control:
        if data.get(field) is not None:
            place.fail(field, f"a control task has no tool return, got {_kind(data[field])}")
        return None
    if field not in data:
        place.fail(field, "missing")
    value = place.decoded(data[field], field, "an object, a list or null")
    if value is not None and not isinstance(value, dict | list):
        place.fail(field, f"expected an object, a list or null, got {_kind(value)}")
    return value


def _task(
    raw: Any,
    number: int,
    path: Path,
    source: str,
    domain: str,
    tool_names: set[str],
    tools_path: Path,
) -> FailTask:
    """Map one v5 task onto a FailTask (raises BadInput naming file, task and field)."""
    place = _Place(path, f"task #{number}")
    data = place.as_obj(raw, "tasks")
    task_id = place.text(data, "task_id")
    place.item = f"task {task_id}"
    if data.get("domain") not in (None, source, domain):
        place.fail("domain", f"{data['domain']!r} does not match the file's domain {source!r}")
    mode = place.text(data, "target_failure_mode")
    if mode not in FAILURE_MODES:
        place.fail("target_failure_mode", f"{mode!r} is not one of {', '.join(FAILURE_MODES)}")
    control = mode == "control"
    conflict_raw = data.get("conflict_type")
    if conflict_raw is None and not control:
        place.fail("conflict_type", "missing")
    conflict = CONFLICTS.get(str(conflict_raw or "none").strip().lower())
    if conflict is None:
        known = "contradicting, neutral, none"
        place.fail("conflict_type", f"{conflict_raw!r} is not one of {known}")
    prompt = place.text(data, "user_message")
    truth = place.obj(data, "ground_truth")
    place.get(truth, "answer_must_contain", prefix="ground_truth.")
    must_contain = place.values(truth, "answer_must_contain", prefix="ground_truth.")
    if not must_contain:
        place.fail("ground_truth.answer_must_contain", "expected a non-empty list, got []")
    must_not_contain: list[str] = []
    if truth.get("answer_must_not_contain") is not None:
        must_not_contain = place.values(truth, "answer_must_not_contain", prefix="ground_truth.")
    match_mode = truth.get("match_mode")
    if match_mode is None:
        match_mode = "all"  # the release's own loader defaults it so
    elif match_mode not in ("all", "any"):
        place.fail("ground_truth.match_mode", f"{match_mode!r} is not one of all, any")
    meta = place.as_obj(data.get("metadata") or {}, "metadata")

    tool: str | None = None
    arguments: dict[str, Any] = {}
    call = data.get("expected_tool_call")
    if not control:
        call = place.obj(data, "expected_tool_call")
        tool = place.text(call, "name", prefix="expected_tool_call.")
        if tool not in tool_names:
            place.fail("expected_tool_call.name", f"{tool!r} is not a tool in {tools_path}")
        arguments = place.obj(call, "arguments", prefix="expected_tool_call.")
    elif call and isinstance(call, dict) and call.get("name"):
        place.fail("expected_tool_call", "a control task expects no tool call")
    trap_return = _mock_return(place, data, control)

    mapped = {name: _metadata_text(meta, key) for name, key in METADATA_FIELDS.items()}
    metadata: dict[str, Any] = {**meta, "source": "v5", "source_domain": source}
    for key in ("turn_type", "parametric_trap_note"):
        if data.get(key) is not None:
            metadata[key] = data[key]
    metadata[ABSENT] = [f"metadata.{METADATA_FIELDS[n]}" for n, v in mapped.items() if v is None]
    invented = note_fields(str(data.get("parametric_trap_note") or ""))
    if invented and not control:
        metadata[ABSENT_FIELDS] = invented
    try:
        return FailTask(
            id=task_id,
            domain=domain,
            kind="control" if control else "tool_required",
            target_failure_mode=mode,
            conflict_type=conflict,
            prompt=prompt,
            expected_tool=tool,
            expected_arguments=arguments,
            trap_return=trap_return,
            must_contain=must_contain,
            must_not_contain=must_not_contain,
            match_mode=match_mode,
            metadata=metadata,
            **mapped,
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "task"
        place.fail(field, first["msg"])


_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer"}


def _shape(value: Any) -> dict[str, Any]:
    """The JSON schema one returned value shows (a list's items merged into one schema)."""
    kind = "null" if value is None else _JSON_TYPES.get(type(value), "number")
    schema: dict[str, Any] = {"type": kind}
    if isinstance(value, dict):
        schema["properties"] = {k: _shape(v) for k, v in value.items()}
    elif isinstance(value, list) and value:
        items: dict[str, Any] = {}
        for item in value:
            items = _merge(items, _shape(item))
        schema["items"] = items
    return schema


def _merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """One schema admitting what either admits: types and fields unioned, first seen first."""
    if not a or not b:
        return a or b
    kinds = [k for s in (a, b) for k in ([s["type"]] if isinstance(s["type"], str) else s["type"])]
    kinds = list(dict.fromkeys(kinds))
    merged: dict[str, Any] = {"type": kinds[0] if len(kinds) == 1 else kinds}
    if "properties" in a or "properties" in b:
        properties = dict(a.get("properties", {}))
        for key, schema in b.get("properties", {}).items():
            properties[key] = _merge(properties.get(key, {}), schema)
        merged["properties"] = properties
    if "items" in a or "items" in b:
        merged["items"] = _merge(a.get("items", {}), b.get("items", {}))
    return merged


def return_schemas(tasks: Sequence[FailTask]) -> dict[str, dict[str, Any]]:
    """Per expected tool, the schema of the mock returns the release gives it.

    The release's tools.json declares parameters only, so what a tool returns, and the
    field vocabulary a classifier checks an answer against, is what its mocks show.
    """
    schemas: dict[str, dict[str, Any]] = {}
    for task in tasks:
        if task.expected_tool is not None and task.trap_return is not None:
            shape = _shape(task.trap_return)
            schemas[task.expected_tool] = _merge(schemas.get(task.expected_tool, {}), shape)
    return schemas


def load_v5(root: Path, domains: Sequence[str] | None = None) -> ImportedRelease:
    """Import a ToolFailBench v5 release.

    Args:
        root: The release root (the folder holding ``tasks_v5/``).
        domains: The domains to import, by v5 or toolchaos name (``medical`` or
            ``medicine``); None imports every domain folder present (at least one).

    Returns:
        The tasks (in file order, domain by domain) and, per toolchaos domain, its system
        prompt, tools and the return schemas its mocks show, as a :class:`ToolFailDomain`
        (without answer templates: the release's system prompt says how to answer).

    Raises:
        BadInput: A file or field is missing or malformed; the message is one sentence
            naming the file, the task and the field.
    """
    root = Path(root)
    if not root.is_dir():
        raise BadInput(f"{root} is not a directory (expected a ToolFailBench v5 release root)")
    by_target = {target: source for source, target in SOURCE_DOMAINS.items()}
    if domains is None:
        wanted = [s for s in SOURCE_DOMAINS if (root / RELEASE_DIR / s / "tasks.json").is_file()]
        if not wanted:
            raise BadInput(
                f"{root / RELEASE_DIR} holds no <domain>/tasks.json for any of "
                f"{', '.join(SOURCE_DOMAINS)}"
            )
    else:
        wanted = []
        for name in domains:
            source = name if name in SOURCE_DOMAINS else by_target.get(name)
            if source is None:
                raise BadInput(f"unknown v5 domain {name!r}; known: {', '.join(SOURCE_DOMAINS)}")
            wanted.append(source)

    tasks: list[FailTask] = []
    seen: dict[str, Path] = {}
    imported: dict[str, ToolFailDomain] = {}
    versions: dict[str, str] = {}
    files: dict[str, dict[str, str]] = {}
    for source in wanted:
        domain = SOURCE_DOMAINS[source]
        path = root / RELEASE_DIR / source / "tasks.json"
        data = _read_json(path, f"v5 tasks of domain {source!r}")
        place = _Place(path)
        declared = place.text(data, "domain")
        if declared not in (source, domain):
            place.fail("domain", f"{declared!r} does not match the folder {source!r}")
        tools_path = _ref(root, place, data, "tools_ref")
        prompt_path = _ref(root, place, data, "system_prompt_ref")
        raw_tasks = place.get(data, "tasks")
        if not isinstance(raw_tasks, list):
            place.fail("tasks", f"expected a list, got {_kind(raw_tasks)}")
        specs = _tools(tools_path, source)
        system_prompt = _system_prompt(prompt_path)
        versions[domain] = plain(data.get("version", ""))
        files[domain] = {
            "tasks": str(path),
            "tools": str(tools_path),
            "system_prompt": str(prompt_path),
        }
        names = {s.name for s in specs}
        domain_tasks: list[FailTask] = []
        for number, raw in enumerate(raw_tasks, start=1):
            task = _task(raw, number, path, source, domain, names, tools_path)
            if task.id in seen:
                _Place(path, f"task {task.id}").fail(
                    "task_id", f"the id is already used by a task in {seen[task.id]}"
                )
            seen[task.id] = path
            domain_tasks.append(task)
        imported[domain] = ToolFailDomain(
            name=domain,
            system_prompt=system_prompt,
            tools=specs,
            output_schemas=return_schemas(domain_tasks),
        )
        tasks += domain_tasks
    return ImportedRelease(
        root=str(root), tasks=tasks, domains=imported, versions=versions, files=files
    )


RELEASE_DOMAIN = "release_domain"
"""The metadata key under which an imported task carries its release domain."""


def release_tasks(release: ImportedRelease) -> list[FailTask]:
    """The release's tasks, each carrying its domain as the release defines it.

    A run stores its tasks, so each task keeps the release's tools and system prompt (in
    ``metadata["release_domain"]``): the episode plays against them, and a report made
    later, without the release at hand, still knows what the agent was shown.
    """
    out = []
    for task in release.tasks:
        domain = release.domains[task.domain].model_dump(mode="json")
        metadata = {**task.metadata, RELEASE_DOMAIN: domain}
        out.append(task.model_copy(update={"metadata": metadata}))
    return out


# the release domain records met, by id: (the record, parsed)
_MET: dict[int, tuple[Any, ToolFailDomain]] = {}
_MET_MAX = 2_048  # a release has 1,000 tasks; each record is about 64 KB in memory


def release_domain(task: FailTask) -> ToolFailDomain | None:
    """The release domain an imported task carries; None for a built-in task.

    Every task of a release domain carries the same record, so it is parsed once.
    """
    domain = task.metadata.get(RELEASE_DOMAIN)
    if domain is None:
        return None
    # a record already met is known by identity (writing it out as the key costs 0.1 ms,
    # and a run or a report asks twice an episode); the entry holds the record, so its id
    # cannot pass to another object while it is here
    seen = _MET.get(id(domain))
    if seen is not None and seen[0] is domain:
        return seen[1]
    parsed = _parsed_domain(json.dumps(domain, sort_keys=True))
    if len(_MET) >= _MET_MAX:
        _MET.clear()
    _MET[id(domain)] = (domain, parsed)
    return parsed


@cache
def _parsed_domain(record: str) -> ToolFailDomain:
    return ToolFailDomain.model_validate_json(record)


def release_tool_names(task: FailTask) -> frozenset[str] | None:
    """The lower-cased names of a release task's tools; None for a built-in task."""
    domain = release_domain(task)
    return None if domain is None else frozenset(n.lower() for n in domain.tool_names)


def release_vocabulary(task: FailTask) -> frozenset[str] | None:
    """The field names an answer could only have taken from a tool, for a release task.

    Every field the release's own mock returns show for the tools of the task's domain
    (and this task's return, should it carry fields its domain's schemas lack); None for a
    built-in task, whose vocabulary is its built-in domain's.
    """
    domain = release_domain(task)
    if domain is None:
        return None
    return frozenset(domain.field_vocabulary() | keys(task.trap_return))
