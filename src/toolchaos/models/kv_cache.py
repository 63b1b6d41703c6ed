"""What llama.cpp's KV cache saves between requests, and how many threads it gets.

Pure functions, importable without llama.cpp, so the accounting is tested offline.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from toolchaos.core.errors import BadInput

THREADS_ENV = "TOOLCHAOS_LOCAL_THREADS"


def default_threads(environ: dict[str, str] | None = None, cores: int | None = None) -> int:
    """Threads for llama.cpp: $TOOLCHAOS_LOCAL_THREADS, else one per core we may run on.

    On a machine shared with other busy processes fewer threads are faster: llama.cpp's
    threads meet at a barrier after every operation, so one descheduled thread stalls all
    the others (bench/README.md measured 2 threads 6-8x slower than 1 under a load of 9
    on 2 cores). Set the variable to 1 there.

    Raises:
        BadInput: the variable is not a positive integer.
    """
    env = os.environ if environ is None else environ
    raw = env.get(THREADS_ENV, "").strip()
    if raw:
        if not raw.isdigit() or int(raw) < 1:
            raise BadInput(f"{THREADS_ENV} must be a positive integer, got {raw!r}")
        return int(raw)
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0
    return max(1, cores or os.cpu_count() or 1)


def shared_prefix(previous: list[int], prompt: list[int]) -> int:
    """How many leading tokens of ``prompt`` are already in the KV cache from ``previous``.

    llama.cpp keeps the tokens of the last request in its cache and only evaluates a new
    prompt past their longest common prefix; it always re-evaluates at least the prompt's
    last token, so at most ``len(prompt) - 1`` tokens count as reused.
    """
    n = 0
    for a, b in zip(previous, prompt, strict=False):
        if a != b:
            break
        n += 1
    return min(n, max(len(prompt) - 1, 0))


@dataclass(frozen=True)
class PromptStats:
    """What one request cost llama.cpp before its first generated token."""

    prompt_tokens: int = 0
    reused: int = 0
    prompt_eval_s: float = 0.0

    @property
    def evaluated(self) -> int:
        """Prompt tokens llama.cpp had to evaluate (not found in its KV cache)."""
        return self.prompt_tokens - self.reused
