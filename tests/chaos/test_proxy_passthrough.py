"""The clean arm forwards everything unchanged: byte for byte what the server itself sends.

A real MCP server with every content type, annotation and capability
(``mcp_everything_server.py``) is spoken to line by line over stdio twice with the same
JSON-RPC requests: once directly, once through ``toolchaos proxy --arm clean``. Every
answer and every notification must be the same bytes, but for the two cache hints the
proxy adds to ``tools/list`` (``ttlMs: 0``, ``cacheScope: private``; SEP-2549).
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

HERE = Path(__file__).resolve().parent
SERVER = [sys.executable, str(HERE / "mcp_everything_server.py")]
PROXY = [sys.executable, "-m", "toolchaos.cli", "proxy", "--plan", "transient"]

REQUESTS: list[tuple[str, dict[str, Any]]] = [
    ("tools/list", {}),
    ("tools/call", {"name": "plain_text", "arguments": {}}),
    ("tools/call", {"name": "every_block", "arguments": {"n": 1}}),
    ("tools/call", {"name": "structured", "arguments": {"city": "Bergen"}}),
    ("tools/call", {"name": "fails", "arguments": {}}),
    ("tools/call", {"name": "counts", "arguments": {}, "_meta": {"progressToken": "tok-7"}}),
    ("resources/list", {}),
    ("resources/templates/list", {}),
    ("resources/read", {"uri": "file:///notes/a.txt"}),
    ("resources/read", {"uri": "file:///blobs/b.bin"}),
    ("prompts/list", {}),
    ("prompts/get", {"name": "review", "arguments": {"language": "go"}}),
    (
        "completion/complete",
        {
            "ref": {"type": "ref/prompt", "name": "review"},
            "argument": {"name": "language", "value": "p"},
        },
    ),
    ("logging/setLevel", {"level": "info"}),
]


class Lines:
    """A process spoken to in JSON-RPC lines over its stdin and stdout."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip(b"\n"))

    def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def until_answer(self, number: int | None) -> list[bytes]:
        """Every line up to and including the answer to request ``number``."""
        seen: list[bytes] = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=deadline - time.monotonic())
            except queue.Empty:
                break
            seen.append(line)
            message = json.loads(line)
            if "method" not in message and message.get("id") == number:
                return seen
        raise AssertionError(f"no answer to #{number}: {seen}")

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        assert self.process.stdout is not None
        self.process.stdout.close()


def request(number: int, method: str, params: dict[str, Any]) -> bytes:
    message = {"jsonrpc": "2.0", "id": number, "method": method, "params": params}
    return json.dumps(message).encode()


def converse(command: list[str]) -> tuple[list[list[bytes]], Lines]:
    """The lines answering each request of REQUESTS (after the handshake), and the process."""
    talk = Lines(command)
    hello = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "passthrough-test", "version": "1"},
    }
    talk.send(request(0, "initialize", hello))
    talk.until_answer(0)
    talk.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    answers = []
    for number, (method, params) in enumerate(REQUESTS, start=1):
        talk.send(request(number, method, params))
        answers.append(talk.until_answer(number))
    return answers, talk


def without_cache_hints(line: bytes) -> bytes:
    """A tools/list answer without the hints (sent only after a 2026-07-28 handshake)."""
    message = json.loads(line)
    if "ttlMs" not in message["result"]:
        return line
    assert message["result"].pop("ttlMs") == 0
    assert message["result"].pop("cacheScope") == "private"
    return json.dumps(message, separators=(",", ":")).encode()


def test_the_clean_arm_is_byte_for_byte_the_server(tmp_path: Path) -> None:
    direct, server = converse(SERVER)
    server.close()
    command = [*PROXY, "--arm", "clean", "--out", str(tmp_path / "run"), "--", *SERVER]
    proxied, proxy = converse(command)
    try:
        # a line that is not JSON, and JSON that is not JSON-RPC, get an answer
        proxy.send(b"this is not json")
        [parse_error] = proxy.until_answer(None)
        proxy.send(b'{"id": 77, "hello": "there"}')
        [invalid] = proxy.until_answer(77)
        after = request(78, "tools/call", {"name": "plain_text", "arguments": {}})
        proxy.send(after)
        [still] = proxy.until_answer(78)
    finally:
        proxy.close()
    listing = proxied[0]
    assert [without_cache_hints(listing[0])] == direct[0]
    for sent, mine, theirs in zip(REQUESTS[1:], proxied[1:], direct[1:], strict=True):
        assert mine == theirs, sent
    # what the comparison covers: the server did send all of it
    every_block = json.loads(direct[2][0])["result"]
    assert [b["type"] for b in every_block["content"]] == [
        "text",
        "image",
        "audio",
        "resource",
        "resource",
        "resource_link",
    ]
    assert json.loads(direct[1][0])["result"]["content"][0]["text"] == "hello"
    methods = [json.loads(line).get("method") for line in direct[5]]
    assert methods.count("notifications/progress") == 3 and "notifications/message" in methods
    tools = json.loads(direct[0][0])["result"]["tools"]
    assert tools[0]["annotations"]["readOnlyHint"] and tools[0]["_meta"] and tools[0]["title"]
    assert json.loads(parse_error)["error"]["code"] == -32700
    assert json.loads(parse_error)["id"] is None
    assert json.loads(invalid)["error"]["code"] == -32600
    assert json.loads(still)["result"]["content"][0]["text"] == "hello"


def test_a_hazard_changes_only_what_it_names(tmp_path: Path) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text(
        "hazards:\n  - {family: output_drift, variant: nested_shape, tool: structured}\n",
        encoding="utf-8",
    )
    direct, server = converse(SERVER)
    server.close()
    command = [sys.executable, "-m", "toolchaos.cli", "proxy", "--plan", str(plan), "--"]
    proxied, proxy = converse([*command, *SERVER])
    proxy.close()
    changed = {
        index
        for index, (method, params) in enumerate(REQUESTS)
        if params.get("name") == "structured"
    }
    for index, (mine, theirs) in enumerate(zip(proxied, direct, strict=True)):
        if index == 0:  # the listing: the drifted tool's output schema is left out
            tools = json.loads(mine[0])["result"]["tools"]
            shown = {t["name"]: t for t in tools}
            assert "outputSchema" not in shown["structured"]
            assert shown["plain_text"] == json.loads(theirs[0])["result"]["tools"][0]
        elif index in changed:
            mine_result = json.loads(mine[0])["result"]
            assert mine_result["structuredContent"]["data"] == {"city": "Bergen", "temp_c": 21.5}
            assert json.loads(mine_result["content"][0]["text"]) == mine_result["structuredContent"]
        else:
            assert mine == theirs, REQUESTS[index]
