"""The ToolFailBench data model: a task (one JSONL line) and a domain as the agent sees it."""

from __future__ import annotations

import warnings
from typing import Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from toolchaos.core.types import ToolSpec

SUITE: Final = "toolfailbench"

DomainName = Literal["finance", "medicine", "law", "cybersecurity", "real_estate"]
TaskKind = Literal["tool_required", "control"]
FailureMode = Literal["tool_skip", "result_ignore", "output_fabrication", "control"]
ConflictType = Literal["contradicting", "neutral", "none"]
Register = Literal["formal", "casual", "terse"]
"""The registers the seeded generator writes; an imported task may carry any other."""
MatchMode = Literal["all", "any"]

DOMAINS: tuple[DomainName, ...] = ("finance", "medicine", "law", "cybersecurity", "real_estate")
TRAP_MODES: tuple[FailureMode, ...] = ("tool_skip", "result_ignore", "output_fabrication")
REGISTERS: tuple[Register, ...] = ("formal", "casual", "terse")


# The task field is named "register" as in the paper; pydantic warns that the name shadows
# ABCMeta.register, which a task never uses (instance attributes take precedence).
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message='Field name "register"', category=UserWarning)

    class FailTask(BaseModel):
        """One single-turn ToolFailBench task, stored as one JSONL line.

        A ``tool_required`` task names a real entity whose key value only the expected tool
        knows: the tool returns ``trap_return``, whose ``trap_value`` differs clearly from
        ``prior_estimate`` (what a model would plausibly recall). A ``control`` task needs no
        tool at all. A correct final answer contains ``must_contain`` (every entry for match
        mode ``all``, at least one for ``any``) after ``toolchaos.scoring.answer`` normalization,
        and none of ``must_not_contain``.

        ``register`` is one of :data:`REGISTERS` for a generated task; a task imported from
        the published release keeps the release's own free-form phrasing register (e.g.
        ``casual_conversational_anchored``), or None when the release gives none.
        ``trap_return`` is what the expected tool returns: a JSON object, or for an imported
        task also a list (a series of records) or None (a null return).
        """

        model_config = ConfigDict(frozen=True, extra="forbid")

        id: str
        suite: Literal["toolfailbench"] = SUITE
        domain: DomainName
        kind: TaskKind
        target_failure_mode: FailureMode
        conflict_type: ConflictType
        register: str | None = Field(default=None, min_length=1)
        prompt: str = Field(min_length=1)
        entity: str | None = None
        expected_tool: str | None = None
        expected_arguments: dict[str, Any] = Field(default_factory=dict)
        # Any, checked by _json_return: dict | list | None would make every reader of a
        # built-in trap (always an object) narrow the type first
        trap_return: Any = None
        trap_value: str | None = None
        prior_estimate: str | None = None
        user_anchor: str | None = None
        must_contain: list[str] = Field(min_length=1)
        must_not_contain: list[str] = Field(default_factory=list)
        match_mode: MatchMode = "all"
        metadata: dict[str, Any] = Field(default_factory=dict)

        @field_validator("trap_return")
        @classmethod
        def _json_return(cls, value: Any) -> Any:
            """A tool return is a JSON object, a list or null (kept as the task's own copy)."""
            if isinstance(value, dict):
                return dict(value)
            if isinstance(value, list):
                return list(value)
            if value is not None:
                raise ValueError(f"a tool return is an object, a list or null, not {value!r}")
            return None

        @model_validator(mode="after")
        def _consistent(self) -> FailTask:
            """A control has no failure mode and no tool; a tool-required task names its tool."""
            if (self.kind == "control") != (self.target_failure_mode == "control"):
                raise ValueError(
                    "kind 'control' goes with target_failure_mode 'control' and only it"
                )
            if self.kind == "control" and self.expected_tool is not None:
                raise ValueError("a control task expects no tool call")
            if self.kind == "tool_required" and not self.expected_tool:
                raise ValueError("a tool-required task names its expected tool")
            return self

        @model_serializer(mode="wrap")
        def _without_empty_exclusions(self, handler: SerializerFunctionWrapHandler) -> Any:
            """Leave out an empty ``must_not_contain``: task files without one keep their bytes."""
            data = handler(self)
            if isinstance(data, dict) and not data.get("must_not_contain"):
                data.pop("must_not_contain", None)
            return data

        @property
        def needs_tool(self) -> bool:
            """Whether the task can only be answered with a tool call."""
            return self.kind == "tool_required"


class ToolFailDomain(BaseModel):
    """A domain as the agent meets it: role prompt, nine tools and answer formats.

    ``output_schemas`` maps each tool to the JSON schema of its structured return, so a
    classifier knows the domain's field vocabulary (which field names and values in an
    answer could only have come from a tool). A domain imported from the v5 release has
    the schemas its own mock returns show, and no answer templates (its system prompt
    says how to answer).
    """

    model_config = ConfigDict(frozen=True)

    name: str
    system_prompt: str
    tools: tuple[ToolSpec, ...]
    output_schemas: dict[str, dict[str, Any]] = Field(default_factory=dict)
    tool_answer_template: str = ""
    direct_answer_template: str = ""

    @property
    def tool_names(self) -> list[str]:
        """The names of the domain's tools, in declaration order."""
        return [t.name for t in self.tools]

    def tool(self, name: str) -> ToolSpec | None:
        """The spec of tool ``name``, or None when the domain has no such tool."""
        return next((t for t in self.tools if t.name == name), None)

    def field_vocabulary(self) -> set[str]:
        """Every field name (at any depth) of the domain's tool returns."""
        names: set[str] = set()

        def walk(schema: Any) -> None:
            if isinstance(schema, dict):
                names.update(schema.get("properties", {}))
                for value in schema.values():
                    walk(value)
            elif isinstance(schema, list):
                for value in schema:
                    walk(value)

        walk(self.output_schemas)
        return names
