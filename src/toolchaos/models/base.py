"""The model-client interface and the registry of model providers.

A model client answers one request (the conversation so far plus the toolbox) with the
next assistant message. Providers register a factory under a prefix (``scripted``,
``openai``, ...); a model spec ``prefix/name`` picks one. The factory is asked for a client
per episode, so scripted baselines can be built with the task in hand while API clients
share one connection pool. Another installed package adds its providers through the
``toolchaos.providers`` entry-point group (read on the first lookup;
:mod:`toolchaos.core.registry`), or from code with :func:`register_provider`. What kind of
model a provider serves (scripted, local, the extra it needs) is a trait of its registry
entry (:class:`Provider`); code elsewhere asks :func:`is_scripted` or :func:`is_local`,
never a spec's prefix.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar, overload

from pydantic import BaseModel, Field

from toolchaos.core.errors import BadInput
from toolchaos.core.jsonutil import digest
from toolchaos.core.registry import GROUPS, Registry, import_target, registrar
from toolchaos.core.types import Message, TaskSpec, ToolSpec, Usage
from toolchaos.models.config import ModelEntry
from toolchaos.models.transport import ResponseCache, RetryPolicy, with_retries


class ModelRequest(BaseModel):
    """One request to a model: the messages, the tools and how to sample."""

    messages: list[Message]
    tools: list[ToolSpec] = Field(default_factory=list)
    tool_choice: Literal["auto", "none", "required"] | str = "auto"
    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int | None = 42
    phase: Literal["act", "decide", "fill"] = "act"


class ModelResponse(BaseModel):
    """The model's answer: one assistant message and what it cost."""

    message: Message
    usage: Usage = Field(default_factory=Usage)
    finish_reason: str = "stop"
    model: str = ""
    """The model id the provider says answered ("" where it says none: scripted, Inspect)."""


