"""Run generated code in a child process: limits, no network, an empty environment.

What runs here is a module a model wrote. It has passed :func:`~.check.check_source`
first, and the sandbox does not rely on that: the child process holds even code the
check never saw (the tests run such code).

- The child is ``python -I -S`` (no user site, no ``site``, no ``PYTHON*`` variables,
  no script directory on the path) started with an EMPTY environment, in a fresh
  temporary directory as its working directory, in its own session.
- A preexec function sets ``resource.setrlimit`` limits: CPU seconds, address space,
  file size and open files (:class:`Limits`); the parent also kills the child's process
  group when the wall-clock limit passes.
- Network: when ``unshare -rn`` works on this machine (probed once,
  :func:`network_isolation`) the child runs in a new user and network namespace with no
  interface but loopback down; in every case an audit hook, installed in the child
  before the generated code is compiled, refuses socket creation and connection, new
  processes (``subprocess``, ``os.system``, ``exec``, ``fork``, ``spawn``), imports of
  any module not loaded before the hook, and ``open`` of any path outside the child's
  working directory.

The generated module's function gets JSON arguments and returns JSON; ``ToolError`` (a
name the child provides) is how it refuses a request.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from toolchaos.suites.toolbench_x.generation.check import ALLOWED_IMPORTS


@dataclass(frozen=True)
class Limits:
    """What one sandboxed call may use."""

    cpu_seconds: int = 2
    wall_seconds: float = 5.0
    memory_bytes: int = 512 * 1024 * 1024
    file_bytes: int = 1024 * 1024
    open_files: int = 64


Outcome = Literal["ok", "tool_error", "error", "timeout", "killed"]


@dataclass(frozen=True)
class SandboxResult:
    """What a sandboxed call came to: its outcome, value, and the reason when not ok."""

    outcome: Outcome
    value: Any = None
    reason: str = ""
    state: Any = None
    """The ``state`` passed in, as the function left it (None unless it returned)."""

    @property
    def ok(self) -> bool:
        """Whether the function returned a value."""
        return self.outcome == "ok"


# The child's program. It runs with -I -S, so it imports only the standard library.
_CHILD = r"""
import json, os, sys
ALLOWED = set(ALLOWED_MODULES)
for name in sorted(ALLOWED):
    __import__(name)
payload = json.loads(sys.stdin.read())
root = os.path.realpath(os.getcwd())
real = os.path.realpath
BLOCKED = ("socket.", "subprocess.", "os.system", "os.exec", "os.spawn", "os.fork",
           "os.posix_spawn", "os.kill", "shutil.", "ctypes.", "urllib.", "http.")
def hook(event, args):
    if event.startswith(BLOCKED):
        raise PermissionError(f"sandbox: {event} is not allowed")
    if event == "import" and args[0] not in sys.modules:
        raise PermissionError(f"sandbox: importing {args[0]} is not allowed")
    if event == "open":
        path = args[0]
        if not isinstance(path, str) or not (real(path) + os.sep).startswith(root + os.sep):
            raise PermissionError(f"sandbox: opening {path!r} is not allowed")
sys.addaudithook(hook)
out = sys.stdout
class ToolError(Exception):
    def __init__(self, message, code=400):
        super().__init__(message)
        self.message = str(message)
        self.code = int(code)
def read(fn):
    return fn
write = read
namespace = {"__name__": "generated", "ToolError": ToolError, "read": read, "write": write}
state = payload.get("state")
lead = [] if state is None else [state]
try:
    exec(compile(payload["source"], "<generated>", "exec"), namespace)
    value = namespace[payload["function"]](*lead, *payload["args"], **payload["kwargs"])
    reply = {"outcome": "ok", "value": value, "state": state}
except ToolError as exc:
    reply = {"outcome": "tool_error", "value": {"message": exc.message, "code": exc.code}}
    reply["state"] = None
except BaseException as exc:
    reply = {"outcome": "error", "reason": f"{type(exc).__name__}: {exc}"}
try:
    text = json.dumps(reply)
except (TypeError, ValueError) as exc:
    text = json.dumps({"outcome": "error", "reason": f"the result is not JSON: {exc}"})
out.write(text)
out.flush()
"""


@functools.cache
def network_isolation() -> str:
    """How the child is kept off the network: ``"unshare+audit"`` or ``"audit"``.

    ``unshare -rn`` (a new user and network namespace) is used when it runs here; the
    audit hook is installed either way.
    """
    unshare = shutil.which("unshare")
    if unshare is None:
        return "audit"
    try:
        probe = subprocess.run(  # noqa: S603 - a fixed command, no generated input
            [unshare, "-rn", sys.executable, "-I", "-S", "-c", "pass"],
            env={},
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return "audit"
    return "unshare+audit" if probe.returncode == 0 else "audit"


def _preexec(limits: Limits) -> Callable[[], None]:
    def apply() -> None:
        cpu = limits.cpu_seconds
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
        resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def run_sandboxed(
    source: str,
    function: str,
    *args: Any,
    limits: Limits | None = None,
    files: dict[str, str] | None = None,
    state: Any = None,
    **kwargs: Any,
) -> SandboxResult:
    """Run ``function(*args, **kwargs)`` of the module ``source`` in a sandboxed child.

    ``files`` are written into the child's working directory first (the only place it
    may open). With ``state`` (a world's tables as JSON), the call is
    ``function(state, *args, **kwargs)`` and the result carries the state as the
    function left it. Arguments, state and the return value travel as JSON. The module
    may use ``ToolError(message, code)`` to refuse a request and ``@read`` / ``@write``
    to declare a tool's kind.
    """
    limits = limits or Limits()
    program = _CHILD.replace("ALLOWED_MODULES", repr(sorted(ALLOWED_IMPORTS)))
    command = [sys.executable, "-I", "-S", "-c", program]
    if network_isolation() == "unshare+audit":
        unshare = shutil.which("unshare")
        assert unshare is not None
        command = [unshare, "-rn", *command]
    payload = json.dumps(
        {"source": source, "function": function, "args": args, "kwargs": kwargs, "state": state}
    )
    with tempfile.TemporaryDirectory(prefix="toolchaos-sandbox-") as cwd:
        for name, text in (files or {}).items():
            with open(os.path.join(cwd, os.path.basename(name)), "w", encoding="utf-8") as fh:
                fh.write(text)
        child = subprocess.Popen(  # noqa: S603 - the untrusted part is the point: sandboxed
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env={},
            preexec_fn=_preexec(limits),
            start_new_session=True,
        )
        try:
            stdout, stderr = child.communicate(payload.encode(), timeout=limits.wall_seconds)
        except subprocess.TimeoutExpired:
            _kill(child)
            return SandboxResult("timeout", reason=f"ran past {limits.wall_seconds:g} s")
    if child.returncode != 0:
        how = _signal_name(child.returncode)
        tail = stderr.decode(errors="replace").strip().splitlines()[-1:]
        detail = f" ({tail[0]})" if tail else ""
        return SandboxResult("killed", reason=f"the child ended with {how}{detail}")
    try:
        reply = json.loads(stdout)
    except ValueError:
        return SandboxResult("error", reason="the child wrote no result")
    return SandboxResult(
        reply["outcome"], reply.get("value"), reply.get("reason", ""), reply.get("state")
    )


def _kill(child: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)
    child.communicate()


def _signal_name(code: int) -> str:
    if code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"
