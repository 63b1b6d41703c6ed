"""toolchaos: how tool-using LLM agents hold up when their tools are unreliable.

The public API is small: load a suite's tasks, run models on them, score and report.
:class:`RunConfig` says what a run plays and :class:`LoopConfig` how each episode is
sampled (turns, rounds, temperature, max tokens, seed). Extension points (domains,
subtopics, hazard variants, model providers, suites) are in :mod:`toolchaos.ext`.
"""

from __future__ import annotations

from toolchaos._version import __version__
from toolchaos.agents.native import LoopConfig
from toolchaos.api import load_tasks, report, run, score
from toolchaos.runner.run import RunConfig
from toolchaos.suites.base import ReportOptions

__all__ = [
    "LoopConfig",
    "ReportOptions",
    "RunConfig",
    "__version__",
    "load_tasks",
    "report",
    "run",
    "score",
]
