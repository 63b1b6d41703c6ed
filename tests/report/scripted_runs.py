"""Small scripted runs of the shipped ToolBench-X tasks, for report tests."""

from pathlib import Path

from rich.console import Console

from toolchaos.core.types import Episode, Message
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import STORE_NAME, Store

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


HOSTILE_ANSWER = (
    "<script>window.__pwned=1</script> and "
    '<img src=x onerror="window.__pwned=2"> and \x1b[31mred\x1b[0m\x07'
)
HOSTILE_TOOL = 'tool says <img src=x onerror="window.__pwned=2"><script>window.__pwned=1</script>'
EVIL_MODEL = 'evil/<img src=x onerror="window.__pwned=3">'


def make_hostile(run: Path) -> str:
    """Store a hostile copy of one naive hazard episode under an evil model's name."""
    store = Store(run / STORE_NAME)
    try:
        original = next(
            Episode.model_validate_json(text)
            for key, text in store.episode_json(arms=["hazard"])
            if "scripted/naive" in key
        )
        episode = original.model_copy(deep=True)
        episode.model = EVIL_MODEL
        episode.key = original.key.replace("scripted/naive", EVIL_MODEL)
        episode.final_answer = HOSTILE_ANSWER
        episode.messages[-1] = Message(role="assistant", content=HOSTILE_ANSWER)
        for message in episode.messages:
            if message.role == "tool":
                message.content = HOSTILE_TOOL
        episode.trace[0].observation.content = {"note": HOSTILE_TOOL}
        store.put(episode)
        return episode.key
    finally:
        store.close()
