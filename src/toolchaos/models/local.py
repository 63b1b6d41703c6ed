"""The embedded local model: llama.cpp loaded in process through llama-cpp-python.

No server and no network: the GGUF is a file on disk (``toolchaos models pull`` or
``--gguf PATH``). Tools go through prompt mode by default, since small local models call
tools more reliably from text than through a chat template's tool syntax.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import Any

import llama_cpp

from toolchaos.core.errors import BadInput
from toolchaos.core.jsonutil import digest
from toolchaos.models.base import ModelRequest, ModelResponse, SharedClientFactory, cached
from toolchaos.models.config import ModelEntry
from toolchaos.models.openai_compat import completion_response, to_openai_messages
from toolchaos.models.prompt_mode import prompt_messages
from toolchaos.models.pull import KNOWN, model_path
from toolchaos.models.transport import ResponseCache


class LocalClient:
    """One loaded model, shared by every episode; calls run one at a time in a thread.

    Args:
        entry: The model entry.
        path: The GGUF file.
        cache: Where responses are cached, if anywhere.
        n_ctx: Context window in tokens.
    """

    def __init__(
        self, entry: ModelEntry, path: Path, cache: ResponseCache | None, n_ctx: int = 8192
    ) -> None:
        self.entry = entry
        self.path = path
        self.cache = cache
        self.n_ctx = n_ctx
        self.prompt_mode = entry.prompt_mode is not False
        self._llama: Any = None
        self._lock = threading.Lock()

    def _model(self) -> Any:
        if self._llama is None:
            self._llama = llama_cpp.Llama(
                model_path=str(self.path),
                n_ctx=self.n_ctx,
                n_threads=max(1, os.cpu_count() or 1),
                seed=42,
                verbose=False,
            )
        return self._llama

    def body(self, request: ModelRequest) -> dict[str, Any]:
        """The chat request given to llama.cpp."""
        if self.prompt_mode:
            messages = prompt_messages(request.messages, request.tools, request.tool_choice)
        else:
            messages = request.messages
        body: dict[str, Any] = {
            "messages": to_openai_messages(messages),
            "temperature": self.entry.temperature
            if self.entry.temperature is not None
            else request.temperature,
            "max_tokens": self.entry.max_tokens or request.max_tokens,
            "seed": request.seed if request.seed is not None else 42,
        }
        if not self.prompt_mode and request.tools and request.tool_choice != "none":
            body["tools"] = [t.to_openai() for t in request.tools]
        return body

    def _generate(self, body: dict[str, Any]) -> tuple[dict[str, Any], float]:
        with self._lock:
            start = time.perf_counter()
            result: dict[str, Any] = self._model().create_chat_completion(**body)
            return result, time.perf_counter() - start

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
