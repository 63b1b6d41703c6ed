"""Generated tools for ToolBench-X (issue #28): the allow-list check and the sandbox.

Code a model writes never runs in the harness process: :func:`check_source` refuses
what the allow-list does not admit, and :func:`run_sandboxed` runs what passes in a
child process with resource limits, no network and an empty environment
(docs/generation.md, "Security model").
"""

from __future__ import annotations

from toolchaos.suites.toolbench_x.generation.check import ALLOWED_IMPORTS, Refusal, check_source
from toolchaos.suites.toolbench_x.generation.sandbox import (
    Limits,
    SandboxResult,
    network_isolation,
    run_sandboxed,
)

__all__ = [
    "ALLOWED_IMPORTS",
    "Limits",
    "Refusal",
    "SandboxResult",
    "check_source",
    "network_isolation",
    "run_sandboxed",
]
