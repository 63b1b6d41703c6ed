"""The OpenAI-compatible client against a real HTTP server on 127.0.0.1."""

import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from conftest import make_task
from toolchaos.core.errors import BadInput
from toolchaos.core.types import EpisodeStatus
from toolchaos.models.config import ModelEntry
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.stats.agreement import wilson
from toolchaos.testing import FakeOpenAI, FaultPlan, Reply, scripted

QUIET = Console(quiet=True)
CITIES = ("Oslo", "Lima", "Pune")


def weather_agent(body: dict[str, Any], index: int) -> Reply:
    """A stand-in model that solves the fixture task: three calls, then the sum."""
    last = body["messages"][-1]
    if last["role"] == "tool" or (last["role"] == "user" and "<tool_result" in last["content"]):
        text = json.dumps(body["messages"])
        temps = [float(t) for t in _numbers_after(text, "temp_c")]
        return Reply(content=f"The total is {round(sum(temps), 1)}.", reasoning="adding up")
    if "tools" not in body:  # prompt mode: calls written as text
        tags = "".join(
            f'<tool_call>{{"name": "get_weather", "arguments": {{"city": "{c}"}}}}</tool_call>'
            for c in CITIES
        )
        return Reply(content=f"Let me look.{tags}")
    return Reply(tool_calls=[("get_weather", json.dumps({"city": c})) for c in CITIES])


def _numbers_after(text: str, key: str) -> list[str]:
    out = []
    for part in text.split(f'\\"{key}\\":')[1:]:
        out.append(part.split(",")[0].split("}")[0].strip())
    return out


@pytest.fixture
def task_file(tmp_path: Path) -> Path:
    path = tmp_path / "tasks.jsonl"
    path.write_text(make_task("fx-openai").model_dump_json() + "\n")
    return path


def config(task_file: Path, url: str, **entry: Any) -> RunConfig:
    model = ModelEntry(
        spec="openai-compat/fake-1", base_urls=[url], max_retries=3, backoff_s=0.01, **entry
    )
    return RunConfig(suite="toolbench-x", models=[model], arms=["clean"], tasks_path=str(task_file))


def episodes(directory: Path) -> list[Any]:
    store = Store.open_existing(directory)
    try:
        return list(store.episodes())
    finally:
        store.close()


@pytest.mark.parametrize("prompt_mode", [False, True])
def test_a_real_endpoint_plays_and_scores(
    tmp_path: Path, task_file: Path, prompt_mode: bool
) -> None:
    with FakeOpenAI(weather_agent, models=["fake-1"]) as server:
        summary = run(
            config(task_file, server.base_url, prompt_mode=prompt_mode), tmp_path / "r", QUIET
        )
        requests = server.requests
    assert summary.errors == 0
    [episode] = episodes(tmp_path / "r")
    assert build_report([tmp_path / "r"]).rows[0]["accuracy"] == 1.0
    calls = [c for m in episode.messages for c in m.tool_calls]
    assert {c.parsed_by for c in calls} == {"tag" if prompt_mode else "native"}
    assert ("tools" in requests[0]) is not prompt_mode
    assert episode.messages[-1].reasoning == "adding up"
    assert all("reasoning_content" not in m for r in requests for m in r["messages"])
    assert episode.usage.input_tokens > 0 and episode.usage.calls == 2


@pytest.mark.parametrize(
    "fault", ["429", "500", "503", "malformed", "truncated", "empty-choices", "reset"]
)
def test_transient_faults_are_retried(tmp_path: Path, task_file: Path, fault: str) -> None:
    replies = [Reply(fault=fault)]  # type: ignore[arg-type]
    responder = scripted(replies)

    def first_fails(body: dict[str, Any], index: int) -> Reply:
        return responder(body, index) if index == 0 else weather_agent(body, index)

    with FakeOpenAI(first_fails, models=["fake-1"]) as server:
        summary = run(config(task_file, server.base_url), tmp_path / "r", QUIET)
        assert server.count == 3
    assert summary.errors == 0
    assert build_report([tmp_path / "r"]).rows[0]["accuracy"] == 1.0


