"""toolchaos review as a reviewer meets it: real processes, files, stdin and exit codes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolchaos.suites import get_suite
from toolchaos.suites.toolbench_x.review import content_key, read_reviews

SUITE = get_suite("toolbench-x")


def toolchaos(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolchaos.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        input=stdin,
        env={"COLUMNS": "80", "PATH": "/usr/bin:/bin"},
    )


def assert_bad_input(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    text = " ".join(result.stderr.split())
    assert text.startswith("error:") and text.count("error:") == 1, text
    for fragment in fragments:
        assert fragment in text, text


@pytest.fixture(scope="module")
def task_id() -> str:
    return next(t.id for t in SUITE.load() if t.hazard and t.hazard.variant == "inferred_rule")


def test_review_has_help() -> None:
    result = toolchaos("review", "--help")
    assert result.returncode == 0
    for command in ("show", "record", "next", "agreement", "sample"):
        assert command in result.stdout


def test_show_fits_80_columns(task_id: str) -> None:
    result = toolchaos("review", "show", task_id)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == task_id and max(len(line) for line in lines) <= 80
    for heading in ("Prompt", "Hazard", "Recovery path", "Reference path", "Reference"):
        assert f"─ {heading}" in result.stdout
    assert "cross_source_conflict / inferred_rule" in result.stdout


def test_show_writes_an_inert_html_page(tmp_path: Path, task_id: str) -> None:
    task = next(t for t in SUITE.load() if t.id == task_id)
    hostile = task.model_copy(update={"prompt": "Is <script>alert('x')</script> [red]ok[/]?"})
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(hostile.model_dump_json() + "\n")
    page = tmp_path / "pages" / "task.html"
    result = toolchaos("review", "show", task_id, "--tasks", str(tasks), "--html", str(page))
    assert result.returncode == 0, result.stderr
    html = page.read_text()
    assert "<script" not in html and "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html
    assert str(tasks) in html and "Recovery path" in html
    terminal = toolchaos("review", "show", task_id, "--tasks", str(tasks))
    assert "[red]ok[/]" in terminal.stdout


def test_show_refuses_an_unknown_task_and_a_suite_without_review() -> None:
    assert_bad_input(
        toolchaos("review", "show", "tbx-podcasts-mix-4"),
        "no task 'tbx-podcasts-mix-4' in toolbench-x:tasks.jsonl; did you mean tbx-podcasts-mix-04",
    )
    assert_bad_input(
        toolchaos("review", "show", "x", "--suite", "toolfailbench"),
        "suite toolfailbench has no human review workflow",
    )


def test_record_appends_and_a_second_record_replaces_the_first(
    tmp_path: Path, task_id: str
) -> None:
    path = tmp_path / "reviews.jsonl"
    base = ["review", "record", task_id, "--reviewer", "ann", "--file", str(path)]
    first = toolchaos(*base, "--verdict", "accept", "--category", "execution-failure")
    assert first.returncode == 0, first.stderr
    second = toolchaos(
        *base, "--verdict", "remove", "--category", "output drift", "--note", "no cue"
    )
    assert second.returncode == 0, second.stderr
    stored = read_reviews(path)
    assert [r.verdict.value for r in stored] == ["accept", "remove"]
    task = next(t for t in SUITE.load() if t.id == task_id)
    last = stored[-1]
    assert (last.key, last.category, last.note) == (
        content_key(task),
        "output_drift",
        "no cue",
    )
    assert last.dataset == "toolbench-x:tasks.jsonl"
    assert last.dataset_sha256 == SUITE.dataset_hash(SUITE.default_path())


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"task": "tbx-nowhere-seq-01"}, "no task 'tbx-nowhere-seq-01'"),
        ({"--verdict": "maybe"}, "unknown verdict 'maybe'"),
        ({"--category": "flaky"}, "unknown category 'flaky'"),
        ({"--reviewer": "ann, bo"}, "bad reviewer 'ann, bo'"),
    ],
)
def test_record_refuses_bad_input_and_writes_nothing(
    tmp_path: Path, task_id: str, change: dict[str, str], fragment: str
) -> None:
    path = tmp_path / "reviews.jsonl"
    options = {"--reviewer": "ann", "--verdict": "accept", "--category": "output_drift"}
    options.update({k: v for k, v in change.items() if k != "task"})
    args = [x for pair in options.items() for x in pair]
    result = toolchaos("review", "record", change.get("task", task_id), *args, "--file", str(path))
    assert_bad_input(result, fragment)
    assert not path.exists()


def test_record_refuses_a_damaged_review_file(tmp_path: Path, task_id: str) -> None:
    path = tmp_path / "reviews.jsonl"
    path.write_text("not json\n")
    result = toolchaos(
        "review", "record", task_id, "--reviewer", "ann", "--verdict", "accept",
        "--category", "output_drift", "--file", str(path),
    )  # fmt: skip
    assert_bad_input(result, "reviews.jsonl, line 1")
    assert path.read_text() == "not json\n"


def test_sample_then_next_from_stdin_then_agreement(tmp_path: Path) -> None:
    sample = tmp_path / "sample.txt"
    made = toolchaos("review", "sample", "--n", "4", "--seed", "5", "--out", str(sample))
    assert made.returncode == 0, made.stderr
    again = tmp_path / "again.txt"
    toolchaos("review", "sample", "--n", "4", "--seed", "5", "--out", str(again))
    assert sample.read_text() == again.read_text()
    ids = [line for line in sample.read_text().splitlines() if not line.startswith("#")]
    assert len(ids) == 4
    path = tmp_path / "reviews.jsonl"
    nxt = ["review", "next", "--file", str(path), "--sample", str(sample)]
    # ann: a typo re-asks; accept the proposed category; a note; then remove; then stop
    ann = toolchaos(
        *nxt, "--reviewer", "ann", stdin="perhaps\naccept\n\nfine\nremove\nexecution failure\n\nq\n"
    )
    assert ann.returncode == 0, ann.stderr
    assert "unknown verdict 'perhaps'" in ann.stdout
    assert "ann: 1 of 4 tasks reviewed" in ann.stdout
    # bo: end of input after two reviews leaves both stored
    bo = toolchaos(*nxt, "--reviewer", "bo", stdin="accept\n\n\naccept\n\n\n")
    assert bo.returncode == 0, bo.stderr
    stored = read_reviews(path)
    assert [(r.reviewer, r.task_id, r.verdict.value) for r in stored] == [
        ("ann", ids[0], "accept"),
        ("ann", ids[1], "remove"),
        ("bo", ids[0], "accept"),
        ("bo", ids[1], "accept"),
    ]
    # ann resumes where she stopped
    resumed = toolchaos(*nxt, "--reviewer", "ann", stdin="q\n")
    assert resumed.returncode == 0 and resumed.stdout.splitlines()[0] == ids[2]
    report = toolchaos("review", "agreement", str(path))
    assert report.returncode == 0, report.stderr
    assert "verdict agreement: 50.0% (1/2)" in report.stdout
    assert max(len(line) for line in report.stdout.splitlines()) <= 80
    as_json = json.loads(toolchaos("review", "agreement", str(path), "--json").stdout)
    assert as_json["n"] == 2 and as_json["verdict"]["k"] == 1
    assert as_json["confusion"] == [[1, 0, 0], [0, 0, 0], [1, 0, 0]]


def test_agreement_refuses_what_it_cannot_compute(tmp_path: Path) -> None:
    missing = tmp_path / "none.jsonl"
    assert_bad_input(toolchaos("review", "agreement", str(missing)), "holds no reviews")
    assert_bad_input(
        toolchaos("review", "agreement", str(missing), "--reviewers", "a,b,c"),
        "--reviewers takes two names",
    )
