"""``toolchaos run --dry-run``: what a run would play and a bound on what it would cost.

Nothing is played or written. Per model: the episodes the plan holds, those the run
directory already stores, and those left to play. For a model behind an API (not a
scripted policy), the requests: at least one per episode, at most ``--max-turns`` x
``--rounds``. Input tokens: a request sends the task's prompt and its tools'
documentation (counted at four characters a token; the suite's system prompt is not
counted), so the low figure is one such request per episode; the high figure is every
allowed request, each resending the conversation, taken to grow by one first request's
size per turn. Output tokens are counted at the most a model may write (``max_tokens``)
for every allowed request. Prices come from the models file (``input_per_mtok``,
``output_per_mtok``; ``docs/models.md``); a model without prices shows no cost.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from toolchaos.core.jsonutil import dumps
from toolchaos.models.base import is_scripted
from toolchaos.runner.run import RunConfig, planned, prepare, with_defaults
from toolchaos.runner.store import STORE_NAME, Store
from toolchaos.suites import configured_suite

CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class ModelEstimate:
    """One model's share of a dry run."""

    model: str
    planned: int
    stored: int
    to_play: int
    requests: tuple[int, int]
    input_tokens: tuple[int, int]
    output_tokens: int
    cost_usd: tuple[float, float] | None
    """None: the models file gives this model no prices."""


def estimate(config: RunConfig, out: Path) -> list[ModelEstimate]:
    """Count and price what ``run(config, out)`` would play, without playing or writing."""
    config = with_defaults(config)
    tasks, _, _, _ = prepare(config, clients=False)
    suite = configured_suite(config.suite, config.suite_options)
    if (out / STORE_NAME).is_file():
        store = Store.open_existing(out, read_only=True)
        try:
            plan, stored = planned(config, tasks, store)
        finally:
            store.close()
    else:
        plan, stored = planned(config, tasks, None)
    first: dict[tuple[str, str], int] = {}  # (task, arm) -> tokens of the first request
    most = config.loop.max_turns * config.loop.rounds
    entries = {e.spec: e for e in config.models}
    rows = []
    for model in config.specs:
        mine = [item for item in plan if item.model == model]
        todo = [item for item in mine if item.key not in stored]
        api = not is_scripted(model)
        low = high = 0
        if api:
            for item in todo:
                key = (str(item.task.id), item.arm)
                if key not in first:
                    first[key] = _first_request_tokens(suite, item.task, item.arm)
                size = first[key]
                low += size
                # each later request: the first again plus one result of its size, growing
                high += sum(size * (1 + turn) for turn in range(most))
        requests = (len(todo), len(todo) * most) if api else (0, 0)
        entry = entries.get(model)
        most_out = (
            entry.max_tokens if entry and entry.max_tokens else None
        ) or config.loop.max_tokens
        out_tokens = requests[1] * most_out if api else 0
        cost: tuple[float, float] | None = (0.0, 0.0)
        if api:
            priced = entry is not None and (entry.input_per_mtok or entry.output_per_mtok)
            cost = (entry.cost(low, 0), entry.cost(high, out_tokens)) if priced and entry else None
        rows.append(
            ModelEstimate(
                model=model,
                planned=len(mine),
                stored=len(mine) - len(todo),
                to_play=len(todo),
                requests=requests,
                input_tokens=(low, high),
                output_tokens=out_tokens,
                cost_usd=cost,
            )
        )
    return rows


def text_tokens(text: str) -> int:
    """A text's size in tokens, at :data:`CHARS_PER_TOKEN` characters a token (at least 1)."""
    return max(1, len(text) // CHARS_PER_TOKEN)


def _first_request_tokens(suite: object, task: object, arm: str) -> int:
    """The task's prompt and the documentation of the tools it offers, in tokens."""
    env = suite.make_env(task, arm)  # type: ignore[attr-defined]
    tools = [dumps(spec.model_dump(mode="json")) for spec in env.toolbox()]
    return text_tokens(str(getattr(task, "prompt", "")) + "".join(tools))
