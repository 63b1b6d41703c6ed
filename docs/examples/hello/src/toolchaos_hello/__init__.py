"""toolchaos-hello: a toolchaos extension package (docs/extending.md walks through it).

Nothing here is imported until toolchaos asks for one of the package's extensions: its
entry points (pyproject.toml) name ``suite``, ``domain``, ``hazard`` and ``provider``.
"""
