"""Human review of ToolBench-X: records, agreement, samples, the view, and the build stage."""

from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from toolchaos.core.errors import BadInput
from toolchaos.core.types import HazardFamily, TaskSpec
from toolchaos.suites import get_suite
from toolchaos.suites.toolbench_x.pipeline import BuildReport, build_toolbench_x
from toolchaos.suites.toolbench_x.review import (
    REVIEWS_FILE,
    Review,
    Verdict,
    agreement,
    append_review,
    apply_reviews,
    content_key,
    current_reviews,
    make_review,
    next_to_review,
    parse_category,
    parse_verdict,
    read_reviews,
    read_sample,
    removed_task_keys,
    review_order,
    sample_text,
)
from toolchaos.suites.toolbench_x.review_view import (
    print_agreement,
    print_view,
    recovery_words,
    render_view_html,
    task_view,
)

SUITE = get_suite("toolbench-x")
F = HazardFamily


@pytest.fixture(scope="module")
def shipped() -> list[TaskSpec]:
    return SUITE.load()


def review(key: str, reviewer: str, verdict: str, category: F, note: str = "") -> Review:
    return Review(
        reviewer=reviewer,
        task_id=f"tbx-{key}",
        key=key,
        dataset="test",
        dataset_sha256="0" * 64,
        verdict=Verdict(verdict),
        category=category,
        note=note,
    )


# -- content key ---------------------------------------------------------------------------


def test_the_content_key_survives_case_and_punctuation_but_not_other_words(
    shipped: list[TaskSpec],
) -> None:
    task = shipped[0]
    same = task.model_copy(update={"id": "another-id", "prompt": task.prompt.upper() + " ?!"})
    other = task.model_copy(update={"prompt": task.prompt + " please"})
    assert content_key(same) == content_key(task)
    assert content_key(other) != content_key(task)
    assert len({content_key(t) for t in shipped}) == len(shipped)


def test_no_review_file_ships_so_the_build_removes_nothing() -> None:
    assert not REVIEWS_FILE.exists()
    assert removed_task_keys(REVIEWS_FILE) == set()


# -- the review file -----------------------------------------------------------------------


def test_a_later_review_by_the_same_reviewer_wins_and_the_first_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "reviews.jsonl"
    append_review(path, review("k1", "ann", "accept", F.OUTPUT_DRIFT))
    append_review(path, review("k2", "ann", "revise", F.OUTPUT_DRIFT))
    append_review(path, review("k1", "bo", "accept", F.OUTPUT_DRIFT))
    append_review(path, review("k1", "ann", "remove", F.CROSS_SOURCE_CONFLICT, "stale twice"))
    stored = read_reviews(path)
    assert len(stored) == 4  # nothing is overwritten
    last = current_reviews(stored)
    assert [(r.reviewer, r.key, r.verdict.value) for r in last] == [
        ("ann", "k2", "revise"),
        ("bo", "k1", "accept"),
        ("ann", "k1", "remove"),
    ]
    first = current_reviews(stored, initial=True)
    assert [(r.reviewer, r.key, r.verdict.value) for r in first] == [
        ("ann", "k1", "accept"),
        ("ann", "k2", "revise"),
        ("bo", "k1", "accept"),
    ]
    assert removed_task_keys(path) == {"k1"}
    append_review(path, review("k1", "ann", "accept", F.CROSS_SOURCE_CONFLICT, "settled"))
    assert removed_task_keys(path) == set()


def test_a_damaged_review_file_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    path = tmp_path / "reviews.jsonl"
    append_review(path, review("k1", "ann", "accept", F.OUTPUT_DRIFT))
    path.write_text(path.read_text() + '{"reviewer": "bo", "verdict": "maybe"}\n')
    before = path.read_bytes()
    with pytest.raises(BadInput, match=r"reviews.jsonl, line 2"):
        append_review(path, review("k2", "ann", "accept", F.OUTPUT_DRIFT))
    assert path.read_bytes() == before


def test_a_file_without_a_final_newline_still_gets_whole_lines(tmp_path: Path) -> None:
    path = tmp_path / "reviews.jsonl"
    path.write_text(review("k1", "ann", "accept", F.OUTPUT_DRIFT).model_dump_json())
    append_review(path, review("k2", "ann", "remove", F.OUTPUT_DRIFT))
    assert [r.key for r in read_reviews(path)] == ["k1", "k2"]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("maybe", "unknown verdict 'maybe'"), ("", "unknown verdict ''")],
)
def test_an_unknown_verdict_is_one_sentence(text: str, fragment: str) -> None:
    with pytest.raises(BadInput, match=fragment):
        parse_verdict(text)


