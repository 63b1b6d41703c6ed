"""Review records, agreement between two reviewers and samples, shared by every suite."""

from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from toolchaos.core.errors import BadInput
from toolchaos.core.types import TaskSpec
from toolchaos.suites import get_suite
from toolchaos.suites.review import (
    Review,
    Verdict,
    agreement,
    append_review,
    current_reviews,
    make_review,
    next_to_review,
    parse_category,
    parse_verdict,
    print_agreement,
    read_reviews,
    read_sample,
    review_order,
    sample_text,
)

SUITE = get_suite("toolbench-x")
SD, IE, EF, OD, CS = (
    "specification_drift",
    "invocation_error",
    "execution_failure",
    "output_drift",
    "cross_source_conflict",
)


@pytest.fixture(scope="module")
def shipped() -> list[TaskSpec]:
    return SUITE.load()


def review(key: str, reviewer: str, verdict: str, category: str, note: str = "") -> Review:
    return make_review(f"tbx-{key}", key, reviewer, Verdict(verdict), category, note, "t", "0")


# -- the review file -----------------------------------------------------------------------


def test_a_later_review_by_the_same_reviewer_wins_and_the_first_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "reviews.jsonl"
    append_review(path, review("k1", "ann", "accept", OD))
    append_review(path, review("k2", "ann", "revise", OD))
    append_review(path, review("k1", "bo", "accept", OD))
    append_review(path, review("k1", "ann", "remove", CS, "stale twice"))
    stored = read_reviews(path)
    assert len(stored) == 4  # nothing is overwritten
    last = current_reviews(stored)
    assert [(r.reviewer, r.key, r.verdict.value) for r in last] == [
        ("ann", "k2", "revise"),
        ("bo", "k1", "accept"),
        ("ann", "k1", "remove"),
    ]
    assert last[2].note == "stale twice" and last[2].category == CS
    first = current_reviews(stored, initial=True)
    assert [(r.reviewer, r.key, r.verdict.value) for r in first] == [
        ("ann", "k1", "accept"),
        ("ann", "k2", "revise"),
        ("bo", "k1", "accept"),
    ]


def test_a_damaged_review_file_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    path = tmp_path / "reviews.jsonl"
    append_review(path, review("k1", "ann", "accept", OD))
    path.write_text(path.read_text() + '{"reviewer": "bo", "verdict": "maybe"}\n')
    before = path.read_bytes()
    with pytest.raises(BadInput, match=r"reviews.jsonl, line 2"):
        append_review(path, review("k2", "ann", "accept", OD))
    assert path.read_bytes() == before


def test_a_file_without_a_final_newline_still_gets_whole_lines(tmp_path: Path) -> None:
    path = tmp_path / "reviews.jsonl"
    path.write_text(review("k1", "ann", "accept", OD).model_dump_json())
    append_review(path, review("k2", "ann", "remove", OD))
    assert [r.key for r in read_reviews(path)] == ["k1", "k2"]


@pytest.mark.parametrize("text", ["maybe", "", "accepted"])
def test_an_unknown_verdict_is_one_sentence(text: str) -> None:
    with pytest.raises(BadInput, match=f"unknown verdict {text!r}; give one of accept, revise"):
        parse_verdict(text)


def test_verdicts_and_categories_are_read_the_way_people_type_them() -> None:
    assert parse_verdict(" Remove ") is Verdict.REMOVE
    assert parse_category("Cross-source conflict", (OD, CS)) == CS
    assert parse_category("output_drift", (OD, CS)) == OD
    with pytest.raises(BadInput, match="unknown category 'timeouts'; give one of output_drift"):
        parse_category("timeouts", (OD, CS))


def test_a_reviewer_name_must_be_one_clean_line() -> None:
    for bad in ("ann, bo", " ann", "", "a\tb"):
        with pytest.raises(BadInput, match="reviewer"):
            review("k1", bad, "accept", OD)
    assert review("k1", "Ann Lee", "accept", OD, "two\nlines").note == "two lines"


# -- agreement -----------------------------------------------------------------------------

# Ten tasks reviewed by ann (A) and bo (B). Verdicts agree on 8 of 10; the marginals are
# accept 6, revise 2, remove 2 for both, so chance agreement is (36 + 4 + 4) / 100 = 0.44
# and kappa = (0.8 - 0.44) / (1 - 0.44) = 0.642857. Categories agree on 9 of 10; A gives
# each family twice, B gives output drift 3 times and cross-source once, so chance is
# (4 + 4 + 4 + 6 + 2) / 100 = 0.20 and kappa = (0.9 - 0.2) / 0.8 = 0.875.
VERDICTS_A = ["accept"] * 6 + ["revise"] * 2 + ["remove"] * 2
VERDICTS_B = ["accept"] * 5 + ["revise", "revise", "accept", "remove", "remove"]
CATEGORIES_A = [c for c in (SD, IE, EF, OD, CS) for _ in range(2)]
CATEGORIES_B = [*CATEGORIES_A[:9], OD]


