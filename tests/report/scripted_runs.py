"""Small scripted runs of the shipped ToolBench-X tasks, for report tests."""

from pathlib import Path

from rich.console import Console

from toolchaos.runner.run import RunConfig, run

QUIET = Console(quiet=True)


def play(out: Path, models: list[str], arms: list[str], subset: int = 15) -> Path:
    """Play ``subset`` shipped tasks (every family and workflow type) into ``out``."""
    config = RunConfig(
        suite="toolbench-x",
        models=models,  # type: ignore[arg-type]
        arms=arms,
        subset=subset,
        concurrency=4,
    )
    run(config, out, QUIET)
    return out
