"""The embedded local model: llama.cpp loaded in process through llama-cpp-python.

No server and no network: the GGUF is a file on disk (``toolchaos models pull`` or
``--gguf PATH``). Tools go through prompt mode by default, since small local models call
tools more reliably from text than through a chat template's tool syntax.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import llama_cpp

from toolchaos.core.errors import BadInput
from toolchaos.core.jsonutil import digest
from toolchaos.models.base import ModelRequest, ModelResponse, SharedClientFactory, cached
from toolchaos.models.config import ModelEntry
from toolchaos.models.kv_cache import PromptStats, default_threads, shared_prefix
from toolchaos.models.openai_compat import completion_response, to_openai_messages
from toolchaos.models.prompt_mode import prompt_messages
from toolchaos.models.pull import KNOWN, model_path
from toolchaos.models.transport import ResponseCache

# A reply's budget unless the models file sets max_tokens: a tool call or a final answer
# fits in far less, and a small model that rambles costs seconds per token on a busy CPU.
LOCAL_MAX_TOKENS = 256


class LocalClient:
    """One loaded model, shared by every episode; calls run one at a time in a thread.

    Args:
        entry: The model entry.
        path: The GGUF file.
        cache: Where responses are cached, if anywhere.
        n_ctx: Context window in tokens.
        threads: llama.cpp threads (default: ``default_threads()``).
    """

    def __init__(
        self,
        entry: ModelEntry,
        path: Path,
        cache: ResponseCache | None,
        n_ctx: int = 8192,
        threads: int | None = None,
    ) -> None:
        self.entry = entry
        self.path = path
        self.cache = cache
        self.n_ctx = n_ctx
        self.threads = threads or default_threads()
        self.prompt_mode = entry.prompt_mode is not False
        self.last_stats = PromptStats()
        self._llama: Any = None
        self._lock = threading.Lock()

    def _model(self) -> Any:
        if self._llama is None:
            self._llama = llama_cpp.Llama(
                model_path=str(self.path),
                n_ctx=self.n_ctx,
                n_threads=self.threads,
                n_threads_batch=self.threads,
                seed=42,
                verbose=False,
            )
        return self._llama

    def reset_cache(self) -> None:
        """Forget the KV cache (the next request evaluates its whole prompt)."""
        if self._llama is not None:
            self._llama.reset()

    def close(self) -> None:
        """Free the model."""
        if self._llama is not None:
            self._llama.close()
            self._llama = None

    def body(self, request: ModelRequest) -> dict[str, Any]:
        """The chat request given to llama.cpp."""
        if self.prompt_mode:
            # compact tool lines: the prompt is most of a small local model's episode time
            messages = prompt_messages(
                request.messages, request.tools, request.tool_choice, compact=True, keep_tools=True
            )
        else:
            messages = request.messages
        body: dict[str, Any] = {
            "messages": to_openai_messages(messages),
            "temperature": self.entry.temperature
            if self.entry.temperature is not None
            else request.temperature,
            "max_tokens": self.entry.max_tokens or min(request.max_tokens, LOCAL_MAX_TOKENS),
            "seed": request.seed if request.seed is not None else 42,
        }
        if not self.prompt_mode and request.tools and request.tool_choice != "none":
            body["tools"] = [t.to_openai() for t in request.tools]
        return body

    def _generate(self, body: dict[str, Any]) -> tuple[dict[str, Any], float]:
        with self._lock:
            llama = self._model()
            previous = [int(t) for t in llama._input_ids]
            before = llama_cpp.llama_perf_context(llama._ctx.ctx).t_p_eval_ms
            start = time.perf_counter()
            result: dict[str, Any] = llama.create_chat_completion(**body)
            latency = time.perf_counter() - start
            n_prompt = int(result.get("usage", {}).get("prompt_tokens", 0))
            prompt = [int(t) for t in llama._input_ids[:n_prompt]]
            after = llama_cpp.llama_perf_context(llama._ctx.ctx).t_p_eval_ms
            self.last_stats = PromptStats(
                prompt_tokens=n_prompt,
                reused=shared_prefix(previous, prompt),
                prompt_eval_s=(after - before if after >= before else after) / 1000,
            )
            # the field OpenAI-compatible servers use for the same count
            usage = result.setdefault("usage", {})
            usage["prompt_tokens_details"] = {"cached_tokens": self.last_stats.reused}
            return result, latency

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Generate the next assistant message (or replay it from the cache)."""
        body = self.body(request)
        key = digest({"spec": self.entry.spec, "gguf": self.path.name, "body": body})

        async def generate() -> ModelResponse:
            result, latency = await asyncio.to_thread(self._generate, body)
            return completion_response(
                result, latency, prompt_mode=self.prompt_mode, default_id="local"
            )

        return await cached(self.cache, key, generate)


class LocalFactory(SharedClientFactory):
    """Loads the GGUF once and shares it across episodes."""

    def __init__(self, name: str, entry: ModelEntry, cache: ResponseCache | None = None) -> None:
        self.spec = entry.spec
        if entry.gguf:
            path = Path(entry.gguf)
        elif name in KNOWN:
            path = model_path(name)
        else:
            raise BadInput(
                f"unknown local model {name!r}; known: {', '.join(sorted(KNOWN))}, or pass --gguf"
            )
        if not path.is_file():
            hint = f"run `toolchaos models pull {name}`" if name in KNOWN else "check --gguf"
            raise BadInput(f"model file {path} does not exist; {hint}")
        self.client = LocalClient(entry, path, cache)
        # one episode at a time keeps llama.cpp's prompt cache warm between requests
        self.episode_concurrency = 1


def make_factory(name: str, entry: ModelEntry, cache: ResponseCache | None = None) -> LocalFactory:
    """Provider entry point for ``local/<name>``."""
    return LocalFactory(name, entry, cache)
