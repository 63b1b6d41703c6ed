"""What a person needs to extend toolchaos, in one place.

Import from here, not from the modules behind it (their layout may change):

- **a domain**: :class:`World` and :class:`Row` for its state, :func:`tool` (or the
  shared shapes :func:`lookup`, :func:`search`, :func:`aggregate`, :func:`create`,
  :func:`update`, :func:`source_tools`, ...) for its tools, :class:`Domain` and
  :func:`tool_map` to declare it, :class:`DomainNotes` for where hazards fit; then one
  line in :data:`DOMAINS`.
- **a subtopic** (ToolBench-X): template functions ``(TemplateContext) -> Draft`` with
  :func:`ref` between steps and an :class:`AnswerSpec`, collected in a :class:`Subtopic`.
- **a hazard variant**: a :class:`Hazard` subclass with its hooks, ``propose`` and
  ``hints``, decorated with :func:`register_hazard`.
- **a model provider**: a module with ``make_factory(name, entry, cache)`` returning a
  :class:`ModelFactory` of :class:`ModelClient` objects; then one line in
  :data:`PROVIDERS` (a :class:`Provider` when it has traits: scripted, local, an extra).
- **a suite**: a :class:`Suite` subclass and one line in :data:`SUITES`.

``docs/extending.md`` walks through each, with worked examples that the tests run.
"""

from __future__ import annotations

from toolchaos.agents.native import LoopConfig, LoopResult
from toolchaos.core.errors import BadInput, HarnessFault, ToolError
from toolchaos.core.tools import Param, Tool, tool
from toolchaos.core.types import (
    AnswerSpec,
    HazardEvent,
    HazardFamily,
    HazardSpec,
    Message,
    Observation,
    RecoveryAction,
    RecoveryStep,
    RefStep,
    TaskSpec,
    ToolCall,
    ToolKind,
    ToolSpec,
    Usage,
)
from toolchaos.core.world import Row, World
from toolchaos.domains import (
    DOMAINS,
    Domain,
    DomainNotes,
    Fallback,
    Resolver,
    Sources,
    UnitConversion,
    V2Tool,
    WriteVerifier,
    get_domain,
    tool_map,
)
from toolchaos.domains._common import bad_request, conflict, not_found, unprocessable
from toolchaos.domains._shapes import (
    Filter,
    Only,
    Source,
    aggregate,
    create,
    filtered_rows,
    lookup,
    search,
    source_tools,
    update,
)
from toolchaos.env.base import EpisodeEnv
from toolchaos.hazards import Hazard, HazardContext, PendingCall, Proposal, Results, register_hazard
from toolchaos.hazards.propose import answer_fields, read_paths, step_tools, value_at
from toolchaos.models.base import (
    PROVIDERS,
    ModelClient,
    ModelFactory,
    ModelRequest,
    ModelResponse,
    Provider,
    SharedClientFactory,
)
from toolchaos.models.config import ModelEntry
from toolchaos.models.transport import ResponseCache
from toolchaos.suites import SUITES, get_suite
from toolchaos.suites.base import (
    BuildOptions,
    BuildResult,
    Contribution,
    FigureSpec,
    Problem,
    ReportOptions,
    ReportTable,
    RunData,
    Suite,
    SuiteReport,
)
from toolchaos.suites.toolbench_x import Draft, NoFit, Subtopic, TemplateContext, ref

__all__ = [
    "DOMAINS",
    "PROVIDERS",
    "SUITES",
    "AnswerSpec",
    "BadInput",
    "BuildOptions",
    "BuildResult",
    "Contribution",
    "Domain",
    "DomainNotes",
    "Draft",
    "EpisodeEnv",
    "Fallback",
    "FigureSpec",
    "Filter",
    "HarnessFault",
    "Hazard",
    "HazardContext",
    "HazardEvent",
    "HazardFamily",
    "HazardSpec",
    "LoopConfig",
    "LoopResult",
    "Message",
    "ModelClient",
    "ModelEntry",
    "ModelFactory",
    "ModelRequest",
    "ModelResponse",
    "NoFit",
    "Observation",
    "Only",
    "Param",
    "PendingCall",
    "Problem",
    "Proposal",
    "Provider",
    "RecoveryAction",
    "RecoveryStep",
    "RefStep",
    "ReportOptions",
    "ReportTable",
    "Resolver",
    "ResponseCache",
    "Results",
    "Row",
    "RunData",
    "SharedClientFactory",
    "Source",
    "Sources",
    "Subtopic",
    "Suite",
    "SuiteReport",
    "TaskSpec",
    "TemplateContext",
    "Tool",
    "ToolCall",
    "ToolError",
    "ToolKind",
    "ToolSpec",
    "UnitConversion",
    "Usage",
    "V2Tool",
    "World",
    "WriteVerifier",
    "aggregate",
    "answer_fields",
    "bad_request",
    "conflict",
    "create",
    "filtered_rows",
    "get_domain",
    "get_suite",
    "lookup",
    "not_found",
    "read_paths",
    "ref",
    "register_hazard",
    "search",
    "source_tools",
    "step_tools",
    "tool",
    "tool_map",
    "unprocessable",
    "update",
    "value_at",
]
