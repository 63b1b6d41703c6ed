"""Own tools: episodes of an agent builder's own agent on their own tools, under a plan.

Nothing here plays an episode: :mod:`toolchaos.chaos` (the engine, the adapters, the
pytest plugin and the MCP proxy) records them; this suite gives the store a task model
and ``toolchaos report`` its tables.
"""
