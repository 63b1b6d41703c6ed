"""The embedded local model: llama.cpp in this process, no server and no network.

Two engines load the GGUF (a file on disk: ``toolchaos models pull`` or ``--gguf PATH``):

- ``xllamacpp`` (the default, extra ``[local]``): a prebuilt llama.cpp wheel whose
  embedded server answers chat-completions bodies in process; installs in seconds.
- ``llama-cpp-python`` (extra ``[llama-cpp]``): compiles llama.cpp at install time.

Both get the same request body and return the same chat-completions response, so the
rest of the client does not know which one ran. Tools go through prompt mode by default,
since small local models call tools more reliably from text than through a chat
template's tool syntax. bench/README.md compares the engines' speed side by side.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import threading
import time
from pathlib import Path
from typing import Any, Protocol

from toolchaos.core.errors import BadInput, HarnessFault
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

ENGINE_ENV = "TOOLCHAOS_LOCAL_ENGINE"
DEFAULT_ENGINE = "xllamacpp"


def engine_name(entry: ModelEntry, environ: dict[str, str] | None = None) -> str:
    """The engine a local model runs on: the entry's, else $TOOLCHAOS_LOCAL_ENGINE, else xllamacpp.

    Raises:
        BadInput: the name is not an engine.
    """
    env = os.environ if environ is None else environ
    name = entry.engine or env.get(ENGINE_ENV, "").strip() or DEFAULT_ENGINE
    if name not in ENGINES:
        raise BadInput(f"unknown local engine {name!r}; known: {', '.join(ENGINES)}")
    return name


SPIN_COUNT = "10000"
"""How long xllamacpp's OpenMP threads spin before they sleep (``GOMP_SPINCOUNT``)."""


def import_engine(engine: str) -> Any:
    """Import an engine's module.

    xllamacpp is built with GNU OpenMP, whose threads spin for a long while (300,000
    rounds) as they wait for each other. On a machine where other processes want the
    cores, a spinning thread holds a core that the thread it waits for needs: with two
    threads and two other busy processes on two cores, generation fell to 2.8 tokens/s.
    Sleeping at once (``OMP_WAIT_POLICY=passive``) got 11.8 there but cost a third on a
    quiet machine (17.3 against 24.5); spinning 10,000 rounds first keeps both (24.0
    quiet, 9.9 loaded; bench/README.md). So unless the user set either variable,
    ``GOMP_SPINCOUNT`` is set before the OpenMP runtime starts (it reads it once, on
    loading).
    """
    if engine == "xllamacpp" and "OMP_WAIT_POLICY" not in os.environ:
        os.environ.setdefault("GOMP_SPINCOUNT", SPIN_COUNT)
    return importlib.import_module(ENGINES[engine].module)


class Engine(Protocol):
    """llama.cpp loaded one way or another: one chat completion at a time."""

    name: str
    """What ``--local-engine`` calls it."""
    module: str
    """The module it imports."""
    extra: str
    """The toolchaos extra that installs it."""

    def __init__(self, path: Path, n_ctx: int, threads: int) -> None:
        """Load the GGUF at ``path``."""

    def generate(self, body: dict[str, Any]) -> tuple[dict[str, Any], PromptStats]:
        """The chat-completions response to ``body`` and what its prompt cost."""
        ...

    def reset(self) -> None:
        """Forget the KV cache (the next request evaluates its whole prompt)."""
        ...

    def close(self) -> None:
        """Free the model."""
        ...


class LlamaCppPython:
    """llama-cpp-python's ``Llama``: keeps the last request's tokens in its KV cache."""

    name = "llama-cpp-python"
    module = "llama_cpp"
    extra = "llama-cpp"

    def __init__(self, path: Path, n_ctx: int, threads: int) -> None:
        llama_cpp = import_engine(self.name)
        self._lib = llama_cpp
        self._llama: Any = llama_cpp.Llama(
            model_path=str(path),
            n_ctx=n_ctx,
            n_threads=threads,
            n_threads_batch=threads,
            seed=42,
            verbose=False,
        )

    def generate(self, body: dict[str, Any]) -> tuple[dict[str, Any], PromptStats]:
        """See :class:`Engine`; the reuse is the longest prefix shared with the last request."""
        llama = self._llama
        previous = [int(t) for t in llama._input_ids]
        before = self._lib.llama_perf_context(llama._ctx.ctx).t_p_eval_ms
        result: dict[str, Any] = llama.create_chat_completion(**body)
        n_prompt = int(result.get("usage", {}).get("prompt_tokens", 0))
        prompt = [int(t) for t in llama._input_ids[:n_prompt]]
        after = self._lib.llama_perf_context(llama._ctx.ctx).t_p_eval_ms
        stats = PromptStats(
            prompt_tokens=n_prompt,
            reused=shared_prefix(previous, prompt),
            prompt_eval_s=(after - before if after >= before else after) / 1000,
        )
        # the field OpenAI-compatible servers use for the same count
        result.setdefault("usage", {})["prompt_tokens_details"] = {"cached_tokens": stats.reused}
        return result, stats

    def reset(self) -> None:
        """See :class:`Engine`."""
        self._llama.reset()

    def close(self) -> None:
        """See :class:`Engine`."""
        self._llama.close()