def test_categories_are_read_the_way_people_type_them() -> None:
    assert parse_verdict(" Remove ") is Verdict.REMOVE
    assert parse_category("Cross-source conflict") is F.CROSS_SOURCE_CONFLICT
    assert parse_category("output_drift") is F.OUTPUT_DRIFT
    with pytest.raises(BadInput, match="unknown hazard category 'timeouts'"):
        parse_category("timeouts")


def test_a_reviewer_name_must_be_one_clean_line(shipped: list[TaskSpec]) -> None:
    with pytest.raises(BadInput, match="reviewer"):
        make_review(shipped[0], "ann, bo", Verdict.ACCEPT, F.OUTPUT_DRIFT, "", "d", "0" * 64)
    made = make_review(
        shipped[0], "ann", Verdict.ACCEPT, F.OUTPUT_DRIFT, "two\nlines", "d", "0" * 64
    )
    assert made.key == content_key(shipped[0]) and made.note == "two lines"


# -- agreement -----------------------------------------------------------------------------

# Ten tasks reviewed by ann (A) and bo (B). Verdicts agree on 8 of 10; the marginals are
# accept 6, revise 2, remove 2 for both, so chance agreement is (36 + 4 + 4) / 100 = 0.44
# and kappa = (0.8 - 0.44) / (1 - 0.44) = 0.642857. Categories agree on 9 of 10; A gives
# each family twice, B gives output drift 3 times and cross-source once, so chance is
# (4 + 4 + 4 + 6 + 2) / 100 = 0.20 and kappa = (0.9 - 0.2) / 0.8 = 0.875.
VERDICTS_A = ["accept"] * 6 + ["revise"] * 2 + ["remove"] * 2
VERDICTS_B = ["accept"] * 5 + ["revise", "revise", "accept", "remove", "remove"]
FAMILIES = [F.SPECIFICATION_DRIFT, F.INVOCATION_ERROR, F.EXECUTION_FAILURE, F.OUTPUT_DRIFT]
CATEGORIES_A = [f for f in [*FAMILIES, F.CROSS_SOURCE_CONFLICT] for _ in range(2)]
CATEGORIES_B = [*CATEGORIES_A[:9], F.OUTPUT_DRIFT]


def constructed() -> list[Review]:
    out = []
    for i in range(10):
        out.append(review(f"k{i}", "ann", VERDICTS_A[i], CATEGORIES_A[i]))
        out.append(review(f"k{i}", "bo", VERDICTS_B[i], CATEGORIES_B[i]))
    out.append(review("k99", "ann", "accept", F.OUTPUT_DRIFT))  # bo never saw it
    return out


def test_agreement_matches_the_hand_computed_values() -> None:
    result = agreement(constructed())
    assert result.reviewers == ("ann", "bo") and result.n == 10
    assert (result.verdict.k, result.verdict.n) == (8, 10)
    # Wilson (1927) 95% interval of 8/10, as tabulated: 0.4902 to 0.9433
    assert result.verdict.low == pytest.approx(0.4902, abs=1e-4)
    assert result.verdict.high == pytest.approx(0.9433, abs=1e-4)
    assert result.verdict_kappa == pytest.approx(0.36 / 0.56)
    assert (result.category.k, result.category.n) == (9, 10)
    assert result.category_kappa == pytest.approx(0.875)
    assert result.confusion == [[5, 1, 0], [1, 1, 0], [0, 0, 2]]
    assert [d.key for d in result.disagreements] == ["k5", "k7", "k9"]
    assert result.disagreements[2].categories == ("cross_source_conflict", "output_drift")


def test_initial_agreement_uses_the_first_verdicts() -> None:
    revised = [*constructed(), review("k5", "ann", "revise", F.EXECUTION_FAILURE)]
    assert agreement(revised).verdict.k == 9
    assert agreement(revised, initial=True).verdict.k == 8


def test_agreement_needs_two_named_reviewers() -> None:
    three = [*constructed(), review("k1", "cy", "accept", F.OUTPUT_DRIFT)]
    with pytest.raises(BadInput, match=r"3 reviewers \(ann, bo, cy\); name two"):
        agreement(three)
    assert agreement(three, ("ann", "cy")).n == 1
    with pytest.raises(BadInput, match="no review by 'dee'"):
        agreement(three, ("ann", "dee"))
    with pytest.raises(BadInput, match="two different reviewers"):
        agreement(three, ("ann", "ann"))


