"""The adapters stay optional: nothing imports a framework, a missing one is one sentence."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from toolchaos.chaos.adapters import MissingExtra
from toolchaos.core.errors import BadInput

ADAPTERS = [
    ("openai_agents", "agents", "openai-agents"),
    ("langchain", "langchain", "langchain"),
    ("pydantic_ai", "pydantic_ai", "pydantic-ai"),
]


def test_importing_toolchaos_imports_no_framework() -> None:
    code = (
        "import sys, toolchaos, toolchaos.chaos, toolchaos.chaos.adapters\n"
        "print(sorted(m for m in ('agents', 'langchain', 'pydantic_ai') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(("module", "framework", "extra"), ADAPTERS)
def test_a_missing_framework_names_its_extra(
    module: str, framework: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = f"toolchaos.chaos.adapters.{module}"
    monkeypatch.delitem(sys.modules, name, raising=False)
    for loaded in [m for m in sys.modules if m == framework or m.startswith(framework + ".")]:
        monkeypatch.delitem(sys.modules, loaded)
    monkeypatch.setitem(sys.modules, framework, None)  # what an absent package looks like
    with pytest.raises(MissingExtra) as caught:
        importlib.import_module(name)
    message = str(caught.value)
    assert f"pip install 'toolchaos[{extra}]'" in message
    assert message.count(".") <= 1 and "\n" not in message
    assert isinstance(caught.value, BadInput) and isinstance(caught.value, ImportError)
