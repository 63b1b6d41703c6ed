"""One model provider: ``hello/careful`` and ``hello/plain``, rule-based greeters.

They stand in for a model the way toolchaos' scripted baselines do, but play from what
an LLM would see (the messages and the toolbox), never from the task: find the person
id in the request, look the person up, ask for the greeting of their language, answer.
``careful`` writes a language code in its documented lowercase form before passing it
on; ``plain`` passes it on as it came, and gives up at the first error.
"""

from __future__ import annotations

import json
import re
from typing import Any

from toolchaos.ext import (
    BadInput,
    Message,
    ModelEntry,
    ModelRequest,
    ModelResponse,
    ResponseCache,
    SharedClientFactory,
    ToolCall,
    Usage,
    register_provider,
)

MODES = ("careful", "plain")
PERSON_ID = re.compile(r"\bP-\d+\b")
GIVE_UP = "I could not greet them: the greeting service did not answer."


def _results(messages: list[Message]) -> list[tuple[str, Any]]:
    """Each tool message so far as (tool name, parsed content)."""
    found = []
    for message in messages:
        if message.role == "tool":
            try:
                content = json.loads(message.content or "null")
            except ValueError:
                content = message.content
            found.append((message.name or "", content))
    return found


class GreeterClient:
    """Greets the person a request names, through the toolbox it is offered.

    Args:
        careful: Whether it normalizes a language code before it uses it.
    """

    def __init__(self, careful: bool) -> None:
        self.careful = careful

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """The next move: a tool call, or the final answer."""
        return ModelResponse(message=self._next(request), usage=Usage(calls=1))

    def _next(self, request: ModelRequest) -> Message:
        asked = next((m.content or "" for m in request.messages if m.role == "user"), "")
        results = _results(request.messages)
        found = PERSON_ID.search(asked)
        if found is None:
            return self._answer("Whom should I greet? I see no person id.")
        failed = any(isinstance(c, dict) and "error" in c for _, c in results)
        if failed and (not self.careful or len(results) > 2):
            return self._answer(GIVE_UP)
        read = [(t, c) for t, c in results if isinstance(c, dict)]
        person = next((c for t, c in read if t == "get_person" and "name" in c), None)
        greeting = next((c for t, c in read if t == "say_hello" and "greeting" in c), None)
        if request.tool_choice == "none" or greeting is not None:
            if greeting is None or person is None:
                return self._answer(GIVE_UP)
            return self._answer(f"{greeting['greeting']}, {person['name']}!")
        if person is None:
            return self._call(request, "get_person", {"person_id": found.group(0)})
        language = str(person.get("language", ""))
        return self._call(
            request, "say_hello", {"language": language.lower() if self.careful else language}
        )

    @staticmethod
    def _call(request: ModelRequest, name: str, arguments: dict[str, Any]) -> Message:
        number = sum(len(m.tool_calls) for m in request.messages)
        call = ToolCall(id=f"call_{number}", name=name, arguments=json.dumps(arguments))
        return Message(role="assistant", content="", tool_calls=[call])

    @staticmethod
    def _answer(text: str) -> Message:
        return Message(role="assistant", content=text)


class GreeterFactory(SharedClientFactory):
    """Every episode of one ``hello/<mode>`` spec shares its client."""

    def __init__(self, spec: str, careful: bool) -> None:
        self.spec = spec
        self.client = GreeterClient(careful)


@register_provider("hello")
def make_factory(
    name: str, entry: ModelEntry, cache: ResponseCache | None = None
) -> GreeterFactory:
    """The factory of ``hello/careful`` or ``hello/plain`` (a rule needs no cache)."""
    if name not in MODES:
        raise BadInput(f"unknown hello model {name!r}; known: {', '.join(MODES)}")
    return GreeterFactory(entry.spec, careful=name == "careful")