class ModelClient(Protocol):
    """Anything that can produce the next assistant message."""

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Return the next assistant message for ``request``."""
        ...


class ModelFactory(Protocol):
    """Builds the client for one episode of one model spec."""

    spec: str

    def for_episode(self, task: TaskSpec, arm: str, sample: int) -> ModelClient:
        """Return the client that will play ``task`` in ``arm``."""
        ...


async def cached(
    cache: ResponseCache | None, key: str, produce: Callable[[], Awaitable[ModelResponse]]
) -> ModelResponse:
    """The cached response under ``key``, or a fresh one from ``produce`` (then cached)."""
    if cache is not None:
        hit = cache.get(key)
        if hit is not None:
            return ModelResponse.model_validate_json(hit)
    response = await produce()
    if cache is not None:
        cache.put(key, response.model_dump_json())
    return response


async def cached_with_retries(
    cache: ResponseCache | None,
    key_data: object,
    send: Callable[[], Awaitable[ModelResponse]],
    policy: RetryPolicy,
) -> ModelResponse:
    """The cached response to a request, or ``send()`` retried as ``policy`` says.

    Args:
        cache: Where responses are cached, if anywhere.
        key_data: What identifies the request (spec and wire body); its canonical digest
            is the cache key and seeds the backoff jitter, so a request waits alike on
            every run.
        send: One attempt at the request.
        policy: How transient failures are retried.
    """
    key = digest(key_data)
    rng = random.Random(key)
    return await cached(cache, key, lambda: with_retries(send, policy, rng))


class SharedClientFactory:
    """A factory whose every episode shares one client (connection pool, limits, model)."""

    spec: str
    client: ModelClient

    def for_episode(self, task: Any, arm: str, sample: int) -> ModelClient:
        """Every episode shares the client."""
        return self.client


@dataclass(frozen=True)
class Provider:
    """One entry of :data:`PROVIDERS`: where its factory lives and what kind of model it serves.

    The traits are read by the runner, the CLI and the reports, which never look at a
    spec's prefix themselves.

    Args:
        target: ``module:function`` of the factory, imported on first use.
        scripted: A policy written in code rather than a sampled model: it takes no
            temperature, and its runs group as tier ``baseline``, family ``scripted``.
        local: Weights run on this machine: its entries take ``--local-engine``, and its
            runs group as tier ``local``, family the first ``-`` token of the name.
        extra: The optional extra (``pip install 'toolchaos[extra]'``) its module needs.
    """

    target: str
    scripted: bool = False
    local: bool = False
    extra: str | None = None


PROVIDERS: Registry[str, Provider | str] = Registry(
    "provider",
    GROUPS["provider"],
    {
        "scripted": Provider("toolchaos.suites.scripted:make_factory", scripted=True),
        "openai": Provider("toolchaos.models.openai_compat:make_factory"),
        "openai-compat": Provider("toolchaos.models.openai_compat:make_factory"),
        "anthropic": Provider("toolchaos.models.anthropic_client:make_factory", extra="anthropic"),
        "local": Provider("toolchaos.models.local:make_factory", local=True, extra="local"),
    },
)
"""Model providers by spec prefix. A plain ``module:function`` string (an entry point's, or
:func:`register_provider`'s) is a provider with no traits (a remote, sampled model needing
no extra)."""

F = TypeVar("F", bound=Callable[..., Any])


@overload
def register_provider(factory: F, /) -> F: ...
@overload
def register_provider(prefix: str | None = None, /) -> Callable[[F], F]: ...
def register_provider(arg: F | str | None = None, /) -> F | Callable[[F], F]:
    """Decorator: register ``make_factory(name, entry, cache)`` as the provider ``prefix``.

    Model specs ``prefix/<name>`` are then played by the factory it returns. An installed
    package needs no decorator: its ``toolchaos.providers`` entry point is the
    registration.
    """
    return registrar(PROVIDERS, arg)


def parse_spec(spec: str) -> tuple[str, str]:
    """Split ``provider/name`` and check the provider is known."""
    provider, sep, name = spec.partition("/")
    if not sep or not name:
        raise BadInput(f"model spec {spec!r} must look like provider/name, e.g. scripted/oracle")
    if provider not in PROVIDERS:
        known = ", ".join(sorted(PROVIDERS))
        raise BadInput(f"unknown model provider {provider!r} in {spec!r}; known: {known}")
    return provider, name


def provider(name: str) -> Provider:
    """The registry entry of provider ``name`` (a string entry read as one with no traits).

    Raises:
        BadInput: When no provider has that name.
    """
    entry = PROVIDERS.get(name)
    if entry is None:
        known = ", ".join(sorted(PROVIDERS))
        raise BadInput(f"unknown model provider {name!r}; known: {known}")
    return entry if isinstance(entry, Provider) else Provider(entry)


def provider_of(spec: str) -> Provider | None:
    """The provider a model spec names, or None when none is registered under its prefix.

    Lenient on purpose: a stored run may name a provider that is not installed here, and
    reading its report must not need it. Use :func:`parse_spec` to refuse a bad spec.
    """
    prefix, sep, _ = spec.partition("/")
    return provider(prefix) if sep and prefix in PROVIDERS else None


def is_scripted(spec: str) -> bool:
    """Whether ``spec`` names a scripted policy (:attr:`Provider.scripted`)."""
    found = provider_of(spec)
    return found is not None and found.scripted


def is_local(spec: str) -> bool:
    """Whether ``spec`` names a model run on this machine (:attr:`Provider.local`)."""
    found = provider_of(spec)
    return found is not None and found.local


def make_factory(entry: ModelEntry | str, cache: ResponseCache | None = None) -> ModelFactory:
    """Return the factory for a model entry (imports the provider lazily)."""
    if isinstance(entry, str):
        entry = ModelEntry(spec=entry)
    prefix, name = parse_spec(entry.spec)
    found = provider(prefix)
    try:
        make = import_target(found.target)
    except ImportError as exc:
        where = PROVIDERS.origin(prefix)
        if where:
            raise BadInput(f"provider {prefix!r} of {where} cannot be loaded: {exc}") from None
        extra = found.extra or prefix
        raise BadInput(
            f"{entry.spec} needs the optional extra: pip install 'toolchaos[{extra}]' ({exc.name} "
            "is not installed)"
        ) from None
    except (AttributeError, ValueError) as exc:
        raise BadInput(f"provider {prefix!r} cannot be loaded from {found.target}: {exc}") from None
    factory: ModelFactory = make(name, entry, cache)
    return factory