class XLlamaCpp:
    """xllamacpp's embedded server, one slot: llama.cpp's own server code, without HTTP.

    The server reuses the slot's cached prefix (``cache_prompt``) and reports it in
    ``timings.cache_n``; see :func:`import_engine` for how its threads wait.
    """

    name = "xllamacpp"
    module = "xllamacpp"
    extra = "local"

    def __init__(self, path: Path, n_ctx: int, threads: int) -> None:
        xllamacpp = import_engine(self.name)
        params = xllamacpp.CommonParams()
        params.model.path = str(path)
        params.n_ctx = n_ctx
        params.n_parallel = 1
        params.warmup = False
        params.verbosity = 0  # llama.cpp's server logs every request otherwise
        params.cpuparams.n_threads = params.cpuparams_batch.n_threads = threads
        params.sampling.seed = 42
        self._server: Any = xllamacpp.Server(params)
        self._fresh = False

    def generate(self, body: dict[str, Any]) -> tuple[dict[str, Any], PromptStats]:
        """See :class:`Engine`; the reuse is the server's own count (``timings.cache_n``)."""
        request = {**body, "cache_prompt": not self._fresh}
        self._fresh = False
        result: dict[str, Any] = self._server.handle_chat_completions(request)
        return xllamacpp_result(result)

    def reset(self) -> None:
        """See :class:`Engine`: the next request asks the slot not to reuse its cache."""
        self._fresh = True

    def close(self) -> None:
        """See :class:`Engine`."""
        self._server = None


def xllamacpp_result(result: dict[str, Any]) -> tuple[dict[str, Any], PromptStats]:
    """An xllamacpp response made deterministic, and its prompt cost from its timings.

    Raises:
        HarnessFault: the server answered with an error (a prompt longer than the context).
    """
    if "error" in result or not result.get("choices"):
        error = result.get("error")
        message = error.get("message") if isinstance(error, dict) else error
        raise HarnessFault(f"the embedded model refused the request: {message or result!r}")
    timings = result.get("timings") or {}
    usage = result.get("usage") or {}
    prompt_tokens = int(usage.get("prompt_tokens") or 0)
    stats = PromptStats(
        prompt_tokens=prompt_tokens,
        reused=min(int(timings.get("cache_n") or 0), max(prompt_tokens - 1, 0)),
        prompt_eval_s=float(timings.get("prompt_ms") or 0.0) / 1000,
    )
    # the server's random completion id and its clock would make stored traces differ
    # from run to run; the reuse goes where OpenAI-compatible servers put it
    kept = {k: v for k, v in result.items() if k not in ("id", "created", "timings")}
    kept["usage"] = {**usage, "prompt_tokens_details": {"cached_tokens": stats.reused}}
    return kept, stats


ENGINES: dict[str, type[Engine]] = {e.name: e for e in (XLlamaCpp, LlamaCppPython)}
"""Every engine by name, the default first."""


class LocalClient:
    """One loaded model, shared by every episode; calls run one at a time in a thread.

    Args:
        entry: The model entry.
        path: The GGUF file.
        cache: Where responses are cached, if anywhere.
        n_ctx: Context window in tokens.
        threads: llama.cpp threads (default: ``default_threads()``).
        engine: ``xllamacpp`` or ``llama-cpp-python`` (default: ``engine_name(entry)``).
    """

    def __init__(
        self,
        entry: ModelEntry,
        path: Path,
        cache: ResponseCache | None,
        n_ctx: int = 8192,
        threads: int | None = None,
        engine: str | None = None,
    ) -> None:
        self.entry = entry
        self.path = path
        self.cache = cache
        self.n_ctx = n_ctx
        self.threads = threads or default_threads()
        self.engine_name = engine or engine_name(entry)
        self.prompt_mode = entry.prompt_mode is not False
        self.last_stats = PromptStats()
        self._engine: Engine | None = None
        self._lock = threading.Lock()

    def _loaded(self) -> Engine:
        if self._engine is None:
            self._engine = ENGINES[self.engine_name](self.path, self.n_ctx, self.threads)
        return self._engine

    def reset_cache(self) -> None:
        """Forget the KV cache (the next request evaluates its whole prompt)."""
        if self._engine is not None:
            self._engine.reset()

    def close(self) -> None:
        """Free the model."""
        if self._engine is not None:
            self._engine.close()
            self._engine = None

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
            engine = self._loaded()
            start = time.perf_counter()
            result, self.last_stats = engine.generate(body)
            return result, time.perf_counter() - start

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Generate the next assistant message (or replay it from the cache)."""
        body = self.body(request)
        key = digest(
            {
                "spec": self.entry.spec,
                "gguf": self.path.name,
                "engine": self.engine_name,
                "body": body,
            }
        )

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
        with path.open("rb") as handle:
            if handle.read(4) != b"GGUF":
                raise BadInput(
                    f"model file {path} is not a GGUF file (it does not start with GGUF)"
                )
        engine = engine_name(entry)
        try:
            import_engine(engine)
        except ImportError:
            other = next(e for e in ENGINES if e != engine)
            raise BadInput(
                f"{entry.spec} runs on {engine}, which is not installed: pip install "
                f"'toolchaos[{ENGINES[engine].extra}]', or choose --local-engine {other}"
            ) from None
        self.client = LocalClient(entry, path, cache, engine=engine)
        # one episode at a time keeps llama.cpp's prompt cache warm between requests
        self.episode_concurrency = 1


def make_factory(name: str, entry: ModelEntry, cache: ResponseCache | None = None) -> LocalFactory:
    """Provider entry point for ``local/<name>``."""
    return LocalFactory(name, entry, cache)