def test_a_timeout_is_retried(tmp_path: Path, task_file: Path) -> None:
    def slow_first(body: dict[str, Any], index: int) -> Reply:
        return Reply(fault="timeout") if index == 0 else weather_agent(body, index)

    with FakeOpenAI(slow_first, models=["fake-1"], timeout_s=3.0) as server:
        summary = run(config(task_file, server.base_url, timeout_s=0.5), tmp_path / "r", QUIET)
    assert summary.errors == 0


def test_exhausted_retries_are_indeterminate_and_retry_errors_fixes_them(
    tmp_path: Path, task_file: Path
) -> None:
    with FakeOpenAI(scripted([Reply(fault="500")]), models=["fake-1"]) as server:
        summary = run(config(task_file, server.base_url), tmp_path / "r", QUIET)
    assert (summary.errors, summary.indeterminate) == (0, 1)
    [episode] = episodes(tmp_path / "r")
    assert episode.status is EpisodeStatus.INDETERMINATE
    assert (episode.error or "").startswith("provider: gave up after 3 retries")
    row = build_report([tmp_path / "r"]).rows[0]
    # not scored as the model's mistake, nor as a harness error
    assert (row["errors"], row["indeterminate"], row["accuracy"]) == (0, 1, None)
    with FakeOpenAI(weather_agent, models=["fake-1"]) as server:
        again = run(
            config(task_file, server.base_url).model_copy(update={"retry_errors": True}),
            tmp_path / "r",
            QUIET,
        )
    assert again.played == 1 and again.errors == 0 and again.indeterminate == 0
    assert [e.status for e in episodes(tmp_path / "r")] == [EpisodeStatus.FINISHED]


FLAKY_TASKS = 6
FLAKY_SAMPLES = 5


def flaky_config(tasks: Path, url: str) -> RunConfig:
    """A handful of fixture tasks, one request at a time, no retries: a 503 is final."""
    model = ModelEntry(
        spec="openai-compat/fake-1", base_urls=[url], max_retries=0, backoff_s=0.01, concurrency=1
    )
    return RunConfig(
        suite="toolbench-x",
        models=[model],
        arms=["clean"],
        tasks_path=str(tasks),
        samples=FLAKY_SAMPLES,
        concurrency=1,
    )


def test_a_provider_503_on_a_tenth_of_requests_is_indeterminate_not_wrong(
    tmp_path: Path,
) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(
        "".join(make_task(f"fx-flaky-{i}").model_dump_json() + "\n" for i in range(FLAKY_TASKS))
    )
    plan = FaultPlan(rate=0.1, seed=6, kinds=["503"])  # 6 of the ~57 requests
    with FakeOpenAI(weather_agent, models=["fake-1"], faults=plan) as server:
        summary = run(flaky_config(tasks, server.base_url), tmp_path / "flaky", QUIET)
        faults = [f for f in server.injected_faults if f is not None]
    with FakeOpenAI(weather_agent, models=["fake-1"]) as server:
        run(flaky_config(tasks, server.base_url), tmp_path / "clean", QUIET)

    played = episodes(tmp_path / "flaky")
    stuck = [e for e in played if e.status is EpisodeStatus.INDETERMINATE]
    n = FLAKY_TASKS * FLAKY_SAMPLES
    assert len(played) == n and summary.errors == 0
    assert len(stuck) == len(faults) == summary.indeterminate > 0  # one 503 ends an episode
    assert {e.status for e in played} == {EpisodeStatus.FINISHED, EpisodeStatus.INDETERMINATE}
    for episode in stuck:
        assert (episode.error or "").startswith("provider: gave up after 0 retries")
    # some failed mid-episode, after the model's calls: their partial trace is kept
    assert any(len(e.trace) == 3 for e in stuck) and any(not e.trace for e in stuck)

    [flaky] = build_report([tmp_path / "flaky"]).rows
    [clean] = build_report([tmp_path / "clean"]).rows
    assert (flaky["n"], flaky["errors"], flaky["indeterminate"]) == (n, 0, len(stuck))
    assert flaky["accuracy"] == round(flaky["correct"] / (n - len(stuck)), 4)
    interval = wilson(int(flaky["correct"]), n - len(stuck))
    assert interval.low is not None and interval.high is not None
    assert interval.low - 1e-9 <= clean["accuracy"] <= interval.high + 1e-9
    assert "indeterminate" not in clean and clean["n"] == n  # shown only when some are

    with FakeOpenAI(weather_agent, models=["fake-1"]) as server:
        again = run(
            flaky_config(tasks, server.base_url).model_copy(update={"retry_errors": True}),
            tmp_path / "flaky",
            QUIET,
        )
    assert again.played == len(stuck) and again.indeterminate == 0
    assert {e.status for e in episodes(tmp_path / "flaky")} == {EpisodeStatus.FINISHED}
    [filled] = build_report([tmp_path / "flaky"]).rows
    assert "indeterminate" not in filled and filled["accuracy"] == clean["accuracy"]


