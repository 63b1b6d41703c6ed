"""One real episode on the embedded model (``make test-local``; skipped elsewhere)."""

from pathlib import Path

import pytest
from rich.console import Console

from toolchaos.core.types import EpisodeStatus
from toolchaos.models.pull import model_path
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store

pytestmark = pytest.mark.local


def test_one_real_episode_on_the_embedded_model(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp", reason="pip install '.[local]' first")
    if not model_path("qwen2.5-coder-0.5b").is_file():
        pytest.skip("run `toolchaos models pull qwen2.5-coder-0.5b` first")
    config = RunConfig(
        suite="toolbench-x", models=["local/qwen2.5-coder-0.5b"], arms=["clean"], limit=1
    )
    summary = run(config, tmp_path / "run", Console(quiet=True))
    assert summary.played == 1 and summary.errors == 0
    [episode] = list(Store.open_existing(tmp_path / "run").episodes())
    assert episode.status is EpisodeStatus.FINISHED
    assert episode.usage.output_tokens > 0 and episode.final_answer
