"""The Inspect tasks: a toolchaos suite's tasks as Inspect samples."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample

from toolchaos.core.errors import BadInput
from toolchaos.integrations.inspect.scorer import toolchaos_scorer
from toolchaos.integrations.inspect.solver import toolchaos_protocol
from toolchaos.runner.plan import make_plan
from toolchaos.suites import configured_suite
from toolchaos.suites.base import stratified_subset


def _arms(value: str | list[str]) -> list[str]:
    parts = value.split(",") if isinstance(value, str) else value
    return [p.strip() for p in parts if p.strip()]


def suite_samples(
    suite_name: str,
    *,
    arm: str | list[str],
    subset: int | None = None,
    limit: int | None = None,
    dataset: str | None = None,
    hazard: str | None = None,
    protocol: str = "",
    options: dict[str, Any] | None = None,
) -> list[Sample]:
    """One sample per (task, arm) of a suite, chosen as ``toolchaos run`` would choose.

    ``options`` are the suite's own (``-T key=value`` of ``toolchaos run``); each sample
    carries them to the solver.
    """
    suite = configured_suite(suite_name, options)
    chosen = suite.parse_options(options or {})
    protocol = protocol or suite.protocol
    if protocol not in suite.protocols:
        raise BadInput(f"protocol {protocol!r} does not fit suite {suite.name!r}")
    tasks: list[Any] = suite.load(Path(dataset) if dataset else None)
    if hazard is not None:
        tasks = [
            t
            for t in tasks
            if getattr(t, "hazard", None) is not None
            and hazard in (t.hazard.family.value, t.hazard.variant)
        ]
        if not tasks:
            raise BadInput(f"no task has hazard {hazard!r}")
    if subset is not None:
        tasks = stratified_subset(tasks, subset, suite.stratum)
    if limit is not None:
        tasks = tasks[:limit]
    arms = ["clean"] if suite.arms == ("clean",) else _arms(arm)
    samples = []
    for item in make_plan(["inspect"], tasks, arms, 1, protocol):
        reference = getattr(item.task, "reference", None)
        answer = getattr(getattr(reference, "answer", None), "canonical", None)
        samples.append(
            Sample(
                id=f"{item.task.id}|{item.arm}",
                input=str(getattr(item.task, "prompt", item.task.id)),
                target=str(answer) if answer is not None else "",
                metadata={
                    "toolchaos_suite": suite.name,
                    "toolchaos_task": item.task.model_dump_json(),
                    "toolchaos_arm": item.arm,
                    "toolchaos_protocol": protocol,
                    "toolchaos_options": chosen,
                },
            )
        )
    return samples


def _task(suite_name: str, max_turns: int, rounds: int, **choice: Any) -> Task:
    return Task(
        dataset=MemoryDataset(suite_samples(suite_name, **choice), name=suite_name),
        solver=toolchaos_protocol(max_turns=max_turns, rounds=rounds),
        scorer=toolchaos_scorer(),
    )


@task
def toolbench_x(
    arm: str = "hazard",
    subset: int | None = None,
    limit: int | None = None,
    dataset: str | None = None,
    hazard: str | None = None,
    protocol: str = "",
    max_turns: int = 10,
) -> Task:
    """ToolBench-X under hazards: ``-T arm=clean,hazard -T subset=60 -T hazard=output_drift``.

    Args:
        arm: The arm or comma-separated arms (clean, hazard, hint, oracle-label).
        subset: N tasks spread over workflow types and hazard families.
        limit: Only the first N tasks.
        dataset: A task file instead of the shipped set.
        hazard: Only tasks with this hazard family or variant.
        protocol: native or decision (default: the suite's).
        max_turns: Tool-loop turns before the final prompt.
    """
    return _task(
        "toolbench-x",
        max_turns,
        1,
        arm=arm,
        subset=subset,
        limit=limit,
        dataset=dataset,
        hazard=hazard,
        protocol=protocol,
    )


@task
def toolfailbench(
    subset: int | None = None,
    limit: int | None = None,
    dataset: str | None = None,
    rounds: int = 1,
) -> Task:
    """ToolFailBench's traps and controls, two-step protocol.

    Args:
        subset: N tasks spread over domains and target modes.
        limit: Only the first N tasks.
        dataset: A task file (or release directory) instead of the shipped set.
        rounds: Tool rounds before the answer (the paper: 1).
    """
    return _task(
        "toolfailbench", 10, rounds, arm="clean", subset=subset, limit=limit, dataset=dataset
    )


@task
def suite(
    name: str,
    arm: str = "hazard",
    subset: int | None = None,
    limit: int | None = None,
    dataset: str | None = None,
    protocol: str = "",
    max_turns: int = 10,
    rounds: int = 1,
    **options: Any,
) -> Task:
    """Any registered suite, an installed package's too: ``-T name=hello -T budget=3``.

    Every ``-T`` this task does not name itself is one of the suite's own options (as
    ``toolchaos run SUITE -T key=value`` takes them), checked by its options model.

    Args:
        name: The suite, as ``toolchaos run`` names it.
        arm: The arm or comma-separated arms (a one-arm suite plays its own).
        subset: N tasks spread over the suite's strata.
        limit: Only the first N tasks.
        dataset: A task file instead of the shipped set.
        protocol: One of the suite's protocols (default: its own).
        max_turns: Tool-loop turns before the final prompt.
        rounds: Tool rounds before the answer (a two-step protocol).
        options: The suite's own options.
    """
    options.pop("model", None)  # Inspect offers every task its model; a suite takes none
    return _task(
        name,
        max_turns,
        rounds,
        arm=arm,
        subset=subset,
        limit=limit,
        dataset=dataset,
        protocol=protocol,
        options=options,
    )
