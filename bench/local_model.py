"""Embedded model speed: prompt and generation tokens per second on this machine.

Needs the [local] extra and a pulled model. Usage: python bench/local_model.py [name]
"""

from __future__ import annotations

import sys
import time

import llama_cpp

from toolchaos.models.pull import model_path


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "qwen2.5-coder-0.5b"
    start = time.perf_counter()
    llama = llama_cpp.Llama(model_path=str(model_path(name)), n_ctx=4096, verbose=False)
    print(f"load: {time.perf_counter() - start:.1f} s")
    prompt = "Summarize the rules of chess. " * 60
    start = time.perf_counter()
    out = llama.create_completion(prompt, max_tokens=1, temperature=0.0)
    prefill = time.perf_counter() - start
    n_prompt = out["usage"]["prompt_tokens"]
    llama.reset()
    start = time.perf_counter()
    out = llama.create_completion(
        "Write a long story about a lighthouse.", max_tokens=256, temperature=0.0
    )
    gen = time.perf_counter() - start
    n_gen = out["usage"]["completion_tokens"]
    print(f"prompt processing: {n_prompt / prefill:.0f} tokens/s ({n_prompt} tokens)")
    print(f"generation: {n_gen / gen:.1f} tokens/s ({n_gen} tokens)")


if __name__ == "__main__":
    main()
