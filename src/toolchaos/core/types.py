"""Pydantic models for the shared vocabulary: tools, calls, messages, tasks, hazards, episodes."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from toolchaos.core.jsonutil import dumps


class ToolKind(StrEnum):
    """Whether a tool only reads the world or changes it."""

    READ = "read"
    WRITE = "write"


class ToolSpec(BaseModel):
    """A tool as an agent sees it: name, description and JSON schema of its parameters."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str
    parameters: dict[str, Any]
    kind: ToolKind = ToolKind.READ

    def to_openai(self) -> dict[str, Any]:
        """Return the OpenAI ``tools`` entry for this spec."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


class ToolCall(BaseModel):
    """One call an agent asked for. ``arguments`` keeps the raw JSON text the model wrote."""

    id: str
    name: str
    arguments: str = "{}"
    parsed_by: str = "native"


class Observation(BaseModel):
    """What the environment returned for one call: a result or an error payload."""

    call_id: str
    tool: str
    ok: bool
    content: Any
    hazard_events: list[HazardEvent] = Field(default_factory=list)

    def to_text(self) -> str:
        """Render the observation as the tool message content the agent reads."""
        return dumps(self.content)


class Message(BaseModel):
    """One chat message of an episode."""

    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None
    reasoning: str | None = None


class Usage(BaseModel):
    """Token usage and latency of one model call, summed over an episode."""

    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    latency_s: float = 0.0
    calls: int = 0

    @property
    def cache_reuse(self) -> float:
        """Share of input tokens served from the model's KV/prompt cache (0 when none)."""
        return self.cached_input_tokens / self.input_tokens if self.input_tokens else 0.0

    def add(self, other: Usage) -> None:
        """Add another usage record into this one."""
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cached_input_tokens += other.cached_input_tokens
        self.latency_s += other.latency_s
        self.calls += other.calls


class HazardFamily(StrEnum):
    """The five hazard families of the ToolBench-X catalogue."""

    SPECIFICATION_DRIFT = "specification_drift"
    INVOCATION_ERROR = "invocation_error"
    EXECUTION_FAILURE = "execution_failure"
    OUTPUT_DRIFT = "output_drift"
    CROSS_SOURCE_CONFLICT = "cross_source_conflict"


class RecoveryAction(StrEnum):
    """What one step of a recovery recipe does (how: ``suites/toolbench_x/recovery.py``).

    The values are what task files store. docs/extending.md lists the same actions
    (``tests/core/test_recovery_actions.py`` compares the two).
    """

    # on an error
    RETRY = "retry"
    """The same call again, up to ``max_attempts``."""
    FALLBACK = "fallback"
    """Another tool (``tool``), its arguments mapped by ``args_map``."""
    ADAPT = "adapt"
    """Rename, re-map, re-format or fill the call's arguments."""
    RESOLVE = "resolve"
    """Look an entity up, then call with its id."""
    VERIFY_STATE = "verify_state"
    """After a write timed out, check whether it happened before repeating it."""
    CONSULT = "consult"
    """Read the service changelog about the failing tool; the next step applies its fix."""
    PROBE = "probe"
    """Call again with arguments left out (``drop``) or set (``set``) to read what the
    backend expects from its answer; the next step applies it."""
    # on a result
    NORMALIZE = "normalize"
    """Rename drifted result fields back."""
    CONVERT = "convert"
    """Undo a unit change (where a label names it, or past ``beyond``)."""
    COERCE = "coerce"
    """Numbers back from strings."""
    UNWRAP = "unwrap"
    """Leave an envelope around the result."""
    REFORMAT = "reformat"
    """Dates back to ISO."""
    REQUERY = "requery"
    """Call again when a field is missing (with ``flag``, asking for the full record), or
    (with ``equals_arg``) when the result's ``field`` is not the argument the call passed."""
    NEXT_PAGE = "next_page"
    """Fetch and merge the remaining pages."""
    CROSS_CHECK = "cross_check"
    """Ask the other sources and keep the fresh, majority or authoritative value."""
    REALIGN = "realign"
    """When a result says it is for another day (its ``field``) than the date ``param``
    sent, call again with the date moved by the difference."""


class RecoveryStep(BaseModel):
    """One machine-readable step of a recovery recipe: an action and how (``params``)."""

    action: RecoveryAction
    params: dict[str, Any] = Field(default_factory=dict)


RENAMED_VARIANTS: dict[tuple[str, str], str] = {
    # the name also meant the output-drift variant (a result field left out)
    (HazardFamily.INVOCATION_ERROR, "missing_field"): "missing_argument",
}
"""Old (family, variant) names that task files may still carry, and their current names."""


