"""The embedded model: engine choice and response handling offline, and one real episode
per installed engine (``make test-local``; skipped elsewhere)."""

import os
import sys
import tomllib
from pathlib import Path

import pytest
from rich.console import Console

from toolchaos.core.errors import BadInput, HarnessFault
from toolchaos.core.types import EpisodeStatus
from toolchaos.models.config import ModelEntry
from toolchaos.models.local import (
    DEFAULT_ENGINE,
    ENGINES,
    LocalFactory,
    engine_name,
    import_engine,
    xllamacpp_result,
)
from toolchaos.models.openai_compat import completion_response
from toolchaos.models.pull import model_path
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store

SPEC = "local/qwen2.5-coder-0.5b"


def test_the_engine_is_the_entrys_else_the_variables_else_xllamacpp() -> None:
    assert DEFAULT_ENGINE == "xllamacpp"
    assert engine_name(ModelEntry(spec=SPEC), {}) == "xllamacpp"
    env = {"TOOLCHAOS_LOCAL_ENGINE": "llama-cpp-python"}
    assert engine_name(ModelEntry(spec=SPEC), env) == "llama-cpp-python"
    assert engine_name(ModelEntry(spec=SPEC, engine="xllamacpp"), env) == "xllamacpp"
    with pytest.raises(BadInput, match="unknown local engine 'llamacpp'; known: xllamacpp"):
        engine_name(ModelEntry(spec=SPEC, engine="llamacpp"), {})


def test_each_engines_extra_installs_it() -> None:
    pyproject = Path(__file__).parents[2] / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert list(ENGINES) == [DEFAULT_ENGINE, "llama-cpp-python"]
    for name, engine in ENGINES.items():
        # the extra's requirement names the engine's distribution (xllamacpp, llama-cpp-python)
        assert any(req.startswith(name) for req in extras[engine.extra]), (name, engine.extra)


def server_reply(**extra: object) -> dict[str, object]:
    """A chat completion as xllamacpp's server returns it (ids and clock included)."""
    return {
        "choices": [
            {
                "finish_reason": "stop",
                "index": 0,
                "message": {"role": "assistant", "content": '{"tool": "f", "arguments": {}}'},
            }
        ],
        "created": 1796203990,
        "id": "chatcmpl-mPNC8rnwhrPGbT0vR8i9NhZJDMsTRnm1",
        "usage": {"completion_tokens": 35, "prompt_tokens": 65, "total_tokens": 100},
        "timings": {"cache_n": 64, "prompt_n": 1, "prompt_ms": 45.0, "predicted_n": 35},
        **extra,
    }


def test_an_xllamacpp_reply_is_deterministic_and_reports_its_cache() -> None:
    result, stats = xllamacpp_result(server_reply())
    assert "id" not in result and "created" not in result and "timings" not in result
    assert (stats.prompt_tokens, stats.reused, stats.evaluated) == (65, 64, 1)
    assert stats.prompt_eval_s == pytest.approx(0.045)
    response = completion_response(result, 1.0, prompt_mode=True, default_id="local")
    assert response.usage.cached_input_tokens == 64 and response.usage.input_tokens == 65
    [call] = response.message.tool_calls
    assert call.name == "f" and call.id.startswith("call_local")
    # two replies that differ only in id and clock store the same response
    other, _ = xllamacpp_result(server_reply(id="chatcmpl-other", created=1))
    assert other == result


def test_an_xllamacpp_error_is_a_harness_fault() -> None:
    error = {"error": {"code": 400, "message": "the request exceeds the context size"}}
    with pytest.raises(HarnessFault, match="exceeds the context size"):
        xllamacpp_result(error)


def test_a_file_that_is_not_a_gguf_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "model.gguf"
    bad.write_bytes(b"<html>not a model</html>")
    with pytest.raises(BadInput, match="is not a GGUF file"):
        LocalFactory("mine", ModelEntry(spec="local/mine", gguf=str(bad)))


@pytest.mark.parametrize("engine", list(ENGINES))
def test_a_missing_engine_names_its_extra_and_the_other_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, engine: str
) -> None:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF" + bytes(16))
    module = ENGINES[engine].module
    monkeypatch.setitem(sys.modules, module, None)  # the import fails as if not installed
    other = next(e for e in ENGINES if e != engine)
    with pytest.raises(
        BadInput, match=rf"toolchaos\[{ENGINES[engine].extra}\]', or choose --local-engine {other}"
    ):
        LocalFactory("mine", ModelEntry(spec="local/mine", gguf=str(gguf), engine=engine))


@pytest.mark.local
@pytest.mark.parametrize("engine", list(ENGINES))
def test_one_real_episode_on_the_embedded_model(tmp_path: Path, engine: str) -> None:
    pytest.importorskip(ENGINES[engine].module)
    if not model_path("qwen2.5-coder-0.5b").is_file():
        pytest.skip("run `toolchaos models pull qwen2.5-coder-0.5b` first")
    config = RunConfig(
        suite="toolbench-x",
        models=[ModelEntry(spec=SPEC, engine=engine)],
        arms=["clean", "hazard"],
        limit=1,
    )
    summary = run(config, tmp_path / "run", Console(quiet=True))
    assert summary.played == 2 and summary.errors == 0
    episodes = list(Store.open_existing(tmp_path / "run").episodes())
    for episode in episodes:
        assert episode.status is EpisodeStatus.FINISHED
        assert episode.usage.output_tokens > 0 and episode.final_answer
    # the hazard arm starts where the clean arm left the cache: instructions and tools
    assert sum(e.usage.cached_input_tokens for e in episodes) > 0


@pytest.mark.parametrize(
    ("policy", "spin", "after"),
    [(None, None, "10000"), ("active", None, None), (None, "300000", "300000")],
)
def test_openmp_threads_spin_briefly_unless_the_user_says_otherwise(
    monkeypatch: pytest.MonkeyPatch, policy: str | None, spin: str | None, after: str | None
) -> None:
    for name, value in (("OMP_WAIT_POLICY", policy), ("GOMP_SPINCOUNT", spin)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    monkeypatch.setitem(sys.modules, "xllamacpp", None)  # set before the import is tried
    with pytest.raises(ImportError):
        import_engine("xllamacpp")
    assert os.environ.get("GOMP_SPINCOUNT") == after
