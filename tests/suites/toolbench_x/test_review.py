"""ToolBench-X's side of human review: the content key, the view, the build's review stage."""

from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from toolchaos.core.types import TaskSpec
from toolchaos.suites import get_suite
from toolchaos.suites.review import Review, Verdict, append_review, make_review
from toolchaos.suites.toolbench_x.pipeline import BuildReport, build_toolbench_x
from toolchaos.suites.toolbench_x.review import (
    CATEGORIES,
    REVIEWS_FILE,
    apply_reviews,
    content_key,
    removed_task_keys,
)
from toolchaos.suites.toolbench_x.review_view import (
    ToolBenchXDesk,
    print_view,
    recovery_words,
    render_view_html,
    task_view,
)

SUITE = get_suite("toolbench-x")


@pytest.fixture(scope="module")
def shipped() -> list[TaskSpec]:
    return SUITE.load(SUITE.version_path("v2"))  # frozen: every variant, legacy ones too


def review(task: TaskSpec, verdict: Verdict, note: str = "") -> Review:
    key = content_key(task)
    return make_review(task.id, key, "ann", verdict, "output_drift", note, "d", "0" * 64)


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


def test_a_task_is_removed_while_any_reviewers_last_verdict_is_remove(
    tmp_path: Path, shipped: list[TaskSpec]
) -> None:
    path = tmp_path / "reviews.jsonl"
    task = shipped[0]
    other = make_review(
        task.id, content_key(task), "bo", Verdict.ACCEPT, "output_drift", "", "d", "0"
    )
    append_review(path, other)
    append_review(path, review(task, Verdict.REMOVE))
    assert removed_task_keys(path) == {content_key(task)}
    append_review(path, review(task, Verdict.ACCEPT, "settled"))
    assert removed_task_keys(path) == set()


def test_the_desk_offers_the_hazard_families(shipped: list[TaskSpec]) -> None:
    desk = SUITE.review_desk()
    assert isinstance(desk, ToolBenchXDesk)
    assert desk.categories == CATEGORIES and len(CATEGORIES) == 5
    task = shipped[0]
    assert task.hazard is not None
    assert desk.category_of(task) == task.hazard.family.value
    assert desk.content_key(task) == content_key(task)


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
    assert view.hazard.checks[0].startswith(
        "the oracle, following the recipe, reaches the reference under the hazard in "
    )
    assert view.hazard.checks[1] == "the naive baseline fails under the hazard"
    # the oracle's whole path under the hazard: the rejected calls, then the renamed ones
    assert len(view.hazard.oracle_path) > len(view.hazard.encounters)
    assert any(f'"{new}"' in seen.call for seen in view.hazard.oracle_path)
    # an implicit rename: the recipe reads the changelog first, then renames
    assert view.hazard.recovery[-1] == (
        f"Change the call and retry: rename arguments '{old}' -> '{new}'."
    )
    assert task.hazard.tier != "implicit" or view.hazard.recovery[0].startswith(
        "Read the service changelog"
    )
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
        review(tasks[1], Verdict.REMOVE, "cue missing"),
        review(tasks[2], Verdict.REVISE),
    ]
    report = BuildReport(seed=0, per_cell=5)
    kept = apply_reviews(tasks, reviews, report)
    assert [t.id for t in kept] == [tasks[0].id, tasks[2].id, tasks[3].id]
    [drop] = report.drops
    assert (drop.stage, drop.task) == ("review", tasks[1].id)
    assert drop.reason == (
        f"removed by ann (reviewed as {tasks[1].id}, category output_drift): cue missing"
    )


def hazards_by_key(tasks: list[TaskSpec]) -> dict[str, object]:
    return {content_key(t): t.hazard for t in tasks}


def test_the_next_build_drops_a_removed_task_and_changes_no_other(tmp_path: Path) -> None:
    reviews = tmp_path / "reviews.jsonl"
    domains = ["commerce"]
    before, first_report = build_toolbench_x(0, per_cell=2, domains=domains, reviews=reviews)
    # a strict-format task: its hazard rewrote the id in the prompt during the build
    victim = next(
        (t for t in before if t.hazard is not None and t.hazard.variant == "strict_format"),
        before[0],
    )
    keep = next(t for t in before if t is not victim)
    for task, verdict in ((victim, Verdict.REMOVE), (keep, Verdict.ACCEPT)):
        append_review(reviews, review(task, verdict))
    after, report = build_toolbench_x(0, per_cell=2, domains=domains, reviews=reviews)
    [drop] = [d for d in report.drops if d.stage == "review"]
    assert f"removed by ann (reviewed as {victim.id}, category output_drift)" in drop.reason
    assert first_report.counts["reviewed"] == first_report.counts["validated"]
    assert report.counts["reviewed"] == report.counts["validated"] - 1
    stages = list(report.counts)
    assert stages.index("validated") + 1 == stages.index("reviewed") < stages.index("selected")
    # the removed task is gone, and every other task kept its hazard (the reviews of the
    # others stay valid)
    expected = hazards_by_key(before)
    del expected[content_key(victim)]
    assert hazards_by_key(after) == expected


def test_the_selection_fills_the_place_of_a_removed_task(tmp_path: Path) -> None:
    domains = ["commerce"]
    everything, _ = build_toolbench_x(0, per_cell=2, domains=domains)
    per_workflow = Counter(t.workflow for t in everything)
    targets = {workflow: n - 1 for workflow, n in per_workflow.items()}
    shipped, _ = build_toolbench_x(0, per_cell=2, domains=domains, targets=targets)
    reviews = tmp_path / "reviews.jsonl"
    victim = shipped[0]
    append_review(reviews, review(victim, Verdict.REMOVE, "incoherent"))
    rebuilt, report = build_toolbench_x(
        0, per_cell=2, domains=domains, targets=targets, reviews=reviews
    )
    assert len(rebuilt) == len(shipped) == sum(targets.values()) and report.shortfall == {}
    assert content_key(victim) not in {content_key(t) for t in rebuilt}
    assert Counter(t.workflow for t in rebuilt) == Counter(targets)


def test_a_task_without_a_hazard_is_shown_in_the_clean_arm(shipped: list[TaskSpec]) -> None:
    task = shipped[0].model_copy(update={"hazard": None, "hints": None})
    view = task_view(task, "shipped", "0" * 64)
    assert (view.arm, view.hazard, view.hints, view.problems) == ("clean", None, [], [])
    console = Console(width=80, record=True)
    print_view(view, console)
    text = console.export_text()
    assert "Tools as the agent sees them (clean arm)" in text and "Recovery path" not in text
