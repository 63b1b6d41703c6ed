"""The sandbox holds generated code that the allow-list never saw (real child processes)."""

from __future__ import annotations

import time

import pytest

from toolchaos.suites.toolbench_x.generation import (
    Limits,
    check_source,
    network_isolation,
    run_sandboxed,
)

QUICK = Limits(cpu_seconds=1, wall_seconds=5.0)


def test_a_clean_function_runs_and_returns_json() -> None:
    source = "import math\ndef area(r):\n    return round(math.pi * r * r, 2)\n"
    assert check_source(source) == []
    result = run_sandboxed(source, "area", 2, limits=QUICK)
    assert result.ok and result.value == 12.57


def test_tool_error_comes_back_as_a_refusal() -> None:
    source = "def get(key):\n    raise ToolError(f'Item {key} not found', 404)\n"
    result = run_sandboxed(source, "get", "x", limits=QUICK)
    assert result.outcome == "tool_error"
    assert result.value == {"message": "Item x not found", "code": 404}


def test_cannot_read_a_file_outside_its_directory(tmp_path: pytest.TempPathFactory) -> None:
    secret = tmp_path / "secret.txt"  # type: ignore[operator]
    secret.write_text("do not read")
    source = f"def leak():\n    return open({str(secret)!r}).read()\n"
    result = run_sandboxed(source, "leak", limits=QUICK)
    assert not result.ok
    assert "opening" in result.reason and "not allowed" in result.reason
    inside = run_sandboxed(
        "def read():\n    return open('data.txt').read()\n",
        "read",
        limits=QUICK,
        files={"data.txt": "mine"},
    )
    assert inside.ok and inside.value == "mine"


@pytest.mark.parametrize(
    "body",
    [
        "    import socket\n    return socket.socket().fileno()\n",
        "    s = __builtins__['__import__']('socket')\n"
        "    return s.create_connection(('1.1.1.1', 80))\n",
        "    return __builtins__['__import__']('os').system('true')\n",
    ],
)
def test_cannot_open_a_socket_or_start_a_process(body: str) -> None:
    result = run_sandboxed("def net():\n" + body, "net", limits=QUICK)
    assert not result.ok
    assert "not allowed" in result.reason


def test_the_environment_is_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-not-for-the-child")
    # os is loaded before the hook (the child's own machinery); reached only by a bypass
    source = "def env():\n    return dict(__builtins__['__import__']('os').environ)\n"
    result = run_sandboxed(source, "env", limits=QUICK)
    # nothing of the parent's (no HOME, PATH or API key); only what Python's own C-locale
    # coercion (PEP 538) sets in a process started with no locale
    assert result.ok and set(result.value) <= {"LC_CTYPE"}


def test_network_isolation_is_reported() -> None:
    assert network_isolation() in ("unshare+audit", "audit")


def test_cannot_outlive_its_cpu_limit() -> None:
    start = time.monotonic()
    result = run_sandboxed("def spin():\n    while True:\n        pass\n", "spin", limits=QUICK)
    assert result.outcome == "killed" and "SIGXCPU" in result.reason
    assert time.monotonic() - start < 4


def test_cannot_outlive_its_wall_clock_limit() -> None:
    limits = Limits(cpu_seconds=30, wall_seconds=0.5)
    start = time.monotonic()
    result = run_sandboxed("def spin():\n    while True:\n        pass\n", "spin", limits=limits)
    assert result.outcome == "timeout"
    assert time.monotonic() - start < 3


def test_memory_is_capped() -> None:
    limits = Limits(cpu_seconds=2, memory_bytes=256 * 1024 * 1024)
    result = run_sandboxed("def hog():\n    return len([0] * 10**9)\n", "hog", limits=limits)
    assert not result.ok and "MemoryError" in result.reason
