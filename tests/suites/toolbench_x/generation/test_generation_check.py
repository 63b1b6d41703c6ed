"""The allow-list refuses, with a reason, what a generated tool may not do."""

from __future__ import annotations

import pytest

from toolchaos.suites.toolbench_x.generation import check_source

GOOD = '''
import math
from datetime import date

def get_rate(db, city: str) -> dict:
    """Look up a city's rate.

    Args:
        city: The city's name.
    """
    row = db["cities"].get(city)
    if row is None:
        raise ToolError(f"City '{city}' not found", 404)
    return {"city": city, "rate": math.floor(row["rate"] * 100) / 100}
'''


def test_a_plain_tool_passes() -> None:
    assert check_source(GOOD) == []


@pytest.mark.parametrize(
    ("source", "says"),
    [
        ("import os\n", "imports os"),
        ("from subprocess import run\n", "imports from subprocess"),
        ("import socket\n", "imports socket"),
        ("import time\n", "imports time"),
        ("import random\n", "imports random"),
        ("def f(db):\n    return open('x').read()\n", "uses open"),
        ("def f(db):\n    return eval('1')\n", "uses eval"),
        ("def f(db):\n    exec('x = 1')\n", "uses exec"),
        ("def f(db):\n    return compile('1', 'f', 'eval')\n", "uses compile"),
        ("def f(db):\n    return getattr(db, 'keys')\n", "uses getattr"),
        ("def f(db):\n    return db.__class__\n", "attribute __class__"),
        ("def f(db):\n    return __builtins__\n", "names __builtins__"),
        ("from datetime import datetime\ndef f(db):\n    return datetime.now()\n", "clock"),
        ("def f(db):\n    return list({1, 2})\n", "builds a set"),
        ("def f(db):\n    return set(db)\n", "uses set"),
        ("def f(db):\n    global X\n", "global"),
        ("def f(db)\n    return 1\n", "does not parse"),
    ],
)
def test_refused_with_its_reason(source: str, says: str) -> None:
    refusals = check_source(source)
    assert refusals, source
    assert any(says in str(r) for r in refusals), refusals
