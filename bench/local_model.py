"""Embedded model speed: ours beside llama.cpp's own benchmark, same file, same run.

For each thread count it measures, interleaved so all see the same machine load:

- llama.cpp's own benchmark: the ``llama-bench`` binary (``--llama-bench PATH``; build it
  from llama.cpp's sources, see bench/README.md) on the same GGUF, ``-p PP -n TG``; without
  it, llama-bench's procedure (``test_prompt``/``test_gen``: one batch of random prompt
  tokens, then single-token decodes) repeated on llama-cpp-python's C API;
- ours: ``LocalClient.complete`` on a prompt-mode request (chat template, sampling,
  detokenizing, parsing) on each engine asked for (``--engines``), generation tokens/s
  measured outside the engine's prompt time.

Prints tokens/s, the ratio ours / llama.cpp and the load average. Needs the [local]
extra (and [llama-cpp] for that engine or the procedure) and a pulled model. Usage:
    python bench/local_model.py [--threads 1,2] [--repeat 3] [--llama-bench PATH]
        [--engines xllamacpp,llama-cpp-python]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from toolchaos.core.types import Message, ToolSpec
from toolchaos.models.base import ModelRequest
from toolchaos.models.config import ModelEntry
from toolchaos.models.local import LocalClient
from toolchaos.models.pull import model_path

TOOLS = [
    ToolSpec(
        name="get_forecast",
        description="Weather forecast for a city on a date.",
        parameters={
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name."},
                "date": {"type": "string", "description": "Date as YYYY-MM-DD."},
            },
            "required": ["city", "date"],
        },
    )
]
MESSAGES = [
    Message(role="system", content="You are a careful assistant that uses tools."),
    Message(
        role="user",
        content="Write a long, detailed travel diary of a week in Lisbon, day by day, "
        "without calling any tool.",
    ),
]


class LlamaBench:
    """The real ``llama-bench`` binary on the GGUF, one repetition per call."""

    def __init__(self, binary: str, path: str) -> None:
        self.binary = binary
        self.path = path

    def run(self, threads: int, n_prompt: int, n_gen: int) -> tuple[float, float]:
        """Prompt and generation tokens/s as llama-bench reports them (``avg_ts``)."""
        command = [self.binary, "-m", self.path, "-t", str(threads), "-p", str(n_prompt)]
        out = subprocess.run(
            [*command, "-n", str(n_gen), "-r", "1", "-o", "json"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        rows = json.loads(out)
        pp = next(r["avg_ts"] for r in rows if r["n_prompt"] > 0)
        tg = next(r["avg_ts"] for r in rows if r["n_gen"] > 0)
        return float(pp), float(tg)


class BenchModel:
    """The GGUF loaded once through llama-cpp-python's C API, as llama-bench loads it."""

    def __init__(self, path: str) -> None:
        import llama_cpp  # only the procedure needs llama-cpp-python

        self.lib = llama_cpp
        llama_cpp.llama_backend_init()
        params = llama_cpp.llama_model_default_params()
        self.model = llama_cpp.llama_model_load_from_file(path.encode(), params)
        self.n_vocab = llama_cpp.llama_vocab_n_tokens(llama_cpp.llama_model_get_vocab(self.model))
        self.rng = random.Random(0)

    def run(self, threads: int, n_prompt: int, n_gen: int) -> tuple[float, float]:
        """Prompt and generation tokens/s of llama-bench's procedure on a fresh context."""
        llama_cpp = self.lib
        params = llama_cpp.llama_context_default_params()
        params.n_ctx = n_prompt + n_gen + 16
        params.n_batch = params.n_ubatch = max(n_prompt, 1)
        params.n_threads = params.n_threads_batch = threads
        ctx = llama_cpp.llama_init_from_model(self.model, params)
        try:
            tokens = (llama_cpp.llama_token * n_prompt)(
                *(self.rng.randrange(self.n_vocab) for _ in range(n_prompt))
            )
            self._decode(ctx, tokens, 8)  # warm-up, as llama-bench does
            llama_cpp.llama_memory_clear(llama_cpp.llama_get_memory(ctx), True)
            start = time.perf_counter()
            self._decode(ctx, tokens, n_prompt)
            pp = n_prompt / (time.perf_counter() - start)
            llama_cpp.llama_memory_clear(llama_cpp.llama_get_memory(ctx), True)
            one = (llama_cpp.llama_token * 1)()
            start = time.perf_counter()
            for _ in range(n_gen):
                one[0] = self.rng.randrange(self.n_vocab)
                self._decode(ctx, one, 1)
            tg = n_gen / (time.perf_counter() - start)
        finally:
            llama_cpp.llama_free(ctx)
        return pp, tg

    def _decode(self, ctx: Any, tokens: Any, n: int) -> None:
        if self.lib.llama_decode(ctx, self.lib.llama_batch_get_one(tokens, n)) != 0:
            raise RuntimeError("llama_decode failed")
        self.lib.llama_synchronize(ctx)


def ours(client: LocalClient, n_gen: int) -> tuple[float, float]:
    """Our client's prompt and generation tokens/s on one prompt-mode request."""
    client.reset_cache()
    request = ModelRequest(messages=MESSAGES, tools=TOOLS, max_tokens=n_gen, temperature=0.0)
    start = time.perf_counter()
    response = asyncio.run(client.complete(request))
    wall = time.perf_counter() - start
    stats = client.last_stats
    gen_s = max(wall - stats.prompt_eval_s, 1e-9)
    return stats.evaluated / max(stats.prompt_eval_s, 1e-9), response.usage.output_tokens / gen_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", nargs="?", default="qwen2.5-coder-0.5b")
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pp", type=int, default=256, help="prompt tokens (llama.cpp)")
    parser.add_argument("--tg", type=int, default=64, help="generated tokens")
    parser.add_argument("--llama-bench", help="the llama-bench binary (else its procedure)")
    parser.add_argument("--engines", default="xllamacpp", help="comma-separated local engines")
    args = parser.parse_args()
    path = model_path(args.name)
    reference: LlamaBench | BenchModel
    if args.llama_bench:
        reference = LlamaBench(str(Path(args.llama_bench).resolve()), str(path))
        label = "llama-bench"
    else:
        reference = BenchModel(str(path))
        label = "llama-bench procedure"
    engines = args.engines.split(",")
    print(f"model: {path.name}; reference: {label}; engines: {', '.join(engines)}")
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("threads | engine | prompt tok/s | gen tok/s | gen ratio vs llama.cpp")
    for threads in (int(t) for t in args.threads.split(",")):
        clients = {
            e: LocalClient(
                ModelEntry(spec=f"local/{args.name}"), path, None, threads=threads, engine=e
            )
            for e in engines
        }
        rows: dict[str, list[tuple[float, float]]] = {label: [], **{e: [] for e in engines}}
        for _ in range(args.repeat):
            rows[label].append(reference.run(threads, args.pp, args.tg))
            for engine, client in clients.items():
                rows[engine].append(ours(client, args.tg))
        base = statistics.median(tg for _, tg in rows[label])
        for engine, runs in rows.items():
            pp = statistics.median(p for p, _ in runs)
            tg = statistics.median(t for _, t in runs)
            print(f"{threads} | {engine} | {pp:.0f} | {tg:.1f} | {tg / base:.0%}")
        for client in clients.values():
            client.close()
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