Tier = Literal["explicit", "implicit", "silent"]
"""How an agent can notice and fix a hazard (docs/toolbench-x.md, observability tiers).

``explicit``: the error or result names the fix. ``implicit``: it says what is wrong, not
how to fix it (the fix is in the docs, the changelog or found by probing). ``silent``: no
error at all; only a cue the agent can observe reveals it.
"""
TIERS: tuple[Tier, ...] = ("explicit", "implicit", "silent")


class HazardSpec(BaseModel):
    """A hazard planned for a task: which variant hits which tool on which call ordinals.

    ``tier`` is how observable this instance is; None (v1 task files) plays as the
    variant's first tier.
    """

    family: HazardFamily
    variant: str
    tool: str
    ordinals: list[int] | Literal["all"] = "all"
    params: dict[str, Any] = Field(default_factory=dict)
    recovery: list[RecoveryStep] = Field(default_factory=list)
    tier: Tier | None = None

    @model_validator(mode="before")
    @classmethod
    def _current_variant_name(cls, data: Any) -> Any:
        """Read a renamed variant under its current name, so old task files still play."""
        if isinstance(data, dict):
            renamed = RENAMED_VARIANTS.get((str(data.get("family")), str(data.get("variant"))))
            if renamed is not None:
                return {**data, "variant": renamed}
        return data


class HazardEvent(BaseModel):
    """One firing of a hazard, logged by the runtime."""

    family: HazardFamily
    variant: str
    tool: str
    ordinal: int
    detail: str


class RefStep(BaseModel):
    """One step of the oracle call path. Argument values may be refs into earlier results.

    A ref is ``{"$ref": [step_index, key, ...]}`` and resolves against the result of that
    step; every other value is a literal.
    """

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)


class AnswerSpec(BaseModel):
    """How the canonical answer is computed from the oracle's step results.

    ``op`` is ``value`` (the first ref), ``sum``, ``min``, ``max``, ``count``, ``argmin`` or
    ``argmax`` (over ``refs``, returning the matching entry of ``labels``); ``round`` rounds
    numbers; ``unit`` is appended when the answer is shown.
    """

    op: Literal["value", "sum", "min", "max", "argmin", "argmax", "count", "none"] = "value"
    refs: list[list[Any]] = Field(default_factory=list)
    labels: list[Any] = Field(default_factory=list)
    round: int | None = None
    unit: str = ""


class ExpectedWrite(BaseModel):
    """One row a task's writes must leave, and the fields of it the task is about.

    ``key`` is None for a row the task creates: its key is minted at run time, so any row
    the episode created in ``table`` with these field values matches. Values hold minted
    ids as ``#minted`` (see :meth:`toolchaos.core.world.World.state_hash`).
    """

    table: str
    key: str | None = None
    fields: dict[str, Any]


class Reference(BaseModel):
    """The oracle's path, its canonical answer and, for tasks that write, the end state.

    ``expected_writes`` (tasks built since v2) names the rows and fields the task's writes
    must produce; ``end_state`` is then the episode's view of those fields (see
    :func:`toolchaos.core.writes.written_state`) rather than a hash of the whole world,
    so an optional memo does not fail a task, and a task that also asks a question is
    scored on its ``answer`` too. ``distractors`` are the other values the answer's
    computation chose between; an answer that concludes with one commits elsewhere.
    """

    steps: list[RefStep]
    answer_spec: AnswerSpec = Field(default_factory=AnswerSpec)
    answer: str = ""
    aliases: list[str] = Field(default_factory=list)
    distractors: list[str] = Field(default_factory=list)
    end_state: str | None = None
    writes: bool = False
    expected_writes: list[ExpectedWrite] | None = None

    @model_serializer(mode="wrap")
    def _omit_absent_v2_fields(self, handler: SerializerFunctionWrapHandler) -> Any:
        # A v1 task carries neither field: leaving them out keeps its line byte for byte.
        data = handler(self)
        if isinstance(data, dict):
            if not self.distractors:
                data.pop("distractors", None)
            if self.expected_writes is None:
                data.pop("expected_writes", None)
        return data


class Hint(BaseModel):
    """A reliability hint given in the ``hint`` arm."""

    minimal: str
    detailed: str = ""
    delivery: Literal["start", "first_anomaly"] = "start"


