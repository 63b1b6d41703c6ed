"""v2 scoring of ToolBench-X tasks: writes compared on the fields the task is about, the
readout of a task that writes and asks, and what every v2 task carries from its build."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from toolchaos.agents.native import DEFAULT_SYSTEM, opening_messages
from toolchaos.core.jsonutil import dumps
from toolchaos.core.types import TaskSpec, ToolCall
from toolchaos.env.runtime import Env
from toolchaos.scoring.answer import score_answer
from toolchaos.suites import get_suite
from toolchaos.suites.toolbench_x.generate import (
    draft_to_task,
    raw_candidates,
    with_scoring_fields,
    world_date,
)
from toolchaos.suites.toolbench_x.scoring import score_episode
from toolchaos.suites.toolbench_x.validate import (
    episode_correct,
    leak_problems,
    play_sync,
    validate_task,
)

# transfer savings -> checking, schedule a payment, then: "What will checking show?"
TRANSFER = "tbx-loans-and-payments-seq-02"
CALLS = [
    ("transfer_funds", {"from_account_id": "ACC-10037", "to_account_id": "ACC-10036"}),
    ("schedule_payment", {"from_account_id": "ACC-10036", "payee": "T-Mobile"}),
]


@pytest.fixture(scope="module")
def shipped() -> dict[str, TaskSpec]:
    suite = get_suite("toolbench-x")
    return {t.id: t for t in suite.load(suite.version_path("v1"))}


@pytest.fixture(scope="module")
def transfer(shipped: dict[str, TaskSpec]) -> TaskSpec:
    return with_scoring_fields(shipped[TRANSFER])


def play(task: TaskSpec, amount: float = 723.61, memo: str | None = None, extra: int = 0) -> str:
    """Do the task's writes by hand (optionally with a memo, or an extra transfer)."""
    env = Env(task, "clean")
    args: list[dict[str, Any]] = [
        {**CALLS[0][1], "amount_usd": amount},
        {**CALLS[1][1], "amount_usd": amount, "pay_on": "2026-03-21"},
    ]
    if memo is not None:
        args = [{**a, "memo": memo} for a in args]
    calls = [(name, a) for (name, _), a in zip(CALLS, args, strict=True)]
    calls += [("transfer_funds", {**CALLS[0][1], "amount_usd": 1.0})] * extra
    for i, (name, arguments) in enumerate(calls):
        observation = env.call(ToolCall(id=f"c{i}", name=name, arguments=dumps(arguments)))
        assert observation.ok, observation.content
    return env.end_state()


def test_the_expected_writes_leave_out_the_optional_memo(transfer: TaskSpec) -> None:
    writes = transfer.reference.expected_writes
    assert writes is not None
    tables = {(w.table, w.key) for w in writes}
    assert ("accounts", "ACC-10036") in tables and ("payments", None) in tables
    assert not any("memo" in w.fields for w in writes)
    payment = next(w for w in writes if w.table == "payments")
    assert payment.fields["amount_usd"] == 723.61 and payment.fields["payee_name"] == "T-Mobile"
    assert json.loads(transfer.reference.end_state or "")["other"] == []


def test_an_optional_memo_does_not_fail_a_write_task(
    transfer: TaskSpec, shipped: dict[str, TaskSpec]
) -> None:
    with_memo = play(transfer, memo="phone bill")
    score = score_episode("Checking will show $7,899.64.", with_memo, transfer)
    assert score.correct and score.state_match and score.readout, score.explanation
    # v1 compared the whole world: the memo alone failed the same episode
    v1 = shipped[TRANSFER]
    assert not score_episode(
        "Checking will show $7,899.64.", play(v1, memo="phone bill"), v1
    ).correct


def test_a_write_task_whose_readout_is_wrong_fails(transfer: TaskSpec) -> None:
    state = play(transfer)
    score = score_episode("Checking will show $7,176.03.", state, transfer)
    assert score.state_match and score.readout is False and not score.correct
    assert "readout" in score.explanation
    score = score_episode("Done, the payment is scheduled.", state, transfer)
    assert not score.correct  # the question was asked, so it must be answered


def test_a_wrong_write_fails_and_says_which_field(transfer: TaskSpec) -> None:
    score = score_episode("Checking will show $7,899.64.", play(transfer, amount=700.0), transfer)
    assert not score.correct and not score.state_match
    assert "balance_usd" in score.explanation and "ACC-" in score.explanation


