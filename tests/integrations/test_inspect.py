"""The Inspect AI adapter, offline with Inspect's mock model.

The mock model is driven by toolchaos's own scripted oracle (it reads Inspect's messages
and answers what the oracle would), so an Inspect eval of `toolchaos/toolbench_x` must
give exactly the episodes and scores of `toolchaos run -m scripted/oracle`.
"""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from toolchaos.core.errors import BadInput
from toolchaos.models.base import ModelRequest
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.suites import get_suite

inspect_ai = pytest.importorskip("inspect_ai")

from inspect_ai.model import (  # noqa: E402
    ChatCompletionChoice,
    ChatMessageAssistant,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.tool import ToolCall as InspectToolCall  # noqa: E402

from toolchaos.integrations.inspect.importer import import_logs  # noqa: E402
from toolchaos.integrations.inspect.model import from_inspect_messages  # noqa: E402

QUIET = Console(quiet=True)
LIMIT = 6


def oracle_model(suite_name: str, mode: str = "oracle") -> Any:
    """Inspect's mock model answering as the suite's scripted baseline would."""
    suite = get_suite(suite_name)
    by_prompt = {t.prompt: t for t in suite.load()}
    policies: dict[tuple[str, str], Any] = {}

    async def respond(input: list, tools: list, tool_choice: Any, config: Any) -> ModelOutput:
        messages = from_inspect_messages(input)
        opening = (messages[0].content or "", messages[1].content or "")
        if opening not in policies:
            policies[opening] = suite.baseline(by_prompt[opening[1]], mode)
        choice = tool_choice if isinstance(tool_choice, str) else tool_choice.name
        request = ModelRequest(
            messages=messages, tool_choice={"any": "required"}.get(choice, choice)
        )
        reply = (await policies[opening].complete(request)).message
        calls = [
            InspectToolCall(id=c.id, function=c.name, arguments=json.loads(c.arguments))
            for c in reply.tool_calls
        ]
        message = ChatMessageAssistant(content=reply.content or "", tool_calls=calls or None)
        return ModelOutput(
            model="mockllm/model",
            choices=[
                ChatCompletionChoice(message=message, stop_reason="tool_calls" if calls else "stop")
            ],
            usage=ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2),
        )

    return get_model("mockllm/model", custom_outputs=respond, memoize=False)


@pytest.fixture(scope="module")
def inspect_log(tmp_path_factory: pytest.TempPathFactory) -> Any:
    logs = inspect_ai.eval(
        "toolchaos/toolbench_x",  # resolved through the inspect_ai entry point
        model=oracle_model("toolbench-x"),
        task_args={"limit": LIMIT, "arm": "hazard"},
        log_dir=str(tmp_path_factory.mktemp("logs")),
        display="none",
    )
    assert logs[0].status == "success", logs[0].error
    return logs[0]


@pytest.fixture(scope="module")
def toolchaos_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run") / "run"
    config = RunConfig(
        suite="toolbench-x", models=["scripted/oracle"], arms=["hazard"], limit=LIMIT
    )
    run(config, out, QUIET)
    return out


def test_inspect_plays_our_protocol_and_hazards(inspect_log: Any, toolchaos_run: Path) -> None:
    ours = {e.task_id: e for e in Store.open_existing(toolchaos_run).episodes()}
    assert len(inspect_log.samples) == len(ours) == LIMIT
    for sample in inspect_log.samples:
        score = sample.scores["toolchaos_scorer"]
        labels = score.metadata["toolchaos"]
        episode = ours[labels["task_id"]]
        assert labels["arm"] == "hazard" and labels["model"] == "inspect/mockllm/model"
        assert labels["family"] and labels["workflow"]
        assert score.value == "C" and labels["correct"] == 1
        assert score.answer == episode.final_answer
        played = json.loads(sample.store["toolchaos_episode"])
        assert played["hazard_events"] == [e.model_dump(mode="json") for e in episode.hazard_events]
        assert played["end_state"] == episode.end_state
    assert inspect_log.results.scores[0].metrics["accuracy"].value == 1.0


def test_import_inspect_makes_a_store_that_reports_like_a_run(
    inspect_log: Any, toolchaos_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "imported"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolchaos.cli",
            "import-inspect",
            inspect_log.location,
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"{LIMIT} episodes from 1 logs" in done.stderr
    imported, native = build_report([out]), build_report([toolchaos_run])
    strip = lambda rows: [{k: v for k, v in r.items() if k != "model"} for r in rows]  # noqa: E731
    assert strip(imported.rows) == strip(native.rows)
    assert [r["model"] for r in imported.rows] == ["inspect/mockllm/model"]
    assert {t for t in imported.tables} == {t for t in native.tables}


def test_a_log_without_toolchaos_episodes_is_one_sentence(tmp_path: Path) -> None:
    from inspect_ai import Task
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import includes

    plain = inspect_ai.eval(
        Task(dataset=[Sample(input="hi", target="hi")], scorer=includes()),
        model=get_model(
            "mockllm/model",
            custom_outputs=[
                ModelOutput(
                    model="mockllm/model",
                    choices=[ChatCompletionChoice(message=ChatMessageAssistant(content="hi"))],
                    usage=ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2),
                )
            ],
            memoize=False,
        ),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    with pytest.raises(BadInput, match="holds no toolchaos episodes"):
        import_logs([Path(plain.location)], tmp_path / "out")
    with pytest.raises(BadInput, match="does not exist"):
        import_logs([tmp_path / "missing.eval"], tmp_path / "out")
    (tmp_path / "junk.eval").write_text("not a log")
    with pytest.raises(BadInput, match="is not a readable Inspect eval log"):
        import_logs([tmp_path / "junk.eval"], tmp_path / "out")


def test_toolfailbench_runs_through_the_entry_point(tmp_path: Path) -> None:
    log = inspect_ai.eval(
        "toolchaos/toolfailbench",
        model=oracle_model("toolfailbench"),
        task_args={"limit": 3},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )[0]
    assert log.status == "success", log.error
    for sample in log.samples:
        labels = sample.scores["toolchaos_scorer"].metadata["toolchaos"]
        assert labels["suite"] == "toolfailbench" and labels["status"] == "finished"


def test_the_suite_task_plays_any_registered_suite_as_its_own_task(tmp_path: Path) -> None:
    from toolchaos.integrations.inspect.tasks import suite, suite_samples

    same = suite_samples("toolbench-x", arm="hazard", limit=LIMIT)
    task = suite(name="toolbench-x", limit=LIMIT)
    assert [s.id for s in task.dataset] == [s.id for s in same]
    assert all(s.metadata["toolchaos_options"] == {} for s in task.dataset)
    with pytest.raises(BadInput, match="suite toolbench-x takes no -T options"):
        suite(name="toolbench-x", budget=2)
    with pytest.raises(BadInput, match="unknown suite 'nope'"):
        suite(name="nope")