def constructed() -> list[Review]:
    out = []
    for i in range(10):
        out.append(review(f"k{i}", "ann", VERDICTS_A[i], CATEGORIES_A[i]))
        out.append(review(f"k{i}", "bo", VERDICTS_B[i], CATEGORIES_B[i]))
    out.append(review("k99", "ann", "accept", OD))  # bo never saw it
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
    assert result.category_labels == tuple(sorted((SD, IE, EF, OD, CS)))
    cs, od = result.category_labels.index(CS), result.category_labels.index(OD)
    assert result.category_confusion[cs][cs] == 1 and result.category_confusion[cs][od] == 1
    assert sum(map(sum, result.category_confusion)) == 10
    assert [d.key for d in result.disagreements] == ["k5", "k7", "k9"]
    assert result.disagreements[2].categories == (CS, OD)


def test_agreement_says_when_reviews_come_from_several_task_files() -> None:
    assert agreement(constructed()).datasets == ["0"]
    later = review("k1", "bo", "accept", SD).model_copy(update={"dataset_sha256": "1"})
    result = agreement([*constructed(), later])
    assert result.datasets == ["0", "1"]
    console = Console(width=80, record=True)
    print_agreement(result, console)
    assert "made on 2 task files" in console.export_text()


def test_initial_agreement_uses_the_first_verdicts() -> None:
    revised = [*constructed(), review("k5", "ann", "revise", EF)]
    assert agreement(revised).verdict.k == 9
    assert agreement(revised, initial=True).verdict.k == 8


def test_agreement_needs_two_named_reviewers() -> None:
    three = [*constructed(), review("k1", "cy", "accept", OD)]
    with pytest.raises(BadInput, match=r"3 reviewers \(ann, bo, cy\); name two"):
        agreement(three)
    assert agreement(three, ("ann", "cy")).n == 1
    with pytest.raises(BadInput, match="no review by 'dee'"):
        agreement(three, ("ann", "dee"))
    with pytest.raises(BadInput, match="two different reviewers"):
        agreement(three, ("ann", "ann"))


def test_no_shared_task_gives_no_rate_rather_than_a_number() -> None:
    result = agreement([review("k1", "ann", "accept", OD), review("k2", "bo", "accept", OD)])
    assert result.n == 0 and result.verdict.rate is None and result.verdict_kappa is None
    console = Console(width=80, record=True)
    print_agreement(result, console)
    assert "n/a (no task reviewed by both)" in console.export_text()


def test_the_agreement_fits_80_columns() -> None:
    console = Console(width=80, record=True)
    print_agreement(agreement(constructed()), console)
    text = console.export_text()
    assert "80.0% (8/10), 95% Wilson interval 49.0-94.3%" in text
    assert "Cohen's kappa on verdict: 0.643" in text and "91.5%" in text
    assert "(5) specification_drift" in text and "3 disagreements" in text
    assert max(len(line) for line in text.splitlines()) <= 80


# -- what to review ------------------------------------------------------------------------


def test_the_sample_is_deterministic_and_stratified(shipped: list[TaskSpec]) -> None:
    text = sample_text(shipped, 200, 0, SUITE.stratum, "shipped")
    assert text == sample_text(shipped, 200, 0, SUITE.stratum, "shipped")
    assert text != sample_text(shipped, 200, 1, SUITE.stratum, "shipped")
    ids = [line for line in text.splitlines() if not line.startswith("#")]
    assert len(ids) == len(set(ids)) == 200
    by_id = {t.id: t for t in shipped}
    strata = Counter(SUITE.stratum(by_id[i]) for i in ids)  # (workflow, hazard family)
    sizes = Counter(SUITE.stratum(t) for t in shipped)
    assert len(strata) == 15
    # an even share (13 or 14), or the whole of a stratum smaller than that (v3 keeps 9
    # sequential execution failures, say)
    assert all(n in (13, 14) or n == sizes[s] for s, n in strata.items()), (strata, sizes)


def test_a_sample_file_reads_back_in_order(tmp_path: Path, shipped: list[TaskSpec]) -> None:
    path = tmp_path / "sample.txt"
    path.write_text(sample_text(shipped, 20, 3, SUITE.stratum, "shipped"))
    ids = read_sample(path, [t.id for t in shipped])
    assert ids == [t.id for t in review_order(shipped, SUITE.stratum, 3)[:20]]
    path.write_text("# header\ntbx-no-such-task\n")
    with pytest.raises(BadInput, match="line 2: no task 'tbx-no-such-task'"):
        read_sample(path, [t.id for t in shipped])
    with pytest.raises(BadInput, match="between 1 and 1106"):
        sample_text(shipped, 0, 0, SUITE.stratum, "shipped")


def test_next_skips_what_the_reviewer_has_done(shipped: list[TaskSpec]) -> None:
    order = review_order(shipped, SUITE.stratum, 0)
    assert sorted(t.id for t in order) == sorted(t.id for t in shipped)
    done = [review(t.id, "ann", "accept", OD) for t in order[:3]]

    def key(task: TaskSpec) -> str:
        return task.id

    assert next_to_review(order, done, "ann", key) is order[3]
    assert next_to_review(order, done, "bo", key) is order[0]
    assert next_to_review(order[:3], done, "ann", key) is None
