"""One build of a single ToolBench-X domain per test process, shared by the template tests,
and one of the whole shipped set.

``test_templates.py`` checks every domain's build and some domains' own test modules check
more of the same build; each build takes seconds, so it is made once per process. The
tests that read a domain's build carry :func:`build_group` as an ``xdist_group`` mark, so
that under ``make test`` (``--dist loadgroup``) one worker builds each domain once.
The whole seed-0 build (:func:`shipped_build`, about a minute of CPU) is read by the
byte-for-byte rebuild test and the prompt checks, in the :data:`SHIPPED_GROUP` group.
"""

from __future__ import annotations

from functools import cache

import pytest

from toolchaos.core.types import TaskSpec
from toolchaos.suites.toolbench_x.pipeline import V1_TARGETS, BuildReport, build_toolbench_x

PER_CELL = 5


@cache
def domain_build(domain: str) -> tuple[list[TaskSpec], BuildReport]:
    """Seed 0's build of ``domain`` alone, five tasks a cell (shared: read only)."""
    return build_toolbench_x(0, per_cell=PER_CELL, domains=[domain])


def build_group(domain: str) -> pytest.MarkDecorator:
    """The xdist group of the tests that read ``domain_build(domain)``."""
    return pytest.mark.xdist_group(f"toolbench-x-build-{domain}")


@cache
def shipped_build() -> tuple[list[TaskSpec], BuildReport]:
    """The build ``toolchaos build toolbench-x --seed 0`` makes, from the current code."""
    return build_toolbench_x(0, targets=V1_TARGETS, cheap_gates=True)


SHIPPED_GROUP = pytest.mark.xdist_group("toolbench-x-build-shipped")
"""The xdist group of the tests that read :func:`shipped_build`."""
