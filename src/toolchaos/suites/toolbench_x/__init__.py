"""The ToolBench-X suite (arXiv 2606.25819): multi-step tool tasks under recoverable hazards.

Everything only ToolBench-X uses lives here: task generation and the subtopic templates
(``generate``, ``templates/``), the build and its validators (``pipeline``, ``validate``),
the policy-decision protocol (``decision``), the scripted baselines and their recovery
steps (``baselines``, ``recovery``), scoring and trajectory diagnostics (``scoring``,
``diagnostics``) and its part of a report (``report``). ``suite`` plugs it in.
"""
