"""Hazards on your own tools: plans, the engine, adapters, the pytest plugin and the MCP proxy.

The framework adapters (``toolchaos.chaos.adapters.openai_agents``, ``.langchain``,
``.pydantic_ai``) and the proxy (``toolchaos.chaos.proxy``) import their library and sit
behind their own extra; nothing here imports them. These modules, with
:mod:`toolchaos.ext`, are the public API an example may use.
"""

from toolchaos.chaos.engine import ChaosEngine, ChaosEpisode
from toolchaos.chaos.models import model_client
from toolchaos.chaos.plan import PROFILE_NAMES, HazardPlan, PlannedHazard, load_plan, resolve_plan
from toolchaos.chaos.python import (
    ChaosToolbox,
    ToolboxEpisode,
    spec_from_function,
    spec_from_openai,
)
from toolchaos.chaos.record import RunRecorder

__all__ = [
    "PROFILE_NAMES",
    "ChaosEngine",
    "ChaosEpisode",
    "ChaosToolbox",
    "HazardPlan",
    "PlannedHazard",
    "RunRecorder",
    "ToolboxEpisode",
    "load_plan",
    "model_client",
    "resolve_plan",
    "spec_from_function",
    "spec_from_openai",
]
