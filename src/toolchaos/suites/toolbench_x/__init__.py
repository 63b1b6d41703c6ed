"""The ToolBench-X suite (arXiv 2606.25819): multi-step tool tasks under recoverable hazards.

Everything only ToolBench-X uses lives here: task generation and the subtopic templates
(``generate``, ``templates/``), the build and its validators (``pipeline``, ``validate``),
the episode env with its service changelog (``changelog``), the policy-decision protocol
(``decision``), the scripted baselines and their recovery steps (``baselines``,
``recovery``), scoring and trajectory diagnostics (``scoring``, ``diagnostics``) and its
part of a report (``report``, with its figure). ``suite`` plugs it in.

Importing this package is cheap; the names below load their modules on first use. Code
outside the suite imports these, never the modules behind them (``tests/test_layers.py``).

Public names:
    SUITE: the suite (``suite``).
    Draft, NoFit, Subtopic, TemplateContext, ref: what a subtopic template is written
        with (``generate``; re-exported by :mod:`toolchaos.ext`).
    audit_scoring, report_lines: the scoring audit against an LLM judge (``audit``).
    CHANGELOG_TOOL, CHANGELOG_SPEC, changelog_tool, RUNTIME_TOOLS, make_env: the
        service changelog every episode's runtime answers, and the env that offers it
        (``changelog``; ``toolchaos.env.changelog`` before).
    draw_family_accuracy: the accuracy-by-family figure (``report``;
        ``toolchaos.report.figures`` before).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolchaos.core.lazy import lazy_exports

if TYPE_CHECKING:
    from toolchaos.suites.toolbench_x.audit import audit_scoring, report_lines
    from toolchaos.suites.toolbench_x.changelog import (
        CHANGELOG_SPEC,
        CHANGELOG_TOOL,
        RUNTIME_TOOLS,
        changelog_tool,
        make_env,
    )
    from toolchaos.suites.toolbench_x.generate import (
        Draft,
        NoFit,
        Subtopic,
        TemplateContext,
        ref,
    )
    from toolchaos.suites.toolbench_x.report import draw_family_accuracy
    from toolchaos.suites.toolbench_x.suite import SUITE

_EXPORTS: dict[str, str] = {
    "SUITE": "suite",
    "Draft": "generate",
    "NoFit": "generate",
    "Subtopic": "generate",
    "TemplateContext": "generate",
    "ref": "generate",
    "audit_scoring": "audit",
    "report_lines": "audit",
    "CHANGELOG_SPEC": "changelog",
    "CHANGELOG_TOOL": "changelog",
    "RUNTIME_TOOLS": "changelog",
    "changelog_tool": "changelog",
    "make_env": "changelog",
    "draw_family_accuracy": "report",
}


__getattr__ = lazy_exports(__name__, _EXPORTS)


__all__ = [
    "CHANGELOG_SPEC",
    "CHANGELOG_TOOL",
    "RUNTIME_TOOLS",
    "SUITE",
    "Draft",
    "NoFit",
    "Subtopic",
    "TemplateContext",
    "audit_scoring",
    "changelog_tool",
    "draw_family_accuracy",
    "make_env",
    "ref",
    "report_lines",
]
