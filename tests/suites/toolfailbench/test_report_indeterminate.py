"""ToolFailBench episodes a provider fault decided: their own leaderboard column, no rate."""

from pathlib import Path

from rich.console import Console

from toolchaos.core.types import EpisodeStatus
from toolchaos.models.config import ModelEntry
from toolchaos.report.tables import build_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store
from toolchaos.testing import FakeOpenAI, FaultPlan, Reply

QUIET = Console(quiet=True)
TASKS = 10


def answer(body: dict, index: int) -> Reply:  # type: ignore[type-arg]
    return Reply(content="I cannot tell.")


def board(directory: Path) -> dict[str, dict[str, object]]:
    table = build_report([directory]).tables["toolfailbench_leaderboard"]
    return {str(r["model"]): r for r in table.to_dict("records")}


def test_provider_faults_are_counted_apart_and_out_of_every_rate(tmp_path: Path) -> None:
    model = ModelEntry(spec="openai-compat/fake-1", max_retries=0, backoff_s=0.01, concurrency=1)
    plan = FaultPlan(rate=0.3, seed=3, kinds=["503"])
    with FakeOpenAI(answer, models=["fake-1"], faults=plan) as server:
        config = RunConfig(
            suite="toolfailbench",
            models=[model.model_copy(update={"base_urls": [server.base_url]})],
            arms=["clean"],
            subset=TASKS,
            concurrency=1,
        )
        summary = run(config, tmp_path / "flaky", QUIET)
    store = Store.open_existing(tmp_path / "flaky", read_only=True)
    played = list(store.episodes())
    store.close()
    stuck = [e for e in played if e.status is EpisodeStatus.INDETERMINATE]
    assert 0 < len(stuck) == summary.indeterminate < len(played)

    row = board(tmp_path / "flaky")["openai-compat/fake-1"]
    assert row["indeterminate"] == len(stuck)
    sections = build_report([tmp_path / "flaky"]).sections
    section = next(t for t in sections if t.name == "toolfailbench_leaderboard")
    assert "'indeterminate' counts episodes decided by a fault" in section.note
    # the rates' task counts are the finished episodes only
    assert row["required"] + row["controls"] == len(played) - len(stuck)

    with FakeOpenAI(answer, models=["fake-1"]) as server:
        again = run(
            config.model_copy(
                update={
                    "retry_errors": True,
                    "models": [model.model_copy(update={"base_urls": [server.base_url]})],
                }
            ),
            tmp_path / "flaky",
            QUIET,
        )
    assert again.played == len(stuck) and again.indeterminate == 0
    row = board(tmp_path / "flaky")["openai-compat/fake-1"]
    assert "indeterminate" not in row  # shown only when a run has some
    assert row["required"] + row["controls"] == len(played)
