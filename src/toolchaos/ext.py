"""What a person needs to extend toolchaos, in one place.

Import from here, not from the modules behind it (their layout may change):

- **a domain**: :class:`World` and :class:`Row` for its state, :func:`tool` (or the
  shared shapes :func:`lookup`, :func:`search`, :func:`aggregate`, :func:`create`,
  :func:`update`, :func:`source_tools`, ...) for its tools, :class:`Domain` and
  :func:`tool_map` to declare it, :class:`DomainNotes` for where hazards fit; then one
  line in :data:`DOMAINS` (or :func:`register_domain` on a factory).
- **a subtopic** (ToolBench-X): template functions ``(TemplateContext) -> Draft`` with
  :func:`ref` between steps and an :class:`AnswerSpec`, collected in a :class:`Subtopic`.
- **a hazard variant**: a :class:`Hazard` subclass with its hooks, ``propose`` and
  ``hints``, decorated with :func:`register_hazard`.
- **a model provider**: a module with ``make_factory(name, entry, cache)`` returning a
  :class:`ModelFactory` of :class:`ModelClient` objects; then one line in
  :data:`PROVIDERS` (a :class:`Provider` when it has traits: scripted, local, an extra),
  or :func:`register_provider`.
- **a suite**: a :class:`Suite` subclass (its options a pydantic model in
  ``options_model``; its env often an :class:`Env`, played by :func:`run_native`; its
  report rows from :func:`episode_record`) and one line in :data:`SUITES` (or
  :func:`register_suite` on a factory).

Another installed package registers each kind through an entry point instead: the groups
``toolchaos.domains``, ``toolchaos.suites``, ``toolchaos.providers`` and
``toolchaos.hazards`` (:data:`GROUPS`), read on a registry's first lookup.

``docs/extending.md`` walks through each, with worked examples that the tests run
(``docs/examples/hello`` is a whole package of them).
"""

from __future__ import annotations

from toolchaos.agents.native import LoopConfig, LoopResult, run_native
from toolchaos.core.errors import BadInput, HarnessFault, ToolError
from toolchaos.core.registry import GROUPS
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
    Reference,
    RefStep,
    TaskSpec,
    ToolCall,
    ToolKind,
    ToolSpec,
    TraceEntry,
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
    register_domain,
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
from toolchaos.env.runtime import Env
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
    register_provider,
)
from toolchaos.models.config import ModelEntry
from toolchaos.models.transport import ResponseCache
from toolchaos.scoring.answer import mentions, normalize
from toolchaos.scoring.tables import episode_record
from toolchaos.suites import SUITES, get_suite, register_suite
from toolchaos.suites.base import (
    BuildOptions,
    BuildResult,
    Contribution,
    FigureSpec,
    NoOptions,
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
    "GROUPS",
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
    "Env",
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
    "NoOptions",
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
    "Reference",
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
    "TraceEntry",
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
    "episode_record",
    "filtered_rows",
    "get_domain",
    "get_suite",
    "lookup",
    "mentions",
    "normalize",
    "not_found",
    "read_paths",
    "ref",
    "register_domain",
    "register_hazard",
    "register_provider",
    "register_suite",
    "run_native",
    "search",
    "source_tools",
    "step_tools",
    "tool",
    "tool_map",
    "unprocessable",
    "update",
    "value_at",
]