def test_a_write_the_task_does_not_ask_for_fails(transfer: TaskSpec) -> None:
    score = score_episode("Checking will show $7,899.64.", play(transfer, extra=1), transfer)
    assert not score.correct
    assert "also wrote" in score.explanation or "has " in score.explanation


def test_a_v2_write_task_validates_and_the_oracle_passes_in_every_arm(transfer: TaskSpec) -> None:
    assert validate_task(transfer) == []
    for arm in ("clean", "hazard"):
        assert episode_correct(play_sync(transfer, "oracle", arm), transfer)
    assert not episode_correct(play_sync(transfer, "naive", "hazard"), transfer)


def test_the_system_prompt_gives_the_worlds_date(transfer: TaskSpec) -> None:
    assert transfer.system == f"{DEFAULT_SYSTEM}\n\nToday's date is 2026-03-02 (Monday)."
    env = Env(transfer, "clean")
    assert transfer.system.endswith(world_date(env.world))
    for arm in ("clean", "hint", "oracle-label"):  # what the agent is sent, in every arm
        system = opening_messages(transfer, arm)[0].content or ""
        assert system.startswith(transfer.system)


def build() -> list[TaskSpec]:
    """The tasks two domains' templates build (candidates that do not run are left out)."""
    out = []
    for cand in raw_candidates(0, 2, ["commerce", "personal_finance"]):
        if cand.draft is None:
            continue
        try:
            task = draft_to_task(cand.draft, cand.subtopic, cand.workflow, cand.label, 0)
        except ValueError:
            continue
        out.append(task)
    return out


def test_every_built_v2_task_carries_its_scoring_fields() -> None:
    built = build()
    date_line = "\n\nToday's date is 2026-03-02 (Monday)."
    assert built and all(t.system == DEFAULT_SYSTEM + date_line for t in built)
    writing = [t for t in built if t.reference.writes]
    assert writing and all(t.reference.expected_writes for t in writing)
    assert any(t.reference.aliases for t in built)
    assert any(t.reference.distractors for t in built)
    for task in built[::4] + writing:
        assert episode_correct(play_sync(task, "oracle", "clean"), task), task.id


def test_aliases_pass_the_leak_check_like_the_answer(shipped: dict[str, TaskSpec]) -> None:
    task = next(t for t in shipped.values() if t.reference.answer == "2026-03-03")
    task = with_scoring_fields(task)
    assert "March 3" in task.reference.aliases
    leaky = task.model_copy(update={"prompt": task.prompt + " (I'm free from March 3.)"})
    problems = leak_problems(leaky)
    assert problems and "March 3" in problems[0].reason


CHANGES = {"tbx-a-b-experiments-par-03", "tbx-fares-and-bookings-seq-02"}
"""The v1 tasks whose negative answer is a change: a relative lift, a difference in fare."""


def test_the_forms_v1_rejected_are_accepted_on_the_shipped_tasks(
    shipped: dict[str, TaskSpec],
) -> None:
    """The issue's counts over the shipped file: 28 'out of 10' prompts, 19 negative answers,
    25 date answers in the world's year (of 39 dates); each now takes the written form.

    A negative answer is written with "minus"; as a drop only where the question is about
    a change (a lift, a difference in fare), never for a level (a temperature, an NPS)."""
    out_of_10 = [t for t in shipped.values() if "out of 10" in t.prompt.lower()]
    negative = [t for t in shipped.values() if t.reference.answer.startswith("-")]
    dates = [t for t in shipped.values() if t.reference.answer.startswith("2026-")]
    assert (len(out_of_10), len(negative), len(dates)) == (28, 19, 25)
    for task in out_of_10 + negative + dates:
        ref = with_scoring_fields(task).reference
        answer = ref.answer
        if task in out_of_10:
            written = f"It is rated {answer}/10."
        elif task in negative and task.id in CHANGES:
            written = f"That is a {answer[1:]}% drop."
        elif task in negative:
            drop = f"That is a {answer[1:]}% drop."
            assert not score_answer(drop, answer, ref.aliases, ref.distractors).correct, task.id
            written = f"It is minus {answer[1:]}."
        else:
            day = date.fromisoformat(answer)
            written = f"It is on {day:%B} {day.day}."
        v1 = task.reference
        assert not score_answer(written, v1.answer, v1.aliases).correct, task.id
        assert score_answer(written, answer, ref.aliases, ref.distractors).correct, task.id