class TaskSpec(BaseModel):
    """A benchmark task: pure data, stored as one JSONL line."""

    id: str
    suite: str
    domain: str
    topic: str
    subtopic: str
    workflow: Literal["sequential", "parallel", "mixture"]
    prompt: str
    system: str = ""
    world_seed: int = 0
    world_patch: dict[str, dict[str, dict[str, Any]]] = Field(default_factory=dict)
    tools: list[str]
    reference: Reference
    hazard: HazardSpec | None = None
    hints: Hint | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class EpisodeStatus(StrEnum):
    """How an episode ended: ``finished``, ``error`` or ``indeterminate``.

    ``finished``: scorable. ``error``: a harness fault. ``indeterminate``: decided by a
    fault toolchaos did not inject (see :func:`indeterminate_reason`). Only ``finished``
    episodes enter an accuracy's denominator; ``run --retry-errors`` plays the other two
    again.
    """

    FINISHED = "finished"
    ERROR = "error"
    INDETERMINATE = "indeterminate"


REPLAYABLE: frozenset[EpisodeStatus] = frozenset({EpisodeStatus.ERROR, EpisodeStatus.INDETERMINATE})
"""The statuses ``run --retry-errors`` plays again (and a merge lets another try replace)."""


class FaultOrigin(StrEnum):
    """Who failed (or altered) one tool call: the one place fault origins are named.

    Absent (None) on a call nothing failed or altered.
    """

    INJECTED = "injected"
    """A toolchaos hazard fired on the call (its error or altered result is the test)."""
    PROVIDER = "provider"
    """The model's provider failed (5xx/429 after the client's retries, a refused
    connection) while the episode was playing."""
    UPSTREAM = "upstream"
    """A user's real tool behind the proxy or an adapter failed: the MCP server died or
    answered with a JSON-RPC error, or the wrapped tool raised."""
    CANCELLED = "cancelled"
    """The call was cancelled (by the client, or a signal stopping the proxy) before the
    tool answered."""


NOT_INJECTED: frozenset[FaultOrigin] = frozenset(
    {FaultOrigin.PROVIDER, FaultOrigin.UPSTREAM, FaultOrigin.CANCELLED}
)
"""The origins of faults toolchaos did not inject."""


class TraceEntry(BaseModel):
    """One tool call with its observation, in the order the env saw them.

    ``violations`` lists, one sentence each, the rules of the tool's parameter schema the
    call's arguments broke, where the env checked them (a ToolFailBench env records them
    on every call; a release task's expected call is served anyway). Empty when the
    arguments fit, or in a trace stored before the field existed.
    """

    call: ToolCall
    observation: Observation
    ordinal: int
    violations: list[str] = Field(default_factory=list)
    fault: FaultOrigin | None = Field(default=None, exclude_if=lambda value: value is None)
    """Who failed or altered the call (:class:`FaultOrigin`): ``injected`` when a hazard
    fired on it, ``upstream`` for a user's real tool that failed (an MCP server that died
    or answered with a JSON-RPC error), ``cancelled`` for a call cancelled before the tool
    answered; None when nothing did (and in traces stored before injected calls were
    marked: their ``observation.hazard_events`` still say so)."""


class Episode(BaseModel):
    """One run of (task, arm, sample) by one model under one protocol."""

    key: str
    suite: str
    task_id: str
    model: str
    protocol: str
    arm: str
    sample: int = 0
    status: EpisodeStatus = EpisodeStatus.FINISHED
    error: str | None = None
    messages: list[Message] = Field(default_factory=list)
    trace: list[TraceEntry] = Field(default_factory=list)
    hazard_events: list[HazardEvent] = Field(default_factory=list)
    final_answer: str = ""
    end_state: str | None = None
    usage: Usage = Field(default_factory=Usage)
    turns: int = 0


def indeterminate_reason(trace: list[TraceEntry]) -> str | None:
    """Why a finished episode's outcome was decided by a fault toolchaos did not inject.

    The rule: the episode's last tool call failed with a fault of :data:`NOT_INJECTED`
    origin (the episode ended on it: the agent answered, or gave up, right after the
    user's tool failed), so its verdict says nothing about the agent's handling of
    toolchaos's hazards. An upstream fault the agent got past (a later call answered)
    leaves the episode scorable. A provider failure is decided where the episode is
    played (:func:`toolchaos.runner.episode.play`), not from the trace. None: scorable.
    """
    if not trace:
        return None
    last = trace[-1]
    if last.fault in NOT_INJECTED and not last.observation.ok:
        return f"{last.fault}: the episode ended on call {last.ordinal} ({last.call.name}) failing"
    return None


Observation.model_rebuild()
