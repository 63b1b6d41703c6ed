"""toolchaos: how tool-using LLM agents hold up when their tools are unreliable.

The public API is small: load a suite's tasks, run models on them, score and report.
"""

from __future__ import annotations

from toolchaos._version import __version__
from toolchaos.api import load_tasks, report, run, score

__all__ = ["__version__", "load_tasks", "report", "run", "score"]
