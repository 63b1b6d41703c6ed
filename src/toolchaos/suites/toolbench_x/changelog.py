"""The service changelog: a tool every v2 ToolBench-X task offers, answered by the runtime.

Real services publish what changed (a renamed parameter, a new date format, a unit that
moved); an agent that gets a terse error can look there. The entries come from the
episode's active hazards (:meth:`Hazard.changelog`), so the tool is a runtime tool of the
episode's :class:`~toolchaos.env.runtime.Env` (:data:`RUNTIME_TOOLS`), never a domain's:
in the clean arm, and for hazards that announce nothing, it answers that nothing
changed. It is the same tool in every arm, so the toolbox does not tell the arms apart.
Every ToolBench-X env is built by :func:`make_env`, which offers it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolchaos.core.tools import Param, Tool, string, tool_spec
from toolchaos.core.types import TaskSpec
from toolchaos.domains import Domain
from toolchaos.env.hazard_layer import HazardLayer
from toolchaos.env.runtime import Env, RuntimeTool

CHANGELOG_TOOL = "read_changelog"
"""The tool's name in a task's ``tools``."""

_DESCRIPTION = (
    "Read the provider's API changelog: recent changes to a tool's parameters, formats, "
    "units or availability that its documentation may not show yet. Returns tool and "
    "entries (a list of dated notes; empty when nothing changed)."
)


CHANGELOG_SPEC = tool_spec(
    CHANGELOG_TOOL,
    _DESCRIPTION,
    [Param.described("tool", string("The name of the tool whose changes to read."))],
)
"""The changelog tool as the agent sees it (the same in every episode)."""


def changelog_tool(layer: HazardLayer) -> Tool:
    """The changelog tool of one episode, answered from ``layer``'s hazards."""

    def read(world: Any, tool: str) -> dict[str, Any]:
        return {"tool": tool, "entries": layer.changelog(tool)}

    # the spec is built once: every episode's changelog reads the same to the agent
    return Tool(spec=CHANGELOG_SPEC, fn=read)


RUNTIME_TOOLS: Mapping[str, RuntimeTool] = {CHANGELOG_TOOL: changelog_tool}
"""The tools a ToolBench-X episode's runtime answers itself, by name."""


def make_env(task: TaskSpec, arm: str, domain: Domain | None = None) -> Env:
    """The env of one ToolBench-X episode: the task's world and tools, and the changelog."""
    return Env(task, arm, domain, runtime_tools=RUNTIME_TOOLS)
