"""Runs whose answers are mostly invalid output are flagged and kept out of the headline."""

from pathlib import Path

from rich.console import Console

from toolchaos.core.types import Episode
from toolchaos.report.tables import build_report, to_markdown, write_report
from toolchaos.runner.run import RunConfig, run
from toolchaos.runner.store import Store


def rewrite_answers(out: Path, model: str, answers: list[str]) -> None:
    """Replace the final answers of ``model``'s first episodes (by key) with ``answers``."""
    store = Store.open_existing(out)
    mine = [e for e in store.episodes() if e.model == model]
    for episode, answer in zip(mine, answers, strict=False):
        store.put(Episode.model_validate({**episode.model_dump(), "final_answer": answer}))
    store.close()


def test_a_mostly_invalid_run_is_listed_and_left_out(tmp_path: Path) -> None:
    from toolchaos.report.html import render_html

    out = tmp_path / "run"
    config = RunConfig(
        suite="toolfailbench", models=["scripted/oracle", "scripted/skip"], subset=20
    )
    run(config, out, Console(quiet=True))
    # skip: half its 20 answers invalid -> flagged; oracle: 9 of 20 empty -> kept
    rewrite_answers(out, "scripted/skip", ["<|im_end|>"] * 8 + ["ok " * 20] * 2)
    rewrite_answers(out, "scripted/oracle", [""] * 9)
    store = Store.open_existing(out)
    for episode in store.episodes():
        store.put_judgement(episode.key, "judge_a", "openai/gpt-4o-mini", "correct", "x")
        store.put_judgement(episode.key, "judge_b", "openai/gpt-4o-mini", "correct", "x")
    store.close()

    report = build_report([out])
    tables = report.tables
    flagged = tables["toolfailbench_flagged_runs"]
    assert flagged.to_dict("records") == [
        {
            "run": str(out),
            "model": "scripted/skip",
            "finished": 20,
            "invalid": 10,
            "share": 0.5,
            "reason": "special_tokens",
            "reasons": "degenerate_repetition 2, special_tokens 8",
        }
    ]
    assert list(tables["toolfailbench_leaderboard"]["model"]) == ["scripted/oracle"]
    section = next(t for t in report.sections if t.name == "toolfailbench_leaderboard")
    assert "ensemble" in section.title  # both judges labelled every episode
    assert set(tables["toolfailbench_rir_by_domain"]["model"]) == {"scripted/oracle"}
    assert "toolfailbench_ctur_tests" not in tables  # one model left: nothing to test
    # agreement still counts every episode, flagged or not
    agreement = tables["toolfailbench_agreement"].set_index("stratum")
    assert agreement.loc["all", "n"] == 40
    # the empty answers count against the oracle by the rule (the judges, scripted to say
    # correct throughout, overrule it), and it stays on the board
    board = tables["toolfailbench_leaderboard"].set_index("model")
    assert board.loc["scripted/oracle", "rule CTUR %"] < 100.0
    assert board.loc["scripted/oracle", "CTUR %"] == 100.0
    # the flagged run still has its profile: mostly invalid output
    kinds = tables["toolfailbench_archetypes"].set_index("model")["archetype"]
    assert kinds["scripted/skip"] == "invalid output"
    assert kinds["scripted/oracle"] == "invalid output"  # 9 of 20 empty: over a quarter
    text = to_markdown(report)
    assert "runs flagged for invalid output" in text and "left out" in text
    assert "runs flagged for invalid output" in render_html(report)
    written = {p.name for p in write_report(report, tmp_path / "files")}
    assert {
        "report_toolfailbench_flagged_runs.csv",
        "report_toolfailbench_same_family.csv",
    } <= written


def test_a_run_with_valid_answers_flags_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(
        RunConfig(suite="toolfailbench", models=["scripted/ignore"], subset=10),
        out,
        Console(quiet=True),
    )
    tables = build_report([out]).tables
    assert "toolfailbench_flagged_runs" not in tables
    assert list(tables["toolfailbench_leaderboard"]["model"]) == ["scripted/ignore"]