def test_the_agreement_fits_80_columns() -> None:
    console = Console(width=80, record=True)
    print_agreement(agreement(constructed()), console)
    text = console.export_text()
    assert "80.0% (8/10), 95% Wilson interval 49.0-94.3%" in text
    assert "Cohen's kappa on verdict: 0.643" in text and "91.5%" in text
    assert max(len(line) for line in text.splitlines()) <= 80


# -- what to review ------------------------------------------------------------------------


def test_the_sample_is_deterministic_and_stratified(shipped: list[TaskSpec]) -> None:
    text = sample_text(shipped, 200, 0, "shipped")
    assert text == sample_text(shipped, 200, 0, "shipped")
    assert text != sample_text(shipped, 200, 1, "shipped")
    ids = [line for line in text.splitlines() if not line.startswith("#")]
    assert len(ids) == len(set(ids)) == 200
    by_id = {t.id: t for t in shipped}
    strata = Counter(SUITE.stratum(by_id[i]) for i in ids)
    assert len(strata) == 15 and set(strata.values()) <= {13, 14}


def test_a_sample_file_reads_back_in_order(tmp_path: Path, shipped: list[TaskSpec]) -> None:
    path = tmp_path / "sample.txt"
    path.write_text(sample_text(shipped, 20, 3, "shipped"))
    ids = read_sample(path, [t.id for t in shipped])
    assert ids == [t.id for t in review_order(shipped, 3)[:20]]
    path.write_text("# header\ntbx-no-such-task\n")
    with pytest.raises(BadInput, match="line 2: no task 'tbx-no-such-task'"):
        read_sample(path, [t.id for t in shipped])
    with pytest.raises(BadInput, match="between 1 and 1106"):
        sample_text(shipped, 0, 0, "shipped")


def test_next_skips_what_the_reviewer_has_done(shipped: list[TaskSpec]) -> None:
    order = review_order(shipped, 0)
    assert sorted(t.id for t in order) == sorted(t.id for t in shipped)
    done = [
        make_review(t, "ann", Verdict.ACCEPT, F.OUTPUT_DRIFT, "", "d", "0" * 64) for t in order[:3]
    ]
    assert next_to_review(order, done, "ann") is order[3]
    assert next_to_review(order, done, "bo") is order[0]
    assert next_to_review(order[:3], done, "ann") is None


# -- the view ------------------------------------------------------------------------------


def first(shipped: list[TaskSpec], variant: str, writes: bool = False) -> TaskSpec:
    return next(
        t
        for t in shipped
        if t.hazard is not None and t.hazard.variant == variant and t.reference.writes == writes
    )


def test_the_view_shows_the_hazard_apart_from_the_docs(shipped: list[TaskSpec]) -> None:
    task = first(shipped, "renamed_parameter")
    assert task.hazard is not None
    view = task_view(task, "shipped", "0" * 64)
    assert view.problems == []
    assert view.hazard is not None and view.hazard.variant == "renamed_parameter"
    old, new = task.hazard.params["param"], task.hazard.params["to"]
    # the docs the agent reads still carry the old name; the backend wants the new one
    target = next(t for t in view.tools if t.name == task.hazard.tool)
    assert old in {p.name for p in target.params} and new not in {p.name for p in target.params}
    assert any(f"'{new}' (required)" in change for change in view.hazard.changes)
    assert view.hazard.encounters and view.hazard.encounters[0].observation.startswith("error:")
    assert view.hazard.checks == [
        "the oracle, following the recipe, reaches the reference under the hazard",
        "the naive baseline fails under the hazard",
    ]
    assert view.hazard.recovery == [
        f"Change the call and retry: rename arguments '{old}' -> '{new}'."
    ]
    assert view.answer == task.reference.answer
    assert len(view.steps) == len(task.reference.steps)
    assert all("$ref" not in str(step.arguments) for step in view.steps)


def test_the_view_of_a_write_shows_the_rows_it_writes(shipped: list[TaskSpec]) -> None:
    task = next(t for t in shipped if t.reference.writes)
    view = task_view(task, "shipped", "0" * 64)
    assert view.writes and view.end_state == task.reference.end_state
    assert view.state_changes and view.problems == []
    assert all(" -> " in change or "new row" in change for change in view.state_changes)


