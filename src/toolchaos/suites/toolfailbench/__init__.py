"""The ToolFailBench suite (arXiv 2607.04686): does an agent call a tool when it must?

Single-turn tasks in five professional domains (finance, medicine, law, cybersecurity,
real estate). A tool-required task names a real entity and aims at one failure mode:
skipping the tool (``tool_skip``), ignoring a tool result that contradicts what a model
would guess (``result_ignore``), or inventing structured data (``output_fabrication``).
A control needs no tool at all. Tool returns are per tool: only the task's expected call
returns its trap, every other call the tool's own deterministic data.

Importing this package is cheap; the names below load their modules on first use.

Code outside the suite imports these, never the modules behind them
(``tests/test_layers.py``).

Public names:
    SUITE: the suite (``suite``).
    FailTask, ToolFailDomain: the data model (``types``).
    fail_domain: a domain's role prompt, nine tools and answer formats (``domains``).
    tool_return: what a tool returns within a task (``returns``).
    leak_problems: what of a task's answer shows in what the agent sees (``leakage``).
    build_toolfailbench: the seeded generator (``generate``).
    load_fail_tasks, default_path: the shipped task file (``dataset``).
    load_v5, ImportedRelease: the importer for the published v5 release (``importer``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolchaos.core.lazy import lazy_exports

if TYPE_CHECKING:
    from toolchaos.suites.toolfailbench.dataset import default_path, load_fail_tasks
    from toolchaos.suites.toolfailbench.domains import fail_domain
    from toolchaos.suites.toolfailbench.generate import build_toolfailbench
    from toolchaos.suites.toolfailbench.importer import ImportedRelease, load_v5
    from toolchaos.suites.toolfailbench.judges import JudgeEstimate, judge_estimate
    from toolchaos.suites.toolfailbench.leakage import leak_problems
    from toolchaos.suites.toolfailbench.returns import tool_return
    from toolchaos.suites.toolfailbench.suite import SUITE
    from toolchaos.suites.toolfailbench.types import FailTask, ToolFailDomain

_EXPORTS: dict[str, str] = {
    "SUITE": "suite",
    "FailTask": "types",
    "ToolFailDomain": "types",
    "fail_domain": "domains",
    "tool_return": "returns",
    "leak_problems": "leakage",
    "build_toolfailbench": "generate",
    "load_fail_tasks": "dataset",
    "default_path": "dataset",
    "load_v5": "importer",
    "ImportedRelease": "importer",
    "JudgeEstimate": "judges",
    "judge_estimate": "judges",
}


__getattr__ = lazy_exports(__name__, _EXPORTS)


__all__ = [
    "SUITE",
    "FailTask",
    "ImportedRelease",
    "JudgeEstimate",
    "ToolFailDomain",
    "build_toolfailbench",
    "default_path",
    "fail_domain",
    "judge_estimate",
    "leak_problems",
    "load_fail_tasks",
    "load_v5",
    "tool_return",
]
