"""toolchaos's model clients for your own agent loop (an API model, the embedded model).

The suites ask a model factory for a client per episode; an own-tools agent has no suite
task, so it takes the one client a shared factory (an API's connection pool, the loaded
local model) gives every episode.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolchaos.core.errors import BadInput

if TYPE_CHECKING:
    from toolchaos.models.base import ModelClient
    from toolchaos.models.transport import ResponseCache


def model_client(spec: str, cache: ResponseCache | None = None) -> ModelClient:
    """The model client of ``spec`` (``local/qwen2.5-coder-0.5b``, ``openai/...``).

    Ask it with :class:`toolchaos.ext.ModelRequest` (the conversation and the toolbox as
    :class:`toolchaos.ext.ToolSpec`); it answers with the next assistant message.

    Raises:
        BadInput: An unknown provider, a missing extra or model file (one sentence naming
            what to install or pull), or a scripted baseline (it needs a suite's task).
    """
    from toolchaos.models.base import SharedClientFactory, make_factory

    factory = make_factory(spec, cache)
    if not isinstance(factory, SharedClientFactory):
        raise BadInput(f"{spec} plays a suite's tasks; an own agent needs an API or local model")
    return factory.client