def test_a_world_patch_is_where_the_episode_starts_not_one_of_its_writes(
    transfer: TaskSpec,
) -> None:
    patch = {"accounts": {"ACC-10036": {"balance_usd": 1000.0}}}
    patched = with_scoring_fields(transfer.model_copy(update={"world_patch": patch}))
    env = Env(patched, "clean")
    assert env.world.written_rows() == {}
    assert env.world.table("accounts")["ACC-10036"].balance_usd == 1000.0
    checking = next(w for w in patched.reference.expected_writes or [] if w.key == "ACC-10036")
    assert checking.fields == {"balance_usd": 1723.61}
    state = play(patched)
    assert score_episode("Checking will show $1,723.61.", state, patched).correct


# -- rounding the prompt leaves open (docs/scoring.md, "Rounding") -------------------------


@pytest.fixture(scope="module")
def v2() -> dict[str, TaskSpec]:
    """The frozen v2 task file (the ``shipped`` fixture above is v1's)."""
    suite = get_suite("toolbench-x")
    return {t.id: t for t in suite.load(suite.version_path("v2"))}


@pytest.mark.parametrize(
    ("answer", "correct"),
    [
        ("The total is $604.66.", True),  # the reference: the sum of the rounded amounts
        ("The total is $604.67.", True),  # the amounts added first, rounded last
        ("The total is $604.70.", False),  # further off than either rounding order goes
        ("The total is $604.63.", False),
        ("Either $604.66 or $604.67.", False),  # two candidates are still a hedge
    ],
)
def test_a_sum_of_converted_amounts_accepts_both_rounding_orders(
    v2: dict[str, TaskSpec], answer: str, correct: bool
) -> None:
    task = v2["tbx-currency-exchange-mix-03"]
    assert task.reference.answer == "604.66" and len(task.reference.answer_spec.refs) == 4
    assert score_episode(answer, None, task).correct is correct


def test_a_sum_of_whole_counts_accepts_no_slack(v2: dict[str, TaskSpec]) -> None:
    task = v2["tbx-notes-and-documents-par-04"]
    assert score_episode("6,209 words in total (1,815 + 4,035 + 359)", None, task).correct
    assert not score_episode("6,210 words in total.", None, task).correct
    chores = v2["tbx-household-chores-par-02"]
    assert score_episode(
        "Alex will spend 150 minutes in total (60 + 50 + 40).", None, chores
    ).correct
    assert not score_episode("Alex will spend 60 minutes in total.", None, chores).correct


def rate_task(v2: dict[str, TaskSpec], reference: str, prompt: str) -> TaskSpec:
    task = v2["tbx-a-b-experiments-mix-01"]
    ref = task.reference.model_copy(update={"answer": reference, "distractors": []})
    return task.model_copy(update={"reference": ref, "prompt": prompt})


@pytest.mark.parametrize(
    ("answer", "correct"),
    [
        ("The highest is 10.42%.", True),
        ("The highest is 10.4%.", True),  # within half a unit of its last place
        ("The highest is 10.5%.", False),  # outside it
        ("The highest is 10%.", False),  # fewer than three significant digits
        ("The highest is 10.41%.", False),  # as precise as the reference, and wrong
    ],
)
def test_a_rounding_the_prompt_does_not_fix_is_accepted(
    v2: dict[str, TaskSpec], answer: str, correct: bool
) -> None:
    task = rate_task(v2, "10.42", "What is the highest control conversion rate (%)?")
    assert score_episode(answer, None, task).correct is correct


def test_a_prompt_that_fixes_the_precision_gets_it(v2: dict[str, TaskSpec]) -> None:
    prompt = "What is the highest control conversion rate (%), to two decimal places?"
    assert not score_episode("10.4%.", None, rate_task(v2, "10.42", prompt)).correct


def test_a_rounding_another_candidate_shares_names_neither(v2: dict[str, TaskSpec]) -> None:
    task = rate_task(v2, "10.42", "What is the highest control conversion rate (%)?")
    task = task.model_copy(
        update={"reference": task.reference.model_copy(update={"distractors": ["10.38"]})}
    )
    assert not score_episode("The highest is 10.4%.", None, task).correct
