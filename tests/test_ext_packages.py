"""An extension as a package: docs/examples/hello, installed and run as a user would.

The package (a suite, a domain, a hazard variant and a model provider) is registered only
by its entry points. It is copied out of the repository, pip-installed into a folder of
its own and put on the path of the subprocesses only: this process never imports it, and
the repository's files stay as they were. The subprocesses run from the package's folder:
``toolchaos build``, ``run`` (with the suite's own ``-T`` options), ``report`` and an
Inspect eval of the ``toolchaos/suite`` task, found through Inspect's entry point.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from toolchaos.domains import DOMAINS
from toolchaos.hazards import VARIANTS
from toolchaos.models.base import PROVIDERS
from toolchaos.suites import SUITES

ROOT = Path(__file__).parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "hello"
TOOLCHAOS = [sys.executable, "-m", "toolchaos.cli"]  # the `toolchaos` command
SHIPPED = EXAMPLE / "src" / "toolchaos_hello" / "data" / "tasks.jsonl"


def _digest(*folders: Path) -> str:
    """A digest of every file under ``folders``: path, size and bytes (caches left out)."""
    found = hashlib.sha256()
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            if "__pycache__" in path.parts:
                continue
            found.update(str(path.relative_to(ROOT)).encode())
            found.update(path.read_bytes())
    return found.hexdigest()


@dataclass
class Installed:
    """The installed package: its copied folder, the run's scratch folder, the env to use."""

    package: Path
    scratch: Path
    env: dict[str, str]

    def run(self, *args: str, tool: list[str] = TOOLCHAOS) -> subprocess.CompletedProcess[str]:
        """Run ``toolchaos ARGS`` (or ``tool ARGS``) from the package's folder."""
        return subprocess.run(
            [*tool, *args],
            cwd=self.package,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    before = _digest(ROOT / "src" / "toolchaos", EXAMPLE)
    scratch = tmp_path_factory.mktemp("hello")
    package = scratch / "toolchaos-hello"
    shutil.copytree(EXAMPLE, package, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    site = scratch / "site"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", site, "."],
        cwd=package,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    path = os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH", "")) if p)
    env = os.environ | {"PYTHONPATH": path, "NO_COLOR": "1", "COLUMNS": "200"}
    yield Installed(package, scratch, env)
    assert _digest(ROOT / "src" / "toolchaos", EXAMPLE) == before, "a repository file changed"


def test_nothing_of_the_package_is_registered_here() -> None:
    # this process has no entry point of it: what the subprocesses find came from pip
    assert "hello" not in SUITES and "hello" not in DOMAINS and "hello" not in PROVIDERS
    assert all(variant != "shouted_values" for _, variant in VARIANTS)


def test_its_build_gives_the_shipped_tasks_byte_for_byte(installed: Installed) -> None:
    out = installed.scratch / "built.jsonl"
    done = installed.run("build", "hello", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == SHIPPED.read_bytes()
    done = installed.run("validate", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "12 of 12 tasks pass" in done.stdout


def _greetings(directory: Path) -> dict[tuple[str, str], dict[str, str]]:
    """The hello suite's report table, by (model, arm)."""
    with (directory / "report_hello_greetings.csv").open() as handle:
        return {(row["model"], row["arm"]): row for row in csv.DictReader(handle)}


def test_run_and_report_play_its_suite_domain_hazard_and_provider(installed: Installed) -> None:
    out = installed.scratch / "run"
    done = installed.run("run", "hello", "-m", "hello/careful,hello/plain", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "36 episodes played" in done.stderr  # 12 clean and 6 hazard tasks, two models
    done = installed.run("report", str(out))
    assert done.returncode == 0, done.stderr
    assert "hello/plain: 100% -> 0%" in done.stdout  # the suite's headline
    table = _greetings(out)
    # the hazard (the package's own variant) defeats the greeter that does not normalize
    assert table[("hello/careful", "hazard")]["accuracy"] == "1.0"
    assert table[("hello/plain", "hazard")]["accuracy"] == "0.0"
    assert table[("hello/plain", "clean")]["accuracy"] == "1.0"
    assert {row["refused_calls"] for row in table.values()} == {"0"}


def test_a_suite_option_reaches_its_episodes_and_the_run_identity(installed: Installed) -> None:
    out = installed.scratch / "budget"
    done = installed.run("run", "hello", "-m", "hello/careful", "-T", "budget=1", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "manifest.json").read_text())["suite_options"] == {"budget": 1}
    assert installed.run("report", str(out)).returncode == 0
    table = _greetings(out)
    # one call allowed: the person is read, the greeting refused; no one is greeted
    assert table[("hello/careful", "clean")]["accuracy"] == "0.0"
    assert int(table[("hello/careful", "clean")]["refused_calls"]) >= 12
    # another budget is another run: the directory refuses it
    done = installed.run("run", "hello", "-m", "hello/careful", "-T", "budget=2", "-o", str(out))
    assert done.returncode == 2
    assert "suite options budget 1 (asked 2)" in done.stderr


@pytest.mark.parametrize(
    ("option", "says"),
    [
        ("nope=1", "suite hello has no option 'nope'; its options: budget (int, default 6)"),
        ("budget=0", "-T budget=0 is refused: input should be greater than or equal to 1"),
    ],
)
def test_a_bad_suite_option_is_one_sentence(installed: Installed, option: str, says: str) -> None:
    out = installed.scratch / "refused"
    done = installed.run("run", "hello", "-m", "hello/careful", "-T", option, "-o", str(out))
    assert done.returncode == 2
    assert says in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert not out.exists()


INSPECT_EVAL = """
import json, sys
from inspect_ai import eval as inspect_eval
from inspect_ai.model import (
    ChatCompletionChoice, ChatMessageAssistant, ModelOutput, ModelUsage, get_model,
)
from inspect_ai.tool import ToolCall
from toolchaos.ext import ModelRequest
from toolchaos.integrations.inspect.model import from_inspect_messages
from toolchaos_hello.provider import GreeterClient

greeter = GreeterClient(careful=True)  # Inspect's mock model answers as hello/careful would

async def respond(input, tools, tool_choice, config):
    choice = tool_choice if isinstance(tool_choice, str) else tool_choice.name
    request = ModelRequest(
        messages=from_inspect_messages(input), tool_choice={"any": "required"}.get(choice, choice)
    )
    reply = (await greeter.complete(request)).message
    calls = [
        ToolCall(id=c.id, function=c.name, arguments=json.loads(c.arguments))
        for c in reply.tool_calls
    ]
    message = ChatMessageAssistant(content=reply.content or "", tool_calls=calls or None)
    stop = "tool_calls" if calls else "stop"
    usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    choices = [ChatCompletionChoice(message=message, stop_reason=stop)]
    return ModelOutput(model="mockllm/model", choices=choices, usage=usage)

[log] = inspect_eval(
    "toolchaos/suite",
    model=get_model("mockllm/model", custom_outputs=respond, memoize=False),
    task_args={"name": "hello", "arm": "clean,hazard", "limit": 4, "budget": 3},
    log_dir=sys.argv[1], log_format="json", display="none",
)
print(log.status)
"""


def test_the_inspect_task_plays_an_installed_suite(installed: Installed) -> None:
    logs = installed.scratch / "logs"
    done = installed.run("-c", INSPECT_EVAL, str(logs), tool=[sys.executable])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["success"]
    [path] = logs.glob("*.json")
    log = json.loads(path.read_text())
    assert log["eval"]["task"] == "toolchaos/suite"
    samples = log["samples"]
    first = [json.loads(line) for line in SHIPPED.read_text().splitlines()[:4]]
    # the first 4 tasks in the clean arm, and those with a hazard in the hazard arm too
    assert len(samples) == 4 + sum(task["hazard"] is not None for task in first)
    hazards = 0
    for sample in samples:
        episode = json.loads(sample["store"]["toolchaos_episode"])
        assert episode["suite"] == "hello" and episode["status"] == "finished"
        assert sample["metadata"]["toolchaos_options"] == {"budget": 3}
        assert sample["scores"]["toolchaos_scorer"]["value"] == "C", sample["id"]
        hazards += len(episode["hazard_events"])
    assert hazards >= 1  # the package's hazard variant fired inside Inspect's episodes
