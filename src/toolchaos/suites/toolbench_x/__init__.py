"""The ToolBench-X suite (arXiv 2606.25819): multi-step tool tasks under recoverable hazards.

Everything only ToolBench-X uses lives here: task generation and the subtopic templates
(``generate``, ``templates/``), the build and its validators (``pipeline``, ``validate``),
the policy-decision protocol (``decision``), the scripted baselines and their recovery
steps (``baselines``, ``recovery``), scoring and trajectory diagnostics (``scoring``,
``diagnostics``) and its part of a report (``report``). ``suite`` plugs it in.

Importing this package is cheap; the names below load their modules on first use. Code
outside the suite imports these, never the modules behind them (``tests/test_layers.py``).

Public names:
    SUITE: the suite (``suite``).
    Draft, NoFit, Subtopic, TemplateContext, ref: what a subtopic template is written
        with (``generate``; re-exported by :mod:`toolchaos.ext`).
    audit_scoring, report_lines: the scoring audit against an LLM judge (``audit``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolchaos.core.lazy import lazy_exports

if TYPE_CHECKING:
    from toolchaos.suites.toolbench_x.audit import audit_scoring, report_lines
    from toolchaos.suites.toolbench_x.generate import (
        Draft,
        NoFit,
        Subtopic,
        TemplateContext,
        ref,
    )
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
}


__getattr__ = lazy_exports(__name__, _EXPORTS)


__all__ = [
    "SUITE",
    "Draft",
    "NoFit",
    "Subtopic",
    "TemplateContext",
    "audit_scoring",
    "ref",
    "report_lines",
]
