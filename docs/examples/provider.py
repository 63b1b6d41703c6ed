"""A worked example of a model provider: ``canned/<text>`` answers every request with <text>.

A provider is one module with a ``make_factory(name, entry, cache)`` entry point and one
line in ``toolchaos.ext.PROVIDERS``::

    PROVIDERS["canned"] = "provider_example:make_factory"

after which ``toolchaos run ... --model "canned/I do not know"`` plays it like any model.
It never calls a tool, so on ToolFailBench it is a tool-skip baseline whose words you
choose. ``tests/docs/test_examples.py`` registers and runs it.
"""

from __future__ import annotations

from toolchaos.ext import (
    Message,
    ModelEntry,
    ModelRequest,
    ModelResponse,
    ResponseCache,
    SharedClientFactory,
    Usage,
)


class CannedClient:
    """Answers every request with the same text and no tool call.

    Args:
        text: The answer.
    """

    def __init__(self, text: str) -> None:
        self.text = text

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """The canned answer; usage counts whitespace-separated words as tokens."""
        prompt = sum(len((m.content or "").split()) for m in request.messages)
        usage = Usage(input_tokens=prompt, output_tokens=len(self.text.split()), calls=1)
        return ModelResponse(message=Message(role="assistant", content=self.text), usage=usage)


class CannedFactory(SharedClientFactory):
    """Every episode of ``canned/<text>`` shares one client."""

    def __init__(self, spec: str, text: str) -> None:
        self.spec = spec
        self.client = CannedClient(text)


def make_factory(name: str, entry: ModelEntry, cache: ResponseCache | None = None) -> CannedFactory:
    """Provider entry point for ``canned/<text>`` (a canned answer needs no cache)."""
    return CannedFactory(entry.spec, name)
