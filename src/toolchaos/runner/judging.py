"""Asking LLM judges about stored episodes, as a run plays them: at once, with a bar.

ToolFailBench's judges (:mod:`toolchaos.suites.toolfailbench.judges`) and ToolBench-X's
scoring audit (:mod:`toolchaos.suites.toolbench_x.audit`) both hand :func:`judge_all` the
episodes to ask about and one coroutine per episode (which stores its verdicts). The
progress bar is the run's (:func:`toolchaos.runner.executor.progress_bar`), and a judge
that cannot be used at all (a dead endpoint, a rejected key: :class:`BadInput`) stops
every request and comes out as that one error, not wrapped in the task group's
exception group.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from rich.console import Console

from toolchaos.core.errors import BadInput
from toolchaos.runner.executor import fit_label, progress_bar, rate_text

T = TypeVar("T")


def judge_all(
    items: Sequence[T],
    ask: Callable[[T], Awaitable[None]],
    label: tuple[str, str],
    console: Console | None,
) -> None:
    """Run ``ask`` on every item concurrently (``ask`` bounds its own requests).

    Args:
        items: What is judged, one bar step each.
        ask: Asks the judges about one item and stores their verdicts.
        label: The bar's label, (what is judged, by whom), e.g. ``("judge", spec)``.
        console: Where the bar is drawn (None or a quiet console: no bar).

    Raises:
        BadInput: a judge cannot be used at all; the verdicts stored so far stay.
    """
    shown = console is not None and not console.quiet and bool(items)
    where = console if console is not None else Console(quiet=True)

    async def main() -> None:
        with progress_bar(where, disable=not shown) as progress:
            bar = progress.add_task(
                fit_label(*label, len(items), where.width), total=len(items), rate="0"
            )
            start = time.perf_counter()
            done = [0]

            async def one(item: T) -> None:
                await ask(item)
                done[0] += 1
                rate = rate_text(done[0], time.perf_counter() - start)
                progress.update(bar, advance=1, rate=rate)

            try:
                async with asyncio.TaskGroup() as group:
                    for item in items:
                        group.create_task(one(item))
            except* BadInput as failures:
                raise failures.exceptions[0] from None

    asyncio.run(main())
