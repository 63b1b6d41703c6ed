"""The cost-of-recovery table against recipes whose price in calls is known in advance.

On the fixture task (three ``get_weather`` calls, summed) each hazard's recipe costs the
oracle a number of extra tool calls that follows from the recipe alone: a ``retry``
step one call per failed attempt, a ``fallback`` one call per failed call (the backup's),
a result repair (``normalize``, ``convert``) none. The report's table must say exactly that.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from conftest import HAZARDS, make_task
from toolchaos.core.types import HazardSpec
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run

CALLS_PER_FIRE = {"retry": 1, "fallback": 1, "normalize": 0, "convert": 0}
"""Extra tool calls one firing of the hazard costs an agent that follows each action."""


def recipe_calls(hazard: HazardSpec, calls_to_tool: int) -> int:
    """The extra calls the recipe prescribes: per firing, the sum over its steps."""
    fires = len(hazard.ordinals) if hazard.ordinals else calls_to_tool
    return fires * sum(CALLS_PER_FIRE[str(step.action)] for step in hazard.recovery)


@pytest.mark.parametrize("variant", sorted(HAZARDS))
def test_the_oracles_extra_calls_are_its_recipes_length(variant: str, tmp_path: Path) -> None:
    task = make_task(f"fx-cost-{variant}", hazard=HAZARDS[variant]())
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(task.model_dump_json() + "\n")
    config = RunConfig(
        suite="toolbench-x",
        models=["scripted/oracle", "scripted/naive"],
        arms=["clean", "hazard"],
        tasks_path=str(tasks),
        samples=2,
    )
    run(config, tmp_path / "run", Console(quiet=True))
    report = build_report([tmp_path / "run"])
    table = report.tables["recovery_cost"].set_index(["model", "arm"])
    assert task.hazard is not None
    to_tool = sum(step.tool == task.hazard.tool for step in task.reference.steps)
    expected = recipe_calls(task.hazard, to_tool)
    oracle = table.loc[("scripted/oracle", "hazard")]
    assert oracle["family"] == task.hazard.family
    assert oracle["pairs"] == 2  # one pair per sample
    assert oracle["calls"] == expected, (variant, oracle.to_dict())
    assert oracle["calls 95% CI"] == f"[{expected:.2f}, {expected:.2f}]"  # no spread
    # the oracle also answers right under the hazard: the cost bought a recovery
    rows = report.frame.set_index(["model", "arm"])
    assert rows.loc[("scripted/oracle", "hazard"), "correct"].all()
    # the naive policy spends no recovery calls: a failed call ends its episode or is used
    naive = table.loc[("scripted/naive", "hazard")]
    assert naive["calls"] <= 0
