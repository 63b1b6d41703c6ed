"""In-process adapters: a framework's own tools behind a hazard plan.

Each adapter sits in its own module and behind its own extra, and imports its framework
only there, so ``import toolchaos`` (or this package) never needs any of them:

- :mod:`toolchaos.chaos.adapters.openai_agents` (``pip install 'toolchaos[openai-agents]'``):
  :class:`ChaosAgentTools` wraps the invocation of the OpenAI Agents SDK's ``FunctionTool``.
- :mod:`toolchaos.chaos.adapters.langchain` (``pip install 'toolchaos[langchain]'``):
  :class:`ChaosMiddleware`, a LangChain 1.x agent middleware (``wrap_tool_call``).
- :mod:`toolchaos.chaos.adapters.pydantic_ai` (``pip install 'toolchaos[pydantic-ai]'``):
  :class:`ChaosToolset`, a Pydantic AI wrapper toolset.

Every call runs through :meth:`toolchaos.chaos.ChaosEpisode.begin` and
:meth:`~toolchaos.chaos.ChaosEpisode.end`, the same hazard layer as the proxy's and the
plain-Python adapter's, and finished episodes go to the same run store.
"""

from toolchaos.chaos.adapters._common import AdapterSession, MissingExtra

__all__ = ["AdapterSession", "MissingExtra"]
