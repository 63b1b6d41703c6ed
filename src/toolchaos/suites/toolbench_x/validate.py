"""Task validators: the checks a task must pass to ship (docs/architecture.md, invariant 5).

They replay, never read: the oracle is played in the clean env and in the hazarded env,
the naive baseline is played under the hazard, and the leakage check looks for every
normalized form of the answer in everything the agent is shown.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, cast

from pydantic import BaseModel, Field

from toolchaos.agents.native import LoopConfig, opening_messages
from toolchaos.core.errors import ToolError
from toolchaos.core.jsonutil import dumps
from toolchaos.core.reference import Unresolved, compute_answer, ref_steps, resolve
from toolchaos.core.types import Episode, EpisodeStatus, TaskSpec, ToolCall
from toolchaos.core.world import FROZEN_RELEASE
from toolchaos.domains import get_domain
from toolchaos.runner.episode import play
from toolchaos.runner.plan import PlannedEpisode
from toolchaos.scoring.answer import leaks
from toolchaos.suites.base import Problem
from toolchaos.suites.scripted import ScriptedFactory
from toolchaos.suites.toolbench_x.changelog import CHANGELOG_SPEC, CHANGELOG_TOOL, make_env
from toolchaos.suites.toolbench_x.prose import prompt_glitches
from toolchaos.suites.toolbench_x.scoring import score_episode


class ReferenceRun(BaseModel):
    """What the reference path produced in the clean world (and the world it left)."""

    results: dict[int, Any]
    answer: str
    end_state: str
    world: Any = Field(default=None, exclude=True, repr=False)


def replay_reference(task: TaskSpec) -> ReferenceRun:
    """Run the reference path in a clean env and compute the answer and end state.

    Raises:
        ValueError: a step failed or a ref could not be resolved.
    """
    env = make_env(task, "clean")
    results: dict[int, Any] = {}
    for index, step in enumerate(task.reference.steps):
        missing = ref_steps(step.args) - set(results)
        if missing:
            raise ValueError(f"step {index} needs steps {sorted(missing)} that come later")
        try:
            arguments = resolve(step.args, results)
        except Unresolved as exc:
            raise ValueError(f"step {index}: {exc}") from None
        call = ToolCall(id=f"ref_{index}", name=step.tool, arguments=dumps(arguments))
        observation = env.call(call)
        if not observation.ok:
            message = observation.content.get("error", {}).get("message", "")
            raise ValueError(f"step {index} ({step.tool}) failed: {message}")
        results[index] = observation.content
    try:
        answer = compute_answer(task.reference.answer_spec, results)
    except Unresolved as exc:
        raise ValueError(f"answer: {exc}") from None
    return ReferenceRun(results=results, answer=answer, end_state=env.end_state(), world=env.world)


_LOOP: list[asyncio.AbstractEventLoop] = []


def play_sync(task: TaskSpec, mode: str, arm: str) -> Episode:
    """Play one scripted episode synchronously (for validation and tests).

    A scripted policy never waits, so the episode's coroutine runs to its end on its first
    step, with no event loop at all. One that waits is played again on one event loop
    shared by every call (``asyncio.run`` would make a loop per episode and, in the main
    thread, install a SIGINT handler whose message holds the repr of the whole task).
    """
    factory = ScriptedFactory(mode)
    item = PlannedEpisode(model=factory.spec, task=task, arm=arm, sample=0)
    # no pass through an event loop: a tenth of a build's time. An episode that waits is
    # played again from the start on the loop (it is deterministic)
    episode = play(item, factory, LoopConfig())
    try:
        episode.send(None)
    except StopIteration as finished:
        return cast(Episode, finished.value)
    episode.close()
    if not _LOOP or _LOOP[0].is_closed():
        _LOOP[:] = [asyncio.new_event_loop()]
    return _LOOP[0].run_until_complete(play(item, factory, LoopConfig()))


def episode_correct(episode: Episode, task: TaskSpec, *, exact: bool = False) -> bool:
    """Whether a finished episode scores correct.

    ``exact`` holds the answer to the reference's own precision, without the roundings a
    run's scoring also accepts (:func:`~toolchaos.suites.toolbench_x.scoring.rounding_aliases`):
    the oracle must reach the reference itself, while a policy that must fail must fail
    under the scoring a run applies.
    """
    if episode.status is not EpisodeStatus.FINISHED:
        return False
    return score_episode(episode.final_answer, episode.end_state, task, rounding=not exact).correct


def shown_texts(task: TaskSpec) -> list[str]:
    """Everything the agent could be shown apart from tool results."""
    domain = get_domain(task.domain)
    # metadata (the task's logic, its number of calls) is the build's, never the agent's
    texts = [task.prompt, task.system]
    for message in opening_messages(task, "hint") + opening_messages(task, "oracle-label"):
        texts.append(message.content or "")
    for name in task.tools:
        spec = CHANGELOG_SPEC if name == CHANGELOG_TOOL else domain.tools[name].spec
        texts.append(f"{spec.name} {spec.description} {dumps(spec.parameters)}")
    if task.hints is not None:
        texts += [task.hints.minimal, task.hints.detailed]
    return texts


def leak_problems(task: TaskSpec) -> list[Problem]:
    """The first place the answer leaks into what the agent is shown (empty when none)."""
    answers = [task.reference.answer, *task.reference.aliases]
    for text in shown_texts(task):
        for answer in answers:
            if answer and leaks(answer, text):
                reason = f"answer {answer!r} appears in {text[:60]!r}"
                return [Problem(task_id=task.id, check="leak", reason=reason)]
    return []


def error_texts(episode: Episode) -> list[str]:
    """The error messages and changelog entries the agent saw (checked for leaks too)."""
    return [
        dumps(e.observation.content)
        for e in episode.trace
        if not e.observation.ok or e.call.name == CHANGELOG_TOOL
    ]


def errors_leak(task: TaskSpec, *episodes: Episode) -> bool:
    """Whether the answer appears in a tool error message of any of ``episodes``."""
    answer = task.reference.answer
    return bool(answer) and any(
        leaks(answer, text) for episode in episodes for text in error_texts(episode)
    )


def validate_task(task: TaskSpec) -> list[Problem]:
    """Run every validator on ``task`` and return its problems (empty when it ships)."""
    problems: list[Problem] = []

    def fail(check: str, reason: str) -> None:
        problems.append(Problem(task_id=task.id, check=check, reason=reason))

    try:
        ref = replay_reference(task)
    except (ValueError, ToolError, KeyError) as exc:
        fail("reference", f"the reference path does not run in the clean world: {exc}")
        return problems
    if task.reference.writes:
        if ref.end_state != task.reference.end_state:
            fail("reference", "the replayed end state differs from the stored reference end state")
    elif ref.answer != task.reference.answer:
        fail(
            "reference",
            f"the replayed answer {ref.answer!r} differs from {task.reference.answer!r}",
        )
    if not episode_correct(play_sync(task, "oracle", "clean"), task, exact=True):
        fail("oracle-clean", "the oracle does not reach the reference in the clean world")
    if task.hazard is not None:
        oracle = play_sync(task, "oracle", "hazard")
        if not oracle.hazard_events:
            fail("hazard-fires", "the hazard never fired on the oracle's path")
        if not episode_correct(oracle, task, exact=True):
            fail("recovery", "the recovery recipe does not reach the reference under the hazard")
        naive = play_sync(task, "naive", "hazard")
        if episode_correct(naive, task):
            fail(
                "naive-survives",
                "a naive agent that never recovers still succeeds: the hazard does not matter",
            )
        if errors_leak(task, oracle, naive):
            fail("leak", "the answer appears in a tool error message or changelog entry")
        if task.hazard.tier is not None:  # a v2 task: the validity gates hold too
            problems.extend(gate_problems(task))
    problems.extend(leak_problems(task))
    if int(task.metadata.get("release", FROZEN_RELEASE)) >= 3:  # v1 and v2 keep theirs
        for check, hits in prompt_glitches(task.prompt).items():
            fail("prose", f"{check} in the prompt: {'; '.join(hits)}")
    return problems


GATE_FAILURES = {
    "lenient": "a reader that understands JSON survives the hazard without recovering",
    "bypasser": "an agent that steps around the failing call survives the hazard",
}


def gate_problems(task: TaskSpec) -> list[Problem]:
    """The validity gates a v2 task must still pass: coherence, dates, policies.

    See docs/toolbench-x.md, "The validity gates".

    The lenient reader and the bypasser must fail under the hazard, and the error
    follower must succeed exactly when the task is tagged ``explicit``.
    """
    from toolchaos.suites.toolbench_x.coherence import coherence_problems, time_problems

    assert task.hazard is not None
    problems = coherence_problems(task) + time_problems(task)
    for mode, reason in GATE_FAILURES.items():
        if episode_correct(play_sync(task, mode, "hazard"), task):
            problems.append(Problem(task_id=task.id, check=mode, reason=reason))
    solved = episode_correct(play_sync(task, "follower", "hazard"), task)
    if solved != (task.hazard.tier == "explicit"):
        reason = f"tagged {task.hazard.tier} but the error follower " + (
            "solves it" if solved else "does not solve it"
        )
        problems.append(Problem(task_id=task.id, check="tier", reason=reason))
    return problems


def duplicate_problems(tasks: Sequence[TaskSpec]) -> list[Problem]:
    """Each task that asks what an earlier task of ``tasks`` asks.

    The same normalized prompt, or the same question in other words
    (:func:`~toolchaos.suites.toolbench_x.generate.question_key`): the screens a build
    applies, so a file put together by hand is held to them too.
    """
    from toolchaos.suites.toolbench_x.generate import Asked

    asked = Asked()
    problems = []
    for task in tasks:
        if first := asked.by_prompt(task.prompt):
            reason = f"the same prompt as {first}"
            problems.append(Problem(task_id=task.id, check="duplicate-prompt", reason=reason))
        elif first := asked.by_question(task):
            reason = f"asks what {first} asks in other words (the same calls and answer)"
            problems.append(Problem(task_id=task.id, check="duplicate-question", reason=reason))
        else:
            asked.keep(task, task.id)
    return problems