def test_the_view_flags_a_reference_that_no_longer_replays(shipped: list[TaskSpec]) -> None:
    task = next(t for t in shipped if not t.reference.writes)
    broken = task.model_copy(
        update={"reference": task.reference.model_copy(update={"answer": "-1"})}
    )
    assert task_view(broken, "shipped", "0" * 64).problems == [
        f"the replayed answer {task.reference.answer!r} differs from the stored one"
    ]


@pytest.mark.parametrize(
    "variant", ["ambiguous_entity", "outage", "corrupted_outlier", "timeout_after_write"]
)
def test_every_line_fits_80_columns(shipped: list[TaskSpec], variant: str) -> None:
    writes = variant == "timeout_after_write"
    view = task_view(first(shipped, variant, writes), "shipped", "0" * 64)
    console = Console(width=80, record=True)
    print_view(view, console)
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    for heading in ("Prompt", "Tools as the agent sees them", "Hazard", "Recovery path"):
        assert heading in text
    assert "Reference path (replayed in the clean world)" in text


def test_task_text_stays_inert_in_both_renderings(shipped: list[TaskSpec]) -> None:
    task = shipped[0]
    hostile = "<script>alert(1)</script> [bold red]loud[/] & <b>x</b>"
    view = task_view(task.model_copy(update={"prompt": hostile}), "<i>d</i>", "0" * 64)
    page = render_view_html(view)
    assert "<script>alert" not in page and "<b>x</b>" not in page and "<i>d</i>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&amp;" in page
    assert "<script" not in page  # the page itself runs no script
    console = Console(width=80, record=True)
    print_view(view, console)
    assert "[bold red]loud[/]" in console.export_text()


def test_every_recipe_action_reads_as_a_sentence(shipped: list[TaskSpec]) -> None:
    steps = {s.action: s for t in shipped if t.hazard for s in t.hazard.recovery}
    for action, step in steps.items():
        words = recovery_words(step)
        assert words.endswith(".") and not words.startswith(f"{action}:"), words


# -- the build stage -----------------------------------------------------------------------


def test_apply_reviews_drops_removed_tasks_with_the_reason(shipped: list[TaskSpec]) -> None:
    tasks = shipped[:4]
    reviews = [
        make_review(tasks[1], "ann", Verdict.REMOVE, F.OUTPUT_DRIFT, "cue missing", "d", "0" * 64),
        make_review(tasks[2], "ann", Verdict.REVISE, F.OUTPUT_DRIFT, "", "d", "0" * 64),
    ]
    report = BuildReport(seed=0, per_cell=5)
    kept = apply_reviews(tasks, reviews, report)
    assert [t.id for t in kept] == [tasks[0].id, tasks[2].id, tasks[3].id]
    [drop] = report.drops
    assert (drop.stage, drop.task) == ("review", tasks[1].id)
    assert drop.reason == (
        f"removed by ann (reviewed as {tasks[1].id}, category output_drift): cue missing"
    )


def test_the_next_build_drops_a_removed_task_and_fills_its_cell(tmp_path: Path) -> None:
    reviews = tmp_path / "reviews.jsonl"
    before, first_report = build_toolbench_x(0, per_cell=1, domains=["commerce"], reviews=reviews)
    # a strict-format task: the hazard rewrote the id in its prompt after the screen
    victim = next(
        (t for t in before if t.hazard is not None and t.hazard.variant == "strict_format"),
        before[0],
    )
    keep = next(t for t in before if t is not victim)
    for task, verdict in ((victim, Verdict.REMOVE), (keep, Verdict.ACCEPT)):
        made = make_review(task, "ann", verdict, F.INVOCATION_ERROR, "", "d", "0" * 64)
        append_review(reviews, made)
    after, report = build_toolbench_x(0, per_cell=1, domains=["commerce"], reviews=reviews)
    assert content_key(victim) not in {content_key(t) for t in after}
    assert content_key(keep) in {content_key(t) for t in after}
    [drop] = [d for d in report.drops if d.stage == "review"]
    assert f"removed by ann (reviewed as {victim.id}" in drop.reason
    assert report.counts["reviewed"] == report.counts["screened"] - 1
    assert first_report.counts["reviewed"] == first_report.counts["screened"]
    # another candidate of the same cell took its place
    assert len(after) == len(before)
    assert any((t.subtopic, t.workflow) == (victim.subtopic, victim.workflow) for t in after)