def test_model_mistakes_are_the_models(tmp_path: Path, task_file: Path) -> None:
    replies = [
        Reply(tool_calls=[("get_wether", "{}")]),
        Reply(tool_calls=[("get_weather", '{"city": "Oslo"')]),
        Reply(content="I am not sure."),
    ]
    with FakeOpenAI(scripted(replies), models=["fake-1"]) as server:
        summary = run(config(task_file, server.base_url), tmp_path / "r", QUIET)
    assert summary.errors == 0
    [episode] = episodes(tmp_path / "r")
    errors = [t.observation.content["error"]["message"] for t in episode.trace]
    assert errors[0].startswith("Unknown tool 'get_wether'")
    assert errors[1].startswith("Invalid JSON in arguments for 'get_weather'")
    assert build_report([tmp_path / "r"]).rows[0]["accuracy"] == 0.0


def test_the_cache_replays_offline_byte_for_byte(tmp_path: Path, task_file: Path) -> None:
    cache = str(tmp_path / "cache.sqlite")
    with FakeOpenAI(weather_agent, models=["fake-1"]) as server:
        url = server.base_url
        run(config(task_file, url).model_copy(update={"cache_path": cache}), tmp_path / "a", QUIET)
    # the server is gone: only the cache can answer
    run(config(task_file, url).model_copy(update={"cache_path": cache}), tmp_path / "b", QUIET)
    a, b = episodes(tmp_path / "a"), episodes(tmp_path / "b")
    assert [e.model_dump_json() for e in a] == [e.model_dump_json() for e in b]


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"api_key": "right"}, "rejected the API key"),
        ({"models": ["other-model"]}, "is not served at"),
    ],
)
def test_fatal_problems_stop_the_run_with_one_sentence(
    tmp_path: Path, task_file: Path, monkeypatch: pytest.MonkeyPatch, kwargs: dict, message: str
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong-canary-123")
    with (
        FakeOpenAI(weather_agent, **kwargs) as server,
        pytest.raises(BadInput, match=message) as err,
    ):
        run(config(task_file, server.base_url), tmp_path / "r", QUIET)
    assert "sk-wrong-canary-123" not in str(err.value)


def test_a_dead_endpoint_is_one_sentence(tmp_path: Path, task_file: Path) -> None:
    with FakeOpenAI(weather_agent) as server:
        url = server.base_url
    with pytest.raises(BadInput, match="cannot reach"):
        run(config(task_file, url), tmp_path / "r", QUIET)


def test_urls_are_used_round_robin(tmp_path: Path, task_file: Path) -> None:
    with FakeOpenAI(weather_agent) as one, FakeOpenAI(weather_agent) as two:
        model = ModelEntry(spec="openai-compat/fake-1", base_urls=[one.base_url, two.base_url])
        cfg = RunConfig(
            suite="toolbench-x",
            models=[model],
            arms=["clean"],
            tasks_path=str(task_file),
            samples=4,
        )
        run(cfg, tmp_path / "r", QUIET)
        assert one.count == two.count == 4


def test_openai_needs_its_key(
    tmp_path: Path, task_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    cfg = RunConfig(suite="toolbench-x", models=["openai/gpt-4o-mini"], tasks_path=str(task_file))
    with pytest.raises(BadInput, match="set OPENAI_API_KEY"):
        run(cfg, tmp_path / "r", QUIET)


def test_a_fatal_problem_in_a_worker_process_stops_the_run(
    tmp_path: Path, task_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
    with FakeOpenAI(weather_agent, api_key="right") as server:
        cfg = config(task_file, server.base_url).model_copy(update={"workers": 2, "samples": 4})
        with pytest.raises(BadInput, match="rejected the API key"):
            run(cfg, tmp_path / "r", QUIET)
