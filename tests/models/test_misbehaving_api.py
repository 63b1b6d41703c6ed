"""A run against an OpenAI-compatible server that misbehaves on a fifth of its requests.

The local test server injects every fault it knows (429 with and without Retry-After,
500, 503, connection resets, timeouts, malformed JSON, truncated bodies, empty choices
and tool calls with invalid JSON arguments) at a seeded 20% rate. The run must finish
without a harness crash; every episode ends ``finished`` or, where the retries ran out,
``indeterminate`` with its reason (a provider fault toolchaos did not inject); malformed
tool-call arguments are the model's mistakes (scored, and counted as bad calls),
transport failures are not (counted as indeterminate, never scored against the model).
"""

import json
import re
from pathlib import Path
from typing import Any

from rich.console import Console

from conftest import make_task
from toolchaos.core.types import EpisodeStatus
from toolchaos.models.config import ModelEntry
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.scoring.tables import scorable
from toolchaos.testing import FAULT_KINDS, FakeOpenAI, FaultPlan, Reply

EPISODES = 200
CITIES = ("Oslo", "Lima", "Pune")


def agent(body: dict[str, Any], index: int) -> Reply:
    """A stand-in model: three weather calls, then the sum of what came back."""
    if body["messages"][-1]["role"] == "tool":
        temps = re.findall(r'"temp_c":\s*(-?[\d.]+)', json.dumps(body["messages"]))
        temps += re.findall(r'\\"temp_c\\":\s*(-?[\d.]+)', json.dumps(body["messages"]))
        return Reply(content=f"The total is {round(sum(float(t) for t in temps), 1)}.")
    return Reply(tool_calls=[("get_weather", json.dumps({"city": c})) for c in CITIES])


def test_a_fifth_of_requests_failing_crashes_nothing_and_blames_no_one_wrongly(
    tmp_path: Path,
) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(make_task("fx-flaky").model_dump_json() + "\n")
    plan = FaultPlan(rate=0.2, seed=2026, kinds=FAULT_KINDS)
    model = ModelEntry(
        spec="openai-compat/flaky-1",
        base_urls=[],
        max_retries=4,
        backoff_s=0.01,
        timeout_s=0.5,
        concurrency=8,
    )
    with FakeOpenAI(agent, models=["flaky-1"], faults=plan, timeout_s=2.0) as server:
        model = model.model_copy(update={"base_urls": [server.base_url]})
        config = RunConfig(
            suite="toolbench-x",
            models=[model],
            arms=["clean"],
            tasks_path=str(tasks),
            samples=EPISODES,
        )
        summary = run(config, tmp_path / "run", Console(quiet=True))
        injected = [f for f in server.injected_faults if f is not None]
        harness_errors = server.errors

    assert harness_errors == []  # the server saw no client misbehaviour either
    assert set(injected) == set(FAULT_KINDS), "every fault kind was exercised"
    assert len(injected) >= 0.15 * EPISODES

    store = Store.open_existing(tmp_path / "run")
    try:
        episodes = list(store.episodes())
        rows = store.summaries()
    finally:
        store.close()
    assert len(episodes) == EPISODES
    for episode in episodes:
        assert episode.status in (EpisodeStatus.FINISHED, EpisodeStatus.INDETERMINATE)
        if episode.status is EpisodeStatus.INDETERMINATE:
            assert (episode.error or "").startswith("provider: "), episode.key
    stuck = [e for e in episodes if e.status is EpisodeStatus.INDETERMINATE]
    assert summary.errors == 0 and summary.indeterminate == len(stuck)

    bad = [r for r in rows if r["bad_calls"]]
    assert bad, "some tool calls carried invalid JSON arguments"
    assert all(r["status"] == "finished" for r in bad)  # the model's mistake, played out
    assert sum(r["bad_calls"] for r in rows) == injected.count("bad-tool-args")

    report = build_report([tmp_path / "run"])
    [row] = report.rows
    assert row["n"] == EPISODES
    assert (row["errors"], row.get("indeterminate", 0)) == (0, len(stuck))
    assert row["bad_calls"] == injected.count("bad-tool-args")
    finished = scorable(report.frame)
    assert row["accuracy"] == round(finished["correct"].sum() / len(finished), 4)
    # transport faults were absorbed: every finished episode without a malformed call is right
    assert finished[finished["bad_calls"] == 0]["correct"].all()
