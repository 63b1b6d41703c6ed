"""Embedded model speed: ours beside llama.cpp's own benchmark, same file, same run.

For each thread count it measures, interleaved so both see the same machine load:

- llama.cpp's own benchmark procedure (what ``llama-bench`` does in ``test_prompt`` and
  ``test_gen``): decode ``--pp`` random tokens in one batch, then ``--tg`` single-token
  decodes, straight on the llama.cpp C API (the same shared libraries our client loads);
- ours: ``LocalClient.complete`` on a prompt-mode request (chat template, sampling,
  detokenizing, parsing), generation tokens/s measured outside llama.cpp's prompt time;
- optionally (``--xllamacpp``) the prebuilt xllamacpp wheel's embedded server on the
  same request.

Prints tokens/s and the ratio ours / llama.cpp, and the load average. Needs the [local]
extra and a pulled model. Usage:
    python bench/local_model.py [--threads 1,2] [--repeat 3] [--xllamacpp]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
from typing import Any

import llama_cpp

from toolchaos.core.types import Message, ToolSpec
from toolchaos.models.base import ModelRequest
from toolchaos.models.config import ModelEntry
from toolchaos.models.local import LocalClient
from toolchaos.models.prompt_mode import prompt_messages
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


class BenchModel:
    """The GGUF loaded once through the C API, as llama-bench loads it."""

    def __init__(self, path: str) -> None:
        llama_cpp.llama_backend_init()
        params = llama_cpp.llama_model_default_params()
        self.model = llama_cpp.llama_model_load_from_file(path.encode(), params)
        self.n_vocab = llama_cpp.llama_vocab_n_tokens(llama_cpp.llama_model_get_vocab(self.model))
        self.rng = random.Random(0)

    def run(self, threads: int, n_prompt: int, n_gen: int) -> tuple[float, float]:
        """Prompt and generation tokens/s of llama-bench's procedure on a fresh context."""
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

    @staticmethod
    def _decode(ctx: Any, tokens: Any, n: int) -> None:
        if llama_cpp.llama_decode(ctx, llama_cpp.llama_batch_get_one(tokens, n)) != 0:
            raise RuntimeError("llama_decode failed")
        llama_cpp.llama_synchronize(ctx)


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


def xllamacpp_run(server: Any, n_gen: int) -> tuple[float, float]:
    """xllamacpp's embedded server on the same request (its own timings)."""
    messages = prompt_messages(MESSAGES, TOOLS, "auto")
    body = {
        "messages": [{"role": m.role, "content": m.content} for m in messages],
        "max_tokens": n_gen,
        "temperature": 0.0,
        "cache_prompt": False,
    }
    start = time.perf_counter()
    result = server.handle_chat_completions(body)
    wall = time.perf_counter() - start
    timings = result.get("timings", {})
    prompt_s = timings.get("prompt_ms", 0.0) / 1000
    n_out = result["usage"]["completion_tokens"]
    return timings.get("prompt_per_second", 0.0), n_out / max(wall - prompt_s, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", nargs="?", default="qwen2.5-coder-0.5b")
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pp", type=int, default=256, help="prompt tokens (llama.cpp)")
    parser.add_argument("--tg", type=int, default=64, help="generated tokens")
    parser.add_argument("--xllamacpp", action="store_true", help="also time the xllamacpp wheel")
    args = parser.parse_args()
    path = model_path(args.name)
    bench = BenchModel(str(path))
    print(f"model: {path.name}; llama.cpp: {llama_cpp.llama_print_system_info().decode().strip()}")
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    header = "threads | engine | prompt tok/s | gen tok/s | gen ratio vs llama.cpp"
    print(header)
    for threads in (int(t) for t in args.threads.split(",")):
        client = LocalClient(ModelEntry(spec=f"local/{args.name}"), path, None, threads=threads)
        server = None
        if args.xllamacpp:
            import xllamacpp  # type: ignore[import-not-found]

            params = xllamacpp.CommonParams()
            params.model.path = str(path)
            params.n_ctx = 4096
            params.cpuparams.n_threads = params.cpuparams_batch.n_threads = threads
            params.n_parallel = 1
            server = xllamacpp.Server(params)
        rows: dict[str, list[tuple[float, float]]] = {"llama.cpp": [], "ours": [], "xllamacpp": []}
        for _ in range(args.repeat):
            rows["llama.cpp"].append(bench.run(threads, args.pp, args.tg))
            rows["ours"].append(ours(client, args.tg))
            if server is not None:
                rows["xllamacpp"].append(xllamacpp_run(server, args.tg))
        base = statistics.median(tg for _, tg in rows["llama.cpp"])
        for engine, runs in rows.items():
            if not runs:
                continue
            pp = statistics.median(p for p, _ in runs)
            tg = statistics.median(t for _, t in runs)
            print(f"{threads} | {engine} | {pp:.0f} | {tg:.1f} | {tg / base:.0%}")
        client.close()
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
